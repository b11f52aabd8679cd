//! Animations: frame groups read in place from anim*.mul over anim*.idx, against groups
//! built by hand (run headers computed here, in the comments) and by the writer; every bad
//! group an error saying what; the writer's frames read back and what it refuses. The
//! frame, group and index builders the other `anim_*` modules share.

use mul_core::anim::write::{AnimEntry, AnimFramePicture, write_animations};
use mul_core::{AnimFileId, AnimFrame, AnimProblem, Animations, ErrorKind, FrameGroup};

use crate::index_record;

/// A frame: its header (centre x, centre y, width, height), then each run's header and
/// pixels, then the end marker when `end`.
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

/// A palette whose entry i is `0x0400 * (i % 32) + i / 8` (any values will do), entry 0
/// black.
fn palette() -> [u16; 256] {
    std::array::from_fn(|i| (0x0400 * (i as u16 % 32)) | (i as u16 / 8))
}

/// A frame group: the palette, the frame count, the offsets (from byte 512) and the frames
/// one after another.
pub(crate) fn group(frames: &[Vec<u8>]) -> Vec<u8> {
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
pub(crate) fn frame_a() -> Vec<u8> {
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
pub(crate) fn runs(frame: &AnimFrame<'_>) -> Vec<(u32, u32, Vec<u8>)> {
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

/// An index of `records` empty records with `(record, offset, size)` set.
pub(crate) fn index(records: usize, set: &[(usize, u32, u32)]) -> Vec<u8> {
    let mut out: Vec<u8> = (0..records)
        .flat_map(|_| index_record(u32::MAX, u32::MAX))
        .collect();
    for &(record, offset, size) in set {
        out[record * 12..record * 12 + 12].copy_from_slice(&index_record(offset, size));
    }
    out
}

/// The pixels a frame's runs give, row by row (`None` where no run is).
pub(crate) fn drawn(frame: &AnimFrame<'_>) -> Vec<Option<u8>> {
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
