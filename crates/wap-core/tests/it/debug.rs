//! `Debug` of every view is bounded: lengths, counts and the first few items, never a
//! plane's tiles or a mask's bytes.

use gamedata_testkit::assert_debug_bounded;
use wap_core::LevelFile;
use wap_core::LevelOptions;
use wap_core::synth;

#[test]
fn debug_of_a_large_level_and_its_parts_is_bounded() {
    // 1,000 x 500 tiles a plane: 2 MB of tiles in the main plane.
    let data = synth::level(3, 1000, 500);
    assert_debug_bounded("the level data", &data, 4096);
    for plane in &data.planes {
        assert_debug_bounded("a plane's data", &plane, 2048);
    }
    let file = data.to_file(true).unwrap();
    let owner = LevelFile::from_data(file, &LevelOptions::default()).unwrap();
    assert_debug_bounded("the level file", &owner, 1024);
    let level = owner.view().unwrap();
    assert_debug_bounded("a level", &level, 4096);
    assert_debug_bounded("its header", &level.header(), 4096);
    assert_debug_bounded("its layout", &level.layout(), 2048);
    for plane in level.planes() {
        let plane = plane.unwrap();
        assert_debug_bounded("a plane", &plane, 2048);
        assert_debug_bounded("image sets", &plane.image_sets(), 1024);
        let mut objects = plane.objects();
        assert_debug_bounded("objects", &objects, 1024);
        if let Some(object) = objects.next() {
            assert_debug_bounded("an object", &object.unwrap(), 2048);
        }
    }
    let properties = level.tile_properties().unwrap();
    assert_debug_bounded("tile properties", &properties, 1024);
    assert_debug_bounded("their records", &properties.iter(), 1024);
    let index = properties.collect().unwrap();
    assert_debug_bounded("a tile property index", &index, 4096);
    for record in index.records() {
        assert_debug_bounded("a tile property", &record, 1024);
    }
}
