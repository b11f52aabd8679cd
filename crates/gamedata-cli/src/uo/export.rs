//! `gamedata uo export`: every picture of a client folder's art, gumps, texture maps or
//! animations as PNG files, in parallel: the files opened here, the export run by
//! gamedata-render ([`gamedata_render::uo::export`]: each distinct picture decoded once,
//! the pixels decoded and the bytes written held to budgets of 64 bytes per input byte
//! plus 64 MiB, every entry that cannot be read, drawn or written counted and reported),
//! its report printed. The command exits with status 1 when an entry failed or was past
//! a budget.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use gamedata_render::uo::export::{
    ExportOptions, ExportProgress, FolderWriter, Pictures, export as export_pictures,
};
use mul_core::{ArtFiles, ArtFormat, GumpFiles, PicturePaths, TexmapFiles};
use serde::Serialize;

use super::anim_folder::{AnimFolder, AnimFormatArg};
use super::art::FormatArg;
use super::folder::folder_verdata;
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
    /// anim.mul and anim2 to anim5, and AnimationFrame*.uop (those in the folder): each
    /// body's action and stored direction (0 to 4) as a folder of frames,
    /// OUT/anims/anim2/0x00C8/03/2/000.png, OUT/anims/uop/0x0190/04/2/000.png.
    Anims,
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
    /// OUT/texmaps/0x0012.png); for animations a folder of frames an entry, named by the
    /// file (anim ... anim5, uop for AnimationFrame*.uop), the body in hex, the action and
    /// the stored direction (OUT/anims/anim/0x0190/02/3/000.png), an empty frame a 1 x 1
    /// transparent PNG.
    #[arg(short, long)]
    output: PathBuf,
    /// Which files to read (as `uo art`): by default the MUL pair when both files are in
    /// the folder, else the UOP (texture maps have no UOP form).
    #[arg(long, value_enum)]
    art_format: Option<FormatArg>,
    /// Do not apply verdata.mul's art and gump patches (applied by default when the folder
    /// has the file, as the client does).
    #[arg(long)]
    no_verdata: bool,
    /// For anims: both forms the folder has (auto), the MUL files only, or
    /// AnimationFrame*.uop only.
    #[arg(long, value_enum, default_value = "auto")]
    anim_format: AnimFormatArg,
}

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
    /// Pictures (an animation entry's directions, for the UOP) put off while the threads
    /// ran, past a thread's share of the 64 MiB the export's pictures may hold at once, and
    /// drawn after them, one at a time.
    drawn_alone: usize,
    /// The zlib streams inflated (a gump's, a UOP animation's), each once for all the
    /// entries naming it, and the bytes their decoders read and wrote: what the decoding
    /// budget took for them bounds these.
    inflated: InflatedReport,
    /// The first entries that failed, with their messages.
    errors: Vec<String>,
    /// Bytes of PNG written.
    bytes: u64,
    out_dir: String,
    elapsed_ms: f64,
    /// Anims only: PNG files written from anim.mul and anim2 to anim5.
    #[serde(skip_serializing_if = "Option::is_none")]
    written_mul: Option<usize>,
    /// Anims only: PNG files written from AnimationFrame*.uop.
    #[serde(skip_serializing_if = "Option::is_none")]
    written_uop: Option<usize>,
}

#[derive(Serialize)]
struct InflatedReport {
    streams: u64,
    read: u64,
    written: u64,
}

/// Maps the art files through mul-core's owner.
///
/// SAFETY contract taken on here: as [`super::open_facet`]'s.
#[allow(unsafe_code)]
fn map_art(dir: &Path, format: Option<ArtFormat>) -> Result<ArtFiles, mul_core::Error> {
    // SAFETY: see this function's documentation.
    unsafe { ArtFiles::map(dir, format) }
}

/// Maps the gump files through mul-core's owner.
///
/// SAFETY contract taken on here: as [`super::open_facet`]'s.
#[allow(unsafe_code)]
fn map_gumps(dir: &Path, format: Option<ArtFormat>) -> Result<GumpFiles, mul_core::Error> {
    // SAFETY: see this function's documentation.
    unsafe { GumpFiles::map(dir, format) }
}

/// Maps texidx.mul and texmaps.mul through mul-core's owner.
///
/// SAFETY contract taken on here: as [`super::open_facet`]'s.
#[allow(unsafe_code)]
fn map_texmaps(dir: &Path) -> Result<TexmapFiles, mul_core::Error> {
    // SAFETY: see this function's documentation.
    unsafe { TexmapFiles::map(dir, ()) }
}

pub(super) fn export(args: &ExportArgs, out: &mut Output) -> Result<()> {
    let start = Instant::now();
    let format = args.art_format.map(ArtFormat::from);
    std::fs::create_dir_all(&args.output)
        .with_context(|| format!("cannot create {}", args.output.display()))?;
    let bar = Bar::default();
    // The files opened, their views given to the export with the folder writer, which
    // writes over none of the inputs.
    let run = |what: &Pictures<'_, '_>, inputs: Vec<PathBuf>| -> Result<_> {
        let options =
            ExportOptions::for_input(input_len(&inputs)).with_png(crate::render::png_options());
        let sink = FolderWriter::new(&args.output, inputs);
        Ok(export_pictures(what, &sink, &options, &bar)?)
    };
    let report = match args.what {
        ExportKind::Art => {
            let owned = map_art(&args.dir, format)
                .with_context(|| format!("reading art in {}", args.dir.display()))?;
            let verdata = folder_verdata(&args.dir, args.no_verdata)?;
            let patches = verdata.as_ref().map(|(_, v)| v.view()).transpose()?;
            let art = match &patches {
                Some(patches) => owned.view()?.with_verdata(patches),
                None => owned.view()?,
            };
            run(&Pictures::Art(&art), input_paths(&owned.paths, &verdata))?
        }
        ExportKind::Gumps => {
            let owned = map_gumps(&args.dir, format)
                .with_context(|| format!("reading gumps in {}", args.dir.display()))?;
            let verdata = folder_verdata(&args.dir, args.no_verdata)?;
            let patches = verdata.as_ref().map(|(_, v)| v.view()).transpose()?;
            let gumps = match &patches {
                Some(patches) => owned.view()?.with_verdata(patches),
                None => owned.view()?,
            };
            run(
                &Pictures::Gumps(&gumps),
                input_paths(&owned.paths, &verdata),
            )?
        }
        ExportKind::Texmaps => {
            let owned = map_texmaps(&args.dir)
                .with_context(|| format!("reading texture maps in {}", args.dir.display()))?;
            let texmaps = owned.view()?;
            let inputs: Vec<PathBuf> = owned.paths.iter().flatten().cloned().collect();
            run(&Pictures::Texmaps(&texmaps), inputs)?
        }
        ExportKind::Anims => {
            let folder = AnimFolder::open(&args.dir, args.anim_format)?;
            let inputs = folder.input_paths();
            let mul = folder.mul.as_ref().map(|owned| owned.view()).transpose()?;
            let uop = folder.uop.as_ref().map(|owned| owned.view()).transpose()?;
            let what = Pictures::Animations {
                mul: mul.as_ref(),
                uop: uop.as_ref().map(|files| &files.animations),
                mobtypes: folder.mobtypes(),
            };
            run(&what, inputs)?
        }
    };
    let inflated = report.inflated;
    let report = ExportReport {
        what: report.what,
        format: report.format,
        written: report.written,
        decoded: report.decoded,
        empty: report.empty,
        failed: report.failed,
        over_budget: report.over_budget,
        drawn_alone: report.drawn_alone,
        inflated: InflatedReport {
            streams: inflated.streams,
            read: inflated.read,
            written: inflated.written,
        },
        errors: report.errors,
        bytes: report.bytes,
        out_dir: args.output.display().to_string(),
        elapsed_ms: crate::files::elapsed_ms(start),
        written_mul: report.written_mul,
        written_uop: report.written_uop,
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

/// The export's progress on stderr: a bar a pass (hidden when stderr is piped).
#[derive(Default)]
struct Bar(Mutex<Option<indicatif::ProgressBar>>);

impl Bar {
    fn bar(&self) -> Option<indicatif::ProgressBar> {
        self.0.lock().ok().and_then(|bar| bar.clone())
    }
}

impl ExportProgress for Bar {
    fn start(&self, entries: u64) {
        if let Ok(mut bar) = self.0.lock() {
            *bar = Some(progress_bar(
                entries,
                "exporting {bar:40} {pos}/{len} {eta}",
            ));
        }
    }

    fn advance(&self, entries: u64) {
        if let Some(bar) = self.bar() {
            bar.inc(entries);
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.bar() {
            bar.finish_and_clear();
        }
    }
}

/// The bytes of the files at `inputs` (those that can be read), what the budgets follow.
fn input_len(inputs: &[PathBuf]) -> u64 {
    inputs
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum()
}

/// The input files, never to be written over: the pictures' files and verdata.mul.
fn input_paths(
    paths: &Option<PicturePaths>,
    verdata: &Option<(PathBuf, mul_core::VerdataFile)>,
) -> Vec<PathBuf> {
    paths
        .iter()
        .flat_map(PicturePaths::files)
        .chain(verdata.as_ref().map(|(p, _)| p))
        .cloned()
        .collect()
}
