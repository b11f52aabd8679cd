//! Fuzz target: `gamedata_exercise::wwd::ani`: an ANI animation viewed, its frames walked,
//! timed and written again, with its properties. It must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    std::hint::black_box(gamedata_exercise::wwd::ani(data));
});
