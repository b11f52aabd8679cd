//! The crate's one error type.

use gamedata_io::{FileError, LimitError};

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

    /// The compressed main block is not a valid zlib stream.
    #[error("the main block (from byte 1524) is not a valid zlib stream: {detail}")]
    Zlib {
        /// What the decoder said.
        detail: String,
    },

    /// The zlib stream ends before its end marker.
    #[error(
        "the zlib stream of the main block ends early: {decoded} bytes decoded, the header \
         declares {declared}"
    )]
    StreamTruncated {
        /// Bytes decoded before the input ran out.
        decoded: usize,
        /// The header's main block size.
        declared: u32,
    },

    /// The decompressed main block does not have the length the header declares.
    #[error("the main block decompresses to {found} bytes, the header declares {declared}")]
    MainBlockSize {
        /// Bytes decoded.
        found: usize,
        /// The header's main block size.
        declared: u32,
    },

    /// The header declares a main block larger than the caller's limit.
    #[error(transparent)]
    Limit(#[from] LimitError),

    /// A file could not be read.
    #[error(transparent)]
    File(#[from] FileError),
}
