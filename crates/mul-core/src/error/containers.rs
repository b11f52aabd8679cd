//! Problems of the containers: index entries, UOP tables and entries, map chunks, diff
//! lists, and what the writers cannot store.

use std::fmt;

use gamedata_io::{InflateError, LimitError, ReadError};

/// What is wrong with an index entry (see [`ErrorKind::IndexEntry`](super::ErrorKind::IndexEntry)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum IndexProblem {
    /// The data runs past the end of the data file.
    #[error("it runs past the end of the data")]
    PastEnd,
    /// The length is not a multiple of the record size.
    #[error("the length is not a multiple of the {record}-byte record")]
    NotWholeRecords {
        /// Record size in bytes.
        record: usize,
    },
    /// The bytes overlap another entry's, which is read instead (so that no byte of the
    /// data is read for two entries).
    #[error("its bytes overlap entry {other}'s, which is read instead")]
    Overlap {
        /// The entry whose bytes it overlaps.
        other: usize,
    },
}

/// What is wrong with a UOP table block (see [`ErrorKind::UopTable`](super::ErrorKind::UopTable)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum UopTableProblem {
    /// The block's offset is past what this machine can address.
    #[error("the offset is too large")]
    OffsetTooLarge,
    /// The block's 12-byte header does not fit in the file.
    #[error("its header does not fit: {0}")]
    Header(ReadError),
    /// The block's entries do not fit in the file.
    #[error("{count} entries of 34 bytes do not fit: {read}")]
    Entries {
        /// Entries the block declares.
        count: u32,
        /// The read that did not fit.
        read: ReadError,
    },
    /// The block (header and entries) overlaps the container's 28-byte header or a block
    /// read before, so its entries would be counted twice.
    #[error("bytes {start}..{end} overlap bytes {other_start}..{other_end} ({other})")]
    Overlap {
        /// Where the block starts.
        start: u64,
        /// Where its last entry ends.
        end: u64,
        /// Where the block it overlaps starts.
        other_start: u64,
        /// Where that block ends.
        other_end: u64,
        /// What that is: the container header or an earlier table block.
        other: OverlapWith,
    },
    /// The entries read so far pass the caller's limit.
    #[error(transparent)]
    Limit(LimitError),
}

/// What a UOP table block overlaps (see [`UopTableProblem::Overlap`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum OverlapWith {
    /// The container's 28-byte header.
    Header,
    /// The table block read as number `n` (from 0).
    Block(usize),
}

impl fmt::Display for OverlapWith {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OverlapWith::Header => f.write_str("the container header"),
            OverlapWith::Block(n) => write!(f, "table block {n}"),
        }
    }
}

/// What is wrong with a UOP entry (see [`ErrorKind::UopEntry`](super::ErrorKind::UopEntry)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum UopEntryProblem {
    /// The stored bytes lie outside the file.
    #[error(
        "its {len} bytes at offset {offset} (+{header_len} header) lie outside the \
         {file_len}-byte file"
    )]
    OutsideFile {
        /// Stored length.
        len: u32,
        /// Stored offset.
        offset: u64,
        /// Bytes of entry header before the data.
        header_len: u32,
        /// The container's length.
        file_len: u64,
    },
    /// The compression value is neither 0 (none) nor 1 (zlib).
    #[error("compression {0} is not known (0 none, 1 zlib)")]
    UnknownCompression(u16),
    /// The zlib stream cannot be decoded to the declared length.
    #[error(transparent)]
    Inflate(InflateError),
    /// Another entry has the same name hash (the client refuses the whole file).
    #[error("another entry has the same name hash")]
    SharedName,
    /// A gump entry stored in a form no reader takes (compression 2, or 4 and up), or a
    /// compressed one (1: zlib, 3: zlib then Mythic's BWT stage) whose bytes were asked for
    /// in place: those are read through [`Gumps::decoded`](crate::Gumps::decoded).
    #[error(
        "the picture is stored with compression {0}: in place only as is (0); gumps stored \
         with 1 (zlib) or 3 (zlib then BWT) are decoded (Gumps::decoded), others not read"
    )]
    PictureCompression(u16),
    /// A UOP gump's size (i32 width, i32 height before the data) is missing or not in 0 to
    /// 0xFFFF, as gumpidx.mul packs it.
    #[error(
        "the gump's size ({}, {}) is not two numbers from 0 to 65535 before its data",
        OrMissing(*width),
        OrMissing(*height)
    )]
    GumpSize {
        /// Width read (`None`: the entry is shorter than 8 bytes).
        width: Option<i32>,
        /// Height read.
        height: Option<i32>,
    },
}

/// A number read, or "missing" (in messages).
struct OrMissing(Option<i32>);

impl fmt::Display for OrMissing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(v) => write!(f, "{v}"),
            None => f.write_str("missing"),
        }
    }
}

/// What is wrong with a map chunk's size (see [`ErrorKind::ChunkSize`](super::ErrorKind::ChunkSize)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum ChunkProblem {
    /// Not a whole number of 196-byte blocks, empty, or more than 4,096 blocks.
    #[error("expected a whole number of 196-byte blocks, 1 to 4096 of them")]
    NotWholeBlocks,
    /// Shorter than 4,096 blocks but not the last chunk.
    #[error("expected 802816 (4096 blocks): only the last chunk may be shorter")]
    ShortNotLast,
}

/// Why a diff list entry is left out (see [`ErrorKind::DiffEntry`](super::ErrorKind::DiffEntry)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum DiffProblem {
    /// The data file has no record for this entry.
    #[error("block {block} has no record: the data holds {available}")]
    NoRecord {
        /// The block number listed.
        block: u32,
        /// Records the data file holds.
        available: usize,
    },
    /// The block number is past the largest map.
    #[error("block number {block} is past any map")]
    PastAnyMap {
        /// The block number listed.
        block: u32,
    },
    /// The record's bytes overlap those of another record the patch uses.
    #[error(
        "block {block}'s statics overlap those of stadifi entry {other}, which is used instead"
    )]
    Overlap {
        /// The block number listed.
        block: u32,
        /// The stadifi entry whose bytes it overlaps.
        other: usize,
    },
}

/// What a writer cannot store (see [`ErrorKind::Write`](super::ErrorKind::Write)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum WriteProblem {
    /// A picture that does not fit its number or its own size: a land tile that is not
    /// 1,012 pixels or past 0x3FFF, an item before 0x4000, of a side past 0x7FFF, whose
    /// pixels are not width x height, or whose rows pass the 16-bit row offsets' reach; a
    /// gump of a side of 0 or past 0x7FFF, or whose pixels are not width x height.
    #[error("entry {number}'s picture does not fit its number or its size")]
    Picture {
        /// The art number or gump id.
        number: usize,
    },
    /// A repeat of a number that is not an earlier one's.
    #[error("entry {number} repeats entry {earlier}, which is not before it")]
    Repeat {
        /// The art number or gump id.
        number: usize,
        /// The number it repeats.
        earlier: usize,
    },
    /// A texture map that is not 64 x 64 or 128 x 128 pixels.
    #[error("texture map {id} has {found} pixels, expected 4096 (64 x 64) or 16384 (128 x 128)")]
    TexmapPixels {
        /// The texture map's id.
        id: usize,
        /// Pixels given.
        found: usize,
    },
    /// A texture map repeating an id that is not an earlier one's.
    #[error("texture map {id} repeats texture map {earlier}, which is not before it")]
    TexmapRepeat {
        /// The texture map's id.
        id: usize,
        /// The id it repeats.
        earlier: usize,
    },
    /// A gump over the same bytes as an earlier one with another size, whose copy (the
    /// UOP form stores the size before the data) would take the copies of such gumps past
    /// [`SIZE_COPIES_BUDGET`](crate::picture::convert::SIZE_COPIES_BUDGET) bytes.
    #[error(
        "gump {number} repeats an earlier gump's bytes under another size, and its copy would \
         take such copies past {budget} bytes"
    )]
    SizeCopies {
        /// The gump id.
        number: usize,
        /// The bytes such copies may take.
        budget: usize,
    },
    /// A file past what its 32-bit offsets reach.
    #[error("{what} would be {found} bytes, past the 4 GiB its 32-bit offsets reach")]
    TooLarge {
        /// The file.
        what: &'static str,
        /// Its length.
        found: u64,
    },
}
