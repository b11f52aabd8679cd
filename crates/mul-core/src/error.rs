//! The crate's one error type.

use gamedata_io::{FileError, LimitError};

/// Result alias with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong reading Ultima Online files.
///
/// Each variant says what was read, where (file, block or entry number, byte offset), what
/// was found and what was expected. Format facts: `docs/formats/uo.md`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file's length is not one the format allows.
    #[error("{what} is {found} bytes, expected {expected}")]
    FileSize {
        /// Which file ("tiledata.mul", "map0.mul" ...).
        what: &'static str,
        /// Its length in bytes.
        found: u64,
        /// What would be right, in words ("1,036,288, 1,644,544 or 3,188,736 bytes" ...).
        expected: String,
    },

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

    /// A map size in text is not `WIDTHxHEIGHT` (see [`crate::MapSize`]'s `FromStr`).
    #[error("a map size is written WIDTHxHEIGHT in tiles, such as 1024x1024")]
    SizeText,

    /// A facet number with no preset size.
    #[error("facet {facet} has no preset size (0 to 5 do); give the dimensions instead")]
    UnknownFacet {
        /// The facet number.
        facet: u8,
    },

    /// A map's length fits none of its facet's known sizes ([`crate::MapSize::detect`]): the
    /// size must be given.
    #[error("{}", map_size_unknown(*facet, *length, *blocks, *square))]
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

    /// An index entry (staidx*.mul, multi.idx) points outside its data file or does not hold
    /// whole records.
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
        problem: String,
    },

    /// A UOP entry's data cannot be had.
    #[error("UOP entry {index} (hash {hash:#018x}): {problem}")]
    UopEntry {
        /// The entry's position in the table, from 0 (unused entries counted).
        index: usize,
        /// Its name hash.
        hash: u64,
        /// What is wrong.
        problem: String,
    },

    /// A map chunk is missing from a map UOP.
    #[error("the map UOP has no entry named {name} (chunk {chunk} of {chunks})")]
    MissingChunk {
        /// The chunk number.
        chunk: usize,
        /// Chunks the map needs.
        chunks: usize,
        /// The name looked up.
        name: String,
    },

    /// A map chunk does not hold the blocks it should.
    #[error("map chunk {chunk} holds {found} bytes, expected {expected}")]
    ChunkSize {
        /// The chunk number.
        chunk: usize,
        /// Bytes it holds.
        found: u64,
        /// Bytes expected, in words.
        expected: String,
    },

    /// A diff list entry that cannot be applied (left out of the patch).
    #[error("{file} entry {entry}: {problem}")]
    DiffEntry {
        /// The list file ("mapdifl", "stadifl").
        file: &'static str,
        /// The entry number, from 0.
        entry: usize,
        /// What is wrong.
        problem: String,
    },

    /// A decoded size passes the caller's limit.
    #[error(transparent)]
    Limit(#[from] LimitError),

    /// A file could not be found, read or mapped.
    #[error(transparent)]
    File(#[from] FileError),

    /// An error in a file, naming it; the cause is the [`source`](std::error::Error::source).
    #[error("in {file}")]
    InFile {
        /// The file's name as found ("MAP0.MUL" ...).
        file: String,
        /// What went wrong.
        #[source]
        source: Box<Error>,
    },
}

impl Error {
    /// The innermost error, under any [`Error::InFile`].
    pub fn root(&self) -> &Error {
        match self {
            Error::InFile { source, .. } => source.root(),
            other => other,
        }
    }

    pub(crate) fn in_file(path: &std::path::Path) -> impl FnOnce(Error) -> Error + '_ {
        move |e| Error::InFile {
            file: path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            ),
            source: Box::new(e),
        }
    }
}

/// The words of [`Error::MapSizeUnknown`].
fn map_size_unknown(facet: u8, length: u64, blocks: u64, square: Option<u32>) -> String {
    let known: Vec<String> = crate::MapSize::known(facet)
        .map(|s| format!("{} x {}", s.width_blocks(), s.height_blocks()))
        .collect();
    let sizes = if known.is_empty() {
        format!("facet {facet} has no known size")
    } else {
        format!(
            "not one of facet {facet}'s sizes ({} blocks, with or without one padding block)",
            known.join(" or ")
        )
    };
    let whole = if length.is_multiple_of(crate::raw::MAP_BLOCK_LEN as u64) {
        ""
    } else {
        " and some bytes"
    };
    let fits = square.map_or(String::new(), |side| {
        let tiles = u64::from(side) * 8;
        format!("; a square map of {side} x {side} blocks ({tiles} x {tiles} tiles) would fit")
    });
    format!(
        "the map is {length} bytes, {blocks} blocks{whole}: {sizes}{fits}; give its size \
         (FacetOptions::size, or --width and --height in tiles)"
    )
}

/// What is wrong with an index entry (see [`Error::IndexEntry`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
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
}
