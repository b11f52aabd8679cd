"""Loads every Tiled export in a folder with pytmx, and checks each TMJ against its TMX.

    python3 tiled_pytmx.py DIR

For each NAME.tmx in DIR (what `gamedata wwd tmx` writes): pytmx (an independent reader,
PyPI's pytmx) loads it with the images' paths, as a game would, and its layers, objects
and properties are counted; each object's custom properties must hold its level fields
(`wwd_x`, `wwd_y`, `wwd_logic` ...). For each NAME.tmj beside a NAME.tmx: the JSON is read
with Tiled's keys (https://doc.mapeditor.org/en/stable/reference/json-map-format/) and
must say what the TMX says (read here with Python's own XML parser): the map's size and
grid, the layers in order with their kind, name, visibility, parallax, cells and
properties, the objects with their ids, tiles, places, sizes and properties, the
tilesets with their first ids, images and tiles. A map of `gamedata cosmo tmx` (its
properties hold `cosmo_width`) is checked the same way for its actors' fields (`cosmo_x`
...), and its TMJ for its size, properties and actors (its backdrop is a tile layer there,
an image layer in the TMX). Prints one line of totals; exits 1 on the first difference.
"""

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytmx

MAP_KEYS = {"type", "version", "orientation", "renderorder", "width", "height",
            "tilewidth", "tileheight", "infinite", "nextlayerid", "nextobjectid",
            "layers", "tilesets"}
LAYER_KEYS = {"id", "name", "type", "visible", "opacity", "x", "y"}
TILE_LAYER_KEYS = {"width", "height", "data"}
OBJECT_KEYS = {"id", "name", "type", "x", "y", "width", "height", "rotation", "visible"}
TILESET_KEYS = {"firstgid", "name", "tilewidth", "tileheight", "tilecount", "columns"}
OBJECT_FIELDS = {"wwd_plane", "wwd_order", "wwd_id", "wwd_x", "wwd_y", "wwd_z", "wwd_i",
                 "wwd_draw_flags", "wwd_move_rect", "wwd_user"}


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


def xml_properties(element):
    """The <properties> of an element as {name: (type, value)}, values as Tiled types."""
    out = {}
    props = element.find("properties")
    for p in props.findall("property") if props is not None else []:
        kind = p.get("type", "string")
        value = p.get("value")
        if kind == "int":
            value = int(value)
        elif kind == "float":
            value = float(value)
        elif kind == "bool":
            value = value == "true"
        out[p.get("name")] = (kind, value)
    return out


def json_properties(obj):
    return {p["name"]: (p["type"], p["value"]) for p in obj.get("properties", [])}


def check_keys(what, obj, keys):
    missing = keys - obj.keys()
    if missing:
        fail(f"{what}: no {sorted(missing)}")


def check_tmj(tmx_path, tmj_path):
    root = ET.parse(tmx_path).getroot()
    tmj = json.loads(tmj_path.read_text(encoding="utf-8"))
    check_keys(tmj_path.name, tmj, MAP_KEYS)
    if tmj["type"] != "map" or tmj["orientation"] != "orthogonal":
        fail(f"{tmj_path.name}: not an orthogonal map")
    for key in ("width", "height", "tilewidth", "tileheight", "nextlayerid", "nextobjectid"):
        if tmj[key] != int(root.get(key)):
            fail(f"{tmj_path.name}: {key} {tmj[key]}, the TMX says {root.get(key)}")
    if json_properties(tmj) != xml_properties(root):
        fail(f"{tmj_path.name}: the map's properties differ")
    tilesets = root.findall("tileset")
    if len(tilesets) != len(tmj["tilesets"]):
        fail(f"{tmj_path.name}: {len(tmj['tilesets'])} tilesets, the TMX has {len(tilesets)}")
    for x, j in zip(tilesets, tmj["tilesets"]):
        check_keys(f"{tmj_path.name} tileset {j.get('name')}", j, TILESET_KEYS)
        for key in ("firstgid", "tilewidth", "tileheight", "tilecount", "columns"):
            if j[key] != int(x.get(key)):
                fail(f"{tmj_path.name}: tileset {j['name']}: {key} differs")
        image = x.find("image")
        if (image is None) != ("image" not in j) or (image is not None and image.get("source") != j["image"]):
            fail(f"{tmj_path.name}: tileset {j['name']}: the image differs")
        if x.get("objectalignment") != j.get("objectalignment"):
            fail(f"{tmj_path.name}: tileset {j['name']}: the alignment differs")
        tiles = x.findall("tile")
        if len(tiles) != len(j.get("tiles", [])):
            fail(f"{tmj_path.name}: tileset {j['name']}: the tiles differ")
        for xt, jt in zip(tiles, j.get("tiles", [])):
            ximage = xt.find("image")
            if int(xt.get("id")) != jt["id"] or xml_properties(xt) != json_properties(jt) \
                    or (ximage is not None and ximage.get("source") != jt.get("image")):
                fail(f"{tmj_path.name}: tileset {j['name']}: tile {jt['id']} differs")
    layers = [e for e in root if e.tag in ("layer", "objectgroup")]
    if len(layers) != len(tmj["layers"]):
        fail(f"{tmj_path.name}: {len(tmj['layers'])} layers, the TMX has {len(layers)}")
    objects = 0
    for x, j in zip(layers, tmj["layers"]):
        what = f"{tmj_path.name} layer {j.get('name')!r}"
        check_keys(what, j, LAYER_KEYS)
        kind = {"layer": "tilelayer", "objectgroup": "objectgroup"}[x.tag]
        if j["type"] != kind or j["name"] != x.get("name") or j["id"] != int(x.get("id")):
            fail(f"{what}: kind, name or id differ")
        if j["visible"] != (x.get("visible", "1") == "1"):
            fail(f"{what}: visibility differs")
        for axis in ("parallaxx", "parallaxy"):
            if float(j.get(axis, 1)) != float(x.get(axis, 1)):
                fail(f"{what}: {axis} differs")
        if json_properties(j) != xml_properties(x):
            fail(f"{what}: properties differ")
        if kind == "tilelayer":
            check_keys(what, j, TILE_LAYER_KEYS)
            cells = [int(c) for c in x.find("data").text.replace("\n", "").split(",")]
            if cells != j["data"]:
                fail(f"{what}: cells differ")
            continue
        if j.get("draworder") != "index" or x.get("draworder") != "index":
            fail(f"{what}: not drawn in index order")
        xo = x.findall("object")
        if len(xo) != len(j["objects"]):
            fail(f"{what}: object counts differ")
        for xe, je in zip(xo, j["objects"]):
            check_keys(f"{what} object {je.get('id')}", je, OBJECT_KEYS)
            same = (
                je["id"] == int(xe.get("id"))
                and je.get("gid") == (int(xe.get("gid")) if xe.get("gid") else None)
                and je.get("point", False) == (xe.find("point") is not None)
                and je["x"] == int(xe.get("x")) and je["y"] == int(xe.get("y"))
                and je["width"] == int(xe.get("width", 0))
                and je["height"] == int(xe.get("height", 0))
                and je["visible"] == (xe.get("visible", "1") == "1")
                and je["name"] == xe.get("name", "") and je["type"] == xe.get("type", "")
                and json_properties(je) == xml_properties(xe)
            )
            if not same:
                fail(f"{what}: object {je['id']} differs")
            objects += 1
    return objects


# What every actor of a Cosmo export keeps (`cosmo tmx`, docs/formats/tiled.md).
COSMO_OBJECT_FIELDS = {"cosmo_index", "cosmo_kind", "cosmo_stored_type", "cosmo_x"}


def check_cosmo_tmj(tmx_path, tmj_path):
    """A Cosmo export's TMJ: Tiled's keys, the TMX's size and properties, and its actors
    (the backdrop is an image layer in the TMX and a tile layer in the TMJ, since Tiled
    1.8.2's JSON reader drops an image layer's repeat)."""
    root = ET.parse(tmx_path).getroot()
    tmj = json.loads(tmj_path.read_text(encoding="utf-8"))
    check_keys(tmj_path.name, tmj, MAP_KEYS)
    for key in ("width", "height", "tilewidth", "tileheight"):
        if tmj[key] != int(root.get(key)):
            fail(f"{tmj_path.name}: {key} {tmj[key]}, the TMX says {root.get(key)}")
    if json_properties(tmj) != xml_properties(root):
        fail(f"{tmj_path.name}: the map's properties differ")
    xo = [o for g in root.findall("objectgroup") for o in g.findall("object")]
    jo = [o for layer in tmj["layers"] if layer["type"] == "objectgroup"
          for o in layer["objects"]]
    if len(xo) != len(jo):
        fail(f"{tmj_path.name}: {len(jo)} objects, the TMX has {len(xo)}")
    for xe, je in zip(xo, jo):
        check_keys(f"{tmj_path.name} object {je.get('id')}", je, OBJECT_KEYS)
        if je["x"] != int(xe.get("x")) or je["y"] != int(xe.get("y")) \
                or json_properties(je) != xml_properties(xe):
            fail(f"{tmj_path.name}: object {je['id']} differs")
    return len(jo)


def main():
    if len(sys.argv) != 2:
        fail(__doc__)
    folder = Path(sys.argv[1])
    maps = layers = objects = tmj_maps = tmj_objects = 0
    for path in sorted(folder.glob("*.tmx")):
        tiled = pytmx.TiledMap(str(path))
        maps += 1
        layers += len(tiled.layers)
        cosmo = "cosmo_width" in tiled.properties
        if not cosmo and "wwd_name" not in tiled.properties \
                and "wwd_name_hex" not in tiled.properties:
            fail(f"{path.name}: no wwd_name among the map's properties")
        fields = COSMO_OBJECT_FIELDS if cosmo else OBJECT_FIELDS
        for group in tiled.objectgroups:
            for obj in group:
                missing = fields - obj.properties.keys()
                if missing:
                    fail(f"{path.name}: object {obj.id} has no {sorted(missing)}")
                objects += 1
        tmj = path.with_suffix(".tmj")
        if tmj.exists():
            tmj_objects += check_cosmo_tmj(path, tmj) if cosmo else check_tmj(path, tmj)
            tmj_maps += 1
    if tmj_objects != objects and tmj_maps == maps:
        fail(f"pytmx read {objects} objects, the TMJ forms hold {tmj_objects}")
    version = ".".join(str(v) for v in getattr(pytmx, "__version__", ("?",)))
    print(f"pytmx {version}: "
          f"{maps} maps loaded ({layers} layers, {objects} objects); "
          f"{tmj_maps} TMJ forms say what their TMX says")


if __name__ == "__main__":
    main()
