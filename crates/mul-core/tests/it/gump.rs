//! Gumps: rows of colour runs read in place, from gumpart.mul or gumpartLegacyMUL.uop,
//! against gumps built by hand and by the writer; every bad entry an error for its id alone.

use std::collections::HashSet;
use std::fs;

use mul_core::gump::bwt::{self, HEADER_KEY};
use mul_core::gump::write::{
    GumpCompression, GumpPicture, SYNTHETIC_GUMPS, gumps_to_compressed_uop, gumps_to_mul,
    gumps_to_uop, synthetic_gumps, write_gumps,
};
use mul_core::picture::MIN_UOP_SLOTS;
use mul_core::uop::name_hash;
use mul_core::{
    ArtFormat, BwtProblem, ErrorKind, FileOptions, Gump, GumpFiles, Gumps, Limits, PictureData,
    PictureProblem, Uop, UopEntryProblem, UopIndex, UopPictures, WriteProblem,
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
    // A run of 0 pixels covers nothing and is not given.
    let zero = words32(&[1, run(0x0005, 0), run(0x0001, 3)]);
    let gump = Gump::parse(&zero, (3 << 16) | 1).unwrap();
    let runs: Vec<_> = gump
        .runs()
        .map(|r| r.map(|r| (r.x, r.y, r.count, r.colour)))
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(runs, [(0, 0, 3, 0x0001)]);
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
    // Row 0 starting at the entry's end, and row 0 empty (its end its start): offsets in
    // the entry, but rows without a run, so rows of the wrong width.
    let at_end = words32(&[2, 2]);
    assert!(matches!(
        problem(&at_end, (3 << 16) | 2),
        PictureProblem::GumpRowWidth {
            row: 0,
            found: 0,
            width: 3
        }
    ));
    let empty_row = words32(&[2, 2, run(1, 3)]);
    assert!(matches!(
        problem(&empty_row, (3 << 16) | 2),
        PictureProblem::GumpRowWidth {
            row: 0,
            found: 0,
            width: 3
        }
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
    // The writer refuses what it cannot store, naming the id: a side of 0 or past 0x7FFF,
    // pixels that are not width x height, a repeat of this or a later id.
    let kind = |gumps: &[GumpPicture<'_>]| write_gumps(gumps).unwrap_err().kind;
    let picture = |number| ErrorKind::Write(WriteProblem::Picture { number });
    let sized = |width, height, pixels| GumpPicture::Picture {
        width,
        height,
        pixels,
    };
    let wide = vec![1u16; 0x8000];
    for (width, height, pixels) in [
        (0, 1, &wide[..0]),
        (1, 0, &wide[..0]),
        (0x8000, 1, &wide[..]),
        (1, 0x8000, &wide[..]),
        (2, 1, &wide[..1]),
        (1, 2, &wide[..3]),
    ] {
        assert_eq!(
            kind(&[GumpPicture::Empty, sized(width, height, pixels)]),
            picture(1),
            "{width} x {height}, {} pixels",
            pixels.len()
        );
    }
    assert!(write_gumps(&[sized(0x7FFF, 1, &wide[1..]), sized(1, 0x7FFF, &wide[1..])]).is_ok());
    let repeat = |number, earlier| ErrorKind::Write(WriteProblem::Repeat { number, earlier });
    assert_eq!(kind(&[GumpPicture::Repeat(0)]), repeat(0, 0));
    assert_eq!(
        kind(&[
            GumpPicture::Empty,
            GumpPicture::Repeat(2),
            GumpPicture::Empty
        ]),
        repeat(1, 2)
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
    assert_eq!(synthetic_gumps(5), (index.clone(), data.clone()));
    assert_ne!(synthetic_gumps(6).1, data);
    let mul = Gumps::parse(&index, &data).unwrap();
    assert_eq!(mul.len(), SYNTHETIC_GUMPS);
    assert_eq!(mul.entry(150).unwrap(), mul.entry(20).unwrap());
    // As the documentation gives them: gump n 1 + 11n mod 120 x 1 + 17n mod 90 pixels,
    // each width and height among them, many sizes; a frame of one colour with bits 0x0421
    // around bands of the documented rule, the top left corner transparent.
    let (mut sizes, mut widths, mut heights) = (HashSet::new(), HashSet::new(), HashSet::new());
    let mut bands = HashSet::new();
    for id in (0..SYNTHETIC_GUMPS - 1).filter(|&id| id != 150) {
        let gump = mul.gump(id as u32).unwrap().unwrap();
        let (w, h) = (gump.width() as usize, gump.height() as usize);
        assert_eq!((w, h), (1 + 11 * id % 120, 1 + 17 * id % 90), "gump {id}");
        sizes.insert((w, h));
        widths.insert(w);
        heights.insert(h);
        let p = pixels(&gump);
        assert!(!p.contains(&0xDEAD), "gump {id}: every pixel covered");
        assert_eq!(p[0], 0, "gump {id}");
        if w == 2 && h >= 2 {
            // The bottom right pixel transparent only in gumps wider than 2.
            assert_ne!(p[w * h - 1], 0, "gump {id}");
        }
        if w >= 4 && h >= 4 {
            // The three top left pixels and the bottom right one transparent; the frame's
            // colour on all four sides between them.
            assert_eq!((p[1], p[w], p[w * h - 1]), (0, 0, 0), "gump {id}");
            let frame = p[2];
            assert_eq!(frame & 0x0421, 0x0421, "gump {id}");
            let edges = (2..w - 1)
                .flat_map(|x| [x, (h - 1) * w + x - 1])
                .chain((2..h - 1).flat_map(|y| [y * w, y * w + w - 1]));
            for at in edges {
                assert_eq!(p[at], frame, "gump {id} at {at}");
            }
            // Inside, bands of 3 rows: rows 1 and 2 one colour, drawn, row 3 another.
            assert!(p[w + 1] & 0x7FFF != 0, "gump {id}: inside");
            assert_eq!(p[w + 1], p[2 * w + 1], "gump {id}");
            if h >= 5 {
                assert_ne!(p[2 * w + 1], p[3 * w + 1], "gump {id}");
            }
            // Every inside pixel by the rule, b read back from row 1 (0 or 1 where that
            // pixel is 1); bit 15 (gump 7's) aside.
            let rule = |b: u16, y: usize| ((b ^ (y / 3) as u16) & 0x7FFF).max(1);
            let first = p[w + 1] & 0x7FFF;
            let candidates: &[u16] = if first == 1 { &[0, 1] } else { &[first] };
            let b = candidates.iter().copied().find(|&b| {
                (1..h - 1).all(|y| (1..w - 1).all(|x| p[y * w + x] & 0x7FFF == rule(b, y)))
            });
            let Some(b) = b else {
                panic!("gump {id}: no band colour gives its inside");
            };
            bands.insert(b);
        }
    }
    // The gumps' own band colours: random, nearly all apart.
    assert!(bands.len() > 100, "{} band colours", bands.len());
    assert!(sizes.len() > 150, "{} sizes", sizes.len());
    // Every width from 1 to 120 and every height from 1 to 90.
    assert_eq!(widths, (1..=120).collect());
    assert_eq!(heights, (1..=90).collect());
    assert!(mul.gump(199).unwrap().is_none());
    // Gump 7's colours carry bit 15; the others do not.
    assert!(
        pixels(&mul.gump(7).unwrap().unwrap())
            .iter()
            .any(|&c| c & 0x8000 != 0)
    );
    for id in (0..SYNTHETIC_GUMPS - 1).filter(|&id| id != 7) {
        assert!(
            pixels(&mul.gump(id as u32).unwrap().unwrap())
                .iter()
                .all(|&c| c & 0x8000 == 0),
            "gump {id}"
        );
    }
    let uop = gumps_to_uop(&mul).unwrap().files;
    // Independently of the slot index: the entry under the client's name holds i32 width,
    // i32 height, then the MUL bytes.
    let container = Uop::parse(&uop, &Limits::default()).unwrap();
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
    for id in 0..SYNTHETIC_GUMPS as u32 {
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

/// Inputs for the BWT stage's round trip: edge cases and seeded random bytes of several
/// shapes (every value, few values, long runs, a skewed mix).
fn bwt_inputs() -> Vec<Vec<u8>> {
    use gamedata_testkit::{ChaCha8Rng, RngCore, SeedableRng};
    let mut rng = ChaCha8Rng::seed_from_u64(0xB177);
    let mut inputs = vec![
        vec![],
        vec![0],
        vec![255],
        vec![7; 1000],
        (0..=255).collect(),
        (0..=255).rev().collect(),
        (0..4096).map(|i| (i % 256) as u8).collect(),
        (0..3000).map(|i| (i / 300) as u8).collect(),
    ];
    for round in 0..60 {
        let len = (rng.next_u32() % 5000) as usize + round;
        let alphabet = [1, 2, 3, 17, 255, 256][round % 6];
        let input = (0..len)
            .map(|_| {
                let r = rng.next_u32();
                // A skewed mix: low values far more often.
                let v = if round % 2 == 0 {
                    r % alphabet
                } else {
                    (r % alphabet) * (r >> 24) / 255
                };
                v as u8
            })
            .collect();
        inputs.push(input);
    }
    // A real gump's decoded bytes: the synthetic set's largest.
    let (index, data) = synthetic_gumps(3);
    let gumps = Gumps::parse(&index, &data).unwrap();
    let (bytes, extra) = gumps.entry(119).unwrap().unwrap();
    let mut plain = Vec::new();
    plain.extend_from_slice(&(extra >> 16).to_le_bytes());
    plain.extend_from_slice(&(extra & 0xFFFF).to_le_bytes());
    plain.extend_from_slice(bytes);
    inputs.push(plain);
    inputs
}

#[test]
fn the_bwt_stage_undoes_its_writer_on_many_inputs() {
    for input in bwt_inputs() {
        let stored = bwt::compress(&input).unwrap();
        // The header, the counts, one byte a symbol, then the final byte.
        assert_eq!(stored.len(), 4 + 1024 + input.len() + 1);
        let back = bwt::decompress(stored, &Limits::default()).unwrap();
        assert!(back == input, "{} bytes do not come back", input.len());
    }
}

/// The writer's output for [1, 2, 1, 1] is the input worked by hand in `bwt`'s unit test:
/// counts, then 1's segment (place 0, re-insert places 1 and 0), 2's (place 1), coded
/// move-to-front: 3 and 1 at places 3 and 2, a 0 after each at place 1, the segments'
/// bytes at places 0, 1, 1, 1.
#[test]
fn the_bwt_writer_gives_the_hand_worked_bytes() {
    let stored = bwt::compress(&[1, 2, 1, 1]).unwrap();
    assert_eq!(stored[..4], (4u32 ^ HEADER_KEY).to_le_bytes());
    let mut codes = vec![0u8; 1024];
    codes[4..12].copy_from_slice(&[3, 1, 0, 0, 2, 1, 0, 0]);
    assert_eq!(stored[4..1028], codes[..]);
    assert_eq!(stored[1028..], [0, 1, 1, 1, 0]);
}

#[test]
fn compressed_uop_gumps_decode_to_the_mul_gumps() {
    let (index, data) = synthetic_gumps(5);
    let mul = Gumps::parse(&index, &data).unwrap();
    for how in [GumpCompression::ZlibBwt, GumpCompression::Zlib] {
        let converted = gumps_to_compressed_uop(&mul, how).unwrap();
        assert!(converted.left_out.is_empty());
        let uop = converted.files;
        let file = Uop::parse(&uop, &Limits::default()).unwrap();
        assert!(
            file.entries()
                .iter()
                .all(|e| e.raw().compression.get() == how.value())
        );
        let slots = UopIndex::build(&uop, &Limits::default(), UopPictures::Gumps).unwrap();
        assert_eq!(slots.problems(), 0);
        let gumps = Gumps::from_uop(&slots, &uop);
        assert_eq!(gumps.len(), MIN_UOP_SLOTS);
        for id in 0..SYNTHETIC_GUMPS {
            let want = mul.gump(id as u32).unwrap();
            let got = gumps.decoded(id as u32, &Limits::default()).unwrap();
            let (Some(want), Some(got)) = (want, got) else {
                assert_eq!(id, 199, "only gump 199 is empty");
                assert!(!gumps.is_compressed(id as u32));
                continue;
            };
            assert!(gumps.is_compressed(id as u32) && got.is_decoded());
            let gump = got.gump().unwrap();
            assert_eq!((gump.width(), gump.height()), (want.width(), want.height()));
            assert_eq!(pixels(&gump), pixels(&want), "gump {id}");
            // In place, a compressed gump is an error naming it.
            let error = gumps.gump(id as u32).unwrap_err();
            assert!(matches!(
                error.kind(),
                ErrorKind::UopEntry {
                    problem: UopEntryProblem::PictureCompression(v),
                    ..
                } if v == how.value()
            ));
            assert!(
                error.to_string().contains(&format!("gump {id:#06X}")),
                "{error}"
            );
        }
        // Conversions leave compressed gumps out, each with its error.
        let back = gumps_to_mul(&gumps).unwrap();
        assert_eq!(back.left_out.total(), SYNTHETIC_GUMPS as u64 - 1);
        // A decoder's limit below a gump's decoded bytes is an error for it alone.
        let declared = u64::from(gumps.declared_len(119).unwrap());
        assert!(u64::from(gumps.declared_len(0).unwrap()) < declared);
        let tight = Limits::default().with_max_decoded_bytes(declared - 1);
        let big = gumps.decoded(119, &tight).unwrap_err();
        assert!(matches!(big.kind(), ErrorKind::Limit(_)), "{big}");
        assert!(gumps.decoded(0, &tight).unwrap().is_some());
    }
    // A set past the client's least count of slots keeps its count (the table's entries
    // + 0x4000), compressed as stored as is.
    let mut big_index = index.clone();
    let empty: Vec<u8> = [0xFFu8; 8].into_iter().chain([0; 4]).collect();
    for _ in SYNTHETIC_GUMPS..MIN_UOP_SLOTS + 10 {
        big_index.extend_from_slice(&empty);
    }
    let big = Gumps::parse(&big_index, &data).unwrap();
    assert_eq!(big.len(), MIN_UOP_SLOTS + 10);
    let uop = gumps_to_compressed_uop(&big, GumpCompression::Zlib)
        .unwrap()
        .files;
    let slots = UopIndex::build(&uop, &Limits::default(), UopPictures::Gumps).unwrap();
    assert_eq!(Gumps::from_uop(&slots, &uop).len(), MIN_UOP_SLOTS + 10);
    // Gumps stored as is are given in place.
    let plain = gumps_to_uop(&mul).unwrap().files;
    let slots = UopIndex::build(&plain, &Limits::default(), UopPictures::Gumps).unwrap();
    let gumps = Gumps::from_uop(&slots, &plain);
    let got = gumps.decoded(20, &Limits::default()).unwrap().unwrap();
    assert!(!got.is_decoded() && !gumps.is_compressed(20));
    assert_eq!(
        pixels(&got.gump().unwrap()),
        pixels(&mul.gump(20).unwrap().unwrap())
    );
}

/// A container of compressed gump entries given as (name hash, stored bytes, decompressed
/// length, compression), through the writer's own table.
fn compressed_container(entries: &[(usize, Vec<u8>, u32, u16)]) -> Vec<u8> {
    let files: Vec<(u64, Vec<u8>, bool)> = entries
        .iter()
        .map(|(id, bytes, _, _)| (gump_name(*id), bytes.clone(), false))
        .collect();
    let foreign = Foreign {
        padding: 0,
        capacity: 4,
        compress_every: 0,
        gaps: 0,
        reverse: true,
    };
    let mut uop = foreign_container(&files, &foreign);
    // Set each entry's decompressed length and compression in the table.
    let file = Uop::parse(&uop, &Limits::default()).unwrap();
    let places: Vec<(usize, u64)> = file
        .entries()
        .iter()
        .map(|e| (e.index(), e.hash()))
        .collect();
    drop(file);
    for (index, hash) in places {
        let (_, _, declared, compression) = entries
            .iter()
            .find(|(id, ..)| gump_name(*id) == hash)
            .unwrap();
        // One block of capacity 4 after the 28-byte header: entry k at 28 + 12 + 34 k.
        let at = 28 + 12 * (index / 4 + 1) + 34 * index;
        uop[at + 16..at + 20].copy_from_slice(&declared.to_le_bytes());
        uop[at + 32..at + 34].copy_from_slice(&compression.to_le_bytes());
    }
    uop
}

fn zlib(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(bytes).unwrap();
    z.finish().unwrap()
}

#[test]
fn crafted_compressed_gumps_are_errors_for_their_ids_alone() {
    // A hand-made 3 x 2 gump, through the writer's BWT.
    let mut plain = Vec::new();
    plain.extend_from_slice(&3u32.to_le_bytes());
    plain.extend_from_slice(&2u32.to_le_bytes());
    plain.extend_from_slice(&hand_gump());
    let good = bwt::compress(&plain).unwrap();
    // Counts adding up past the limit: symbol 0 counts 2^30.
    // Move-to-front of the list: 0, 0, 0 at place 0, 0x40 at place 0x40, then 0 again at
    // place 1, and the other zeros at place 0.
    let mut huge = vec![0u8; 1028 + 1];
    huge[4..9].copy_from_slice(&[0, 0, 0, 0x40, 1]);
    // A decoded size past 0xFFFF: through zlib alone (compression 1).
    let mut wide = Vec::new();
    wide.extend_from_slice(&0x1_0000u32.to_le_bytes());
    wide.extend_from_slice(&2u32.to_le_bytes());
    let mut wide_stored = uop_gump(3, 2, &[]);
    wide_stored.extend_from_slice(&zlib(&wide));
    // Compression 1 of no size (both sides 0): no gump, as the client shows none.
    let mut unsized_stored = uop_gump(0, 0, &[]);
    unsized_stored.extend_from_slice(&zlib(&plain));
    let entries = vec![
        (0, zlib(&good), good.len() as u32, 3),
        (1, zlib(&good[..1000]), 1000, 3),
        (2, zlib(&huge), huge.len() as u32, 3),
        (3, wide_stored, wide.len() as u32, 1),
        (4, unsized_stored, plain.len() as u32, 1),
        // Declares one byte more than its stream decodes to.
        (5, zlib(&good), good.len() as u32 + 1, 3),
        (6, zlib(&good), good.len() as u32, 2),
    ];
    let uop = compressed_container(&entries);
    let slots = UopIndex::build(&uop, &Limits::default(), UopPictures::Gumps).unwrap();
    assert_eq!(slots.problems(), 1);
    let gumps = Gumps::from_uop(&slots, &uop);
    let limits = Limits::default().with_max_decoded_bytes(1 << 20);
    let got = gumps.decoded(0, &limits).unwrap().unwrap();
    assert_eq!(
        pixels(&got.gump().unwrap()),
        [0x7C00, 0x7C00, 0x7C00, 0, 0x001F, 0x001F]
    );
    let kind = |id: u32| gumps.decoded(id, &limits).unwrap_err().kind();
    assert_eq!(
        kind(1),
        ErrorKind::Bwt(BwtProblem::TooShort { found: 1000 })
    );
    assert!(matches!(kind(2), ErrorKind::Limit(l) if l.found == 1 << 30));
    assert!(matches!(
        kind(3),
        ErrorKind::UopEntry {
            problem: UopEntryProblem::GumpSize {
                width: Some(0x1_0000),
                height: Some(2)
            },
            ..
        }
    ));
    assert!(gumps.decoded(4, &limits).unwrap().is_none());
    assert!(matches!(
        kind(5),
        ErrorKind::UopEntry {
            problem: UopEntryProblem::Inflate(_),
            ..
        }
    ));
    assert_eq!(
        gumps.gump(6).unwrap_err().kind(),
        ErrorKind::UopEntry {
            index: 0,
            hash: gump_name(6),
            problem: UopEntryProblem::PictureCompression(2)
        }
    );
    let message = gumps.decoded(1, &limits).unwrap_err().to_string();
    assert!(message.contains("gump 0x0001"), "{message}");
}
