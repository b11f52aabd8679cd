//! texmaps.mul and texidx.mul: the index's entries, each entry's bytes as a texture map,
//! its rows and its picture.

// Numbers are below 4,096 and sides at most 128: the casts cut nothing.
#![allow(clippy::cast_possible_truncation)]

use gamedata_render::uo::client::client_rgb;
use gamedata_render::uo::texmap::texmap_picture;
use mul_core::texmap::{LARGE_LEN, LARGE_SIDE, SMALL_LEN, SMALL_SIDE};
use mul_core::{ErrorKind, PictureProblem, Texmap, Texmaps};

use crate::io::split_parts;

/// The entries a walk reads at most, so that one input costs a bounded time.
const ENTRIES: usize = 4096;
/// The pictures a walk draws at most (the others are read, not drawn).
const PICTURES: usize = 8;

/// An index (behind a 4-byte length) and texmaps.mul: every entry's bytes (the first 4,096
/// entries) read as a texture map when 0x2000 or 0x8000 bytes long and refused otherwise,
/// in place, through [`Texmaps::texmap`] the same as through [`Texmap::parse`] (an error
/// naming the entry), its rows inside it, and the first few drawn every pixel opaque
/// through the client's table; an entry repeating another's range exactly reads the same
/// bytes, one overlapping it otherwise is an error; ids past the index have none.
pub fn texmap(data: &[u8]) -> u64 {
    let [index, rest] = split_parts::<2, 4>(data);
    let texmaps = match Texmaps::parse(index, rest) {
        Ok(t) => t,
        Err(e) => {
            assert!(matches!(e.kind, ErrorKind::RecordMultiple { .. }), "{e}");
            return 0;
        }
    };
    let mut acc = format!("{texmaps:?}").len() as u64 + texmaps.len() as u64;
    assert_eq!(texmaps.is_empty(), texmaps.index().is_empty());
    assert_eq!(texmaps.len(), texmaps.index().len());
    for past in [texmaps.len() as u64, u64::from(u32::MAX)] {
        if let Ok(id) = u32::try_from(past) {
            assert!(matches!(texmaps.texmap(id), Ok(None)), "{id}");
        }
    }
    let mut seen: Vec<(usize, usize, usize)> = Vec::new();
    let mut drawn = 0;
    for number in 0..texmaps.len().min(ENTRIES) {
        let id = number as u32;
        let bytes = match texmaps.entry(id) {
            Ok(Some(bytes)) => bytes,
            Ok(None) => {
                assert!(matches!(texmaps.texmap(id), Ok(None)), "{number}");
                continue;
            }
            Err(e) => {
                assert!(matches!(e.kind, ErrorKind::IndexEntry { .. }), "{e}");
                let again = texmaps.texmap(id).expect_err("the same entry");
                assert_eq!(again.kind, e.kind);
                acc = acc.wrapping_add(e.to_string().len() as u64);
                continue;
            }
        };
        // Entries that lie inside texmaps.mul and were given out share no byte but exactly.
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
        let parsed = Texmap::parse(bytes);
        let side = match bytes.len() {
            SMALL_LEN => SMALL_SIDE,
            LARGE_LEN => LARGE_SIDE,
            found => {
                let e = parsed.expect_err("a length of neither size");
                let kind = ErrorKind::Picture(PictureProblem::TexmapLength { found });
                assert_eq!(e.kind, kind);
                let named = texmaps.texmap(id).expect_err("the same entry");
                assert_eq!(named.kind, kind);
                assert_eq!(named.slot(), Some(number));
                let name = format!("texmap {id:#06X}");
                assert_eq!(named.entry(), Some(name.as_str()));
                continue;
            }
        };
        let texmap = parsed.expect("an entry of 0x2000 or 0x8000 bytes");
        let again = texmaps.texmap(id).expect("read").expect("not empty");
        assert_eq!(again.pixels().as_ptr(), texmap.pixels().as_ptr());
        assert_eq!(texmap.side(), side);
        // In place: the pixels are the entry's bytes.
        let pixels = texmap.pixels();
        assert_eq!(pixels.as_ptr().cast::<u8>(), bytes.as_ptr());
        assert_eq!(pixels.len(), (side * side) as usize);
        for y in 0..side {
            let row = texmap.row(y).expect("a row inside");
            assert_eq!(row.len(), side as usize);
            acc = acc.wrapping_add(u64::from(row[0].get()));
        }
        assert!(texmap.row(side).is_none());
        if drawn < PICTURES {
            drawn += 1;
            let picture = texmap_picture(&texmap).expect("a texture map draws");
            assert_eq!((picture.width(), picture.height()), (side, side));
            for (px, raw) in picture.pixels().chunks_exact(4).zip(pixels) {
                let [r, g, b] = client_rgb(raw.get() & 0x7FFF);
                assert_eq!(px, [r, g, b, 0xFF]);
            }
            acc = acc.wrapping_add(u64::from(picture.pixels()[0]));
        }
    }
    acc
}
