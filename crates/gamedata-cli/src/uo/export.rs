//! `gamedata uo export`: every picture of a client folder's art, gumps or texture maps as PNG
//! files, in parallel.
//!
//! Each distinct picture is decoded once: entries that repeat another's bytes exactly (as
//! editors write one picture under several numbers) and read them the same way (both land
//! tiles or both items; gumps of the same size) get the same PNG bytes written under their
//! own names. The pixels decoded and the bytes written are each held to a budget
//! proportional to the input (64 bytes per input byte, plus 64 MiB), so that entries of a
//! few bytes claiming large pictures, or thousands of numbers naming one picture, cannot
//! multiply the work or the output: what is past a budget is counted, not drawn or not
//! written. Every entry that cannot be read, drawn or written is counted and reported (the
//! first few with their messages) and the others are written; the command then exits with
//! status 1. Memory: 8 bytes a used entry besides the mapped files and the pictures being
//! encoded.

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

/// The tally the parallel jobs keep.
struct Tally {
    /// PNG bytes that may still be written.
    output_budget: AtomicU64,
    written: AtomicUsize,
    decoded: AtomicUsize,
    empty: AtomicUsize,
    failed: AtomicUsize,
    over_budget: AtomicUsize,
    bytes: AtomicU64,
    errors: Mutex<Vec<String>>,
}

impl Tally {
    /// A tally whose output budget follows from `input` bytes of input.
    fn new(input: u64) -> Self {
        Tally {
            output_budget: AtomicU64::new(budget_for(input)),
            written: AtomicUsize::new(0),
            decoded: AtomicUsize::new(0),
            empty: AtomicUsize::new(0),
            failed: AtomicUsize::new(0),
            over_budget: AtomicUsize::new(0),
            bytes: AtomicU64::new(0),
            errors: Mutex::new(Vec::new()),
        }
    }

    /// Counts `entries` entries failed, keeping `what` among the first messages.
    fn fail(&self, entries: usize, what: String) {
        self.failed.fetch_add(entries, Ordering::Relaxed);
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

/// A budget of [`BUDGET_PER_BYTE`] bytes per input byte plus [`BUDGET_BASE`].
fn budget_for(input: u64) -> u64 {
    input
        .saturating_mul(BUDGET_PER_BYTE)
        .saturating_add(BUDGET_BASE)
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
    let (what, form, tally) = match args.what {
        ExportKind::Art => {
            let owned = map_art(&args.dir, format)
                .with_context(|| format!("reading art in {}", args.dir.display()))?;
            let art = owned.view()?;
            let input = input_len(&owned.paths);
            let budget = AtomicU64::new(budget_for(input));
            let tally = Tally::new(input);
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
            let index = art.index();
            let entries = Entries {
                count: art.len(),
                read: |n: usize| art.entry(n).map(|e| e.is_some()),
                start: |n: usize| index.get(n).map_or(0, |r| r.offset.get()),
                // Land tiles and items read the same bytes differently.
                reading: |n: usize| u32::from(n >= ITEM_BASE),
            };
            let order = entries.order(&name, &tally);
            let limits = Limits::default();
            run(&order, &entries, &name, &inputs, &tally, |number| {
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
            ("art", art.format().name(), tally)
        }
        ExportKind::Gumps => {
            let owned = map_gumps(&args.dir, format)
                .with_context(|| format!("reading gumps in {}", args.dir.display()))?;
            let gumps = owned.view()?;
            let input = input_len(&owned.paths);
            let budget = AtomicU64::new(budget_for(input));
            let tally = Tally::new(input);
            let inputs = input_paths(&owned.paths);
            let folder = args.output.join("gumps");
            std::fs::create_dir_all(&folder)
                .with_context(|| format!("cannot create {}", folder.display()))?;
            let name = |id: usize| folder.join(format!("{id:#06X}.png"));
            let index = gumps.index();
            let entries = Entries {
                count: gumps.len(),
                read: |n: usize| gumps.entry(n).map(|e| e.is_some()),
                start: |n: usize| index.get(n).map_or(0, |r| r.offset.get()),
                // Gumps of different sizes read the same bytes differently.
                reading: |n: usize| index.get(n).map_or(0, |r| r.extra.get()),
            };
            let order = entries.order(&name, &tally);
            let limits = Limits::default();
            run(&order, &entries, &name, &inputs, &tally, |id| {
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
            ("gumps", gumps.format().name(), tally)
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
            let budget = AtomicU64::new(budget_for(len));
            let tally = Tally::new(len);
            let folder = args.output.join("texmaps");
            std::fs::create_dir_all(&folder)
                .with_context(|| format!("cannot create {}", folder.display()))?;
            let name = |id: usize| folder.join(format!("{id:#06X}.png"));
            let index = texmaps.index();
            let entries = Entries {
                count: texmaps.len(),
                read: |n: usize| texmaps.entry(n).map(|e| e.is_some()),
                start: |n: usize| index.get(n).map_or(0, |r| r.offset.get()),
                // The same bytes are the same texture map.
                reading: |_: usize| 0,
            };
            let order = entries.order(&name, &tally);
            run(&order, &entries, &name, &inputs, &tally, |id| {
                let Some(texmap) = texmaps.texmap(u32::try_from(id).unwrap_or(u32::MAX))? else {
                    return Ok(Drawn::Empty);
                };
                let side = u64::from(texmap.side());
                if !take_budget(&budget, side * side * 4) {
                    return Ok(Drawn::OverBudget);
                }
                Ok(Drawn::Picture(texmap_picture(&texmap)?))
            });
            ("texmaps", "mul", tally)
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

/// A picture set's entries as the export reads them.
struct Entries<R, S, V> {
    count: usize,
    /// Whether entry n holds a picture (`Err` if it cannot be read).
    read: R,
    /// Where entry n's bytes start: its index record's offset.
    start: S,
    /// How entry n's bytes are read: entries over the same bytes read the same way are
    /// one picture.
    reading: V,
}

/// The number in an element of [`Entries::order`].
fn number(element: u64) -> usize {
    usize::try_from(element & 0xFFFF_FFFF).unwrap_or(usize::MAX)
}

impl<R, S, V> Entries<R, S, V>
where
    R: Fn(usize) -> Result<bool, mul_core::DataError>,
    S: Fn(usize) -> u32,
    V: Fn(usize) -> u32,
{
    /// The entries holding a picture as `start << 32 | number`, sorted so that the entries
    /// of one picture (the same bytes, read the same way) lie side by side, the lowest
    /// number first; entries that cannot be read are counted as failed, and numbers past
    /// 32 bits too.
    fn order(&self, name: &impl Fn(usize) -> PathBuf, tally: &Tally) -> Vec<u64> {
        let numbered = self.count.min(1 << 32);
        if self.count > numbered {
            tally.fail(
                self.count - numbered,
                format!("entries from {numbered:#X} on: past 32-bit numbers"),
            );
        }
        let mut used = 0usize;
        for n in 0..numbered {
            match (self.read)(n) {
                Ok(true) => used += 1,
                Ok(false) => {}
                Err(e) => tally.fail(1, format!("{}: {e}", name(n).display())),
            }
        }
        let mut order = Vec::with_capacity(used);
        order.extend(
            (0..numbered)
                .filter(|&n| matches!((self.read)(n), Ok(true)))
                .map(|n| (u64::from((self.start)(n)) << 32) | n as u64)
                .take(used),
        );
        order.sort_unstable();
        for run in order.chunk_by_mut(|a, b| a >> 32 == b >> 32) {
            if run.len() > 1 {
                run.sort_unstable_by_key(|&e| ((self.reading)(number(e)), e));
            }
        }
        order
    }

    /// True if elements `a` and `b` of [`Entries::order`] are one picture.
    fn same(&self, a: u64, b: u64) -> bool {
        a >> 32 == b >> 32 && (self.reading)(number(a)) == (self.reading)(number(b))
    }
}

/// Draws each picture of `order` in parallel with `draw` (given its lowest number) and
/// writes its PNG under the name of each of its entries while the output budget lasts.
fn run<R, S, V>(
    order: &[u64],
    entries: &Entries<R, S, V>,
    name: &(impl Fn(usize) -> PathBuf + Sync),
    inputs: &[PathBuf],
    tally: &Tally,
    draw: impl Fn(usize) -> Result<Drawn, anyhow::Error> + Sync,
) where
    Entries<R, S, V>: Sync,
    R: Fn(usize) -> Result<bool, mul_core::DataError>,
    S: Fn(usize) -> u32,
    V: Fn(usize) -> u32,
{
    let bar = progress_bar(order.len() as u64, "exporting {bar:40} {pos}/{len} {eta}");
    let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    let pictures = order.chunk_by(|&a, &b| entries.same(a, b));
    pictures.par_bridge().for_each(|picture| {
        let Some(first) = picture.first().map(|&e| number(e)) else {
            return;
        };
        let entries_here = picture.len();
        let failed = |e: anyhow::Error| {
            let others = match entries_here - 1 {
                0 => String::new(),
                more => format!(" (and {more} more entries of the same bytes)"),
            };
            tally.fail(
                entries_here,
                format!("{}{others}: {e:#}", name(first).display()),
            );
        };
        match draw(first) {
            Err(e) => failed(e),
            Ok(Drawn::Empty) => {
                tally.empty.fetch_add(entries_here, Ordering::Relaxed);
            }
            Ok(Drawn::OverBudget) => {
                tally.over_budget.fetch_add(entries_here, Ordering::Relaxed);
            }
            Ok(Drawn::Picture(image)) => {
                let mut png = Vec::new();
                match image.write_png_with(&mut png, crate::render::compression()) {
                    Err(e) => failed(e.into()),
                    Ok(()) => {
                        tally.decoded.fetch_add(1, Ordering::Relaxed);
                        for &element in picture {
                            write_one(&name(number(element)), &inputs, &png, tally);
                        }
                    }
                }
            }
        }
        bar.inc(entries_here as u64);
    });
    bar.finish_and_clear();
}

/// Writes `png` at `path` if the output budget has room, counting it written, failed or
/// past the budget.
fn write_one(path: &Path, inputs: &[&Path], png: &[u8], tally: &Tally) {
    if !take_budget(&tally.output_budget, png.len() as u64) {
        tally.over_budget.fetch_add(1, Ordering::Relaxed);
        return;
    }
    match crate::files::write_bytes_unsynced(path, inputs, png) {
        Ok(()) => {
            tally.written.fetch_add(1, Ordering::Relaxed);
            tally.bytes.fetch_add(png.len() as u64, Ordering::Relaxed);
        }
        Err(e) => tally.fail(1, format!("{}: {e:#}", path.display())),
    }
}
