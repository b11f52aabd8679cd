//! `gamedata uo export`: every picture of a client folder's art, gumps or texture maps as PNG
//! files, in parallel.
//!
//! Each distinct byte range is decoded once: entries that repeat another's bytes exactly
//! (as editors write one picture under several numbers) get the same PNG bytes written
//! under their own names. The pixels decoded in all are held to a budget proportional to
//! the input (64 bytes of RGBA per input byte, plus 64 MiB), so that entries of a few bytes
//! claiming large pictures cannot multiply the work: pictures past it are reported, not
//! drawn. Every entry that cannot be read or drawn is reported (the first few with their
//! messages) and the others are written; the command then exits with status 1.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use gamedata_render::RgbaImage;
use gamedata_render::uo::art::{ArtHue, item_picture, land_picture};
use gamedata_render::uo::gump::{GumpHue, gump_picture};
use gamedata_render::uo::texmap::texmap_picture;
use mul_core::art::ITEM_BASE;
use mul_core::{ArtFormat, Limits, OwnedArt, OwnedGumps, OwnedTexmaps, PicturePaths};
use rayon::prelude::*;
use serde::Serialize;

use super::art::FormatArg;
use crate::output::{Output, progress_bar};

/// What to export.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ExportKind {
    /// art.mul (or artLegacyMUL.uop): land tiles into OUT/land, items into OUT/items.
    Art,
    /// gumpart.mul (or gumpartLegacyMUL.uop): gumps into OUT/gumps.
    Gumps,
    /// texmaps.mul: texture maps into OUT/texmaps.
    Texmaps,
}

#[derive(Args)]
pub(crate) struct ExportArgs {
    /// What to export.
    #[arg(value_enum)]
    what: ExportKind,
    /// The client folder.
    dir: PathBuf,
    /// Folder to write into (created): one PNG an entry, named by its id in hex
    /// (OUT/items/0x0EED.png, OUT/land/0x0003.png, OUT/gumps/0x01F4.png,
    /// OUT/texmaps/0x0012.png).
    #[arg(short, long)]
    output: PathBuf,
    /// Which files to read (as `uo art`): by default the MUL pair when both files are in
    /// the folder, else the UOP (texture maps have no UOP form).
    #[arg(long, value_enum)]
    art_format: Option<FormatArg>,
}

/// Entries whose messages the report keeps.
const ERRORS_KEPT: usize = 10;
/// RGBA bytes the export may decode per input byte, beyond [`BUDGET_BASE`].
const BUDGET_PER_BYTE: u64 = 64;
/// RGBA bytes the export may decode whatever the input's size.
const BUDGET_BASE: u64 = 64 << 20;

#[derive(Serialize)]
struct ExportReport {
    what: &'static str,
    format: &'static str,
    /// PNG files written.
    written: usize,
    /// Pictures decoded (written less exact repeats).
    decoded: usize,
    /// Entries with a picture of no pixel (an item of width or height 0): nothing written.
    empty: usize,
    /// Entries that could not be read or drawn.
    failed: usize,
    /// Entries not drawn because the pictures decoded so far used up the budget.
    over_budget: usize,
    /// The first entries that failed, with their messages.
    errors: Vec<String>,
    /// Bytes of PNG written.
    bytes: u64,
    out_dir: String,
    elapsed_ms: f64,
}

/// One picture to draw: its entry's bytes (the key repeats share), and the ids and file
/// names it is written under.
struct Job {
    first: usize,
    names: Vec<PathBuf>,
}

/// The tally the parallel jobs keep.
#[derive(Default)]
struct Tally {
    written: AtomicUsize,
    decoded: AtomicUsize,
    empty: AtomicUsize,
    failed: AtomicUsize,
    over_budget: AtomicUsize,
    bytes: AtomicU64,
    errors: Mutex<Vec<String>>,
}

impl Tally {
    fn fail(&self, what: String) {
        self.failed.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut errors) = self.errors.lock()
            && errors.len() < ERRORS_KEPT
        {
            errors.push(what);
        }
    }
}

/// What a job's picture is: drawn, of no pixel, or past the budget.
enum Drawn {
    Picture(RgbaImage),
    Empty,
    OverBudget,
}

/// Takes `bytes` of RGBA from `budget`; false (and nothing taken) if it has not that many.
fn take_budget(budget: &AtomicU64, bytes: u64) -> bool {
    budget
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
            left.checked_sub(bytes)
        })
        .is_ok()
}

/// Maps the art files through mul-core's owner.
///
/// SAFETY contract taken on here: as [`super::open_facet`]'s.
#[allow(unsafe_code)]
fn map_art(dir: &Path, format: Option<ArtFormat>) -> Result<OwnedArt, mul_core::Error> {
    // SAFETY: see this function's documentation.
    unsafe { OwnedArt::map(dir, format) }
}

/// Maps the gump files through mul-core's owner.
///
/// SAFETY contract taken on here: as [`super::open_facet`]'s.
#[allow(unsafe_code)]
fn map_gumps(dir: &Path, format: Option<ArtFormat>) -> Result<OwnedGumps, mul_core::Error> {
    // SAFETY: see this function's documentation.
    unsafe { OwnedGumps::map(dir, format) }
}

/// Maps texidx.mul and texmaps.mul through mul-core's owner.
///
/// SAFETY contract taken on here: as [`super::open_facet`]'s.
#[allow(unsafe_code)]
fn map_texmaps(dir: &Path) -> Result<OwnedTexmaps, mul_core::Error> {
    // SAFETY: see this function's documentation.
    unsafe { OwnedTexmaps::map(dir, ()) }
}

/// The bytes of the files at `paths`.
fn input_len(paths: &Option<PicturePaths>) -> u64 {
    paths
        .iter()
        .flat_map(PicturePaths::files)
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum()
}

pub(super) fn export(args: &ExportArgs, out: &mut Output) -> Result<()> {
    let start = Instant::now();
    let format = args.art_format.map(ArtFormat::from);
    std::fs::create_dir_all(&args.output)
        .with_context(|| format!("cannot create {}", args.output.display()))?;
    let tally = Tally::default();
    let (what, form) = match args.what {
        ExportKind::Art => {
            let owned = map_art(&args.dir, format)
                .with_context(|| format!("reading art in {}", args.dir.display()))?;
            let art = owned.view()?;
            let budget = AtomicU64::new(
                input_len(&owned.paths)
                    .saturating_mul(BUDGET_PER_BYTE)
                    .saturating_add(BUDGET_BASE),
            );
            let inputs = input_paths(&owned.paths);
            for folder in ["land", "items"] {
                let path = args.output.join(folder);
                std::fs::create_dir_all(&path)
                    .with_context(|| format!("cannot create {}", path.display()))?;
            }
            let name = |number: usize| match number.checked_sub(ITEM_BASE) {
                None => args.output.join(format!("land/{number:#06X}.png")),
                Some(id) => args.output.join(format!("items/{id:#06X}.png")),
            };
            let jobs = jobs(art.len(), |n| art.entry(n), name, &tally);
            let limits = Limits::default();
            run(&jobs, &inputs, &tally, |number| {
                let picture = match number.checked_sub(ITEM_BASE) {
                    None => {
                        let id = u16::try_from(number).unwrap_or(u16::MAX);
                        let Some(land) = art.land(id)? else {
                            return Ok(Drawn::Empty);
                        };
                        if !take_budget(&budget, 44 * 44 * 4) {
                            return Ok(Drawn::OverBudget);
                        }
                        land_picture(&land, ArtHue::None)?
                    }
                    Some(id) => {
                        let id = u32::try_from(id).unwrap_or(u32::MAX);
                        let Some(item) = art.item(id)? else {
                            return Ok(Drawn::Empty);
                        };
                        let pixels = u64::from(item.width()) * u64::from(item.height());
                        if pixels == 0 {
                            return Ok(Drawn::Empty);
                        }
                        if !take_budget(&budget, pixels.saturating_mul(4)) {
                            return Ok(Drawn::OverBudget);
                        }
                        item_picture(&item, ArtHue::None, &limits)?
                    }
                };
                Ok(Drawn::Picture(picture))
            });
            ("art", art.format().name())
        }
        ExportKind::Gumps => {
            let owned = map_gumps(&args.dir, format)
                .with_context(|| format!("reading gumps in {}", args.dir.display()))?;
            let gumps = owned.view()?;
            let budget = AtomicU64::new(
                input_len(&owned.paths)
                    .saturating_mul(BUDGET_PER_BYTE)
                    .saturating_add(BUDGET_BASE),
            );
            let inputs = input_paths(&owned.paths);
            let folder = args.output.join("gumps");
            std::fs::create_dir_all(&folder)
                .with_context(|| format!("cannot create {}", folder.display()))?;
            let name = |id: usize| folder.join(format!("{id:#06X}.png"));
            let entry = |n: usize| gumps.entry(n).map(|e| e.map(|(bytes, _)| bytes));
            let jobs = jobs(gumps.len(), entry, name, &tally);
            let limits = Limits::default();
            run(&jobs, &inputs, &tally, |id| {
                let Some(gump) = gumps.gump(u32::try_from(id).unwrap_or(u32::MAX))? else {
                    return Ok(Drawn::Empty);
                };
                let pixels = u64::from(gump.width()) * u64::from(gump.height());
                if !take_budget(&budget, pixels.saturating_mul(4)) {
                    return Ok(Drawn::OverBudget);
                }
                Ok(Drawn::Picture(gump_picture(
                    &gump,
                    GumpHue::default(),
                    &limits,
                )?))
            });
            ("gumps", gumps.format().name())
        }
        ExportKind::Texmaps => {
            let owned = map_texmaps(&args.dir)
                .with_context(|| format!("reading texture maps in {}", args.dir.display()))?;
            let texmaps = owned.view()?;
            let inputs: Vec<PathBuf> = owned.paths.iter().flatten().cloned().collect();
            let len: u64 = inputs
                .iter()
                .filter_map(|p| std::fs::metadata(p).ok())
                .map(|m| m.len())
                .sum();
            let budget = AtomicU64::new(
                len.saturating_mul(BUDGET_PER_BYTE)
                    .saturating_add(BUDGET_BASE),
            );
            let folder = args.output.join("texmaps");
            std::fs::create_dir_all(&folder)
                .with_context(|| format!("cannot create {}", folder.display()))?;
            let name = |id: usize| folder.join(format!("{id:#06X}.png"));
            let jobs = jobs(texmaps.len(), |n| texmaps.entry(n), name, &tally);
            run(&jobs, &inputs, &tally, |id| {
                let Some(texmap) = texmaps.texmap(u32::try_from(id).unwrap_or(u32::MAX))? else {
                    return Ok(Drawn::Empty);
                };
                let side = u64::from(texmap.side());
                if !take_budget(&budget, side * side * 4) {
                    return Ok(Drawn::OverBudget);
                }
                Ok(Drawn::Picture(texmap_picture(&texmap)?))
            });
            ("texmaps", "mul")
        }
    };
    let errors = tally.errors.into_inner().unwrap_or_default();
    let report = ExportReport {
        what,
        format: form,
        written: tally.written.into_inner(),
        decoded: tally.decoded.into_inner(),
        empty: tally.empty.into_inner(),
        failed: tally.failed.into_inner(),
        over_budget: tally.over_budget.into_inner(),
        errors,
        bytes: tally.bytes.into_inner(),
        out_dir: args.output.display().to_string(),
        elapsed_ms: crate::files::elapsed_ms(start),
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "wrote {} PNG files ({} pictures decoded, {} bytes) into {} from the {} form",
            report.written, report.decoded, report.bytes, report.out_dir, report.format
        )?;
        for error in &report.errors {
            writeln!(w, "  failed: {error}")?;
        }
        Ok(())
    })?;
    if report.failed > 0 || report.over_budget > 0 {
        bail!(
            "{} entries could not be exported and {} were past the decoding budget",
            report.failed,
            report.over_budget
        );
    }
    Ok(())
}

/// The input files, never to be written over.
fn input_paths(paths: &Option<PicturePaths>) -> Vec<PathBuf> {
    paths
        .iter()
        .flat_map(PicturePaths::files)
        .cloned()
        .collect()
}

/// The jobs for entries `0..count`: one a distinct byte range, with the names of every
/// entry holding it; entries that cannot be read are counted as failed.
fn jobs<'a>(
    count: usize,
    entry: impl Fn(usize) -> Result<Option<&'a [u8]>, mul_core::DataError>,
    name: impl Fn(usize) -> PathBuf,
    tally: &Tally,
) -> Vec<Job> {
    let mut by_range: HashMap<(usize, usize), usize> = HashMap::new();
    let mut jobs: Vec<Job> = Vec::new();
    for number in 0..count {
        match entry(number) {
            Ok(None) => {}
            Ok(Some(bytes)) => {
                let key = (bytes.as_ptr() as usize, bytes.len());
                match by_range.get(&key) {
                    Some(&job) => {
                        if let Some(job) = jobs.get_mut(job) {
                            job.names.push(name(number));
                        }
                    }
                    None => {
                        by_range.insert(key, jobs.len());
                        jobs.push(Job {
                            first: number,
                            names: vec![name(number)],
                        });
                    }
                }
            }
            Err(e) => tally.fail(format!("{}: {e}", name(number).display())),
        }
    }
    jobs
}

/// Draws every job in parallel with `draw` and writes its PNG under each of its names.
fn run(
    jobs: &[Job],
    inputs: &[PathBuf],
    tally: &Tally,
    draw: impl Fn(usize) -> Result<Drawn, anyhow::Error> + Sync,
) {
    let total: usize = jobs.iter().map(|j| j.names.len()).sum();
    let bar = progress_bar(total as u64, "exporting {bar:40} {pos}/{len} {eta}");
    let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    jobs.par_iter().for_each(|job| {
        let result = draw(job.first).and_then(|drawn| match drawn {
            Drawn::Empty => {
                tally.empty.fetch_add(job.names.len(), Ordering::Relaxed);
                Ok(())
            }
            Drawn::OverBudget => {
                tally
                    .over_budget
                    .fetch_add(job.names.len(), Ordering::Relaxed);
                Ok(())
            }
            Drawn::Picture(picture) => {
                let mut png = Vec::new();
                picture.write_png_with(&mut png, crate::render::compression())?;
                tally.decoded.fetch_add(1, Ordering::Relaxed);
                for name in &job.names {
                    crate::files::write_bytes_unsynced(name, &inputs, &png)?;
                    tally.written.fetch_add(1, Ordering::Relaxed);
                    tally.bytes.fetch_add(png.len() as u64, Ordering::Relaxed);
                }
                Ok(())
            }
        });
        if let Err(e) = result {
            let name = job.names.first().map(|n| n.display().to_string());
            tally.fail(format!("{}: {e:#}", name.unwrap_or_default()));
        }
        bar.inc(job.names.len() as u64);
    });
    bar.finish_and_clear();
}
