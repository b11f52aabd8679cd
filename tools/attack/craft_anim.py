"""`gamedata uo anim` cases of the attack (docs/robustness.md, the `uo anim` table), at
1x and 10x: python3 tools/attack/craft_anim.py CASE OUT_DIR SCALE. Each writes a client
folder whose body 0 action 0 direction 0 is the case (anim.idx of 110 records, record 0
used; or AnimationFrame1.uop). Measured by tools/attack/measure_anim.sh."""

import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from craft import name_hash, write  # noqa: E402

RUN_END = struct.pack("<I", 0x7FFF7FFF)


def anim_idx(group_len):
    """anim.idx of 110 records (body 0, the high group), record 0 over the group."""
    recs = [(0, group_len, 0)] + [(0xFFFFFFFF, 0xFFFFFFFF, 0)] * 109
    return b"".join(struct.pack("<III", *r) for r in recs)


def white_palette():
    return struct.pack("<256H", *([0x7FFF] * 256))


def one_pixel_frame():
    """A 1 x 1 frame: centre (0, 0), one run of palette index 1 (x 0, y -1), the end."""
    return struct.pack("<hhhh", 0, 0, 1, 1) + struct.pack("<I", 0x003FF001) + b"\x01" + RUN_END


def group(offsets, frames):
    """A frame group: palette, count, frame i at frames[offsets[i]]."""
    first = 4 + 4 * len(offsets)
    starts, at = [], first
    for f in frames:
        starts.append(at)
        at += len(f)
    table = b"".join(struct.pack("<I", starts[i]) for i in offsets)
    return white_palette() + struct.pack("<I", len(offsets)) + table + b"".join(frames)


def write_mul(out, data, extra=None):
    files = {"anim.idx": anim_idx(len(data)), "anim.mul": data}
    files.update(extra or {})
    write(out, files)


def case_anim_one_offset(out, scale):
    """10,000 x SCALE frames at one offset (4 bytes a frame): one 1 x 1 picture."""
    write_mul(out, group([0] * (10_000 * scale), [one_pixel_frame()]))


def case_anim_sheet(out, scale):
    """Four frames of 4000 x 4000 with no run, drawn with --sheet (SCALE unused: the limit
    bounds it)."""
    big = struct.pack("<hhhh", 0, 0, 4000, 4000) + RUN_END
    write_mul(out, group([0, 1, 2, 3], [big] * 4))


def uop_frame_entry(frames):
    """A decoded AnimationFrame*.uop entry: 40 header bytes (count at 32, table at 40), a
    16-byte record a frame (group 0, number, offset from the record), then each frame's
    palette and bytes; `frames` is a list of (number, frame bytes)."""
    table = 40
    data_at = table + 16 * len(frames)
    records, data = bytearray(), bytearray()
    for i, (number, frame) in enumerate(frames):
        place = table + 16 * i
        offset = data_at + len(data) - place
        records += struct.pack("<HH8xI", 0, number, offset)
        data += white_palette() + frame
    head = b"AMOU" + struct.pack("<II", 1, data_at + len(data)) + bytes(20)
    head += struct.pack("<iI", len(frames), table)
    return bytes(head + records + data)


def write_uop(out, entry, compress):
    """AnimationFrame1.uop of one entry, body 0 action 0, stored or zlib."""
    stored = zlib.compress(entry, 9) if compress else entry
    h = name_hash("build/animationlegacyframe/000000/00.bin")
    at = 28 + 12 + 34
    head = struct.pack("<IIIQII", 0x0050594D, 5, 0xFD23EC43, 28, 1, 1)
    head += struct.pack("<IQ", 1, 0)
    head += struct.pack("<QIIIQIH", at, 0, len(stored), len(entry), h, 0, 1 if compress else 0)
    write(out, {"AnimationFrame1.uop": head + stored})


def case_uop_gap(out, scale):
    """Frame numbers 1 and 65,535 x SCALE / 10 (the client's list that long, its length / 5
    frames a direction, all but the first missing): 1x 6,553, 10x 65,535."""
    last = min(65_535, 6_553 * scale + (scale // 10) * 5)
    write_uop(out, uop_frame_entry([(1, one_pixel_frame()), (last, one_pixel_frame())]), False)


def case_uop_big_entry(out, scale):
    """A zlib entry inflating to 22 MB x SCALE holding a 4000 x 4000 frame (no run) and four
    1 x 1 frames (one frame a direction)."""
    big = struct.pack("<hhhh", 0, 0, 4000, 4000) + RUN_END
    frames = [(1, big)] + [(n, one_pixel_frame()) for n in range(2, 6)]
    entry = uop_frame_entry(frames)
    write_uop(out, entry + bytes(22_000_000 * scale - len(entry)), True)


def case_mobtypes_ff(out, scale):
    """mobtypes.txt of 1.6 MB x SCALE bytes 0xFF (10x just under the 16 MiB cap) beside a
    one-frame anim.mul."""
    write_mul(out, group([0], [one_pixel_frame()]), {"mobtypes.txt": b"\xff" * (1_600_000 * scale)})


CASES = {name[5:]: f for name, f in globals().items() if name.startswith("case_")}

if __name__ == "__main__":
    case, out, scale = sys.argv[1], sys.argv[2], int(sys.argv[3])
    CASES[case](out, scale)
