//! Fuzz target: `gamedata_exercise::render::cosmo_level`: a Cosmo level drawn in layers by
//! `gamedata_render::cosmo` (backdrop, tiles, actors; TILES.MNI, MASKTILE.MNI,
//! TILEATTR.MNI, ACTRINFO.MNI, ACTORS.MNI, backdrop, map), with its properties. It must never
//! panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    std::hint::black_box(gamedata_exercise::render::cosmo_level(data));
});
