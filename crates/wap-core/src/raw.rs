//! On-disk structures and constants, nothing else. Layouts and sources:
//! `docs/formats/wwd.md`.

use zerocopy::little_endian::{I32, U32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// Bytes of the header, and the value of its first field in every real level.
pub const HEADER_LEN: usize = 1524;

/// Header flag 0x1: the level uses z coordinates.
pub const FLAG_USE_Z: u32 = 0x1;
/// Header flag 0x2: the main block is a zlib stream.
pub const FLAG_COMPRESS: u32 = 0x2;

/// The 1,524-byte header at the start of every WWD level.
#[repr(C)]
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
pub struct WwdHeader {
    /// Header size: 1,524 in every real level (0x5F4).
    pub size: U32,
    /// Reserved word at 0x4 (kept raw).
    pub reserved1: U32,
    /// Flags: 0x1 use z coordinates, 0x2 compressed main block; other bits kept raw.
    pub flags: U32,
    /// Reserved word at 0xC (kept raw).
    pub reserved2: U32,
    /// Level name, NUL-terminated inside the field.
    pub name: [u8; 64],
    /// Author, NUL-terminated inside the field.
    pub author: [u8; 64],
    /// Date of creation as text, NUL-terminated inside the field.
    pub birth: [u8; 64],
    /// Path of the REZ archive.
    pub rez_file: [u8; 256],
    /// Image folder.
    pub image_dir: [u8; 128],
    /// Palette in the REZ archive.
    pub pal_rez: [u8; 128],
    /// Start x in pixels.
    pub start_x: I32,
    /// Start y in pixels.
    pub start_y: I32,
    /// Reserved word at 0x2D8: 1 or 2 in some real levels (kept raw).
    pub reserved3: U32,
    /// Number of planes.
    pub plane_count: U32,
    /// Absolute offset of the plane headers (in the header + decompressed main block image).
    pub planes_offset: U32,
    /// Absolute offset of the tile property table.
    pub tile_properties_offset: U32,
    /// Length of the decompressed main block (0, or stale, in uncompressed levels).
    pub main_block_size: U32,
    /// Checksum over the stored main block (see `docs/formats/wwd.md`).
    pub checksum: U32,
    /// Reserved word at 0x2F0 (kept raw).
    pub reserved4: U32,
    /// Application the editor launches.
    pub launch_app: [u8; 128],
    /// Image sets 1 to 4.
    pub image_sets: [[u8; 128]; 4],
    /// Image set prefixes 1 to 4.
    pub prefixes: [[u8; 32]; 4],
}
const _: () = assert!(size_of::<WwdHeader>() == HEADER_LEN);
