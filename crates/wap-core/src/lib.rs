//! Readers for WWD levels of the WAP32 engine (Claw 1997, Gruntz 1999).
//!
//! A level is a 1,524-byte [`Header`] and a main block, stored as a zlib stream when header
//! flag 0x2 is set. [`LevelFile`] owns the bytes: an uncompressed level is used in place; a
//! compressed one is decompressed within the caller's [`Limits`] into one buffer holding the
//! header and the main block, so that the absolute offsets of the format work unchanged.
//! [`read_header`] reads the header alone without decompressing. [`ChecksumClass`] says how
//! the stored checksum relates to the stored bytes; no level is ever rejected for it.
//!
//! This first part of the crate covers the header, decompression and the checksum; planes,
//! objects, tile properties and the writer come next. Everything is little-endian; offsets
//! and lengths are bytes. Format facts and their sources: `docs/formats/wwd.md`.
//!
//! # Example
//!
//! ```no_run
//! use gamedata_io::Limits;
//! use wap_core::LevelFile;
//!
//! let level = LevelFile::read("RETAIL01.WWD".as_ref(), &Limits::default())?;
//! let header = level.header();
//! println!(
//!     "{}: {} planes, main block {} bytes, checksum {}",
//!     header.name_lossy(),
//!     header.plane_count(),
//!     level.main_block().len(),
//!     level.checksum_class().name()
//! );
//! # Ok::<(), wap_core::Error>(())
//! ```

#![forbid(unsafe_code)]

pub mod checksum;
pub mod error;
#[cfg(feature = "fuzzing")]
pub mod exercise;
pub mod header;
pub mod level;
pub mod object;
pub mod plane;
pub mod raw;
#[cfg(feature = "write")]
pub mod synth;
pub mod tile_properties;
pub mod view;
#[cfg(feature = "write")]
pub mod write;

pub use checksum::{ChecksumClass, base_checksum};
pub use error::{Error, Result};
pub use gamedata_io::Limits;
pub use header::{CodePage, Header, decode, field_text};
pub use level::{LevelFile, read_header};
pub use object::{AddFlags, DrawFlags, DynamicFlags, HitTypeFlags, Object, ObjectType, Objects};
pub use plane::{ImageSets, Plane, PlaneFlags, Tile};
pub use raw::Rect;
pub use tile_properties::{
    Attribute, TileAttributes, TileProperties, TileProperty, TilePropertyIndex, TilePropertyIter,
};
pub use view::{Game, Layout, Level, Section, SectionKind};
#[cfg(feature = "write")]
pub use write::{
    AttributesData, LevelData, ObjectData, PlaneData, TilePropertiesData, TilePropertyData,
};
