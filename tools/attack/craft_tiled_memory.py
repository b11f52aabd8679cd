"""The four memory attacks on the Tiled import (issue 56), at a scale: python3 craft_tiled_memory.py SCALE OUTDIR."""
import json, sys, os
scale = int(sys.argv[1]); out = sys.argv[2]; os.makedirs(out, exist_ok=True)
seed = os.path.join(os.path.dirname(__file__), '../../fuzz/seeds/') + 'tiled_from_tmx/synthetic_8x6.tmx'
tmx = open(seed).read()
tmj = json.load(open(os.path.join(os.path.dirname(__file__), '../../fuzz/seeds/') + 'tiled_from_tmj/synthetic_8x6.tmj'))
# 1. Empty elements inside a layer (kept as its tree): 4 MB a scale.
n = 1_000_000 * scale
layer = '<layer id="1" name="Background"'
at = tmx.index('>', tmx.index(layer)) + 1
open(f'{out}/elements.tmx', 'w').write(tmx[:at] + '<x>' + '<x/>' * n + '</x>' + tmx[at:])
# 2. A TMJ list of zeros: the map's properties, 2 MB a scale.
m = dict(tmj)
m['properties'] = tmj['properties'] + [0] * (1_000_000 * scale)
s = json.dumps(m, separators=(',', ':'))
open(f'{out}/zeros.tmj', 'w').write(s)
# 3. A plane declaring 8192 x 8192 tiles (scale 1: 2592 x 2592, a tenth of the tiles).
side = 8192 if scale >= 10 else 2592
big = tmx.replace('name="wwd_tiles_wide" type="int" value="8"', f'name="wwd_tiles_wide" type="int" value="{side}"', 1)
big = big.replace('name="wwd_tiles_high" type="int" value="8"', f'name="wwd_tiles_high" type="int" value="{side}"', 1)
assert big != tmx
open(f'{out}/declared.tmx', 'w').write(big)
# 4. wwd_tiles of many values on the 8 x 8 background: 24 MB a scale.
vals = ','.join(['0'] * (12_000_000 * scale))
t = tmx.replace('<property name="wwd_tiles_wide"', f'<property name="wwd_tiles" value="{vals}"/>\n   <property name="wwd_tiles_wide"', 1)
open(f'{out}/wwd_tiles.tmx', 'w').write(t)
