//! The owner of a file's bytes: a memory map or a buffer read into memory.
//!
//! This module holds the crate's only `unsafe` code: the call to [`memmap2::Mmap::map`].

use std::fmt;
use std::ops::Deref;
use std::path::Path;

use memmap2::Mmap;

use crate::error::{Error, Result};

/// A file's bytes, owned: mapped or read. Parse views borrow from it (`&data[..]`).
pub enum FileData {
    /// A read-only memory map of the file.
    Mapped(Mmap),
    /// The file read into memory.
    Read(Vec<u8>),
}

impl fmt::Debug for FileData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self {
            FileData::Mapped(_) => "Mapped",
            FileData::Read(_) => "Read",
        };
        f.debug_struct("FileData")
            .field("kind", &kind)
            .field("len", &self.len())
            .finish()
    }
}

impl FileData {
    /// Reads the whole file into memory. Safe: later changes to the file are not seen.
    ///
    /// Returns `Err` ([`Error::Io`]) if the file cannot be read.
    pub fn read(path: &Path) -> Result<Self> {
        std::fs::read(path)
            .map(FileData::Read)
            .map_err(|source| Error::Io {
                path: path.to_owned(),
                source,
            })
    }

    /// Maps the file read-only. Pages are read on first touch, so opening is O(1).
    ///
    /// Returns `Err` ([`Error::Io`]) if the file cannot be opened or mapped.
    ///
    /// # Safety
    ///
    /// The caller must ensure that no process modifies or truncates the file while the
    /// mapping lives. A concurrent write changes bytes under borrowed views (undefined
    /// behaviour in Rust's model), and truncation makes any later access to the lost pages
    /// raise SIGBUS, which kills the process. For files that may change, use
    /// [`FileData::read`].
    #[allow(unsafe_code)]
    pub unsafe fn map(path: &Path) -> Result<Self> {
        let io = |source| Error::Io {
            path: path.to_owned(),
            source,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        // SAFETY: the caller upholds this function's contract (no concurrent modification
        // or truncation of the file while the map lives).
        let map = unsafe { Mmap::map(&file) }.map_err(io)?;
        Ok(FileData::Mapped(map))
    }

    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            FileData::Mapped(m) => m,
            FileData::Read(v) => v,
        }
    }
}

impl Deref for FileData {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl AsRef<[u8]> for FileData {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}
