//! Gumps: rows of colour runs read in place from gumpart.mul, against gumps built by hand
//! and by the writer; every bad gump an error saying what; the synthetic set the same in
//! its MUL and its UOP, and a full-size set round trip. The gump builders the other
//! `gump_*` modules share.

use std::collections::HashSet;

use mul_core::gump::write::{
    GumpPicture, SYNTHETIC_GUMPS, gumps_to_mul, gumps_to_uop, synthetic_gumps, write_gumps,
};
use mul_core::picture::MIN_UOP_SLOTS;
use mul_core::uop::name_hash;
use mul_core::{
    ErrorKind, Gump, Gumps, Limits, PictureProblem, Uop, UopIndex, UopPictures, WriteProblem,
};

pub(crate) fn words32(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A run: colour and count as one little-endian word.
fn run(colour: u16, count: u16) -> u32 {
    u32::from(colour) | (u32::from(count) << 16)
}

/// The pixels a gump's runs give, row by row (0 where no run is: none, for a good gump).
pub(crate) fn pixels(gump: &Gump<'_>) -> Vec<u16> {
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
pub(crate) fn hand_gump() -> Vec<u8> {
    words32(&[2, 3, run(0x7C00, 3), run(0, 1), run(0x001F, 2)])
}

pub(crate) fn gump_name(id: usize) -> u64 {
    name_hash(&format!("build/gumpartlegacymul/{id:08}.tga"))
}

/// A UOP gump entry: i32 width, i32 height, then `bytes`.
pub(crate) fn uop_gump(width: i32, height: i32, bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&width.to_le_bytes());
    out.extend_from_slice(&height.to_le_bytes());
    out.extend_from_slice(bytes);
    out
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
