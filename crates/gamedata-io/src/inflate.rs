//! Decompressing a zlib stream whose decoded size the file declares, within [`Limits`].
//!
//! Containers say how many bytes a compressed stream decodes to (a UOP entry's decompressed
//! length, a WWD header's main block size). A stream that decodes to another size is a bad
//! file, and a declared size is a promise that a crafted file can inflate: it is checked
//! against the caller's limits, and against what the stream could produce at all, before
//! anything is allocated.

use std::cell::Cell;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
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
/// the deflate bound ([`MAX_INFLATE_RATIO`] bytes a stored byte). The bytes read and
/// written are counted ([`inflate_counts`]).
///
/// Returns `Err` if the declared size passes either bound, the bytes are not zlib, the
/// stream ends early, or it decodes to another size (a stream that decodes past the
/// declared size is [`InflateError::WrongSize`], found the declared size plus one, even
/// when it is bad further on).
pub fn inflate_exact(
    what: &'static str,
    stored: &[u8],
    declared: u64,
    prefix: &[u8],
    limits: &Limits,
) -> Result<Inflated, InflateError> {
    let shared = inflate_shared(what, stored, declared, prefix, limits)?;
    shared.check(declared)?;
    let consumed = shared.consumed;
    let mut data = shared.data;
    data.truncate(shared.prefix.saturating_add(shared.decoded));
    Ok(Inflated { data, consumed })
}

/// How a stream inflated by [`inflate_shared`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamEnd {
    /// At its end marker: the stream decodes to [`SharedStream::decoded`] bytes.
    Complete,
    /// Past the most bytes asked for (it decodes to more): decoding stopped there.
    Past,
    /// At bytes that are not zlib.
    Invalid,
    /// At the end of the stored bytes, before the end marker.
    Truncated,
}

/// A zlib stream inflated once by [`inflate_shared`], for every entry that names it: each
/// entry's declared size is checked against it with [`SharedStream::check`], as
/// [`inflate_exact`] would have checked it, without inflating the stream again.
#[derive(Clone, PartialEq, Eq)]
pub struct SharedStream {
    /// The prefix given, then the decoded bytes ([`SharedStream::decoded`] of them, and
    /// one more when the stream went past the most asked for).
    data: Vec<u8>,
    prefix: usize,
    /// Bytes decoded, at most the most asked for.
    decoded: usize,
    /// Bytes the decoder wrote: the most asked for and one more at the most.
    total: u64,
    /// Bytes of the stored input the decoder took.
    consumed: usize,
    /// The most bytes asked for.
    max: u64,
    /// Bytes stored: what the deflate bound is worked from.
    stored: u64,
    end: StreamEnd,
}

impl fmt::Debug for SharedStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SharedStream")
            .field("data", &PreviewBytes(self.bytes()))
            .field("consumed", &self.consumed)
            .field("max", &self.max)
            .field("end", &self.end)
            .finish()
    }
}

impl SharedStream {
    /// The prefix given, then the decoded bytes: at most the most asked for.
    pub fn bytes(&self) -> &[u8] {
        self.data
            .get(..self.prefix.saturating_add(self.decoded))
            .unwrap_or_default()
    }

    /// The bytes decoded (without the prefix), at most the most asked for.
    pub fn decoded(&self) -> u64 {
        self.decoded as u64
    }

    /// Bytes of the stored input the decoder took: what the inflating read.
    pub fn consumed(&self) -> usize {
        self.consumed
    }

    /// How the stream ended.
    pub fn end(&self) -> StreamEnd {
        self.end
    }

    /// The most bytes the stream was inflated to ([`inflate_shared`]'s `max`).
    pub fn max(&self) -> u64 {
        self.max
    }

    /// Checks that the stream decodes to exactly `declared` bytes, as [`inflate_exact`]
    /// with that size would have found, for any `declared` up to [`SharedStream::max`].
    ///
    /// Returns `Err` as [`inflate_exact`] does (but for [`InflateError::Limit`], the
    /// caller's to check): [`InflateError::Impossible`] past the deflate bound,
    /// [`InflateError::WrongSize`] for a stream that decodes to more (found: one past
    /// `declared`) or ends at its marker with fewer, [`InflateError::Invalid`] or
    /// [`InflateError::Truncated`] for one that fails before `declared` bytes; a declared
    /// size past [`SharedStream::max`] is `Impossible` too, as the stream was not decoded
    /// that far (ask for it when inflating).
    pub fn check(&self, declared: u64) -> Result<(), InflateError> {
        let impossible = InflateError::Impossible {
            declared,
            stored: self.stored,
        };
        if declared > self.stored.saturating_mul(MAX_INFLATE_RATIO) || declared > self.max {
            return Err(impossible);
        }
        let total = self.total;
        match self.end {
            StreamEnd::Complete if total == declared => Ok(()),
            // A stream that decodes past `declared` bytes is too long, whether or not it
            // is bad further on (where the decoder notices a bad code after filling its
            // room hangs on the room it was given: this answer does not).
            StreamEnd::Invalid if total <= declared => {
                Err(InflateError::Invalid { decoded: total })
            }
            _ if total > declared => Err(InflateError::WrongSize {
                found: declared.saturating_add(1),
                declared,
            }),
            StreamEnd::Truncated => Err(InflateError::Truncated {
                decoded: total,
                declared,
            }),
            StreamEnd::Complete | StreamEnd::Past | StreamEnd::Invalid => {
                Err(InflateError::WrongSize {
                    found: total,
                    declared,
                })
            }
        }
    }

    /// The prefix and the decoded bytes, when the stream decodes to exactly `declared`
    /// bytes ([`SharedStream::check`]); the buffer is this stream's own (no copy).
    ///
    /// Returns `Err` as [`SharedStream::check`].
    pub fn into_exact(self, declared: u64) -> Result<Vec<u8>, InflateError> {
        self.check(declared)?;
        let mut data = self.data;
        data.truncate(self.prefix.saturating_add(self.decoded));
        Ok(data)
    }
}

/// Decompresses the zlib stream at the start of `stored` once, for several entries that
/// name it with different declared sizes (as a crafted container may, so that each would
/// inflate it again): at most `max` bytes are decoded, into a buffer that starts with
/// `prefix`; each entry's size is then checked with [`SharedStream::check`].
///
/// `what` names the stream in a [`LimitError`]. The buffer (`prefix` + `max` + 1 bytes) is
/// allocated once, zeroed, after `max` has passed `limits.max_decoded_bytes` and the
/// deflate bound ([`MAX_INFLATE_RATIO`] bytes a stored byte). The decoder reads at most
/// the stored bytes and writes at most `max` + 1 bytes; both are counted
/// ([`inflate_counts`]).
///
/// Returns `Err` ([`InflateError::Limit`]) if `max` passes the limit, or
/// ([`InflateError::Impossible`]) the deflate bound. A stream that is bad, ends early or
/// decodes to more than `max` is no error here: [`SharedStream::end`] says how it ended.
pub fn inflate_shared(
    what: &'static str,
    stored: &[u8],
    max: u64,
    prefix: &[u8],
    limits: &Limits,
) -> Result<SharedStream, InflateError> {
    limits.check_decoded(what, max)?;
    let stored_len = stored.len() as u64;
    let impossible = InflateError::Impossible {
        declared: max,
        stored: stored_len,
    };
    if max > stored_len.saturating_mul(MAX_INFLATE_RATIO) {
        return Err(impossible);
    }
    let max_len = usize::try_from(max).map_err(|_| impossible)?;
    // One spare byte past the most asked for shows a stream that is longer.
    let total = prefix
        .len()
        .checked_add(max_len)
        .and_then(|n| n.checked_add(1))
        .ok_or(impossible)?;
    let mut out = vec![0u8; total];
    let (head, room) = out.split_at_mut(prefix.len());
    head.copy_from_slice(prefix);
    let mut z = Decompress::new(true);
    let end = loop {
        let (in_before, out_before) = (z.total_in(), z.total_out());
        let input = stored
            .get(usize::try_from(in_before).unwrap_or(usize::MAX)..)
            .unwrap_or_default();
        let space = room
            .get_mut(usize::try_from(out_before).unwrap_or(usize::MAX)..)
            .unwrap_or_default();
        let Ok(status) = z.decompress(input, space, FlushDecompress::Finish) else {
            break StreamEnd::Invalid;
        };
        if z.total_out() > max {
            break StreamEnd::Past;
        }
        if matches!(status, Status::StreamEnd) {
            break StreamEnd::Complete;
        }
        if z.total_in() == in_before && z.total_out() == out_before {
            break StreamEnd::Truncated;
        }
    };
    let consumed = usize::try_from(z.total_in()).unwrap_or(stored.len());
    count(z.total_in(), z.total_out());
    Ok(SharedStream {
        data: out,
        prefix: prefix.len(),
        decoded: usize::try_from(z.total_out().min(max)).unwrap_or(max_len),
        total: z.total_out(),
        consumed,
        max,
        stored: stored_len,
        end,
    })
}

/// Bytes read and written by the inflates of [`inflate_exact`] and [`inflate_shared`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InflateCounts {
    /// Inflates run.
    pub streams: u64,
    /// Stored (compressed) bytes the decoders took.
    pub read: u64,
    /// Bytes the decoders wrote.
    pub written: u64,
}

static STREAMS: AtomicU64 = AtomicU64::new(0);
static READ: AtomicU64 = AtomicU64::new(0);
static WRITTEN: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static HERE: Cell<InflateCounts> = const {
        Cell::new(InflateCounts { streams: 0, read: 0, written: 0 })
    };
}

fn count(read: u64, written: u64) {
    STREAMS.fetch_add(1, Ordering::Relaxed);
    READ.fetch_add(read, Ordering::Relaxed);
    WRITTEN.fetch_add(written, Ordering::Relaxed);
    HERE.with(|h| {
        let c = h.get();
        h.set(InflateCounts {
            streams: c.streams.saturating_add(1),
            read: c.read.saturating_add(read),
            written: c.written.saturating_add(written),
        });
    });
}

/// The inflates run so far, in the whole process and on this thread: the measure of the
/// decoders' work that the resource contract's tests assert (one a stream, its stored
/// bytes read once), whatever a container declares.
pub fn inflate_counts() -> (InflateCounts, InflateCounts) {
    let all = InflateCounts {
        streams: STREAMS.load(Ordering::Relaxed),
        read: READ.load(Ordering::Relaxed),
        written: WRITTEN.load(Ordering::Relaxed),
    };
    (all, HERE.with(Cell::get))
}
