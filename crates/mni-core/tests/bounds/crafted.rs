//! Crafted group files and sprite tables shaped to multiply the readers' memory or work.

use gamedata_testkit::heap::{self, MIB};
use mni_core::{ActorSprites, ErrorKind, Group};

/// A 1 MB group file whose 199 entries all cover the same 1 MB: reading every entry reads
/// the bytes once (the first entry), the 198 others are bad.
#[test]
fn group_entries_over_the_same_bytes_are_read_once() {
    let serial = heap::serial();
    let size = 1u32 << 20;
    let mut file = Vec::new();
    for i in 0..199u32 {
        let mut name = format!("E{i}.MNI").into_bytes();
        name.resize(12, 0);
        file.extend(name);
        file.extend(4000u32.to_le_bytes());
        file.extend(size.to_le_bytes());
    }
    file.resize(4000, 0); // slot 199 empty: the end of the directory
    file.resize(4000 + size as usize, 7);
    let ((read, bad), peak) = heap::peak(&serial, || {
        let group = Group::parse(&file).unwrap();
        let mut read = 0usize;
        let mut bad = 0usize;
        for entry in group.entries() {
            match entry.data() {
                Ok(bytes) => read += bytes.len(),
                Err(e) => {
                    let kind = e.kind();
                    assert!(
                        matches!(kind, ErrorKind::EntryOverlap { other: 0, .. }),
                        "{kind:?}"
                    );
                    bad += 1;
                }
            }
        }
        (read, bad)
    });
    assert_eq!((read, bad), (size as usize, 198));
    assert!(peak < 64 * 1024, "peak heap {peak}");
}

/// ACTRINFO.MNI with 30,000 sprite types sharing one start and 16,000 frame records all over
/// the same 64,000 bytes of ACTORS.MNI (1,600 tiles): reading every frame of every type
/// reads those bytes through one record; the types' frames are found by binary search.
#[test]
fn sprite_frames_over_the_same_tiles_are_read_once() {
    let serial = heap::serial();
    let types = 30_000u16;
    let mut info = Vec::new();
    for _ in 0..types {
        info.extend(types.to_le_bytes());
    }
    for _ in 0..16_000 {
        for word in [40u16, 40, 0, 0] {
            info.extend(word.to_le_bytes());
        }
    }
    let actors = vec![0u8; 64_000];
    let ((ok, bad), peak) = heap::peak(&serial, || {
        let sprites = ActorSprites::parse(&info, &actors).unwrap();
        let (mut ok, mut bad) = (0usize, 0usize);
        // Every type shares the 16,000 frames: read each frame of the first and last type.
        for sprite in [0, types - 1] {
            let frames = sprites.table.frames(sprite).unwrap().len();
            assert_eq!(frames, 16_000);
            for frame in 0..frames as u16 {
                match sprites.frame(sprite, frame) {
                    Ok(f) => ok += f.expect("a frame below the count").tiles().len(),
                    Err(e) => {
                        assert!(matches!(e.kind(), ErrorKind::FrameOverlap { other: 0, .. }));
                        bad += 1;
                    }
                }
            }
        }
        // Every type's frame count, found without a scan of the lookup table.
        let all: usize = (0..types)
            .map(|t| sprites.table.frames(t).unwrap().len())
            .sum();
        assert_eq!(all, 30_000 * 16_000);
        (ok, bad)
    });
    assert_eq!((ok, bad), (2 * 1600, 2 * 15_999));
    // The overlap search: 8 bytes a frame record.
    assert!(peak < MIB / 2, "peak heap {peak}");
}
