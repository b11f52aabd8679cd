//! `gamedata.uo.Gumps`: gumps as the client draws them.

use std::path::{Path, PathBuf};

use gamedata_render::uo::gump::{GumpHue, gump_picture};
use mul_core::{GumpFiles, Gumps as GumpsView, HuesFile, Limits};
use pyo3::prelude::*;

use crate::arrays;
use crate::art::{art_format, folder_hues, open_set};
use crate::errors::{data_error, render_error};

/// gumpart.mul and gumpidx.mul, or gumpartLegacyMUL.uop, of a client folder (any letter
/// case), read into memory (`open`) or memory-mapped (`map`), with the folder's hues.mul
/// when it has one (for `hue=`). Gumps are drawn as the client draws them: colours widened
/// by its table (`v * 255 / 31`), colour 0 transparent, bit 15 ignored. Source:
/// docs/formats/uo.md, "Gumps" and "Hues on pictures".
#[pyclass(frozen, module = "gamedata.uo", name = "Gumps")]
pub struct Gumps {
    gumps: GumpFiles,
    hues: Option<HuesFile>,
}

impl Gumps {
    /// `open` (`map` false) or `map`.
    fn load(py: Python<'_>, dir: &Path, format: Option<&str>, map: bool) -> PyResult<Self> {
        let gumps = open_set(py, dir, art_format(format)?, map)?;
        let hues = folder_hues(dir, map)?;
        Ok(Gumps { gumps, hues })
    }

    fn view(&self) -> PyResult<GumpsView<'_>> {
        self.gumps.view().map_err(|e| data_error(&e))
    }
}

#[pymethods]
impl Gumps {
    /// Reads the gumps (and hues.mul if present) in `dir`: gumpart.mul with gumpidx.mul,
    /// or gumpartLegacyMUL.uop; `format` "mul" or "uop" picks, None takes the MUL pair when
    /// both files are there. Raises `FileNotFoundError` for a missing file, `ValueError`
    /// for another `format`, `gamedata.FormatError` for an index that is not whole 12-byte
    /// records or a UOP whose table cannot be read.
    #[staticmethod]
    #[pyo3(signature = (dir, format = None))]
    fn open(py: Python<'_>, dir: PathBuf, format: Option<&str>) -> PyResult<Self> {
        Gumps::load(py, &dir, format, false)
    }

    /// As `open`, but memory-maps the files, which must not be changed or truncated while
    /// mapped.
    #[staticmethod]
    #[pyo3(signature = (dir, format = None))]
    fn map(py: Python<'_>, dir: PathBuf, format: Option<&str>) -> PyResult<Self> {
        Gumps::load(py, &dir, format, true)
    }

    /// The form read: "mul" or "uop".
    #[getter]
    fn format(&self) -> &'static str {
        self.gumps.format().name()
    }

    /// Gump ids in the index.
    fn __len__(&self) -> PyResult<usize> {
        Ok(self.view()?.len())
    }

    /// Gump `id` as an `(h, w, 4)` uint8 RGBA array, or `None` for an empty entry or an id
    /// past the index. `hue`: a hue value as the client stores it (0x8000 asks for a
    /// partial hue). A gump stored compressed (gumpartLegacyMUL.uop's compression 1 and 3)
    /// is decoded first. Raises `gamedata.FormatError` for bytes that do not hold the gump,
    /// or a decoder's output or a picture past the default decoding limit (256 MiB).
    #[pyo3(signature = (id, hue=0))]
    fn gump<'py>(&self, py: Python<'py>, id: u32, hue: u16) -> PyResult<Option<Bound<'py, PyAny>>> {
        let gumps = self.view()?;
        let Some(decoded) = gumps
            .decoded(id, &Limits::default())
            .map_err(|e| data_error(&e))?
        else {
            return Ok(None);
        };
        let gump = decoded.gump().map_err(|e| data_error(&e))?;
        let hues = crate::art::hues_for(self.hues.as_ref(), hue, "the gumps'")?;
        let hue = match &hues {
            Some(h) => GumpHue::from_value(h, hue).map_err(render_error)?,
            None => GumpHue::default(),
        };
        let picture = gump_picture(&gump, hue, &Limits::default()).map_err(render_error)?;
        let (w, h) = (picture.width() as usize, picture.height() as usize);
        arrays::numbers(py, picture.into_pixels(), &[h, w, 4]).map(Some)
    }

    /// Gump `id`'s size as `(width, height)` in pixels, or `None` for an empty entry (a
    /// gump stored compressed is decoded to find it).
    fn size(&self, id: u32) -> PyResult<Option<(u32, u32)>> {
        let gumps = self.view()?;
        let Some(decoded) = gumps
            .decoded(id, &Limits::default())
            .map_err(|e| data_error(&e))?
        else {
            return Ok(None);
        };
        let gump = decoded.gump().map_err(|e| data_error(&e))?;
        Ok(Some((gump.width(), gump.height())))
    }
}
