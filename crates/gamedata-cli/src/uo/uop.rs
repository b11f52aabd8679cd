//! `gamedata uo uop ls` (the entries of any UOP container) and `gamedata uo convert` (a
//! facet's map between its MUL and UOP forms).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand, ValueEnum};
use gamedata_io::Limits;
use mul_core::art::write::{art_to_mul, art_to_uop};
use mul_core::facet::map_uop::{self, map_chunk_name};
use mul_core::gump::write::{gumps_to_mul, gumps_to_uop};
use mul_core::uop::name_hash;
use mul_core::{
    ArtFiles, ArtFormat, FacetPaths, FileData, GumpFiles, MapFormat, PicturePaths, UopContents,
    UopPictures,
};
use serde::Serialize;

use super::{MAPPING_NOTE, map_single};
use crate::output::Output;

#[derive(Subcommand)]
pub(crate) enum UopCommand {
    /// The entries of a UOP container: hash, offset, header length, stored and decoded
    /// sizes, compression, and the name when it is a map chunk's.
    #[command(after_help = MAPPING_NOTE)]
    Ls(LsArgs),
}

#[derive(Args)]
pub(crate) struct LsArgs {
    /// The container (map0LegacyMUL.uop, artLegacyMUL.uop, gumpartLegacyMUL.uop ...).
    file: PathBuf,
}

/// The form to convert a map to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Target {
    /// map{N}LegacyMUL.uop.
    Uop,
    /// map{N}.mul.
    Mul,
}

#[derive(Args)]
pub(crate) struct ConvertArgs {
    /// The client folder holding the map (or the art) to convert.
    dir: PathBuf,
    /// Facet number (the file names' number).
    #[arg(long, default_value_t = 0)]
    facet: u8,
    /// Convert the art instead of a map: art.mul with artidx.mul to artLegacyMUL.uop, or
    /// back; every entry byte for byte, exact repeats stored once (the client counts a
    /// UOP's entries + 0x4000 numbers, so a set using more than all but 0x4000 of its
    /// numbers comes back with more, the extra ones empty).
    #[arg(long, conflicts_with = "facet")]
    art: bool,
    /// Convert the gumps instead of a map: gumpart.mul with gumpidx.mul to
    /// gumpartLegacyMUL.uop (each size stored before its data), or back.
    #[arg(long, conflicts_with_all = ["facet", "art"])]
    gumps: bool,
    /// The form to write: the map is read in the other.
    #[arg(long, value_enum)]
    to: Target,
    /// Folder to write into (created).
    out_dir: PathBuf,
}

pub(crate) fn run(cmd: UopCommand, out: &mut Output) -> Result<()> {
    match cmd {
        UopCommand::Ls(args) => ls(&args, out),
    }
}

/// The names a map UOP's chunks can have: facets 0 to 9, chunks 0 to 511 (facet 0 at its
/// largest has 112).
fn known_names() -> HashMap<u64, String> {
    let mut names = HashMap::new();
    for facet in 0..10 {
        for chunk in 0..512 {
            let name = map_chunk_name(facet, chunk);
            names.insert(name_hash(&name), name);
        }
    }
    names
}

#[derive(Serialize)]
struct EntryRow {
    index: usize,
    hash: String,
    offset: u64,
    header_len: u32,
    compressed_len: u32,
    decompressed_len: u32,
    compression: &'static str,
    name: Option<String>,
}

#[derive(Serialize)]
struct LsReport {
    version: u32,
    table_blocks: usize,
    count: usize,
    entries: Vec<EntryRow>,
}

fn ls(args: &LsArgs, out: &mut Output) -> Result<()> {
    let reading = || format!("reading {}", args.file.display());
    let owned = map_single::<UopContents>(&args.file).with_context(reading)?;
    let container = owned.view().with_context(reading)?;
    let names = known_names();
    let entries: Vec<EntryRow> = container
        .entries()
        .iter()
        .map(|e| {
            let raw = e.raw();
            EntryRow {
                index: e.index(),
                hash: format!("{:#018x}", e.hash()),
                offset: raw.offset.get(),
                header_len: raw.header_len.get(),
                compressed_len: raw.compressed_len.get(),
                decompressed_len: raw.decompressed_len.get(),
                compression: e.compression().name(),
                name: names.get(&e.hash()).cloned(),
            }
        })
        .collect();
    let report = LsReport {
        version: container.header().version.get(),
        table_blocks: container.table_blocks(),
        count: entries.len(),
        entries,
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "{:>6} {:<18} {:>12} {:>6} {:>10} {:>10} {:<5} name",
            "index", "hash", "offset", "header", "stored", "decoded", "comp"
        )?;
        for e in &report.entries {
            writeln!(
                w,
                "{:>6} {:<18} {:>12} {:>6} {:>10} {:>10} {:<5} {}",
                e.index,
                e.hash,
                e.offset,
                e.header_len,
                e.compressed_len,
                e.decompressed_len,
                e.compression,
                e.name.as_deref().unwrap_or("-")
            )?;
        }
        writeln!(
            w,
            "{} entries in {} table blocks (version {})",
            report.count, report.table_blocks, report.version
        )
    })
}

#[derive(Serialize)]
struct ConvertReport {
    from: String,
    to: String,
    bytes: usize,
    map_bytes: usize,
    elapsed_ms: f64,
}

#[derive(Serialize)]
struct PictureConvertReport {
    from: Vec<String>,
    to: Vec<String>,
    bytes: usize,
    entries: usize,
    /// Entries that could not be read, left out (written empty).
    failed: u64,
    /// The first of them, with their messages.
    errors: Vec<String>,
    elapsed_ms: f64,
}

/// A file to write: its name and bytes.
type NamedBytes = (&'static str, Vec<u8>);

/// Entries left out of a conversion, named in reports.
const ERRORS_KEPT: usize = 10;

/// The files of a conversion, `(name, bytes)` in the order to write them (a data file
/// before its index, so that an index never points into a file not written), and the
/// entries it left out.
fn conversion_files(
    uop_name: &'static str,
    mul_names: [&'static str; 2],
    to: Target,
    to_uop: impl FnOnce()
        -> Result<mul_core::picture::convert::Conversion<Vec<u8>>, mul_core::DataError>,
    to_mul: impl FnOnce() -> Result<
        mul_core::picture::convert::Conversion<mul_core::picture::convert::MulData>,
        mul_core::DataError,
    >,
) -> Result<(Vec<NamedBytes>, LeftOut)> {
    Ok(match to {
        Target::Uop => {
            let done = to_uop()?;
            (vec![(uop_name, done.files)], done.left_out)
        }
        Target::Mul => {
            let done = to_mul()?;
            let (index, data) = done.files;
            let [data_name, index_name] = mul_names;
            (vec![(data_name, data), (index_name, index)], done.left_out)
        }
    })
}

type LeftOut = gamedata_io::Problems<(usize, mul_core::DataError)>;

/// `uo convert --art` (or `--gumps`): the art (or the gumps) in the other form, written
/// into `args.out_dir`; entries that cannot be read are left out, named, and make the exit
/// status 1 once the rest is written.
fn convert_art(args: &ConvertArgs, out: &mut Output) -> Result<()> {
    let start = std::time::Instant::now();
    let from = match args.to {
        Target::Uop => ArtFormat::Mul,
        Target::Mul => ArtFormat::Uop,
    };
    let reading = |what: &str| format!("reading the {what} in {}", args.dir.display());
    // The pictures in the other form, the entries left out, the used entries, and the
    // files read.
    let (files, left_out, entries, paths) = if args.gumps {
        let owned = map_gumps(&args.dir, from).with_context(|| reading("gumps"))?;
        let gumps = owned.view()?;
        let (files, left_out) = conversion_files(
            UopPictures::Gumps.file_name(),
            ["gumpart.mul", "gumpidx.mul"],
            args.to,
            || gumps_to_uop(&gumps),
            || gumps_to_mul(&gumps),
        )?;
        let used = (0..gumps.len())
            .map_while(|n| u32::try_from(n).ok())
            .filter(|&n| matches!(gumps.entry(n), Ok(Some(_))))
            .count();
        (files, left_out, used, owned.into_inner().paths)
    } else {
        let owned = map_pictures(&args.dir, from).with_context(|| reading("art"))?;
        let art = owned.view()?;
        let (files, left_out) = conversion_files(
            UopPictures::Art.file_name(),
            ["art.mul", "artidx.mul"],
            args.to,
            || art_to_uop(&art),
            || art_to_mul(&art),
        )?;
        let used = (0..art.len())
            .map_while(|n| u32::try_from(n).ok())
            .filter(|&n| matches!(art.entry(n), Ok(Some(_))))
            .count();
        (files, left_out, used, owned.into_inner().paths)
    };
    let sources: Vec<&Path> = paths
        .iter()
        .flat_map(PicturePaths::files)
        .map(PathBuf::as_path)
        .collect();
    std::fs::create_dir_all(&args.out_dir)
        .with_context(|| format!("cannot create {}", args.out_dir.display()))?;
    let mut report = PictureConvertReport {
        from: sources.iter().map(|p| p.display().to_string()).collect(),
        to: Vec::new(),
        bytes: 0,
        entries,
        failed: left_out.total(),
        errors: left_out
            .kept()
            .iter()
            .take(ERRORS_KEPT)
            .map(|(number, error)| format!("entry {number:#06X}: {error}"))
            .collect(),
        elapsed_ms: 0.0,
    };
    for (name, bytes) in &files {
        let target = args.out_dir.join(name);
        crate::files::write_bytes(&target, &sources, bytes)?;
        report.to.push(target.display().to_string());
        report.bytes += bytes.len();
    }
    report.elapsed_ms = crate::files::elapsed_ms(start);
    out.report(&report, |w| {
        writeln!(
            w,
            "wrote {} ({} bytes, {} entries) from {}",
            report.to.join(" and "),
            report.bytes,
            report.entries,
            report.from.join(" and ")
        )?;
        for error in &report.errors {
            writeln!(w, "  left out: {error}")?;
        }
        Ok(())
    })?;
    if report.failed > 0 {
        bail!(
            "{} entries could not be read and were left out (written empty)",
            report.failed
        );
    }
    Ok(())
}

/// Maps the gumps in form `format` through mul-core's owner.
///
/// SAFETY contract taken on here: as [`super::open_facet`]'s.
#[allow(unsafe_code)]
fn map_gumps(dir: &Path, format: ArtFormat) -> Result<GumpFiles, mul_core::Error> {
    // SAFETY: see this function's documentation.
    unsafe { GumpFiles::map(dir, Some(format)) }
}

/// Maps the art in form `format` through mul-core's owner.
///
/// SAFETY contract taken on here: as [`super::open_facet`]'s.
#[allow(unsafe_code)]
fn map_pictures(dir: &Path, format: ArtFormat) -> Result<ArtFiles, mul_core::Error> {
    // SAFETY: see this function's documentation.
    unsafe { ArtFiles::map(dir, Some(format)) }
}

pub(crate) fn convert(args: &ConvertArgs, out: &mut Output) -> Result<()> {
    if args.art || args.gumps {
        return convert_art(args, out);
    }
    let start = std::time::Instant::now();
    let (from, to) = match args.to {
        Target::Uop => (MapFormat::Mul, MapFormat::Uop),
        Target::Mul => (MapFormat::Uop, MapFormat::Mul),
    };
    let (source, _) =
        FacetPaths::find_map(&args.dir, args.facet, Some(from)).with_context(|| {
            format!(
                "finding facet {}'s map in {}",
                args.facet,
                args.dir.display()
            )
        })?;
    let reading = || format!("reading {}", source.display());
    let (bytes, map_bytes) = match to {
        MapFormat::Uop => {
            // Read, not mapped: the whole map is written out again anyway.
            let data = FileData::read(&source)?;
            let uop = mul_core::write_map_uop(&data, args.facet).with_context(reading)?;
            (uop, data.len())
        }
        MapFormat::Mul => {
            let limits = Limits::default();
            let owned = map_single::<UopContents>(&source).with_context(reading)?;
            let container = owned.view().with_context(reading)?;
            let map =
                map_uop::read_map_mul(&container, args.facet, &limits).with_context(reading)?;
            let len = map.len();
            (map, len)
        }
    };
    if bytes.is_empty() {
        bail!("{} holds no map blocks", source.display());
    }
    std::fs::create_dir_all(&args.out_dir)
        .with_context(|| format!("cannot create {}", args.out_dir.display()))?;
    let target: PathBuf = args.out_dir.join(to.file_name(args.facet));
    crate::files::write_bytes(&target, &[&source], &bytes)?;
    let report = ConvertReport {
        from: source.display().to_string(),
        to: target.display().to_string(),
        bytes: bytes.len(),
        map_bytes,
        elapsed_ms: crate::files::elapsed_ms(start),
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "wrote {} ({} bytes) from {} ({} bytes of map blocks)",
            report.to, report.bytes, report.from, report.map_bytes
        )
    })
}
