"""`gamedata.write_png`: a picture array as a PNG, read back by Pillow (an independent
decoder) with the same pixels at every compression."""

import numpy as np
import pytest
from PIL import Image

import gamedata


def picture(h=67, w=45):
    """Every kind of row: a gradient, noise, transparent."""
    rng = np.random.default_rng(7)
    rgba = rng.integers(0, 256, size=(h, w, 4), dtype=np.uint8)
    rgba[::3, :, :] = np.arange(w, dtype=np.uint8)[None, :, None]
    rgba[1::3, :, 3] = 0
    return rgba


@pytest.mark.parametrize("compression", ["fast", "default", "best"])
def test_every_compression_reads_back_the_same_pixels(tmp_path, compression):
    rgba = picture()
    path = tmp_path / f"{compression}.png"
    written = gamedata.write_png(path, rgba, compression=compression)
    assert written == path.stat().st_size
    with Image.open(path) as img:
        assert img.mode == "RGBA"
        assert np.array_equal(np.asarray(img), rgba)


def test_a_radar_map_written_as_the_command_writes_it(demo, cli, tmp_path):
    facet = gamedata.uo.Facet.map(demo / "uo")
    rgba = facet.radar(scale=8)
    path = tmp_path / "radar.png"
    gamedata.write_png(str(path), rgba)
    cli("uo", "render", demo / "uo", "--facet", "0", "--scale", "8", "-o", tmp_path / "cli.png")
    # The command stores the opaque map without alpha (RGB): the same colours.
    with Image.open(path) as ours, Image.open(tmp_path / "cli.png") as theirs:
        assert theirs.mode == "RGB"
        assert np.array_equal(np.asarray(ours), np.asarray(theirs.convert("RGBA")))
        assert np.array_equal(np.asarray(ours), rgba)


def test_a_strided_array_is_written_as_it_reads(tmp_path):
    rgba = picture()[:, ::2, :]
    assert not rgba.flags["C_CONTIGUOUS"]
    gamedata.write_png(tmp_path / "strided.png", rgba)
    with Image.open(tmp_path / "strided.png") as img:
        assert np.array_equal(np.asarray(img), rgba)


def test_bad_arguments_are_value_errors_and_write_nothing(tmp_path):
    path = tmp_path / "x.png"
    with pytest.raises(ValueError, match="not a PNG compression"):
        gamedata.write_png(path, picture(), compression="quick")
    with pytest.raises(ValueError, match=r"\(h, w, 4\)"):
        gamedata.write_png(path, np.zeros((4, 4, 3), dtype=np.uint8))
    with pytest.raises(ValueError):
        gamedata.write_png(path, np.zeros((0, 4, 4), dtype=np.uint8))
    assert not path.exists()
    assert list(tmp_path.iterdir()) == []
