//! On-disk structures and constants, nothing else.
//!
//! Every struct is `#[repr(C)]`, alignment 1 and little-endian, so it casts in place at any
//! byte offset of a mapped file. Sizes are asserted at compile time. The layouts are those of
//! `docs/formats/cosmo.md`, checked against the episode 1 files.

use gamedata_io::record;
use zerocopy::little_endian::{U16, U32};

/// Bytes in a group file directory: 200 slots of 20 bytes at the start of the file.
pub const GROUP_DIRECTORY_LEN: usize = 4000;
/// Slots in a group file directory.
pub const GROUP_SLOTS: usize = 200;
/// Bytes in an entry name field (an 8.3 name, NUL-padded, not terminated when all 12 are used).
pub const GROUP_NAME_LEN: usize = 12;

record! {
    /// One 20-byte slot of a group file directory.
    pub struct GroupSlot {
        /// Entry name, uppercase 8.3, NUL-padded; not NUL-terminated when all 12 bytes are used.
        pub name: [u8; GROUP_NAME_LEN],
        /// Absolute byte offset of the entry's data in the group file.
        pub offset: U32,
        /// Entry size in bytes.
        pub size: U32,
    } = 20;
}
const _: () = assert!(size_of::<[GroupSlot; GROUP_SLOTS]>() == GROUP_DIRECTORY_LEN);

/// Bytes in TILEATTR.MNI.
pub const TILEATTR_LEN: usize = 7000;
/// Solid tiles with an attribute byte (bytes 0..2000 of TILEATTR.MNI).
pub const SOLID_TILE_COUNT: usize = 2000;
/// Masked tiles with an attribute byte (one every 5 bytes from byte 2000).
pub const MASKED_TILE_COUNT: usize = 1000;
/// Stride in bytes between masked tile attributes.
pub const MASKED_ATTR_STRIDE: usize = 5;

record! {
    /// The 6-byte header at the start of a map file (A1.MNI ...).
    pub struct MapHeader {
        /// Bits 0-4 backdrop, 5 rain, 6 backdrop h-scroll, 7 backdrop v-scroll,
        /// 8-10 palette animation, 11-15 music.
        pub flags: U16,
        /// Map width in tiles.
        pub width: U16,
        /// Length of the actor list that follows, in 16-bit words (3 words an actor).
        pub actor_words: U16,
    } = 6;
}

record! {
    /// One actor of a map's actor list: three words.
    pub struct ActorRecord {
        /// Below 31: a special actor; otherwise the actor type plus 31.
        pub kind: U16,
        /// Column in tiles.
        pub x: U16,
        /// Row in tiles.
        pub y: U16,
    } = 6;
}

/// Tile values stored in a map after the actor list.
pub const MAP_TILE_COUNT: usize = 32_764;
/// Bytes of tile values in a map: 65,528.
pub const MAP_TILE_BYTES: usize = MAP_TILE_COUNT * 2;
/// Cells in a map's grid (width * height); the last 4 are not stored in the file.
pub const MAP_CELLS: usize = 32_768;
/// Tile values from this one up are masked tiles.
pub const MASKED_VALUE_BASE: u16 = 16_000;

record! {
    /// A solid 8x8 tile of TILES.MNI: per row, the blue, green, red and intensity planes.
    pub struct SolidTileRaw {
        /// Rows top to bottom; each `[blue, green, red, intensity]`, MSB = leftmost pixel.
        pub rows: [[u8; 4]; 8],
    } = 32;
}

record! {
    /// A masked 8x8 tile of MASKTILE.MNI: per row, the mask then the four colour planes.
    pub struct MaskedTileRaw {
        /// Rows top to bottom; each `[mask, blue, green, red, intensity]`, mask bit 1 = transparent.
        pub rows: [[u8; 5]; 8],
    } = 40;
}

record! {
    /// One frame of a sprite type in ACTRINFO.MNI (and PLYRINFO.MNI, CARTINFO.MNI): its size
    /// in tiles and where its first tile lies in the tile image file.
    pub struct FrameRaw {
        /// Height in tiles.
        pub height: U16,
        /// Width in tiles.
        pub width: U16,
        /// Byte offset of the first tile inside its segment.
        pub offset: U16,
        /// Segment of the tile image file: [`SPRITE_SEGMENT_LEN`] bytes each.
        pub segment: U16,
    } = 8;
}

/// Bytes in one segment of ACTORS.MNI: the game loads the file in 65,535-byte blocks and a
/// frame never spans two (`docs/formats/cosmo.md`, "Sprites").
pub const SPRITE_SEGMENT_LEN: u64 = 65_535;
/// Bytes of a backdrop image (BDNEWSKY.MNI ...): 720 solid tiles of 32 bytes.
pub const BACKDROP_LEN: usize = 23_040;
/// Backdrop width in tiles.
pub const BACKDROP_WIDTH: u16 = 40;
/// Backdrop height in tiles.
pub const BACKDROP_HEIGHT: u16 = 18;
