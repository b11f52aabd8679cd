#!/usr/bin/env python3
"""Cross-check of the art against ultimapy, an independent reader (a Python port of the
Ultima SDK, PyPI package `ultimapy`): every land tile and every item of a client folder, in
art.mul with artidx.mul or in artLegacyMUL.uop, is decoded by ultimapy and by this
project's Python package (`gamedata.uo.Art`, which draws as the ClassicUO client does) and
compared pixel by pixel.

The two readers are known to differ in a few ways, listed in docs/formats/uo.md, "Art",
"Colours" and "ultimapy's known faults (art, gumps, hues)". Each such difference is
recognised here by its cause and counted; any other difference fails (exit 1) naming the
entry, the pixel and both values.

    python uo_art_ultimapy.py DIR               # compare every entry of DIR's art (the
                                                # form DIR holds; --format mul|uop if both)
    python uo_art_ultimapy.py --edge OUT        # write a small art set made to show each
                                                # known difference into OUT, compare it and
                                                # require every one of them to be seen
    python uo_art_ultimapy.py --edge OUT --cli GAMEDATA
                                                # the same, then the set converted by
                                                # `gamedata uo convert --art --to uop` into
                                                # OUT/uop, compared in the same way (item
                                                # 0x1000 is past ultimapy's highest there)
    python uo_art_ultimapy.py DIR --time --cli PATH/TO/gamedata [--repeat N]
                                                # also time exporting every entry both ways

GAMEDATA is the command, split as a shell would ("target/release/gamedata", "cargo run -q
--release -p gamedata-cli --").

ultimapy reads its folder from the ULTIMA_FILES_DIR environment variable when it is
imported, and its import opens many other client files (hues, fonts, skills, tiledata,
body tables). So the script points it at a scratch folder holding links to DIR's art and
blank stand-ins for the rest (DIR's own hues.mul may hold fewer than the 375 groups
ultimapy reads unconditionally, which stops its import). It can be imported once a
process, so one run compares one form.

ultimapy takes the UOP whenever its folder holds a file named exactly artLegacyMUL.uop (a
case-sensitive test on Linux) and the MUL pair only otherwise; it names slots 0 to 0x13FFF
`build/artlegacymul/%08d.tga`, finds them by the same name hash as the client, starts an
entry after its header length (its length: the stored one for compression 1, else the
decoded one; the client's is the stored one) and counts its index as 0x13FDC entries, so
its highest item is 0xFFF (ultimapy/sdk/file_index.py, FileIndex.__init__; art.py, Art and Art.load). So the
scratch folder links only the form compared, the UOP under that exact name. For a UOP the
script reads the container's table itself (its own name hash, lookup3's hashlittle2) and
checks that ultimapy found each entry at the same bytes, then compares the pixels.

Needs numpy, Pillow, ultimapy and the gamedata package in the running Python.
"""

import argparse
import contextlib
import io
import os
import shlex
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

ITEM_BASE = 0x4000
LAND_PIXELS = 1012

# 5-bit channel to 8 bits: the client's table rounds v * 255 / 31 down; ultimapy
# (utils.get_arbg_from_16_bit) rounds it to nearest. Both are one-to-one, so each 8-bit
# value a reader gives names exactly one 5-bit level; -1 marks values off its table.
CLIENT_8 = [v * 255 // 31 for v in range(32)]
ULTIMAPY_8 = [int(v * 255 / 31 + 0.5) for v in range(32)]


def inverse(table):
    back = np.full(256, -1, dtype=np.int32)
    for level, value in enumerate(table):
        back[value] = level
    return back


CLIENT_LEVEL = inverse(CLIENT_8)
ULTIMAPY_LEVEL = inverse(ULTIMAPY_8)

# The known differences, by cause (docs/formats/uo.md).
ROUNDING = "8-bit rounding"
ZERO_IN_RUN = "colour 0 in an item run"
BIT15 = "bit 15 set in an item pixel"
PAST_TABLE = "item past ultimapy's highest id"
KNOWN = {
    ROUNDING: "ultimapy rounds v*255/31 to nearest, the client down: same 15-bit colour, "
    "8-bit channels one apart (Colours)",
    ZERO_IN_RUN: "the client leaves it transparent, ultimapy flips bit 15 and draws it "
    "opaque black (Items; ultimapy's known faults)",
    BIT15: "the client draws its low 15 bits opaque, ultimapy flips bit 15 and makes it "
    "transparent keeping the colour bits (Items; ultimapy's known faults)",
    PAST_TABLE: "ultimapy stops its item ids at 0x3FFF, 0x7FFF or 0xFFF by the index "
    "size and reads a higher id as item 0 (How many items; ultimapy's known faults)",
}


def find(folder, name):
    """`name` in `folder`, any letter case."""
    for entry in os.listdir(folder):
        if entry.lower() == name.lower():
            return os.path.join(folder, entry)
    raise SystemExit(f"no {name} in {folder}")


MUL, UOP = "mul", "uop"
UOP_NAME = "artLegacyMUL.uop"  # the spelling ultimapy looks for (art.py, Art._file_index)
DATA_NAME = {MUL: "art.mul", UOP: UOP_NAME}
# ultimapy with a UOP: names for slots 0 to 0x14000 - 1, an index length counted as 0x13FDC
# whatever the file holds (art.py, the Art._file_index arguments).
ULTIMAPY_UOP_SLOTS = 0x14000
ULTIMAPY_UOP_INDEX = 0x13FDC
# The client's slots for an art UOP: max(table entries, 65,535) + 0x4000 (How many items).
CLIENT_UOP_LEAST = 65535


def forms_in(folder):
    """The art forms `folder` holds: "mul" when art.mul and artidx.mul are there, "uop" when
    artLegacyMUL.uop is (any letter case)."""
    names = {entry.lower() for entry in os.listdir(folder)}
    forms = []
    if {"art.mul", "artidx.mul"} <= names:
        forms.append(MUL)
    if UOP_NAME.lower() in names:
        forms.append(UOP)
    return forms


def name_hashes(names):
    """lookup3's hashlittle2 (both seeds 0) of equal-length ASCII names, as (b << 32) | c:
    the UOP name hash (docs/formats/uo.md, "UOP containers"). Vectorised over the names."""
    length = len(names[0])
    blocks = max(-(-length // 12), 1)
    raw = np.frombuffer(b"".join(n.encode("ascii") for n in names), dtype=np.uint8)
    raw = raw.reshape(len(names), length)
    padded = np.zeros((len(names), blocks * 12), dtype=np.uint8)
    padded[:, :length] = raw
    words = padded.view("<u4").astype(np.uint32)

    def rot(x, k):
        return (x << np.uint32(k)) | (x >> np.uint32(32 - k))

    def mix(a, b, c):
        # Six steps, each on the next of (a, b, c) in turn: x -= z, x ^= z rotated, z += y.
        for k in (4, 6, 8, 16, 19, 4):
            a = (a - c) ^ rot(c, k)
            c = c + b
            a, b, c = b, c, a
        return a, b, c

    def final(a, b, c):
        c = (c ^ b) - rot(b, 14)
        a = (a ^ c) - rot(c, 11)
        b = (b ^ a) - rot(a, 25)
        c = (c ^ b) - rot(b, 16)
        a = (a ^ c) - rot(c, 4)
        b = (b ^ a) - rot(a, 14)
        c = (c ^ b) - rot(b, 24)
        return a, b, c

    start = np.full(len(names), (0xDEADBEEF + length) & 0xFFFFFFFF, dtype=np.uint32)
    a, b, c = start.copy(), start.copy(), start.copy()
    if length > 0:
        for block in range(blocks):
            a = a + words[:, 3 * block]
            b = b + words[:, 3 * block + 1]
            c = c + words[:, 3 * block + 2]
            # Every block but the last is mixed; the last (zero-padded) is finalised.
            a, b, c = mix(a, b, c) if block + 1 < blocks else final(a, b, c)
    return (b.astype(np.uint64) << np.uint64(32)) | c.astype(np.uint64)


def check_name_hash():
    """The hash against the vectors docs/formats/uo.md cites."""
    got = int(name_hashes(["Four score and seven years ago"])[0])
    sound = int(name_hashes(["build/soundlegacymul/00000000.dat"])[0])
    if (got >> 32, got & 0xFFFFFFFF) != (0xCE7226E6, 0x17770551) or sound != 0xCB36450C320CD308:
        raise SystemExit("the script's lookup3 does not give the published values")


def art_names(count):
    return [f"build/artlegacymul/{n:08d}.tga" for n in range(count)]


class RawArt:
    """The script's own look at the files: each art number's stored bytes (`records`: start
    and length in `data`, None for an empty entry) and each item's raw 16-bit pixels, used
    to confirm the cause of each known difference."""

    form = MUL

    def __init__(self, folder):
        with open(find(folder, "artidx.mul"), "rb") as f:
            index = f.read()
        with open(find(folder, "art.mul"), "rb") as f:
            self.data = f.read()
        self.records = []
        for n in range(len(index) // 12):
            offset, length = struct.unpack_from("<II", index, 12 * n)
            empty = offset == 0xFFFFFFFF or length == 0 or length >= 0x80000000
            self.records.append(None if empty else (offset, length))

    def __len__(self):
        return len(self.records)

    def entry(self, number):
        record = self.records[number]
        if record is None:
            return None
        start, length = record
        return self.data[start : start + length]

    def item_raw(self, item):
        """Item `item`'s raw pixels by the runs, -1 where no run reaches."""
        entry = self.entry(ITEM_BASE + item)
        width, height = struct.unpack_from("<HH", entry, 4)
        raw = np.full((height, width), -1, dtype=np.int32)
        body = 8 + 2 * height
        for y in range(height):
            (start,) = struct.unpack_from("<H", entry, 8 + 2 * y)
            at, x = body + 2 * start, 0
            while True:
                skip, count = struct.unpack_from("<HH", entry, at)
                at += 4
                if skip == 0 and count == 0:
                    break
                x += skip
                raw[y, x : x + count] = struct.unpack_from(f"<{count}H", entry, at)
                at += 2 * count
                x += count
        return raw

    def repeats(self):
        """Used entries whose bytes are an earlier entry's (the same start and length)."""
        seen, found = set(), 0
        for record in self.records:
            if record is None:
                continue
            if record in seen:
                found += 1
            seen.add(record)
        return found


class UopEntry:
    """One used entry of a UOP table, as stored."""

    def __init__(self, offset, header_len, stored_len, decoded_len, name_hash, compression):
        self.offset, self.header_len = offset, header_len
        self.stored_len, self.decoded_len = stored_len, decoded_len
        self.name_hash, self.compression = name_hash, compression

    def start(self):
        return self.offset + self.header_len


class RawUopArt(RawArt):
    """artLegacyMUL.uop read by the script: its table blocks followed from the header, each
    used entry (offset not 0) placed in the slot whose name `build/artlegacymul/%08d.tga`
    has its hash; the client's slots are max(table entries, 65,535) + 0x4000. An art entry's
    bytes start after its header length and are its stored length long, whatever its
    compression flag (the client's rule, docs/formats/uo.md "How many items")."""

    form = UOP

    def __init__(self, folder):
        with open(find(folder, UOP_NAME), "rb") as f:
            self.data = data = f.read()

        def unpack(layout, at, what):
            if at < 0 or at + struct.calcsize(layout) > len(data):
                raise SystemExit(f"{UOP_NAME}: {what} at {at} lies past the file's end")
            return struct.unpack_from(layout, data, at)

        magic, _version, _signature, table, _capacity, _files = unpack("<IIIQII", 0, "header")
        if magic != 0x0050594D:
            raise SystemExit(f"{UOP_NAME}: magic {magic:#010x}, not MYP")
        self.table_entries, used, seen = 0, [], set()
        while table != 0:
            if table in seen:
                raise SystemExit(f"{UOP_NAME}: its table chain comes back to {table}")
            seen.add(table)
            count, following = unpack("<IQ", table, "a table block")
            self.table_entries += count
            for k in range(count):
                fields = unpack("<QIIIQIH", table + 12 + 34 * k, "a table entry")
                offset, header_len, stored, decoded, name_hash, _adler, compression = fields
                if offset != 0:
                    used.append(UopEntry(offset, header_len, stored, decoded, name_hash,
                                         compression))
            table = following
        self.client_slots = max(self.table_entries, CLIENT_UOP_LEAST) + ITEM_BASE
        names = max(self.client_slots, ULTIMAPY_UOP_SLOTS)
        slot_of = dict(zip(name_hashes(art_names(names)).tolist(), range(names)))
        self.by_slot = {}  # slot: its entry, for every named slot, past the client's too
        self.unnamed = self.same_name = 0
        self.named_twice = set()
        for entry in used:
            slot = slot_of.get(entry.name_hash)
            if slot is None:
                self.unnamed += 1
            elif slot in self.by_slot:
                self.same_name += 1  # the client refuses such a file; counted and shown
                self.named_twice.add(slot)
            else:
                self.by_slot[slot] = entry
        self.used = len(used)
        self.records = [None] * self.client_slots
        for slot, entry in self.by_slot.items():
            if slot < self.client_slots and entry.stored_len > 0:
                end = entry.start() + entry.stored_len
                if end > len(data):
                    raise SystemExit(f"{UOP_NAME}: slot {slot}'s bytes end past the file")
                self.records[slot] = (entry.start(), entry.stored_len)
        self.header_lens = sum(e.header_len != 0 for e in self.by_slot.values())
        self.compressed = sum(e.compression != 0 for e in self.by_slot.values())
        self.lengths_differ = sum(e.stored_len != e.decoded_len for e in self.by_slot.values())
        self.past_client = sum(slot >= self.client_slots for slot in self.by_slot)


def ultimapy_highest_item(raw):
    """ultimapy's highest item id for this art (art.py, Art.load): by artidx.mul's entries,
    or by the 0x13FDC it counts for a UOP."""
    index_entries = ULTIMAPY_UOP_INDEX if raw.form == UOP else len(raw)
    if index_entries >= 0x13FDC:
        return 0xFFF
    return 0x7FFF if index_entries == 0xC000 else 0x3FFF


def stage_for_ultimapy(folder, form, scratch):
    """A folder ultimapy can import from: DIR's art in `form` only (the UOP under the name
    ultimapy looks for), blank files for the rest."""
    names = ("art.mul", "artidx.mul") if form == MUL else (UOP_NAME,)
    for name in names:
        os.symlink(os.path.abspath(find(folder, name)), os.path.join(scratch, name))
    blanks = {
        # 375 groups of 708 bytes: what hues.py reads whatever the file's length.
        "hues.mul": bytes(375 * 708),
        # 10 fonts, each a header byte and 224 characters of size 0 x 0 (3 bytes each).
        "fonts.mul": bytes(10 * (1 + 224 * 3)),
        # One skill group ("Misc") and a first group number; no skills.
        "skillgrp.mul": struct.pack("<ii", 1, 0),
        "Skills.idx": b"",
        "skills.mul": b"",
        "Body.def": b"",
        "Bodyconv.def": b"",
        # 512 land groups in the larger (High Seas) layout: enough for either reading.
        "tiledata.mul": bytes(512 * (4 + 32 * 30)),
    }
    for name, data in blanks.items():
        with open(os.path.join(scratch, name), "wb") as f:
            f.write(data)


def import_ultimapy(scratch):
    """Imports ultimapy pointed at `scratch`; its chatter goes to a buffer, shown only if
    the import fails."""
    os.environ["ULTIMA_FILES_DIR"] = scratch
    chatter = io.StringIO()
    here = os.getcwd()
    os.chdir(scratch)  # settings.py reads ./environment.ini if there is one
    try:
        with contextlib.redirect_stdout(chatter):
            from ultimapy.sdk.art import Art
    except Exception:
        sys.stderr.write(chatter.getvalue())
        raise
    finally:
        os.chdir(here)
    from importlib.metadata import version

    return Art, version("ultimapy")


class Failure(Exception):
    pass


def decode(label, reader, tally, get, number):
    """`get(number)`, or a failure naming the entry when the reader raises."""
    try:
        return get(number), True
    except Exception as error:  # either reader may refuse an entry; say which and why
        tally.fail(f"{label}: {reader} raised {type(error).__name__}: {error}")
        return None, False


class Tally:
    def __init__(self):
        self.pixels = 0
        self.known = {name: 0 for name in KNOWN}
        self.rounded_channels = {}  # 5-bit level: times ultimapy's 8-bit value was another
        self.no_pixels = 0  # items of a zero side: ultimapy None, ours an empty array
        self.decoded_length = 0  # UOP entries ultimapy gives their decoded length
        self.failures = []

    def fail(self, message):
        self.failures.append(message)
        if len(self.failures) >= 20:
            raise Failure()


def rgba(pixel):
    return tuple(int(v) for v in pixel)


def compare(label, ours, theirs, raw, tally):
    """Compares one picture: `ours` an (h, w, 4) array, `theirs` ultimapy's image; `raw`
    the item's raw pixels (None for a land tile, where neither known item rule applies)."""
    theirs = np.asarray(theirs.convert("RGBA"), dtype=np.int32)
    ours = ours.astype(np.int32)
    if ours.shape != theirs.shape:
        tally.fail(f"{label}: ours {ours.shape[1]} x {ours.shape[0]}, "
                   f"ultimapy {theirs.shape[1]} x {theirs.shape[0]}")
        return
    o_level, t_level = CLIENT_LEVEL[ours[..., :3]], ULTIMAPY_LEVEL[theirs[..., :3]]
    o_alpha, t_alpha = ours[..., 3], theirs[..., 3]
    o_colour = (o_level[..., 0] << 10) | (o_level[..., 1] << 5) | o_level[..., 2]
    t_colour = (t_level[..., 0] << 10) | (t_level[..., 1] << 5) | t_level[..., 2]
    in_tables = (o_level >= 0).all(-1) & (t_level >= 0).all(-1)
    in_tables &= np.isin(o_alpha, (0, 255)) & np.isin(t_alpha, (0, 255))
    o_clear = (ours == 0).all(-1)
    o_solid = o_alpha == 255
    same = in_tables & (
        (o_solid & (t_alpha == 255) & (o_colour == t_colour))
        | (o_clear & (theirs == 0).all(-1))
    )
    is_item = raw is not None
    zero_in_run = in_tables & o_clear & (t_alpha == 255) & (t_colour == 0) & is_item
    bit15 = in_tables & o_solid & (t_alpha == 0) & (o_colour == t_colour) & is_item
    if is_item:
        # The causes, checked on the raw pixels: a run's 0, a pixel with bit 15 set.
        zero_in_run &= raw == 0
        bit15 &= (raw >= 0) & ((raw & 0x8000) != 0) & ((raw & 0x7FFF) == o_colour)
    for y, x in zip(*np.nonzero(~(same | zero_in_run | bit15))):
        what = ""
        if raw is not None:
            what = f" (raw {'none' if raw[y, x] < 0 else f'0x{raw[y, x]:04X}'})"
        tally.fail(f"{label} at x {x}, y {y}: ours RGBA {rgba(ours[y, x])}, "
                   f"ultimapy RGBA {rgba(theirs[y, x])}{what}")
    tally.pixels += ours.shape[0] * ours.shape[1]
    rounded = same & o_solid & (ours[..., :3] != theirs[..., :3]).any(-1)
    tally.known[ROUNDING] += int(rounded.sum())
    channels = same[..., None] & o_solid[..., None] & (ours[..., :3] != theirs[..., :3])
    for level in o_level[channels]:
        tally.rounded_channels[int(level)] = tally.rounded_channels.get(int(level), 0) + 1
    tally.known[ZERO_IN_RUN] += int(zero_in_run.sum())
    tally.known[BIT15] += int(bit15.sum())


def check_uop_index(raw, Art, tally):
    """ultimapy's slots for a UOP against the script's reading of the table: the same entry
    in each named slot, starting at the same byte (after the header length) with the same
    length. ultimapy takes the stored length only for compression 1 and the decoded length
    otherwise, where the client and gamedata take the stored one: an uncompressed entry
    whose two lengths differ is counted as that (docs/formats/uo.md, ultimapy's known
    faults), any other difference fails. Returns the entries found."""
    index = Art._file_index.index  # ultimapy's one Entry3D a slot (file_index.py)
    if len(index) != ULTIMAPY_UOP_SLOTS or Art.idx_length != ULTIMAPY_UOP_INDEX:
        tally.fail(f"ultimapy made {len(index)} slots counted as {Art.idx_length:g}, not "
                   f"{ULTIMAPY_UOP_SLOTS:#x} counted as {ULTIMAPY_UOP_INDEX:#x}")
    found = 0
    for slot, place in enumerate(index):
        entry = raw.by_slot.get(slot)
        theirs = (place.lookup, place.length) if place.lookup >= 0 else None
        expected = None if entry is None else (entry.start(), entry.stored_len)
        if entry is not None and entry.compression != 1 and theirs == (
                entry.start(), entry.decoded_len) and theirs != expected:
            tally.decoded_length += 1
            found += 1
        elif theirs != expected:
            fields = "no entry" if entry is None else (
                f"offset {entry.offset}, header {entry.header_len}, stored "
                f"{entry.stored_len}, decoded {entry.decoded_len}, compression "
                f"{entry.compression}")
            twice = ""
            if slot in raw.named_twice:
                twice = ("; the table names this slot twice: ultimapy keeps the later entry, "
                         "the client refuses the file (ultimapy's known faults)")
            tally.fail(f"slot {slot}: ultimapy's index (start, length) {theirs}, the "
                       f"table's first {expected} ({fields}){twice}")
        elif theirs is not None:
            found += 1
    return found


def check(folder, form, scratch, tally):
    """Compares every entry, ultimapy reading from `scratch`; returns (ultimapy's version,
    land tiles, items, land pictures, item pictures, the raw art, UOP entries ultimapy
    found, gamedata's art numbers)."""
    from gamedata import uo

    if form == UOP:
        check_name_hash()
    raw = RawUopArt(folder) if form == UOP else RawArt(folder)
    ours = uo.Art.open(folder, format=form)
    if len(ours) != len(raw):
        tally.fail(f"gamedata has {len(ours)} art numbers, the script counts {len(raw)}")
    stage_for_ultimapy(folder, form, scratch)
    Art, version = import_ultimapy(scratch)
    found = check_uop_index(raw, Art, tally) if form == UOP else None
    lands = min(len(raw), ITEM_BASE)
    items = max(len(raw) - ITEM_BASE, 0)
    highest = ultimapy_highest_item(raw)
    if Art._max_item_id != highest:
        tally.fail(f"ultimapy's highest item is {Art._max_item_id:#x}, the script expected "
                   f"{highest:#x}")
    land_pictures = item_pictures = 0
    for land in range(lands):
        a, ok_a = decode(f"land {land}", "gamedata", tally, ours.land, land)
        b, ok_b = decode(f"land {land}", "ultimapy", tally, Art.get_land, land)
        if not (ok_a and ok_b):
            continue
        if a is None or b is None:
            if a is not None or b is not None:
                tally.fail(f"land {land}: a picture only in "
                           f"{'ours' if a is not None else 'ultimapy'}")
            continue
        land_pictures += 1
        compare(f"land {land}", a, b, None, tally)
    for item in range(items):
        a, ok_a = decode(f"item {item}", "gamedata", tally, ours.item, item)
        if not ok_a:
            continue
        if item > highest:
            # ultimapy cannot reach this item: confirm it shows item 0 instead.
            if a is not None and a.size:
                tally.known[PAST_TABLE] += 1
                first, got = Art.get_static(0), Art.get_static(item)
                if got is not first:
                    tally.fail(f"item {item}: past ultimapy's highest id {highest:#x}, "
                               "yet not its item 0")
            continue
        b, ok_b = decode(f"item {item}", "ultimapy", tally, Art.get_static, item)
        if not ok_b:
            continue
        if a is not None and a.size == 0 and b is None:
            tally.no_pixels += 1  # a zero side: nothing to draw in either
            continue
        if a is None or b is None:
            if a is not None or b is not None:
                tally.fail(f"item {item}: a picture only in "
                           f"{'ours' if a is not None else 'ultimapy'}")
            continue
        item_pictures += 1
        compare(f"item {item}", a, b, raw.item_raw(item), tally)
    return version, lands, items, land_pictures, item_pictures, raw, found, len(ours)


def report(folder, form, scratch, require_all_known):
    tally = Tally()
    try:
        version, lands, items, land_pictures, item_pictures, raw, found, numbers = check(
            folder, form, scratch, tally)
    except Failure:
        pass
    if tally.failures:
        for line in tally.failures:
            print(f"DIFFERENT {line}", file=sys.stderr)
        more = " (the first 20)" if len(tally.failures) >= 20 else ""
        raise SystemExit(f"ultimapy and gamedata differ{more}; no known cause explains it")
    levels = ", ".join(f"{v}" for v in sorted(tally.rounded_channels))
    parts = [f"{ROUNDING} at {tally.known[ROUNDING]} pixels (levels {levels or 'none'})"]
    parts += [f"{name}: {tally.known[name]} pixels" for name in (ZERO_IN_RUN, BIT15)]
    parts.append(f"{PAST_TABLE}: {tally.known[PAST_TABLE]} items (ultimapy shows its item 0 "
                 "there; not compared)")
    empty_items = items - item_pictures - tally.no_pixels - tally.known[PAST_TABLE]
    repeats = raw.repeats()
    print(f"ultimapy {version}, {DATA_NAME[form]}: {land_pictures} land tiles and {items} "
          f"items equal "
          f"({tally.pixels} pixels; the other {lands - land_pictures} land numbers empty in "
          f"both; items: {item_pictures} pictures, {empty_items} empty, {tally.no_pixels} "
          f"of a zero side; exact-repeat entries: {repeats}); "
          f"known differences: {'; '.join(parts)}")
    if form == UOP:
        print(f"  {UOP_NAME}: {raw.table_entries} table entries, {raw.used} used "
              f"(exact repeats sharing one stored range: {repeats}; {raw.header_lens} with a "
              f"header length, {raw.compressed} compressed, {raw.lengths_differ} with stored "
              f"and decoded lengths apart, {raw.unnamed} of no art name, {raw.same_name} "
              f"naming a slot twice); the client's slots {raw.client_slots} (gamedata's "
              f"{numbers}, {raw.past_client} entries past them); ultimapy's "
              f"{ULTIMAPY_UOP_SLOTS:#x} names found {found} entries, each at the table's "
              f"start (after the header) and of its stored length but "
              f"{tally.decoded_length} given the decoded one; its highest item "
              f"{ultimapy_highest_item(raw):#x} (it counts {ULTIMAPY_UOP_INDEX:#x} index "
              "entries)")
    for name, why in KNOWN.items():
        print(f"  {name}: {why}")
    if require_all_known:
        missing = [name for name, n in tally.known.items() if n == 0]
        if missing or repeats == 0 or tally.no_pixels == 0:
            raise SystemExit(f"the edge set did not show: {missing or 'repeats/zero sides'}")
        # The levels where rounding to nearest lands above the client's table.
        above = [v for v in range(32) if ULTIMAPY_8[v] != CLIENT_8[v]]
        if sorted(tally.rounded_channels) != above:
            raise SystemExit(f"rounding seen at levels {sorted(tally.rounded_channels)}, "
                             f"expected {above}")
        # Item 0x4000 is past ultimapy's highest item in either form, item 0x1000 only in
        # the UOP (its highest item 0xFFF there, 0x3FFF for this artidx.mul).
        past = 2 if form == UOP else 1
        if tally.known[PAST_TABLE] != past:
            raise SystemExit(f"{tally.known[PAST_TABLE]} items past ultimapy's highest, "
                             f"expected {past}")


# The edge set: a few pictures written byte by byte to show each known difference.


def item_entry(width, height, rows):
    """An item entry; `rows` holds, for each row, its runs as (skip, [pixels])."""
    body = bytearray()
    table = []
    for runs in rows:
        table.append(len(body) // 2)
        for skip, pixels in runs:
            body += struct.pack(f"<HH{len(pixels)}H", skip, len(pixels), *pixels)
        body += struct.pack("<HH", 0, 0)
    return struct.pack(f"<IHH{height}H", 0, width, height, *table) + bytes(body)


def write_edge(out):
    os.makedirs(out, exist_ok=True)
    level = [(v << 10) | ((v * 7 % 32) << 5) | (v * 13 % 32) for v in range(32)]
    land0 = struct.pack(f"<{LAND_PIXELS}H", *(level[i % 32] for i in range(LAND_PIXELS)))
    # Every other run of 32 pixels with bit 15 set, so 0x0000 and 0x8000 among them:
    # opaque black in both readers.
    land1 = struct.pack(f"<{LAND_PIXELS}H",
                        *(level[i % 32] | (0x8000 if i // 32 % 2 else 0)
                          for i in range(LAND_PIXELS)))
    grey = [v * 0x421 for v in range(1, 32)]
    items = {
        # Colour 0 and bit 15 inside runs; two runs in a row (the skip counts from the end
        # of the previous run); an empty row; a run ending at the right edge.
        0: item_entry(8, 4, [
            [(0, [0x7FFF, 0x0000, 0x8000, 0x801F, 0x7C00])],
            [(1, [0x03E0, 0x001F]), (1, [0x0000, 0x0421, 0xFFFF])],
            [],
            [(7, [0x8421])],
        ]),
        # Every 5-bit level from 1 as greys, plain and with bit 15 set, then mixed.
        1: item_entry(31, 3, [
            [(0, grey)],
            [(0, [g | 0x8000 for g in grey])],
            [(0, [level[v] or 1 for v in range(1, 32)])],
        ]),
        3: item_entry(0, 0, []),  # a zero side: nothing to draw
        # Past ultimapy's highest item id with a UOP (0xFFF), below it with this index.
        0x1000: item_entry(3, 1, [[(0, [0x7C1F, 0x03FF, 0x4210])]]),
        # Past ultimapy's highest item id (0x3FFF for this index size).
        0x4000: item_entry(2, 2, [[(0, [0x001F, 0x03E0])], [(0, [0x7C00, 0x7FFF])]]),
    }
    data = bytearray()
    records = [(0xFFFFFFFF, 0xFFFFFFFF)] * (ITEM_BASE + 0x4001)

    def place(number, entry):
        records[number] = (len(data), len(entry))
        data.extend(entry)

    place(0, land0 + bytes(2048 - len(land0)))
    place(1, land1)
    records[2] = records[0]  # land 2: an exact repeat of land 0
    for item, entry in items.items():
        place(ITEM_BASE + item, entry)
    records[ITEM_BASE + 2] = records[ITEM_BASE + 0]  # item 2 repeats item 0
    with open(os.path.join(out, "art.mul"), "wb") as f:
        f.write(data)
    with open(os.path.join(out, "artidx.mul"), "wb") as f:
        f.write(b"".join(struct.pack("<III", o, n, 0) for o, n in records))


# Timing: exporting every entry, each reader on its own.


def timing(folder, form, cli, repeat):
    from PIL import Image

    from gamedata import uo
    from ultimapy.sdk.art import Art  # already imported and pointed by check()

    raw = RawUopArt(folder) if form == UOP else RawArt(folder)
    lands = [n for n in range(min(len(raw), ITEM_BASE)) if raw.entry(n) is not None]
    items = [n - ITEM_BASE for n in range(ITEM_BASE, len(raw)) if raw.entry(n) is not None]
    results = []

    def run(name, job):
        seconds = []
        for _ in range(repeat):
            with tempfile.TemporaryDirectory(prefix="art-time-") as out:
                Art._cache = [None] * len(Art._cache)  # no pictures kept from earlier runs
                start = time.perf_counter()
                job(out)
                seconds.append(time.perf_counter() - start)
        results.append((name, sorted(seconds)))

    def ultimapy_arrays(out):
        for n in lands:
            np.asarray(Art.get_land(n))
        for n in items:
            picture = Art.get_static(n)
            if picture is not None:
                np.asarray(picture)

    def ultimapy_png(out):
        for n in lands:
            Art.get_land(n).save(os.path.join(out, f"land{n}.png"))
        for n in items:
            picture = Art.get_static(n)
            if picture is not None:
                picture.save(os.path.join(out, f"item{n}.png"))

    def ours_arrays(out):
        art = uo.Art.open(folder, format=form)
        for n in lands:
            art.land(n)
        for n in items:
            art.item(n)

    def ours_png(out):
        art = uo.Art.open(folder, format=form)
        for n in lands:
            Image.fromarray(art.land(n)).save(os.path.join(out, f"land{n}.png"))
        for n in items:
            picture = art.item(n)
            if picture is not None and picture.size:
                Image.fromarray(picture).save(os.path.join(out, f"item{n}.png"))

    def ours_cli(out):
        for kind, numbers in (("--land", lands), ("--item", items)):
            for n in numbers:
                subprocess.run([*cli, "uo", "art", folder, kind, str(n), "-o",
                                os.path.join(out, f"{kind[2:]}{n}.png")],
                               check=True, stdout=subprocess.DEVNULL)

    run("ultimapy, to arrays", ultimapy_arrays)
    run("gamedata Python, to arrays", ours_arrays)
    run("ultimapy, to PNG (PIL's save)", ultimapy_png)
    run("gamedata Python, to PNG (PIL's save)", ours_png)
    if cli:
        run("gamedata CLI, one `uo art` a picture", ours_cli)
    print(f"timing: {len(lands)} land tiles and {len(items)} item entries of {folder} "
          f"({DATA_NAME[form]}), "
          f"best and median of {repeat} runs")
    for name, seconds in results:
        best, median = seconds[0], seconds[len(seconds) // 2]
        print(f"  {name:40} {best * 1000:9.1f} ms {median * 1000:9.1f} ms")


def edge_as_uop(out, cli):
    """The edge set in `out` converted by the project's CLI into `out`/uop, then compared
    by a fresh process (ultimapy reads one folder a process)."""
    uop_dir = os.path.join(out, "uop")
    subprocess.run([*cli, "uo", "convert", out, "--art", "--to", "uop", uop_dir],
                   check=True, stdout=subprocess.DEVNULL)
    sys.stdout.flush()
    subprocess.run([sys.executable, os.path.abspath(__file__), uop_dir, "--format", UOP,
                    "--require-edge"], check=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", nargs="?",
                        help="client folder with art.mul and artidx.mul or artLegacyMUL.uop")
    parser.add_argument("--format", choices=(MUL, UOP),
                        help="the form to compare when DIR holds both")
    parser.add_argument("--edge", metavar="OUT",
                        help="write the edge set into OUT and compare it instead of DIR "
                        "(with --cli, its UOP conversion in OUT/uop too)")
    parser.add_argument("--require-edge", action="store_true",
                        help="require what --edge requires of DIR (used by --edge for the "
                        "UOP form)")
    parser.add_argument("--time", action="store_true",
                        help="also time exporting every entry with each reader")
    parser.add_argument("--cli", type=shlex.split,
                        help="the gamedata command, for --time and --edge's UOP form")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each --time job")
    args = parser.parse_args()
    if args.edge:
        write_edge(args.edge)
        folder = args.edge
    elif args.dir:
        folder = args.dir
    else:
        parser.error("give DIR or --edge OUT")
    forms = forms_in(folder)
    if args.format:
        if args.format not in forms:
            parser.error(f"{folder} holds no {DATA_NAME[args.format]}")
        form = args.format
    elif len(forms) == 1:
        form = forms[0]
    else:
        parser.error(f"{folder} holds {' and '.join(forms) or 'no art'}: give --format")
    with tempfile.TemporaryDirectory(prefix="ultimapy-") as scratch:
        report(folder, form, scratch, require_all_known=bool(args.edge or args.require_edge))
        if args.time:
            timing(folder, form, args.cli, args.repeat)
    if args.edge:
        if args.cli:
            edge_as_uop(args.edge, args.cli)
        else:
            print(f"(no --cli: the edge set's {UOP_NAME} form not written nor compared)")


if __name__ == "__main__":
    main()
