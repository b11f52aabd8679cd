//! UOP animations (AnimationFrame*.uop): decoded entries built by hand (offsets and run
//! headers worked out in the comments), the client's gaps and direction split, and every
//! bad header, table or frame an error for its entry or frame alone. The entry builders
//! `anim_uop_files` shares.

use mul_core::{AnimFrame, AnimProblem, ArgumentProblem, BodyType, ErrorKind, UopAnimation};

/// A palette whose entry i is `3 * i` (entry 0 is 0: transparent in a UOP frame).
pub(crate) fn palette_bytes() -> Vec<u8> {
    (0..256u16).flat_map(|i| (3 * i).to_le_bytes()).collect()
}

/// A frame's header (centre x, centre y, width, height), its runs (header, pixels) and the
/// end marker when `end`.
pub(crate) fn frame(cx: i16, cy: i16, w: i16, h: i16, runs: &[(u32, &[u8])], end: bool) -> Vec<u8> {
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

/// A decoded entry: 40 header bytes (count at 32, table offset at 36), then `records`
/// (group, frame number, offset) at `table`, then `tail` where the table ends.
pub(crate) fn entry(count: i32, table: u32, records: &[(u16, u16, u32)], tail: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; 40];
    out[..4].copy_from_slice(b"AMOU");
    out[32..36].copy_from_slice(&count.to_le_bytes());
    out[36..40].copy_from_slice(&table.to_le_bytes());
    out.resize(table.max(40) as usize, 0);
    for &(group, number, offset) in records {
        out.extend(group.to_le_bytes());
        out.extend(number.to_le_bytes());
        out.extend([0xAA; 8]);
        out.extend(offset.to_le_bytes());
    }
    out.extend_from_slice(tail);
    out
}

/// The hand-built entry: three records (frames 1, 2 and 4; 3 missing) at 40, 56 and 72;
/// the table ends at 88, where the frames' data follow one another.
///
/// Frame 1 at 88 (record 0's offset 88 - 40 = 48): the palette, then centre (1, -3), 3 x 2
/// pixels, one run from column 0, row 0, of 2 pixels: x = 0 - 1 = -1 (0x3FF in 10 bits), y
/// = 0 - (-3) - 2 = 1, so the header is 0x3FF << 22 | 1 << 12 | 2 = 0xFFC0_1002; pixels 0
/// and 5; the end marker. 512 + 8 + 4 + 2 + 4 = 530 bytes.
/// Frame 2 at 88 + 530 = 618 (record 1's offset 618 - 56 = 562): the palette, an empty
/// frame (0 x 0), the end marker: 524 bytes.
/// Frame 4 at 618 + 524 = 1142 (record 2's offset 1142 - 72 = 1070): the palette, centre
/// (0, -1), 1 x 1 pixel, a run at column 0, row 0 of 1 pixel: x = 0, y = 0 + 1 - 1 = 0,
/// header 0x0000_0001; pixel 7; the end marker.
pub(crate) fn hand_built() -> Vec<u8> {
    let mut tail = palette_bytes();
    tail.extend(frame(1, -3, 3, 2, &[(0xFFC0_1002, &[0, 5])], true));
    assert_eq!(tail.len(), 530);
    tail.extend(palette_bytes());
    tail.extend(frame(0, 0, 0, 0, &[], true));
    assert_eq!(tail.len(), 530 + 524);
    tail.extend(palette_bytes());
    tail.extend(frame(0, -1, 1, 1, &[(0x0000_0001, &[7])], true));
    entry(3, 40, &[(2, 1, 48), (2, 2, 562), (2, 4, 1070)], &tail)
}

/// (column, row, pixels) of every run.
fn runs(frame: &AnimFrame<'_>) -> Vec<(u32, u32, Vec<u8>)> {
    frame
        .runs()
        .map(|r| {
            let r = r.unwrap();
            (r.x, r.y, r.pixels.to_vec())
        })
        .collect()
}

pub(crate) fn anim_problem<T: std::fmt::Debug>(
    result: Result<T, mul_core::DataError>,
) -> AnimProblem {
    match result.unwrap_err().kind() {
        ErrorKind::Anim(problem) => problem,
        other => panic!("{other:?}"),
    }
}

#[test]
fn hand_built_entry_reads_frames_by_direction() {
    let bytes = hand_built();
    let anim = UopAnimation::parse(&bytes).unwrap();
    assert_eq!(anim.record_count(), 3);
    // Records 1, 2, 4 and the empty frame 3 between them.
    assert_eq!(anim.list_len(), 4);
    // 4 / 5 = 0.8, rounded to 1; equipment at least 10.
    assert_eq!(anim.frames_per_direction(BodyType::Monster), 1);
    assert_eq!(anim.frames_per_direction(BodyType::Equipment), 10);
    assert_eq!(anim.records()[1].group.get(), 2);

    let f1 = anim.frame(0, 0, 1).unwrap().unwrap();
    assert_eq!((f1.number(), f1.record(), f1.group()), (1, 0, 2));
    assert_eq!(f1.palette()[5].get(), 15);
    let frame1 = f1.frame();
    assert_eq!(
        (
            frame1.centre_x(),
            frame1.centre_y(),
            frame1.width(),
            frame1.height()
        ),
        (1, -3, 3, 2)
    );
    assert_eq!(frame1.number(), 1);
    assert_eq!(runs(&frame1), vec![(0, 0, vec![0, 5])]);

    let f2 = anim.frame(1, 0, 1).unwrap().unwrap();
    assert!(f2.frame().is_empty());
    assert_eq!(runs(&f2.frame()), vec![]);
    // Frame 3 is the gap, frame 5 past the last record: both empty.
    assert!(anim.frame(2, 0, 1).unwrap().is_none());
    assert!(anim.frame(4, 0, 1).unwrap().is_none());
    let f4 = anim.frame(3, 0, 1).unwrap().unwrap();
    assert_eq!(f4.number(), 4);
    assert_eq!(runs(&f4.frame()), vec![(0, 0, vec![7])]);
    // A place past the direction's frames is empty; direction 5 is not stored.
    assert!(anim.frame(0, 1, 1).unwrap().is_none());
    assert!(matches!(
        anim.frame(5, 0, 1).unwrap_err().kind(),
        ErrorKind::Argument(ArgumentProblem::AnimDirection { direction: 5 })
    ));
    // As equipment, 10 a direction: direction 0 holds frames 1 to 10.
    let equipment: Vec<Option<u16>> = anim
        .direction(0, 10)
        .map(|f| f.unwrap().map(|f| f.number()))
        .collect();
    assert_eq!(
        equipment,
        vec![
            Some(1),
            Some(2),
            None,
            Some(4),
            None,
            None,
            None,
            None,
            None,
            None
        ]
    );
    assert_eq!(anim.record_of(4), Some(2));
    assert_eq!(anim.record_of(3), None);
}

#[test]
fn gaps_before_the_first_record_are_not_filled_for_frame_1() {
    // Records 3 and 4: the client fills frame 2 only (it starts counting at 1), so the list
    // is 3 long: 3 / 5 = 0.6, rounded to 1 a direction.
    let mut tail = palette_bytes();
    tail.extend(frame(0, 0, 0, 0, &[], true));
    let at = 40 + 32;
    let bytes = entry(
        2,
        40,
        &[(0, 3, (at - 40) as u32), (0, 4, (at - 56) as u32)],
        &tail,
    );
    let anim = UopAnimation::parse(&bytes).unwrap();
    assert_eq!(anim.list_len(), 3);
    assert_eq!(anim.frames_per_direction(BodyType::Human), 1);
    // Two records at one place are one frame, read for both.
    assert_eq!(anim.frame(2, 0, 1).unwrap().unwrap().number(), 3);
    assert_eq!(anim.frame(3, 0, 1).unwrap().unwrap().number(), 4);
    // Two records: 2 / 5 rounds to 0, so no direction has a frame.
    let bytes = entry(
        2,
        40,
        &[(0, 1, (at - 40) as u32), (0, 2, (at - 56) as u32)],
        &tail,
    );
    let anim = UopAnimation::parse(&bytes).unwrap();
    assert_eq!(anim.frames_per_direction(BodyType::Monster), 0);
    assert_eq!(anim.direction(0, 0).count(), 0);
}

#[test]
fn bad_headers_and_tables_are_errors() {
    assert_eq!(
        anim_problem(UopAnimation::parse(&[0; 39])),
        AnimProblem::UopHeader { found: 39 }
    );
    // Three records need 48 bytes from 40; the entry has 47.
    let short = entry(3, 40, &[], &[0; 47]);
    assert_eq!(
        anim_problem(UopAnimation::parse(&short)),
        AnimProblem::UopFrameTable {
            count: 3,
            offset: 40,
            found: 87
        }
    );
    // A table inside the header, a negative count, a huge count, a table past the end.
    let bytes = entry(1, 40, &[(0, 1, 16)], &[]);
    let mut inside = bytes.clone();
    inside[36..40].copy_from_slice(&20u32.to_le_bytes());
    let mut negative = bytes.clone();
    negative[32..36].copy_from_slice(&(-1i32).to_le_bytes());
    let mut huge = bytes.clone();
    huge[32..36].copy_from_slice(&i32::MAX.to_le_bytes());
    let mut past = bytes.clone();
    past[36..40].copy_from_slice(&u32::MAX.to_le_bytes());
    for (bad, count, offset) in [
        (inside, 1, 20),
        (negative, -1, 40),
        (huge, i32::MAX, 40),
        (past, 1, u32::MAX),
    ] {
        assert_eq!(
            anim_problem(UopAnimation::parse(&bad)),
            AnimProblem::UopFrameTable {
                count,
                offset,
                found: 56
            }
        );
    }
    // Frame numbers must rise from 1.
    let twice = entry(2, 40, &[(0, 1, 32), (0, 1, 16)], &[]);
    assert_eq!(
        anim_problem(UopAnimation::parse(&twice)),
        AnimProblem::UopFrameNumber {
            record: 1,
            number: 1,
            previous: 1
        }
    );
    let zero = entry(1, 40, &[(0, 0, 16)], &[]);
    assert_eq!(
        anim_problem(UopAnimation::parse(&zero)),
        AnimProblem::UopFrameNumber {
            record: 0,
            number: 0,
            previous: 0
        }
    );
}

/// A frame's data must hold its palette and header, 520 bytes, before the entry ends: one
/// byte short is the frame's error, the entry's bytes are the view's.
#[test]
fn a_frame_needs_its_palette_and_header_inside_the_entry() {
    let mut tail = palette_bytes();
    tail.extend(frame(0, 0, 0, 0, &[], false));
    assert_eq!(tail.len(), 520);
    let whole = entry(1, 40, &[(0, 1, 16)], &tail);
    let anim = UopAnimation::parse(&whole).unwrap();
    assert_eq!(anim.bytes(), &whole[..]);
    assert!(!matches!(
        anim.record_frame(0).transpose().unwrap(),
        Err(ref e) if matches!(e.kind(), ErrorKind::Anim(AnimProblem::UopFrameData { .. }))
    ));
    let short = &whole[..whole.len() - 1];
    let anim = UopAnimation::parse(short).unwrap();
    assert_eq!(anim.bytes(), short);
    assert_eq!(
        anim_problem(anim.record_frame(0).transpose().unwrap()),
        AnimProblem::UopFrameData {
            record: 0,
            number: 1,
            offset: 16,
            at: 56,
            table_end: 56,
            found: 56 + 519
        }
    );
}

#[test]
fn bad_frames_are_errors_for_their_frame_alone() {
    // Four records at 40, 56, 72 and 88; the table ends at 104. Record 0's data at 40 + 8
    // = 48 lies in the table; record 1's past the entry; record 2's at 72 + 32 = 104, whose
    // palette and header fit; record 3's at 88 + 116 = 204, inside record 2's palette.
    let mut tail = palette_bytes();
    tail.extend(frame(0, 0, 0, 0, &[], true));
    let bytes = entry(
        4,
        40,
        &[(0, 1, 8), (0, 2, u32::MAX), (0, 3, 32), (0, 4, 116)],
        &tail,
    );
    let len = bytes.len();
    let anim = UopAnimation::parse(&bytes).unwrap();
    assert_eq!(
        anim_problem(anim.record_frame(0).transpose().unwrap()),
        AnimProblem::UopFrameData {
            record: 0,
            number: 1,
            offset: 8,
            at: 48,
            table_end: 104,
            found: len
        }
    );
    assert!(matches!(
        anim_problem(anim.record_frame(1).transpose().unwrap()),
        AnimProblem::UopFrameData {
            record: 1,
            number: 2,
            offset: u32::MAX,
            ..
        }
    ));
    // Record 2's palette reaches record 3's data at 204.
    assert_eq!(
        anim_problem(anim.record_frame(2).transpose().unwrap()),
        AnimProblem::FrameOverlap {
            frame: 3,
            next: 204
        }
    );
    // Record 3's data at 204 + 520 passes the entry's end (104 + 524 = 628).
    assert!(matches!(
        anim_problem(anim.record_frame(3).transpose().unwrap()),
        AnimProblem::UopFrameData {
            record: 3,
            at: 204,
            ..
        }
    ));
    assert!(anim.record_frame(4).unwrap().is_none());

    // Runs: one whose pixels pass the entry's end, one that reaches the next frame.
    let mut tail = palette_bytes();
    // Frame 1 at 72: 1 x 1, a run of 2 pixels (column 0, row 0: x = 0, y = 0 + 0 - 1 =
    // -1, 0x3FF << 12): outside the frame.
    tail.extend(frame(0, 0, 1, 1, &[(0x003F_F002, &[1, 2])], true));
    let second = tail.len();
    tail.extend(palette_bytes());
    // Frame 2: 4 x 1, a run of 4 pixels at (0, 0) (y = -1) with 2 pixels stored.
    tail.extend(frame(0, 0, 4, 1, &[(0x003F_F004, &[1, 2])], false));
    let bytes = entry(
        2,
        40,
        &[(0, 1, 32), (0, 2, (72 + second - 56) as u32)],
        &tail,
    );
    let anim = UopAnimation::parse(&bytes).unwrap();
    let f1 = anim.record_frame(0).unwrap().unwrap().frame();
    assert!(matches!(
        f1.runs().find_map(Result::err).unwrap().kind(),
        ErrorKind::Anim(AnimProblem::RunOutside { frame: 1, .. })
    ));
    let f2 = anim.record_frame(1).unwrap().unwrap().frame();
    assert_eq!(
        anim_problem(f2.runs().find(Result::is_err).unwrap()),
        AnimProblem::RunCut {
            frame: 2,
            at: (72 + second + 512 + 8) as u64
        }
    );
    // A record whose data would start exactly at the entry's end is no next frame there:
    // frame 1's runs are cut by the entry's end, as without it.
    let mut tail = palette_bytes();
    tail.extend(frame(0, 0, 4, 1, &[(0x003F_F004, &[1, 2])], false));
    let len = 72 + tail.len();
    let bytes = entry(2, 40, &[(0, 1, 32), (0, 2, (len - 56) as u32)], &tail);
    let anim = UopAnimation::parse(&bytes).unwrap();
    let f1 = anim.record_frame(0).unwrap().unwrap().frame();
    assert_eq!(
        anim_problem(f1.runs().find(Result::is_err).unwrap()),
        AnimProblem::RunCut {
            frame: 1,
            at: (72 + 512 + 8) as u64
        }
    );
    assert!(matches!(
        anim_problem(anim.record_frame(1).transpose().unwrap()),
        AnimProblem::UopFrameData { record: 1, .. }
    ));
    // Frame 1 without its end marker reaches frame 2's palette.
    let mut tail = palette_bytes();
    tail.extend(frame(0, 0, 0, 0, &[], false));
    let second = tail.len();
    tail.extend(palette_bytes());
    tail.extend(frame(0, 0, 0, 0, &[], true));
    let bytes = entry(
        2,
        40,
        &[(0, 1, 32), (0, 2, (72 + second - 56) as u32)],
        &tail,
    );
    let anim = UopAnimation::parse(&bytes).unwrap();
    // An empty frame reads no runs; a sized one with no runs before the next frame does.
    assert_eq!(
        anim.record_frame(0)
            .unwrap()
            .unwrap()
            .frame()
            .runs()
            .count(),
        0
    );
    let mut sized = bytes.clone();
    sized[72 + 512 + 4..72 + 512 + 8].copy_from_slice(&[1, 0, 1, 0]);
    let anim = UopAnimation::parse(&sized).unwrap();
    assert_eq!(
        anim_problem(
            anim.record_frame(0)
                .unwrap()
                .unwrap()
                .frame()
                .runs()
                .next()
                .unwrap()
        ),
        AnimProblem::FrameOverlap {
            frame: 1,
            next: (72 + second) as u64
        }
    );
}
