//! `gamedata uo render`: the radar map of `gamedata_render::uo`, written as a PNG.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use gamedata_render::Region;
use gamedata_render::uo::{RadarOptions, RadarSource, write_radar_png};
use mul_core::{Facet, OwnedRadarColours, RadarColours};
use serde::Serialize;

use super::{SizeArgs, map_single, open_facet, views};
use crate::files::write_file;
use crate::files::{Written, elapsed_ms};
use crate::output::{Output, progress_bar};
use crate::web::{PyramidArgs, Viewer, write_tiles};

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
    /// Only this rectangle, in tiles: X,Y,W,H.
    #[arg(long, value_parser = parse_region)]
    region: Option<Region>,
    /// radarcol.mul to colour with, when the folder has none.
    #[arg(long)]
    radarcol: Option<PathBuf>,
    /// Shade each tile by its height against its north-west neighbour's (lit from the
    /// north-west).
    #[arg(long)]
    hillshade: bool,
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

/// The radar colours to draw with: `extra` (the `--radarcol` file at `path`) when given,
/// else the folder's.
/// radarcol.mul given with `--radarcol`, mapped, if any.
fn extra_radarcol(path: Option<&Path>) -> Result<Option<OwnedRadarColours>> {
    path.map(|p| map_single!(RadarColours, p).with_context(|| format!("reading {}", p.display())))
        .transpose()
}

fn radar_colours<'a>(
    facet: &Facet<'a>,
    extra: Option<&'a OwnedRadarColours>,
    dir: &Path,
) -> Result<RadarColours<'a>> {
    match (extra, facet.radar) {
        (Some(owned), _) => Ok(owned.view()?),
        (None, Some(r)) => Ok(r),
        (None, None) => bail!(
            "no radarcol.mul in {}; give one with --radarcol FILE",
            dir.display()
        ),
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
    /// radarcol.mul to colour with, when the folder has none.
    #[arg(long)]
    radarcol: Option<PathBuf>,
    /// Shade each tile by its height against its north-west neighbour's (lit from the
    /// north-west).
    #[arg(long)]
    hillshade: bool,
}

/// `uo tiles`: the facet's radar map (one map tile a pixel at the native zoom) as web map
/// tiles with a viewer.
pub(crate) fn tiles(args: &TilesArgs, out: &mut Output) -> Result<()> {
    let files = open_facet(&args.dir, &args.size)?;
    let facet = views(&files, &args.size)?;
    let extra = extra_radarcol(args.radarcol.as_deref())?;
    let colours = radar_colours(&facet, extra.as_ref(), &args.dir)?;
    let size = facet.size();
    let viewer = Viewer {
        title: format!("Facet {}: {size}", args.size.facet),
        unit: "tile",
        cell: 8,
        cell_unit: "block",
        drawn_with: Default::default(),
    };
    let inputs = facet_inputs(&files.paths, args.radarcol.as_deref());
    let source = RadarSource {
        facet: &facet,
        colours: &colours,
        hillshade: args.hillshade,
    };
    write_tiles(&source, &args.pyramid, &viewer, &inputs, out)
}

/// The files a facet's picture is drawn from (never to be written over), and `radarcol`.
fn facet_inputs<'a>(p: &'a mul_core::FacetPaths, radarcol: Option<&'a Path>) -> Vec<&'a Path> {
    [Some(&p.map), Some(&p.staidx), Some(&p.statics)]
        .into_iter()
        .chain([p.tiledata.as_ref(), p.radarcol.as_ref(), p.hues.as_ref()])
        .flatten()
        .map(PathBuf::as_path)
        .chain(radarcol)
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
    elapsed_ms: f64,
}

pub(crate) fn render(args: &RenderArgs, out: &mut Output) -> Result<()> {
    let start = std::time::Instant::now();
    let files = open_facet(&args.dir, &args.size)?;
    let facet = views(&files, &args.size)?;
    let extra = extra_radarcol(args.radarcol.as_deref())?;
    let radar = radar_colours(&facet, extra.as_ref(), &args.dir)?;
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
    let inputs = facet_inputs(&files.paths, args.radarcol.as_deref());
    let (width, height) = write_radar(
        &facet,
        &radar,
        (region, args.scale, args.hillshade),
        &args.output,
        &inputs,
    )?;
    let report = RenderReport {
        bytes: Written::of(&args.output)?.bytes,
        output: args.output.display().to_string(),
        width,
        height,
        scale: args.scale,
        region: region.into(),
        clipped: args.region.is_some_and(|asked| asked != region),
        elapsed_ms: elapsed_ms(start),
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "wrote {} ({} x {} pixels, {} x {} tiles a pixel)",
            report.output, report.width, report.height, args.scale, args.scale
        )
    })
}

/// Writes the radar picture of `region` at `scale` tiles a pixel to `path` (never over
/// one of `inputs`), a stripe at a time, with a progress bar on a terminal; returns its
/// width and height in pixels.
fn write_radar(
    facet: &Facet<'_>,
    radar: &RadarColours<'_>,
    (region, scale, hillshade): (Region, u32, bool),
    path: &Path,
    inputs: &[&Path],
) -> Result<(u32, u32)> {
    let options = RadarOptions {
        scale,
        region: Some(region),
        hillshade,
    };
    let (_, _, height) = options.plan(facet.size())?;
    let bar = progress_bar(u64::from(height), "rendering {bar:40} {percent}% {eta}");
    let mut size = (0, 0);
    write_file(path, inputs, |w| {
        size = write_radar_png(facet, radar, &options, w, &|n| bar.inc(u64::from(n)))?;
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
    let region = Region::whole(size.width(), size.height());
    write_radar(facet, &radar, (region, scale, false), path, &[])
}
