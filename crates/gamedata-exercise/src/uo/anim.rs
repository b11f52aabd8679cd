//! anim.idx and anim.mul: each record's frame group, its frames, their runs and pictures,
//! and the bodies' blocks of records in every file.

// Counts are below the input's length: the casts cut nothing.
#![allow(clippy::cast_possible_truncation)]

use std::collections::HashSet;

use gamedata_render::uo::anim::{group_pictures, mirror};
use gamedata_render::uo::art::ArtHue;
use mul_core::anim::{DIRECTIONS, MIN_GROUP_LEN};
use mul_core::{AnimFileId, Animations, ErrorKind, Facing, FrameGroup, Limits};

use crate::io::split_parts;

/// The records a walk reads at most, so that one input costs a bounded time.
const RECORDS: usize = 4096;

/// An index (behind a 4-byte length) and anim.mul: every record's frame group (the first
/// 4,096), each of its frames read once (frames at one offset are one frame), the runs
/// checked to lie in their frame and to cost no more than the group's bytes together;
/// each group drawn within a 1 MiB cap, its mirrored pictures the plain ones flipped; the
/// entries given out disjoint but for exact repeats; every body's block of records inside
/// the index, in each of the five files.
pub fn anim(data: &[u8]) -> u64 {
    let [index, rest] = split_parts::<2, 4>(data);
    let Ok(anim) = Animations::parse(AnimFileId::Anim, index, rest) else {
        return 0;
    };
    let mut acc = format!("{anim:?}").len() as u64;
    assert_eq!(anim.is_empty(), anim.index().is_empty());
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for at in 0..anim.len().min(RECORDS) {
        let record = u32::try_from(at).expect("RECORDS fits u32");
        let bytes = match anim.entry(record) {
            Ok(Some(bytes)) => bytes,
            Ok(None) => {
                assert!(matches!(anim.group_at(record), Ok(None)));
                continue;
            }
            Err(e) => {
                assert!(matches!(e.kind, ErrorKind::IndexEntry { .. }), "{e}");
                let named = anim.group_at(record).expect_err("the entry's error");
                assert_eq!(named.slot(), Some(at));
                acc = acc.wrapping_add(named.to_string().len() as u64);
                continue;
            }
        };
        let start = bytes.as_ptr() as usize - rest.as_ptr() as usize;
        let range = (start, start + bytes.len());
        if ranges.contains(&range) {
            // An exact repeat: the same bytes, read once.
            continue;
        }
        ranges.push(range);
        match anim.group_at(record) {
            Ok(Some(group)) => acc = acc.wrapping_add(walk(&group)),
            Ok(None) => panic!("record {record} has bytes but no group"),
            Err(e) => {
                assert!(matches!(e.kind, ErrorKind::Anim(_)), "{e}");
                assert!(e.entry().is_some(), "{e}");
                assert_eq!(e.slot(), Some(at));
                acc = acc.wrapping_add(e.to_string().len() as u64);
            }
        }
    }
    // The entries given out share no byte but exactly (repeats were left out above).
    ranges.sort_unstable();
    for pair in ranges.windows(2) {
        assert!(pair[0].1 <= pair[1].0, "{pair:?} overlap");
    }
    acc.wrapping_add(bodies(index, rest))
}

/// A group's frames, runs and pictures.
fn walk(group: &FrameGroup<'_>) -> u64 {
    let len = group.bytes().len();
    assert!(len >= MIN_GROUP_LEN);
    assert!(group.frame_count() <= (len - MIN_GROUP_LEN) / 4);
    let mut acc = format!("{group:?}").len() as u64;
    let mut offsets = HashSet::new();
    // Bytes the runs of the group's distinct frames cover: each run costs its header and
    // its pixels, and the frames' bytes are disjoint.
    let mut cost = 0usize;
    let mut failed = false;
    for i in 0..group.frame_count() {
        let offset = group.frame_offset(i).expect("inside the count");
        let frame = match group.frame(i).transpose().expect("inside the count") {
            Ok(frame) => frame,
            Err(e) => {
                assert!(matches!(e.kind, ErrorKind::Anim(_)), "{e}");
                failed = true;
                continue;
            }
        };
        if !offsets.insert(offset) {
            continue;
        }
        let (w, h) = (frame.width(), frame.height());
        assert_eq!(frame.is_empty(), w == 0 || h == 0);
        for run in frame.runs() {
            match run {
                Ok(run) => {
                    let end = run.x + run.pixels.len() as u32;
                    assert!(end <= w && run.y < h, "{run:?} outside {w} x {h}");
                    assert!(!run.pixels.is_empty());
                    cost += 4 + run.pixels.len();
                    acc = acc.wrapping_add(run.pixels.iter().map(|&p| u64::from(p)).sum());
                }
                Err(e) => {
                    assert!(matches!(e.kind, ErrorKind::Anim(_)), "{e}");
                    failed = true;
                    break;
                }
            }
        }
    }
    assert!(cost <= len, "runs of {cost} bytes in a group of {len}");
    let limits = Limits::new().with_max_decoded_bytes(1 << 20);
    let plain = group_pictures(group, false, ArtHue::None, &limits);
    let flipped = group_pictures(group, true, ArtHue::None, &limits);
    assert_eq!(plain.is_ok(), flipped.is_ok());
    if let (Ok(plain), Ok(flipped)) = (plain, flipped) {
        assert!(!failed, "drawn though a frame failed");
        assert_eq!(plain.len(), group.frame_count());
        for (i, (p, f)) in plain.iter().zip(&flipped).enumerate() {
            let frame = group.frame(i).expect("inside").expect("read above");
            assert_eq!(
                (p.picture.width(), p.picture.height()),
                (frame.width(), frame.height())
            );
            assert_eq!(f.picture, mirror(&p.picture));
            assert_eq!(
                i64::from(f.centre_x),
                i64::from(frame.width()) - i64::from(p.centre_x)
            );
            acc = acc.wrapping_add(p.picture.pixels().len() as u64);
        }
    }
    acc
}

/// Bodies' blocks of records in each file: inside the index, their records where they say.
fn bodies(index: &[u8], data: &[u8]) -> u64 {
    let mut acc = 0u64;
    for file in AnimFileId::ALL {
        let Ok(anim) = Animations::parse(file, index, data) else {
            return acc;
        };
        for body in (0..=u16::MAX)
            .step_by(97)
            .chain([0, 199, 200, 299, 300, 399, 400])
        {
            let Some(block) = anim.body(body) else {
                continue;
            };
            let count = usize::from(block.actions) * DIRECTIONS;
            let first = block.first as usize;
            assert!(first + count <= anim.len());
            let last = block
                .record(u16::from(block.actions) - 1, 4)
                .expect("the last record");
            assert_eq!(last as usize, first + count - 1);
            assert!(block.record(u16::from(block.actions), 0).is_err());
            acc = acc.wrapping_add(block.first as u64);
        }
    }
    for d in 0..=8u8 {
        if let Some(f) = Facing::of(d) {
            assert!(usize::from(f.stored) < DIRECTIONS);
            assert_eq!(f.mirrored, d > 4);
        }
    }
    acc
}
