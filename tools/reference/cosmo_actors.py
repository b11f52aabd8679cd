#!/usr/bin/env python3
"""Independent reference reader for the actors of each episode-1 map as a renderer draws
them: how many are drawn, hidden (a sprite the game never shows), special (no sprite) or not
drawable (no actor type, or a frame outside ACTORS.MNI).

From the raw bytes of COSMO1.STN and COSMO1.VOL, with the Python standard library only, the
format facts of `docs/formats/cosmo.md` ("Maps", "Sprites", "Actors") and the game's table
of actor types as Cosmodoc publishes it (`src/data/actor.json` of smitelli/cosmodoc: for
each actor type, its sprite type), transcribed below from that file, not from the Rust
table. `tools/reference/goldens/cosmo_actors.json` is its output; gamedata-render's and the
CLI's real-file tests read that file.

    python3 tools/reference/cosmo_actors.py COSMO_DIR            # print the figures
    python3 tools/reference/cosmo_actors.py COSMO_DIR --check F  # compare with F, exit 1 on a difference
"""

import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cosmo_goldens import entry_bytes, facts_main, find  # noqa: E402

MAPS = [f"A{i}.MNI" for i in range(1, 12)] + ["BONUS1.MNI", "BONUS2.MNI"]
SPECIAL_BELOW = 31  # a map's actor value below 31 is a special actor; else actor type value - 31
SEGMENT = 65535  # ACTORS.MNI is loaded in 65,535-byte segments; a frame lies in one
MASKED_TILE = 40  # bytes of one masked tile (8 x 8, five planes)

# Cosmodoc's actor table (src/data/actor.json): actor types 0 to 265 but these, which the
# game does not define.
UNDEFINED = {15, 19, 21, 23, 26, 27, 30, 60, 76, 77, 79, 97, 98, 99, 103, 131, 132, 133, 144,
             185, 222}
# Its sprite type where it is not the actor type itself.
SPRITE_OF = {
    6: 5, 22: 20, 31: 0, 33: 0, 35: 29, 37: 29, 40: 41, 42: 43, 48: 49, 50: 49, 52: 0, 53: 0,
    56: 29, 58: 29, 59: 60, 61: 60, 66: 68, 67: 68, 74: 75, 81: 0, 84: 83, 93: 0, 96: 95,
    100: 29, 104: 105, 107: 108, 109: 68, 110: 68, 115: 0, 116: 0, 117: 29, 119: 0, 120: 60,
    121: 60, 142: 29, 148: 0, 156: 29, 157: 29, 158: 29, 159: 32, 160: 34, 161: 36, 165: 164,
    166: 164, 167: 0, 169: 0, 171: 0, 173: 29, 175: 29, 190: 192, 191: 192, 193: 29, 195: 29,
    197: 29, 199: 29, 203: 108, 213: 194, 214: 196, 215: 198, 216: 200, 217: 2, 218: 29,
    219: 220, 224: 0, 225: 226, 227: 0, 228: 229, 230: 0, 231: 232, 236: 237, 251: 25,
    252: 155, 263: 28, 264: 1,
}
SPRITE_OF.update({t: 125 for t in [*range(204, 213), *range(238, 244), *range(253, 263)]})
# Sprite types the game never shows: Cosmore's sprite.h marks 150, 248, 249, 250 and 265
# "never shown"; Cosmodoc says the episode-1 end triggers (164) are never drawn.
NEVER_SHOWN = {150, 164, 248, 249, 250, 265}


def sprite_of(actor_type):
    if actor_type > 265 or actor_type in UNDEFINED:
        return None
    return SPRITE_OF.get(actor_type, actor_type)


def frame_zero_fits(info, actors, sprite):
    """Frame 0 of `sprite`: the record at the word offset of its lookup entry, whose
    `width * height` masked tiles must lie in one segment of ACTORS.MNI."""
    types = struct.unpack_from("<H", info, 0)[0]
    if sprite >= types:
        return False
    word = struct.unpack_from("<H", info, 2 * sprite)[0]
    if 2 * word + 8 > len(info):
        return False
    height, width, offset, segment = struct.unpack_from("<4H", info, 2 * word)
    size = MASKED_TILE * width * height
    start = segment * SEGMENT + offset
    return offset + size <= SEGMENT and start + size <= len(actors)


def facts(folder):
    with open(find(folder, "COSMO1.STN"), "rb") as f:
        stn = f.read()
    with open(find(folder, "COSMO1.VOL"), "rb") as f:
        vol = f.read()
    info = entry_bytes(stn, "ACTRINFO.MNI")
    actors_mni = entry_bytes(stn, "ACTORS.MNI")
    out = {}
    for name in MAPS:
        m = entry_bytes(vol, name)
        actor_words = struct.unpack_from("<H", m, 4)[0]
        counts = {"drawn": 0, "hidden": 0, "special": 0, "not_drawn": 0}
        for i in range(actor_words // 3):
            value = struct.unpack_from("<H", m, 6 + 6 * i)[0]
            if value < SPECIAL_BELOW:
                counts["special"] += 1
                continue
            sprite = sprite_of(value - SPECIAL_BELOW)
            if sprite is None:
                counts["not_drawn"] += 1
            elif sprite in NEVER_SHOWN:
                counts["hidden"] += 1
            elif frame_zero_fits(info, actors_mni, sprite):
                counts["drawn"] += 1
            else:
                counts["not_drawn"] += 1
        out[name] = counts
    return out


def main(argv):
    return facts_main(argv, facts, __doc__, "cosmo actors")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
