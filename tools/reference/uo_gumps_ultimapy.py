#!/usr/bin/env python3
"""Cross-check of the gumps against ultimapy, an independent reader (a Python port of the
Ultima SDK, PyPI package `ultimapy`): every gump of a client folder, in gumpart.mul with
gumpidx.mul or in gumpartLegacyMUL.uop, is decoded by ultimapy and by this project's
Python package (`gamedata.uo.Gumps`, which draws as the ClassicUO client does) and
compared pixel by pixel.

The two readers are known to differ in a few ways, listed in docs/formats/uo.md, "Gumps",
"Colours" (under Art) and "ultimapy's known faults (art, gumps, animations, hues)". Each
such difference is recognised here by its cause, confirmed on the raw data (the script
decodes each gump's runs itself, by the client's rule) and counted; any other difference
fails (exit 1) naming the gump, the pixel and both values.

    python uo_gumps_ultimapy.py DIR             # compare every gump of DIR (the form DIR
                                                # holds; --format mul|uop if both)
    python uo_gumps_ultimapy.py --edge OUT      # write a small gump set made to show what
                                                # the synthetic set does not (a row of many
                                                # runs, width 1, sides of 0x7FFF, 0x8000
                                                # pixels, runs of no pixels, a gump past
                                                # ultimapy's tables) into OUT, compare it
                                                # and require each of them to be seen
    python uo_gumps_ultimapy.py --edge OUT --cli GAMEDATA
                                                # the same, then the set converted by
                                                # `gamedata uo convert --gumps --to uop`
                                                # into OUT/uop, compared in the same way

GAMEDATA is the command, split as a shell would ("target/release/gamedata", "cargo run -q
--release -p gamedata-cli --").

How ultimapy reads gumps (ultimapy/sdk/gumps.py, Gumps.get_gump and the Gumps._file_index
arguments; ultimapy/sdk/file_index.py, FileIndex.__init__ and FileIndex.seek):

- its tables hold 0xFFFF gumps (ids 0 to 0xFFFE): the cache list is 0xFFFF long, so any
  higher id raises an IndexError, from either form; with a UOP it also names only slots 0
  to 0xFFFE (`build/gumpartlegacymul/%08d.tga`, the client's hash);
- MUL: the index's three fields read signed; an entry is None when its offset or length
  is negative or its extra is -1; the size is the extra, width in the high half;
- UOP (taken whenever the folder holds a file named exactly gumpartLegacyMUL.uop): an
  entry starts 8 bytes after its header length, its size is the two i32 there cut to 16
  bits each and packed width << 16 | height (the order the client reads; the C# SDK's
  packed Extra swaps them, ultimapy does not), and its length is the stored one for
  compression 1, else the decoded one, not less the 8 bytes: it reads 8 bytes past each
  entry (harmless, see below);
- it reads a row's runs from the row's offset until the row is full, by the width, not up
  to the next row's offset (so the runs the client finds after a full row, which can only
  be of no pixels on data our reader accepts, are never read);
- a run's colour 0 leaves its pixels transparent; any other colour is XORed with 0x8000
  and widened by rounding v * 255 / 31 to nearest, alpha from bit 15: so a colour with bit
  15 set comes out transparent keeping its colour bits (0x8000 fully transparent), where
  the client draws its low 15 bits opaque (0x8000 opaque black).

The script points ultimapy at a scratch folder holding links to DIR's gumps in the form
compared (the UOP under that exact name), empty art files and blank stand-ins for the
other files its import opens (uo_ultimapy_common.py, which it shares with
uo_art_ultimapy.py). For a UOP it reads the container's table itself and checks that
ultimapy found each entry where its rules put it, with the size the entry stores.

Needs numpy, Pillow, ultimapy and the gamedata package in the running Python.
"""

import argparse
import os
import shlex
import struct
import sys
import tempfile

import numpy as np

from uo_ultimapy_common import (
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

UOP_NAME = "gumpartLegacyMUL.uop"  # the spelling ultimapy looks for (gumps.py)
MUL_PAIR = ("gumpart.mul", "gumpidx.mul")
DATA_NAME = {MUL: "gumpart.mul", UOP: UOP_NAME}
# ultimapy's tables: 0xFFFF gumps (gumps.py: the FileIndex length and the cache list).
ULTIMAPY_GUMPS = 0xFFFF
# A UOP gump entry: i32 width, i32 height, then the MUL gump data.
UOP_SIZE_BYTES = 8

# The known differences, by cause (docs/formats/uo.md).
BIT15 = "bit 15 set in a gump pixel"
PAST_TABLE = "gump past ultimapy's tables"
KNOWN = {
    ROUNDING: ROUNDING_WHY,
    BIT15: "the client draws its low 15 bits opaque (0x8000 opaque black), ultimapy flips "
    "bit 15 and makes it transparent keeping the colour bits (Gumps; ultimapy's known "
    "faults)",
    PAST_TABLE: "ultimapy's tables hold gumps 0 to 0xFFFE; a higher id raises an IndexError "
    "(gumpartLegacyMUL.uop; ultimapy's known faults)",
}


class RawGumps:
    """The script's own look at gumpidx.mul and gumpart.mul: each id's record (start and
    length in `data`, the size word; None for an empty entry, by the client's rule: offset
    0xFFFFFFFF or a signed length of 0 or less) and each gump's raw 16-bit pixels, used to
    confirm the cause of each known difference."""

    form = MUL

    def __init__(self, folder):
        with open(find(folder, "gumpidx.mul"), "rb") as f:
            index = f.read()
        with open(find(folder, "gumpart.mul"), "rb") as f:
            self.data = f.read()
        self.records = []
        for n in range(len(index) // 12):
            offset, length, extra = struct.unpack_from("<IiI", index, 12 * n)
            empty = offset == 0xFFFFFFFF or length <= 0
            self.records.append(None if empty else (offset, length, extra))

    def __len__(self):
        return len(self.records)

    def size(self, gump):
        """(width, height) from the size word, as the client splits it."""
        extra = self.records[gump][2]
        return extra >> 16, extra & 0xFFFF

    def repeats(self):
        """Used entries whose bytes are an earlier entry's (the same start and length)."""
        seen, found = set(), 0
        for record in self.records:
            if record is None:
                continue
            if record[:2] in seen:
                found += 1
            seen.add(record[:2])
        return found

    def runs(self, gump):
        """Gump `gump`'s runs by the client's rule, row by row: row y's from word offset[y]
        up to offset[y + 1] (the last row's up to the entry's whole words), each (colour,
        count). Raises ValueError for offsets that leave the entry or fall back."""
        start, length, _ = self.records[gump]
        entry = self.data[start : start + length]
        _, height = self.size(gump)
        words = len(entry) // 4
        if 4 * height > len(entry):
            raise ValueError(f"{height} row offsets, {len(entry)} bytes")
        offsets = list(struct.unpack_from(f"<{height}I", entry, 0)) + [words]
        rows = []
        for y in range(height):
            first, end = offsets[y], offsets[y + 1]
            if not first <= end <= words:
                raise ValueError(f"row {y}'s runs from word {first} to {end} of {words}")
            rows.append([struct.unpack_from("<HH", entry, 4 * w) for w in range(first, end)])
        return rows


class RawUopGumps(RawGumps):
    """gumpartLegacyMUL.uop read by the script (uo_ultimapy_common.UopTable): slot i is the
    entry named `build/gumpartlegacymul/%08d.tga`; the client's slots are max(table
    entries, 65,535) + 0x4000. An entry's stored bytes (after its header length) are i32
    width, i32 height, then the MUL gump data: the record is that data and the size packed
    as gumpidx.mul packs it. Only compression 0 is read (gamedata refuses the others)."""

    form = UOP

    def __init__(self, folder):
        with open(find(folder, UOP_NAME), "rb") as f:
            self.data = f.read()
        self.uop = uop = UopTable(self.data, UOP_NAME, "build/gumpartlegacymul/",
                                  ULTIMAPY_GUMPS)
        self.records = [None] * uop.client_slots
        for slot, entry in uop.by_slot.items():
            if slot >= uop.client_slots or entry.stored_len == 0:
                continue
            if entry.compression != 0 or entry.stored_len < UOP_SIZE_BYTES:
                raise SystemExit(f"{UOP_NAME}: slot {slot} is not an uncompressed gump "
                                 f"({entry.fields()}); the script reads no other")
            width, height = self.stored_size(entry)
            if not (0 <= width <= 0xFFFF and 0 <= height <= 0xFFFF):
                raise SystemExit(f"{UOP_NAME}: slot {slot} stores size {width} x {height}")
            self.records[slot] = (entry.start() + UOP_SIZE_BYTES,
                                  entry.stored_len - UOP_SIZE_BYTES, (width << 16) | height)

    def stored_size(self, entry):
        """The i32 width and height an entry's bytes start with."""
        return struct.unpack_from("<ii", self.data, entry.start())


def stage(folder, form, scratch):
    """A folder ultimapy can import from: DIR's gumps in `form` only (the UOP under the name
    ultimapy looks for), empty art files (its art module reads them when imported) and
    blank files for the rest."""
    names = MUL_PAIR if form == MUL else (UOP_NAME,)
    stage_for_ultimapy(scratch, {name: find(folder, name) for name in names},
                       blanks=("art.mul", "artidx.mul"))


class GumpTally(Tally):
    def __init__(self):
        super().__init__(KNOWN)
        self.bit15_gumps = []  # gumps where BIT15 was seen
        self.black_bit15 = 0  # of those pixels, raw 0x8000: opaque black, fully clear
        self.runs = 0  # runs the script read by the client's rule
        self.most_runs = 0  # the most runs in one row
        self.empty_runs = 0  # runs of no pixels
        self.after_full = 0  # runs the client reads after a row is full (ultimapy never)
        self.narrowest = None  # the least width and the greatest side of the pictures
        self.greatest = 0
        self.read_past = 0  # UOP entries ultimapy reads past their end
        self.past_file = 0  # of those, reads running past the file's end


def raw_pixels(raw, gump, tally):
    """Gump `gump`'s raw 16-bit pixels by the script's reading of its runs (-1 where none
    reaches), or None (a failure) when they do not cover each row exactly, as every gump
    gamedata draws does."""
    width, height = raw.size(gump)
    try:
        rows = raw.runs(gump)
    except ValueError as error:
        tally.fail(f"gump {gump}: the script cannot read its rows: {error}")
        return None
    pixels = np.full((height, width), -1, dtype=np.int32)
    for y, runs in enumerate(rows):
        x = 0
        for colour, count in runs:
            if x == width:
                tally.after_full += 1
            if x + count > width:
                tally.fail(f"gump {gump}: row {y}'s runs pass the width {width}")
                return None
            pixels[y, x : x + count] = colour
            x += count
            tally.empty_runs += count == 0
        if x != width:
            tally.fail(f"gump {gump}: row {y}'s runs cover {x} of {width} pixels")
            return None
        tally.runs += len(runs)
        tally.most_runs = max(tally.most_runs, len(runs))
    return pixels


def check_uop_index(raw, Gumps, tally):
    """ultimapy's slots for a UOP against the script's reading of the table. By ultimapy's
    rules each named slot's entry (FileIndex.__init__): lookup 8 bytes past the entry's
    start (after the header length), the length ultimapy_length gives (stored for
    compression 1, else decoded: the whole entry, not less 8), and the extra the two i32
    at the start cut to 16 bits and packed width << 16 | height, the order the client
    reads. Anything else fails, naming the slot. Every entry it finds it so reads 8 bytes
    past the entry's end: counted, with those running past the file's end. Returns the
    entries found."""
    index = Gumps._file_index.index
    if len(index) != ULTIMAPY_GUMPS:
        tally.fail(f"ultimapy made {len(index)} slots, not {ULTIMAPY_GUMPS:#x}")

    def expected(entry):
        width, height = raw.stored_size(entry)
        return (entry.start() + UOP_SIZE_BYTES, ultimapy_length(entry),
                ((width & 0xFFFF) << 16) | (height & 0xFFFF))

    found = check_uop_slots(index, raw.uop, tally, expected,
                            lambda p: (p.lookup, p.length, p.extra) if p.lookup >= 0 else None)
    for slot, entry in raw.uop.by_slot.items():
        if slot >= len(index):
            continue
        end = entry.start() + UOP_SIZE_BYTES + ultimapy_length(entry)
        if end > entry.start() + entry.stored_len:
            tally.read_past += 1
            tally.past_file += end > len(raw.data)
    return found


def check(folder, form, scratch, tally):
    """Compares every gump, ultimapy reading from `scratch`; returns (ultimapy's version,
    gamedata's ids, pictures, empty ids, the raw gumps, UOP entries ultimapy found)."""
    from gamedata import uo

    if form == UOP:
        check_name_hash()
    raw = RawUopGumps(folder) if form == UOP else RawGumps(folder)
    ours = uo.Gumps.open(folder, format=form)
    if len(ours) != len(raw):
        tally.fail(f"gamedata has {len(ours)} gump ids, the script counts {len(raw)}")
    stage(folder, form, scratch)
    Gumps, version = import_ultimapy(scratch, "ultimapy.sdk.gumps", "Gumps")
    found = check_uop_index(raw, Gumps, tally) if form == UOP else None
    pictures = empty = 0
    for gump in range(len(ours)):
        label = f"gump {gump}"
        a, ok_a = decode(label, "gamedata", tally, ours.gump, gump)
        if not ok_a:
            continue
        if (a is None) != (raw.records[gump] is None):
            tally.fail(f"{label}: gamedata gives {'no ' if a is None else ''}picture, the "
                       f"index {'an empty' if raw.records[gump] is None else 'a used'} entry")
            continue
        if a is not None and (ours.size(gump) != raw.size(gump)
                              or a.shape[:2] != raw.size(gump)[::-1]):
            tally.fail(f"{label}: gamedata's size {ours.size(gump)} and picture "
                       f"{a.shape[1]} x {a.shape[0]}, the index's {raw.size(gump)}")
            continue
        if gump >= ULTIMAPY_GUMPS:
            # Past ultimapy's tables: confirm it raises an IndexError there.
            if a is None:
                empty += 1
                continue
            try:
                Gumps.get_gump(gump)
                tally.fail(f"{label}: past ultimapy's tables, yet it read the gump")
            except IndexError:
                tally.known[PAST_TABLE] += 1
            continue
        b, ok_b = decode(label, "ultimapy", tally, Gumps.get_gump, gump)
        if not ok_b:
            continue
        if a is None or b is None:
            if a is not None or b is not None:
                tally.fail(f"{label}: a picture only in {'ours' if a is not None else 'ultimapy'}")
            empty += 1
            continue
        pixels = raw_pixels(raw, gump, tally)
        if pixels is None:
            continue
        pictures += 1
        width, height = raw.size(gump)
        tally.narrowest = width if tally.narrowest is None else min(tally.narrowest, width)
        tally.greatest = max(tally.greatest, width, height)
        causes = compare(label, a, b, tally, raw=pixels, bit15=BIT15)
        if causes and causes[BIT15].any():
            tally.bit15_gumps.append(gump)
            tally.black_bit15 += int((causes[BIT15] & (pixels == 0x8000)).sum())
    return version, len(ours), pictures, empty, raw, found


def id_list(ids):
    """`ids` as "gump 7", "gumps 0, 1 and 2", "no gump"."""
    if not ids:
        return "no gump"
    shown = [f"{n:#x}" if n >= 0x1000 else f"{n}" for n in ids[:8]]
    if len(ids) > 8:
        shown.append(f"{len(ids) - 8} more")
    if len(shown) == 1:
        return f"gump {shown[0]}"
    return f"gumps {', '.join(shown[:-1])} and {shown[-1]}"


def plural(n, word):
    return f"{n} {word}{'' if n == 1 else 's'}"


def report(folder, form, scratch, require_edge):
    tally = GumpTally()
    try:
        version, ids, pictures, empty, raw, found = check(folder, form, scratch, tally)
    except Failure:
        pass
    tally.stop_if_failed()
    repeats = raw.repeats()
    parts = [tally.rounding_part(),
             f"{BIT15}: {plural(tally.known[BIT15], 'pixel')} (in {id_list(tally.bit15_gumps)}; "
             f"{tally.black_bit15} of them 0x8000)",
             f"{PAST_TABLE}: {plural(tally.known[PAST_TABLE], 'gump')} (ultimapy raises an "
             "IndexError there; not compared)"]
    print(f"ultimapy {version}, {DATA_NAME[form]}: {pictures} gumps equal ({tally.pixels} "
          f"pixels; {ids} ids: {pictures} pictures, {empty} empty in both; exact-repeat "
          f"entries: {repeats}; {tally.runs} runs, at most {tally.most_runs} a row, "
          f"{tally.empty_runs} of no pixels, {tally.after_full} after a full row; widths "
          f"from {tally.narrowest}, sides up to {tally.greatest}); known differences: "
          f"{'; '.join(parts)}")
    if form == UOP:
        uop = raw.uop
        beyond = sum(slot >= ULTIMAPY_GUMPS for slot in uop.by_slot)
        print(f"  {UOP_NAME}: {uop.counts()}; exact repeats sharing one stored range: "
              f"{repeats}; the client's slots {uop.client_slots} (gamedata's {ids}, "
              f"{uop.past_client} entries past them); ultimapy's {ULTIMAPY_GUMPS:#x} names "
              f"found {found} entries, each 8 bytes on from the table's start (after the width "
              f"and height) with the size stored there, width in the high half as the client "
              f"packs it, and of the whole entry's length, so it reads 8 bytes past the end "
              f"of {tally.read_past} of them ({tally.past_file} past the file's end; "
              f"harmless: it reads a row's runs by the width); {beyond} table "
              f"{'entry' if beyond == 1 else 'entries'} named past its names")
    for name, why in KNOWN.items():
        print(f"  {name}: {why}")
    if require_edge:
        missing = [name for name, n in tally.known.items() if n == 0]
        shown = {
            "a repeat": repeats > 0,
            "an empty entry": empty > 0,
            "a 0x8000 pixel": tally.black_bit15 > 0,
            "a row of 62 runs": tally.most_runs >= 62,
            "a run of no pixels": tally.empty_runs > 0,
            "a run after a full row": tally.after_full > 0,
            "width 1": tally.narrowest == 1,
            "a side of 0x7FFF": tally.greatest == 0x7FFF,
        }
        missing += [what for what, seen in shown.items() if not seen]
        if missing:
            raise SystemExit(f"the edge set did not show: {', '.join(missing)}")
        tally.require_rounding_everywhere()
        # Gump 0xFFFF: in the MUL's index, or in the UOP's table under a name ultimapy
        # never hashes.
        if form == UOP and sum(slot >= ULTIMAPY_GUMPS for slot in raw.uop.by_slot) != 1:
            raise SystemExit("the UOP holds no entry past ultimapy's names")
        if tally.known[PAST_TABLE] != 1:
            raise SystemExit(f"{tally.known[PAST_TABLE]} gumps past ultimapy's tables, "
                             "expected 1")


# The edge set: a few gumps written byte by byte.


def gump_entry(rows):
    """A gump's bytes: `rows` holds, for each row, its runs as (colour, count)."""
    height = len(rows)
    table, body = [], bytearray()
    for runs in rows:
        table.append(height + len(body) // 4)
        for colour, count in runs:
            body += struct.pack("<HH", colour, count)
    return struct.pack(f"<{height}I", *table) + bytes(body)


def write_edge(out):
    os.makedirs(out, exist_ok=True)
    level = [(v << 10) | ((v * 7 % 32) << 5) | (v * 13 % 32) for v in range(32)]
    grey = [v * 0x421 for v in range(1, 32)]

    def single(colours, between):
        """One-pixel runs of `colours`, each followed by a one-pixel run of `between`."""
        return [run for c in colours for run in ((c, 1), (between, 1))]

    gumps = {
        # Width 1: a column of one-pixel runs; colour 0, 0x8000 and others with bit 15 set.
        0: (1, [[(c, 1)] for c in (0x7FFF, 0x0000, 0x8000, 0x801F, 0x0421, 0xFFFF, 0x7C00)]),
        # 62 runs a row: every 5-bit level from 1 as greys between clear pixels, then with
        # bit 15 set between 0x8000 pixels, then mixed colours plain and with bit 15 set.
        1: (62, [
            single(grey, 0),
            single([g | 0x8000 for g in grey], 0x8000),
            single([level[v] or 1 for v in range(1, 32)],
                   0x8000 | level[31]),
        ]),
        # Runs the writer never makes: a colour split over two runs, a run of no pixels
        # inside a row, and runs of no pixels after a full row (the client reads them by
        # the offsets, ultimapy stops at the width).
        2: (6, [
            [(0x001F, 2), (0x001F, 1), (0x03E0, 0), (0x7C00, 3)],
            [(0x1234, 6), (0x4321, 0), (0x0000, 0)],
            [(0x0000, 3), (0x8000, 3)],
        ]),
        # The greatest width, 0x7FFF: one run of 0x7FFF pixels (ultimapy reads the count
        # as a signed 16-bit number), then a clear half and a bit-15 half.
        3: (0x7FFF, [[(0x2108, 0x7FFF)], [(0x0000, 0x4000), (0x8421, 0x3FFF)]]),
        # The greatest height, 0x7FFF (the client reads it signed), one pixel wide.
        4: (1, [[(level[y % 32] or 0x8000, 1)] for y in range(0x7FFF)]),
        # Past ultimapy's tables (ids 0 to 0xFFFE).
        0xFFFF: (2, [[(0x001F, 1), (0x03E0, 1)], [(0x7C00, 1), (0x7FFF, 1)]]),
    }
    data = bytearray()
    # Empty entries as the project writes them; gump 5 empty but with a size word.
    records = [(0xFFFFFFFF, 0xFFFFFFFF, 0)] * (0xFFFF + 1)
    records[5] = (0xFFFFFFFF, 0xFFFFFFFF, (3 << 16) | 3)
    for gump, (width, rows) in gumps.items():
        entry = gump_entry(rows)
        records[gump] = (len(data), len(entry), (width << 16) | len(rows))
        data += entry
    records[6] = records[1]  # gump 6 repeats gump 1 exactly
    with open(os.path.join(out, "gumpart.mul"), "wb") as f:
        f.write(data)
    with open(os.path.join(out, "gumpidx.mul"), "wb") as f:
        f.write(b"".join(struct.pack("<III", *record) for record in records))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", nargs="?",
                        help="client folder with gumpart.mul and gumpidx.mul or "
                        "gumpartLegacyMUL.uop")
    parser.add_argument("--format", choices=(MUL, UOP),
                        help="the form to compare when DIR holds both")
    parser.add_argument("--edge", metavar="OUT",
                        help="write the edge set into OUT and compare it instead of DIR "
                        "(with --cli, its UOP conversion in OUT/uop too)")
    parser.add_argument("--require-edge", action="store_true",
                        help="require what --edge requires of DIR (used by --edge for the "
                        "UOP form)")
    parser.add_argument("--cli", type=shlex.split,
                        help="the gamedata command, for --edge's UOP form")
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
        report(folder, form, scratch, require_edge=bool(args.edge or args.require_edge))
    if args.edge:
        if args.cli:
            edge_as_uop(__file__, args.edge, args.cli, "--gumps")
        else:
            print(f"(no --cli: the edge set's {UOP_NAME} form not written nor compared)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
