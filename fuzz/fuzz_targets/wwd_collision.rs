//! Fuzz target: `gamedata_render::exercise::wwd_collision`: a level's planes drawn as
//! collision maps, small and at the tile size, with their properties. It must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(
    init: {
        // One worker: the renderer's tasks still split and merge, without thread hand-offs
        // that cost more than the work under the sanitizer.
        let _ = rayon::ThreadPoolBuilder::new().num_threads(1).build_global();
    },
    |data: &[u8]| {
        std::hint::black_box(gamedata_render::exercise::wwd_collision(data));
    }
);
