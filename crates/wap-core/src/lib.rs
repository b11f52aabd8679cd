//! Readers for WWD levels of the WAP32 engine (Claw 1997, Gruntz 1999): the `wwd` family of
//! the `gamedata` command (`gamedata wwd ...`) and of the Python package (`gamedata.wwd`).
//! Its siblings: `mul-core` (Ultima Online, `uo`) and `mni-core` (Cosmo's Cosmic Adventure,
//! `cosmo`).
//!
//! A level is a 1,524-byte [`Header`] and a main block, stored as a zlib stream when header
//! flag 0x2 is set. [`LevelFile`] owns the bytes ([`LevelFile::open`] reads a path,
//! [`LevelFile::map`] maps it, [`LevelFile::from_data`] wraps a `Vec<u8>`, an `Arc<[u8]>`, a
//! `&'static [u8]` or a [`FileData`]; `open_with`/`map_with` take [`LevelOptions`], as a REZ
//! archive takes [`RezOptions`]): an uncompressed level is used in place; a compressed one is
//! decompressed within the options' [`Limits`] into one buffer holding the header and the
//! main block, so that the absolute offsets of the format work unchanged
//! (bytes after the stream are the trailer). [`read_header`] reads the header alone without
//! decompressing. [`Level`] (`file.view()`) is the borrowed view:
//!
//! - [`Level::planes`] and [`Level::main_plane`]: [`Plane`]s, each checked on its own when
//!   read, with their tiles cast in place as `&[U32]` ([`Plane::tiles`], one at a time
//!   with [`Plane::tile`]), image-set names ([`Plane::image_sets`]) and [`Object`]s
//!   ([`Plane::objects`]: the 284-byte fixed part cast, the four strings borrowed);
//! - [`Level::tile_properties`]: the [`TileProperties`] table of single, double and mask
//!   records; [`TileProperties::collect`] indexes it by tile id, and
//!   [`TilePropertyIndex::attribute_at`] gives the attribute of any pixel of a tile
//!   (`level.tile_properties()?.collect()?.attribute_at(id, x, y)`);
//! - [`Level::game`] detection and a [`Layout`] report ([`Level::layout`]);
//! - [`Level::validate`], which reads every plane, object and tile property record once:
//!   what `gamedata wwd validate` runs.
//!
//! A bad plane or table is an error when read and does not hide the others.
//! [`ChecksumClass`] says how the stored checksum relates to the stored bytes; no level is
//! ever rejected for it.
//!
//! The games' pictures: [`RezFile`] owns a REZ archive (read or mapped; [`Rez`] views
//! its directory tree in place, entries by path in any case, a depth-first walk), [`Pid`]
//! views a PID image and decodes it into palette indices and an opacity mask, [`Palette`]
//! views 256 colours, [`ImageSource`] is an archive or a folder of extracted files,
//! [`ImageIndex`] its folders indexed once by path and by image-set key with each folder's
//! images by frame number, and [`ImageNames`] says where a level's tiles and objects find
//! their images (`rez`, `pid`, `images`; format facts: `docs/formats/wap32.md`).
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
//! Levels are inflated and deflated by flate2 with the zlib-rs backend, the one deflate
//! backend of the workspace (its `Cargo.toml`): about 1.5 times as fast as flate2's default
//! miniz_oxide on the real levels (measured 2026-11-23: the repository's
//! `benches/README.md`, "WWD levels"), and the same bytes written whatever else is built.
//! Features: `write` adds [`LevelData`]: [`LevelData::from_level`] copies a level view
//! and [`LevelData::to_file`] writes it back, compressed or not, with the base checksum;
//! the main block of every real level comes out byte for byte. With it too,
//! [`write_rez()`] and [`write_pid`] write archives and images, and [`synth`] makes
//! synthetic levels and archives.
//!
//! Everything is little-endian; offsets and lengths are bytes, positions pixels, plane
//! sizes tiles. Format facts and their sources: `docs/formats/wwd.md`.
//!
//! Errors: [`ErrorKind`] is a small `Copy` value saying what is wrong in the bytes, with
//! offsets and counts as numbers; [`DataError`] adds the file's name when the level was
//! opened from a path: views and parsers return it, as they touch no file system.
//! [`Error`], what the functions that take a path return, also holds file-system errors
//! ([`Error::File`]). `Display` is one sentence; a file-system error carries the
//! operating system's error as its [`source`](std::error::Error::source), so print the whole
//! chain with `{:#}` under anyhow, or walk `source()`.
//!
//! # Robustness
//!
//! The crate keeps gamedata-io's contract ([`gamedata_io`'s "Robustness"](mod@gamedata_io#robustness)):
//! `Ok` or an [`Error`] for any bytes, memory within the input and [`Limits`], linear work,
//! bounded `Debug`, checked arithmetic, `Send + Sync` views. Tested by the fuzz targets
//! (their properties are `gamedata_exercise::wwd`), sweeps over the real levels and the edge cases at `u32::MAX` and `i32::MAX`. Here:
//!
//! - Memory: the main block is decoded once, within [`Limits`] and at most 1,032 bytes a
//!   stored byte (a declared size above that is refused before allocating); the views
//!   borrow the decoded image; a plane's tiles, objects and tile properties are read in
//!   place.
//! - Work: linear apart from decompression itself. A plane whose tiles overlap another
//!   plane's is bad and left out ([`ErrorKind::PlaneOverlap`]), so reading every plane reads
//!   each tile once.
//!
//! # Example
//!
//! ```no_run
//! use wap_core::{LevelFile, LevelOptions, Tile};
//!
//! let file = LevelFile::open("RETAIL01.WWD")?;
//! let level = file.view()?;
//! println!(
//!     "{} ({}): main block {} bytes, checksum {}",
//!     level.header().name_lossy(),
//!     level.game().name(),
//!     file.main_block().len(),
//!     file.checksum_class().name()
//! );
//! let main = level.main_plane()?.expect("a main plane");
//! let table = level.tile_properties()?.collect()?;
//! if let Some(Tile::Image { id, .. }) = main.tile(10, 60) {
//!     // The attribute at the tile's centre pixel: 0 clear, 1 solid, 2 ground ...
//!     println!("{:?}", table.attribute_at(id, 32, 32));
//! }
//! for object in main.objects() {
//!     let object = object?;
//!     println!("{:?} at {:?}", String::from_utf8_lossy(object.logic()), object.position());
//! }
//!
//! // The same level from bytes held elsewhere, with a tighter cap on what its main block
//! // may decompress to.
//! let bytes: std::sync::Arc<[u8]> = std::fs::read("RETAIL01.WWD")?.into();
//! let mut options = LevelOptions::default();
//! options.limits.max_decoded_bytes = 64 << 20;
//! let file = LevelFile::from_data(std::sync::Arc::clone(&bytes), &options)?;
//! println!("{} objects", file.view()?.validate()?.objects);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(unsafe_code)]
#![deny(clippy::arithmetic_side_effects)]

pub mod error;
pub mod images;
pub mod raw;
pub mod rez;
pub mod wwd;

pub use error::{
    ArgumentProblem, DataError, Error, ErrorKind, ImageProblem, Result, RezProblem, WriteProblem,
};
// gamedata-io's items, the same set in mul-core, wap-core and mni-core (docs/naming.md).
pub use gamedata_io::{
    Access, Category, CodePage, FileData, FileError, FileOptions, FileSet, Format, FormatError,
    FormatOptions, InflateError, LimitError, Limits, MapOptions, Owned, OwnedSet, Problems,
    ReadError, decode, field_text,
};
pub use images::{
    AniId, Animations, FolderId, Frames, ImageIndex, ImageNames, ImageSource, RangedArchive,
    ReadRange,
};
pub use raw::{AniFrameRecord, AniHeader, PidHeader, Rect, RezHeader};
pub use rez::{
    Ani, AniContents, AniFile, AniFrame, AniFrameSpec, Palette, Pid, PidFlags, PidPixels, Rez,
    RezContents, RezDir, RezEntry, RezFetch, RezFile, RezFileEntry, RezOptions, RezTables, Walk,
    WalkEntry, write_ani,
};
#[cfg(feature = "write")]
pub use rez::{write_pid, write_rez};
/// Synthetic levels and archives (feature `write`): [`wwd::synth`], kept at the root where
/// tests, benchmarks and the demo find it.
#[cfg(feature = "write")]
pub use wwd::synth;
pub use wwd::{
    AddFlags, Attribute, ChecksumClass, DrawFlags, DynamicFlags, Game, Header, HitTypeFlags,
    ImageSets, Layout, Level, LevelContents, LevelCounts, LevelFile, LevelOptions, Object,
    ObjectType, Objects, Plane, PlaneFlags, Section, SectionKind, Tile, TileAttributes,
    TileProperties, TileProperty, TilePropertyIndex, TilePropertyIter, base_checksum, read_header,
};
#[cfg(feature = "write")]
pub use wwd::{
    AttributesData, LevelData, LevelLayout, ObjectData, PlaneData, TilePropertiesData,
    TilePropertyData, Written,
};

/// This crate's README (its package page): its Rust examples compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
