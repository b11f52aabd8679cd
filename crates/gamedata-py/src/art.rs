//! `gamedata.uo.Art`: art.mul's land tiles and items as the client draws them, and a land
//! tile's raw pixels as a view of the file.

use std::fmt;
use std::path::{Path, PathBuf};

use gamedata_io::{FileSet, Kind, OwnedSet};
use gamedata_render::uo::art::{ArtHue, item_picture, land_picture};
use mul_core::{Art as ArtView, ArtFiles, ArtFormat, Hues, HuesFile, Limits};
use pyo3::prelude::*;

use crate::arrays;
use crate::errors::{data_error, reader_error, render_error};

/// art.mul and artidx.mul, or artLegacyMUL.uop, of a client folder (any letter case), read into memory (`open`) or
/// memory-mapped (`map`), with the folder's hues.mul when it has one (for `hue=`). Land
/// tile `id` is art number `id` (0 to 0x3FFF), item `id` art number 0x4000 + `id`.
/// Pictures are drawn as the client draws them: colours widened by its table
/// (`v * 255 / 31`), a land tile's 44 x 44 diamond opaque, an item's pixels of value 0
/// transparent. Source: docs/formats/uo.md, "Art" and "Hues on pictures".
#[pyclass(frozen, module = "gamedata.uo", name = "Art")]
pub struct Art {
    art: ArtFiles,
    hues: Option<HuesFile>,
}

/// File set `S`'s files in `dir` (set `id`): read, or with `map` memory-mapped, the GIL
/// released meanwhile. Mapping passes mul-core's contract on to the Python caller, as each
/// class's `map` docstring and the package's README say.
pub(crate) fn open_set<S>(py: Python<'_>, dir: &Path, id: S::Id, map: bool) -> PyResult<OwnedSet<S>>
where
    S: FileSet,
    S::Id: Send,
    S::Kind: Kind + fmt::Debug + serde::Serialize + Send,
    OwnedSet<S>: Send,
{
    let opened = py.detach(move || {
        if map {
            #[allow(unsafe_code)]
            // SAFETY: mul-core's mapping entry point asks that nothing modify or truncate
            // the files while they are mapped; the `map` methods' docstrings and the
            // package's README pass that contract on to the Python caller, as the command
            // line does to its user.
            unsafe {
                OwnedSet::<S>::map(dir, id)
            }
        } else {
            OwnedSet::<S>::open(dir, id)
        }
    });
    opened.map_err(reader_error)
}

/// hues.mul in `dir`, when it has one; `map` maps it.
pub(crate) fn folder_hues(dir: &Path, map: bool) -> PyResult<Option<HuesFile>> {
    let Ok(Some(path)) = gamedata_io::find_optional(dir, "hues.mul") else {
        return Ok(None);
    };
    let owned = if map {
        #[allow(unsafe_code)]
        // SAFETY: as `Art::map`'s: the caller takes on mul-core's mapping contract.
        unsafe {
            HuesFile::map(&path)
        }
    } else {
        HuesFile::open(&path)
    };
    owned.map(Some).map_err(reader_error)
}

impl Art {
    /// `open` (`map` false) or `map`.
    fn load(py: Python<'_>, dir: &Path, format: Option<&str>, map: bool) -> PyResult<Self> {
        let art = open_set(py, dir, art_format(format)?, map)?;
        let hues = folder_hues(dir, map)?;
        Ok(Art { art, hues })
    }

    fn view(&self) -> PyResult<ArtView<'_>> {
        self.art.view().map_err(|e| data_error(&e))
    }

    /// What hue value `hue` asks for (0: none).
    fn hue(&self, hue: u16) -> PyResult<(Option<Hues<'_>>, u16)> {
        Ok((hues_for(self.hues.as_ref(), hue, "the art's")?, hue))
    }
}

/// hues.mul's view when `hue` asks for a hue (its low 15 bits not 0), else `None`.
///
/// Raises `FileNotFoundError` ("hue= needs hues.mul in `folder` folder") when it asks for
/// one and the folder has no hues.mul, `gamedata.FormatError` when hues.mul cannot be read.
pub(crate) fn hues_for<'h>(
    hues: Option<&'h HuesFile>,
    hue: u16,
    folder: &str,
) -> PyResult<Option<Hues<'h>>> {
    match (hues, hue & 0x7FFF) {
        (_, 0) => Ok(None),
        (Some(h), _) => h.view().map(Some).map_err(|e| data_error(&e)),
        (None, _) => Err(pyo3::exceptions::PyFileNotFoundError::new_err(format!(
            "hue= needs hues.mul in {folder} folder"
        ))),
    }
}

/// The form a `format=` argument names: "mul", "uop", or None for either.
pub(crate) fn art_format(format: Option<&str>) -> PyResult<Option<ArtFormat>> {
    match format {
        None => Ok(None),
        Some("mul") => Ok(Some(ArtFormat::Mul)),
        Some("uop") => Ok(Some(ArtFormat::Uop)),
        Some(other) => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "format must be \"mul\", \"uop\" or None, not {other:?}"
        ))),
    }
}

/// The art hue of `value` over `hues`.
fn art_hue<'a>(hues: Option<&Hues<'a>>, value: u16) -> PyResult<ArtHue<'a>> {
    match hues {
        Some(h) => ArtHue::from_value(h, value).map_err(render_error),
        None => Ok(ArtHue::None),
    }
}

#[pymethods]
impl Art {
    /// Reads the art (and hues.mul if present) in `dir`: art.mul with artidx.mul, or
    /// artLegacyMUL.uop; `format` "mul" or "uop" picks, None takes the MUL pair when both
    /// files are there. Raises `FileNotFoundError` for a missing file, `ValueError` for
    /// another `format`, `gamedata.FormatError` for an index that is not whole 12-byte
    /// records or a UOP whose table cannot be read.
    #[staticmethod]
    #[pyo3(signature = (dir, format = None))]
    fn open(py: Python<'_>, dir: PathBuf, format: Option<&str>) -> PyResult<Self> {
        Art::load(py, &dir, format, false)
    }

    /// As `open`, but memory-maps the files, which must not be changed or truncated while
    /// mapped.
    #[staticmethod]
    #[pyo3(signature = (dir, format = None))]
    fn map(py: Python<'_>, dir: PathBuf, format: Option<&str>) -> PyResult<Self> {
        Art::load(py, &dir, format, true)
    }

    /// The form read: "mul" or "uop".
    #[getter]
    fn format(&self) -> &'static str {
        self.art.format().name()
    }

    /// Art numbers in the index (land tiles and items together).
    fn __len__(&self) -> PyResult<usize> {
        Ok(self.view()?.len())
    }

    /// Items in the index: its entries past the 0x4000 land tiles.
    #[getter]
    fn item_count(&self) -> PyResult<usize> {
        Ok(self.view()?.item_count())
    }

    /// Land tile `id` (0 to 0x3FFF) as a `(44, 44, 4)` uint8 RGBA array, or `None` for an
    /// empty entry. `hue`: a hue value as the client stores it (0x8000 asks for a partial
    /// hue). Raises `gamedata.FormatError` for an entry outside art.mul, overlapping
    /// another's bytes, or too short, and for an id past 0x3FFF (category "argument").
    #[pyo3(signature = (id, hue=0))]
    fn land<'py>(&self, py: Python<'py>, id: u16, hue: u16) -> PyResult<Option<Bound<'py, PyAny>>> {
        let art = self.view()?;
        let Some(land) = art.land(id).map_err(|e| data_error(&e))? else {
            return Ok(None);
        };
        let (hues, value) = self.hue(hue)?;
        let picture = land_picture(&land, art_hue(hues.as_ref(), value)?).map_err(render_error)?;
        arrays::numbers(py, picture.into_pixels(), &[44, 44, 4]).map(Some)
    }

    /// Item `id` as an `(h, w, 4)` uint8 RGBA array, or `None` for an empty entry or an id
    /// past the index. `hue` as for `land`. Raises `gamedata.FormatError` for bytes that do
    /// not hold the picture, or a picture past the default decoding limit (256 MiB).
    #[pyo3(signature = (id, hue=0))]
    fn item<'py>(&self, py: Python<'py>, id: u32, hue: u16) -> PyResult<Option<Bound<'py, PyAny>>> {
        let art = self.view()?;
        // Item `id` is art number 0x4000 + id, which reaches ids past 0xFFFF too.
        let Some(item) = art
            .item_at(id.saturating_add(0x4000))
            .map_err(|e| data_error(&e))?
        else {
            return Ok(None);
        };
        let (hues, value) = self.hue(hue)?;
        let hue = art_hue(hues.as_ref(), value)?;
        let (w, h) = (item.width() as usize, item.height() as usize);
        if w == 0 || h == 0 {
            return arrays::numbers(py, Vec::<u8>::new(), &[h, w, 4]).map(Some);
        }
        let picture = item_picture(&item, hue, &Limits::default()).map_err(render_error)?;
        arrays::numbers(py, picture.into_pixels(), &[h, w, 4]).map(Some)
    }

    /// Land tile `id`'s 1,012 raw 16-bit pixels, row by row over the diamond, as a
    /// read-only `<u2` view of the file (no copy), or `None` for an empty entry.
    fn land_pixels<'py>(slf: &Bound<'py, Self>, id: u16) -> PyResult<Option<Bound<'py, PyAny>>> {
        let art = slf.get().view()?;
        let Some(land) = art.land(id).map_err(|e| data_error(&e))? else {
            return Ok(None);
        };
        let bytes = zerocopy::IntoBytes::as_bytes(land.pixels());
        let dtype = slf
            .py()
            .import("numpy")?
            .getattr("dtype")?
            .call1(("<u2",))?;
        arrays::borrowed(slf.as_any(), bytes, &dtype, &[bytes.len() / 2]).map(Some)
    }
}
