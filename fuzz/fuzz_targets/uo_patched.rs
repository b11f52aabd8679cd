//! Fuzz target: `gamedata_exercise::uo::patched` over arbitrary bytes. It must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(
    init: {
        // Two workers: the parallel paths split, run on both threads and merge, so the
        // properties that compare them with the sequential paths see real splits.
        let _ = rayon::ThreadPoolBuilder::new().num_threads(2).build_global();
    },
    |data: &[u8]| {
        std::hint::black_box(gamedata_exercise::uo::patched(data));
    }
);
