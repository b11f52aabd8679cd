"""Cosmo's Cosmic Adventure episodes (mni-core). Units: cells (8 x 8 pixels) for grids."""

import os
from typing import final

import numpy as np
import numpy.typing as npt

__all__ = ["ACTOR", "Episode", "Level"]

ACTOR: np.dtype[np.void]

@final
class Episode:
    """COSMOn.STN and COSMOn.VOL, read or mapped; arrays keep them alive."""

    @staticmethod
    def open(dir: str | os.PathLike[str], episode: int = 1) -> Episode:
        """Raises FileNotFoundError, gamedata.FormatError."""
    @staticmethod
    def map(dir: str | os.PathLike[str], episode: int = 1) -> Episode: ...
    @property
    def level_names(self) -> list[str]: ...
    def level(self, name: str) -> Level: ...
    @property
    def tile_attributes(self) -> npt.NDArray[np.uint8]:
        """TILEATTR.MNI's bytes, a view."""
    def render(self, name: str, actors: bool = True, backdrop: bool = True) -> npt.NDArray[np.uint8]:
        """(height * 8, width * 8, 4) RGBA."""
    def _span(self, name: str) -> tuple[int, int]: ...

@final
class Level:
    @property
    def name(self) -> str: ...
    @property
    def episode(self) -> Episode: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def backdrop(self) -> int: ...
    @property
    def cells_raw(self) -> npt.NDArray[np.uint16]:
        """(32764,) view of the stored cells."""
    @property
    def cells(self) -> npt.NDArray[np.uint16]:
        """(height, width) copy; the 4 unstored cells are 0."""
    @property
    def actors(self) -> npt.NDArray[np.void]:
        """(n,) of ACTOR {type, x, y}: a view."""
    def render(self, actors: bool = True, backdrop: bool = True) -> npt.NDArray[np.uint8]: ...
