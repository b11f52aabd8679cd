//! Fuzz target: `gamedata_exercise::cosmo::episode`: an STN and a VOL group file, every map
//! read and its drawn cells decoded as a renderer does. It must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    std::hint::black_box(gamedata_exercise::cosmo::episode(data));
});
