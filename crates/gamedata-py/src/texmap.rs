//! `gamedata.uo.Texmaps`: texmaps.mul's texture maps as the client draws them, and their
//! raw pixels as views of the file.

use std::path::PathBuf;

use gamedata_render::uo::texmap::texmap_picture;
use mul_core::{TexmapFiles, Texmaps as TexmapsView};
use pyo3::prelude::*;

use crate::arrays;
use crate::art::open_set;
use crate::errors::{data_error, render_error};

/// texmaps.mul and texidx.mul of a client folder (any letter case), read into memory
/// (`open`) or memory-mapped (`map`): texture maps by id, 64 x 64 pixels for an entry of
/// 0x2000 bytes, 128 x 128 for one of 0x8000 bytes. Pictures are drawn as the client draws
/// them: colours widened by its table (`v * 255 / 31`), every pixel opaque (colour 0 is
/// black), bit 15 ignored. Source: docs/formats/uo.md, "Texture maps".
#[pyclass(frozen, module = "gamedata.uo", name = "Texmaps")]
pub struct Texmaps {
    texmaps: TexmapFiles,
}

impl Texmaps {
    fn view(&self) -> PyResult<TexmapsView<'_>> {
        self.texmaps.view().map_err(|e| data_error(&e))
    }
}

#[pymethods]
impl Texmaps {
    /// Reads texmaps.mul and texidx.mul in `dir`. Raises `FileNotFoundError` for a missing
    /// file, `gamedata.FormatError` for an index that is not whole 12-byte records.
    #[staticmethod]
    fn open(py: Python<'_>, dir: PathBuf) -> PyResult<Self> {
        let texmaps = open_set(py, &dir, (), false)?;
        Ok(Texmaps { texmaps })
    }

    /// As `open`, but memory-maps the files, which must not be changed or truncated while
    /// mapped.
    #[staticmethod]
    fn map(py: Python<'_>, dir: PathBuf) -> PyResult<Self> {
        let texmaps = open_set(py, &dir, (), true)?;
        Ok(Texmaps { texmaps })
    }

    /// Texture map ids in the index (empty entries included).
    fn __len__(&self) -> PyResult<usize> {
        Ok(self.view()?.len())
    }

    /// Texture map `id` as an `(h, w, 4)` uint8 RGBA array (64 or 128 a side, alpha 255
    /// everywhere), or `None` for an empty entry or an id past the index. Raises
    /// `gamedata.FormatError` for an entry outside texmaps.mul, overlapping another's bytes,
    /// or neither 0x2000 nor 0x8000 bytes long.
    fn texmap<'py>(&self, py: Python<'py>, id: u32) -> PyResult<Option<Bound<'py, PyAny>>> {
        let texmaps = self.view()?;
        let Some(texmap) = texmaps.texmap(id).map_err(|e| data_error(&e))? else {
            return Ok(None);
        };
        let side = texmap.side() as usize;
        let picture = texmap_picture(&texmap).map_err(render_error)?;
        arrays::numbers(py, picture.into_pixels(), &[side, side, 4]).map(Some)
    }

    /// Texture map `id`'s raw 16-bit pixels as a read-only `(h, w)` `<u2` view of the file
    /// (no copy), or `None` for an empty entry or an id past the index. Raises as `texmap`.
    fn pixels<'py>(slf: &Bound<'py, Self>, id: u32) -> PyResult<Option<Bound<'py, PyAny>>> {
        let texmaps = slf.get().view()?;
        let Some(texmap) = texmaps.texmap(id).map_err(|e| data_error(&e))? else {
            return Ok(None);
        };
        let side = texmap.side() as usize;
        let bytes = zerocopy::IntoBytes::as_bytes(texmap.pixels());
        let dtype = slf
            .py()
            .import("numpy")?
            .getattr("dtype")?
            .call1(("<u2",))?;
        arrays::borrowed(slf.as_any(), bytes, &dtype, &[side, side]).map(Some)
    }
}
