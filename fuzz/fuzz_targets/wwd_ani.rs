//! Fuzz target: `wap_core::exercise::ani`: an ANI animation viewed, its frames walked,
//! timed and written again, with its properties. It must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    std::hint::black_box(wap_core::exercise::ani(data));
});
