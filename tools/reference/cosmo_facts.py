#!/usr/bin/env python3
"""Independent reference reader for the figures mni-core's real-file tests assert.

From the raw bytes of COSMO1.STN and COSMO1.VOL, with the Python standard library only and
the format facts of `docs/formats/cosmo.md` ("Maps", "Sprites"), not the Rust readers:
the cells no tile is drawn in over the 13 maps, the sprite table's figures (types, frame
records, frames by type, distinct starts, the furthest byte of ACTORS.MNI a frame reaches),
the special actors of each map, each map's width, height, actors, backdrop and music, and
the tile attribute figures (as `cosmo_goldens.py` computes them). `tools/reference/goldens/cosmo_facts.json` is its
output; the tests read that file.

    python3 tools/reference/cosmo_facts.py COSMO_DIR            # print the figures
    python3 tools/reference/cosmo_facts.py COSMO_DIR --check F  # compare with F, exit 1 on a difference
"""

import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cosmo_goldens import (  # noqa: E402
    directory,
    entry_bytes,
    facts_main,
    find,
    map_header,
    tile_attributes,
)

MAPS = [f"A{i}.MNI" for i in range(1, 12)] + ["BONUS1.MNI", "BONUS2.MNI"]
SEGMENT = 65535  # ACTORS.MNI is loaded in 65,535-byte segments; a frame's offset is within one
SPECIAL_BELOW = 31  # actor types below 31 are special actors


def facts(folder):
    with open(find(folder, "COSMO1.STN"), "rb") as f:
        stn = f.read()
    with open(find(folder, "COSMO1.VOL"), "rb") as f:
        vol = f.read()
    assert directory(vol)
    not_drawn = 0
    specials = {}
    maps = {}
    for name in MAPS:
        m = entry_bytes(vol, name)
        h = map_header(m)
        maps[name] = [h[k] for k in ("width", "height", "actors", "backdrop", "music")]
        _, _, actor_words = struct.unpack_from("<HHH", m, 0)
        actors = [struct.unpack_from("<HHH", m, 6 + 6 * i) for i in range(actor_words // 3)]
        specials[name] = sum(1 for kind, _, _ in actors if kind < SPECIAL_BELOW)
        cells_at = 6 + 2 * actor_words
        cells = struct.unpack_from("<32764H", m, cells_at)
        # Value 0 is empty, values 8..64 the eight platform arrows: neither is drawn.
        not_drawn += sum(1 for v in cells if v <= 64)
    info = entry_bytes(stn, "ACTRINFO.MNI")
    types = struct.unpack_from("<H", info, 0)[0]
    lookup = struct.unpack_from(f"<{types}H", info, 0)
    records = (len(info) - 2 * types) // 8
    starts = sorted(set(lookup))
    frames_by_type = 0
    furthest = 0
    for word in lookup:
        later = [s for s in starts if s > word]
        end = later[0] if later else len(info) // 2
        count = (end - word) // 4
        frames_by_type += count
        for k in range(count):
            height, width, offset, segment = struct.unpack_from("<4H", info, 2 * word + 8 * k)
            furthest = max(furthest, segment * SEGMENT + offset + 40 * width * height)
    return {
        "cells_not_drawn": not_drawn,
        "sprite_types": types,
        "frame_records": records,
        "frames_by_type": frames_by_type,
        "distinct_starts": len(starts),
        "furthest_frame_byte": furthest,
        "special_actors": specials,
        "maps": maps,
        "tileattr": tile_attributes(entry_bytes(stn, "TILEATTR.MNI")),
    }


def main(argv):
    return facts_main(argv, facts, __doc__, "cosmo facts")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
