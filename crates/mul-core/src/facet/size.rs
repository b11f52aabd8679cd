//! The size of a map in blocks, and the sizes each facet has in released clients. It
//! depends on nothing but the format's constants, so that the errors can name a size; the
//! checked constructors ([`MapSize::from_blocks`] ...) are in [`map`](crate::facet::map).
//! Source: `docs/formats/uo.md`, "Map".

use std::fmt;

use crate::raw::MAP_BLOCK_LEN;

/// The size of a map in blocks (8 x 8 tiles each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MapSize {
    width_blocks: u32,
    height_blocks: u32,
}

/// The sizes in blocks (width, height) of facets 0 to 5 in released clients, newest first.
/// Facets 0 and 1 come in two widths: 896 blocks since Mondain's Legacy, 768 before.
/// Source: `docs/formats/uo.md`, "Map".
const KNOWN_SIZES: [&[(u32, u32)]; 6] = [
    &[(896, 512), (768, 512)], // 0 Felucca: 7168 or 6144 x 4096 tiles
    &[(896, 512), (768, 512)], // 1 Trammel: the same
    &[(288, 200)],             // 2 Ilshenar: 2304 x 1600 tiles
    &[(320, 256)],             // 3 Malas: 2560 x 2048 tiles
    &[(181, 181)],             // 4 Tokuno: 1448 x 1448 tiles
    &[(160, 512)],             // 5 Ter Mur: 1280 x 4096 tiles
];

impl MapSize {
    /// A size whose sides the caller has checked (non-zero, in tiles within a `u32`, the
    /// map's bytes within memory's address range), as [`MapSize::from_blocks`] does.
    pub(crate) const fn checked(width_blocks: u32, height_blocks: u32) -> Self {
        MapSize {
            width_blocks,
            height_blocks,
        }
    }

    /// The sizes facet `facet` has in released clients, newest first: two for facets 0 and
    /// 1 (7168 and 6144 x 4096 tiles), one for facets 2 to 5, none above 5
    /// (`docs/formats/uo.md`, "Map").
    pub fn known(facet: u8) -> impl Iterator<Item = MapSize> {
        KNOWN_SIZES
            .get(usize::from(facet))
            .copied()
            .unwrap_or_default()
            .iter()
            .map(|&(width_blocks, height_blocks)| MapSize {
                width_blocks,
                height_blocks,
            })
    }

    /// Width in blocks.
    pub const fn width_blocks(&self) -> u32 {
        self.width_blocks
    }

    /// Height in blocks.
    pub const fn height_blocks(&self) -> u32 {
        self.height_blocks
    }

    /// Width in tiles.
    pub const fn width(&self) -> u32 {
        // from_blocks checked that the width in tiles fits.
        self.width_blocks.saturating_mul(8)
    }

    /// Height in tiles.
    pub const fn height(&self) -> u32 {
        // from_blocks checked that the height in tiles fits.
        self.height_blocks.saturating_mul(8)
    }

    /// Number of blocks.
    pub fn blocks(&self) -> usize {
        // from_blocks checked that this fits.
        usize::try_from(self.block_count()).unwrap_or(usize::MAX)
    }

    /// Blocks as a u64: a product of two u32s, which cannot overflow.
    pub(crate) const fn block_count(&self) -> u64 {
        (self.width_blocks as u64).saturating_mul(self.height_blocks as u64)
    }

    /// The number of block (`bx`, `by`) in column-major order, or `None` outside the map.
    #[inline]
    pub fn block_index(&self, bx: u32, by: u32) -> Option<usize> {
        if bx >= self.width_blocks || by >= self.height_blocks {
            return None;
        }
        // bx < width and by < height: the index is below the block count, which fits.
        let index = u64::from(bx)
            .saturating_mul(u64::from(self.height_blocks))
            .saturating_add(u64::from(by));
        usize::try_from(index).ok()
    }

    /// The block coordinates (bx, by) of block number `index`, or `None` past the end.
    pub fn block_coords(&self, index: usize) -> Option<(u32, u32)> {
        if index >= self.blocks() {
            return None;
        }
        let index = u64::try_from(index).ok()?;
        let h = u64::from(self.height_blocks);
        Some((
            u32::try_from(index.checked_div(h)?).ok()?,
            u32::try_from(index.checked_rem(h)?).ok()?,
        ))
    }

    /// Bytes of a map file of this size, without the padding block.
    pub fn map_len(&self) -> u64 {
        // from_blocks checked that this product fits in a usize, so in a u64.
        self.block_count().saturating_mul(MAP_BLOCK_LEN as u64)
    }
}

impl fmt::Display for MapSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} x {} tiles ({} x {} blocks)",
            self.width(),
            self.height(),
            self.width_blocks,
            self.height_blocks
        )
    }
}
