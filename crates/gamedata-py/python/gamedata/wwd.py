"""WWD levels of the WAP32 engine, Claw (1997) and Gruntz (1999) (the Rust crate
wap-core): planes' tiles as numpy views, objects, attributes, collision maps.
Format: docs/formats/wwd.md."""

from ._dtypes import OBJECT
from ._gamedata import wwd as _native

Level = _native.Level
Plane = _native.Plane

__all__ = ["Level", "OBJECT", "Plane"]
