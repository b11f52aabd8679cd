//! Every level of `$GAMEDATA_DIR/wwd`. Expected figures (plane counts, main block sizes,
//! trailers, checksum classes) are the output of `tools/reference/wwd_facts.py`, an
//! independent reader written from `docs/formats/wwd.md` with Python's zlib
//! (`tools/reference/goldens/wwd_facts.json`, which `.ci/run` checks against the script).

use gamedata_testkit::require_file;
use wap_core::LevelOptions;
use wap_core::{ChecksumClass, ErrorKind, LevelFile, Limits, read_header};

use crate::kind;

/// A checksum class as `tools/reference/wwd_facts.py` writes it.
fn class_text(class: ChecksumClass) -> String {
    match class {
        ChecksumClass::Exact => "exact".into(),
        ChecksumClass::EditorSlack(x) => format!("editor slack {x}"),
        ChecksumClass::WapMap => "wapmap".into(),
        _ => "mismatch".into(),
    }
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn every_level_opens_with_its_sizes_trailer_and_checksum_class() {
    // (planes, main block size, trailer bytes, checksum class) of every level, as the
    // independent reader tools/reference/wwd_facts.py computes them with zlib.
    let facts = gamedata_testkit::reference("wwd_facts.json");
    let levels = facts.as_object().unwrap();
    assert_eq!(levels.len(), 25);
    for (file, want) in levels {
        let path = require_file(&format!("wwd/{file}"));
        if want.get("error").is_some() {
            assert!(LevelFile::open(&path).is_err(), "{file}");
            continue;
        }
        let level = LevelFile::open(&path).unwrap();
        let h = level.header();
        let number = |key: &str| want[key].as_u64().unwrap();
        assert_eq!(u64::from(h.plane_count()), number("planes"), "{file}");
        assert_eq!(
            level.main_block().len() as u64,
            number("main_block"),
            "{file}"
        );
        assert_eq!(level.trailer().len() as u64, number("trailer"), "{file}");
        assert_eq!(
            class_text(level.checksum_class()),
            want["checksum"],
            "{file}"
        );
        // The header alone, read without decompressing, says the same.
        let only = read_header(&path).unwrap();
        assert_eq!(only.checksum.get(), h.checksum(), "{file}");
        assert_eq!(&only.name[..], &h.raw().name[..], "{file}");
    }
    let wapmap = LevelFile::open(require_file("wwd/WapMapTest1.wwd")).unwrap();
    assert!(wapmap.trailer().starts_with(b"<wm_meta>"));
    let bushy = LevelFile::open(require_file("wwd/Bushy.wwd")).unwrap();
    assert_eq!(bushy.header().raw().reserved3.get(), 2);
    assert_eq!(bushy.header().name_lossy(), "Claw - Level 3");
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn uncompressed_copies_equal_their_compressed_levels() {
    for n in ["01", "03"] {
        let packed = LevelFile::open(require_file(&format!("wwd/RETAIL{n}.WWD"))).unwrap();
        let plain =
            LevelFile::open(require_file(&format!("wwd/RETAIL{n}_nocompress.WWD"))).unwrap();
        assert!(packed.compressed() && !plain.compressed());
        assert_eq!(
            packed.main_block().len(),
            plain.main_block().len(),
            "RETAIL{n}"
        );
        // The same plane headers (3 x 160 bytes) and the same tile property table; the bytes
        // between differ (measured: from byte 227,758 of RETAIL01's image, inside the
        // objects: the same objects in another order), compared level for level in
        // `views::uncompressed_copies_hold_the_same_level_with_objects_reordered`.
        let (a, b) = (packed.image(), plain.image());
        assert_eq!(
            a[1524..1524 + 480],
            b[1524..1524 + 480],
            "RETAIL{n} plane headers"
        );
        let table = packed.header().raw().tile_properties_offset.get() as usize;
        assert_eq!(a[table..], b[table..], "RETAIL{n} tile properties");
        assert_eq!(
            plain.header().main_block_size(),
            0,
            "the field is 0 when uncompressed"
        );
    }
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn the_bad_signature_level_is_refused_clearly() {
    let path = require_file("wwd/RETAIL01_badsig.WWD");
    let err = LevelFile::open(&path).unwrap_err();
    assert!(
        matches!(err.kind(), Some(ErrorKind::Signature { found: 0xADBA })),
        "{err}"
    );
    assert_eq!(err.file(), Some("RETAIL01_badsig.WWD"));
    assert!(matches!(
        kind(read_header(&path)),
        Some(ErrorKind::Signature { .. })
    ));
    // A limit below the largest real main block (2,450,657 bytes, RETAIL13) refuses it.
    let limits = Limits::default().with_max_decoded_bytes(2_000_000);
    let err = LevelFile::open_with(
        require_file("wwd/RETAIL13.WWD"),
        &LevelOptions::new().with_limits(limits),
    )
    .unwrap_err();
    assert!(matches!(err.kind(), Some(ErrorKind::Limit(_))), "{err}");
}
