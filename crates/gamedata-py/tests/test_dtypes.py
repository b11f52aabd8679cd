"""The numpy dtypes against the Rust records the readers cast in place: every dtype's
itemsize is the size of its record (the native module's RECORD_SIZES, from `size_of`), so
that a dtype cannot drift from the record it views."""

import numpy as np

import gamedata
from gamedata import _dtypes, _gamedata


def test_every_dtype_is_its_records_size():
    sizes = _gamedata.RECORD_SIZES
    dtypes = {
        name: value
        for name, value in vars(_dtypes).items()
        if isinstance(value, np.dtype) and not name.startswith("_")
    }
    # Each public dtype has its Rust record, and each record its dtype.
    assert sorted(dtypes) == sorted(sizes)
    for name, dtype in dtypes.items():
        assert dtype.itemsize == sizes[name], name


def test_the_modules_export_the_same_dtypes():
    assert gamedata.uo.MAP_BLOCK is _dtypes.MAP_BLOCK
    assert gamedata.wwd.OBJECT is _dtypes.OBJECT
    assert gamedata.cosmo.ACTOR is _dtypes.ACTOR
