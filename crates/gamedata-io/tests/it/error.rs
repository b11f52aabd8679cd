//! The shared error shape: where a message places a kind, the structured fields and the
//! families, checked with a kind of the test's own.

use std::fmt;
use std::path::Path;

#[cfg(feature = "serde")]
use gamedata_io::kind_fields;
use gamedata_io::{Category, DataError, FileError, FormatError, Kind, LimitError};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
enum Probe {
    Short {
        found: u64,
        expected: u64,
    },
    Missing,
    Pair(u8, i16),
    // Built only by the `serde` test of the fields.
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    Newtype(u32),
    Limit(LimitError),
    Bad,
}

impl fmt::Display for Probe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Probe::Short { found, expected } => write!(f, "{found} bytes, expected {expected}"),
            Probe::Missing => f.write_str("no such entry"),
            Probe::Limit(l) => write!(f, "{l}"),
            other => write!(f, "probe {other:?}"),
        }
    }
}

impl Kind for Probe {
    fn file_prefix(&self) -> &'static str {
        if matches!(self, Probe::Pair(..)) {
            "in group file "
        } else {
            ""
        }
    }

    fn is_missing_entry(&self) -> bool {
        matches!(self, Probe::Missing)
    }

    fn category(&self) -> Category {
        match self {
            Probe::Limit(_) => Category::Limit,
            Probe::Bad => Category::Argument,
            _ => Category::Data,
        }
    }
}

const SHORT: Probe = Probe::Short {
    found: 3,
    expected: 8,
};

#[test]
fn the_sentence_places_file_entry_and_slot() {
    let bare = DataError::new(SHORT);
    assert_eq!(bare.to_string(), "3 bytes, expected 8");
    assert_eq!((bare.file(), bare.entry(), bare.slot()), (None, None, None));

    let named = bare.clone().with_file_name("MAP0.MUL");
    assert_eq!(named.to_string(), "MAP0.MUL: 3 bytes, expected 8");
    // A name already given is kept.
    assert_eq!(
        named.clone().with_file_name("OTHER").file(),
        Some("MAP0.MUL")
    );

    let entry = bare.clone().in_entry("COSMO1.STN", "A1.MNI", 4);
    assert_eq!(
        entry.to_string(),
        "in entry A1.MNI (slot 4) of COSMO1.STN: 3 bytes, expected 8"
    );
    assert_eq!((entry.entry(), entry.slot()), (Some("A1.MNI"), Some(4)));
    // An entry already named is kept, and so is its file.
    let again = entry.clone().in_entry("X.VOL", "B2.MNI", 9);
    assert_eq!(again, entry);
    // An entry with its slot but no file.
    let mut no_file = entry.clone();
    no_file.file = None;
    assert_eq!(
        no_file.to_string(),
        "in entry A1.MNI (slot 4): 3 bytes, expected 8"
    );

    let prefixed = DataError::new(Probe::Pair(1, -2)).with_file_name("COSMO1.STN");
    assert_eq!(
        prefixed.to_string(),
        "in group file COSMO1.STN: probe Pair(1, -2)"
    );

    let in_file = DataError::in_file(Path::new("/a/b/RETAIL01.WWD"))(bare.clone());
    assert_eq!(in_file.file(), Some("RETAIL01.WWD"));
    let kept = DataError::in_file(Path::new("/x/OTHER"))(in_file.clone());
    assert_eq!(kept.file(), Some("RETAIL01.WWD"));
}

#[test]
fn a_missing_entry_reads_as_a_lookup() {
    let e = DataError::missing_entry(Probe::Missing, "A9.MNI", "COSMO1.STN or COSMO1.VOL");
    assert_eq!(
        e.to_string(),
        "no entry named \"A9.MNI\" in COSMO1.STN or COSMO1.VOL"
    );
    assert_eq!((e.entry(), e.slot()), (Some("A9.MNI"), None));
    let mut nowhere = e.clone();
    nowhere.file = None;
    assert_eq!(nowhere.to_string(), "no entry named \"A9.MNI\" in the file");
}

#[cfg(feature = "serde")]
#[test]
fn fields_come_from_the_serialize_form() {
    let short = kind_fields(&SHORT);
    assert_eq!(short.name, "Short");
    assert_eq!(short.fields["found"], 3);
    assert_eq!(short.fields["expected"], 8);
    assert_eq!(short.fields.len(), 2);

    let unit = DataError::new(Probe::Missing).fields();
    assert_eq!((unit.name.as_str(), unit.fields.len()), ("Missing", 0));

    let pair = kind_fields(&Probe::Pair(7, -3));
    assert_eq!(pair.name, "Pair");
    assert_eq!(
        (pair.fields["0"].clone(), pair.fields["1"].clone()),
        (7.into(), (-3).into())
    );

    let newtype = kind_fields(&Probe::Newtype(42));
    assert_eq!(newtype.name, "Newtype");
    assert_eq!(newtype.fields["0"], 42);
    assert_eq!(newtype.fields.len(), 1);

    // Not an enum: named by its text form.
    assert_eq!(kind_fields(&5u8).name, "5");
    #[derive(serde::Serialize)]
    struct Plain {
        a: u8,
        b: u8,
    }
    let plain = kind_fields(&Plain { a: 1, b: 2 });
    assert_eq!(
        (plain.name.as_str(), plain.fields.len()),
        (r#"{"a":1,"b":2}"#, 0)
    );
    assert_eq!(DataError::new(SHORT).name(), "Short");
}

#[test]
fn every_error_is_in_its_family() {
    let limit = LimitError {
        what: "main block",
        unit: "bytes",
        found: 10,
        limit: 4,
    };
    assert_eq!(
        DataError::new(Probe::Limit(limit)).category(),
        Category::Limit
    );
    assert_eq!(DataError::new(Probe::Bad).category(), Category::Argument);
    assert_eq!(DataError::new(SHORT).category(), Category::Data);

    let data: FormatError<Probe> = DataError::new(Probe::Bad).into();
    assert_eq!(data.category(), Category::Argument);
    assert_eq!(data.kind(), Some(Probe::Bad));
    let file: FormatError<Probe> = FileError::IsFolder {
        path: "/tmp".into(),
    }
    .into();
    assert_eq!(
        (file.category(), file.kind(), file.file()),
        (Category::File, None, None)
    );

    let all = [
        (Category::File, "file"),
        (Category::Data, "data"),
        (Category::Limit, "limit"),
        (Category::Argument, "argument"),
        (Category::Write, "write"),
    ];
    for (category, name) in all {
        assert_eq!(category.name(), name);
        assert_eq!(category.to_string(), name);
        #[cfg(feature = "serde")]
        assert_eq!(serde_json::to_value(category).unwrap(), name);
    }
}
