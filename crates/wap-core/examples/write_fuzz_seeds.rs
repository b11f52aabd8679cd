//! Writes the WWD fuzz seeds (hand-built levels, this project's own) under a folder:
//! `cargo run -p wap-core --features fuzzing --example write_fuzz_seeds -- fuzz/seeds`.

use std::io::Write;
use std::path::PathBuf;

use flate2::Compression;
use flate2::write::ZlibEncoder;
use wap_core::base_checksum;

/// A header with `flags`, a name, 1 plane, the main block size and the checksum.
fn header(flags: u32, main_size: u32, checksum: u32) -> Vec<u8> {
    let mut h = vec![0u8; 1524];
    let mut put = |at: usize, bytes: &[u8]| {
        if let Some(slot) = h.get_mut(at..at + bytes.len()) {
            slot.copy_from_slice(bytes);
        }
    };
    put(0, &1524u32.to_le_bytes()); // header size
    put(8, &flags.to_le_bytes()); // flags
    put(16, b"Fuzz seed"); // name
    put(0x2DC, &1u32.to_le_bytes()); // planes
    put(0x2E0, &1524u32.to_le_bytes()); // planes offset
    put(0x2E8, &main_size.to_le_bytes()); // main block size
    put(0x2EC, &checksum.to_le_bytes()); // checksum
    h
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "fuzz/seeds".into()),
    );
    let block: Vec<u8> = (0..2000u32)
        .map(|i| u8::try_from(i % 7 * 31).unwrap_or(0))
        .collect();
    let mut z = ZlibEncoder::new(Vec::new(), Compression::default());
    z.write_all(&block)?;
    let stream = z.finish()?;
    let main_size = u32::try_from(block.len())?;

    let mut compressed = header(0x3, main_size, base_checksum(&stream).wrapping_add(255));
    compressed.extend_from_slice(&stream);
    compressed.extend_from_slice(b"\r\n"); // a trailer
    let mut plain = header(0x1, 0, base_checksum(&block));
    plain.extend_from_slice(&block);

    let dir = root.join("wwd_level");
    std::fs::create_dir_all(&dir)?;
    for (name, bytes) in [
        ("compressed_with_trailer", &compressed),
        ("uncompressed", &plain),
    ] {
        std::fs::write(dir.join(name), bytes)?;
        println!("wrote {}/{name} ({} bytes)", dir.display(), bytes.len());
    }
    Ok(())
}
