//! `gamedata.uo.TileData`: tiledata.mul's land and item tables as numpy views.

use std::path::PathBuf;

use mul_core::raw::{GROUP_HEADER_LEN as HEADER, LAND_TILES, TILES_PER_GROUP as GROUP};
use mul_core::{TileData as TileDataView, TileDataFile, TileDataLayout, TileFlags};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::arrays;
use crate::errors::{data_error, reader_error};

/// tiledata.mul: the properties of every land and item tile, read into memory (`open`) or
/// memory-mapped (`map`). Its layout (32- or 64-bit flags, 16,384 to 65,536 items) comes
/// from its size. Source: docs/formats/uo.md, "tiledata".
#[pyclass(frozen, module = "gamedata.uo", name = "TileData")]
pub struct TileData {
    file: TileDataFile,
}

impl TileData {
    fn view(&self) -> PyResult<TileDataView<'_>> {
        self.file.view().map_err(|e| data_error(&e))
    }

    /// The table of `count` records of `record` bytes starting at `start`, as a `(groups,
    /// 32)` view of dtype `group`'s `entries`.
    fn table<'py>(
        slf: &Bound<'py, Self>,
        start: usize,
        count: usize,
        record: usize,
        group: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let groups = count / GROUP;
        let len = groups.saturating_mul(HEADER + GROUP * record);
        let data: &[u8] = slf.get().file.data();
        let bytes = data
            .get(start..start.saturating_add(len))
            .ok_or_else(|| pyo3::exceptions::PyValueError::new_err("tiledata.mul is too short"))?;
        let dtype = arrays::dtype(slf.py(), group)?;
        arrays::borrowed(slf.as_any(), bytes, &dtype, &[groups])?.get_item("entries")
    }
}

/// A tile as `gamedata uo tiledata --json` reports it: `{id, name, flags, height, weight}`,
/// the flags' names in lower case in bit order (height and weight `None` for land).
fn tile_report<'py>(
    py: Python<'py>,
    id: u16,
    name: &str,
    flags: TileFlags,
    height_weight: Option<(u8, u8)>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("id", id)?;
    d.set_item("name", name)?;
    let names: Vec<String> = flags.names().map(str::to_ascii_lowercase).collect();
    d.set_item("flags", names)?;
    d.set_item("height", height_weight.map(|(h, _)| h))?;
    d.set_item("weight", height_weight.map(|(_, w)| w))?;
    Ok(d)
}

#[pymethods]
impl TileData {
    /// Reads tiledata.mul at `path`. Raises `FileNotFoundError` for a missing file,
    /// `gamedata.FormatError` (kind "TileDataLength") for a size of no known layout.
    #[staticmethod]
    fn open(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let file = py
            .detach(|| mul_core::TileDataFile::open(&path))
            .map_err(reader_error)?;
        Ok(TileData { file })
    }

    /// As `open`, but memory-maps the file, which must not be changed or truncated while
    /// mapped.
    #[staticmethod]
    fn map(path: PathBuf) -> PyResult<Self> {
        #[allow(unsafe_code)]
        // SAFETY: mul-core's mapping entry point asks that nothing modify or truncate the
        // file while it is mapped; this method's docstring and the package's README pass
        // that contract on to the Python caller, as the command line does to its user.
        let file = unsafe { mul_core::TileDataFile::map(&path) };
        Ok(TileData {
            file: file.map_err(reader_error)?,
        })
    }

    /// The layout: "old" (32-bit flags, 16,384 items), "old_extended" (32-bit flags,
    /// 32,768 items) or "high_seas" (64-bit flags, 65,536 items).
    #[getter]
    fn layout(&self) -> PyResult<&'static str> {
        Ok(match self.view()?.layout() {
            TileDataLayout::HighSeas => "high_seas",
            TileDataLayout::OldExtended => "old_extended",
            _ => "old",
        })
    }

    /// Whether land tile 0 comes before the first group's header (the real High Seas
    /// files): `land[0, 0]` then reads the wrong bytes; `land_tile(0)` reads the right ones.
    #[getter]
    fn tile_zero_first(&self) -> PyResult<bool> {
        Ok(self.view()?.tile_zero_first())
    }

    /// Item tiles in the file.
    #[getter]
    fn item_count(&self) -> PyResult<usize> {
        Ok(self.view()?.item_count())
    }

    /// The land table, a read-only `(512, 32)` structured view of the file (no copy): land
    /// tile `id` is `land[id // 32, id % 32]`, dtype `LAND_OLD` `{flags: <u4, texture:
    /// <u2, name: S20}` or `LAND_HS` (`flags: <u8`). The file puts a 4-byte header before
    /// each group of 32, so no flat view exists; `land.reshape(-1)` is a flat copy.
    #[getter]
    fn land<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let layout = slf.get().view()?.layout();
        let group = if layout == TileDataLayout::HighSeas {
            "LAND_GROUP_HS"
        } else {
            "LAND_GROUP_OLD"
        };
        Self::table(slf, 0, LAND_TILES, layout.land_record_len(), group)
    }

    /// The item table, a read-only `(item_count // 32, 32)` structured view of the file (no
    /// copy): item tile `id` is `items[id // 32, id % 32]`, dtype `ITEM_OLD` or `ITEM_HS`
    /// `{flags, weight, quality, misc, unknown2, quantity, animation, unknown3, hue,
    /// stacking_offset, height, name: S20}`.
    #[getter]
    fn items<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let view = slf.get().view()?;
        let layout = view.layout();
        let group = if layout == TileDataLayout::HighSeas {
            "ITEM_GROUP_HS"
        } else {
            "ITEM_GROUP_OLD"
        };
        let start = (LAND_TILES / GROUP) * (HEADER + GROUP * layout.land_record_len());
        Self::table(
            slf,
            start,
            view.item_count(),
            layout.item_record_len(),
            group,
        )
    }

    /// Land tile `id` as `gamedata uo tiledata --land ID --json` gives it: `{id, name,
    /// flags: [names], height: None, weight: None}`. Raises `IndexError` past 16,383.
    fn land_tile<'py>(&self, py: Python<'py>, id: u16) -> PyResult<Bound<'py, PyDict>> {
        let tile = self.view()?.land(id).ok_or_else(|| {
            pyo3::exceptions::PyIndexError::new_err(format!(
                "land id {id} is past the 16,384 land tiles"
            ))
        })?;
        tile_report(py, id, &tile.name_lossy(), tile.flags(), None)
    }

    /// Item tile `id` as `gamedata uo tiledata --item ID --json` gives it: `{id, name,
    /// flags: [names], height, weight}`. Raises `IndexError` past the file's items.
    fn item_tile<'py>(&self, py: Python<'py>, id: u16) -> PyResult<Bound<'py, PyDict>> {
        let view = self.view()?;
        let tile = view.item(id).ok_or_else(|| {
            pyo3::exceptions::PyIndexError::new_err(format!(
                "item id {id} is past the {} item tiles of this file",
                view.item_count()
            ))
        })?;
        let height_weight = Some((tile.height(), tile.weight()));
        tile_report(py, id, &tile.name_lossy(), tile.flags(), height_weight)
    }

    /// `(address, length)` of the file's bytes in memory, for tests.
    fn _span(&self) -> (usize, usize) {
        arrays::span(self.file.data())
    }
}
