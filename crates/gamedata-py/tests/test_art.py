"""gamedata.uo.Art against `gamedata uo art` on a synthetic art set (`uo synth --art`):
the same pixels as the command's PNGs, hues included, and land pixels as views of the file."""

import numpy as np
import pytest
from conftest import base_chain
from PIL import Image

import gamedata
from gamedata import uo


@pytest.fixture(scope="module")
def art_dir(cli, tmp_path_factory):
    out = tmp_path_factory.mktemp("art")
    cli("uo", "synth", out, "--facet", "4", "--art")
    # A hues.mul whose hue 1 maps red level r to 0x0400 | r, for hue=.
    group = bytearray(4)
    for _ in range(8):
        for r in range(32):
            group += (0x0400 | r).to_bytes(2, "little")
        group += bytes(24)
    (out / "hues.mul").write_bytes(bytes(group))
    return out


def png(cli, art_dir, tmp_path, *args):
    path = tmp_path / "x.png"
    cli("uo", "art", art_dir, *args, "-o", path)
    return np.asarray(Image.open(path).convert("RGBA"))


@pytest.mark.parametrize("opener", [uo.Art.open, uo.Art.map])
def test_items_and_land_are_the_commands_pictures(cli, art_dir, tmp_path, opener):
    art = opener(art_dir)
    # The synthetic set's 256 items, run to item 0x21BC for the drawable world's pictures.
    assert art.item_count == 0x21BD and len(art) == 0x4000 + 0x21BD
    for id in [0, 1, 10, 63, 100, 200, 254]:
        got = art.item(id)
        assert got.dtype == np.uint8 and got.ndim == 3 and got.shape[2] == 4
        assert np.array_equal(got, png(cli, art_dir, tmp_path, "--item", id))
    # 200 repeats 10 exactly; 255 is empty; past the index is no picture.
    assert np.array_equal(art.item(200), art.item(10))
    assert art.item(255) is None and art.item(256) is None
    for id in [0, 5, 63]:
        assert np.array_equal(art.land(id), png(cli, art_dir, tmp_path, "--land", id))
    assert art.land(64) is None
    for hue in [1, 0x8001]:
        assert np.array_equal(
            art.item(7, hue=hue), png(cli, art_dir, tmp_path, "--item", 7, "--hue", hue)
        )


def test_land_pixels_are_a_view_of_the_file(art_dir):
    art = uo.Art.map(art_dir)
    raw = art.land_pixels(3)
    assert raw.dtype == np.dtype("<u2") and raw.shape == (1012,)
    assert not raw.flags.owndata and not raw.flags.writeable
    assert base_chain(raw)[-1] is art
    # The diamond's first row holds raw[0] and raw[1] at x = 21 and 22, opaque.
    picture = art.land(3)
    assert picture[0, 21, 3] == 255 and picture[0, 20, 3] == 0
    red = (int(raw[0]) >> 10) & 31
    assert picture[0, 21, 0] == red * 255 // 31


def test_errors(art_dir, tmp_path):
    art = uo.Art.open(art_dir)
    with pytest.raises(gamedata.FormatError) as e:
        art.land(0x4000)
    assert e.value.category == "argument" and e.value.kind == "LandId"
    with pytest.raises(FileNotFoundError):
        uo.Art.open(tmp_path)


def test_the_uop_form_holds_the_same_pictures(cli, art_dir, tmp_path):
    cli("uo", "convert", art_dir, "--art", "--to", "uop", tmp_path)
    mul, uop = uo.Art.open(art_dir), uo.Art.map(tmp_path)
    assert mul.format == "mul" and uop.format == "uop"
    # The client's slots: max(entries, 65,535) + 0x4000.
    assert len(uop) == 65_535 + 0x4000
    for id in [0, 10, 200, 254]:
        assert np.array_equal(uop.item(id), mul.item(id))
    assert np.array_equal(uop.land(5), mul.land(5))
    assert uop.item(255) is None
    with pytest.raises(FileNotFoundError):
        uo.Art.open(tmp_path, format="mul")
    with pytest.raises(ValueError):
        uo.Art.open(tmp_path, format="zip")


def gump_png(cli, folder, tmp_path, *args):
    path = tmp_path / "g.png"
    cli("uo", "gump", folder, *args, "-o", path)
    return np.asarray(Image.open(path).convert("RGBA"))


@pytest.mark.parametrize("opener", [uo.Gumps.open, uo.Gumps.map])
def test_gumps_are_the_commands_pictures(cli, art_dir, tmp_path, opener):
    gumps = opener(art_dir)
    assert gumps.format == "mul" and len(gumps) == 200
    for id in [0, 7, 20, 99, 198]:
        got = gumps.gump(id)
        assert got.dtype == np.uint8 and got.shape[2] == 4
        assert got.shape[1::-1] == gumps.size(id)
        assert np.array_equal(got, gump_png(cli, art_dir, tmp_path, id))
    # 150 repeats 20; 199 is empty; past the index is no picture.
    assert np.array_equal(gumps.gump(150), gumps.gump(20))
    assert gumps.gump(199) is None and gumps.size(199) is None and gumps.gump(200) is None
    for hue in [1, 0x8001]:
        assert np.array_equal(
            gumps.gump(30, hue=hue), gump_png(cli, art_dir, tmp_path, 30, "--hue", hue)
        )


def test_gumps_from_the_uop_form(cli, art_dir, tmp_path):
    cli("uo", "convert", art_dir, "--gumps", "--to", "uop", tmp_path)
    mul, uop = uo.Gumps.open(art_dir), uo.Gumps.open(tmp_path)
    assert uop.format == "uop"
    for id in range(0, 199, 13):
        assert np.array_equal(uop.gump(id), mul.gump(id))
    with pytest.raises(FileNotFoundError):
        uo.Gumps.open(tmp_path, format="mul")
