"""Shared fixtures: the command-line tool (built from this workspace), its --json output,
the synthetic files `gamedata demo` writes, and the real files under GAMEDATA_DIR."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


def pytest_report_header(config):
    """Where `gamedata` was imported from: an installed wheel, or the source tree."""
    import gamedata

    return f"gamedata: {gamedata.__file__}"


def pytest_sessionstart(session):
    """With GAMEDATA_EXPECT_INSTALLED set (CI, after installing the wheel), the package under
    test must be the installed one, in the interpreter's site-packages, not the source tree
    (`crates/gamedata-py/python`, which `maturin develop` links)."""
    if not os.environ.get("GAMEDATA_EXPECT_INSTALLED"):
        return
    import sysconfig

    import gamedata

    where = pathlib.Path(gamedata.__file__).resolve()
    site = {pathlib.Path(sysconfig.get_paths()[k]).resolve() for k in ("purelib", "platlib")}
    if not any(where.is_relative_to(s) for s in site):
        raise pytest.UsageError(
            f"gamedata was imported from {where}, not from site-packages ({', '.join(map(str, sorted(site)))})"
        )


@pytest.fixture(scope="session")
def cli():
    """A function running `gamedata --json ARGS...` and returning its parsed document."""
    exe = os.environ.get("GAMEDATA_CLI")
    if not exe:
        subprocess.run(
            ["cargo", "build", "--quiet", "--release", "-p", "gamedata-cli"],
            cwd=ROOT,
            check=True,
        )
        exe = str(ROOT / "target" / "release" / "gamedata")

    def run(*args):
        out = subprocess.run(
            [exe, "--json", *map(str, args)], check=True, capture_output=True, text=True
        )
        return json.loads(out.stdout)

    run.exe = exe
    return run


@pytest.fixture(scope="session")
def demo(cli, tmp_path_factory):
    """The folder `gamedata demo` wrote: a full-size synthetic facet 0 in uo/, SYNTH01.WWD,
    COSMO1.STN and COSMO1.VOL."""
    out = tmp_path_factory.mktemp("demo")
    subprocess.run([cli.exe, "demo", "--out", str(out)], check=True, capture_output=True)
    return out


@pytest.fixture(scope="session")
def real():
    """The real game files (GAMEDATA_DIR); the tests that need them are skipped without."""
    path = os.environ.get("GAMEDATA_DIR")
    if not path or not (pathlib.Path(path) / "cosmo" / "COSMO1.STN").is_file():
        pytest.skip("GAMEDATA_DIR does not point at the real game files")
    return pathlib.Path(path)


def base_chain(array):
    """The objects of `array`'s base chain, the array first."""
    chain = [array]
    while getattr(chain[-1], "base", None) is not None:
        chain.append(chain[-1].base)
    return chain


def inside(array, span):
    """Whether every byte of `array` lies inside the memory `span` (address, length)."""
    start = array.__array_interface__["data"][0]
    address, length = span
    return address <= start and start + array.nbytes <= address + length
