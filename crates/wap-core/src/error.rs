//! The crate's errors: [`ErrorKind`], a small `Copy` value saying what is wrong in a level's
//! bytes (offsets and counts as numbers); [`DataError`], which adds the file it was found in
//! (what views and parsers return: they touch no file system); and [`Error`], which also
//! holds file-system errors (what the functions that take a path return).

use gamedata_io::{FormatError, InflateError, LimitError, ReadError};

use crate::wwd::section::SectionKind;

/// Result alias with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong opening a level from a path: a file that cannot be had
/// ([`Error::File`]), or bytes that are not what the format allows ([`Error::Data`], a
/// [`DataError`]). See [`FormatError`] for its methods ([`kind`](FormatError::kind),
/// [`file`](FormatError::file)) and how to print it. Format facts: `docs/formats/wwd.md`.
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

/// What is wrong in a level's bytes: numbers only, `Copy`, comparable. Each variant says
/// what, where (plane, object, record, byte offset), what was found and what was expected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file is shorter than the 1,524-byte header.
    #[error("the level is {found} bytes, shorter than its 1524-byte header")]
    TooShort {
        /// Length of the file in bytes.
        found: usize,
    },

    /// The header's first word is not 1,524: not a WWD level.
    #[error("header size is {found:#x}, expected 0x5f4 (1524): not a WWD level")]
    Signature {
        /// The stored value.
        found: u32,
    },

    /// The compressed main block cannot be decompressed to the size the header declares:
    /// not zlib, cut short, another size, or more than its stored bytes can hold.
    #[error("the main block (a zlib stream from byte 1524): {0}")]
    MainBlock(InflateError),

    /// The plane header table does not fit in the level image.
    #[error(
        "the {count} plane headers at byte {offset} (160 bytes each) do not fit in the \
         {image_len}-byte level image"
    )]
    PlaneTable {
        /// Plane count from the header.
        count: u32,
        /// Offset of the table from the header.
        offset: u32,
        /// Bytes of the image (header plus main block).
        image_len: usize,
    },

    /// A plane's size in tiles is negative or too large to multiply out.
    #[error("plane {plane}: {wide} x {high} tiles is not a valid size")]
    PlaneSize {
        /// Plane index.
        plane: usize,
        /// Width in tiles as stored.
        wide: i32,
        /// Height in tiles as stored.
        high: i32,
    },

    /// A plane's tiles lie outside the image.
    #[error("plane {plane} tiles: {read}")]
    PlaneTiles {
        /// Plane index.
        plane: usize,
        /// The read that did not fit (offset, size, image length).
        read: ReadError,
    },

    /// A plane's tiles overlap another plane's, which are read instead.
    #[error("plane {plane} tiles at byte {offset} overlap plane {other}'s, which are read instead")]
    PlaneOverlap {
        /// Plane index.
        plane: usize,
        /// The plane whose tiles it overlaps.
        other: usize,
        /// Its tiles' offset in the image.
        offset: u32,
    },

    /// The tile property table's header lies outside the image.
    #[error("tile property table: {read}")]
    TilePropertyTable {
        /// The read that did not fit (offset, size, image length).
        read: ReadError,
    },

    /// An image-set name has no terminating NUL before the next section's start (or the
    /// image's end).
    #[error(
        "plane {plane}: image-set name {index} at byte {offset} has no terminating NUL before \
         byte {end}, where the next section starts or the image ends"
    )]
    ImageSetName {
        /// Plane index.
        plane: usize,
        /// Name index inside the plane.
        index: usize,
        /// Absolute offset where the name starts.
        offset: usize,
        /// Absolute offset the names may run to: the next section's start, else the
        /// image's length.
        end: usize,
    },

    /// A plane's image-set names or objects start at the byte where an earlier section of
    /// the level starts (in the editor's order: plane headers, tiles, names, objects, tile
    /// properties): they are left out, so those bytes are walked once, as that section.
    #[error("{section} at byte {offset} start where the {other} start: left out, read as those")]
    SectionShared {
        /// The section left out (`ImageSets(plane)` or `Objects(plane)`).
        section: SectionKind,
        /// The section that starts at the same byte and is read.
        other: SectionKind,
        /// The absolute offset both start at.
        offset: usize,
    },

    /// An object does not fit in the bytes its plane's objects may run to (its fixed part
    /// or its strings): the image up to the next section's start, or its end; the read's
    /// `len` is that end.
    #[error("plane {plane}: object {index}: {read}")]
    Object {
        /// Plane index.
        plane: usize,
        /// Object index inside the plane.
        index: usize,
        /// The read that did not fit.
        read: ReadError,
    },

    /// A tile property record has a type other than 1, 2 or 3: its length is unknown, so
    /// nothing after it can be read.
    #[error(
        "tile property record {index} at byte {offset} has type {found}, expected 1 (single), \
         2 (double) or 3 (mask)"
    )]
    TilePropertyType {
        /// Record index (the tile id it describes).
        index: usize,
        /// Absolute offset of the record.
        offset: usize,
        /// The stored type.
        found: u32,
    },

    /// A tile property record does not fit in the image.
    #[error("tile property record {index}: {read}")]
    TileProperty {
        /// Record index.
        index: usize,
        /// The read that did not fit.
        read: ReadError,
    },

    /// A REZ archive's header or directory tree is not what the format allows.
    #[error("REZ archive: {0}")]
    Rez(RezProblem),

    /// A PID image or a palette is not what the format allows.
    #[error("{0}")]
    Image(ImageProblem),

    /// The header declares a main block larger than the caller's limit.
    #[error(transparent)]
    Limit(#[from] LimitError),

    /// What a writer was given is not consistent. Its `Serialize` form is the problem's
    /// own (`{"TileCount": {...}}`), the family being
    /// [`Category::Write`](gamedata_io::Category::Write).
    #[error("cannot write the level: {0}")]
    #[cfg_attr(feature = "serde", serde(untagged))]
    Write(WriteProblem),

    /// An argument no file could make right. Its `Serialize` form is the problem's own
    /// (`{"Buffer": {...}}`), the family being
    /// [`Category::Argument`](gamedata_io::Category::Argument).
    #[error(transparent)]
    #[cfg_attr(feature = "serde", serde(untagged))]
    Argument(#[from] ArgumentProblem),
}

/// An argument that no file could make right (see [`ErrorKind::Argument`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum ArgumentProblem {
    /// The buffer given to decode into is not width x height bytes.
    #[error("a buffer of {found} bytes cannot hold the image's {expected} pixels")]
    Buffer {
        /// Its length.
        found: usize,
        /// Width times height.
        expected: u64,
    },
}

/// What the level writer was given that it cannot store (see [`ErrorKind::Write`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum WriteProblem {
    /// A plane's tile count is not its width times its height.
    #[error("plane {plane} has {found} tiles, expected {expected} (its width times its height)")]
    TileCount {
        /// Plane index.
        plane: usize,
        /// Tiles given.
        found: u64,
        /// Width times height.
        expected: u64,
    },
    /// A mask record's bytes are not its width times its height.
    #[error(
        "tile property record {record} has {found} mask bytes, expected {expected} (its width \
         times its height)"
    )]
    MaskLength {
        /// Record index.
        record: usize,
        /// Mask bytes given.
        found: u64,
        /// Width times height.
        expected: u64,
    },
    /// An offset or count does not fit in the format's 32-bit field.
    #[error("the {what} is {found}, more than a 32-bit field holds")]
    TooLarge {
        /// Which field ("tiles offset", "object count" ...).
        what: &'static str,
        /// The value.
        found: u64,
    },
    /// A file given to the REZ writer has an empty name, a name with a NUL, an extension
    /// of more than 4 letters, or the path of a directory (or a directory that of a file).
    #[error(
        "file {file} given to the REZ writer has no usable path (a component empty or with a \
         NUL, an extension past 4 letters, or a directory's path)"
    )]
    RezPath {
        /// Index of the file, in the order given.
        file: usize,
    },
}

/// What is wrong in a REZ archive (see [`ErrorKind::Rez`]); offsets are absolute, in bytes.
/// Source: `docs/formats/wap32.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum RezProblem {
    /// The archive is shorter than its 168-byte header.
    #[error("{found} bytes, shorter than the 168-byte header")]
    TooShort {
        /// Length of the archive.
        found: usize,
    },
    /// The header's version is not 1.
    #[error("version {found}, expected 1")]
    Version {
        /// The stored version.
        found: u32,
    },
    /// A directory's entries lie past the archive's end.
    #[error(
        "the directory entries at byte {offset} ({size} bytes) lie past the archive's end \
         ({len} bytes)"
    )]
    DirectoryOutside {
        /// Their offset.
        offset: u32,
        /// Their length.
        size: u32,
        /// The archive's length.
        len: usize,
    },
    /// An entry does not fit in its directory: its fixed fields, a name or comment without
    /// a NUL before the directory's end, or its keys.
    #[error("the entry at byte {at} runs past its directory's end at byte {end}")]
    EntryCut {
        /// Offset of the entry.
        at: usize,
        /// End of the directory's entries.
        end: usize,
    },
    /// An entry's kind is neither 0 (file) nor 1 (directory).
    #[error("the entry at byte {at} is of kind {found}, expected 0 (file) or 1 (directory)")]
    EntryKind {
        /// Offset of the entry.
        at: usize,
        /// The stored kind.
        found: u32,
    },
    /// An entry's name is empty, or its name or extension holds `/` or `\` (paths would be
    /// ambiguous).
    #[error("the entry at byte {at} has an empty name, or a name or extension holding '/' or '\\'")]
    Name {
        /// Offset of the entry.
        at: usize,
    },
    /// A file's bytes lie past the archive's end.
    #[error(
        "the file entry at byte {at} has {size} bytes at byte {offset}, past the archive's \
         end ({len} bytes)"
    )]
    FileOutside {
        /// Offset of the entry.
        at: usize,
        /// The file's offset.
        offset: u32,
        /// The file's length.
        size: u32,
        /// The archive's length.
        len: usize,
    },
    /// A directory's entries overlap those of a directory already read: the tree points
    /// into itself.
    #[error(
        "the directory entry at byte {at} points at bytes {offset}.. that another directory \
         holds (the tree loops)"
    )]
    Loop {
        /// Offset of the directory's entry.
        at: usize,
        /// Offset of its entries.
        offset: u32,
    },
    /// Directories nest deeper than [`crate::rez::MAX_DEPTH`].
    #[error("the directory entry at byte {at} nests {depth} deep, more than {max}")]
    Depth {
        /// Offset of the directory's entry.
        at: usize,
        /// Its depth (the root's entries are at 1).
        depth: usize,
        /// The most allowed.
        max: usize,
    },
    /// A directory whose kind and name (in any letter case) an earlier entry of its
    /// directory has: lookups by path find the first, so an index leaves it out.
    #[error("the directory entry at byte {at} repeats the name of an earlier one")]
    Repeated {
        /// Offset of the entry.
        at: usize,
    },
    /// An entry's full path would pass [`RezOptions::max_path_bytes`](crate::RezOptions::max_path_bytes).
    #[error("the entry at byte {at} has a path of {len} bytes, more than the {max} allowed")]
    PathTooLong {
        /// Offset of the entry.
        at: usize,
        /// Bytes of its path's text.
        len: u64,
        /// The cap.
        max: u64,
    },
    /// In an archive read by its tables ([`RezTables`](crate::RezTables)): a directory's
    /// entries that were not read, because no directory listed leads to them (an entry
    /// read at an offset of one's own choosing, [`Rez::entry_at`](crate::Rez::entry_at),
    /// past an entry that cannot be read or inside another entry).
    #[error(
        "the directory entries at byte {offset} ({size} bytes) were not read: the archive is \
         read by its tables, and no directory listed leads to them"
    )]
    TableNotRead {
        /// Their offset.
        offset: u32,
        /// Their length.
        size: u32,
    },
}

/// The message of [`ImageProblem::PidSize`]: the side that is wrong, named.
fn pid_size(width: i32, height: i32) -> String {
    let bad = |v: i32| !(1..=65_536).contains(&v);
    let side = match (bad(width), bad(height)) {
        (true, true) => "width and height",
        (true, false) => "width",
        _ => "height",
    };
    format!("the PID image is {width} x {height} pixels: its {side} is outside 1 to 65536")
}

/// What is wrong in a PID image or a palette (see [`ErrorKind::Image`]).
/// Source: `docs/formats/wap32.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum ImageProblem {
    /// The image is shorter than its 32-byte header (with flag 0x80, plus its 768-byte
    /// palette).
    #[error("the PID image is {found} bytes, shorter than its header and palette ({expected})")]
    PidTooShort {
        /// Length of the image.
        found: usize,
        /// Bytes its header and palette need.
        expected: usize,
    },
    /// A width or height that is zero, negative or past 65,536 pixels (no real image has
    /// an empty side).
    #[error("{}", pid_size(*width, *height))]
    PidSize {
        /// Width as stored.
        width: i32,
        /// Height as stored.
        height: i32,
    },
    /// The pixel data ends before the image is filled.
    #[error(
        "the PID pixel data ({found} bytes) ends after {filled} of the image's {pixels} \
         pixels"
    )]
    PidCut {
        /// Bytes of pixel data.
        found: usize,
        /// Pixels decoded.
        filled: u64,
        /// Pixels of the image.
        pixels: u64,
    },
    /// An ANI animation shorter than its 32-byte header and image set path.
    #[error("the ANI animation is {found} bytes, shorter than its header and path ({expected})")]
    AniTooShort {
        /// Length of the animation.
        found: usize,
        /// Bytes its header and path need.
        expected: u64,
    },
    /// An ANI frame (its 20-byte record, or the sound path after it) past the end.
    #[error(
        "ANI frame {frame} of {count} at byte {at} does not fit in the {len}-byte animation \
         (its 20-byte record, then with flag 0x2 a sound path ending in NUL)"
    )]
    AniFrame {
        /// The frame's number, from 0.
        frame: u32,
        /// Frames the header declares.
        count: u32,
        /// Offset of the frame's record.
        at: usize,
        /// Length of the animation.
        len: usize,
    },
    /// A palette that is not 768 bytes.
    #[error("a palette is {found} bytes, expected 768 (256 RGB colours)")]
    Palette {
        /// Its length.
        found: usize,
    },
}

/// Messages name the level's file as "RETAIL01.WWD: ..." (the default).
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
