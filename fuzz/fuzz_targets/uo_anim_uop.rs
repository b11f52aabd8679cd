//! Fuzz target: `gamedata_exercise::uo::anim_uop` over arbitrary bytes (a decoded
//! AnimationFrame*.uop entry, and the same bytes as an AnimationSequence.uop entry). It must
//! never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    std::hint::black_box(gamedata_exercise::uo::anim_uop(data));
});
