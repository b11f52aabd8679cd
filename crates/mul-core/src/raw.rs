//! On-disk structures and constants, nothing else.
//!
//! Every struct is `#[repr(C)]`, alignment 1 and little-endian, so it casts in place at any
//! byte offset of a mapped file; sizes are asserted at compile time. Layouts and their
//! sources: `docs/formats/uo.md`.

use gamedata_io::record;
use zerocopy::little_endian::{I16, U16, U32, U64};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// Cells along each side of a map block.
pub const BLOCK_SIDE: usize = 8;
/// Cells in a map block (8 x 8).
pub const BLOCK_CELLS: usize = BLOCK_SIDE * BLOCK_SIDE;
/// Bytes in a map block: a 4-byte header and 64 cells of 3 bytes.
pub const MAP_BLOCK_LEN: usize = 196;

record! {
    /// One cell of a map block: the land tile and its altitude.
    pub struct MapCell {
        /// Land tile id (an index into tiledata's land table and radarcol's first 0x4000).
        pub id: U16,
        /// Altitude, signed.
        pub z: i8,
    } = 3;
}

record! {
    /// A map block: 8 x 8 cells, row-major inside the block.
    pub struct MapBlock {
        /// Unknown header word (not used by readers).
        pub header: U32,
        /// Cells, row-major: cell (x, y) of the block is `cells[y * 8 + x]`.
        pub cells: [MapCell; BLOCK_CELLS],
    } = MAP_BLOCK_LEN;
}

record! {
    /// A 12-byte index record (staidx*.mul, multi.idx): where a block's data lies.
    pub struct IndexRecord {
        /// Byte offset in the data file; 0xFFFFFFFF for an empty entry.
        pub offset: U32,
        /// Length in bytes; 0 or 0xFFFFFFFF for an empty entry.
        pub length: U32,
        /// A third word whose meaning is not known; kept raw.
        pub extra: U32,
    } = 12;
}

/// Offset or length value marking an empty index entry.
pub const EMPTY: u32 = 0xFFFF_FFFF;

record! {
    /// A static of statics*.mul in the standard 7-byte form.
    pub struct StaticRecord {
        /// Item tile id (an index into tiledata's item table).
        pub id: U16,
        /// Column inside the block, 0..8.
        pub x: u8,
        /// Row inside the block, 0..8.
        pub y: u8,
        /// Altitude, signed.
        pub z: i8,
        /// Hue (0: the art's own colours).
        pub hue: U16,
    } = 7;
}

record! {
    /// A static in the 11-byte form of the pre-alpha client: a serial, then the 7-byte form.
    pub struct PreAlphaStaticRecord {
        /// A serial number; kept raw.
        pub serial: U32,
        /// The standard fields.
        pub record: StaticRecord,
    } = 11;
}

/// A land tile of tiledata.mul; `F` is the flags word: [`U32`] in the old layout, [`U64`] in
/// the High Seas layout ([`LandTileOld`], [`LandTileNew`]).
#[repr(C)]
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
pub struct LandRecord<F> {
    /// Tile flags ([`crate::TileFlags`]).
    pub flags: F,
    /// Texture id.
    pub texture: U16,
    /// Name, NUL-padded, not always NUL-terminated.
    pub name: [u8; 20],
}

/// A land tile, old layout (before High Seas): 26 bytes.
pub type LandTileOld = LandRecord<U32>;
/// A land tile, High Seas layout (64-bit flags): 30 bytes.
pub type LandTileNew = LandRecord<U64>;
const _: () = assert!(size_of::<LandTileOld>() == 26 && size_of::<LandTileNew>() == 30);

/// An item tile of tiledata.mul; `F` is the flags word, as for [`LandRecord`]
/// ([`ItemTileOld`], [`ItemTileNew`]).
#[repr(C)]
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
pub struct ItemRecord<F> {
    /// Tile flags ([`crate::TileFlags`]).
    pub flags: F,
    /// Weight in stones (255: cannot be lifted).
    pub weight: u8,
    /// Quality; the layer for wearables, the light for light sources.
    pub quality: u8,
    /// Miscellaneous data.
    pub misc: U16,
    /// Unknown byte.
    pub unknown2: u8,
    /// Quantity; the weapon class for weapons, the armour for armour.
    pub quantity: u8,
    /// Animation (body) id.
    pub animation: U16,
    /// Unknown byte.
    pub unknown3: u8,
    /// Hue.
    pub hue: u8,
    /// Stacking offset / value.
    pub stacking_offset: U16,
    /// Height in altitude units (for a container, its capacity).
    pub height: u8,
    /// Name, NUL-padded, not always NUL-terminated.
    pub name: [u8; 20],
}

/// An item tile, old layout: 37 bytes.
pub type ItemTileOld = ItemRecord<U32>;
/// An item tile, High Seas layout (64-bit flags): 41 bytes.
pub type ItemTileNew = ItemRecord<U64>;
const _: () = assert!(size_of::<ItemTileOld>() == 37 && size_of::<ItemTileNew>() == 41);

/// Land tiles in tiledata.mul (512 groups of 32).
pub const LAND_TILES: usize = 0x4000;
/// Tiles in a tiledata group (land or item).
pub const TILES_PER_GROUP: usize = 32;
/// Bytes of a tiledata group header.
pub const GROUP_HEADER_LEN: usize = 4;

record! {
    /// A multi component, 12-byte form (before High Seas).
    pub struct MultiComponent12 {
        /// Item tile id.
        pub id: U16,
        /// Offset east of the multi's centre, in tiles (signed).
        pub x: I16,
        /// Offset south of the multi's centre, in tiles (signed).
        pub y: I16,
        /// Altitude offset (signed).
        pub z: I16,
        /// Flags (1: visible).
        pub flags: U32,
    } = 12;
}

record! {
    /// A multi component, 16-byte form (High Seas and later): the 12-byte form and one word.
    pub struct MultiComponent16 {
        /// The standard fields.
        pub component: MultiComponent12,
        /// A fourth word whose meaning is not known; kept raw.
        pub extra: U32,
    } = 16;
}

/// Colours in a hue.
pub const HUE_COLOURS: usize = 32;
/// Hues in a hues.mul group.
pub const HUES_PER_GROUP: usize = 8;

record! {
    /// One hue of hues.mul: 32 RGB555 colours, the table's start and end, a name.
    pub struct HueEntry {
        /// RGB555 colours, darkest to brightest.
        pub colours: [U16; HUE_COLOURS],
        /// First colour of the table (RGB555).
        pub table_start: U16,
        /// Last colour of the table (RGB555).
        pub table_end: U16,
        /// Name, NUL-padded, not always NUL-terminated.
        pub name: [u8; 20],
    } = 88;
}

record! {
    /// A group of hues.mul: a header word and 8 hues.
    pub struct HueGroup {
        /// Unknown header word.
        pub header: U32,
        /// The hues.
        pub entries: [HueEntry; HUES_PER_GROUP],
    } = 708;
}

/// Land entries at the start of radarcol.mul; item colours follow.
pub const RADAR_LAND_ENTRIES: usize = 0x4000;

/// The UOP container's magic word: "MYP\0" read as a little-endian u32.
pub const UOP_MAGIC: u32 = 0x0050_594D;
/// Bytes of a UOP table entry.
pub const UOP_ENTRY_LEN: usize = 34;
/// Map blocks in one chunk of a map UOP (`build/map{N}legacymul/{i:08}.dat`).
pub const UOP_MAP_CHUNK_BLOCKS: usize = 4096;

record! {
    /// The header at the start of a UOP container (28 bytes; real files pad it, and the
    /// first table block lies wherever `first_table` says).
    pub struct UopHeader {
        /// [`UOP_MAGIC`].
        pub magic: U32,
        /// Format version (5 in the clients since 2010).
        pub version: U32,
        /// A signature word, kept raw.
        pub signature: U32,
        /// Absolute offset of the first table block.
        pub first_table: U64,
        /// Entries a table block holds.
        pub block_capacity: U32,
        /// Files the container holds.
        pub file_count: U32,
    } = 28;
}

record! {
    /// The start of a table block: its entry count and the next block's offset (0 ends the
    /// chain); `count` entries of 34 bytes follow.
    pub struct UopTableHeader {
        /// Entries in this block.
        pub count: U32,
        /// Absolute offset of the next table block; 0 for the last.
        pub next: U64,
    } = 12;
}

record! {
    /// One table entry: where a file's data lies and how it is stored.
    pub struct UopEntryRaw {
        /// Absolute offset of the entry's header; 0 for an unused entry.
        pub offset: U64,
        /// Bytes of the entry header before the data.
        pub header_len: U32,
        /// Bytes stored.
        pub compressed_len: U32,
        /// Bytes once decompressed (equal to the stored length when not compressed).
        pub decompressed_len: U32,
        /// Hash of the file's name (lookup3 `hashlittle2`, seeds 0, `(b << 32) | c`).
        pub hash: U64,
        /// Adler-32 of the stored bytes.
        pub adler32: U32,
        /// 0 stored, 1 zlib.
        pub compression: U16,
    } = UOP_ENTRY_LEN;
}
