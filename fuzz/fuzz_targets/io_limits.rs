//! Fuzz target: `gamedata_exercise::io::limits`: a declared size, a limit and a zlib
//! stream; the decoder must keep to both. It must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    std::hint::black_box(gamedata_exercise::io::limits(data));
});
