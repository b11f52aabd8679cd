//! UOP animations (AnimationFrame*.uop): decoded entries built by hand (offsets and run
//! headers worked out in the comments), written and read back in each compression, the
//! client's gaps and direction split, and every bad table or frame an error naming the
//! entry.

use mul_core::anim::write::{
    AnimFramePicture, SYNTHETIC_UOP_ENTRIES, UopAnimCompression, UopFramePicture,
    synthetic_uop_animations, write_uop_animation, write_uop_animations, write_uop_sequences,
};
use mul_core::anim::{
    UOP_ANIM_FILES, UOP_SEQUENCE_FILE, UopAnimationFiles, UopSequence, UopSequences,
    uop_anim_entry_name, uop_sequence_entry_name,
};
use mul_core::{
    AnimFrame, AnimProblem, ArgumentProblem, BodyType, ErrorKind, Limits, UopAnimation,
    UopAnimations, name_hash,
};

/// A palette whose entry i is `3 * i` (entry 0 is 0: transparent in a UOP frame).
fn palette_bytes() -> Vec<u8> {
    (0..256u16).flat_map(|i| (3 * i).to_le_bytes()).collect()
}

/// A frame's header (centre x, centre y, width, height), its runs (header, pixels) and the
/// end marker when `end`.
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

/// A decoded entry: 40 header bytes (count at 32, table offset at 36), then `records`
/// (group, frame number, offset) at `table`, then `tail` where the table ends.
fn entry(count: i32, table: u32, records: &[(u16, u16, u32)], tail: &[u8]) -> Vec<u8> {
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
fn hand_built() -> Vec<u8> {
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

fn anim_problem<T: std::fmt::Debug>(result: Result<T, mul_core::DataError>) -> AnimProblem {
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

/// `w` x `h` pixels from runs, `None` where no run reaches.
fn picture(frame: &AnimFrame<'_>) -> Vec<Option<u8>> {
    let (w, h) = (frame.width() as usize, frame.height() as usize);
    let mut out = vec![None; w * h];
    for r in frame.runs() {
        let r = r.unwrap();
        for (k, &p) in r.pixels.iter().enumerate() {
            out[r.y as usize * w + r.x as usize + k] = Some(p);
        }
    }
    out
}

#[test]
fn written_entries_read_back() {
    let palette: [u16; 256] = std::array::from_fn(|i| i as u16 * 5);
    let pixels_a: Vec<Option<u8>> = (0..12)
        .map(|i| if i % 5 == 0 { None } else { Some(i as u8) })
        .collect();
    let pixels_b = vec![Some(9u8); 2];
    let a = AnimFramePicture {
        centre_x: 2,
        centre_y: -1,
        width: 4,
        height: 3,
        pixels: &pixels_a,
    };
    let b = AnimFramePicture {
        centre_x: 0,
        centre_y: 0,
        width: 2,
        height: 1,
        pixels: &pixels_b,
    };
    let frames = [
        UopFramePicture {
            group: 6,
            number: 1,
            palette: &palette,
            picture: a,
        },
        UopFramePicture {
            group: 6,
            number: 7,
            palette: &palette,
            picture: b,
        },
    ];
    let bytes = write_uop_animation(&frames).unwrap();
    // The header as the clients' files have it: "AMOU", version 1, the entry's length,
    // zeros, the frame count at byte 32 and the table's offset (40) at 36; each 16-byte
    // record its group, number, zeros and its frame's offset from the record.
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!(&bytes[..4], b"AMOU");
    assert_eq!((word(4), word(8) as usize), (1, bytes.len()));
    assert!(bytes[12..32].iter().all(|&b| b == 0));
    assert_eq!((word(32), word(36)), (2, 40));
    assert_eq!(bytes[40..44], [6, 0, 1, 0]);
    assert_eq!(bytes[56..60], [6, 0, 7, 0]);
    assert!(bytes[44..52].iter().chain(&bytes[60..68]).all(|&b| b == 0));
    // Frame 0's palette right after the table; frame 1's after frame 0's palette and
    // frame (its header of 8 bytes; runs of a 4-byte header and their pixels: row 0 one
    // of 3, rows 1 and 2 two each, of 1 and 2, of 2 and 1; the end's 4 bytes).
    let frame_0 = 72usize;
    let frame_0_len = 8 + (4 + 3) + (4 + 1) + (4 + 2) + (4 + 2) + (4 + 1) + 4;
    assert_eq!(word(52) as usize, frame_0 - 40);
    assert_eq!(word(68) as usize, frame_0 + 512 + frame_0_len - 56);
    let anim = UopAnimation::parse(&bytes).unwrap();
    // Frames 1 and 7: the list is 1, then 2 to 6 empty, then 7: 7 long, 1.4 -> 1 a
    // direction; frame 7 is direction 6 / 1 = 6, past the stored five.
    assert_eq!((anim.record_count(), anim.list_len()), (2, 7));
    let f = anim.record_frame(0).unwrap().unwrap();
    assert_eq!(picture(&f.frame()), pixels_a);
    assert_eq!(f.palette()[3].get(), 15);
    assert_eq!((f.frame().centre_x(), f.frame().centre_y()), (2, -1));
    let g = anim.record_frame(1).unwrap().unwrap();
    assert_eq!((g.number(), g.group()), (7, 6));
    assert_eq!(picture(&g.frame()), pixels_b);
    // Numbers that do not rise cannot be written.
    let back = [frames[1], frames[0]];
    assert!(matches!(
        write_uop_animation(&back).unwrap_err().kind(),
        ErrorKind::Write(_)
    ));
}

#[test]
fn synthetic_files_read_in_each_compression() {
    let limits = Limits::default();
    let mut first = None;
    for how in [
        UopAnimCompression::None,
        UopAnimCompression::Zlib,
        UopAnimCompression::ZlibBwt,
    ] {
        let file = synthetic_uop_animations(5, how);
        assert_eq!(file, synthetic_uop_animations(5, how));
        assert_ne!(file, synthetic_uop_animations(6, how));
        let uop = UopAnimations::parse([(1, file.as_slice())], &limits).unwrap();
        let mut decoded_all = Vec::new();
        for (body, action) in SYNTHETIC_UOP_ENTRIES {
            let decoded = uop.decoded(body, action, &limits).unwrap().unwrap();
            assert_eq!(decoded.is_decoded(), how != UopAnimCompression::None);
            assert_eq!(decoded.file(), "AnimationFrame1.uop");
            let anim = decoded.animation().unwrap();
            let per = anim.frames_per_direction(BodyType::Monster);
            let expected = match (body, action) {
                (1, 0) => 2,
                (1, 2) => 3,
                _ => 1,
            };
            assert_eq!(per, expected, "body {body} action {action}");
            for d in 0..5 {
                for (place, f) in anim.direction(d, per).enumerate() {
                    let f = f.unwrap();
                    let gap = (body, action, d) == (1, 2, 1) && place > 0;
                    assert_eq!(f.is_none(), gap, "body {body} action {action} dir {d}");
                    if let Some(f) = f {
                        assert_eq!(u32::from(f.number()), u32::from(d) * per + place as u32 + 1);
                        assert_eq!(f.palette()[0].get(), 0);
                        assert_eq!(f.palette()[1].get(), 0x7FFF);
                        // The others: 15-bit colours, none 0.
                        assert!(
                            f.palette()[2..]
                                .iter()
                                .all(|c| (1..0x8000).contains(&c.get()))
                        );
                        assert!(f.frame().runs().all(|r| r.is_ok()));
                        // 2 to 17 x 3 to 18 pixels; a pixel whose column and row add up to
                        // 3 (mod 4) transparent, the centre pixel colour 0 otherwise.
                        let (w, h) = (f.frame().width() as usize, f.frame().height() as usize);
                        assert!((2..=17).contains(&w) && (3..=18).contains(&h), "{w} x {h}");
                        // The centre at (w / 2, -(h / 3)).
                        let centre_at = (w as i16 / 2, -(h as i16 / 3));
                        assert_eq!((f.frame().centre_x(), f.frame().centre_y()), centre_at);
                        let p = picture(&f.frame());
                        let centre = ((w / 2 + h / 2) % 4 != 3).then_some(0);
                        assert_eq!(p[(h / 2) * w + w / 2], centre);
                        let at_1_1 = if (w / 2, h / 2) == (1, 1) {
                            0
                        } else {
                            1 + 7 + 3
                        };
                        assert_eq!(p[w + 1], Some(at_1_1));
                        assert_eq!(p[2 * w + 1], None);
                        assert!(p[0].is_some_and(|i| i != 0));
                    }
                }
            }
            decoded_all.push(decoded.bytes().to_vec());
        }
        assert!(uop.decoded(1, 1, &limits).unwrap().is_none());
        // The decoded bytes are the same whatever the compression.
        match &first {
            None => first = Some(decoded_all),
            Some(earlier) => assert_eq!(earlier, &decoded_all),
        }
    }
}

#[test]
fn first_file_wins_and_errors_name_the_entry() {
    let limits = Limits::default();
    let good = synthetic_uop_animations(1, UopAnimCompression::Zlib);
    // File 2 holds body 1 action 0 too (a bad one) and body 7 action 3 (bad).
    let bad = entry(3, 40, &[], &[0; 47]);
    let file2 = write_uop_animations(
        &[(1, 0, bad.clone()), (7, 3, bad)],
        UopAnimCompression::Zlib,
    )
    .unwrap();
    let uop = UopAnimations::parse([(2, file2.as_slice()), (1, good.as_slice())], &limits).unwrap();
    assert_eq!(uop.files().collect::<Vec<_>>(), vec![1, 2]);
    let (n, _, entry1) = uop.find(1, 0).unwrap();
    assert_eq!(n, 1);
    assert_eq!(
        entry1.hash(),
        name_hash("build/animationlegacyframe/000001/00.bin")
    );
    assert_eq!(
        uop_anim_entry_name(1, 0),
        "build/animationlegacyframe/000001/00.bin"
    );
    assert!(
        uop.decoded(1, 0, &limits)
            .unwrap()
            .unwrap()
            .animation()
            .is_ok()
    );
    let decoded = uop.decoded(7, 3, &limits).unwrap().unwrap();
    assert_eq!(decoded.file(), UOP_ANIM_FILES[1]);
    let err = decoded.animation().unwrap_err();
    assert_eq!(err.entry(), Some("body 7 action 3"));
    assert_eq!(
        (err.file(), err.slot()),
        (Some("AnimationFrame2.uop"), Some(1))
    );
    assert!(matches!(
        err.kind(),
        ErrorKind::Anim(AnimProblem::UopFrameTable { count: 3, .. })
    ));
    // A frame's run error names the entry too.
    let mut tail = palette_bytes();
    tail.extend(frame(0, 0, 1, 1, &[(0x003F_F002, &[1, 2])], true));
    let runs_bad = entry(1, 40, &[(0, 1, 16)], &tail);
    let file3 = write_uop_animations(&[(9, 0, runs_bad)], UopAnimCompression::None).unwrap();
    let uop = UopAnimations::parse([(3, file3.as_slice())], &limits).unwrap();
    let decoded = uop.decoded(9, 0, &limits).unwrap().unwrap();
    let anim = decoded.animation().unwrap();
    let err = anim
        .record_frame(0)
        .unwrap()
        .unwrap()
        .frame()
        .runs()
        .find_map(Result::err)
        .unwrap();
    assert_eq!(err.entry(), Some("body 9 action 0"));
    assert_eq!(err.file(), Some("AnimationFrame3.uop"));
    // Decoding passes no limit.
    let tight = Limits::default().with_max_decoded_bytes(100);
    let err = UopAnimations::parse([(1, good.as_slice())], &limits)
        .unwrap()
        .decoded(1, 0, &tight)
        .unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Limit(_)), "{err}");
    assert_eq!(err.entry(), Some("body 1 action 0"));
    // A file that is not a container is named.
    let err = UopAnimations::parse([(4, &[0u8; 40][..])], &limits).unwrap_err();
    assert_eq!(err.file(), Some("AnimationFrame4.uop"));
}

/// A sequence entry: body, 48 zero bytes, the count, then each record (old action, frame
/// count, new action, 60 zero bytes).
fn sequence(body: u32, count: i32, records: &[(i32, u32, i32)]) -> Vec<u8> {
    let mut out = body.to_le_bytes().to_vec();
    out.resize(52, 0);
    out.extend(count.to_le_bytes());
    for &(old, frames, new) in records {
        out.extend(old.to_le_bytes());
        out.extend(frames.to_le_bytes());
        out.extend(new.to_le_bytes());
        out.extend([0u8; 60]);
    }
    out
}

#[test]
fn sequences_replace_actions_twice_over() {
    // 2 plays 5 and 5 plays 7: the client's double look-up sends 2 to 7. Action 3's record
    // has frames (no replacement); action 1's target is negative (none).
    let bytes = sequence(400, 4, &[(2, 0, 5), (5, 0, 7), (3, 12, 9), (1, 0, -1)]);
    assert_eq!(bytes.len(), 56 + 4 * 72);
    let seq = UopSequence::parse(&bytes).unwrap();
    assert_eq!((seq.body(), seq.records().len()), (400, 4));
    assert_eq!(seq.replacement(2), Some(5));
    assert_eq!(seq.replacement(3), None);
    assert_eq!(seq.replacement(1), None);
    // The last record of an action wins, even one that replaces nothing.
    let last = sequence(1, 2, &[(6, 0, 8), (6, 0, -3)]);
    assert_eq!(UopSequence::parse(&last).unwrap().replacement(6), None);
    let last = sequence(1, 2, &[(6, 0, -3), (6, 0, 8)]);
    assert_eq!(UopSequence::parse(&last).unwrap().replacement(6), Some(8));
    assert_eq!(
        [0, 1, 2, 3, 5, 7].map(|a| seq.resolve(a)),
        [0, 1, 7, 3, 7, 7]
    );
    // Counts 48 and 68 read no record; others must fit.
    for count in [48, 68] {
        assert!(
            UopSequence::parse(&sequence(1, count, &[]))
                .unwrap()
                .records()
                .is_empty()
        );
    }
    let short = sequence(1, 2, &[(0, 0, 1)]);
    assert_eq!(
        anim_problem(UopSequence::parse(&short)),
        AnimProblem::UopSequence {
            count: Some(2),
            found: 128
        }
    );
    assert_eq!(
        anim_problem(UopSequence::parse(&[0; 55])),
        AnimProblem::UopSequence {
            count: None,
            found: 55
        }
    );
    assert_eq!(
        anim_problem(UopSequence::parse(&sequence(1, -1, &[]))),
        AnimProblem::UopSequence {
            count: Some(-1),
            found: 56
        }
    );

    // In a container: body 400's sequence, and action 2 read as action 7's entry.
    let limits = Limits::default();
    let file = write_uop_sequences(&[(400, bytes)], UopAnimCompression::Zlib).unwrap();
    let seqs = UopSequences::parse(&file, &limits).unwrap();
    assert!(seqs.decoded(401, &limits).unwrap().is_none());
    let decoded = seqs.decoded(400, &limits).unwrap().unwrap();
    let seq = UopSequence::parse(&decoded).unwrap();
    assert_eq!(seq.resolve(2), 7);
    let err = seqs
        .decoded(400, &Limits::default().with_max_decoded_bytes(10))
        .unwrap_err();
    assert_eq!(err.entry(), Some("body 400 sequence"));
    assert_eq!(err.file(), Some(UOP_SEQUENCE_FILE));
    assert_eq!(
        name_hash(&uop_sequence_entry_name(400)),
        name_hash("build/animationsequence/00000400.bin")
    );
}

#[test]
fn a_folder_s_uop_files_are_found_in_any_case() {
    let limits = Limits::default();
    let frames1 = synthetic_uop_animations(2, UopAnimCompression::Zlib);
    // AnimationFrame3.uop holds body 9 action 1 (one frame a direction, numbers 1 to 5).
    let palette = [0u16; 256];
    let pixels = [Some(1u8)];
    let picture = AnimFramePicture {
        centre_x: 0,
        centre_y: 0,
        width: 1,
        height: 1,
        pixels: &pixels,
    };
    let frames: Vec<UopFramePicture<'_>> = (1..=5)
        .map(|number| UopFramePicture {
            group: 1,
            number,
            palette: &palette,
            picture,
        })
        .collect();
    let entry9 = write_uop_animation(&frames).unwrap();
    let frames3 =
        write_uop_animations(&[(9, 1, entry9.clone())], UopAnimCompression::None).unwrap();
    let seq = write_uop_sequences(
        &[(9, sequence(9, 1, &[(4, 0, 1)]))],
        UopAnimCompression::None,
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("animationframe1.uop"), &frames1).unwrap();
    std::fs::write(dir.path().join("AnimationFrame3.uop"), &frames3).unwrap();
    std::fs::write(dir.path().join("ANIMATIONSEQUENCE.UOP"), &seq).unwrap();
    let owner = UopAnimationFiles::open(dir.path(), ()).unwrap();
    assert_eq!(owner.input_paths().count(), 3);
    let view = owner.view().unwrap();
    assert_eq!(view.animations.files().collect::<Vec<_>>(), vec![1, 3]);
    // Body 9's action 4 plays action 1's entry, found in file 3.
    let seqs = view.sequences.as_ref().unwrap();
    let decoded = seqs.decoded(9, &limits).unwrap().unwrap();
    let action = UopSequence::parse(&decoded).unwrap().resolve(4);
    assert_eq!(action, 1);
    let anim = view
        .animations
        .decoded(9, action, &limits)
        .unwrap()
        .unwrap();
    assert_eq!(anim.file(), "AnimationFrame3.uop");
    // Stored as is: the entry's bytes in place.
    assert_eq!(anim.bytes(), &entry9[..]);
    assert!(!anim.is_decoded());
    let shown = format!("{anim:?}");
    assert!(
        shown.starts_with("DecodedUopAnimation { origin: ") && shown.contains("decoded: false"),
        "{shown}"
    );
    let anim = anim.animation().unwrap();
    assert_eq!(anim.frames_per_direction(BodyType::Animal), 1);
    let frame = anim.frame(4, 0, 1).unwrap().unwrap();
    assert_eq!(frame.number(), 5);
    // Debug shows what a reader looks for, never the bytes.
    let shown = format!("{view:?} {owner:?} {anim:?} {frame:?}");
    for part in [
        "UopAnimations { files: [1, 3] }",
        "UopAnimationFiles",
        "AnimationFrame3.uop",
        "UopAnimation { len: ",
        "records: 5, list_len: 5",
        "UopFrame { record: 4, number: 5",
    ] {
        assert!(shown.contains(part), "{part}: {shown}");
    }
    assert!(view.animations.decoded(1, 0, &limits).unwrap().is_some());
    // Each entry's place in its file's table, as the container itself gives it.
    let table = mul_core::Uop::parse(&frames1, &limits).unwrap();
    for (body, action) in SYNTHETIC_UOP_ENTRIES {
        let place = table
            .find_name(&uop_anim_entry_name(body, action))
            .unwrap()
            .index();
        let decoded = view.animations.decoded(body, action, &limits).unwrap();
        assert_eq!(decoded.unwrap().entry_index(), place, "{body} {action}");
    }
    assert_eq!(
        table
            .find_name(&uop_anim_entry_name(400, 4))
            .unwrap()
            .index(),
        2
    );
    // AnimationFrame1.uop is required; a file that is not a container is named.
    let empty = tempfile::tempdir().unwrap();
    assert!(
        UopAnimationFiles::open(empty.path(), ())
            .unwrap_err()
            .kind()
            .is_none()
    );
    std::fs::write(empty.path().join("AnimationFrame1.uop"), &frames1).unwrap();
    std::fs::write(empty.path().join("AnimationFrame2.uop"), [0u8; 8]).unwrap();
    let err = UopAnimationFiles::open(empty.path(), ()).unwrap_err();
    assert!(err.to_string().starts_with("AnimationFrame2.uop"), "{err}");
}

#[test]
fn the_fuzz_seeds_reach_frames_and_replacements() {
    let seeds =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds/uo_anim_uop");
    // The seed is the hand-built entry above as the writer lays it out (the writer's
    // header fields and zeros where the hand-built one has 0xAA), as write_mul_fuzz_seeds
    // writes it.
    let entry_seed = std::fs::read(seeds.join("three_frames_a_gap")).unwrap();
    let mut expected = hand_built();
    expected[4..8].copy_from_slice(&1u32.to_le_bytes());
    let total = expected.len() as u32;
    expected[8..12].copy_from_slice(&total.to_le_bytes());
    for record in 0..3 {
        expected[40 + 16 * record + 4..40 + 16 * record + 12].fill(0);
    }
    assert_eq!(entry_seed, expected);
    let palette: [u16; 256] = std::array::from_fn(|i| 3 * i as u16);
    let pixels = [Some(0u8), Some(5), None, None, None, None];
    let picture = |centre_x, centre_y, width, height, pixels| AnimFramePicture {
        centre_x,
        centre_y,
        width,
        height,
        pixels,
    };
    let frames = [
        (1, picture(1, -3, 3, 2, &pixels[..])),
        (2, picture(0, 0, 0, 0, &[][..])),
        (4, picture(0, -1, 1, 1, &[Some(7u8)][..])),
    ]
    .map(|(number, picture)| UopFramePicture {
        group: 2,
        number,
        palette: &palette,
        picture,
    });
    assert_eq!(write_uop_animation(&frames).unwrap(), entry_seed);
    let seq_seed = std::fs::read(seeds.join("sequence_two_replacements")).unwrap();
    assert_eq!(seq_seed, sequence(400, 2, &[(2, 0, 5), (5, 0, 7)]));
    assert_eq!(UopSequence::parse(&seq_seed).unwrap().resolve(2), 7);
    assert_ne!(gamedata_exercise::uo::anim_uop(&entry_seed), 0);
}
