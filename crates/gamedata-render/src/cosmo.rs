//! Cosmo maps: each cell's tile image, one picture pixel a game pixel, and an overlay of
//! the tile attributes (`docs/formats/cosmo.md`, "Maps" and "Tile attributes").

// Cell coordinates are u16 and offsets inside a cell below 8: every pixel position here
// fits a u32 with room to spare.
#![allow(clippy::arithmetic_side_effects)]

use mni_core::tiles::ega_rgba;
use mni_core::{Map, TileAttrTable, TileAttributes, TileImages};

use crate::{Result, RgbaImage};

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
    let (w, h) = (u32::from(map.width()), u32::from(map.height()));
    let mut image = RgbaImage::new(w.saturating_mul(8), h.saturating_mul(8), background)?;
    let (mut drawn, mut missing) = (0, 0);
    for (cx, cy, tile) in map.drawn_cells() {
        let Some(pixels) = images.pixels(tile) else {
            missing += 1;
            continue;
        };
        drawn += 1;
        let (x0, y0) = (u32::from(cx) * 8, u32::from(cy) * 8);
        for (dy, pixel_row) in (0u32..).zip(pixels) {
            for (dx, pixel) in (0u32..).zip(pixel_row) {
                if let Some(colour) = pixel {
                    image.set(x0 + dx, y0 + dy, ega_rgba(colour));
                }
            }
        }
    }
    Ok(MapPicture {
        image,
        drawn,
        missing,
    })
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
mod tests {
    use mni_core::{MapFlags, MapTile, MaskedTiles, SolidTiles, synth, write_map};

    use super::*;

    #[test]
    fn draws_tiles_at_their_cells_and_skips_commands() {
        // The synthetic tile set; pixel decoding itself is tested in mni-core.
        let (solid, masked) = (synth::solid_tiles(), synth::masked_tiles());
        let images = TileImages {
            solid: SolidTiles::parse(&solid).unwrap(),
            masked: MaskedTiles::parse(&masked).unwrap(),
        };
        let grass = MapTile::Solid(synth::solid::GRASS);
        let flower = MapTile::Masked(synth::masked::FLOWER);
        let mut tiles = vec![0u16; 32_764];
        tiles[0] = synth::solid_value(synth::solid::GRASS); // (0, 0)
        tiles[1] = synth::masked_value(synth::masked::FLOWER); // (1, 0)
        tiles[2] = 72; // solid 9: a value below 80, not drawn
        tiles[32 + 3] = 8 * 500; // solid 500 at (3, 1): no such image
        let bytes = write_map(MapFlags::default(), 32, &[], &tiles).unwrap();
        let map = Map::parse(&bytes).unwrap();
        let bg = [1, 2, 3, 255];
        let r = draw_map(&map, &images, bg).unwrap();
        assert_eq!((r.image.width, r.image.height), (256, 8192));
        assert_eq!((r.drawn, r.missing), (2, 1));
        // Every pixel of the two drawn cells is its tile's pixel, or the background where
        // the masked tile is transparent.
        for (tile, x0) in [(grass, 0), (flower, 8)] {
            let pixels = images.pixels(tile).unwrap();
            for (dy, row) in (0u32..).zip(pixels) {
                for (dx, p) in (0u32..).zip(row) {
                    let want = p.map_or(bg, ega_rgba);
                    assert_eq!(r.image.get(x0 + dx, dy), Some(want), "{tile:?} {dx},{dy}");
                }
            }
        }
        assert!(
            images
                .pixels(flower)
                .unwrap()
                .iter()
                .flatten()
                .any(Option::is_none),
            "the flower has transparent pixels, so the background check above means something"
        );
        for (x, y, why) in [(16, 0, "value 72 is not drawn"), (24, 8, "missing image")] {
            for d in 0..8 {
                assert_eq!(r.image.get(x + d, y + d), Some(bg), "{why}");
            }
        }
        assert_eq!(r.image.get(256, 0), None);
    }

    #[test]
    fn overlay_marks_standable_tiles_on_their_top_edge() {
        let mut attrs = vec![0u8; 7000];
        attrs[10] = TileAttributes::BLOCK_SOUTH; // value 80
        let attrs = TileAttrTable::parse(&attrs).unwrap();
        let mut tiles = vec![0u16; 32_764];
        tiles[0] = 80;
        let bytes = write_map(MapFlags::default(), 32, &[], &tiles).unwrap();
        let map = Map::parse(&bytes).unwrap();
        let mut image = RgbaImage::new(256, 8192, BACKGROUND).unwrap();
        overlay_attributes(&mut image, &map, &attrs);
        // Yellow at 218/256 over black: 255 * 218 / 256 = 217, 230 * 218 / 256 = 195.
        assert_eq!(image.get(3, 0), Some([217, 195, 0, 255]));
        assert_eq!(image.get(3, 1), Some([217, 195, 0, 255]));
        assert_eq!(
            image.get(3, 2),
            Some(BACKGROUND),
            "the bar is two pixels high"
        );
        assert_eq!(
            image.get(8, 0),
            Some(BACKGROUND),
            "the next cell blocks nothing"
        );
    }
}
