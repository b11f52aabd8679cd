"""gamedata.uo against `gamedata uo ... --json` on the synthetic facet 0 of `gamedata demo`
and the real pre-alpha map; zero-copy, lifetime and threads."""

import gc
import subprocess
import threading
import time

import numpy as np
import pytest
from conftest import base_chain, inside

import gamedata
from gamedata import uo

# The synthetic full-size facet 0 (7168 x 4096 tiles).
WIDTH, HEIGHT = 7168, 4096
PLACES = [(0, 0), (7, 9), (100, 100), (1234, 2345), (3583, 2047), (7167, 4095), (5000, 17)]


@pytest.fixture(scope="module")
def facet(demo):
    return uo.Facet.open(demo / "uo")


def test_blocks_are_a_read_only_view_of_the_map_file(facet):
    blocks = facet.blocks
    assert blocks.shape == (WIDTH // 8, HEIGHT // 8)
    assert blocks.dtype == uo.MAP_BLOCK and blocks.dtype.itemsize == 196
    assert not blocks.flags.owndata and not blocks.flags.writeable
    assert base_chain(blocks)[-1] is facet
    assert inside(blocks, facet._span("map"))
    with pytest.raises(ValueError):
        blocks[0, 0]["header"] = 1
    with pytest.raises(ValueError):
        blocks.setflags(write=True)


def test_statics_and_index_are_read_only_views_of_their_files(facet):
    statics, index = facet.statics, facet.index
    assert statics.dtype == uo.STATIC7 and index.dtype == uo.INDEX
    assert index.shape == ((WIDTH // 8) * (HEIGHT // 8),)
    for array, name in [(statics, "statics"), (index, "staidx")]:
        assert not array.flags.owndata and not array.flags.writeable
        assert base_chain(array)[-1] is facet
        assert inside(array, facet._span(name))
    assert statics.shape[0] * 7 == facet._span("statics")[1]


def block_statics(facet, x, y):
    """The statics of tile (x, y) read through the index and statics views, as the format
    says: the block's index record gives a byte offset and length into statics."""
    record = facet.index[(x // 8) * (HEIGHT // 8) + y // 8]
    if record["offset"] == 0xFFFFFFFF or record["length"] == 0:
        return []
    first, count = int(record["offset"]) // 7, int(record["length"]) // 7
    rows = facet.statics[first : first + count]
    return [
        {"id": int(r["id"]), "z": int(r["z"]), "hue": int(r["hue"])}
        for r in rows
        if r["x"] == x % 8 and r["y"] == y % 8
    ]


def test_views_agree_with_uo_tile(facet, demo, cli):
    ids, zs = facet.land()
    assert ids.shape == zs.shape == (HEIGHT, WIDTH)
    assert ids.dtype == np.uint16 and zs.dtype == np.int8
    blocks = facet.blocks
    with_statics = 0
    for x, y in PLACES + [(x, y) for x in range(0, WIDTH, 613) for y in range(0, HEIGHT, 397)]:
        want = cli("uo", "tile", demo / "uo", x, y)
        cell = blocks[x // 8, y // 8]["cells"][(y % 8) * 8 + x % 8]
        assert (int(cell["id"]), int(cell["z"])) == (want["land"]["id"], want["land"]["z"])
        assert (int(ids[y, x]), int(zs[y, x])) == (want["land"]["id"], want["land"]["z"])
        assert block_statics(facet, x, y) == want["statics"]
        assert facet.tile(x, y) == want
        with_statics += bool(want["statics"])
    assert with_statics > 5


def test_stats_equal_uo_stats(facet, demo, cli):
    want = cli("uo", "stats", demo / "uo")
    del want["elapsed_ms"]
    assert facet.stats() == want


def test_find_equals_uo_find(facet, demo, cli):
    found = facet.find(flag="impassable")
    assert found.dtype == uo.FOUND
    assert len(found) == cli("uo", "find", demo / "uo", "--flag", "impassable", "--count")["count"]
    # The first rows as the command streams them (block order, then file order).
    proc = subprocess.Popen(
        [cli.exe, "--json", "uo", "find", demo / "uo", "--flag", "impassable", "--jsonl"],
        stdout=subprocess.PIPE,
        text=True,
    )
    import json

    head = [json.loads(proc.stdout.readline()) for _ in range(2000)]
    proc.kill()
    proc.wait()
    got = [{k: int(r[k]) for k in ("x", "y", "z", "id", "hue")} for r in found[:2000]]
    assert got == head
    by_id = facet.find(id=head[0]["id"])
    want = cli("uo", "find", demo / "uo", "--id", head[0]["id"])
    assert len(by_id) == want["count"]
    assert [{k: int(r[k]) for k in ("x", "y", "z", "id", "hue")} for r in by_id] == want["statics"]
    region = facet.find(id=head[0]["id"], region=(0, 0, 2048, 1024))
    expected = [s for s in want["statics"] if s["x"] < 2048 and s["y"] < 1024]
    assert [int(r["x"]) for r in region] == [s["x"] for s in expected]


def test_find_refuses_what_it_cannot_do(facet):
    with pytest.raises(ValueError, match="no tiledata flag"):
        facet.find(flag="nonsense")
    with pytest.raises(ValueError):
        facet.find()
    with pytest.raises(ValueError):
        facet.find(id=1, flag="wet")


def test_radar_equals_uo_render(facet, demo, cli, tmp_path):
    from PIL import Image

    region = (1024, 512, 512, 384)
    for style in ["flat", "client", "altitude"]:
        out = tmp_path / f"{style}.png"
        report = cli(
            "uo", "render", demo / "uo", "--region", "1024,512,512,384", "--scale", "2",
            "--style", style, "-o", out,
        )
        picture = facet.radar(scale=2, region=region, style=style)
        assert picture.shape == (report["height"], report["width"], 4) == (192, 256, 4)
        assert np.array_equal(picture, np.asarray(Image.open(out).convert("RGBA")))
    with pytest.raises(ValueError):
        facet.radar(scale=0)
    with pytest.raises(ValueError):
        facet.radar(region=(WIDTH, 0, 8, 8))
    with pytest.raises(ValueError):
        facet.radar(style="sepia")


def test_arrays_outlive_the_facet(demo):
    facet = uo.Facet.open(demo / "uo")
    blocks, statics = facet.blocks, facet.statics
    first = bytes(blocks[:4].tobytes())
    del facet
    gc.collect()
    # The views keep the files alive: reading them after the owner is gone is safe.
    assert blocks[:4].tobytes() == first
    assert int(statics["id"].astype(np.int64).sum()) > 0
    del blocks, statics
    gc.collect()


def test_mapped_facet_views_lie_in_the_map(demo):
    facet = uo.Facet.map(demo / "uo")
    assert facet.mapped
    blocks = facet.blocks
    assert inside(blocks, facet._span("map"))
    assert np.array_equal(blocks[:, :3], uo.Facet.open(demo / "uo").blocks[:, :3])


def test_four_threads_query_one_facet(facet):
    want = (facet.stats(), len(facet.find(flag="wet")), facet.radar(scale=16).sum())
    results, errors = [], []

    def work():
        try:
            results.append((facet.stats(), len(facet.find(flag="wet")), facet.radar(scale=16).sum()))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert results == [want] * 4


def test_prealpha_map(real, cli):
    folder = real / "uo" / "prealpha"
    facet = uo.Facet.open(folder, size=(1024, 1024))
    assert facet.statics.dtype == uo.STATIC11
    want = cli("uo", "stats", folder, "--width", 1024, "--height", 1024)
    del want["elapsed_ms"]
    assert facet.stats() == want
    ids, _ = facet.land()
    assert int(ids[100, 100]) == cli("uo", "tile", folder, 100, 100, "--width", 1024, "--height", 1024)["land"]["id"]


def test_prealpha_client_radar_equals_the_command(real, cli, tmp_path):
    from PIL import Image

    folder = real / "uo" / "prealpha"
    radarcol = real / "uo" / "hs" / "radarcol.mul"
    out = tmp_path / "client.png"
    cli("uo", "render", folder, "--width", 1024, "--height", 1024, "--radarcol", radarcol,
        "--style", "client", "-o", out)
    facet = uo.Facet.map(folder, size=(1024, 1024))
    picture = facet.radar(style="client", radarcol=radarcol)
    assert np.array_equal(picture, np.asarray(Image.open(out).convert("RGBA")))


def test_bad_files_raise_format_error(tmp_path, demo):
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "map0.mul").write_bytes(b"\0" * 1000)
    (folder / "staidx0.mul").write_bytes(b"")
    (folder / "statics0.mul").write_bytes(b"")
    with pytest.raises(gamedata.FormatError) as e:
        uo.Facet.open(folder)
    assert isinstance(e.value, ValueError)
    assert e.value.kind == "MapSizeUnknown"
    assert e.value.file == "map0.mul"
    assert str(e.value).startswith("map0.mul: ")
    with pytest.raises(gamedata.FormatError) as e:
        uo.Facet.open(folder, size=(64, 64))
    assert e.value.kind == "MapLength" and e.value.category == "data"
    assert e.value.found == 1000 and e.value.numbers["found"] == 1000
    # A size no file could make right: an argument error, named by its problem.
    with pytest.raises(gamedata.FormatError) as e:
        uo.Facet.open(folder, size=(12, 16))
    assert e.value.category == "argument" and e.value.kind == "Dimensions"
    assert e.value.width_blocks == 1 and e.value.height_blocks == 2
    with pytest.raises(FileNotFoundError):
        uo.Facet.open(tmp_path / "nowhere")
    with pytest.raises(NotADirectoryError):
        uo.Facet.open(folder / "map0.mul")


def test_random_bytes_never_crash(tmp_path):
    rng = np.random.default_rng(7)
    folder = tmp_path / "noise"
    folder.mkdir()
    for _ in range(40):
        (folder / "map0.mul").write_bytes(rng.integers(0, 256, 196 * 64, dtype=np.uint8).tobytes())
        (folder / "staidx0.mul").write_bytes(rng.integers(0, 256, 12 * 64, dtype=np.uint8).tobytes())
        (folder / "statics0.mul").write_bytes(rng.integers(0, 256, int(rng.integers(0, 500)), dtype=np.uint8).tobytes())
        try:
            facet = uo.Facet.open(folder, size=(64, 64))
            facet.stats()
            facet.land()
            facet.find(id=int(rng.integers(0, 65536)))
            facet.tile(int(rng.integers(0, 64)), int(rng.integers(0, 64)))
        except gamedata.FormatError:
            pass


def test_a_render_releases_the_gil(facet):
    """While one thread draws the whole facet five times, the main thread keeps running
    Python: many of its steps fall well inside the calls. (No duration is assumed: a call
    that held the GIL would leave no step inside it, however long it took.)"""
    windows = []

    def draw():
        for _ in range(5):
            start = time.perf_counter()
            facet.radar()
            windows.append((start, time.perf_counter()))

    steps = []
    thread = threading.Thread(target=draw)
    thread.start()
    while thread.is_alive():
        steps.append(time.perf_counter())
    thread.join()
    assert len(windows) == 5
    inside = [
        t for t in steps for start, end in windows if start + 0.005 < t < end - 0.005
    ]
    assert len(inside) > 1000, (len(inside), windows)
