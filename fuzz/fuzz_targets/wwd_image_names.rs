//! Fuzz target: `gamedata_exercise::wwd::image_names`: a REZ archive indexed as a level's image
//! source, its folders found by path and by image-set key against a brute force of every
//! cut, with its properties. It must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    std::hint::black_box(gamedata_exercise::wwd::image_names(data));
});
