//! The crate's one error type.

use std::path::PathBuf;

/// Result alias with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong reading or writing Cosmo data.
///
/// Each variant says what was read, where (entry, slot, byte offset), what was found and what
/// was expected. Format facts come from `../shared/docs/formats.md` section 3.
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
    #[error("map width is {found} tiles, expected a power of two from 32 to 2048")]
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

    /// A game folder lacks an episode's group file.
    #[error("no {name} in {} (looked for any case of the name)", dir.display())]
    MissingFile {
        /// The folder searched.
        dir: PathBuf,
        /// The file name looked for.
        name: String,
    },

    /// Reading or mapping a file failed.
    #[error("cannot read {}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
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
