//! Fuzz target: `gamedata_exercise::tiled::from_tmj`: text read as a TMJ map (Tiled's JSON)
//! of a level (`gamedata_tiled::from_tmx::level_from_tmj`), the level read back written. It
//! must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    std::hint::black_box(gamedata_exercise::tiled::from_tmj(data));
});
