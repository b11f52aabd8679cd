//! Every picture of a client's art, gumps, texture maps or animations as PNG files, in
//! parallel: what `gamedata uo export` runs, for pipelines to call ([`export`]).
//!
//! Each distinct picture is decoded once: entries that repeat another's bytes exactly (as
//! editors write one picture under several numbers) and read them the same way (both land
//! tiles or both items; gumps of the same size) get the same PNG bytes written under their
//! own names; compressed UOP gumps and animations over one stored stream are decoded in
//! one job, the stream inflated once for all of them. The pixels decoded and the bytes
//! written are each held to a budget ([`ExportOptions`]; proportional to the input,
//! [`budget_for`]: 64 bytes per input byte, plus 64 MiB), so that entries of a few bytes
//! claiming large pictures, or thousands of numbers naming one picture, cannot multiply
//! the work or the output: what is past a budget is counted, not drawn or not written.
//! Every entry that cannot be read, drawn or written is counted and reported (the first
//! 10 with their messages) and the others are written.
//!
//! Threads: the export runs on the rayon pool it is called in (`pool.install(|| ..)` to
//! choose one). Memory: 8 bytes a used entry besides the views' files, and the pictures
//! being drawn and encoded, within 64 MiB in all threads (each thread its share; a picture
//! past a thread's share drawn after the threads, alone, for 24 bytes more while it
//! waits). The PNG files go to a [`PngSink`] the caller chooses: a folder on disk
//! ([`FolderWriter`], each file written whole or not at all, never over an input), a zip
//! archive, memory.
//!
//! ```no_run
//! use gamedata_render::mul_core::{ArtFormat, ArtFiles, PicturePaths};
//! use gamedata_render::uo::export::{ExportOptions, FolderWriter, Pictures, export};
//!
//! let owned = ArtFiles::open("uo", Some(ArtFormat::Mul))?;
//! let art = owned.view()?;
//! std::fs::create_dir_all("out")?;
//! // The files read, never written over, and their size, which the budgets follow.
//! let inputs: Vec<_> = owned.paths.iter().flat_map(PicturePaths::files).cloned().collect();
//! let input_bytes = inputs.iter().filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len()).sum();
//! let report = export(
//!     &Pictures::Art(&art),
//!     &FolderWriter::new("out", inputs),
//!     &ExportOptions::for_input(input_bytes),
//!     &(),
//! )?;
//! println!("{} files, {} failed", report.written, report.failed);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod anim;
mod entries;
mod job;
mod pictures;
mod run;
mod sink;
mod stream;
mod tally;

use std::sync::atomic::AtomicU64;

use gamedata_io::{InflateCounts, inflate_counts};
use mul_core::{AnimationBytes, Art, Gumps, MobTypes, Texmaps, UopAnimations};

pub use crate::files::WriteError;
use crate::{PngCompression, PngOptions};
use run::Run;
pub use sink::{ExportProgress, FolderWriter, PngSink};
pub use tally::FILE_COST;
use tally::Tally;

/// RGBA bytes the export may decode per input byte, beyond [`BUDGET_BASE`].
pub const BUDGET_PER_BYTE: u64 = 64;
/// RGBA bytes the export may decode whatever the input's size.
pub const BUDGET_BASE: u64 = 64 << 20;

/// A budget of [`BUDGET_PER_BYTE`] bytes per input byte plus [`BUDGET_BASE`], for input
/// files of `input_bytes` bytes in all: what `gamedata uo export` decodes and writes at
/// the most.
pub const fn budget_for(input_bytes: u64) -> u64 {
    input_bytes
        .saturating_mul(BUDGET_PER_BYTE)
        .saturating_add(BUDGET_BASE)
}

/// What to export: a picture set's view (as opened, verdata.mul's patches applied or not).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Pictures<'a, 'data> {
    /// Land tiles into `land/0x0003.png`, items into `items/0x0EED.png`.
    Art(&'a Art<'data>),
    /// Gumps into `gumps/0x01F4.png`.
    Gumps(&'a Gumps<'data>),
    /// Texture maps into `texmaps/0x0012.png`.
    Texmaps(&'a Texmaps<'data>),
    /// Each body's action and stored direction (0 to 4) as a folder of frames:
    /// `anims/anim2/0x00C8/03/2/000.png` from anim.mul ... anim5.mul (`mul`), then
    /// `anims/uop/0x0190/04/2/000.png` from AnimationFrame*.uop (`uop`; every body 0 to
    /// 0xFFFF and action 0 to 79 an entry name has, each under its own name, with the
    /// client's frames a direction for the body's type: mobtypes.txt's when `mobtypes`
    /// lists it). An empty frame is a 1 x 1 transparent PNG.
    Animations {
        /// The MUL files, when exported.
        mul: Option<&'a AnimationBytes<'data>>,
        /// The UOP files, when exported.
        uop: Option<&'a UopAnimations<'data>>,
        /// mobtypes.txt's lines, when the folder has it.
        mobtypes: Option<&'a MobTypes>,
    },
}

/// How an export runs: its budgets and how its PNG files are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExportOptions {
    /// Bytes the export may decode in all: each picture's RGBA, each zlib stream's
    /// stored and inflated bytes, each decoded entry's own buffer. Default:
    /// [`budget_for`]`(0)`, 64 MiB.
    pub decode_budget: u64,
    /// Bytes of PNG the export may write in all, each file or folder counting at least
    /// [`FILE_COST`]. Default: [`budget_for`]`(0)`, 64 MiB.
    pub output_budget: u64,
    /// How the PNG files are stored ([`crate::write_png`]; the pixels are the same
    /// whatever the options). Default: [`PngOptions::default`], what `gamedata` writes.
    pub png: PngOptions,
}

impl Default for ExportOptions {
    fn default() -> Self {
        ExportOptions::for_input(0)
    }
}

impl ExportOptions {
    /// Both budgets for input files of `input_bytes` bytes in all ([`budget_for`]), as
    /// `gamedata uo export` sets them; the default PNG options ([`PngCompression::Fast`]).
    pub const fn for_input(input_bytes: u64) -> Self {
        ExportOptions {
            decode_budget: budget_for(input_bytes),
            output_budget: budget_for(input_bytes),
            png: PngOptions {
                compression: PngCompression::Fast,
                filter: crate::PngFilter::Up,
                colour: crate::PngColour::Rgba,
            },
        }
    }

    /// Sets [`ExportOptions::decode_budget`].
    #[must_use]
    pub const fn with_decode_budget(mut self, bytes: u64) -> Self {
        self.decode_budget = bytes;
        self
    }

    /// Sets [`ExportOptions::output_budget`].
    #[must_use]
    pub const fn with_output_budget(mut self, bytes: u64) -> Self {
        self.output_budget = bytes;
        self
    }

    /// Sets [`ExportOptions::png`].
    #[must_use]
    pub const fn with_png(mut self, png: PngOptions) -> Self {
        self.png = png;
        self
    }
}

/// What an export wrote and could not: the figures `gamedata uo export --json` prints.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExportReport {
    /// What was exported: `art`, `gumps`, `texmaps` or `anims`.
    pub what: &'static str,
    /// The form read: `mul` or `uop` (the view's), `mul+uop` for animations of both.
    pub format: &'static str,
    /// PNG files written.
    pub written: usize,
    /// Pictures decoded (written less exact repeats).
    pub decoded: usize,
    /// Entries with a picture of no pixel (an item of width or height 0): nothing written.
    pub empty: usize,
    /// Entries that could not be read, drawn or written.
    pub failed: usize,
    /// Entries not drawn or not written because the pictures decoded or written so far
    /// used up a budget.
    pub over_budget: usize,
    /// Pictures (an animation entry's directions, for the UOP) put off while the threads
    /// ran, past a thread's share of the 64 MiB the export's pictures may hold at once, and drawn after them, one at a time.
    pub drawn_alone: usize,
    /// The zlib streams inflated while the export ran (a gump's, a UOP animation's; the
    /// process's counters, [`gamedata_io::inflate_counts`]), each once for all the entries
    /// naming it, and the bytes their decoders read and wrote: what the decoding budget
    /// took for them bounds these.
    pub inflated: InflateCounts,
    /// The first 10 entries that failed, each with its message (its name as the sink
    /// locates it, [`PngSink::locate`]).
    pub errors: Vec<String>,
    /// Bytes of PNG written.
    pub bytes: u64,
    /// Animations only: PNG files written from anim.mul and anim2 to anim5.
    pub written_mul: Option<usize>,
    /// Animations only: PNG files written from AnimationFrame*.uop.
    pub written_uop: Option<usize>,
}

/// Writes every picture of `what` as a PNG file into `sink`, in parallel on the current
/// rayon pool, within `options`' budgets, telling `progress` (`&()` for nothing) how far
/// it is.
///
/// Returns the report: an entry that cannot be read, drawn or written is counted there
/// ([`ExportReport::failed`], [`ExportReport::errors`]), not an error. Returns `Err` only
/// when the sink cannot make a top folder ([`PngSink::create_folder`]: `land` and `items`
/// for art, `gumps`, `texmaps`), before anything is drawn.
pub fn export(
    what: &Pictures<'_, '_>,
    sink: &dyn PngSink,
    options: &ExportOptions,
    progress: &dyn ExportProgress,
) -> Result<ExportReport, WriteError> {
    let (inflated_before, _) = inflate_counts();
    let budget = AtomicU64::new(options.decode_budget);
    let tally = Tally::new(options.output_budget);
    let run = Run {
        sink,
        budget: &budget,
        tally: &tally,
        png: options.png,
        progress,
    };
    let mut split = None;
    let (name, format) = match *what {
        Pictures::Art(art) => {
            for folder in pictures::ART_FOLDERS {
                sink.create_folder(folder)?;
            }
            pictures::export_art(art, &run);
            ("art", art.format().name())
        }
        Pictures::Gumps(gumps) => {
            sink.create_folder("gumps")?;
            pictures::export_gumps(gumps, &run);
            ("gumps", gumps.format().name())
        }
        Pictures::Texmaps(texmaps) => {
            sink.create_folder("texmaps")?;
            pictures::export_texmaps(texmaps, &run);
            ("texmaps", "mul")
        }
        Pictures::Animations { mul, uop, mobtypes } => {
            split = Some(anim::export_anims(mul, uop, mobtypes, &run));
            let format = match (mul, uop) {
                (Some(_), Some(_)) => "mul+uop",
                (None, Some(_)) => "uop",
                _ => "mul",
            };
            ("anims", format)
        }
    };
    let (inflated, _) = inflate_counts();
    Ok(ExportReport {
        what: name,
        format,
        written: tally.written.into_inner(),
        decoded: tally.decoded.into_inner(),
        empty: tally.empty.into_inner(),
        failed: tally.failed.into_inner(),
        over_budget: tally.over_budget.into_inner(),
        drawn_alone: tally.alone.into_inner(),
        inflated: InflateCounts {
            streams: inflated.streams.saturating_sub(inflated_before.streams),
            read: inflated.read.saturating_sub(inflated_before.read),
            written: inflated.written.saturating_sub(inflated_before.written),
        },
        errors: tally.errors.into_inner().unwrap_or_default(),
        bytes: tally.bytes.into_inner(),
        written_mul: split.map(|(mul, _)| mul),
        written_uop: split.map(|(_, uop)| uop),
    })
}
