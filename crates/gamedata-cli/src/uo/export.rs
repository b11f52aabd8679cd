//! `gamedata uo export`: every picture of a client folder's art, gumps or texture maps as PNG
//! files, in parallel.
//!
//! Each distinct picture is decoded once: entries that repeat another's bytes exactly (as
//! editors write one picture under several numbers) and read them the same way (both land
//! tiles or both items; gumps of the same size) get the same PNG bytes written under their
//! own names; compressed UOP gumps over one stored stream are decoded in one job, the stream
//! inflated once for all of them (`export_stream`). The pixels decoded and the bytes written are each held to a budget
//! proportional to the input (64 bytes per input byte, plus 64 MiB), so that entries of a
//! few bytes claiming large pictures, or thousands of numbers naming one picture, cannot
//! multiply the work or the output: what is past a budget is counted, not drawn or not
//! written. Every entry that cannot be read, drawn or written is counted and reported (the
//! first few with their messages) and the others are written; the command then exits with
//! status 1. Memory: 8 bytes a used entry besides the mapped files, and the pictures being
//! drawn and encoded, within 64 MiB in all threads (`export_job::Job`; a picture past a
//! thread's share drawn after the threads, alone, for 24 bytes more while it waits).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use gamedata_render::uo::art::{ArtHue, item_picture, land_picture};
use gamedata_render::uo::gump::{GumpHue, gump_picture};
use gamedata_render::uo::texmap::texmap_picture;
use mul_core::art::ITEM_BASE;
use mul_core::{
    ArtFiles, ArtFormat, GumpFiles, Gumps, InflateError, Limits, PicturePaths, TexmapFiles,
    VerdataEntry,
};
use serde::Serialize;

use super::anim_folder::{AnimFolder, AnimFormatArg};
use super::art::FormatArg;
use super::export_anims::export_anims;
use super::export_job::{Budgeted, Job};
use super::export_run::{
    Drawn, Entries, Part, Streams, budgets, number, numbered, owned_len, pictures_of, run,
    run_parts,
};
use super::export_stream::{FromStream, inflate_once};
use super::folder::folder_verdata;
use crate::output::Output;

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

/// Entries whose messages the report keeps.
pub(super) const ERRORS_KEPT: usize = 10;
/// RGBA bytes the export may decode per input byte, beyond [`BUDGET_BASE`].
pub(super) const BUDGET_PER_BYTE: u64 = 64;
/// RGBA bytes the export may decode whatever the input's size.
pub(super) const BUDGET_BASE: u64 = 64 << 20;

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
    let (inflated_before, _) = gamedata_io::inflate_counts();
    let format = args.art_format.map(ArtFormat::from);
    std::fs::create_dir_all(&args.output)
        .with_context(|| format!("cannot create {}", args.output.display()))?;
    // PNG files written from the MUL and from the UOP (anims only).
    let mut split = None;
    let (what, form, tally) = match args.what {
        ExportKind::Art => {
            let owned = map_art(&args.dir, format)
                .with_context(|| format!("reading art in {}", args.dir.display()))?;
            let verdata = folder_verdata(&args.dir, args.no_verdata)?;
            let patches = verdata.as_ref().map(|(_, v)| v.view()).transpose()?;
            let art = match &patches {
                Some(patches) => owned.view()?.with_verdata(patches),
                None => owned.view()?,
            };
            let inputs = input_paths(&owned.paths, &verdata);
            let (budget, tally) = budgets(&inputs);
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
            let range = numbered(art.len(), &tally);
            let entries = Entries {
                numbers: || range.clone(),
                read: |n: usize| art.entry(entry_number(n)).map(|e| e.is_some()),
                // A patched number's bytes lie in verdata.mul: told apart by `reading`.
                start: |n: usize| match art.patch(entry_number(n)) {
                    Some(patch) => patch.offset.get(),
                    None => index.get(n).map_or(0, |r| r.offset.get()),
                },
                // Land tiles and items read the same bytes differently.
                reading: |n: usize| {
                    u64::from(n >= ITEM_BASE) | patched_bit(art.patch(entry_number(n)))
                },
            };
            let order = entries.order(&name, &tally);
            let limits = Limits::default();
            run(
                &order,
                &entries,
                &name,
                &inputs,
                &budget,
                &tally,
                |number, job| {
                    let picture = match number.checked_sub(ITEM_BASE) {
                        None => {
                            let id = u16::try_from(number).unwrap_or(u16::MAX);
                            let Some(land) = art.land(id)? else {
                                return Ok(Drawn::Empty);
                            };
                            if let Some(instead) = job.picture(44 * 44 * 4) {
                                return Ok(instead);
                            }
                            land_picture(&land, ArtHue::None)?
                        }
                        Some(_) => {
                            let Some(item) = art.item_at(entry_number(number))? else {
                                return Ok(Drawn::Empty);
                            };
                            let pixels = u64::from(item.width()) * u64::from(item.height());
                            if pixels == 0 {
                                return Ok(Drawn::Empty);
                            }
                            if let Some(instead) = job.picture(pixels.saturating_mul(4)) {
                                return Ok(instead);
                            }
                            item_picture(&item, ArtHue::None, &limits)?
                        }
                    };
                    Ok(Drawn::Picture(picture))
                },
            );
            ("art", art.format().name(), tally)
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
            let inputs = input_paths(&owned.paths, &verdata);
            let (budget, tally) = budgets(&inputs);
            let folder = args.output.join("gumps");
            std::fs::create_dir_all(&folder)
                .with_context(|| format!("cannot create {}", folder.display()))?;
            let name = |id: usize| folder.join(format!("{id:#06X}.png"));
            let index = gumps.index();
            let range = numbered(gumps.len(), &tally);
            let entries = Entries {
                numbers: || range.clone(),
                // A compressed gump's stored bytes are its zlib stream.
                read: |n: usize| gumps.stored(entry_number(n)).map(|e| e.is_some()),
                // A patched id's bytes lie in verdata.mul: told apart by `reading`.
                start: |n: usize| match gumps.patch(entry_number(n)) {
                    Some(patch) => patch.offset.get(),
                    None => index.get(n).map_or(0, |r| r.offset.get()),
                },
                // Gumps of different sizes read the same bytes differently; compressed gumps
                // over one stream (their size inside it) by their compression and the
                // length they declare it decodes to.
                reading: |n: usize| match gumps.patch(entry_number(n)) {
                    Some(patch) => u64::from(patch.extra.get()) | patched_bit(Some(patch)),
                    None => match gumps.compressed_stream(entry_number(n)) {
                        Ok(Some(stream)) => {
                            COMPRESSED_BIT
                                | (u64::from(stream.compression == 3) << 32)
                                | u64::from(stream.declared)
                        }
                        _ if gumps.is_compressed(entry_number(n)) => COMPRESSED_BIT | (1 << 39),
                        _ => u64::from(index.get(n).map_or(0, |r| r.extra.get())),
                    },
                },
            };
            let order = entries.order(&name, &tally);
            // The compressed gumps over one stream are decoded in one job, the stream
            // inflated once for all of them.
            let streams = Streams {
                entries: &entries,
                shares: |a: usize, b: usize| {
                    gumps.is_compressed(entry_number(a)) && gumps.is_compressed(entry_number(b))
                },
            };
            run_parts(
                &order,
                &streams,
                &name,
                &inputs,
                &budget,
                &tally,
                |group, job, part| {
                    let Some(first) = group.first().map(|&e| number(e)) else {
                        return;
                    };
                    if !gumps.is_compressed(entry_number(first)) {
                        let drawn = draw_gump(&gumps, first, job, Ok(Vec::new()), 0);
                        return part(Part {
                            within: None,
                            offset: 0,
                            span: 1,
                            drawn,
                        });
                    }
                    // Its pictures: the same compression and declared length each.
                    let pictures = pictures_of(group, &streams);
                    let stream_of = |within: &std::ops::Range<usize>| {
                        let id = group.get(within.start).map_or(usize::MAX, |&e| number(e));
                        (id, gumps.compressed_stream(entry_number(id)))
                    };
                    // Each picture's stream: one for all of them, as entries over one start
                    // have one stored length (others overlap them, errors); a stream of
                    // another length all the same is inflated on its own.
                    let mut streams: Vec<SharedGumps<'_>> = Vec::new();
                    for within in &pictures {
                        match stream_of(within) {
                            (_, Ok(Some(stream))) => {
                                let same = |s: &[u8]| {
                                    std::ptr::eq(s.as_ptr(), stream.stored.as_ptr())
                                        && s.len() == stream.stored.len()
                                };
                                let at = match streams.iter().position(|(s, _, _)| same(s)) {
                                    Some(at) => at,
                                    None => {
                                        streams.push((stream.stored, Vec::new(), Vec::new()));
                                        streams.len() - 1
                                    }
                                };
                                if let Some((_, declared, inflating)) = streams.get_mut(at) {
                                    declared.push(u64::from(stream.declared));
                                    inflating.push(within.clone());
                                }
                            }
                            (_, Ok(None)) => part(Part {
                                within: Some(within.clone()),
                                offset: 0,
                                span: 1,
                                drawn: Ok(Drawn::Empty),
                            }),
                            (_, Err(e)) => part(Part {
                                within: Some(within.clone()),
                                offset: 0,
                                span: 1,
                                drawn: Err(e.into()),
                            }),
                        }
                    }
                    for (stored, declared, inflating) in streams {
                        let inputs = inflate_once(job, "a gump's zlib stream", stored, &declared);
                        for (within, input) in inflating.into_iter().zip(inputs) {
                            let id = group.get(within.start).map_or(usize::MAX, |&e| number(e));
                            let drawn = match input {
                                FromStream::Instead(drawn) => Ok(drawn),
                                FromStream::Bytes(inflated, reserved) => {
                                    draw_gump(&gumps, id, job, inflated, reserved)
                                }
                            };
                            part(Part {
                                within: Some(within),
                                offset: 0,
                                span: 1,
                                drawn,
                            });
                        }
                    }
                },
            );
            ("gumps", gumps.format().name(), tally)
        }
        ExportKind::Texmaps => {
            let owned = map_texmaps(&args.dir)
                .with_context(|| format!("reading texture maps in {}", args.dir.display()))?;
            let texmaps = owned.view()?;
            let inputs: Vec<PathBuf> = owned.paths.iter().flatten().cloned().collect();
            let (budget, tally) = budgets(&inputs);
            let folder = args.output.join("texmaps");
            std::fs::create_dir_all(&folder)
                .with_context(|| format!("cannot create {}", folder.display()))?;
            let name = |id: usize| folder.join(format!("{id:#06X}.png"));
            let index = texmaps.index();
            let range = numbered(texmaps.len(), &tally);
            let entries = Entries {
                numbers: || range.clone(),
                read: |n: usize| texmaps.entry(entry_number(n)).map(|e| e.is_some()),
                start: |n: usize| index.get(n).map_or(0, |r| r.offset.get()),
                // The same bytes are the same texture map.
                reading: |_: usize| 0u64,
            };
            let order = entries.order(&name, &tally);
            run(
                &order,
                &entries,
                &name,
                &inputs,
                &budget,
                &tally,
                |id, job| {
                    let Some(texmap) = texmaps.texmap(u32::try_from(id).unwrap_or(u32::MAX))?
                    else {
                        return Ok(Drawn::Empty);
                    };
                    let side = u64::from(texmap.side());
                    if let Some(instead) = job.picture(side * side * 4) {
                        return Ok(instead);
                    }
                    Ok(Drawn::Picture(texmap_picture(&texmap)?))
                },
            );
            ("texmaps", "mul", tally)
        }
        ExportKind::Anims => {
            let folder = AnimFolder::open(&args.dir, args.anim_format)?;
            let inputs = folder.input_paths();
            let (budget, tally) = budgets(&inputs);
            let (mul, uop) = export_anims(&folder, &args.output, &inputs, &budget, &tally)?;
            split = Some((mul, uop));
            let form = match (&folder.mul, &folder.uop) {
                (Some(_), Some(_)) => "mul+uop",
                (None, Some(_)) => "uop",
                _ => "mul",
            };
            ("anims", form, tally)
        }
    };
    let errors = tally.errors.into_inner().unwrap_or_default();
    let (inflated, _) = gamedata_io::inflate_counts();
    let report = ExportReport {
        what,
        format: form,
        written: tally.written.into_inner(),
        decoded: tally.decoded.into_inner(),
        empty: tally.empty.into_inner(),
        failed: tally.failed.into_inner(),
        over_budget: tally.over_budget.into_inner(),
        drawn_alone: tally.alone.into_inner(),
        inflated: InflatedReport {
            streams: inflated.streams.saturating_sub(inflated_before.streams),
            read: inflated.read.saturating_sub(inflated_before.read),
            written: inflated.written.saturating_sub(inflated_before.written),
        },
        errors,
        bytes: tally.bytes.into_inner(),
        out_dir: args.output.display().to_string(),
        elapsed_ms: crate::files::elapsed_ms(start),
        written_mul: split.map(|(mul, _)| mul),
        written_uop: split.map(|(_, uop)| uop),
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

/// A stream some compressed gumps share, the lengths they declare and their pictures'
/// places in the job's group.
type SharedGumps<'a> = (&'a [u8], Vec<u64>, Vec<std::ops::Range<usize>>);

/// Bit 40 of a gump's reading when it is stored compressed (below it: a gump stored as is,
/// its size word and [`patched_bit`]).
const COMPRESSED_BIT: u64 = 1 << 40;

/// Draws gump `id` within the budget: decoded from `inflated`, its zlib stream's output
/// (for a gump stored compressed; `reserved` bytes of the budget taken for it), or in
/// place. A compressed gump's BWT stage spends the budget too, held to what is left.
fn draw_gump(
    gumps: &Gumps<'_>,
    id: usize,
    job: &Job,
    inflated: Result<Vec<u8>, InflateError>,
    reserved: u64,
) -> Result<Drawn> {
    let id32 = u32::try_from(id).unwrap_or(u32::MAX);
    let decoded = match job.decode_within(
        reserved,
        |limits| gumps.decoded_from(id32, inflated, limits),
        |d| owned_len(d.is_decoded(), d.bytes()),
    )? {
        Budgeted::Decoded(decoded) => decoded,
        Budgeted::Instead(drawn) => return Ok(drawn),
    };
    let gump = decoded.gump()?;
    let pixels = u64::from(gump.width()) * u64::from(gump.height());
    if let Some(instead) = job.picture(pixels.saturating_mul(4)) {
        return Ok(instead);
    }
    Ok(Drawn::Picture(gump_picture(
        &gump,
        GumpHue::default(),
        &Limits::default(),
    )?))
}

/// Bit 32 of an entry's reading when verdata patches it (its bytes lie in verdata.mul).
/// Entry `n` as mul-core numbers index entries (`u32`); an `n` past `u32::MAX` is past
/// every index, as `u32::MAX` is.
fn entry_number(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn patched_bit(patch: Option<&VerdataEntry>) -> u64 {
    u64::from(patch.is_some()) << 32
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
