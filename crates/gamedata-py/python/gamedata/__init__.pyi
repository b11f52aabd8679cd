import os
from typing import Literal

import numpy as np
import numpy.typing as npt

from . import cosmo as cosmo
from . import uo as uo
from . import wwd as wwd

class FormatError(ValueError):
    """Bytes the format does not allow, or a value no file could make right (a map size
    of 0). The message is the command line's sentence."""

    kind: str
    """The Rust error's variant ("MapLength", "Signature", "EntryNotFound" ...); for an
    argument or a write error, its problem's ("Dimensions", "TooManyEntries")."""
    category: Literal["data", "limit", "argument", "write"]
    """The error's family: bad bytes ("data"), a size past a limit ("limit"), a value no
    file could make right ("argument"), a value the format cannot store ("write")."""
    file: str | None
    """The file's name when known."""
    numbers: dict[str, int]
    """The error's numbers (offsets, counts, found ...), from its structured fields; each
    is also an attribute."""
    entry: str | None
    """The entry of a file of entries (a Cosmo group file's), when known; else None."""
    def __getattr__(self, name: str) -> int: ...

def write_png(
    path: str | os.PathLike[str],
    pixels: npt.NDArray[np.uint8],
    compression: Literal["fast", "default", "best"] = "fast",
) -> int:
    """Writes an ``(h, w, 4)`` uint8 RGBA array as a PNG, whole or not at all; its rows are
    filtered and deflated in parallel. ``compression``: "fast" (the default), "default" or
    "best"; the pixels are the same at every level. Returns the bytes written."""

__all__ = ["FormatError", "cosmo", "uo", "wwd", "write_png"]
