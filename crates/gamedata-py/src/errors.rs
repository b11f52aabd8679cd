//! The readers' errors as Python exceptions: a file that cannot be had raises the matching
//! built-in (`FileNotFoundError`, `IsADirectoryError`, `NotADirectoryError`,
//! `PermissionError`, else `OSError`); bytes the format does not allow raise
//! `gamedata.FormatError`, a `ValueError` carrying the error's kind, file and numbers.

use std::fmt;

use gamedata_io::{DataError, FileError, FormatError as ReaderError, Kind, KindFields};
use gamedata_render::RenderError;
use pyo3::exceptions::{
    PyFileNotFoundError, PyIndexError, PyIsADirectoryError, PyNotADirectoryError, PyOSError,
    PyPermissionError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;

pyo3::create_exception!(
    gamedata,
    FormatError,
    PyValueError,
    "Bytes that the format does not allow, or a value no file could make right. `category` \
     is the family (\"data\", \"limit\", \"argument\", \"write\"), `kind` names what is \
     wrong (the Rust error's variant, \"MapLength\"), `file` the file's name and `entry` the group file entry when \
     known, `numbers` a dict of the error's numbers (offsets, counts, found and expected; \
     each also an attribute). The message is the command line's sentence."
);

/// The Python exception for a file that could not be found, opened, read or mapped.
pub(crate) fn file_error(error: &FileError) -> PyErr {
    let message = with_source(error);
    match error {
        FileError::Io { source, .. } => match source.kind() {
            std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
            std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(message),
            std::io::ErrorKind::IsADirectory => PyIsADirectoryError::new_err(message),
            std::io::ErrorKind::NotADirectory => PyNotADirectoryError::new_err(message),
            _ => PyOSError::new_err(message),
        },
        FileError::IsFolder { .. } => PyIsADirectoryError::new_err(message),
        FileError::NotFolder { .. } => PyNotADirectoryError::new_err(message),
        FileError::Missing { .. } => PyFileNotFoundError::new_err(message),
        _ => PyOSError::new_err(message),
    }
}

/// `error`'s sentence and, for an operating-system error, its own ("cannot read X: No such
/// file or directory"), as the command line prints them.
fn with_source(error: &dyn std::error::Error) -> String {
    let mut message = error.to_string();
    let mut source = error.source();
    while let Some(s) = source {
        message.push_str(": ");
        message.push_str(&s.to_string());
        source = s.source();
    }
    message
}

/// The Python exception for a reader's error of either kind (mni-core's, mul-core's and
/// wap-core's alike).
pub(crate) fn reader_error<K: Kind + fmt::Debug + serde::Serialize>(
    error: ReaderError<K>,
) -> PyErr {
    match error {
        ReaderError::File(e) => file_error(&e),
        ReaderError::Data(e) => data_error(&e),
        other => PyOSError::new_err(other.to_string()),
    }
}

/// A `gamedata.FormatError` for bad bytes, with `kind`, `file`, `entry` and `numbers` set
/// from the error's structured fields ([`DataError::fields`], the kind's `Serialize` form),
/// never from its `Debug` text.
pub(crate) fn data_error<K: Kind + fmt::Debug + serde::Serialize>(error: &DataError<K>) -> PyErr {
    let fields = error.fields();
    let err = FormatError::new_err(error.to_string());
    Python::attach(|py| {
        let value = err.value(py);
        // Setting attributes on a fresh exception object cannot fail but for memory; the
        // exception is raised as made either way.
        let _ = set_fields(py, value.as_any(), &fields, error.file(), error.entry());
        let _ = value.setattr("category", error.category().name());
    });
    err
}

fn set_fields(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    fields: &KindFields,
    file: Option<&str>,
    entry: Option<&str>,
) -> PyResult<()> {
    value.setattr("kind", fields.name.as_str())?;
    value.setattr("file", file)?;
    value.setattr("entry", entry)?;
    let numbers = PyDict::new(py);
    for (name, number) in top_level_numbers(fields) {
        numbers.set_item(name, number)?;
        value.setattr(name, number)?;
    }
    value.setattr("numbers", numbers)
}

/// The integer fields of a kind at the top level (nested problems and text left out).
fn top_level_numbers(fields: &KindFields) -> Vec<(&str, i128)> {
    fields
        .fields
        .iter()
        .filter_map(|(name, value)| {
            let number = match value {
                serde_json::Value::Number(n) => n
                    .as_i64()
                    .map(i128::from)
                    .or_else(|| n.as_u64().map(i128::from))?,
                _ => return None,
            };
            Some((name.as_str(), number))
        })
        .collect()
}

/// The Python exception for a renderer's error: a reader's error inside it as
/// [`reader_error`] does, a region or scale out of range as `ValueError`.
pub(crate) fn render_error(error: RenderError) -> PyErr {
    match error {
        RenderError::Level(e) => data_error(&e),
        RenderError::Cosmo(e) => data_error(&e),
        RenderError::Uo(e) => data_error(&e),
        RenderError::MissingTable { .. } => PyFileNotFoundError::new_err(error.to_string()),
        other => PyValueError::new_err(other.to_string()),
    }
}

/// An `IndexError` for a position outside the map.
pub(crate) fn outside(what: &str, x: i64, y: i64, width: u32, height: u32) -> PyErr {
    PyIndexError::new_err(format!(
        "{what} ({x}, {y}) is outside the map of {width} x {height} tiles"
    ))
}

#[cfg(test)]
mod tests {
    use std::fmt;

    use gamedata_io::kind_fields;

    use super::*;

    /// A kind whose `Debug` text says nothing of its fields: the numbers must not come
    /// from it.
    #[derive(Clone, Copy, serde::Serialize)]
    enum Probe {
        MapLength {
            what: &'static str,
            found: u64,
            size: (u32, u32),
            offset: i64,
        },
        Empty,
        Nested(Inner),
    }

    #[derive(Clone, Copy, serde::Serialize)]
    enum Inner {
        Loop,
    }

    impl fmt::Debug for Probe {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("Renamed { found: 999 }")
        }
    }

    #[test]
    fn kind_and_numbers_come_from_the_structured_fields_not_debug() {
        let kind = Probe::MapLength {
            what: "map, x",
            found: 123,
            size: (4, 5),
            offset: -7,
        };
        assert_eq!(format!("{kind:?}"), "Renamed { found: 999 }");
        let fields = kind_fields(&kind);
        assert_eq!(fields.name, "MapLength");
        assert_eq!(
            top_level_numbers(&fields),
            vec![("found", 123), ("offset", -7)]
        );
        let empty = kind_fields(&Probe::Empty);
        assert_eq!(empty.name, "Empty");
        assert!(top_level_numbers(&empty).is_empty());
        let nested = kind_fields(&Probe::Nested(Inner::Loop));
        assert_eq!(nested.name, "Nested");
        assert!(top_level_numbers(&nested).is_empty());
    }

    #[test]
    fn a_real_kind_gives_its_variant_and_numbers() {
        let e = mul_core::DataError::new(mul_core::ErrorKind::TileDataLength { found: 1000 });
        let fields = e.fields();
        assert_eq!(fields.name, "TileDataLength");
        assert_eq!(top_level_numbers(&fields), vec![("found", 1000)]);
    }
}
