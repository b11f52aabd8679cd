use std::io::Write;
use wap_core::LevelOptions;

use flate2::Compression;
use flate2::write::ZlibEncoder;
use gamedata_io::{InflateError, Limits};
use wap_core::{ChecksumClass, CodePage, ErrorKind, Header, LevelFile, base_checksum, decode};

use crate::kind;

/// A header: size 1524, `flags`, name "Test level" (cp1252 bytes), author with an é (0xE9),
/// 2 planes at 1524, main block size `main_size`, checksum `checksum`, reserved 0x2D8 = 2.
fn header(flags: u32, main_size: u32, checksum: u32) -> Vec<u8> {
    let mut h = vec![0u8; 1524];
    h[0..4].copy_from_slice(&1524u32.to_le_bytes()); // size
    h[8..12].copy_from_slice(&flags.to_le_bytes()); // flags
    h[16..26].copy_from_slice(b"Test level"); // name at 0x10
    h[80..84].copy_from_slice(b"Ren\xe9"); // author at 0x50, cp1252 é
    h[0x2D0..0x2D4].copy_from_slice(&100i32.to_le_bytes()); // start x
    h[0x2D4..0x2D8].copy_from_slice(&(-5i32).to_le_bytes()); // start y
    h[0x2D8..0x2DC].copy_from_slice(&2u32.to_le_bytes()); // reserved, non-zero in real levels
    h[0x2DC..0x2E0].copy_from_slice(&2u32.to_le_bytes()); // planes
    h[0x2E0..0x2E4].copy_from_slice(&1524u32.to_le_bytes()); // planes offset
    h[0x2E8..0x2EC].copy_from_slice(&main_size.to_le_bytes()); // main block size
    h[0x2EC..0x2F0].copy_from_slice(&checksum.to_le_bytes()); // checksum
    h
}

fn zlib(data: &[u8]) -> Vec<u8> {
    let mut e = ZlibEncoder::new(Vec::new(), Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn main_block() -> Vec<u8> {
    (0..5000u32).map(|i| (i * 7 % 251) as u8).collect()
}

fn open(bytes: Vec<u8>) -> Result<LevelFile, wap_core::DataError> {
    LevelFile::from_data(bytes, &LevelOptions::default())
}

#[test]
fn open_and_map_read_a_level_from_its_path() {
    let block = main_block();
    let mut bytes = header(0x1 | 0x2, block.len() as u32, base_checksum(&zlib(&block)));
    bytes.extend_from_slice(&zlib(&block));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("LEVEL.WWD");
    std::fs::write(&path, &bytes).unwrap();
    let read = LevelFile::open(&path).unwrap();
    // SAFETY: the file is private to this test and nothing changes it while mapped.
    #[allow(unsafe_code)]
    let mapped = unsafe { LevelFile::map(&path) }.unwrap();
    assert_eq!(read.main_block(), block);
    assert_eq!(mapped.main_block(), block);
    assert_eq!(mapped.file(), bytes);
    let err = LevelFile::open(dir.path().join("missing.wwd")).unwrap_err();
    assert!(matches!(err, wap_core::Error::File(_)), "{err}");
}

#[test]
fn an_uncompressed_level_is_used_in_place() {
    let block = main_block();
    let mut bytes = header(0x1, 0, base_checksum(&block));
    bytes.extend_from_slice(&block);
    let level = open(bytes.clone()).unwrap();
    assert!(!level.compressed());
    assert_eq!(level.image(), &bytes[..]);
    assert_eq!(level.main_block(), &block[..]);
    assert!(level.trailer().is_empty());
    assert_eq!(level.checksum_class(), ChecksumClass::Exact);
    let h = level.header();
    assert_eq!(h.name(), b"Test level");
    assert_eq!(h.name_lossy(), "Test level");
    assert_eq!(decode(h.author(), CodePage::Cp1252), "René");
    assert_eq!(decode(h.author(), CodePage::Cp1250), "René");
    assert_eq!(decode(b"\x9c", CodePage::Cp1250), "ś");
    assert_eq!(
        (h.start(), h.plane_count(), h.uses_z()),
        ((100, -5), 2, true)
    );
    assert_eq!(h.raw().reserved3.get(), 2, "reserved words kept raw");
}

#[test]
fn a_compressed_level_decompresses_into_one_image_and_reports_its_trailer() {
    let block = main_block();
    let stream = zlib(&block);
    let mut bytes = header(
        0x3,
        block.len() as u32,
        base_checksum(&stream).wrapping_add(255),
    );
    bytes.extend_from_slice(&stream);
    bytes.extend_from_slice(b"<wm_meta>x</wm_meta>");
    let level = open(bytes).unwrap();
    assert!(level.compressed());
    assert_eq!(level.main_block(), &block[..]);
    assert_eq!(&level.image()[..16], &header(0x3, 0, 0)[..16]);
    assert_eq!(level.image().len(), 1524 + block.len());
    assert_eq!(level.trailer(), b"<wm_meta>x</wm_meta>");
    assert_eq!(level.stored_main_block(), &stream[..]);
    assert_eq!(level.checksum_class(), ChecksumClass::EditorSlack(255));
}

#[test]
fn the_checksum_classes() {
    let s = [10u8, 20, 30, 40];
    // base = -4 + (20 - 1) + (30 - 2) + (40 - 3) = 80.
    assert_eq!(base_checksum(&s), 80);
    assert_eq!(ChecksumClass::classify(80, &s), ChecksumClass::Exact);
    assert_eq!(
        ChecksumClass::classify(81, &s),
        ChecksumClass::EditorSlack(1)
    );
    assert_eq!(
        ChecksumClass::classify(80 + 255, &s),
        ChecksumClass::EditorSlack(255)
    );
    // WapMap: base + S[0] - 160 = 80 + 10 - 160 = -70.
    assert_eq!(
        ChecksumClass::classify(0u32.wrapping_sub(70), &s),
        ChecksumClass::WapMap
    );
    assert_eq!(
        ChecksumClass::classify(80 + 256, &s),
        ChecksumClass::Mismatch
    );
    assert_eq!(base_checksum(&[]), 0);
    assert_eq!(ChecksumClass::WapMap.name(), "wapmap");
}

#[test]
fn broken_levels_are_clear_errors() {
    assert!(matches!(
        kind(open(vec![0; 100])),
        Some(ErrorKind::TooShort { found: 100 })
    ));
    let mut bad = header(0x3, 10, 0);
    bad[0..4].copy_from_slice(&0xADBAu32.to_le_bytes());
    let err = open(bad).unwrap_err();
    assert_eq!(
        err.to_string(),
        "header size is 0xadba, expected 0x5f4 (1524): not a WWD level"
    );

    let block = main_block();
    let stream = zlib(&block);
    // Raw deflate instead of zlib.
    let mut raw = header(0x3, block.len() as u32, 0);
    raw.extend_from_slice(&stream[2..]);
    assert!(matches!(
        kind(open(raw)),
        Some(ErrorKind::MainBlock(InflateError::Invalid { .. }))
    ));
    // The stream cut short.
    let mut cut = header(0x3, block.len() as u32, 0);
    cut.extend_from_slice(&stream[..stream.len() / 2]);
    assert!(matches!(
        kind(open(cut)),
        Some(ErrorKind::MainBlock(InflateError::Truncated {
            declared: 5000,
            ..
        }))
    ));
    // Declared shorter and longer than the stream.
    for declared in [4999u32, 5001] {
        let mut wrong = header(0x3, declared, 0);
        wrong.extend_from_slice(&stream);
        let err = open(wrong).unwrap_err();
        assert!(
            matches!(
                err.kind(),
                ErrorKind::MainBlock(InflateError::WrongSize { found: 5000, .. })
            ),
            "{declared}: {err}"
        );
    }
    // Over the caller's limit: refused before anything is decoded.
    let mut big = header(0x3, 40_000_000, 0);
    big.extend_from_slice(&stream);
    let limits = Limits::default().with_max_decoded_bytes(32_000_000);
    let err = LevelFile::from_data(big, &LevelOptions::new().with_limits(limits)).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::Limit(l) if l.found == 40_000_000),
        "{err}"
    );
}

#[test]
fn mutated_levels_never_panic() {
    let block = main_block();
    let stream = zlib(&block);
    let mut bytes = header(0x3, block.len() as u32, 0);
    bytes.extend_from_slice(&stream);
    let runs = gamedata_testkit::replay_mutations(
        "wwd",
        &bytes,
        gamedata_testkit::MutationPlan::default(),
        |data| {
            if let Ok(level) = LevelFile::from_data(data.to_vec(), &LevelOptions::default()) {
                let _ = (
                    level.checksum_class(),
                    level.trailer().len(),
                    level.header().name_lossy(),
                );
            }
            let _ = Header::parse(data);
        },
    );
    assert!(runs > 1000);
}

/// `synth::stacked_planes`: the planes it makes, read back through the reader.
#[test]
fn stacked_planes_copy_the_three_planes_into_many() {
    let base = wap_core::synth::level(11, 40, 30);
    let made = wap_core::synth::stacked_planes(&base, 5, 70, 50).unwrap();
    let bytes = made.to_file(true).unwrap();
    let file = wap_core::LevelFile::from_data(bytes, &wap_core::LevelOptions::default()).unwrap();
    let level = file.view().unwrap();
    let planes: Vec<_> = level.planes().map(Result::unwrap).collect();
    assert_eq!(planes.len(), 5);
    let names: Vec<&[u8]> = planes.iter().map(|p| p.name()).collect();
    assert_eq!(
        names,
        [
            &b"Background"[..],
            b"Action 1",
            b"Action",
            b"Action 3",
            b"Front"
        ]
    );
    let z: Vec<i32> = planes.iter().map(|p| p.z()).collect();
    assert_eq!(z, [-1000, -900, 0, -700, -600]);
    let main: Vec<bool> = planes.iter().map(|p| p.is_main()).collect();
    assert_eq!(main, [false, false, true, false, false]);
    for (plane, from) in planes.iter().zip([0, 1, 1, 1, 2]) {
        assert_eq!((plane.tiles_wide(), plane.tiles_high()), (70, 50));
        let original = &base.planes[from];
        let (w, h) = (
            original.header.tiles_wide.get() as u32,
            original.header.tiles_high.get() as u32,
        );
        let shift = match plane.name() {
            b"Action 1" => 37,
            b"Action 3" => 111,
            _ => 0,
        };
        // Tile (x, y) is the original's at ((x + shift) mod w, (y + shift / 3) mod h).
        for (x, y) in [(0, 0), (69, 49), (41, 31), (13, 7)] {
            let want = original.tiles[(((y + shift / 3) % h) * w + (x + shift) % w) as usize];
            assert_eq!(
                plane.tile(x, y),
                Some(wap_core::Tile::from_raw(want)),
                "{x},{y}"
            );
        }
        let objects = plane.objects().count();
        let expected = if plane.is_main() {
            original.objects.len()
        } else {
            0
        };
        assert_eq!(objects, expected);
    }
    assert!(wap_core::synth::stacked_planes(&base, 2, 70, 50).is_none());
    let mut two = base.clone();
    two.planes.pop();
    assert!(wap_core::synth::stacked_planes(&two, 5, 70, 50).is_none());
}

/// `LevelLayout::write_to` writes what `LevelData::to_file` makes, byte for byte, compressed
/// or not, from wherever its writer stands; it reports the file's length, the main block's
/// and the checksum the header holds.
#[test]
fn the_streaming_writer_writes_what_to_file_makes() {
    let limits = Limits::default();
    for (seed, wide, high) in [(1, 16, 16), (7, 300, 90), (11, 40, 30)] {
        let data = wap_core::synth::level(seed, wide, high);
        let stacked = wap_core::synth::stacked_planes(&data, 5, 70, 50).unwrap();
        for level in [&data, &stacked] {
            for compress in [false, true] {
                let whole = level.to_file(compress).unwrap();
                let mut out = std::io::Cursor::new(b"before".to_vec());
                out.set_position(6);
                let layout = level.layout(compress, &limits).unwrap();
                assert_eq!(
                    layout.main_block_len(),
                    level.main_block().unwrap().len() as u64
                );
                let written = layout.write_to(&mut out).unwrap();
                assert_eq!(out.position(), out.get_ref().len() as u64);
                assert_eq!(&out.get_ref()[6..], &whole[..], "seed {seed}, {compress}");
                assert_eq!(written.file_len, whole.len() as u64);
                assert_eq!(written.checksum, base_checksum(&whole[1524..]));
                let header = Header::parse(&whole).unwrap();
                assert_eq!(written.checksum, header.checksum());
            }
        }
    }
}

/// The writer refuses a main block the reader would refuse (`Limits::max_decoded_bytes`),
/// before writing anything; at the limit the level is written and read back with the same
/// limits, compressed or not.
#[test]
fn the_writer_refuses_what_the_reader_refuses() {
    let data = wap_core::synth::level(3, 64, 64);
    let block = data.main_block().unwrap().len() as u64;
    let at = Limits::default().with_max_decoded_bytes(block);
    let under = Limits::default().with_max_decoded_bytes(block - 1);
    for compress in [false, true] {
        let refused = data.layout(compress, &under);
        assert!(
            matches!(kind(refused), Some(ErrorKind::Limit(_))),
            "{block} bytes under a limit of {}",
            block - 1
        );
        let mut out = std::io::Cursor::new(Vec::new());
        data.layout(compress, &at)
            .unwrap()
            .write_to(&mut out)
            .unwrap();
        let options = LevelOptions::new().with_limits(at);
        let file = LevelFile::from_data(out.into_inner(), &options).unwrap();
        assert_eq!(file.main_block().len() as u64, block);
        let back = wap_core::LevelData::from_level(&file.view().unwrap()).unwrap();
        assert_eq!(back.main_block().unwrap(), data.main_block().unwrap());
    }
    // The reader refuses the compressed level one byte under.
    let mut out = std::io::Cursor::new(Vec::new());
    data.layout(true, &at).unwrap().write_to(&mut out).unwrap();
    let options = LevelOptions::new().with_limits(under);
    assert!(LevelFile::from_data(out.into_inner(), &options).is_err());
}
