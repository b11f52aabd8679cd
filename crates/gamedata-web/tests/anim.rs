//! Animations played from anim.idx with anim.mul given by size and a reader: the bodies
//! and actions listed are those whose records hold frames (read here from anim.idx's
//! 12-byte records by hand, with the client's block of records per body), each frame is
//! the one mul-core's `Animations` over both whole files gives, drawn by gamedata-render
//! (as `gamedata uo anim`), mirrored for directions 5 to 7, and anim.mul is read one frame
//! group at a time.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::cast_possible_truncation
)]

use std::cell::RefCell;
use std::rc::Rc;

use gamedata_io::Limits;
use gamedata_render::uo::anim::{frame_picture, mirror};
use gamedata_render::uo::art::ArtHue;
use gamedata_web::{FRAME_MS, Library};
use mul_core::{AnimFileId, Animations, Facing};

#[test]
fn frames_are_read_by_group_and_are_the_command_s_pictures() {
    let (idx, mul) = mul_core::anim::write::synthetic_animations(1);
    let hues = mul_core::synth::hues();
    let mut library = Library::new();
    library.add_file("c/anim.idx", idx.clone());
    let reads: Rc<RefCell<Vec<(u64, u32)>>> = Rc::default();
    let seen = Rc::clone(&reads);
    let data = mul.clone();
    library.add_lazy_file(
        "c/anim.mul",
        mul.len() as u64,
        Box::new(move |offset, length| {
            seen.borrow_mut().push((offset, length));
            let at = offset as usize;
            Ok(data[at..at + length as usize].to_vec())
        }),
    );
    library.add_file("c/hues.mul", hues.clone());
    library.scan();
    assert!(
        library.found().iter().any(|f| f.contains("animations")),
        "{:?}",
        library.found()
    );
    let bodies = library.anim_bodies().unwrap();
    let numbers: Vec<u16> = bodies.iter().map(|(b, _)| *b).collect();
    // The synthetic set's bodies (mul_core::anim::write::synthetic_animations).
    assert_eq!(numbers, [1, 2, 201, 400]);
    assert!(reads.borrow().is_empty(), "listing reads only anim.idx");

    let anim = Animations::parse(AnimFileId::Anim, &idx, &mul).unwrap();
    let hue_table = mul_core::Hues::parse(&hues).unwrap();
    let mut drawn = 0;
    for (body, actions) in &bodies {
        for &action in actions {
            for direction in 0..8u8 {
                for hue in [0u16, 7] {
                    let facing = Facing::of(direction).unwrap();
                    let group = anim.group(*body, action, facing.stored).unwrap();
                    let got = library.anim_frames(*body, action, direction, hue).unwrap();
                    let Some(group) = group else {
                        assert!(got.is_empty());
                        continue;
                    };
                    assert_eq!(
                        got.len(),
                        group.frame_count(),
                        "{body} {action} {direction}"
                    );
                    let with = ArtHue::from_value(&hue_table, hue).unwrap();
                    for (i, frame) in got.iter().enumerate() {
                        let Some(want) = group.frame(i).unwrap() else {
                            assert_eq!(frame.picture.width(), 0);
                            continue;
                        };
                        let mut picture =
                            frame_picture(&want, group.palette(), with, &Limits::default())
                                .unwrap();
                        let mut centre_x = i32::from(want.centre_x());
                        if facing.mirrored {
                            picture = mirror(&picture);
                            centre_x = want.width() as i32 - centre_x;
                        }
                        assert!(frame.picture.pixels() == picture.pixels());
                        assert_eq!(
                            (frame.centre_x, frame.centre_y),
                            (centre_x, i32::from(want.centre_y()))
                        );
                        drawn += 1;
                    }
                }
            }
        }
    }
    assert!(drawn > 50, "{drawn}");
    // Each read was one record's range, never the whole file.
    let records: Vec<(u64, u32)> = idx
        .chunks_exact(12)
        .map(|r| {
            let offset = u32::from_le_bytes(r[0..4].try_into().unwrap());
            let length = u32::from_le_bytes(r[4..8].try_into().unwrap());
            (u64::from(offset), length)
        })
        .collect();
    for read in reads.borrow().iter() {
        assert!(records.contains(read), "{read:?} is no record's range");
    }
    assert_eq!(FRAME_MS, 80);
    assert!(
        library.anim_frames(3, 0, 0, 0).unwrap().is_empty(),
        "an empty record"
    );
    let e = library.anim_frames(5000, 0, 0, 0).unwrap_err();
    assert!(
        format!("{e:#}").contains("body 5000 has no animation"),
        "{e:#}"
    );
    let e = library.anim_frames(400, 0, 9, 0).unwrap_err();
    assert!(format!("{e:#}").contains("direction 9"), "{e:#}");
}

/// Each UOP frame of body `body`'s action `action` (its own entry) in `direction`, from
/// the whole file through mul-core's `UopAnimations`, drawn by gamedata-render: (width,
/// height, pixels, centre), mirrored for 5 to 7; a place no record fills, 0 x 0.
/// Each frame's size, pixels and centre.
fn facts(frames: Vec<gamedata_web::AnimFramePicture>) -> Vec<(u32, u32, Vec<u8>, i32, i32)> {
    frames
        .into_iter()
        .map(|f| {
            (
                f.picture.width(),
                f.picture.height(),
                f.picture.pixels().to_vec(),
                f.centre_x,
                f.centre_y,
            )
        })
        .collect()
}

fn uop_want(
    file: &[u8],
    body: u16,
    action: u16,
    direction: u8,
) -> Vec<(u32, u32, Vec<u8>, i32, i32)> {
    use gamedata_render::uo::anim::uop_frame_picture;
    let limits = Limits::default();
    let animations = mul_core::anim::UopAnimations::parse([(1u8, file)], &limits).unwrap();
    let decoded = animations.decoded(body, action, &limits).unwrap().unwrap();
    let animation = decoded.animation().unwrap();
    let facing = Facing::of(direction).unwrap();
    let kind = mul_core::BodyType::of_body(AnimFileId::Anim, body);
    let per = animation.frames_per_direction(kind);
    (0..per)
        .map(
            |place| match animation.frame(facing.stored, place, per).unwrap() {
                None => (0, 0, Vec::new(), 0, 0),
                Some(frame) => {
                    let picture = uop_frame_picture(&frame, ArtHue::None, &limits).unwrap();
                    let f = frame.frame();
                    let (picture, x) = if facing.mirrored {
                        (mirror(&picture), f.width() as i32 - i32::from(f.centre_x()))
                    } else {
                        (picture, i32::from(f.centre_x()))
                    };
                    (
                        picture.width(),
                        picture.height(),
                        picture.pixels().to_vec(),
                        x,
                        i32::from(f.centre_y()),
                    )
                }
            },
        )
        .collect()
}

#[test]
fn uop_animations_are_read_by_entry_and_are_the_whole_files_frames() {
    use mul_core::anim::write::{
        SYNTHETIC_UOP_ENTRIES, UopAnimCompression, synthetic_uop_animations,
    };
    for how in [UopAnimCompression::None, UopAnimCompression::ZlibBwt] {
        let file = synthetic_uop_animations(3, how);
        let mut library = Library::new();
        let reads: Rc<RefCell<Vec<(u64, u32)>>> = Rc::default();
        let seen = Rc::clone(&reads);
        let data = file.clone();
        library.add_lazy_file(
            "c/AnimationFrame1.uop",
            file.len() as u64,
            Box::new(move |offset, length| {
                seen.borrow_mut().push((offset, length));
                let at = offset as usize;
                Ok(data[at..at + length as usize].to_vec())
            }),
        );
        library.scan();
        let bodies = library.anim_bodies().unwrap();
        let want_bodies: Vec<(u16, Vec<u16>)> = vec![(1, vec![0, 2]), (400, vec![4])];
        assert_eq!(bodies, want_bodies);
        for (body, action) in SYNTHETIC_UOP_ENTRIES {
            for direction in 0..8u8 {
                let got = facts(library.anim_frames(body, action, direction, 0).unwrap());
                assert_eq!(
                    got,
                    uop_want(&file, body, action, direction),
                    "{body} {action}"
                );
            }
        }
        // Never the whole file at once: the table, then each entry alone.
        let largest = reads.borrow().iter().map(|&(_, l)| l).max().unwrap();
        assert!(
            u64::from(largest) < file.len() as u64 / 2,
            "{largest} of {}",
            file.len()
        );
        let e = library.anim_frames(1, 7, 0, 0).unwrap_err();
        assert!(
            format!("{e:#}").contains("no entry in AnimationFrame"),
            "{e:#}"
        );
    }
}

#[test]
fn with_both_forms_a_body_is_read_from_the_form_the_command_chooses() {
    use mul_core::anim::write::{UopAnimCompression, synthetic_uop_animations};
    let (idx, mul) = mul_core::anim::write::synthetic_animations(1);
    let uop = synthetic_uop_animations(3, UopAnimCompression::Zlib);
    let mut library = Library::new();
    library.add_file("c/anim.idx", idx.clone());
    library.add_file("c/anim.mul", mul.clone());
    library.add_file("c/AnimationFrame1.uop", uop.clone());
    library.scan();
    // Body 1 has MUL frames for action 0: the MUL; its action 2 too; body 400 action 4
    // has none in the MUL (its actions there are 0 to 2): the UOP.
    let anim = Animations::parse(AnimFileId::Anim, &idx, &mul).unwrap();
    let mul_frames = |body: u16, action: u16| {
        let records = anim.body(body).unwrap();
        anim.group_of(&records, action, 0)
            .unwrap()
            .map(|g| g.frame_count())
    };
    let got = library.anim_frames(1, 0, 0, 0).unwrap();
    assert_eq!(Some(got.len()), mul_frames(1, 0));
    let got = library.anim_frames(400, 4, 0, 0).unwrap();
    let want = uop_want(&uop, 400, 4, 0);
    assert_eq!(got.len(), want.len());
    assert_eq!(got[0].picture.pixels(), &want[0].2[..]);
    // mobtypes.txt's flag 0x10000 sends body 1 to the UOP.
    library.add_file("c/mobtypes.txt", b"1 MONSTER 10000\n".to_vec());
    library.scan();
    let got = library.anim_frames(1, 0, 0, 0).unwrap();
    let want = uop_want(&uop, 1, 0, 0);
    assert_eq!(got.len(), want.len());
    assert_eq!(got[0].picture.pixels(), &want[0].2[..]);
    let bodies = library.anim_bodies().unwrap();
    let one = bodies.iter().find(|(b, _)| *b == 1).unwrap();
    assert_eq!(one.1, [0, 2], "body 1's actions from the UOP");
}

#[test]
fn anim2_to_anim5_are_read_as_their_files_number_their_bodies() {
    // Another synthetic set (seed 2) given as anim2: read with anim2's numbering.
    let (one_idx, one_mul) = mul_core::anim::write::synthetic_animations(1);
    let (idx, mul) = mul_core::anim::write::synthetic_animations(2);
    let mut library = Library::new();
    library.add_file("c/anim.idx", one_idx);
    library.add_file("c/anim.mul", one_mul);
    library.add_file("c/anim2.idx", idx.clone());
    library.add_file("c/anim2.mul", mul.clone());
    library.scan();
    assert_eq!(library.anim_files(), ["anim", "anim2"]);
    let anim2 = Animations::parse(AnimFileId::Anim2, &idx, &mul).unwrap();
    // The bodies whose anim2 block holds a frame group, found by mul-core over both files.
    let want: Vec<u16> = (0..=u16::MAX)
        .filter(|&body| {
            anim2.body(body).is_some_and(|records| {
                (0..u16::from(records.actions)).any(|action| {
                    (0..5).any(|d| matches!(anim2.group(body, action, d), Ok(Some(_))))
                })
            })
        })
        .collect();
    let got: Vec<u16> = library
        .anim_bodies_in("anim2")
        .unwrap()
        .iter()
        .map(|(b, _)| *b)
        .collect();
    assert_eq!(got, want);

    let body = want[0];
    let (_, actions) = library
        .anim_bodies_in("anim2")
        .unwrap()
        .into_iter()
        .find(|(b, _)| *b == body)
        .unwrap();
    let group = anim2.group(body, actions[0], 0).unwrap().unwrap();
    let frames = library
        .anim_frames_in("anim2", body, actions[0], 0, 0)
        .unwrap();
    assert_eq!(frames.len(), group.frame_count());
    let first = group.frame(0).unwrap().unwrap();
    let picture = frame_picture(&first, group.palette(), ArtHue::None, &Limits::default()).unwrap();
    assert!(frames[0].picture.pixels() == picture.pixels());
    // anim.mul's frames there are other pixels (seed 1).
    let from_anim = library.anim_frames(body, actions[0], 0, 0).unwrap();
    assert!(from_anim[0].picture.pixels() != frames[0].picture.pixels());
    let e = library.anim_bodies_in("anim9").unwrap_err();
    assert!(format!("{e:#}").contains("no animation file"), "{e:#}");
    let e = library.anim_frames_in("anim3", 1, 0, 0, 0).unwrap_err();
    assert!(format!("{e:#}").contains("anim3.mul"), "{e:#}");
}

/// A decoded AnimationSequence.uop entry for `body`: `count` as stored, then one 72-byte
/// record per (old action, frames, new action) (`docs/formats/uo.md`, "UOP animations").
fn sequence_entry(body: u32, count: i32, records: &[(i32, u32, i32)]) -> Vec<u8> {
    let mut bytes = body.to_le_bytes().to_vec();
    bytes.extend([0u8; 48]);
    bytes.extend(count.to_le_bytes());
    for (old, frames, new) in records {
        bytes.extend(old.to_le_bytes());
        bytes.extend(frames.to_le_bytes());
        bytes.extend(new.to_le_bytes());
        bytes.extend([0u8; 60]);
    }
    bytes
}

#[test]
fn animation_sequence_uop_replaces_actions_as_the_client_reads_them() {
    use mul_core::anim::write::{
        UopAnimCompression, synthetic_uop_animations, write_uop_sequences,
    };
    let uop = synthetic_uop_animations(3, UopAnimCompression::Zlib);
    // Body 1: action 1 plays action 0's entry, 3 plays 2's, 5 plays 3's (so 2's: the client
    // applies the replacement twice); a record with frames replaces nothing (action 6).
    // Body 400: a negative count, which cannot be read.
    let records = [(1, 0, 0), (3, 0, 2), (5, 0, 3), (6, 4, 0)];
    let sequences = write_uop_sequences(
        &[
            (1, sequence_entry(1, records.len() as i32, &records)),
            (400, sequence_entry(400, -5, &[])),
        ],
        UopAnimCompression::Zlib,
    )
    .unwrap();
    let mut library = Library::new();
    library.add_file("c/AnimationFrame1.uop", uop.clone());
    library.add_file("c/AnimationSequence.uop", sequences);
    library.scan();
    let frames = |body: u16, action: u16, direction: u8| {
        library.anim_frames(body, action, direction, 0).map(facts)
    };
    for direction in [0u8, 6] {
        for (action, plays) in [(0, 0), (1, 0), (2, 2), (3, 2), (5, 2)] {
            assert_eq!(
                frames(1, action, direction).unwrap(),
                uop_want(&uop, 1, plays, direction),
                "body 1 action {action}"
            );
        }
    }
    let e = frames(1, 6, 0).unwrap_err();
    assert!(format!("{e:#}").contains("no entry"), "{e:#}");
    // Body 400's sequence fails: drawing says why, and body 1 still plays.
    let e = frames(400, 4, 0).unwrap_err();
    assert!(format!("{e:#}").contains("body 400's sequence"), "{e:#}");
    let bodies = library.anim_bodies().unwrap();
    let want: Vec<(u16, Vec<u16>)> = vec![(1, vec![0, 1, 2, 3, 5]), (400, vec![4])];
    assert_eq!(bodies, want);
}
