//! mul-core: every structure and error path on hand-built bytes and synthetic worlds, the
//! real files (ignored without `GAMEDATA_DIR`), and the replay of fuzz cases.

// The one place this test crate allows what library code may not: a failed unwrap, expect,
// index or panic is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::cast_possible_truncation
)]

/// The kind of a result's data error; `None` for `Ok` or a file-system error.
pub(crate) fn kind<T, E: Into<mul_core::Error>>(
    result: Result<T, E>,
) -> Option<mul_core::ErrorKind> {
    result.err().and_then(|e| e.into().kind())
}

mod anim;
mod anim_files;
mod anim_records;
mod anim_uop;
mod anim_uop_files;
mod animdata;
mod art;
mod art_uop;
mod colours;
mod debug;
mod diff;
mod facet;
mod fuzz_regressions;
mod gump;
mod gump_compressed;
mod gump_def;
mod gump_uop;
mod map;
mod multi;
mod owned;
mod query;
mod real_files;
mod statics;
mod synth_drawable;
mod texmap;
mod texterr_def;
mod threads;
mod tiledata;
mod uop;
mod uop_ranged;
mod verdata;

/// One 196-byte map block whose cell i has land id `base + i` and z `i - 32`.
pub(crate) fn block_bytes(base: u16) -> Vec<u8> {
    let mut b = 0xDEAD_BEEFu32.to_le_bytes().to_vec(); // header, ignored
    for i in 0..64u16 {
        b.extend_from_slice(&(base + i).to_le_bytes()); // land id
        b.push((i as i8 - 32) as u8); // z
    }
    b
}

/// A 12-byte index record.
pub(crate) fn index_record(offset: u32, length: u32) -> Vec<u8> {
    let mut r = offset.to_le_bytes().to_vec();
    r.extend_from_slice(&length.to_le_bytes());
    r.extend_from_slice(&0u32.to_le_bytes()); // extra
    r
}

/// A 7-byte static.
pub(crate) fn static7(id: u16, x: u8, y: u8, z: i8, hue: u16) -> Vec<u8> {
    let mut r = id.to_le_bytes().to_vec();
    r.extend_from_slice(&[x, y, z as u8]);
    r.extend_from_slice(&hue.to_le_bytes());
    r
}

/// The errors stay small: a view's error is the kind and where it was found, with no I/O
/// variant (a `DataError` is a plain struct); the kind is `Copy`. Bytes, on 64-bit targets.
#[test]
#[cfg(target_pointer_width = "64")]
fn error_sizes() {
    use mul_core::{DataError, Error, ErrorKind};
    gamedata_testkit::assert_error_sizes::<ErrorKind, DataError, Error>((80, 104, 104));
}

/// Each kind is in its family: a bad size argument is an argument error named by its own
/// problem ("SizeText", as before it had a family), a cap a limit error, a bad length data.
#[test]
fn error_families() {
    use gamedata_io::{Category, LimitError};
    use mul_core::{DataError, Error, ErrorKind, MapSize};

    let text = "1024".parse::<MapSize>().unwrap_err();
    assert_eq!(text.category(), Category::Argument);
    #[cfg(feature = "serde")]
    assert_eq!(text.name(), "SizeText");
    assert_eq!(
        text.to_string(),
        "a map size is written WIDTHxHEIGHT in tiles, such as 1024x1024"
    );
    let facet = MapSize::preset(9).unwrap_err();
    assert_eq!(facet.category(), Category::Argument);
    #[cfg(feature = "serde")]
    {
        let fields = facet.fields();
        assert_eq!(fields.name, "UnknownFacet");
        assert_eq!(fields.fields["facet"], 9);
    }
    let zero = MapSize::from_blocks(0, 3).unwrap_err();
    assert_eq!(zero.category(), Category::Argument);
    #[cfg(feature = "serde")]
    assert_eq!(zero.name(), "Dimensions");

    let data = DataError::from(ErrorKind::TileDataLength { found: 7 });
    assert_eq!(data.category(), Category::Data);
    let limit = DataError::from(LimitError {
        what: "map UOP chunks",
        unit: "bytes",
        found: 10,
        limit: 5,
    });
    assert_eq!(limit.category(), Category::Limit);
    let file: Error = mul_core::FacetFiles::open("/nonexistent/uo", 0).unwrap_err();
    assert_eq!(file.category(), Category::File);
    assert_eq!(Error::from(data).category(), Category::Data);
}
