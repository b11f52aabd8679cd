//! Zero-copy readers for Ultima Online world files.
//!
//! | file | view | shape |
//! |---|---|---|
//! | map0.mul ... map5.mul | [`Map`] | 196-byte blocks of 8 x 8 cells, column-major |
//! | map0LegacyMUL.uop ... | [`UopFile`], [`Map::from_chunks`] | a UOP container: the same blocks in chunks of 4,096 |
//! | mapdifl/mapdif, stadifl/stadifi/stadif | [`DiffIndex`], [`MapPatch`], [`StaticsPatch`] | block numbers, replacing blocks and index records |
//! | staidx0.mul + statics0.mul ... | [`Statics`] | 12-byte index record a block; 7-byte statics (11 in the pre-alpha client) |
//! | tiledata.mul | [`TileData`] | land and item tile properties, three layouts by file size |
//! | multi.idx + multi.mul | [`Multis`] | 12-byte index records; 12- or 16-byte components |
//! | radarcol.mul | [`RadarColours`] | RGB555 colours, land then items |
//! | hues.mul | [`Hues`] | 708-byte groups of 8 hues |
//!
//! A [`FacetFiles`] finds one facet's files in a client folder whatever the case of their
//! names (the map as MUL, else as UOP) and owns their bytes (mapped, or read); [`Facet`] is
//! the set of views over them, with the diff files applied on request
//! ([`FacetFiles::facet_with_diffs`]), and [`query`] scans a whole facet, sequentially or
//! over rayon's pool, with identical results. [`uop`] reads any UOP container and writes
//! map UOPs.
//!
//! Everything is little-endian. Views borrow the bytes and return references with the
//! data's lifetime; records are alignment-1 `#[repr(C)]` structs ([`raw`]) cast in place.
//! Nothing here panics on any input: every offset and length read from a file is checked,
//! and a bad index entry is an [`Error`] naming the block, while the other blocks stay
//! readable. Units: map coordinates and sizes in tiles unless a name says blocks (8 x 8
//! tiles); offsets and lengths in bytes. The format facts and their sources are in
//! `docs/formats/uo.md` at the root of the repository.
//!
//! Features: `write` adds `synth`, a seeded generator of a whole synthetic world, and the
//! record writers; `fuzzing` adds `exercise`, the reading paths the fuzz targets run.
//!
//! # Example
//!
//! ```
//! # #[cfg(feature = "write")] {
//! use mul_core::{Facet, MapSize, query, synth};
//!
//! // A small synthetic world; for a real client folder use
//! // `FacetFiles::read(FacetPaths::find(dir, 0)?)?.facet(FacetSize::Preset(0), None)?`.
//! let world = synth::World::generate(MapSize::from_blocks(16, 16)?, 7);
//! let facet = Facet::parse(&world.map, world.size, &world.staidx, &world.statics, None)?;
//! let cell = facet.map.cell(40, 60).expect("inside the map");
//! let here: Vec<_> = facet.statics_at(40, 60)?.collect();
//! println!("land {:#06x} at z {}, {} statics", cell.id.get(), cell.z, here.len());
//!
//! let land = query::land_stats_par(&facet.map);
//! assert_eq!(land, query::land_stats(&facet.map));
//! assert_eq!(land.cells, 128 * 128);
//! # }
//! # Ok::<(), mul_core::Error>(())
//! ```

#![forbid(unsafe_code)]

pub mod colours;
pub mod diff;
pub mod error;
#[cfg(feature = "fuzzing")]
pub mod exercise;
pub mod facet;
mod index;
pub mod map;
pub mod multi;
pub mod query;
pub mod raw;
pub mod statics;
#[cfg(feature = "write")]
pub mod synth;
pub mod tiledata;
pub mod uop;

pub use colours::{Hues, RadarColours, rgb555_to_rgb8};
pub use diff::{DiffIndex, MapPatch, PatchIndex, StaticsPatch};
pub use error::{Error, IndexProblem, Result};
pub use facet::{DiffPaths, Facet, FacetFiles, FacetPaths, FacetSize, MapFormat};
pub use gamedata_io::FileData;
pub use map::{Map, MapSize};
pub use multi::{MultiFormat, MultiSlice, Multis};
pub use statics::{StaticFormat, StaticSlice, Statics};
pub use tiledata::{ItemTile, LandTile, TileData, TileDataLayout, TileFlags};
pub use uop::{Compression, MapChunk, UopEntry, UopFile, name_hash};
