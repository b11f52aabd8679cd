//! Art: land tiles and items read in place, against pictures built by hand and by the
//! writer, and every bad entry an error for its number alone.

use mul_core::art::write::{ArtPicture, write_art};
use mul_core::art::{ITEM_BASE, LAND_PIXELS};
use mul_core::{ArgumentProblem, Art, ErrorKind, IndexProblem, ItemArt, PictureProblem};

/// An index record.
fn record(offset: u32, length: u32) -> Vec<u8> {
    [offset, length, 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect()
}

fn words(values: &[u16]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Every (x, y, colour) the runs of an item give, in order.
fn item_pixels(item: &ItemArt<'_>) -> Vec<(u32, u32, u16)> {
    let mut out = Vec::new();
    for run in item.runs() {
        let run = run.unwrap();
        for (i, p) in run.pixels.iter().enumerate() {
            out.push((run.x + i as u32, run.y, p.get()));
        }
    }
    out
}

#[test]
fn a_land_tile_fills_the_diamond_row_by_row() {
    // Pixel i of the file holds i + 1, so where each lands shows the row layout.
    let pixels: Vec<u16> = (1..=LAND_PIXELS as u16).collect();
    let mut data = words(&pixels);
    data.extend_from_slice(&[0xEE; 24]); // entries are 2,048 bytes in real files
    let index = record(0, 2048);
    let art = Art::parse(&index, &data).unwrap();
    let land = art.land(0).unwrap().unwrap();
    assert_eq!(land.pixels().len(), 1012);
    let runs: Vec<_> = land.runs().collect();
    assert_eq!(runs.len(), 44);
    // Independently: row y has 2(y+1) pixels from 21 - y in the top half, 2(44 - y) from
    // y - 22 in the bottom half, and the rows follow each other in the file.
    let mut next = 1u16;
    for (y, run) in runs.iter().enumerate() {
        let y = y as u32;
        let (x, len) = if y < 22 {
            (21 - y, 2 * (y + 1))
        } else {
            (y - 22, 2 * (44 - y))
        };
        assert_eq!((run.x, run.y, run.pixels.len() as u32), (x, y, len));
        assert!(run.x + len <= 44);
        for p in run.pixels {
            assert_eq!(p.get(), next);
            next += 1;
        }
    }
    assert_eq!(next as usize, LAND_PIXELS + 1);
}

/// An item of 5 x 3 pixels built byte by byte: row 0 two runs (the second's skip counted
/// from the first's end), row 1 empty, row 2 one run at the right edge.
fn hand_item(rows: [&[u16]; 3]) -> Vec<u8> {
    let mut body = Vec::new();
    let mut offsets = Vec::new();
    for row in rows {
        offsets.push((body.len() / 2) as u16);
        body.extend_from_slice(&words(row));
    }
    let mut item = words(&[0x1234, 0x5678, 5, 3]);
    item.extend_from_slice(&words(&offsets));
    item.extend_from_slice(&body);
    item
}

const ROWS: [&[u16]; 3] = [
    &[1, 1, 0xAAAA, 1, 2, 0xBBBB, 0x7C00, 0, 0],
    &[0, 0],
    &[4, 1, 0x001F, 0, 0],
];

#[test]
fn an_item_is_runs_whose_skips_count_from_the_last_run() {
    let item = hand_item(ROWS);
    let art = ItemArt::parse(&item).unwrap();
    assert_eq!((art.width(), art.height()), (5, 3));
    assert_eq!(
        item_pixels(&art),
        [
            (1, 0, 0xAAAA),
            (3, 0, 0xBBBB),
            (4, 0, 0x7C00),
            (4, 2, 0x001F)
        ]
    );
}

#[test]
fn a_run_reaching_2048_ends_the_picture_as_the_client_reads_it() {
    // Row 0's second run has skip + count = 2,048: the client stops there, rows 1 and 2
    // stay empty although row 2 has a run.
    let rows: [&[u16]; 3] = [&[0, 1, 7, 2047, 1, 9, 0, 0], &[0, 0], &[0, 1, 5, 0, 0]];
    let item = hand_item(rows);
    let art = ItemArt::parse(&item).unwrap();
    assert_eq!(item_pixels(&art), [(0, 0, 7)]);
    // One less and the run must fit the width: here it does not.
    let rows: [&[u16]; 3] = [&[0, 1, 7, 2046, 1, 9, 0, 0], &[0, 0], &[0, 0]];
    let item = hand_item(rows);
    let err = ItemArt::parse(&item)
        .unwrap()
        .runs()
        .nth(1)
        .unwrap()
        .unwrap_err();
    assert_eq!(
        err.kind,
        ErrorKind::Picture(PictureProblem::RunPastWidth {
            row: 0,
            x: 2047,
            count: 1,
            width: 5
        })
    );
}

#[test]
fn bad_items_are_errors_saying_what_and_where() {
    let problem = |bytes: &[u8]| match ItemArt::parse(bytes) {
        Err(e) => Some(e.kind),
        Ok(item) => item.runs().find_map(|r| r.err()).map(|e| e.kind),
    };
    let pic = |p| Some(ErrorKind::Picture(p));
    assert_eq!(
        problem(&[0; 7]),
        pic(PictureProblem::ItemHeader { found: 7 })
    );
    assert_eq!(
        problem(&words(&[0, 0, 0x8000, 1])),
        pic(PictureProblem::NegativeSize {
            width: 0x8000,
            height: 1
        })
    );
    assert_eq!(
        problem(&words(&[0, 0, 4, 3, 0, 0])),
        pic(PictureProblem::RowTable {
            height: 3,
            found: 12
        })
    );
    // Row 1 starts past the end.
    let mut item = words(&[0, 0, 4, 2, 0, 9]);
    item.extend_from_slice(&words(&[0, 0]));
    assert_eq!(
        problem(&item),
        pic(PictureProblem::RowOffset { row: 1, offset: 9 })
    );
    // A row with no end.
    let mut item = words(&[0, 0, 4, 1, 0]);
    item.extend_from_slice(&words(&[0, 1, 3]));
    assert_eq!(
        problem(&item),
        pic(PictureProblem::RunCut { row: 0, at: 6 })
    );
    // Pixels past the end.
    let mut item = words(&[0, 0, 4, 1, 0]);
    item.extend_from_slice(&words(&[0, 3, 3]));
    assert_eq!(
        problem(&item),
        pic(PictureProblem::RunCut { row: 0, at: 0 })
    );
    // A row offset exactly at the end: the row's end is missing.
    let item = words(&[0, 0, 4, 1, 0]);
    assert_eq!(
        problem(&item),
        pic(PictureProblem::RunCut { row: 0, at: 0 })
    );
    // The largest sides are the client's; one more is negative to it.
    let mut big = words(&[0, 0, 0x7FFF, 0x7FFF]);
    big.extend(vec![0u8; 2 * 0x7FFF]);
    big.extend(words(&[0, 0]));
    let item = ItemArt::parse(&big).unwrap();
    assert_eq!((item.width(), item.height()), (0x7FFF, 0x7FFF));
    for (w, h) in [(1, 0x8000), (0x8000, 0)] {
        assert_eq!(
            problem(&words(&[0, 0, w, h])),
            pic(PictureProblem::NegativeSize {
                width: w,
                height: h
            })
        );
    }
    // A run of no pixels moves x and is not given.
    let rows: [&[u16]; 3] = [&[2, 0, 0, 1, 9, 0, 0], &[0, 0], &[0, 0]];
    let bytes = hand_item(rows);
    let art = ItemArt::parse(&bytes).unwrap();
    assert_eq!(item_pixels(&art), [(2, 0, 9)]);
    assert_eq!(art.runs().count(), 1);
    // A good one, and the empty picture.
    assert_eq!(problem(&hand_item(ROWS)), None);
    let bytes = words(&[0, 0, 0, 0]);
    let empty = ItemArt::parse(&bytes).unwrap();
    assert_eq!(
        (empty.width(), empty.height(), empty.runs().count()),
        (0, 0, 0)
    );
}

/// An index of `entries` over `data`.
fn art_of(entries: &[(u32, u32)]) -> Vec<u8> {
    entries.iter().flat_map(|&(o, l)| record(o, l)).collect()
}

#[test]
fn empty_entries_are_the_clients_and_offset_0_is_a_place() {
    let data = vec![0u8; 4096];
    let index = art_of(&[
        (0, 2048),
        (0xFFFF_FFFF, 2048),
        (2048, 0),
        (2048, 0xFFFF_FFFF),
        (2048, 0x8000_0000),
        (2048, 2048),
    ]);
    let art = Art::parse(&index, &data).unwrap();
    assert_eq!((art.len(), art.item_count()), (6, 0));
    let got: Vec<bool> = (0..6).map(|n| art.entry(n).unwrap().is_some()).collect();
    assert_eq!(got, [true, false, false, false, false, true]);
    assert!(art.land(0).unwrap().is_some());
    assert!(art.land(1).unwrap().is_none());
    assert_eq!(
        art.entry(6).unwrap_err().kind,
        ErrorKind::MissingIndexEntry {
            file: "artidx.mul",
            entry: 6,
            records: 6
        }
    );
    let err = art.land(0x4000).unwrap_err();
    assert_eq!(
        err.kind,
        ErrorKind::Argument(ArgumentProblem::LandId { id: 0x4000 })
    );
    assert_eq!(err.category(), gamedata_io::Category::Argument);
    // An item past the index is no picture.
    assert!(art.item(0).unwrap().is_none());
}

#[test]
fn repeats_are_read_and_overlaps_are_errors_for_their_numbers_alone() {
    let (index, data) = {
        let land = vec![0x1234u16; LAND_PIXELS];
        let mut pictures = vec![ArtPicture::Empty; ITEM_BASE + 3];
        pictures[0] = ArtPicture::Land(&land);
        pictures[1] = ArtPicture::Repeat(0);
        pictures[ITEM_BASE] = ArtPicture::Item {
            width: 2,
            height: 1,
            pixels: &[5, 6],
        };
        pictures[ITEM_BASE + 2] = ArtPicture::Repeat(ITEM_BASE);
        write_art(&pictures).unwrap()
    };
    let art = Art::parse(&index, &data).unwrap();
    assert_eq!(art.item_count(), 3);
    assert_eq!(
        (art.len(), art.index().len(), art.is_empty()),
        (ITEM_BASE + 3, ITEM_BASE + 3, false)
    );
    // The first number past the index is no picture, not an error.
    assert!(art.item(3).unwrap().is_none());
    assert_eq!(
        format!("{art:?}"),
        format!(
            "Art {{ entries: {}, data_len: {} }}",
            ITEM_BASE + 3,
            data.len()
        )
    );
    assert_eq!(
        format!("{:?}", art.land(0).unwrap().unwrap()),
        "LandArt { .. }"
    );
    assert_eq!(
        format!("{:?}", art.item(0).unwrap().unwrap()),
        "ItemArt { width: 2, height: 1, .. }"
    );
    let none = Art::parse(&[], &[]).unwrap();
    assert!(none.is_empty() && none.index().is_empty());
    assert_eq!(
        art.land(1).unwrap().unwrap().pixels(),
        art.land(0).unwrap().unwrap().pixels()
    );
    let two = art.item(2).unwrap().unwrap();
    assert_eq!(item_pixels(&two), [(0, 0, 5), (1, 0, 6)]);

    // Entry 2 overlaps entry 0's bytes without repeating them: an error for 2 alone.
    let mut index = index;
    index[24..36].copy_from_slice(&record(8, 2048));
    let art = Art::parse(&index, &data).unwrap();
    assert!(art.land(0).unwrap().is_some());
    let err = art.land(2).unwrap_err();
    assert!(matches!(
        err.kind,
        ErrorKind::IndexEntry {
            entry: 2,
            problem: IndexProblem::Overlap { other: 0 },
            ..
        }
    ));
    // Past the end of art.mul.
    index[24..36].copy_from_slice(&record(data.len() as u32 - 10, 2048));
    let art = Art::parse(&index, &data).unwrap();
    assert!(matches!(
        art.land(2).unwrap_err().kind,
        ErrorKind::IndexEntry {
            problem: IndexProblem::PastEnd,
            ..
        }
    ));
    assert!(art.item(2).unwrap().is_some());
}

#[test]
fn errors_name_the_picture_and_its_slot() {
    let mut data = words(&[0, 0, 4, 1, 0]);
    data.extend_from_slice(&words(&[0, 3, 3]));
    let mut index = art_of(&vec![(0xFFFF_FFFF, 0); ITEM_BASE + 1]);
    let at = ITEM_BASE * 12;
    index[at..at + 12].copy_from_slice(&record(0, data.len() as u32));
    let art = Art::parse(&index, &data).unwrap();
    let err = art
        .item(0)
        .unwrap()
        .unwrap()
        .runs()
        .last()
        .unwrap()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        concat!(
            "in entry item 0x0000 (slot 16384) of art.mul: row 0's run at byte 0 after the ",
            "row table runs past the entry's end"
        )
    );
    let short = art_of(&[(0, 100)]);
    let data = [0u8; 100];
    let art = Art::parse(&short, &data).unwrap();
    assert_eq!(
        art.land(0).unwrap_err().to_string(),
        concat!(
            "in entry land 0x0000 (slot 0) of art.mul: the land tile is 100 bytes, expected ",
            "at least 2024 (1012 pixels)"
        )
    );
}

#[test]
fn written_items_read_back_pixel_for_pixel() {
    // Pixels 0 are transparent: the runs give every other pixel where it was, whatever
    // the gaps (a gap past 2,047 pixels and a run past 2,047 are split by the writer).
    let (w, h) = (4500u16, 4u16);
    let mut pixels = vec![0u16; usize::from(w) * usize::from(h)];
    for (i, p) in pixels.iter_mut().enumerate() {
        let (x, y) = (i % usize::from(w), i / usize::from(w));
        *p = match y {
            0 => (x % 7 != 0) as u16 * (x as u16 | 1),
            1 => u16::from(x > 4400) * 0x7FFF,
            2 => u16::from(x < 2100) * 3,
            // A run after a gap: its skip and count together stay below 2,048.
            _ => u16::from((10..2055).contains(&x)) * 5,
        };
    }
    let mut pictures = vec![ArtPicture::Empty; ITEM_BASE];
    pictures.push(ArtPicture::Item {
        width: w,
        height: h,
        pixels: &pixels,
    });
    // A run reaching 2,048 would end the picture: the writer keeps every run below it.
    let result = write_art(&pictures);
    let (index, data) = result.unwrap();
    let art = Art::parse(&index, &data).unwrap();
    let item = art.item(0).unwrap().unwrap();
    let mut got = vec![0u16; pixels.len()];
    for (x, y, c) in item_pixels(&item) {
        got[y as usize * usize::from(w) + x as usize] = c;
    }
    assert_eq!(got, pixels);
}

/// Each (x, y) of an item drawn (colour not 0), from its runs.
fn drawn_at(item: &ItemArt<'_>) -> std::collections::HashSet<(u32, u32)> {
    item_pixels(item)
        .into_iter()
        .filter(|&(_, _, c)| c != 0)
        .map(|(x, y, _)| (x, y))
        .collect()
}

/// `synthetic_art` as its documentation gives it, checked from the pictures read back:
/// land tiles 0 to 63 and no more, 15-bit colours that change over the diamond; items 0 to
/// 255, item n 1 + 7n mod 64 x 1 + 13n mod 96 pixels, each an ellipse (the middle drawn,
/// the corners transparent when the item is 3 pixels or more a side) whose pixels follow
/// the documented rule from an odd colour of the item's own, of no colour past 15 bits;
/// item 200 the same bytes as item 10, item 255 empty; the same seed the same bytes,
/// another seed other colours.
#[test]
fn the_synthetic_art_set_is_what_its_documentation_says() {
    use mul_core::art::write::{
        SYNTHETIC_ITEMS, SYNTHETIC_LANDS, synthetic_art, synthetic_art_sized,
    };
    let (index, data) = synthetic_art(5);
    assert_eq!(synthetic_art(5), (index.clone(), data.clone()));
    assert_ne!(synthetic_art(6).1, data);
    let art = Art::parse(&index, &data).unwrap();
    assert_eq!(art.len(), ITEM_BASE + SYNTHETIC_ITEMS);
    for id in 0..ITEM_BASE as u16 {
        let land = art.land(id).unwrap();
        assert_eq!(
            land.is_some(),
            usize::from(id) < SYNTHETIC_LANDS,
            "land {id}"
        );
        if let Some(land) = land {
            let colours: Vec<u16> = land.pixels().iter().map(|p| p.get()).collect();
            assert_eq!(colours.len(), LAND_PIXELS);
            assert!(colours.iter().all(|&c| c < 0x8000), "land {id}");
            assert!(colours.windows(2).any(|w| w[0] != w[1]), "land {id}");
            // A gradient: each pixel the last or one more (in 15 bits).
            assert!(
                colours
                    .windows(2)
                    .all(|w| w[1].wrapping_sub(w[0]) & 0x7FFF <= 1),
                "land {id}"
            );
        }
    }
    let mut sizes = std::collections::HashSet::new();
    let mut colours = std::collections::HashSet::new();
    for id in 0..SYNTHETIC_ITEMS as u16 {
        let item = art.item(id).unwrap();
        if id == 255 {
            assert!(item.is_none());
            continue;
        }
        let item = item.unwrap();
        let (w, h) = (item.width(), item.height());
        // Item 200 is item 10's repeat, of item 10's size.
        let n = if id == 200 { 10 } else { id };
        let n = u32::from(n);
        assert_eq!((w, h), (1 + 7 * n % 64, 1 + 13 * n % 96), "item {id}");
        sizes.insert((w, h));
        // Each drawn pixel is ((c ^ (x + y)) & 0x7FFF), or 1 for 0, for one odd c: c read
        // back from the middle pixel (two candidates where that pixel is 1).
        let pixels = item_pixels(&item);
        let (_, _, middle) = *pixels
            .iter()
            .find(|&&(x, y, _)| (x, y) == (w / 2, h / 2))
            .unwrap();
        let s = (w / 2 + h / 2) as u16;
        let rule = |c: u16, x: u32, y: u32| ((c ^ (x + y) as u16) & 0x7FFF).max(1);
        let candidates: &[u16] = if middle == 1 {
            &[s, 1 ^ s]
        } else {
            &[middle ^ s]
        };
        let c = candidates
            .iter()
            .copied()
            .find(|&c| c & 1 == 1 && pixels.iter().all(|&(x, y, p)| p == 0 || p == rule(c, x, y)));
        let Some(c) = c else {
            panic!("item {id}: no odd colour gives its pixels");
        };
        colours.insert(c);
        let drawn = drawn_at(&item);
        assert!(drawn.contains(&(w / 2, h / 2)), "item {id}: its middle");
        // The ellipse through the sides' middles: a pixel is drawn when its centre
        // (x + 1/2, y + 1/2) is inside, ((x + 1/2 - w/2) / (w/2))^2 + (same for y)^2 <= 1,
        // here times (w h)^2 to stay in integers.
        for y in 0..i64::from(h) {
            for x in 0..i64::from(w) {
                let (w, h) = (i64::from(w), i64::from(h));
                let (dx, dy) = ((2 * x + 1 - w) * h, (2 * y + 1 - h) * w);
                let inside = dx * dx + dy * dy <= w * w * h * h;
                assert_eq!(
                    drawn.contains(&(x as u32, y as u32)),
                    inside,
                    "item {id} ({x}, {y})"
                );
            }
        }
        if w >= 3 && h >= 3 {
            for corner in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)] {
                assert!(!drawn.contains(&corner), "item {id}: corner {corner:?}");
            }
        }
        assert!(item_pixels(&item).iter().all(|&(_, _, c)| c < 0x8000));
    }
    assert!(sizes.len() > 128, "{} sizes", sizes.len());
    // The items' own colours: random, nearly all apart (item 200 shares item 10's).
    assert!(colours.len() > 200, "{} colours", colours.len());
    // Every width from 1 to 64 and every height from 1 to 96.
    let widths: std::collections::HashSet<u32> = sizes.iter().map(|s| s.0).collect();
    let heights: std::collections::HashSet<u32> = sizes.iter().map(|s| s.1).collect();
    assert_eq!((widths.len(), heights.len()), (64, 96));
    let entry = |n: usize| art.entry(n as u32).unwrap().unwrap();
    assert_eq!(entry(ITEM_BASE + 200), entry(ITEM_BASE + 10));
    assert_eq!(art.index()[ITEM_BASE + 200], art.index()[ITEM_BASE + 10]);
    // Sized: the lands asked (at most 0x4000), the items asked, the repeat and the empty
    // item only in a set of 256 items or more.
    let (index, data) = synthetic_art_sized(5, 3, 300);
    let art = Art::parse(&index, &data).unwrap();
    assert_eq!(art.len(), ITEM_BASE + 300);
    assert!(art.land(2).unwrap().is_some() && art.land(3).unwrap().is_none());
    assert_eq!(art.index()[ITEM_BASE + 200], art.index()[ITEM_BASE + 10]);
    assert!(art.item(255).unwrap().is_none() && art.item(299).unwrap().is_some());
    let (index, data) = synthetic_art_sized(5, 0, 255);
    let art = Art::parse(&index, &data).unwrap();
    assert!(art.land(0).unwrap().is_none());
    assert!(art.item(254).unwrap().is_some());
    assert_ne!(art.index()[ITEM_BASE + 200], art.index()[ITEM_BASE + 10]);
    let (index, _) = synthetic_art_sized(5, 0x5000, 1);
    assert_eq!(index.len(), 12 * (ITEM_BASE + 1));
}

/// The writer refuses, naming the number, each picture the readers could not take back as
/// it was given: a land tile past 0x3FFF or not of 1,012 pixels, an item before 0x4000,
/// past 0x7FFF a side or whose pixels are not its width x height, a row table past the
/// 16-bit offsets' reach, and a repeat of this or a later number.
#[test]
fn the_art_writer_refuses_what_it_cannot_store() {
    use mul_core::WriteProblem;
    let kind = |pictures: &[ArtPicture<'_>]| write_art(pictures).unwrap_err().kind;
    let picture = |number| ErrorKind::Write(WriteProblem::Picture { number });
    let land = vec![1u16; LAND_PIXELS];
    let items_from = |item: ArtPicture<'static>| {
        let mut pictures = vec![ArtPicture::Empty; ITEM_BASE];
        pictures.push(item);
        pictures
    };
    let mut past = vec![ArtPicture::Empty; ITEM_BASE];
    past.push(ArtPicture::Land(&land));
    assert_eq!(kind(&past), picture(ITEM_BASE));
    assert_eq!(kind(&[ArtPicture::Land(&land[1..])]), picture(0));
    let ok = [ArtPicture::Empty, ArtPicture::Land(&land)];
    assert!(write_art(&ok).is_ok());
    let item = ArtPicture::Item {
        width: 1,
        height: 1,
        pixels: &[5],
    };
    assert_eq!(kind(&[ArtPicture::Empty, item]), picture(1));
    assert!(write_art(&items_from(item)).is_ok());
    static WIDE: [u16; 0x8000] = [1; 0x8000];
    let too_wide = ArtPicture::Item {
        width: 0x8000,
        height: 1,
        pixels: &WIDE,
    };
    assert_eq!(kind(&items_from(too_wide)), picture(ITEM_BASE));
    let too_tall = ArtPicture::Item {
        width: 1,
        height: 0x8000,
        pixels: &WIDE,
    };
    assert_eq!(kind(&items_from(too_tall)), picture(ITEM_BASE));
    let widest = ArtPicture::Item {
        width: 0x7FFF,
        height: 1,
        pixels: &WIDE[1..],
    };
    assert!(write_art(&items_from(widest)).is_ok());
    // Transparent rows take 2 words each: 0x8000 of them fit the offsets, not the height.
    static CLEAR: [u16; 0x8000] = [0; 0x8000];
    let tall_clear = |height: u16| ArtPicture::Item {
        width: 1,
        height,
        pixels: &CLEAR[..usize::from(height)],
    };
    assert_eq!(kind(&items_from(tall_clear(0x8000))), picture(ITEM_BASE));
    assert!(write_art(&items_from(tall_clear(0x7FFF))).is_ok());
    let short = ArtPicture::Item {
        width: 2,
        height: 2,
        pixels: &[1, 2, 3],
    };
    assert_eq!(kind(&items_from(short)), picture(ITEM_BASE));
    // Every other pixel drawn, 200 x 300: each row 100 runs of 3 words and an end of 2,
    // so row 219 would start past word 65,535.
    let dotted: Vec<u16> = (0..200 * 300).map(|i| (i % 2) as u16).collect();
    let dotted: &'static [u16] = dotted.leak();
    let far = ArtPicture::Item {
        width: 200,
        height: 300,
        pixels: dotted,
    };
    assert_eq!(kind(&items_from(far)), picture(ITEM_BASE));
    let near = ArtPicture::Item {
        width: 200,
        height: 200,
        pixels: &dotted[..200 * 200],
    };
    assert!(write_art(&items_from(near)).is_ok());
    let repeat = |number, earlier| ErrorKind::Write(WriteProblem::Repeat { number, earlier });
    assert_eq!(kind(&[ArtPicture::Repeat(0)]), repeat(0, 0));
    assert_eq!(
        kind(&[ArtPicture::Empty, ArtPicture::Repeat(2), ArtPicture::Empty]),
        repeat(1, 2)
    );
    let (index, _) = write_art(&[ArtPicture::Land(&land), ArtPicture::Repeat(0)]).unwrap();
    assert_eq!(index[0..12], index[12..24]);
}
