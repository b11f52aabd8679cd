"""gamedata.cosmo against `gamedata cosmo ... --json` and an independent reading of the
map entry's bytes, on the real episode 1 and the synthetic one of `gamedata demo`."""

import gc

import numpy as np
import pytest
from conftest import base_chain, inside

import gamedata
from gamedata import cosmo


def independent(entry: bytes):
    """A map entry read from the format facts (docs/formats/cosmo.md, "Maps"): three u16
    header words, the actor list, then 32,764 u16 cells."""
    words = np.frombuffer(entry, "<u2")
    width, actor_words = int(words[1]), int(words[2])
    actors = words[3 : 3 + actor_words].reshape(-1, 3)
    cells = words[3 + actor_words : 3 + actor_words + 32764]
    return width, actors, cells


def check_episode(folder, cli, tmp_path):
    episode = cosmo.Episode.open(folder)
    names = episode.level_names
    assert names and all(n.upper().endswith(".MNI") for n in names)
    for name in names:
        level = episode.level(name)
        info = cli("cosmo", "map", folder, name)
        out = tmp_path / name
        cli("cosmo", "extract", folder / "COSMO1.VOL", name, "-o", out)
        width, actors, cells = independent(out.read_bytes())
        raw = level.cells_raw
        assert raw.shape == (32764,) and raw.dtype == np.uint16
        assert not raw.flags.owndata and not raw.flags.writeable
        assert base_chain(raw)[-1] is episode
        assert inside(raw, episode._span("vol"))
        assert np.array_equal(raw, cells)
        grid = level.cells
        assert grid.shape == (info["height"], info["width"]) == (32768 // width, width)
        assert np.array_equal(grid.reshape(-1)[:32764], cells)
        assert not grid.reshape(-1)[32764:].any()
        listed = level.actors
        assert listed.dtype == cosmo.ACTOR and len(listed) == info["actors"]
        assert inside(listed, episode._span("vol"))
        assert np.array_equal(np.stack([listed["type"], listed["x"], listed["y"]], 1), actors)
        assert level.backdrop == info["backdrop"]
    return episode


def test_real_episode(real, cli, tmp_path):
    folder = real / "cosmo"
    episode = check_episode(folder, cli, tmp_path)
    attrs = episode.tile_attributes
    out = tmp_path / "TILEATTR.MNI"
    cli("cosmo", "extract", folder / "COSMO1.STN", "TILEATTR.MNI", "-o", out)
    assert attrs.tobytes() == out.read_bytes()
    assert not attrs.flags.owndata and inside(attrs, episode._span("stn"))


def test_synthetic_episode(demo, cli, tmp_path):
    check_episode(demo, cli, tmp_path)


def test_render_equals_cosmo_map_render(real, cli, tmp_path):
    from PIL import Image

    folder = real / "cosmo"
    episode = cosmo.Episode.map(folder)
    out = tmp_path / "a1.png"
    cli("cosmo", "map", folder, "A1.MNI", "--render", out, "--actors", "--backdrop")
    picture = episode.render("A1.MNI")
    assert picture.shape == (64 * 8, 512 * 8, 4)
    assert np.array_equal(picture, np.asarray(Image.open(out).convert("RGBA")))
    plain = tmp_path / "plain.png"
    cli("cosmo", "map", folder, "A1.MNI", "--render", plain)
    assert np.array_equal(
        episode.level("a1.mni").render(actors=False, backdrop=False),
        np.asarray(Image.open(plain).convert("RGBA")),
    )


def test_views_outlive_the_episode(demo):
    episode = cosmo.Episode.open(demo)
    level = episode.level(episode.level_names[0])
    raw = level.cells_raw
    copy = raw.copy()
    del episode, level
    gc.collect()
    assert np.array_equal(raw, copy)


def test_bad_group_files(tmp_path, demo):
    (tmp_path / "COSMO1.STN").write_bytes(b"\0" * 100)
    (tmp_path / "COSMO1.VOL").write_bytes((demo / "COSMO1.VOL").read_bytes())
    with pytest.raises(gamedata.FormatError) as e:
        cosmo.Episode.open(tmp_path)
    assert e.value.file == "COSMO1.STN" and e.value.kind
    episode = cosmo.Episode.open(demo)
    with pytest.raises(gamedata.FormatError) as e:
        episode.level("NOPE.MNI")
    assert e.value.kind == "EntryNotFound"
    with pytest.raises(FileNotFoundError):
        cosmo.Episode.open(tmp_path / "none")
    vol = bytearray((demo / "COSMO1.VOL").read_bytes())
    rng = np.random.default_rng(5)
    for _ in range(100):
        data = bytearray(vol)
        for at in rng.integers(0, 4000, 6):
            data[at] = int(rng.integers(0, 256))
        (tmp_path / "COSMO1.VOL").write_bytes(bytes(data))
        (tmp_path / "COSMO1.STN").write_bytes((demo / "COSMO1.STN").read_bytes())
        try:
            ep = cosmo.Episode.open(tmp_path)
            for name in ep.level_names:
                lv = ep.level(name)
                lv.cells.sum()
                lv.actors
                ep.render(name)
        except gamedata.FormatError:
            pass
