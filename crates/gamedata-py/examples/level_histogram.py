"""Which tiles a Claw or Gruntz level's main plane uses most: a histogram of its tile grid,
read in place (the grid is a view of the level's bytes, never copied).

usage: python level_histogram.py LEVEL.WWD [TOP]
"""

import sys

import numpy as np

from gamedata import wwd

level = wwd.Level.open(sys.argv[1])
top = int(sys.argv[2]) if len(sys.argv) > 2 else 10
main = next(p for p in level.planes if p.is_main)
tiles = main.tiles  # (height, width) uint32, zero-copy
ids, counts = np.unique(tiles, return_counts=True)
print(f"{level.name}: plane {main.name!r}, {tiles.shape[1]} x {tiles.shape[0]} tiles")
for i in np.argsort(counts)[::-1][:top]:
    kind = {0xFFFFFFFF: "empty", 0xEEEEEEEE: "filled"}.get(int(ids[i]), f"tile {ids[i]}")
    print(f"  {kind:>12} {counts[i]:>8} ({100 * counts[i] / tiles.size:.1f} %)")
