//! One tile of a pyramid, made on demand (a web page asks for the tiles it shows, one at a
//! time): the same pixels [`build_pyramid`](super::build_pyramid) hands its callback for
//! that tile, made the same way from the same source.

use std::collections::{BTreeMap, HashMap};

use super::{Levels, TILE, grow, native_tile, shrink_into};
use crate::{Result, RgbaImage, TileSource};

/// Tile (`x`, `y`) of zoom `z` of the pyramid of `source` at `levels`, exactly as
/// [`build_pyramid`](super::build_pyramid) makes it: at the native zoom the region drawn
/// (transparent past the picture's edge); below it the four tiles under it shrunk into
/// it, each made the same way; past it the native tile above it magnified.
///
/// Returns `Ok(None)` for a tile the pyramid does not write: outside the picture or past
/// `levels.max`, over native tiles the source says are empty, or (for a source that does not
/// write them) wholly transparent.
///
/// A tile below the native zoom draws every native tile under it: zoom 0 draws the whole
/// picture ([`pyramid_tile_cached`] keeps the tiles made for the next call). Returns `Err`
/// as the source's drawing.
pub fn pyramid_tile(
    source: &dyn TileSource,
    levels: &Levels,
    z: u8,
    x: u64,
    y: u64,
) -> Result<Option<RgbaImage>> {
    pyramid_tile_cached(source, levels, z, x, y, &mut TileCache::new(0))
}

/// [`pyramid_tile`], keeping in `cache` the tiles it makes (the one asked for and those
/// under or above it that it needs) and using those already there: a viewer that zooms out
/// over tiles it has shown draws none of them again. The pixels are [`pyramid_tile`]'s.
///
/// The cache belongs to one source and one `levels`: give each map its own (or
/// [`TileCache::clear`] it when the map changes).
pub fn pyramid_tile_cached(
    source: &dyn TileSource,
    levels: &Levels,
    z: u8,
    x: u64,
    y: u64,
    cache: &mut TileCache,
) -> Result<Option<RgbaImage>> {
    if !levels.has(z, x, y) {
        return Ok(None);
    }
    if let Some(tile) = cache.get(z, x, y) {
        return Ok(tile);
    }
    let tile = if z == levels.native {
        native_tile(source, levels, x, y)?
    } else if z > levels.native {
        // The tile above, its quarter under this one doubled.
        match pyramid_tile_cached(source, levels, z - 1, x / 2, y / 2, cache)? {
            Some(parent) => {
                let half = TILE / 2;
                let (qx, qy) = (u32::from(x % 2 == 1) * half, u32::from(y % 2 == 1) * half);
                Some(grow(&parent, qx, qy)?)
            }
            None => None,
        }
    } else {
        let mut image = RgbaImage::new(TILE, TILE, [0; 4])?;
        let mut any = false;
        for (dx, dy) in [(0u32, 0u32), (1, 0), (0, 1), (1, 1)] {
            let (cx, cy) = (2 * x + u64::from(dx), 2 * y + u64::from(dy));
            if let Some(child) = pyramid_tile_cached(source, levels, z + 1, cx, cy, cache)? {
                shrink_into(&mut image, &child, dx * TILE / 2, dy * TILE / 2);
                any = true;
            }
        }
        any.then_some(image)
    };
    cache.put(z, x, y, tile.as_ref());
    Ok(tile)
}

/// The bytes a cached "no tile" counts for (its key and bookkeeping).
const ABSENT_COST: usize = 64;

/// Tiles made by [`pyramid_tile_cached`], kept within a budget of bytes: when a new tile
/// would pass it, the least recently used go first. A tile counts its pixels' bytes
/// (256 KiB), a tile not written 64 bytes; a budget of 0 keeps nothing.
#[derive(Debug, Default)]
pub struct TileCache {
    budget: usize,
    used: usize,
    clock: u64,
    /// Each tile kept and when it was last used.
    tiles: HashMap<(u8, u64, u64), (Option<RgbaImage>, u64)>,
    /// Last use to tile: the order of eviction.
    order: BTreeMap<u64, (u8, u64, u64)>,
}

impl TileCache {
    /// An empty cache that holds at most `budget` bytes of tiles.
    pub fn new(budget: usize) -> Self {
        Self {
            budget,
            ..Self::default()
        }
    }

    /// The tiles kept (written or not).
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// True when no tile is kept.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// The bytes the tiles kept count for, at most the budget.
    pub fn bytes(&self) -> usize {
        self.used
    }

    /// Forgets every tile.
    pub fn clear(&mut self) {
        self.tiles.clear();
        self.order.clear();
        self.used = 0;
    }

    /// The tile kept for (z, x, y), a copy, marked as just used: `Some(None)` for a tile
    /// known not to be written, `None` when it is not kept.
    fn get(&mut self, z: u8, x: u64, y: u64) -> Option<Option<RgbaImage>> {
        self.clock += 1;
        let (tile, used) = self.tiles.get_mut(&(z, x, y))?;
        self.order.remove(used);
        *used = self.clock;
        self.order.insert(self.clock, (z, x, y));
        Some(tile.clone())
    }

    /// Keeps a copy of `tile` for (z, x, y), evicting the least recently used past the
    /// budget; a tile larger than the whole budget is not kept.
    fn put(&mut self, z: u8, x: u64, y: u64, tile: Option<&RgbaImage>) {
        let cost = tile.map_or(ABSENT_COST, |t| t.pixels.len() + ABSENT_COST);
        if cost > self.budget || self.tiles.contains_key(&(z, x, y)) {
            return;
        }
        while self.used + cost > self.budget {
            let Some((_, key)) = self.order.pop_first() else {
                break;
            };
            if let Some((old, _)) = self.tiles.remove(&key) {
                self.used -= old.map_or(ABSENT_COST, |t| t.pixels.len() + ABSENT_COST);
            }
        }
        self.clock += 1;
        self.tiles.insert((z, x, y), (tile.cloned(), self.clock));
        self.order.insert(self.clock, (z, x, y));
        self.used += cost;
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::sync::Mutex;

    use super::*;
    use crate::tiles::build_pyramid;
    use crate::{Region, RenderError};

    /// A picture of pseudo-random pixels (some transparent or part), with native tiles
    /// the source says are empty (`holes`) and, when `!transparent_written`, the rest of
    /// a column left wholly transparent so that the pyramid leaves those tiles out.
    struct Noise {
        width: u32,
        height: u32,
        holes: Vec<(u32, u32)>,
        transparent_written: bool,
    }

    impl TileSource for Noise {
        fn size(&self) -> (u32, u32) {
            (self.width, self.height)
        }

        fn draw(&self, r: Region) -> Result<RgbaImage> {
            let mut image = RgbaImage::new(r.width, r.height, [0; 4])?;
            for y in 0..r.height {
                for x in 0..r.width {
                    let (px, py) = (r.x + x, r.y + y);
                    // Native tile column 1 is wholly transparent.
                    if px / TILE == 1 {
                        continue;
                    }
                    let v = px.wrapping_mul(2_654_435_761) ^ py.wrapping_mul(40_503);
                    let [a, b, c, d] = v.to_le_bytes();
                    let alpha = match d % 8 {
                        0 => 0,
                        1 => d,
                        _ => 255,
                    };
                    image.set(x, y, [a, b, c, alpha]);
                }
            }
            Ok(image)
        }

        fn is_empty(&self, r: Region) -> bool {
            self.holes.contains(&(r.x / TILE, r.y / TILE))
        }

        fn writes_transparent(&self) -> bool {
            self.transparent_written
        }
    }

    /// Every tile of the pyramid, as build_pyramid hands them over.
    fn built(source: &Noise, levels: Levels) -> BTreeMap<(u8, u64, u64), RgbaImage> {
        let tiles = Mutex::new(BTreeMap::new());
        build_pyramid(source, levels, &|z, x, y, t| -> Result<(), RenderError> {
            if let Ok(mut tiles) = tiles.lock() {
                tiles.insert((z, x, y), t.clone());
            }
            Ok(())
        })
        .expect("the pyramid builds");
        tiles.into_inner().expect("no thread panicked")
    }

    #[test]
    fn each_tile_is_the_one_the_pyramid_writes() {
        for (width, height, max, holes, transparent_written) in [
            (600, 300, Some(4), vec![], true),
            (1000, 700, Some(3), vec![(3, 0), (0, 2)], true),
            (1000, 700, None, vec![(2, 2)], false),
            (200, 100, Some(2), vec![], false),
        ] {
            let source = Noise {
                width,
                height,
                holes,
                transparent_written,
            };
            let levels = Levels::new(width, height, max).expect("levels");
            let tiles = built(&source, levels);
            assert!(tiles.len() > 4, "{width} x {height}: {} tiles", tiles.len());
            let mut made = 0;
            for z in 0..=levels.max + 1 {
                let (across, down) = levels.tiles_at(z);
                for x in 0..across + 1 {
                    for y in 0..down + 1 {
                        let one = pyramid_tile(&source, &levels, z, x, y).expect("drawn");
                        let want = tiles.get(&(z, x, y));
                        assert_eq!(
                            one.as_ref().map(|t| &t.pixels),
                            want.map(|t| &t.pixels),
                            "{width} x {height}, tile {z}/{x}/{y}"
                        );
                        made += usize::from(one.is_some());
                    }
                }
            }
            assert_eq!(made, tiles.len(), "{width} x {height}: every tile made");
        }
    }

    #[test]
    fn cached_tiles_are_the_uncached_ones_whatever_the_budget() {
        let source = Noise {
            width: 1000,
            height: 700,
            holes: vec![(2, 2)],
            transparent_written: false,
        };
        let levels = Levels::new(1000, 700, Some(4)).expect("levels");
        let tile_cost = (TILE * TILE * 4) as usize + ABSENT_COST;
        for budget in [0, ABSENT_COST, tile_cost, 3 * tile_cost, 1 << 30] {
            let mut cache = TileCache::new(budget);
            // Out and in again, and across: every tile twice, in an order that reuses.
            for pass in 0..2 {
                for z in (0..=levels.max + 1).rev() {
                    let (across, down) = levels.tiles_at(z);
                    for x in 0..=across {
                        for y in 0..=down {
                            let cached = pyramid_tile_cached(&source, &levels, z, x, y, &mut cache)
                                .expect("drawn");
                            let plain = pyramid_tile(&source, &levels, z, x, y).expect("drawn");
                            assert_eq!(
                                cached.as_ref().map(|t| &t.pixels),
                                plain.as_ref().map(|t| &t.pixels),
                                "budget {budget}, pass {pass}, tile {z}/{x}/{y}"
                            );
                            assert!(cache.bytes() <= budget, "budget {budget}");
                        }
                    }
                }
            }
            assert_eq!(cache.is_empty(), budget < ABSENT_COST, "budget {budget}");
        }
    }

    /// A source that counts the native regions it draws.
    struct Counted {
        inner: Noise,
        draws: Mutex<u32>,
    }

    impl TileSource for Counted {
        fn size(&self) -> (u32, u32) {
            self.inner.size()
        }
        fn draw(&self, r: Region) -> Result<RgbaImage> {
            if let Ok(mut n) = self.draws.lock() {
                *n += 1;
            }
            self.inner.draw(r)
        }
    }

    fn draws(source: &Counted) -> u32 {
        *source.draws.lock().expect("not poisoned")
    }

    #[test]
    fn zooming_out_over_kept_tiles_draws_nothing_and_the_least_recent_go_first() {
        let source = Counted {
            inner: Noise {
                width: 1024,
                height: 512,
                holes: vec![],
                transparent_written: true,
            },
            draws: Mutex::new(0),
        };
        // Native zoom 2: 4 x 2 native tiles.
        let levels = Levels::new(1024, 512, None).expect("levels");
        assert_eq!(levels.native, 2);
        let tile_cost = (TILE * TILE * 4) as usize + ABSENT_COST;
        let mut cache = TileCache::new(16 * tile_cost);
        let get = |z, x, y, cache: &mut TileCache| {
            pyramid_tile_cached(&source, &levels, z, x, y, cache)
                .expect("drawn")
                .is_some()
        };
        for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            assert!(get(2, x, y, &mut cache));
        }
        assert_eq!(draws(&source), 4);
        // Zoom 1's left tile is made of the four kept: no drawing.
        assert!(get(1, 0, 0, &mut cache));
        assert_eq!(draws(&source), 4);
        // Zoom 0 draws only the four native tiles not yet kept.
        assert!(get(0, 0, 0, &mut cache));
        assert_eq!(draws(&source), 8);
        assert_eq!(cache.len(), 8 + 2 + 1);
        assert_eq!(cache.bytes(), 11 * tile_cost);
        // Again, from the cache: nothing drawn.
        assert!(get(0, 0, 0, &mut cache));
        assert_eq!(draws(&source), 8);

        // A budget of two tiles: the least recently used is the one to go.
        let mut small = TileCache::new(2 * tile_cost);
        assert!(get(2, 0, 0, &mut small));
        assert!(get(2, 1, 0, &mut small));
        assert!(get(2, 0, 0, &mut small)); // used again: (2, 1, 0) is now the older
        assert!(get(2, 2, 0, &mut small)); // evicts (2, 1, 0)
        let before = draws(&source);
        assert!(get(2, 0, 0, &mut small));
        assert_eq!(draws(&source), before, "(2, 0, 0) was kept");
        assert!(get(2, 1, 0, &mut small));
        assert_eq!(draws(&source), before + 1, "(2, 1, 0) was evicted");
        small.clear();
        assert!(small.is_empty());
        assert_eq!(small.bytes(), 0);
    }

    #[test]
    fn a_drawing_error_comes_back() {
        struct Broken;
        impl TileSource for Broken {
            fn size(&self) -> (u32, u32) {
                (300, 300)
            }
            fn draw(&self, _: Region) -> Result<RgbaImage> {
                Err(RenderError::Scale { scale: 0 })
            }
        }
        let levels = Levels::new(300, 300, None).expect("levels");
        let result = pyramid_tile(&Broken, &levels, 0, 0, 0);
        assert!(
            matches!(&result, Err(RenderError::Scale { scale: 0 })),
            "{result:?}"
        );
    }
}
