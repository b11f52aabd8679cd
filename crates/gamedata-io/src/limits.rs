//! Caps on what a file may make us decode or allocate.

/// Caps on decoded sizes and record counts that come from a file.
///
/// A compressed stream or a count field is a promise made by the file; a crafted or damaged
/// file can promise gigabytes. Every decoder and every allocation whose size comes from a
/// file checks it against the caller's `Limits` first and refuses to go past it with a
/// [`LimitError`], never an abort. The defaults admit every real file the project knows
/// of, with room: the largest real Claw level's main block decompresses to 32.5 MB, and a
/// full-size Ultima Online facet holds about 3 million statics (its 89.9 MB map is mapped,
/// not decoded).
///
/// The struct is `#[non_exhaustive]`, so that a new cap is not a breaking change: build it
/// from [`Limits::default`] and set fields, or with the `with_` methods.
///
/// ```
/// use gamedata_io::Limits;
///
/// let mut limits = Limits::default();
/// limits.max_decoded_bytes = 64 << 20;
/// assert_eq!(limits, Limits::new().with_max_decoded_bytes(64 << 20));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Limits {
    /// Largest number of bytes one decoder may produce (decompressed stream, decoded image).
    /// Default: 256 MiB.
    pub max_decoded_bytes: u64,
    /// Largest number of records one table read from a file may hold when it is collected
    /// into memory (entries of a UOP container's table, blocks of a map UOP's chunks). Default:
    /// 16,777,216.
    pub max_records: u64,
    /// Largest number of bytes read from a path that is not a regular file (a pipe, a
    /// device such as `/dev/zero`, a process substitution), whose length is not known
    /// before it is read. A regular file is read at its length. Default: 256 MiB.
    pub max_stream_bytes: u64,
}

impl Limits {
    /// The default cap on decoded bytes: 256 MiB.
    pub const DEFAULT_MAX_DECODED_BYTES: u64 = 256 << 20;
    /// The default cap on records: 16,777,216 (2^24).
    pub const DEFAULT_MAX_RECORDS: u64 = 1 << 24;
    /// The default cap on bytes read from a stream: 256 MiB.
    pub const DEFAULT_MAX_STREAM_BYTES: u64 = 256 << 20;

    /// The documented defaults (see the field docs).
    pub const fn new() -> Self {
        Limits {
            max_decoded_bytes: Self::DEFAULT_MAX_DECODED_BYTES,
            max_records: Self::DEFAULT_MAX_RECORDS,
            max_stream_bytes: Self::DEFAULT_MAX_STREAM_BYTES,
        }
    }

    /// No caps at all: only for trusted files.
    pub const fn unlimited() -> Self {
        Limits {
            max_decoded_bytes: u64::MAX,
            max_records: u64::MAX,
            max_stream_bytes: u64::MAX,
        }
    }

    /// Sets [`Limits::max_decoded_bytes`].
    #[must_use]
    pub const fn with_max_decoded_bytes(mut self, bytes: u64) -> Self {
        self.max_decoded_bytes = bytes;
        self
    }

    /// Sets [`Limits::max_records`].
    #[must_use]
    pub const fn with_max_records(mut self, records: u64) -> Self {
        self.max_records = records;
        self
    }

    /// Sets [`Limits::max_stream_bytes`].
    #[must_use]
    pub const fn with_max_stream_bytes(mut self, bytes: u64) -> Self {
        self.max_stream_bytes = bytes;
        self
    }

    /// Checks that decoding `bytes` bytes of `what` is allowed.
    ///
    /// Returns `Err` if `bytes` is above [`Limits::max_decoded_bytes`].
    pub const fn check_decoded(&self, what: &'static str, bytes: u64) -> Result<(), LimitError> {
        if bytes > self.max_decoded_bytes {
            return Err(LimitError {
                what,
                unit: "bytes",
                found: bytes,
                limit: self.max_decoded_bytes,
            });
        }
        Ok(())
    }

    /// Checks that collecting `count` records of `what` is allowed.
    ///
    /// Returns `Err` if `count` is above [`Limits::max_records`].
    pub const fn check_records(&self, what: &'static str, count: u64) -> Result<(), LimitError> {
        if count > self.max_records {
            return Err(LimitError {
                what,
                unit: "records",
                found: count,
                limit: self.max_records,
            });
        }
        Ok(())
    }
}

impl Default for Limits {
    fn default() -> Self {
        Self::new()
    }
}

/// A size from a file went past a [`Limits`] cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[error(
    "{what} needs {found} {unit}, over the limit of {limit} (raise it in Limits for trusted files)"
)]
pub struct LimitError {
    /// What was being decoded or collected.
    pub what: &'static str,
    /// "bytes" or "records".
    pub unit: &'static str,
    /// The size the file asks for.
    pub found: u64,
    /// The cap.
    pub limit: u64,
}
