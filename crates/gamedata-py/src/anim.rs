//! `gamedata.uo.Animations`: a body's animation frames as the client draws them.

use std::path::PathBuf;

use gamedata_render::uo::anim::group_pictures;
use gamedata_render::uo::art::ArtHue;
use mul_core::{AnimFileId, AnimationBytes, AnimationFiles, Facing, FrameGroup, HuesFile, Limits};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::arrays;
use crate::art::{folder_hues, open_set};
use crate::errors::{data_error, render_error};

/// anim.idx and anim.mul of a client folder (any letter case), with anim2 to anim5 when
/// the folder has both files of a pair, read into memory (`open`) or memory-mapped (`map`),
/// and the folder's hues.mul when it has one (for `hue=`). Frames are drawn as the client
/// draws them: colours widened by its table (`v * 255 / 31`), every pixel a run covers
/// opaque (palette colour 0, black, included), bit 15 ignored, the rest transparent.
/// Directions 0 to 4 are stored; 5, 6 and 7 are drawn by mirroring 3, 2 and 1, the centre x
/// becoming width - centre x. A body's records are found as the client finds a body
/// mobtypes.txt does not list. AnimationFrame*.uop is not read. Source: docs/formats/uo.md,
/// "Animations" and "Hues on pictures".
#[pyclass(frozen, module = "gamedata.uo", name = "Animations")]
pub struct Animations {
    anims: AnimationFiles,
    hues: Option<HuesFile>,
}

/// The file named `name`: "anim", "anim2" ... "anim5".
fn anim_file(name: &str) -> PyResult<AnimFileId> {
    AnimFileId::ALL
        .into_iter()
        .find(|f| f.name() == name)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "file must be \"anim\", \"anim2\", \"anim3\", \"anim4\" or \"anim5\", not {name:?}"
            ))
        })
}

/// Direction `direction` (0 to 7).
fn facing(direction: u8) -> PyResult<Facing> {
    Facing::of(direction).ok_or_else(|| {
        PyValueError::new_err(format!(
            "direction must be 0 to 7 (5, 6 and 7 mirror 3, 2 and 1), not {direction}"
        ))
    })
}

impl Animations {
    fn view(&self) -> PyResult<AnimationBytes<'_>> {
        self.anims.view().map_err(|e| data_error(&e))
    }

    /// The frame group of `body`'s `action` in `facing`'s stored direction of `file`;
    /// `None` for no frames.
    fn group<'a>(
        files: &AnimationBytes<'a>,
        file: &str,
        body: u16,
        action: u16,
        facing: Facing,
    ) -> PyResult<Option<FrameGroup<'a>>> {
        let file = anim_file(file)?;
        let Some(anim) = files.get(file) else {
            return Err(pyo3::exceptions::PyFileNotFoundError::new_err(format!(
                "the folder has no {} with {}",
                file.data_name(),
                file.index_name()
            )));
        };
        anim.group(body, action, facing.stored)
            .map_err(|e| data_error(&e))
    }
}

#[pymethods]
impl Animations {
    /// Reads anim.idx and anim.mul (and anim2 to anim5, and hues.mul, if present) in
    /// `dir`. Raises `FileNotFoundError` if anim.idx or anim.mul is missing,
    /// `gamedata.FormatError` for an index that is not whole 12-byte records.
    #[staticmethod]
    fn open(py: Python<'_>, dir: PathBuf) -> PyResult<Self> {
        let anims = open_set(py, &dir, (), false)?;
        let hues = folder_hues(&dir, false)?;
        Ok(Animations { anims, hues })
    }

    /// As `open`, but memory-maps the files, which must not be changed or truncated while
    /// mapped.
    #[staticmethod]
    fn map(py: Python<'_>, dir: PathBuf) -> PyResult<Self> {
        let anims = open_set(py, &dir, (), true)?;
        let hues = folder_hues(&dir, true)?;
        Ok(Animations { anims, hues })
    }

    /// The files read, in the client's order: "anim", then any of "anim2" ... "anim5".
    #[getter]
    fn files(&self) -> Vec<&'static str> {
        self.anims.files().map(AnimFileId::name).collect()
    }

    /// Records in `file`'s index.
    #[pyo3(signature = (file = "anim"))]
    fn records(&self, file: &str) -> PyResult<usize> {
        let file = anim_file(file)?;
        Ok(self.view()?.get(file).map_or(0, |a| a.len()))
    }

    /// The frames of `body`'s `action` in `direction` (0 to 7) as `(h, w, 4)` uint8 RGBA
    /// arrays, in order; an empty frame is `(0, 0, 4)`; `[]` when the body has no
    /// animation in the file or the record is empty. `hue`: a hue value as the client
    /// stores it (0x8000 asks for a partial hue). `file`: "anim" (anim.mul) or "anim2" ...
    /// "anim5". Raises `ValueError` for a direction past 7 or another file name,
    /// `FileNotFoundError` for a file the folder lacks, `gamedata.FormatError` for bytes
    /// that do not hold the frames, an action past the body's (category "argument"), or
    /// frames past the default decoding limit (256 MiB).
    #[pyo3(signature = (body, action, direction, hue = 0, file = "anim"))]
    fn frames<'py>(
        &self,
        py: Python<'py>,
        body: u16,
        action: u16,
        direction: u8,
        hue: u16,
        file: &str,
    ) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let facing = facing(direction)?;
        let files = self.view()?;
        let Some(group) = Self::group(&files, file, body, action, facing)? else {
            return Ok(Vec::new());
        };
        let hues = crate::art::hues_for(self.hues.as_ref(), hue, "the animations'")?;
        let hue = match &hues {
            Some(h) => ArtHue::from_value(h, hue).map_err(render_error)?,
            None => ArtHue::None,
        };
        let drawn = py
            .detach(|| group_pictures(&group, facing.mirrored, hue, &Limits::default()))
            .map_err(render_error)?;
        drawn
            .into_iter()
            .map(|d| {
                let (w, h) = (d.picture.width() as usize, d.picture.height() as usize);
                arrays::numbers(py, d.picture.into_pixels(), &[h, w, 4])
            })
            .collect()
    }

    /// Each frame's `{"width", "height", "centre_x", "centre_y"}` for `body`'s `action` in
    /// `direction` (0 to 7), as `frames` places them: an empty frame is 0 x 0, and a
    /// mirrored direction's centre x is width - the stored one. `[]` as for `frames`;
    /// raises as `frames` does for what it reads (the frames' headers, not their runs).
    #[pyo3(signature = (body, action, direction, file = "anim"))]
    fn frame_info<'py>(
        &self,
        py: Python<'py>,
        body: u16,
        action: u16,
        direction: u8,
        file: &str,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let facing = facing(direction)?;
        let files = self.view()?;
        let Some(group) = Self::group(&files, file, body, action, facing)? else {
            return Ok(Vec::new());
        };
        group
            .frames()
            .map(|frame| {
                let frame = frame.map_err(|e| data_error(&e))?;
                let (w, h) = (frame.width(), frame.height());
                let stored = i32::from(frame.centre_x());
                // A width of at most 32,767: the difference fits.
                let centre_x = if facing.mirrored {
                    i32::try_from(w).unwrap_or(i32::MAX).saturating_sub(stored)
                } else {
                    stored
                };
                let info = PyDict::new(py);
                info.set_item("width", w)?;
                info.set_item("height", h)?;
                info.set_item("centre_x", centre_x)?;
                info.set_item("centre_y", i32::from(frame.centre_y()))?;
                Ok(info)
            })
            .collect()
    }

    /// The 256-colour palette of `body`'s `action` in `direction` (0 to 7; 5 to 7 use 3 to
    /// 1's) as a read-only `<u2` view of the file where it is stored (no copy), or `None`
    /// when there are no frames. Raises as `frame_info`.
    #[pyo3(signature = (body, action, direction, file = "anim"))]
    fn palette<'py>(
        slf: &Bound<'py, Self>,
        body: u16,
        action: u16,
        direction: u8,
        file: &str,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let facing = facing(direction)?;
        let files = slf.get().view()?;
        let Some(group) = Self::group(&files, file, body, action, facing)? else {
            return Ok(None);
        };
        let bytes = zerocopy::IntoBytes::as_bytes(group.palette());
        let dtype = slf
            .py()
            .import("numpy")?
            .getattr("dtype")?
            .call1(("<u2",))?;
        arrays::borrowed(slf.as_any(), bytes, &dtype, &[256]).map(Some)
    }
}
