"""`gamedata uo anim` attack cases found after the first fixes (issue 56): python3 tools/attack/craft_anim_attack.py CASE OUT SCALE (sheet_copies, json_frames)."""
import os, random, struct, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from craft_anim import RUN_END, one_pixel_frame, write_mul, anim_idx  # noqa
from craft import write  # noqa


def group_pal(pal, offsets, frames):
    first = 4 + 4 * len(offsets)
    starts, at = [], first
    for f in frames:
        starts.append(at)
        at += len(f)
    table = b"".join(struct.pack("<I", starts[i]) for i in offsets)
    return pal + struct.pack("<I", len(offsets)) + table + b"".join(frames)


def case_json_frames(out, scale):
    """400,000 x SCALE frames at one offset (4 bytes each), run with --json: the plan
    charges 64 bytes a frame, the command holds more (report clone, files strings)."""
    n = min(400_000 * scale, 4_194_000)
    write_mul(out, group_pal(struct.pack("<256H", *([0x7FFF] * 256)), [0] * n, [one_pixel_frame()]))


def case_sheet_copies(out, scale):
    """One 9000 x 1 frame, its first 4095+ columns random colours, repeated 745 x SCALE
    times at one offset, drawn with --sheet: the sheet's PNG holds every copy (copies
    36,000 bytes apart, past deflate's window), none charged to the output budget."""
    rng = random.Random(1)
    pal = struct.pack("<256H", *[rng.randrange(1, 0x8000) for _ in range(256)])
    w = 9000
    # centre_x 0, centre_y 0, height 1: row = y + 0 + 1 -> y field -1 gives row 0.
    runs = b""
    for col in (0, 511):
        n = 4095
        hdr = ((col & 0x3FF) << 22) | ((-1 & 0x3FF) << 12) | n
        runs += struct.pack("<I", hdr) + bytes(rng.randrange(256) for _ in range(n))
    frame = struct.pack("<hhhh", 0, 0, w, 1) + runs + RUN_END
    n = 745 * scale
    write_mul(out, group_pal(pal, [0] * n, [frame]))


CASES = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}
if __name__ == "__main__":
    CASES[sys.argv[1]](sys.argv[2], int(sys.argv[3]))
