//! The radar map: one colour a tile (the top static's radar colour, else the land's),
//! averaged over K x K tiles an output pixel, computed over rayon's pool.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use mul_core::{Facet, RadarColours, rgb555_to_rgb8};
use rayon::prelude::*;

use super::{SizeArgs, map_file, open_facet, views};
use crate::output::Output;
use crate::render::RgbaImage;

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
}

/// A rectangle of tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Region {
    x: u32,
    y: u32,
    w: u32,
    h: u32,
}

fn parse_region(text: &str) -> Result<Region, String> {
    let parts: Vec<u32> = text
        .split(',')
        .map(|p| p.trim().parse::<u32>())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{text:?} is not X,Y,W,H in tiles: {e}"))?;
    match parts.as_slice() {
        &[x, y, w, h] if w > 0 && h > 0 => Ok(Region { x, y, w, h }),
        _ => Err(format!(
            "{text:?} is not X,Y,W,H in tiles with W and H above 0"
        )),
    }
}

/// Output columns computed by one task.
const STRIPE: u32 = 8;

pub(crate) fn render(args: &RenderArgs, out: &mut Output) -> Result<()> {
    let files = open_facet(&args.dir, &args.size)?;
    let facet = views(&files, &args.size)?;
    let extra;
    let radar = match (&args.radarcol, facet.radar) {
        (Some(path), _) => {
            extra = map_file(path)?;
            RadarColours::parse(&extra).with_context(|| format!("reading {}", path.display()))?
        }
        (None, Some(r)) => r,
        (None, None) => bail!(
            "no radarcol.mul in {}; give one with --radarcol FILE",
            args.dir.display()
        ),
    };
    let size = facet.size();
    let region = args.region.unwrap_or(Region {
        x: 0,
        y: 0,
        w: size.width(),
        h: size.height(),
    });
    if region.x >= size.width() || region.y >= size.height() {
        bail!("the region starts outside the {size} map");
    }
    let region = Region {
        w: region.w.min(size.width() - region.x),
        h: region.h.min(size.height() - region.y),
        ..region
    };
    let picture = radar_picture(&facet, &radar, region, args.scale, progress_bar)?;
    let p = &files.paths;
    let inputs: Vec<&Path> = [Some(&p.map), Some(&p.staidx), Some(&p.statics)]
        .into_iter()
        .chain([p.tiledata.as_ref(), p.radarcol.as_ref(), p.hues.as_ref()])
        .flatten()
        .map(PathBuf::as_path)
        .chain(args.radarcol.as_deref())
        .collect();
    picture.write_png(&args.output, &inputs)?;
    out.note(&format!(
        "wrote {} ({} x {} pixels, {} x {} tiles a pixel)",
        args.output.display(),
        picture.width,
        picture.height,
        args.scale,
        args.scale
    ))
}

/// A progress bar on stderr when it is a terminal, none when piped.
fn progress_bar(len: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template("rendering {bar:40} {percent}% {eta}") {
        bar.set_style(style);
    }
    bar
}

/// The radar picture of `region` at `scale` tiles a pixel.
pub(crate) fn radar_picture(
    facet: &Facet<'_>,
    radar: &RadarColours<'_>,
    region: Region,
    scale: u32,
    progress: impl FnOnce(u64) -> ProgressBar,
) -> Result<RgbaImage> {
    let (ow, oh) = (region.w.div_ceil(scale), region.h.div_ceil(scale));
    if u64::from(ow) * u64::from(oh) > 1 << 28 {
        bail!("a {ow} x {oh} picture is too large; raise --scale or narrow --region");
    }
    let stripes: Vec<u32> = (0..ow.div_ceil(STRIPE)).collect();
    let bar = progress(stripes.len() as u64);
    let columns: Vec<Vec<[u8; 3]>> = stripes
        .par_iter()
        .map(|&s| {
            let c = stripe(
                facet,
                radar,
                region,
                scale,
                s * STRIPE,
                ((s + 1) * STRIPE).min(ow),
                oh,
            );
            bar.inc(1);
            c
        })
        .collect();
    bar.finish_and_clear();
    let mut image = RgbaImage::new(ow, oh, [0, 0, 0, 255]);
    for (s, pixels) in (0u32..).zip(&columns) {
        let x0 = s * STRIPE;
        let width = STRIPE.min(ow - x0);
        for (i, [r, g, b]) in (0u32..).zip(pixels) {
            image.set(x0 + i % width, i / width, [*r, *g, *b, 255]);
        }
    }
    Ok(image)
}

/// Output columns `ox0..ox1` (all `oh` rows), row-major within the stripe.
fn stripe(
    facet: &Facet<'_>,
    radar: &RadarColours<'_>,
    region: Region,
    scale: u32,
    ox0: u32,
    ox1: u32,
    oh: u32,
) -> Vec<[u8; 3]> {
    let tx0 = region.x + ox0 * scale;
    let tx1 = (region.x + ox1 * scale).min(region.x + region.w);
    let width = (ox1 - ox0) as usize;
    let mut sums = vec![[0u32; 4]; width * oh as usize];
    let (ty0, ty1) = (region.y, region.y + region.h);
    let mut colours = [[0u8; 3]; 64];
    for bx in tx0 / 8..tx1.div_ceil(8) {
        for by in ty0 / 8..ty1.div_ceil(8) {
            block_colours(facet, radar, bx, by, &mut colours);
            for (i, colour) in (0u32..).zip(&colours) {
                let (x, y) = (bx * 8 + i % 8, by * 8 + i / 8);
                if x < tx0 || x >= tx1 || y < ty0 || y >= ty1 {
                    continue;
                }
                let ox = ((x - region.x) / scale - ox0) as usize;
                let oy = ((y - region.y) / scale) as usize;
                if let Some(sum) = sums.get_mut(oy * width + ox) {
                    sum[0] += u32::from(colour[0]);
                    sum[1] += u32::from(colour[1]);
                    sum[2] += u32::from(colour[2]);
                    sum[3] += 1;
                }
            }
        }
    }
    sums.iter()
        .map(|&[r, g, b, n]| {
            let n = n.max(1);
            [r, g, b].map(|v| u8::try_from(v / n).unwrap_or(u8::MAX))
        })
        .collect()
}

/// The radar colour of each of block (bx, by)'s 64 tiles: the highest static's, else the
/// land's (the later static wins a tie, as it is drawn later). Bad blocks show their land.
fn block_colours(
    facet: &Facet<'_>,
    radar: &RadarColours<'_>,
    bx: u32,
    by: u32,
    out: &mut [[u8; 3]; 64],
) {
    let Some(block) = facet.map.block(bx, by) else {
        *out = [[0; 3]; 64];
        return;
    };
    let mut top = [i16::MIN; 64];
    for ((colour, cell), z) in out.iter_mut().zip(&block.cells).zip(top.iter_mut()) {
        *colour = rgb555_to_rgb8(radar.land(cell.id.get()).unwrap_or(0));
        *z = i16::from(cell.z) - 1;
    }
    let statics = facet
        .size()
        .block_index(bx, by)
        .and_then(|b| facet.statics.block(b).ok());
    for s in statics.into_iter().flatten() {
        let i = usize::from(s.y % 8) * 8 + usize::from(s.x % 8);
        let (Some(z), Some(colour)) = (top.get_mut(i), out.get_mut(i)) else {
            continue;
        };
        if i16::from(s.z) >= *z {
            *z = i16::from(s.z);
            *colour = rgb555_to_rgb8(radar.item(s.id.get()).unwrap_or(0));
        }
    }
}

/// Renders a whole facet at `scale` to `path` with its own radar colours.
pub(crate) fn render_facet(facet: &Facet<'_>, scale: u32, path: &Path) -> Result<(u32, u32)> {
    let radar = facet
        .radar
        .ok_or_else(|| anyhow!("the facet has no radarcol.mul"))?;
    let size = facet.size();
    let region = Region {
        x: 0,
        y: 0,
        w: size.width(),
        h: size.height(),
    };
    let picture = radar_picture(facet, &radar, region, scale, progress_bar)?;
    picture.write_png(path, &[])?;
    Ok((picture.width, picture.height))
}
