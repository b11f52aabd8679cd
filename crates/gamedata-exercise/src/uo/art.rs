//! art.mul and artidx.mul: the index's entries, each entry's bytes as a land tile and as an
//! item, their runs and their pictures.

// Runs are at most 0x7FFF pixels, numbers below the index's length: the casts cut nothing.
#![allow(clippy::cast_possible_truncation)]

use gamedata_render::uo::art::{ArtHue, item_picture, land_picture};
use mul_core::art::{Art, ITEM_BASE, LAND_PIXELS, LandArt, Run};
use mul_core::{ErrorKind, IndexProblem, ItemArt, Limits};

use crate::io::split_parts;

/// The entries a walk reads at most, so that one input costs a bounded time.
const ENTRIES: usize = 4096;

/// Checks a run against its picture's bounds and adds it up.
fn run_sum(run: &Run<'_>, width: u32, height: u32) -> u64 {
    let end = run.x + run.pixels.len() as u32;
    assert!(
        end <= width && run.y < height,
        "{run:?} outside {width} x {height}"
    );
    assert!(!run.pixels.is_empty());
    run.pixels
        .iter()
        .fold(u64::from(end), |a, p| a.wrapping_add(u64::from(p.get())))
}

/// An index (behind a 4-byte length) and art.mul: every entry's bytes (the first 4,096
/// entries, then those of the items 0 to 255 if the index reaches them), read as a land tile
/// and as an item, their runs checked against their sizes, and drawn within a 1 MiB cap;
/// an entry repeating another's range exactly reads the same bytes, one overlapping it
/// otherwise is an error.
pub fn art(data: &[u8]) -> u64 {
    let [index, rest] = split_parts::<2, 4>(data);
    let Ok(art) = Art::parse(index, rest) else {
        return 0;
    };
    let mut acc = format!("{art:?}").len() as u64 + art.item_count() as u64;
    assert_eq!(art.is_empty(), art.index().is_empty());
    assert_eq!(art.item_count(), art.len().saturating_sub(ITEM_BASE));
    let limits = Limits::new().with_max_decoded_bytes(1 << 20);
    let numbers = (0..art.len().min(ENTRIES)).chain((ITEM_BASE..art.len()).take(256));
    let mut seen: Vec<(usize, usize, usize)> = Vec::new();
    for number in numbers {
        let bytes = match art.entry(u32::try_from(number).expect("a small number")) {
            Ok(Some(bytes)) => bytes,
            Ok(None) => continue,
            Err(e) => {
                assert!(matches!(e.kind, ErrorKind::IndexEntry { .. }), "{e}");
                acc = acc.wrapping_add(e.to_string().len() as u64);
                continue;
            }
        };
        // Entries that lie inside art.mul and were given out share no byte but exactly.
        let start = bytes.as_ptr() as usize - rest.as_ptr() as usize;
        let range = (start, start + bytes.len(), number);
        for &(s, e, other) in &seen {
            let same = (s, e) == (range.0, range.1);
            assert!(
                same || e <= range.0 || range.1 <= s,
                "{number} overlaps {other}"
            );
        }
        if seen.len() < 64 {
            seen.push(range);
        }
        if let Ok(land) = LandArt::parse(bytes) {
            assert_eq!(land.pixels().len(), LAND_PIXELS);
            let runs: Vec<Run<'_>> = land.runs().collect();
            assert_eq!(
                runs.iter().map(|r| r.pixels.len()).sum::<usize>(),
                LAND_PIXELS
            );
            for run in &runs {
                acc = acc.wrapping_add(run_sum(run, 44, 44));
            }
            let picture = land_picture(&land, ArtHue::None).expect("a land tile draws");
            acc = acc.wrapping_add(u64::from(picture.pixels()[4 * 22 + 3]));
        } else {
            assert!(bytes.len() < 2024);
        }
        if let Ok(item) = ItemArt::parse(bytes) {
            let (w, h) = (item.width(), item.height());
            assert!(w < 0x8000 && h < 0x8000);
            if u64::from(w) * u64::from(h) <= 1 << 18 {
                for run in item.runs() {
                    match run {
                        Ok(run) => acc = acc.wrapping_add(run_sum(&run, w, h)),
                        Err(e) => {
                            assert!(matches!(e.kind, ErrorKind::Picture(_)), "{e}");
                            break;
                        }
                    }
                }
                if let Ok(picture) = item_picture(&item, ArtHue::None, &limits) {
                    assert_eq!((picture.width(), picture.height()), (w, h));
                    acc = acc.wrapping_add(picture.pixels().len() as u64);
                }
            }
        }
        // Through the art's own accessors, naming the entry in errors.
        if number < ITEM_BASE {
            match art.land(number as u16) {
                Ok(land) => acc = acc.wrapping_add(u64::from(land.is_some())),
                Err(e) => {
                    assert!(e.entry().is_some() || matches!(e.kind, ErrorKind::IndexEntry { .. }))
                }
            }
        } else if let Err(e) = art.item_at(u32::try_from(number).expect("a small number")) {
            let named = e.entry().is_some();
            let index = matches!(
                e.kind,
                ErrorKind::IndexEntry {
                    problem: IndexProblem::PastEnd | IndexProblem::Overlap { .. },
                    ..
                }
            );
            assert!(named || index, "{e}");
        }
    }
    acc
}
