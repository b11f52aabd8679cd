"""gamedata.uo.UopAnimations on the AnimationFrame1.uop of `uo synth --art --art-format uop`:
the same frames as `gamedata uo anim --anim-format uop` writes, and the pixels the synthetic
writer's documented input gives (mul_core::anim::write::synthetic_uop_animations: pixel (x, y)
uncovered where (x + y) % 4 == 3, the centre pixel palette index 0, transparent here, pixel
(0, 0) index 1, white)."""

import numpy as np
import pytest
from PIL import Image

from gamedata import uo


@pytest.fixture(scope="module")
def uop_dir(cli, tmp_path_factory):
    out = tmp_path_factory.mktemp("uop-anim")
    cli("uo", "synth", out, "--facet", "4", "--art", "--art-format", "uop")
    return out


# (body, action, frames a direction): body 1 action 2 misses frames 5 and 6.
ENTRIES = [(1, 0, 2), (1, 2, 3), (400, 4, 1)]


@pytest.mark.parametrize("opener", [uo.UopAnimations.open, uo.UopAnimations.map])
def test_frames_are_the_commands_pictures(cli, uop_dir, tmp_path, opener):
    anims = opener(uop_dir)
    assert anims.files == [1]
    for body, action, per in ENTRIES:
        for direction in range(8):
            frames = anims.frames(body, action, direction)
            info = anims.frame_info(body, action, direction)
            out = tmp_path / f"f-{body}-{action}-{direction}"
            report = cli(
                "uo", "anim", uop_dir, body, "--action", action, "--direction", direction,
                "-o", out, "--anim-format", "uop",
            )
            assert report["source"] == "uop"
            assert info == report["frames"] and len(frames) == per
            # Each distinct picture is written once; a frame names the file holding it.
            for got, size, file in zip(frames, info, report["files"], strict=True):
                want = np.asarray(Image.open(out / file).convert("RGBA"))
                assert got.dtype == np.uint8
                assert got.shape == (size["height"], size["width"], 4)
                if size["width"] == 0:
                    assert want.shape == (1, 1, 4) and not want.any()
                else:
                    assert np.array_equal(got, want)


def test_pixels_follow_the_writers_input(uop_dir):
    anims = uo.UopAnimations.open(uop_dir)
    count = 0
    for body, action, per in ENTRIES:
        for direction in range(5):
            for frame in anims.frames(body, action, direction):
                h, w, _ = frame.shape
                if w == 0:
                    continue
                count += 1
                # Pixel (0, 0): palette index 1, white.
                assert list(frame[0, 0]) == [255, 255, 255, 255]
                # The centre pixel: palette index 0, colour 0, transparent.
                assert frame[h // 2, w // 2, 3] == 0
                ys, xs = np.mgrid[0:h, 0:w]
                uncovered = (xs + ys) % 4 == 3
                assert not frame[uncovered].any()
                covered = ~uncovered
                covered[h // 2, w // 2] = False
                assert (frame[covered][:, 3] == 255).all()
    # 2 x 5 + 3 x 5 - 2 (numbers 5 and 6 missing) + 1 x 5 frames with pixels.
    assert count == 28


def test_gaps_sequences_and_missing_entries(uop_dir):
    anims = uo.UopAnimations.open(uop_dir)
    # Body 1 action 2, direction 1: places 1 and 2 are frames 5 and 6, missing.
    frames = anims.frames(1, 2, 1)
    assert [f.shape[:2] for f in frames[1:]] == [(0, 0), (0, 0)]
    assert anims.frame_info(1, 2, 1)[1] == {"width": 0, "height": 0, "centre_x": 0, "centre_y": 0}
    # No AnimationSequence.uop: every action reads its own entry.
    assert anims.entry_action(1, 2) == 2
    # An action no file has.
    assert anims.frames(1, 1, 0) == [] and anims.frame_info(400, 0, 0) == []
    with pytest.raises(ValueError):
        anims.frames(1, 0, 8)
