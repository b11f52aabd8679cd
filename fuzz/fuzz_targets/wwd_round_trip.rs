//! Fuzz target: `gamedata_exercise::wwd::round_trip`: a level written again must read back
//! the same. It must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    std::hint::black_box(gamedata_exercise::wwd::round_trip(data));
});
