"""Ultima Online world files (the Rust crate mul-core): a facet's map, statics and index as
numpy views; land, queries and radar pictures. Formats: docs/formats/uo.md."""

from ._dtypes import (
    FOUND,
    INDEX,
    ITEM_HS,
    ITEM_OLD,
    LAND_HS,
    LAND_OLD,
    MAP_BLOCK,
    MAP_CELL,
    STATIC7,
    STATIC11,
)
from ._gamedata import uo as _native

Animations = _native.Animations
Art = _native.Art
Facet = _native.Facet
Gumps = _native.Gumps
TileData = _native.TileData
Texmaps = _native.Texmaps
UopAnimations = _native.UopAnimations

#: (x, y, width, height) in tiles, as Facet.radar and Facet.find take a region.
Region = tuple[int, int, int, int]

__all__ = [
    "Animations",
    "Art",
    "FOUND",
    "Facet",
    "Gumps",
    "INDEX",
    "ITEM_HS",
    "ITEM_OLD",
    "LAND_HS",
    "LAND_OLD",
    "MAP_BLOCK",
    "MAP_CELL",
    "STATIC7",
    "STATIC11",
    "Texmaps",
    "TileData",
    "UopAnimations",
]
