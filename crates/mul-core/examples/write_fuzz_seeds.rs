//! Writes the Ultima Online fuzz seeds (synthetic files, this project's own) under a folder:
//! `cargo run -p mul-core --features write,fuzzing --example write_fuzz_seeds -- fuzz/seeds`.

use std::path::PathBuf;

use mul_core::MapSize;
use mul_core::exercise::join;
use mul_core::synth::{self, World};

/// A 12-byte index record.
fn record(offset: u32, length: u32) -> Vec<u8> {
    [offset, length, 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "fuzz/seeds".into()),
    );
    let world = World::generate(MapSize::from_blocks(8, 8)?, 21);
    let small = World::generate(MapSize::from_blocks(4, 4)?, 22);
    let mut map = vec![4u8 - 1]; // width byte: 4 blocks
    map.extend_from_slice(&small.map);

    // Pre-alpha statics: 11-byte records, block 1 at offset 0.
    let mut pre_data = Vec::new();
    for (i, id) in (0u8..).zip([1004u16, 5, 9]) {
        pre_data.extend_from_slice(&u32::from(i).to_le_bytes()); // serial
        pre_data.extend_from_slice(&id.to_le_bytes()); // id
        pre_data.extend_from_slice(&[i, 7 - i, 0, 0, 0]); // x, y, z, hue
    }
    let pre_index = [
        record(0xFFFF_FFFF, 0),
        record(0, 33),
        record(0xFFFF_FFFF, 0),
        record(11, 11),
    ]
    .concat();

    // Multis: two 16-byte multis, an empty entry and a garbage one.
    let mut multi_data = Vec::new();
    for (id, x, y, z) in [(0x3FFFu16, -2i16, -5i16, 0i16), (1, 3, 4, 7), (2, 0, 0, 20)] {
        multi_data.extend_from_slice(&id.to_le_bytes());
        for v in [x, y, z] {
            multi_data.extend_from_slice(&v.to_le_bytes());
        }
        multi_data.extend_from_slice(&1u32.to_le_bytes());
        multi_data.extend_from_slice(&0u32.to_le_bytes());
    }
    let multi_index = [
        record(0, 32),
        record(0xFFFF_FFFF, 0),
        record(32, 16),
        record(0xFF04_0C38, 0xFFFF_FFFF),
    ]
    .concat();

    let seeds: [(&str, &str, Vec<u8>); 7] = [
        ("uo_tiledata", "synthetic_high_seas", synth::tiledata()),
        ("uo_map", "synthetic_4x4_blocks", map),
        (
            "uo_statics",
            "synthetic_8x8_blocks",
            join(&world.staidx, &world.statics),
        ),
        ("uo_statics", "prealpha_shape", join(&pre_index, &pre_data)),
        ("uo_multi", "sixteen_byte", join(&multi_index, &multi_data)),
        ("uo_colours", "synthetic_hues", synth::hues()),
        ("uo_colours", "synthetic_radarcol", synth::radarcol()),
    ];
    for (target, name, bytes) in seeds {
        let dir = root.join(target);
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join(name), &bytes)?;
        println!("wrote {}/{name} ({} bytes)", dir.display(), bytes.len());
    }
    Ok(())
}
