//! `Debug` of every view is bounded: lengths, counts and the first few items, never a
//! plane's tiles or a mask's bytes.

use wap_core::synth;
use wap_core::{FileData, LevelFile, Limits};

fn assert_bounded(what: &str, text: String, bound: usize) {
    assert!(
        text.len() <= bound,
        "Debug of {what} is {} bytes: {}",
        text.len(),
        &text[..text.len().min(300)]
    );
}

#[test]
fn debug_of_a_large_level_and_its_parts_is_bounded() {
    // 1,000 x 500 tiles a plane: 2 MB of tiles in the main plane.
    let data = synth::level(3, 1000, 500);
    assert_bounded("the level data", format!("{data:?}"), 4096);
    for plane in &data.planes {
        assert_bounded("a plane's data", format!("{plane:?}"), 2048);
    }
    let file = data.to_file(true).unwrap();
    let owner = LevelFile::from_data(FileData::Read(file), &Limits::default()).unwrap();
    assert_bounded("the level file", format!("{owner:?}"), 1024);
    let level = owner.level().unwrap();
    assert_bounded("a level", format!("{level:?}"), 4096);
    assert_bounded("its header", format!("{:?}", level.header()), 4096);
    assert_bounded("its layout", format!("{:?}", level.layout()), 2048);
    for plane in level.planes() {
        let plane = plane.unwrap();
        assert_bounded("a plane", format!("{plane:?}"), 2048);
        assert_bounded("image sets", format!("{:?}", plane.image_sets()), 1024);
        let mut objects = plane.objects();
        assert_bounded("objects", format!("{objects:?}"), 1024);
        if let Some(object) = objects.next() {
            assert_bounded("an object", format!("{:?}", object.unwrap()), 2048);
        }
    }
    let properties = level.tile_properties().unwrap();
    assert_bounded("tile properties", format!("{properties:?}"), 1024);
    assert_bounded("their records", format!("{:?}", properties.iter()), 1024);
    let index = properties.collect().unwrap();
    assert_bounded("a tile property index", format!("{index:?}"), 4096);
    for record in index.records() {
        assert_bounded("a tile property", format!("{record:?}"), 1024);
    }
}
