"""gamedata.uo.Animations against `gamedata uo anim` on the synthetic animations of
`uo synth --art`: the same frames as the command's PNGs and --json, mirrored directions,
hues, and the palette as a view of anim.mul where the index says it is."""

import numpy as np
import pytest
from conftest import base_chain
from PIL import Image

import gamedata
from gamedata import uo


@pytest.fixture(scope="module")
def anim_dir(cli, tmp_path_factory):
    out = tmp_path_factory.mktemp("anim")
    cli("uo", "synth", out, "--facet", "4", "--art")
    # A hues.mul whose hue 1 maps red level r to 0x0400 | r, for hue=.
    group = bytearray(4)
    for _ in range(8):
        for r in range(32):
            group += (0x0400 | r).to_bytes(2, "little")
        group += bytes(24)
    (out / "hues.mul").write_bytes(bytes(group))
    return out


def command(cli, anim_dir, tmp_path, body, action, direction, *more):
    """The command's --json report and its frames as RGBA arrays (the PNGs it wrote)."""
    out = tmp_path / f"frames-{body}-{action}-{direction}-{len(more)}"
    report = cli(
        "uo", "anim", anim_dir, body, "--action", action, "--direction", direction,
        "-o", out, *more,
    )
    pictures = [
        np.asarray(Image.open(out / f"{i:03}.png").convert("RGBA"))
        for i in range(len(report["frames"]))
    ]
    return report["frames"], pictures


# Bodies of each group (1: high, 201: low, 400: people), every stored direction and the
# mirrored ones; body 400 action 1 direction 2 holds an empty frame.
CASES = [(1, 0, d) for d in range(8)] + [(201, 2, 3), (400, 1, 2), (400, 1, 6), (2, 1, 7)]


@pytest.mark.parametrize("opener", [uo.Animations.open, uo.Animations.map])
def test_frames_are_the_commands_pictures(cli, anim_dir, tmp_path, opener):
    anims = opener(anim_dir)
    assert anims.files == ["anim"] and anims.records() == 35_175
    for body, action, direction in CASES:
        frames = anims.frames(body, action, direction)
        info = anims.frame_info(body, action, direction)
        report, pictures = command(cli, anim_dir, tmp_path, body, action, direction)
        assert info == report and len(frames) == len(report) > 0
        for got, want, size in zip(frames, pictures, info):
            assert got.dtype == np.uint8 and got.shape == (size["height"], size["width"], 4)
            if size["width"] == 0:
                # An empty frame: (0, 0, 4) here, a clear 1 x 1 PNG from the command.
                assert want.shape == (1, 1, 4) and not want.any()
            else:
                assert np.array_equal(got, want)
    empty = anims.frames(400, 1, 2)[1]
    assert empty.shape == (0, 0, 4)


def test_directions_5_to_7_mirror_3_to_1(anim_dir):
    anims = uo.Animations.open(anim_dir)
    for mirrored, stored in [(5, 3), (6, 2), (7, 1)]:
        for body, action in [(1, 0), (201, 1), (400, 2)]:
            flipped = anims.frames(body, action, mirrored)
            plain = anims.frames(body, action, stored)
            assert [f.tobytes() for f in flipped] == [
                np.flip(p, axis=1).tobytes() for p in plain
            ]
            for m, s in zip(
                anims.frame_info(body, action, mirrored), anims.frame_info(body, action, stored)
            ):
                assert m["centre_x"] == s["width"] - s["centre_x"]
                assert m["centre_y"] == s["centre_y"]


def test_hues_are_the_commands(cli, anim_dir, tmp_path):
    anims = uo.Animations.map(anim_dir)
    for hue in [1, 0x8001]:
        frames = anims.frames(400, 0, 4, hue=hue)
        _, pictures = command(cli, anim_dir, tmp_path, 400, 0, 4, "--hue", hue)
        for got, want in zip(frames, pictures, strict=True):
            assert np.array_equal(got, want)
    # Every drawn pixel takes hue 1's entry of its red, 0x0400 | red: green 0 throughout.
    hued = anims.frames(1, 0, 0, hue=1)[0]
    drawn = hued[..., 3] == 255
    assert drawn.any() and (hued[..., 1][drawn] == 0).all()


def test_the_palette_is_a_view_of_anim_mul(anim_dir):
    anims = uo.Animations.map(anim_dir)
    index = (anim_dir / "anim.idx").read_bytes()
    data = (anim_dir / "anim.mul").read_bytes()
    # Body 400 is of the people group: its block starts at record (400 - 400) * 175 + 35000;
    # action 2, direction 3 is record 35000 + 5 * 2 + 3.
    record = 35_000 + 5 * 2 + 3
    offset = int.from_bytes(index[record * 12 : record * 12 + 4], "little")
    palette = anims.palette(400, 2, 3)
    assert palette.dtype == np.dtype("<u2") and palette.shape == (256,)
    assert not palette.flags.owndata and not palette.flags.writeable
    assert base_chain(palette)[-1] is anims
    assert palette.tobytes() == data[offset : offset + 512]
    # The synthetic palettes: 0 black, entry 7 with bit 15 set (which the client ignores).
    assert palette[0] == 0 and palette[7] & 0x8000
    # A mirrored direction uses the stored one's palette.
    assert np.array_equal(anims.palette(400, 2, 5), palette)


def test_no_frames_and_errors(anim_dir, tmp_path):
    anims = uo.Animations.open(anim_dir)
    # Body 1's action 2 direction 4 is an empty record; body 1000's block passes the index.
    assert anims.frames(1, 2, 4) == [] and anims.frame_info(1, 2, 4) == []
    assert anims.palette(1, 2, 4) is None and anims.frames(1000, 0, 0) == []
    # Body 2's action 0 direction 0 repeats body 1's.
    assert [f.tobytes() for f in anims.frames(2, 0, 0)] == [
        f.tobytes() for f in anims.frames(1, 0, 0)
    ]
    with pytest.raises(gamedata.FormatError) as e:
        anims.frames(1, 22, 0)
    assert e.value.category == "argument" and e.value.kind == "AnimAction"
    with pytest.raises(ValueError):
        anims.frames(1, 0, 8)
    with pytest.raises(ValueError):
        anims.frames(1, 0, 0, file="anim9")
    with pytest.raises(FileNotFoundError):
        anims.frames(1, 0, 0, file="anim2")
    with pytest.raises(FileNotFoundError):
        uo.Animations.open(tmp_path)
