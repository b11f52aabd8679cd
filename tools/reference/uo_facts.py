#!/usr/bin/env python3
"""Independent reference reader for the pre-alpha Ultima Online figures mul-core's real-file
tests assert.

From the raw bytes of the pre-alpha MAP0.MUL, STAIDX0.MUL and STATICS0.MUL (1,024 x 1,024
tiles), with the Python standard library only and the format facts of
`docs/formats/uo.md` ("Map", "Statics"), not the Rust readers: two cells, the land's most
common ids and z range, the statics' count, most common ids and z range, the non-empty
blocks, and block 1 (whose statics start at offset 0). `tools/reference/goldens/uo_facts.json`
is its output; the tests read that file.

    python3 tools/reference/uo_facts.py PREALPHA_DIR            # print the figures
    python3 tools/reference/uo_facts.py PREALPHA_DIR --check F  # compare with F, exit 1 on a difference
"""

import collections
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cosmo_goldens import facts_main, find  # noqa: E402

BLOCKS_HIGH = 128  # 1,024 tiles / 8
BLOCK = 196  # 4-byte header, then 64 cells of {u16 id, i8 z}, row by row
STATIC = 11  # pre-alpha: u32 serial, u16 id, u8 x, u8 y, i8 z, u16 hue
EMPTY = 0xFFFFFFFF


def cell(map_bytes, x, y):
    """Tile (x, y): blocks are stored column by column (block bx * 128 + by)."""
    block = (x // 8) * BLOCKS_HIGH + y // 8
    at = block * BLOCK + 4 + ((y % 8) * 8 + x % 8) * 3
    return struct.unpack_from("<Hb", map_bytes, at)


def top(counter, n):
    return [[k, v] for k, v in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))[:n]]


def facts(folder):
    with open(find(folder, "MAP0.MUL"), "rb") as f:
        map_bytes = f.read()
    with open(find(folder, "STAIDX0.MUL"), "rb") as f:
        index = f.read()
    with open(find(folder, "STATICS0.MUL"), "rb") as f:
        statics = f.read()
    land = collections.Counter()
    z_land = []
    for block in range(len(map_bytes) // BLOCK):
        for i in range(64):
            land_id, z = struct.unpack_from("<Hb", map_bytes, block * BLOCK + 4 + 3 * i)
            land[land_id] += 1
            z_land.append(z)
    ids = collections.Counter()
    z_statics = []
    non_empty = 0
    for block in range(len(index) // 12):
        offset, length, _ = struct.unpack_from("<III", index, 12 * block)
        if offset == EMPTY or length in (0, EMPTY):
            continue
        non_empty += 1
        for k in range(length // STATIC):
            _, static_id, _, _, z, _ = struct.unpack_from("<IHBBbH", statics, offset + k * STATIC)
            ids[static_id] += 1
            z_statics.append(z)
    b1_offset, b1_length, _ = struct.unpack_from("<III", index, 12)
    _, b1_first, b1_x, _, _, _ = struct.unpack_from("<IHBBbH", statics, b1_offset)
    return {
        "cell_8_16": list(cell(map_bytes, 8, 16)),
        "cell_500_600": list(cell(map_bytes, 500, 600)),
        "land_top3": top(land, 3),
        "land_z": [min(z_land), max(z_land)],
        "statics": len(z_statics),
        "statics_top3": top(ids, 3),
        "statics_z": [min(z_statics), max(z_statics)],
        "non_empty_blocks": non_empty,
        "block1": {"offset": b1_offset, "statics": b1_length // STATIC, "first_id": b1_first,
                   "first_x": b1_x},
    }


def main(argv):
    return facts_main(argv, facts, __doc__, "uo facts")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
