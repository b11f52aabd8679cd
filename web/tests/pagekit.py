"""What the page's tests share: where the page, the data and the command are, the command
run, a script run in the page, a page opened, and tiles compared with the command's."""

import json
import hashlib
import os
import pathlib
import subprocess

from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGE = ROOT / "target" / "web" / "index.html"
SHOTS = ROOT / "target" / "web-test"
DATA = pathlib.Path(os.environ.get("GAMEDATA_DIR", ROOT.parent / "shared" / "data"))
CLI = os.environ.get("GAMEDATA_CLI", str(ROOT / "target" / "release" / "gamedata"))


def cli(*args):
    subprocess.run([CLI, *map(str, args)], check=True, stdout=subprocess.DEVNULL)


def call(driver, body, *args):
    """Runs `body` (an async function's body) in the page and returns its result."""
    script = ("const done = arguments[arguments.length - 1];"
              f"(async (...args) => {{ {body} }})(...Array.from(arguments).slice(0, -1))"
              ".then(done, (e) => done({error: String(e && e.message || e)}));")
    result = driver.execute_async_script(script, *args)
    if isinstance(result, dict) and "error" in result:
        raise AssertionError(result["error"])
    return result


# A tile's digest in the page: SHA-256 of its RGBA bytes (null where no tile).


TILE_DIGEST = """
const t = await window.gamedata.tile(args[0], args[1], args[2], args[3]);
if (!t) return null;
if (t.width !== 256 || t.height !== 256 || !(t.rgba instanceof Uint8Array)) return "bad shape";
const d = new Uint8Array(await crypto.subtle.digest("SHA-256", t.rgba));
return Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("");
"""


def png_digest(path):
    return hashlib.sha256(Image.open(path).convert("RGBA").tobytes()).hexdigest()


def compare(driver, ref_dir, map_id, keep=lambda z, x, y: True):
    """Every kept tile of `ref_dir` against the page's; returns how many were compared."""
    compared = 0
    for png in sorted(ref_dir.glob("*/*/*.png")):
        z, x, y = int(png.parent.parent.name), int(png.parent.name), int(png.stem)
        if not keep(z, x, y):
            continue
        got = call(driver, TILE_DIGEST, map_id, z, x, y)
        assert got == png_digest(png), f"{map_id}: tile {z}/{x}/{y} differs from {png}"
        compared += 1
    assert compared > 0
    return compared


def screenshot(driver, map_id, name):
    driver.execute_script("location.hash = arguments[0];", map_id)
    call(driver, """
        await window.gamedata.maps();
        await new Promise((ok) => setTimeout(ok, 1500));
        return true;""")
    driver.save_screenshot(str(SHOTS / f"{name}.png"))


def open_page():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                "--window-size=1400,900", "--enable-precise-memory-info"]:
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(600)
    driver.get(PAGE.as_uri())
    call(driver, "return await window.gamedata.ready;")
    return driver


def cli_json(*args):
    done = subprocess.run([CLI, *map(str, args), "--json"], check=True, capture_output=True)
    return json.loads(done.stdout)
