//! Writes the seed inputs of the `io_*` fuzz targets into `fuzz/seeds/` (or the folder
//! given): a cursor program over its own bytes, and zlib streams with their declared sizes.

use std::path::PathBuf;

/// A zlib stream of `data` at flate2's default level, by the workspace's one deflate
/// backend (zlib-rs: the same bytes whatever is built).
fn zlib(data: &[u8]) -> std::io::Result<Vec<u8>> {
    use std::io::Write;
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(data)?;
    z.finish()
}

/// An `io_limits` input: declared size, limit, stream.
fn stream(declared: u64, limit: u64, stored: &[u8]) -> Vec<u8> {
    [&declared.to_le_bytes()[..], &limit.to_le_bytes(), stored].concat()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "fuzz/seeds".into()),
    );
    // Every operation once (op byte, u32 argument), then text for the decoders.
    let mut program = Vec::new();
    for (op, arg) in [
        (0u8, 0u32),
        (1, 3),
        (2, 5),
        (3, 2),
        (4, 7),
        (5, 0x0002_0004),
        (6, 0x0003_0001),
        (7, 0x0008_0002),
        (2, u32::MAX),
    ] {
        program.push(op);
        program.extend_from_slice(&arg.to_le_bytes());
    }
    program.extend_from_slice(b"NAME\0\xe9t\xe9\x9c");
    let text: Vec<u8> = (0..=255u8).collect();
    let data: Vec<u8> = (0..4000u32).map(|i| (i * 7 % 251) as u8).collect();
    let seeds: [(&str, &str, Vec<u8>); 5] = [
        ("io_bytes", "every_operation", program),
        ("io_bytes", "all_byte_values", text),
        (
            "io_limits",
            "exact_4000",
            stream(4000, 1 << 20, &zlib(&data)?),
        ),
        (
            "io_limits",
            "over_the_limit",
            stream(4000, 100, &zlib(&data)?),
        ),
        (
            "io_limits",
            "trailing_bytes",
            stream(4000, 1 << 20, &[zlib(&data)?, b"tail".to_vec()].concat()),
        ),
    ];
    for (target, name, bytes) in seeds {
        let dir = root.join(target);
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join(name), &bytes)?;
        println!("wrote {}/{name} ({} bytes)", dir.display(), bytes.len());
    }
    Ok(())
}
