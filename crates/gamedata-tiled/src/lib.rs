//! Classic game levels as [Tiled](https://www.mapeditor.org) maps: a WAP32 level (Claw,
//! Gruntz) or a Cosmo's Cosmic Adventure map exported to TMX (Tiled's XML) or TMJ (its JSON) with its tileset images and
//! object images, laid out so that Tiled draws it where the engine draws it
//! (`docs/formats/tiled.md` has the Tiled facts relied on, each with its source).
//!
//! - [`map`]: the map as written: an orthogonal, fixed-size map of tile layers and object
//!   layers, tilesets whose images are files beside it, custom properties.
//! - [`wwd::export`]: a level and a source of its images (a REZ archive or a folder of
//!   extracted files) as a [`map::Map`] and the images it names.
//! - [`cosmo::export`]: a Cosmo's Cosmic Adventure map with its tiles, backdrop and actors
//!   as a [`map::Map`] and the images it names.
//! - [`tmx::write_tmx`], [`tmj::write_tmj`]: the map as TMX or TMJ.
//! - [`from_tmx::level_from_tmx`], [`from_tmx::level_from_tmj`]: the level a TMX or TMJ
//!   map of the export holds, read back, with the objects moved, added or deleted and the
//!   tiles painted in Tiled.
//!
//! # Example
//!
//! ```no_run
//! use gamedata_tiled::wwd::{ExportOptions, export};
//! use wap_core::{ImageSource, LevelFile, Limits};
//!
//! let file = LevelFile::open("RETAIL01.WWD")?;
//! let level = file.view()?;
//! let source = ImageSource::at("CLAW.REZ", |p| wap_core::RezFile::open(p))?;
//! let options = ExportOptions::default().with_images_dir("retail01_images");
//! let export = export(&level, &source, &options, &Limits::default())?;
//! for image in &export.images {
//!     let path = std::path::Path::new("out").join(&image.path);
//!     std::fs::create_dir_all(path.parent().ok_or("no folder")?)?;
//!     let pixels = gamedata_render::PngPixels::Image(&image.image);
//!     gamedata_render::write_png(std::fs::File::create(path)?, pixels, &Default::default())?;
//! }
//! gamedata_tiled::tmx::write_tmx(&export.map, std::fs::File::create("out/retail01.tmx")?)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Robustness
//!
//! Any level and any archive export or give a [`TiledError`]: no panic, and the output is
//! bounded by the level's own sizes within [`wap_core::Limits`] (see [`wwd`] and
//! [`cosmo`], "What an export costs").

#![deny(unsafe_code)]
#![deny(clippy::arithmetic_side_effects)]

pub mod cosmo;
pub mod from_tmx;
pub mod map;
pub mod tmj;
pub mod tmx;
pub mod wwd;

/// What cannot be exported.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TiledError {
    /// A part of the level cannot be read.
    #[error("reading the level")]
    Level(#[from] wap_core::DataError),
    /// A Cosmo episode's entry cannot be read (`docs/formats/cosmo.md`).
    #[error("reading the Cosmo episode")]
    Cosmo(#[from] mni_core::DataError),
    /// The images cannot be had (the source cannot be indexed) or an image cannot be made.
    #[error("the level's images")]
    Render(#[from] gamedata_render::RenderError),
    /// The level has no plane with the main flag (0x1): the map's grid is the main plane's.
    #[error("the level has no main plane (flag 0x1): a Tiled map's grid is the main plane's")]
    NoMainPlane,
    /// A plane whose tile size is not 1 to 1,024 pixels a side, or not the main plane's.
    #[error(
        "plane {plane} ({name:?}) has {width} x {height} pixel tiles: a Tiled map has one \
         grid, the main plane's, of 1 to 1024 pixels a side"
    )]
    TileSize {
        /// The plane's index in the level.
        plane: usize,
        /// Its name.
        name: String,
        /// Its tile width in pixels, as read.
        width: i32,
        /// Its tile height in pixels, as read.
        height: i32,
    },
    /// A map that cannot be read back as a level: what, what was found, what was expected.
    #[error("{what}: found {found}, expected {expected}")]
    Import {
        /// What was read: the element, layer, object or property.
        what: String,
        /// What it holds: the map's text with its control characters escaped
        /// (`gamedata_io::printable`), so that the error prints as one line of text.
        found: String,
        /// What a level needs there.
        expected: &'static str,
    },
    /// The export would pass a bound (`wwd`, "What an export costs").
    #[error("the export would hold {found} {what}, more than {limit} (Limits::max_decoded_bytes)")]
    TooLarge {
        /// What is counted.
        what: &'static str,
        /// How many there would be.
        found: u64,
        /// The most allowed.
        limit: u64,
    },
}

/// This crate's README (its package page): its Rust examples compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
