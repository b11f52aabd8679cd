//! The crate's errors, gamedata-io's family: [`ErrorKind`], a small `Copy` value saying what
//! is wrong in the bytes (offsets and counts as numbers); [`DataError`], which adds where it
//! was found (the group file, the entry and its slot); and [`Error`], which also holds
//! file-system errors.

use gamedata_io::{FormatError, ReadError, latin1};

use crate::raw::GROUP_NAME_LEN;

/// Result alias with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong opening Cosmo data from a path: a file that cannot be had
/// ([`Error::File`](FormatError::File)), or bytes that are not what the format allows
/// ([`Error::Data`](FormatError::Data), a [`DataError`] with where they are). See
/// [`FormatError`] for its methods.
///
/// `Display` is one sentence: "in entry TILES.MNI (slot 1) of COSMO1.STN: TILES.MNI is 100
/// bytes, not a multiple of its 32-byte record". A file-system error keeps the operating
/// system's error as its [`source`](std::error::Error::source), so print the whole chain
/// with `{:#}` under anyhow, or walk `source()`. The format facts are in
/// `docs/formats/cosmo.md`.
pub type Error = FormatError<ErrorKind>;

/// Bytes that are not what the format allows, with where they are (its `file`, `entry` and
/// `slot`, each when known): what views, parsers and writers return (they touch no file
/// system); `?` turns it into an [`Error`].
pub type DataError = gamedata_io::DataError<ErrorKind>;

impl From<ErrorKind> for DataError {
    fn from(kind: ErrorKind) -> Self {
        gamedata_io::DataError::new(kind)
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Self {
        FormatError::data(kind)
    }
}

/// Messages name a group file as "in group file COSMO1.STN: ..."; a name looked up and not
/// found reads "no entry named "A9.MNI" in COSMO1.STN or COSMO1.VOL".
impl gamedata_io::Kind for ErrorKind {
    fn file_prefix(&self) -> &'static str {
        "in group file "
    }

    fn is_missing_entry(&self) -> bool {
        matches!(self, ErrorKind::EntryNotFound)
    }

    /// Write problems are [`Category::Write`](gamedata_io::Category::Write); every other
    /// kind (an entry not found included: the files lack what the game needs) is data.
    fn category(&self) -> gamedata_io::Category {
        match self {
            ErrorKind::Write(_) => gamedata_io::Category::Write,
            _ => gamedata_io::Category::Data,
        }
    }
}

/// An [`ErrorKind::EntryNotFound`] for `name` looked up in `place`.
pub(crate) fn not_found(name: &str, place: &str) -> DataError {
    DataError::missing_entry(ErrorKind::EntryNotFound, name, place)
}

/// A [`ErrorKind::TooShort`] for `what` from a reader error: `found` is what the data holds
/// from the read's start, `expected` what the read needed.
pub(crate) fn too_short(what: &'static str) -> impl Fn(ReadError) -> DataError {
    move |e| {
        ErrorKind::TooShort {
            what,
            found: usize::try_from(e.len.saturating_sub(e.offset)).unwrap_or(usize::MAX),
            expected: usize::try_from(e.size).unwrap_or(usize::MAX),
        }
        .into()
    }
}

/// What is wrong in Cosmo data: numbers only, `Copy`, comparable. Each variant says what was
/// read, where (slot, byte offset), what was found and what was expected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum ErrorKind {
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
        "group entry {:?} (slot {slot}) spans bytes {offset}..{end}, expected within \
         {data_start}..{file_len} (the data area of the {file_len}-byte file)",
        latin1(gamedata_io::field_text(name))
    )]
    EntryOutOfBounds {
        /// Entry name as stored (NUL-padded).
        name: [u8; GROUP_NAME_LEN],
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

    /// A group file entry whose bytes overlap those of an entry that is read.
    #[error(
        "group entry {:?} (slot {slot}): its bytes overlap slot {other}'s, which is read instead",
        latin1(gamedata_io::field_text(name))
    )]
    EntryOverlap {
        /// Entry name as stored (NUL-padded).
        name: [u8; GROUP_NAME_LEN],
        /// Directory slot, from 0.
        slot: usize,
        /// The slot whose bytes it overlaps.
        other: usize,
    },

    /// No entry has the name looked up (compared case-insensitively); the name and the
    /// files searched are the error's `entry` and `file`.
    #[error("no entry of that name")]
    EntryNotFound,

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

    /// ACTRINFO.MNI's lookup table of sprite types is not one the format allows.
    #[error("ACTRINFO.MNI: {0}")]
    SpriteTable(SpriteTableProblem),

    /// A sprite type past the end of ACTRINFO.MNI's lookup table.
    #[error("sprite type {sprite} is past the end of ACTRINFO.MNI ({count} sprite types)")]
    SpriteIndex {
        /// Sprite type asked for.
        sprite: u16,
        /// Sprite types in the table.
        count: u16,
    },

    /// A frame past the last frame of its sprite type.
    #[error("sprite type {sprite} has {count} frames, no frame {frame}")]
    FrameIndex {
        /// Sprite type.
        sprite: u16,
        /// Frame asked for, from 0.
        frame: u16,
        /// Frames the sprite type has.
        count: u16,
    },

    /// A frame's tiles do not lie inside ACTORS.MNI, or span two of its 65,535-byte segments.
    #[error(
        "frame {frame} of sprite type {sprite} ({width} x {height} tiles at segment {segment} \
         offset {offset}) spans bytes {start}..{end} of ACTORS.MNI, expected within one \
         65,535-byte segment and within the {file_len}-byte file"
    )]
    FrameData {
        /// Sprite type.
        sprite: u16,
        /// Frame, from 0.
        frame: u16,
        /// Width in tiles.
        width: u16,
        /// Height in tiles.
        height: u16,
        /// Stored segment.
        segment: u16,
        /// Stored offset inside the segment, in bytes.
        offset: u16,
        /// First byte in ACTORS.MNI (segment * 65,535 + offset).
        start: u64,
        /// One past the last byte (start + width * height * 40).
        end: u64,
        /// Length of ACTORS.MNI in bytes.
        file_len: usize,
    },

    /// A frame's tiles overlap those of another frame, which is read instead (the game's
    /// frames each have tiles of their own).
    #[error(
        "frame {frame} of sprite type {sprite}: its tiles (bytes {start}..{end} of ACTORS.MNI) \
         overlap frame record {other}'s, which is read instead"
    )]
    FrameOverlap {
        /// Sprite type.
        sprite: u16,
        /// Frame number within the type.
        frame: u16,
        /// First byte of its tiles in ACTORS.MNI.
        start: u64,
        /// Byte after its last tile.
        end: u64,
        /// The frame record (from 0, in ACTRINFO.MNI's order) whose tiles it overlaps.
        other: usize,
    },

    /// A backdrop number with no backdrop name in the game's table.
    #[error("backdrop number {found}, expected 0 to {}", count.saturating_sub(1))]
    BackdropNumber {
        /// Number from the map header (bits 0-4 of its flags).
        found: u8,
        /// Backdrops the game names.
        count: usize,
    },

    /// A writer was given something the format cannot store. Its `Serialize` form is the
    /// problem's own (`{"TooManyEntries": {...}}`), the family being
    /// [`Category::Write`](gamedata_io::Category::Write).
    #[error("cannot write it: {0}")]
    #[cfg_attr(feature = "serde", serde(untagged))]
    Write(WriteProblem),
}

/// Why a map's actor list was refused (see [`ErrorKind::ActorList`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
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

/// Why ACTRINFO.MNI's lookup table was refused (see [`ErrorKind::SpriteTable`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum SpriteTableProblem {
    /// The file is shorter than one word, or its first word (the number of sprite types) is 0.
    #[error(
        "the file is {len} bytes and its first word is 0 or missing, expected the number of sprite types"
    )]
    Empty {
        /// File length in bytes.
        len: usize,
    },
    /// The lookup table runs past the end of the file.
    #[error("its lookup table of {count} words needs {needed} bytes, but the file is {len}")]
    TablePastEnd {
        /// Sprite types (the first word).
        count: u16,
        /// Bytes the table needs.
        needed: usize,
        /// File length in bytes.
        len: usize,
    },
    /// The frame records after the table are not a whole number of 8-byte records.
    #[error("the {bytes} bytes of frame records after the lookup table are not a multiple of 8")]
    FrameArea {
        /// Bytes after the lookup table.
        bytes: usize,
    },
    /// A sprite type's first frame is not a frame record of the file.
    #[error(
        "sprite type {sprite} starts at word {found}, expected a frame record (every 4th \
         word) from word {first} to word {last}"
    )]
    FrameStart {
        /// Sprite type.
        sprite: u16,
        /// Stored offset in words.
        found: u16,
        /// First word of the frame records (the number of sprite types).
        first: u16,
        /// Word at the end of the file.
        last: usize,
    },
    /// A sprite type starts before the type before it (the game's files list them in
    /// order, and a type's frames run to the next type's start).
    #[error("sprite type {sprite} starts at word {found}, before type {}'s word {previous}", sprite.saturating_sub(1))]
    OutOfOrder {
        /// Sprite type.
        sprite: u16,
        /// Its stored offset in words.
        found: u16,
        /// The type before it's offset in words.
        previous: u16,
    },
}

/// What a writer cannot store (see [`ErrorKind::Write`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum WriteProblem {
    /// More entries than a directory's 200 slots.
    #[error("a group file of {count} entries, expected at most 200")]
    TooManyEntries {
        /// Entries given.
        count: usize,
    },
    /// A group file past the 4 GiB its u32 offsets reach.
    #[error("a group file of {bytes} bytes, expected at most 4 GiB (u32 offsets)")]
    TooLarge {
        /// Bytes it would hold.
        bytes: u64,
    },
    /// An entry name that is not 1 to 12 ASCII bytes with no NUL.
    #[error(
        "entry {index}'s name of {len} bytes, expected 1 to 12 ASCII bytes with no NUL (the \
         ASCII count slot after the last entry is a name too)"
    )]
    EntryName {
        /// The entry's position in the list, from 0.
        index: usize,
        /// The name's length in bytes.
        len: usize,
    },
    /// A map width the game cannot hold.
    #[error("a map {width} tiles wide, expected a power of two from 32 to 2048")]
    MapWidth {
        /// The width given.
        width: u16,
    },
    /// More actors than the u16 word count of the actor list can hold.
    #[error("a map with {count} actors, expected at most 21845 (65535 words)")]
    TooManyActors {
        /// Actors given.
        count: usize,
    },
    /// More tile values than a map holds.
    #[error("a map with {count} tile values, expected at most 32764")]
    TooManyTiles {
        /// Values given.
        count: usize,
    },
}
