//! `gamedata cosmo ...`: Cosmo's Cosmic Adventure group files, tile attributes and maps.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use mni_core::{
    Episode, EpisodeFiles, FileData, GroupFile, Map, TileAttrTable, TileAttributes, render_map,
};
use serde::Serialize;

use crate::render;
use crate::{CliResult, WithContext};

/// Background of rendered maps where nothing is drawn: EGA black, opaque.
pub(crate) const BACKGROUND: [u8; 4] = [0, 0, 0, 255];

#[derive(Subcommand)]
pub(crate) enum CosmoCommand {
    /// List the entries of a group file (COSMO1.STN, COSMO1.VOL, NUKEM2.CMP ...).
    Ls {
        /// The group file.
        group_file: PathBuf,
        /// Print a JSON array of {name, offset, size} (bytes).
        #[arg(long)]
        json: bool,
    },
    /// Copy one entry of a group file out to a file.
    Extract {
        /// The group file.
        group_file: PathBuf,
        /// The entry's name (letter case is ignored).
        entry: String,
        /// Where to write it ("-" for stdout); default: the entry's name in this folder.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Summarise TILEATTR.MNI over all 3,000 tiles (2,000 solid, 1,000 masked).
    ///
    /// Tiles are classed by their four movement bits: blocks nothing, blocks everything,
    /// blocks only south (platforms you can jump through and land on), or another mix.
    Tileattr {
        /// A game folder (COSMOn.STN / .VOL), a group file holding TILEATTR.MNI, or the
        /// TILEATTR.MNI file itself (a name ending in .MNI).
        path: PathBuf,
        /// Episode number, when PATH is a folder.
        #[arg(long, default_value_t = 1)]
        episode: u8,
        /// Print JSON: tiles, blocks_nothing, blocks_everything, south_only, other_mix, flags.
        #[arg(long)]
        json: bool,
    },
    /// Inspect a map and optionally render it to PNG with the real tile graphics.
    #[command(after_long_help = render::LEGEND)]
    Map(MapArgs),
}

#[derive(Args)]
pub(crate) struct MapArgs {
    /// The game folder holding COSMOn.STN and COSMOn.VOL (any letter case).
    pub(crate) game_dir: PathBuf,
    /// The map's entry name, e.g. A1.MNI (letter case is ignored).
    pub(crate) map: String,
    /// Episode number.
    #[arg(long, default_value_t = 1)]
    pub(crate) episode: u8,
    /// Print JSON: width, height (tiles), actors (count), backdrop, music, rain,
    /// palette_animation.
    #[arg(long)]
    pub(crate) json: bool,
    /// Write the map as a PNG, one pixel per game pixel (8 x 8 a tile).
    #[arg(long, value_name = "OUT.png")]
    pub(crate) render: Option<PathBuf>,
    /// Overlay the collision attributes on the render (see the legend in --help).
    #[arg(long, requires = "render")]
    pub(crate) attributes: bool,
}

pub(crate) fn run(cmd: CosmoCommand) -> CliResult {
    match cmd {
        CosmoCommand::Ls { group_file, json } => ls(&group_file, json),
        CosmoCommand::Extract {
            group_file,
            entry,
            output,
        } => extract(&group_file, &entry, output.as_deref()),
        CosmoCommand::Tileattr {
            path,
            episode,
            json,
        } => tileattr(&path, episode, json),
        CosmoCommand::Map(args) => map(&args),
    }
}

/// Prints `report` to stdout: as one JSON document with `json`, else as `human` writes it.
fn emit<T: Serialize>(
    json: bool,
    report: &T,
    human: impl FnOnce(&mut std::io::StdoutLock<'static>) -> std::io::Result<()>,
) -> CliResult {
    let mut out = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, report)?;
        writeln!(out)?;
    } else {
        human(&mut out)?;
    }
    Ok(out.flush()?)
}

/// One row of `ls`.
#[derive(Serialize)]
pub(crate) struct EntryRow {
    pub(crate) name: String,
    pub(crate) offset: u32,
    pub(crate) size: u32,
}

/// The rows of a directory and the errors of its bad entries (the rows include those too).
pub(crate) fn entry_rows(group: &GroupFile<'_>) -> (Vec<EntryRow>, Vec<String>) {
    let mut problems = Vec::new();
    let rows = group
        .entries()
        .map(|e| {
            if let Err(err) = e.data() {
                problems.push(err.to_string());
            }
            EntryRow {
                name: e.name_lossy().into_owned(),
                offset: e.offset(),
                size: e.size(),
            }
        })
        .collect();
    (rows, problems)
}

pub(crate) fn print_entry_table(out: &mut impl Write, rows: &[EntryRow]) -> std::io::Result<()> {
    writeln!(
        out,
        "{:>4}  {:<12}  {:>10}  {:>10}",
        "slot", "name", "offset", "size"
    )?;
    for (slot, r) in rows.iter().enumerate() {
        writeln!(
            out,
            "{slot:>4}  {:<12}  {:>10}  {:>10}",
            r.name, r.offset, r.size
        )?;
    }
    Ok(())
}

fn ls(path: &Path, json: bool) -> CliResult {
    let data = FileData::read(path)?;
    let group = GroupFile::parse(&data).context(|| format!("reading {}", path.display()))?;
    let (rows, problems) = entry_rows(&group);
    emit(json, &rows, |out| {
        print_entry_table(out, &rows)?;
        let count = group
            .declared_count()
            .map_or_else(String::new, |n| format!(", count slot says {n}"));
        writeln!(out, "{} entries{count}", rows.len())
    })?;
    bad_entries(path, &problems)
}

/// An error naming every bad entry, or Ok if there is none.
fn bad_entries(path: &Path, problems: &[String]) -> CliResult {
    if problems.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{}: {} bad entr{} (the others are listed and readable):\n  {}",
        path.display(),
        problems.len(),
        if problems.len() == 1 { "y" } else { "ies" },
        problems.join("\n  ")
    )
    .into())
}

fn extract(path: &Path, name: &str, output: Option<&Path>) -> CliResult {
    let data = FileData::read(path)?;
    let group = GroupFile::parse(&data).context(|| format!("reading {}", path.display()))?;
    let entry = group.find(name).ok_or_else(|| {
        format!(
            "no entry named {name:?} in {} (try `gamedata cosmo ls`)",
            path.display()
        )
    })?;
    let bytes = entry.data()?;
    match output {
        Some(p) if p == Path::new("-") => {
            let mut out = std::io::stdout().lock();
            out.write_all(bytes)?;
            out.flush()?;
        }
        _ => {
            let target = output.map_or_else(|| PathBuf::from(&*entry.name_lossy()), Path::to_owned);
            std::fs::write(&target, bytes)
                .map_err(|e| format!("cannot write {}: {e}", target.display()))?;
            println!("wrote {} bytes to {}", bytes.len(), target.display());
        }
    }
    Ok(())
}

/// The `tileattr` report (also its JSON document).
#[derive(Serialize)]
pub(crate) struct TileAttrReport {
    pub(crate) tiles: u32,
    pub(crate) blocks_nothing: u32,
    pub(crate) blocks_everything: u32,
    pub(crate) south_only: u32,
    pub(crate) other_mix: u32,
    /// Tiles with each flag set, keyed by flag name, in bit order.
    pub(crate) flags: serde_json::Map<String, serde_json::Value>,
}

pub(crate) fn tileattr_report(table: &TileAttrTable<'_>) -> TileAttrReport {
    let s = table.summary();
    let flags = TileAttributes::FLAG_NAMES
        .iter()
        .zip(s.flags)
        .map(|(name, n)| ((*name).to_owned(), n.into()))
        .collect();
    TileAttrReport {
        tiles: s.tiles,
        blocks_nothing: s.blocks_nothing,
        blocks_everything: s.blocks_everything,
        south_only: s.south_only,
        other_mix: s.other_mix,
        flags,
    }
}

pub(crate) fn print_tileattr(out: &mut impl Write, r: &TileAttrReport) -> std::io::Result<()> {
    let pct = |n: u32| f64::from(n) * 100.0 / f64::from(r.tiles.max(1));
    writeln!(out, "{} tiles (2,000 solid + 1,000 masked)", r.tiles)?;
    for (label, n) in [
        ("block nothing", r.blocks_nothing),
        ("block everything", r.blocks_everything),
        ("block only south", r.south_only),
        ("other mix", r.other_mix),
    ] {
        writeln!(out, "  {label:<18} {n:>5}  {:>5.1}%", pct(n))?;
    }
    writeln!(out, "flags set:")?;
    for (name, n) in &r.flags {
        writeln!(out, "  {name:<18} {n:>5}")?;
    }
    Ok(())
}

fn tileattr(path: &Path, episode: u8, json: bool) -> CliResult {
    let report = if path.is_dir() {
        let files = EpisodeFiles::open(path, episode)?;
        let ep = files.episode()?;
        let table = ep.tile_attributes().context(|| {
            format!(
                "reading TILEATTR.MNI of episode {episode} in {}",
                path.display()
            )
        })?;
        tileattr_report(&table)
    } else {
        let data = FileData::read(path)?;
        let is_entry = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("mni"));
        let table = if is_entry {
            TileAttrTable::parse(&data)
        } else {
            GroupFile::parse(&data).and_then(|g| TileAttrTable::parse(g.get("TILEATTR.MNI")?))
        };
        tileattr_report(&table.context(|| format!("reading TILEATTR.MNI from {}", path.display()))?)
    };
    emit(json, &report, |out| print_tileattr(out, &report))
}

/// The `map` report (also its JSON document).
#[derive(Serialize)]
pub(crate) struct MapReport {
    /// Tiles.
    pub(crate) width: u16,
    /// Tiles.
    pub(crate) height: u16,
    /// Actor count.
    pub(crate) actors: usize,
    pub(crate) backdrop: u8,
    pub(crate) music: u8,
    pub(crate) rain: bool,
    pub(crate) palette_animation: u8,
}

pub(crate) fn map_report(map: &Map<'_>) -> MapReport {
    let f = map.flags();
    MapReport {
        width: map.width(),
        height: map.height(),
        actors: map.actors().len(),
        backdrop: f.backdrop,
        music: f.music,
        rain: f.rain,
        palette_animation: f.palette_animation,
    }
}

pub(crate) fn print_map(out: &mut impl Write, name: &str, r: &MapReport) -> std::io::Result<()> {
    writeln!(
        out,
        "{name}: {} x {} tiles ({} x {} pixels), {} actors",
        r.width,
        r.height,
        u32::from(r.width) * 8,
        u32::from(r.height) * 8,
        r.actors
    )?;
    writeln!(
        out,
        "  backdrop {}, music {}, rain {}, palette animation {}",
        r.backdrop,
        r.music,
        if r.rain { "on" } else { "off" },
        r.palette_animation
    )
}

/// Renders `map` of `ep` to a PNG at `out`, with the attribute overlay if asked.
pub(crate) fn render_png(
    ep: &Episode<'_>,
    map: &Map<'_>,
    out: &Path,
    overlay: bool,
) -> CliResult<String> {
    let images = ep
        .tile_images()
        .context(|| "reading TILES.MNI and MASKTILE.MNI".to_owned())?;
    let mut r = render_map(map, &images, BACKGROUND);
    if overlay {
        let attrs = ep
            .tile_attributes()
            .context(|| "reading TILEATTR.MNI".to_owned())?;
        render::overlay_attributes(&mut r.image, map, &attrs);
    }
    render::write_png(out, &r.image)?;
    let missing = if r.missing > 0 {
        format!(", {} cells with no tile image left blank", r.missing)
    } else {
        String::new()
    };
    Ok(format!(
        "wrote {} ({} x {} pixels, {} tiles drawn{missing}{})",
        out.display(),
        r.image.width,
        r.image.height,
        r.drawn,
        if overlay { ", attributes overlaid" } else { "" }
    ))
}

fn map(args: &MapArgs) -> CliResult {
    let files = EpisodeFiles::open(&args.game_dir, args.episode)?;
    let ep = files.episode()?;
    let map = ep.map(&args.map).context(|| {
        format!(
            "reading map {} from {} / {}",
            args.map,
            files.paths.stn.display(),
            files.paths.vol.display()
        )
    })?;
    let report = map_report(&map);
    let name = args.map.to_ascii_uppercase();
    emit(args.json, &report, |out| print_map(out, &name, &report))?;
    if let Some(png) = &args.render {
        let msg = render_png(&ep, &map, png, args.attributes)?;
        // With --json, stdout holds only the JSON document.
        if args.json {
            eprintln!("{msg}");
        } else {
            println!("{msg}");
        }
    }
    Ok(())
}
