//! Levels exported to TMX and TMJ and read back (`from_tmx::level_from_tmx`,
//! `level_from_tmj`, which agree): the same level, its main block equal byte for byte to
//! the original's as wap-core's writer writes it (and to the file's own for a level laid
//! out as the writer lays it out).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use gamedata_tiled::from_tmx::level_from_tmx;
use gamedata_tiled::wwd::{ExportOptions, export};
use wap_core::{ImageSource, Level, LevelData, LevelFile, Limits, RezFile};

/// The level read back from its TMX export (images from `source`).
fn round_trip(level: &Level<'_>, source: &ImageSource) -> LevelData {
    let export = export(level, source, &ExportOptions::default(), &Limits::default()).unwrap();
    let mut tmx = Vec::new();
    gamedata_tiled::tmx::write_tmx(&export.map, &mut tmx).unwrap();
    let back = level_from_tmx(std::str::from_utf8(&tmx).unwrap(), &Limits::default()).unwrap();
    // The TMJ export reads back as the TMX export does.
    let mut tmj = Vec::new();
    gamedata_tiled::tmj::write_tmj(&export.map, &mut tmj).unwrap();
    let from_tmj = gamedata_tiled::from_tmx::level_from_tmj(
        std::str::from_utf8(&tmj).unwrap(),
        &Limits::default(),
    )
    .unwrap();
    assert_eq!(from_tmj.main_block().unwrap(), back.main_block().unwrap());
    back
}

#[test]
fn a_synthetic_level_comes_back_whole() {
    let mut data = wap_core::synth::level(9, 40, 24);
    // Text a field cannot hold as text, fill tiles, flags of every bit.
    data.planes[1].objects[0].name = b"a\nb\x01".to_vec();
    data.planes[1].objects[1]
        .fixed
        .hit_type_flags
        .set(0xFFFF_FFFF);
    data.planes[0].tiles[3] = 0xEEEE_EEEE;
    let rez = wap_core::synth::level_archive(&data).unwrap();
    let source = ImageSource::Archive(RezFile::from_data(rez, &Default::default()).unwrap());
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let back = round_trip(&level, &source);
    assert_eq!(back.main_block().unwrap(), data.main_block().unwrap());
    assert_eq!(back.image().unwrap(), image);
}

/// Every level of the shared data but the bad one, from an empty archive (the images do
/// not matter to the level read back).
#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn the_real_levels_come_back_whole() {
    let dir = gamedata_testkit::require_file("wwd");
    let empty = wap_core::write_rez(&[("EMPTY.TXT", b"")]).unwrap();
    let source = ImageSource::Archive(RezFile::from_data(empty, &Default::default()).unwrap());
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("wwd")))
        .filter(|p| !p.to_string_lossy().contains("badsig"))
        .collect();
    names.sort();
    assert_eq!(names.len(), 24);
    let mut same_as_file = 0;
    for path in &names {
        let file = LevelFile::open(path).unwrap();
        let level = file.view().unwrap();
        let back = round_trip(&level, &source);
        let original = LevelData::from_level(&level).unwrap();
        let block = back.main_block().unwrap();
        assert_eq!(block, original.main_block().unwrap(), "{}", path.display());
        assert_eq!(back.header.name, original.header.name);
        assert_eq!(back.header.start_x, original.header.start_x);
        same_as_file += usize::from(block == file.main_block());
    }
    eprintln!(
        "{} levels read back; {same_as_file} main blocks equal to the file's",
        names.len()
    );
}
