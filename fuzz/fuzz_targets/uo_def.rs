//! Fuzz target: `gamedata_exercise::uo::def_text` over arbitrary bytes. It must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    std::hint::black_box(gamedata_exercise::uo::def_text(data));
});
