//! `gamedata wwd tmx`: a level exported to Tiled's TMX (or TMJ) with its tileset and object
//! images beside it (`gamedata_tiled::wwd`).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;
use gamedata_tiled::map::LayerData;
use gamedata_tiled::wwd::{ExportOptions, export};
use rayon::prelude::*;
use serde::Serialize;
use wap_core::Limits;

use super::{open, view};
use crate::output::Output;

#[derive(Args)]
pub(crate) struct TmxArgs {
    /// The level (.wwd).
    file: PathBuf,
    /// The map to write: TMX, or Tiled's JSON form (TMJ) for a name ending in .tmj or
    /// .json. The images go to the folder NAME_images beside it.
    #[arg(short, long, value_name = "OUT.tmx")]
    output: PathBuf,
    /// The level's tiles and object images from this REZ archive (CLAW.REZ).
    #[arg(
        long,
        value_name = "ARCHIVE",
        conflicts_with = "images",
        required_unless_present = "images"
    )]
    rez: Option<PathBuf>,
    /// The level's tiles and object images from this folder of files extracted from an
    /// archive (LEVEL1/TILES/ACTION/012.PID, any case).
    #[arg(long, value_name = "DIR")]
    images: Option<PathBuf>,
}

/// What `wwd tmx --json` prints.
#[derive(Serialize)]
struct TmxReport {
    /// The map written.
    tmx: String,
    /// "tmx" or "tmj".
    format: &'static str,
    /// The map's size in tiles.
    width: u32,
    height: u32,
    /// Layers in all, tile layers and object layers.
    layers: usize,
    tile_layers: usize,
    object_layers: usize,
    /// Objects in all; those drawn with an image (the others are hidden points).
    objects: usize,
    objects_drawn: u64,
    tilesets: usize,
    /// Tiles of the tilesets in all.
    tiles: u64,
    /// The images' folder, the images written and their bytes.
    images_dir: String,
    images: usize,
    image_bytes: u64,
    /// The map file's bytes.
    bytes: u64,
    missing_images: u64,
    missing: Vec<String>,
    elapsed_ms: f64,
}

pub(super) fn tmx(args: &TmxArgs, out: &mut Output) -> Result<()> {
    let start = std::time::Instant::now();
    let file = open(&args.file)?;
    let level = view(&file, &args.file)?;
    let source_path = args
        .rez
        .as_deref()
        .or(args.images.as_deref())
        .context("no --rez or --images")?;
    let source = super::scene::source(source_path)?;
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
    let options = ExportOptions::default().with_images_dir(images_dir.clone());
    // One budget of decoded bytes for the command: the level's decoded image first.
    let defaults = Limits::default();
    let limits = defaults.with_max_decoded_bytes(
        defaults
            .max_decoded_bytes
            .saturating_sub(level.image().len() as u64),
    );
    let export = export(&level, &source, &options, &limits)
        .with_context(|| format!("exporting {}", args.file.display()))?;
    let folder = match args.output.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let inputs: Vec<&Path> = vec![args.file.as_path(), source_path];
    // The images encoded in parallel, then written each whole.
    let compression = crate::render::compression();
    let encoded: Vec<(PathBuf, Vec<u8>)> = export
        .images
        .par_iter()
        .map(|image| {
            let mut bytes = Vec::new();
            image.image.write_png_with(&mut bytes, compression)?;
            Ok((folder.join(&image.path), bytes))
        })
        .collect::<Result<_>>()?;
    let mut image_bytes = 0u64;
    for (path, bytes) in &encoded {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        crate::files::write_bytes_unsynced(path, &inputs, bytes)?;
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
    let tile_layers = map
        .layers
        .iter()
        .filter(|l| matches!(l.data, LayerData::Tiles(_)))
        .count();
    let report = TmxReport {
        tmx: args.output.display().to_string(),
        format: if json { "tmj" } else { "tmx" },
        width: map.width,
        height: map.height,
        layers: map.layers.len(),
        tile_layers,
        object_layers: map.layers.len() - tile_layers,
        objects: map.objects().count(),
        objects_drawn: export.report.objects_drawn,
        tilesets: map.tilesets.len(),
        tiles: map.tilesets.iter().map(|t| u64::from(t.tile_count)).sum(),
        images_dir: folder.join(&images_dir).display().to_string(),
        images: encoded.len(),
        image_bytes,
        bytes: crate::files::Written::of(&args.output)?.bytes,
        missing_images: export.report.missing_images,
        missing: export.report.missing.clone(),
        elapsed_ms: crate::files::elapsed_ms(start),
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "wrote {} ({} x {} tiles, {} layers, {} objects, {} tilesets) and {} images in {}",
            report.tmx,
            report.width,
            report.height,
            report.layers,
            report.objects,
            report.tilesets,
            report.images,
            report.images_dir
        )?;
        if report.missing_images > 0 {
            writeln!(w, "  {} images missing", report.missing_images)?;
            for m in report.missing.iter().take(10) {
                writeln!(w, "  missing: {m}")?;
            }
            if report.missing.len() > 10 {
                writeln!(w, "  ... (--json lists {})", report.missing.len())?;
            }
        }
        Ok(())
    })
}
