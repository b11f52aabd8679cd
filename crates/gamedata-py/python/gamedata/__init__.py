"""Zero-copy readers of classic game data, as numpy views.

- ``gamedata.uo``: Ultima Online world files (the Rust crate mul-core).
- ``gamedata.wwd``: WWD levels of Claw and Gruntz (the Rust crate wap-core).
- ``gamedata.cosmo``: Cosmo's Cosmic Adventure episodes (the Rust crate mni-core).

Each class owns its files (read into memory, or memory-mapped with ``map``) and hands out
read-only numpy arrays over their bytes; an array's ``base`` is the owning object, so the
array keeps the files alive. Bad data raises :class:`FormatError` (a ``ValueError``); a
file that cannot be had raises the matching ``OSError`` (``FileNotFoundError`` ...).
:func:`write_png` writes a picture array (what the renders return) as a PNG.
"""

from ._gamedata import FormatError, write_png
from . import cosmo, uo, wwd

__all__ = ["FormatError", "cosmo", "uo", "wwd", "write_png"]
