//! WWD levels: the level view ([`Level`]) and its owner ([`LevelFile`]), the header, the
//! planes with their tiles and objects, the tile property table, the checksum, and behind
//! `write` the level writer ([`LevelData`]) and the synthetic level ([`synth`]). Format facts
//! and their sources: `docs/formats/wwd.md`.
//!
//! Every item is also at the crate's root; this module groups them as the files do.

pub(crate) mod checksum;
pub(crate) mod file;
pub(crate) mod header;
pub(crate) mod level;
pub(crate) mod object;
pub(crate) mod plane;
pub(crate) mod section;
#[cfg(feature = "write")]
pub mod synth;
pub(crate) mod tile_properties;
#[cfg(feature = "write")]
pub(crate) mod write;

pub use checksum::{ChecksumClass, base_checksum};
pub use file::{LevelContents, LevelFile, LevelOptions, read_header};
pub use header::Header;
pub use level::{Game, Layout, Level, LevelCounts, Section};
pub use object::{AddFlags, DrawFlags, DynamicFlags, HitTypeFlags, Object, ObjectType, Objects};
pub use plane::{ImageSets, Plane, PlaneFlags, Tile};
pub use section::SectionKind;
pub use tile_properties::{
    Attribute, TileAttributes, TileProperties, TileProperty, TilePropertyIndex, TilePropertyIter,
};
#[cfg(feature = "write")]
pub use write::{
    AttributesData, LevelData, LevelLayout, ObjectData, PlaneData, TilePropertiesData,
    TilePropertyData, Written,
};
