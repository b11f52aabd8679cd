#!/usr/bin/env python3
"""Attack inputs (issue 56, round 1) for `gamedata wwd from-tmx MAP -o OUT.wwd`.

    craft_tiled_attack.py CASE OUT SCALE

Cases:
  inherit   a tile (of the tileset of tile objects) whose wwd_image_set and wwd_animation
            are 20,000 x SCALE bytes each; 200 x SCALE tile objects of it (~30 bytes
            each): every object copies both values (input ~ SCALE, memory ~ SCALE^2).
  children  one tile layer holding 1,000,000 x SCALE empty unknown children <a/> (4 bytes
            each): the layer's element is built whole before it is read.
  mapprops  the map's <properties> padded with 1,000,000 x SCALE empty <a/> children
            (held until the end).
  tmjsets   TMJ: "tilesets": [{},{},...] 1,000,000 x SCALE (3 bytes each), parsed into
            typed tilesets before anything is counted.
  tmjprops  TMJ: a layer's "properties": [{},{},...] 1,000,000 x SCALE.
  tmjcell   TMJ: a layer's data whose first cell is an array of 1,000,000 x SCALE zeros.
"""
import json, os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools", "attack"))
import craft_tiled as ct

def inherit(out, scale):
    big = "A" * (20_000 * scale)
    count = 200 * scale
    out.write('<?xml version="1.0"?>\n<map width="1" height="1">\n')
    out.write(ct.header())
    out.write(' <tileset firstgid="1" name="objects" tilecount="1" objectalignment="topleft">\n'
              '  <tile id="0">\n   <properties>\n'
              '    <property name="wwd_logic" value="Soldier"/>\n'
              f'    <property name="wwd_image_set" value="{big}"/>\n'
              f'    <property name="wwd_animation" value="{big}"/>\n'
              '    <property name="wwd_offset_x" type="int" value="0"/>\n'
              '    <property name="wwd_offset_y" type="int" value="0"/>\n'
              '   </properties>\n   <image source="o.png" width="32" height="48"/>\n'
              '  </tile>\n </tileset>\n')
    out.write(ct.layer(1, 1, []))
    out.write('  <data encoding="csv">0</data>\n </layer>\n <objectgroup name="o">\n')
    for k in range(count):
        out.write(f'<object id="{k + 1}" gid="1"/>\n')
    out.write(" </objectgroup>\n</map>\n")

def children(out, scale):
    out.write('<?xml version="1.0"?>\n<map width="1" height="1">\n')
    out.write(ct.header())
    out.write(ct.layer(1, 1, []))
    out.write('  <data encoding="csv">0</data>\n')
    n = 1_000_000 * scale
    chunk = "<a/>" * 10_000
    for _ in range(n // 10_000):
        out.write(chunk)
    out.write('\n </layer>\n</map>\n')

def mapprops(out, scale):
    out.write('<?xml version="1.0"?>\n<map width="1" height="1">\n')
    out.write(ct.header())
    out.write(' <properties>')
    n = 1_000_000 * scale
    chunk = "<a/>" * 10_000
    for _ in range(n // 10_000):
        out.write(chunk)
    out.write('</properties>\n')
    out.write(ct.layer(1, 1, []))
    out.write('  <data encoding="csv">0</data>\n </layer>\n</map>\n')

def tmj_head(out):
    out.write('{"type":"map","width":1,"height":1,')

def tmjsets(out, scale):
    tmj_head(out)
    out.write('"tilesets":[')
    n = 1_000_000 * scale
    chunk = "{}," * 10_000
    for _ in range(n // 10_000):
        out.write(chunk)
    out.write('{}],"layers":[]}\n')

def tmjprops(out, scale):
    tmj_head(out)
    out.write('"layers":[{"type":"objectgroup","name":"o","properties":[')
    n = 1_000_000 * scale
    chunk = "{}," * 10_000
    for _ in range(n // 10_000):
        out.write(chunk)
    out.write('{}]}]}\n')

def tmjcell(out, scale):
    tmj_head(out)
    out.write('"layers":[{"type":"tilelayer","name":"t","data":[[')
    n = 1_000_000 * scale
    chunk = "0," * 10_000
    for _ in range(n // 10_000):
        out.write(chunk)
    out.write('0]]}]}\n')

def points(out, scale):
    """200,000 x SCALE points added in Tiled (34 bytes each): each held as a level object
    (its fixed fields and four byte strings) and a place, not counted against any limit."""
    out.write('<?xml version="1.0"?>\n<map width="1" height="1">\n')
    out.write(ct.header())
    out.write(ct.layer(1, 1, []))
    out.write('  <data encoding="csv">0</data>\n </layer>\n <objectgroup name="o">\n')
    one = '<object type="A"><point/></object>\n'
    for _ in range(200 * scale):
        out.write(one * 1000)
    out.write(" </objectgroup>\n</map>\n")

def dupsets(out, scale):
    """20,000 x SCALE tilesets all of first id 1 (and one at 0x1FFFFFF0 with tilecount
    2^32 - 1), all holding image set "S" under their own names, tile 0 wwd_tile 1; 200 x
    SCALE planes of 100 x 100 cells, each plane naming "S" among 50 image sets."""
    n = 20_000 * scale
    side = 100
    out.write(f'<?xml version="1.0"?>\n<map width="{side}" height="{side}">\n')
    out.write(ct.header())
    for k in range(n):
        out.write(f'<tileset firstgid="1" name="t{k}" tilecount="1"><properties>'
                  '<property name="wwd_image_set" value="S"/></properties>'
                  '<tile id="0"><properties><property name="wwd_tile" value="1"/>'
                  '</properties></tile></tileset>\n')
    out.write('<tileset firstgid="536870896" name="fill" tilecount="4294967295"/>\n')
    row = ",".join("1" if x % 3 else "536870900" for x in range(side))
    for p in range(200 * scale):
        sets = [f"X{j}" for j in range(49)] + ["S"]
        out.write(ct.layer(side, side, sets).replace('name="Action"', f'name="P{p}"'))
        out.write('  <data encoding="csv">\n')
        for _ in range(side):
            out.write(row + ",\n")
        out.write("  </data>\n </layer>\n")
    out.write("</map>\n")

def hexprops(out, scale):
    """A tile of 5,000 x SCALE properties named k and k_hex (both), 2,000 x SCALE tile
    objects of it, each with 20 properties of its own, half named as the tile's k, half
    as k_hex."""
    props = 5_000 * scale
    count = 2_000 * scale
    out.write('<?xml version="1.0"?>\n<map width="1" height="1">\n')
    out.write(ct.header())
    out.write(' <tileset firstgid="1" name="objects" tilecount="1" objectalignment="topleft">\n'
              '  <tile id="0">\n   <properties>\n'
              '    <property name="wwd_logic" value="Soldier"/>\n'
              '    <property name="wwd_logic_hex" value="41"/>\n'
              '    <property name="wwd_offset_x" type="int" value="0"/>\n'
              '    <property name="wwd_offset_y" type="int" value="0"/>\n')
    for k in range(props):
        out.write(f'<property name="wwd_p{k}" value="1"/><property name="wwd_p{k}_hex" value="41"/>\n')
    out.write('   </properties>\n   <image source="o.png" width="32" height="48"/>\n'
              '  </tile>\n </tileset>\n')
    out.write(ct.layer(1, 1, []))
    out.write('  <data encoding="csv">0</data>\n </layer>\n <objectgroup name="o">\n')
    own = "".join(f'<property name="wwd_p{j}{"_hex" if j % 2 else ""}" value="42"/>' for j in range(20))
    for k in range(count):
        out.write(f'<object id="{k + 1}" gid="1"><properties>{own}</properties></object>\n')
    out.write(" </objectgroup>\n</map>\n")

def wwdtiles(out, scale):
    """A plane of 1 x 1 tiles whose wwd_tiles holds 5,000,000 x SCALE values ("0,", 2
    bytes each): the values are all parsed into a list before its length is compared
    with the plane's 1 tile."""
    out.write('<?xml version="1.0"?>\n<map width="1" height="1">\n')
    out.write(ct.header())
    lay = ct.layer(1, 1, [])
    out.write(lay.replace("  </properties>\n", ""))
    out.write('   <property name="wwd_tiles" value="')
    chunk = "0," * 100_000
    for _ in range(50 * scale):
        out.write(chunk)
    out.write('0"/>\n  </properties>\n  <data encoding="csv">0</data>\n </layer>\n</map>\n')

def main():
    case, path, scale = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(path, "w", encoding="utf-8") as out:
        globals()[case](out, scale)

if __name__ == "__main__":
    main()

