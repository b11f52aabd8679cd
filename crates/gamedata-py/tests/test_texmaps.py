"""gamedata.uo.Texmaps against `gamedata uo texmap` on the synthetic texture maps
(`uo synth --art`): the same pixels as the command's PNGs, the client's colour rule computed
here from the raw pixels, raw pixels as views of the file, and the errors."""

import numpy as np
import pytest
from conftest import base_chain
from PIL import Image

import gamedata
from gamedata import uo


@pytest.fixture(scope="module")
def tex_dir(cli, tmp_path_factory):
    out = tmp_path_factory.mktemp("texmaps")
    cli("uo", "synth", out, "--facet", "4", "--art", "--seed", "2")
    return out


def png(cli, tex_dir, tmp_path, id):
    path = tmp_path / f"t{id}.png"
    report = cli("uo", "texmap", tex_dir, id, "-o", path)
    picture = np.asarray(Image.open(path).convert("RGBA"))
    assert (report["width"], report["height"]) == (picture.shape[1], picture.shape[0])
    return picture


def client_rgba(raw):
    """What the client draws for raw pixels: low 15 bits, v * 255 // 31, opaque."""
    raw = raw.astype(np.uint32)
    channels = [((raw >> shift) & 31) * 255 // 31 for shift in (10, 5, 0)]
    alpha = np.full(raw.shape, 255, dtype=np.uint32)
    return np.stack([*channels, alpha], axis=-1).astype(np.uint8)


@pytest.mark.parametrize("opener", [uo.Texmaps.open, uo.Texmaps.map])
def test_texture_maps_are_the_commands_pictures(cli, tex_dir, tmp_path, opener):
    texmaps = opener(tex_dir)
    # The drawable world's set: the synthetic 300 with id 0 empty, then the land's 300 to 306.
    assert len(texmaps) == 307
    for id in [4, 1, 2, 12, 99, 100, 250, 299]:
        got = texmaps.texmap(id)
        side = 128 if id % 4 == 0 or id == 250 else 64
        assert got.dtype == np.uint8 and got.shape == (side, side, 4), id
        assert not got.flags.writeable
        assert np.array_equal(got, png(cli, tex_dir, tmp_path, id)), id
    # 250 repeats 12 exactly; 0, 15, 31 ... are empty; past the index is no texture map.
    assert np.array_equal(texmaps.texmap(250), texmaps.texmap(12))
    for id in [0, 15, 31, 287, 307, 2**32 - 1]:
        assert texmaps.texmap(id) is None and texmaps.pixels(id) is None, id


def test_pixels_are_views_of_the_file_and_draw_by_the_clients_rule(tex_dir):
    texmaps = uo.Texmaps.map(tex_dir)
    for id, side in [(4, 128), (1, 64)]:
        raw = texmaps.pixels(id)
        assert raw.dtype == np.dtype("<u2") and raw.shape == (side, side)
        assert not raw.flags.owndata and not raw.flags.writeable
        assert base_chain(raw)[-1] is texmaps
        picture = texmaps.texmap(id)
        assert np.array_equal(picture, client_rgba(raw))
        assert (picture[..., 3] == 255).all()
        # The synthetic checkerboard: black (raw 0) on the even squares; bit 15 set on
        # every other pixel of the others, which draws as without it.
        y, x = np.indices((side, side))
        assert np.array_equal(raw == 0, (x // 8 + y // 8) % 2 == 0)
        assert (raw & 0x8000).any()
        assert np.array_equal(client_rgba(raw & 0x7FFF), picture)
    # The view reads the file: texmaps.mul's bytes at texidx.mul's offset for id 1.
    index = np.fromfile(tex_dir / "texidx.mul", dtype="<u4").reshape(-1, 3)
    offset, length, _ = index[1]
    assert length == 0x2000
    data = (tex_dir / "texmaps.mul").read_bytes()
    expected = np.frombuffer(data[offset : offset + length], dtype="<u2").reshape(64, 64)
    assert np.array_equal(texmaps.pixels(1), expected)


def test_errors(tmp_path):
    # Id 0 of 0x3000 bytes (neither 0x2000 nor 0x8000); id 1 past texmaps.mul's end.
    records = [(0, 0x3000, 0), (0x2000, 0x2000, 0)]
    index = b"".join(v.to_bytes(4, "little") for record in records for v in record)
    (tmp_path / "TEXIDX.MUL").write_bytes(index)
    (tmp_path / "texmaps.mul").write_bytes(bytes(0x3000))
    texmaps = uo.Texmaps.open(tmp_path)
    with pytest.raises(gamedata.FormatError) as e:
        texmaps.texmap(0)
    assert e.value.category == "data" and e.value.entry == "texmap 0x0000"
    assert "12288 bytes" in str(e.value)
    with pytest.raises(gamedata.FormatError) as e:
        texmaps.pixels(1)
    assert e.value.kind == "IndexEntry"
    # An index of no whole records, and a missing file.
    (tmp_path / "TEXIDX.MUL").write_bytes(index[:13])
    with pytest.raises(gamedata.FormatError) as e:
        uo.Texmaps.open(tmp_path)
    assert e.value.kind == "RecordMultiple"
    (tmp_path / "texmaps.mul").unlink()
    with pytest.raises(FileNotFoundError):
        uo.Texmaps.open(tmp_path)
