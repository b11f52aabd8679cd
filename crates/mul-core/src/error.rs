//! The crate's errors: [`ErrorKind`], a small `Copy` value saying what is wrong in the
//! bytes (offsets and counts as numbers); [`DataError`], which adds the file it was found in
//! (what views and parsers return: they touch no file system); and [`Error`], which also
//! holds file-system errors (what the functions that take a path return).

use std::fmt;

use gamedata_io::{FormatError, InflateError, LimitError, ReadError};

use crate::raw::MAP_BLOCK_LEN;
use crate::size::MapSize;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize)]
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
    #[serde(untagged)]
    Write(WriteProblem),

    /// An argument no file could make right: a map size that cannot be, a facet with no
    /// preset size. Its `Serialize` form is the problem's own (`"SizeText"`), the family
    /// being [`Category::Argument`](gamedata_io::Category::Argument).
    #[error(transparent)]
    #[serde(untagged)]
    Argument(#[from] ArgumentProblem),
}

/// An argument that no file could make right (see [`ErrorKind::Argument`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize)]
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

/// What is wrong with an index entry (see [`ErrorKind::IndexEntry`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize)]
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

/// What is wrong with a UOP table block (see [`ErrorKind::UopTable`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
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

/// What is wrong with a UOP entry (see [`ErrorKind::UopEntry`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize)]
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

/// What is wrong with a map chunk's size (see [`ErrorKind::ChunkSize`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[non_exhaustive]
pub enum ChunkProblem {
    /// Not a whole number of 196-byte blocks, empty, or more than 4,096 blocks.
    #[error("expected a whole number of 196-byte blocks, 1 to 4096 of them")]
    NotWholeBlocks,
    /// Shorter than 4,096 blocks but not the last chunk.
    #[error("expected 802816 (4096 blocks): only the last chunk may be shorter")]
    ShortNotLast,
}

/// Why a diff list entry is left out (see [`ErrorKind::DiffEntry`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize)]
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

/// What is wrong in a picture's bytes (see [`ErrorKind::Picture`]); offsets are in bytes.
/// Source: `docs/formats/uo.md`, "Art".
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[non_exhaustive]
pub enum PictureProblem {
    /// A land tile shorter than its 1,012 pixels.
    #[error("the land tile is {found} bytes, expected at least 2024 (1012 pixels)")]
    LandTooShort {
        /// The entry's length.
        found: usize,
    },
    /// A texture map whose entry is neither 0x2000 bytes (64 x 64 pixels) nor 0x8000 bytes
    /// (128 x 128). Source: `docs/formats/uo.md`, "Texture maps".
    #[error(
        "the texture map is {found} bytes, expected 8192 (64 x 64 pixels) or 32768 (128 x 128)"
    )]
    TexmapLength {
        /// The entry's length.
        found: usize,
    },
    /// An item shorter than its 8-byte header.
    #[error("the item is {found} bytes, shorter than its 8-byte header")]
    ItemHeader {
        /// The entry's length.
        found: usize,
    },
    /// A width or height of 0x8000 or more, negative to the client.
    #[error(
        "the item is {width} x {height} pixels: a side of 32768 or more is negative to the client"
    )]
    NegativeSize {
        /// Width read.
        width: u16,
        /// Height read.
        height: u16,
    },
    /// The row table does not fit in the entry.
    #[error("the item's {height} row offsets do not fit in its {found} bytes")]
    RowTable {
        /// Height read (rows in the table).
        height: u16,
        /// The entry's length.
        found: usize,
    },
    /// A row offset past the end of the entry.
    #[error("row {row} starts at word {offset} after the row table, past the entry's end")]
    RowOffset {
        /// The row.
        row: u16,
        /// Its offset, in 16-bit words from the end of the row table.
        offset: u16,
    },
    /// A run header or its pixels past the end of the entry (a row with no end).
    #[error("row {row}'s run at byte {at} after the row table runs past the entry's end")]
    RunCut {
        /// The row.
        row: u16,
        /// The run header's place, in bytes from the end of the row table.
        at: u64,
    },
    /// A run past the picture's right edge.
    #[error("row {row} has a run of {count} pixels from x = {x}, past the width of {width}")]
    RunPastWidth {
        /// The row.
        row: u16,
        /// The run's first column.
        x: u32,
        /// Its pixels.
        count: u32,
        /// The picture's width.
        width: u16,
    },
    /// A gump whose size (the index's third word: width in the high 16 bits, height in the
    /// low ones) is not 1 to 32767 on each side.
    #[error(
        "the gump's size word {extra:#010x} gives {width} x {height} pixels, expected each \
         side from 1 to 32767"
    )]
    GumpSize {
        /// The size word.
        extra: u32,
        /// Width read (the high 16 bits).
        width: u16,
        /// Height read (the low 16 bits).
        height: u16,
    },
    /// A gump's row table does not fit in its entry.
    #[error("the gump's {height} row offsets do not fit in its {found} bytes")]
    GumpRows {
        /// Rows in the table.
        height: u16,
        /// The entry's length.
        found: usize,
    },
    /// A gump row's offset lies past the entry, or before the row above's (rows' runs must
    /// follow one another).
    #[error(
        "row {row} starts at word {offset}, expected from word {from} to the entry's {words} \
         words"
    )]
    GumpRowOffset {
        /// The row.
        row: u16,
        /// Its offset, in 4-byte words from the entry's first byte.
        offset: u32,
        /// Where it may start at the earliest: the row above's start.
        from: u32,
        /// The entry's length in whole 4-byte words.
        words: u32,
    },
    /// A gump row whose runs do not add up to the width.
    #[error("row {row}'s runs cover {found} pixels, expected the width of {width}")]
    GumpRowWidth {
        /// The row.
        row: u16,
        /// Pixels its runs cover (counted up to the first that passes the width).
        found: u64,
        /// The gump's width.
        width: u16,
    },
}

/// What is wrong in the input of Mythic's BWT stage (see [`ErrorKind::Bwt`]), the bytes a
/// compression-3 gump's zlib stream decodes to; places are byte offsets in the list the
/// move-to-front step makes (the input less its 4-byte header). Source:
/// `docs/formats/uo.md`, "Gumps" (ClassicUO's `BwtDecompress`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[non_exhaustive]
pub enum BwtProblem {
    /// Shorter than the 4-byte header and the 1,024 bytes of symbol counts (the input's
    /// last byte is never decoded; the list ends with a 0 in its place).
    #[error(
        "its input is {found} bytes, expected at least 1028 (a 4-byte header, then 256 \
         symbol counts of 4 bytes)"
    )]
    TooShort {
        /// The input's length.
        found: usize,
    },
    /// A symbol's count is negative.
    #[error("symbol {symbol}'s count is {count}, expected 0 or more")]
    NegativeCount {
        /// The symbol (byte value).
        symbol: u8,
        /// Its count as stored (signed 32-bit).
        count: i32,
    },
    /// The counts add up past what the client's signed 32-bit sum holds.
    #[error("the symbol counts add up to {sum}, past 2147483647")]
    CountsPastClient {
        /// Their sum.
        sum: u64,
    },
    /// A symbol's segment (its first place, then its re-insert positions) is read past the
    /// end of the list.
    #[error("symbol {symbol}'s segment is read at byte {at}, past the {len} bytes of the list")]
    SegmentPast {
        /// The symbol (byte value).
        symbol: u8,
        /// The byte read, from the list's first byte (the counts are bytes 0 to 1023).
        at: u64,
        /// The list's length.
        len: usize,
    },
}

/// What a writer cannot store (see [`ErrorKind::Write`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize)]
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
    /// A file past what its 32-bit offsets reach.
    #[error("{what} would be {found} bytes, past the 4 GiB its 32-bit offsets reach")]
    TooLarge {
        /// The file.
        what: &'static str,
        /// Its length.
        found: u64,
    },
}

/// What is wrong in an animation's frame group, the bytes of one anim*.mul entry (see
/// [`ErrorKind::Anim`]); places are byte offsets from the group's first byte. Source:
/// `docs/formats/uo.md`, "Animations", "MUL frame groups".
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[non_exhaustive]
pub enum AnimProblem {
    /// A group shorter than its palette and frame count.
    #[error(
        "the frame group is {found} bytes, shorter than its 512-byte palette and 4-byte frame count"
    )]
    GroupTooShort {
        /// The group's length.
        found: usize,
    },
    /// The frame offsets do not fit in the group.
    #[error(
        "the group's {count} frame offsets (4 bytes each, from byte 516) do not fit in its {found} bytes"
    )]
    FrameTable {
        /// Frames the group declares.
        count: u32,
        /// The group's length.
        found: usize,
    },
    /// A frame's 8-byte header (centre x, centre y, width, height) lies past the group's
    /// end.
    #[error(
        "frame {frame}'s header at byte 512 + {offset} does not fit in the group's {found} bytes"
    )]
    FrameHeader {
        /// The frame, from 0.
        frame: u32,
        /// Its offset, counted from byte 512.
        offset: u32,
        /// The group's length.
        found: usize,
    },
    /// A run header or its pixels past the group's end.
    #[error("frame {frame}'s run at byte {at} runs past the group's end")]
    RunCut {
        /// The frame, from 0.
        frame: u32,
        /// The run header's place.
        at: u64,
    },
    /// A run whose pixels lie outside its frame: a row outside 0 to height - 1, or columns
    /// outside 0 to width - 1.
    #[error(
        "frame {frame}'s run of {length} pixels at column {column}, row {row} lies outside \
         its {width} x {height} pixels"
    )]
    RunOutside {
        /// The frame, from 0.
        frame: u32,
        /// The run's first column (its x plus the centre x).
        column: i32,
        /// Its row (its y plus the centre y plus the height).
        row: i32,
        /// Its pixels.
        length: u16,
        /// The frame's width.
        width: i16,
        /// The frame's height.
        height: i16,
    },
    /// A frame whose header or runs reach the bytes where another frame of the group starts
    /// before their end marker: frames must have bytes of their own (two frames at the
    /// same offset are one frame, read for both), so that reading every frame reads each
    /// byte once.
    #[error(
        "frame {frame}'s bytes reach byte {next}, where another frame starts, before their \
         end marker 0x7FFF7FFF"
    )]
    FrameOverlap {
        /// The frame, from 0.
        frame: u32,
        /// Where the next frame starts.
        next: u64,
    },
}
