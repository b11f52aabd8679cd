//! Whole-world queries, sequential and rayon-parallel (the `_par` functions, behind the
//! default `parallel` feature), with identical results.
//!
//! The map is scanned run by run ([`Map::runs`]: the columns, cut at chunk ends in a map
//! UOP; each task reads contiguous memory); the statics are scanned over the index. Parallel versions split
//! the same work across rayon's pool and merge per-task accumulators that live on the heap.
//! Bad statics blocks are counted and skipped, never hiding the good ones.

use std::fmt;

use gamedata_io::PreviewTable;

#[cfg(feature = "parallel")]
use rayon::prelude::*;
use zerocopy::IntoBytes;

use crate::facet::map::{Map, MapSize};
use crate::facet::statics::Statics;
use crate::raw::{MapBlock, StaticRecord};

/// Land figures over a whole map.
#[derive(Clone, PartialEq, Eq)]
pub struct LandStats {
    /// Cells counted (width x height in tiles).
    pub cells: u64,
    /// Cells with each land id, indexed by id, up to the largest id seen (ids past the end
    /// have no cell; [`LandStats::count`] reads any id).
    pub histogram: Vec<u64>,
    /// Lowest altitude (`i8::MAX` for an empty map).
    pub z_min: i8,
    /// Highest altitude (`i8::MIN` for an empty map).
    pub z_max: i8,
}

impl fmt::Debug for LandStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LandStats")
            .field("cells", &self.cells)
            .field("histogram", &PreviewTable(&self.histogram))
            .field("z_min", &self.z_min)
            .field("z_max", &self.z_max)
            .finish()
    }
}

impl LandStats {
    fn new() -> Self {
        LandStats {
            cells: 0,
            histogram: Vec::new(),
            z_min: i8::MAX,
            z_max: i8::MIN,
        }
    }

    /// Counts a column's cells (see [`ColumnScan`]).
    // Counts of cells and records held in memory: below 2^64, they cannot overflow.
    #[allow(clippy::arithmetic_side_effects)]
    fn add_column(mut self, column: &[MapBlock]) -> Self {
        let mut scan = ColumnScan::new();
        for block in column {
            scan.add_block(block, &mut self.histogram);
        }
        scan.finish(&mut self.histogram);
        self.cells += 64 * column.len() as u64;
        let (lo, hi) = scan.z_range();
        (self.z_min, self.z_max) = (self.z_min.min(lo), self.z_max.max(hi));
        self
    }

    #[cfg(feature = "parallel")]
    // Counts of cells and records held in memory: below 2^64, they cannot overflow.
    #[allow(clippy::arithmetic_side_effects)]
    fn merge(mut self, other: Self) -> Self {
        self.cells += other.cells;
        merge_tally(&mut self.histogram, &other.histogram);
        (self.z_min, self.z_max) = (self.z_min.min(other.z_min), self.z_max.max(other.z_max));
        self
    }

    /// The `n` most common ids as (id, count), most common first, ties by id.
    pub fn top(&self, n: usize) -> Vec<(u16, u64)> {
        top_ids(&self.histogram, n)
    }

    /// Cells with land id `id`.
    pub fn count(&self, id: u16) -> u64 {
        self.histogram.get(usize::from(id)).copied().unwrap_or(0)
    }
}

/// Land figures over every cell, one run of blocks (a column, or part of one in a map UOP)
/// after another.
pub fn land_stats(map: &Map<'_>) -> LandStats {
    map.runs().fold(LandStats::new(), LandStats::add_column)
}

/// [`land_stats`] with the runs spread over rayon's pool; the same result.
#[cfg(feature = "parallel")]
pub fn land_stats_par(map: &Map<'_>) -> LandStats {
    let runs: Vec<&[MapBlock]> = map.runs().collect();
    let tasks = runs.len();
    runs.into_par_iter()
        .with_min_len(min_len(tasks, 4))
        .fold(LandStats::new, LandStats::add_column)
        .reduce(LandStats::new, LandStats::merge)
}

/// The per-column state of a land scan, laid out for speed on the block's bytes:
///
/// - Land ids: neighbouring cells mostly share their id, so equal ids are counted as a run
///   in a register and added to the histogram once a run (a counter incremented cell after
///   cell chains every increment through memory). A block whose 64 ids are all equal, which
///   a byte comparison of the block with itself shifted by one cell shows, is one run of 64.
/// - Altitudes: every 16-byte lane of the block's 192 cell bytes keeps a running minimum and
///   maximum of its z bytes (other bytes masked out), flipped to unsigned so that plain SSE2
///   byte instructions apply; the lanes are reduced once a column.
struct ColumnScan {
    run_id: u16,
    run: u64,
    z_min: [u8; 48],
    z_max: [u8; 48],
}

/// 0xFF on the z byte of each 3-byte cell, over 48 bytes (16 cells). Evaluated at compile
/// time, where an index out of range is a compile error.
#[allow(clippy::indexing_slicing)]
const Z_LANES: [u8; 48] = {
    let mut m = [0u8; 48];
    let mut i = 0;
    while i < 48 {
        m[i] = if i % 3 == 2 { 0xFF } else { 0 };
        i += 1;
    }
    m
};

/// 0xFF on the two id bytes of each cell, over the 189 bytes compared cell-to-next-cell.
/// Evaluated at compile time.
#[allow(clippy::indexing_slicing)]
const ID_BYTES: [u8; 189] = {
    let mut m = [0u8; 189];
    let mut i = 0;
    while i < 189 {
        m[i] = if i % 3 == 2 { 0 } else { 0xFF };
        i += 1;
    }
    m
};

impl ColumnScan {
    fn new() -> Self {
        ColumnScan {
            run_id: 0,
            run: 0,
            z_min: [u8::MAX; 48],
            z_max: [0; 48],
        }
    }

    #[inline]
    // Counts of cells and records held in memory: below 2^64, they cannot overflow.
    #[allow(clippy::arithmetic_side_effects)]
    fn add_run(&mut self, id: u16, n: u64, histogram: &mut Vec<u64>) {
        if id == self.run_id {
            self.run += n;
        } else {
            if self.run > 0 {
                bump(histogram, self.run_id, self.run);
            }
            (self.run_id, self.run) = (id, n);
        }
    }

    #[inline]
    fn add_block(&mut self, block: &MapBlock, histogram: &mut Vec<u64>) {
        let cells: &[u8; 192] = block.cells.as_bytes().try_into().unwrap_or(&[0; 192]);
        for lane in cells.chunks_exact(48) {
            let zipped = self.z_min.iter_mut().zip(self.z_max.iter_mut());
            for (((lo, hi), &byte), &mask) in zipped.zip(lane).zip(&Z_LANES) {
                let z = byte ^ 0x80;
                *lo = (*lo).min(z | !mask);
                *hi = (*hi).max(z & mask);
            }
        }
        let (head, tail) = (
            cells.get(..189).unwrap_or_default(),
            cells.get(3..).unwrap_or_default(),
        );
        let differ = head
            .iter()
            .zip(tail)
            .zip(&ID_BYTES)
            .fold(0u8, |d, ((a, b), m)| d | ((a ^ b) & m));
        if differ == 0 {
            self.add_run(block.cells[0].id.get(), 64, histogram);
        } else {
            for cell in &block.cells {
                self.add_run(cell.id.get(), 1, histogram);
            }
        }
    }

    /// Adds the last run to the histogram.
    fn finish(&mut self, histogram: &mut Vec<u64>) {
        if self.run > 0 {
            bump(histogram, self.run_id, self.run);
        }
        self.run = 0;
    }

    /// The column's z range; (`i8::MAX`, `i8::MIN`) for a column of no block, since the
    /// lanes start at the flipped forms of those values.
    fn z_range(&self) -> (i8, i8) {
        let unflip = |v: u8| i8::from_le_bytes([v ^ 0x80]);
        let lo = self.z_min.iter().min().copied().unwrap_or(u8::MAX);
        let hi = self.z_max.iter().max().copied().unwrap_or(0);
        (unflip(lo), unflip(hi))
    }
}

/// Statics figures over a whole facet.
#[derive(Clone, PartialEq, Eq)]
pub struct StaticsStats {
    /// Statics counted.
    pub count: u64,
    /// Statics with each item id, indexed by id, up to the largest id seen (ids past the end
    /// have none; [`StaticsStats::count_of`] reads any id).
    pub histogram: Vec<u64>,
    /// Lowest altitude (`i8::MAX` when there is none).
    pub z_min: i8,
    /// Highest altitude (`i8::MIN` when there is none).
    pub z_max: i8,
    /// Blocks with a bad index entry (skipped; see `Statics::validate` for the reasons).
    pub bad_blocks: u64,
}

impl fmt::Debug for StaticsStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StaticsStats")
            .field("count", &self.count)
            .field("histogram", &PreviewTable(&self.histogram))
            .field("z_min", &self.z_min)
            .field("z_max", &self.z_max)
            .field("bad_blocks", &self.bad_blocks)
            .finish()
    }
}

impl StaticsStats {
    fn new() -> Self {
        StaticsStats {
            count: 0,
            histogram: Vec::new(),
            z_min: i8::MAX,
            z_max: i8::MIN,
            bad_blocks: 0,
        }
    }

    /// Counts the statics of `blocks`, in locals: the histogram lives on the heap, and
    /// counters kept in `self` would be stored and reloaded around every increment.
    // Counts of cells and records held in memory: below 2^64, they cannot overflow.
    #[allow(clippy::arithmetic_side_effects)]
    fn tally(statics: &Statics<'_>, blocks: std::ops::Range<usize>) -> Self {
        let mut stats = StaticsStats::new();
        let (mut count, mut bad, mut lo, mut hi) = (0u64, 0u64, i8::MAX, i8::MIN);
        let histogram = &mut stats.histogram;
        for block in blocks {
            let Ok(list) = statics.block(block) else {
                bad += 1;
                continue;
            };
            list.for_each(|s| {
                count += 1;
                bump(histogram, s.id.get(), 1);
                lo = lo.min(s.z);
                hi = hi.max(s.z);
            });
        }
        (stats.count, stats.bad_blocks) = (count, bad);
        (stats.z_min, stats.z_max) = (lo, hi);
        stats
    }

    #[cfg(feature = "parallel")]
    // Counts of cells and records held in memory: below 2^64, they cannot overflow.
    #[allow(clippy::arithmetic_side_effects)]
    fn merge(mut self, other: Self) -> Self {
        self.count += other.count;
        self.bad_blocks += other.bad_blocks;
        merge_tally(&mut self.histogram, &other.histogram);
        (self.z_min, self.z_max) = (self.z_min.min(other.z_min), self.z_max.max(other.z_max));
        self
    }

    /// The `n` most common ids as (id, count), most common first, ties by id.
    pub fn top(&self, n: usize) -> Vec<(u16, u64)> {
        top_ids(&self.histogram, n)
    }

    /// Statics with item id `id`.
    pub fn count_of(&self, id: u16) -> u64 {
        self.histogram.get(usize::from(id)).copied().unwrap_or(0)
    }
}

/// Statics figures over the first `blocks` index entries (the map's block count).
pub fn statics_stats(statics: &Statics<'_>, blocks: usize) -> StaticsStats {
    StaticsStats::tally(statics, 0..blocks)
}

/// [`statics_stats`] with the index spread over rayon's pool; the same result.
#[cfg(feature = "parallel")]
pub fn statics_stats_par(statics: &Statics<'_>, blocks: usize) -> StaticsStats {
    let piece = min_len(blocks, 2);
    (0..blocks.div_ceil(piece))
        .into_par_iter()
        .map(|i| {
            let start = i.saturating_mul(piece);
            StaticsStats::tally(statics, start..blocks.min(start.saturating_add(piece)))
        })
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

/// The statics of `block` for which `wanted` is true; none when the block cannot be read.
fn found_in_block<'a, W: Fn(&StaticRecord) -> bool + ?Sized>(
    statics: &Statics<'a>,
    size: MapSize,
    block: usize,
    wanted: &'a W,
) -> impl Iterator<Item = FoundStatic> + use<'a, W> {
    let (list, (bx, by)) = match (statics.block(block), size.block_coords(block)) {
        (Ok(list), Some(coords)) => (Some(list), coords),
        _ => (None, (0, 0)),
    };
    list.into_iter()
        .flatten()
        .filter(move |s| wanted(s))
        .map(move |s| FoundStatic {
            // bx and by are inside the map, whose size in tiles fits a u32
            // (MapSize::from_blocks); a static's x or y past 7 is not checked here.
            x: bx.saturating_mul(8).saturating_add(u32::from(s.x)),
            y: by.saturating_mul(8).saturating_add(u32::from(s.y)),
            z: s.z,
            id: s.id.get(),
            hue: s.hue.get(),
        })
}

/// Every static for which `wanted` is true, in block order then file order: what
/// [`find_statics`] collects, one at a time as the blocks are read, so that a caller can
/// stream, stop early or count without holding the list. Blocks that cannot be read are
/// passed over (`Statics::validate` lists them).
pub fn statics_found<'a, W: Fn(&StaticRecord) -> bool>(
    statics: Statics<'a>,
    size: MapSize,
    wanted: &'a W,
) -> impl Iterator<Item = FoundStatic> + 'a {
    (0..size.blocks()).flat_map(move |b| found_in_block(&statics, size, b, wanted))
}

/// Every static for which `wanted` is true, in block order then file order.
pub fn find_statics(
    statics: &Statics<'_>,
    size: MapSize,
    wanted: impl Fn(&StaticRecord) -> bool,
) -> Vec<FoundStatic> {
    statics_found(statics.clone(), size, &wanted).collect()
}

/// [`find_statics`] over rayon's pool; the same result in the same order.
#[cfg(feature = "parallel")]
pub fn find_statics_par(
    statics: &Statics<'_>,
    size: MapSize,
    wanted: impl Fn(&StaticRecord) -> bool + Sync,
) -> Vec<FoundStatic> {
    (0..size.blocks())
        .into_par_iter()
        .with_min_len(min_len(size.blocks(), 4))
        .flat_map_iter(|b| found_in_block(statics, size, b, &wanted))
        .collect()
}

/// Adds `n` to the count of `id`, growing the histogram to reach it. Accumulators start
/// empty and only grow as far as the largest id they meet (land ids stay below 0x4000), so
/// a scan makes and merges small tables, not 65,536 counters each.
#[inline]
#[allow(clippy::arithmetic_side_effects)] // Counts of records in memory: below 2^64.
fn bump(histogram: &mut Vec<u64>, id: u16, n: u64) {
    let i = usize::from(id);
    if let Some(count) = histogram.get_mut(i) {
        *count += n;
    } else {
        grow_and_bump(histogram, i, n);
    }
}

#[cold]
#[allow(clippy::arithmetic_side_effects)] // i is a u16: i + 1 fits; counts as in bump.
fn grow_and_bump(histogram: &mut Vec<u64>, i: usize, n: u64) {
    histogram.resize(i + 1, 0);
    if let Some(count) = histogram.get_mut(i) {
        *count += n;
    }
}

/// Adds histogram `other` into `into`.
#[cfg(feature = "parallel")]
#[allow(clippy::arithmetic_side_effects)] // Counts of records in memory: below 2^64.
fn merge_tally(into: &mut Vec<u64>, other: &[u64]) {
    if other.len() > into.len() {
        into.resize(other.len(), 0);
    }
    for (a, b) in into.iter_mut().zip(other) {
        *a += b;
    }
}

/// The smallest piece of `items` a task takes: `per_thread` pieces a thread, so that the
/// histogram accumulators are made and merged a few times per thread, not per item,
/// while a thread slowed by other work can still hand pieces over (measured on 2 cores: 4
/// for the map's columns, 2 for the statics' blocks).
#[cfg(feature = "parallel")]
fn min_len(items: usize, per_thread: usize) -> usize {
    let pieces = rayon::current_num_threads().saturating_mul(per_thread);
    items.checked_div(pieces).unwrap_or(items).max(1)
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
