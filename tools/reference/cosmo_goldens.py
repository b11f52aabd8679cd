#!/usr/bin/env python3
"""Independent reference reader for the Cosmo golden files.

Computes, from the raw bytes of COSMO1.STN and COSMO1.VOL and with nothing but the Python
standard library, the figures that `crates/gamedata-cli/tests/golden/` holds: the two group
files' directories, the headers of maps A1 and A10, and the tile attribute figures. It is
written from the format facts in `docs/formats/cosmo.md` ("Group files", "TILEATTR.MNI",
"Maps"), not from the Rust readers, so a golden can be traced to code that shares nothing
with the parser it checks.

    python3 tools/reference/cosmo_goldens.py COSMO_DIR OUT_DIR         # write the goldens
    python3 tools/reference/cosmo_goldens.py COSMO_DIR --check GOLDEN  # compare, exit 1 on a difference
"""

import json
import os
import struct
import sys

DIRECTORY_SLOTS = 200  # 4,000 bytes of 20-byte slots
SLOT = struct.Struct("<12sII")  # name, offset, size


def find(folder, name):
    """The file `name` in `folder`, in any letter case."""
    for entry in os.listdir(folder):
        if entry.lower() == name.lower():
            return os.path.join(folder, entry)
    raise SystemExit(f"no {name} in {folder}")


def directory(data):
    """The entries of a group file: up to the first slot with an empty name or offset and
    size both 0."""
    entries = []
    for i in range(DIRECTORY_SLOTS):
        raw_name, offset, size = SLOT.unpack_from(data, i * SLOT.size)
        if raw_name[0] == 0 or (offset == 0 and size == 0):
            break
        name = raw_name.split(b"\0", 1)[0].decode("latin-1")
        entries.append({"name": name, "offset": offset, "size": size})
    return entries


def facts_main(argv, facts, doc, what):
    """The command line of the facts scripts: `FOLDER` prints `facts(FOLDER)` as JSON,
    `FOLDER --check FILE` compares it with FILE and returns 1 on a difference."""
    if len(argv) == 4 and argv[2] == "--check":
        with open(argv[3]) as f:
            golden = json.load(f)
        got = facts(argv[1])
        if golden != got:
            print(f"{argv[3]} differs from the reference reader: {got}", file=sys.stderr)
            return 1
        print(f"{what}: {argv[3]} equals the reference reader's")
        return 0
    if len(argv) == 2:
        print(json.dumps(facts(argv[1]), indent=2))
        return 0
    print(doc, file=sys.stderr)
    return 2


def entry_bytes(data, name):
    for e in directory(data):
        if e["name"].lower() == name.lower():
            return data[e["offset"] : e["offset"] + e["size"]]
    raise SystemExit(f"no entry {name}")


def map_header(data):
    """A map's header: u16 flags (bits 0-4 backdrop, 5 rain, 8-10 palette animation, 11-15
    music), u16 width, u16 length of the actor list in words (3 words an actor)."""
    flags, width, actor_words = struct.unpack_from("<HHH", data, 0)
    return {
        "width": width,
        "height": 32768 // width,
        "actors": actor_words // 3,
        "backdrop": flags & 0x1F,
        "music": flags >> 11,
        "rain": bool(flags & 0x20),
        "palette_animation": (flags >> 8) & 0x7,
    }


FLAG_NAMES = [
    "block_south",
    "block_north",
    "block_west",
    "block_east",
    "slippery",
    "in_front",
    "sloped",
    "clingable",
]


def tile_attributes(data):
    """TILEATTR.MNI: one byte for each of the 2,000 solid tiles, then 5 bytes for each of
    the 1,000 masked tiles, of which the first is the attribute."""
    attrs = list(data[:2000]) + [data[2000 + 5 * i] for i in range(1000)]
    movement = [a & 0x0F for a in attrs]
    return {
        "tiles": len(attrs),
        "blocks_nothing": movement.count(0),
        "blocks_everything": movement.count(0x0F),
        "south_only": movement.count(0x01),
        "other_mix": sum(1 for m in movement if m not in (0, 0x0F, 0x01)),
        "flags": {
            name: sum(1 for a in attrs if a >> bit & 1) for bit, name in enumerate(FLAG_NAMES)
        },
    }


def goldens(folder):
    with open(find(folder, "COSMO1.STN"), "rb") as f:
        stn = f.read()
    with open(find(folder, "COSMO1.VOL"), "rb") as f:
        vol = f.read()
    return {
        "ls-COSMO1.STN.json": directory(stn),
        "ls-COSMO1.VOL.json": directory(vol),
        "map-A1.MNI.json": map_header(entry_bytes(vol, "A1.MNI")),
        "map-A10.MNI.json": map_header(entry_bytes(vol, "A10.MNI")),
        "tileattr.json": tile_attributes(entry_bytes(stn, "TILEATTR.MNI")),
    }


def main(argv):
    if len(argv) == 4 and argv[2] == "--check":
        differ = 0
        for name, value in goldens(argv[1]).items():
            with open(os.path.join(argv[3], name)) as f:
                golden = json.load(f)
            if golden != value:
                print(f"{name}: the golden differs from the reference reader", file=sys.stderr)
                differ += 1
        print(f"cosmo goldens: {5 - differ} of 5 equal the reference reader's")
        return 1 if differ else 0
    if len(argv) == 3:
        os.makedirs(argv[2], exist_ok=True)
        for name, value in goldens(argv[1]).items():
            with open(os.path.join(argv[2], name), "w") as f:
                json.dump(value, f, indent=2)
                f.write("\n")
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
