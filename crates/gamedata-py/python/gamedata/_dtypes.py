"""The structured numpy dtypes of the records the readers view in place.

Every field is little-endian and packed (no alignment padding), as the files store them.
Sources: docs/formats/uo.md, wwd.md and cosmo.md of the repository.
"""

import numpy as np

# Ultima Online (mul-core)

#: One map cell: land tile id and altitude (docs/formats/uo.md, "Map").
MAP_CELL = np.dtype([("id", "<u2"), ("z", "i1")])
#: One map block of 8 x 8 cells, row-major inside the block (196 bytes).
MAP_BLOCK = np.dtype([("header", "<u4"), ("cells", MAP_CELL, (64,))])
#: One static record of a released client (7 bytes).
STATIC7 = np.dtype([("id", "<u2"), ("x", "u1"), ("y", "u1"), ("z", "i1"), ("hue", "<u2")])
#: One static record of the pre-alpha client (11 bytes): a serial, then the 7 bytes.
STATIC11 = np.dtype(
    [("serial", "<u4"), ("id", "<u2"), ("x", "u1"), ("y", "u1"), ("z", "i1"), ("hue", "<u2")]
)
#: One statics index record (12 bytes): byte offset into statics, byte length, extra.
INDEX = np.dtype([("offset", "<u4"), ("length", "<u4"), ("extra", "<u4")])
#: A static found by Facet.find: its tile (x, y), altitude, item id and hue (13 bytes).
FOUND = np.dtype([("x", "<u4"), ("y", "<u4"), ("z", "i1"), ("id", "<u2"), ("hue", "<u2")])

# WWD levels (wap-core)

_RECT = [("left", "<i4"), ("top", "<i4"), ("right", "<i4"), ("bottom", "<i4")]
#: The fixed part of a WWD object record (the numbers before its four names;
#: docs/formats/wwd.md, "Objects").
OBJECT = np.dtype(
    [
        ("id", "<i4"),
        ("name_len", "<u4"),
        ("logic_len", "<u4"),
        ("image_set_len", "<u4"),
        ("animation_len", "<u4"),
        ("x", "<i4"),
        ("y", "<i4"),
        ("z", "<i4"),
        ("i", "<i4"),
        ("add_flags", "<u4"),
        ("dynamic_flags", "<u4"),
        ("draw_flags", "<u4"),
        ("user_flags", "<u4"),
        ("score", "<i4"),
        ("points", "<i4"),
        ("powerup", "<i4"),
        ("damage", "<i4"),
        ("smarts", "<i4"),
        ("health", "<i4"),
        ("move_rect", _RECT),
        ("hit_rect", _RECT),
        ("attack_rect", _RECT),
        ("clip_rect", _RECT),
        ("user_rects", _RECT, (2,)),
        ("user_values", "<i4", (8,)),
        ("min_x", "<i4"),
        ("min_y", "<i4"),
        ("max_x", "<i4"),
        ("max_y", "<i4"),
        ("speed_x", "<i4"),
        ("speed_y", "<i4"),
        ("tweak_x", "<i4"),
        ("tweak_y", "<i4"),
        ("counter", "<i4"),
        ("speed", "<i4"),
        ("width", "<i4"),
        ("height", "<i4"),
        ("direction", "<i4"),
        ("face_dir", "<i4"),
        ("time_delay", "<i4"),
        ("frame_delay", "<i4"),
        ("object_type", "<u4"),
        ("hit_type_flags", "<u4"),
        ("move_res_x", "<u4"),
        ("move_res_y", "<u4"),
    ]
)

# Cosmo's Cosmic Adventure (mni-core)

#: One actor record of a map: its type and cell (docs/formats/cosmo.md, "Maps").
ACTOR = np.dtype([("type", "<u2"), ("x", "<u2"), ("y", "<u2")])

# tiledata.mul (mul-core): records in groups of 32 after a 4-byte header
# (docs/formats/uo.md, "tiledata").


def _land(flags):
    return np.dtype([("flags", flags), ("texture", "<u2"), ("name", "S20")])


def _item(flags):
    return np.dtype(
        [
            ("flags", flags),
            ("weight", "u1"),
            ("quality", "u1"),
            ("misc", "<u2"),
            ("unknown2", "u1"),
            ("quantity", "u1"),
            ("animation", "<u2"),
            ("unknown3", "u1"),
            ("hue", "u1"),
            ("stacking_offset", "<u2"),
            ("height", "u1"),
            ("name", "S20"),
        ]
    )


def _group(record):
    return np.dtype([("header", "<u4"), ("entries", record, (32,))])


#: A land record with 32-bit flags (before High Seas): 26 bytes.
LAND_OLD = _land("<u4")
#: A land record with 64-bit flags (High Seas and later): 30 bytes.
LAND_HS = _land("<u8")
#: An item record with 32-bit flags: 37 bytes.
ITEM_OLD = _item("<u4")
#: An item record with 64-bit flags: 41 bytes.
ITEM_HS = _item("<u8")
LAND_GROUP_OLD = _group(LAND_OLD)
LAND_GROUP_HS = _group(LAND_HS)
ITEM_GROUP_OLD = _group(ITEM_OLD)
ITEM_GROUP_HS = _group(ITEM_HS)
