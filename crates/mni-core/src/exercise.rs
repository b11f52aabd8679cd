//! Walks every reading path of a structure over arbitrary bytes.
//!
//! The fuzz targets (`fuzz/fuzz_targets/mni_*.rs`) and the regression test that replays fuzz
//! findings call these, so both exercise exactly the same code. Each returns a number
//! derived from what it read, so the work cannot be optimised away; errors are expected
//! and count as results. None of them may panic, on any input.

// Fuzzing drivers: their sums only keep results alive (wrapping on purpose), and their
// coordinates come from sizes the parsers checked.
#![allow(clippy::arithmetic_side_effects)]

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
