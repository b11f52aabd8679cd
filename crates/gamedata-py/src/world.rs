//! `Facet.render_world`: the facet drawn isometrically as the client draws it
//! (`gamedata_render::uo::world`), with the art and texture maps of the facet's own folder,
//! found as `gamedata uo render --style world` finds them.

use std::path::{Path, PathBuf};

use gamedata_render::Region;
use gamedata_render::uo::world::{WorldSource, WorldView};
use mul_core::{ArtFiles, TexmapFiles, VerdataFile};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::art::open_set;
use crate::errors::reader_error;

/// The pictures the world style draws with, from a client folder: the art (art.mul with
/// artidx.mul, or artLegacyMUL.uop; the MUL pair when both), verdata.mul when the folder has
/// one (its art patches applied), and texidx.mul with texmaps.mul when the folder has both
/// (without them no land stretches). All found in any letter case.
pub(crate) struct WorldFiles {
    art: ArtFiles,
    verdata: Option<VerdataFile>,
    texmaps: Option<TexmapFiles>,
}

impl WorldFiles {
    /// The files of `dir`, read (or with `map` memory-mapped), the GIL released meanwhile.
    /// Raises `FileNotFoundError` without art, `gamedata.FormatError` for a file that
    /// cannot be read as its format.
    pub(crate) fn load(py: Python<'_>, dir: &Path, map: bool) -> PyResult<Self> {
        let art = open_set(py, dir, None, map)?;
        let verdata = match gamedata_io::find_file_ignoring_case(dir, "verdata.mul") {
            Ok(path) => Some(open_single(py, path, map)?),
            Err(_) => None,
        };
        let has = |name| gamedata_io::find_file_ignoring_case(dir, name).is_ok();
        let texmaps = if has("texidx.mul") && has("texmaps.mul") {
            Some(open_set(py, dir, (), map)?)
        } else {
            None
        };
        Ok(WorldFiles {
            art,
            verdata,
            texmaps,
        })
    }
}

/// verdata.mul at `path`, read or mapped, the GIL released meanwhile.
fn open_single(py: Python<'_>, path: PathBuf, map: bool) -> PyResult<VerdataFile> {
    let opened = py.detach(move || {
        if map {
            #[allow(unsafe_code)]
            // SAFETY: mul-core's mapping entry point asks that nothing modify or truncate the
            // file while it is mapped; `Facet.map`'s docstring and the package's README pass
            // that contract on to the Python caller, as the command line does to its user.
            unsafe {
                VerdataFile::map(&path)
            }
        } else {
            VerdataFile::open(&path)
        }
    });
    opened.map_err(reader_error)
}

/// What `render_world` is asked to draw: the view `(sx, sy, width, height)` in the client's
/// screen pixels, or the frame of `region` (tiles), or of the whole facet.
pub(crate) fn ask(
    view: Option<(i64, i64, u32, u32)>,
    region: Option<(u32, u32, u32, u32)>,
) -> PyResult<Result<WorldView, Option<Region>>> {
    match (view, region) {
        (Some(_), Some(_)) => Err(PyValueError::new_err("give view= or region=, not both")),
        (Some((x, y, width, height)), None) => Ok(Ok(WorldView {
            x,
            y,
            width,
            height,
        })),
        (None, region) => Ok(Err(region.map(|(x, y, w, h)| Region::new(x, y, w, h)))),
    }
}

/// `facet` drawn with `files` as RGBA pixels, row-major, with the picture's height and
/// width: the view asked for, or the frame of a region (`ask`'s `Err`). Touches no Python
/// object, so that it runs with the GIL released; its error becomes an exception after.
pub(crate) fn draw(
    facet: &mul_core::Facet<'_>,
    files: &WorldFiles,
    asked: Result<WorldView, Option<Region>>,
) -> gamedata_render::Result<(Vec<u8>, usize, usize)> {
    let patches = files.verdata.as_ref().map(VerdataFile::view).transpose()?;
    let art = files.art.view()?;
    let art = match &patches {
        Some(patches) => art.with_verdata(patches),
        None => art,
    };
    let texmaps = files.texmaps.as_ref().map(TexmapFiles::view).transpose()?;
    let source = WorldSource::new(facet, &art, texmaps.as_ref())?;
    let view = match asked {
        Ok(view) => view,
        Err(region) => source.frame(region)?,
    };
    let (image, _) = source.render(view)?;
    let (w, h) = (image.width() as usize, image.height() as usize);
    Ok((image.into_pixels(), h, w))
}
