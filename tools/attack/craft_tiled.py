#!/usr/bin/env python3
"""Crafted TMX maps for the Tiled import's lookups (issue 56), for
`gamedata wwd from-tmx MAP -o OUT.wwd` under /usr/bin/time. `SCALE` multiplies both sides
of the attack (so the input grows about SCALE times).

    craft_tiled.py CASE OUT.tmx SCALE

Cases:
  tilesets  20,000 x SCALE fill tilesets (one tile each) under one main plane of
            1,000,000 x SCALE cells, almost all global id 1 (the first tileset): a scan
            of the tilesets by each cell costs cells x tilesets.
  objects   15,000 x SCALE tile objects added in Tiled, all of one tile that has
            15,000 x SCALE properties: a copy and sort of the tile's properties by each
            object costs objects x properties x log.
  names     10,000 x SCALE points added in Tiled in an object layer whose name is
            250,000 x SCALE bytes: an object that writes out its error name (the layer's)
            costs objects x name.
  seed      both, small (a fuzz seed under 64 KiB): 400 fill tilesets, given by
            descending first id, under 20 x 20 cells; 40 tile objects of a tile of 400
            properties, one with its own score and name in hex.
The map's header is that of the fuzz seed synthetic_8x6.tmx, so the maps read back whole.
"""

import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = os.path.join(HERE, "..", "..", "fuzz", "seeds", "tiled_from_tmx", "synthetic_8x6.tmx")


def header():
    text = open(SEED, encoding="utf-8").read()
    start = text.index(" <properties>")
    end = text.index(" </properties>") + len(" </properties>\n")
    return text[start:end]


def layer(wide, high, sets):
    ints = [("wwd_size", 160), ("wwd_flags", 1), ("wwd_tile_width", 64),
            ("wwd_tile_height", 64), ("wwd_tiles_wide", wide), ("wwd_tiles_high", high),
            ("wwd_image_set_count", len(sets))]
    ints += [("wwd_" + k, 0) for k in (
        "reserved1 reserved2 width_px height_px reserved3 reserved4 movement_x_percent "
        "movement_y_percent fill_color z reserved5 reserved6 reserved7").split()]
    out = [f' <layer name="Action" width="{wide}" height="{high}">\n  <properties>\n']
    out += [f'   <property name="{k}" type="int" value="{v}"/>\n' for k, v in ints]
    out.append('   <property name="wwd_name" value="Action"/>\n')
    out += [f'   <property name="wwd_image_set{n + 1}" value="{s}"/>\n'
            for n, s in enumerate(sets)]
    out.append("  </properties>\n")
    return "".join(out)


def tilesets(out, scale):
    count = 20_000 * scale
    side = math.isqrt(1_000_000 * scale)
    out.write(f'<?xml version="1.0"?>\n<map width="{side}" height="{side}">\n')
    out.write(header())
    for k in range(count):
        out.write(f' <tileset firstgid="{k + 1}" name="fill" tilecount="1"/>\n')
    out.write(layer(side, side, []))
    out.write('  <data encoding="csv">\n')
    row = ",".join("1" if x % 100 else str(1 + (x * 7919) % count) for x in range(side))
    for _ in range(side):
        out.write(row + ",\n")
    out.write("  </data>\n </layer>\n</map>\n")


def objects(out, scale):
    count = 15_000 * scale
    props = 15_000 * scale
    out.write('<?xml version="1.0"?>\n<map width="1" height="1">\n')
    out.write(header())
    out.write(' <tileset firstgid="1" name="objects" tilecount="1" objectalignment="topleft">\n'
              '  <tile id="0">\n   <properties>\n'
              '    <property name="wwd_logic" value="Soldier"/>\n'
              '    <property name="wwd_offset_x" type="int" value="0"/>\n'
              '    <property name="wwd_offset_y" type="int" value="0"/>\n')
    for k in range(props):
        out.write(f'<property name="p{k}"/>\n')
    out.write('   </properties>\n   <image source="o.png" width="32" height="48"/>\n'
              '  </tile>\n </tileset>\n')
    out.write(layer(1, 1, []))
    out.write('  <data encoding="csv">0</data>\n </layer>\n <objectgroup name="o">\n')
    for k in range(count):
        out.write(f'<object id="{k + 1}" gid="1"/>\n')
    out.write(" </objectgroup>\n</map>\n")


def names(out, scale):
    out.write('<?xml version="1.0"?>\n<map width="1" height="1">\n')
    out.write(header())
    out.write(layer(1, 1, []))
    out.write('  <data encoding="csv">0</data>\n </layer>\n')
    out.write(' <objectgroup name="%s">\n' % ("n" * (250_000 * scale)))
    for k in range(10_000 * scale):
        out.write(f'<object id="{k + 1}" type="A"><point/></object>\n')
    out.write(" </objectgroup>\n</map>\n")


def seed(out, _scale):
    fills, side = 400, 20
    out.write(f'<?xml version="1.0"?>\n<map width="{side}" height="{side}">\n')
    out.write(header())
    for k in reversed(range(fills)):
        out.write(f'<tileset firstgid="{k + 2}" name="fill" tilecount="1"/>\n')
    out.write('<tileset firstgid="1" name="objects" tilecount="1" objectalignment="topleft">'
              '<tile id="0"><properties>'
              '<property name="wwd_logic" value="Soldier"/>'
              '<property name="wwd_offset_x" type="int" value="3"/>'
              '<property name="wwd_offset_y" type="int" value="-2"/>'
              '<property name="wwd_score" type="int" value="7"/>\n')
    for k in range(400):
        out.write(f'<property name="p{k}"/>\n')
    out.write('</properties><image source="o.png" width="32" height="48"/></tile></tileset>\n')
    out.write(layer(side, side, []))
    out.write('  <data encoding="csv">\n')
    out.write(",".join(str(2 + (k * 7) % fills) for k in range(side * side)))
    out.write("\n  </data>\n </layer>\n <objectgroup name=\"o\">\n")
    for k in range(40):
        out.write(f'<object id="{k + 1}" gid="1" x="{k * 5}" y="9"')
        if k == 1:
            out.write('><properties><property name="wwd_score" type="int" value="9"/>'
                      '<property name="wwd_name_hex" value="4142"/></properties></object>\n')
        else:
            out.write('/>\n')
    out.write(" </objectgroup>\n</map>\n")


def main():
    case, path, scale = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(path, "w", encoding="utf-8") as out:
        {"tilesets": tilesets, "objects": objects, "names": names, "seed": seed}[case](out, scale)


if __name__ == "__main__":
    main()
