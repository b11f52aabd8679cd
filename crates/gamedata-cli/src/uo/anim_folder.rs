//! A client folder's animation files in both forms, and the client's choice between them:
//! anim.mul (with anim2 to anim5) and AnimationFrame*.uop (with AnimationSequence.uop),
//! and mobtypes.txt, which says which bodies the client reads from the UOP
//! (`docs/formats/uo.md`, "Animations", "Which form: MUL or UOP").

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use clap::ValueEnum;
use mul_core::anim::{UOP_ANIM_FILES, UopSequence};
use mul_core::{
    AnimFileId, AnimationBytes, AnimationFiles, Animations, BodyType, Limits, MobTypes,
    UopAnimationBytes, UopAnimationFiles,
};

use super::folder::read_side_file;

/// Which animation form to read, on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum AnimFormatArg {
    /// As the client chooses (mobtypes.txt's flag 0x10000), when the folder has both forms.
    Auto,
    /// anim.mul with anim.idx (or anim2 to anim5).
    Mul,
    /// AnimationFrame1.uop to AnimationFrame10.uop, with AnimationSequence.uop.
    Uop,
}

/// The form a body's action is read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AnimSource {
    Mul,
    Uop,
}

impl AnimSource {
    /// `"mul"` or `"uop"`, as the reports name it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            AnimSource::Mul => "mul",
            AnimSource::Uop => "uop",
        }
    }
}

/// A folder's animation files: each form when the folder has it, and mobtypes.txt.
pub(crate) struct AnimFolder {
    pub(crate) mul: Option<AnimationFiles>,
    pub(crate) uop: Option<UopAnimationFiles>,
    /// mobtypes.txt's path and lines, when the folder has it (read within
    /// [`super::folder::MAX_DEF_BYTES`], 16 MiB: a longer one is an error).
    pub(crate) mobtypes: Option<(PathBuf, MobTypes)>,
}

/// Maps the MUL animation files through mul-core's owner.
///
/// SAFETY contract taken on here: as [`super::open_facet`]'s.
#[allow(unsafe_code)]
fn map_animations(dir: &Path) -> Result<AnimationFiles, mul_core::Error> {
    // SAFETY: see this function's documentation.
    unsafe { AnimationFiles::map(dir, ()) }
}

/// Maps AnimationFrame*.uop and AnimationSequence.uop through mul-core's owner.
///
/// SAFETY contract taken on here: as [`super::open_facet`]'s.
#[allow(unsafe_code)]
fn map_uop_animations(dir: &Path) -> Result<UopAnimationFiles, mul_core::Error> {
    // SAFETY: see this function's documentation.
    unsafe { UopAnimationFiles::map(dir, ()) }
}

impl AnimFolder {
    /// The forms `format` allows that `dir` holds (anim.idx with anim.mul; AnimationFrame1.uop
    /// and the others), and mobtypes.txt.
    ///
    /// Returns `Err` when the folder holds none of the forms allowed, or a file cannot be
    /// read.
    pub(crate) fn open(dir: &Path, format: AnimFormatArg) -> Result<Self> {
        let reading = || format!("reading animations in {}", dir.display());
        let has = |name: &str| -> Result<bool> {
            Ok(gamedata_io::find_optional(dir, name)
                .with_context(reading)?
                .is_some())
        };
        let want_mul = format != AnimFormatArg::Uop;
        let want_uop = format != AnimFormatArg::Mul;
        let mul_there = has(AnimFileId::Anim.index_name())? && has(AnimFileId::Anim.data_name())?;
        let uop_there = has(UOP_ANIM_FILES[0])?;
        let mul = if want_mul && (mul_there || format == AnimFormatArg::Mul) {
            Some(map_animations(dir).with_context(reading)?)
        } else {
            None
        };
        let uop = if want_uop && (uop_there || format == AnimFormatArg::Uop) {
            Some(map_uop_animations(dir).with_context(reading)?)
        } else {
            None
        };
        if mul.is_none() && uop.is_none() {
            return Err(anyhow!(
                "{} has neither anim.idx with anim.mul nor AnimationFrame1.uop",
                dir.display()
            ));
        }
        let mobtypes =
            match gamedata_io::find_optional(dir, "mobtypes.txt").with_context(reading)? {
                Some(path) => {
                    // Within the .def files' cap (16 MiB), read in place.
                    let text = read_side_file(&path, "mobtypes.txt")?;
                    Some((path, MobTypes::parse(&text)))
                }
                None => None,
            };
        Ok(AnimFolder { mul, uop, mobtypes })
    }

    /// Every file read, never to be written over.
    pub(crate) fn input_paths(&self) -> Vec<PathBuf> {
        let mul = self.mul.iter().flat_map(|m| m.input_paths());
        let uop = self.uop.iter().flat_map(|u| u.input_paths());
        mul.chain(uop)
            .map(Path::to_path_buf)
            .chain(self.mobtypes.as_ref().map(|(p, _)| p.clone()))
            .collect()
    }

    /// The MUL files' view, `dir` naming the folder in the error when it has none.
    pub(crate) fn mul_view(&self, dir: &Path) -> Result<AnimationBytes<'_>> {
        let owned = (self.mul.as_ref())
            .ok_or_else(|| anyhow!("{} has no anim.idx with anim.mul", dir.display()))?;
        Ok(owned.view()?)
    }

    /// The UOP files' view, `dir` naming the folder in the error when it has none.
    pub(crate) fn uop_view(&self, dir: &Path) -> Result<UopAnimationBytes<'_>> {
        let owned = (self.uop.as_ref())
            .ok_or_else(|| anyhow!("{} has no AnimationFrame1.uop", dir.display()))?;
        Ok(owned.view()?)
    }

    /// mobtypes.txt's lines (empty without the file).
    pub(crate) fn mobtypes(&self) -> Option<&MobTypes> {
        self.mobtypes.as_ref().map(|(_, m)| m)
    }

    /// The type the client gives body `body` when it reads its UOP animations: mobtypes.txt's
    /// when it lists the body, else anim.mul's default ([`BodyType::of_body`]).
    pub(crate) fn uop_body_type(&self, body: u16) -> BodyType {
        gamedata_render::uo::anim::uop_body_type(self.mobtypes(), body)
    }
}

/// The action whose UOP entry the client reads for body `body`'s action `action`:
/// AnimationSequence.uop's replacement, applied as the client applies it
/// ([`UopSequence::resolve`]); `action` itself without the file or the body's entry.
///
/// Returns `Err` for a sequence entry that cannot be decoded or read.
pub(crate) fn uop_entry_action(
    files: &UopAnimationBytes<'_>,
    body: u16,
    action: u16,
    limits: &Limits,
) -> Result<u16> {
    let Some(sequences) = &files.sequences else {
        return Ok(action);
    };
    let Some(bytes) = sequences.decoded(u32::from(body), limits)? else {
        return Ok(action);
    };
    let sequence = UopSequence::parse(&bytes)
        .with_context(|| format!("AnimationSequence.uop: body {body}'s sequence"))?;
    Ok(sequence.resolve(action))
}

/// True if `anim` has a frame group for body `body`'s action `action`, stored direction
/// `direction` (the body's default type): its block in the index, the record not empty. A
/// record that cannot be read counts as there (reading it says why).
pub(crate) fn mul_has(anim: &Animations<'_>, body: u16, action: u16, direction: u8) -> bool {
    let Some(records) = anim.body(body) else {
        return false;
    };
    match records.record(action, direction) {
        Err(_) => false,
        Ok(record) => !matches!(anim.entry(record), Ok(None)),
    }
}
