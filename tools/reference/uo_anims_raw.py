"""The MUL animations as uo_anims_ultimapy.py reads them itself, by the client's rules, to
judge each difference between ultimapy and this project's package: the anim files and
their constants; one anim*.idx with its .mul (a record's group, its frames and their runs
placed as the client places them); and which records a body has, by the client's default
types (docs/formats/uo.md, "Which file and which records") and by ultimapy's (the Ultima
SDK's). uo_anims_ultimapy.py and uo_anims_edge.py import it from beside them.

Needs numpy in the running Python.
"""

import struct

import numpy as np

from uo_ultimapy_common import find

FILES = ("anim", "anim2", "anim3", "anim4", "anim5")
DIRECTIONS = 8  # 0 to 4 stored, 5 to 7 mirror 3 to 1
STORED = {0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 3, 6: 2, 7: 1}
RUN_END = 0x7FFF7FFF
EMPTY = 0xFFFFFFFF


def signed10(field):
    return field - 0x400 if field & 0x200 else field


class RawFile:
    """One anim*.idx with its .mul, read by the script by the client's rules."""

    def __init__(self, folder, name):
        with open(find(folder, f"{name}.idx"), "rb") as f:
            self.index = f.read()
        with open(find(folder, f"{name}.mul"), "rb") as f:
            self.data = f.read()
        self.records = len(self.index) // 12

    def record(self, n):
        """(offset, size) of record n as stored, or None past the index."""
        if not 0 <= n < self.records:
            return None
        return struct.unpack_from("<II", self.index, 12 * n)

    def used(self, n):
        """Record n's (offset, size) when the client finds frames there, else None."""
        record = self.record(n)
        if record is None:
            return None
        offset, size = record
        if (offset, size) == (0, 0) or EMPTY in (offset, size) or size == 0:
            return None
        if offset + size > len(self.data):
            raise SystemExit(f"{self.name_of(n)}: its group passes the .mul's end")
        return offset, size

    def name_of(self, n):
        return f"record {n}"

    def group(self, n):
        """Record n's frames: a list of (centre x, centre y, width, height, raw pixels), the
        pixels an (h, w) int32 array of palette colours, -1 where no run reaches (None for
        a side of 0 or less). Raises ValueError for bytes the client's rules cannot place."""
        offset, size = self.used(n)
        group = self.data[offset : offset + size]
        if len(group) < 516:
            raise ValueError(f"a group of {len(group)} bytes")
        palette = struct.unpack_from("<256H", group, 0)
        count = struct.unpack_from("<I", group, 512)[0]
        if 516 + 4 * count > len(group):
            raise ValueError(f"{count} frame offsets pass the group")
        frames = []
        for k in range(count):
            at = 512 + struct.unpack_from("<I", group, 516 + 4 * k)[0]
            if at + 8 > len(group):
                raise ValueError(f"frame {k}'s header passes the group")
            cx, cy, w, h = struct.unpack_from("<4h", group, at)
            at += 8
            pixels = None if w <= 0 or h <= 0 else np.full((h, w), -1, dtype=np.int32)
            runs = 0
            while True:
                if at + 4 > len(group):
                    raise ValueError(f"frame {k}'s runs pass the group")
                header = struct.unpack_from("<I", group, at)[0]
                at += 4
                if header == RUN_END:
                    break
                if pixels is None:
                    raise ValueError(f"frame {k} has no pixels yet holds a run")
                length = header & 0xFFF
                x = signed10(header >> 22) + cx
                y = signed10((header >> 12) & 0x3FF) + cy + h
                if not (0 <= y < h and 0 <= x and x + length <= w) or at + length > len(group):
                    raise ValueError(f"frame {k}'s run at column {x}, row {y}, {length} long")
                pixels[y, x : x + length] = [palette[b] for b in group[at : at + length]]
                at += length
                runs += 1
            frames.append((cx, cy, w, h, pixels, runs))
        return frames


# Which record: the client's rules (uo.md, "Which file and which records", no mobtypes.txt)
# and ultimapy's (the Ultima SDK's).

HIGH, LOW, PEOPLE = (110, 22), (65, 13), (175, 35)  # records and actions a body


def client_first(name, body):
    """(first record, actions) of `body` in file `name` by the client's default types; the
    first may be negative (no animation)."""
    if name == "anim2":
        group = HIGH if body < 200 else LOW
    elif name == "anim3":
        group = LOW if body < 300 else HIGH if body < 400 else PEOPLE
    else:
        group = HIGH if body < 200 else LOW if body < 400 else PEOPLE
    if group == HIGH:
        return body * 110, 22
    if group == LOW:
        return (body - 200) * 65 + 22000, 13
    return (body - 400) * 175 + 35000, 35


def ultimapy_first(name, body):
    """ultimapy's first record of `body` in file `name` (Animation.get_file_index)."""
    if name == "anim2":
        return body * 110 if body < 200 else 22000 + (body - 200) * 65
    if name == "anim3":
        if body < 300:
            return body * 65
        return 33000 + (body - 300) * 110 if body < 400 else 35000 + (body - 400) * 175
    if body < 200 and not (name == "anim5" and body == 34):
        return body * 110
    return 22000 + (body - 200) * 65 if body < 400 else 35000 + (body - 400) * 175


def bodies_of(raw, name):
    """(body, first record, actions) of every body the client finds in the file."""
    found = []
    for body in range(0x10000):
        first, actions = client_first(name, body)
        if first >= raw.records:
            if body >= 400:
                break
            continue
        if first >= 0 and first + 5 * actions <= raw.records:
            found.append((body, first, actions))
    return found
