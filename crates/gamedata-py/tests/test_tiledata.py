"""gamedata.uo.TileData against `gamedata uo tiledata --json` on the real files of three
layouts and the synthetic one."""

import numpy as np
import pytest
from conftest import base_chain, inside

import gamedata
from gamedata import uo

# A name ends at its first NUL; real files keep old bytes after it.
IDS = [0, 1, 2, 3, 31, 32, 100, 0x3FF, 0x1000, 0x2222, 0x3FFF]


def check(path, cli, layout=None):
    tiledata = uo.TileData.open(path)
    if layout:
        assert tiledata.layout == layout
    land, items = tiledata.land, tiledata.items
    assert land.shape == (512, 32) and items.shape == (tiledata.item_count // 32, 32)
    for table in (land, items):
        assert not table.flags.owndata and not table.flags.writeable
        assert base_chain(table)[-1] is tiledata
        assert inside(table, tiledata._span())
    hs = tiledata.layout == "high_seas"
    assert land.dtype == (uo.LAND_HS if hs else uo.LAND_OLD)
    assert items.dtype == (uo.ITEM_HS if hs else uo.ITEM_OLD)
    for id in IDS:
        want = cli("uo", "tiledata", path, "--land", id)
        assert tiledata.land_tile(id) == want
        if id != 0 or not tiledata.tile_zero_first:
            name = land[id // 32, id % 32]["name"].split(b"\0")[0].decode("latin-1")
            assert name == want["name"]
        if id < tiledata.item_count:
            want = cli("uo", "tiledata", path, "--item", id)
            assert tiledata.item_tile(id) == want
            row = items[id // 32, id % 32]
            assert (int(row["height"]), int(row["weight"])) == (want["height"], want["weight"])
            assert row["name"].split(b"\0")[0].decode("latin-1") == want["name"]
    with pytest.raises(IndexError):
        tiledata.land_tile(0x4000)
    return tiledata


def test_real_tiledata(real, cli):
    check(real / "uo" / "classic" / "tiledata.mul", cli)
    hs = check(real / "uo" / "hs" / "tiledata.mul", cli, "high_seas")
    assert hs.tile_zero_first
    check(real / "uo" / "prealpha" / "TILEDATA.MUL", cli)


def test_synthetic_tiledata(demo, cli):
    tiledata = check(demo / "uo" / "tiledata.mul", cli, "high_seas")
    impassable = np.array([uo.TileData.map(demo / "uo" / "tiledata.mul").item_tile(i)["flags"].count("impassable") for i in range(64)])
    # The flag bit of "impassable" is 0x40 (docs/formats/uo.md, "tiledata").
    flags = tiledata.items.reshape(-1)["flags"][:64]
    assert np.array_equal((flags & 0x40) != 0, impassable == 1)


def test_bad_size(tmp_path):
    path = tmp_path / "tiledata.mul"
    path.write_bytes(b"\0" * 1000)
    with pytest.raises(gamedata.FormatError) as e:
        uo.TileData.open(path)
    assert e.value.kind == "TileDataLength" and e.value.found == 1000
