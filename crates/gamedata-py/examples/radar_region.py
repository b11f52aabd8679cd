"""A region of a facet's radar map, drawn as the client draws it, saved as a PNG.

usage: python radar_region.py CLIENT_DIR OUT.png [X Y WIDTH HEIGHT] [--scale N]
"""

import argparse

from PIL import Image

from gamedata import uo

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("dir", help="client folder (map0.mul, statics0.mul, radarcol.mul ...)")
parser.add_argument("out", help="the PNG to write")
parser.add_argument("region", nargs="*", type=int, default=[0, 0, 1024, 1024])
parser.add_argument("--scale", type=int, default=1, help="tiles a pixel along each side")
parser.add_argument("--style", default="client", choices=["flat", "client", "altitude"])
args = parser.parse_args()

facet = uo.Facet.map(args.dir)  # mapped: nothing is read but the blocks drawn
rgba = facet.radar(scale=args.scale, region=tuple(args.region), style=args.style)
Image.fromarray(rgba, "RGBA").save(args.out)
print(f"{args.out}: {rgba.shape[1]} x {rgba.shape[0]} pixels of facet {facet}")
