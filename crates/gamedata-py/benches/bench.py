"""Side-by-side timings of the Python package, measured in one run (the "Python" table
of benches/README.md comes from this script).

usage: python bench.py FACET_DIR [GAMEDATA_EXE]

FACET_DIR holds a full-size facet 0 (`gamedata uo synth DIR` or `gamedata demo`'s uo/).
Each figure is the best of several runs (seconds unless said); ratios are of two figures
taken in the same run.
"""

import subprocess
import sys
import time

import numpy as np

from gamedata import uo


def best(f, runs=5):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    folder = sys.argv[1]
    exe = sys.argv[2] if len(sys.argv) > 2 else "gamedata"

    def open_views():
        facet = uo.Facet.map(folder)
        return facet.blocks, facet.statics

    opened = best(open_views, 20)
    read = best(lambda: uo.Facet.open(folder).blocks, 3)
    print(f"Facet.map + blocks + statics views: {opened * 1e6:.0f} us")
    print(f"Facet.open (reads the files) + blocks: {read * 1e3:.0f} ms")

    facet = uo.Facet.map(folder)
    found = facet.find(flag="impassable")
    in_python = best(lambda: facet.find(flag="impassable"), 3)
    out = subprocess.run(
        [exe, "--json", "uo", "find", folder, "--flag", "impassable", "--count"],
        capture_output=True, text=True, check=True,
    )
    assert f'"count": {len(found)}' in out.stdout
    cmd = [exe, "uo", "find", folder, "--flag", "impassable", "--count"]
    as_process = best(lambda: subprocess.run(cmd, capture_output=True, check=True), 3)
    opened_find = best(lambda: uo.Facet.map(folder).find(flag="impassable"), 3)
    print(f"find(flag='impassable'), {len(found)} statics: {in_python * 1e3:.0f} ms "
          f"(with Facet.map: {opened_find * 1e3:.0f} ms); "
          f"`gamedata uo find --count` as a process: {as_process * 1e3:.0f} ms; "
          f"ratio {opened_find / as_process:.2f}")

    land = best(lambda: facet.land(), 3)
    width, height = facet.width, facet.height

    def plain():
        # The same bytes through numpy alone: the blocks' cells reordered to rows.
        raw = np.frombuffer(open_map(folder), dtype=uo.MAP_BLOCK)
        cells = raw["cells"].reshape(width // 8, height // 8, 8, 8)
        grid = cells.transpose(1, 2, 0, 3).reshape(height, width)
        return np.ascontiguousarray(grid["id"]), np.ascontiguousarray(grid["z"])

    numpy_only = best(plain, 3)
    ids, zs = facet.land()
    pids, pzs = plain()
    assert np.array_equal(ids, pids) and np.array_equal(zs, pzs)
    print(f"land(): {land * 1e3:.0f} ms; numpy reshape of the same bytes: "
          f"{numpy_only * 1e3:.0f} ms; ratio {land / numpy_only:.2f}")


_maps = {}


def open_map(folder):
    """The map file's bytes, memory-mapped once (as Facet.map has them)."""
    if folder not in _maps:
        _maps[folder] = np.memmap(f"{folder}/map0.mul", dtype=np.uint8, mode="r")
    return _maps[folder]


if __name__ == "__main__":
    main()
