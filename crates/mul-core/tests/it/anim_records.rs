//! Animations: each body's block of records in anim*.idx as the client finds it, directions
//! 5 to 7 mirrored from 3 to 1, empty or checked records (a bad group an error for its
//! record alone), and the body types at the client's bounds.

use mul_core::anim::{
    FLAG_BY_LOW_GROUP, FLAG_BY_PEOPLE_GROUP, FLAG_LOW_GROUP_EXTENDED, anim_entry_is_empty,
};
use mul_core::raw::IndexRecord;
use mul_core::{
    AnimFileId, AnimGroup, AnimProblem, Animations, ArgumentProblem, BodyType, ErrorKind, Facing,
    IndexProblem,
};
use zerocopy::FromBytes;

use crate::anim::{frame, frame_a, group, index, runs};
use crate::index_record;

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
