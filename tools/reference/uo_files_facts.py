#!/usr/bin/env python3
"""Independent reference reader for the Ultima Online single-file figures the tests assert:
tiledata (classic, High Seas and pre-alpha), multi (High Seas), radar colours (High Seas) and
hues (pre-alpha and High Seas).

Written from the format facts of `docs/formats/uo.md` ("Tiledata", "Multi", "Radar
colours", "Hues") with the Python standard library only, not from the Rust readers.
`tools/reference/goldens/uo_files.json` is its output; mul-core's real-file tests and the
CLI's `uo` tests read that file.

    python3 tools/reference/uo_files_facts.py UO_DIR            # print the figures
    python3 tools/reference/uo_files_facts.py UO_DIR --check F  # compare with F, exit 1 on a difference

UO_DIR holds `classic/`, `hs/` and `prealpha/` as in the data manifest.
"""

import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cosmo_goldens import facts_main, find  # noqa: E402

LAND_GROUPS = 512
GROUP_TILES = 32


def read(folder, name):
    with open(find(folder, name), "rb") as f:
        return f.read()


def name20(raw):
    """A 20-byte name: up to the first NUL, all 20 bytes when none."""
    return raw.split(b"\0", 1)[0].decode("latin-1")


class TileData:
    """tiledata.mul: 512 land groups, then item groups to the end; each group a u32 header
    and 32 records. Flags are u32 in the old layout (land 26, item 37 bytes), u64 from High
    Seas on (land 30, item 41 bytes): the file size tells which, as the sizes table of
    docs/formats/uo.md shows."""

    def __init__(self, data):
        self.data = data
        for flags, land, item in ((4, 26, 37), (8, 30, 41)):
            land_bytes = LAND_GROUPS * (4 + GROUP_TILES * land)
            rest = len(data) - land_bytes
            if rest > 0 and rest % (4 + GROUP_TILES * item) == 0:
                items = rest // (4 + GROUP_TILES * item) * GROUP_TILES
                # The sizes of the table: the old layout's 16,384 or 32,768 items, else
                # High Seas' 65,536.
                if (flags == 4 and items in (16_384, 32_768)) or (flags == 8 and items == 65_536):
                    self.flags, self.land_len, self.item_len = flags, land, item
                    self.land_bytes, self.items = land_bytes, items
                    break
        else:
            raise SystemExit(f"a tiledata of {len(data)} bytes fits no known size")
        self.layout = "old" if self.flags == 4 else "high_seas"
        # Land tile 0 ahead of group 0's header (the real High Seas file): its name is
        # text where the normal order has the header and the tile's own flags.
        name_at = self.flags + 2
        self.tile_zero_first = (
            self.flags == 8 and 0x20 <= data[name_at] < 0x7F and data[name_at + 1] != 0
        )

    def land_at(self, i):
        if i == 0 and self.tile_zero_first:
            return 0
        group, k = divmod(i, GROUP_TILES)
        return group * (4 + GROUP_TILES * self.land_len) + 4 + k * self.land_len

    def land(self, i):
        at = self.land_at(i)
        flags = int.from_bytes(self.data[at : at + self.flags], "little")
        name = name20(self.data[at + self.flags + 2 : at + self.flags + 22])
        return {"name": name, "flags": flags}

    def item(self, i):
        group, k = divmod(i, GROUP_TILES)
        at = self.land_bytes + group * (4 + GROUP_TILES * self.item_len) + 4 + k * self.item_len
        flags = int.from_bytes(self.data[at : at + self.flags], "little")
        body = at + self.flags
        # weight, quality, misc u16, unknown, quantity, animation u16, unknown, hue,
        # stacking u16, height, name[20]
        weight = self.data[body]
        height = self.data[body + 12]
        name = name20(self.data[body + 13 : body + 33])
        return {"name": name, "flags": flags, "weight": weight, "height": height}


def tiledata_facts(data):
    t = TileData(data)
    return {
        "layout": t.layout,
        "items": t.items,
        "tile_zero_first": t.tile_zero_first,
        "land": {str(i): t.land(i) for i in (0, 1, 3)},
        "item": {str(i): t.item(i) for i in (2, 0x0EED)},
    }


def multi_facts(idx, mul):
    """multi.idx: 12-byte {offset, length, extra} entries; components of 12 or 16 bytes
    (the size that divides every non-empty length), `{u16 id, i16 x, i16 y, i16 z, u32
    flags[, u32]}`."""
    entries = [struct.unpack_from("<III", idx, 12 * i) for i in range(len(idx) // 12)]
    used = [
        (i, off, n)
        for i, (off, n, _) in enumerate(entries)
        if off != 0xFFFFFFFF and n not in (0, 0xFFFFFFFF)
    ]
    size = next(s for s in (16, 12) if all(n % s == 0 for _, _, n in used))
    first_id, first_off, first_len = used[0]
    parts = [
        struct.unpack_from("<Hhhh", mul, first_off + k * size) for k in range(first_len // size)
    ]
    return {
        "entries": len(entries),
        "non_empty": len(used),
        "component_size": size,
        "multiples_of_12": sum(1 for _, _, n in used if n % 12 == 0),
        "components": sum(n // size for _, _, n in used),
        "first": {
            "id": first_id,
            "components": len(parts),
            "first_item": parts[0][0],
            "min_x": min(p[1] for p in parts),
            "min_y": min(p[2] for p in parts),
        },
    }


def radarcol_facts(data):
    """u16 RGB555 colours: 0x4000 land entries, then one an item."""
    colours = len(data) // 2

    def entry(i):
        return struct.unpack_from("<H", data, 2 * i)[0]

    return {
        "entries": colours,
        "items": colours - 0x4000,
        "land_3": entry(3),
        "item_0x0EED": entry(0x4000 + 0x0EED),
    }


def hues_facts(data):
    """Groups of 708 bytes: u32 header, 8 hues of {u16 colours[32], u16 start, u16 end,
    name[20]} (88 bytes)."""
    groups = len(data) // 708

    def name(i):
        group, k = divmod(i, 8)
        at = group * 708 + 4 + k * 88 + 68
        return name20(data[at : at + 20])

    return {"hues": groups * 8, "name_0": name(0), "name_7": name(7)}


def facts(uo_dir):
    classic, hs, pre = (os.path.join(uo_dir, d) for d in ("classic", "hs", "prealpha"))
    return {
        "tiledata": {
            "classic": tiledata_facts(read(classic, "tiledata.mul")),
            "hs": tiledata_facts(read(hs, "tiledata.mul")),
            "prealpha": tiledata_facts(read(pre, "TILEDATA.MUL")),
        },
        "multi_hs": multi_facts(read(hs, "multi.idx"), read(hs, "multi.mul")),
        "radarcol_hs": radarcol_facts(read(hs, "radarcol.mul")),
        "hues": {
            "prealpha": hues_facts(read(pre, "HUES.MUL")),
            "hs": hues_facts(read(hs, "hues.mul")),
        },
    }


def main(argv):
    return facts_main(argv, facts, __doc__, "uo file facts")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
