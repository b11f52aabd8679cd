//! Zero-copy readers for Ultima Online world files: the `uo` family of the `gamedata`
//! command (`gamedata uo ...`) and of the Python package (`gamedata.uo`). Its siblings:
//! `wap-core` (WWD levels, `wwd`) and `mni-core` (Cosmo's Cosmic Adventure, `cosmo`).
//!
//! | file | view | shape |
//! |---|---|---|
//! | map0.mul ... map5.mul | [`Map`] | 196-byte blocks of 8 x 8 cells, column-major |
//! | map0LegacyMUL.uop ... | [`Uop`], [`Map::from_chunks`] | a UOP container: the same blocks in chunks of 4,096 |
//! | mapdifl/mapdif, stadifl/stadifi/stadif | [`DiffIndex`], [`MapPatch`], [`StaticsPatch`] | block numbers, replacing blocks and index records |
//! | staidx0.mul + statics0.mul ... | [`Statics`] | 12-byte index record a block; 7-byte statics (11 in the pre-alpha client) |
//! | tiledata.mul | [`TileData`] | land and item tile properties, three layouts by file size |
//! | multi.idx + multi.mul | [`Multis`] | 12-byte index records; 12- or 16-byte components |
//! | radarcol.mul | [`RadarColours`] | RGB555 colours, land then items |
//! | hues.mul | [`Hues`] | 708-byte groups of 8 hues |
//! | artidx.mul + art.mul, artLegacyMUL.uop | [`Art`] ([`LandArt`], [`ItemArt`]) | land tiles (1,012 raw 16-bit pixels in a 44 x 44 diamond) and items (rows of runs) |
//! | gumpidx.mul + gumpart.mul, gumpartLegacyMUL.uop | [`Gumps`] | rows of runs; the size in the index record |
//! | texidx.mul + texmaps.mul | [`Texmaps`] | 12-byte index records; 64 x 64 or 128 x 128 u16 pixels |
//! | anim.idx + anim.mul, anim2 ... anim5 | [`Animations`], [`AnimationFiles`] | 12-byte records, 5 directions an action; frame groups of palette-indexed runs ([`anim`]) |
//! | AnimationFrame1.uop ... | [`UopAnimations`], [`UopAnimationFiles`] | one entry a body and action |
//! | animdata.mul, verdata.mul | [`AnimData`], [`Verdata`] | animated items' frames; the old clients' patches |
//! | gump.def, TexTerr.def | [`GumpDef`], [`TexTerrDef`] | text: entries borrowed from others |
//!
//! [`FacetFiles`] finds one facet's files in a client folder whatever the case of their
//! names (the map as MUL, else as UOP) and owns their bytes: [`FacetFiles::open`] reads them,
//! [`FacetFiles::map`] maps them, [`FacetFiles::from_data`] wraps bytes the caller owns (each
//! a [`FileData`]: a `Vec<u8>`, an `Arc<[u8]>`, a `&'static [u8]`, a map).
//! [`FacetFiles::open_with`] and [`FacetFiles::map_with`] take [`FacetOptions`]: a size for
//! custom maps ([`FacetOptions::size`]), the static record size, the diff files applied
//! ([`FacetOptions::apply_diffs`]: mapdif and stadif blocks replace the map's and the
//! statics'), the map's form in a folder that holds both a MUL and a UOP map
//! ([`FacetOptions::map_format`]), [`Limits`] and the mapping; [`FacetSet::view`]
//! (`files.view()`) gives [`Facet`], the views over the files, as those options say.
//! The single files open the same way, each owner beside its view:
//! [`TileDataFile::open`], [`RadarColoursFile::map`],
//! [`MultiFiles::open`] (a folder's multi.idx and multi.mul), [`UopFile::open`] ...,
//! whose `view()` is the view; their options are the shared [`FileOptions`]. The owners are
//! gamedata-io's [`Owned`] and [`OwnedSet`]: each file kind is one implementation of
//! [`Format`] or [`FileSet`]. [`facet::query`] scans a whole facet, sequentially or over rayon's
//! pool (the default `parallel` feature), with identical results. [`uop`] reads any UOP
//! container (entries found by the hash of their name, contents in place or decompressed
//! within [`Limits`], the Adler-32 checked on request: [`Uop::check_adler32`]), and
//! [`facet::map_uop`] the maps in them.
//!
//! # Layout
//!
//! One module a file family, each holding the view, its owner and (behind `write`) its
//! writer: [`facet`] (the map, its UOP form, statics, diff patches, the whole-facet
//! queries, [`FacetFiles`]), [`art`], [`gump`] (with gump.def and the BWT stage), [`texmap`]
//! (with TexTerr.def), [`anim`] (anim.mul and the AnimationFrame UOPs), [`uop`] (the
//! container); [`picture`] holds what art, gumps and texture maps share (the picture UOPs'
//! index, the paths and bytes of either form, the MUL / UOP conversion). The single files
//! ([`tiledata`], [`multi`], [`colours`] for radarcol.mul and hues.mul, [`animdata`],
//! [`verdata`]) keep view and owner in one module. [`raw`] holds the on-disk records,
//! [`error`] the errors. Every view, owner and error is also re-exported here.
//!
//! Sizes are never guessed. Each facet has known sizes (facets 0 and 1: 7168 or 6144 x
//! 4096 tiles; facets 2 to 5 one each, [`MapSize::known`]), with or without the one padding
//! block newer clients write, and by default the map's length must prove one of them
//! ([`MapSize::detect`]). Any other map is [`ErrorKind::MapSizeUnknown`], never a
//! reshaped answer: the error gives the map's length, its block count, the square size
//! that would fit when the count is a square, and what to pass ([`FacetOptions::size`], or
//! `--width` and `--height` to the command).
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
//! Everything is little-endian. Views borrow the bytes and return references with the
//! data's lifetime; records are alignment-1 `#[repr(C)]` structs ([`raw`]) cast in place.
//! Nothing here panics on any input: every offset and length read from a file is checked,
//! and a bad index entry is a [`DataError`] naming the block, while the other blocks stay
//! readable. Units: map coordinates and sizes in tiles unless a name says blocks (8 x 8
//! tiles); offsets and lengths in bytes. The format facts and their sources are in
//! `docs/formats/uo.md` at the root of the repository.
//!
//! Errors: [`ErrorKind`] is a small `Copy` value saying what is wrong in the bytes, with
//! offsets and counts as numbers; [`DataError`] adds the file it was found in: views and
//! parsers return it, as they touch no file system. [`Error`], what the functions that take
//! a path return, also holds file-system errors ([`Error::File`]). `Display` is one
//! sentence ("MAP0.MUL: the map is 3211264 bytes, ..."); a file-system error carries the
//! operating system's error as its [`source`](std::error::Error::source), so print the whole
//! chain with `{:#}` under anyhow, or walk `source()`.
//!
//! Features: `parallel` (default) adds the rayon-parallel queries; `write` adds the
//! writers (each family's `write` module: `facet::write` writes a map UOP from a MUL map's
//! bytes ([`write_map_uop`]), and a synthetic world's files as MUL or UOP; `art::write` and
//! `gump::write` convert art and gumps between their MUL and UOP forms both ways, byte for
//! byte; `texmap::write`, `anim::write` and `animdata::write` write texture maps,
//! animations and animdata.mul) and `synth`, a
//! seeded generator of a whole synthetic world. The reading paths the fuzz targets run, with
//! their properties, are `gamedata_exercise::uo`, in the `gamedata-exercise` crate, kept out
//! of this library.
//!
//! # Robustness
//!
//! The crate keeps gamedata-io's contract ([`gamedata_io`'s "Robustness"](mod@gamedata_io#robustness)):
//! `Ok` or an [`Error`] for any bytes, memory within the input and [`Limits`], linear work,
//! bounded `Debug`, checked arithmetic, `Send + Sync` views. Tested by the fuzz targets
//! (their properties are `gamedata_exercise::uo`), sweeps over the real files and the edge cases at `u32::MAX` and `u64::MAX`. Here:
//!
//! - Memory: within the input plus 64 MiB plus what [`Limits`] lets the call decode. The views
//!   borrow; what a call collects is bounded by the bytes it reads. A UOP table holds at
//!   most one entry a 34 bytes of the file (table blocks that overlap the header or each
//!   other are [`UopTableProblem::Overlap`]); a map UOP's chunks are all checked before any
//!   is decoded, their declared sizes together within [`Limits::max_decoded_bytes`], each
//!   decoded once; lists of problems (bad diff entries, bad statics blocks, bad multis) keep
//!   the first 100 and count the rest ([`Problems`]).
//! - Work: index entries (statics, multis, the statics diff) and map UOP chunks whose bytes
//!   overlap another's are bad and left out ([`IndexProblem::Overlap`],
//!   [`DiffProblem::Overlap`], [`ErrorKind::ChunkOverlap`]), so a scan of every block reads
//!   each byte once.
//! - The only state a view keeps, the overlapping entries of an index found on first use, is
//!   a `OnceLock` shared by its clones.
//!
//! # Example
//!
//! ```no_run
//! use mul_core::{FacetFiles, FacetOptions, MapSize, facet::query};
//!
//! // Facet 0 of a client folder, read into memory; its size comes from the map's length.
//! let files = FacetFiles::open("path/to/client", 0)?;
//! let facet = files.view()?;
//! let cell = facet.map.cell(1323, 1624).expect("inside the map");
//! let here: Vec<_> = facet.statics_at(1323, 1624)?.collect();
//! println!("land {:#06x} at z {}, {} statics", cell.id.get(), cell.z, here.len());
//! let land = query::land_stats_par(&facet.map);
//! println!("{} cells, z {} to {}", land.cells, land.z_min, land.z_max);
//!
//! // A custom map (the pre-alpha client's 1024 x 1024 tiles), memory-mapped.
//! let size = MapSize::from_tiles(1024, 1024)?;
//! let options = FacetOptions::default().with_size(size);
//! // SAFETY: nothing modifies or truncates the files while they are mapped.
//! let files = unsafe { FacetFiles::map_with("path/to/prealpha", 0, &options) }?;
//! let facet = files.view()?;
//! assert_eq!(facet.size().width(), 1024);
//! # Ok::<(), mul_core::Error>(())
//! ```

#![deny(unsafe_code)]
#![deny(clippy::arithmetic_side_effects)]

#[macro_use]
mod single_file;

pub mod anim;
pub mod animdata;
pub mod art;
pub mod colours;
#[doc(hidden)]
pub mod def;
pub mod error;
pub mod facet;
pub mod gump;
mod index;
pub mod multi;
pub mod picture;
pub mod raw;
#[cfg(feature = "write")]
pub mod synth;
pub mod texmap;
pub mod tiledata;
pub mod uop;
pub mod verdata;

pub use anim::{
    AnimFileId, AnimFrame, AnimGroup, AnimRun, AnimRuns, AnimationBytes, AnimationFiles,
    AnimationSet, Animations, BodyRecords, BodyType, DecodedUopAnimation, Facing, FrameGroup,
    MobType, MobTypes, UopAnimStream, UopAnimation, UopAnimationBytes, UopAnimationFiles,
    UopAnimations, UopFrame,
};
pub use animdata::{AnimData, AnimDataContents, AnimDataFile, AnimDataRecord};
pub use art::{Art, ArtFiles, ArtSet, ItemArt, ItemRuns, LandArt, Run};
pub use colours::{
    Hues, HuesContents, HuesFile, RadarColours, RadarColoursContents, RadarColoursFile,
    rgb555_to_rgb8,
};
pub use error::AnimProblem;
pub use error::{
    ArgumentProblem, BwtProblem, ChunkProblem, DataError, DiffProblem, Error, ErrorKind,
    IndexProblem, OverlapWith, PictureProblem, Result, UopEntryProblem, UopTableProblem,
    WriteProblem,
};
pub use facet::diff::{DiffIndex, MapPatch, PatchIndex, StaticsPatch};
pub use facet::map::{Map, MapSize};
pub use facet::map_uop::MapChunk;
pub use facet::statics::{StaticFormat, StaticSlice, Statics};
#[cfg(feature = "write")]
pub use facet::write::write_map_uop;
pub use facet::{
    DiffData, DiffPaths, Facet, FacetBytes, FacetData, FacetFiles, FacetOptions, FacetPaths,
    FacetSet, MapFormat,
};
// gamedata-io's items, the same set in mul-core, wap-core and mni-core (docs/naming.md).
pub use gamedata_io::{
    Access, Category, CodePage, FileData, FileError, FileOptions, FileSet, Format, FormatError,
    FormatOptions, InflateError, LimitError, Limits, MapOptions, Owned, OwnedSet, Problems,
    ReadError, decode, field_text,
};
pub use gump::def::{GumpBorrow, GumpDef};
pub use gump::{DecodedGump, Gump, GumpFiles, GumpRun, GumpRuns, GumpSet, GumpStream, Gumps};
pub use multi::{MultiFiles, MultiFormat, MultiSet, MultiSlice, Multis};
pub use picture::{ArtFormat, PictureData, PicturePaths, UopIndex, UopPictures};
pub use texmap::def::{TexTerrDef, TexmapRedirect};
pub use texmap::{Texmap, TexmapFiles, TexmapSet, Texmaps};
pub use tiledata::{
    ItemTile, LandTile, TileData, TileDataContents, TileDataFile, TileDataLayout, TileFlags,
};
pub use uop::{Compression, Uop, UopContents, UopEntry, UopFile, name_hash};
pub use verdata::{Verdata, VerdataContents, VerdataEntry, VerdataFile};

/// This crate's README (its package page): its Rust examples compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
