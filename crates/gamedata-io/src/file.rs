//! The owner of a file's bytes: a memory map or a buffer read into memory.
//!
//! The workspace's only mapping call (memmap2's `MmapOptions::map`) is here, behind
//! [`FileData::map`] and [`FileData::map_with`]; the owners' `unsafe fn map` entry points
//! (`Owned::map`, `OwnedSet::map`), which the format crates and the command map through,
//! call it with the same contract.

use std::fmt;
use std::fs::File;
use std::io::Read;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use memmap2::{Mmap, MmapOptions};

use crate::Limits;

/// A file could not be found, opened, read or mapped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FileError {
    /// The operating system refused to open, read, list or map a path.
    #[error("cannot read {}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A folder was given where a file is expected.
    #[error("{} is a folder, expected a file", path.display())]
    IsFolder {
        /// The path given.
        path: PathBuf,
    },
    /// A file was given where a folder is expected.
    #[error("{} is not a folder", path.display())]
    NotFolder {
        /// The path given.
        path: PathBuf,
    },
    /// A folder has no file of the wanted name in any letter case.
    #[error("no {name} in {} (looked for any letter case of the name)", dir.display())]
    Missing {
        /// The folder searched.
        dir: PathBuf,
        /// The file name looked for.
        name: String,
    },
    /// A path where a game file is expected is something else than a regular file or a
    /// folder: a FIFO, a socket or a device.
    #[error("{} is {kind}, not a regular file", path.display())]
    NotRegular {
        /// The path found.
        path: PathBuf,
        /// What it is: "a FIFO", "a socket", "a character device", "a block device" or
        /// "not a regular file".
        kind: &'static str,
    },
    /// A folder met while listing a tree was left out.
    #[error("{} is left out: {why}", path.display())]
    LeftOut {
        /// The folder.
        path: PathBuf,
        /// Why ("it nests deeper than 32 folders" ...).
        why: &'static str,
    },
    /// A path that is not a regular file (a pipe, a device) gave more bytes than
    /// [`Limits::max_stream_bytes`] allows.
    #[error(
        "{} is not a regular file and gives more than {limit} bytes (the limit for a stream; \
         raise Limits::max_stream_bytes for a longer one)",
        path.display()
    )]
    StreamTooLong {
        /// The path given.
        path: PathBuf,
        /// The cap in bytes.
        limit: u64,
    },
}

impl FileError {
    /// An [`FileError::Io`] for `path`.
    pub fn io(path: impl AsRef<Path>, source: std::io::Error) -> Self {
        FileError::Io {
            path: path.as_ref().to_owned(),
            source,
        }
    }
}

/// How the pages of a mapping will be touched: advice to the kernel (`madvise`).
///
/// Advice changes speed, never results. It is applied on Unix and ignored elsewhere.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Access {
    /// No advice: the kernel's default read-ahead.
    #[default]
    Normal,
    /// Front to back, once (a whole-facet scan, a checksum): the kernel reads ahead
    /// aggressively and may drop pages soon after they are read.
    Sequential,
    /// Scattered look-ups (a tile here, a block there): read-ahead is turned down, so a
    /// look-up does not pull in pages that will not be used.
    Random,
}

/// Options for [`FileData::map_with`].
///
/// The defaults map lazily with no advice: opening costs microseconds whatever the file's
/// size, and each page is read on first touch. For a scan of the whole file, measure
/// [`MapOptions::populate`] and [`Access::Sequential`] before relying on them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct MapOptions {
    /// Pre-fault the whole mapping when it is made (`MAP_POPULATE` on Linux, ignored
    /// elsewhere). Opening then costs a read of the whole file, but a scan that follows
    /// takes no page faults; it helps when every page will be read, and wastes time and
    /// memory when only a few will.
    pub populate: bool,
    /// Access advice given to the kernel after mapping.
    pub access: Access,
}

impl MapOptions {
    /// Lazy mapping, no advice (the default).
    pub const fn new() -> Self {
        MapOptions {
            populate: false,
            access: Access::Normal,
        }
    }

    /// Sets [`MapOptions::populate`].
    #[must_use]
    pub const fn populate(mut self, populate: bool) -> Self {
        self.populate = populate;
        self
    }

    /// Sets [`MapOptions::access`].
    #[must_use]
    pub const fn access(mut self, access: Access) -> Self {
        self.access = access;
        self
    }
}

/// A file's bytes, owned: a memory map, or bytes in memory held any way the caller likes.
/// Views borrow from it (`&data[..]` or [`FileData::as_bytes`]) and live no longer than it.
///
/// Made by [`FileData::read`] and [`FileData::map`] from a path, or from bytes the caller
/// already holds, without a copy: a `Vec<u8>`, a `Box<[u8]>`, an `Arc<[u8]>` (a slice of an
/// archive, a buffer another owner shares), a `&'static [u8]` (`include_bytes!`), or any
/// `AsRef<[u8]> + Send + Sync + 'static` through [`FileData::from_owner`]:
///
/// ```
/// use std::sync::Arc;
/// use gamedata_io::FileData;
///
/// let shared: Arc<[u8]> = Arc::from(&b"MAP0"[..]);
/// let data = FileData::from(Arc::clone(&shared));
/// assert_eq!(&data[..], b"MAP0");
/// assert!(!data.is_mapped());
/// let borrowed = FileData::from(&b"static bytes"[..]);
/// assert_eq!(borrowed.len(), 12);
/// ```
///
/// It is `Send + Sync`; its `Debug` prints the kind and length, never the bytes.
pub struct FileData {
    inner: Owner,
}

/// Who holds the bytes.
enum Owner {
    Mapped(Mmap),
    Vec(Vec<u8>),
    Shared(Arc<[u8]>),
    Static(&'static [u8]),
    Other(Box<dyn AsRef<[u8]> + Send + Sync>),
}

impl fmt::Debug for FileData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.inner {
            Owner::Mapped(_) => "Mapped",
            Owner::Vec(_) => "Vec",
            Owner::Shared(_) => "Shared",
            Owner::Static(_) => "Static",
            Owner::Other(_) => "Other",
        };
        f.debug_struct("FileData")
            .field("kind", &kind)
            .field("len", &self.len())
            .finish()
    }
}

impl From<Vec<u8>> for FileData {
    /// Takes the vector, no copy.
    fn from(bytes: Vec<u8>) -> Self {
        FileData {
            inner: Owner::Vec(bytes),
        }
    }
}

impl From<Box<[u8]>> for FileData {
    /// Takes the box, no copy.
    fn from(bytes: Box<[u8]>) -> Self {
        Vec::from(bytes).into()
    }
}

impl From<Arc<[u8]>> for FileData {
    /// Shares the bytes, no copy.
    fn from(bytes: Arc<[u8]>) -> Self {
        FileData {
            inner: Owner::Shared(bytes),
        }
    }
}

impl From<&'static [u8]> for FileData {
    /// Borrows the bytes for good, no copy.
    fn from(bytes: &'static [u8]) -> Self {
        FileData {
            inner: Owner::Static(bytes),
        }
    }
}

impl<const N: usize> From<&'static [u8; N]> for FileData {
    /// Borrows the bytes for good, no copy (`include_bytes!`'s type).
    fn from(bytes: &'static [u8; N]) -> Self {
        FileData::from(&bytes[..])
    }
}

impl FileData {
    /// Wraps any owner of bytes (a buffer a binding's object owns, a decoded archive
    /// entry): the views borrow its `as_ref()` for as long as the `FileData` lives. No copy.
    pub fn from_owner<T: AsRef<[u8]> + Send + Sync + 'static>(owner: T) -> Self {
        FileData {
            inner: Owner::Other(Box::new(owner)),
        }
    }

    /// Reads the whole file into memory with the default [`Limits`]. Safe: later changes to
    /// the file are not seen.
    ///
    /// Returns `Err` as [`FileData::read_with`].
    pub fn read(path: impl AsRef<Path>) -> Result<Self, FileError> {
        Self::read_with(path, &Limits::default())
    }

    /// Reads the whole file into memory. A regular file is read at its length (bytes it
    /// gains while being read are not taken); anything else (a pipe, a device such as
    /// `/dev/zero`, a process substitution) is read up to `limits.max_stream_bytes`, and
    /// refused past it, so that an endless stream costs a bounded read and allocation.
    ///
    /// Returns `Err` ([`FileError::IsFolder`]) if `path` is a folder,
    /// ([`FileError::StreamTooLong`]) if a stream passes the cap, or ([`FileError::Io`]) if
    /// the file cannot be opened or read, or its length cannot be allocated.
    pub fn read_with(path: impl AsRef<Path>, limits: &Limits) -> Result<Self, FileError> {
        let path = path.as_ref();
        let io = |e| FileError::io(path, e);
        let file = File::open(path).map_err(io)?;
        let metadata = file.metadata().map_err(io)?;
        if metadata.is_dir() {
            return Err(FileError::IsFolder {
                path: path.to_owned(),
            });
        }
        if metadata.is_file() {
            return read_regular(file, metadata.len())
                .map(FileData::from)
                .map_err(io);
        }
        read_stream(file, path, limits.max_stream_bytes).map(FileData::from)
    }

    /// Maps the file read-only, lazily and with no advice: pages are read on first touch,
    /// so opening is O(1) in the file's size.
    ///
    /// Returns `Err` ([`FileError::Io`]) if the file cannot be opened or mapped.
    ///
    /// # Safety
    ///
    /// The same contract as [`FileData::map_with`].
    #[allow(unsafe_code)]
    pub unsafe fn map(path: impl AsRef<Path>) -> Result<Self, FileError> {
        // SAFETY: the caller upholds this function's contract, which is map_with's.
        unsafe { Self::map_with(path, MapOptions::new()) }
    }

    /// Maps the file read-only with `options` (pre-faulting, access advice).
    ///
    /// An empty file gives an empty buffer (a zero-length mapping is not allowed). A path
    /// that is not a regular file (a pipe, a device) cannot be mapped: it is read as
    /// [`FileData::read`] reads it, up to the default [`Limits::max_stream_bytes`].
    ///
    /// Returns `Err` ([`FileError::IsFolder`]) if `path` is a folder,
    /// ([`FileError::StreamTooLong`]) if a stream passes the cap, or ([`FileError::Io`]) if
    /// the file cannot be opened or mapped. Advice the kernel refuses is ignored: it never
    /// changes what is read.
    ///
    /// # Safety
    ///
    /// The caller must ensure that no process modifies or truncates the file while the
    /// mapping lives. A concurrent write changes bytes under borrowed views (undefined
    /// behaviour in Rust's model), and truncation makes any later access to the lost pages
    /// raise SIGBUS, which kills the process. For files that may change, use
    /// [`FileData::read`].
    #[allow(unsafe_code)]
    pub unsafe fn map_with(path: impl AsRef<Path>, options: MapOptions) -> Result<Self, FileError> {
        // SAFETY: the caller upholds this function's contract, which is map_capped's.
        unsafe { Self::map_capped(path.as_ref(), options, Limits::DEFAULT_MAX_STREAM_BYTES) }
    }

    /// As [`FileData::map_with`], reading a path that is not a regular file up to
    /// `stream_cap` bytes (the owners pass their options' [`Limits::max_stream_bytes`]).
    ///
    /// # Safety
    ///
    /// As [`FileData::map_with`].
    #[allow(unsafe_code)]
    pub(crate) unsafe fn map_capped(
        path: &Path,
        options: MapOptions,
        stream_cap: u64,
    ) -> Result<Self, FileError> {
        let io = |e| FileError::io(path, e);
        let file = std::fs::File::open(path).map_err(io)?;
        let metadata = file.metadata().map_err(io)?;
        if metadata.is_dir() {
            return Err(FileError::IsFolder {
                path: path.to_owned(),
            });
        }
        if !metadata.is_file() {
            return read_stream(file, path, stream_cap).map(FileData::from);
        }
        if metadata.len() == 0 {
            return Ok(FileData::from(Vec::new()));
        }
        let mut mmap_options = MmapOptions::new();
        if options.populate {
            mmap_options.populate();
        }
        // SAFETY: the caller upholds this function's contract (no concurrent modification
        // or truncation of the file while the map lives).
        let map = unsafe { mmap_options.map(&file) }.map_err(io)?;
        advise(&map, options.access);
        Ok(FileData {
            inner: Owner::Mapped(map),
        })
    }

    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        match &self.inner {
            Owner::Mapped(m) => m,
            Owner::Vec(v) => v,
            Owner::Shared(a) => a,
            Owner::Static(s) => s,
            Owner::Other(o) => (**o).as_ref(),
        }
    }

    /// The bytes as a `Vec`: the buffer itself when they were read into one, else a copy.
    pub fn into_vec(self) -> Vec<u8> {
        match self.inner {
            Owner::Vec(v) => v,
            _ => self.as_bytes().to_vec(),
        }
    }

    /// True if the bytes are a memory map.
    pub fn is_mapped(&self) -> bool {
        matches!(self.inner, Owner::Mapped(_))
    }
}

/// A regular file's `len` bytes, in a buffer reserved once (an allocation failure is an
/// error, not an abort). A file that shrinks while being read gives fewer bytes.
fn read_regular(file: File, len: u64) -> std::io::Result<Vec<u8>> {
    let too_large = || std::io::Error::from(std::io::ErrorKind::OutOfMemory);
    let mut buf = Vec::new();
    buf.try_reserve_exact(usize::try_from(len).map_err(|_| too_large())?)
        .map_err(|_| too_large())?;
    file.take(len).read_to_end(&mut buf)?;
    Ok(buf)
}

/// Up to `cap` bytes of a stream; [`FileError::StreamTooLong`] if it has more.
fn read_stream(file: File, path: &Path, cap: u64) -> Result<Vec<u8>, FileError> {
    let mut buf = Vec::new();
    file.take(cap.saturating_add(1))
        .read_to_end(&mut buf)
        .map_err(|e| FileError::io(path, e))?;
    if buf.len() as u64 > cap {
        return Err(FileError::StreamTooLong {
            path: path.to_owned(),
            limit: cap,
        });
    }
    Ok(buf)
}

#[cfg(unix)]
fn advise(map: &Mmap, access: Access) {
    let advice = match access {
        Access::Normal => return,
        Access::Sequential => memmap2::Advice::Sequential,
        Access::Random => memmap2::Advice::Random,
    };
    // Advice is a hint: a kernel that refuses it reads the same bytes, only slower.
    let _ = map.advise(advice);
}

#[cfg(not(unix))]
fn advise(_: &Mmap, _: Access) {}

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
