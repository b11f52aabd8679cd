//! Pictures of classic game data, drawn from the views of the gamedata readers: what the
//! `gamedata` command renders, for pipelines to call. The readers' crates are re-exported
//! ([`mul_core`], [`wap_core`], [`mni_core`]), so the views these functions take need no
//! other dependency. Format facts are the readers' (`docs/formats/uo.md`, `wwd.md`,
//! `wap32.md`, `cosmo.md`).
//!
//! # Ultima Online
//!
//! - [`uo::radar`] draws a facet as the client's radar map does, one colour a tile, as
//!   [`uo::RadarOptions`] says: `scale` (tiles an output pixel along each side, averaged),
//!   `region` (a [`Region`] of tiles, the whole facet by default), `hillshade` and `style`.
//!   It is computed over rayon's pool.
//! - [`uo::RadarStyle::Flat`], the default, colours a tile with the radarcol colour of its
//!   top static, else of its land, shaded by height as if lit from the north-west when
//!   `hillshade` is on; [`uo::RadarStyle::Client`] is the client's own map, pixel for
//!   pixel; [`uo::RadarStyle::Altitude`] the client's tile heights as grey levels.
//! - [`uo::write_radar_png`] writes a radar map of any size in stripes drawn and deflated
//!   in parallel, as an 8-bit RGB PNG (a radar map is opaque everywhere).
//! - The client's single pictures: art ([`uo::art`]), gumps ([`uo::gump`]), texture maps
//!   ([`uo::texmap`]) and animation frames ([`uo::anim`]).
//! - [`uo::export::export`] writes every picture of an art, gump, texture map or animation
//!   set as PNG files, in parallel, each distinct picture decoded once, within budgets of
//!   decoded and written bytes, into a [`uo::export::PngSink`] of the caller's (a folder:
//!   [`uo::export::FolderWriter`]); what `gamedata uo export` runs.
//!
//! # Claw and Gruntz (WWD levels)
//!
//! - [`wwd::collision`]: a plane's collision map, each pixel the attribute of its tile's
//!   tile property record (exact at the tile size), one colour an attribute, objects
//!   marked; [`wwd::CollisionMap::stripe`] draws it a stripe of rows at a time.
//! - [`wwd::Scene::new`]`(&level, &source, &options, &limits)`: the level as the game draws
//!   it, its planes and objects in z order with their images from a REZ archive or a folder
//!   of extracted files ([`wap_core::ImageSource`]), drawn a stripe
//!   ([`wwd::Scene::stripe`]) or a rectangle ([`wwd::Scene::rect`]) at a time;
//!   [`wwd::Scene::report`] gives the tiles and objects drawn, the pixels drawn and the
//!   images missing. Image names are resolved through [`wap_core::ImageSource::index`] (an
//!   [`ImageIndex`](wap_core::ImageIndex) of the source's folders by path and by image-set
//!   key, built once), each image is decoded once, and a level whose planes and objects
//!   would draw more than [`wwd::SceneOptions::max_overdraw`] times
//!   the picture is refused before anything is drawn.
//!
//! # Cosmo's Cosmic Adventure
//!
//! A level in layers: [`cosmo::draw_backdrop`], [`cosmo::draw_tiles`],
//! [`cosmo::draw_actors`] and [`cosmo::overlay_attributes`] (the tile attributes);
//! [`cosmo::draw_level`] draws it as the game shows it at start, and [`cosmo::draw_map`]
//! the map's tiles alone, one pixel a game pixel.
//!
//! # Pictures and PNG files
//!
//! - Every renderer returns an [`RgbaImage`] (4 bytes a pixel, rows top to bottom:
//!   [`RgbaImage::width`], [`RgbaImage::height`], [`RgbaImage::pixels`]) of at most
//!   [`MAX_PIXELS`] (2^28) pixels. A region that is not inside the map is an error
//!   ([`RenderError::RegionOutside`]); [`Region::clip`] makes one that is.
//! - One function writes every PNG: [`write_png`]`(out, pixels, &options)`, the pixels a
//!   [`PngPixels`] (a picture held whole, borrowed RGBA bytes, stripes drawn one after
//!   another, or stripes drawn in parallel), the options a [`PngOptions`] (compression,
//!   row filter, colour type; the default is what `gamedata` writes). For pictures too
//!   large to hold, [`PngPixels::Parallel`] calls `draw(y, rows)` on rayon's threads for
//!   stripes of about [`PARALLEL_STRIPE_BYTES`] (2 MiB), a few at a time, filters and
//!   deflates each on its thread and joins them into one PNG (`docs/formats/png.md`);
//!   [`write_source_png`] writes a [`TileSource`]'s picture so.
//! - [`PngColour::OpaqueRgb`] writes any opaque picture as 8-bit RGB, as
//!   [`uo::write_radar_png`] does; [`RgbaImage::from_png`] reads either form back as
//!   RGBA.
//! - [`tiles::build_pyramid`] cuts any [`TileSource`] into the XYZ pyramid of 256-pixel web
//!   map tiles.
//!
//! # A program
//!
//! `examples/render_region.rs` draws a region of a facet in a pipeline in 34 lines
//! (arguments `DIR FACET X,Y,W,H SCALE OUT.png [STYLE]`); on a synthetic world:
//!
//! ```sh
//! cargo run --release -p gamedata-cli -- uo synth /tmp/world --facet 2 --seed 1   # or a client folder
//! cargo run --release -p gamedata-render --example render_region -- /tmp/world 2 1000,700,512,256 2 region.png
//! cargo run --release -p gamedata-render --example render_region -- /tmp/world 2 1000,700,512,256 2 client.png client
//! ```
//!
//! # Robustness
//!
//! The renderers keep the readers' contract (gamedata-io's front page, "Robustness"): views
//! of any bytes render or give a [`RenderError`]: no panic, abort or overflow; a picture past [`MAX_PIXELS`] or a plane whose tile property records would take too much
//! work is refused before allocating. The renderers are fuzz targets (`uo_radar`,
//! `wwd_collision`, `cosmo_draw`, `cosmo_level`) through `gamedata_exercise::render` (the
//! `gamedata-exercise` crate, kept out of this library), which checks their properties: a
//! radar map at scale k is the scale-1 map averaged k x k, a collision map's pixel counts
//! cover the picture, a Cosmo map's drawn and missing cells are its drawn cells, a level's
//! actors change no pixel outside their frames.
//!
//! # Example
//!
//! ```no_run
//! use gamedata_render::mul_core::FacetFiles;
//! use gamedata_render::uo::{RadarOptions, radar};
//! use gamedata_render::{PngOptions, PngPixels, Region, write_png};
//!
//! let files = FacetFiles::open("uo", 0)?;
//! let facet = files.view()?;
//! let colours = facet.radar.ok_or("no radarcol.mul")?;
//! let options = RadarOptions {
//!     region: Some(Region::new(1300, 1500, 256, 256)),
//!     ..RadarOptions::default()
//! };
//! let picture = radar(&facet, &colours, &options)?;
//! let out = std::fs::File::create("britain.png")?;
//! write_png(out, PngPixels::Image(&picture), &PngOptions::default())?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(unsafe_code)]
#![deny(clippy::arithmetic_side_effects)]

pub mod cosmo;
mod encode;
pub mod files;
mod image;
mod picture;
pub mod tiles;
pub mod uo;
mod write;
pub mod wwd;

use std::fmt;

pub use encode::{
    PARALLEL_STRIPE_BYTES, PngColour, PngCompression, PngFilter, UnknownCompression,
    parallel_stripe_rows,
};
pub use image::{MAX_PIXELS, RgbaImage, STRIPE_BYTES, stripe_rows};
pub use mni_core;
pub use mul_core;
pub use picture::{Progress, TileSource};
pub use wap_core;
pub use write::{PngOptions, PngPixels, write_png, write_source_png};

/// A rectangle of a map in its own units (tiles for a UO facet): `x`, `y` its top left
/// corner, `width` x `height` its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Region {
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width, above 0 for a region that holds anything.
    pub width: u32,
    /// Height, above 0 for a region that holds anything.
    pub height: u32,
}

impl Region {
    /// The region of `width` x `height` at (`x`, `y`).
    pub const fn new(x: u32, y: u32, width: u32, height: u32) -> Self {
        Region {
            x,
            y,
            width,
            height,
        }
    }

    /// The whole of a `width` x `height` map.
    pub const fn whole(width: u32, height: u32) -> Self {
        Region::new(0, 0, width, height)
    }

    /// The part of the region inside a `width` x `height` map; `None` when nothing of it is
    /// (an empty region included). Compare with the region to tell whether it was clipped.
    pub fn clip(self, width: u32, height: u32) -> Option<Region> {
        let right = u64::from(self.x)
            .saturating_add(u64::from(self.width))
            .min(u64::from(width));
        let bottom = u64::from(self.y)
            .saturating_add(u64::from(self.height))
            .min(u64::from(height));
        let w = u32::try_from(right.checked_sub(u64::from(self.x))?).ok()?;
        let h = u32::try_from(bottom.checked_sub(u64::from(self.y))?).ok()?;
        (w > 0 && h > 0).then_some(Region::new(self.x, self.y, w, h))
    }

    /// Whether the region is not empty and lies wholly inside a `width` x `height` map.
    pub fn is_inside(self, width: u32, height: u32) -> bool {
        self.clip(width, height) == Some(self)
    }
}

impl fmt::Display for Region {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} x {} at ({}, {})",
            self.width, self.height, self.x, self.y
        )
    }
}

/// What a renderer could not draw.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// The picture would have more than [`MAX_PIXELS`] pixels (or none).
    #[error(
        "a {width} x {height} pixel picture cannot be drawn: it must have 1 to {max} pixels \
         (draw fewer pixels a tile or a smaller region)"
    )]
    TooLarge {
        /// Width asked for, in pixels.
        width: u64,
        /// Height asked for, in pixels.
        height: u64,
        /// The most pixels allowed.
        max: u64,
    },
    /// The region is empty or not wholly inside the map ([`Region::clip`] makes one that is).
    #[error("the region {region} is not inside the {width} x {height} map")]
    RegionOutside {
        /// The region asked for.
        region: Region,
        /// The map's width.
        width: u32,
        /// The map's height.
        height: u32,
    },
    /// A scale outside 1 to 256 (tiles or pixels a side).
    #[error("a scale of {scale} cannot be drawn: it must be 1 to 256")]
    Scale {
        /// The scale asked for.
        scale: u32,
    },
    /// A WWD plane whose tiles are not 1 to 1,024 pixels a side.
    #[error("the plane's tile size {width} x {height} cannot be drawn (1 to 1024 pixels a side)")]
    TileSize {
        /// Tile width read from the plane, in pixels.
        width: i32,
        /// Tile height read from the plane, in pixels.
        height: i32,
    },
    /// Reducing the tile property records the plane uses would take more than 2^30 pixel
    /// samples.
    #[error(
        "{records} tile property records of {tile_width} x {tile_height} pixels are too much \
         to draw at {tile_px} pixels a tile"
    )]
    TooMuchWork {
        /// Distinct records the plane's tiles use.
        records: u64,
        /// Tile width in pixels.
        tile_width: u32,
        /// Tile height in pixels.
        tile_height: u32,
        /// Output pixels a tile side.
        tile_px: u32,
    },
    /// A level whose planes and objects would draw more pixels in all than
    /// [`wwd::SceneOptions::max_overdraw`] times the picture's.
    #[error(
        "the level's planes and objects would draw {drawn} pixels, more than {max} times \
         the picture's {pixels} (SceneOptions::max_overdraw)"
    )]
    Overdraw {
        /// Pixels the planes and objects would draw, clipped to the picture.
        drawn: u64,
        /// The picture's pixels.
        pixels: u64,
        /// The cap, times the picture's pixels.
        max: u64,
    },
    /// The image source could not be indexed (its root folder cannot be listed, or it has
    /// more folders than [`wap_core::Limits::max_records`]).
    #[error("indexing the level's images")]
    Images(#[source] wap_core::Error),
    /// A stripe given to [`write_png`] that does not fit the picture.
    #[error(
        "a stripe of {width} x {rows} pixels does not fit a picture {expected_width} pixels \
         wide with {rows_left} rows left"
    )]
    Stripe {
        /// The stripe's width.
        width: u32,
        /// The stripe's rows.
        rows: u32,
        /// The picture's width.
        expected_width: u32,
        /// Rows of the picture not written yet.
        rows_left: u32,
    },
    /// A picture to be stored without alpha ([`PngColour::OpaqueRgb`]) has a pixel that
    /// is not opaque.
    #[error("pixel ({x}, {y}) is not opaque in a picture stored without alpha")]
    NotOpaque {
        /// The pixel's column.
        x: u32,
        /// The pixel's row.
        y: u32,
    },
    /// Hillshading was asked for with a radar style that does not take it (only
    /// [`uo::RadarStyle::Flat`] does: the client style draws the client's own relief).
    #[error("hillshade applies to the flat radar style only, not to {style}")]
    Hillshade {
        /// The style asked for ([`uo::RadarStyle::name`]).
        style: &'static str,
    },
    /// A radar style needs a file the facet was opened without (tiledata.mul or hues.mul
    /// for [`uo::RadarStyle::Client`]).
    #[error("the {style} radar style needs {table}, and the facet has none")]
    MissingTable {
        /// The file needed.
        table: uo::RadarTable,
        /// The style asked for ([`uo::RadarStyle::name`]).
        style: &'static str,
    },
    /// A level picture has no plane to cover: no plane has the main flag, or the plane
    /// asked for is past the level's planes.
    #[error("{}", match plane {
        Some(p) => format!("the level has {planes} planes: there is no plane {p}"),
        None => format!("none of the level's {planes} planes has the main flag: choose one"),
    })]
    NoPlane {
        /// The plane asked for, if one was.
        plane: Option<usize>,
        /// The level's planes.
        planes: usize,
    },
    /// A level could not be read while drawing (a bad object list).
    #[error(transparent)]
    Level(#[from] wap_core::DataError),
    /// A Cosmo episode's entry a layer needs could not be read (tile images, the
    /// backdrop, TILEATTR.MNI, the sprite files).
    #[error(transparent)]
    Cosmo(#[from] mni_core::DataError),
    /// An Ultima Online file's bytes (an art entry's) are not what the format allows, or
    /// decoding them passes the caller's limit.
    #[error(transparent)]
    Uo(#[from] mul_core::DataError),
    /// A hue value with bit 0x4000, which the client draws as a translucent shadow rather
    /// than by its colour table: the art pictures do not draw it.
    #[error(
        "hue value {value:#06X} asks for the client's spectral shadow (bit 0x4000), which is not drawn"
    )]
    SpectralHue {
        /// The hue value given.
        value: u16,
    },
    /// The PNG encoder or its writer failed.
    #[error("writing the PNG: {0}")]
    Png(#[from] png::EncodingError),
    /// A PNG read back ([`RgbaImage::from_png`]) is not an 8-bit RGB or RGBA picture of at
    /// most [`MAX_PIXELS`] pixels.
    #[error("reading the PNG: {0}")]
    PngRead(String),
}

/// `Result` with a [`RenderError`].
pub type Result<T, E = RenderError> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_clip_to_the_map() {
        let r = Region::new(10, 20, 100, 100);
        assert_eq!(r.clip(50, 200), Some(Region::new(10, 20, 40, 100)));
        assert_eq!(r.clip(200, 200), Some(r));
        assert!(r.is_inside(110, 120));
        assert!(!r.is_inside(109, 120));
        assert_eq!(r.clip(10, 200), None, "starts at the right edge");
        assert_eq!(Region::new(0, 0, 0, 5).clip(10, 10), None, "empty");
        let far = Region::new(u32::MAX, u32::MAX, u32::MAX, u32::MAX);
        assert_eq!(far.clip(u32::MAX, u32::MAX), None);
        assert_eq!(
            Region::new(1, 1, u32::MAX, u32::MAX).clip(u32::MAX, 3),
            Some(Region::new(1, 1, u32::MAX - 1, 2))
        );
        assert_eq!(r.to_string(), "100 x 100 at (10, 20)");
    }
}

/// This crate's README (its package page): its Rust examples compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
