//! A decoded AnimationFrame*.uop entry and a decoded AnimationSequence.uop entry: the frame
//! table, every record's frame and runs, each direction as the client splits it, and the
//! sequence's replacements.

use std::collections::HashSet;

use mul_core::anim::{UOP_ANIM_HEADER_LEN, UOP_FRAME_RECORD_LEN, UopSequence};
use mul_core::{BodyType, ErrorKind, UopAnimation};

/// The places a walk reads at most in one direction, so that one input costs a bounded
/// time (a direction may have up to 13,107 places, mostly empty).
const PLACES: u32 = 4096;

/// The input as one decoded UOP animation entry: its records at most the table's room,
/// its frame list at most 65,535; every record's frame read (records at one place read
/// once), its runs inside the frame and costing no more than the entry's bytes together;
/// each direction's places giving the frame of the number they name. Then the input as a
/// sequence entry: every action resolved.
pub fn anim_uop(data: &[u8]) -> u64 {
    let mut acc = sequence(data);
    let Ok(anim) = UopAnimation::parse(data) else {
        return acc;
    };
    acc = acc.wrapping_add(format!("{anim:?}").len() as u64);
    let room = data.len().saturating_sub(UOP_ANIM_HEADER_LEN) / UOP_FRAME_RECORD_LEN;
    assert!(anim.record_count() <= room);
    assert!(anim.list_len() <= 65_535);
    let mut seen = HashSet::new();
    let mut cost = 0usize;
    for record in 0..anim.record_count() {
        match anim
            .record_frame(record)
            .transpose()
            .expect("a record's frame")
        {
            Ok(frame) => {
                assert_eq!(frame.record(), record);
                let start = frame.palette().as_ptr() as usize;
                if !seen.insert(start) {
                    continue;
                }
                for run in frame.frame().runs() {
                    match run {
                        Ok(run) => {
                            let f = frame.frame();
                            assert!(run.y < f.height());
                            assert!(run.x as usize + run.pixels.len() <= f.width() as usize);
                            cost += 4 + run.pixels.len();
                        }
                        Err(e) => {
                            assert!(matches!(e.kind, ErrorKind::Anim(_)), "{e}");
                            break;
                        }
                    }
                }
            }
            Err(e) => {
                assert!(matches!(e.kind, ErrorKind::Anim(_)), "{e}");
                acc = acc.wrapping_add(e.to_string().len() as u64);
            }
        }
    }
    assert!(
        cost <= data.len(),
        "runs cost {cost} of {} bytes",
        data.len()
    );
    for body_type in [BodyType::Monster, BodyType::Equipment] {
        let per = anim.frames_per_direction(body_type);
        for direction in 0..5u8 {
            for (place, frame) in anim
                .direction(direction, per)
                .take(PLACES as usize)
                .enumerate()
            {
                if let Ok(Some(frame)) = frame {
                    let number = u64::from(direction) * u64::from(per) + place as u64 + 1;
                    assert_eq!(u64::from(frame.number()), number);
                    acc = acc.wrapping_add(u64::from(frame.frame().width()));
                }
            }
        }
    }
    acc
}

/// The input as a sequence entry: every action resolved to one a record names or itself.
fn sequence(data: &[u8]) -> u64 {
    let Ok(seq) = UopSequence::parse(data) else {
        return 0;
    };
    let mut acc = u64::from(seq.body());
    for action in 0..80u16 {
        let to = seq.resolve(action);
        if to != action {
            assert!(
                seq.records()
                    .iter()
                    .any(|r| r.new_action.get() == i32::from(to))
            );
        }
        acc = acc.wrapping_add(u64::from(to));
    }
    acc
}
