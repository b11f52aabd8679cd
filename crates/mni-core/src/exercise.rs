//! Walks every reading path of a structure over arbitrary bytes.
//!
//! The fuzz targets (`fuzz/fuzz_targets/mni_*.rs`) and the regression test that replays fuzz
//! findings call these, so both exercise exactly the same code. Each returns a number
//! derived from what it read, so the work cannot be optimised away; errors are expected
//! and count as results. None of them may panic, on any input.

// Fuzzing drivers: their sums only keep results alive (wrapping on purpose), and their
// coordinates come from sizes the parsers checked. Their assertions are the properties
// the fuzzer checks: a failed one is a finding.
#![allow(clippy::arithmetic_side_effects, clippy::expect_used, clippy::panic)]

use crate::group::GroupFile;
use crate::map::Map;
use crate::tileattr::TileAttrTable;
use crate::tiles::{MaskedTiles, SolidTiles, TileImages};

/// Parses `data` as a group file and reads every entry, by slot and by name.
pub fn group(data: &[u8]) -> u64 {
    let Ok(group) = GroupFile::parse(data) else {
        return 0;
    };
    let mut acc = u64::from(group.declared_count().unwrap_or(0));
    for entry in group.entries() {
        acc = acc.wrapping_add(match entry.data() {
            Ok(bytes) => bytes.len() as u64,
            Err(err) => err.to_string().len() as u64,
        });
        let name = entry.name_lossy();
        acc = acc.wrapping_add(group.find(&name).map_or(0, |e| e.slot() as u64));
        acc = acc.wrapping_add(format!("{entry:?}").len() as u64);
    }
    acc.wrapping_add(group.get("TILEATTR.MNI").map_or(1, |d| d.len() as u64))
}

/// Parses `data` as TILEATTR.MNI and reads every attribute.
pub fn tileattr(data: &[u8]) -> u64 {
    let Ok(table) = TileAttrTable::parse(data) else {
        return 0;
    };
    let s = table.summary();
    let by_value = (0..=u16::MAX)
        .step_by(97)
        .filter_map(|v| table.for_value(v))
        .fold(0u64, |a, t| a.wrapping_add(u64::from(t.bits())));
    by_value + u64::from(s.other_mix) + u64::from(s.flags.iter().sum::<u32>())
}

/// Parses `data` as a map and reads its actors, cells and attributes (with a TILEATTR.MNI
/// cut from the same bytes).
pub fn map(data: &[u8]) -> u64 {
    let map = match Map::parse(data) {
        Ok(map) => map,
        Err(err) => return err.to_string().len() as u64,
    };
    let mut acc = map.actors().fold(0u64, |a, actor| {
        a.wrapping_add(u64::from(actor.x) + u64::from(actor.y))
    });
    for actor in map.actors() {
        acc = acc.wrapping_add(u64::from(map.tile_value(actor.x, actor.y).unwrap_or(1)));
    }
    let attrs = data.get(..7000).and_then(|d| TileAttrTable::parse(d).ok());
    if let Some(attrs) = attrs {
        acc = map
            .cell_attributes(&attrs)
            .fold(acc, |a, t| a.wrapping_add(u64::from(t.bits())));
        acc = acc.wrapping_add(
            map.attributes(map.width(), 0, &attrs)
                .map_or(3, |t| u64::from(t.bits())),
        );
    }
    acc.wrapping_add(map.trailing().len() as u64)
}

/// Parses `data` as a map and decodes the image of every drawn cell, as a renderer does,
/// with tile tables cut from the same bytes: the first 2,048 bytes as TILES.MNI, the first
/// 2,560 as MASKTILE.MNI.
pub fn render(data: &[u8]) -> u64 {
    let Ok(map) = Map::parse(data) else {
        return 0;
    };
    let (Some(solid), Some(masked)) = (data.get(..32 * 64), data.get(..40 * 64)) else {
        return 0;
    };
    let (Ok(solid), Ok(masked)) = (SolidTiles::parse(solid), MaskedTiles::parse(masked)) else {
        return 0;
    };
    let images = TileImages { solid, masked };
    let mut acc = 0u64;
    for (x, y, tile) in map.drawn_cells() {
        acc = acc.wrapping_add(u64::from(x) ^ u64::from(y));
        acc = match images.pixels(tile) {
            Some(pixels) => pixels
                .iter()
                .flatten()
                .fold(acc, |a, p| a.wrapping_add(p.map_or(16, u64::from))),
            None => acc.wrapping_add(1),
        };
    }
    acc
}

/// Parses `data` as TILES.MNI and as MASKTILE.MNI (the longest whole prefix) and decodes
/// every tile.
pub fn tiles(data: &[u8]) -> u64 {
    let whole = |n: usize| data.get(..data.len() / n * n).unwrap_or(&[]);
    let mut acc = 0u64;
    if let Ok(solid) = SolidTiles::parse(whole(32)) {
        for t in solid.as_slice() {
            acc = t
                .pixels()
                .iter()
                .flatten()
                .fold(acc, |a, &p| a.wrapping_add(u64::from(p)));
        }
    }
    if let Ok(masked) = MaskedTiles::parse(whole(40)) {
        for t in masked.as_slice() {
            acc = t
                .pixels()
                .iter()
                .flatten()
                .fold(acc, |a, p| a.wrapping_add(p.map_or(16, u64::from)));
        }
    }
    acc
}

/// Splits `data` into two parts at a little-endian u32 length prefix.
pub fn split_two(data: &[u8]) -> (&[u8], &[u8]) {
    let Some((len, rest)) = data.split_first_chunk::<4>() else {
        return (&[], &[]);
    };
    let len = (u32::from_le_bytes(*len) as usize).min(rest.len());
    rest.split_at(len)
}

/// Joins two files for [`split_two`].
pub fn join_two(first: &[u8], second: &[u8]) -> Vec<u8> {
    let len = u32::try_from(first.len()).unwrap_or(u32::MAX);
    [&len.to_le_bytes()[..], first, second].concat()
}

/// A whole episode: an STN and a VOL group file in [`split_two`] form, opened as the game
/// does: the tile attributes and images from the STN, every map of the VOL, each map's
/// attributes and the image of each drawn cell (what a renderer draws).
pub fn episode(data: &[u8]) -> u64 {
    let (stn, vol) = split_two(data);
    let episode = match crate::episode::Episode::parse(stn, vol) {
        Ok(e) => e,
        Err(e) => return e.to_string().len() as u64,
    };
    let attrs = episode.tile_attributes();
    let images = episode.tile_images();
    let mut acc = u64::from(attrs.is_ok()) + u64::from(images.is_ok());
    for entry in episode.map_names() {
        let map = match episode.map(&entry.name_lossy()) {
            Ok(map) => map,
            Err(e) => {
                acc = acc.wrapping_add(e.to_string().len() as u64);
                continue;
            }
        };
        acc = acc.wrapping_add(map.actors().len() as u64);
        if let Ok(attrs) = &attrs {
            acc = map
                .cell_attributes(attrs)
                .fold(acc, |a, t| a.wrapping_add(u64::from(t.bits())));
        }
        if let Ok(images) = &images {
            for (_, _, tile) in map.drawn_cells() {
                acc = acc.wrapping_add(images.pixels(tile).map_or(1, |p| {
                    p.iter().flatten().filter(|p| p.is_some()).count() as u64
                }));
            }
        }
    }
    acc
}

/// Round trips through the writers: `data` as a group file (its readable entries with
/// writable names, written again, must read back as the same names and bytes in order) and
/// as a map (its flags, width, actors and tiles, written again, must read back the same).
#[cfg(feature = "write")]
pub fn round_trip(data: &[u8]) -> u64 {
    let mut acc = 0u64;
    if let Ok(group) = GroupFile::parse(data) {
        let entries: Vec<(String, &[u8])> = group
            .entries()
            .filter_map(|e| {
                let name = std::str::from_utf8(e.name()).ok()?.to_owned();
                Some((name, e.data().ok()?))
            })
            .collect();
        let pairs = entries.iter().map(|(n, d)| (n.as_str(), *d));
        if let Ok(written) = crate::write::write_group(pairs) {
            let back = GroupFile::parse(&written).expect("a written group file reads");
            let read: Vec<(String, &[u8])> = back
                .entries()
                .map(|e| {
                    let name = String::from_utf8_lossy(e.name()).into_owned();
                    (name, e.data().expect("a written entry reads"))
                })
                .collect();
            assert_eq!(read, entries, "the group file reads back as written");
            acc = acc.wrapping_add(written.len() as u64);
        }
    }
    if let Ok(map) = Map::parse(data) {
        let actors: Vec<_> = map.actors().collect();
        let tiles: Vec<u16> = map.tile_values().iter().map(|v| v.get()).collect();
        let written = crate::write::write_map(map.flags(), map.width(), &actors, &tiles)
            .expect("a map that reads writes");
        let back = Map::parse(&written).expect("a written map reads");
        assert_eq!(back.flags(), map.flags());
        assert_eq!(back.width(), map.width());
        assert!(
            back.actors().eq(actors.iter().copied()),
            "the actors read back"
        );
        assert!(
            back.tile_values()
                .iter()
                .map(|v| v.get())
                .eq(tiles.iter().copied()),
            "the tiles read back"
        );
        assert!(back.trailing().is_empty());
        acc = acc.wrapping_add(written.len() as u64);
    }
    acc
}
