//! The arguments `wwd render` and `wwd tiles` take, and the plane they name: shared by the
//! collision map (`collision.rs`) and the level drawn with its graphics (`scene.rs`).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Args;
use wap_core::{CodePage, decode};

use crate::web::PyramidArgs;

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
    pub(super) graphics: GraphicsArgs,
    /// With --rez or --images: draw the screen a player sees with the camera's top-left at
    /// main-plane pixel X,Y (the other planes placed by their movement percentages, as the
    /// game places them), one pixel a game pixel.
    #[arg(
        long,
        value_name = "X,Y",
        value_parser = parse_view,
        conflicts_with = "tile_px",
        allow_hyphen_values = true
    )]
    pub(super) view: Option<(i32, i32)>,
    /// The screen's size with --view, in pixels (the game's: 640x480).
    #[arg(long, value_name = "WxH", value_parser = parse_view_size, requires = "view")]
    pub(super) view_size: Option<(u32, u32)>,
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
    pub(super) graphics: GraphicsArgs,
}

/// Where the level's pictures come from.
#[derive(Args)]
pub(crate) struct GraphicsArgs {
    /// Draw the level with its tiles and objects from this REZ archive (CLAW.REZ).
    #[arg(long, value_name = "ARCHIVE", conflicts_with = "images")]
    pub(super) rez: Option<PathBuf>,
    /// Draw the level with its tiles and objects from this folder of files extracted from
    /// an archive (LEVEL1/TILES/ACTION/012.PID, any case).
    #[arg(long, value_name = "DIR")]
    pub(super) images: Option<PathBuf>,
    /// With --rez or --images: leave the objects out.
    #[arg(long)]
    pub(super) no_objects: bool,
    /// With --rez or --images: draw a magenta marker where an image is missing (the game
    /// draws nothing there).
    #[arg(long)]
    pub(super) markers: bool,
    /// With --rez or --images: draw each object whose animation names an ANI file at the
    /// frame it shows this many milliseconds after the level starts, as the game plays it.
    #[arg(long, value_name = "MS")]
    pub(super) time: Option<u64>,
}

/// `--view X,Y`: the camera's top-left in main-plane pixels (either may be negative).
pub(super) fn parse_view(text: &str) -> Result<(i32, i32), String> {
    let bad = |e: &dyn std::fmt::Display| format!("{text:?} is not X,Y in pixels: {e}");
    let (x, y) = text.split_once(',').ok_or_else(|| bad(&"no comma"))?;
    Ok((
        x.trim().parse().map_err(|e| bad(&e))?,
        y.trim().parse().map_err(|e| bad(&e))?,
    ))
}

/// `--view-size WxH`: the screen's size in pixels, each side 1 to 16,384.
pub(super) fn parse_view_size(text: &str) -> Result<(u32, u32), String> {
    let bad = |e: &dyn std::fmt::Display| format!("{text:?} is not WxH in pixels: {e}");
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(|| bad(&"no x"))?;
    let side = |t: &str| -> Result<u32, String> {
        match t.trim().parse::<u32>() {
            Ok(v @ 1..=16_384) => Ok(v),
            Ok(v) => Err(bad(&format!("{v} is not 1 to 16384"))),
            Err(e) => Err(bad(&e)),
        }
    };
    Ok((side(w)?, side(h)?))
}

impl GraphicsArgs {
    /// The archive or folder given, if any.
    pub(super) fn source(&self) -> Option<&Path> {
        self.rez.as_deref().or(self.images.as_deref())
    }

    /// An error for `--time` without a source of pictures (a collision map has no
    /// animations).
    pub(super) fn no_time(&self) -> Result<()> {
        if self.time.is_some() {
            anyhow::bail!("--time plays the objects' animations: it needs --rez or --images");
        }
        Ok(())
    }
}

/// The plane named `name` (case ignored), else the main plane.
pub(super) fn chosen_plane<'data>(
    level: &wap_core::Level<'data>,
    name: Option<&str>,
    file: &std::path::Path,
) -> Result<wap_core::Plane<'data>> {
    let found = match name {
        Some(name) => level.plane_named(name),
        None => level.main_plane(),
    }
    .with_context(|| format!("reading {}", file.display()))?;
    match (found, name) {
        (Some(plane), _) => Ok(plane),
        (None, Some(name)) => {
            let names: Vec<String> = level
                .plane_headers()
                .iter()
                .map(|p| decode(wap_core::field_text(&p.name), CodePage::Cp1252).into_owned())
                .collect();
            bail!("no plane named {name:?}; the planes are {names:?}")
        }
        (None, None) => bail!("no plane has the main flag; name one with --plane"),
    }
}
