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
    /// The reader's error family: `"file"` (a file that cannot be had), `"data"` (bad
    /// bytes), `"limit"` (a size past a cap), `"argument"` (a value no file could make
    /// right) or `"write"` (a value the format cannot store); `null` for the command's own
    /// errors (a bad flag, a picture too large).
    category: Option<gamedata_io::Category>,
    /// What is wrong ("MapSizeUnknown", "SizeText"), or `null` for any other error (a
    /// missing file, the command's own).
    kind: Option<String>,
    /// The file the bad bytes are in, when known.
    file: Option<String>,
    /// The entry of a file of entries (a Cosmo group file's), when known.
    entry: Option<String>,
    /// The kind's fields by name (numbers, text, nested problems); empty when `kind` is
    /// `null`.
    fields: serde_json::Map<String, serde_json::Value>,
}

/// A reader's error as data: its family, and for bad bytes what is wrong and where.
struct Found {
    category: gamedata_io::Category,
    data: Option<DataFound>,
}

struct DataFound {
    fields: gamedata_io::KindFields,
    file: Option<String>,
    entry: Option<String>,
}

fn of_data<K: gamedata_io::Kind + serde::Serialize>(e: &gamedata_io::DataError<K>) -> Found {
    Found {
        category: e.category(),
        data: Some(DataFound {
            fields: e.fields(),
            file: e.file().map(str::to_owned),
            entry: e.entry().map(str::to_owned),
        }),
    }
}

fn of_format<K: gamedata_io::Kind + serde::Serialize>(e: &gamedata_io::FormatError<K>) -> Found {
    match e {
        gamedata_io::FormatError::Data(d) => of_data(d),
        other => Found {
            category: other.category(),
            data: None,
        },
    }
}

/// The first reader's error in `err`'s chain (any of the three format crates', or a file
/// owner's).
fn reader_error(err: &anyhow::Error) -> Option<Found> {
    err.chain().find_map(|cause| {
        let found = [
            cause.downcast_ref::<mul_core::DataError>().map(of_data),
            cause.downcast_ref::<wap_core::DataError>().map(of_data),
            cause.downcast_ref::<mni_core::DataError>().map(of_data),
            cause.downcast_ref::<mul_core::Error>().map(of_format),
            cause.downcast_ref::<wap_core::Error>().map(of_format),
            cause.downcast_ref::<mni_core::Error>().map(of_format),
            cause
                .downcast_ref::<gamedata_io::FileError>()
                .map(|_| Found {
                    category: gamedata_io::Category::File,
                    data: None,
                }),
        ];
        found.into_iter().flatten().next()
    })
}

impl ErrorDocument {
    /// The document of `err`, whose sentence and causes are `message`.
    pub(crate) fn new(err: &anyhow::Error, message: String) -> Self {
        let found = reader_error(err);
        let category = found.as_ref().map(|f| f.category);
        let (kind, file, entry, fields) = match found.and_then(|f| f.data) {
            Some(d) => (Some(d.fields.name), d.file, d.entry, d.fields.fields),
            None => (None, None, None, serde_json::Map::new()),
        };
        ErrorDocument {
            error: ErrorReport {
                message,
                category,
                kind,
                file,
                entry,
                fields,
            },
        }
    }
}
