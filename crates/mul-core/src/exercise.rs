//! Walks every reading path over arbitrary bytes: what the fuzz targets
//! (`fuzz/fuzz_targets/uo_*.rs`) and the regression replay run. Each returns a number
//! derived from what it read, so the work cannot be optimised away; errors are results.
//! None of them may panic, on any input.
//!
//! Inputs that hold two files start with a little-endian u16: the length of the first
//! file (the index), which follows; the rest is the second file (the data).

// Fuzzing drivers: their sums only keep results alive (wrapping on purpose), and their
// coordinates come from sizes the parsers checked.
#![allow(clippy::arithmetic_side_effects)]

use crate::colours::{Hues, RadarColours};
use crate::facet::{Facet, FacetBytes};
use crate::map::{Map, MapSize};
use crate::multi::Multis;
use crate::query;
use crate::query::{LandStats, StaticsStats};
use crate::statics::Statics;
use crate::tiledata::{TileData, TileFlags};

/// Splits `data` into (index, data) at the u16 length prefix.
pub fn split(data: &[u8]) -> (&[u8], &[u8]) {
    let Some((len, rest)) = data.split_first_chunk::<2>() else {
        return (&[], &[]);
    };
    let len = usize::from(u16::from_le_bytes(*len)).min(rest.len());
    rest.split_at(len)
}

/// Joins an index and a data file into one input for [`statics`] and [`multi`].
pub fn join(index: &[u8], data: &[u8]) -> Vec<u8> {
    let len = u16::try_from(index.len()).unwrap_or(u16::MAX);
    let mut out = len.to_le_bytes().to_vec();
    out.extend_from_slice(index.get(..usize::from(len)).unwrap_or(index));
    out.extend_from_slice(data);
    out
}

/// tiledata.mul: every land tile, a sample of item tiles, names and flags.
pub fn tiledata(data: &[u8]) -> u64 {
    let Ok(t) = TileData::parse(data) else {
        return 0;
    };
    let mut acc = u64::from(t.tile_zero_first());
    for id in (0..=u16::MAX).step_by(7) {
        if let Some(l) = t.land(id) {
            acc = acc.wrapping_add(l.flags().bits() ^ u64::from(l.texture()));
            acc = acc.wrapping_add(l.name_lossy().len() as u64);
        }
        if let Some(i) = t.item(id) {
            acc = acc.wrapping_add(i.flags().bits() ^ u64::from(i.height()));
            acc = acc.wrapping_add(i.name().len() as u64 + u64::from(i.weight()));
        }
    }
    acc.wrapping_add(t.item_table().len() as u64)
}

/// A map: the first byte is the width in blocks (1..=32), the rest the map file; every
/// cell, a region, and the land statistics both ways (they must agree).
pub fn map(data: &[u8]) -> u64 {
    let Some((&w, bytes)) = data.split_first() else {
        return 0;
    };
    let width = u32::from(w % 32) + 1;
    let blocks = bytes.len() / 196;
    let height = u32::try_from(blocks / width as usize).unwrap_or(0);
    let Ok(size) = MapSize::from_blocks(width, height.max(1)) else {
        return 1;
    };
    let map = match Map::parse(bytes, size) {
        Ok(m) => m,
        Err(e) => return e.to_string().len() as u64,
    };
    let seq = land_both_ways(&map);
    let mut acc = seq.cells;
    for (x, y, c) in map.region(3, 5, 20, 20) {
        acc = acc.wrapping_add(u64::from(x ^ y) + u64::from(c.id.get()));
    }
    acc.wrapping_add(map.column(width - 1).map_or(0, |c| c.count() as u64))
        .wrapping_add(
            map.cell(size.width(), 0)
                .map_or(7, |c| u64::from(c.id.get())),
        )
}

/// Statics (index + data): validation, every block, the statistics both ways, and the
/// statics and top surface of a few tiles of a 4-block-high map.
pub fn statics(data: &[u8]) -> u64 {
    let (index, rest) = split(data);
    let Ok(statics) = Statics::parse(index, rest, None) else {
        return 0;
    };
    let blocks = statics.index().len();
    let mut acc = statics.validate(blocks + 1).total();
    acc = acc.wrapping_add(statics_both_ways(&statics, blocks).count);
    let Ok(size) = MapSize::from_blocks(u32::try_from(blocks / 4).unwrap_or(0).max(1), 4) else {
        return acc;
    };
    let found = query::find_statics(&statics, size, |s| s.z > 0);
    acc = acc.wrapping_add(found.len() as u64);
    let map = vec![0u8; size.blocks() * 196];
    if let Ok(facet) = Facet::parse(
        FacetBytes {
            map: &map,
            staidx: index,
            statics: rest,
        },
        size,
        None,
    ) {
        for (x, y) in [(0, 0), (9, 3), (size.width() - 1, size.height() - 1)] {
            acc = acc.wrapping_add(facet.statics_at(x, y).map_or(1, |s| s.count() as u64));
            if let Ok(Some(z)) = facet.top_surface(x, y) {
                acc = acc.wrapping_add(z.unsigned_abs().into());
            }
            acc = acc.wrapping_add(u64::from(facet.has_flags(
                &crate::raw::StaticRecord {
                    id: 0.into(),
                    x: 0,
                    y: 0,
                    z: 0,
                    hue: 0.into(),
                },
                TileFlags::all(),
            )));
        }
    }
    acc
}

/// Multis (index + data): validation and every multi's components.
pub fn multi(data: &[u8]) -> u64 {
    let (index, rest) = split(data);
    let Ok(multis) = Multis::parse(index, rest, None) else {
        return 0;
    };
    let mut acc = multis.validate().total();
    for id in 0..=multis.len() {
        match multis.get(id) {
            Ok(m) => {
                for c in m.iter() {
                    acc = acc.wrapping_add(c.x.get().unsigned_abs().into());
                    acc = acc.wrapping_add(c.z.get().unsigned_abs().into());
                }
            }
            Err(e) => acc = acc.wrapping_add(e.to_string().len() as u64),
        }
    }
    acc.wrapping_add(multis.ids().count() as u64)
}

/// radarcol.mul and hues.mul over the same bytes.
pub fn colours(data: &[u8]) -> u64 {
    let mut acc = 0u64;
    if let Ok(r) = RadarColours::parse(data) {
        for id in (0..=u16::MAX).step_by(13) {
            acc = acc.wrapping_add(
                r.land(id)
                    .map_or(0, |c| u64::from(crate::rgb555_to_rgb8(c)[0])),
            );
            acc = acc.wrapping_add(r.item(id).map_or(0, u64::from));
        }
    }
    if let Ok(h) = Hues::parse(data) {
        for i in 0..=h.len() {
            acc = acc.wrapping_add(h.get(i).map_or(1, |e| e.name_lossy().len() as u64));
        }
    }
    acc
}

/// Splits `data` into `N` parts: each of the first `N - 1` behind a little-endian u16
/// length, the last the rest.
pub fn split_parts<const N: usize>(data: &[u8]) -> [&[u8]; N] {
    let mut parts = [&[][..]; N];
    let mut rest = data;
    for (i, part) in parts.iter_mut().enumerate() {
        if i + 1 == N {
            *part = rest;
            break;
        }
        let (first, tail) = split(rest);
        *part = first;
        rest = tail;
    }
    parts
}

/// Joins parts for [`split_parts`] (each but the last at most 65,535 bytes).
pub fn join_parts(parts: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            out.extend_from_slice(part);
        } else {
            let len = u16::try_from(part.len()).unwrap_or(u16::MAX);
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(part.get(..usize::from(len)).unwrap_or(part));
        }
    }
    out
}

/// A UOP container: the table, every entry's stored bytes, contents and Adler-32, and
/// facet 0's and 1's map chunks as a map one block wide, scanned both ways (which must
/// agree), and read back as a MUL.
pub fn uop(data: &[u8]) -> u64 {
    let limits = gamedata_io::Limits {
        max_decoded_bytes: 16 << 20,
        max_records: 1 << 16,
    };
    let container = match crate::uop::UopFile::parse(data, &limits) {
        Ok(c) => c,
        Err(e) => return e.to_string().len() as u64,
    };
    let mut acc = container.table_blocks() as u64;
    for entry in container.entries() {
        acc = acc.wrapping_add(container.stored(entry).map_or(1, |s| s.len() as u64));
        acc = acc.wrapping_add(
            container
                .contents(entry, &limits)
                .map_or(2, |c| c.len() as u64),
        );
        acc = acc.wrapping_add(u64::from(container.check_adler32(entry).unwrap_or(false)));
    }
    for facet in 0..2 {
        let chunks = match crate::map_uop::map_chunks(&container, facet, &limits) {
            Ok(c) => c,
            Err(e) => {
                acc = acc.wrapping_add(e.to_string().len() as u64);
                continue;
            }
        };
        let blocks: usize = chunks.iter().map(crate::map_uop::MapChunk::len).sum();
        let height = u32::try_from(blocks).unwrap_or(u32::MAX);
        if let Ok(size) = MapSize::from_blocks(1, height)
            && let Ok(map) = Map::from_chunks(data, &chunks, size)
        {
            acc = acc.wrapping_add(land_both_ways(&map).cells);
            acc = acc.wrapping_add(map.blocks().count() as u64);
            acc = acc.wrapping_add(
                map.cell(3, size.height() / 2)
                    .map_or(0, |c| u64::from(c.z.unsigned_abs())),
            );
        }
        if let Ok(mul) = crate::map_uop::read_map_mul(&container, facet, &limits) {
            acc = acc.wrapping_add(mul.len() as u64);
        }
    }
    acc
}

/// A facet with diff patches: eight files in [`split_parts`] form (map, staidx, statics,
/// mapdifl, mapdif, stadifl, stadifi, stadif); the map 4 blocks wide. The patched and the
/// plain facet: land and statics figures both ways (which must agree), validation, and the
/// statics and top surface of a few tiles.
pub fn patched(data: &[u8]) -> u64 {
    let [
        map,
        staidx,
        statics,
        mapdifl,
        mapdif,
        stadifl,
        stadifi,
        stadif,
    ] = split_parts(data);
    let height = u32::try_from(map.len() / 196 / 4).unwrap_or(0).max(1);
    let Ok(size) = MapSize::from_blocks(4, height) else {
        return 0;
    };
    let Ok(plain) = Facet::parse(
        FacetBytes {
            map,
            staidx,
            statics,
        },
        size,
        None,
    ) else {
        return 1;
    };
    let index = crate::diff::DiffIndex::new(Some((mapdifl, mapdif)), Some((stadifl, stadifi)));
    let mut facet = plain;
    facet.map = facet.map.with_patch(crate::diff::MapPatch {
        index: &index.map,
        blocks: crate::diff::map_blocks(mapdif),
    });
    facet.statics = facet.statics.with_patch(crate::diff::StaticsPatch {
        index: &index.statics,
        records: crate::diff::index_records(stadifi),
        data: stadif,
    });
    let blocks = size.blocks();
    let mut acc = index.problems.total();
    for f in [&plain, &facet] {
        acc = acc.wrapping_add(land_both_ways(&f.map).cells);
        acc = acc.wrapping_add(statics_both_ways(&f.statics, blocks).count);
        acc = acc.wrapping_add(f.statics.validate(blocks).total());
        acc = acc.wrapping_add(f.map.runs().count() as u64);
        for (x, y) in [(0, 0), (9, 3), (size.width() - 1, size.height() - 1)] {
            acc = acc.wrapping_add(f.statics_at(x, y).map_or(1, |s| s.count() as u64));
            if let Ok(Some(z)) = f.top_surface(x, y) {
                acc = acc.wrapping_add(z.unsigned_abs().into());
            }
        }
    }
    acc
}

/// The land scan sequentially and over rayon's pool.
///
/// # Panics
///
/// If the two differ: they must agree on every input, and a fuzz run that finds one that
/// they do not agree on has found a bug.
#[allow(clippy::panic)]
fn land_both_ways(map: &Map<'_>) -> LandStats {
    let seq = query::land_stats(map);
    let par = query::land_stats_par(map);
    if seq != par {
        panic!("land_stats and land_stats_par disagree: {seq:?} against {par:?}");
    }
    seq
}

/// The statics scan sequentially and over rayon's pool.
///
/// # Panics
///
/// If the two differ (see [`land_both_ways`]).
#[allow(clippy::panic)]
fn statics_both_ways(statics: &Statics<'_>, blocks: usize) -> StaticsStats {
    let seq = query::statics_stats(statics, blocks);
    let par = query::statics_stats_par(statics, blocks);
    if seq != par {
        panic!("statics_stats and statics_stats_par disagree: {seq:?} against {par:?}");
    }
    seq
}
