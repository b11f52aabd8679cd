//! Gumps in gumpartLegacyMUL.uop: empty slots and compression 1, a compressed gump sharing
//! its name, entries that cannot be taken (each an error for its id alone), the owner
//! reading either form, and `gumps_to_uop` over shared bytes and to a budget.

use std::fs;

use mul_core::gump::write::{SYNTHETIC_GUMPS, gumps_to_uop, synthetic_gumps};
use mul_core::{
    ArtFormat, ErrorKind, FileOptions, GumpFiles, Gumps, Limits, PictureData, UopEntryProblem,
    UopIndex, UopPictures, WriteProblem,
};

use crate::gump::{gump_name, hand_gump, pixels, uop_gump, words32};
use crate::uop::{Foreign, foreign_container};

/// `files` (name, bytes, compressed) in one block of 4 entries, in order, no padding.
fn plain_container(files: &[(u64, Vec<u8>, bool)]) -> Vec<u8> {
    let foreign = Foreign {
        padding: 0,
        capacity: 4,
        compress_every: 0,
        gaps: 0,
        reverse: false,
    };
    foreign_container(files, &foreign)
}

/// An empty slot has no problem whatever the entry at table position 0 is; a gump stored
/// with compression 1 in exactly 8 bytes (the size words' room, nothing after them) is
/// taken as an entry without a picture, not refused as a short size.
#[test]
fn an_empty_slot_has_no_problem_and_8_bytes_of_compression_1_are_taken() {
    let files = vec![
        // Position 0: shorter than its size, a problem of its own.
        (gump_name(0), vec![3, 0, 0, 0], false),
        // Id 1 has no entry. Id 2: an empty input deflated, 8 bytes with compression 1.
        (gump_name(2), Vec::new(), true),
    ];
    let uop = plain_container(&files);
    let slots = UopIndex::build(&uop, &Limits::default(), UopPictures::Gumps).unwrap();
    assert!(slots.problem(&uop, 0).is_some());
    assert!(slots.problem(&uop, 1).is_none(), "an empty slot");
    assert!(slots.problem(&uop, 2).is_none(), "8 bytes are taken");
    assert_eq!(slots.problems(), 1);
    assert!(slots.is_compressed(2));
    // Nothing follows the 8 bytes: an entry without a picture.
    let gumps = Gumps::from_uop(&slots, &uop);
    assert!(matches!(gumps.decoded(2, &Limits::default()), Ok(None)));
}

/// A compressed gump whose name a later entry shares is no compressed gump: the slot is
/// the shared name's error, never inflated.
#[test]
fn a_compressed_gump_sharing_its_name_is_the_shared_name_s_error() {
    let files = vec![
        (gump_name(0), uop_gump(3, 2, &hand_gump()), false),
        (gump_name(1), uop_gump(3, 2, &hand_gump()), true),
        (gump_name(1), uop_gump(3, 2, &hand_gump()), false),
    ];
    let uop = plain_container(&files);
    let slots = UopIndex::build(&uop, &Limits::default(), UopPictures::Gumps).unwrap();
    assert!(!slots.is_compressed(1) && !slots.is_compressed(0));
    let gumps = Gumps::from_uop(&slots, &uop);
    assert!(gumps.gump(0).is_ok());
    for result in [
        gumps.decoded(1, &Limits::default()).map(|_| ()),
        gumps.gump(1).map(|_| ()),
    ] {
        match result.unwrap_err().kind() {
            ErrorKind::UopEntry {
                problem: UopEntryProblem::SharedName,
                ..
            } => {}
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn uop_gumps_that_cannot_be_taken_are_errors_for_their_ids_alone() {
    let files = vec![
        (gump_name(0), uop_gump(3, 2, &hand_gump()), false),
        // Stored as one zlib stream with compression 1: the client takes the size from
        // the stored bytes and inflates after them, which fails.
        (gump_name(1), uop_gump(3, 2, &hand_gump()), true),
        // Shorter than its size; a size past 0xFFFF; a placeholder of no picture.
        (gump_name(2), vec![3, 0, 0, 0], false),
        (gump_name(3), uop_gump(0x1_0000, 2, &hand_gump()), false),
        (gump_name(4), uop_gump(0, 0, &[]), false),
    ];
    let foreign = Foreign {
        padding: 8,
        capacity: 3,
        compress_every: 0,
        gaps: 2,
        reverse: true,
    };
    let uop = foreign_container(&files, &foreign);
    let slots = UopIndex::build(&uop, &Limits::default(), UopPictures::Gumps).unwrap();
    assert_eq!(slots.problems(), 2);
    assert!(slots.is_compressed(1) && !slots.is_compressed(0));
    let gumps = Gumps::from_uop(&slots, &uop);
    match gumps.decoded(1, &Limits::default()).unwrap_err().kind() {
        ErrorKind::UopEntry {
            problem: UopEntryProblem::Inflate(_),
            ..
        } => {}
        other => panic!("{other:?}"),
    }
    let gump = gumps.gump(0).unwrap().unwrap();
    assert_eq!(pixels(&gump), [0x7C00, 0x7C00, 0x7C00, 0, 0x001F, 0x001F]);
    let problem = |id: usize| match gumps.gump(id as u32).unwrap_err().kind() {
        ErrorKind::UopEntry { problem, .. } => problem,
        other => panic!("{other:?}"),
    };
    assert_eq!(problem(1), UopEntryProblem::PictureCompression(1));
    assert_eq!(
        problem(2),
        UopEntryProblem::GumpSize {
            width: None,
            height: None
        }
    );
    assert_eq!(
        problem(3),
        UopEntryProblem::GumpSize {
            width: Some(0x1_0000),
            height: Some(2)
        }
    );
    assert!(gumps.gump(4).unwrap().is_none());
    assert!(gumps.gump(5).unwrap().is_none());
}

#[test]
fn the_owner_reads_either_form() {
    let dir = tempfile::tempdir().unwrap();
    let (index, data) = synthetic_gumps(9);
    let uop = gumps_to_uop(&Gumps::parse(&index, &data).unwrap())
        .unwrap()
        .files;
    fs::write(dir.path().join("GUMPIDX.MUL"), &index).unwrap();
    fs::write(dir.path().join("gumpart.mul"), &data).unwrap();
    fs::write(dir.path().join("gumpartLegacyMUL.uop"), &uop).unwrap();
    let mul = GumpFiles::open(dir.path(), None).unwrap();
    assert_eq!(mul.format(), ArtFormat::Mul);
    // SAFETY: private files, unchanged while mapped.
    #[allow(unsafe_code)]
    let from_uop = unsafe { GumpFiles::map(dir.path(), Some(ArtFormat::Uop)) }.unwrap();
    assert_eq!(from_uop.format(), ArtFormat::Uop);
    let (a, b) = (mul.view().unwrap(), from_uop.view().unwrap());
    for id in 0..SYNTHETIC_GUMPS as u32 {
        assert_eq!(a.entry(id).unwrap(), b.entry(id).unwrap(), "{id}");
    }
    assert_eq!(b.data_file(), "gumpartLegacyMUL.uop");
    let debug = format!("{mul:?}");
    assert!(
        debug.starts_with("GumpFiles { paths: Some(Mul(["),
        "{debug}"
    );
    let handed = GumpFiles::from_data(
        None,
        PictureData::Mul([index.into(), data.into()]),
        &FileOptions::default(),
    )
    .unwrap();
    assert_eq!(handed.view().unwrap().len(), SYNTHETIC_GUMPS);
    fs::remove_file(dir.path().join("gumpartLegacyMUL.uop")).unwrap();
    let err = GumpFiles::open(dir.path(), Some(ArtFormat::Uop)).unwrap_err();
    assert!(err.to_string().contains("gumpartLegacyMUL.uop"), "{err}");
}

/// Attack (branch `attack`): gumps 0 and 1 over the same 16 bytes of gumpart.mul with
/// different sizes (2 x 2 and 4 x 1, both valid). `pictures_to_uop` prefixes each used
/// entry with its own size but then keys exact repeats by the MUL bytes alone, so gump 1's
/// UOP entry points at gump 0's stored bytes, size included: read back, gump 1 is 2 x 2.
#[test]
fn gumps_to_uop_keeps_the_size_of_each_id_over_shared_bytes() {
    let run = 0x7C00u32 | (2 << 16);
    let data = words32(&[2, 3, run, run]);
    let mut index = Vec::new();
    for extra in [(2u32 << 16) | 2, (4 << 16) | 1] {
        for word in [0u32, 16, extra] {
            index.extend(word.to_le_bytes());
        }
    }
    let gumps = Gumps::parse(&index, &data).unwrap();
    let sizes = |g: &Gumps<'_>| {
        (0..2u32)
            .map(|id| {
                let gump = g.gump(id).unwrap().unwrap();
                (gump.width(), gump.height())
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(sizes(&gumps), [(2, 2), (4, 1)]);
    let uop = gumps_to_uop(&gumps).unwrap().files;
    let uop_index = UopIndex::build(&uop, &Limits::default(), UopPictures::Gumps).unwrap();
    let back = Gumps::from_uop(&uop_index, &uop);
    assert_eq!(
        sizes(&back),
        [(2, 2), (4, 1)],
        "gump 1's size after the UOP"
    );
}

/// Attack (attack33): 70 gump ids over one 1 MiB entry, each with its own size word (and
/// id 70 an exact repeat of id 0). The UOP form stores a size before the data, so each
/// size was a copy: 4,000 sizes made a 4 GB container out of 1 MiB. The copies are now
/// held to `SIZE_COPIES_BUDGET` (64 MiB): the first size is free, 63 copies of 1 MiB + 8
/// fit (64 would pass it by 512 bytes), and the 6 largest sizes are left out, named. Id
/// 71, over 1 MiB of its own after them, is not a copy: it is stored though the copies
/// left less than its size of the budget.
#[test]
fn gumps_to_uop_holds_copies_under_other_sizes_to_a_budget() {
    let data: Vec<u8> = (0..2u32 << 20).map(|i| (i % 251) as u8).collect();
    let size = |id: u32| ((id % 70 + 1) << 16) | 1;
    let mut records: Vec<u32> = (0..71u32).flat_map(|id| [0, 1 << 20, size(id)]).collect();
    records.extend([1 << 20, 1 << 20, size(71)]);
    let index = words32(&records);
    let gumps = Gumps::parse(&index, &data).unwrap();
    let conversion = gumps_to_uop(&gumps).unwrap();
    let left: Vec<usize> = conversion.left_out.kept().iter().map(|(n, _)| *n).collect();
    assert_eq!(left, [64, 65, 66, 67, 68, 69]);
    for (number, error) in conversion.left_out.kept() {
        let expected = WriteProblem::SizeCopies {
            number: *number,
            budget: 64 << 20,
        };
        assert_eq!(error.kind(), ErrorKind::Write(expected));
    }
    // 64 copies of the shared bytes and id 71's, each after its 8 bytes of size, and the
    // tables.
    let uop = conversion.files;
    assert!(uop.len() >= 64 * ((1 << 20) + 8), "{}", uop.len());
    assert!(
        uop.len() < 64 * ((1 << 20) + 8) + (4 << 20),
        "{}",
        uop.len()
    );
    let uop_index = UopIndex::build(&uop, &Limits::default(), UopPictures::Gumps).unwrap();
    let back = Gumps::from_uop(&uop_index, &uop);
    for id in 0..72u32 {
        let entry = back.entry(id).unwrap();
        if (64..70).contains(&id) {
            assert_eq!(entry, None, "gump {id}");
        } else {
            let at = if id == 71 { 1 << 20 } else { 0 };
            let expected = (&data[at..at + (1 << 20)], size(id));
            assert_eq!(entry, Some(expected), "gump {id}");
        }
    }
}
