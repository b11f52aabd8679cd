//! `gamedata uo ...`: Ultima Online world files.
//!
//! The files are memory-mapped (see [`open_facet`]): opening a facet costs microseconds
//! whatever its size, and the pages are read as a query touches them.

pub(crate) mod radar;
pub(crate) mod uop;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, Subcommand, ValueEnum};
use mul_core::raw::StaticRecord;
use mul_core::synth::World;
use mul_core::{
    Facet, FacetFiles, FacetOptions, FileData, FileError, MapFormat, MapSize, Multis, TileData,
    TileFlags, query,
};
use serde::Serialize;

use crate::output::Output;

/// The warning every mapping command carries in its help.
const MAPPING_NOTE: &str = "The files are memory-mapped: if another program truncates one \
    while this command runs, the process is killed by SIGBUS. Do not point it at files that \
    are being written.";

#[derive(Subcommand)]
pub(crate) enum UoCommand {
    /// The files of one facet: sizes, map dimensions, tiledata layout, statics and multis.
    #[command(after_help = MAPPING_NOTE)]
    Info(InfoArgs),
    /// One land or item tile of tiledata.mul (--json: id, name, flags, height, weight).
    Tiledata(TiledataArgs),
    /// The land and the statics at one tile, and the top surface (--json: x, y, land,
    /// statics, top_z).
    #[command(after_help = MAPPING_NOTE)]
    Tile(TileArgs),
    /// Whole-facet statistics: land and statics z ranges and most common ids, timed.
    #[command(after_help = MAPPING_NOTE)]
    Stats(StatsArgs),
    /// Every static with an item id, or whose tiledata has a flag.
    #[command(after_help = MAPPING_NOTE)]
    Find(FindArgs),
    /// The components of one multi (house, ship ...) of multi.idx / multi.mul.
    #[command(after_help = MAPPING_NOTE)]
    Multi(MultiArgs),
    /// Render the radar map: the top static's radar colour, else the land's.
    #[command(after_help = MAPPING_NOTE)]
    Render(radar::RenderArgs),
    /// UOP containers (map, art, gumps, sounds, multis ...).
    #[command(subcommand)]
    Uop(uop::UopCommand),
    /// Convert a facet's map between map{N}.mul and map{N}LegacyMUL.uop, byte-exact both
    /// ways.
    #[command(after_help = MAPPING_NOTE)]
    Convert(uop::ConvertArgs),
    /// Write a synthetic world at a facet's full size (map, staidx, statics, tiledata,
    /// radarcol, hues).
    Synth(SynthArgs),
}

/// Which facet, and how big its map is: the facet's known size that the map's length
/// proves, or explicit dimensions in tiles.
#[derive(Args, Clone, Copy)]
pub(crate) struct SizeArgs {
    /// Facet number (the file names' number). Without --width and --height the map must
    /// have one of the facet's known sizes (0 and 1: 6144 or 7168 x 4096 tiles; 2-5 their
    /// own); any other map is refused.
    #[arg(long, default_value_t = 0)]
    pub(crate) facet: u8,
    /// Map width in tiles (a multiple of 8), for custom maps such as the 1024x1024 pre-alpha.
    #[arg(long, requires = "height")]
    pub(crate) width: Option<u32>,
    /// Map height in tiles (a multiple of 8).
    #[arg(long, requires = "width")]
    pub(crate) height: Option<u32>,
    /// Which map file to read: map{N}.mul or map{N}LegacyMUL.uop. By default the MUL when
    /// the folder has it, else the UOP.
    #[arg(long, value_enum)]
    pub(crate) map_format: Option<MapFormatArg>,
    /// Apply the diff files the folder has (mapdifl/mapdif, stadifl/stadifi/stadif): their
    /// blocks replace the map's and the statics'. Off by default, as a server decides.
    #[arg(long)]
    pub(crate) apply_diffs: bool,
}

/// A map file's form on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum MapFormatArg {
    /// map{N}.mul.
    Mul,
    /// map{N}LegacyMUL.uop (or map{N}xLegacyMUL.uop).
    Uop,
}

impl From<MapFormatArg> for MapFormat {
    fn from(arg: MapFormatArg) -> Self {
        match arg {
            MapFormatArg::Mul => MapFormat::Mul,
            MapFormatArg::Uop => MapFormat::Uop,
        }
    }
}

impl SizeArgs {
    /// The library's options for these arguments.
    fn options(&self) -> Result<FacetOptions> {
        let size = match (self.width, self.height) {
            (Some(w), Some(h)) => Some(MapSize::from_tiles(w, h)?),
            _ => None,
        };
        Ok(FacetOptions {
            size,
            apply_diffs: self.apply_diffs,
            ..Default::default()
        })
    }
}

#[derive(Args)]
pub(crate) struct InfoArgs {
    /// The client folder.
    dir: PathBuf,
    #[command(flatten)]
    size: SizeArgs,
}

#[derive(Args)]
pub(crate) struct TiledataArgs {
    /// tiledata.mul.
    file: PathBuf,
    /// A land tile id (decimal or 0x hex).
    #[arg(long, value_parser = parse_id, conflicts_with = "item", required_unless_present = "item")]
    land: Option<u16>,
    /// An item tile id (decimal or 0x hex).
    #[arg(long, value_parser = parse_id)]
    item: Option<u16>,
}

#[derive(Args)]
pub(crate) struct TileArgs {
    /// The client folder.
    dir: PathBuf,
    #[command(flatten)]
    size: SizeArgs,
    /// Column in tiles.
    x: u32,
    /// Row in tiles.
    y: u32,
}

#[derive(Args)]
pub(crate) struct StatsArgs {
    /// The client folder (the map and statics files are enough).
    dir: PathBuf,
    #[command(flatten)]
    size: SizeArgs,
    /// Scan on one thread instead of rayon's pool (the results are the same).
    #[arg(long)]
    sequential: bool,
}

#[derive(Args)]
pub(crate) struct FindArgs {
    /// The client folder.
    dir: PathBuf,
    #[command(flatten)]
    size: SizeArgs,
    /// An item id (decimal or 0x hex).
    #[arg(long, value_parser = parse_id, conflicts_with = "flag", required_unless_present = "flag")]
    id: Option<u16>,
    /// A tiledata flag name (impassable, surface, wet, foliage, no_shoot ...; case ignored).
    #[arg(long)]
    flag: Option<String>,
}

#[derive(Args)]
pub(crate) struct MultiArgs {
    /// The client folder holding multi.idx and multi.mul.
    dir: PathBuf,
    /// The multi id (decimal or 0x hex).
    #[arg(value_parser = parse_id_usize)]
    id: usize,
}

#[derive(Args)]
pub(crate) struct SynthArgs {
    /// Folder to write into (created).
    out_dir: PathBuf,
    /// Facet number 0-5: its full preset size (facet 0 and 1: 7168x4096) and file names.
    #[arg(long, default_value_t = 0)]
    facet: u8,
    /// Generator seed: the same seed gives the same bytes.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The map's form: map{N}.mul or map{N}LegacyMUL.uop.
    #[arg(long, value_enum, default_value = "mul")]
    map_format: MapFormatArg,
    /// Also write diff files patching this many blocks (land turned to lava, one gold coin
    /// a block).
    #[arg(long, default_value_t = 0)]
    diffs: usize,
}

/// An id in decimal or 0x hex.
fn parse_id(text: &str) -> Result<u16, String> {
    let (digits, radix) = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => (hex, 16),
        None => (text, 10),
    };
    u16::from_str_radix(digits, radix).map_err(|e| format!("{text:?} is not an id 0..=65535: {e}"))
}

fn parse_id_usize(text: &str) -> Result<usize, String> {
    parse_id(text).map(usize::from)
}

pub(crate) fn run(cmd: UoCommand, out: &mut Output) -> Result<()> {
    match cmd {
        UoCommand::Info(a) => info(&a, out),
        UoCommand::Tiledata(a) => tiledata(&a, out),
        UoCommand::Tile(a) => tile(&a, out),
        UoCommand::Stats(a) => stats(&a, out),
        UoCommand::Find(a) => find(&a, out),
        UoCommand::Multi(a) => multi(&a, out),
        UoCommand::Render(a) => radar::render(&a, out),
        UoCommand::Synth(a) => synth(&a, out),
        UoCommand::Uop(cmd) => uop::run(cmd, out),
        UoCommand::Convert(a) => uop::convert(&a, out),
    }
}

/// Maps a single file read-only (tiledata, multi, a UOP container, radarcol).
///
/// SAFETY contract taken on here ([`FileData::map`]): nothing may modify or truncate the
/// file while it is mapped. The command only reads game files the user points it at, and
/// its help and the README say that truncating one meanwhile ends the process with SIGBUS.
#[allow(unsafe_code)]
pub(crate) fn map_file(path: &Path) -> Result<FileData, FileError> {
    // SAFETY: see this function's documentation.
    unsafe { FileData::map(path) }
}

/// Finds and maps facet `size.facet`'s files in `dir` through mul-core's mapping entry
/// points.
///
/// SAFETY contract taken on here ([`FacetFiles::map`]): as [`map_file`]'s.
#[allow(unsafe_code)]
pub(crate) fn open_facet(dir: &Path, size: &SizeArgs) -> Result<FacetFiles> {
    // SAFETY: see this function's documentation.
    let files = match size.map_format {
        None => unsafe { FacetFiles::map(dir, size.facet) },
        Some(format) => unsafe { FacetFiles::map_as(dir, size.facet, format.into()) },
    };
    files.with_context(|| format!("opening facet {} in {}", size.facet, dir.display()))
}

/// The views over `files` at the size the arguments give.
pub(crate) fn views<'a>(files: &'a FacetFiles, size: &SizeArgs) -> Result<Facet<'a>> {
    let facet = files.facet_with(&size.options()?);
    facet.with_context(|| {
        format!(
            "reading facet {} in {}",
            size.facet,
            files.paths.map.parent().unwrap_or(Path::new(".")).display()
        )
    })
}

#[derive(Serialize)]
struct FileRow {
    name: String,
    bytes: u64,
}

#[derive(Serialize)]
struct InfoReport {
    facet: u8,
    map_format: &'static str,
    diffs: DiffInfo,
    files: Vec<FileRow>,
    /// Tiles.
    width: u32,
    height: u32,
    width_blocks: u32,
    height_blocks: u32,
    blocks: usize,
    padded: bool,
    statics: StaticsInfo,
    tiledata: Option<TiledataInfo>,
    multi: Option<MultiInfo>,
    radarcol_entries: Option<usize>,
    hues: Option<usize>,
}

#[derive(Serialize)]
struct DiffInfo {
    /// Map blocks the diff files replace (inside this map).
    map_blocks: usize,
    /// Statics blocks the diff files replace.
    statics_blocks: usize,
    /// Whether they were applied (--apply-diffs).
    applied: bool,
    /// List entries left out (past any map, without a record) and files of a wrong length.
    problems: Vec<String>,
}

#[derive(Serialize)]
struct StaticsInfo {
    record_size: usize,
    count: u64,
    bad_blocks: usize,
}

#[derive(Serialize)]
struct TiledataInfo {
    layout: &'static str,
    land: usize,
    items: usize,
}

#[derive(Serialize)]
struct MultiInfo {
    record_size: usize,
    entries: usize,
    multis: usize,
}

fn info(args: &InfoArgs, out: &mut Output) -> Result<()> {
    let files = open_facet(&args.dir, &args.size)?;
    let facet = views(&files, &args.size)?;
    let size = facet.size();
    let mut rows = Vec::new();
    let p = &files.paths;
    let d = &p.diffs;
    for path in [Some(&p.map), Some(&p.staidx), Some(&p.statics)]
        .into_iter()
        .chain([p.tiledata.as_ref(), p.radarcol.as_ref(), p.hues.as_ref()])
        .chain([&d.mapdifl, &d.mapdif, &d.stadifl, &d.stadifi, &d.stadif].map(Option::as_ref))
        .flatten()
    {
        rows.push(file_row(path)?);
    }
    let multis = open_multis(&args.dir)?;
    if let Some((paths, _, _)) = &multis {
        for path in paths {
            rows.push(file_row(path)?);
        }
    }
    let multi = match &multis {
        Some((_, idx, mul)) => {
            let m = Multis::parse(idx, mul, None).context("reading multi.idx")?;
            Some(MultiInfo {
                record_size: m.format().record_len(),
                entries: m.len(),
                multis: m.ids().count(),
            })
        }
        None => None,
    };
    let st = query::statics_stats_par(&facet.statics, size.blocks());
    let report = InfoReport {
        facet: args.size.facet,
        map_format: files.paths.map_format.name(),
        diffs: DiffInfo {
            map_blocks: files.diff_index().map.count_below(size.blocks()),
            statics_blocks: files.diff_index().statics.count_below(size.blocks()),
            applied: args.size.apply_diffs,
            problems: files
                .diff_index()
                .problems
                .iter()
                .map(ToString::to_string)
                .collect(),
        },
        files: rows,
        width: size.width(),
        height: size.height(),
        width_blocks: size.width_blocks(),
        height_blocks: size.height_blocks(),
        blocks: size.blocks(),
        padded: facet.map.padded(),
        statics: StaticsInfo {
            record_size: facet.statics.format().record_len(),
            count: st.count,
            bad_blocks: facet.statics.validate(size.blocks()).len(),
        },
        tiledata: facet.tiledata.map(|t| TiledataInfo {
            layout: match t.layout() {
                mul_core::TileDataLayout::Old => "old",
                mul_core::TileDataLayout::OldExtended => "old-extended",
                mul_core::TileDataLayout::HighSeas => "high-seas",
            },
            land: t.land_count(),
            items: t.item_count(),
        }),
        multi,
        radarcol_entries: facet.radar.map(|r| r.colours().len()),
        hues: facet.hues.map(|h| h.len()),
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "facet {}: {size}, map read from the {}{}",
            report.facet,
            if report.map_format == "uop" {
                "UOP container"
            } else {
                "MUL file"
            },
            if report.padded {
                ", one padding block"
            } else {
                ""
            }
        )?;
        for f in &report.files {
            writeln!(w, "  {:<16} {:>12} bytes", f.name, f.bytes)?;
        }
        let d = &report.diffs;
        if d.map_blocks + d.statics_blocks > 0 || !d.problems.is_empty() {
            writeln!(
                w,
                "diffs: {} map blocks, {} statics blocks, {}",
                d.map_blocks,
                d.statics_blocks,
                if d.applied {
                    "applied"
                } else {
                    "not applied (--apply-diffs applies them)"
                }
            )?;
            for problem in &d.problems {
                writeln!(w, "  left out: {problem}")?;
            }
        }
        let s = &report.statics;
        writeln!(
            w,
            "statics: {} records of {} bytes, {} bad blocks",
            s.count, s.record_size, s.bad_blocks
        )?;
        match &report.tiledata {
            Some(t) => writeln!(
                w,
                "tiledata: {} layout, {} land and {} item tiles",
                t.layout, t.land, t.items
            )?,
            None => writeln!(w, "tiledata: not in the folder")?,
        }
        if let Some(m) = &report.multi {
            writeln!(
                w,
                "multi: {} entries, {} multis, {}-byte components",
                m.entries, m.multis, m.record_size
            )?;
        }
        if let Some(n) = report.radarcol_entries {
            writeln!(w, "radarcol: {n} colours")?;
        }
        if let Some(n) = report.hues {
            writeln!(w, "hues: {n}")?;
        }
        Ok(())
    })
}

fn file_row(path: &Path) -> Result<FileRow> {
    let meta =
        std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(FileRow {
        name: path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
        bytes: meta.len(),
    })
}

/// multi.idx and multi.mul of `dir`, mapped, if both are there.
#[allow(clippy::type_complexity)]
fn open_multis(dir: &Path) -> Result<Option<([PathBuf; 2], FileData, FileData)>> {
    let find = |name| match gamedata_io::find_file_ignoring_case(dir, name) {
        Ok(p) => Ok(Some(p)),
        Err(FileError::Missing { .. }) => Ok(None),
        Err(e) => Err(e),
    };
    let (Some(idx), Some(mul)) = (find("multi.idx")?, find("multi.mul")?) else {
        return Ok(None);
    };
    let (i, m) = (map_file(&idx)?, map_file(&mul)?);
    Ok(Some(([idx, mul], i, m)))
}

#[derive(Serialize)]
struct TileReport {
    id: u16,
    name: String,
    /// Flag names in lower case ("impassable", "no_shoot"), as `find --flag` takes them.
    flags: Vec<String>,
    height: Option<u8>,
    weight: Option<u8>,
}

fn tiledata(args: &TiledataArgs, out: &mut Output) -> Result<()> {
    let data = map_file(&args.file)?;
    let t = TileData::parse(&data).with_context(|| format!("reading {}", args.file.display()))?;
    let report = match (args.land, args.item) {
        (Some(id), _) => {
            let l = t
                .land(id)
                .ok_or_else(|| anyhow!("land id {id} is past the 16,384 land tiles"))?;
            TileReport {
                id,
                name: l.name_lossy().into_owned(),
                flags: flag_names(l.flags()),
                height: None,
                weight: None,
            }
        }
        (None, Some(id)) => {
            let i = t.item(id).ok_or_else(|| {
                anyhow!(
                    "item id {id} is past the {} item tiles of this file",
                    t.item_count()
                )
            })?;
            TileReport {
                id,
                name: i.name_lossy().into_owned(),
                flags: flag_names(i.flags()),
                height: Some(i.height()),
                weight: Some(i.weight()),
            }
        }
        (None, None) => bail!("give --land ID or --item ID"),
    };
    let kind = if args.land.is_some() { "land" } else { "item" };
    out.report(&report, |w| {
        writeln!(
            w,
            "{kind} {:#06x} ({}): {:?}",
            report.id, report.id, report.name
        )?;
        writeln!(
            w,
            "  flags: {}",
            if report.flags.is_empty() {
                "none".to_owned()
            } else {
                report.flags.join(", ")
            }
        )?;
        if let (Some(h), Some(wt)) = (report.height, report.weight) {
            writeln!(w, "  height {h}, weight {wt}")?;
        }
        Ok(())
    })
}

/// The names of the named flags that are set, in lower case, in bit order.
fn flag_names(flags: TileFlags) -> Vec<String> {
    flags.names().map(str::to_ascii_lowercase).collect()
}

#[derive(Serialize)]
struct LandAt {
    id: u16,
    z: i8,
}

#[derive(Serialize)]
struct StaticAt {
    id: u16,
    z: i8,
    hue: u16,
}

#[derive(Serialize)]
struct TileAtReport {
    x: u32,
    y: u32,
    land: LandAt,
    statics: Vec<StaticAt>,
    top_z: Option<i16>,
}

fn tile(args: &TileArgs, out: &mut Output) -> Result<()> {
    let files = open_facet(&args.dir, &args.size)?;
    let facet = views(&files, &args.size)?;
    let (x, y) = (args.x, args.y);
    let size = facet.size();
    let cell = facet
        .map
        .cell(x, y)
        .ok_or_else(|| anyhow!("tile ({x}, {y}) is outside the {size} map"))?;
    let statics: Vec<StaticAt> = facet
        .statics_at(x, y)
        .with_context(|| format!("reading the statics of block ({}, {})", x / 8, y / 8))?
        .map(|s| StaticAt {
            id: s.id.get(),
            z: s.z,
            hue: s.hue.get(),
        })
        .collect();
    let top_z = match facet.tiledata {
        Some(_) => facet.top_surface(x, y)?,
        None => None,
    };
    let report = TileAtReport {
        x,
        y,
        land: LandAt {
            id: cell.id.get(),
            z: cell.z,
        },
        statics,
        top_z,
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "({x}, {y}): land {:#06x} at z {}",
            report.land.id, report.land.z
        )?;
        for s in &report.statics {
            writeln!(w, "  static {:#06x} at z {} hue {}", s.id, s.z, s.hue)?;
        }
        match report.top_z {
            Some(z) => writeln!(w, "top surface z {z}"),
            None => writeln!(w, "top surface: needs tiledata.mul in the folder"),
        }
    })
}

#[derive(Serialize)]
struct IdCount {
    id: u16,
    count: u64,
}

#[derive(Serialize)]
struct LandSummary {
    z_min: i8,
    z_max: i8,
    top: Vec<IdCount>,
}

#[derive(Serialize)]
struct StaticsSummary {
    count: u64,
    z_min: i8,
    z_max: i8,
    top: Vec<IdCount>,
}

#[derive(Serialize)]
pub(crate) struct StatsReport {
    width: u32,
    height: u32,
    blocks: usize,
    land: LandSummary,
    statics: StaticsSummary,
    elapsed_ms: f64,
}

fn top(list: Vec<(u16, u64)>) -> Vec<IdCount> {
    list.into_iter()
        .map(|(id, count)| IdCount { id, count })
        .collect()
}

/// Whole-facet statistics, timed from the views being ready to the figures.
pub(crate) fn stats_report(facet: &Facet<'_>, sequential: bool) -> StatsReport {
    let size = facet.size();
    let start = Instant::now();
    let (land, st) = if sequential {
        (
            query::land_stats(&facet.map),
            query::statics_stats(&facet.statics, size.blocks()),
        )
    } else {
        (
            query::land_stats_par(&facet.map),
            query::statics_stats_par(&facet.statics, size.blocks()),
        )
    };
    let elapsed_ms = start.elapsed().as_secs_f64() * 1000.0;
    StatsReport {
        width: size.width(),
        height: size.height(),
        blocks: size.blocks(),
        land: LandSummary {
            z_min: land.z_min,
            z_max: land.z_max,
            top: top(land.top(10)),
        },
        statics: StaticsSummary {
            count: st.count,
            z_min: st.z_min,
            z_max: st.z_max,
            top: top(st.top(10)),
        },
        elapsed_ms: (elapsed_ms * 1000.0).round() / 1000.0,
    }
}

pub(crate) fn print_stats(w: &mut dyn Write, r: &StatsReport) -> std::io::Result<()> {
    writeln!(
        w,
        "{} x {} tiles, {} blocks, scanned in {:.1} ms",
        r.width, r.height, r.blocks, r.elapsed_ms
    )?;
    writeln!(w, "land: z {}..{}", r.land.z_min, r.land.z_max)?;
    for t in &r.land.top {
        writeln!(w, "  {:#06x} {:>12}", t.id, t.count)?;
    }
    writeln!(
        w,
        "statics: {} of them, z {}..{}",
        r.statics.count, r.statics.z_min, r.statics.z_max
    )?;
    for t in &r.statics.top {
        writeln!(w, "  {:#06x} {:>12}", t.id, t.count)?;
    }
    Ok(())
}

fn stats(args: &StatsArgs, out: &mut Output) -> Result<()> {
    let files = open_facet(&args.dir, &args.size)?;
    let facet = views(&files, &args.size)?;
    let report = stats_report(&facet, args.sequential);
    out.report(&report, |w| print_stats(w, &report))
}

#[derive(Serialize)]
struct FoundRow {
    x: u32,
    y: u32,
    z: i8,
    id: u16,
    hue: u16,
}

#[derive(Serialize)]
struct FindReport {
    count: usize,
    statics: Vec<FoundRow>,
}

fn find(args: &FindArgs, out: &mut Output) -> Result<()> {
    let files = open_facet(&args.dir, &args.size)?;
    let facet = views(&files, &args.size)?;
    let found = match (args.id, &args.flag) {
        (Some(id), _) => {
            query::find_statics_par(&facet.statics, facet.size(), |s| s.id.get() == id)
        }
        (None, Some(name)) => {
            let flag = TileFlags::from_name_ignoring_case(name).ok_or_else(|| {
                let names: Vec<&str> = TileFlags::all().names().collect();
                anyhow!(
                    "no tiledata flag named {name:?}; the names are {}",
                    names.join(", ").to_lowercase()
                )
            })?;
            let tiledata = facet
                .tiledata
                .ok_or_else(|| anyhow!("--flag needs tiledata.mul in {}", args.dir.display()))?;
            let table = tiledata.item_table();
            let has = |s: &StaticRecord| {
                table
                    .get(usize::from(s.id.get()))
                    .is_some_and(|(f, _)| f.intersects(flag))
            };
            query::find_statics_par(&facet.statics, facet.size(), has)
        }
        (None, None) => bail!("give --id ID or --flag NAME"),
    };
    let report = FindReport {
        count: found.len(),
        statics: found
            .iter()
            .map(|f| FoundRow {
                x: f.x,
                y: f.y,
                z: f.z,
                id: f.id,
                hue: f.hue,
            })
            .collect(),
    };
    out.report(&report, |w| {
        for f in &report.statics {
            writeln!(
                w,
                "{:>5} {:>5} z {:>4}  {:#06x} hue {}",
                f.x, f.y, f.z, f.id, f.hue
            )?;
        }
        writeln!(w, "{} statics", report.count)
    })
}

#[derive(Serialize)]
struct ComponentRow {
    id: u16,
    x: i16,
    y: i16,
    z: i16,
    flags: u32,
}

#[derive(Serialize)]
struct MultiReport {
    id: usize,
    components: Vec<ComponentRow>,
}

fn multi(args: &MultiArgs, out: &mut Output) -> Result<()> {
    let (_, idx, mul) = open_multis(&args.dir)?
        .ok_or_else(|| anyhow!("no multi.idx and multi.mul in {}", args.dir.display()))?;
    let multis = Multis::parse(&idx, &mul, None).context("reading multi.idx")?;
    let list = multis
        .get(args.id)
        .with_context(|| format!("reading multi {}", args.id))?;
    let report = MultiReport {
        id: args.id,
        components: list
            .iter()
            .map(|c| ComponentRow {
                id: c.id.get(),
                x: c.x.get(),
                y: c.y.get(),
                z: c.z.get(),
                flags: c.flags.get(),
            })
            .collect(),
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "multi {}: {} components",
            report.id,
            report.components.len()
        )?;
        for c in &report.components {
            writeln!(
                w,
                "  {:#06x} at ({:>4}, {:>4}, {:>4}) flags {:#x}",
                c.id, c.x, c.y, c.z, c.flags
            )?;
        }
        Ok(())
    })
}

fn synth(args: &SynthArgs, out: &mut Output) -> Result<()> {
    // Facets 0 and 1 at their modern full width (896 x 512 blocks).
    let size = MapSize::preset(args.facet)?;
    let start = Instant::now();
    let world = World::generate(size, args.seed);
    let format = MapFormat::from(args.map_format);
    world
        .write_as(&args.out_dir, args.facet, format)
        .with_context(|| format!("writing into {}", args.out_dir.display()))?;
    if args.diffs > 0 {
        world
            .write_diffs(&args.out_dir, args.facet, args.diffs, args.seed)
            .with_context(|| format!("writing diff files into {}", args.out_dir.display()))?;
    }
    out.note(&format!(
        "wrote facet {} ({size}, {} statics, map as {}) into {} in {:.1} s",
        args.facet,
        world.static_count,
        format.file_name(args.facet),
        args.out_dir.display(),
        start.elapsed().as_secs_f64()
    ))
}
