"""The page's tests' fixtures: the command line's tiles for the maps compared (made once a
run), and a page given the shared data's folders and a synthetic UO folder (one a test
file)."""

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from pagekit import DATA, PAGE, SHOTS, call, cli


@pytest.fixture(scope="session")
def refs(tmp_path_factory):
    """The command line's tiles for each map compared, and the synthetic UO folder."""
    out = tmp_path_factory.mktemp("refs")
    uo = out / "uo"
    cli("uo", "synth", uo, "--facet", 0, "--width", 64, "--height", 64, "--art")
    size = ["--width", 64, "--height", 64]
    cli("uo", "tiles", uo, *size, "-o", out / "uo-flat")
    cli("uo", "tiles", uo, *size, "--style", "world", "-o", out / "uo-world")
    cli("cosmo", "tiles", DATA / "cosmo", "A1.MNI", "-o", out / "cosmo-A1")
    cli("cosmo", "tiles", DATA / "cosmo", "A1.MNI", "--actors", "--backdrop",
        "-o", out / "cosmo-A1-layers")
    cli("wwd", "tiles", DATA / "wwd" / "RETAIL01.WWD", "-o", out / "wwd-RETAIL01")
    # The demo's synthetic level with its archive (SYNTH01.WWD, SYNTH.REZ).
    cli("demo", "--out", out / "demo")
    demo = out / "demo"
    cli("wwd", "tiles", demo / "SYNTH01.WWD", "--rez", demo / "SYNTH.REZ", "-o", out / "wwd-synth")
    cli("wwd", "tiles", demo / "SYNTH01.WWD", "--rez", demo / "SYNTH.REZ", "--markers",
        "--time", 700, "-o", out / "wwd-synth-markers")
    return out


@pytest.fixture(scope="module")
def page(refs):
    assert PAGE.is_file(), f"{PAGE} is missing: run bash web/build.sh"
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                "--window-size=1400,900"]:
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(600)
    driver.get(PAGE.as_uri())
    call(driver, "return await window.gamedata.ready;")
    # Single files, then two folders, as a person chooses them.
    driver.find_element(By.ID, "open-files").send_keys(
        "\n".join(str(DATA / "cosmo" / n) for n in ["COSMO1.STN", "COSMO1.VOL", "file_id.diz"]))
    call(driver, "return await window.gamedata.maps();")
    driver.find_element(By.ID, "open-folder").send_keys(str(DATA / "wwd"))
    call(driver, "return await window.gamedata.maps();")
    driver.find_element(By.ID, "open-folder").send_keys(str(refs / "uo"))
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()
