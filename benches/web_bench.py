"""The web app's figures (benches/web.sh runs this; benches/README.md, "The web app"):
time from choosing a folder to the first map tile drawn in the page, a native tile's time
in the page's worker, and the page's memory after 1,000 art thumbnails, from art.mul and
from artLegacyMUL.uop, and after browsing an archive shaped like GRUNTZ.REZ. Headless
Debian Chromium over chromedriver, the page opened from file://.

python3 benches/web_bench.py PAGE WORLD0 ARTFULL ARTUOP REZ
  PAGE     target/web/index.html
  WORLD0   a synthetic facet 0 folder with art (uo synth --facet 0 --art)
  ARTFULL  a folder with a full-size art set (uo synth --art --art-full)
  ARTUOP   the same art as artLegacyMUL.uop (uo convert --art --to uop), with tiledata
  REZ      an archive shaped like GRUNTZ.REZ (examples/rez_shaped.rs)
Prints lines `key value`.
"""

import statistics
import sys
import time
import pathlib

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def open_page(page):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                "--window-size=1400,900", "--enable-precise-memory-info",
                "--disable-background-networking"]:
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(3600)
    driver.get(pathlib.Path(page).resolve().as_uri())
    call(driver, "return await window.gamedata.ready;")
    return driver


def call(driver, body, *args):
    script = ("const done = arguments[arguments.length - 1];"
              f"(async (...args) => {{ {body} }})(...Array.from(arguments).slice(0, -1))"
              ".then(done, (e) => done({error: String(e && e.message || e)}));")
    result = driver.execute_async_script(script, *args)
    if isinstance(result, dict) and "error" in result:
        raise RuntimeError(result["error"])
    return result


def first_tile(page, folder, map_id):
    """Seconds from giving the folder to the first tile the viewer draws of map_id."""
    driver = open_page(page)
    try:
        driver.execute_script("location.hash = arguments[0];", map_id)
        start = time.monotonic()
        driver.find_element(By.ID, "open-folder").send_keys(str(folder))
        while not driver.execute_script(
                "return document.querySelector('.leaflet-tile[data-drawn=\"1\"]') !== null;"):
            time.sleep(0.01)
        took = time.monotonic() - start
        memory = call(driver, "return await window.gamedata.memory();")
        return took, memory
    finally:
        driver.quit()


def worker_tiles(page, folder, map_id, cols, rows):
    """The page's time for each of cols x rows native tiles around the map's middle (a tile
    first, to open the files), and the block's place (z, x, y)."""
    driver = open_page(page)
    try:
        driver.find_element(By.ID, "open-folder").send_keys(str(folder))
        levels = call(driver, "return await window.gamedata.levels(args[0]);", map_id)
        z = levels["native_zoom"]
        x = levels["width"] // 256 // 2 - cols // 2
        y = levels["height"] // 256 // 2 - rows // 2
        times = call(driver, """
            const [id, z, x, y, cols, rows] = args;
            await window.gamedata.tile(id, z, x + 1, y + rows);
            const times = [];
            for (let ty = y; ty < y + rows; ty++) {
              for (let tx = x; tx < x + cols; tx++) {
                const start = performance.now();
                await window.gamedata.tile(id, z, tx, ty);
                times.push(performance.now() - start);
              }
            }
            return times;""", map_id, z, x, y, cols, rows)
        return times, (z, x, y)
    finally:
        driver.quit()


def thumbnails(page, folder, count):
    driver = open_page(page)
    try:
        driver.find_element(By.ID, "open-folder").send_keys(str(folder))
        return call(driver, """
            const before = await window.gamedata.memory();
            const ids = await window.gamedata.artIds('item', '');
            const start = performance.now();
            let drawn = 0;
            for (let i = 0; i < args[0]; i++) {
              const id = ids[Math.floor(i * ids.length / args[0])];
              if (await window.gamedata.art('item', id, 0)) drawn += 1;
            }
            const took = performance.now() - start;
            return {drawn, took, items: ids.length, before,
                    after: await window.gamedata.memory()};""", count)
    finally:
        driver.quit()


def rez_browse(page, archive, count):
    """The archive given alone: its root listed (its tables read by ranges), then folders
    opened down to the first holding `count` PIDs, each drawn; times and memory."""
    driver = open_page(page)
    try:
        driver.find_element(By.ID, "open-files").send_keys(str(archive))
        return call(driver, """
            const before = await window.gamedata.memory();
            let start = performance.now();
            const root = await window.gamedata.rezList('');
            const rootMs = performance.now() - start;
            start = performance.now();
            const queue = root.filter((i) => i.dir).map((i) => i.path);
            let pids = [];
            let listed = 1;
            while (queue.length && pids.length < args[0]) {
              const items = await window.gamedata.rezList(queue.shift());
              listed += 1;
              pids = items.filter((i) => !i.dir && /\.PID$/i.test(i.name)).map((i) => i.path);
              if (pids.length < args[0]) { pids = []; queue.push(...items.filter((i) => i.dir).map((i) => i.path)); }
            }
            const listMs = performance.now() - start;
            start = performance.now();
            let drawn = 0;
            for (const p of pids.slice(0, args[0])) if (await window.gamedata.rezPid(p, null)) drawn += 1;
            const pidMs = performance.now() - start;
            return {rootMs, listed, listMs, drawn, pidMs, before,
                    after: await window.gamedata.memory()};""", count)
    finally:
        driver.quit()


def main():
    page, world0, artfull, artuop, rez = (pathlib.Path(a).resolve() for a in sys.argv[1:6])
    r = rez_browse(page, rez, 100)
    print(f"rez_bytes {rez.stat().st_size}")
    print(f"rez_root_listed_ms {r['rootMs']:.0f}")
    print(f"rez_folders_listed {r['listed']} in_ms {r['listMs']:.0f}")
    print(f"rez_pids_drawn {r['drawn']} in_ms {r['pidMs']:.0f}")
    for when in ["before", "after"]:
        m = r[when]
        print(f"rez_{when}_wasm_bytes {m['wasm']}")
        print(f"rez_{when}_loaded_bytes {m['loaded']}")
        print(f"rez_{when}_js_heap_bytes {m['jsHeap']}")
    for style in ["flat", "world"]:
        took, memory = first_tile(page, world0, f"uo/0/{style}")
        print(f"first_tile_{style}_s {took:.2f}")
        print(f"first_tile_{style}_wasm_bytes {memory['wasm']}")
        print(f"first_tile_{style}_loaded_bytes {memory['loaded']}")
        print(f"first_tile_{style}_js_heap_bytes {memory['jsHeap']}")
    times, (z, x, y) = worker_tiles(page, world0, "uo/0/world", 5, 4)
    print(f"worker_tiles_at {z} {x} {y}")
    print(f"worker_tile_mean_ms {statistics.mean(times):.2f}")
    print(f"worker_tile_median_ms {statistics.median(times):.2f}")
    for form, folder in [("mul", artfull), ("uop", artuop)]:
        t = thumbnails(page, folder, 1000)
        print(f"thumbnails_{form}_drawn {t['drawn']} of_items {t['items']} "
              f"in_s {t['took'] / 1000:.2f}")
        for when in ["before", "after"]:
            m = t[when]
            print(f"thumbnails_{form}_{when}_wasm_bytes {m['wasm']}")
            print(f"thumbnails_{form}_{when}_loaded_bytes {m['loaded']}")
            print(f"thumbnails_{form}_{when}_js_heap_bytes {m['jsHeap']}")


if __name__ == "__main__":
    main()
