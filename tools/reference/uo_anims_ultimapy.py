#!/usr/bin/env python3
"""Cross-check of the MUL animations against ultimapy, an independent reader (a Python port
of the Ultima SDK, PyPI package `ultimapy`): every frame of every body, action and
direction (0 to 7, the mirrored ones too) of a client folder's anim.idx with anim.mul, and
of anim2 to anim5 when the folder holds them, is decoded by ultimapy and by this project's
Python package (`gamedata.uo.Animations`, which draws as the ClassicUO client does) and
compared: the frame count, each frame's size and centre, and its pixels.

The two readers are known to differ in a few ways, listed in docs/formats/uo.md,
"Animations", "Colours" (under Art) and "ultimapy's known faults". Each such difference is
recognised here by its cause, confirmed on the raw data (the script reads the index and
each frame group itself, by the client's rules) and counted; any other difference fails
(exit 1) naming the body, action, direction, frame and pixel.

    python uo_anims_ultimapy.py DIR             # compare every frame of DIR's animations
    python uo_anims_ultimapy.py --edge OUT      # write a small set made to show what the
                                                # synthetic one does not (every 5-bit level,
                                                # palette colours 0x8000 and with bit 15,
                                                # run fields at -512 and 511, runs of 0 and
                                                # 4,095 pixels, frames sharing an offset,
                                                # empty and negative sides, a record of size
                                                # 0, anim2 to anim5, ultimapy's record
                                                # rule for anim3 below body 300) into OUT,
                                                # compare it and require each to be seen

How ultimapy reads animations (ultimapy/sdk/animations.py, Animation.get_animation,
Animation.translate, Animation.load_table, Animation.get_file_index and Frame;
ultimapy/sdk/bodies.py, BodyConverter; ultimapy/sdk/file_index.py):

- it reads anim.idx (and anim2.idx to anim5.idx) records as three signed 32-bit numbers; a
  record is empty when its offset or size is negative; a record of size 0 at another
  offset is read as bytes, which fails (a struct error) where the client finds no frames;
- a body leaves anim.mul only through Bodyconv.def (`BodyConverter.convert`: the first
  of its four columns naming the body wins), and Body.def can swap it; but column i
  (1 to 4, the client's anim2 to anim5) sends the body to ultimapy's i-th file: anim.mul,
  anim2, anim3, anim4, so no body reaches anim5. The script gives it a Bodyconv.def
  naming each body of anim2 to anim4 it compares one column on, under a number of its
  own, one anim.mul body in column 1 to show the shift, and an empty Body.def;
- the record: the file's formula by body number alone (the Ultima SDK's, see "Which file
  and which records" in uo.md): for anim3 below body 300 `body * 65`, where the client's
  differs (and for anim5's body 34 the low group's, never reached); direction 5, 6, 7
  read stored 3, 2, 1 and are mirrored, the centre x becoming width - centre x (as the
  client places them);
- the group: 256 colours, each XORed with 0x8000; a frame count and offsets from byte 512;
  a frame: i16 centre x, centre y, width, height; width or height 0 gives a Frame with no
  bitmap and no centre; a negative one raises a ValueError (Pillow refuses the size);
- runs up to 0x7FFF7FFF: x and y 10-bit signed (XOR 0x200 less 0x200), the first pixel at
  column x + centre x, row y + centre y + height, as the client; each pixel its palette
  colour unless that (after the XOR) is 0, so raw 0x8000 is left transparent; alpha from
  bit 15 after the XOR: raw colours with bit 15 set are transparent keeping their colour
  bits, where the client draws every run pixel opaque, its low 15 bits (0x8000 black);
  raw 0 is opaque black in both; 5-bit channels widened by rounding to nearest.

The script points ultimapy at a scratch folder holding links to DIR's anim files, a
Bodyconv.def of its own and blank stand-ins for the other files its import opens
(uo_ultimapy_common.py, shared with uo_art_ultimapy.py and uo_gumps_ultimapy.py).
It reads the anim files itself through uo_anims_raw.py and writes the edge set through
uo_anims_edge.py, both beside it.

Needs numpy, Pillow, ultimapy and the gamedata package in the running Python.
"""

import argparse
import os
import struct
import sys
import tempfile

import numpy as np

from uo_anims_edge import write_edge
from uo_anims_raw import (
    DIRECTIONS,
    EMPTY,
    FILES,
    RUN_END,
    STORED,
    RawFile,
    bodies_of,
    client_first,
    signed10,
    ultimapy_first,
)
from uo_ultimapy_common import (
    CLIENT_8,
    ROUNDED_LEVELS,
    ROUNDING,
    ROUNDING_WHY,
    Failure,
    Tally,
    compare,
    find,
    import_ultimapy,
    stage_for_ultimapy,
)

# The known differences, by cause (docs/formats/uo.md, "ultimapy's known faults").
BIT15 = "bit 15 set in a palette colour"
EMPTY_FRAME = "frame of side 0"
NEGATIVE = "frame of a negative side"
SIZE_ZERO = "record of size 0"
OTHER_RECORD = "ultimapy's record rule"
SHIFT = "Bodyconv.def's columns one file off"
KNOWN = {
    ROUNDING: ROUNDING_WHY,
    BIT15: "the client draws every run pixel opaque with its low 15 bits (0x8000 black), "
    "ultimapy flips bit 15 and makes it transparent keeping the colour bits (0x8000 not "
    "drawn)",
    EMPTY_FRAME: "a width or height of 0: both give no pixels, ultimapy's Frame keeps no "
    "size nor centre to compare",
    NEGATIVE: "a width or height below 0: the client's frame is empty, ultimapy raises a "
    "ValueError for the whole group (Pillow refuses the size)",
    SIZE_ZERO: "a record of size 0 (offset not 0xFFFFFFFF): the client finds no frames, "
    "ultimapy reads no bytes and raises a struct error",
    OTHER_RECORD: "anim3 below body 300: ultimapy's record is the Ultima SDK's body * 65, "
    "not the client's; its frames checked against the group at its record",
    SHIFT: "ultimapy reads a body Bodyconv.def names in column i (the client's anim{i+1}) "
    "from its i-th file (anim.mul for column 1): the script names anim2 to anim4 bodies "
    "one column on, and ultimapy reads no anim5 at all",
}


def client_rgba(pixels):
    """A frame drawn by the client's rules from its raw pixels: every run pixel opaque, its
    low 15 bits widened by the client's table; the rest transparent."""
    table = np.array(CLIENT_8, dtype=np.uint8)
    out = np.zeros((*pixels.shape, 4), dtype=np.uint8)
    covered = pixels >= 0
    colour = np.where(covered, pixels, 0)
    out[..., 0] = table[(colour >> 10) & 31]
    out[..., 1] = table[(colour >> 5) & 31]
    out[..., 2] = table[colour & 31]
    out[..., 3] = np.where(covered, 255, 0)
    return out


class AnimTally(Tally):
    def __init__(self):
        super().__init__(KNOWN)
        self.calls = 0  # (file, body, action, direction) asked of both
        self.groups = 0  # of those, with frames
        self.frames = 0  # frames compared (mirrored directions counted again)
        self.records_reached = {}  # file: set of used records compared
        self.runs = 0
        self.black_bit15 = 0  # BIT15 pixels whose raw colour is 0x8000
        self.zero_black = 0  # opaque black pixels of raw colour 0 (equal in both)
        self.other_records = []  # (file, body) where ultimapy's record differs
        self.fields = set()  # run x and y at -512 or 511 seen
        self.run_lengths = set()  # 0 and 4095 seen
        self.shared_offsets = 0  # frames at an offset an earlier frame of its group has


def frame_label(name, body, action, direction, k=None):
    where = f"{name} body {body} action {action} direction {direction}"
    return where if k is None else f"{where} frame {k}"


def their_frames(Animation, body, action, direction):
    return Animation.get_animation(body, action, direction, 0, False) or []


def check_group(tally, label, ours, info, theirs, raws, mirrored):
    """One group's frames: ours (arrays and frame_info) against ultimapy's and the raw."""
    if not (len(ours) == len(info) == len(theirs) == len(raws)):
        tally.fail(f"{label}: {len(ours)} frames ours ({len(info)} infos), {len(theirs)} "
                   f"ultimapy's, {len(raws)} in the group")
        return
    for k, (a, i, b, raw) in enumerate(zip(ours, info, theirs, raws)):
        cx, cy, w, h, pixels, runs = raw
        where = f"{label} frame {k}"
        tally.frames += 1
        if pixels is None:
            # A side of 0 (a negative one stops ultimapy's whole group, handled before).
            bitmap = getattr(b, "bitmap", None)
            if a.shape != (0, 0, 4) or (i["width"], i["height"]) != (0, 0) or bitmap is not None:
                tally.fail(f"{where}: a frame of {w} x {h}: ours {a.shape}, info "
                           f"{i['width']} x {i['height']}, ultimapy's bitmap {bitmap}")
            else:
                tally.known[EMPTY_FRAME] += 1
            continue
        want_cx = w - cx if mirrored else cx
        ours_place = (i["width"], i["height"], i["centre_x"], i["centre_y"])
        bitmap = getattr(b, "bitmap", None)
        centre = getattr(b, "center", None)
        theirs_place = None if bitmap is None or centre is None else (*bitmap.size, *centre)
        if ours_place != (w, h, want_cx, cy) or theirs_place != ours_place:
            tally.fail(f"{where}: width, height, centre x, centre y: ours {ours_place}, "
                       f"ultimapy {theirs_place}, the group's {(w, h, want_cx, cy)}")
            continue
        if mirrored:
            pixels = pixels[:, ::-1]
        tally.runs += runs
        tally.zero_black += int((pixels == 0).sum())
        causes = compare(where, a, bitmap, tally, raw=pixels, bit15=BIT15, zero_opaque=True)
        if causes:
            tally.black_bit15 += int((causes[BIT15] & (pixels == 0x8000)).sum())


def check_file(name, raw, ours, Animation, tally, converted, probe):
    """Every body, action and direction of file `name`."""
    reached = tally.records_reached.setdefault(name, set())
    for body, first, actions in bodies_of(raw, name):
        if name == "anim":
            if body in converted.values() or (probe is not None and body == probe[1]):
                continue  # a number Bodyconv.def sends elsewhere: no frames here
            asked = body
        else:
            asked = converted.get((name, body))
            if asked is None:
                continue  # no frames either way
        theirs_first = ultimapy_first(name, body)
        for action in range(actions):
            for direction in range(DIRECTIONS):
                label = frame_label(name, body, action, direction)
                stored = STORED[direction]
                record = first + 5 * action + stored
                their_record = theirs_first + 5 * action + stored
                tally.calls += 1
                try:
                    a = ours.frames(body, action, direction, file=name)
                    info = ours.frame_info(body, action, direction, file=name)
                except Exception as error:
                    tally.fail(f"{label}: gamedata raised {type(error).__name__}: {error}")
                    continue
                try:
                    b = their_frames(Animation, asked, action, direction)
                    b_error = None
                except Exception as error:  # judged below by the raw record
                    b, b_error = None, error
                if their_record != record:
                    check_other_record(tally, label, raw, a, record, their_record, b, b_error,
                                       direction > 4)
                    reached.update(n for n in (record, their_record) if raw.used(n))
                    tally.other_records.append((name, body))
                    continue
                stored_record = raw.record(record)
                used = raw.used(record)
                if used is None:
                    if stored_record and stored_record[1] == 0 and stored_record[0] != EMPTY:
                        if not a and isinstance(b_error, struct.error):
                            tally.known[SIZE_ZERO] += 1
                            continue
                    if a or b or b_error:
                        tally.fail(f"{label}: an empty record; ours {len(a)} frames, "
                                   f"ultimapy's {b_error or len(b)}")
                    continue
                try:
                    raws = raw.group(record)
                except ValueError as error:
                    tally.fail(f"{label}: the script cannot read record {record}: {error}")
                    continue
                reached.add(record)
                tally.groups += 1
                if b_error is not None:
                    negative = any(w < 0 or h < 0 for _, _, w, h, _, _ in raws)
                    if negative and isinstance(b_error, ValueError):
                        tally.known[NEGATIVE] += 1
                        for got, (_, _, w, h, _, _) in zip(a, raws):
                            if got.shape != (0, 0, 4) and (w < 0 or h < 0):
                                tally.fail(f"{label}: a frame of {w} x {h} drawn {got.shape}")
                        continue
                    tally.fail(f"{label}: ultimapy raised {type(b_error).__name__}: {b_error}")
                    continue
                offsets = raw_offsets(raw, record)
                tally.shared_offsets += len(offsets) - len(set(offsets))
                note_fields(tally, raw, record)
                check_group(tally, label, a, info, b, raws, direction > 4)


def check_other_record(tally, label, raw, ours, record, their_record, theirs, error, mirrored):
    """Where ultimapy's record is not the client's: ours must be the client's record, and
    ultimapy's frames the group at its own record, drawn by the client's rules, less the
    known differences."""
    for who, frames, at in (("gamedata", ours, record), ("ultimapy", theirs, their_record)):
        if error is not None and who == "ultimapy":
            tally.fail(f"{label}: ultimapy raised {type(error).__name__}: {error}")
            return
        raws = raw.group(at) if raw.used(at) else []
        if len(raws) != len(frames):
            tally.fail(f"{label}: {who} gives {len(frames)} frames, record {at} holds "
                       f"{len(raws)}")
            return
        for k, (got, rec) in enumerate(zip(frames, raws)):
            pixels = rec[4]
            if pixels is None:
                continue
            if mirrored:
                pixels = pixels[:, ::-1]
            where = f"{label} frame {k} ({who}, record {at})"
            if who == "gamedata":
                if not np.array_equal(got, client_rgba(pixels)):
                    tally.fail(f"{where}: not the group's pixels by the client's rules")
            else:
                before = tally.pixels
                compare(where, client_rgba(pixels), got.bitmap, tally, raw=pixels,
                        bit15=BIT15, zero_opaque=True)
                tally.pixels = before  # not a comparison with gamedata
    tally.known[OTHER_RECORD] += 1


def raw_offsets(raw, record):
    offset, _ = raw.used(record)
    count = struct.unpack_from("<I", raw.data, offset + 512)[0]
    return struct.unpack_from(f"<{count}I", raw.data, offset + 516)


def note_fields(tally, raw, record):
    """The run fields and lengths of a group seen (for the edge set's requirements)."""
    offset, size = raw.used(record)
    group = raw.data[offset : offset + size]
    for at in set(raw_offsets(raw, record)):
        at += 512 + 8
        if struct.unpack_from("<4h", group, at - 8)[2] <= 0:
            continue
        while True:
            header = struct.unpack_from("<I", group, at)[0]
            at += 4
            if header == RUN_END:
                break
            for field in (signed10(header >> 22), signed10((header >> 12) & 0x3FF)):
                if field in (-512, 511):
                    tally.fields.add(field)
            if header & 0xFFF in (0, 0xFFF):
                tally.run_lengths.add(header & 0xFFF)
            at += header & 0xFFF


def holds_frames(raw, name, body, first, actions):
    """Whether any of `body`'s records, by the client's rule or ultimapy's, holds frames."""
    theirs = ultimapy_first(name, body)
    return any(raw.used(f + k) for f in (first, theirs) for k in range(5 * actions))


def bodyconv(raws):
    """Bodyconv.def lines, and what they send where: {(file, body): the number ultimapy is
    asked}, and the probe of its column shift, (anim.mul body, number) or None.

    ultimapy's `BodyConverter.convert` returns file type i for the body's number in
    Bodyconv.def's column i (1 to 4, which the client reads as anim2 to anim5), and file
    type i is its i-th index: anim.mul for column 1, anim2 for column 2, anim3 for 3,
    anim4 for 4 (`Animation.get_file_index`). So the script names each body of anim2,
    anim3 and anim4 that holds frames in the column after the client's, anim5 cannot be
    reached at all, and one anim.mul body with frames at action 0, direction 0 is named in
    column 1 (the client's anim2) to show the shift. The numbers are anim.mul bodies that
    hold none, below ultimapy's body table's length (400 + (anim.idx bytes - 35000) / 175,
    Animation.load_table; a higher one it reads as body 0)."""
    limit = int(400 + (len(raws["anim"].index) - 35000) / 175)
    anim = raws["anim"]
    held = [(body, first) for body, first, actions in bodies_of(anim, "anim")
            if holds_frames(anim, "anim", body, first, actions)]
    free = (n for n in range(1, limit) if n not in {body for body, _ in held})
    lines, converted = [], {}

    def line(column, body):
        number = next(free, None)
        if number is None:
            raise SystemExit(f"ultimapy's body table holds {limit} bodies: too few numbers "
                             "for the script's Bodyconv.def")
        fields = [str(number)] + ["-1"] * 4
        fields[column] = str(body)
        lines.append("\t".join(fields))
        return number

    # Column 1 is also where ultimapy reads 68 as 122 (BodyConverter.load).
    shown = next((body for body, first in held if anim.used(first) and body != 68), None)
    probe = None if shown is None else (shown, line(1, shown))
    for name in FILES[1:4]:
        if name not in raws:
            continue
        for body, first, actions in bodies_of(raws[name], name):
            if holds_frames(raws[name], name, body, first, actions):
                converted[(name, body)] = line(FILES.index(name) + 1, body)
    return "\n".join(lines) + "\n", converted, probe


def check_probe(probe, raw, ours, Animation, tally):
    """The column shift: the number Bodyconv.def's column 1 (the client's anim2) gives an
    anim.mul body reads, in ultimapy, that body's anim.mul frames at action 0, direction 0
    (compared in full, counted apart from the rest)."""
    body, number = probe
    label = f"Bodyconv.def column 1 (anim2) naming anim.mul body {body} as {number}"
    first, _ = client_first("anim", body)
    apart = AnimTally()
    check_group(apart, label, ours.frames(body, 0, 0, file="anim"),
                ours.frame_info(body, 0, 0, file="anim"),
                their_frames(Animation, number, 0, 0), raw.group(first), False)
    for failure in apart.failures:
        tally.fail(failure)
    if not apart.failures:
        tally.known[SHIFT] += 1


def check(folder, scratch, tally):
    from gamedata import uo

    names = {entry.lower() for entry in os.listdir(folder)}
    present = [n for n in FILES if {f"{n}.idx", f"{n}.mul"} <= names]
    if "anim" not in present:
        raise SystemExit(f"{folder} holds no anim.idx with anim.mul")
    raws = {name: RawFile(folder, name) for name in present}
    ours = uo.Animations.open(folder)
    if list(ours.files) != present:
        tally.fail(f"gamedata reads {list(ours.files)}, the folder holds {present}")
    for name in present:
        if ours.records(name) != raws[name].records:
            tally.fail(f"{name}: gamedata counts {ours.records(name)} records, the script "
                       f"{raws[name].records}")
    text, converted, probe = bodyconv(raws)
    links = {}
    for name in present:
        links[f"{name}.idx"] = find(folder, f"{name}.idx")
        links[f"{name}.mul"] = find(folder, f"{name}.mul")
    stage_for_ultimapy(scratch, links, blanks=("art.mul", "artidx.mul"))
    with open(os.path.join(scratch, "Bodyconv.def"), "w") as f:
        f.write(text)
    Animation, version = import_ultimapy(scratch, "ultimapy.sdk.animations", "Animation")
    if probe is not None:
        check_probe(probe, raws["anim"], ours, Animation, tally)
    for name in present:
        check_file(name, raws[name], ours, Animation, tally, converted, probe)
    return version, present, raws


def used_records(raw):
    """Every used record of the file's index, and of those the distinct (offset, size)."""
    used = [n for n in range(raw.records) if raw.used(n)]
    return used, len({raw.used(n) for n in used})


def plural(n, word):
    return f"{n} {word}{'' if n == 1 else 's'}"


def report(folder, scratch, require_edge):
    tally = AnimTally()
    try:
        version, present, raws = check(folder, scratch, tally)
    except Failure:
        pass
    tally.stop_if_failed()
    parts = []
    total_used = 0
    for name in present:
        used, distinct = used_records(raws[name])
        reached = tally.records_reached.get(name, set())
        frames = sum(len(raws[name].group(n)) for n in used)
        total_used += len(used)
        missed = set(used) - reached
        if name != "anim5" and missed:
            # Every used record of a file ultimapy reads must be compared: a miss is a
            # record no body holds by the client's rules (nor by ultimapy's).
            raise SystemExit(f"{name}: used records never compared: {sorted(missed)[:10]}")
        compared = (f"{plural(len(reached), 'record')} compared" if name != "anim5"
                    else "not compared: ultimapy reads no anim5")
        parts.append(f"{name}: {plural(len(used), 'used record')} ({distinct} distinct), {frames} "
                     f"frames, {compared}")
    if tally.groups == 0 or tally.frames == 0:
        raise SystemExit("nothing compared")
    other = sorted(set(tally.other_records))
    bodies = ", ".join(f"{name} {body}" for name, body in other) or "none"
    known = [tally.rounding_part(),
             f"{BIT15}: {plural(tally.known[BIT15], 'pixel')} ({tally.black_bit15} of them "
             "0x8000)",
             f"{EMPTY_FRAME}: {plural(tally.known[EMPTY_FRAME], 'frame')}",
             f"{NEGATIVE}: {plural(tally.known[NEGATIVE], 'group')}",
             f"{SIZE_ZERO}: {plural(tally.known[SIZE_ZERO], 'read')}",
             f"{OTHER_RECORD}: {plural(tally.known[OTHER_RECORD], 'read')} (bodies {bodies})",
             f"{SHIFT}: shown {plural(tally.known[SHIFT], 'time')}"]
    print(f"ultimapy {version}, {' '.join(present)}: {tally.frames} frames equal in "
          f"{tally.groups} groups ({tally.pixels} pixels, {tally.runs} runs, "
          f"{tally.zero_black} of raw colour 0 opaque black in both; {tally.calls} body, "
          f"action and direction reads, directions 5 to 7 mirrored); known differences: "
          f"{'; '.join(known)}")
    for part in parts:
        print(f"  {part}")
    for name, why in KNOWN.items():
        print(f"  {name}: {why}")
    if require_edge:
        missing = [name for name, n in tally.known.items() if n == 0]
        shown = {
            "a 0x8000 colour": tally.black_bit15 > 0,
            "run fields -512 and 511": tally.fields == {-512, 511},
            "runs of 0 and 4,095 pixels": tally.run_lengths == {0, 0xFFF},
            "frames sharing an offset": tally.shared_offsets > 0,
            "anim2 to anim5": present == list(FILES),
        }
        missing += [what for what, seen in shown.items() if not seen]
        if missing:
            raise SystemExit(f"the edge set did not show: {', '.join(missing)}")
        if sorted(tally.rounded_channels) != ROUNDED_LEVELS:
            raise SystemExit(f"rounding seen at levels {sorted(tally.rounded_channels)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", nargs="?", help="client folder with anim.idx and anim.mul")
    parser.add_argument("--edge", metavar="OUT",
                        help="write the edge set into OUT and compare it instead of DIR")
    args = parser.parse_args()
    if args.edge:
        write_edge(args.edge)
        folder = args.edge
    elif args.dir:
        folder = args.dir
    else:
        parser.error("give DIR or --edge OUT")
    with tempfile.TemporaryDirectory(prefix="ultimapy-") as scratch:
        report(folder, scratch, require_edge=bool(args.edge))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
