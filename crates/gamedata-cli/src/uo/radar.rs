//! `gamedata uo render`: the radar map of `gamedata_render::uo`, written as a PNG.

use gamedata_render::PngFilter;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use gamedata_render::uo::{RadarOptions, RadarSource, RadarStyle, write_radar_png};
use gamedata_render::{Region, RenderError};
use mul_core::{
    Facet, HuesContents, HuesFile, RadarColours, RadarColoursContents, RadarColoursFile,
    TileDataContents, TileDataFile,
};
use serde::Serialize;

use super::{SizeArgs, map_single, open_facet, views};
use crate::files::write_file;
use crate::files::{Written, elapsed_ms};
use crate::output::{Output, progress_bar};
use crate::web::{PyramidArgs, TilePng, Viewer, write_tiles};

#[derive(Args)]
pub(crate) struct RenderArgs {
    /// The client folder.
    dir: PathBuf,
    #[command(flatten)]
    size: SizeArgs,
    /// The PNG to write.
    #[arg(short, long, value_name = "OUT.png")]
    output: PathBuf,
    /// Tiles per output pixel along each side (facet 0 at 8 is 896x512).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    scale: u32,
    /// Only this rectangle, in tiles: X,Y,W,H (with --style world: the view that frames
    /// those tiles).
    #[arg(long, value_parser = parse_region)]
    region: Option<Region>,
    /// With --style world: the view's top-left pixel SX,SY in the client's screen
    /// coordinates (tile (x, y, z)'s land picture has its top-left corner at
    /// ((x - y) * 22 - 22, (x + y) * 22 - 4 * z - 22)); needs --view-size.
    #[arg(long, value_parser = super::world::parse_view, allow_hyphen_values = true, value_name = "SX,SY")]
    view: Option<(i64, i64)>,
    /// With --style world: the view's size in pixels, WxH.
    #[arg(long, value_parser = super::world::parse_view_size, value_name = "WxH")]
    view_size: Option<(u32, u32)>,
    #[command(flatten)]
    style: StyleArgs,
}

/// A style `uo render` and `uo tiles` draw: one of the radar styles, or the world as the
/// client draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StyleChoice {
    /// A radar map, one colour a tile.
    Radar(RadarStyle),
    /// The isometric world.
    World,
}

impl std::str::FromStr for StyleChoice {
    type Err = gamedata_render::uo::UnknownStyle;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        if name == "world" {
            return Ok(StyleChoice::World);
        }
        name.parse().map(StyleChoice::Radar)
    }
}

/// How a radar map is coloured, and the files it is coloured with.
#[derive(Args)]
pub(crate) struct StyleArgs {
    /// How tiles are coloured: `flat` (this project's rule), `client` (the client's own map,
    /// pixel for pixel: hued statics, its colour table and relief; needs tiledata.mul and
    /// hues.mul), `altitude` (each tile's height as the client computes it, z + 128 as a
    /// grey level; needs tiledata.mul), or `world`: the world isometric as the client draws
    /// it (land, texture maps, statics; needs tiledata.mul, hues.mul and the art).
    #[arg(
        long,
        default_value = "flat",
        value_parser = PossibleValuesParser::new(
            RadarStyle::ALL.map(RadarStyle::name).into_iter().chain(["world"])
        )
        .try_map(|name| name.parse::<StyleChoice>()),
    )]
    style: StyleChoice,
    /// radarcol.mul to colour with, when the folder has none.
    #[arg(long)]
    radarcol: Option<PathBuf>,
    /// tiledata.mul for the client and altitude styles, in place of the folder's.
    #[arg(long)]
    tiledata: Option<PathBuf>,
    /// hues.mul for the client style, in place of the folder's.
    #[arg(long)]
    hues: Option<PathBuf>,
    /// Shade each tile by its height against its north-west neighbour's (lit from the
    /// north-west); flat style only.
    #[arg(long)]
    hillshade: bool,
}

/// The files `--radarcol`, `--tiledata` and `--hues` name, mapped.
struct ExtraTables {
    radarcol: Option<RadarColoursFile>,
    tiledata: Option<TileDataFile>,
    hues: Option<HuesFile>,
}

impl StyleArgs {
    /// The radar style (`flat` for the world style, whose own checks come first).
    fn style(&self) -> RadarStyle {
        match self.style {
            StyleChoice::Radar(style) => style,
            StyleChoice::World => RadarStyle::Flat,
        }
    }

    /// The files named on the command line, mapped.
    fn extra(&self) -> Result<ExtraTables> {
        let context = |p: &Path| format!("reading {}", p.display());
        Ok(ExtraTables {
            radarcol: (self.radarcol.as_deref())
                .map(|p| map_single::<RadarColoursContents>(p).with_context(|| context(p)))
                .transpose()?,
            tiledata: (self.tiledata.as_deref())
                .map(|p| map_single::<TileDataContents>(p).with_context(|| context(p)))
                .transpose()?,
            hues: (self.hues.as_deref())
                .map(|p| map_single::<HuesContents>(p).with_context(|| context(p)))
                .transpose()?,
        })
    }

    /// The options of the style asked for (`region` `None`: the whole facet).
    fn options(&self, scale: u32, region: Option<Region>) -> RadarOptions {
        RadarOptions {
            scale,
            region,
            hillshade: self.hillshade,
            style: self.style(),
        }
    }

    /// The files given on the command line, to be read and never written over.
    fn inputs(&self) -> impl Iterator<Item = &Path> {
        [&self.radarcol, &self.tiledata, &self.hues]
            .into_iter()
            .flatten()
            .map(PathBuf::as_path)
    }
}

impl ExtraTables {
    /// `facet` with the tables given on the command line in place of the folder's, and
    /// the radar colours to draw with; the renderer's check of `options` against them
    /// ([`RadarOptions::check`]), phrased with the flag to give.
    fn apply<'a>(
        &'a self,
        mut facet: Facet<'a>,
        options: &RadarOptions,
        dir: &Path,
    ) -> Result<(Facet<'a>, RadarColours<'a>)> {
        if let Some(t) = &self.tiledata {
            facet.tiledata = Some(t.view()?);
        }
        if let Some(h) = &self.hues {
            facet.hues = Some(h.view()?);
        }
        let colours = match (&self.radarcol, facet.radar) {
            (Some(owned), _) => owned.view()?,
            (None, Some(r)) => r,
            (None, None) => bail!(
                "no radarcol.mul in {}; give one with --radarcol FILE",
                dir.display()
            ),
        };
        match options.check(&facet) {
            Ok(()) => Ok((facet, colours)),
            Err(RenderError::Hillshade { style }) => bail!(
                "--hillshade applies to the flat style only, not to {style} (the client style draws the client's own relief)"
            ),
            Err(RenderError::MissingTable { table, style }) => {
                let file = table.file_name();
                let flag = file.trim_end_matches(".mul");
                bail!(
                    "no {file} in {}; the {style} style needs one: give it with --{flag} FILE",
                    dir.display()
                )
            }
            Err(other) => Err(other.into()),
        }
    }
}

fn parse_region(text: &str) -> Result<Region, String> {
    let parts: Vec<u32> = text
        .split(',')
        .map(|p| p.trim().parse::<u32>())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{text:?} is not X,Y,W,H in tiles: {e}"))?;
    match parts.as_slice() {
        &[x, y, w, h] if w > 0 && h > 0 => Ok(Region::new(x, y, w, h)),
        _ => Err(format!(
            "{text:?} is not X,Y,W,H in tiles with W and H above 0"
        )),
    }
}

#[derive(Args)]
pub(crate) struct TilesArgs {
    /// The client folder.
    dir: PathBuf,
    #[command(flatten)]
    size: SizeArgs,
    #[command(flatten)]
    pyramid: PyramidArgs,
    #[command(flatten)]
    style: StyleArgs,
    /// With --style world: start the pyramid this many screen pixels a pyramid pixel
    /// below the native zoom (2, 4 or 8), for a smaller whole-world map.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(["1", "2", "4", "8"]).map(|v| v.parse::<u32>().unwrap_or(1)), default_value = "1")]
    base_scale: u32,
}

/// `uo tiles`: the facet's radar map (one map tile a pixel at the native zoom) as web map
/// tiles with a viewer.
pub(crate) fn tiles(args: &TilesArgs, out: &mut Output) -> Result<()> {
    let files = open_facet(&args.dir, &args.size)?;
    let extra = args.style.extra()?;
    if args.style.style == StyleChoice::World {
        if args.style.hillshade || args.style.radarcol.is_some() {
            bail!("--hillshade and --radarcol do not apply to --style world");
        }
        let mut facet = views(&files, &args.size)?;
        if let Some(t) = &extra.tiledata {
            facet.tiledata = Some(t.view()?);
        }
        if let Some(h) = &extra.hues {
            facet.hues = Some(h.view()?);
        }
        let inputs = facet_inputs(&files.paths, &args.style);
        let ask = super::world::PyramidAsk {
            dir: &args.dir,
            facet_number: args.size.facet,
            base_scale: args.base_scale,
            pyramid: &args.pyramid,
        };
        return super::world::tiles(&facet, &ask, &inputs, out);
    }
    if args.base_scale != 1 {
        bail!("--base-scale goes with --style world");
    }
    let style = args.style.style();
    let options = args.style.options(1, None);
    let (facet, colours) = extra.apply(views(&files, &args.size)?, &options, &args.dir)?;
    let size = facet.size();
    let mut drawn_with = serde_json::Map::new();
    drawn_with.insert("style".into(), style.name().into());
    let viewer = Viewer {
        title: format!("Facet {}: {size}", args.size.facet),
        unit: "tile",
        cell: 8,
        cell_unit: "block",
        drawn_with,
        iso: None,
    };
    let inputs = facet_inputs(&files.paths, &args.style);
    let source = RadarSource::new(&facet, &colours, &options)?;
    let png = TilePng {
        filter: PngFilter::Sub,
        opaque_rgb: true,
    };
    write_tiles(&source, png, &args.pyramid, &viewer, &inputs, out)
}

/// The files a facet's picture is drawn from (never to be written over), with those the
/// command line names.
fn facet_inputs<'a>(p: &'a mul_core::FacetPaths, style: &'a StyleArgs) -> Vec<&'a Path> {
    [Some(&p.map), Some(&p.staidx), Some(&p.statics)]
        .into_iter()
        .chain([p.tiledata.as_ref(), p.radarcol.as_ref(), p.hues.as_ref()])
        .flatten()
        .map(PathBuf::as_path)
        .chain(style.inputs())
        .collect()
}

/// A rectangle of tiles in a report.
#[derive(Serialize)]
struct RegionReport {
    x: u32,
    y: u32,
    width: u32,
    height: u32,
}

impl From<Region> for RegionReport {
    fn from(r: Region) -> Self {
        RegionReport {
            x: r.x,
            y: r.y,
            width: r.width,
            height: r.height,
        }
    }
}

/// What `uo render --json` prints.
#[derive(Serialize)]
struct RenderReport {
    output: String,
    bytes: u64,
    /// Pixels.
    width: u32,
    /// Pixels.
    height: u32,
    /// Tiles a pixel along each side.
    scale: u32,
    /// The tiles drawn.
    region: RegionReport,
    /// Whether `--region` reached past the map and was cut to it.
    clipped: bool,
    /// `flat`, `client` or `altitude`.
    style: RadarStyle,
    elapsed_ms: f64,
}

pub(crate) fn render(args: &RenderArgs, out: &mut Output) -> Result<()> {
    let start = std::time::Instant::now();
    let files = open_facet(&args.dir, &args.size)?;
    let extra = args.style.extra()?;
    if args.style.style == StyleChoice::World {
        return render_world(args, &files, &extra, out);
    }
    if args.view.is_some() || args.view_size.is_some() {
        bail!("--view and --view-size go with --style world");
    }
    let checked = args.style.options(args.scale, None);
    let (facet, radar) = extra.apply(views(&files, &args.size)?, &checked, &args.dir)?;
    let size = facet.size();
    let whole = Region::whole(size.width(), size.height());
    let region = match args.region {
        None => whole,
        Some(asked) => {
            let Some(clipped) = asked.clip(size.width(), size.height()) else {
                bail!("the region {asked} is outside the {size} map");
            };
            if clipped != asked {
                crate::output::error_line(&format!(
                    "note: the region {asked} is clipped to the {size} map: {clipped}"
                ));
            }
            clipped
        }
    };
    let inputs = facet_inputs(&files.paths, &args.style);
    let options = args.style.options(args.scale, Some(region));
    let (width, height) = write_radar(&facet, &radar, &options, &args.output, &inputs)?;
    let report = RenderReport {
        bytes: Written::of(&args.output)?.bytes,
        output: args.output.display().to_string(),
        width,
        height,
        scale: args.scale,
        region: region.into(),
        clipped: args.region.is_some_and(|asked| asked != region),
        style: options.style,
        elapsed_ms: elapsed_ms(start),
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "wrote {} ({} x {} pixels, {} x {} tiles a pixel, {} style)",
            report.output, report.width, report.height, args.scale, args.scale, report.style
        )
    })
}

/// `uo render --style world`.
fn render_world(
    args: &RenderArgs,
    files: &mul_core::FacetFiles,
    extra: &ExtraTables,
    out: &mut Output,
) -> Result<()> {
    if args.scale != 1 || args.style.hillshade || args.style.radarcol.is_some() {
        bail!("--scale, --hillshade and --radarcol do not apply to --style world");
    }
    let mut facet = views(files, &args.size)?;
    if let Some(t) = &extra.tiledata {
        facet.tiledata = Some(t.view()?);
    }
    if let Some(h) = &extra.hues {
        facet.hues = Some(h.view()?);
    }
    let inputs = facet_inputs(&files.paths, &args.style);
    let ask = super::world::WorldAsk {
        dir: &args.dir,
        output: &args.output,
        view: args.view,
        view_size: args.view_size,
        region: args.region,
    };
    super::world::render(&facet, &ask, &inputs, out)
}

/// Writes the radar picture `options` ask for to `path` (never over one of `inputs`), a
/// stripe at a time, with a progress bar on a terminal; returns its width and height in
/// pixels.
fn write_radar(
    facet: &Facet<'_>,
    radar: &RadarColours<'_>,
    options: &RadarOptions,
    path: &Path,
    inputs: &[&Path],
) -> Result<(u32, u32)> {
    let (_, _, height) = options.plan(facet.size())?;
    let bar = progress_bar(u64::from(height), "rendering {bar:40} {percent}% {eta}");
    let mut size = (0, 0);
    write_file(path, inputs, |w| {
        let png = crate::render::compression();
        size = write_radar_png(facet, radar, options, png, w, &|n| bar.inc(u64::from(n)))?;
        Ok(())
    })?;
    bar.finish_and_clear();
    Ok(size)
}

/// Renders a whole facet at `scale` to `path` with its own radar colours.
pub(crate) fn render_facet(facet: &Facet<'_>, scale: u32, path: &Path) -> Result<(u32, u32)> {
    let radar = facet
        .radar
        .ok_or_else(|| anyhow!("the facet has no radarcol.mul"))?;
    let size = facet.size();
    let options = RadarOptions {
        scale,
        region: Some(Region::whole(size.width(), size.height())),
        ..RadarOptions::default()
    };
    write_radar(facet, &radar, &options, path, &[])
}
