//! The command's error as one JSON document, for `--json`: the sentence printed on stderr,
//! and when bytes were at fault, what is wrong as data, from the readers' structured fields
//! (the kind's variant name and fields, [`gamedata_io::DataError::fields`]), never parsed
//! from text.

use serde::Serialize;

/// `{"error": {...}}`.
#[derive(Serialize)]
pub(crate) struct ErrorDocument {
    error: ErrorReport,
}

#[derive(Serialize)]
struct ErrorReport {
    /// The sentence and its causes, as on stderr after `gamedata: error: `.
    message: String,
    /// What is wrong in the bytes ("MapSizeUnknown"), or `null` for any other error (a
    /// missing file, a bad argument).
    kind: Option<String>,
    /// The file the bad bytes are in, when known.
    file: Option<String>,
    /// The entry of a file of entries (a Cosmo group file's), when known.
    entry: Option<String>,
    /// The kind's fields by name (numbers, text, nested problems); empty when `kind` is
    /// `null`.
    fields: serde_json::Map<String, serde_json::Value>,
}

/// The first reader's data error in `err`'s chain, as (fields, file, entry).
fn data_error(
    err: &anyhow::Error,
) -> Option<(gamedata_io::KindFields, Option<String>, Option<String>)> {
    fn of<K: serde::Serialize>(
        e: &gamedata_io::DataError<K>,
    ) -> (gamedata_io::KindFields, Option<String>, Option<String>) {
        (
            e.fields(),
            e.file().map(str::to_owned),
            e.entry().map(str::to_owned),
        )
    }
    err.chain().find_map(|cause| {
        if let Some(e) = cause.downcast_ref::<mul_core::DataError>() {
            return Some(of(e));
        }
        if let Some(e) = cause.downcast_ref::<wap_core::DataError>() {
            return Some(of(e));
        }
        if let Some(e) = cause.downcast_ref::<mni_core::DataError>() {
            return Some(of(e));
        }
        let formats = [
            cause
                .downcast_ref::<mul_core::Error>()
                .and_then(|e| match e {
                    gamedata_io::FormatError::Data(d) => Some(of(d)),
                    _ => None,
                }),
            cause
                .downcast_ref::<wap_core::Error>()
                .and_then(|e| match e {
                    gamedata_io::FormatError::Data(d) => Some(of(d)),
                    _ => None,
                }),
            cause
                .downcast_ref::<mni_core::Error>()
                .and_then(|e| match e {
                    gamedata_io::FormatError::Data(d) => Some(of(d)),
                    _ => None,
                }),
        ];
        formats.into_iter().flatten().next()
    })
}

impl ErrorDocument {
    /// The document of `err`, whose sentence and causes are `message`.
    pub(crate) fn new(err: &anyhow::Error, message: String) -> Self {
        let (kind, file, entry, fields) = match data_error(err) {
            Some((fields, file, entry)) => (Some(fields.name), file, entry, fields.fields),
            None => (None, None, None, serde_json::Map::new()),
        };
        ErrorDocument {
            error: ErrorReport {
                message,
                kind,
                file,
                entry,
                fields,
            },
        }
    }
}
