//! `gamedata uo ...`: Ultima Online world files.
//!
//! The files are memory-mapped (see [`open_facet`]): opening a facet costs microseconds
//! whatever its size, and the pages are read as a query touches them.

mod anim;
mod anim_folder;
mod animdata;
mod art;
mod export;
mod folder;
mod gump;
mod info;
mod multi;
pub(crate) mod radar;
pub(crate) mod stats;
mod synth;
mod texmap;
mod tile;
pub(crate) mod uop;
pub(crate) mod world;

use std::path::Path;

use anyhow::{Context, Result};
use clap::{Args, Subcommand, ValueEnum};
use mul_core::{Facet, FacetFiles, FacetOptions, Format, MapFormat, MapSize, Owned};

use crate::output::Output;

/// The warning every mapping command carries in its help.
const MAPPING_NOTE: &str = "The files are memory-mapped: if another program truncates one \
    while this command runs, the process is killed by SIGBUS. Do not point it at files that \
    are being written.";

#[derive(Subcommand)]
pub(crate) enum UoCommand {
    /// The files of one facet: sizes, map dimensions, tiledata layout, statics and multis.
    #[command(after_help = MAPPING_NOTE)]
    Info(info::InfoArgs),
    /// One land tile or item of art.mul (or artLegacyMUL.uop) as the client draws it, as a
    /// PNG (--json: kind, id, width, height).
    #[command(after_help = MAPPING_NOTE)]
    Art(art::ArtArgs),
    /// One gump of gumpart.mul (or gumpartLegacyMUL.uop) as the client draws it, as a PNG
    /// (--json: id, width, height).
    #[command(after_help = MAPPING_NOTE)]
    Gump(gump::GumpArgs),
    /// Every picture of the art (land tiles and items), the gumps, the texture maps or the
    /// animations as PNG files, in parallel, exact repeats decoded once (--json: what, format, written, decoded, empty,
    /// failed, over_budget, drawn_alone, errors, bytes, out_dir, elapsed_ms).
    #[command(after_help = MAPPING_NOTE)]
    Export(export::ExportArgs),
    /// One texture map of texmaps.mul as the client draws it, as a PNG (--json: id, width,
    /// height).
    #[command(after_help = MAPPING_NOTE)]
    Texmap(texmap::TexmapArgs),
    /// One direction of a body's action of anim.mul (or anim2 to anim5) as the client draws
    /// it: a PNG a frame in OUTDIR, or one sprite sheet (--json: frames, each width, height,
    /// centre_x, centre_y).
    #[command(after_help = format!("{}\n\n{MAPPING_NOTE}", anim::ANIM_NOTE))]
    Anim(anim::AnimArgs),
    /// How an animated item cycles through art, from animdata.mul: the item ids shown in
    /// turn and each one's time (--json: item, frames, frame_ms, frame_interval,
    /// frame_start, unknown).
    Animdata(animdata::AnimDataArgs),
    /// One land or item tile of tiledata.mul (--json: id, name, flags, height, weight).
    Tiledata(tile::TiledataArgs),
    /// The land and the statics at one tile, and the top surface (--json: x, y, land,
    /// statics, top_z).
    #[command(after_help = MAPPING_NOTE)]
    Tile(tile::TileArgs),
    /// Whole-facet statistics: land and statics z ranges and most common ids, timed.
    #[command(after_help = MAPPING_NOTE)]
    Stats(stats::StatsArgs),
    /// Every static with an item id, or whose tiledata has a flag.
    #[command(after_help = MAPPING_NOTE)]
    Find(stats::FindArgs),
    /// The components of one multi (house, ship ...) of multi.idx / multi.mul.
    #[command(after_help = MAPPING_NOTE)]
    Multi(multi::MultiArgs),
    /// Render the radar map: the top static's radar colour, else the land's.
    #[command(after_help = MAPPING_NOTE)]
    Render(radar::RenderArgs),
    /// Web map tiles of the radar map ({z}/{x}/{y}.png, 256 pixels, one map tile a pixel at
    /// the native zoom) and a Leaflet viewer, index.html, that works from file://.
    #[command(after_help = MAPPING_NOTE)]
    Tiles(radar::TilesArgs),
    /// UOP containers (map, art, gumps, sounds, multis ...).
    #[command(subcommand)]
    Uop(uop::UopCommand),
    /// Convert a facet's map between map{N}.mul and map{N}LegacyMUL.uop, the art (--art)
    /// between art.mul with artidx.mul and artLegacyMUL.uop, or the gumps (--gumps) between
    /// gumpart.mul with gumpidx.mul and gumpartLegacyMUL.uop, byte-exact both ways.
    #[command(after_help = MAPPING_NOTE)]
    Convert(uop::ConvertArgs),
    /// Write a synthetic world at a facet's full size (map, staidx, statics, tiledata,
    /// radarcol, hues).
    Synth(synth::SynthArgs),
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
        let mut options = FacetOptions::default();
        options.size = size;
        options.apply_diffs = self.apply_diffs;
        options.map_format = self.map_format.map(MapFormat::from);
        Ok(options)
    }
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
        UoCommand::Info(a) => info::info(&a, out),
        UoCommand::Art(a) => art::art(&a, out),
        UoCommand::Gump(a) => gump::gump(&a, out),
        UoCommand::Export(a) => export::export(&a, out),
        UoCommand::Texmap(a) => texmap::texmap(&a, out),
        UoCommand::Animdata(a) => animdata::animdata(&a, out),
        UoCommand::Anim(a) => anim::anim(&a, out),
        UoCommand::Tiledata(a) => tile::tiledata(&a, out),
        UoCommand::Tile(a) => tile::tile(&a, out),
        UoCommand::Stats(a) => stats::stats(&a, out),
        UoCommand::Find(a) => stats::find(&a, out),
        UoCommand::Multi(a) => multi::multi(&a, out),
        UoCommand::Render(a) => radar::render(&a, out),
        UoCommand::Tiles(a) => radar::tiles(&a, out),
        UoCommand::Synth(a) => synth::synth(&a, out),
        UoCommand::Uop(cmd) => uop::run(cmd, out),
        UoCommand::Convert(a) => uop::convert(&a, out),
    }
}

/// Finds and maps facet `size.facet`'s files in `dir` through mul-core's mapping entry
/// point, with the options the arguments give.
///
/// SAFETY contract taken on here ([`FacetFiles::map_with`]): nothing may modify or
/// truncate the files while they are mapped. The command only reads game files the user
/// points it at, and its help and `docs/cli.md` ("Memory-mapped files") say that truncating
/// one meanwhile ends the process with SIGBUS. The single files (tiledata, multi, radarcol,
/// a UOP container) are mapped through mul-core's `map` entry points under the same
/// contract.
#[allow(unsafe_code)]
pub(crate) fn open_facet(dir: &Path, size: &SizeArgs) -> Result<FacetFiles> {
    let options = size.options()?;
    // SAFETY: see this function's documentation.
    let files = unsafe { FacetFiles::map_with(dir, size.facet, &options) };
    files.with_context(|| format!("opening facet {} in {}", size.facet, dir.display()))
}

/// Maps a single file through mul-core's owner (tiledata, radarcol, hues, a UOP container:
/// `TileDataFile::map` ...).
///
/// SAFETY contract taken on here: as [`open_facet`]'s.
#[allow(unsafe_code)]
pub(crate) fn map_single<F: Format>(
    path: &Path,
) -> Result<Owned<F>, mul_core::FormatError<F::Kind>> {
    // SAFETY: see this function's documentation.
    unsafe { Owned::<F>::map(path) }
}

/// The views over `files` at the size the arguments gave when they were opened.
pub(crate) fn views<'a>(files: &'a FacetFiles, size: &SizeArgs) -> Result<Facet<'a>> {
    let facet = files.view();
    facet.with_context(|| {
        format!(
            "reading facet {} in {}",
            size.facet,
            files.paths.map.parent().unwrap_or(Path::new(".")).display()
        )
    })
}
