//! The crate's one error type.

use gamedata_io::{FileError, InflateError, LimitError, ReadError};

/// Result alias with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong reading a WWD level. Each variant says what, where (byte
/// offset), what was found and what was expected. Format facts: `docs/formats/wwd.md`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
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

    /// A section of a plane or of the level lies outside the image.
    #[error("{what}: {source}")]
    Section {
        /// Which section ("plane 1 tiles", "tile property table", ...).
        what: String,
        /// The read that did not fit (offset, size, image length).
        source: ReadError,
    },

    /// An image-set name has no terminating NUL inside the image.
    #[error("plane {plane}: image-set name {index} at byte {offset} has no terminating NUL")]
    ImageSetName {
        /// Plane index.
        plane: usize,
        /// Name index inside the plane.
        index: usize,
        /// Absolute offset where the name starts.
        offset: usize,
    },

    /// An object does not fit in the image (its fixed part or its strings).
    #[error("plane {plane}: object {index}: {source}")]
    Object {
        /// Plane index.
        plane: usize,
        /// Object index inside the plane.
        index: usize,
        /// The read that did not fit.
        source: ReadError,
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
    #[error("tile property record {index}: {source}")]
    TileProperty {
        /// Record index.
        index: usize,
        /// The read that did not fit.
        source: ReadError,
    },

    /// What a writer was given is not consistent (a tile count that does not match the
    /// plane's size, a mask that does not match its record's size, a section over 4 GiB).
    #[error("cannot write the level: {what}: found {found}, expected {expected}")]
    Write {
        /// What is inconsistent.
        what: String,
        /// The value found.
        found: u64,
        /// The value expected.
        expected: u64,
    },

    /// The header declares a main block larger than the caller's limit.
    #[error(transparent)]
    Limit(#[from] LimitError),

    /// A file could not be read.
    #[error(transparent)]
    File(#[from] FileError),
}
