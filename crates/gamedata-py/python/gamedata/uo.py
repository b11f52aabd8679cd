"""Ultima Online world files (the Rust crate mul-core): a facet's map, statics and index as
numpy views; land, queries and radar pictures. Formats: docs/formats/uo.md."""

from ._dtypes import FOUND, INDEX, MAP_BLOCK, MAP_CELL, STATIC7, STATIC11
from ._gamedata import uo as _native

Facet = _native.Facet

__all__ = ["Facet", "FOUND", "INDEX", "MAP_BLOCK", "MAP_CELL", "STATIC7", "STATIC11"]
