//! Fuzz target: `gamedata_exercise::wwd::main_block`: the fuzzed bytes are a main block (and
//! two header words) that the harness compresses, so mutations reach the plane, object and
//! tile property parsers past zlib. It must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    std::hint::black_box(gamedata_exercise::wwd::main_block(data));
});
