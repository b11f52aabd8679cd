//! `gamedata cosmo ...`: Cosmo's Cosmic Adventure group files, tile attributes and maps.

pub(crate) mod draw;
mod tmx;

use gamedata_render::PngFilter;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, Subcommand};
use mni_core::{Episode, EpisodeFiles, FileData, Group, Map, TileAttrTable, TileAttributes};
use serde::Serialize;

use crate::output::Output;

#[derive(Subcommand)]
pub(crate) enum CosmoCommand {
    /// List the entries of a group file (COSMO1.STN, COSMO1.VOL, NUKEM2.CMP ...).
    ///
    /// With --json: an array of {name, offset, size} (bytes).
    Ls {
        /// The group file.
        group_file: PathBuf,
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
    /// With --json: tiles, blocks_nothing, blocks_everything, south_only, other_mix, flags.
    Tileattr {
        /// A game folder (COSMOn.STN / .VOL), a group file holding TILEATTR.MNI, or the
        /// TILEATTR.MNI file itself (a name ending in .MNI).
        path: PathBuf,
        /// Episode number, when PATH is a folder.
        #[arg(long, default_value_t = 1)]
        episode: u8,
    },
    /// Inspect a map and optionally render it to PNG with the real tile graphics.
    ///
    /// With --json: width, height (tiles), actors (count), backdrop, music, rain,
    /// palette_animation; with --render, what was drawn under "render" (with --backdrop its
    /// number and entry, with --actors the actors drawn, hidden, special and not drawn).
    #[command(after_long_help = draw::LEGEND)]
    Map(MapArgs),
    /// Web map tiles of a map drawn with its tiles ({z}/{x}/{y}.png, 256 pixels, one game
    /// pixel a pixel at the native zoom) and a Leaflet viewer, index.html.
    Tiles(TilesArgs),
    /// Export a map to a Tiled map (TMX, or TMJ for a name ending in .tmj or .json) with
    /// its tileset images in NAME_images beside it, drawn by Tiled as `cosmo map --render`
    /// draws it (--json: tmx, format, width, height, layers, objects, tilesets, images,
    /// image_bytes, bytes, elapsed_ms ...).
    Tmx(tmx::TmxArgs),
}

#[derive(Args)]
pub(crate) struct TilesArgs {
    #[command(flatten)]
    select: MapSelect,
    /// Overlay the collision attributes (see the legend in `cosmo map --help`).
    #[arg(long)]
    attributes: bool,
    /// Draw the map's backdrop behind the tiles (see `cosmo map --help`).
    #[arg(long)]
    backdrop: bool,
    /// Draw each actor's first frame, as the game shows the level at start (see `cosmo map
    /// --help`).
    #[arg(long)]
    actors: bool,
    #[command(flatten)]
    pyramid: crate::web::PyramidArgs,
}

/// Which map of which episode.
#[derive(Args)]
pub(crate) struct MapSelect {
    /// The game folder holding COSMOn.STN and COSMOn.VOL (any letter case).
    game_dir: PathBuf,
    /// The map's entry name, e.g. A1.MNI (letter case is ignored).
    map: String,
    /// Episode number.
    #[arg(long, default_value_t = 1)]
    episode: u8,
}

impl MapSelect {
    /// Opens the episode and its map and hands them to `f`; errors name the map, episode
    /// and folder.
    fn open<R>(
        &self,
        f: impl FnOnce(&EpisodeFiles, &Episode<'_>, &Map<'_>) -> Result<R>,
    ) -> Result<R> {
        let doing = || {
            format!(
                "reading map {} of episode {} in {}",
                self.map,
                self.episode,
                self.game_dir.display()
            )
        };
        let files = EpisodeFiles::open(&self.game_dir, self.episode).with_context(doing)?;
        let ep = files.view().with_context(doing)?;
        let map = ep
            .level(&self.map)
            .and_then(|m| m.ok_or_else(|| ep.missing(&self.map)))
            .with_context(doing)?;
        f(&files, &ep, &map)
    }
}

#[derive(Args)]
pub(crate) struct MapArgs {
    #[command(flatten)]
    select: MapSelect,
    /// Write the map as a PNG, one pixel per game pixel (8 x 8 a tile).
    #[arg(long, value_name = "OUT.png")]
    pub(crate) render: Option<PathBuf>,
    /// Overlay the collision attributes on the render (see the legend in --help).
    #[arg(long, requires = "render")]
    pub(crate) attributes: bool,
    /// Draw the map's backdrop behind the tiles: the entry its header's number names
    /// (BDNEWSKY.MNI ...), 40 x 18 tiles repeated from the map's top-left corner.
    #[arg(long, requires = "render")]
    pub(crate) backdrop: bool,
    /// Draw each actor's first frame at its map position, as the game shows the level at
    /// start (the game's actor type to sprite type table; tiles marked "in front" stay in
    /// front). Special actors (player start, platforms, fountains, lights) and actors the
    /// game never shows are counted, not drawn; actors that cannot be drawn are listed on
    /// stderr.
    #[arg(long, requires = "render")]
    pub(crate) actors: bool,
}

impl MapArgs {
    fn layers(&self) -> draw::Layers {
        draw::Layers {
            backdrop: self.backdrop,
            actors: self.actors,
            attributes: self.attributes,
        }
    }
}

pub(crate) fn run(cmd: CosmoCommand, out: &mut Output) -> Result<()> {
    match cmd {
        CosmoCommand::Ls { group_file } => ls(&group_file, out),
        CosmoCommand::Extract {
            group_file,
            entry,
            output,
        } => extract(&group_file, &entry, output.as_deref(), out),
        CosmoCommand::Tileattr { path, episode } => tileattr(&path, episode, out),
        CosmoCommand::Map(args) => map(&args, out),
        CosmoCommand::Tiles(args) => tiles(&args, out),
        CosmoCommand::Tmx(args) => tmx::tmx(&args, out),
    }
}

/// One row of `ls`.
#[derive(Serialize)]
pub(crate) struct EntryRow {
    pub(crate) name: String,
    pub(crate) offset: u32,
    pub(crate) size: u32,
}

/// The rows of a directory and the errors of its bad entries (the rows include those too).
pub(crate) fn entry_rows(group: &Group<'_>) -> (Vec<EntryRow>, Vec<String>) {
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

pub(crate) fn print_entry_table(out: &mut dyn Write, rows: &[EntryRow]) -> std::io::Result<()> {
    writeln!(
        out,
        "{:>4}  {:<12}  {:>10}  {:>10}",
        "slot", "name", "offset", "size"
    )?;
    for (slot, r) in rows.iter().enumerate() {
        writeln!(
            out,
            "{slot:>4}  {:<12}  {:>10}  {:>10}",
            gamedata_io::printable(&r.name),
            r.offset,
            r.size
        )?;
    }
    Ok(())
}

/// Reads a whole file, naming it in the error.
fn read(path: &Path) -> Result<FileData> {
    Ok(FileData::read(path)?)
}

fn ls(path: &Path, out: &mut Output) -> Result<()> {
    let data = read(path)?;
    let group = Group::parse(&data).with_context(|| format!("reading {}", path.display()))?;
    let (rows, problems) = entry_rows(&group);
    out.report(&rows, |w| {
        print_entry_table(w, &rows)?;
        let count = group
            .declared_count()
            .map_or_else(String::new, |n| format!(", count slot says {n}"));
        writeln!(w, "{} entries{count}", rows.len())
    })?;
    bad_entries(path, &problems)
}

/// An error naming every bad entry, or Ok if there is none.
fn bad_entries(path: &Path, problems: &[String]) -> Result<()> {
    if problems.is_empty() {
        return Ok(());
    }
    bail!(
        "{}: {} bad entr{} (the others are listed and readable):\n  {}",
        path.display(),
        problems.len(),
        if problems.len() == 1 { "y" } else { "ies" },
        problems.join("\n  ")
    )
}

fn extract(path: &Path, name: &str, output: Option<&Path>, out: &mut Output) -> Result<()> {
    let start = std::time::Instant::now();
    let data = read(path)?;
    let group = Group::parse(&data).with_context(|| format!("reading {}", path.display()))?;
    let entry = group.find(name).ok_or_else(|| {
        anyhow!(
            "no entry named {name:?} in {} (try `gamedata cosmo ls`)",
            path.display()
        )
    })?;
    let bytes = entry
        .data()
        .with_context(|| format!("reading {}", path.display()))?;
    match output {
        Some(p) if p == Path::new("-") => {
            if out.is_json() {
                bail!("--json prints a report on stdout: give -o FILE, not -o -");
            }
            out.raw().write_all(bytes)?;
        }
        _ => {
            let target = output.map_or_else(|| PathBuf::from(&*entry.name_lossy()), Path::to_owned);
            crate::files::write_bytes(&target, &[path], bytes)?;
            let report = ExtractReport {
                entry: entry.name_lossy().into_owned(),
                group_file: path.display().to_string(),
                output: target.display().to_string(),
                bytes: crate::files::Written::of(&target)?.bytes,
                elapsed_ms: crate::files::elapsed_ms(start),
            };
            out.report(&report, |w| {
                writeln!(w, "wrote {} bytes to {}", report.bytes, report.output)
            })?;
        }
    }
    Ok(())
}

/// What `cosmo extract --json` prints.
#[derive(Serialize)]
struct ExtractReport {
    entry: String,
    group_file: String,
    output: String,
    bytes: u64,
    elapsed_ms: f64,
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

pub(crate) fn print_tileattr(out: &mut dyn Write, r: &TileAttrReport) -> std::io::Result<()> {
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

fn tileattr(path: &Path, episode: u8, out: &mut Output) -> Result<()> {
    let report = if path.is_dir() {
        let doing = || {
            format!(
                "reading TILEATTR.MNI of episode {episode} in {}",
                path.display()
            )
        };
        let files = EpisodeFiles::open(path, episode).with_context(doing)?;
        let table = files
            .view()
            .and_then(|ep| ep.tile_attributes())
            .with_context(doing)?;
        tileattr_report(&table)
    } else {
        let data = read(path)?;
        let is_entry = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("mni"));
        let table = if is_entry {
            TileAttrTable::parse(&data)
        } else {
            Group::parse(&data).and_then(|g| {
                let entry = g.get("TILEATTR.MNI")?;
                TileAttrTable::parse(entry.ok_or_else(|| g.missing("TILEATTR.MNI"))?)
            })
        };
        tileattr_report(
            &table.with_context(|| format!("reading TILEATTR.MNI from {}", path.display()))?,
        )
    };
    out.report(&report, |w| print_tileattr(w, &report))
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

pub(crate) fn print_map(out: &mut dyn Write, name: &str, r: &MapReport) -> std::io::Result<()> {
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

fn map(args: &MapArgs, out: &mut Output) -> Result<()> {
    let name = args.select.map.to_ascii_uppercase();
    let report = args.select.open(|files, ep, map| {
        let render = match &args.render {
            Some(png) => {
                let inputs = [files.paths.stn.as_path(), files.paths.vol.as_path()];
                let drawn = draw::render_png(ep, map, &name, (png, &inputs), args.layers())
                    .with_context(|| format!("rendering {name} to {}", png.display()))?;
                Some(drawn)
            }
            None => None,
        };
        Ok(MapRenderReport {
            map: map_report(map),
            render,
        })
    })?;
    out.report(&report, |w| {
        print_map(w, &name, &report.map)?;
        if let Some(drawn) = &report.render {
            writeln!(w, "{}", drawn.sentence())?;
        }
        Ok(())
    })
}

/// What `cosmo map --json` prints: the map's report, and with `--render` what was drawn.
#[derive(Serialize)]
struct MapRenderReport {
    #[serde(flatten)]
    map: MapReport,
    #[serde(skip_serializing_if = "Option::is_none")]
    render: Option<draw::DrawReport>,
}

/// `cosmo tiles`: the map drawn whole (at most 8 MiB), then cut into web map tiles.
fn tiles(args: &TilesArgs, out: &mut Output) -> Result<()> {
    let select = &args.select;
    args.select.open(|files, ep, map| {
        let layers = draw::Layers {
            backdrop: args.backdrop,
            actors: args.actors,
            attributes: args.attributes,
        };
        let name = select.map.to_ascii_uppercase();
        let picture = draw::draw(ep, map, &name, layers)?;
        let viewer = crate::web::Viewer {
            title: format!(
                "{} of episode {}",
                select.map.to_ascii_uppercase(),
                select.episode
            ),
            unit: "pixel",
            cell: 8,
            cell_unit: "tile",
            drawn_with: draw::layers_report(&picture)?,
            iso: None,
        };
        let inputs = [files.paths.stn.as_path(), files.paths.vol.as_path()];
        crate::web::write_tiles(
            &picture.image,
            crate::web::TilePng::rgba(PngFilter::Up),
            &args.pyramid,
            &viewer,
            &inputs,
            out,
        )
    })
}
