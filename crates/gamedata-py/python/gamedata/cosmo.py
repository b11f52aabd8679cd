"""Cosmo's Cosmic Adventure episodes (the Rust crate mni-core): a level's cells and actors
as numpy views, tile attributes, rendered levels. Format: docs/formats/cosmo.md."""

from ._dtypes import ACTOR
from ._gamedata import cosmo as _native

Episode = _native.Episode
Level = _native.Level

__all__ = ["ACTOR", "Episode", "Level"]
