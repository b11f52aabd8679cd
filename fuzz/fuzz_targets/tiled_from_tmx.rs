//! Fuzz target: `gamedata_exercise::tiled::from_tmx`: text read as a TMX map of a level
//! (`gamedata_tiled::from_tmx`), the level read back written. It must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    std::hint::black_box(gamedata_exercise::tiled::from_tmx(data));
});
