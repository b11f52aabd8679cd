//! `gamedata wwd ...`: WWD levels of the WAP32 engine (Claw 1997, Gruntz 1999).
//!
//! Levels are a few megabytes at most, so they are read into memory (no mapping): an
//! uncompressed level is then used in place, a compressed one decompressed once.

mod args;
pub(crate) mod collision;
mod from_tmx;
pub(crate) mod info;
mod level;
mod objects;
mod scene;
mod tmx;
mod validate;
mod write;

pub(crate) use info::{InfoArgs, info_report, print_info};
pub(crate) use level::{open, view};
use objects::ObjectsArgs;
use validate::ValidateArgs;
use write::WriteArgs;

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, Subcommand, ValueEnum};
use wap_core::CodePage;

use crate::output::Output;

#[derive(Subcommand)]
pub(crate) enum WwdCommand {
    /// A level's header, planes, tile properties and checksum (--json: game, compressed,
    /// trailer_bytes, main_block_size, name, author, birth, start_x, start_y, planes,
    /// tile_properties, checksum).
    Info(InfoArgs),
    /// Check levels (files, or folders searched for .wwd in any case), in parallel: one
    /// result a file and totals; the exit status is 1 if any level failed.
    Validate(ValidateArgs),
    /// The objects of every plane, or those with one logic.
    Objects(ObjectsArgs),
    /// Render a plane's collision map (tile attributes pixel by pixel, objects marked) as
    /// a PNG; with --rez or --images, the level as the game draws it.
    Render(args::RenderArgs),
    /// Web map tiles of a plane's collision map ({z}/{x}/{y}.png, 256 pixels, one game
    /// pixel a pixel at the native zoom) and a Leaflet viewer, index.html; with --rez or
    /// --images, of the level as the game draws it.
    Tiles(args::TilesArgs),
    /// The stored checksum, the base value over the stored bytes, and their relation.
    Checksum(FileArgs),
    /// Write the level again with this crate's writer, compressed or not, with the base
    /// checksum.
    Write(WriteArgs),
    /// Export the level to a Tiled map (TMX, or TMJ for a .tmj name) with its tileset and
    /// object images beside it, drawn by Tiled where the game draws it (--json: tmx,
    /// format, width, height, layers, tile_layers, object_layers, objects, objects_drawn,
    /// tilesets, tiles, images_dir, images, image_bytes, bytes, missing_images, missing,
    /// elapsed_ms).
    Tmx(tmx::TmxArgs),
    /// Read a level back from a TMX or TMJ map that `wwd tmx` wrote, maybe edited in Tiled
    /// (objects moved, added, deleted; tiles painted), and write it (--json: output, bytes,
    /// compressed, planes, objects, main_block_size, checksum, elapsed_ms).
    FromTmx(from_tmx::FromTmxArgs),
}

/// The code page of a level's text fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Page {
    /// Windows-1252 (Western): most levels.
    Cp1252,
    /// Windows-1250 (Central European): Polish levels.
    Cp1250,
}

impl Page {
    fn code_page(self) -> CodePage {
        match self {
            Page::Cp1252 => CodePage::Cp1252,
            Page::Cp1250 => CodePage::Cp1250,
        }
    }
}

#[derive(Args)]
pub(crate) struct FileArgs {
    /// The level (.wwd).
    file: PathBuf,
}

pub(crate) fn run(cmd: WwdCommand, out: &mut Output) -> Result<()> {
    match cmd {
        WwdCommand::Info(args) => info::info(&args, out),
        WwdCommand::Validate(args) => validate::validate(&args, out),
        WwdCommand::Objects(args) => objects::objects(&args, out),
        WwdCommand::Render(args) => collision::render(&args, out),
        WwdCommand::Tiles(args) => collision::tiles(&args, out),
        WwdCommand::Checksum(args) => info::checksum(&args, out),
        WwdCommand::Write(args) => write::write(&args, out),
        WwdCommand::Tmx(args) => tmx::tmx(&args, out),
        WwdCommand::FromTmx(args) => from_tmx::from_tmx(&args, out),
    }
}
