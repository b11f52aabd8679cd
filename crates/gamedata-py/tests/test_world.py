"""Facet.render_world against `gamedata uo render --style world` on a 64 x 64 synthetic
world with art (`uo synth --art`): the same pixels as the command's PNGs (decoded by
Pillow), for views, frames and a folder without texture maps; the cap, the world's edge and
missing files."""

import shutil
import threading
import time

import numpy as np
import pytest
from PIL import Image

import gamedata
from gamedata import uo

SIZE = 64
# A view over the showcase (docs/formats/uo.md, "Synthetic world"): the hills, the pond,
# the house, the trees, the hued vases and the tower.
SHOWCASE = (-800, 560, 1480, 1420)


@pytest.fixture(scope="module")
def world_dir(cli, tmp_path_factory):
    out = tmp_path_factory.mktemp("world")
    cli("uo", "synth", out, "--facet", 0, "--width", SIZE, "--height", SIZE, "--art")
    return out


@pytest.fixture(scope="module")
def facet(world_dir):
    return uo.Facet.open(world_dir, size=(SIZE, SIZE))


def cli_png(cli, folder, tmp_path, *args):
    """The command's picture of `folder`, decoded by Pillow."""
    path = tmp_path / "world.png"
    cli("uo", "render", folder, "--facet", 0, "--width", SIZE, "--height", SIZE,
        "--style", "world", *args, "-o", path)
    return np.asarray(Image.open(path).convert("RGBA"))


def view_args(view):
    sx, sy, w, h = view
    return ("--view", f"{sx},{sy}", "--view-size", f"{w}x{h}")


def test_shape_and_dtype(facet):
    picture = facet.render_world(view=(-100, 200, 300, 120))
    assert picture.shape == (120, 300, 4)
    assert picture.dtype == np.uint8
    assert picture.flags.c_contiguous


def test_views_equal_the_command(facet, world_dir, cli, tmp_path):
    for view in [SHOWCASE, (-1500, -200, 700, 500), (300, 1800, 333, 217)]:
        picture = facet.render_world(view=view)
        want = cli_png(cli, world_dir, tmp_path, *view_args(view))
        assert want.shape == (view[3], view[2], 4)
        assert np.array_equal(picture, want), view
    # The showcase view draws things: opaque land, and more than a few colours.
    picture = facet.render_world(view=SHOWCASE)
    assert (picture[..., 3] == 255).mean() > 0.9
    assert len(np.unique(picture.reshape(-1, 4), axis=0)) > 100


def test_frames_equal_the_command(facet, world_dir, cli, tmp_path):
    whole = facet.render_world()
    assert np.array_equal(whole, cli_png(cli, world_dir, tmp_path))
    # The frame is at least the map's diamond: 64 + 64 tiles of 22 pixels across.
    assert whole.shape[1] == 2 * SIZE * 22
    region = (40, 20, 12, 16)
    picture = facet.render_world(region=region)
    assert np.array_equal(picture, cli_png(cli, world_dir, tmp_path, "--region", "40,20,12,16"))


def test_a_mapped_facet_draws_the_same(facet, world_dir):
    mapped = uo.Facet.map(world_dir, size=(SIZE, SIZE))
    assert np.array_equal(mapped.render_world(view=SHOWCASE), facet.render_world(view=SHOWCASE))


def test_without_texture_maps_land_is_flat_as_the_command_draws_it(world_dir, cli, tmp_path):
    flat = tmp_path / "flat"
    shutil.copytree(world_dir, flat)
    (flat / "texidx.mul").unlink()
    (flat / "texmaps.mul").unlink()
    facet = uo.Facet.open(flat, size=(SIZE, SIZE))
    picture = facet.render_world(view=SHOWCASE)
    assert np.array_equal(picture, cli_png(cli, flat, tmp_path, *view_args(SHOWCASE)))
    # The hills are stretched with the texture maps and flat without: the pictures differ.
    stretched = uo.Facet.open(world_dir, size=(SIZE, SIZE)).render_world(view=SHOWCASE)
    assert not np.array_equal(picture, stretched)


def test_a_view_off_the_world_is_transparent(facet):
    for view in [(100_000, 100_000, 64, 48), (-5000, -5000, 10, 10), (0, 5000, 32, 32)]:
        picture = facet.render_world(view=view)
        assert picture.shape == (view[3], view[2], 4)
        assert not picture.any(), view


def test_views_past_the_cap_or_empty_raise(facet):
    with pytest.raises(ValueError, match="268435456"):
        facet.render_world(view=(0, 0, 1 << 15, 1 << 14))
    with pytest.raises(ValueError):
        facet.render_world(view=(0, 0, 0, 10))
    with pytest.raises(ValueError, match="not both"):
        facet.render_world(view=(0, 0, 10, 10), region=(0, 0, 8, 8))
    with pytest.raises(ValueError):
        facet.render_world(region=(60, 60, 8, 8))
    with pytest.raises(OverflowError):
        facet.render_world(view=(0, 0, -1, 10))


def test_missing_files_raise(world_dir, tmp_path):
    no_art = tmp_path / "no-art"
    shutil.copytree(world_dir, no_art)
    for name in ["art.mul", "artidx.mul"]:
        (no_art / name).unlink()
    facet = uo.Facet.open(no_art, size=(SIZE, SIZE))
    with pytest.raises(FileNotFoundError, match="art"):
        facet.render_world(view=(0, 0, 10, 10))
    # The facet itself still reads.
    assert facet.stats()["width"] == SIZE

    no_hues = tmp_path / "no-hues"
    shutil.copytree(world_dir, no_hues)
    (no_hues / "hues.mul").unlink()
    with pytest.raises(FileNotFoundError, match="hues.mul"):
        uo.Facet.open(no_hues, size=(SIZE, SIZE)).render_world(view=(0, 0, 10, 10))


def test_bad_art_raises_format_error(world_dir, tmp_path):
    bad = tmp_path / "bad"
    shutil.copytree(world_dir, bad)
    # An index that is not whole 12-byte records.
    index = (bad / "artidx.mul").read_bytes()
    (bad / "artidx.mul").write_bytes(index + b"\0")
    with pytest.raises(gamedata.FormatError):
        uo.Facet.open(bad, size=(SIZE, SIZE)).render_world(view=(0, 0, 10, 10))


def test_a_world_render_releases_the_gil(facet):
    """As test_uo's radar test: while one thread draws the whole world ten times, the main
    thread keeps running Python, many of its steps well inside the calls."""
    windows = []

    def draw():
        for _ in range(10):
            start = time.perf_counter()
            facet.render_world()
            windows.append((start, time.perf_counter()))

    steps = []
    thread = threading.Thread(target=draw)
    thread.start()
    while thread.is_alive():
        steps.append(time.perf_counter())
    thread.join()
    assert len(windows) == 10
    inside = [t for t in steps for start, end in windows if start + 0.005 < t < end - 0.005]
    assert len(inside) > 1000, (len(inside), windows)
