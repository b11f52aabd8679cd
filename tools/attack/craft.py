#!/usr/bin/env python3
"""Crafted art, gump and texture-map folders for the adversarial measurements
(tools/attack/measure.sh). Each case writes one client folder; `SCALE` multiplies its size.

    craft.py CASE OUT_DIR SCALE
"""

import os
import random
import struct
import sys

MASK = 0xFFFFFFFF


def rot(x, k):
    return ((x << k) | (x >> (32 - k))) & MASK


def hashlittle2(key: bytes, pc=0, pb=0):
    length = len(key)
    a = b = (0xDEADBEEF + length + pc) & MASK
    c = (a + pb) & MASK
    i = 0
    while length - i > 12:
        a = (a + int.from_bytes(key[i:i + 4], "little")) & MASK
        b = (b + int.from_bytes(key[i + 4:i + 8], "little")) & MASK
        c = (c + int.from_bytes(key[i + 8:i + 12], "little")) & MASK
        # mix
        a = (a - c) & MASK; a ^= rot(c, 4); c = (c + b) & MASK
        b = (b - a) & MASK; b ^= rot(a, 6); a = (a + c) & MASK
        c = (c - b) & MASK; c ^= rot(b, 8); b = (b + a) & MASK
        a = (a - c) & MASK; a ^= rot(c, 16); c = (c + b) & MASK
        b = (b - a) & MASK; b ^= rot(a, 19); a = (a + c) & MASK
        c = (c - b) & MASK; c ^= rot(b, 4); b = (b + a) & MASK
        i += 12
    rest = key[i:]
    if not rest:
        return c, b
    rest = rest + bytes(12 - len(rest))
    a = (a + int.from_bytes(rest[0:4], "little")) & MASK
    b = (b + int.from_bytes(rest[4:8], "little")) & MASK
    c = (c + int.from_bytes(rest[8:12], "little")) & MASK
    c ^= b; c = (c - rot(b, 14)) & MASK
    a ^= c; a = (a - rot(c, 11)) & MASK
    b ^= a; b = (b - rot(a, 25)) & MASK
    c ^= b; c = (c - rot(b, 16)) & MASK
    a ^= c; a = (a - rot(c, 4)) & MASK
    b ^= a; b = (b - rot(a, 14)) & MASK
    c ^= b; c = (c - rot(b, 24)) & MASK
    return c, b


def name_hash(name: str) -> int:
    c, b = hashlittle2(name.encode())
    return (b << 32) | c


assert name_hash("build/soundlegacymul/00000000.dat") == 0xCB36450C320CD308


def art_name(slot):
    return name_hash(f"build/artlegacymul/{slot:08d}.tga")


def gump_name(slot):
    return name_hash(f"build/gumpartlegacymul/{slot:08d}.tga")


def uop(entries, data_blob=b""):
    """One table block of `entries` (offset, stored_len, hash, compression); `data_blob`
    appended after the table (offsets are absolute: callers compute them with data_at())."""
    table_at = 28
    out = bytearray()
    out += struct.pack("<IIIQII", 0x0050594D, 5, 0xFD23EC43, table_at, len(entries), len(entries))
    out += struct.pack("<IQ", len(entries), 0)
    for offset, length, h, comp in entries:
        out += struct.pack("<QIIIQIH", offset, 0, length, length, h, 0, comp)
    out += data_blob
    return bytes(out)


def data_at(n_entries):
    return 28 + 12 + 34 * n_entries


def index(records):
    return b"".join(struct.pack("<III", o, l, e) for o, l, e in records)


def item_bytes(width, height, pixels):
    """An item: header, row offsets, one run a row of its pixels (no zeros)."""
    rows = []
    body = bytearray()
    for y in range(height):
        rows.append(len(body) // 2)
        row = pixels[y * width:(y + 1) * width]
        x = 0
        while x < width:
            n = min(width - x, 2047)
            body += struct.pack("<HH", 0, n)
            body += struct.pack(f"<{n}H", *row[x:x + n])
            x += n
        body += struct.pack("<HH", 0, 0)
    head = struct.pack("<IHH", 0, width, height) + struct.pack(f"<{height}H", *rows)
    return head + bytes(body)


def noise(n, seed=1):
    r = random.Random(seed)
    return [r.randrange(1, 0x8000) for _ in range(n)]


def write(out, files):
    os.makedirs(out, exist_ok=True)
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


def case_uop_shared_names(out, scale):
    """artLegacyMUL.uop: k names each held by two entries (all the first copies, then all
    the second ones), every entry over the same 14-byte item."""
    k = 20_000 * scale
    n = 2 * k
    at = data_at(n)
    item = item_bytes(1, 1, [0x7FFF])
    hashes = [art_name(0x4000 + i) for i in range(k)]
    entries = [(at, len(item), h, 0) for h in hashes] * 2
    write(out, {"artLegacyMUL.uop": uop(entries, item)})


def case_uop_shared_names_gumps(out, scale):
    k = 20_000 * scale
    n = 2 * k
    at = data_at(n)
    gump = struct.pack("<ii", 1, 1) + struct.pack("<IHH", 1, 0x7FFF, 1)
    hashes = [gump_name(i) for i in range(k)]
    entries = [(at, len(gump), h, 0) for h in hashes] * 2
    write(out, {"gumpartLegacyMUL.uop": uop(entries, gump)})


def case_export_texmap_repeats(out, scale):
    """texidx.mul: 1,000 x SCALE entries over one 128 x 128 texture map of noise."""
    n = 1000 * scale
    pixels = noise(128 * 128)
    data = struct.pack(f"<{128 * 128}H", *pixels)
    write(out, {"texidx.mul": index([(0, 0x8000, 0)] * n), "texmaps.mul": data})


def cycled_item(side=2047, distinct=31, seed=2):
    """A side x side item whose rows cycle through `distinct` rows of noise (row offsets are
    16-bit words, so distinct rows must start in the first 128 KB): about 130 KB that draw
    as a PNG the deflater cannot shrink much (the rows repeat only every 31 x 8 KB)."""
    r = random.Random(seed)
    body = bytearray()
    starts = []
    for _ in range(distinct):
        starts.append(len(body) // 2)
        body += struct.pack("<HH", 0, side)
        body += struct.pack(f"<{side}H", *[r.randrange(1, 0x8000) for _ in range(side)])
        body += struct.pack("<HH", 0, 0)
    rows = [starts[y % distinct] for y in range(side)]
    return struct.pack("<IHH", 0, side, side) + struct.pack(f"<{side}H", *rows) + bytes(body)


def case_export_art_repeats(out, scale):
    """artidx.mul: 0x4000 empty land entries, then 20 x SCALE items over one 2047 x 2047
    item (cycled_item, 131 KB)."""
    n = 20 * scale
    item = cycled_item()
    recs = [(0xFFFFFFFF, 0xFFFFFFFF, 0)] * 0x4000 + [(0, len(item), 0)] * n
    write(out, {"artidx.mul": index(recs), "art.mul": item})


def case_convert_gump_repeats(out, scale):
    """gumpidx.mul: 100 x SCALE entries over one gump of 1024 x 1024 noise (4 MB + rows)."""
    n = 100 * scale
    w = h = 1024
    px = noise(w * h)
    rows = bytearray()
    body = bytearray()
    for y in range(h):
        rows += struct.pack("<I", h + len(body) // 4)
        for x in range(w):
            body += struct.pack("<HH", px[y * w + x], 1)
    data = bytes(rows + body)
    write(out, {"gumpidx.mul": index([(0, len(data), (w << 16) | h)] * n), "gumpart.mul": data})


def case_export_distinct_bad(out, scale):
    """artidx.mul: 0x4000 empty land entries, then 1,000,000 x SCALE items each over its own
    single byte of art.mul (none can be read as an item: each fails at once)."""
    n = 1_000_000 * scale
    empty = struct.pack("<III", 0xFFFFFFFF, 0xFFFFFFFF, 0) * 0x4000
    recs = bytearray(empty)
    recs += b"".join(struct.pack("<III", i, 1, 0) for i in range(n))
    write(out, {"artidx.mul": bytes(recs), "art.mul": bytes(n)})


def case_export_texmap_distinct_bad(out, scale):
    n = 1_000_000 * scale
    recs = b"".join(struct.pack("<III", i, 1, 0) for i in range(n))
    write(out, {"texidx.mul": recs, "texmaps.mul": bytes(n)})


def case_convert_uop_many_slots(out, scale):
    """artLegacyMUL.uop of 100,000 x SCALE unused table entries (offset 0): the MUL written
    from it has one 12-byte record a slot."""
    n = 100_000 * scale
    entries = [(0, 0, 0, 0)] * n
    write(out, {"artLegacyMUL.uop": uop(entries)})


def case_convert_mul_empty_index(out, scale):
    """artidx.mul of 1,000,000 x SCALE empty records, art.mul empty: the UOP written from
    it has a 34-byte table entry a record."""
    n = 1_000_000 * scale
    write(out, {"artidx.mul": struct.pack("<III", 0xFFFFFFFF, 0xFFFFFFFF, 0) * n, "art.mul": b""})


def case_convert_mul_repeats_to_uop(out, scale):
    """artidx.mul: 0x4000 empty, then 1,000,000 x SCALE items over one 1 x 1 item."""
    n = 1_000_000 * scale
    item = item_bytes(1, 1, [0x7FFF])
    recs = struct.pack("<III", 0xFFFFFFFF, 0xFFFFFFFF, 0) * 0x4000
    recs += struct.pack("<III", 0, len(item), 0) * n
    write(out, {"artidx.mul": recs, "art.mul": item})


def case_convert_gump_mul_repeats_to_uop(out, scale):
    """gumpidx.mul: 1,000,000 x SCALE ids over one 1 x 1 gump."""
    n = 1_000_000 * scale
    gump = struct.pack("<IHH", 1, 0x7FFF, 1)
    write(out, {"gumpidx.mul": struct.pack("<III", 0, len(gump), (1 << 16) | 1) * n,
                "gumpart.mul": gump})


def case_uop_empty_blocks(out, scale):
    """artLegacyMUL.uop: a chain of 1,000,000 x SCALE table blocks of no entry (12 bytes
    each, back to back)."""
    n = 1_000_000 * scale
    out_bytes = bytearray(struct.pack("<IIIQII", 0x0050594D, 5, 0xFD23EC43, 28, 0, 0))
    at = 28
    for i in range(n):
        nxt = at + 12 if i + 1 < n else 0
        out_bytes += struct.pack("<IQ", 0, nxt)
        at += 12
    write(out, {"artLegacyMUL.uop": bytes(out_bytes)})


def case_export_claims(out, scale):
    """artidx.mul: 0x4000 empty land entries, then 100,000 x SCALE items of 32,767 x 1
    pixels in 14 bytes each (header, row offset, the row's end): 131 KB of RGBA an item."""
    n = 100_000 * scale
    item = struct.pack("<IHHH", 0, 0x7FFF, 1, 0) + struct.pack("<HH", 0, 0)
    recs = bytearray(struct.pack("<III", 0xFFFFFFFF, 0xFFFFFFFF, 0) * 0x4000)
    recs += b"".join(struct.pack("<III", i * len(item), len(item), 0) for i in range(n))
    write(out, {"artidx.mul": bytes(recs), "art.mul": item * n})


def case_export_gump_claims(out, scale):
    """gumpidx.mul: 100,000 x SCALE gumps of 32,767 x 1 pixels, each one row offset and one
    run of 32,767 pixels (8 bytes)."""
    n = 100_000 * scale
    gump = struct.pack("<IHH", 1, 0x1234, 0x7FFF)
    recs = b"".join(struct.pack("<III", i * 8, 8, (0x7FFF << 16) | 1) for i in range(n))
    write(out, {"gumpidx.mul": recs, "gumpart.mul": gump * n})


def case_art_chain_overlaps(out, scale):
    """artidx.mul: 0x4000 empty land entries, then 1,000,000 x SCALE items each starting a
    byte after the previous one and 64 bytes long (every one overlaps the next)."""
    n = 1_000_000 * scale
    recs = bytearray(struct.pack("<III", 0xFFFFFFFF, 0xFFFFFFFF, 0) * 0x4000)
    recs += b"".join(struct.pack("<III", i, 64, 0) for i in range(n))
    write(out, {"artidx.mul": bytes(recs), "art.mul": bytes(n + 64)})


CASES = {name[5:]: f for name, f in globals().items() if name.startswith("case_")}

if __name__ == "__main__":
    case, out, scale = sys.argv[1], sys.argv[2], int(sys.argv[3])
    CASES[case](out, scale)
