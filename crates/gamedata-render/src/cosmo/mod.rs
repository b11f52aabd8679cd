//! Cosmo maps: each cell's tile image, one picture pixel a game pixel, and an overlay of
//! the tile attributes (`docs/formats/cosmo.md`, "Maps" and "Tile attributes").
//!
//! A level as the game shows it at start is drawn in layers onto one [`RgbaImage`] of
//! `width * 8` x `height * 8` pixels: [`draw_backdrop`] (the map's backdrop, repeated),
//! [`draw_tiles`] (the map's tiles; [`draw_map`] is a picture of these alone), then
//! [`draw_actors`] (each actor's first frame, and the tiles the game draws in front of
//! sprites over them). Sources: `docs/formats/cosmo.md`, "Backdrops", "Sprites" and
//! "Actors". [`draw_level`] draws them all in the game's order, with the attribute overlay
//! on top when asked: what a pipeline calls.

// Cell coordinates are u16 and offsets inside a cell below 8: every pixel position here
// fits a u32 with room to spare.
#![allow(clippy::arithmetic_side_effects)]

use mni_core::tiles::ega_rgba;
use mni_core::{Backdrop, Map, TileAttrTable, TileAttributes, TileImages, TilePixels};

use crate::{Result, RgbaImage};

mod actors;
mod level;

pub use actors::{ActorNotDrawn, ActorsDrawn, NotDrawn, draw_actors};
pub use level::{BackdropDrawn, LayerOptions, LevelPicture, draw_level};

/// Background of rendered maps where nothing is drawn: EGA black, opaque.
pub const BACKGROUND: [u8; 4] = [0, 0, 0, 255];

/// The overlay legend, shown by `gamedata cosmo map --help`.
pub const LEGEND: &str = "\
Attribute overlay (--attributes), drawn translucent over each 8x8 tile:
  red fill            blocks movement in all four directions (solid)
  yellow edge bar     blocks movement from one side: a bar on the top edge means the tile
                      can be stood on (block south), bottom edge = head hits it (block
                      north), left edge = blocks eastward movement, right edge = blocks
                      westward movement
  cyan hatching       slippery
  magenta side lines  clingable with the suction hands
  green diagonal      sloped (auto-ascend)";

const SOLID: [u8; 3] = [255, 40, 40];
const EDGE: [u8; 3] = [255, 230, 0];
const SLIPPERY: [u8; 3] = [0, 255, 255];
const CLINGABLE: [u8; 3] = [255, 0, 255];
const SLOPED: [u8; 3] = [0, 255, 0];

/// What [`draw_map`] drew.
#[derive(Debug)]
pub struct MapPicture {
    /// `width * 8` x `height * 8` pixels (4096 x 512 for A1.MNI).
    pub image: RgbaImage,
    /// Cells drawn with a tile image.
    pub drawn: usize,
    /// Cells whose tile image index is past the end of its table (left as background).
    pub missing: usize,
}

/// Draws `map` with its tile images, one picture pixel a game pixel: `width * 8` x
/// `height * 8` pixels.
///
/// Cells below `mni_core::map::FIRST_DRAWN_VALUE`, the four unstored cells and transparent
/// pixels of masked tiles show `background`; cells whose image is missing are counted and
/// left as background. The picture is at most 32,768 cells x 64 pixels x 4 bytes = 8 MiB,
/// whatever the input, so the only error is [`crate::RenderError::TooLarge`] for a map
/// view past that, which the reader never makes.
pub fn draw_map(map: &Map<'_>, images: &TileImages<'_>, background: [u8; 4]) -> Result<MapPicture> {
    let mut image = map_image(map, background)?;
    let (drawn, missing) = draw_tiles(&mut image, map, images);
    Ok(MapPicture {
        image,
        drawn,
        missing,
    })
}

/// A picture the size of `map` (`width * 8` x `height * 8` pixels) filled with `background`.
///
/// Returns `Err` ([`crate::RenderError::TooLarge`]) only for a map past 32,768 cells,
/// which the reader never makes.
pub fn map_image(map: &Map<'_>, background: [u8; 4]) -> Result<RgbaImage> {
    let (w, h) = (u32::from(map.width()), u32::from(map.height()));
    RgbaImage::new(w.saturating_mul(8), h.saturating_mul(8), background)
}

/// Draws each cell's tile image over `image`, one picture pixel a game pixel from the
/// top-left; cells below `mni_core::map::FIRST_DRAWN_VALUE` and transparent pixels of
/// masked tiles leave what is there. Returns (cells drawn, cells whose tile image is
/// missing); pixels past the picture are left out.
pub fn draw_tiles(image: &mut RgbaImage, map: &Map<'_>, images: &TileImages<'_>) -> (usize, usize) {
    let (mut drawn, mut missing) = (0, 0);
    for (cx, cy, tile) in map.drawn_cells() {
        let Some(pixels) = images.pixels(tile) else {
            missing += 1;
            continue;
        };
        drawn += 1;
        draw_cell(image, i64::from(cx) * 8, i64::from(cy) * 8, &pixels);
    }
    (drawn, missing)
}

/// Sets the opaque pixels of an 8x8 tile with its top-left at pixel (`x0`, `y0`), which may
/// lie partly outside the picture.
fn draw_cell(image: &mut RgbaImage, x0: i64, y0: i64, pixels: &TilePixels) {
    for (dy, pixel_row) in (0i64..).zip(pixels) {
        for (dx, pixel) in (0i64..).zip(pixel_row) {
            if let (Some(colour), Ok(x), Ok(y)) =
                (pixel, u32::try_from(x0 + dx), u32::try_from(y0 + dy))
            {
                image.set(x, y, ega_rgba(*colour));
            }
        }
    }
}

/// Fills `image` with `backdrop` (40 x 18 tiles, 320 x 144 pixels) repeated from the
/// top-left corner, as a whole-map picture of the game's backdrop layer (the game scrolls it
/// behind its 38 x 18-tile window; this project repeats it over the map, see
/// `docs/formats/cosmo.md`, "Backdrops").
pub fn draw_backdrop(image: &mut RgbaImage, backdrop: &Backdrop<'_>) {
    const W: usize = Backdrop::WIDTH as usize * 8;
    const H: usize = Backdrop::HEIGHT as usize * 8;
    // The backdrop decoded once: 320 x 144 RGBA values, 184,320 bytes.
    let mut picture = vec![[0u8; 4]; W * H];
    for (i, tile) in backdrop.tiles().iter().enumerate() {
        let (tx, ty) = (
            i % usize::from(Backdrop::WIDTH),
            i / usize::from(Backdrop::WIDTH),
        );
        for (py, row) in tile.pixels().iter().enumerate() {
            for (px, &colour) in row.iter().enumerate() {
                if let Some(p) = picture.get_mut((ty * 8 + py) * W + tx * 8 + px) {
                    *p = ega_rgba(colour);
                }
            }
        }
    }
    for y in 0..image.height() {
        let row = (y as usize % H) * W;
        for x in 0..image.width() {
            if let Some(&rgba) = picture.get(row + x as usize % W) {
                image.set(x, y, rgba);
            }
        }
    }
}

/// Draws the collision attributes of every cell of `map` over its picture (see [`LEGEND`]).
pub fn overlay_attributes(image: &mut RgbaImage, map: &Map<'_>, attrs: &TileAttrTable<'_>) {
    for y in 0..map.height() {
        for x in 0..map.width() {
            if let Some(a) = map.attributes(x, y, attrs) {
                overlay_cell(image, u32::from(x) * 8, u32::from(y) * 8, a);
            }
        }
    }
}

fn overlay_cell(image: &mut RgbaImage, x0: u32, y0: u32, a: TileAttributes) {
    for dy in 0..8 {
        for dx in 0..8 {
            let (x, y) = (x0 + dx, y0 + dy);
            if a.movement() == TileAttributes::MOVEMENT {
                image.blend(x, y, SOLID, 102);
            } else {
                let edge = (a.block_south() && dy < 2)
                    || (a.block_north() && dy >= 6)
                    || (a.block_east() && dx < 2)
                    || (a.block_west() && dx >= 6);
                if edge {
                    image.blend(x, y, EDGE, 218);
                }
            }
            if a.slippery() && (dx + dy) % 4 == 0 {
                image.blend(x, y, SLIPPERY, 179);
            }
            if a.clingable() && (dx == 0 || dx == 7) {
                image.blend(x, y, CLINGABLE, 205);
            }
            if a.sloped() && dx + dy == 7 {
                image.blend(x, y, SLOPED, 205);
            }
        }
    }
}

#[cfg(test)]
mod tests;
