//! `gamedata cosmo tmx`: a map exported to Tiled's TMX (or TMJ) with its tileset, backdrop
//! and actor images beside it (`gamedata_tiled::cosmo`).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;
use gamedata_tiled::cosmo::{BackdropForm, ExportOptions, export};
use gamedata_tiled::map::LayerData;
use serde::Serialize;
use wap_core::Limits;

use super::MapSelect;
use crate::output::Output;

#[derive(Args)]
pub(crate) struct TmxArgs {
    #[command(flatten)]
    select: MapSelect,
    /// The map to write: TMX, or Tiled's JSON form (TMJ) for a name ending in .tmj or
    /// .json. The images go to the folder NAME_images beside it.
    #[arg(short, long, value_name = "OUT.tmx")]
    output: PathBuf,
    /// Add the map's backdrop behind the tiles, repeated from the top-left corner: an image
    /// layer repeated across and down in TMX, a tile layer in TMJ (Tiled 1.8's JSON reader
    /// drops the repeat flags).
    #[arg(long)]
    backdrop: bool,
    /// Add each actor the game draws at level start as a tile object (its sprite's first
    /// frame where the game draws it), the others as hidden points, and the tiles the game
    /// draws in front of sprites as a layer over them.
    #[arg(long)]
    actors: bool,
}

/// What `cosmo tmx --json` prints.
#[derive(Serialize)]
struct TmxReport {
    /// The map written.
    tmx: String,
    /// "tmx" or "tmj".
    format: &'static str,
    /// The map's size in tiles.
    width: u32,
    height: u32,
    /// Layers in all, tile layers, object layers and image layers.
    layers: usize,
    tile_layers: usize,
    object_layers: usize,
    image_layers: usize,
    /// Objects in all (one an actor); those drawn with an image (the others are hidden
    /// points).
    objects: usize,
    objects_drawn: u64,
    tilesets: usize,
    /// Tiles of the tilesets in all.
    tiles: u64,
    /// Cells of the `tiles` layer; cells whose image is missing.
    tiles_drawn: u64,
    missing: u64,
    /// The backdrop's entry, when exported.
    #[serde(skip_serializing_if = "Option::is_none")]
    backdrop: Option<&'static str>,
    /// Actors the game never draws, special actors, and those that cannot be drawn (one
    /// sentence each).
    actors_hidden: u64,
    actors_special: u64,
    actors_not_drawn: Vec<String>,
    /// The images' folder, the images written and their bytes.
    images_dir: String,
    images: usize,
    image_bytes: u64,
    /// The map file's bytes.
    bytes: u64,
    elapsed_ms: f64,
}

pub(super) fn tmx(args: &TmxArgs, out: &mut Output) -> Result<()> {
    let start = std::time::Instant::now();
    let json = args
        .output
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("tmj") || e.eq_ignore_ascii_case("json"));
    let stem = args
        .output
        .file_stem()
        .and_then(|s| s.to_str())
        .context("the output's name is not text")?;
    let images_dir = format!("{stem}_images");
    let form = if json {
        BackdropForm::Tiles
    } else {
        BackdropForm::ImageLayer
    };
    let options = ExportOptions::default()
        .with_images_dir(images_dir.clone())
        .with_backdrop(args.backdrop.then_some(form))
        .with_actors(args.actors);
    let name = args.select.map.to_ascii_uppercase();
    let (export, inputs) = args.select.open(|files, ep, map| {
        let export = export(ep, map, &options, &Limits::default())
            .with_context(|| format!("exporting {name}"))?;
        Ok((export, [files.paths.stn.clone(), files.paths.vol.clone()]))
    })?;
    let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    let folder = match args.output.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let compression = crate::render::compression();
    let mut image_bytes = 0u64;
    for image in &export.images {
        let path = folder.join(&image.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        let mut bytes = Vec::new();
        image.image.write_png_with(&mut bytes, compression)?;
        crate::files::write_bytes_unsynced(&path, &inputs, &bytes)?;
        image_bytes += bytes.len() as u64;
    }
    crate::files::write_file(&args.output, &inputs, |w| {
        if json {
            gamedata_tiled::tmj::write_tmj(&export.map, std::io::BufWriter::new(w))?;
        } else {
            gamedata_tiled::tmx::write_tmx(&export.map, std::io::BufWriter::new(w))?;
        }
        Ok(())
    })?;
    let map = &export.map;
    let kinds = |f: fn(&LayerData) -> bool| map.layers.iter().filter(|l| f(&l.data)).count();
    let r = &export.report;
    let report = TmxReport {
        tmx: args.output.display().to_string(),
        format: if json { "tmj" } else { "tmx" },
        width: map.width,
        height: map.height,
        layers: map.layers.len(),
        tile_layers: kinds(|d| matches!(d, LayerData::Tiles(_))),
        object_layers: kinds(|d| matches!(d, LayerData::Objects(_))),
        image_layers: kinds(|d| matches!(d, LayerData::Image(_))),
        objects: map.objects().count(),
        objects_drawn: r.actors_drawn,
        tilesets: map.tilesets.len(),
        tiles: map.tilesets.iter().map(|t| u64::from(t.tile_count)).sum(),
        tiles_drawn: r.tiles_drawn,
        missing: r.missing,
        backdrop: r.backdrop,
        actors_hidden: r.actors_hidden,
        actors_special: r.actors_special,
        actors_not_drawn: r.actors_not_drawn.clone(),
        images_dir: folder.join(&images_dir).display().to_string(),
        images: export.images.len(),
        image_bytes,
        bytes: crate::files::Written::of(&args.output)?.bytes,
        elapsed_ms: crate::files::elapsed_ms(start),
    };
    for problem in report.actors_not_drawn.iter().take(20) {
        crate::output::error_line(&format!("note: {name}: {problem}, not drawn"));
    }
    out.report(&report, |w| {
        writeln!(
            w,
            "wrote {} ({} x {} tiles, {} layers, {} actors, {} drawn, {} tilesets) and {} images in {}",
            report.tmx,
            report.width,
            report.height,
            report.layers,
            report.objects,
            report.objects_drawn,
            report.tilesets,
            report.images,
            report.images_dir
        )?;
        if report.missing > 0 {
            writeln!(w, "  {} cells with no tile image left empty", report.missing)?;
        }
        Ok(())
    })
}
