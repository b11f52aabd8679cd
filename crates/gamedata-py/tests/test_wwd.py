"""gamedata.wwd against `gamedata wwd ... --json` on the real retail levels and the
synthetic level of `gamedata demo`; zero-copy, lifetime, bad files."""

import gc

import numpy as np
import pytest
from conftest import base_chain, inside

import gamedata
from gamedata import wwd

# The collision map's colours by attribute class (docs: gamedata-render's wwd module):
# clear, solid, ground, climb, death, other; objects are marked in white.
COLOURS = [(24, 24, 32), (150, 150, 150), (60, 170, 60), (230, 200, 40), (220, 40, 40), (160, 70, 200)]


def levels(real):
    names = ["RETAIL01.WWD", "RETAIL03_nocompress.WWD", "RETAIL10.WWD", "GRUNTZREZ_AREA8_WORLDZ_LEVEL29.WWD"]
    return [real / "wwd" / name for name in names]


def check_against_info(level, info):
    header = level.header
    for key in ["name", "author", "birth", "start_x", "start_y", "main_block_size"]:
        assert header[key] == info[key], key
    assert level.name == info["name"]
    planes = level.planes
    assert [p.name for p in planes] == [p["name"] for p in info["planes"]]
    for plane, want in zip(planes, info["planes"]):
        tiles = plane.tiles
        assert tiles.shape == (want["tiles_high"], want["tiles_wide"])
        assert tiles.dtype == np.uint32
        assert not tiles.flags.owndata and not tiles.flags.writeable
        assert base_chain(tiles)[-1] is level
        assert inside(tiles, level._span())
        assert int((tiles == 0xFFFFFFFF).sum()) == want["invisible_tiles"]
        assert int((tiles == 0xEEEEEEEE).sum()) == want["filled_tiles"]
        assert plane.z == want["z"]
        assert plane.tile_size == (want["tile_width"], want["tile_height"])
        assert len(plane.objects) == want["objects"]


def check_objects(level, listed):
    rows = []
    for plane in level.planes:
        objects, text, names = plane.objects, plane.text, plane.names
        assert objects.dtype == wwd.OBJECT and objects.dtype.itemsize == 284
        for i, o in enumerate(objects):
            rows.append(
                {
                    "plane": plane.index,
                    "index": i,
                    "id": int(o["id"]),
                    "logic": text["logic"][i],
                    "name": text["name"][i],
                    "image_set": text["image_set"][i],
                    "animation": text["animation"][i],
                    "x": int(o["x"]),
                    "y": int(o["y"]),
                    "z": int(o["z"]),
                    "object_type": int(o["object_type"]),
                    "hit_type_flags": int(o["hit_type_flags"]),
                    "add_flags": int(o["add_flags"]),
                    "dynamic_flags": int(o["dynamic_flags"]),
                    "draw_flags": int(o["draw_flags"]),
                    "user_flags": int(o["user_flags"]),
                }
            )
            assert len(names["logic"][i]) == int(o["logic_len"])
            assert isinstance(names["image_set"][i], bytes)
    assert rows == listed["objects"]


def test_retail_levels_equal_wwd_info_and_objects(real, cli):
    for path in levels(real):
        level = wwd.Level.open(path)
        check_against_info(level, cli("wwd", "info", path))
        check_objects(level, cli("wwd", "objects", path))


def test_synthetic_level(demo, cli):
    path = demo / "SYNTH01.WWD"
    level = wwd.Level.map(path)
    check_against_info(level, cli("wwd", "info", path))
    check_objects(level, cli("wwd", "objects", path))


def test_collision_equals_wwd_render_and_attribute_at(real, cli, tmp_path):
    from PIL import Image

    path = real / "wwd" / "RETAIL01.WWD"
    level = wwd.Level.open(path)
    out = tmp_path / "collision.png"
    cli("wwd", "render", path, "--tile-px", 8, "-o", out)
    picture = level.collision(tile_px=8)
    assert np.array_equal(picture, np.asarray(Image.open(out).convert("RGBA")))
    # At 64 pixels a tile (Claw's tile size) every game pixel is drawn: a pixel's colour is
    # its attribute's class, but where an object's cross is drawn.
    full = level.collision(tile_px=64)
    rng = np.random.default_rng(1)
    checked = 0
    classes = set()
    for x, y in zip(rng.integers(0, full.shape[1], 3000), rng.integers(0, full.shape[0], 3000)):
        colour = tuple(int(c) for c in full[y, x, :3])
        if colour == (255, 255, 255):
            continue
        value = level.attribute_at(int(x), int(y))
        cls = value if 0 <= value <= 4 else 5
        assert colour == COLOURS[cls], (x, y, value)
        classes.add(cls)
        checked += 1
    assert checked > 2900 and {0, 1, 2} <= classes
    with pytest.raises(IndexError):
        level.attribute_at(-1, 0)
    with pytest.raises(IndexError):
        level.attribute_at(full.shape[1], 0)


def test_tiles_outlive_the_level(demo):
    level = wwd.Level.open(demo / "SYNTH01.WWD")
    plane = [p for p in level.planes if p.is_main][0]
    tiles = plane.tiles
    copy = tiles.copy()
    del level, plane
    gc.collect()
    assert np.array_equal(tiles, copy)


def test_a_real_bad_header_names_its_numbers(real):
    with pytest.raises(gamedata.FormatError) as e:
        wwd.Level.open(real / "wwd" / "RETAIL01_badsig.WWD")
    assert e.value.file == "RETAIL01_badsig.WWD"
    assert e.value.kind == "Signature"
    assert e.value.numbers == {"found": 0xADBA} and e.value.found == 0xADBA
    assert str(e.value).startswith("RETAIL01_badsig.WWD: header size is 0xadba")


def test_code_page(real):
    path = real / "wwd" / "RETAIL01.WWD"
    assert wwd.Level.open(path, code_page="cp1250").name == "Claw - Level 1"
    with pytest.raises(ValueError):
        wwd.Level.open(path, code_page="koi8")


def test_bad_levels_raise_format_error(tmp_path, demo):
    good = (demo / "SYNTH01.WWD").read_bytes()
    cut = tmp_path / "cut.wwd"
    cut.write_bytes(good[:1000])
    with pytest.raises(gamedata.FormatError) as e:
        wwd.Level.open(cut)
    assert e.value.file == "cut.wwd" and e.value.kind
    with pytest.raises(FileNotFoundError):
        wwd.Level.open(tmp_path / "none.wwd")
    with pytest.raises(IsADirectoryError):
        wwd.Level.open(tmp_path)
    rng = np.random.default_rng(3)
    noisy = tmp_path / "noisy.wwd"
    for _ in range(200):
        data = bytearray(good)
        for at in rng.integers(0, len(data), 8):
            data[at] = int(rng.integers(0, 256))
        noisy.write_bytes(bytes(data))
        try:
            level = wwd.Level.open(noisy)
            for plane in level.planes:
                plane.tiles.sum()
                plane.objects
                plane.text
            level.collision(tile_px=1)
        except (gamedata.FormatError, ValueError):
            pass


def test_render_equals_wwd_render_rez(demo, cli, tmp_path):
    from PIL import Image

    path = demo / "SYNTH01.WWD"
    rez = demo / "SYNTH.REZ"
    level = wwd.Level.map(path)
    out = tmp_path / "level.png"
    cli("wwd", "render", path, "--rez", rez, "--tile-px", 8, "-o", out)
    picture = level.render(rez, tile_px=8)
    high, wide = next(p for p in level.planes if p.is_main).tiles.shape
    assert picture.shape == (high * 8, wide * 8, 4)
    assert np.array_equal(picture, np.asarray(Image.open(out).convert("RGBA")))
    report = cli("wwd", "render", path, "--rez", rez, "--view", "1000,2000", "--view-size", "320x240", "-o", out)
    assert report["view"] == [1000, 2000] and (report["width"], report["height"]) == (320, 240)
    shot = level.render(rez, view=(1000, 2000), size=(320, 240))
    assert shot.shape == (240, 320, 4)
    assert np.array_equal(shot, np.asarray(Image.open(out).convert("RGBA")))
    assert level.render(rez, view=(0, 0)).shape == (480, 640, 4)
    report = cli("wwd", "render", path, "--rez", rez, "--tile-px", 8, "--time", 150, "-o", out)
    assert report["time_ms"] == 150 and report["unplayed"] == 0
    timed = level.render(rez, tile_px=8, time=150)
    assert np.array_equal(timed, np.asarray(Image.open(out).convert("RGBA")))
    with pytest.raises(ValueError):
        level.render(rez, view=(0, 0), tile_px=8)
    with pytest.raises(ValueError):
        level.render(rez, size=(10, 10))
    with pytest.raises(ValueError):
        level.render(rez, view=(0, 0), size=(0, 10))
    with pytest.raises(OSError):
        level.render(tmp_path / "missing.rez")


def test_to_tmx_writes_a_tiled_map_like_wwd_tmx(demo, cli, tmp_path):
    """Level.to_tmx writes the map `gamedata wwd tmx` writes: XML of the main plane's size
    in tiles, a layer a plane and the object layers, its images beside it; TMJ too."""
    import json
    import xml.etree.ElementTree as ET

    path = demo / "SYNTH01.WWD"
    rez = demo / "SYNTH.REZ"
    level = wwd.Level.open(path)
    report = level.to_tmx(tmp_path / "synth.tmx", rez=rez)
    root = ET.parse(tmp_path / "synth.tmx").getroot()
    assert root.tag == "map"
    main = next(p for p in level.planes if p.is_main)
    high, wide = main.tiles.shape
    assert (int(root.get("width")), int(root.get("height"))) == (wide, high)
    layers = root.findall("layer")
    groups = root.findall("objectgroup")
    assert len(layers) == len(level.planes)
    assert len(layers) + len(groups) == report["layers"]
    assert report["format"] == "tmx"
    assert (report["width"], report["height"]) == (wide, high)
    assert report["objects"] == sum(len(p.objects) for p in level.planes)
    assert len(list((tmp_path / "synth_images").rglob("*.png"))) == report["images"]
    # The same file as the command writes.
    cli("wwd", "tmx", path, "--rez", rez, "-o", tmp_path / "cli.tmx")
    ours = (tmp_path / "synth.tmx").read_text().replace("synth_images", "X")
    theirs = (tmp_path / "cli.tmx").read_text().replace("cli_images", "X")
    assert ours == theirs
    report = level.to_tmx(tmp_path / "synth.tmj", rez=rez)
    assert report["format"] == "tmj"
    doc = json.loads((tmp_path / "synth.tmj").read_text())
    assert (doc["width"], doc["height"], len(doc["layers"])) == (wide, high, report["layers"])
    with pytest.raises(ValueError):
        level.to_tmx(tmp_path / "x.tmx")
    with pytest.raises(ValueError):
        level.to_tmx(tmp_path / "x.tmx", rez=rez, images=tmp_path)
    with pytest.raises(OSError):
        level.to_tmx(tmp_path / "x.tmx", rez=tmp_path / "none.rez")
