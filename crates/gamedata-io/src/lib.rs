//! What the gamedata format crates (`mni-core`, `mul-core`, `wap-core`) share.
//!
//! | item | what |
//! |---|---|
//! | [`FormatError`], [`DataError`], [`Category`] | the format crates' errors: a file-system error or bad bytes (what functions that take a path return); bad bytes alone, a small `Copy` kind with the file's name (what views return); the family of each (file, data, limit, argument, write), as image-tiff separates them |
//! | [`FileData`] | the owner of a file's bytes: a memory map ([`FileData::map`]), a buffer read ([`FileData::read`]), or bytes the caller holds (`Vec`, `Arc<[u8]>`, `&'static [u8]`, any `AsRef<[u8]>` owner); views borrow from it |
//! | [`Owned`], [`OwnedSet`], [`Format`], [`FileSet`] | one owner for every format: a format implements [`Format`] (or [`FileSet`] for several files) once, and gets `open`, `open_with`, `map`, `map_with`, `from_data` and `view` |
//! | [`FileOptions`], [`FormatOptions`] | the options every format shares: [`Limits`] and [`MapOptions`] |
//! | [`MapOptions`] | pre-faulting and access advice for a mapping that will be scanned whole |
//! | [`find_file_ignoring_case`] | a file in a folder whatever the letter case of its name (`MAP0.MUL`, `map0.mul`) |
//! | [`Bytes`] | a cursor over `&'data [u8]` that reads zerocopy records in place and never panics |
//! | [`Limits`] | caps on what a file may make us decode or allocate |
//! | [`Problems`] | a capped list of problems found: the first 100 kept, all counted |
//! | [`PreviewBytes`], [`PreviewTable`] | a bounded `Debug` of a byte view or a table: its length and first items |
//! | [`Overlaps`] | the entries of a table whose byte ranges overlap others', left out so that a scan reads each byte once |
//! | [`inflate_exact`] | a zlib stream decoded to exactly its declared size, within [`Limits`] |
//! | [`records`], [`whole_records`] | a whole file as a table of fixed-size records, cast in place |
//! | [`field_text`], [`latin1`], [`decode`] | fixed-size text fields: trimmed at the first NUL, decoded as Latin-1 or a Windows [`CodePage`] |
//! | [`record!`] | an on-disk record declared once: a `#[repr(C)]` alignment-1 struct that casts in place, with its size asserted at compile time |
//!
//! # One shape for every format
//!
//! A format is written once as a [`Format`] (one file) or a [`FileSet`] (files found
//! together in a folder), and the owners [`Owned<F>`](Owned) and [`OwnedSet<S>`](OwnedSet)
//! give it every constructor:
//!
//! - `open(path)` ([`Owned::open`]) reads the file into memory; for a set, `open(dir, id)`
//!   ([`OwnedSet::open`]) finds the folder's files in any letter case and reads them.
//! - `unsafe fn map(path)` ([`Owned::map`], [`OwnedSet::map`]) memory-maps instead (see
//!   "Memory maps and unsafe code" below).
//! - `open_with` and `map_with` take the format's options: [`FileOptions`], the shared part
//!   (the [`Limits`] and the [`MapOptions`] advice), which most formats use under their own
//!   name (`wap_core::LevelOptions`, `mni_core::EpisodeOptions`), or a struct of the
//!   format's own that adds its own caps to it (`mul_core::FacetOptions`,
//!   `wap_core::RezOptions` with the longest path in an archive). [`Limits`] keeps the caps
//!   every format shares.
//! - `from_data` ([`Owned::from_data`], [`OwnedSet::from_data`]) checks bytes the caller
//!   already owns: anything `Into<`[`FileData`]`>`, that is a `Vec<u8>`, a `Box<[u8]>`, an
//!   `Arc<[u8]>` (a slice of an archive, a buffer another owner shares), a `&'static [u8]`,
//!   or any `AsRef<[u8]> + Send + Sync + 'static` through [`FileData::from_owner`]. Nothing
//!   is copied where the format is stored uncompressed; compressed WWD levels and map UOPs
//!   open this way too, decoded within the options' [`Limits`].
//! - `view()` ([`Owned::view`]) gives the format's borrowed view; every view also has a
//!   `parse(&[u8], ..)` of its own over any borrowed bytes.
//!
//! Paths are anything `AsRef<Path>`.
//!
//! The options structs and [`Limits`] are `#[non_exhaustive]`: build them from `Default`
//! and set fields (`let mut o = FileOptions::default(); o.limits.max_decoded_bytes = n;`),
//! or with their `with_` methods, so that a new cap or option breaks no caller. Each format
//! crate re-exports the same set of items from here ([`FileData`], [`FileError`],
//! [`Limits`], [`LimitError`], [`ReadError`], [`InflateError`], [`Owned`], [`OwnedSet`] ...),
//! so a program needs no dependency on this crate to use one.
//!
//! # One naming rule
//!
//! The three format crates name what they give by one rule (the repository's
//! `docs/naming.md` has the table of every owner and view):
//!
//! - a view is the format's name with the data's lifetime (`Facet<'data>`, `Art<'data>`,
//!   `Level<'data>`, `Rez<'data>`, `Episode<'data>`);
//! - the owner of one file is `<View>File`, of several files `<Stem>Files`
//!   (`wap_core::LevelFile` and `RezFile`; `mul_core::FacetFiles`, `TileDataFile`, `ArtFiles`,
//!   `UopFile` ...; `mni_core::EpisodeFiles`): an [`Owned`] of the file's checked
//!   `<View>Contents` or an [`OwnedSet`] of a `<Stem>Set`; its one accessor, `view()`, gives
//!   the view;
//! - `Bytes` names only something borrowed (`mul_core::FacetBytes<'data>`), `Data` owned bytes
//!   ([`FileData`], `mul_core::FacetData`);
//! - a lookup by id or name that can fail returns `Result<Option<T>, _>` (`Ok(None)`: not
//!   there; `Err`: there but bad), one that cannot (its table was checked by `parse`)
//!   `Option<T>`; an iterator of fallible items yields `Result<T, _>`;
//! - one integer type for each kind of id across a crate.
//!
//! # Errors
//!
//! Errors say what, where (file, entry, block, offset), what was found and what was
//! expected, and the three format crates share one family:
//!
//! - Views, parsers and writers touch no file system and return the crate's `DataError`
//!   ([`DataError<K>`](DataError)): its small `Copy` error kind `K` (offsets and counts as
//!   numbers), the file's name and, in a group file, the entry and its slot. There is no
//!   I/O variant to match.
//! - Functions that take a path return the crate's `Error` ([`FormatError<K>`](FormatError)):
//!   [`FormatError::File`] (a [`FileError`], the path with the operating system's error as
//!   its `source()`) or [`FormatError::Data`]; `?` turns a `DataError` into it. `Display` is
//!   one sentence; print the whole chain with `{:#}` under anyhow, as the `gamedata` command
//!   does.
//! - [`FormatError::category`] and [`DataError::category`] give the family, a [`Category`]
//!   (as image-tiff separates its errors): [`Category::File`], [`Category::Data`] (bad
//!   bytes), [`Category::Limit`] (a size past the caller's [`Limits`]),
//!   [`Category::Argument`] (a value no file could make right, such as a map size of 0 or a
//!   decode buffer of the wrong length: each crate's `ErrorKind::Argument` with its
//!   `ArgumentProblem`) or [`Category::Write`] (a value a writer cannot store:
//!   `ErrorKind::Write` with its `WriteProblem`).
//! - With the `serde` feature (each format crate's `serde` turns it on), `DataError::fields`
//!   gives the kind's variant name and fields as data, taken from its
//!   `Serialize` form, never its `Debug` text (`kind_fields`); an argument or write
//!   problem goes by its own name ("SizeText"). This is what the command's `--json` errors
//!   and the Python exceptions carry.
//!
//! Errors are small: [`ReadError`] and [`LimitError`] are `Copy` and carry numbers only, so
//! that each format crate maps them into its own error with the context it knows (file,
//! entry, block); [`FileError`] names the path. Each format crate's tests assert the sizes
//! of its `ErrorKind`, `DataError` and `Error` (`error_sizes` in `tests/it/main.rs`).
//!
//! # Memory maps and unsafe code
//!
//! Mapping a file is the only `unsafe` in the libraries, and it is written here once. The
//! map itself is made behind [`FileData::map`] and [`FileData::map_with`], whose `# Safety`
//! section says what the caller upholds (nothing may modify or truncate the file while it
//! is mapped: another process that truncates it makes the next access raise SIGBUS). The
//! owners' [`Owned::map`], [`Owned::map_with`], [`OwnedSet::map`] and [`OwnedSet::map_with`]
//! are `unsafe fn`s with the same contract, each a thin call of that mapping; they are the
//! format crates' mapping entry points (`FacetFiles::map`, `LevelFile::map`,
//! `EpisodeFiles::map`, the single files' `map`, and their `map_with`). This crate denies
//! `unsafe_code` (the workspace's lint) and allows it on those functions alone; the format
//! crates are `#![deny(unsafe_code)]` with no exception, and the `gamedata` command and the
//! Python package map only through these entry points. memmap2's types appear in no public
//! signature: [`FileData::is_mapped`] says which kind of owner a [`FileData`] is.
//!
//! # Robustness
//!
//! The contract every format crate (mni-core, mul-core, wap-core) and the renderer keep,
//! written here once; each crate's front page says what it means there (what bounds its
//! memory, what makes its work linear). For any bytes:
//!
//! - Every call returns `Ok` or an error ([`FormatError`], [`DataError`]): no panic, abort,
//!   hang or overflow, in debug and release builds.
//! - Memory stays within the input's size plus a small constant plus what the caller's
//!   [`Limits`] let the call decode; nothing is allocated from a size read in a file before
//!   it has passed them. Lists of problems keep the first 100 and count the rest
//!   ([`Problems`]).
//! - Work is linear in the input's length: table entries whose bytes overlap or repeat
//!   others' are errors and left out ([`Overlaps`]), so a scan reads each byte once; a bad
//!   entry or block does not hide the good ones.
//! - `Debug` of every type prints lengths, counts and the first few items, never a buffer
//!   ([`PreviewBytes`], [`PreviewTable`]).
//! - Arithmetic on values read from a file is checked or saturating: clippy's
//!   `arithmetic_side_effects` is denied in each crate, and the few allowed places say why
//!   the value is bounded.
//! - The views are `Send + Sync`: any number of threads may read one at once.
//! - Every parser entry point is a fuzz target (`fuzz/`, run by `fuzz/campaign`) through the
//!   `gamedata-exercise` crate, which holds the properties the targets check, out of the
//!   libraries; `cargo test` replays what the fuzzer found (`tests/fuzz-cases/`).
//!   `docs/robustness.md` has the contract, the table of what bounds each index with the
//!   crafted-file test that holds it, and the figures; `docs/testing.md` how the tests and
//!   fuzzing run.
//!
//! Here: every read goes through checked arithmetic and `get` ([`Bytes`]); [`inflate_exact`]
//! allocates once, after the declared size has passed the caller's [`Limits`] and the
//! deflate bound ([`MAX_INFLATE_RATIO`]). The `io_*` fuzz targets' properties are
//! `gamedata_exercise::io`.
//!
//! # Example
//!
//! ```no_run
//! use gamedata_io::{Bytes, FileData, find_file_ignoring_case};
//! use zerocopy::little_endian::U32;
//!
//! // A file found in any letter case, read into memory (FileData::map maps it instead).
//! let path = find_file_ignoring_case("path/to/client", "staidx0.mul")?;
//! let data = FileData::read(&path)?;
//! // Its first 12-byte index record: three little-endian words, cast in place.
//! let mut bytes = Bytes::new(&data);
//! let [offset, length, _extra] = *bytes.read::<[U32; 3]>()?;
//! println!("block 0: {} bytes at {}", length.get(), offset.get());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The reader never panics:
//!
//! ```
//! use gamedata_io::Bytes;
//! use zerocopy::little_endian::U16;
//!
//! // Two little-endian u16 words, then three bytes.
//! let data = [0x34, 0x12, 0x02, 0x00, 7, 8, 9];
//! let mut bytes = Bytes::new(&data);
//! let first = bytes.read::<U16>()?;
//! assert_eq!(first.get(), 0x1234);
//! let count = bytes.read::<U16>()?.get();
//! let tail = bytes.read_bytes(usize::from(count))?;
//! assert_eq!(tail, [7, 8]);
//! // Asking for more than is left is an error, never a panic.
//! let err = bytes.read_slice::<U16>(4).unwrap_err();
//! assert_eq!((err.offset, err.size, err.len), (6, 8, 7));
//! # Ok::<(), gamedata_io::ReadError>(())
//! ```

#![deny(clippy::arithmetic_side_effects)]

mod bytes;
mod error;
mod file;
mod find;
mod inflate;
mod limits;
mod overlaps;
mod owner;
mod preview;
mod problems;
mod records;
mod text;

pub use bytes::{Bytes, ReadError};
pub use error::{Category, DataError, EntryName, FormatError, Kind};
#[cfg(feature = "serde")]
pub use error::{KindFields, kind_fields};
pub use file::{Access, FileData, FileError, MapOptions};
pub use find::{file_name, find_file_ignoring_case, find_optional, regular_file_len};
pub use inflate::{
    InflateCounts, InflateError, Inflated, MAX_INFLATE_RATIO, SharedStream, StreamEnd,
    inflate_counts, inflate_exact, inflate_shared,
};
pub use limits::{LimitError, Limits};
pub use overlaps::Overlaps;
pub use owner::{FileOptions, FileSet, Format, FormatOptions, Owned, OwnedSet};
pub use preview::{PREVIEW_ITEMS, PreviewBytes, PreviewTable};
pub use problems::Problems;
pub use records::{RecordLengthError, records, whole_records};
pub use text::{CodePage, decode, field_text, latin1, printable, printable_lines};

/// zerocopy, re-exported for [`record!`]'s derives.
#[doc(hidden)]
pub use zerocopy;

/// Declares an on-disk record: a `#[repr(C)]` struct of alignment 1 that casts in place at
/// any byte offset (zerocopy's `FromBytes`, `IntoBytes`, `KnownLayout`, `Immutable`,
/// `Unaligned`, with `Clone`, `Copy`, `Debug`, `PartialEq`, `Eq`), and a compile-time
/// assertion of its size in bytes. Fields are bytes, byte arrays and zerocopy's
/// little-endian integers, so the byte order is the file's on every host. The crate using
/// it needs zerocopy as a dependency (the derives name it).
///
/// ```
/// use zerocopy::little_endian::{U16, U32};
///
/// gamedata_io::record! {
///     /// A 20-byte group file directory slot.
///     pub struct Slot {
///         /// Name, NUL-padded.
///         pub name: [u8; 12],
///         /// Offset in bytes.
///         pub offset: U32,
///         /// Size in bytes.
///         pub size: U32,
///     } = 20;
/// }
///
/// let bytes = [b'A', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 5, 0, 0, 0];
/// let slot = <Slot as zerocopy::FromBytes>::ref_from_bytes(&bytes[..]).unwrap();
/// assert_eq!((slot.offset.get(), slot.size.get()), (16, 5));
/// # let _ = U16::new(0);
/// ```
#[macro_export]
macro_rules! record {
    ($(#[$meta:meta])* $vis:vis struct $name:ident { $($body:tt)* } = $size:expr;) => {
        $(#[$meta])*
        #[repr(C)]
        #[derive(
            Clone,
            Copy,
            Debug,
            PartialEq,
            Eq,
            $crate::zerocopy::FromBytes,
            $crate::zerocopy::IntoBytes,
            $crate::zerocopy::KnownLayout,
            $crate::zerocopy::Immutable,
            $crate::zerocopy::Unaligned,
        )]
        $vis struct $name { $($body)* }
        const _: () = assert!(::core::mem::size_of::<$name>() == $size);
    };
}

/// This crate's README (its package page): its Rust examples compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
