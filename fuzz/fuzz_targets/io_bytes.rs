//! Fuzz target: `gamedata_exercise::io::bytes`: a cursor program over its own bytes;
//! the cursor's properties must hold. It must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    std::hint::black_box(gamedata_exercise::io::bytes(data));
});
