"""REZ archives and PID images in the page, end to end in Debian's headless Chromium: a
level drawn with its archive read by ranges, the archive's tree and PIDs as `rez ls` and
`rez pid` give them, an ANI played in a crafted archive, and PID files given alone.
Needs what test_page.py needs."""

import hashlib

from PIL import Image
from selenium.webdriver.common.by import By

from pagekit import DATA, SHOTS, call, cli, cli_json, compare, open_page


def test_a_level_with_its_archive_and_the_archive_s_tree(refs, tmp_path):
    demo = refs / "demo"
    page = open_page()
    try:
        page.find_element(By.ID, "open-files").send_keys(
            "\n".join(str(demo / n) for n in ["SYNTH01.WWD", "SYNTH.REZ"]))
        maps = call(page, "return await window.gamedata.maps();")
        assert maps == ["wwd/SYNTH01"], maps
        # The level drawn by the engine's rules with the archive, as wwd tiles --rez.
        assert compare(page, refs / "wwd-synth", "wwd/SYNTH01") > 5
        assert compare(page, refs / "wwd-synth-markers", "wwd/SYNTH01?markers,time=700") > 5
        # The tree: a folder's files as rez ls --json lists them.
        listed = cli_json("rez", "ls", demo / "SYNTH.REZ", "LEVEL1/TILES/ACTION")["files"]
        got = call(page, "return await window.gamedata.rezList('LEVEL1/TILES/ACTION');")
        assert [(i["path"], i["size"]) for i in got] == [(f["path"], f["size"]) for f in listed]
        assert not any(i["dir"] for i in got)
        # PIDs as rez pid draws them with the level's palette.
        palette = "LEVEL1/PALETTES/MAIN.PAL"
        for f in listed[:4] + cli_json("rez", "ls", demo / "SYNTH.REZ", "GAME")["files"][:2]:
            png = tmp_path / "pid.png"
            cli("rez", "pid", demo / "SYNTH.REZ", f["path"], "--palette", palette, "-o", png)
            image = Image.open(png).convert("RGBA")
            want = [image.width, image.height, hashlib.sha256(image.tobytes()).hexdigest()]
            got = call(page, """
                const p = await window.gamedata.rezPid(args[0], args[1]);
                const d = new Uint8Array(await crypto.subtle.digest("SHA-256", p.rgba));
                return [p.width, p.height,
                        Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("")];""",
                       f["path"], palette)
            assert got == want, f["path"]
        # The tree in the page: open folders, pick the palette, show a PID.
        page.execute_script("location.hash = 'rez';")
        choose_rez_palette(page, palette)
        page.execute_script("location.hash = 'rez/LEVEL1/TILES/ACTION/000.PID';")
        shown = shown_pid(page)
        assert shown.startswith("LEVEL1/TILES/ACTION/000.PID: "), shown
        page.save_screenshot(str(SHOTS / "rez-tree-pid.png"))
        links = [a.get_attribute("data-id") for a in page.find_elements(By.CSS_SELECTOR, "#art-links a")]
        assert links == ["rez"], links
        # Read whole: the level alone; the archive's tables and pictures by ranges.
        memory = call(page, "return await window.gamedata.memory();")
        assert memory["loaded"] == (demo / "SYNTH01.WWD").stat().st_size, memory
        assert "before initialization" not in page.find_element(By.ID, "status").text
    finally:
        page.quit()


def rez_archive(tree):
    """A REZ archive holding `tree` (name: bytes for a file, name: dict for a directory),
    laid out from the format's facts (docs/formats/wap32.md, "REZ archives"): the 168-byte
    header (text, version 1 at 127, the root's table at 131), then each directory's table
    of entries (kind, offset, size, time; a directory's name and NUL; a file's id, its
    extension reversed, no keys, its name, NUL and an empty comment) and the files."""
    out = bytearray(b"\r\n".ljust(124, b" ") + b"\r\n\x1a" + (1).to_bytes(4, "little"))
    out += bytes(168 - len(out))
    word = lambda v: v.to_bytes(4, "little")

    def entry_len(name, item):
        stem = name.rsplit(".", 1)[0].encode()
        return 16 + len(name) + 1 if isinstance(item, dict) else 16 + 12 + len(stem) + 2

    def place(items):
        """Writes `items`' table (after their contents) and returns its offset and size."""
        placed = []
        for name, item in items.items():
            if isinstance(item, dict):
                placed.append((name, item, place(item)))
            else:
                placed.append((name, item, (len(out), len(item))))
                out.extend(item)
        at = len(out)
        for name, item, (offset, size) in placed:
            if isinstance(item, dict):
                out.extend(word(1) + word(offset) + word(size) + word(0) + name.encode() + b"\0")
            else:
                stem, ext = name.rsplit(".", 1)
                out.extend(word(0) + word(offset) + word(size) + word(0) + word(7)
                           + ext.encode()[::-1].ljust(4, b"\0") + word(0)
                           + stem.encode() + b"\0\0")
        return at, len(out) - at

    offset, size = place(tree)
    out[131:139] = word(offset) + word(size)
    return bytes(out)


def ani_bytes(frames):
    """An ANI of `frames` ((image, milliseconds) each): the 32-byte header (signature 0,
    the record count at 0xC, no name), then per frame ten 16-bit words, step 3 (show the
    image) at 0x2, the image at 0x8, the duration at 0xA (docs/formats/wap32.md, "ANI")."""
    out = bytearray()
    for v in [0, 0, 0, len(frames), 0, 0, 0, 0]:
        out += v.to_bytes(4, "little")
    for image, ms in frames:
        for v in [0, 3, 0, 0, image, ms, 0, 0, 0, 0]:
            out += v.to_bytes(2, "little")
    return bytes(out)


def choose_rez_palette(page, palette):
    """Opens the archive tree's folders down to `palette` and chooses it."""
    for name in palette.split("/")[:-1]:
        call(page, """
            for (let i = 0; i < 100; i++) {
              const a = Array.from(document.querySelectorAll('#rez-tree a.dir'))
                .find((x) => x.textContent === args[0] + '/');
              if (a) { a.click(); return true; }
              await new Promise((ok) => setTimeout(ok, 50));
            }
            return false;""", name)
    call(page, """
        for (let i = 0; i < 100; i++) {
          const s = document.getElementById('rez-palette');
          if (Array.from(s.options).some((o) => o.value === args[0])) {
            s.value = args[0];
            return true;
          }
          await new Promise((ok) => setTimeout(ok, 50));
        }
        return false;""", palette)


# The shown canvas's digest: SHA-256 of its RGBA, transparent pixels' colour zeroed (a
# canvas keeps none for them).


CANVAS_DIGEST = """
const c = document.getElementById('rez-canvas');
const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
for (let i = 0; i < d.length; i += 4) if (d[i + 3] === 0) d[i] = d[i + 1] = d[i + 2] = 0;
const h = new Uint8Array(await crypto.subtle.digest('SHA-256', d));
return Array.from(h, (b) => b.toString(16).padStart(2, '0')).join('');
"""


def test_an_ani_plays_its_frames_in_the_archive_s_tree(refs, tmp_path):
    # Two of the demo archive's tiles as an object's frames 1 and 2, its palette, and an
    # ANI that shows frame 1 for 400 ms, then frame 2 for 400 ms.
    demo = refs / "demo"
    data = (demo / "SYNTH.REZ").read_bytes()
    listed = cli_json("rez", "ls", demo / "SYNTH.REZ", "LEVEL1")["files"]
    by_path = {f["path"]: data[f["offset"]:f["offset"] + f["size"]] for f in listed}
    tiles = [p for p in sorted(by_path) if p.startswith("LEVEL1/TILES/ACTION/")]
    pids = [by_path[tiles[0]], next(by_path[p] for p in tiles if by_path[p] != by_path[tiles[0]])]
    archive = tmp_path / "ANIM.REZ"
    archive.write_bytes(rez_archive({"LEVEL1": {
        "PALETTES": {"MAIN.PAL": by_path["LEVEL1/PALETTES/MAIN.PAL"]},
        "IMAGES": {"OBJ": {"FRAME001.PID": pids[0], "FRAME002.PID": pids[1]}},
        "ANIS": {"OBJ": {"PLAY.ANI": ani_bytes([(1, 400), (2, 400)])}},
    }}))
    info = cli_json("rez", "ani", archive, "LEVEL1/ANIS/OBJ/PLAY.ANI")
    assert [(f["image"], f["duration_ms"]) for f in info["frames"]] == [(1, 400), (2, 400)], info
    palette = "LEVEL1/PALETTES/MAIN.PAL"
    want = {}
    for n in [1, 2]:
        png = tmp_path / f"frame{n}.png"
        cli("rez", "pid", archive, f"LEVEL1/IMAGES/OBJ/FRAME00{n}.PID", "--palette", palette,
            "-o", png)
        pixels = bytearray(Image.open(png).convert("RGBA").tobytes())
        for i in range(0, len(pixels), 4):
            if pixels[i + 3] == 0:
                pixels[i:i + 3] = b"\0\0\0"
        want[n - 1] = hashlib.sha256(pixels).hexdigest()
    assert want[0] != want[1]
    page = open_page()
    try:
        page.find_element(By.ID, "open-files").send_keys(str(archive))
        page.execute_script("location.hash = 'rez';")
        choose_rez_palette(page, palette)
        page.execute_script("location.hash = 'rez/LEVEL1/ANIS/OBJ/PLAY.ANI';")
        # Each frame as it is shown: its index, when, and the canvas's pixels.
        seen = call(page, """
            const seen = [];
            const start = performance.now();
            let last = null;
            while (seen.length < 4 && performance.now() - start < 20000) {
              const s = document.getElementById('rez-shown');
              if (s.dataset.frame !== undefined && s.dataset.frame !== last) {
                last = s.dataset.frame;
                seen.push([Number(last), performance.now(), await (async () => {""" + CANVAS_DIGEST + """
                })()]);
              }
              await new Promise((ok) => setTimeout(ok, 10));
            }
            return seen;""")
        page.save_screenshot(str(SHOTS / "rez-ani-playing.png"))
        shown = page.find_element(By.ID, "rez-shown").text
        memory = call(page, "return await window.gamedata.memory();")
    finally:
        page.quit()
    assert [f for f, _, _ in seen] == [0, 1, 0, 1], (seen, shown)
    for frame, _, digest in seen:
        assert digest == want[frame], f"frame {frame} is not rez pid's picture"
    # Each frame stays its 400 ms (timers run late, never early).
    for (_, a, _), (_, b, _) in zip(seen, seen[1:]):
        assert 380 <= b - a < 1500, seen
    # The archive's tables and files were read by ranges, never the archive whole.
    assert memory["loaded"] == 0, memory


def test_pid_files_given_alone_are_rez_pid_s_pictures(tmp_path):
    # Real PIDs: two with their own palette (one run-length coded), one light map (grey).
    names = ["PERFECT.PID", "FRAME043.PID", "FRAME003.PID"]
    page = open_page()
    try:
        page.find_element(By.ID, "open-files").send_keys(
            "\n".join(str(DATA / "wap32" / "pid" / n) for n in names))
        listed = call(page, "return await window.gamedata.rezList('');")
        assert sorted(i["path"] for i in listed) == sorted(names), listed
        for name in names:
            png = tmp_path / f"{name}.png"
            cli("rez", "pid", DATA / "wap32" / "pid" / name, "-o", png)
            image = Image.open(png).convert("RGBA")
            want = [image.width, image.height, hashlib.sha256(image.tobytes()).hexdigest()]
            got = call(page, """
                const p = await window.gamedata.rezPid(args[0], null);
                const d = new Uint8Array(await crypto.subtle.digest("SHA-256", p.rgba));
                return [p.width, p.height,
                        Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("")];""",
                       name)
            assert got == want, name
        # Shown in the page's tree, as a person opens it.
        links = [a.get_attribute("data-id") for a in page.find_elements(By.CSS_SELECTOR, "#art-links a")]
        assert links == ["rez"], links
        page.execute_script("location.hash = 'rez/PERFECT.PID';")
        shown = shown_pid(page)
        assert shown == "PERFECT.PID: 252 x 54", shown
        page.save_screenshot(str(SHOTS / "pid-alone.png"))
    finally:
        page.quit()


def shown_pid(page):
    """The archive view's line once its PID is drawn (or what it says after 5 s)."""
    return call(page, """
        for (let i = 0; i < 100; i++) {
          const s = document.getElementById('rez-shown');
          if (s.dataset.drawn === '1') return s.textContent;
          await new Promise((ok) => setTimeout(ok, 50));
        }
        return document.getElementById('rez-shown').textContent;""")
