"""WWD levels of Claw and Gruntz (wap-core). Units: tiles for grids, pixels for positions."""

import os
from typing import Any, final

import numpy as np
import numpy.typing as npt

__all__ = ["Level", "OBJECT", "Plane"]

OBJECT: np.dtype[np.void]

@final
class Level:
    """A level, its main block decompressed once; arrays keep it alive."""

    @staticmethod
    def open(path: str | os.PathLike[str], code_page: str = "cp1252") -> Level:
        """Raises FileNotFoundError, IsADirectoryError, gamedata.FormatError."""
    @staticmethod
    def map(path: str | os.PathLike[str], code_page: str = "cp1252") -> Level: ...
    @property
    def name(self) -> str: ...
    @property
    def header(self) -> dict[str, Any]: ...
    @property
    def planes(self) -> list[Plane]: ...
    def attribute_at(self, x: int, y: int) -> int:
        """Attribute value at pixel (x, y) of the main plane; IndexError outside."""
    def collision(self, tile_px: int | None = None) -> npt.NDArray[np.uint8]:
        """(h, w, 4) RGBA collision map of the main plane."""
    def render(
        self,
        rez: str | os.PathLike[str],
        view: tuple[int, int] | None = None,
        size: tuple[int, int] | None = None,
        tile_px: int | None = None,
        markers: bool = False,
        time: int | None = None,
    ) -> npt.NDArray[np.uint8]:
        """(h, w, 4) RGBA picture of the level as the game draws it, as `gamedata wwd
        render --rez`; with view=(x, y) the screen at that camera position; with time=MS
        each animated object at its animation's frame then. Raises ValueError, OSError,
        gamedata.FormatError."""
    def to_tmx(
        self,
        path: str | os.PathLike[str],
        rez: str | os.PathLike[str] | None = None,
        images: str | os.PathLike[str] | None = None,
    ) -> dict[str, Any]:
        """Export to a Tiled map (TMX, or TMJ for a .tmj or .json name) with its images
        in NAME_images beside it, as `gamedata wwd tmx`; the images from rez= (an archive)
        or images= (a folder). Returns {tmx, format, width, height, layers, objects,
        objects_drawn, tilesets, images, missing_images}. Raises ValueError, OSError,
        gamedata.FormatError."""
    def _span(self) -> tuple[int, int]: ...

@final
class Plane:
    @property
    def level(self) -> Level: ...
    @property
    def index(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def is_main(self) -> bool: ...
    @property
    def z(self) -> int: ...
    @property
    def tile_size(self) -> tuple[int, int]: ...
    @property
    def tiles(self) -> npt.NDArray[np.uint32]:
        """(height, width) view of the decompressed main block."""
    @property
    def objects(self) -> npt.NDArray[np.void]:
        """(n,) of OBJECT: the fixed parts, copied."""
    @property
    def names(self) -> dict[str, list[bytes]]: ...
    @property
    def text(self) -> dict[str, list[str]]: ...
