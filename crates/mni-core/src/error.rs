//! The crate's one error type.

use gamedata_io::{FileError, ReadError};

/// Result alias with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong reading or writing Cosmo data.
///
/// Each variant says what was read, where (entry, slot, byte offset), what was found and what
/// was expected. Errors met while reading an entry through an [`Episode`](crate::Episode)
/// are wrapped in [`Error::InEntry`] or [`Error::InGroupFile`], which name the group file
/// and slot; the cause is their [`source`](std::error::Error::source). The format facts are
/// in `docs/formats/cosmo.md`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file or entry is shorter than a fixed-size structure it must hold.
    #[error("{what} is {found} bytes, expected at least {expected}")]
    TooShort {
        /// What was being read ("group file directory", "map header" ...).
        what: &'static str,
        /// Bytes available.
        found: usize,
        /// Bytes needed.
        expected: usize,
    },

    /// A file or entry whose size is fixed has another size.
    #[error("{what} is {found} bytes, expected exactly {expected}")]
    WrongSize {
        /// What was being read.
        what: &'static str,
        /// Bytes found.
        found: usize,
        /// Bytes expected.
        expected: usize,
    },

    /// A file made of fixed-size records has a length that is not a whole number of them.
    #[error("{what} is {found} bytes, not a multiple of its {record}-byte record")]
    RecordMultiple {
        /// What was being read ("TILES.MNI" ...).
        what: &'static str,
        /// Bytes found.
        found: usize,
        /// Record size in bytes.
        record: usize,
    },

    /// A group file entry's data does not lie inside the file.
    #[error(
        "group entry {name:?} (slot {slot}) spans bytes {offset}..{end}, expected within \
         {data_start}..{file_len} (the data area of the {file_len}-byte file)"
    )]
    EntryOutOfBounds {
        /// Entry name as stored (lossy).
        name: String,
        /// Directory slot, from 0.
        slot: usize,
        /// Stored offset in bytes.
        offset: u32,
        /// Offset + size in bytes (computed in 64 bits, never wraps).
        end: u64,
        /// First byte after the directory (4,000).
        data_start: usize,
        /// Length of the group file in bytes.
        file_len: usize,
    },

    /// No entry with this name (compared case-insensitively).
    #[error("no entry named {name:?} in {place}")]
    EntryNotFound {
        /// The name looked up.
        name: String,
        /// Where it was looked up ("the group file", "COSMO1.STN or COSMO1.VOL" ...).
        place: String,
    },

    /// A map's width is not one the game can hold.
    #[error(
        "map width is {found} {}, expected a power of two from 32 to 2048",
        if *found == 1 { "tile" } else { "tiles" }
    )]
    MapWidth {
        /// Width read from the header, in tiles.
        found: u16,
    },

    /// A map's actor list is not whole actors or runs past the end of the file.
    #[error("map actor list is {words} words ({bytes} bytes from byte 6), but {problem}")]
    ActorList {
        /// Stored list length in 16-bit words.
        words: u16,
        /// Stored list length in bytes.
        bytes: usize,
        /// What is wrong with it.
        problem: ActorListProblem,
    },

    /// A tile image index has no image in the tile file.
    #[error("{what} index {index} is past the end of the table ({count} tiles)")]
    TileIndex {
        /// Which table ("solid tile", "masked tile").
        what: &'static str,
        /// Index asked for.
        index: usize,
        /// Tiles in the table.
        count: usize,
    },

    /// A writer was given something the format cannot store.
    #[error("cannot write {what}: {found}, expected {expected}")]
    Unwritable {
        /// What was being written.
        what: &'static str,
        /// What was given.
        found: String,
        /// What the format allows.
        expected: String,
    },

    /// A file or folder could not be found, read or mapped.
    #[error(transparent)]
    File(#[from] FileError),

    /// An error in a whole group file (its directory, or an entry's range), naming the file.
    #[error("in group file {file}")]
    InGroupFile {
        /// The group file's name ("COSMO1.STN", or "STN" / "VOL" when parsed from bytes).
        file: String,
        /// What went wrong.
        #[source]
        source: Box<Error>,
    },

    /// An error in the data of one entry, naming the group file and the slot.
    #[error("in entry {name} (slot {slot}) of {file}")]
    InEntry {
        /// The group file's name.
        file: String,
        /// Directory slot, from 0.
        slot: usize,
        /// The entry's name as stored (lossy).
        name: String,
        /// What went wrong.
        #[source]
        source: Box<Error>,
    },
}

impl Error {
    /// The innermost error: the cause under any [`Error::InGroupFile`] / [`Error::InEntry`].
    pub fn root(&self) -> &Error {
        match self {
            Error::InGroupFile { source, .. } | Error::InEntry { source, .. } => source.root(),
            other => other,
        }
    }

    /// A [`Error::TooShort`] for `what` from a reader error: `found` is what the data holds
    /// from the read's start, `expected` what the read needed.
    pub(crate) fn too_short(what: &'static str) -> impl Fn(ReadError) -> Error {
        move |e| Error::TooShort {
            what,
            found: usize::try_from(e.len.saturating_sub(e.offset)).unwrap_or(usize::MAX),
            expected: usize::try_from(e.size).unwrap_or(usize::MAX),
        }
    }
}

/// Why a map's actor list was refused (see [`Error::ActorList`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ActorListProblem {
    /// The word count is not a multiple of 3 (an actor is three words: type, x, y).
    #[error("expected a multiple of 3 words (type, x, y per actor)")]
    NotWholeActors,
    /// The list runs past the end of the file.
    #[error("the file has only {available} bytes after the header")]
    PastEnd {
        /// Bytes after the 6-byte header.
        available: usize,
    },
}
