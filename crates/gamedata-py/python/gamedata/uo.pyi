"""Ultima Online world files (mul-core). Units: tiles for x, y, width, height; blocks are
8 x 8 tiles, stored column-major."""

import os
from typing import Any, Literal, final

import numpy as np
import numpy.typing as npt

__all__ = ["Animations", "Art", "FOUND", "Facet", "Gumps", "INDEX", "ITEM_HS", "ITEM_OLD", "LAND_HS", "LAND_OLD", "MAP_BLOCK", "MAP_CELL", "STATIC7", "STATIC11", "Texmaps", "TileData", "UopAnimations"]

MAP_CELL: np.dtype[np.void]
MAP_BLOCK: np.dtype[np.void]
STATIC7: np.dtype[np.void]
STATIC11: np.dtype[np.void]
INDEX: np.dtype[np.void]
FOUND: np.dtype[np.void]
LAND_OLD: np.dtype[np.void]
LAND_HS: np.dtype[np.void]
ITEM_OLD: np.dtype[np.void]
ITEM_HS: np.dtype[np.void]

Region = tuple[int, int, int, int]
"""(x, y, width, height) in tiles."""

@final
class Facet:
    """One facet's files, read (`open`) or memory-mapped (`map`); the arrays it hands out
    are read-only views of them (or say they are copies) and keep them alive."""

    @staticmethod
    def open(
        dir: str | os.PathLike[str],
        facet: int = 0,
        size: tuple[int, int] | None = None,
        apply_diffs: bool = False,
    ) -> Facet:
        """Raises FileNotFoundError, NotADirectoryError, gamedata.FormatError."""
    @staticmethod
    def map(
        dir: str | os.PathLike[str],
        facet: int = 0,
        size: tuple[int, int] | None = None,
        apply_diffs: bool = False,
    ) -> Facet:
        """As open, memory-mapped: the files must not change while mapped."""
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def mapped(self) -> bool: ...
    @property
    def blocks(self) -> npt.NDArray[np.void]:
        """(blocks_x, blocks_y) of MAP_BLOCK; a view for a MUL map, a copy otherwise."""
    @property
    def statics(self) -> npt.NDArray[np.void]:
        """(n,) of STATIC7 or STATIC11: a view of the statics file."""
    @property
    def index(self) -> npt.NDArray[np.void]:
        """(blocks,) of INDEX: a view of the statics index."""
    def land(self) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.int8]]:
        """(height, width) ids and altitudes: one copy, made in parallel."""
    def tile(self, x: int, y: int) -> dict[str, Any]:
        """{x, y, land: {id, z}, statics: [{id, z, hue}], top_z}; IndexError outside."""
    def stats(self) -> dict[str, Any]:
        """As `gamedata uo stats --json`, without elapsed_ms."""
    def find(
        self, id: int | None = None, flag: str | None = None, region: Region | None = None
    ) -> npt.NDArray[np.void]:
        """(n,) of FOUND {x, y, z, id, hue}; ValueError for a bad flag or query."""
    def radar(
        self,
        scale: int = 1,
        region: Region | None = None,
        hillshade: bool = False,
        style: str = "flat",
        radarcol: str | os.PathLike[str] | None = None,
    ) -> npt.NDArray[np.uint8]:
        """(h, w, 4) RGBA; style "flat", "client" or "altitude"."""
    def render_world(
        self,
        view: tuple[int, int, int, int] | None = None,
        region: Region | None = None,
    ) -> npt.NDArray[np.uint8]:
        """(h, w, 4) RGBA: the world isometric as the client draws it. `view` is
        (sx, sy, width, height) in screen pixels, tile (x, y, z)'s land picture at
        ((x - y) * 22 - 22, (x + y) * 22 - 4 * z - 22); else the frame of `region` (tiles)
        or of the facet. Needs tiledata, hues and art in the folder (texture maps and
        verdata.mul used when there), loaded on the first call. ValueError for a view of no
        pixel or past 1 << 28 pixels, FileNotFoundError for a missing file."""
    def _span(self, name: str) -> tuple[int, int]: ...

@final
class Art:
    """art.mul and artidx.mul, or artLegacyMUL.uop, of a client folder (and its hues.mul for
    hue=): land tiles (0 to 0x3FFF) and items drawn as the client draws them."""

    @staticmethod
    def open(
        dir: str | os.PathLike[str], format: Literal["mul", "uop"] | None = None
    ) -> Art: ...
    @staticmethod
    def map(
        dir: str | os.PathLike[str], format: Literal["mul", "uop"] | None = None
    ) -> Art: ...
    @property
    def format(self) -> Literal["mul", "uop"]: ...
    def __len__(self) -> int: ...
    @property
    def item_count(self) -> int: ...
    def land(self, id: int, hue: int = 0) -> npt.NDArray[np.uint8] | None:
        """(44, 44, 4) RGBA, the diamond opaque; None for an empty entry."""
    def item(self, id: int, hue: int = 0) -> npt.NDArray[np.uint8] | None:
        """(h, w, 4) RGBA, pixels of value 0 transparent; None for no picture."""
    def land_pixels(self, id: int) -> npt.NDArray[np.uint16] | None:
        """The 1,012 raw pixels, a read-only view of the file; None for an empty entry."""

@final
class Gumps:
    """gumpart.mul and gumpidx.mul, or gumpartLegacyMUL.uop, of a client folder (and its
    hues.mul for hue=): gumps drawn as the client draws them."""

    @staticmethod
    def open(
        dir: str | os.PathLike[str], format: Literal["mul", "uop"] | None = None
    ) -> Gumps: ...
    @staticmethod
    def map(
        dir: str | os.PathLike[str], format: Literal["mul", "uop"] | None = None
    ) -> Gumps: ...
    @property
    def format(self) -> Literal["mul", "uop"]: ...
    def __len__(self) -> int: ...
    def gump(self, id: int, hue: int = 0) -> npt.NDArray[np.uint8] | None:
        """(h, w, 4) RGBA, colour 0 transparent; None for an empty entry."""
    def size(self, id: int) -> tuple[int, int] | None:
        """(width, height) in pixels; None for an empty entry."""

_AnimFile = Literal["anim", "anim2", "anim3", "anim4", "anim5"]
"""An animation file: anim.idx with anim.mul, or anim2 ... anim5."""

@final
class Animations:
    """anim.idx and anim.mul of a client folder, with anim2 to anim5 when both files of a
    pair are there (and its hues.mul for hue=): a body's frames drawn as the client draws
    them. Directions 0 to 4 are stored, 5 to 7 mirror 3 to 1. AnimationFrame*.uop:
    UopAnimations."""

    @staticmethod
    def open(dir: str | os.PathLike[str]) -> Animations: ...
    @staticmethod
    def map(dir: str | os.PathLike[str]) -> Animations: ...
    @property
    def files(self) -> list[_AnimFile]:
        """The files read, anim first."""
    def records(self, file: _AnimFile = "anim") -> int:
        """Records in the file's index."""
    def frames(
        self, body: int, action: int, direction: int, hue: int = 0, file: _AnimFile = "anim"
    ) -> list[npt.NDArray[np.uint8]]:
        """(h, w, 4) RGBA a frame, black drawn, uncovered pixels transparent; an empty frame
        (0, 0, 4); [] for no frames."""
    def frame_info(
        self, body: int, action: int, direction: int, file: _AnimFile = "anim"
    ) -> list[dict[str, int]]:
        """{"width", "height", "centre_x", "centre_y"} a frame, as frames() places them."""
    def palette(
        self, body: int, action: int, direction: int, file: _AnimFile = "anim"
    ) -> npt.NDArray[np.uint16] | None:
        """The 256 colours, a read-only <u2 view of the file; None for no frames."""

@final
class UopAnimations:
    """AnimationFrame1.uop to AnimationFrame10.uop of a client folder, with
    AnimationSequence.uop, mobtypes.txt and hues.mul when there: a body's action read as the
    client reads a body mobtypes.txt flags 0x10000 (the action through the sequence's
    replacements), palette colour 0 transparent, a missing frame empty."""

    @staticmethod
    def open(dir: str | os.PathLike[str]) -> UopAnimations: ...
    @staticmethod
    def map(dir: str | os.PathLike[str]) -> UopAnimations: ...
    @property
    def files(self) -> list[int]:
        """The AnimationFrame files read, by number (1 to 10)."""
    def entry_action(self, body: int, action: int) -> int:
        """The action whose entry is read (AnimationSequence.uop's replacement)."""
    def frames(
        self, body: int, action: int, direction: int, hue: int = 0
    ) -> list[npt.NDArray[np.uint8]]:
        """(h, w, 4) RGBA a frame, colour 0 and uncovered pixels transparent; an empty
        frame (0, 0, 4); [] when no file has the entry."""
    def frame_info(self, body: int, action: int, direction: int) -> list[dict[str, int]]:
        """{"width", "height", "centre_x", "centre_y"} a frame, as frames() places them."""

@final
class Texmaps:
    """texmaps.mul and texidx.mul of a client folder: texture maps of 64 x 64 or 128 x 128
    pixels, drawn as the client draws them (every pixel opaque)."""

    @staticmethod
    def open(dir: str | os.PathLike[str]) -> Texmaps: ...
    @staticmethod
    def map(dir: str | os.PathLike[str]) -> Texmaps: ...
    def __len__(self) -> int: ...
    def texmap(self, id: int) -> npt.NDArray[np.uint8] | None:
        """(h, w, 4) RGBA, alpha 255; None for an empty entry or an id past the index."""
    def pixels(self, id: int) -> npt.NDArray[np.uint16] | None:
        """(h, w) raw pixels, a read-only view of the file; None as for texmap."""

@final
class TileData:
    """tiledata.mul: land and item tables as (groups, 32) structured views."""

    @staticmethod
    def open(path: str | os.PathLike[str]) -> TileData: ...
    @staticmethod
    def map(path: str | os.PathLike[str]) -> TileData: ...
    @property
    def layout(self) -> str:
        """"old", "old_extended" or "high_seas"."""
    @property
    def tile_zero_first(self) -> bool: ...
    @property
    def item_count(self) -> int: ...
    @property
    def land(self) -> npt.NDArray[np.void]:
        """(512, 32) of LAND_OLD or LAND_HS: tile id at [id // 32, id % 32]."""
    @property
    def items(self) -> npt.NDArray[np.void]:
        """(item_count // 32, 32) of ITEM_OLD or ITEM_HS."""
    def land_tile(self, id: int) -> dict[str, Any]: ...
    def item_tile(self, id: int) -> dict[str, Any]: ...
    def _span(self) -> tuple[int, int]: ...
