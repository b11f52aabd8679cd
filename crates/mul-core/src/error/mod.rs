//! The crate's errors: [`ErrorKind`], a small `Copy` value saying what is wrong in the
//! bytes (offsets and counts as numbers); [`DataError`], which adds the file it was found in
//! (what views and parsers return: they touch no file system); and [`Error`], which also
//! holds file-system errors (what the functions that take a path return).

use std::fmt;

use gamedata_io::{FormatError, LimitError};

use crate::facet::map::MapSize;
use crate::raw::MAP_BLOCK_LEN;

/// Result alias with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong opening files from a path: a file that cannot be had
/// ([`Error::File`]), or bytes that are not what the format allows ([`Error::Data`], a
/// [`DataError`]). See [`FormatError`] for its methods ([`kind`](FormatError::kind),
/// [`file`](FormatError::file)) and how to print it. Format facts: `docs/formats/uo.md`.
pub type Error = FormatError<ErrorKind>;

/// Bytes that are not what the format allows: an [`ErrorKind`] and the file's name when
/// known. Views and parsers return it; `?` turns it into an [`Error`].
pub type DataError = gamedata_io::DataError<ErrorKind>;

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Self {
        FormatError::data(kind)
    }
}

impl From<ErrorKind> for DataError {
    fn from(kind: ErrorKind) -> Self {
        gamedata_io::DataError::new(kind)
    }
}

impl From<PictureProblem> for DataError {
    fn from(problem: PictureProblem) -> Self {
        gamedata_io::DataError::new(ErrorKind::Picture(problem))
    }
}

impl From<AnimProblem> for DataError {
    fn from(problem: AnimProblem) -> Self {
        gamedata_io::DataError::new(ErrorKind::Anim(problem))
    }
}

impl From<BwtProblem> for DataError {
    fn from(problem: BwtProblem) -> Self {
        gamedata_io::DataError::new(ErrorKind::Bwt(problem))
    }
}

impl From<ArgumentProblem> for DataError {
    fn from(problem: ArgumentProblem) -> Self {
        gamedata_io::DataError::new(ErrorKind::Argument(problem))
    }
}

/// What is wrong in a file's bytes: numbers only, `Copy`, comparable. Each variant says what
/// was read, where (block, entry or byte offset), what was found and what was expected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum ErrorKind {
    /// A map's blocks do not fill the size it is read at.
    #[error(
        "the {what} holds {found} bytes of blocks, expected {} ({size}, 196 bytes a block) or \
         {} with one padding block",
        size.map_len(),
        size.map_len().saturating_add(MAP_BLOCK_LEN as u64)
    )]
    MapLength {
        /// "map" or "map UOP".
        what: &'static str,
        /// Bytes of blocks found.
        found: u64,
        /// The size asked for.
        size: MapSize,
    },

    /// A file made of fixed-size records is not a whole number of them.
    #[error("{what} is {found} bytes, not a whole number of its {record}-byte records")]
    RecordMultiple {
        /// Which file ("radarcol.mul", "staidx", "mapdifl" ...).
        what: &'static str,
        /// Its length in bytes.
        found: u64,
        /// The record's size in bytes.
        record: usize,
    },

    /// radarcol.mul is shorter than its 0x4000 land colours.
    #[error(
        "radarcol.mul is {found} bytes, expected at least 32768 (the 16384 land colours) and \
         then the item colours (163768 bytes in a High Seas client)"
    )]
    RadarColLength {
        /// Its length in bytes.
        found: u64,
    },

    /// tiledata.mul has a length none of its three layouts has.
    #[error(
        "tiledata.mul is {found} bytes, expected 1036288 (old), 1644544 (old, 32768 items) or \
         3188736 (High Seas)"
    )]
    TileDataLength {
        /// Its length in bytes.
        found: u64,
    },

    /// A map's length fits none of its facet's known sizes ([`MapSize::detect`]): the size
    /// must be given.
    #[error("{}", MapSizeUnknown { facet: *facet, length: *length, blocks: *blocks, square: *square })]
    MapSizeUnknown {
        /// The facet number.
        facet: u8,
        /// Bytes of map blocks (the MUL file's length, a UOP's chunks together).
        length: u64,
        /// Whole 196-byte blocks in them.
        blocks: u64,
        /// The side in blocks of a square map that would fit, if the count (less one
        /// padding block) is a square.
        square: Option<u32>,
    },

    /// An index entry (staidx*.mul, multi.idx, stadifi) points outside its data file or
    /// does not hold whole records.
    #[error(
        "{file} entry {entry}: offset {offset}, length {length}: {problem} (the data file is \
         {data_len} bytes)"
    )]
    IndexEntry {
        /// The index file ("staidx", "multi.idx").
        file: &'static str,
        /// The entry number: the block number for statics (bx * height + by), the multi id.
        entry: usize,
        /// Stored offset in bytes.
        offset: u32,
        /// Stored length in bytes.
        length: u32,
        /// Length of the data file in bytes.
        data_len: usize,
        /// What is wrong.
        problem: IndexProblem,
    },

    /// A block or entry number past the end of an index file.
    #[error("{file} has {records} entries, so entry {entry} is missing")]
    MissingIndexEntry {
        /// The index file.
        file: &'static str,
        /// The entry asked for.
        entry: usize,
        /// Entries the file holds.
        records: usize,
    },

    /// A block or tile asked for lies outside the map.
    #[error("block ({bx}, {by}) is outside the map of {width_blocks} x {height_blocks} blocks")]
    OutsideMap {
        /// Block column asked for.
        bx: u32,
        /// Block row asked for.
        by: u32,
        /// Map width in blocks.
        width_blocks: u32,
        /// Map height in blocks.
        height_blocks: u32,
    },

    /// A static lies outside its block (x or y of 8 or more).
    #[error("static {index} of block {block} is at ({x}, {y}) inside the block, expected 0..8")]
    StaticPosition {
        /// The block number.
        block: usize,
        /// The static's position in the block's list, from 0.
        index: usize,
        /// Stored column.
        x: u8,
        /// Stored row.
        y: u8,
    },

    /// A UOP container does not start with "MYP\0".
    #[error(
        "not a UOP container: the magic word is {found:#010x}, expected 0x0050594d (\"MYP\\0\")"
    )]
    UopMagic {
        /// The first word.
        found: u32,
    },

    /// A UOP table block cannot be read, or the chain of blocks is broken.
    #[error("UOP table block {block} at byte {offset}: {problem}")]
    UopTable {
        /// The block's position in the chain, from 0.
        block: usize,
        /// Its absolute offset.
        offset: u64,
        /// What is wrong.
        problem: UopTableProblem,
    },

    /// A UOP entry's data cannot be had.
    #[error("UOP entry {index} (hash {hash:#018x}): {problem}")]
    UopEntry {
        /// The entry's position in the table, from 0 (unused entries counted).
        index: usize,
        /// Its name hash.
        hash: u64,
        /// What is wrong.
        problem: UopEntryProblem,
    },

    /// A map chunk is missing from a map UOP.
    #[error(
        "the map UOP has no entry named build/map{facet}legacymul/{chunk:08}.dat (chunk {chunk} \
         of {chunks})"
    )]
    MissingChunk {
        /// The facet in the chunk names.
        facet: u8,
        /// The chunk number.
        chunk: usize,
        /// Chunks the map needs.
        chunks: usize,
    },

    /// A map chunk does not hold the blocks it should.
    #[error("map chunk {chunk} holds {found} bytes: {problem}")]
    ChunkSize {
        /// The chunk number.
        chunk: usize,
        /// Bytes it holds.
        found: u64,
        /// What is wrong.
        problem: ChunkProblem,
    },

    /// Two chunks of a map UOP are stored over the same bytes.
    #[error(
        "map chunk {chunk}'s stored bytes overlap chunk {other}'s: each chunk must have bytes \
         of its own"
    )]
    ChunkOverlap {
        /// The chunk number left out.
        chunk: usize,
        /// The chunk whose bytes it overlaps.
        other: usize,
    },

    /// A diff list entry that cannot be applied (left out of the patch).
    #[error("{file} entry {entry}: {problem}")]
    DiffEntry {
        /// The list file ("mapdifl", "stadifl").
        file: &'static str,
        /// The entry number, from 0.
        entry: usize,
        /// What is wrong.
        problem: DiffProblem,
    },

    /// A picture's bytes (an art entry's) are not what the format allows; the error's
    /// entry names the picture ("item 0x0EED") and its slot in the index.
    #[error("{0}")]
    Picture(PictureProblem),

    /// An animation's frame group (an anim*.mul entry's bytes) is not what the format
    /// allows; the error's entry names the body, action and direction ("body 400 action 2
    /// direction 3") and its record in anim*.idx.
    #[error("{0}")]
    Anim(AnimProblem),

    /// The second stage of a gump stored with compression 3 (Mythic's BWT stage, after
    /// zlib) cannot be undone; the error's entry names the gump and its slot. Source:
    /// `docs/formats/uo.md`, "Gumps".
    #[error("the BWT stage: {0}")]
    Bwt(BwtProblem),

    /// A decoded size passes the caller's limit.
    #[error(transparent)]
    Limit(#[from] LimitError),

    /// What a writer was given that the format cannot store. Its `Serialize` form is the
    /// problem's own, the family being [`Category::Write`](gamedata_io::Category::Write).
    #[error("cannot write it: {0}")]
    #[cfg_attr(feature = "serde", serde(untagged))]
    Write(WriteProblem),

    /// An argument no file could make right: a map size that cannot be, a facet with no
    /// preset size. Its `Serialize` form is the problem's own (`"SizeText"`), the family
    /// being [`Category::Argument`](gamedata_io::Category::Argument).
    #[error(transparent)]
    #[cfg_attr(feature = "serde", serde(untagged))]
    Argument(#[from] ArgumentProblem),
}

/// An argument that no file could make right (see [`ErrorKind::Argument`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum ArgumentProblem {
    /// Map dimensions that cannot be: zero, or too large to address.
    #[error("map dimensions {width_blocks} x {height_blocks} blocks are not usable: {why}")]
    Dimensions {
        /// Width in blocks.
        width_blocks: u32,
        /// Height in blocks.
        height_blocks: u32,
        /// Why.
        why: &'static str,
    },

    /// A map size in text is not `WIDTHxHEIGHT` (see [`MapSize`]'s `FromStr`).
    #[error("a map size is written WIDTHxHEIGHT in tiles, such as 1024x1024")]
    SizeText,

    /// A land tile id past 0x3FFF: the art numbers from 0x4000 are items.
    #[error("land tile {id:#06X} does not exist: land tiles are 0 to 0x3FFF")]
    LandId {
        /// The id asked for.
        id: u16,
    },

    /// A facet number with no preset size.
    #[error("facet {facet} has no preset size (0 to 5 do); give the dimensions instead")]
    UnknownFacet {
        /// The facet number.
        facet: u8,
    },

    /// An animation action past the body's group of records (22 actions for the high
    /// group, 13 for the low group and sea monsters, 35 for people).
    #[error("action {action} does not exist for this body: its records hold actions 0 to {}", actions.saturating_sub(1))]
    AnimAction {
        /// The action asked for.
        action: u16,
        /// Actions the body's group holds.
        actions: u8,
    },

    /// A stored animation direction past 4 (directions 5 to 7 are drawn by mirroring 3, 2
    /// and 1: see `mul_core::anim::Facing`).
    #[error("stored direction {direction} does not exist: 0 to 4 are stored")]
    AnimDirection {
        /// The direction asked for.
        direction: u8,
    },
}

/// The words of [`ErrorKind::MapSizeUnknown`].
struct MapSizeUnknown {
    facet: u8,
    length: u64,
    blocks: u64,
    square: Option<u32>,
}

impl fmt::Display for MapSizeUnknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let MapSizeUnknown {
            facet,
            length,
            blocks,
            square,
        } = *self;
        let whole = if length.is_multiple_of(MAP_BLOCK_LEN as u64) {
            ""
        } else {
            " and some bytes"
        };
        write!(f, "the map is {length} bytes, {blocks} blocks{whole}: ")?;
        let mut known = MapSize::known(facet).peekable();
        if known.peek().is_none() {
            write!(f, "facet {facet} has no known size")?;
        } else {
            write!(f, "not one of facet {facet}'s sizes (")?;
            for (i, size) in known.enumerate() {
                let or = if i > 0 { " or " } else { "" };
                write!(f, "{or}{} x {}", size.width_blocks(), size.height_blocks())?;
            }
            write!(f, " blocks, with or without one padding block)")?;
        }
        if let Some(side) = square {
            let tiles = u64::from(side).saturating_mul(8);
            write!(
                f,
                "; a square map of {side} x {side} blocks ({tiles} x {tiles} tiles) would fit"
            )?;
        }
        write!(
            f,
            "; give its size (FacetOptions::size, or --width and --height in tiles)"
        )
    }
}

/// Messages name the file as "MAP0.MUL: ..." (the default).
impl gamedata_io::Kind for ErrorKind {
    fn category(&self) -> gamedata_io::Category {
        match self {
            ErrorKind::Limit(_) => gamedata_io::Category::Limit,
            ErrorKind::Argument(_) => gamedata_io::Category::Argument,
            ErrorKind::Write(_) => gamedata_io::Category::Write,
            _ => gamedata_io::Category::Data,
        }
    }
}

mod containers;
mod pictures;

pub use containers::{
    ChunkProblem, DiffProblem, IndexProblem, OverlapWith, UopEntryProblem, UopTableProblem,
    WriteProblem,
};
pub use pictures::{AnimProblem, BwtProblem, PictureProblem};
