//! Writes the WWD fuzz seeds (this project's own levels: hand-built and synthetic) under a
//! folder: `cargo run -p gamedata-exercise --example write_wap_fuzz_seeds -- fuzz/seeds`.

use std::io::Write;
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::write::ZlibEncoder;
use wap_core::{Level, PidFlags, PidPixels, base_checksum, synth, write_pid, write_rez};

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

fn write(dir: &Path, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join(name), bytes)?;
    println!("wrote {}/{name} ({} bytes)", dir.display(), bytes.len());
    Ok(())
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

    // A small synthetic level: three planes, objects, single, double and mask records.
    let level = synth::level(11, 16, 16);
    let level_dir = root.join("wwd_level");
    write(&level_dir, "compressed_with_trailer", &compressed)?;
    write(&level_dir, "uncompressed", &plain)?;
    write(&level_dir, "synthetic_compressed", &level.to_file(true)?)?;
    write(&level_dir, "synthetic_plain", &level.to_file(false)?)?;

    // The main block target takes the block, then the plane count and the table offset.
    let image = level.image()?;
    let view = Level::parse(&image)?;
    let mut seed = level.main_block()?;
    seed.extend_from_slice(&view.header().plane_count().to_le_bytes());
    seed.extend_from_slice(
        &view
            .header()
            .raw()
            .tile_properties_offset
            .get()
            .to_le_bytes(),
    );
    write(&root.join("wwd_main_block"), "synthetic", &seed)?;

    // The round trip: the synthetic level both ways, and a wider one with more objects.
    let trip_dir = root.join("wwd_round_trip");
    write(&trip_dir, "synthetic_compressed", &level.to_file(true)?)?;
    write(&trip_dir, "synthetic_plain", &level.to_file(false)?)?;
    write(
        &trip_dir,
        "synthetic_wide",
        &synth::level(12, 48, 8).to_file(true)?,
    )?;

    // PID images: RLE with a palette, and plain, each written by wap-core's writer (the
    // target writes RLE or plain as the length is odd or even).
    let (w, h) = (23u32, 9u32);
    let pixels = PidPixels {
        width: w,
        height: h,
        indices: (0..w * h)
            .map(|i| u8::try_from(i * 37 % 256).unwrap_or(0))
            .collect(),
        opaque: (0..w * h).map(|i| i % 11 > 2).collect(),
    };
    let palette: [u8; 768] = std::array::from_fn(|i| u8::try_from(i % 256).unwrap_or(0));
    let pid_dir = root.join("wwd_pid");
    let rle = write_pid(&pixels, (3, -4), PidFlags::MIRROR, Some(&palette), true);
    let plain = write_pid(&pixels, (0, 0), PidFlags::empty(), None, false);
    write(&pid_dir, "rle_palette", &rle)?;
    write(&pid_dir, "plain", &plain)?;

    // REZ archives: a level's tree of tiles, palette and images; the same with a last odd
    // byte, so that the target also points the root's directories back at the root.
    let pid_rle = rle.clone();
    let files: Vec<(&str, &[u8])> = vec![
        ("LEVEL1/TILES/ACTION/001.PID", &pid_rle),
        ("LEVEL1/TILES/ACTION/012.PID", &plain),
        ("LEVEL1/PALETTES/MAIN.PAL", &palette),
        ("CLAW/IMAGES/STAND/FRAME001.PID", &pid_rle),
        ("README.TXT", b"seed"),
    ];
    let rez_dir = root.join("wwd_rez");
    write(&rez_dir, "level_tree", &write_rez(&files)?)?;
    let mut looping = files.clone();
    looping.push(("ZZ.TXT", b"1"));
    write(&rez_dir, "level_tree_self_pointing", &write_rez(&looping)?)?;

    // Image names: the level tree; folders whose names join to one key in three ways
    // (A/B/C, A/B_C, A_B/C); and a root that lists itself under A, A_A, A_A_A.
    let names_dir = root.join("wwd_image_names");
    write(&names_dir, "level_tree", &write_rez(&files)?)?;
    let cuts: Vec<(&str, &[u8])> = vec![
        ("A/B/C/FRAME001.PID", &plain),
        ("A/B_C/FRAME002.PID", &plain),
        ("A_B/C/FRAME003.PID", &plain),
        ("A_B/C/FRAME003X.PID", &plain),
    ];
    write(&names_dir, "three_cuts", &write_rez(&cuts)?)?;
    write(&names_dir, "self_listing", &self_listing())?;
    // ANI animations: frames with and without sounds; one of no duration.
    let ani_dir = root.join("wwd_ani");
    let cycle = wap_core::write_ani(
        b"GAME_CYCLE",
        &[
            (1, 100, None),
            (2, 50, Some(b"GAME_SOUNDS_DING")),
            (3, 25, None),
        ],
    );
    write(&ani_dir, "cycle_with_sound", &cycle)?;
    write(
        &ani_dir,
        "no_duration",
        &wap_core::write_ani(b"", &[(4, 0, None)]),
    )?;
    // The walk's crafted shapes too: a root listing itself, names repeated in a folder.
    write(&rez_dir, "self_listing", &self_listing())?;
    write(&rez_dir, "repeated_names", &repeated_names())?;
    Ok(())
}

/// An archive whose folder holds `A.PID` three times (two in another case) and two
/// directories named `D` and `d`.
fn repeated_names() -> Vec<u8> {
    use gamedata_testkit::rez::{Builder, Entry, pid};
    let mut b = Builder::new();
    let data = b.data(&pid(3, 3, 2));
    let inner = b.files(["X".to_owned()], b"PID", data);
    let other = b.files(["Y".to_owned()], b"PID", data);
    let root = b.table(&[
        Entry::File {
            name: b"A",
            ext: b"PID",
            data,
        },
        Entry::File {
            name: b"a",
            ext: b"pid",
            data,
        },
        Entry::File {
            name: b"A",
            ext: b"PID",
            data,
        },
        Entry::Dir {
            name: b"D",
            table: inner,
        },
        Entry::Dir {
            name: b"d",
            table: other,
        },
    ]);
    b.finish(root)
}

/// An archive whose root lists itself under `A`, `A_A` and `A_A_A`, beside one image.
fn self_listing() -> Vec<u8> {
    use gamedata_testkit::rez::{Builder, Entry, pid, table_len};
    let names: [&[u8]; 3] = [b"A", b"A_A", b"A_A_A"];
    let mut b = Builder::new();
    let data = b.data(&pid(2, 2, 1));
    let image = Entry::File {
        name: b"FRAME001",
        ext: b"PID",
        data,
    };
    let at = b.next_offset();
    let mut entries: Vec<Entry<'_>> = names
        .iter()
        .map(|n| Entry::Dir {
            name: n,
            table: (at, 0),
        })
        .collect();
    entries.push(image);
    let size = table_len(&entries);
    for e in &mut entries {
        if let Entry::Dir { table, .. } = e {
            *table = (at, size);
        }
    }
    let root = b.table(&entries);
    b.finish(root)
}
