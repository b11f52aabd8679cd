//! `gamedata.write_png`: a picture array written as a PNG by the renderers' encoder.

use std::io::Write;
use std::path::PathBuf;

use gamedata_render::PngCompression;
use numpy::{PyReadonlyArray3, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::errors::render_error;

/// Writes `pixels`, an `(h, w, 4)` `uint8` RGBA array (what `radar`, `render`,
/// `collision` return), to `path` as an 8-bit RGBA PNG, its rows filtered and deflated in
/// parallel (as `gamedata ... --compression`): `compression` "fast" (the default),
/// "default" or "best"; the pixels are the same at every level. The file is written whole
/// or not at all (a temporary file beside it, renamed over it). Returns the bytes written.
/// Raises `ValueError` for another shape or compression, `OSError` when the file cannot be
/// written.
#[pyfunction]
#[pyo3(signature = (path, pixels, compression="fast"))]
pub(crate) fn write_png(
    path: PathBuf,
    pixels: PyReadonlyArray3<'_, u8>,
    compression: &str,
) -> PyResult<u64> {
    let compression: PngCompression = compression
        .parse()
        .map_err(|e: gamedata_render::UnknownCompression| PyValueError::new_err(e.to_string()))?;
    let shape = pixels.shape();
    let [h, w, 4] = *shape else {
        return Err(PyValueError::new_err(format!(
            "pixels must be an (h, w, 4) RGBA array, not of shape {shape:?}"
        )));
    };
    let (Ok(width), Ok(height)) = (u32::try_from(w), u32::try_from(h)) else {
        return Err(PyValueError::new_err("the picture is too large"));
    };
    // A C-ordered array is read in place (the GIL held: Python cannot change it meanwhile);
    // any other is copied once.
    let copied: Vec<u8>;
    let bytes = match pixels.as_slice() {
        Ok(slice) => slice,
        Err(_) => {
            copied = pixels.as_array().iter().copied().collect();
            &copied
        }
    };
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    {
        let mut out = std::io::BufWriter::new(file.as_file_mut());
        let pixels = gamedata_render::PngPixels::Rgba {
            width,
            height,
            pixels: bytes,
        };
        let options = gamedata_render::PngOptions::default().with_compression(compression);
        gamedata_render::write_png(&mut out, pixels, &options).map_err(render_error)?;
        out.flush()?;
    }
    let written = file.as_file().metadata()?.len();
    file.persist(&path).map_err(|e| e.error)?;
    Ok(written)
}
