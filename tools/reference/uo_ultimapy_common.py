"""What the cross-checks against ultimapy 0.0.25 share: uo_art_ultimapy.py (art),
uo_gumps_ultimapy.py (gumps) and uo_anims_ultimapy.py (animations) import it from beside
them.

- the 5-to-8-bit tables of the client and of ultimapy, and the pixel comparison that
  accepts a difference only where a named cause explains it (8-bit rounding, and for
  pictures whose raw pixels are given: bit 15 set, colour 0 inside an item run; raw 0
  opaque where both readers draw it so, as in animations);
- the UOP container read by the script itself: its table followed from the header, each
  used entry placed in the slot whose name has its hash (lookup3's hashlittle2, checked
  against published values), and ultimapy's slots compared with it;
- the scratch folder ultimapy imports from (links to the files compared, blank stand-ins
  for the other client files its import opens) and the import itself;
- the tally of pixels, known differences and failures (the first 20 end the check).

The facts are in docs/formats/uo.md: "UOP containers", "Art" ("Colours"), "Gumps",
"Animations" and "ultimapy's known faults (art, gumps, animations, hues)".
"""

import contextlib
import io
import os
import struct
import subprocess
import sys

import numpy as np

MUL, UOP = "mul", "uop"
ITEM_BASE = 0x4000

# 5-bit channel to 8 bits: the client's table rounds v * 255 / 31 down; ultimapy
# (utils.get_arbg_from_16_bit) rounds it to nearest. Both are one-to-one, so each 8-bit
# value a reader gives names exactly one 5-bit level; -1 marks values off its table.
CLIENT_8 = [v * 255 // 31 for v in range(32)]
ULTIMAPY_8 = [int(v * 255 / 31 + 0.5) for v in range(32)]
# The levels where rounding to nearest lands one above the client's table.
ROUNDED_LEVELS = [v for v in range(32) if ULTIMAPY_8[v] != CLIENT_8[v]]


def inverse(table):
    back = np.full(256, -1, dtype=np.int32)
    for level, value in enumerate(table):
        back[value] = level
    return back


CLIENT_LEVEL = inverse(CLIENT_8)
ULTIMAPY_LEVEL = inverse(ULTIMAPY_8)

ROUNDING = "8-bit rounding"
ROUNDING_WHY = ("ultimapy rounds v*255/31 to nearest, the client down: same 15-bit colour, "
                "8-bit channels one apart (Colours)")

# The client's slots for a picture UOP (art or gumps): max(table entries, 65,535) + 0x4000
# (docs/formats/uo.md, "How many items" and "gumpartLegacyMUL.uop").
CLIENT_UOP_LEAST = 65535


def find(folder, name):
    """`name` in `folder`, any letter case."""
    for entry in os.listdir(folder):
        if entry.lower() == name.lower():
            return os.path.join(folder, entry)
    raise SystemExit(f"no {name} in {folder}")


def forms_in(folder, mul_pair, uop_name):
    """The forms `folder` holds: "mul" when both files of `mul_pair` are there, "uop" when
    `uop_name` is (any letter case)."""
    names = {entry.lower() for entry in os.listdir(folder)}
    forms = []
    if {n.lower() for n in mul_pair} <= names:
        forms.append(MUL)
    if uop_name.lower() in names:
        forms.append(UOP)
    return forms


def pick_form(parser, folder, asked, mul_pair, uop_name):
    """The form to compare: `asked` if `folder` holds it, else the only one it holds."""
    forms = forms_in(folder, mul_pair, uop_name)
    if asked:
        if asked not in forms:
            held = mul_pair[0] if asked == MUL else uop_name
            parser.error(f"{folder} holds no {held}")
        return asked
    if len(forms) == 1:
        return forms[0]
    if not forms:
        parser.error(f"{folder} holds neither {' with '.join(mul_pair)} nor {uop_name}")
    parser.error(f"{folder} holds both {' with '.join(mul_pair)} and {uop_name}: give --format")


def edge_as_uop(script, out, cli, what):
    """An edge set in `out` converted by the project's CLI (`gamedata uo convert DIR
    --art|--gumps --to uop`, `what` the flag) into `out`/uop, then compared by `script` in a
    fresh process (ultimapy reads one folder a process) with --require-edge."""
    uop_dir = os.path.join(out, "uop")
    subprocess.run([*cli, "uo", "convert", out, what, "--to", "uop", uop_dir],
                   check=True, stdout=subprocess.DEVNULL)
    sys.stdout.flush()
    subprocess.run([sys.executable, os.path.abspath(script), uop_dir, "--format", UOP,
                    "--require-edge"], check=True)


# The UOP name hash.


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


# The UOP container, read by the script.


class UopEntry:
    """One used entry of a UOP table, as stored."""

    def __init__(self, offset, header_len, stored_len, decoded_len, name_hash, compression):
        self.offset, self.header_len = offset, header_len
        self.stored_len, self.decoded_len = stored_len, decoded_len
        self.name_hash, self.compression = name_hash, compression

    def start(self):
        return self.offset + self.header_len

    def fields(self):
        return (f"offset {self.offset}, header {self.header_len}, stored {self.stored_len}, "
                f"decoded {self.decoded_len}, compression {self.compression}")


def ultimapy_length(entry):
    """The length ultimapy gives an entry: the stored one for compression 1, else the
    decoded one (file_index.py, FileIndex.__init__)."""
    return entry.stored_len if entry.compression == 1 else entry.decoded_len


class UopTable:
    """A picture UOP (`label` its file name) read by the script: its table blocks followed
    from the header, each used entry (offset not 0) placed in the slot whose name
    `stem` + `%08d.tga` has its hash. The client's slots are max(table entries, 65,535) +
    0x4000; names are hashed for those and for ultimapy's `ultimapy_slots`, whichever are
    more, so an entry ultimapy would name is never counted as unnamed."""

    def __init__(self, data, label, stem, ultimapy_slots):
        self.data, self.label = data, label

        def unpack(layout, at, what):
            if at < 0 or at + struct.calcsize(layout) > len(data):
                raise SystemExit(f"{label}: {what} at {at} lies past the file's end")
            return struct.unpack_from(layout, data, at)

        magic, _version, _signature, table, _capacity, _files = unpack("<IIIQII", 0, "header")
        if magic != 0x0050594D:
            raise SystemExit(f"{label}: magic {magic:#010x}, not MYP")
        self.table_entries, used, seen = 0, [], set()
        while table != 0:
            if table in seen:
                raise SystemExit(f"{label}: its table chain comes back to {table}")
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
        names = max(self.client_slots, ultimapy_slots)
        hashes = name_hashes([f"{stem}{n:08d}.tga" for n in range(names)]).tolist()
        slot_of = dict(zip(hashes, range(names)))
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
        for slot, entry in self.by_slot.items():
            if entry.start() + entry.stored_len > len(data):
                raise SystemExit(f"{label}: slot {slot}'s bytes end past the file")
        self.header_lens = sum(e.header_len != 0 for e in self.by_slot.values())
        self.compressed = sum(e.compression != 0 for e in self.by_slot.values())
        self.lengths_differ = sum(e.stored_len != e.decoded_len for e in self.by_slot.values())
        self.past_client = sum(slot >= self.client_slots for slot in self.by_slot)

    def counts(self):
        """The table's figures, for the report."""
        return (f"{self.table_entries} table entries, {self.used} used ({self.header_lens} "
                f"with a header length, {self.compressed} compressed, {self.lengths_differ} "
                f"with stored and decoded lengths apart, {self.unnamed} of no name, "
                f"{self.same_name} naming a slot twice)")


def check_uop_slots(places, table, tally, expected, theirs):
    """ultimapy's slots (`places`, its FileIndex.index) against the script's reading of
    the table: slot by slot, `theirs(place)` (None for a slot ultimapy left empty) must be
    `expected(entry)`, what ultimapy's own rules give for the table's entry of that slot
    (None where the table has none). Any other value fails, naming the slot and the entry.
    Returns the entries found."""
    found = 0
    for slot, place in enumerate(places):
        entry = table.by_slot.get(slot)
        got = theirs(place)
        want = None if entry is None else expected(entry)
        if got != want:
            fields = "no entry" if entry is None else entry.fields()
            twice = ""
            if slot in table.named_twice:
                twice = ("; the table names this slot twice: ultimapy keeps the later entry, "
                         "the client refuses the file (ultimapy's known faults)")
            tally.fail(f"slot {slot}: ultimapy's index {got}, expected {want} from the "
                       f"table's first entry ({fields}){twice}")
        elif got is not None:
            found += 1
    return found


# ultimapy, imported from a scratch folder.

# Stand-ins for the client files ultimapy's import opens besides the ones compared.
BLANKS = {
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


def stage_for_ultimapy(scratch, links, blanks=()):
    """A folder ultimapy can import from: `links` (its name for each file: the file) as
    symbolic links, BLANKS and the empty files named in `blanks` for the rest."""
    for name, path in links.items():
        os.symlink(os.path.abspath(path), os.path.join(scratch, name))
    for name, data in [*BLANKS.items(), *((name, b"") for name in blanks)]:
        with open(os.path.join(scratch, name), "wb") as f:
            f.write(data)


def import_ultimapy(scratch, module, name):
    """`name` from ultimapy's `module` (ultimapy.sdk.art, ultimapy.sdk.gumps), imported
    pointed at `scratch`, and ultimapy's version; its chatter goes to a buffer, shown only
    if the import fails. ultimapy reads its folder when imported: once a process."""
    os.environ["ULTIMA_FILES_DIR"] = scratch
    chatter = io.StringIO()
    here = os.getcwd()
    os.chdir(scratch)  # settings.py reads ./environment.ini if there is one
    try:
        with contextlib.redirect_stdout(chatter):
            loaded = __import__(module, fromlist=[name])
    except Exception:
        sys.stderr.write(chatter.getvalue())
        raise
    finally:
        os.chdir(here)
    from importlib.metadata import version

    return getattr(loaded, name), version("ultimapy")


# Comparing.


class Failure(Exception):
    pass


class Tally:
    def __init__(self, known):
        self.pixels = 0
        self.known = {name: 0 for name in known}
        self.rounded_channels = {}  # 5-bit level: times ultimapy's 8-bit value was another
        self.failures = []

    def fail(self, message):
        self.failures.append(message)
        if len(self.failures) >= 20:
            raise Failure()

    def stop_if_failed(self):
        """Prints the failures and exits 1 if there are any."""
        if self.failures:
            for line in self.failures:
                print(f"DIFFERENT {line}", file=sys.stderr)
            more = " (the first 20)" if len(self.failures) >= 20 else ""
            raise SystemExit(f"ultimapy and gamedata differ{more}; no known cause explains it")

    def rounding_part(self):
        levels = ", ".join(f"{v}" for v in sorted(self.rounded_channels))
        return f"{ROUNDING} at {self.known[ROUNDING]} pixels (levels {levels or 'none'})"

    def require_rounding_everywhere(self):
        """For an edge set: rounding seen at exactly the levels where the tables part."""
        if sorted(self.rounded_channels) != ROUNDED_LEVELS:
            raise SystemExit(f"rounding seen at levels {sorted(self.rounded_channels)}, "
                             f"expected {ROUNDED_LEVELS}")


def decode(label, reader, tally, get, number):
    """`get(number)`, or a failure naming the entry when the reader raises."""
    try:
        return get(number), True
    except Exception as error:  # either reader may refuse an entry; say which and why
        tally.fail(f"{label}: {reader} raised {type(error).__name__}: {error}")
        return None, False


def rgba(pixel):
    return tuple(int(v) for v in pixel)


def compare(label, ours, theirs, tally, raw=None, zero_in_run=None, bit15=None,
            zero_opaque=False):
    """Compares one picture: `ours` an (h, w, 4) array, `theirs` ultimapy's image, `raw`
    its raw 16-bit pixels (-1 where no run reaches; None where no pixel rule applies, as
    on a land tile). Equal after each reader's 8-bit table (or transparent in both) is
    the same pixel, if `raw` is given only where the raw pixel has that colour (or is 0 or
    reached by no run, for a transparent one); with `raw` given, the known differences named by `zero_in_run` (ours
    transparent, ultimapy opaque black, raw 0) and `bit15` (ours opaque, ultimapy
    transparent with the same colour bits, raw with bit 15 set and those low 15 bits) are
    counted under those names. `zero_opaque`: raw 0 is opaque black in both readers (an
    animation's palette colour 0), not transparent. Anything else fails, naming the pixel
    and both values."""
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
    if raw is not None:
        # Where the readers agree, the raw pixel must say the same: a clear pixel no run
        # reaches or colour 0, an opaque one its colour with bit 15 clear. So each rounded
        # channel is confirmed to be the raw pixel's level.
        least = 0 if zero_opaque else 1
        same &= (o_clear & (raw < least)) | (o_solid & (raw >= least) & (raw == o_colour))
    allowed = same.copy()
    causes = {}
    if raw is not None and zero_in_run is not None:
        # Confirmed on the raw pixel: a run's 0.
        causes[zero_in_run] = (in_tables & o_clear & (t_alpha == 255) & (t_colour == 0)
                               & (raw == 0))
    if raw is not None and bit15 is not None:
        # Confirmed on the raw pixel: bit 15 set, the low 15 bits the colour both show.
        causes[bit15] = (in_tables & o_solid & (t_alpha == 0) & (o_colour == t_colour)
                         & (raw >= 0) & ((raw & 0x8000) != 0) & ((raw & 0x7FFF) == o_colour))
    for where in causes.values():
        allowed |= where
    for y, x in zip(*np.nonzero(~allowed)):
        what = ""
        if raw is not None:
            what = f" (raw {'none' if raw[y, x] < 0 else f'0x{raw[y, x]:04X}'})"
        tally.fail(f"{label} at x {x}, y {y}: ours RGBA {rgba(ours[y, x])}, "
                   f"ultimapy RGBA {rgba(theirs[y, x])}{what}")
    tally.pixels += ours.shape[0] * ours.shape[1]
    channels = same[..., None] & o_solid[..., None] & (ours[..., :3] != theirs[..., :3])
    tally.known[ROUNDING] += int(channels.any(-1).sum())
    for level in o_level[channels]:
        tally.rounded_channels[int(level)] = tally.rounded_channels.get(int(level), 0) + 1
    for name, where in causes.items():
        tally.known[name] += int(where.sum())
    return causes
