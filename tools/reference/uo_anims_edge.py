"""The edge set uo_anims_ultimapy.py --edge writes and compares: anim.mul to anim5.mul
written byte by byte to show what the synthetic set does not (every 5-bit level, palette
colours 0x8000 and with bit 15, run fields at -512 and 511, runs of 0 and 4,095 pixels,
frames sharing an offset, empty and negative sides, a record of size 0, anim2 to anim5,
ultimapy's record rule for anim3 below body 300). uo_anims_ultimapy.py imports it from
beside it.
"""

import os
import struct

from uo_anims_raw import EMPTY, RUN_END

# The edge set: groups written byte by byte.


def frame_bytes(cx, cy, w, h, runs):
    """A frame: its header and `runs` as (column, row, palette indices), stored as the
    fields x = column - centre x and y = row - centre y - height."""
    out = struct.pack("<4h", cx, cy, w, h)
    for column, row, pixels in runs:
        x, y = column - cx, row - cy - h
        assert -512 <= x <= 511 and -512 <= y <= 511
        out += struct.pack("<I", ((x & 0x3FF) << 22) | ((y & 0x3FF) << 12) | len(pixels))
        out += bytes(pixels)
    return out + struct.pack("<I", RUN_END)


def group_bytes(palette, frames, offsets=None):
    """A group: `palette`, the frames' bytes one after another; `offsets` (frame -> the
    index of the bytes it points at) lets frames share bytes."""
    offsets = offsets or list(range(len(frames)))
    table_end = 516 + 4 * len(offsets)
    places, at = [], table_end - 512
    for data in frames:
        places.append(at)
        at += len(data)
    head = struct.pack("<256H", *palette) + struct.pack("<I", len(offsets))
    head += b"".join(struct.pack("<I", places[k]) for k in offsets)
    return head + b"".join(frames)


def write_pair(out, name, records, groups):
    """`name`.idx of `records` records and `name`.mul: `groups` maps record -> its bytes
    (or (offset, size) as stored); the rest empty."""
    data = bytearray()
    index = [(EMPTY, EMPTY)] * records
    for record, group in groups.items():
        if isinstance(group, tuple):
            index[record] = group
        else:
            index[record] = (len(data), len(group))
            data += group
    with open(os.path.join(out, f"{name}.mul"), "wb") as f:
        f.write(data)
    with open(os.path.join(out, f"{name}.idx"), "wb") as f:
        f.write(b"".join(struct.pack("<III", o, s, 0) for o, s in index))


def write_edge(out):
    os.makedirs(out, exist_ok=True)
    # Every 5-bit level as a grey (1 to 31), 0x8000, bit 15 over other colours, the rest
    # mixed colours.
    palette = [0] * 256
    for v in range(1, 32):
        palette[v] = v * 0x421
    palette[32] = 0x8000
    for v in range(33, 64):
        palette[v] = 0x8000 | ((v * 7) % 32) << 10 | (v % 32) << 5 | ((v * 3) % 32)
    for v in range(64, 256):
        palette[v] = (v * 0x9E3) & 0x7FFF
    every = list(range(256))
    # A frame using every colour, one row of 256 pixels.
    wide = frame_bytes(3, -5, 256, 2, [(0, 0, every), (0, 1, every[::-1])])
    # Run fields at their ends: x -512 and 511, y -512 and 511, in a 1024 x 1024 frame.
    corners = frame_bytes(512, -512, 1024, 1024,
                          [(0, 0, [1, 2, 3]), (1021, 0, [4, 5]), (1023, 0, [6]),
                           (0, 1023, [7]), (1023, 1023, [8]), (0, 512, [])])
    # A run of 4,095 pixels (the longest the field holds) and one of none.
    longest = frame_bytes(512, -3, 4096, 2, [(0, 0, [(k % 255) + 1 for k in range(0xFFF)]),
                                              (100, 1, []), (100, 1, [0, 32, 0])])
    side0 = frame_bytes(4, 4, 0, 5, [])
    side0b = frame_bytes(4, 4, 6, 0, [])
    negative = frame_bytes(1, 1, 3, -3, [])
    small = frame_bytes(1, -2, 3, 3, [(0, 0, [9, 0, 32]), (0, 2, [33, 34, 35])])
    groups = {
        # Body 0 (high: records 0 to 109). Action 0: direction 0 every colour, frames 0 and
        # 2 at one offset; 1 the run fields' ends; 2 the longest run; 3 sides of 0 between
        # others; 4 a record of size 0. Action 1: direction 0 a frame of a negative side.
        0: group_bytes(palette, [wide, small], offsets=[0, 1, 0]),
        1: group_bytes(palette, [corners]),
        2: group_bytes(palette, [longest]),
        3: group_bytes(palette, [small, side0, side0b, small]),
        4: (0, 0),
        5: group_bytes(palette, [small, negative]),
    }
    write_pair(out, "anim", 110, groups)
    # anim2: bodies 5 (high) and 250 (low); anim3: 350 (high) and 450 (people), where
    # ultimapy's record is the client's, and 250, where it is not (ultimapy reads record
    # 250 * 65, the client 22000 + 50 * 65); anim4: body 5; anim5: body 5 and body 34
    # (ultimapy the low group's formula, record 11210; the client 3740).
    one = group_bytes(palette, [small, wide])
    other = group_bytes(palette, [corners, small])
    write_pair(out, "anim2", 22000 + 51 * 65, {550: one, 551 + 10: other,
                                                22000 + 50 * 65 + 7: one})
    write_pair(out, "anim3", 35000 + 51 * 175, {
        38500 + 3: one, 35000 + 50 * 175 + 174: other,
        22000 + 50 * 65: one, 250 * 65: other,  # body 250's action 0 direction 0 both ways
    })
    write_pair(out, "anim4", 660, {550: other})
    write_pair(out, "anim5", 11211, {3740: one, 11210: other, 554: one})
