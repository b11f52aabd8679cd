#!/usr/bin/env python3
"""Independent reference reader for the WWD figures wap-core's real-file tests assert.

From the raw bytes of every level in a folder, with the Python standard library (`zlib`)
only and the format facts of `docs/formats/wwd.md` ("Header", "Compression", "Checksum"),
not the Rust readers: each level's plane count, main block size, trailer length and checksum
class; the game (the tile image folder ends in TILES for Claw, TILEZ for Gruntz); each
plane's name, flags, tile size, size in tiles, z, image-set names (names as hex bytes),
objects (walked: a 284-byte fixed part, then four strings whose lengths it gives) and
invisible / filled tiles; and the tile property records by type (`docs/formats/wwd.md`,
"Planes", "Tiles", "Objects", "Tile properties", "Claw or Gruntz").
`tools/reference/goldens/wwd_facts.json` is its output; the tests read that file.

    python3 tools/reference/wwd_facts.py WWD_DIR            # print the figures
    python3 tools/reference/wwd_facts.py WWD_DIR --check F  # compare with F, exit 1 on a difference
"""

import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cosmo_goldens import facts_main  # noqa: E402

HEADER = 1524
MASK = 0xFFFFFFFF


def base_checksum(stored):
    """base(S) = -n + sum over o in 1..n-1 of (S[o] - o), modulo 2^32."""
    n = len(stored)
    total = sum(stored[1:]) - (n - 1) * n // 2
    return (total - n) & MASK


def checksum_class(checksum, stored):
    base = base_checksum(stored)
    slack = (checksum - base) & MASK
    if slack == 0:
        return "exact"
    if slack <= 255:
        return f"editor slack {slack}"
    if stored and checksum == (base + stored[0] - 160) & MASK:
        return "wapmap"
    return "mismatch"


def field(data, at, size):
    """A fixed-size text field: its bytes up to the first NUL."""
    return data[at : at + size].split(b"\0", 1)[0]


def plane(image, at):
    """The plane header at `at` of the image (header, then the main block decompressed)."""
    flags = struct.unpack_from("<I", image, at + 0x08)[0]
    name = field(image, at + 0x10, 64)
    tile_w, _ = struct.unpack_from("<ii", image, at + 0x58)
    wide, high = struct.unpack_from("<ii", image, at + 0x60)
    sets, objects = struct.unpack_from("<II", image, at + 0x7C)
    tiles_at, sets_at, objects_at = struct.unpack_from("<III", image, at + 0x84)
    z = struct.unpack_from("<i", image, at + 0x90)[0]
    tiles = struct.unpack_from(f"<{wide * high}I", image, tiles_at)
    names = []
    for _ in range(sets):
        end = image.index(b"\0", sets_at)
        names.append(image[sets_at:end].hex())
        sets_at = end + 1
    walked = 0
    for _ in range(objects):
        lengths = struct.unpack_from("<4I", image, objects_at + 4)
        objects_at += 284 + sum(lengths)
        assert objects_at <= len(image)
        walked += 1
    return {
        "name": name.hex(),
        "flags": flags,
        "tile": tile_w,
        "wide": wide,
        "high": high,
        "z": z,
        "image_sets": names,
        "objects": walked,
        "invisible": tiles.count(0xFFFFFFFF),
        "filled": tiles.count(0xEEEEEEEE),
    }


def tile_properties(image, at):
    """The table's 32-byte header gives the count; records of type 1 (20 bytes), 2 (40) or
    3 (16 + width * height)."""
    count = struct.unpack_from("<I", image, at + 8)[0]
    kinds = [0, 0, 0]
    at += 32
    for _ in range(count):
        kind, _, w, h = struct.unpack_from("<4I", image, at)
        kinds[kind - 1] += 1
        at += {1: 20, 2: 40, 3: 16 + w * h}[kind]
    return [count] + kinds


def level(data):
    if struct.unpack_from("<I", data, 0)[0] != HEADER:
        return {"error": "header size"}
    flags = struct.unpack_from("<I", data, 0x8)[0]
    planes = struct.unpack_from("<I", data, 0x2DC)[0]
    declared = struct.unpack_from("<I", data, 0x2E8)[0]
    checksum = struct.unpack_from("<I", data, 0x2EC)[0]
    rest = data[HEADER:]
    if flags & 0x2:
        z = zlib.decompressobj()
        block = z.decompress(rest)
        trailer = len(z.unused_data)
        stored = rest[: len(rest) - trailer]
        assert len(block) == declared
    else:
        block, trailer, stored = rest, 0, rest
    image = data[:HEADER] + block
    folder = field(data, 0x1D0, 128).upper()
    game = "gruntz" if folder.endswith(b"TILEZ") else "claw" if folder.endswith(b"TILES") else "unknown"
    planes_at = struct.unpack_from("<I", data, 0x2E0)[0]
    properties_at = struct.unpack_from("<I", data, 0x2E4)[0]
    return {
        "planes": planes,
        "main_block": len(block),
        "trailer": trailer,
        "checksum": checksum_class(checksum, stored),
        "game": game,
        "plane_details": [plane(image, planes_at + 160 * i) for i in range(planes)],
        "tile_properties": tile_properties(image, properties_at),
    }


def facts(folder):
    out = {}
    for name in sorted(os.listdir(folder)):
        if name.lower().endswith(".wwd"):
            with open(os.path.join(folder, name), "rb") as f:
                out[name] = level(f.read())
    return out


def main(argv):
    return facts_main(argv, facts, __doc__, "wwd facts")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
