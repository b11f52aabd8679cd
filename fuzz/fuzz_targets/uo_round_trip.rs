//! Fuzz target: `mul_core::exercise::round_trip`: a MUL map written as a map UOP must
//! read back the same. It must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(
    init: {
        // One worker: the parallel paths still split and merge, without thread hand-offs
        // that cost more than the work under the sanitizer.
        let _ = rayon::ThreadPoolBuilder::new().num_threads(1).build_global();
    },
    |data: &[u8]| {
        std::hint::black_box(mul_core::exercise::round_trip(data));
    }
);
