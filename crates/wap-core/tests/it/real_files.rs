//! Every level of `$GAMEDATA_DIR/wwd`. Expected figures (main block sizes, trailers,
//! checksum classes) were computed by a separate Python script with zlib over the raw
//! bytes, and agree with `docs/formats/wwd.md`.

use gamedata_testkit::require_file;
use wap_core::{ChecksumClass, ErrorKind, LevelFile, Limits, read_header};

use crate::kind;

/// (file, planes, main block size, trailer bytes, checksum class)
const LEVELS: [(&str, u32, usize, usize, ChecksumClass); 24] = [
    ("BombzAway!.wwd", 1, 604_101, 0, ChecksumClass::Exact),
    ("Bushy.wwd", 3, 301_875, 0, ChecksumClass::EditorSlack(255)),
    (
        "GRUNTZREZ_AREA8_WORLDZ_LEVEL29.WWD",
        2,
        304_869,
        0,
        ChecksumClass::EditorSlack(1),
    ),
    (
        "LePortdeCoolness.wwd",
        3,
        1_054_704,
        0,
        ChecksumClass::EditorSlack(255),
    ),
    (
        "MountEverest.wwd",
        3,
        1_298_811,
        1,
        ChecksumClass::EditorSlack(255),
    ),
    (
        "ParadiseCove.wwd",
        3,
        885_108,
        0,
        ChecksumClass::EditorSlack(255),
    ),
    (
        "RETAIL01.WWD",
        3,
        647_102,
        0,
        ChecksumClass::EditorSlack(255),
    ),
    (
        "RETAIL01_nocompress.WWD",
        3,
        647_102,
        0,
        ChecksumClass::Exact,
    ),
    (
        "RETAIL02.WWD",
        3,
        511_054,
        0,
        ChecksumClass::EditorSlack(255),
    ),
    (
        "RETAIL03.WWD",
        3,
        1_077_343,
        0,
        ChecksumClass::EditorSlack(255),
    ),
    (
        "RETAIL03_nocompress.WWD",
        3,
        1_077_343,
        0,
        ChecksumClass::Exact,
    ),
    (
        "RETAIL04.WWD",
        3,
        944_892,
        0,
        ChecksumClass::EditorSlack(255),
    ),
    (
        "RETAIL05.WWD",
        3,
        1_924_461,
        0,
        ChecksumClass::EditorSlack(132),
    ),
    (
        "RETAIL06.WWD",
        3,
        1_220_367,
        0,
        ChecksumClass::EditorSlack(255),
    ),
    (
        "RETAIL07.WWD",
        3,
        1_677_652,
        0,
        ChecksumClass::EditorSlack(255),
    ),
    (
        "RETAIL08.WWD",
        3,
        1_486_696,
        0,
        ChecksumClass::EditorSlack(255),
    ),
    (
        "RETAIL09.WWD",
        3,
        1_546_721,
        0,
        ChecksumClass::EditorSlack(255),
    ),
    (
        "RETAIL10.WWD",
        3,
        1_420_701,
        0,
        ChecksumClass::EditorSlack(255),
    ),
    ("RETAIL11.WWD", 3, 1_170_949, 0, ChecksumClass::Exact),
    (
        "RETAIL12.WWD",
        3,
        1_294_841,
        0,
        ChecksumClass::EditorSlack(255),
    ),
    (
        "RETAIL13.WWD",
        3,
        2_450_657,
        0,
        ChecksumClass::EditorSlack(238),
    ),
    (
        "RETAIL14.WWD",
        3,
        1_338_984,
        0,
        ChecksumClass::EditorSlack(255),
    ),
    ("RockySwitch.wwd", 1, 208_594, 0, ChecksumClass::Exact),
    ("WapMapTest1.wwd", 3, 44_095, 63, ChecksumClass::WapMap),
];

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn every_level_opens_with_its_sizes_trailer_and_checksum_class() {
    for (file, planes, main_size, trailer, class) in LEVELS {
        let path = require_file(&format!("wwd/{file}"));
        let level = LevelFile::open(&path, &Limits::default()).unwrap();
        let h = level.header();
        assert_eq!(h.plane_count(), planes, "{file}");
        assert_eq!(level.main_block().len(), main_size, "{file}");
        assert_eq!(level.trailer().len(), trailer, "{file}");
        assert_eq!(level.checksum_class(), class, "{file}");
        // The header alone, read without decompressing, says the same.
        let only = read_header(&path).unwrap();
        assert_eq!(only.checksum.get(), h.checksum(), "{file}");
        assert_eq!(&only.name[..], &h.raw().name[..], "{file}");
    }
    let wapmap = LevelFile::open(require_file("wwd/WapMapTest1.wwd"), &Limits::default()).unwrap();
    assert!(wapmap.trailer().starts_with(b"<wm_meta>"));
    let bushy = LevelFile::open(require_file("wwd/Bushy.wwd"), &Limits::default()).unwrap();
    assert_eq!(bushy.header().raw().reserved3.get(), 2);
    assert_eq!(bushy.header().name_lossy(), "Claw - Level 3");
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn uncompressed_copies_equal_their_compressed_levels() {
    for n in ["01", "03"] {
        let packed = LevelFile::open(
            require_file(&format!("wwd/RETAIL{n}.WWD")),
            &Limits::default(),
        )
        .unwrap();
        let plain = LevelFile::open(
            require_file(&format!("wwd/RETAIL{n}_nocompress.WWD")),
            &Limits::default(),
        )
        .unwrap();
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
    let err = LevelFile::open(&path, &Limits::default()).unwrap_err();
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
    let limits = Limits {
        max_decoded_bytes: 2_000_000,
        ..Limits::default()
    };
    let err = LevelFile::open(require_file("wwd/RETAIL13.WWD"), &limits).unwrap_err();
    assert!(matches!(err.kind(), Some(ErrorKind::Limit(_))), "{err}");
}
