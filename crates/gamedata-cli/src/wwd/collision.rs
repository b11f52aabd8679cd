//! `gamedata wwd render`: a plane's collision map (`gamedata_render::wwd`) written as a
//! PNG.

use gamedata_render::PngFilter;

use anyhow::{Context, Result};
use gamedata_render::wwd;
use gamedata_render::{Region, RgbaImage, TileSource};
use serde::Serialize;
use wap_core::{CodePage, decode};

use super::args::{RenderArgs, TilesArgs, chosen_plane};
use super::{open, view};
use crate::output::Output;
use crate::web::{TilePng, Viewer, write_tiles};

#[derive(Serialize)]
pub(crate) struct RenderReport {
    output: String,
    bytes: u64,
    plane: String,
    width: u32,
    height: u32,
    tile_px: u32,
    pixels: wwd::PixelCounts,
    objects: usize,
    elapsed_ms: f64,
}

/// The level's tile property records.
fn tile_index<'data>(
    level: &wap_core::Level<'data>,
    file: &std::path::Path,
) -> Result<wap_core::TilePropertyIndex<'data>> {
    level
        .tile_properties()
        .and_then(|t| t.collect())
        .with_context(|| format!("reading {}", file.display()))
}

/// `wwd tiles`: a plane's collision map (one game pixel a pixel at the native zoom) as web
/// map tiles with a viewer.
pub(crate) fn tiles(args: &TilesArgs, out: &mut Output) -> Result<()> {
    if args.graphics.source().is_some() {
        return super::scene::tiles(args, out);
    }
    args.graphics.no_time()?;
    let file = open(&args.file)?;
    let level = view(&file, &args.file)?;
    let plane = chosen_plane(&level, args.plane.as_deref(), &args.file)?;
    let index = tile_index(&level, &args.file)?;
    // One game pixel a pixel: the tile's width in pixels a tile.
    let tile = u32::try_from(plane.tile_size().0).unwrap_or(0);
    let map = wwd::CollisionMap::new(&plane, &index, tile)
        .with_context(|| format!("drawing {}", args.file.display()))?;
    let viewer = Viewer {
        title: format!(
            "{}: plane {}",
            level.header().name_lossy(),
            decode(plane.name(), CodePage::Cp1252)
        ),
        unit: "pixel",
        cell: tile,
        cell_unit: "tile",
        drawn_with: Default::default(),
        iso: None,
    };
    write_tiles(
        &map,
        TilePng::rgba(PngFilter::Up),
        &args.pyramid,
        &viewer,
        &[&args.file],
        out,
    )
}

pub(crate) fn render(args: &RenderArgs, out: &mut Output) -> Result<()> {
    if args.graphics.source().is_some() {
        return super::scene::render(args, out);
    }
    if args.view.is_some() {
        anyhow::bail!("--view draws the screen a player sees: it needs --rez or --images");
    }
    args.graphics.no_time()?;
    let start = std::time::Instant::now();
    let file = open(&args.file)?;
    let level = view(&file, &args.file)?;
    let plane = chosen_plane(&level, args.plane.as_deref(), &args.file)?;
    let index = tile_index(&level, &args.file)?;
    let tile_px = args.tile_px.unwrap_or_else(|| wwd::default_tile_px(&plane));
    let map = wwd::CollisionMap::new(&plane, &index, tile_px)
        .with_context(|| format!("drawing {}", args.file.display()))?;
    // Drawn and encoded in parallel stripes of about 2 MiB: RETAIL01 at 64 pixels a tile is
    // 24,576 x 6,144 pixels (576 MiB whole).
    let counted = Counted {
        map: &map,
        counts: std::sync::Mutex::new(wwd::PixelCounts::default()),
    };
    crate::files::write_file(&args.output, &[&args.file], |w| {
        let png = crate::render::png_options();
        gamedata_render::write_source_png(w, &counted, &png, &|_| {})?;
        Ok(())
    })?;
    let counts = counted.counts.into_inner().unwrap_or_default();
    let objects = map.objects_marked()?;
    let report = RenderReport {
        output: args.output.display().to_string(),
        bytes: crate::files::Written::of(&args.output)?.bytes,
        plane: decode(plane.name(), CodePage::Cp1252).into_owned(),
        width: map.width(),
        height: map.height(),
        tile_px,
        pixels: counts,
        objects,
        elapsed_ms: crate::files::elapsed_ms(start),
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

/// A collision map drawn as any picture is (the scene's plumbing), adding up the pixels of
/// each attribute class of the regions drawn: a picture written whole draws each pixel once.
struct Counted<'m, 'a, 'd> {
    map: &'m wwd::CollisionMap<'a, 'd>,
    counts: std::sync::Mutex<wwd::PixelCounts>,
}

impl TileSource for Counted<'_, '_, '_> {
    fn size(&self) -> (u32, u32) {
        (self.map.width(), self.map.height())
    }

    fn draw(&self, region: Region) -> gamedata_render::Result<RgbaImage> {
        let (image, n) = self.map.rect(region)?;
        if let Ok(mut counts) = self.counts.lock() {
            *counts = *counts + n;
        }
        Ok(image)
    }
}
