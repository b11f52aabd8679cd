//! The error shape the format crates share: a file that cannot be had, or bad bytes.

use std::fmt;
use std::path::Path;

use crate::file::FileError;
use crate::limits::LimitError;

/// An error of a format crate: a file that cannot be found, read or mapped
/// ([`FormatError::File`]), or bytes that are not what the format allows
/// ([`FormatError::Data`], a [`DataError`]). Functions that take a path return it; views
/// and parsers, which touch no file system, return the [`DataError`] alone, which `?`
/// turns into this.
///
/// `Display` is one sentence ("MAP0.MUL: the map is 3211264 bytes, ..."). A file-system
/// error keeps the operating system's error as its [`source`](std::error::Error::source),
/// so print the whole chain with `{:#}` under anyhow, or walk `source()`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FormatError<K> {
    /// A file could not be found, read or mapped.
    #[error(transparent)]
    File(#[from] FileError),
    /// The bytes are not what the format allows.
    #[error(transparent)]
    Data(#[from] DataError<K>),
}

/// Bytes that are not what the format allows: `K`, the crate's small `Copy` error kind with
/// offsets and counts as numbers, and the name of the file it was found in when known. It
/// has no file-system variant: the error of views and parsers.
///
/// `Display` is one sentence: the file's name, when known, then the kind's message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{kind}", FilePrefix(file.as_deref()))]
pub struct DataError<K> {
    /// What is wrong, and where inside the file.
    pub kind: K,
    /// The file's name as found ("MAP0.MUL"), when known.
    pub file: Option<Box<str>>,
}

/// `"NAME: "` before a message, or nothing.
struct FilePrefix<'a>(Option<&'a str>);

impl fmt::Display for FilePrefix<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(file) => write!(f, "{file}: "),
            None => Ok(()),
        }
    }
}

impl<K: From<LimitError>> From<LimitError> for DataError<K> {
    fn from(limit: LimitError) -> Self {
        DataError::new(limit.into())
    }
}

impl<K: From<LimitError>> From<LimitError> for FormatError<K> {
    fn from(limit: LimitError) -> Self {
        FormatError::Data(limit.into())
    }
}

impl<K> DataError<K> {
    /// An error of `kind` in no named file.
    pub const fn new(kind: K) -> Self {
        DataError { kind, file: None }
    }

    /// The name of the file the bad bytes are in, when known.
    pub fn file(&self) -> Option<&str> {
        self.file.as_deref()
    }

    /// A function that names `path`'s file in an error that names none yet, for `map_err`.
    pub fn in_file(path: &Path) -> impl FnOnce(Self) -> Self + '_ {
        move |mut e| {
            if e.file.is_none() {
                e.file = Some(crate::find::file_name(path).into());
            }
            e
        }
    }
}

impl<K: Copy> DataError<K> {
    /// What is wrong in the bytes.
    pub fn kind(&self) -> K {
        self.kind
    }
}

impl<K: Copy> FormatError<K> {
    /// A data error of `kind` in no named file.
    pub fn data(kind: K) -> Self {
        FormatError::Data(DataError::new(kind))
    }

    /// What is wrong in the bytes; `None` for a file-system error.
    pub fn kind(&self) -> Option<K> {
        match self {
            FormatError::Data(e) => Some(e.kind),
            FormatError::File(_) => None,
        }
    }

    /// The name of the file the bad bytes are in, when known; `None` for a file-system
    /// error (it names its path).
    pub fn file(&self) -> Option<&str> {
        match self {
            FormatError::Data(e) => e.file(),
            FormatError::File(_) => None,
        }
    }
}
