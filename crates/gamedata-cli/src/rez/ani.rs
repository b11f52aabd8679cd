//! `gamedata rez ani SOURCE [PATH]`: an ANI animation's frames (the image number each
//! shows, for how many milliseconds, the sound some start), from an archive, a folder of
//! extracted files or an .ANI file (`wap_core::Ani`; `docs/formats/wap32.md`, "ANI
//! animations").

use std::borrow::Cow;
use std::path::Path;

use anyhow::{Context, Result, anyhow};
use gamedata_io::FileData;
use serde::Serialize;
use wap_core::{Ani, Limits};

use super::{escaped, map_source};
use crate::output::Output;

/// One frame in `rez ani --json`.
#[derive(Serialize)]
struct FrameReport {
    /// Frame number of the image shown, in the object's image set.
    image: u16,
    duration_ms: u16,
    /// The sound the frame starts, if any.
    sound: Option<String>,
}

/// What `rez ani --json` prints.
#[derive(Serialize)]
struct AniReport {
    path: String,
    image_set: String,
    frame_count: u32,
    total_ms: u64,
    frames: Vec<FrameReport>,
}

pub(super) fn ani(source: &Path, path: Option<&str>, out: &mut Output) -> Result<()> {
    let limits = Limits::default();
    let images = match path {
        Some(_) => Some(map_source(source)?),
        None => None,
    };
    let bytes = match (&images, path) {
        (Some(images), Some(path)) => images
            .file(path)
            .with_context(|| format!("reading {}", source.display()))?
            .ok_or_else(|| anyhow!("no {path:?} in {}", source.display()))?,
        _ => Cow::Owned(
            FileData::read_with(source, &limits)
                .with_context(|| format!("reading {}", source.display()))?
                .into_vec(),
        ),
    };
    let name = path.map_or_else(|| source.display().to_string(), str::to_owned);
    let ani = Ani::parse(&bytes).with_context(|| format!("reading {name}"))?;
    let text = |b: &[u8]| gamedata_io::latin1(b).into_owned();
    let report = AniReport {
        path: name,
        image_set: text(ani.image_set()),
        frame_count: ani.frame_count(),
        total_ms: ani.total_ms(),
        frames: ani
            .frames()
            .map(|f| FrameReport {
                image: f.image(),
                duration_ms: f.duration_ms(),
                sound: f.sound().map(text),
            })
            .collect(),
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
        for (i, f) in report.frames.iter().enumerate() {
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
