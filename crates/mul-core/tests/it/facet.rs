use std::fs;

use gamedata_io::{FileData, FileError};
use mul_core::synth::World;
use mul_core::{Error, FacetFiles, FacetPaths, FacetSize, MapSize, StaticFormat};

#[test]
fn finds_files_in_any_case_and_opens_the_views() {
    let dir = tempfile::tempdir().unwrap();
    let w = World::generate(MapSize::from_blocks(16, 16).unwrap(), 5);
    fs::write(dir.path().join("MAP2.MUL"), &w.map).unwrap();
    fs::write(dir.path().join("StaIdx2.mul"), &w.staidx).unwrap();
    fs::write(dir.path().join("statics2.mul"), &w.statics).unwrap();
    fs::write(dir.path().join("TILEDATA.MUL"), &w.tiledata).unwrap();
    let paths = FacetPaths::find(dir.path(), 2).unwrap();
    assert!(paths.map.ends_with("MAP2.MUL") && paths.tiledata.is_some());
    assert_eq!((paths.radarcol.clone(), paths.hues.clone()), (None, None));

    let files = FacetFiles::read(paths.clone()).unwrap();
    let size = FacetSize::Explicit(MapSize::from_blocks(16, 16).unwrap());
    let facet = files.facet(size, None).unwrap();
    assert_eq!(facet.statics.format(), StaticFormat::Standard);
    assert!(facet.tiledata.is_some() && facet.radar.is_none());

    // Mapped through gamedata-io, the same bytes.
    // SAFETY: the files are private to this test and nothing changes them while mapped.
    #[allow(unsafe_code)]
    let mapped = FacetFiles::load(paths, |p| unsafe { FileData::map(p) }).unwrap();
    assert!(mapped.map.is_mapped());
    assert_eq!(
        mapped.facet(size, None).unwrap().map.as_slice(),
        facet.map.as_slice()
    );

    // The preset of facet 2 (288 x 200 blocks) does not fit a 16 x 16 map: the map is named.
    let err = files.facet(FacetSize::Preset(2), None).unwrap_err();
    assert!(
        matches!(&err, Error::InFile { file, .. } if file == "MAP2.MUL"),
        "{err:?}"
    );
    assert!(matches!(err.root(), Error::FileSize { what: "map", .. }));
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
    let facet = mul_core::Facet::parse(&w.map, w.size, &w.staidx, &w.statics, None).unwrap();
    let err = facet.block_statics(4, 0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "block (4, 0) is outside the map of 4 x 4 blocks"
    );
    assert!(facet.statics_at(32, 0).is_err());
    assert_eq!(facet.top_surface(32, 0).unwrap(), None);
}
