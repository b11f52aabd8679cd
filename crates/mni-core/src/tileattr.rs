//! TILEATTR.MNI: one attribute byte for each of the 2,000 solid and 1,000 masked tiles.
//!
//! The file is exactly 7,000 bytes. The attribute of a map tile value is the byte at
//! `value / 8`, for solid and masked tiles alike: bytes 0..2000 belong to the solid tiles,
//! and masked tile `i` has its byte at `2000 + 5 * i` (the other four bytes of each group of
//! five are slack). Source: `docs/formats/cosmo.md`, "TILEATTR.MNI" (ModdingWiki's Cosmo
//! Tile Attributes page, measured on episode 1).

use std::fmt;

use crate::error::{DataError, ErrorKind, Result};
use crate::raw::{MASKED_ATTR_STRIDE, MASKED_TILE_COUNT, SOLID_TILE_COUNT, TILEATTR_LEN};

/// The eight behaviour bits of one tile.
///
/// Bit 0 block south, 1 block north, 2 block west, 3 block east, 4 slippery, 5 in front,
/// 6 sloped (auto-ascend), 7 clingable.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TileAttributes(pub u8);

impl TileAttributes {
    /// Bit 0: movement south is blocked (the tile can be stood on).
    pub const BLOCK_SOUTH: u8 = 1 << 0;
    /// Bit 1: movement north is blocked (the player hits their head).
    pub const BLOCK_NORTH: u8 = 1 << 1;
    /// Bit 2: movement west is blocked.
    pub const BLOCK_WEST: u8 = 1 << 2;
    /// Bit 3: movement east is blocked.
    pub const BLOCK_EAST: u8 = 1 << 3;
    /// Bit 4: slippery.
    pub const SLIPPERY: u8 = 1 << 4;
    /// Bit 5: drawn in front of the player and actors.
    pub const IN_FRONT: u8 = 1 << 5;
    /// Bit 6: sloped; the player auto-ascends when walking into it.
    pub const SLOPED: u8 = 1 << 6;
    /// Bit 7: clingable with the suction hands.
    pub const CLINGABLE: u8 = 1 << 7;
    /// The four movement bits (south, north, west, east).
    pub const MOVEMENT: u8 = 0x0F;

    /// The flag names in bit order, as used in reports (`block_south` ... `clingable`).
    pub const FLAG_NAMES: [&'static str; 8] = [
        "block_south",
        "block_north",
        "block_west",
        "block_east",
        "slippery",
        "in_front",
        "sloped",
        "clingable",
    ];

    /// The raw byte.
    pub const fn bits(self) -> u8 {
        self.0
    }
    /// True if bit `bit` (0..8) is set; false for any other bit number.
    pub const fn has(self, bit: u32) -> bool {
        bit < 8 && self.0 & (1 << bit) != 0
    }
    /// Bit 0: movement south is blocked.
    pub const fn block_south(self) -> bool {
        self.0 & Self::BLOCK_SOUTH != 0
    }
    /// Bit 1: movement north is blocked.
    pub const fn block_north(self) -> bool {
        self.0 & Self::BLOCK_NORTH != 0
    }
    /// Bit 2: movement west is blocked.
    pub const fn block_west(self) -> bool {
        self.0 & Self::BLOCK_WEST != 0
    }
    /// Bit 3: movement east is blocked.
    pub const fn block_east(self) -> bool {
        self.0 & Self::BLOCK_EAST != 0
    }
    /// Bit 4: slippery.
    pub const fn slippery(self) -> bool {
        self.0 & Self::SLIPPERY != 0
    }
    /// Bit 5: drawn in front of sprites.
    pub const fn in_front(self) -> bool {
        self.0 & Self::IN_FRONT != 0
    }
    /// Bit 6: sloped (auto-ascend).
    pub const fn sloped(self) -> bool {
        self.0 & Self::SLOPED != 0
    }
    /// Bit 7: clingable.
    pub const fn clingable(self) -> bool {
        self.0 & Self::CLINGABLE != 0
    }
    /// The four movement bits alone (0..=15).
    pub const fn movement(self) -> u8 {
        self.0 & Self::MOVEMENT
    }
}

impl fmt::Debug for TileAttributes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut set = f.debug_set();
        for (bit, name) in Self::FLAG_NAMES.iter().enumerate() {
            if self.0 & (1 << bit) != 0 {
                set.entry(name);
            }
        }
        set.finish()
    }
}

/// A view of TILEATTR.MNI.
#[derive(Clone, Copy)]
pub struct TileAttrTable<'data> {
    bytes: &'data [u8; TILEATTR_LEN],
}

impl fmt::Debug for TileAttrTable<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TileAttrTable").finish_non_exhaustive()
    }
}

impl<'data> TileAttrTable<'data> {
    /// Wraps the bytes of TILEATTR.MNI.
    ///
    /// Returns `Err` ([`ErrorKind::WrongSize`]) unless `data` is exactly 7,000 bytes.
    pub fn parse(data: &'data [u8]) -> Result<Self, DataError> {
        let bytes = data.try_into().map_err(|_| ErrorKind::WrongSize {
            what: "TILEATTR.MNI",
            found: data.len(),
            expected: TILEATTR_LEN,
        })?;
        Ok(TileAttrTable { bytes })
    }

    /// The raw 7,000 bytes.
    pub fn bytes(&self) -> &'data [u8; TILEATTR_LEN] {
        self.bytes
    }

    /// The attributes of a map tile value (the byte at `value / 8`), or `None` if that is
    /// past the end of the file (values from 56,000 up).
    #[inline]
    pub fn for_value(&self, value: u16) -> Option<TileAttributes> {
        self.bytes
            .get(usize::from(value / 8))
            .map(|&b| TileAttributes(b))
    }

    /// The attributes of solid tile `index` (0..2000), or `None` past the end of the table.
    pub fn solid(&self, index: u16) -> Option<TileAttributes> {
        let index = usize::from(index);
        if index >= SOLID_TILE_COUNT {
            return None;
        }
        self.bytes.get(index).map(|&b| TileAttributes(b))
    }

    /// The attributes of masked tile `index` (0..1000, read at stride 5 from byte 2,000), or
    /// `None` past the end of the table.
    pub fn masked(&self, index: u16) -> Option<TileAttributes> {
        let index = usize::from(index);
        if index >= MASKED_TILE_COUNT {
            return None;
        }
        self.bytes
            // index is below 1,000 (checked above).
            .get(SOLID_TILE_COUNT.saturating_add(MASKED_ATTR_STRIDE.saturating_mul(index)))
            .map(|&b| TileAttributes(b))
    }

    /// All 3,000 tiles: the 2,000 solid tiles, then the 1,000 masked tiles.
    // Constants and i below 3,000: no overflow.
    #[allow(clippy::arithmetic_side_effects)]
    pub fn tiles(&self) -> impl ExactSizeIterator<Item = TileAttributes> + 'data {
        let bytes = self.bytes;
        (0..SOLID_TILE_COUNT + MASKED_TILE_COUNT).map(move |i| {
            let at = if i < SOLID_TILE_COUNT {
                i
            } else {
                SOLID_TILE_COUNT + MASKED_ATTR_STRIDE * (i - SOLID_TILE_COUNT)
            };
            TileAttributes(bytes.get(at).copied().unwrap_or(0))
        })
    }

    /// Counts over all 3,000 tiles (see [`AttrSummary`]).
    // Counts of the 3,000 tiles: no overflow.
    #[allow(clippy::arithmetic_side_effects)]
    pub fn summary(&self) -> AttrSummary {
        let mut s = AttrSummary::default();
        for attr in self.tiles() {
            s.tiles += 1;
            match attr.movement() {
                0 => s.blocks_nothing += 1,
                TileAttributes::MOVEMENT => s.blocks_everything += 1,
                TileAttributes::BLOCK_SOUTH => s.south_only += 1,
                _ => s.other_mix += 1,
            }
            for (bit, count) in s.flags.iter_mut().enumerate() {
                if attr.0 & (1 << bit) != 0 {
                    *count += 1;
                }
            }
        }
        s
    }
}

/// Counts of the tiles of a TILEATTR.MNI by their four movement bits, and by each flag.
///
/// The movement classes partition the tiles: `blocks_nothing + blocks_everything +
/// south_only + other_mix == tiles`. Episode 1 has 159 south-only and 130 other-mix tiles
/// (the seed's figures).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AttrSummary {
    /// Tiles counted (3,000).
    pub tiles: u32,
    /// Tiles whose four movement bits are all clear.
    pub blocks_nothing: u32,
    /// Tiles whose four movement bits are all set.
    pub blocks_everything: u32,
    /// Tiles that block only southward movement (stand-on platforms).
    pub south_only: u32,
    /// Tiles with any other mix of movement bits.
    pub other_mix: u32,
    /// Tiles with each flag set, in bit order ([`TileAttributes::FLAG_NAMES`]).
    pub flags: [u32; 8],
}
