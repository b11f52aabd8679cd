//! `gamedata cosmo tmx`: a map exported to Tiled's TMX (or TMJ) with its tileset, backdrop
//! and actor images beside it (`gamedata_tiled::cosmo`).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;
use gamedata_tiled::cosmo::{BackdropForm, ExportOptions, export};
use serde::Serialize;
use wap_core::Limits;

use super::MapSelect;
use crate::output::Output;
use crate::tiled::{MapSummary, MapTarget};

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
    /// The map and images written.
    #[serde(flatten)]
    map: MapSummary,
    /// Objects drawn with an image (each object an actor; the others are hidden points).
    objects_drawn: u64,
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
    /// The command's time, reading included, in milliseconds.
    elapsed_ms: f64,
}

pub(super) fn tmx(args: &TmxArgs, out: &mut Output) -> Result<()> {
    let start = std::time::Instant::now();
    let target = MapTarget::new(&args.output)?;
    let form = if target.json {
        BackdropForm::Tiles
    } else {
        BackdropForm::ImageLayer
    };
    let options = ExportOptions::default()
        .with_images_dir(target.images_dir.clone())
        .with_backdrop(args.backdrop.then_some(form))
        .with_actors(args.actors);
    let name = args.select.map.to_ascii_uppercase();
    let (export, inputs) = args.select.open(|files, ep, map| {
        let export = export(ep, map, &options, &Limits::default())
            .with_context(|| format!("exporting {name}"))?;
        Ok((export, [files.paths.stn.clone(), files.paths.vol.clone()]))
    })?;
    let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    let summary = target.write(&export.map, &export.images, &inputs)?;
    let r = &export.report;
    let report = TmxReport {
        map: summary,
        objects_drawn: r.actors_drawn,
        tiles_drawn: r.tiles_drawn,
        missing: r.missing,
        backdrop: r.backdrop,
        actors_hidden: r.actors_hidden,
        actors_special: r.actors_special,
        actors_not_drawn: r.actors_not_drawn.clone(),
        elapsed_ms: crate::files::elapsed_ms(start),
    };
    for problem in report.actors_not_drawn.iter().take(20) {
        crate::output::error_line(&format!("note: {name}: {problem}, not drawn"));
    }
    out.report(&report, |w| {
        writeln!(
            w,
            "{}",
            report.map.line("actors", Some(report.objects_drawn))
        )?;
        if report.missing > 0 {
            writeln!(
                w,
                "  {} cells with no tile image left empty",
                report.missing
            )?;
        }
        Ok(())
    })
}
