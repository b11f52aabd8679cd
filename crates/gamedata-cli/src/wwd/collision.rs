//! `gamedata wwd render`: a plane's collision map (`gamedata_render::wwd`) written as a
//! PNG.

use gamedata_render::PngFilter;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use gamedata_render::wwd;
use serde::Serialize;
use wap_core::{CodePage, decode};

use super::{open, view};
use crate::output::Output;
use crate::web::{PyramidArgs, Viewer, write_tiles};

#[derive(Args)]
pub(crate) struct RenderArgs {
    /// The level (.wwd).
    pub(super) file: PathBuf,
    /// The PNG to write.
    #[arg(short, long, value_name = "OUT.png")]
    pub(super) output: PathBuf,
    /// The plane to draw (its name, case ignored); the main plane by default.
    #[arg(long)]
    pub(super) plane: Option<String>,
    /// Output pixels per tile side (at the tile size, 64 in Claw, every pixel is exact).
    /// By default the largest that keeps the picture within 4096 pixels a side.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub(super) tile_px: Option<u32>,
    #[command(flatten)]
    pub(super) graphics: super::scene::GraphicsArgs,
    /// With --rez or --images: draw the screen a player sees with the camera's top-left at
    /// main-plane pixel X,Y (the other planes placed by their movement percentages, as the
    /// game places them), one pixel a game pixel.
    #[arg(
        long,
        value_name = "X,Y",
        value_parser = super::scene::parse_view,
        conflicts_with = "tile_px",
        allow_hyphen_values = true
    )]
    pub(super) view: Option<(i32, i32)>,
    /// The screen's size with --view, in pixels (the game's: 640x480).
    #[arg(long, value_name = "WxH", value_parser = super::scene::parse_view_size, requires = "view")]
    pub(super) view_size: Option<(u32, u32)>,
}

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

/// The plane named `name` (case ignored), else the main plane.
pub(super) fn chosen_plane<'data>(
    level: &wap_core::Level<'data>,
    name: Option<&str>,
    file: &std::path::Path,
) -> Result<wap_core::Plane<'data>> {
    match name {
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
    .with_context(|| format!("reading {}", file.display()))
}

#[derive(Args)]
pub(crate) struct TilesArgs {
    /// The level (.wwd).
    pub(super) file: PathBuf,
    /// The plane to draw (its name, case ignored); the main plane by default.
    #[arg(long)]
    pub(super) plane: Option<String>,
    #[command(flatten)]
    pub(super) pyramid: PyramidArgs,
    #[command(flatten)]
    pub(super) graphics: super::scene::GraphicsArgs,
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
    };
    write_tiles(
        &map,
        PngFilter::Up,
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
    let counts = std::sync::Mutex::new(wwd::PixelCounts::default());
    crate::files::write_file(&args.output, &[&args.file], |w| {
        let png = crate::render::compression();
        gamedata_render::write_png_parallel(
            w,
            map.width(),
            map.height(),
            png,
            |y, rows| {
                let (stripe, n) = map.stripe(y, rows)?;
                if let Ok(mut counts) = counts.lock() {
                    *counts = *counts + n;
                }
                Ok(stripe)
            },
            |_| {},
        )?;
        Ok(())
    })?;
    let counts = counts.into_inner().unwrap_or_default();
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
