//! Fuzz target: `gamedata_exercise::render::cosmo_draw`: a Cosmo map drawn with its tiles and
//! attribute overlay (map, TILES.MNI, MASKTILE.MNI, TILEATTR.MNI), with their properties.
//! It must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    std::hint::black_box(gamedata_exercise::render::cosmo_draw(data));
});
