#!/usr/bin/env python3
"""Independent reference reader for the WWD figures wap-core's real-file tests assert.

From the raw bytes of every level in a folder, with the Python standard library (`zlib`)
only and the format facts of `docs/formats/wwd.md` ("Header", "Compression", "Checksum"),
not the Rust readers: each level's plane count, main block size, trailer length and checksum
class. `tools/reference/goldens/wwd_facts.json` is its output; the tests read that file.

    python3 tools/reference/wwd_facts.py WWD_DIR            # print the figures
    python3 tools/reference/wwd_facts.py WWD_DIR --check F  # compare with F, exit 1 on a difference
"""

import json
import os
import struct
import sys
import zlib

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
    return {
        "planes": planes,
        "main_block": len(block),
        "trailer": trailer,
        "checksum": checksum_class(checksum, stored),
    }


def facts(folder):
    out = {}
    for name in sorted(os.listdir(folder)):
        if name.lower().endswith(".wwd"):
            with open(os.path.join(folder, name), "rb") as f:
                out[name] = level(f.read())
    return out


def main(argv):
    if len(argv) == 4 and argv[2] == "--check":
        with open(argv[3]) as f:
            golden = json.load(f)
        got = facts(argv[1])
        if golden != got:
            print(f"{argv[3]} differs from the reference reader: {got}", file=sys.stderr)
            return 1
        print(f"wwd facts: {argv[3]} equals the reference reader's ({len(got)} levels)")
        return 0
    if len(argv) == 2:
        print(json.dumps(facts(argv[1]), indent=2))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
