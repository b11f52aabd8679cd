//! `gamedata.uo.UopAnimations`: a body's AnimationFrame*.uop frames as the client draws them.

use std::path::{Path, PathBuf};

use gamedata_render::uo::anim::{DrawnFrame, uop_direction_pictures};
use gamedata_render::uo::art::ArtHue;
use mul_core::anim::UopSequence;
use mul_core::{AnimFileId, BodyType, Facing, HuesFile, Limits, MobTypes, UopAnimationFiles};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::arrays;
use crate::art::{folder_hues, open_set};
use crate::errors::{data_error, render_error};

/// AnimationFrame1.uop to AnimationFrame10.uop of a client folder (AnimationFrame1.uop
/// required; any letter case), with AnimationSequence.uop, mobtypes.txt and hues.mul when
/// the folder has them, read into memory (`open`) or memory-mapped (`map`). A body's
/// action is read as the client reads a body mobtypes.txt flags 0x10000: the action through
/// AnimationSequence.uop's replacements, the first file naming its entry, a direction
/// having the entry's list length / 5 frames (at least 10 for a body mobtypes.txt calls
/// equipment), a missing frame empty; colours widened by the client's table, a run pixel
/// whose palette colour is 0 transparent, the rest of a run opaque. Directions 0 to 4 are
/// stored; 5, 6 and 7 mirror 3, 2 and 1. Source: docs/formats/uo.md, "UOP animations" and
/// "Which form: MUL or UOP".
#[pyclass(frozen, module = "gamedata.uo", name = "UopAnimations")]
pub struct UopAnimations {
    anims: UopAnimationFiles,
    hues: Option<HuesFile>,
    mobtypes: Option<MobTypes>,
}

/// Direction `direction` (0 to 7).
fn facing(direction: u8) -> PyResult<Facing> {
    Facing::of(direction).ok_or_else(|| {
        PyValueError::new_err(format!(
            "direction must be 0 to 7 (5, 6 and 7 mirror 3, 2 and 1), not {direction}"
        ))
    })
}

/// The folder's mobtypes.txt, when it has one, read within
/// [`mul_core::anim::MAX_MOBTYPES_LEN`] (16 MiB: a longer one is a `ValueError` naming it).
fn folder_mobtypes(dir: &Path) -> PyResult<Option<MobTypes>> {
    use std::io::Read;
    let Ok(Some(path)) = gamedata_io::find_optional(dir, "mobtypes.txt") else {
        return Ok(None);
    };
    let cap = mul_core::anim::MAX_MOBTYPES_LEN;
    let mut text = Vec::new();
    std::fs::File::open(&path)?
        .take(cap.saturating_add(1))
        .read_to_end(&mut text)?;
    if text.len() as u64 > cap {
        return Err(PyValueError::new_err(format!(
            "{}: more than the {cap} bytes a mobtypes.txt may hold here",
            path.display()
        )));
    }
    Ok(Some(MobTypes::parse(&text)))
}

impl UopAnimations {
    /// `open` (`map` false) or `map`.
    fn load(py: Python<'_>, dir: &Path, map: bool) -> PyResult<Self> {
        Ok(UopAnimations {
            anims: open_set(py, dir, (), map)?,
            hues: folder_hues(dir, map)?,
            mobtypes: folder_mobtypes(dir)?,
        })
    }

    /// The action whose entry is read for `body`'s `action`.
    fn resolve(&self, body: u16, action: u16) -> PyResult<u16> {
        let files = self.anims.view().map_err(|e| data_error(&e))?;
        let Some(sequences) = &files.sequences else {
            return Ok(action);
        };
        let bytes = sequences
            .decoded(u32::from(body), &Limits::default())
            .map_err(|e| data_error(&e))?;
        let Some(bytes) = bytes else {
            return Ok(action);
        };
        let sequence = UopSequence::parse(&bytes).map_err(|e| data_error(&e))?;
        Ok(sequence.resolve(action))
    }

    /// The body's type for its count of frames a direction.
    fn body_type(&self, body: u16) -> BodyType {
        self.mobtypes
            .as_ref()
            .and_then(|m| m.get(body))
            .map_or(BodyType::of_body(AnimFileId::Anim, body), |m| m.body_type)
    }

    /// The direction drawn; `None` when no file has the entry.
    fn drawn(
        &self,
        body: u16,
        action: u16,
        direction: u8,
        hue: u16,
    ) -> PyResult<Option<Vec<DrawnFrame>>> {
        let facing = facing(direction)?;
        let entry = self.resolve(body, action)?;
        let hues = crate::art::hues_for(self.hues.as_ref(), hue, "the animations'")?;
        let hue = match &hues {
            Some(h) => ArtHue::from_value(h, hue).map_err(render_error)?,
            None => ArtHue::None,
        };
        let files = self.anims.view().map_err(|e| data_error(&e))?;
        let limits = Limits::default();
        let Some(decoded) = files
            .animations
            .decoded(body, entry, &limits)
            .map_err(|e| data_error(&e))?
        else {
            return Ok(None);
        };
        let animation = decoded.animation().map_err(|e| data_error(&e))?;
        let per = animation.frames_per_direction(self.body_type(body));
        uop_direction_pictures(
            &animation,
            facing.stored,
            per,
            facing.mirrored,
            hue,
            &limits,
        )
        .map(Some)
        .map_err(render_error)
    }
}

#[pymethods]
impl UopAnimations {
    /// Reads AnimationFrame1.uop (and AnimationFrame2 to 10, AnimationSequence.uop,
    /// mobtypes.txt and hues.mul, if present) in `dir`. Raises `FileNotFoundError` if
    /// AnimationFrame1.uop is missing, `gamedata.FormatError` for a container whose table
    /// cannot be read.
    #[staticmethod]
    fn open(py: Python<'_>, dir: PathBuf) -> PyResult<Self> {
        UopAnimations::load(py, &dir, false)
    }

    /// As `open`, but memory-maps the files, which must not be changed or truncated while
    /// mapped.
    #[staticmethod]
    fn map(py: Python<'_>, dir: PathBuf) -> PyResult<Self> {
        UopAnimations::load(py, &dir, true)
    }

    /// The AnimationFrame files read, by number (1 to 10), in order.
    #[getter]
    fn files(&self) -> PyResult<Vec<u16>> {
        let files = self.anims.view().map_err(|e| data_error(&e))?;
        // u16, not u8: pyo3 hands a Vec<u8> over as bytes.
        Ok(files.animations.files().map(u16::from).collect())
    }

    /// The action whose entry the client reads for `body`'s `action`: AnimationSequence.uop's
    /// replacement (applied twice, as the client does), else `action`.
    fn entry_action(&self, body: u16, action: u16) -> PyResult<u16> {
        self.resolve(body, action)
    }

    /// The frames of `body`'s `action` in `direction` (0 to 7) as `(h, w, 4)` uint8 RGBA
    /// arrays, in order; an empty frame is `(0, 0, 4)`; `[]` when no file has the entry.
    /// `hue`: a hue value as the client stores it (0x8000 asks for a partial hue). Raises
    /// `ValueError` for a direction past 7, `gamedata.FormatError` for bytes that do not
    /// hold the frames or frames past the default decoding limit (256 MiB).
    #[pyo3(signature = (body, action, direction, hue = 0))]
    fn frames<'py>(
        &self,
        py: Python<'py>,
        body: u16,
        action: u16,
        direction: u8,
        hue: u16,
    ) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let Some(drawn) = self.drawn(body, action, direction, hue)? else {
            return Ok(Vec::new());
        };
        drawn
            .into_iter()
            .map(|d| {
                let (w, h) = (d.picture.width() as usize, d.picture.height() as usize);
                arrays::numbers(py, d.picture.into_pixels(), &[h, w, 4])
            })
            .collect()
    }

    /// Each frame's `{"width", "height", "centre_x", "centre_y"}` for `body`'s `action` in
    /// `direction` (0 to 7), as `frames` places them: an empty frame is 0 x 0 with centre
    /// (0, 0), a mirrored direction's centre x is width - the stored one. `[]` and raises as
    /// `frames`.
    fn frame_info<'py>(
        &self,
        py: Python<'py>,
        body: u16,
        action: u16,
        direction: u8,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let Some(drawn) = self.drawn(body, action, direction, 0)? else {
            return Ok(Vec::new());
        };
        drawn
            .iter()
            .map(|d| {
                let info = PyDict::new(py);
                info.set_item("width", d.picture.width())?;
                info.set_item("height", d.picture.height())?;
                info.set_item("centre_x", d.centre_x)?;
                info.set_item("centre_y", d.centre_y)?;
                Ok(info)
            })
            .collect()
    }
}
