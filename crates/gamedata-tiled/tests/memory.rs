//! The Tiled import's memory, counted by dhat's allocator (`gamedata_testkit::heap`): the
//! shapes of the import's attacks at one and ten times a size cost the same bounded peak
//! (their text, made before the count, aside), and the largest plane the import accepts is
//! a level the writer writes and the reader reads back.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

mod common;

use gamedata_testkit::heap::{self, MIB};
use gamedata_tiled::TiledError;
use gamedata_tiled::from_tmx::{level_from_tmj, level_from_tmx};
use wap_core::{LevelFile, LevelOptions, Limits};

/// The small synthetic level's map, TMX and TMJ: 16 x 16 tiles, a background plane of 8 x
/// 8 first.
fn maps() -> (String, String) {
    let map = common::exported_map(&wap_core::synth::level(3, 16, 16));
    let (mut tmx, mut tmj) = (Vec::new(), Vec::new());
    gamedata_tiled::tmx::write_tmx(&map, &mut tmx).unwrap();
    gamedata_tiled::tmj::write_tmj(&map, &mut tmj).unwrap();
    (
        String::from_utf8(tmx).unwrap(),
        String::from_utf8(tmj).unwrap(),
    )
}

/// `text` with the value of its first property `name` (after byte `from`) set to `value`.
fn set(text: &str, from: usize, name: &str, value: &str) -> String {
    let key = format!("<property name=\"{name}\" type=\"int\" value=\"");
    let at = from + text[from..].find(&key).unwrap() + key.len();
    let end = at + text[at..].find('"').unwrap();
    format!("{}{value}{}", &text[..at], &text[end..])
}

/// A 1 MiB budget: `Limits::max_decoded_bytes`, the elements' and the level's.
fn small() -> Limits {
    Limits::default().with_max_decoded_bytes(MIB)
}

fn too_large(result: Result<wap_core::LevelData, TiledError>) -> &'static str {
    match result {
        Err(TiledError::TooLarge { what, .. }) => what,
        other => panic!("expected TooLarge, got {other:?}"),
    }
}

/// Empty elements inside a layer (kept as its tree, 96 bytes and more each): charged as
/// they are made, refused at the budget, whatever their number.
#[test]
fn kept_elements_are_refused_at_the_byte_budget() {
    let serial = heap::serial();
    let (tmx, _) = maps();
    let at = tmx.find("<layer ").unwrap();
    let at = at + tmx[at..].find('>').unwrap() + 1;
    for n in [20_000, 200_000] {
        let text = format!("{}<x>{}</x>{}", &tmx[..at], "<x/>".repeat(n), &tmx[at..]);
        let (result, peak) = heap::peak(&serial, || level_from_tmx(&text, &small()));
        // The budget and a constant: was 96 bytes an element (19 MB at 200,000).
        assert!(peak < 2 * MIB, "{n} elements: peak {peak}");
        assert!(too_large(result).contains("elements"));
    }
    // Within the default budget, read.
    let text = format!("{}<x>{}</x>{}", &tmx[..at], "<x/>".repeat(1000), &tmx[at..]);
    assert!(level_from_tmx(&text, &Limits::default()).is_ok());
}

/// A TMJ list of zeros (the map's properties): each item charged as it is deserialized,
/// before the list keeps it.
#[test]
fn tmj_list_items_are_charged_as_they_are_read() {
    let serial = heap::serial();
    let (_, tmj) = maps();
    let key = "\"properties\":[";
    let at = tmj.find(key).unwrap() + key.len();
    for n in [100_000, 1_000_000] {
        let text = format!("{}{}{}", &tmj[..at], "0,".repeat(n), &tmj[at..]);
        let (result, peak) = heap::peak(&serial, || level_from_tmj(&text, &small()));
        // Was about 134 bytes an item (268 MB at 1,000,000).
        assert!(peak < 2 * MIB, "{n} zeros: peak {peak}");
        assert!(too_large(result).contains("JSON items"));
    }
    let text = format!("{}{}{}", &tmj[..at], "0,".repeat(1000), &tmj[at..]);
    assert!(level_from_tmj(&text, &Limits::default()).is_ok());
}

/// A plane whose declared size passes the main block the reader decodes is refused before
/// a tile is made, however large it says it is.
#[test]
fn a_declared_plane_is_refused_before_its_tiles_are_made() {
    let serial = heap::serial();
    let (tmx, _) = maps();
    for (side, limits) in [(1024, small()), (8192, Limits::default())] {
        let side = format!("{side}");
        let text = set(
            &set(&tmx, 0, "wwd_tiles_wide", &side),
            0,
            "wwd_tiles_high",
            &side,
        );
        let (result, peak) = heap::peak(&serial, || level_from_tmx(&text, &limits));
        assert!(too_large(result).contains("tiles"));
        // Was the declared tiles, 4 bytes each (256 MiB at 8192 x 8192).
        assert!(peak < MIB, "{side} x {side}: peak {peak}");
    }
}

/// `wwd_tiles` of many more values than the plane's: read into the plane's slots, the
/// reading stopped at the value past them.
#[test]
fn wwd_tiles_are_read_into_the_plane_s_slots() {
    let serial = heap::serial();
    let (tmx, _) = maps();
    let wide = "<property name=\"wwd_tiles_wide\"";
    for n in [100_000, 1_000_000] {
        let values = vec!["0"; n].join(",");
        let text = tmx.replacen(
            wide,
            &format!("<property name=\"wwd_tiles\" value=\"{values}\"/>{wide}"),
            1,
        );
        let (result, peak) = heap::peak(&serial, || level_from_tmx(&text, &Limits::default()));
        let err = result.unwrap_err().to_string();
        assert!(err.contains("wwd_tiles"), "{err}");
        // Was 4 bytes a value (and twice that while the list grew).
        assert!(peak < MIB, "{n} values: peak {peak}");
    }
    // The plane's 256 values are read.
    let values = vec!["0"; 256].join(",");
    let text = tmx.replacen(
        wide,
        &format!("<property name=\"wwd_tiles\" value=\"{values}\"/>{wide}"),
        1,
    );
    let level = level_from_tmx(&text, &Limits::default()).unwrap();
    assert_eq!(level.planes[0].tiles.len(), 256);
}

/// Objects added in Tiled (points of a class), many: each counted in the main block as it
/// is made, refused once the block passes the limit, not when the level is made.
#[test]
fn objects_are_counted_in_the_main_block_as_they_are_made() {
    let serial = heap::serial();
    let (tmx, _) = maps();
    let group = tmx.find("<objectgroup").unwrap();
    let at = group + tmx[group..].find('>').unwrap() + 1;
    for n in [20_000, 200_000] {
        let objects = "<object type=\"A\"><point/></object>".repeat(n);
        let text = format!("{}{objects}{}", &tmx[..at], &tmx[at..]);
        let (result, peak) = heap::peak(&serial, || level_from_tmx(&text, &small()));
        // About 500 bytes an object held before (100 MB at 200,000).
        assert!(peak < 4 * MIB, "{n} objects: peak {peak}");
        assert!(too_large(result).contains("main block"));
    }
}

/// Points added in Tiled at one and ten times a size (the attack's 300,000 and 3,000,000
/// under the default limit, scaled to an 8 MiB one): the level held (the objects' records,
/// strings and list slots, about 470 bytes a point against the 285 the main block stores)
/// stays within the limit and its sixteenth, read or refused.
#[test]
fn objects_held_in_memory_are_charged_to_the_limit() {
    let serial = heap::serial();
    let (tmx, _) = maps();
    let group = tmx.find("<objectgroup").unwrap();
    let at = group + tmx[group..].find('>').unwrap() + 1;
    let limit = 8 * MIB;
    let limits = Limits::default().with_max_decoded_bytes(limit);
    for n in [9_000, 90_000] {
        let objects = "<object type=\"A\"><point/></object>".repeat(n);
        let text = format!("{}{objects}{}", &tmx[..at], &tmx[at..]);
        let (result, peak) = heap::peak(&serial, || level_from_tmx(&text, &limits));
        // Was 1.7 times the limit at 90,000 (14 MB: the list of records doubled, each
        // record 380 bytes and its place 56, counted at its 285 stored bytes).
        assert!(peak < limit + limit / 8, "{n} points: peak {peak}");
        if n == 9_000 {
            let level = result.unwrap();
            let count: usize = level.planes.iter().map(|p| p.objects.len()).sum();
            assert!(count > n, "{count}");
        } else {
            assert!(too_large(result).contains("main block"));
        }
    }
}

/// The largest plane the import accepts under a limit is a level the writer writes and the
/// reader reads back with that limit, compressed or not; a tile more is refused. The writer
/// holds no copy of the level it writes.
#[test]
fn the_largest_plane_accepted_is_written_and_read_back() {
    let serial = heap::serial();
    let (tmx, _) = maps();
    let limits = Limits::default().with_max_decoded_bytes(4 * MIB);
    // The last plane, Front, made `wide` tiles wide and 1 high.
    let front = tmx.rfind("<layer ").unwrap();
    let with = |wide: u64| {
        let text = set(&tmx, front, "wwd_tiles_wide", &format!("{wide}"));
        level_from_tmx(&set(&text, front, "wwd_tiles_high", "1"), &limits)
    };
    // What the planes leave it, then less what the objects and tile properties take.
    let Err(TiledError::TooLarge { limit: cap, .. }) = with(1 << 30) else {
        panic!("expected TooLarge");
    };
    let wide = match with(cap) {
        Err(TiledError::TooLarge { found, limit, .. }) => cap - (found - limit).div_ceil(4),
        other => panic!("expected the main block over the limit, got {other:?}"),
    };
    assert!(matches!(with(wide + 1), Err(TiledError::TooLarge { .. })));
    let level = with(wide).unwrap();
    assert_eq!(level.planes[2].tiles.len() as u64, wide);
    let block = level.main_block().unwrap().len() as u64;
    assert!(block <= 4 * MIB && block > 4 * MIB - 4, "{block}");
    for compress in [false, true] {
        let mut out = std::io::Cursor::new(Vec::new());
        level
            .layout(compress, &limits)
            .unwrap()
            .write_to(&mut out)
            .unwrap();
        let file = LevelFile::from_data(out.into_inner(), &LevelOptions::new().with_limits(limits))
            .unwrap();
        assert_eq!(file.main_block().len() as u64, block);
        let back = wap_core::LevelData::from_level(&file.view().unwrap()).unwrap();
        assert_eq!(back.planes[2].tiles, level.planes[2].tiles);
    }
    // Written plain to a sink, the level costs the writer a few KiB, not its 4 MiB.
    let (written, peak) = heap::peak(&serial, || {
        level
            .layout(false, &limits)
            .unwrap()
            .write_to(&mut Sink(0))
            .unwrap()
    });
    assert_eq!(written.main_block_len, block);
    assert!(peak < 64 * 1024, "peak {peak}");
}

/// A seekable writer that keeps nothing.
struct Sink(u64);

impl std::io::Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl std::io::Seek for Sink {
    fn seek(&mut self, to: std::io::SeekFrom) -> std::io::Result<u64> {
        if let std::io::SeekFrom::Start(at) = to {
            self.0 = at;
        }
        Ok(self.0)
    }
}

/// What the import keeps (the map's properties) stays charged when a layer's elements are
/// given back: three blocks of the map's properties between the layers, each within the
/// budget, together past it, are refused.
#[test]
fn the_map_s_properties_stay_charged_across_layers() {
    let (tmx, _) = maps();
    let block: String = (0..1200)
        .map(|i| format!("<property name=\"pad{i}\" value=\"\"/>"))
        .collect();
    let block = format!("<properties>{block}</properties>");
    let layers: Vec<usize> = tmx.match_indices("<layer ").map(|(at, _)| at).collect();
    assert!(layers.len() >= 3, "{} layers", layers.len());
    let with_blocks = |n: usize| {
        let mut text = tmx.clone();
        for &at in layers[..n].iter().rev() {
            text.insert_str(at, &block);
        }
        text
    };
    // One block is read; three, with layers read between them, are past the budget.
    assert!(level_from_tmx(&with_blocks(1), &small()).is_ok());
    assert!(too_large(level_from_tmx(&with_blocks(3), &small())).contains("elements"));
}
