//! Whole-world queries, sequential and rayon-parallel, with identical results.
//!
//! The map is scanned column by column (a column of blocks is contiguous, so each task
//! reads one run of memory); the statics are scanned over the index. Parallel versions split
//! the same work across rayon's pool and merge per-task accumulators that live on the heap.
//! Bad statics blocks are counted and skipped, never hiding the good ones.

use rayon::prelude::*;

use crate::map::{Map, MapSize};
use crate::raw::{MapBlock, StaticRecord};
use crate::statics::Statics;

/// Distinct tile ids (u16).
const IDS: usize = 1 << 16;

/// Land figures over a whole map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LandStats {
    /// Cells counted (width x height in tiles).
    pub cells: u64,
    /// Cells with each land id, indexed by id (65,536 entries).
    pub histogram: Vec<u64>,
    /// Lowest altitude (`i8::MAX` for an empty map).
    pub z_min: i8,
    /// Highest altitude (`i8::MIN` for an empty map).
    pub z_max: i8,
}

impl LandStats {
    fn new() -> Self {
        LandStats {
            cells: 0,
            histogram: vec![0; IDS],
            z_min: i8::MAX,
            z_max: i8::MIN,
        }
    }

    fn add_column(mut self, column: &[MapBlock]) -> Self {
        for block in column {
            for cell in &block.cells {
                if let Some(n) = self.histogram.get_mut(usize::from(cell.id.get())) {
                    *n += 1;
                }
                self.z_min = self.z_min.min(cell.z);
                self.z_max = self.z_max.max(cell.z);
            }
            self.cells += 64;
        }
        self
    }

    fn merge(mut self, other: Self) -> Self {
        self.cells += other.cells;
        for (a, b) in self.histogram.iter_mut().zip(&other.histogram) {
            *a += b;
        }
        self.z_min = self.z_min.min(other.z_min);
        self.z_max = self.z_max.max(other.z_max);
        self
    }

    /// The `n` most common ids as (id, count), most common first, ties by id.
    pub fn top(&self, n: usize) -> Vec<(u16, u64)> {
        top_ids(&self.histogram, n)
    }
}

/// Land figures over every cell, one column after another.
pub fn land_stats(map: &Map<'_>) -> LandStats {
    map.columns().fold(LandStats::new(), LandStats::add_column)
}

/// [`land_stats`] with the columns spread over rayon's pool; the same result.
pub fn land_stats_par(map: &Map<'_>) -> LandStats {
    let height = usize::try_from(map.size().height_blocks()).unwrap_or(usize::MAX);
    map.blocks()
        .par_chunks_exact(height.max(1))
        .fold(LandStats::new, LandStats::add_column)
        .reduce(LandStats::new, LandStats::merge)
}

/// Statics figures over a whole facet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaticsStats {
    /// Statics counted.
    pub count: u64,
    /// Statics with each item id, indexed by id (65,536 entries).
    pub histogram: Vec<u64>,
    /// Lowest altitude (`i8::MAX` when there is none).
    pub z_min: i8,
    /// Highest altitude (`i8::MIN` when there is none).
    pub z_max: i8,
    /// Blocks with a bad index entry (skipped; see `Statics::validate` for the reasons).
    pub bad_blocks: u64,
}

impl StaticsStats {
    fn new() -> Self {
        StaticsStats {
            count: 0,
            histogram: vec![0; IDS],
            z_min: i8::MAX,
            z_max: i8::MIN,
            bad_blocks: 0,
        }
    }

    fn add_block(mut self, statics: &Statics<'_>, block: usize) -> Self {
        match statics.block(block) {
            Ok(list) => {
                for s in list {
                    self.add(s);
                }
            }
            Err(_) => self.bad_blocks += 1,
        }
        self
    }

    #[inline]
    fn add(&mut self, s: &StaticRecord) {
        self.count += 1;
        if let Some(n) = self.histogram.get_mut(usize::from(s.id.get())) {
            *n += 1;
        }
        self.z_min = self.z_min.min(s.z);
        self.z_max = self.z_max.max(s.z);
    }

    fn merge(mut self, other: Self) -> Self {
        self.count += other.count;
        self.bad_blocks += other.bad_blocks;
        for (a, b) in self.histogram.iter_mut().zip(&other.histogram) {
            *a += b;
        }
        self.z_min = self.z_min.min(other.z_min);
        self.z_max = self.z_max.max(other.z_max);
        self
    }

    /// The `n` most common ids as (id, count), most common first, ties by id.
    pub fn top(&self, n: usize) -> Vec<(u16, u64)> {
        top_ids(&self.histogram, n)
    }
}

/// Statics figures over the first `blocks` index entries (the map's block count).
pub fn statics_stats(statics: &Statics<'_>, blocks: usize) -> StaticsStats {
    (0..blocks).fold(StaticsStats::new(), |acc, b| acc.add_block(statics, b))
}

/// [`statics_stats`] with the index spread over rayon's pool; the same result.
pub fn statics_stats_par(statics: &Statics<'_>, blocks: usize) -> StaticsStats {
    (0..blocks)
        .into_par_iter()
        .with_min_len(1024)
        .fold(StaticsStats::new, |acc, b| acc.add_block(statics, b))
        .reduce(StaticsStats::new, StaticsStats::merge)
}

/// A static found by [`find_statics`]: where it stands (tiles) and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FoundStatic {
    /// Column in tiles.
    pub x: u32,
    /// Row in tiles.
    pub y: u32,
    /// Altitude.
    pub z: i8,
    /// Item id.
    pub id: u16,
    /// Hue.
    pub hue: u16,
}

fn found_in_block(
    statics: &Statics<'_>,
    size: MapSize,
    block: usize,
    wanted: &(impl Fn(&StaticRecord) -> bool + ?Sized),
) -> Vec<FoundStatic> {
    let (Ok(list), Some((bx, by))) = (statics.block(block), size.block_coords(block)) else {
        return Vec::new();
    };
    list.into_iter()
        .filter(|s| wanted(s))
        .map(|s| FoundStatic {
            x: bx * 8 + u32::from(s.x),
            y: by * 8 + u32::from(s.y),
            z: s.z,
            id: s.id.get(),
            hue: s.hue.get(),
        })
        .collect()
}

/// Every static for which `wanted` is true, in block order then file order.
pub fn find_statics(
    statics: &Statics<'_>,
    size: MapSize,
    wanted: impl Fn(&StaticRecord) -> bool,
) -> Vec<FoundStatic> {
    (0..size.blocks())
        .flat_map(|b| found_in_block(statics, size, b, &wanted))
        .collect()
}

/// [`find_statics`] over rayon's pool; the same result in the same order.
pub fn find_statics_par(
    statics: &Statics<'_>,
    size: MapSize,
    wanted: impl Fn(&StaticRecord) -> bool + Sync,
) -> Vec<FoundStatic> {
    (0..size.blocks())
        .into_par_iter()
        .with_min_len(1024)
        .flat_map_iter(|b| found_in_block(statics, size, b, &wanted))
        .collect()
}

/// The `n` largest counts of `histogram` as (id, count), ties by id; zero counts left out.
fn top_ids(histogram: &[u64], n: usize) -> Vec<(u16, u64)> {
    let mut ids: Vec<(u16, u64)> = histogram
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .filter_map(|(id, &c)| Some((u16::try_from(id).ok()?, c)))
        .collect();
    ids.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    ids.truncate(n);
    ids
}
