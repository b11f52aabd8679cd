//! A panic-free cursor over borrowed bytes that reads zerocopy records in place.

use std::fmt;

use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

/// A read that does not fit in the data: `size` bytes at `offset` of a `len`-byte buffer.
///
/// Small and `Copy`, with no borrowed data, so a format crate can keep it as the source of
/// its own error and add what it knows (file, entry, block). Offsets are counted from the
/// start of the buffer the first [`Bytes`] was made over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[error("{}", self.describe())]
pub struct ReadError {
    /// Where the read started, in bytes.
    pub offset: u64,
    /// Bytes the read needed; `u64::MAX` when the size itself overflowed (a count of
    /// records too large to multiply out).
    pub size: u64,
    /// Length of the buffer in bytes.
    pub len: u64,
}

impl ReadError {
    /// The first byte after the read, or `None` if the size or the end overflowed.
    pub fn end(&self) -> Option<u64> {
        if self.size == u64::MAX {
            return None;
        }
        self.offset.checked_add(self.size)
    }

    fn describe(&self) -> String {
        match self.end() {
            Some(end) => format!(
                "bytes {}..{end} are past the end of the {}-byte data",
                self.offset, self.len
            ),
            _ => format!(
                "a read at byte {} is too large to address (the data is {} bytes)",
                self.offset, self.len
            ),
        }
    }
}

/// A cursor over `&'data [u8]`: records, record slices and byte runs, read in place.
///
/// No method panics: every offset and length goes through checked arithmetic and `get`, and
/// a read that does not fit is a [`ReadError`] that leaves the cursor where it was. Records
/// are alignment-1 zerocopy types (`#[repr(C)]` structs of `u8`, byte arrays and
/// `zerocopy::little_endian` integers), so they cast at any offset; results borrow the data,
/// not the cursor. `Debug` prints at most 8 bytes, never a whole mapping.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Bytes<'data> {
    /// The bytes not read yet.
    rest: &'data [u8],
    /// Offset of `rest[0]` in the original buffer.
    position: usize,
    /// Length of the original buffer.
    total: usize,
}

impl fmt::Debug for Bytes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let head = self.rest.get(..8).unwrap_or(self.rest);
        f.debug_struct("Bytes")
            .field("position", &self.position)
            .field("remaining", &self.rest.len())
            .field("head", &head)
            .finish()
    }
}

/// `usize` to `u64` for error reports; every supported target has `usize` of at most 64 bits.
fn wide(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

impl<'data> Bytes<'data> {
    /// A cursor at the start of `data`.
    pub const fn new(data: &'data [u8]) -> Self {
        Bytes {
            rest: data,
            position: 0,
            total: data.len(),
        }
    }

    /// The bytes not read yet.
    pub const fn remaining(&self) -> &'data [u8] {
        self.rest
    }

    /// Number of bytes not read yet.
    pub const fn len(&self) -> usize {
        self.rest.len()
    }

    /// True if every byte has been read.
    pub const fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }

    /// The cursor's position: bytes from the start of the original buffer.
    pub const fn position(&self) -> usize {
        self.position
    }

    fn error(&self, at: usize, size: Option<usize>) -> ReadError {
        ReadError {
            offset: wide(self.position).saturating_add(wide(at)),
            size: size.map_or(u64::MAX, wide),
            len: wide(self.total),
        }
    }

    /// `size` bytes starting `at` bytes past the cursor, without moving it.
    fn peek_range(&self, at: usize, size: Option<usize>) -> Result<&'data [u8], ReadError> {
        size.and_then(|n| at.checked_add(n))
            .and_then(|end| self.rest.get(at..end))
            .ok_or_else(|| self.error(at, size))
    }

    /// Reads one record and moves past it.
    ///
    /// Returns `Err` if fewer than `size_of::<T>()` bytes remain.
    pub fn read<T>(&mut self) -> Result<&'data T, ReadError>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        let value = self.read_at::<T>(0)?;
        self.advance(size_of::<T>());
        Ok(value)
    }

    /// Reads `count` consecutive records and moves past them.
    ///
    /// Returns `Err` if fewer than `count * size_of::<T>()` bytes remain, or if that product
    /// overflows.
    pub fn read_slice<T>(&mut self, count: usize) -> Result<&'data [T], ReadError>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        let slice = self.slice_at::<T>(0, count)?;
        self.advance(size_of_val(slice));
        Ok(slice)
    }

    /// Reads `size` bytes and moves past them.
    ///
    /// Returns `Err` if fewer than `size` bytes remain.
    pub fn read_bytes(&mut self, size: usize) -> Result<&'data [u8], ReadError> {
        let bytes = self.peek_range(0, Some(size))?;
        self.advance(size);
        Ok(bytes)
    }

    /// Moves past `size` bytes.
    ///
    /// Returns `Err` if fewer than `size` bytes remain.
    pub fn skip(&mut self, size: usize) -> Result<(), ReadError> {
        self.read_bytes(size).map(|_| ())
    }

    /// The record `at` bytes past the cursor, without moving it.
    ///
    /// Returns `Err` if the record does not lie inside the remaining bytes.
    pub fn read_at<T>(&self, at: usize) -> Result<&'data T, ReadError>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        let bytes = self.peek_range(at, Some(size_of::<T>()))?;
        T::ref_from_bytes(bytes).map_err(|_| self.error(at, Some(size_of::<T>())))
    }

    /// `count` records starting `at` bytes past the cursor, without moving it.
    ///
    /// Returns `Err` if they do not lie inside the remaining bytes, or if
    /// `count * size_of::<T>()` overflows.
    pub fn slice_at<T>(&self, at: usize, count: usize) -> Result<&'data [T], ReadError>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        let size = count.checked_mul(size_of::<T>());
        let bytes = self.peek_range(at, size)?;
        <[T]>::ref_from_bytes_with_elems(bytes, count).map_err(|_| self.error(at, size))
    }

    /// `size` bytes starting `at` bytes past the cursor, without moving it.
    ///
    /// Returns `Err` if they do not lie inside the remaining bytes.
    pub fn bytes_at(&self, at: usize, size: usize) -> Result<&'data [u8], ReadError> {
        self.peek_range(at, Some(size))
    }

    /// A cursor over `size` bytes starting `at` bytes past this one; its positions and
    /// errors still count from the start of the original buffer.
    ///
    /// Returns `Err` if the range does not lie inside the remaining bytes.
    pub fn sub(&self, at: usize, size: usize) -> Result<Bytes<'data>, ReadError> {
        let rest = self.peek_range(at, Some(size))?;
        Ok(Bytes {
            rest,
            // at + size fits in rest.len(), so position + at fits in total.
            position: self.position.saturating_add(at),
            total: self.total,
        })
    }

    /// Moves past `n` bytes that are known to remain.
    fn advance(&mut self, n: usize) {
        self.rest = self.rest.get(n..).unwrap_or_default();
        self.position = self.position.saturating_add(n);
    }
}
