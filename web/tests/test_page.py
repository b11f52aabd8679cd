"""The page end to end in Debian's headless Chromium over WebDriver (chromium-driver):
opened from file://, given files through #open-files and #open-folder as a person gives
them, and read back through window.gamedata. The tiles it draws are compared with the PNGs
the command line's `tiles` commands write for the same files and options.

Needs: target/web/ built (bash web/build.sh), GAMEDATA_DIR (../shared/data), GAMEDATA_CLI
(the `gamedata` command), selenium and pillow; writes screenshots to target/web-test/.
The fixtures are in conftest.py, the shared helpers in pagekit.py; the archive's and
PIDs' tests in test_rez.py.
"""

import hashlib
import json
import re
import shutil
import subprocess

import pytest
from PIL import Image
from selenium.webdriver.common.by import By

from pagekit import (
    CLI, DATA, SHOTS, TILE_DIGEST, call, cli, cli_json, compare, open_page, screenshot,
)


def test_maps_lists_every_game(page):
    maps = call(page, "return await window.gamedata.maps();")
    for wanted in ["cosmo/A1", "cosmo/A11", "cosmo/BONUS2", "wwd/RETAIL01", "wwd/RETAIL14",
                   "wwd/RockySwitch", "uo/0/flat?width=64,height=64",
                   "uo/0/client?width=64,height=64", "uo/0/world?width=64,height=64"]:
        assert wanted in maps, f"{wanted} not in {maps}"
    assert len([m for m in maps if m.startswith("cosmo/")]) == 13
    assert "wwd/RETAIL01_badsig" not in maps
    shown = page.find_element(By.ID, "found").text
    assert "Cosmo's Cosmic Adventure: episode 1, 13 maps" in shown
    assert "Ultima Online: facet 0" in shown


def test_the_bad_level_is_reported_and_the_others_open(page):
    errors = call(page, "return window.gamedata.errors();")
    bad = [e for e in errors if "RETAIL01_badsig.WWD" in e]
    assert len(bad) == 1, errors
    assert bad[0].startswith("reading wwd/RETAIL01_badsig.WWD: "), bad
    assert bad[0] in page.find_element(By.ID, "errors").text
    assert call(page, TILE_DIGEST, "wwd/RETAIL02", 0, 0, 0) is not None
    screenshot(page, "wwd/RETAIL02", "wwd-RETAIL02-with-the-bad-level-listed")


def test_cosmo_tiles_equal_the_command_lines(page, refs):
    assert compare(page, refs / "cosmo-A1", "cosmo/A1") == 47
    assert compare(page, refs / "cosmo-A1-layers", "cosmo/A1?actors,backdrop") == 47
    screenshot(page, "cosmo/A1?actors,backdrop", "cosmo-A1-actors-backdrop")


def test_uo_tiles_equal_the_command_lines(page, refs):
    size = "?width=64,height=64"
    assert compare(page, refs / "uo-flat", "uo/0/flat" + size) == 1
    assert compare(page, refs / "uo-world", "uo/0/world" + size) == 127
    screenshot(page, "uo/0/world" + size, "uo-0-world")


def test_wwd_tiles_equal_the_command_lines(page, refs):
    # The zooms above the native one whole (each draws the whole level), and one native
    # tile in 9.
    n = compare(page, refs / "wwd-RETAIL01", "wwd/RETAIL01",
                keep=lambda z, x, y: z <= 3 or (z == 7 and (x * 7 + y) % 9 == 0))
    assert n > 250
    assert call(page, TILE_DIGEST, "wwd/RETAIL01", 7, 96, 0) is None, "past the edge"
    screenshot(page, "wwd/RETAIL01", "wwd-RETAIL01-collision")
    assert page.execute_script("return location.hash;") == "#wwd/RETAIL01"


def test_a_full_size_facet_s_tiles_equal_the_command_lines(tmp_path):
    # Facet 0 at its full size (7168 x 4096 tiles: map0.mul 90 MB, statics 22 MB), given as
    # a folder through the file input; flat and client styles against uo tiles.
    folder = tmp_path / "facet0"
    cli("uo", "synth", folder, "--facet", 0)
    assert (folder / "map0.mul").stat().st_size == 7168 * 4096 // 64 * 196
    cli("uo", "tiles", folder, "-o", tmp_path / "flat")
    cli("uo", "tiles", folder, "--style", "client", "-o", tmp_path / "client")
    page = open_page()
    try:
        page.find_element(By.ID, "open-folder").send_keys(str(folder))
        maps = call(page, "return await window.gamedata.maps();")
        assert maps == ["uo/0/flat", "uo/0/client"], maps
        # Every tile of zooms 0 to 2, and one in seven of the deeper ones.
        keep = lambda z, x, y: z <= 2 or (x * 31 + y) % 7 == 0
        assert compare(page, tmp_path / "flat", "uo/0/flat", keep) > 60
        assert compare(page, tmp_path / "client", "uo/0/client", keep) > 60
        screenshot(page, "uo/0/client", "uo-0-full-size-client")
    finally:
        page.quit()


def test_a_bad_id_rejects_with_a_sentence(page):
    with pytest.raises(AssertionError, match="no map wwd/NOPE among the files given"):
        call(page, TILE_DIGEST, "wwd/NOPE", 0, 0, 0)
    with pytest.raises(AssertionError, match='has the option "sprites"'):
        call(page, TILE_DIGEST, "cosmo/A1?sprites", 0, 0, 0)


def test_tiles_are_drawn_off_the_page_s_thread(page):
    # Map ids not asked before (their tiles are not kept): zoom 0 of the world draws all of
    # it, in the worker, while the page's own timer goes on ticking; until 300 ms of
    # drawing have passed.
    got = call(page, """
        let ticks = 0;
        const timer = setInterval(() => { ticks += 1; }, 5);
        const start = performance.now();
        let drawn = 0;
        for (let zoom = 5; zoom < 24 && performance.now() - start < 300; zoom++) {
          const id = `uo/0/world?width=64,height=64,max-zoom=${zoom}`;
          if (await window.gamedata.tile(id, 0, 0, 0)) drawn += 1;
        }
        const took = performance.now() - start;
        clearInterval(timer);
        return {took, ticks, drawn, readers_here: typeof wasm_bindgen};""")
    assert got["drawn"] > 0, got
    assert got["readers_here"] == "undefined", "the readers load in the worker only"
    assert got["took"] > 300, f"too quick to tell: {got}"
    # Unblocked, the timer ticks every 5 ms (a browser may stretch it to 10 or so).
    assert got["ticks"] >= got["took"] / 20, got


ART_DIGEST = """
const p = await window.gamedata.art(args[0], args[1], args[2]);
if (!p) return null;
const d = new Uint8Array(await crypto.subtle.digest("SHA-256", p.rgba));
return [p.width, p.height, Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("")];
"""


def same_art(page, folder, kind, art_id, hue, png):
    """Whether the page's picture of `kind` `art_id` with `hue` is the one `gamedata uo
    art` writes to `png` (True), or both have none (None: the command refuses an empty
    picture); a difference fails."""
    args = ["uo", "art", folder, f"--{kind}", art_id, "-o", png]
    if hue:
        args += ["--hue", hue]
    done = subprocess.run([CLI, *map(str, args)], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    got = call(page, ART_DIGEST, kind, art_id, hue)
    if done.returncode != 0:
        assert got is None, (kind, art_id, hue)
        return None
    image = Image.open(png).convert("RGBA")
    want = [image.width, image.height, hashlib.sha256(image.tobytes()).hexdigest()]
    assert got == want, f"{kind} {art_id} hue {hue:#x}"
    return True


def test_art_thumbnails_equal_the_command_s_pictures(page, refs, tmp_path):
    uo = refs / "uo"
    items = call(page, "return await window.gamedata.artIds('item', '');")
    lands = call(page, "return await window.gamedata.artIds('land', '');")
    assert len(items) > 100 and len(lands) > 10, (len(items), len(lands))
    compared = 0
    for kind, ids in [("item", items[::max(1, len(items) // 12)]),
                      ("land", lands[::max(1, len(lands) // 4)])]:
        for hue in [0, 5, 0x8000 | 5]:
            for art_id in ids:
                png = tmp_path / f"{kind}-{art_id}-{hue}.png"
                if same_art(page, uo, kind, art_id, hue, png):
                    compared += 1
    assert compared > 40


def test_tiledata_under_the_pointer_is_the_command_s(page, refs):
    from selenium.webdriver.common.action_chains import ActionChains
    for kind, ids in [("item", [2885, 0, 10]), ("land", [3, 22])]:
        for art_id in ids:
            want = cli_json("uo", "tiledata", refs / "uo" / "tiledata.mul", f"--{kind}", art_id)
            got = call(page, "return await window.gamedata.artTiledata(args[0], args[1]);",
                       kind, art_id)
            assert got == want, (kind, art_id)
    # Over a thumbnail, the bar says its tiledata.
    page.execute_script("location.hash = 'art/item';")
    call(page, """
        for (let i = 0; i < 100; i++) {
          if (document.querySelector('#art-grid figure[data-id="10"]')) return true;
          await new Promise((ok) => setTimeout(ok, 50));
        }
        return false;""")
    cell = page.find_element(By.CSS_SELECTOR, '#art-grid figure[data-id="10"]')
    ActionChains(page).move_to_element(cell).perform()
    want = cli_json("uo", "tiledata", refs / "uo" / "tiledata.mul", "--item", 10)
    text = call(page, """
        for (let i = 0; i < 100; i++) {
          const t = document.getElementById('art-tiledata').textContent;
          if (t.startsWith('0x000A')) return t;
          await new Promise((ok) => setTimeout(ok, 50));
        }
        return document.getElementById('art-tiledata').textContent;""")
    assert text.startswith(f"0x000A {want['name']}, height {want['height']}"), text


def test_the_art_grid_draws_thumbnails_and_art_mul_is_not_read_whole(refs):
    # A page of its own, given the synthetic client folder alone.
    page = open_page()
    try:
        page.find_element(By.ID, "open-folder").send_keys(str(refs / "uo"))
        call(page, "return await window.gamedata.maps();")
        page.execute_script("location.hash = 'art/item';")
        drawn = call(page, """
            for (let i = 0; i < 100; i++) {
              const n = document.querySelectorAll('#art-grid figure[data-drawn]').length;
              if (n >= 20) return n;
              await new Promise((ok) => setTimeout(ok, 100));
            }
            return document.querySelectorAll('#art-grid figure[data-drawn]').length;""")
        assert drawn >= 20, drawn
        page.save_screenshot(str(SHOTS / "uo-art-items.png"))
        # 1,000 thumbnails asked for (the set's items, again from the start, with hues):
        # art.mul is read by entries, never whole.
        got = call(page, """
            const ids = await window.gamedata.artIds('item', '');
            let drawn = 0;
            for (let i = 0; i < 1000; i++) {
              if (await window.gamedata.art('item', ids[i % ids.length], i % 7)) drawn += 1;
            }
            return {drawn, memory: await window.gamedata.memory()};""")
    finally:
        page.quit()
    assert got["drawn"] > 900, got
    memory = got["memory"]
    sizes = {f.name: f.stat().st_size for f in (refs / "uo").iterdir()}
    assert memory["loaded"] >= sizes["artidx.mul"], memory
    # Of the files the readers use, all may have been read whole but art.mul.
    used = ["map0.mul", "staidx0.mul", "statics0.mul", "tiledata.mul", "radarcol.mul",
            "hues.mul", "artidx.mul", "art.mul", "texidx.mul", "texmaps.mul"]
    all_but_art = sum(sizes[n] for n in used) - sizes["art.mul"]
    assert memory["loaded"] <= all_but_art, f"art.mul was read whole: {memory}"
    (SHOTS / "memory-after-1000-thumbnails.txt").write_text(f"{memory}\n")


def test_an_art_uop_is_read_by_ranges_and_draws_the_command_s_pictures(refs, tmp_path):
    # The synthetic client's art as artLegacyMUL.uop, with its tiledata and hues.
    folder = tmp_path / "uop"
    subprocess.run([CLI, "uo", "convert", str(refs / "uo"), "--art", "--to", "uop",
                    str(folder)], check=True, stdout=subprocess.DEVNULL)
    for name in ["tiledata.mul", "hues.mul"]:
        shutil.copy(refs / "uo" / name, folder / name)
    page = open_page()
    try:
        page.find_element(By.ID, "open-folder").send_keys(str(folder))
        call(page, "return await window.gamedata.maps();")
        items = call(page, "return await window.gamedata.artIds('item', '');")
        assert len(items) > 100, len(items)
        compared = 0
        for art_id in items[::max(1, len(items) // 10)]:
            for hue in [0, 0x8000 | 5]:
                png = tmp_path / f"uop-{art_id}-{hue}.png"
                if same_art(page, folder, "item", art_id, hue, png):
                    compared += 1
        memory = call(page, "return await window.gamedata.memory();")
    finally:
        page.quit()
    assert compared > 10, compared
    # Read whole: tiledata.mul and hues.mul at most, never the container.
    whole = (folder / "tiledata.mul").stat().st_size + (folder / "hues.mul").stat().st_size
    assert memory["loaded"] <= whole, f"artLegacyMUL.uop was read whole: {memory}"


def test_a_level_s_planes_and_objects_are_the_command_s_listing(page):
    info = cli_json("wwd", "info", DATA / "wwd" / "RETAIL01.WWD")
    objects = cli_json("wwd", "objects", DATA / "wwd" / "RETAIL01.WWD")["objects"]
    main = next(i for i, p in enumerate(info["planes"]) if p["flags"] & 1)
    page.execute_script("location.hash = 'wwd/RETAIL01';")
    got = call(page, """
        for (let i = 0; i < 100; i++) {
          const select = document.querySelector('#map-options #plane');
          if (select) {
            const filter = document.querySelector('#map-options input[type=search]');
            return {
              planes: Array.from(select.options, (o) => o.value),
              count: filter.placeholder,
              listed: Array.from(document.querySelectorAll('#objects a'),
                                 (a) => a.textContent).slice(0, 5),
            };
          }
          await new Promise((ok) => setTimeout(ok, 100));
        }
        return null;""")
    assert got is not None, "no options shown for the level"
    assert got["planes"] == [""] + [p["name"] for p in info["planes"]]
    in_main = [o for o in objects if o["plane"] == main]
    assert got["count"].startswith(f"{len(in_main)} objects"), (got["count"], len(in_main))
    want = [f"{o['logic'] or '(no logic)'} " + (f"\"{o['name']}\" " if o["name"] else "")
            + f"at {o['x']}, {o['y']}" for o in in_main[:5]]
    assert got["listed"] == want
    page.save_screenshot(str(SHOTS / "wwd-RETAIL01-objects.png"))


def test_a_cosmo_map_s_toggles_rewrite_its_id(page):
    page.execute_script("location.hash = 'cosmo/A1';")
    call(page, """
        for (let i = 0; i < 100; i++) {
          if (document.querySelector('#map-options input[data-option=actors]')) return true;
          await new Promise((ok) => setTimeout(ok, 100));
        }
        return false;""")
    page.find_element(By.CSS_SELECTOR, "#map-options input[data-option=actors]").click()
    assert page.execute_script("return location.hash;") == "#cosmo/A1?actors"
    call(page, """
        for (let i = 0; i < 100; i++) {
          if (document.querySelector('#map-options input[data-option=backdrop]')) return true;
          await new Promise((ok) => setTimeout(ok, 100));
        }
        return false;""")
    page.find_element(By.CSS_SELECTOR, "#map-options input[data-option=backdrop]").click()
    assert page.execute_script("return location.hash;") == "#cosmo/A1?actors,backdrop"


def test_a_tile_under_the_pointer_is_the_command_s_uo_tile(page, refs):
    size = ["--width", 64, "--height", 64]
    # The world's frame as the command's viewer has it: [x, y, scale] of the plane.
    config = (refs / "uo-world" / "index.html").read_text()
    ox, oy, k = json.loads(re.search(r'"iso":(\[[^\]]*\])', config).group(1))
    compared = 0
    with_statics = 0
    for x, y in [(10, 10), (30, 30), (12, 44), (40, 36), (44, 36), (63, 0), (5, 60)]:
        want = cli_json("uo", "tile", refs / "uo", *size, x, y)
        with_statics += len(want["statics"]) > 0
        flat = call(page, "return await window.gamedata.tileAt(args[0], args[1], args[2]);",
                    "uo/0/flat?width=64,height=64", x, y)
        # The diamond's centre at height 0: ((x - y) * 22, (x + y) * 22) on the plane.
        px = ((x - y) * 22 - ox) // k
        py = ((x + y) * 22 - 22 - oy) // k
        world = call(page, "return await window.gamedata.tileAt(args[0], args[1], args[2]);",
                     "uo/0/world?width=64,height=64", px, py)
        for got in [flat, world]:
            assert got is not None, (x, y)
            names = got.pop("names")
            assert got == want, (x, y, got, want)
            assert len(names["statics"]) == len(want["statics"])
            compared += 1
    assert compared == 14
    assert with_statics == 3
    assert call(page, "return await window.gamedata.tileAt(args[0], 64, 3);",
                "uo/0/flat?width=64,height=64") is None


def compare_animations(page, folder, tmp_path, file=None):
    """Every listed body's actions in four directions (one hued): the page's frames
    against `gamedata uo anim`'s PNGs and --json (with `file`, `--file FILE`); returns the
    bodies listed and the frames compared."""
    bodies = call(page, "return await window.gamedata.animBodies(args[0]);", file)
    compared = 0
    for body, actions in bodies:
        for action in actions:
            for direction, hue in [(0, 0), (2, 0), (6, 0), (1, 9)]:
                out = tmp_path / f"{body}-{action}-{direction}-{hue}"
                args = ["uo", "anim", folder, body, "--action", action,
                        "--direction", direction, "-o", out, "--json"]
                if hue:
                    args += ["--hue", hue]
                if file:
                    args += ["--file", file]
                done = subprocess.run([CLI, *map(str, args)], capture_output=True)
                got = call(page, """
                    const r = await window.gamedata.animFrames(...args);
                    const out = [];
                    for (const f of r.frames) {
                      const d = new Uint8Array(await crypto.subtle.digest("SHA-256", f.rgba));
                      out.push([f.width, f.height, f.centre_x, f.centre_y,
                                Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("")]);
                    }
                    return {frames: out, ms: r.frame_ms};""", body, action, direction, hue, file)
                if done.returncode != 0:
                    assert got["frames"] == [], (body, action, direction)
                    continue
                report = json.loads(done.stdout)
                assert got["ms"] == 80
                assert len(got["frames"]) == len(report["frames"])
                for frame, want, name in zip(got["frames"], report["frames"], report["files"]):
                    assert frame[:4] == [want["width"], want["height"], want["centre_x"],
                                         want["centre_y"]], (body, action, direction)
                    if want["width"] == 0:
                        continue
                    image = Image.open(out / name).convert("RGBA")
                    assert frame[4] == hashlib.sha256(image.tobytes()).hexdigest(), (
                        body, action, direction, hue, name)
                    compared += 1
    return bodies, compared


def test_an_animation_plays_the_command_s_frames(page, refs, tmp_path):
    bodies, compared = compare_animations(page, refs / "uo", tmp_path)
    assert [b for b, _ in bodies] == [1, 2, 201, 400]
    assert compared > 20, compared
    # The view plays it: the frame shown moves on at the client's 80 ms.
    page.execute_script("location.hash = 'anim/400/1/6';")
    seen = call(page, """
        const shown = new Set();
        for (let i = 0; i < 40; i++) {
          const f = document.getElementById('anim-frame').dataset.frame;
          if (f !== undefined) shown.add(f);
          await new Promise((ok) => setTimeout(ok, 30));
        }
        return Array.from(shown);""")
    assert len(seen) >= 2, f"the animation did not advance: {seen}"
    page.save_screenshot(str(SHOTS / "uo-anim-400.png"))


def test_uop_animations_play_the_command_s_frames(tmp_path):
    # A client folder with anim.mul and AnimationFrame1.uop (compressed with zlib and the
    # BWT stage, as the newer clients' are): each body from the form the command reads.
    folder = tmp_path / "uop"
    cli("uo", "synth", folder, "--facet", 0, "--width", 64, "--height", 64, "--art",
        "--art-format", "uop")
    page = open_page()
    try:
        page.find_element(By.ID, "open-folder").send_keys(str(folder))
        call(page, "return await window.gamedata.maps();")
        bodies, compared = compare_animations(page, folder, tmp_path / "frames")
    finally:
        page.quit()
    assert dict(bodies)[400] == [0, 1, 2, 4], bodies
    assert compared > 20, compared
    # Given alone, the UOP is never read whole: its table by ranges, each entry alone.
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(folder / "AnimationFrame1.uop", alone)
    page = open_page()
    try:
        page.find_element(By.ID, "open-folder").send_keys(str(alone))
        call(page, "return await window.gamedata.maps();")
        got = call(page, """
            const r = await window.gamedata.animFrames(400, 4, 0, 0);
            return {frames: r.frames.length, memory: await window.gamedata.memory()};""")
    finally:
        page.quit()
    assert got["frames"] > 0, got
    assert got["memory"]["loaded"] == 0, got


def test_anim2_plays_the_command_s_frames_of_anim2(refs, tmp_path):
    # The synthetic client's anim.mul given as anim2 too: read with anim2's numbering.
    folder = tmp_path / "anim2"
    folder.mkdir()
    for name in ["anim.idx", "anim.mul", "hues.mul"]:
        shutil.copy(refs / "uo" / name, folder / name)
    shutil.copy(refs / "uo" / "anim.idx", folder / "anim2.idx")
    shutil.copy(refs / "uo" / "anim.mul", folder / "anim2.mul")
    page = open_page()
    try:
        page.find_element(By.ID, "open-folder").send_keys(str(folder))
        call(page, "return await window.gamedata.maps();")
        files = call(page, "return await window.gamedata.animFiles();")
        bodies, compared = compare_animations(page, folder, tmp_path / "frames", "anim2")
        # The view offers the files and keeps the choice in the address.
        page.execute_script(f"location.hash = 'anim/{bodies[0][0]}/{bodies[0][1][0]}/0?file=anim2';")
        shown = call(page, """
            for (let i = 0; i < 100; i++) {
              const f = document.getElementById('anim-file');
              if (f.value === 'anim2' && document.getElementById('anim-frame').textContent)
                return [f.value, document.getElementById('anim-file-label').hidden];
              await new Promise((ok) => setTimeout(ok, 50));
            }
            return null;""")
    finally:
        page.quit()
    assert files == ["anim", "anim2"], files
    assert compared > 10, compared
    assert shown == ["anim2", False], shown


def test_texture_maps_equal_the_command_s(page, refs, tmp_path):
    ids = call(page, "return await window.gamedata.artIds('texmap', '');")
    assert len(ids) >= 2, ids
    for tex_id in ids:
        png = tmp_path / f"tex-{tex_id}.png"
        cli("uo", "texmap", refs / "uo", tex_id, "-o", png)
        image = Image.open(png).convert("RGBA")
        want = [image.width, image.height, hashlib.sha256(image.tobytes()).hexdigest()]
        assert call(page, ART_DIGEST, "texmap", tex_id, 0) == want, tex_id
    page.execute_script("location.hash = 'art/texmap';")
    drawn = call(page, """
        for (let i = 0; i < 100; i++) {
          const n = document.querySelectorAll('#art-grid figure[data-drawn]').length;
          if (n >= 2) return n;
          await new Promise((ok) => setTimeout(ok, 50));
        }
        return 0;""")
    assert drawn >= 2
    page.save_screenshot(str(SHOTS / "uo-texmaps.png"))


def test_gumps_equal_the_command_s(page, refs, tmp_path):
    ids = call(page, "return await window.gamedata.artIds('gump', '');")
    assert len(ids) >= 3, ids
    compared = 0
    for gump_id in ids[:8]:
        for hue in [0, 6, 0x8000 | 6]:
            png = tmp_path / f"gump-{gump_id}-{hue}.png"
            args = ["uo", "gump", refs / "uo", gump_id, "-o", png]
            if hue:
                args += ["--hue", hue]
            cli(*args)
            image = Image.open(png).convert("RGBA")
            want = [image.width, image.height, hashlib.sha256(image.tobytes()).hexdigest()]
            assert call(page, ART_DIGEST, "gump", gump_id, hue) == want, (gump_id, hue)
            compared += 1
    assert compared >= 9
