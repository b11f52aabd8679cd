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
/// offsets and counts as numbers, and where it was found as far as known: the file's name,
/// and inside a file of entries (a group file) the entry and its directory slot. It has no
/// file-system variant: the error of views and parsers.
///
/// `Display` is one sentence: where, then the kind's message. Where is "NAME: " for a file
/// (or the kind's own words before the name, [`Kind::file_prefix`]), "in entry TILES.MNI
/// (slot 1) of COSMO1.STN: " for an entry; a lookup that found nothing
/// ([`Kind::is_missing_entry`]) reads "no entry named "X" in PLACE".
///
/// The struct is `#[non_exhaustive]`: make one with [`DataError::new`] or `From` a kind.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DataError<K> {
    /// What is wrong, and where inside the file.
    pub kind: K,
    /// The file's name as found ("MAP0.MUL"), when known.
    pub file: Option<Box<str>>,
    /// The entry the bytes belong to, in a file of entries (boxed, so that the error of a
    /// file without entries stays small).
    pub entry: Option<Box<EntryName>>,
}

/// An entry of a file of entries (a group file), as a [`DataError`] names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryName {
    /// Its name as stored, or as asked for when none has it.
    pub name: Box<str>,
    /// Its slot in the file's directory, from 0, when known.
    pub slot: Option<usize>,
}

/// What the format crates' error kinds say of themselves beyond their message: how a
/// [`DataError`]'s sentence places them. With the `serde` feature, each crate's kinds are
/// also `Serialize`, which gives their variant name and fields as data (a unit variant is
/// its name, any other `{name: fields}`: `DataError::fields`), as the command's `--json`
/// errors and the Python exceptions carry them, whatever their `Debug` text.
pub trait Kind: fmt::Display {
    /// Which of the error families this kind is in: bytes the format does not allow
    /// ([`Category::Data`]), a decoded size past the caller's [`Limits`](crate::Limits)
    /// ([`Category::Limit`]), an argument no input could satisfy ([`Category::Argument`]),
    /// or something a writer was given that the format cannot store ([`Category::Write`]).
    fn category(&self) -> Category;

    /// The words before a file's name in a message that names no entry: `""` (the default)
    /// gives "MAP0.MUL: ...", `"in group file "` gives "in group file COSMO1.STN: ...".
    fn file_prefix(&self) -> &'static str {
        ""
    }

    /// True for a lookup that found no entry of the name asked for; the message is then
    /// "no entry named "NAME" in PLACE" (the error's `entry` and `file`).
    fn is_missing_entry(&self) -> bool {
        false
    }
}

impl<K: Kind> fmt::Display for DataError<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (file, entry) = (self.file.as_deref(), self.entry());
        if self.kind.is_missing_entry() {
            let name = entry.unwrap_or("?");
            return write!(
                f,
                "no entry named {name:?} in {}",
                file.unwrap_or("the file")
            );
        }
        match (entry, self.slot(), file) {
            (Some(entry), Some(slot), Some(file)) => {
                write!(f, "in entry {entry} (slot {slot}) of {file}: ")?;
            }
            (Some(entry), Some(slot), None) => write!(f, "in entry {entry} (slot {slot}): ")?,
            (_, _, Some(file)) => write!(f, "{}{file}: ", self.kind.file_prefix())?,
            _ => {}
        }
        write!(f, "{}", self.kind)
    }
}

impl<K: Kind + fmt::Debug> std::error::Error for DataError<K> {}

/// The family an error is in, as image-tiff separates format, limit and usage errors: a
/// program reacts to a bad file, a limit it set, a bad argument of its own and an
/// unwritable value in different ways. Its `Serialize` form is the lower-case name
/// (`"data"`), as the command's `--json` errors and the Python exceptions give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum Category {
    /// A file that cannot be found, read or mapped ([`FormatError::File`]).
    File,
    /// Bytes that are not what the format allows.
    Data,
    /// A size the bytes declare or decode to passes the caller's [`Limits`](crate::Limits).
    Limit,
    /// An argument that no file could make right (a map size of 0, a buffer of the wrong
    /// length, a size written wrongly).
    Argument,
    /// A value a writer was given that the format cannot store.
    Write,
}

impl Category {
    /// The lower-case name (`"data"`), as serialized.
    pub const fn name(self) -> &'static str {
        match self {
            Category::File => "file",
            Category::Data => "data",
            Category::Limit => "limit",
            Category::Argument => "argument",
            Category::Write => "write",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A [`Kind`]'s variant name and fields as data: what [`DataError::fields`] gives (the
/// `serde` feature).
#[cfg(feature = "serde")]
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct KindFields {
    /// The variant's name ("MapLength").
    pub name: String,
    /// Its fields by name: numbers, text, nested problems (as objects); empty for a unit
    /// variant, and `"0"`, `"1"` ... for a tuple variant's.
    pub fields: serde_json::Map<String, serde_json::Value>,
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
        DataError {
            kind,
            file: None,
            entry: None,
        }
    }

    /// An error of `kind` for entry `entry` looked up in `place` (a file's name, or "A or
    /// B" for several) and not found there.
    pub fn missing_entry(kind: K, entry: &str, place: &str) -> Self {
        DataError {
            kind,
            file: Some(place.into()),
            entry: Some(Box::new(EntryName {
                name: entry.into(),
                slot: None,
            })),
        }
    }

    /// Names the file `name` in an error that names none yet.
    #[must_use]
    pub fn with_file_name(mut self, name: &str) -> Self {
        self.file.get_or_insert_with(|| name.into());
        self
    }

    /// Names the entry (`entry` at `slot` of its directory) and its file `file` in an error
    /// that names none yet.
    #[must_use]
    pub fn in_entry(mut self, file: &str, entry: &str, slot: usize) -> Self {
        if self.entry.is_none() {
            self.entry = Some(Box::new(EntryName {
                name: entry.into(),
                slot: Some(slot),
            }));
        }
        self.with_file_name(file)
    }

    /// The entry's name, when known.
    pub fn entry(&self) -> Option<&str> {
        self.entry.as_ref().map(|e| &*e.name)
    }

    /// The entry's slot in its file's directory, when known.
    pub fn slot(&self) -> Option<usize> {
        self.entry.as_ref().and_then(|e| e.slot)
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

#[cfg(feature = "serde")]
impl<K: serde::Serialize> DataError<K> {
    /// The kind's variant name and fields as data, from its `Serialize` form (never from
    /// its `Debug` text).
    pub fn fields(&self) -> KindFields {
        kind_fields(&self.kind)
    }

    /// The kind's variant name ("MapLength"), as [`fields`](Self::fields) gives it.
    pub fn name(&self) -> String {
        self.fields().name
    }
}

impl<K: Kind> DataError<K> {
    /// The kind's family ([`Kind::category`]).
    pub fn category(&self) -> Category {
        self.kind.category()
    }
}

impl<K: Kind> FormatError<K> {
    /// The error's family: [`Category::File`] for a file-system error, else its kind's.
    pub fn category(&self) -> Category {
        match self {
            FormatError::File(_) => Category::File,
            FormatError::Data(e) => e.category(),
        }
    }
}

/// `kind`'s variant name and fields from its `Serialize` form: a unit variant serializes as
/// its name, a newtype, tuple or struct variant as `{name: value}` (serde's externally
/// tagged form). Anything else (a kind that is not an enum) is named by its text form.
#[cfg(feature = "serde")]
pub fn kind_fields<K: serde::Serialize>(kind: &K) -> KindFields {
    use serde_json::Value;
    let value = serde_json::to_value(kind).unwrap_or(Value::Null);
    match value {
        Value::String(name) => KindFields {
            name,
            fields: serde_json::Map::new(),
        },
        Value::Object(map) if map.len() == 1 => {
            let Some((name, inner)) = map.into_iter().next() else {
                return KindFields {
                    name: String::new(),
                    fields: serde_json::Map::new(),
                };
            };
            let fields = match inner {
                Value::Object(fields) => fields,
                Value::Array(items) => items
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| (i.to_string(), v))
                    .collect(),
                other => std::iter::once(("0".to_owned(), other)).collect(),
            };
            KindFields { name, fields }
        }
        other => KindFields {
            name: other.to_string(),
            fields: serde_json::Map::new(),
        },
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
