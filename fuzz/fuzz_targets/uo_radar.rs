//! Fuzz target: `gamedata_render::exercise::uo_radar`: a small facet (control, map, staidx,
//! statics, radarcol) drawn as a radar map at scale 1 and at a scale, with their
//! properties. It must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(
    init: {
        // One worker: the renderer's tasks still split and merge, without thread hand-offs
        // that cost more than the work under the sanitizer.
        let _ = rayon::ThreadPoolBuilder::new().num_threads(1).build_global();
    },
    |data: &[u8]| {
        std::hint::black_box(gamedata_render::exercise::uo_radar(data));
    }
);
