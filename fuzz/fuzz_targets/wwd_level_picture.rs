//! Fuzz target: `gamedata_exercise::render::wwd_level_picture`: a level drawn with its
//! graphics from a REZ archive (control, level, archive), with its properties. It must never
//! panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(
    init: {
        // Two workers: rows are drawn in parallel.
        let _ = rayon::ThreadPoolBuilder::new().num_threads(2).build_global();
    },
    |data: &[u8]| {
        std::hint::black_box(gamedata_exercise::render::wwd_level_picture(data));
    }
);
