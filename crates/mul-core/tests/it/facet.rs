use std::fs;
use std::path::PathBuf;

use mul_core::synth::World;
use mul_core::{
    DiffPaths, Error, ErrorKind, Facet, FacetBytes, FacetData, FacetFiles, FacetOptions,
    FacetPaths, FileData, FileError, Limits, MapFormat, MapSize, StaticFormat,
};

/// Reads the files `paths` names, as `FacetFiles::open` does after finding them.
fn read(paths: FacetPaths) -> mul_core::Result<FacetFiles> {
    let data = FacetData::read_files(&paths, &Limits::default())?;
    Ok(FacetFiles::from_data(
        paths,
        data,
        &FacetOptions::default(),
    )?)
}

#[test]
fn finds_files_in_any_case_and_opens_the_views() {
    let dir = tempfile::tempdir().unwrap();
    let w = World::generate(MapSize::from_blocks(288, 200).unwrap(), 5);
    fs::write(dir.path().join("MAP2.MUL"), &w.map).unwrap();
    fs::write(dir.path().join("StaIdx2.mul"), &w.staidx).unwrap();
    fs::write(dir.path().join("statics2.mul"), &w.statics).unwrap();
    fs::write(dir.path().join("TILEDATA.MUL"), &w.tiledata).unwrap();
    let paths = FacetPaths::find(dir.path(), 2).unwrap();
    assert!(paths.map.ends_with("MAP2.MUL") && paths.tiledata.is_some());
    assert_eq!((paths.radarcol.clone(), paths.hues.clone()), (None, None));

    // Facet 2's one known size, 288 x 200 blocks, proven by the length: no size to give.
    let files = FacetFiles::open(dir.path(), 2).unwrap();
    let facet = files.view().unwrap();
    assert_eq!((facet.size().width(), facet.size().height()), (2304, 1600));
    assert_eq!(facet.statics.format(), StaticFormat::Standard);
    assert!(facet.tiledata.is_some() && facet.radar.is_none());
    assert_eq!(read(paths).unwrap().view().unwrap().size(), facet.size());

    // Mapped, the same bytes.
    // SAFETY: the files are private to this test and nothing changes them while mapped.
    #[allow(unsafe_code)]
    let mapped = unsafe { FacetFiles::map(dir.path(), 2) }.unwrap();
    assert!(mapped.data().map.is_mapped() && !files.data().map.is_mapped());
    assert_eq!(mapped.view().unwrap().map.as_slice(), facet.map.as_slice());

    // A size given that the map does not have: the map is named.
    let options = FacetOptions::default().with_size(MapSize::from_blocks(16, 16).unwrap());
    let files = FacetFiles::open_with(dir.path(), 2, &options).unwrap();
    assert_eq!(files.options(), &options);
    let err = files.view().unwrap_err();
    assert!(err.file() == Some("MAP2.MUL"), "{err:?}");
    assert!(matches!(
        err.kind(),
        ErrorKind::MapLength { what: "map", .. }
    ));
    assert!(
        err.to_string().starts_with("MAP2.MUL: the map holds "),
        "{err}"
    );
}

/// A facet 0 or 1 folder in memory: `blocks` zeroed map blocks and an empty statics
/// index, with made-up paths (used in messages only).
fn facet_in_memory(
    facet: u8,
    blocks: usize,
    format: MapFormat,
    options: &FacetOptions,
) -> Result<FacetFiles, mul_core::DataError> {
    let map = vec![0u8; blocks * 196];
    let map = match format {
        MapFormat::Mul => map,
        MapFormat::Uop => mul_core::write_map_uop(&map, facet)?,
    };
    let paths = FacetPaths {
        facet,
        map: PathBuf::from(format.file_name(facet)),
        map_format: format,
        staidx: PathBuf::from(format!("staidx{facet}.mul")),
        statics: PathBuf::from(format!("statics{facet}.mul")),
        tiledata: None,
        radarcol: None,
        hues: None,
        diffs: DiffPaths::default(),
    };
    let data = FacetData {
        map: FileData::from(map),
        staidx: FileData::from(Vec::new()),
        statics: FileData::from(Vec::new()),
        tiledata: None,
        radarcol: None,
        hues: None,
        diffs: Default::default(),
    };
    FacetFiles::from_data(paths, data, options)
}

#[test]
fn facets_0_and_1_open_at_both_real_widths_with_and_without_padding() {
    for (facet, width_blocks, padding, format) in [
        (0, 768, 0, MapFormat::Mul),
        (0, 896, 1, MapFormat::Mul),
        (1, 768, 1, MapFormat::Mul),
        (1, 896, 0, MapFormat::Mul),
        (0, 896, 1, MapFormat::Uop),
    ] {
        let files = facet_in_memory(
            facet,
            width_blocks * 512 + padding,
            format,
            &FacetOptions::default(),
        )
        .unwrap();
        let f = files.view().unwrap();
        assert_eq!(
            (f.size().width(), f.size().height(), f.map.padded()),
            (width_blocks as u32 * 8, 4096, padding == 1),
            "facet {facet}, {width_blocks} blocks wide, padding {padding}"
        );
    }
}

#[test]
fn a_map_of_no_known_size_is_refused_never_reshaped() {
    // The pre-alpha map's shape: 128 x 128 blocks as facet 0. The old reader took 32 x 512.
    let files = facet_in_memory(0, 128 * 128, MapFormat::Mul, &FacetOptions::default()).unwrap();
    let err = files.view().unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::MapSizeUnknown {
                facet: 0,
                length: 3_211_264,
                blocks: 16_384,
                square: Some(128),
            }
        ),
        "{err:?}"
    );
    let text = err.to_string();
    assert!(text.starts_with("map0.mul: the map is "), "{text}");
    for part in [
        "3211264 bytes, 16384 blocks",
        "not one of facet 0's sizes (896 x 512 or 768 x 512 blocks",
        "a square map of 128 x 128 blocks (1024 x 1024 tiles) would fit",
        "FacetOptions::size, or --width and --height",
    ] {
        assert!(text.contains(part), "{part:?} not in {text:?}");
    }
    // Given the size, it opens.
    let size = MapSize::from_blocks(128, 128).unwrap();
    let options = FacetOptions::default().with_size(size);
    let files = facet_in_memory(0, 128 * 128, MapFormat::Mul, &options).unwrap();
    let f = files.view().unwrap();
    assert_eq!(f.size(), size);

    // Whole 512-block columns but not a known width, in both forms: refused too.
    for format in [MapFormat::Mul, MapFormat::Uop] {
        let files = facet_in_memory(1, 32 * 512, format, &FacetOptions::default()).unwrap();
        let err = files.view().unwrap_err();
        assert!(
            matches!(
                err.kind(),
                ErrorKind::MapSizeUnknown {
                    facet: 1,
                    blocks: 16_384,
                    ..
                }
            ),
            "{err:?}"
        );
    }
    // A facet with no known size at all.
    let files = facet_in_memory(9, 64, MapFormat::Mul, &FacetOptions::default()).unwrap();
    let text = files.view().unwrap_err().to_string();
    assert!(
        text.contains("facet 9 has no known size; a square map of 8 x 8"),
        "{text}"
    );
}

#[test]
fn missing_files_are_named() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("map0.mul"), b"").unwrap();
    let err = FacetPaths::find(dir.path(), 0).unwrap_err();
    assert!(
        matches!(&err, Error::File(FileError::Missing { name, .. }) if name == "staidx0.mul"),
        "{err}"
    );
    assert!(err.to_string().starts_with("no staidx0.mul in "), "{err}");
}

#[test]
fn statics_outside_the_map_are_an_error_naming_the_block() {
    let w = World::generate(MapSize::from_blocks(4, 4).unwrap(), 1);
    let bytes = FacetBytes {
        map: &w.map,
        staidx: &w.staidx,
        statics: &w.statics,
    };
    let facet = Facet::parse(bytes, w.size, None).unwrap();
    let err = facet.block_statics(4, 0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "block (4, 0) is outside the map of 4 x 4 blocks"
    );
    assert!(facet.statics_at(32, 0).is_err());
    assert_eq!(facet.top_surface(32, 0).unwrap(), None);
}
