//! Decompressing a zlib stream whose decoded size the file declares, within [`Limits`].
//!
//! Containers say how many bytes a compressed stream decodes to (a UOP entry's decompressed
//! length, a WWD header's main block size). A stream that decodes to another size is a bad
//! file, and a declared size is a promise that a crafted file can inflate: it is checked
//! against the caller's limits, and against what the stream could produce at all, before
//! anything is allocated.

use std::fmt;

use crate::PreviewBytes;

use flate2::{Decompress, FlushDecompress, Status};

use crate::limits::{LimitError, Limits};

/// The most bytes deflate can decode from one byte of stream: 1,032 (RFC 1951: a 258-byte
/// match every 2 bits at best, zlib's "technical details" page).
pub const MAX_INFLATE_RATIO: u64 = 1032;

/// A stream decoded by [`inflate_exact`].
#[derive(Clone, PartialEq, Eq)]
pub struct Inflated {
    /// The prefix given, then the decoded bytes (exactly the declared size).
    pub data: Vec<u8>,
    /// Bytes of the stored input the zlib stream took (what follows is not part of it).
    pub consumed: usize,
}

impl fmt::Debug for Inflated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Inflated")
            .field("data", &PreviewBytes(&self.data))
            .field("consumed", &self.consumed)
            .finish()
    }
}

/// What went wrong decompressing a stream (see [`inflate_exact`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error, serde::Serialize)]
#[non_exhaustive]
pub enum InflateError {
    /// The declared size is above the caller's [`Limits`].
    #[error(transparent)]
    Limit(#[from] LimitError),
    /// The declared size is more than the stored bytes could decode to.
    #[error(
        "{declared} bytes declared, more than {stored} stored bytes can decode to (at most \
         1032 a byte)"
    )]
    Impossible {
        /// Declared decoded size in bytes.
        declared: u64,
        /// Stored (compressed) bytes.
        stored: u64,
    },
    /// The bytes are not a valid zlib stream.
    #[error("not a valid zlib stream (after {decoded} decoded bytes)")]
    Invalid {
        /// Bytes decoded before the error.
        decoded: u64,
    },
    /// The stream ends before its end marker.
    #[error("the zlib stream ends early: {decoded} bytes decoded, {declared} declared")]
    Truncated {
        /// Bytes decoded before the input ran out.
        decoded: u64,
        /// Declared decoded size.
        declared: u64,
    },
    /// The stream decodes to another size than declared.
    #[error("the zlib stream decodes to {found} bytes, {declared} declared")]
    WrongSize {
        /// Bytes decoded (past the declared size, the declared size plus one).
        found: u64,
        /// Declared decoded size.
        declared: u64,
    },
}

/// Decompresses the zlib stream at the start of `stored`, which must decode to exactly
/// `declared` bytes, into a buffer that starts with `prefix` (so that a container's
/// offsets can count a header in front of the decoded bytes). Bytes after the stream's end
/// are left alone and counted out of [`Inflated::consumed`].
///
/// `what` names the stream in a [`LimitError`]. The buffer is allocated once, zeroed (fresh
/// pages from the allocator), after `declared` has passed `limits.max_decoded_bytes` and
/// the deflate bound ([`MAX_INFLATE_RATIO`] bytes a stored byte).
///
/// Returns `Err` if the declared size passes either bound, the bytes are not zlib, the
/// stream ends early, or it decodes to another size.
pub fn inflate_exact(
    what: &'static str,
    stored: &[u8],
    declared: u64,
    prefix: &[u8],
    limits: &Limits,
) -> Result<Inflated, InflateError> {
    limits.check_decoded(what, declared)?;
    let stored_len = stored.len() as u64;
    let impossible = InflateError::Impossible {
        declared,
        stored: stored_len,
    };
    if declared > stored_len.saturating_mul(MAX_INFLATE_RATIO) {
        return Err(impossible);
    }
    let declared_len = usize::try_from(declared).map_err(|_| impossible)?;
    // One spare byte past the declared size shows a stream that is too long.
    let total = prefix
        .len()
        .checked_add(declared_len)
        .and_then(|n| n.checked_add(1))
        .ok_or(impossible)?;
    let mut out = vec![0u8; total];
    let (head, room) = out.split_at_mut(prefix.len());
    head.copy_from_slice(prefix);
    let mut z = Decompress::new(true);
    loop {
        let (in_before, out_before) = (z.total_in(), z.total_out());
        let input = stored
            .get(usize::try_from(in_before).unwrap_or(usize::MAX)..)
            .unwrap_or_default();
        let space = room
            .get_mut(usize::try_from(out_before).unwrap_or(usize::MAX)..)
            .unwrap_or_default();
        let status = z
            .decompress(input, space, FlushDecompress::Finish)
            .map_err(|_| InflateError::Invalid {
                decoded: z.total_out(),
            })?;
        let decoded = z.total_out();
        if matches!(status, Status::StreamEnd) || decoded > declared {
            if decoded != declared {
                return Err(InflateError::WrongSize {
                    found: decoded,
                    declared,
                });
            }
            out.truncate(total.saturating_sub(1));
            let consumed = usize::try_from(z.total_in()).unwrap_or(stored.len());
            return Ok(Inflated {
                data: out,
                consumed,
            });
        }
        if z.total_in() == in_before && z.total_out() == out_before {
            return Err(InflateError::Truncated { decoded, declared });
        }
    }
}
