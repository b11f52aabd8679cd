//! Animations: frame groups read in place from anim*.mul over anim*.idx, against groups
//! built by hand (run headers computed here, in the comments) and by the writer; each body's
//! block of records as the client finds it; every bad group an error for its record alone.

use std::fs;

use mul_core::anim::write::{
    AnimEntry, AnimFramePicture, SYNTHETIC_ACTIONS, SYNTHETIC_BODIES, synthetic_animations,
    write_animations,
};
use mul_core::anim::{
    DIRECTIONS, FLAG_BY_LOW_GROUP, FLAG_BY_PEOPLE_GROUP, FLAG_LOW_GROUP_EXTENDED,
    anim_entry_is_empty,
};
use mul_core::raw::IndexRecord;
use mul_core::{
    AnimFileId, AnimFrame, AnimGroup, AnimProblem, AnimationFiles, Animations, ArgumentProblem,
    BodyType, ErrorKind, Facing, FileOptions, FrameGroup, IndexProblem,
};
use zerocopy::FromBytes;

use crate::index_record;

/// A frame: its header (centre x, centre y, width, height), then each run's header and
/// pixels, then the end marker when `end`.
fn frame(cx: i16, cy: i16, w: i16, h: i16, runs: &[(u32, &[u8])], end: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for v in [cx, cy, w, h] {
        out.extend(v.to_le_bytes());
    }
    for (header, pixels) in runs {
        out.extend(header.to_le_bytes());
        out.extend_from_slice(pixels);
    }
    if end {
        out.extend(0x7FFF_7FFFu32.to_le_bytes());
    }
    out
}

/// A palette whose entry i is `0x0400 * (i % 32) + i / 8` (any values will do), entry 0
/// black.
fn palette() -> [u16; 256] {
    std::array::from_fn(|i| (0x0400 * (i as u16 % 32)) | (i as u16 / 8))
}

/// A frame group: the palette, the frame count, the offsets (from byte 512) and the frames
/// one after another.
fn group(frames: &[Vec<u8>]) -> Vec<u8> {
    let mut out: Vec<u8> = palette().iter().flat_map(|c| c.to_le_bytes()).collect();
    out.extend((frames.len() as u32).to_le_bytes());
    let mut at = 4 + 4 * frames.len();
    for f in frames {
        out.extend((at as u32).to_le_bytes());
        at += f.len();
    }
    for f in frames {
        out.extend_from_slice(f);
    }
    out
}

/// Frame A: centre (1, -3), 3 x 2. Run 1, column 0 row 0, 3 pixels: x = 0 - 1 = -1
/// (0x3FF), y = 0 + 3 - 2 = 1: header 0x3FF << 22 | 1 << 12 | 3 = 0xFFC01003. Run 2,
/// column 1 row 1, 2 pixels: x = 0, y = 1 + 3 - 2 = 2: header 0x00002002.
fn frame_a() -> Vec<u8> {
    frame(
        1,
        -3,
        3,
        2,
        &[(0xFFC0_1003, &[5, 0, 7]), (0x0000_2002, &[9, 9])],
        true,
    )
}

/// Frame B: centre (0, 0), 2 x 3. Column 1 row 0, 1 pixel: x = 1, y = 0 - 3 = -3 (0x3FD):
/// 1 << 22 | 0x3FD << 12 | 1 = 0x007FD001. Column 0 row 2, 2 pixels: x = 0, y = -1
/// (0x3FF): 0x3FF << 12 | 2 = 0x003FF002.
fn frame_b() -> Vec<u8> {
    frame(
        0,
        0,
        2,
        3,
        &[(0x007F_D001, &[4]), (0x003F_F002, &[1, 2])],
        true,
    )
}

/// The runs of a frame as (x, y, pixels).
fn runs(frame: &AnimFrame<'_>) -> Vec<(u32, u32, Vec<u8>)> {
    frame
        .runs()
        .map(|r| {
            let r = r.unwrap();
            (r.x, r.y, r.pixels.to_vec())
        })
        .collect()
}

/// The problem of the first error a group's frames give.
fn problem(bytes: &[u8]) -> AnimProblem {
    let error = match FrameGroup::parse(bytes) {
        Err(e) => e,
        Ok(g) => g
            .frames()
            .find_map(|f| match f {
                Err(e) => Some(e),
                Ok(f) => f.runs().find_map(Result::err),
            })
            .expect("an error"),
    };
    match error.kind() {
        ErrorKind::Anim(p) => p,
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_frame_group_is_a_palette_then_frames_of_runs() {
    let bytes = group(&[frame_a(), frame_b(), frame(2, 2, 0, 5, &[], false)]);
    let g = FrameGroup::parse(&bytes).unwrap();
    assert_eq!(g.frame_count(), 3);
    assert_eq!(g.palette()[9].get(), palette()[9]);
    // The palette is in place at the group's start.
    assert_eq!(g.palette().as_ptr().cast::<u8>(), bytes.as_ptr());
    assert_eq!(g.frame_offset(0), Some(4 + 12));
    let a = g.frame(0).unwrap().unwrap();
    assert_eq!(
        (a.centre_x(), a.centre_y(), a.width(), a.height()),
        (1, -3, 3, 2)
    );
    assert_eq!(runs(&a), [(0, 0, vec![5, 0, 7]), (1, 1, vec![9, 9])]);
    let b = g.frame(1).unwrap().unwrap();
    assert_eq!(runs(&b), [(1, 0, vec![4]), (0, 2, vec![1, 2])]);
    // Width 0: an empty frame, still counted, its runs not read (it has none here).
    let c = g.frame(2).unwrap().unwrap();
    assert!(c.is_empty() && c.width() == 0 && c.height() == 0 && c.stored_height() == 5);
    assert_eq!(c.runs().count(), 0);
    assert!(g.frame(3).unwrap().is_none());
}

#[test]
fn frames_out_of_order_and_a_frame_ending_at_the_group_s_end_read() {
    // The table lists frame B (stored second) first; the last frame has no end marker and
    // stops at the group's end, as the client stops there.
    let (a, b) = (frame_a(), frame_b());
    let mut bytes: Vec<u8> = palette().iter().flat_map(|c| c.to_le_bytes()).collect();
    bytes.extend(2u32.to_le_bytes());
    let a_at = 4 + 8;
    let b_at = a_at + a.len();
    bytes.extend((b_at as u32).to_le_bytes());
    bytes.extend((a_at as u32).to_le_bytes());
    bytes.extend(&a);
    bytes.extend(&b[..b.len() - 4]);
    let g = FrameGroup::parse(&bytes).unwrap();
    let first = g.frame(0).unwrap().unwrap();
    assert_eq!(runs(&first), [(1, 0, vec![4]), (0, 2, vec![1, 2])]);
    assert_eq!(
        runs(&g.frame(1).unwrap().unwrap()),
        [(0, 0, vec![5, 0, 7]), (1, 1, vec![9, 9])]
    );
    // Three frames listed C, B, A (stored A, B, C), B without its end marker: its runs
    // end at C's start, the next offset above its own, whatever the table's order.
    let c = frame(2, 2, 0, 5, &[], false);
    let mut bytes: Vec<u8> = palette().iter().flat_map(|c| c.to_le_bytes()).collect();
    bytes.extend(3u32.to_le_bytes());
    let a_at = 4 + 12;
    let b_at = a_at + a.len();
    let c_at = b_at + b.len() - 4;
    for at in [c_at, b_at, a_at] {
        bytes.extend((at as u32).to_le_bytes());
    }
    bytes.extend(&a);
    bytes.extend(&b[..b.len() - 4]);
    bytes.extend(&c);
    let g = FrameGroup::parse(&bytes).unwrap();
    assert!(g.frame(0).unwrap().unwrap().is_empty());
    assert_eq!(runs(&g.frame(2).unwrap().unwrap()).len(), 2);
    let b_runs = g.frame(1).unwrap().unwrap();
    match b_runs
        .runs()
        .find_map(Result::err)
        .expect("an error")
        .kind()
    {
        ErrorKind::Anim(p) => assert_eq!(
            p,
            AnimProblem::FrameOverlap {
                frame: 1,
                next: (512 + c_at) as u64
            }
        ),
        other => panic!("{other:?}"),
    }
    // Each frame's number is its place in the table; the table read in place.
    let offsets: Vec<u32> = g.offsets().iter().map(|o| o.get()).collect();
    assert_eq!(offsets, [c_at as u32, b_at as u32, a_at as u32]);
    let a_frame = g.frame(2).unwrap().unwrap();
    assert_eq!(
        (
            a_frame.number(),
            a_frame.stored_width(),
            a_frame.stored_height()
        ),
        (2, 3, 2)
    );
    assert_eq!(g.frame(0).unwrap().unwrap().stored_width(), 0);
    assert_eq!(
        format!("{a_frame:?}"),
        "AnimFrame { number: 2, centre_x: 1, centre_y: -3, width: 3, height: 2, .. }"
    );
    // The view: the group's bytes in place, its size and frames in its Debug.
    assert_eq!(g.bytes().as_ptr(), bytes.as_ptr());
    assert_eq!(g.bytes().len(), bytes.len());
    let debug = format!("{g:?}");
    assert!(
        debug.contains(&format!("len: {}", bytes.len())) && debug.contains("frames: 3"),
        "{debug}"
    );
    // Two frames at one offset are one frame, read for both (the table grows by 4 bytes,
    // so the frame is at offset 12).
    let mut twice = group(&[frame_a()]);
    twice[512..516].copy_from_slice(&2u32.to_le_bytes());
    twice.splice(520..520, 12u32.to_le_bytes());
    twice[516..520].copy_from_slice(&12u32.to_le_bytes());
    let g = FrameGroup::parse(&twice).unwrap();
    let (x, y) = (g.frame(0).unwrap().unwrap(), g.frame(1).unwrap().unwrap());
    assert_eq!(runs(&x), runs(&y));
    assert_eq!(runs(&x).len(), 2);
}

#[test]
fn bad_groups_and_frames_are_errors_saying_what() {
    // Shorter than the palette and count.
    assert_eq!(
        problem(&[0; 515]),
        AnimProblem::GroupTooShort { found: 515 }
    );
    // A count of 2^32 - 1 frames in 520 bytes: refused before anything is read for them.
    let mut huge = vec![0u8; 520];
    huge[512..516].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(
        problem(&huge),
        AnimProblem::FrameTable {
            count: u32::MAX,
            found: 520
        }
    );
    // A frame offset past the group.
    let mut past = group(&[frame_a()]);
    past[516..520].copy_from_slice(&1000u32.to_le_bytes());
    assert!(matches!(
        problem(&past),
        AnimProblem::FrameHeader {
            frame: 0,
            offset: 1000,
            ..
        }
    ));
    // A run past the width: column 0 + 4 pixels in a frame 3 wide (x = -1, y = 1, 4).
    let wide = group(&[frame(1, -3, 3, 2, &[(0xFFC0_1004, &[1, 2, 3, 4])], true)]);
    assert_eq!(
        problem(&wide),
        AnimProblem::RunOutside {
            frame: 0,
            column: 0,
            row: 0,
            length: 4,
            width: 3,
            height: 2
        }
    );
    // A row past the height: y = 3 gives row 3 - 3 + 2 = 2 in a frame 2 high.
    let low = group(&[frame(1, -3, 3, 2, &[(0x0000_3001, &[1])], true)]);
    assert!(matches!(
        problem(&low),
        AnimProblem::RunOutside { row: 2, .. }
    ));
    // A negative column: x = -2 (0x3FE) with centre 1.
    let left = group(&[frame(1, -3, 3, 2, &[(0xFF80_1001, &[1])], true)]);
    assert!(matches!(
        problem(&left),
        AnimProblem::RunOutside { column: -1, .. }
    ));
    // Pixels past the group's end: 3 announced, 1 there.
    let mut cut = group(&[frame(1, -3, 3, 2, &[(0xFFC0_1003, &[5, 0, 7])], false)]);
    cut.truncate(cut.len() - 2);
    let header_at = (512 + 4 + 4 + 8) as u64;
    assert_eq!(
        problem(&cut),
        AnimProblem::RunCut {
            frame: 0,
            at: header_at
        }
    );
    // A run header cut by the group's end (2 of its 4 bytes).
    let mut half = group(&[frame(1, -3, 3, 2, &[], false)]);
    half.extend([0x03, 0x10]);
    assert_eq!(
        problem(&half),
        AnimProblem::RunCut {
            frame: 0,
            at: header_at
        }
    );
    // Frame 0 has no end marker, so its runs would go on into frame 1's header.
    let a = frame_a();
    let overlapping = group(&[a[..a.len() - 4].to_vec(), frame_b()]);
    assert!(matches!(
        problem(&overlapping),
        AnimProblem::FrameOverlap { frame: 0, .. }
    ));
    // Two frames 4 bytes apart: the first's 8-byte header reaches the second's start.
    let mut close = group(&[frame_a()]);
    close[512..516].copy_from_slice(&2u32.to_le_bytes());
    close.splice(520..520, 16u32.to_le_bytes());
    close[516..520].copy_from_slice(&12u32.to_le_bytes());
    assert_eq!(
        problem(&close),
        AnimProblem::FrameOverlap {
            frame: 0,
            next: 512 + 16
        }
    );
}

/// An index of `records` empty records with `(record, offset, size)` set.
fn index(records: usize, set: &[(usize, u32, u32)]) -> Vec<u8> {
    let mut out: Vec<u8> = (0..records)
        .flat_map(|_| index_record(u32::MAX, u32::MAX))
        .collect();
    for &(record, offset, size) in set {
        out[record * 12..record * 12 + 12].copy_from_slice(&index_record(offset, size));
    }
    out
}

#[test]
fn a_body_s_records_are_found_as_the_client_finds_them() {
    let idx = index(50_000, &[]);
    let data = [0u8; 4];
    let first = |file, body| {
        Animations::parse(file, &idx, &data)
            .unwrap()
            .body(body)
            .map(|b| (b.group, b.first, b.actions))
    };
    use AnimFileId::*;
    use AnimGroup::*;
    // anim.mul: below 200 high (body * 110), below 400 low ((body - 200) * 65 + 22000),
    // else people ((body - 400) * 175 + 35000).
    assert_eq!(first(Anim, 1), Some((High, 110, 22)));
    assert_eq!(first(Anim, 199), Some((High, 21_890, 22)));
    assert_eq!(first(Anim, 201), Some((Low, 22_065, 13)));
    assert_eq!(first(Anim, 400), Some((People, 35_000, 35)));
    assert_eq!(first(Anim4, 250), Some((Low, 25_250, 13)));
    assert_eq!(first(Anim5, 34), Some((High, 3_740, 22)));
    // anim2: below 200 high, else low.
    assert_eq!(first(Anim2, 150), Some((High, 16_500, 22)));
    assert_eq!(first(Anim2, 450), Some((Low, 38_250, 13)));
    // anim3: below 300 low (the SDK's body * 65 is not the client's), below 400 high,
    // else people.
    assert_eq!(first(Anim3, 250), Some((Low, 25_250, 13)));
    assert_eq!(first(Anim3, 350), Some((High, 38_500, 22)));
    assert_eq!(first(Anim3, 410), Some((People, 36_750, 35)));
    // A block whose last record passes the index: no animation (50,000 records hold
    // people bodies up to 485: (485 - 400) * 175 + 35000 + 175 = 50,050 > 50,000).
    assert_eq!(first(Anim, 484), Some((People, 49_700, 35)));
    assert_eq!(first(Anim, 485), None);
    assert_eq!(first(Anim, 455), Some((People, 44_625, 35)));
    // Types and flags (mobtypes.txt): a monster with 0x400 takes people, with 0x40 low;
    // an animal takes them only with 0x20 too, else high with 0x20 alone; a sea monster the
    // high group's first record with 13 actions.
    let anim = Animations::parse(Anim, &idx, &data).unwrap();
    let with = |body, t, flags| {
        anim.body_as(body, t, flags)
            .map(|b| (b.group, b.first, b.actions))
    };
    assert_eq!(
        with(250, BodyType::Monster, FLAG_BY_PEOPLE_GROUP),
        Some((People, 8_750, 35))
    );
    assert_eq!(
        with(250, BodyType::Monster, FLAG_BY_LOW_GROUP),
        Some((Low, 25_250, 13))
    );
    assert_eq!(
        with(250, BodyType::Animal, FLAG_BY_PEOPLE_GROUP),
        Some((Low, 25_250, 13))
    );
    assert_eq!(
        with(250, BodyType::Animal, FLAG_LOW_GROUP_EXTENDED),
        Some((High, 27_500, 22))
    );
    assert_eq!(
        with(
            250,
            BodyType::Animal,
            FLAG_LOW_GROUP_EXTENDED | FLAG_BY_PEOPLE_GROUP
        ),
        Some((People, 8_750, 35))
    );
    assert_eq!(with(20, BodyType::SeaMonster, 0), Some((High, 2_200, 13)));
    assert_eq!(
        with(20, BodyType::Equipment, 0),
        None,
        "a negative first record"
    );
    // The record: first + 5 * action + direction.
    let body = anim.body(400).unwrap();
    assert_eq!(body.record(2, 3).unwrap(), 35_000 + 10 + 3);
    let err = body.record(35, 0).unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::Argument(ArgumentProblem::AnimAction {
            action: 35,
            actions: 35
        })
    );
    let err = body.record(0, 5).unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::Argument(ArgumentProblem::AnimDirection { direction: 5 })
    );
}

#[test]
fn directions_5_to_7_mirror_3_to_1() {
    let of = |d| Facing::of(d).map(|f| (f.stored, f.mirrored));
    assert_eq!(
        (0..9).map(of).collect::<Vec<_>>(),
        [
            Some((0, false)),
            Some((1, false)),
            Some((2, false)),
            Some((3, false)),
            Some((4, false)),
            Some((3, true)),
            Some((2, true)),
            Some((1, true)),
            None
        ]
    );
    // The client's numbers are the SDK's less 5, modulo 8; bit 0x80 (running) is dropped.
    for sdk in 0..8u8 {
        let client = (sdk + 3) % 8;
        assert_eq!(Facing::of_client(client), Facing::of(sdk).unwrap());
        assert_eq!(Facing::of_client(client | 0x80), Facing::of(sdk).unwrap());
    }
}

#[test]
fn records_are_empty_or_checked_as_the_client_finds_them() {
    let record = |offset: u32, size: u32| {
        IndexRecord::read_from_bytes(&index_record(offset, size)[..]).unwrap()
    };
    for (offset, size) in [(0, 0), (u32::MAX, 600), (0, u32::MAX), (700, 0)] {
        assert!(
            anim_entry_is_empty(&record(offset, size)),
            "{offset} {size}"
        );
    }
    assert!(!anim_entry_is_empty(&record(0, 516)));
    assert!(!anim_entry_is_empty(&record(4, 0x8000_0000)));

    let g = group(&[frame_a()]);
    let len = g.len() as u32;
    let mut data = g.clone();
    data.extend(&g);
    data.extend([0u8; 515]);
    let idx = index(
        120,
        &[
            (0, 0, len),           // body 0 action 0 direction 0
            (1, 0, len),           // an exact repeat
            (2, 4, len),           // overlaps record 0's bytes
            (3, len, len),         // the second copy
            (4, 2 * len + 1, 515), // one byte past the end of the data
            (5, 0, 0x8000_0000),   // past the end (not empty to this client)
            (6, 2 * len, 515),     // too short to hold a group
        ],
    );
    let anim = Animations::parse(AnimFileId::Anim, &idx, &data).unwrap();
    for record in [0, 1, 3] {
        let g = anim.group(0, 0, record as u8).unwrap().unwrap();
        assert_eq!(runs(&g.frame(0).unwrap().unwrap()).len(), 2);
    }
    assert_eq!(anim.entry(0).unwrap(), anim.entry(1).unwrap());
    let index_problem = |record: u32| match anim.entry(record).unwrap_err().kind() {
        ErrorKind::IndexEntry { problem, .. } => problem,
        other => panic!("{other:?}"),
    };
    assert_eq!(index_problem(2), IndexProblem::Overlap { other: 0 });
    assert_eq!(index_problem(4), IndexProblem::PastEnd);
    assert_eq!(index_problem(5), IndexProblem::PastEnd);
    // Errors name the entry and its record; the other records still read.
    let err = anim.group(0, 1, 1).unwrap_err();
    assert_eq!(err.entry(), Some("body 0 action 1 direction 1"));
    assert_eq!((err.slot(), err.file()), (Some(6), Some("anim.mul")));
    assert!(matches!(
        err.kind(),
        ErrorKind::Anim(AnimProblem::GroupTooShort { found: 515 })
    ));
    let err = anim.group_at(2).unwrap_err();
    assert_eq!((err.entry(), err.slot()), (Some("record 2"), Some(2)));
    assert!(anim.group(0, 1, 2).unwrap().is_none(), "record 7 is empty");
    assert!(
        anim.group(2, 0, 0).unwrap().is_none(),
        "body 2's block passes the index"
    );
    let missing = anim.entry(120).unwrap_err();
    assert!(matches!(
        missing.kind(),
        ErrorKind::MissingIndexEntry {
            entry: 120,
            records: 120,
            ..
        }
    ));
    // A run error names the entry too.
    let bad = group(&[frame(1, -3, 3, 2, &[(0xFFC0_1004, &[1, 2, 3, 4])], true)]);
    let idx = index(110, &[(3, 0, bad.len() as u32)]);
    let anim = Animations::parse(AnimFileId::Anim2, &idx, &bad).unwrap();
    let g = anim.group(0, 0, 3).unwrap().unwrap();
    let err = g
        .frame(0)
        .unwrap()
        .unwrap()
        .runs()
        .find_map(Result::err)
        .unwrap();
    assert_eq!(err.entry(), Some("body 0 action 0 direction 3"));
    assert_eq!((err.slot(), err.file()), (Some(3), Some("anim2.mul")));
    // An index that is not whole records.
    assert!(matches!(
        Animations::parse(AnimFileId::Anim, &idx[..13], &bad)
            .unwrap_err()
            .kind(),
        ErrorKind::RecordMultiple {
            what: "anim.idx",
            ..
        }
    ));
}

/// The pixels a frame's runs give, row by row (`None` where no run is).
fn drawn(frame: &AnimFrame<'_>) -> Vec<Option<u8>> {
    let (w, h) = (frame.width() as usize, frame.height() as usize);
    let mut out = vec![None; w * h];
    for r in frame.runs() {
        let r = r.unwrap();
        for (i, &p) in r.pixels.iter().enumerate() {
            out[r.y as usize * w + r.x as usize + i] = Some(p);
        }
    }
    out
}

#[test]
fn the_writer_s_frames_read_back_pixel_for_pixel() {
    // 5 x 3 with a gap, a transparent row, index 0 and a long run; centre (2, -1).
    let pixels = [
        Some(1),
        Some(0),
        None,
        Some(3),
        Some(4),
        None,
        None,
        None,
        None,
        None,
        Some(9),
        Some(9),
        Some(9),
        Some(9),
        Some(255),
    ];
    let palette = palette();
    let frames = [
        AnimFramePicture {
            centre_x: 2,
            centre_y: -1,
            width: 5,
            height: 3,
            pixels: &pixels,
        },
        AnimFramePicture {
            centre_x: 0,
            centre_y: 0,
            width: 0,
            height: 0,
            pixels: &[],
        },
    ];
    let entries = [
        AnimEntry::Group {
            palette: &palette,
            frames: &frames,
        },
        AnimEntry::Empty,
        AnimEntry::Repeat(0),
    ];
    let (idx, data) = write_animations(&entries).unwrap();
    assert_eq!(idx.len(), 36);
    let anim = Animations::parse(AnimFileId::Anim, &idx, &data).unwrap();
    let g = anim.group_at(0).unwrap().unwrap();
    assert_eq!(g.frame_count(), 2);
    let f = g.frame(0).unwrap().unwrap();
    assert_eq!(
        (f.centre_x(), f.centre_y(), f.width(), f.height()),
        (2, -1, 5, 3)
    );
    assert_eq!(drawn(&f), pixels);
    // Three runs: (0, 0) of 2, (3, 0) of 2, (0, 2) of 5.
    assert_eq!(f.runs().count(), 3);
    assert!(g.frame(1).unwrap().unwrap().is_empty());
    assert!(anim.group_at(1).unwrap().is_none());
    assert_eq!(anim.entry(2).unwrap(), anim.entry(0).unwrap());
    // What the format cannot hold: a run's y past 511 (row 0 less centre y -600 ...).
    let far = [AnimFramePicture {
        centre_x: 0,
        centre_y: -600,
        width: 1,
        height: 1,
        pixels: &[Some(1)],
    }];
    let entries = [AnimEntry::Group {
        palette: &palette,
        frames: &far,
    }];
    assert!(matches!(
        write_animations(&entries).unwrap_err().kind(),
        ErrorKind::Write(_)
    ));
    assert!(write_animations(&[AnimEntry::Repeat(0)]).is_err());
}

#[test]
fn the_synthetic_set_holds_its_bodies_a_repeat_an_empty_record_and_an_empty_frame() {
    let (idx, data) = synthetic_animations(7);
    assert_eq!((idx.clone(), data.clone()), synthetic_animations(7));
    assert_ne!(synthetic_animations(8).1, data);
    assert_eq!(idx.len(), 35_175 * 12);
    let anim = Animations::parse(AnimFileId::Anim, &idx, &data).unwrap();
    let mut frames = 0;
    for body in SYNTHETIC_BODIES {
        for action in 0..SYNTHETIC_ACTIONS {
            for direction in 0..DIRECTIONS as u8 {
                let Some(g) = anim.group(body, action, direction).unwrap() else {
                    assert_eq!((body, action, direction), (1, 2, 4));
                    continue;
                };
                assert_eq!(g.palette()[0].get(), 0);
                assert_eq!(g.palette()[7].get() & 0x8000, 0x8000);
                // Entry 7's bit 15 alone; no entry past 0 is 0.
                for (i, colour) in g.palette().iter().enumerate() {
                    assert_eq!(colour.get() & 0x8000 != 0, i == 7, "{body} {action} {i}");
                    assert_eq!(colour.get() == 0, i == 0, "{body} {action} {i}");
                }
                assert!(
                    (1..=4).contains(&g.frame_count()),
                    "{body} {action} {direction}"
                );
                for f in g.frames() {
                    let f = f.unwrap();
                    assert!(f.runs().all(|r| r.is_ok()));
                    frames += 1;
                    if f.is_empty() {
                        assert_eq!((body, action, direction), (400, 1, 2));
                        continue;
                    }
                    // 3 to 26 x 4 to 31 pixels, a blob: the corners transparent, the
                    // centre column at the middle.
                    let (w, h) = (f.width() as usize, f.height() as usize);
                    assert!((3..=26).contains(&w) && (4..=31).contains(&h), "{w} x {h}");
                    assert_eq!(f.centre_x() as usize, w / 2);
                    let below = -((h / 4) as i16);
                    assert!(
                        (below - 2..=below).contains(&f.centre_y()),
                        "{}",
                        f.centre_y()
                    );
                    let d = drawn(&f);
                    for corner in [0, w - 1, (h - 1) * w, h * w - 1] {
                        assert_eq!(d[corner], None, "{body} {action} {direction}");
                    }
                    // Holes at every 5th pixel (from 2) of every 3rd row (from 1); the
                    // centre index 0 unless it is a hole, every other drawn pixel index
                    // 1 + (s + x + 3y) mod 255, s (0 to 199) read back from the first.
                    let mut shade = None;
                    for (i, &p) in d.iter().enumerate() {
                        let (x, y) = (i % w, i / w);
                        if y % 3 == 1 && x % 5 == 2 {
                            assert_eq!(p, None, "({x}, {y})");
                        } else if (x, y) == (w / 2, h / 2) {
                            assert_eq!(p, Some(0));
                        } else if let Some(p) = p {
                            let s = *shade.get_or_insert(
                                (usize::from(p) + 255 * 3 - 1 - (x + 3 * y) % 255) % 255,
                            );
                            assert!(s < 200, "shade {s}");
                            let want = 1 + (s + x + 3 * y) % 255;
                            assert_eq!(usize::from(p), want, "({x}, {y})");
                        }
                    }
                    assert!(shade.is_some());
                    assert_ne!(d[(h / 2) * w + 1], None, "{w} x {h}");
                }
            }
        }
        // Past the synthetic actions: empty records.
        assert!(anim.group(body, SYNTHETIC_ACTIONS, 0).unwrap().is_none());
    }
    assert!(frames > 100, "{frames}");
    let repeat = anim.body(2).unwrap().record(0, 0).unwrap();
    let original = anim.body(1).unwrap().record(0, 0).unwrap();
    assert_eq!(anim.entry(repeat).unwrap(), anim.entry(original).unwrap());
    let g = anim.group(400, 1, 2).unwrap().unwrap();
    assert_eq!(g.frame_count(), 3);
    assert!(g.frame(1).unwrap().unwrap().is_empty());
    assert!(!g.frame(0).unwrap().unwrap().is_empty());
    // The black centre pixel is index 0, drawn.
    let f = g.frame(0).unwrap().unwrap();
    let (w, h) = (f.width() as usize, f.height() as usize);
    assert_eq!(drawn(&f)[(h / 2) * w + w / 2], Some(0));
}

#[test]
fn a_folder_s_files_are_found_in_any_case_and_opened_three_ways() {
    let (idx, data) = synthetic_animations(3);
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("ANIM.IDX"), &idx).unwrap();
    fs::write(dir.path().join("Anim.mul"), &data).unwrap();
    // anim3's pair is there; anim2 has only its index, so it is not read.
    fs::write(dir.path().join("anim3.idx"), &idx).unwrap();
    fs::write(dir.path().join("ANIM3.MUL"), &data).unwrap();
    fs::write(dir.path().join("anim2.idx"), &idx).unwrap();
    let read = AnimationFiles::open(dir.path(), ()).unwrap();
    // SAFETY: the files are private to this test and nothing changes them while mapped.
    #[allow(unsafe_code)]
    let mapped = unsafe { AnimationFiles::map(dir.path(), ()) }.unwrap();
    for owner in [&read, &mapped] {
        assert_eq!(
            owner.files().collect::<Vec<_>>(),
            [AnimFileId::Anim, AnimFileId::Anim3]
        );
        assert_eq!(owner.input_paths().count(), 4);
        let view = owner.view().unwrap();
        let anim = view.get(AnimFileId::Anim).unwrap();
        assert!(view.get(AnimFileId::Anim2).is_none());
        assert_eq!(
            anim.entry(110).unwrap(),
            Animations::parse(AnimFileId::Anim, &idx, &data)
                .unwrap()
                .entry(110)
                .unwrap()
        );
        // anim3's body 1 is an animal there: the low group.
        let anim3 = view.get(AnimFileId::Anim3).unwrap();
        assert_eq!(anim3.body(1).map(|b| b.group), Some(AnimGroup::Low));
        // Debug names the files held with their sizes, and not anim2's lone index.
        let debug = format!("{owner:?}");
        assert!(
            debug.starts_with("AnimationFiles { paths: Some("),
            "{debug}"
        );
        for name in ["anim.idx", "anim3.idx"] {
            let field = format!("{name}: FileData {{ kind: ");
            assert!(debug.contains(&field), "{debug}");
        }
        assert_eq!(
            debug.matches(&format!("len: {} }}", idx.len())).count(),
            2,
            "{debug}"
        );
        assert_eq!(
            debug.matches(&format!("len: {} }}", data.len())).count(),
            2,
            "{debug}"
        );
        assert!(!debug.contains("anim2.idx: FileData"), "{debug}");
    }
    let wrapped = AnimationFiles::from_data(
        None,
        [
            Some([idx.clone().into(), data.clone().into()]),
            None,
            None,
            None,
            None,
        ],
        &FileOptions::default(),
    )
    .unwrap();
    assert_eq!(wrapped.view().unwrap().iter().count(), 1);
    // A missing anim.mul is a file error; a bad index a data error naming it.
    let empty = tempfile::tempdir().unwrap();
    fs::write(empty.path().join("anim.idx"), [0u8; 13]).unwrap();
    assert!(
        AnimationFiles::open(empty.path(), ())
            .unwrap_err()
            .kind()
            .is_none()
    );
    fs::write(empty.path().join("anim.mul"), [0u8; 4]).unwrap();
    let err = AnimationFiles::open(empty.path(), ()).unwrap_err();
    assert!(err.to_string().starts_with("anim.idx"), "{err}");
}

#[test]
fn a_body_s_type_changes_at_the_client_s_bounds() {
    use AnimFileId::*;
    use BodyType::*;
    // ClassicUO's `CalculateTypeByGraphic` (docs/formats/uo.md, "Animations"), each bound
    // from both sides.
    for file in [Anim, Anim4, Anim5] {
        assert_eq!(BodyType::of_body(file, 0), Monster);
        assert_eq!(BodyType::of_body(file, 199), Monster);
        assert_eq!(BodyType::of_body(file, 200), Animal);
        assert_eq!(BodyType::of_body(file, 399), Animal);
        assert_eq!(BodyType::of_body(file, 400), Human);
        assert_eq!(BodyType::of_body(file, u16::MAX), Human);
    }
    assert_eq!(BodyType::of_body(Anim2, 199), Monster);
    assert_eq!(BodyType::of_body(Anim2, 200), Animal);
    assert_eq!(BodyType::of_body(Anim2, u16::MAX), Animal);
    assert_eq!(BodyType::of_body(Anim3, 299), Animal);
    assert_eq!(BodyType::of_body(Anim3, 300), Monster);
    assert_eq!(BodyType::of_body(Anim3, 399), Monster);
    assert_eq!(BodyType::of_body(Anim3, 400), Human);
}

#[test]
fn the_five_files_are_numbered_and_named_as_the_client_names_them() {
    use AnimFileId::*;
    let files = [
        (Anim, "anim", "anim.idx", "anim.mul"),
        (Anim2, "anim2", "anim2.idx", "anim2.mul"),
        (Anim3, "anim3", "anim3.idx", "anim3.mul"),
        (Anim4, "anim4", "anim4.idx", "anim4.mul"),
        (Anim5, "anim5", "anim5.idx", "anim5.mul"),
    ];
    for (number, (file, name, index, data)) in files.into_iter().enumerate() {
        assert_eq!(file.number(), number);
        assert_eq!(AnimFileId::from_number(number), Some(file));
        assert_eq!(file.name(), name);
        assert_eq!(file.to_string(), name);
        assert_eq!(file.index_name(), index);
        assert_eq!(file.data_name(), data);
    }
    assert_eq!(AnimFileId::from_number(5), None);
    assert_eq!(AnimFileId::from_number(usize::MAX), None);
}

#[test]
fn the_view_holds_its_files_in_place_and_prints_their_sizes() {
    let idx = index(3, &[(1, 2, 5)]);
    let data = [7u8; 9];
    let anim = Animations::parse(AnimFileId::Anim4, &idx, &data).unwrap();
    assert_eq!(
        (anim.len(), anim.is_empty(), anim.file()),
        (3, false, AnimFileId::Anim4)
    );
    assert_eq!(anim.index().len(), 3);
    assert_eq!(
        (anim.index()[1].offset.get(), anim.index()[1].length.get()),
        (2, 5)
    );
    assert_eq!(anim.index().as_ptr().cast::<u8>(), idx.as_ptr());
    assert_eq!(anim.data().as_ptr(), data.as_ptr());
    assert_eq!(anim.data().len(), 9);
    assert_eq!(
        format!("{anim:?}"),
        "Animations { file: Anim4, records: 3, data_len: 9 }"
    );
    let none = Animations::parse(AnimFileId::Anim, &[], &[]).unwrap();
    assert_eq!((none.len(), none.is_empty()), (0, true));
}

/// The writer refuses, naming the record, each frame the format cannot hold: a side past
/// 0x7FFF, pixels that are not width x height, a run whose x (its column less the centre
/// x) or y (its row less the centre y and the height) passes -512 to 511, the 10-bit
/// signed fields; each bound is taken from both sides. A repeat of this or a later record
/// is refused too.
#[test]
fn the_animation_writer_refuses_what_the_format_cannot_hold() {
    use mul_core::WriteProblem;
    let palette = palette();
    let write = |frame: AnimFramePicture<'_>| {
        let frames = [frame];
        write_animations(&[
            AnimEntry::Empty,
            AnimEntry::Group {
                palette: &palette,
                frames: &frames,
            },
        ])
        .map(|_| ())
        .map_err(|e| e.kind)
    };
    let refused = Err(ErrorKind::Write(WriteProblem::Picture { number: 1 }));
    let one = [Some(1u8)];
    let dot = |centre_x, centre_y| AnimFramePicture {
        centre_x,
        centre_y,
        width: 1,
        height: 1,
        pixels: &one,
    };
    // x = -centre_x; y = -centre_y - 1.
    assert_eq!(write(dot(512, 0)), Ok(()));
    assert_eq!(write(dot(513, 0)), refused);
    assert_eq!(write(dot(-511, 0)), Ok(()));
    assert_eq!(write(dot(-512, 0)), refused);
    assert_eq!(write(dot(0, 511)), Ok(()));
    assert_eq!(write(dot(0, 512)), refused);
    assert_eq!(write(dot(0, -512)), Ok(()));
    assert_eq!(write(dot(0, -513)), refused);
    // A frame of no pixel drawn has no run to place, wherever its centre.
    let clear = [None];
    let far_clear = AnimFramePicture {
        pixels: &clear,
        ..dot(2000, 2000)
    };
    assert_eq!(write(far_clear), Ok(()));
    let none = vec![None; 0x8000];
    let sized = |width, height, pixels| AnimFramePicture {
        centre_x: 0,
        centre_y: 0,
        width,
        height,
        pixels,
    };
    assert_eq!(write(sized(0x8000, 1, &none)), refused);
    assert_eq!(write(sized(1, 0x8000, &none)), refused);
    assert_eq!(write(sized(0x7FFF, 1, &none[1..])), Ok(()));
    assert_eq!(write(sized(1, 0x7FFF, &none[1..])), Ok(()));
    assert_eq!(write(sized(2, 2, &none[..3])), refused);
    assert_eq!(write(sized(2, 1, &none[..3])), refused);
    // A frame of no width, or of no height, is no rows of runs: taken.
    assert_eq!(write(sized(0, 3, &[])), Ok(()));
    assert_eq!(write(sized(3, 0, &[])), Ok(()));
    let repeat = |number, earlier| ErrorKind::Write(WriteProblem::Repeat { number, earlier });
    assert_eq!(
        write_animations(&[AnimEntry::Repeat(0)]).unwrap_err().kind,
        repeat(0, 0)
    );
    assert_eq!(
        write_animations(&[AnimEntry::Empty, AnimEntry::Repeat(2), AnimEntry::Empty])
            .unwrap_err()
            .kind,
        repeat(1, 2)
    );
}
