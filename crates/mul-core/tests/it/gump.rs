//! Gumps: rows of colour runs read in place, from gumpart.mul or gumpartLegacyMUL.uop,
//! against gumps built by hand and by the writer; every bad entry an error for its id alone.

use std::fs;

use mul_core::picture_uop::MIN_UOP_SLOTS;
use mul_core::uop::name_hash;
use mul_core::write_gump::{
    GumpPicture, SYNTHETIC_GUMPS, gumps_to_mul, gumps_to_uop, synthetic_gumps, write_gumps,
};
use mul_core::{
    ArtFormat, ErrorKind, FileOptions, Gump, Gumps, Limits, OwnedGumps, PictureFiles,
    PictureProblem, UopEntryProblem, UopFile, UopIndex, UopPictures,
};

use crate::uop::{Foreign, foreign_container};

fn words32(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A run: colour and count as one little-endian word.
fn run(colour: u16, count: u16) -> u32 {
    u32::from(colour) | (u32::from(count) << 16)
}

/// The pixels a gump's runs give, row by row (0 where no run is: none, for a good gump).
fn pixels(gump: &Gump<'_>) -> Vec<u16> {
    let (w, h) = (gump.width() as usize, gump.height() as usize);
    let mut out = vec![0xDEAD; w * h];
    for r in gump.runs() {
        let r = r.unwrap();
        for x in r.x..r.x + r.count {
            out[r.y as usize * w + x as usize] = r.colour;
        }
    }
    out
}

/// A 3 x 2 gump written by hand: row 0 one run of 3, row 1 a transparent pixel then 2.
fn hand_gump() -> Vec<u8> {
    words32(&[2, 3, run(0x7C00, 3), run(0, 1), run(0x001F, 2)])
}

#[test]
fn a_gump_is_rows_of_colour_runs_counted_in_words() {
    let bytes = hand_gump();
    let gump = Gump::parse(&bytes, (3 << 16) | 2).unwrap();
    assert_eq!((gump.width(), gump.height()), (3, 2));
    assert_eq!(format!("{gump:?}"), "Gump { width: 3, height: 2, .. }");
    assert_eq!(pixels(&gump), [0x7C00, 0x7C00, 0x7C00, 0, 0x001F, 0x001F]);
    let runs: Vec<_> = gump.runs().map(Result::unwrap).collect();
    assert_eq!(runs.len(), 3);
    assert_eq!((runs[2].x, runs[2].y, runs[2].count), (1, 1, 2));
    // Rows start where their offsets say (a word left unused after the table), the last
    // row running up to the entry's end.
    let moved = words32(&[
        3,
        4,
        0xFFFF_FFFF,
        run(0x1234, 3),
        run(0x0001, 1),
        run(0x0002, 2),
    ]);
    let gump = Gump::parse(&moved, (3 << 16) | 2).unwrap();
    assert_eq!(
        pixels(&gump),
        [0x1234, 0x1234, 0x1234, 0x0001, 0x0002, 0x0002]
    );
}

#[test]
fn bad_gumps_are_errors_saying_what() {
    let bytes = hand_gump();
    let problem = |bytes: &[u8], extra: u32| -> PictureProblem {
        let error = match Gump::parse(bytes, extra) {
            Err(e) => e,
            Ok(g) => g.runs().find_map(Result::err).expect("an error"),
        };
        match error.kind() {
            ErrorKind::Picture(p) => p,
            other => panic!("{other:?}"),
        }
    };
    // Sizes: zero, a negative height, a negative word (width 0x8000).
    for extra in [0, 3 << 16, 2, (3 << 16) | 0x8000, 0x8000_0002] {
        assert!(
            matches!(problem(&bytes, extra), PictureProblem::GumpSize { .. }),
            "{extra:#x}"
        );
    }
    // The table longer than the entry.
    assert!(matches!(
        problem(&bytes[..4], (3 << 16) | 2),
        PictureProblem::GumpRows {
            height: 2,
            found: 4
        }
    ));
    // Row 1 before row 0; row 1 past the end; row 0 past the end.
    let back = words32(&[3, 2, run(1, 3), run(1, 3)]);
    assert!(matches!(
        problem(&back, (3 << 16) | 2),
        PictureProblem::GumpRowOffset {
            row: 1,
            offset: 2,
            from: 3,
            ..
        }
    ));
    let past = words32(&[2, 9, run(1, 3)]);
    assert!(matches!(
        problem(&past, (3 << 16) | 2),
        PictureProblem::GumpRowOffset {
            row: 1,
            offset: 9,
            words: 3,
            ..
        }
    ));
    let first_past = words32(&[0x8000_0000, 2, run(1, 3)]);
    assert!(matches!(
        problem(&first_past, (3 << 16) | 2),
        PictureProblem::GumpRowOffset { row: 0, .. }
    ));
    // Runs short of the width, and past it.
    let short = words32(&[2, 3, run(1, 2), run(1, 3)]);
    assert!(matches!(
        problem(&short, (3 << 16) | 2),
        PictureProblem::GumpRowWidth {
            row: 0,
            found: 2,
            width: 3
        }
    ));
    let long = words32(&[2, 3, run(1, 3), run(1, 4)]);
    assert!(matches!(
        problem(&long, (3 << 16) | 2),
        PictureProblem::GumpRowWidth {
            row: 1,
            found: 4,
            width: 3
        }
    ));
    let message = Gump::parse(&bytes, 0).unwrap_err().to_string();
    assert!(
        message.contains("0x00000000") && message.contains("1 to 32767"),
        "{message}"
    );
}

#[test]
fn written_gumps_read_back_pixel_for_pixel_and_errors_name_their_gump() {
    let big: Vec<u16> = (0..70_000u32)
        .map(|i| if i < 66_000 { 5 } else { 6 })
        .collect();
    let small = [1u16, 0, 2, 2];
    let gumps = [
        GumpPicture::Picture {
            width: 2,
            height: 2,
            pixels: &small,
        },
        GumpPicture::Empty,
        // A row of 70,000 pixels in one colour needs two runs.
        GumpPicture::Picture {
            width: 7000,
            height: 10,
            pixels: &big,
        },
        GumpPicture::Repeat(0),
    ];
    let (index, data) = write_gumps(&gumps).unwrap();
    let set = Gumps::parse(&index, &data).unwrap();
    assert_eq!(set.len(), 4);
    assert!(!set.is_empty() && Gumps::parse(&[], &[]).unwrap().is_empty());
    let debug = format!("{set:?}");
    assert!(
        debug.contains("entries: 4") && debug.contains("format: Mul"),
        "{debug}"
    );
    assert_eq!(pixels(&set.gump(0).unwrap().unwrap()), small);
    assert!(set.gump(1).unwrap().is_none());
    assert_eq!(pixels(&set.gump(2).unwrap().unwrap()), big);
    assert_eq!(set.entry(3).unwrap(), set.entry(0).unwrap());
    assert!(set.gump(4).unwrap().is_none());
    // The writer refuses what it cannot store.
    assert!(write_gumps(&[GumpPicture::Repeat(0)]).is_err());
    assert!(
        write_gumps(&[GumpPicture::Picture {
            width: 0,
            height: 1,
            pixels: &[]
        }])
        .is_err()
    );
    assert!(
        write_gumps(&[GumpPicture::Picture {
            width: 2,
            height: 1,
            pixels: &[1]
        }])
        .is_err()
    );
    // A broken row in gump 2 alone: its error names it.
    let mut broken = data.clone();
    let (at, _) = {
        let r = &index[24..36];
        (u32::from_le_bytes(r[0..4].try_into().unwrap()) as usize, ())
    };
    broken[at + 4..at + 8].copy_from_slice(&1u32.to_le_bytes());
    let set = Gumps::parse(&index, &broken).unwrap();
    let error = set
        .gump(2)
        .unwrap()
        .unwrap()
        .runs()
        .find_map(Result::err)
        .unwrap();
    let text = error.to_string();
    assert!(
        text.contains("gumpart.mul") && text.contains("gump 0x0002"),
        "{text}"
    );
    assert!(set.gump(0).unwrap().is_some());
}

#[test]
fn the_synthetic_set_and_its_uop_hold_the_same_gumps() {
    let (index, data) = synthetic_gumps(5);
    let mul = Gumps::parse(&index, &data).unwrap();
    assert_eq!(mul.len(), SYNTHETIC_GUMPS);
    assert_eq!(mul.entry(150).unwrap(), mul.entry(20).unwrap());
    assert!(mul.gump(199).unwrap().is_none());
    // Gump 7's colours carry bit 15; the others do not.
    assert!(
        pixels(&mul.gump(7).unwrap().unwrap())
            .iter()
            .any(|&c| c & 0x8000 != 0)
    );
    assert!(
        pixels(&mul.gump(8).unwrap().unwrap())
            .iter()
            .all(|&c| c & 0x8000 == 0)
    );
    let uop = gumps_to_uop(&mul).unwrap().files;
    // Independently of the slot index: the entry under the client's name holds i32 width,
    // i32 height, then the MUL bytes.
    let container = UopFile::parse(&uop, &Limits::default()).unwrap();
    let entry = container
        .find(name_hash("build/gumpartlegacymul/00000005.tga"))
        .unwrap();
    let stored = container.stored(entry).unwrap();
    let gump5 = mul.gump(5).unwrap().unwrap();
    assert_eq!(stored[0..4], (gump5.width() as i32).to_le_bytes());
    assert_eq!(stored[4..8], (gump5.height() as i32).to_le_bytes());
    assert_eq!(&stored[8..], mul.entry(5).unwrap().unwrap().0);
    let slots = UopIndex::build(&uop, &Limits::default(), UopPictures::Gumps).unwrap();
    let back = Gumps::from_uop(&slots, &uop);
    assert_eq!(back.len(), MIN_UOP_SLOTS);
    for id in 0..SYNTHETIC_GUMPS {
        assert_eq!(back.entry(id).unwrap(), mul.entry(id).unwrap(), "{id}");
    }
    let (index2, data2) = gumps_to_mul(&back).unwrap().files;
    assert!(data2 == data);
    assert!(index2[..index.len()] == index[..]);
}

#[test]
fn a_full_size_gump_set_round_trips_exactly() {
    let pixels = [3u16, 4, 5, 6, 0, 0];
    let mut gumps = vec![GumpPicture::Empty; MIN_UOP_SLOTS + 1];
    gumps[0] = GumpPicture::Picture {
        width: 3,
        height: 2,
        pixels: &pixels,
    };
    gumps[MIN_UOP_SLOTS] = GumpPicture::Repeat(0);
    let (index, data) = write_gumps(&gumps).unwrap();
    let uop = gumps_to_uop(&Gumps::parse(&index, &data).unwrap())
        .unwrap()
        .files;
    let slots = UopIndex::build(&uop, &Limits::default(), UopPictures::Gumps).unwrap();
    let (index2, data2) = gumps_to_mul(&Gumps::from_uop(&slots, &uop)).unwrap().files;
    assert!(index2 == index && data2 == data);
    assert!(
        gumps_to_uop(&Gumps::parse(&index2, &data2).unwrap())
            .unwrap()
            .files
            == uop
    );
}

fn gump_name(id: usize) -> u64 {
    name_hash(&format!("build/gumpartlegacymul/{id:08}.tga"))
}

/// A UOP gump entry: i32 width, i32 height, then `bytes`.
fn uop_gump(width: i32, height: i32, bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&width.to_le_bytes());
    out.extend_from_slice(&height.to_le_bytes());
    out.extend_from_slice(bytes);
    out
}

#[test]
fn uop_gumps_that_cannot_be_taken_are_errors_for_their_ids_alone() {
    let files = vec![
        (gump_name(0), uop_gump(3, 2, &hand_gump()), false),
        // Stored as zlib: the client takes the size from the stored bytes and fails.
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
    assert_eq!(slots.problems(), 3);
    let gumps = Gumps::from_uop(&slots, &uop);
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
    let mul = OwnedGumps::open(dir.path(), None).unwrap();
    assert_eq!(mul.format(), ArtFormat::Mul);
    // SAFETY: private files, unchanged while mapped.
    #[allow(unsafe_code)]
    let from_uop = unsafe { OwnedGumps::map(dir.path(), Some(ArtFormat::Uop)) }.unwrap();
    assert_eq!(from_uop.format(), ArtFormat::Uop);
    let (a, b) = (mul.view().unwrap(), from_uop.view().unwrap());
    for id in 0..SYNTHETIC_GUMPS {
        assert_eq!(a.entry(id).unwrap(), b.entry(id).unwrap(), "{id}");
    }
    assert_eq!(b.data_file(), "gumpartLegacyMUL.uop");
    let debug = format!("{mul:?}");
    assert!(
        debug.starts_with("OwnedGumps { paths: Some(Mul(["),
        "{debug}"
    );
    let handed = OwnedGumps::from_data(
        None,
        PictureFiles::Mul([index.into(), data.into()]),
        &FileOptions::default(),
    )
    .unwrap();
    assert_eq!(handed.view().unwrap().len(), SYNTHETIC_GUMPS);
    fs::remove_file(dir.path().join("gumpartLegacyMUL.uop")).unwrap();
    let err = OwnedGumps::open(dir.path(), Some(ArtFormat::Uop)).unwrap_err();
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
