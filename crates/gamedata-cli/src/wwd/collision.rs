//! The collision map of a plane: each tile's tile property record sampled pixel by pixel
//! (exact for double and mask records at full size), one colour per attribute, objects
//! marked; rows computed over rayon's pool.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;
use rayon::prelude::*;
use serde::Serialize;
use wap_core::{Attribute, CodePage, Plane, Tile, TilePropertyIndex, decode};

use super::{open, view};
use crate::output::Output;
use crate::render::RgbaImage;

#[derive(Args)]
pub(crate) struct RenderArgs {
    /// The level (.wwd).
    file: PathBuf,
    /// The PNG to write.
    #[arg(short, long, value_name = "OUT.png")]
    output: PathBuf,
    /// The plane to draw (its name, case ignored); the main plane by default.
    #[arg(long)]
    plane: Option<String>,
    /// Output pixels per tile side (at the tile size, 64 in Claw, every pixel is exact).
    /// By default the largest that keeps the picture within 4096 pixels a side.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    tile_px: Option<u32>,
}

/// Colours of the attributes: clear, solid, ground, climb, death, other; then objects.
const CLEAR: [u8; 3] = [24, 24, 32];
const SOLID: [u8; 3] = [150, 150, 150];
const GROUND: [u8; 3] = [60, 170, 60];
const CLIMB: [u8; 3] = [230, 200, 40];
const DEATH: [u8; 3] = [220, 40, 40];
const OTHER: [u8; 3] = [160, 70, 200];
const OBJECT: [u8; 3] = [255, 255, 255];

/// The longest side a default picture gets, in pixels.
const MAX_SIDE: u32 = 4096;

fn class(value: i32) -> usize {
    match Attribute::from_raw(value) {
        Attribute::Clear => 0,
        Attribute::Solid => 1,
        Attribute::Ground => 2,
        Attribute::Climb => 3,
        Attribute::Death => 4,
        Attribute::Other(_) => 5,
    }
}

const COLOURS: [[u8; 3]; 6] = [CLEAR, SOLID, GROUND, CLIMB, DEATH, OTHER];

/// Pixels of each attribute class in the picture.
#[derive(Serialize, Default, Clone, Copy)]
pub(crate) struct PixelCounts {
    clear: u64,
    solid: u64,
    ground: u64,
    climb: u64,
    death: u64,
    other: u64,
}

#[derive(Serialize)]
pub(crate) struct RenderReport {
    output: String,
    plane: String,
    width: u32,
    height: u32,
    tile_px: u32,
    pixels: PixelCounts,
    objects: usize,
}

/// Draws `plane` with `index` at `tile_px` output pixels a tile side; returns the image,
/// the pixel counts and the objects marked.
pub(crate) fn collision_map(
    plane: &Plane<'_>,
    index: &TilePropertyIndex<'_>,
    tile_px: u32,
) -> Result<(RgbaImage, PixelCounts, usize)> {
    let (tw, th) = plane.tile_size();
    let (Ok(tw), Ok(th)) = (u32::try_from(tw), u32::try_from(th)) else {
        bail!("the plane's tile size {tw} x {th} is not positive");
    };
    if tw == 0 || th == 0 || tw > 1024 || th > 1024 {
        bail!("the plane's tile size {tw} x {th} cannot be drawn (1 to 1024 pixels a side)");
    }
    let (width, height) = (
        u64::from(plane.tiles_wide()) * u64::from(tile_px),
        u64::from(plane.tiles_high()) * u64::from(tile_px),
    );
    if width * height > 1 << 28 || width == 0 || height == 0 {
        bail!("a {width} x {height} picture cannot be drawn; lower --tile-px");
    }
    let (width, height) = (u32::try_from(width)?, u32::try_from(height)?);
    // Only the records the plane's tiles use are reduced, within a work budget that a
    // crafted level cannot blow up.
    let mut used = vec![false; usize::from(u16::MAX) + 1];
    for tile in plane.tiles() {
        if let Tile::Image { id, .. } = Tile::from_raw(tile.get())
            && let Some(u) = used.get_mut(usize::from(id))
        {
            *u = true;
        }
    }
    let distinct = index
        .records()
        .iter()
        .enumerate()
        .filter(|&(id, _)| used.get(id).copied().unwrap_or(false))
        .count() as u64;
    let per_record = u64::from(tw.max(tile_px)) * u64::from(th.max(tile_px));
    if distinct * per_record > 1 << 30 {
        bail!(
            "{distinct} tile property records of {tw} x {th} pixels are too much to draw \
             at {tile_px} pixels a tile"
        );
    }
    let grids = tile_grids(index, &used, tw, th, tile_px);
    let side = tile_px as usize;
    let mut image = RgbaImage::new(width, height, [0, 0, 0, 255]);
    let row_bytes = width as usize * 4;
    let counts: Vec<[u64; 6]> = image
        .pixels
        .par_chunks_mut(row_bytes)
        .enumerate()
        .map(|(oy, row)| {
            let mut counts = [0u64; 6];
            let oy = u32::try_from(oy).unwrap_or(u32::MAX);
            let (ty, sy) = (oy / tile_px, (oy % tile_px) as usize);
            for (ox, pixel) in (0u32..).zip(row.chunks_exact_mut(4)) {
                let (tx, sx) = (ox / tile_px, (ox % tile_px) as usize);
                let c = match plane.tile(tx, ty) {
                    Some(Tile::Image { id, .. }) => grids
                        .get(usize::from(id))
                        .and_then(|g| g.get(sy * side + sx))
                        .map_or(0, |&c| usize::from(c)),
                    _ => 0,
                };
                if let (Some(n), Some(colour)) = (counts.get_mut(c), COLOURS.get(c)) {
                    *n += 1;
                    pixel.copy_from_slice(&[colour[0], colour[1], colour[2], 255]);
                }
            }
            counts
        })
        .collect();
    let mut total = [0u64; 6];
    for row in &counts {
        for (t, n) in total.iter_mut().zip(row) {
            *t += n;
        }
    }
    let [clear, solid, ground, climb, death, other] = total;
    let mut marked = 0;
    for object in plane.objects() {
        let object = object?;
        let (x, y) = object.position();
        let (Ok(x), Ok(y)) = (u64::try_from(x), u64::try_from(y)) else {
            continue;
        };
        let ox = x * u64::from(tile_px) / u64::from(tw);
        let oy = y * u64::from(tile_px) / u64::from(th);
        let (Ok(ox), Ok(oy)) = (u32::try_from(ox), u32::try_from(oy)) else {
            continue;
        };
        if ox >= width || oy >= height {
            continue;
        }
        let arm = (tile_px / 8).max(1);
        for d in 0..=arm {
            for (x, y) in [
                (ox.saturating_add(d), oy),
                (ox.saturating_sub(d), oy),
                (ox, oy.saturating_add(d)),
                (ox, oy.saturating_sub(d)),
            ] {
                image.set(x, y, [OBJECT[0], OBJECT[1], OBJECT[2], 255]);
            }
        }
        marked += 1;
    }
    let counts = PixelCounts {
        clear,
        solid,
        ground,
        climb,
        death,
        other,
    };
    Ok((image, counts, marked))
}

/// Which class wins when one output pixel covers several tile pixels: the rarer and more
/// telling attributes first, so that a thin ground ledge or spike row stays visible when a
/// large level is drawn small.
const PRIORITY: [u8; 6] = [0, 2, 4, 3, 5, 1];

/// For every tile property record a tile uses (`used[id]`), its `tile_px x tile_px` grid of
/// attribute classes: each output pixel gets the highest-priority class among the tile
/// pixels it covers (exact when `tile_px` is the tile size). Unused records get no grid.
fn tile_grids(
    index: &TilePropertyIndex<'_>,
    used: &[bool],
    tw: u32,
    th: u32,
    tile_px: u32,
) -> Vec<Vec<u8>> {
    let span = |s: u32, size: u32| {
        // Sizes are at most 1,024 and tile_px at most 256: no overflow.
        let start = s * size / tile_px;
        let end = ((s + 1) * size / tile_px).max(start + 1);
        start..end
    };
    index
        .records()
        .par_iter()
        .enumerate()
        .map(|(id, record)| {
            if !used.get(id).copied().unwrap_or(false) {
                return Vec::new();
            }
            let mut grid = Vec::with_capacity((tile_px * tile_px) as usize);
            for sy in 0..tile_px {
                for sx in 0..tile_px {
                    let mut best = 0u8;
                    for y in span(sy, th) {
                        for x in span(sx, tw) {
                            let value = record.attribute_at(
                                i32::try_from(x).unwrap_or(i32::MAX),
                                i32::try_from(y).unwrap_or(i32::MAX),
                            );
                            let c = u8::try_from(class(value)).unwrap_or(5);
                            let rank = |c: u8| PRIORITY.get(usize::from(c)).copied().unwrap_or(0);
                            if rank(c) > rank(best) {
                                best = c;
                            }
                        }
                    }
                    grid.push(best);
                }
            }
            grid
        })
        .collect()
}

/// The default pixels a tile side: the largest that keeps both sides within
/// [`MAX_SIDE`], at least 1 and at most the tile size.
pub(crate) fn default_tile_px(plane: &Plane<'_>) -> u32 {
    let longest = plane.tiles_wide().max(plane.tiles_high()).max(1);
    let tile = u32::try_from(plane.tile_size().0).unwrap_or(1).max(1);
    (MAX_SIDE / longest).clamp(1, tile)
}

pub(crate) fn render(args: &RenderArgs, out: &mut Output) -> Result<()> {
    let file = open(&args.file)?;
    let level = view(&file, &args.file)?;
    let plane = match &args.plane {
        Some(name) => level.plane_named(name).with_context(|| {
            let names: Vec<String> = level
                .plane_headers()
                .iter()
                .map(|p| decode(wap_core::field_text(&p.name), CodePage::Cp1252).into_owned())
                .collect();
            format!("no plane named {name:?}; the planes are {names:?}")
        })?,
        None => level
            .main_plane()
            .context("no plane has the main flag; name one with --plane")?,
    }
    .with_context(|| format!("reading {}", args.file.display()))?;
    let index = level
        .tile_properties()
        .and_then(|t| t.collect())
        .with_context(|| format!("reading {}", args.file.display()))?;
    let tile_px = args.tile_px.unwrap_or_else(|| default_tile_px(&plane));
    let (image, pixels, objects) = collision_map(&plane, &index, tile_px)?;
    image.write_png(&args.output, &[&args.file])?;
    let report = RenderReport {
        output: args.output.display().to_string(),
        plane: decode(plane.name(), CodePage::Cp1252).into_owned(),
        width: image.width,
        height: image.height,
        tile_px,
        pixels,
        objects,
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "wrote {} ({} x {} pixels, {} a tile side; plane {:?}, {} objects marked)",
            report.output, report.width, report.height, report.tile_px, report.plane, objects
        )?;
        let p = &report.pixels;
        writeln!(
            w,
            "pixels: clear {} (dark), solid {} (grey), ground {} (green), climb {} (yellow), \
             death {} (red), other {} (purple)",
            p.clear, p.solid, p.ground, p.climb, p.death, p.other
        )
    })
}
