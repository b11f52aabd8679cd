//! `gamedata wwd tmx`: a level exported to Tiled's TMX (or TMJ) with its tileset and object
//! images beside it (`gamedata_tiled::wwd`).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;
use gamedata_tiled::wwd::{ExportOptions, export};
use serde::Serialize;
use wap_core::Limits;

use super::{open, view};
use crate::output::Output;
use crate::tiled::{MapSummary, MapTarget};

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
    /// The map and images written.
    #[serde(flatten)]
    map: MapSummary,
    /// Objects drawn with an image (the others are hidden points).
    objects_drawn: u64,
    /// Images the level names that the source lacks (capped, counted).
    missing_images: u64,
    missing: Vec<String>,
    /// The command's time, reading included, in milliseconds.
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
    let target = MapTarget::new(&args.output)?;
    let options = ExportOptions::default().with_images_dir(target.images_dir.clone());
    // One budget of decoded bytes for the command: the level's decoded image first.
    let defaults = Limits::default();
    let limits = defaults.with_max_decoded_bytes(
        defaults
            .max_decoded_bytes
            .saturating_sub(level.image().len() as u64),
    );
    let export = export(&level, &source, &options, &limits)
        .with_context(|| format!("exporting {}", args.file.display()))?;
    let inputs: Vec<&Path> = vec![args.file.as_path(), source_path];
    let summary = target.write(&export.map, &export.images, &inputs)?;
    let report = TmxReport {
        map: summary,
        objects_drawn: export.report.objects_drawn,
        missing_images: export.report.missing_images,
        missing: export.report.missing.clone(),
        elapsed_ms: crate::files::elapsed_ms(start),
    };
    out.report(&report, |w| {
        writeln!(w, "{}", report.map.line("objects", None))?;
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
