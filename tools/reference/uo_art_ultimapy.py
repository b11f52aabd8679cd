#!/usr/bin/env python3
"""Cross-check of the art against ultimapy, an independent reader (a Python port of the
Ultima SDK, PyPI package `ultimapy`): every land tile and every item of a client folder, in
art.mul with artidx.mul or in artLegacyMUL.uop, is decoded by ultimapy and by this
project's Python package (`gamedata.uo.Art`, which draws as the ClassicUO client does) and
compared pixel by pixel.

The two readers are known to differ in a few ways, listed in docs/formats/uo.md, "Art",
"Colours" and "ultimapy's known faults (art, gumps, animations, hues)". Each such
difference is recognised here by its cause and counted; any other difference fails (exit
1) naming the entry, the pixel and both values.

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
its highest item is 0xFFF (ultimapy/sdk/file_index.py, FileIndex.__init__; art.py, Art
and Art.load). So the scratch folder links only the form compared, the UOP under that
exact name. For a UOP the script reads the container's table itself (its own name hash,
lookup3's hashlittle2) and checks that ultimapy found each entry at the same bytes, then
compares the pixels.

What this script shares with uo_gumps_ultimapy.py (the 8-bit tables, the pixel comparison,
the UOP table and name hash, the scratch folder and the import) is in
uo_ultimapy_common.py beside it.

Needs numpy, Pillow, ultimapy and the gamedata package in the running Python.
"""

import argparse
import os
import shlex
import struct
import subprocess
import tempfile
import time

import numpy as np

from uo_ultimapy_common import (
    ITEM_BASE,
    MUL,
    ROUNDING,
    ROUNDING_WHY,
    UOP,
    Failure,
    Tally,
    UopTable,
    check_name_hash,
    check_uop_slots,
    compare,
    decode,
    edge_as_uop,
    find,
    import_ultimapy,
    pick_form,
    stage_for_ultimapy,
    ultimapy_length,
)

LAND_PIXELS = 1012

# The known differences, by cause (docs/formats/uo.md).
ZERO_IN_RUN = "colour 0 in an item run"
BIT15 = "bit 15 set in an item pixel"
PAST_TABLE = "item past ultimapy's highest id"
KNOWN = {
    ROUNDING: ROUNDING_WHY,
    ZERO_IN_RUN: "the client leaves it transparent, ultimapy flips bit 15 and draws it "
    "opaque black (Items; ultimapy's known faults)",
    BIT15: "the client draws its low 15 bits opaque, ultimapy flips bit 15 and makes it "
    "transparent keeping the colour bits (Items; ultimapy's known faults)",
    PAST_TABLE: "ultimapy stops its item ids at 0x3FFF, 0x7FFF or 0xFFF by the index "
    "size and reads a higher id as item 0 (How many items; ultimapy's known faults)",
}

UOP_NAME = "artLegacyMUL.uop"  # the spelling ultimapy looks for (art.py, Art._file_index)
MUL_PAIR = ("art.mul", "artidx.mul")
DATA_NAME = {MUL: "art.mul", UOP: UOP_NAME}
# ultimapy with a UOP: names for slots 0 to 0x14000 - 1, an index length counted as 0x13FDC
# whatever the file holds (art.py, the Art._file_index arguments).
ULTIMAPY_UOP_SLOTS = 0x14000
ULTIMAPY_UOP_INDEX = 0x13FDC


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


class RawUopArt(RawArt):
    """artLegacyMUL.uop read by the script (uo_ultimapy_common.UopTable): slot i is the
    entry named `build/artlegacymul/%08d.tga`; the client's slots are max(table entries,
    65,535) + 0x4000. An art entry's bytes start after its header length and are its stored
    length long, whatever its compression flag (the client's rule, docs/formats/uo.md "How
    many items")."""

    form = UOP

    def __init__(self, folder):
        with open(find(folder, UOP_NAME), "rb") as f:
            self.data = f.read()
        self.uop = uop = UopTable(self.data, UOP_NAME, "build/artlegacymul/",
                                  ULTIMAPY_UOP_SLOTS)
        self.records = [None] * uop.client_slots
        for slot, entry in uop.by_slot.items():
            if slot < uop.client_slots and entry.stored_len > 0:
                self.records[slot] = (entry.start(), entry.stored_len)


def ultimapy_highest_item(raw):
    """ultimapy's highest item id for this art (art.py, Art.load): by artidx.mul's entries,
    or by the 0x13FDC it counts for a UOP."""
    index_entries = ULTIMAPY_UOP_INDEX if raw.form == UOP else len(raw)
    if index_entries >= 0x13FDC:
        return 0xFFF
    return 0x7FFF if index_entries == 0xC000 else 0x3FFF


def stage(folder, form, scratch):
    """A folder ultimapy can import from: DIR's art in `form` only (the UOP under the name
    ultimapy looks for), blank files for the rest."""
    names = MUL_PAIR if form == MUL else (UOP_NAME,)
    stage_for_ultimapy(scratch, {name: find(folder, name) for name in names})


class ArtTally(Tally):
    def __init__(self):
        super().__init__(KNOWN)
        self.no_pixels = 0  # items of a zero side: ultimapy None, ours an empty array
        self.decoded_length = 0  # UOP entries ultimapy gives their decoded length


def check_uop_index(raw, Art, tally):
    """ultimapy's slots for a UOP against the script's reading of the table: the same entry
    in each named slot, starting at the same byte (after the header length), of the length
    ultimapy's rule gives: the stored length for compression 1, the decoded length
    otherwise, where the client and gamedata take the stored one. An uncompressed entry
    whose two lengths differ is counted as that (docs/formats/uo.md, ultimapy's known
    faults); any other difference fails. Returns the entries found."""
    index = Art._file_index.index  # ultimapy's one Entry3D a slot (file_index.py)
    if len(index) != ULTIMAPY_UOP_SLOTS or Art.idx_length != ULTIMAPY_UOP_INDEX:
        tally.fail(f"ultimapy made {len(index)} slots counted as {Art.idx_length:g}, not "
                   f"{ULTIMAPY_UOP_SLOTS:#x} counted as {ULTIMAPY_UOP_INDEX:#x}")
    found = check_uop_slots(
        index, raw.uop, tally,
        expected=lambda e: (e.start(), ultimapy_length(e)),
        theirs=lambda p: (p.lookup, p.length) if p.lookup >= 0 else None)
    tally.decoded_length = sum(
        ultimapy_length(e) != e.stored_len
        for slot, e in raw.uop.by_slot.items() if slot < len(index))
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
    stage(folder, form, scratch)
    Art, version = import_ultimapy(scratch, "ultimapy.sdk.art", "Art")
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
        compare(f"land {land}", a, b, tally)
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
        compare(f"item {item}", a, b, tally, raw=raw.item_raw(item), zero_in_run=ZERO_IN_RUN,
                bit15=BIT15)
    return version, lands, items, land_pictures, item_pictures, raw, found, len(ours)


def report(folder, form, scratch, require_all_known):
    tally = ArtTally()
    try:
        version, lands, items, land_pictures, item_pictures, raw, found, numbers = check(
            folder, form, scratch, tally)
    except Failure:
        pass
    tally.stop_if_failed()
    parts = [tally.rounding_part()]
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
        uop = raw.uop
        print(f"  {UOP_NAME}: {uop.table_entries} table entries, {uop.used} used "
              f"(exact repeats sharing one stored range: {repeats}; {uop.header_lens} with a "
              f"header length, {uop.compressed} compressed, {uop.lengths_differ} with stored "
              f"and decoded lengths apart, {uop.unnamed} of no art name, {uop.same_name} "
              f"naming a slot twice); the client's slots {uop.client_slots} (gamedata's "
              f"{numbers}, {uop.past_client} entries past them); ultimapy's "
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
        tally.require_rounding_everywhere()
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
    form = pick_form(parser, folder, args.format, MUL_PAIR, UOP_NAME)
    with tempfile.TemporaryDirectory(prefix="ultimapy-") as scratch:
        report(folder, form, scratch, require_all_known=bool(args.edge or args.require_edge))
        if args.time:
            timing(folder, form, args.cli, args.repeat)
    if args.edge:
        if args.cli:
            edge_as_uop(__file__, args.edge, args.cli, "--art")
        else:
            print(f"(no --cli: the edge set's {UOP_NAME} form not written nor compared)")


if __name__ == "__main__":
    main()
