//! Fuzz target: `gamedata_exercise::cosmo::round_trip`: a group file and a map written again
//! must read back the same. It must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    std::hint::black_box(gamedata_exercise::cosmo::round_trip(data));
});
