//! The readers' errors as Python exceptions: a file that cannot be had raises the matching
//! built-in (`FileNotFoundError`, `IsADirectoryError`, `NotADirectoryError`,
//! `PermissionError`, else `OSError`); bytes the format does not allow raise
//! `gamedata.FormatError`, a `ValueError` carrying the error's kind, file and numbers.

use std::fmt;

use gamedata_io::{DataError, FileError, FormatError as ReaderError};
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
    "Bytes that the format does not allow. `kind` names what is wrong (the Rust error's \
     variant, \"MapLength\"), `file` the file's name when known, `numbers` a dict of the \
     error's numbers (offsets, counts, found and expected; each also an attribute). The \
     message is the command line's sentence."
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

/// The Python exception for a reader's error of either kind.
pub(crate) fn reader_error<K: fmt::Debug + fmt::Display>(error: ReaderError<K>) -> PyErr {
    match error {
        ReaderError::File(e) => file_error(&e),
        ReaderError::Data(e) => data_error(&e),
        other => PyOSError::new_err(other.to_string()),
    }
}

/// A `gamedata.FormatError` for bad bytes (mul-core's and wap-core's), with `kind`, `file`
/// and `numbers` set.
pub(crate) fn data_error<K: fmt::Debug + fmt::Display>(error: &DataError<K>) -> PyErr {
    bad_data(
        error.to_string(),
        &format!("{:?}", error.kind),
        error.file(),
        None,
    )
}

/// mni-core's errors of either kind, as [`reader_error`] does for the others.
pub(crate) fn cosmo_error(error: mni_core::Error) -> PyErr {
    match error {
        mni_core::Error::File(e) => file_error(&e),
        mni_core::Error::Data(e) => cosmo_data_error(&e),
        other => PyOSError::new_err(other.to_string()),
    }
}

/// A `gamedata.FormatError` for bad bytes of a Cosmo group file: also `entry`, the entry's
/// name when known.
pub(crate) fn cosmo_data_error(error: &mni_core::DataError) -> PyErr {
    let context = &error.context;
    bad_data(
        error.to_string(),
        &format!("{:?}", error.kind),
        context.file.as_deref(),
        Some(context.entry.as_deref()),
    )
}

/// A `gamedata.FormatError` with `message`, and `kind`, `file`, `numbers` (and `entry`
/// when given) from the kind's `Debug` text.
fn bad_data(
    message: String,
    debug: &str,
    file: Option<&str>,
    entry: Option<Option<&str>>,
) -> PyErr {
    let err = FormatError::new_err(message);
    Python::attach(|py| {
        let value = err.value(py);
        // Setting attributes on a fresh exception object cannot fail but for memory; the
        // exception is raised as made either way.
        let _ = set_fields(py, value.as_any(), debug, file, entry);
    });
    err
}

fn set_fields(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    debug: &str,
    file: Option<&str>,
    entry: Option<Option<&str>>,
) -> PyResult<()> {
    value.setattr("kind", variant_name(debug))?;
    value.setattr("file", file)?;
    if let Some(entry) = entry {
        value.setattr("entry", entry)?;
    }
    let numbers = PyDict::new(py);
    for (name, number) in top_level_numbers(debug) {
        numbers.set_item(name, number)?;
        value.setattr(name, number)?;
    }
    value.setattr("numbers", numbers)
}

/// The variant's name at the start of a `Debug` text ("MapLength { .. }" -> "MapLength").
fn variant_name(debug: &str) -> &str {
    let end = debug.find([' ', '{', '(']).unwrap_or(debug.len());
    debug.get(..end).unwrap_or(debug)
}

/// The `name: integer` fields of a struct variant's `Debug` text at the top level (nested
/// values and text skipped).
fn top_level_numbers(debug: &str) -> Vec<(&str, i128)> {
    let Some(open) = debug.find('{') else {
        return Vec::new();
    };
    let body = debug.get(open.saturating_add(1)..).unwrap_or("");
    let mut fields = Vec::new();
    let (mut depth, mut quoted, mut start) = (0usize, false, 0usize);
    for (i, c) in body.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '{' | '(' | '[' if !quoted => depth = depth.saturating_add(1),
            '}' | ')' | ']' if !quoted && depth > 0 => depth = depth.saturating_sub(1),
            ',' | '}' if !quoted && depth == 0 => {
                fields.push(body.get(start..i).unwrap_or(""));
                start = i.saturating_add(1);
            }
            _ => {}
        }
    }
    fields
        .into_iter()
        .filter_map(|field| {
            let (name, value) = field.split_once(':')?;
            Some((name.trim(), value.trim().parse::<i128>().ok()?))
        })
        .collect()
}

/// The Python exception for a renderer's error: a reader's error inside it as
/// [`reader_error`] does, a region or scale out of range as `ValueError`.
pub(crate) fn render_error(error: RenderError) -> PyErr {
    match error {
        RenderError::Level(e) => data_error(&e),
        RenderError::Cosmo(e) => cosmo_data_error(&e),
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
    use super::*;

    #[test]
    fn numbers_come_from_the_top_level_fields_only() {
        let debug = r#"MapLength { what: "map, x", found: 123, size: MapSize { width_blocks: 4, height_blocks: 5 }, offset: -7 }"#;
        assert_eq!(variant_name(debug), "MapLength");
        assert_eq!(
            top_level_numbers(debug),
            vec![("found", 123), ("offset", -7)]
        );
        assert_eq!(variant_name("Empty"), "Empty");
        assert!(top_level_numbers("Rez(Loop)").is_empty());
    }
}
