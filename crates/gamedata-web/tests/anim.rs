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
