//! Tile images: TILES.MNI (32-byte solid tiles) and MASKTILE.MNI (40-byte masked tiles).
//!
//! Each tile is 8x8 pixels in the 16 EGA colours, stored as bit planes row by row: a solid
//! row is 4 bytes (blue, green, red, intensity), a masked row 5 bytes (mask, then the same
//! four planes; mask bit 1 = transparent). The most significant bit is the leftmost pixel,
//! and the colour index is `I*8 + R*4 + G*2 + B`. Source: `docs/formats/cosmo.md`, "Tile
//! images". A renderer walks [`Map::drawn_cells`](crate::Map::drawn_cells) and asks
//! [`TileImages::pixels`] for each; the `gamedata` command draws maps that way.

use std::fmt;

use gamedata_io::records;
use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

use crate::error::{DataError, ErrorKind, Result};
use crate::map::MapTile;
use crate::raw::{MaskedTileRaw, SolidTileRaw};

/// Tile width and height in pixels.
pub const TILE_PIXELS: usize = 8;

/// The standard 16-colour EGA palette as RGB, indexed by colour index.
pub const EGA_PALETTE: [[u8; 3]; 16] = [
    [0x00, 0x00, 0x00],
    [0x00, 0x00, 0xAA],
    [0x00, 0xAA, 0x00],
    [0x00, 0xAA, 0xAA],
    [0xAA, 0x00, 0x00],
    [0xAA, 0x00, 0xAA],
    [0xAA, 0x55, 0x00],
    [0xAA, 0xAA, 0xAA],
    [0x55, 0x55, 0x55],
    [0x55, 0x55, 0xFF],
    [0x55, 0xFF, 0x55],
    [0x55, 0xFF, 0xFF],
    [0xFF, 0x55, 0x55],
    [0xFF, 0x55, 0xFF],
    [0xFF, 0xFF, 0x55],
    [0xFF, 0xFF, 0xFF],
];

/// The RGBA value of an EGA colour index (only the low 4 bits are used), fully opaque.
pub fn ega_rgba(index: u8) -> [u8; 4] {
    let [r, g, b] = EGA_PALETTE
        .get(usize::from(index & 0x0F))
        .copied()
        .unwrap_or_default();
    [r, g, b, 0xFF]
}

/// An 8x8 tile decoded to colour indices, `None` where transparent; `[row][column]`.
pub type TilePixels = [[Option<u8>; TILE_PIXELS]; TILE_PIXELS];

/// An 8x8 tile as RGBA, `[row][column]`; transparent pixels are `[0, 0, 0, 0]`.
pub type TileRgba = [[[u8; 4]; TILE_PIXELS]; TILE_PIXELS];

/// The RGBA form of decoded pixels: the EGA palette, alpha 0 where transparent.
pub fn pixels_to_rgba(pixels: &TilePixels) -> TileRgba {
    pixels.map(|row| row.map(|p| p.map_or([0; 4], ega_rgba)))
}

/// Colour index of pixel `x` (0 = leftmost) from the four plane bytes of a row.
#[inline]
fn plane_pixel(planes: [u8; 4], x: usize) -> u8 {
    // 7 - (x mod 8), as x & 7 is at most 7.
    let shift = 7 ^ (x & 7);
    let [b, g, r, i] = planes.map(|p| (p >> shift) & 1);
    i << 3 | r << 2 | g << 1 | b
}

/// The four plane bytes of a row of colour indices (the inverse of [`plane_pixel`]).
fn row_planes(row: impl Iterator<Item = u8>) -> [u8; 4] {
    let mut planes = [0u8; 4];
    for (x, colour) in row.take(TILE_PIXELS).enumerate() {
        let bit = 0x80 >> x;
        for (plane, p) in planes.iter_mut().enumerate() {
            if colour >> plane & 1 != 0 {
                *p |= bit;
            }
        }
    }
    planes
}

impl SolidTileRaw {
    /// Decodes the tile to colour indices, `[row][column]`.
    pub fn pixels(&self) -> [[u8; TILE_PIXELS]; TILE_PIXELS] {
        self.rows
            .map(|planes| std::array::from_fn(|x| plane_pixel(planes, x)))
    }

    /// Decodes the tile to RGBA with the standard EGA palette (all opaque).
    pub fn rgba(&self) -> TileRgba {
        self.pixels().map(|row| row.map(ega_rgba))
    }

    /// Encodes colour indices (low 4 bits used), `[row][column]`.
    pub fn from_pixels(pixels: &[[u8; TILE_PIXELS]; TILE_PIXELS]) -> Self {
        SolidTileRaw {
            rows: pixels.map(|row| row_planes(row.into_iter())),
        }
    }
}

impl MaskedTileRaw {
    /// Decodes the tile to colour indices, `None` where the mask bit is 1 (transparent).
    pub fn pixels(&self) -> TilePixels {
        self.rows.map(|[mask, b, g, r, i]| {
            std::array::from_fn(|x| {
                let transparent = mask & (0x80 >> x) != 0;
                (!transparent).then(|| plane_pixel([b, g, r, i], x))
            })
        })
    }

    /// Decodes the tile to RGBA with the standard EGA palette; alpha 0 where the mask says
    /// transparent.
    pub fn rgba(&self) -> TileRgba {
        pixels_to_rgba(&self.pixels())
    }

    /// Encodes colour indices, `None` = transparent, `[row][column]`.
    pub fn from_pixels(pixels: &TilePixels) -> Self {
        MaskedTileRaw {
            rows: pixels.map(|row| {
                let mask = row
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| p.is_none())
                    .fold(0u8, |m, (x, _)| m | 0x80 >> x);
                let [b, g, r, i] = row_planes(row.iter().map(|p| p.unwrap_or(0)));
                [mask, b, g, r, i]
            }),
        }
    }
}

/// A table of fixed-size tile records cast in place (TILES.MNI or MASKTILE.MNI).
#[derive(Clone, Copy)]
pub struct TileTable<'data, T> {
    tiles: &'data [T],
}

impl<T> fmt::Debug for TileTable<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TileTable")
            .field("tiles", &self.tiles.len())
            .finish()
    }
}

/// TILES.MNI: 32-byte solid tiles (2,000 in episode 1).
pub type SolidTiles<'data> = TileTable<'data, SolidTileRaw>;
/// MASKTILE.MNI: 40-byte masked tiles (1,000 in episode 1).
pub type MaskedTiles<'data> = TileTable<'data, MaskedTileRaw>;

impl<'data> SolidTiles<'data> {
    /// Casts TILES.MNI in place.
    ///
    /// Returns `Err` ([`ErrorKind::RecordMultiple`]) if the length is not a multiple of 32.
    pub fn parse(data: &'data [u8]) -> Result<Self, DataError> {
        cast_table(data, "TILES.MNI")
    }
}

impl<'data> MaskedTiles<'data> {
    /// Casts MASKTILE.MNI in place.
    ///
    /// Returns `Err` ([`ErrorKind::RecordMultiple`]) if the length is not a multiple of 40.
    pub fn parse(data: &'data [u8]) -> Result<Self, DataError> {
        cast_table(data, "MASKTILE.MNI")
    }
}

fn cast_table<'data, T>(
    data: &'data [u8],
    what: &'static str,
) -> Result<TileTable<'data, T>, DataError>
where
    T: FromBytes + Immutable + KnownLayout + Unaligned,
{
    let tiles = records::<T>(data).map_err(|e| ErrorKind::RecordMultiple {
        what,
        found: data.len(),
        record: e.record,
    })?;
    Ok(TileTable { tiles })
}

impl<'data, T> TileTable<'data, T> {
    /// Number of tiles.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// True if the table has no tile.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// Tile `index` (a tile's number, as [`MapTile`] gives it), or `None` if the index is
    /// past the end of the table.
    pub fn get(&self, index: u16) -> Option<&'data T> {
        self.tiles.get(usize::from(index))
    }

    /// All tiles, cast in place.
    pub fn as_slice(&self) -> &'data [T] {
        self.tiles
    }
}

/// The two tile image tables a map is drawn with.
#[derive(Clone, Copy, Debug)]
pub struct TileImages<'data> {
    /// TILES.MNI.
    pub solid: SolidTiles<'data>,
    /// MASKTILE.MNI.
    pub masked: MaskedTiles<'data>,
}

impl TileImages<'_> {
    /// The pixels of a map tile, or `None` if its image index is past the end of its table.
    pub fn pixels(&self, tile: MapTile) -> Option<TilePixels> {
        match tile {
            MapTile::Solid(i) => self
                .solid
                .get(i)
                .map(|t| t.pixels().map(|row| row.map(Some))),
            MapTile::Masked(i) => self.masked.get(i).map(MaskedTileRaw::pixels),
        }
    }
}
