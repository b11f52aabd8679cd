//! `gamedata wwd render|tiles --rez ARCHIVE` (or `--images DIR`): the level as the game
//! draws it, with its tiles and objects (`gamedata_render::wwd::Scene`).

use gamedata_render::PngFilter;
use std::path::Path;

use anyhow::{Context, Result};
use gamedata_render::wwd::{Scene, SceneOptions, SceneReport, View};
use serde::Serialize;
use wap_core::{CodePage, ImageSource, Level, Limits, decode};

use super::args::{GraphicsArgs, RenderArgs, TilesArgs, chosen_plane};
use super::{open, view};
use crate::output::Output;
use crate::web::{TilePng, Viewer, write_tiles};

/// Maps the archive (or takes the folder) `path`.
///
/// SAFETY contract taken on here ([`RezFile::map`](wap_core::RezFile::map)): nothing may modify or truncate the
/// archive while it is mapped; as for `gamedata rez`.
#[allow(unsafe_code)]
pub(super) fn source(path: &Path) -> Result<ImageSource> {
    // SAFETY: see this function's documentation.
    let source = ImageSource::at(path, |p| unsafe { wap_core::RezFile::map(p) });
    source.with_context(|| format!("opening {}", path.display()))
}

/// The scene of `level` drawn from `graphics` at `tile_px`, covering `plane` (a name) or
/// the main plane.
fn scene<'l>(
    level: &Level<'l>,
    file: &Path,
    plane: Option<&str>,
    graphics: &GraphicsArgs,
    tile_px: Option<u32>,
    view: Option<View>,
) -> Result<(Scene<'l>, String)> {
    let path = graphics.source().context("no --rez or --images")?;
    let images = source(path)?;
    let chosen = chosen_plane(level, plane, file)?;
    let options = SceneOptions {
        // As for the collision map: by default the largest that keeps the picture within
        // 4096 pixels a side; a view is drawn a game pixel a pixel.
        tile_px: match view {
            Some(_) => None,
            None => tile_px.or(Some(gamedata_render::wwd::default_tile_px(&chosen))),
        },
        plane: plane.map(|_| chosen.index()),
        no_objects: graphics.no_objects,
        markers: graphics.markers,
        view,
        time: graphics.time,
        ..SceneOptions::default()
    };
    // One budget of decoded bytes for the whole command: the level's decoded image first,
    // the pictures' decoded images from what is left.
    let defaults = Limits::default();
    let limits = defaults.with_max_decoded_bytes(
        defaults
            .max_decoded_bytes
            .saturating_sub(level.image().len() as u64),
    );
    let scene = Scene::new(level, &images, &options, &limits)
        .with_context(|| format!("drawing {}", file.display()))?;
    let name = decode(chosen.name(), CodePage::Cp1252).into_owned();
    Ok((scene, name))
}

/// What `wwd render --rez --json` prints.
#[derive(Serialize)]
struct SceneRenderReport {
    output: String,
    bytes: u64,
    plane: String,
    /// Pixels.
    width: u32,
    /// Pixels.
    height: u32,
    tile_px: u32,
    /// The camera's top-left in main-plane pixels, for a view.
    #[serde(skip_serializing_if = "Option::is_none")]
    view: Option<[i32; 2]>,
    /// Milliseconds after the level starts, with --time.
    #[serde(skip_serializing_if = "Option::is_none")]
    time_ms: Option<u64>,
    #[serde(flatten)]
    drawn: SceneReport,
    elapsed_ms: f64,
}

pub(super) fn render(args: &RenderArgs, out: &mut Output) -> Result<()> {
    let start = std::time::Instant::now();
    let file = open(&args.file)?;
    let level = view(&file, &args.file)?;
    let view = args.view.map(|(x, y)| {
        let (width, height) = args.view_size.unwrap_or(View::SCREEN);
        View {
            x,
            y,
            width,
            height,
        }
    });
    let (scene, plane) = scene(
        &level,
        &args.file,
        args.plane.as_deref(),
        &args.graphics,
        args.tile_px,
        view,
    )?;
    // Drawn and encoded in parallel stripes of about 2 MiB: RETAIL01 at 64 pixels a tile is
    // 24,576 x 6,144 pixels (576 MiB whole).
    let mut inputs = vec![args.file.as_path()];
    inputs.extend(args.graphics.source());
    crate::files::write_file(&args.output, &inputs, |w| {
        gamedata_render::write_source_png(w, &scene, &crate::render::png_options(), &|_| {})?;
        Ok(())
    })?;
    let report = SceneRenderReport {
        output: args.output.display().to_string(),
        bytes: crate::files::Written::of(&args.output)?.bytes,
        plane,
        width: scene.width(),
        height: scene.height(),
        tile_px: scene.tile_px(),
        view: args.view.map(|(x, y)| [x, y]),
        time_ms: args.graphics.time,
        drawn: scene.report().clone(),
        elapsed_ms: crate::files::elapsed_ms(start),
    };
    out.report(&report, |w| {
        let scale = match report.view {
            Some([x, y]) => format!("the screen at main-plane pixel {x},{y}"),
            None => format!("{} a tile side", report.tile_px),
        };
        writeln!(
            w,
            "wrote {} ({} x {} pixels, {scale}): {} tiles and {} objects drawn, {} images missing",
            report.output,
            report.width,
            report.height,
            report.drawn.tiles_drawn,
            report.drawn.objects_drawn,
            report.drawn.missing_images
        )?;
        if let Some(ms) = report.time_ms {
            writeln!(
                w,
                "  at {ms} ms: {} objects at their animation's frame, {} animations not played",
                report.drawn.animated, report.drawn.unplayed
            )?;
        }
        for missing in &report.drawn.missing {
            writeln!(w, "  missing: {missing}")?;
        }
        Ok(())
    })
}

pub(super) fn tiles(args: &TilesArgs, out: &mut Output) -> Result<()> {
    let file = open(&args.file)?;
    let level = view(&file, &args.file)?;
    // One game pixel a pixel at the native zoom: the plane's tile width a tile.
    let chosen = chosen_plane(&level, args.plane.as_deref(), &args.file)?;
    let tile = u32::try_from(chosen.tile_size().0).ok();
    let (scene, plane) = scene(
        &level,
        &args.file,
        args.plane.as_deref(),
        &args.graphics,
        tile,
        None,
    )?;
    let mut drawn_with = serde_json::Map::new();
    let report = scene.report();
    drawn_with.insert("tiles_drawn".into(), report.tiles_drawn.into());
    drawn_with.insert("objects_drawn".into(), report.objects_drawn.into());
    drawn_with.insert("missing_images".into(), report.missing_images.into());
    drawn_with.insert("missing".into(), report.missing.clone().into());
    if let Some(ms) = args.graphics.time {
        drawn_with.insert("time_ms".into(), ms.into());
        drawn_with.insert("animated".into(), report.animated.into());
        drawn_with.insert("unplayed".into(), report.unplayed.into());
    }
    let viewer = Viewer {
        title: format!("{}: plane {plane}", level.header().name_lossy()),
        unit: "pixel",
        cell: scene.tile_px(),
        cell_unit: "tile",
        drawn_with,
        iso: None,
    };
    let mut inputs = vec![args.file.as_path()];
    inputs.extend(args.graphics.source());
    write_tiles(
        &scene,
        TilePng::rgba(PngFilter::Up),
        &args.pyramid,
        &viewer,
        &inputs,
        out,
    )
}
