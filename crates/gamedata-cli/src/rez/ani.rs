//! `gamedata rez ani SOURCE [PATH]`: an ANI animation's frames (the image number each
//! shows, for how many milliseconds, the sound some start), from an archive, a folder of
//! extracted files or an .ANI file (`wap_core::Ani`; `docs/formats/wap32.md`, "ANI
//! animations").

use std::borrow::Cow;
use std::path::Path;

use anyhow::{Context, Result, anyhow};
use serde::Serialize;
use wap_core::{Ani, AniFile, AniFrame};

use super::{escaped, map_source};
use crate::output::Output;

/// One frame in `rez ani --json`.
#[derive(Serialize)]
struct FrameReport<'a> {
    /// Frame number of the image shown, in the object's image set.
    image: u16,
    duration_ms: u16,
    /// The sound the frame starts, if any.
    sound: Option<Cow<'a, str>>,
}

impl<'a> FrameReport<'a> {
    fn of(frame: &AniFrame<'a>) -> Self {
        FrameReport {
            image: frame.image(),
            duration_ms: frame.duration_ms(),
            sound: frame.sound().map(gamedata_io::latin1),
        }
    }
}

/// The frames, serialized as they are walked (none held: an animation of millions of
/// frames prints in constant memory).
struct Frames<'a>(Ani<'a>);

impl Serialize for Frames<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.frames().map(|f| FrameReport::of(&f)))
    }
}

/// What `rez ani --json` prints.
#[derive(Serialize)]
struct AniReport<'a> {
    path: String,
    image_set: Cow<'a, str>,
    frame_count: u32,
    total_ms: u64,
    frames: Frames<'a>,
}

/// Maps the animation at `path` (see `super::map_archive` for the contract).
#[allow(unsafe_code)]
fn map_file(path: &Path) -> Result<AniFile> {
    // SAFETY: as `map_archive`'s: the command reads files the user points it at.
    let file = unsafe { AniFile::map(path) };
    file.with_context(|| format!("reading {}", path.display()))
}

pub(super) fn ani(source: &Path, path: Option<&str>, out: &mut Output) -> Result<()> {
    let images = match path {
        Some(_) => Some(map_source(source)?),
        None => None,
    };
    let (file, bytes);
    let name = path.map_or_else(|| source.display().to_string(), str::to_owned);
    let ani = match (&images, path) {
        (Some(images), Some(path)) => {
            bytes = images
                .file(path)
                .with_context(|| format!("reading {}", source.display()))?
                .ok_or_else(|| anyhow!("no {path:?} in {}", source.display()))?;
            Ani::parse(&bytes)
        }
        _ => {
            file = map_file(source)?;
            file.view()
        }
    }
    .with_context(|| format!("reading {name}"))?;
    let report = AniReport {
        path: name,
        image_set: gamedata_io::latin1(ani.image_set()),
        frame_count: ani.frame_count(),
        total_ms: ani.total_ms(),
        frames: Frames(ani),
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "{}: {} frames, {} ms in all, image set {:?}",
            escaped(&report.path),
            report.frame_count,
            report.total_ms,
            escaped(&report.image_set)
        )?;
        for (i, f) in ani.frames().enumerate() {
            let f = FrameReport::of(&f);
            match &f.sound {
                Some(s) => writeln!(
                    w,
                    "  {i:>4}: image {:>4}, {:>5} ms, sound {}",
                    f.image,
                    f.duration_ms,
                    escaped(s)
                )?,
                None => writeln!(w, "  {i:>4}: image {:>4}, {:>5} ms", f.image, f.duration_ms)?,
            }
        }
        Ok(())
    })
}
