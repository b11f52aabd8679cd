//! Fuzz target: `gamedata_exercise::cosmo::sprites`: ACTRINFO.MNI over ACTORS.MNI (every frame of
//! the first 64 sprite types cut and read) and a backdrop, with their properties. It must
//! never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    std::hint::black_box(gamedata_exercise::cosmo::sprites(data));
});
