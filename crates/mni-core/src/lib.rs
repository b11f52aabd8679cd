//! Zero-copy readers for the data of Cosmo's Cosmic Adventure (Apogee, 1992): the `cosmo`
//! family of the `gamedata` command (`gamedata cosmo ...`) and of the Python package
//! (`gamedata.cosmo`). Its siblings: `mul-core` (Ultima Online, `uo`) and `wap-core` (WWD
//! levels, `wwd`).
//!
//! | file | view | shape |
//! |---|---|---|
//! | COSMOn.STN, COSMOn.VOL (group files; also Duke Nukem II's .CMP) | [`Group`], [`Episode`] | 4,000-byte directory of 200 slots x 20 bytes, then entry data |
//! | TILEATTR.MNI | [`TileAttrTable`] | 7,000 bytes: one attribute byte per map tile value / 8 |
//! | A1.MNI ... (maps) | [`Map`] | 6-byte header, actors (3 words each), 32,764 u16 tile values |
//! | TILES.MNI, MASKTILE.MNI | [`SolidTiles`], [`MaskedTiles`] | 8x8-pixel EGA tiles, 32 / 40 bytes each |
//! | ACTRINFO.MNI, ACTORS.MNI | [`ActorSprites`] ([`SpriteTable`], [`SpriteFrame`]) | frames of each sprite type; masked tiles in 65,535-byte segments |
//! | BDNEWSKY.MNI ... (backdrops) | [`Backdrop`] | 40 x 18 solid tiles, 23,040 bytes |
//!
//! [`ActorSprite::of`] says which sprite type the game shows for each actor type of a map,
//! and where.
//!
//! Everything is little-endian. Views borrow the bytes they were parsed from (a [`FileData`]
//! map or buffer, or any `&[u8]`) and hand out references with the data's lifetime; records
//! are alignment-1 `#[repr(C)]` structs ([`raw`]) cast in place, never copied. Nothing here
//! panics on any input: every offset and length read from a file is checked, and a bad one
//! is an [`Error`] saying what, where, what was found and what was expected. A bad entry of a
//! group file does not hide the good ones.
//!
//! Units: map coordinates and sizes are in tiles, tile images in pixels (8 x 8 a tile), file
//! offsets and sizes in bytes. Every format fact, with its source, is in
//! `docs/formats/cosmo.md` at the root of the repository; each was checked against the
//! episode 1 shareware files.
//!
//! [`EpisodeFiles::open`] finds and reads an episode's two group files, and
//! [`EpisodeFiles::map`] maps them (`open_with` and `map_with` take [`EpisodeOptions`], the
//! shared options: Cosmo has no cap of its own); [`EpisodeFiles::from_data`] wraps bytes the caller owns (a
//! `Vec<u8>`, an `Arc<[u8]>`, a `&'static [u8]`, a [`FileData`]); every view has a
//! `parse(&[u8])` of its own ([`Group::parse`], [`Map::parse`], [`TileAttrTable::parse`]
//! ...). [`Episode::level`] is the level (map entry) of a name.
//!
//! The owners, options, errors and mapping are gamedata-io's, shared by every format
//! crate: see its front page ([one shape](mod@gamedata_io#one-shape-for-every-format),
//! [one naming rule](mod@gamedata_io#one-naming-rule): views, owners `<View>File` and
//! `<View>Files` with one `view()`, lookups `Result<Option<T>>`,
//! [errors](mod@gamedata_io#errors), [memory maps](mod@gamedata_io#memory-maps-and-unsafe-code)).
//! This crate re-exports the same set of its items as the other readers ([`FileData`],
//! [`FileError`], [`Limits`], [`LimitError`], [`ReadError`], [`Owned`], [`OwnedSet`] ...),
//! so it is enough on its own.
//!
//! Errors: [`ErrorKind`] is a small `Copy` value saying what is wrong in the bytes, with
//! offsets and counts as numbers; [`DataError`] adds where it was found, the group file, the
//! entry and its slot: views, parsers and writers return it, as they touch no file system.
//! [`Error`], what the functions that take a path return, also holds file-system errors
//! ([`FormatError::File`]). They are gamedata-io's error family, as in mul-core and
//! wap-core. `Display` is one sentence ("in entry TILES.MNI (slot 1) of
//! COSMO1.STN: ..."); a file-system error carries the operating system's error as its
//! [`source`](std::error::Error::source), so print the whole chain with `{:#}` under
//! anyhow, or walk `source()`.
//!
//! Features: none by default, which builds the readers only; `write` adds the writers
//! (`write_group`, `write_map`) and the synthetic episode `synth`. The tile encoders
//! ([`raw::SolidTileRaw::from_pixels`] ...) are always built. Every reading path over arbitrary bytes, with the properties the fuzz targets
//! check, is `gamedata_exercise::cosmo`, in the `gamedata-exercise` crate, kept out of this
//! library.
//!
//! # Robustness
//!
//! The crate keeps gamedata-io's contract ([`gamedata_io`'s "Robustness"](mod@gamedata_io#robustness)):
//! `Ok` or an [`Error`] for any bytes, memory within the input and [`Limits`], linear work,
//! bounded `Debug`, checked arithmetic, `Send + Sync` views. Tested by the fuzz targets
//! (their properties are `gamedata_exercise::cosmo`), sweeps over the real group files and the edge cases at `u32::MAX`. Here:
//!
//! - Memory: nothing is decoded ahead: the group directory, maps and tile tables are cast
//!   in place; a tile's pixels are decoded on request into a fixed 8 x 8 array.
//! - Work: group entries and sprite frames whose bytes overlap another's are bad and left
//!   out ([`ErrorKind::EntryOverlap`], [`ErrorKind::FrameOverlap`]), and sprite types must
//!   be listed in order, so reading every entry or frame reads each byte once.
//!
//! # Example
//!
//! ```no_run
//! use mni_core::{EpisodeFiles, MapTile};
//!
//! // COSMO1.STN and COSMO1.VOL, in any letter case, read into memory.
//! let files = EpisodeFiles::open("path/to/cosmo", 1)?;
//! let episode = files.view()?;
//! let attrs = episode.tile_attributes()?;  // TILEATTR.MNI: the STN, then the VOL
//! // In the VOL; case is ignored; `None` if neither file has it.
//! let map = episode.level("a1.mni")?.ok_or_else(|| episode.missing("a1.mni"))?;
//! println!("{} x {} tiles, {} actors", map.width(), map.height(), map.actors().len());
//!
//! // The cell under the player start: what is it, and can it be stood on?
//! let start = map.actors().next().expect("a map starts with the player");
//! if let (Some(MapTile::Solid(i)), Some(a)) =
//!     (map.tile(start.x, start.y + 1), map.attributes(start.x, start.y + 1, &attrs))
//! {
//!     println!("solid tile {i} below the start; can stand on it: {}", a.block_south());
//! }
//! # Ok::<(), mni_core::Error>(())
//! ```

#![deny(unsafe_code)]
#![deny(clippy::arithmetic_side_effects)]

pub mod actor_types;
pub mod backdrop;
pub mod episode;
pub mod error;
pub mod group;
pub mod map;
pub mod raw;
pub mod sprites;
#[cfg(feature = "write")]
pub mod synth;
pub mod tileattr;
pub mod tiles;
#[cfg(feature = "write")]
pub mod write;

pub use actor_types::{ActorDraw, ActorSprite};
pub use backdrop::{Backdrop, backdrop_name};
pub use episode::{Episode, EpisodeFiles, EpisodeOptions, EpisodePaths, EpisodeSet, GroupKind};
pub use error::{
    ActorListProblem, DataError, Error, ErrorKind, Result, SpriteTableProblem, WriteProblem,
};
// gamedata-io's items, the same set in mul-core, wap-core and mni-core (docs/naming.md).
pub use gamedata_io::{
    Access, Category, CodePage, FileData, FileError, FileOptions, FileSet, Format, FormatError,
    FormatOptions, InflateError, LimitError, Limits, MapOptions, Owned, OwnedSet, Problems,
    ReadError, decode, field_text,
};
pub use group::{Entry, Group};
pub use map::{Actor, ActorKind, Map, MapFlags, MapTile};
pub use sprites::{ActorSprites, SpriteFrame, SpriteTable};
pub use tileattr::{AttrSummary, TileAttrTable, TileAttributes};
pub use tiles::{EGA_PALETTE, MaskedTiles, SolidTiles, TileImages, TilePixels, TileRgba};
#[cfg(feature = "write")]
pub use write::{write_group, write_map};

/// This crate's README (its package page): its Rust examples compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
