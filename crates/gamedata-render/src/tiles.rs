//! Web map tiles: a picture cut into the XYZ pyramid that slippy-map viewers (Leaflet,
//! OpenLayers) load, `{z}/{x}/{y}.png` of 256 x 256 pixels.
//!
//! The deepest native zoom holds the picture at full size (one UO map tile a pixel, one
//! game pixel a pixel for WWD and Cosmo); zoom 0 holds all of it in one tile; each level
//! between is made from the one below, a 2 x 2 average of its pixels (transparent pixels,
//! past the picture's edge, left out of the colour). Levels past the native zoom
//! (`max_zoom`) magnify the native tiles, each pixel doubled a level. Tiles wholly outside
//! the picture are not made. The pyramid is built depth first over rayon's pool, so memory
//! holds a few tiles a level and thread, whatever the picture's size. [`pyramid_tile`]
//! makes one tile on demand, the same pixels (a web page asks for the tiles it shows).

// Tile coordinates and sizes: zoom levels are at most 30 and pictures at most 2^28 pixels,
// so tile positions times 256 stay far below u64's range; the sums of 4 pixels' channels
// fit u32.
#![allow(clippy::arithmetic_side_effects)]

use rayon::prelude::*;

use crate::{Region, RenderError, Result, RgbaImage};

/// Pixels a tile side.
pub const TILE: u32 = 256;

/// The highest zoom a pyramid may have (native or magnified).
pub const MAX_ZOOM: u8 = 24;

pub use crate::picture::TileSource;
pub use one::{TileCache, pyramid_tile, pyramid_tile_cached};

mod one;

/// The zoom levels of a picture's pyramid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Levels {
    /// The picture's width in pixels at the native zoom.
    pub width: u32,
    /// The picture's height in pixels at the native zoom.
    pub height: u32,
    /// The zoom where a pixel is a pixel of the picture: the least `z` with
    /// `256 * 2^z` at least the picture's longer side.
    pub native: u8,
    /// The deepest zoom made (at least `native`).
    pub max: u8,
}

impl Levels {
    /// The levels of a `width` x `height` picture, magnified up to `max_zoom` (the native
    /// zoom when `None` or below it).
    ///
    /// Returns [`RenderError::TooLarge`] for an empty picture or a zoom past [`MAX_ZOOM`].
    pub fn new(width: u32, height: u32, max_zoom: Option<u8>) -> Result<Self> {
        let longest = width.max(height);
        let too_large = RenderError::TooLarge {
            width: u64::from(width),
            height: u64::from(height),
            max: crate::MAX_PIXELS,
        };
        if width == 0 || height == 0 {
            return Err(too_large);
        }
        let mut native = 0u8;
        while u64::from(TILE) << native < u64::from(longest) {
            native += 1;
        }
        let max = max_zoom.unwrap_or(native).max(native);
        if max > MAX_ZOOM {
            return Err(too_large);
        }
        Ok(Levels {
            width,
            height,
            native,
            max,
        })
    }

    /// The picture's width and height in pixels at zoom `z`.
    pub fn size_at(&self, z: u8) -> (u64, u64) {
        let (w, h) = (u64::from(self.width), u64::from(self.height));
        if z >= self.native {
            let k = z - self.native;
            (w << k, h << k)
        } else {
            let k = self.native - z;
            (w.div_ceil(1 << k), h.div_ceil(1 << k))
        }
    }

    /// Tiles across and down at zoom `z`.
    pub fn tiles_at(&self, z: u8) -> (u64, u64) {
        let (w, h) = self.size_at(z);
        (w.div_ceil(u64::from(TILE)), h.div_ceil(u64::from(TILE)))
    }

    /// Whether tile (`x`, `y`) of zoom `z` holds part of the picture.
    pub fn has(&self, z: u8, x: u64, y: u64) -> bool {
        let (across, down) = self.tiles_at(z);
        z <= self.max && x < across && y < down
    }

    /// Tiles in the whole pyramid.
    pub fn tile_count(&self) -> u64 {
        (0..=self.max)
            .map(|z| {
                let (a, d) = self.tiles_at(z);
                a * d
            })
            .sum()
    }
}

/// The callback [`build_pyramid`] hands each tile to: zoom, x, y and the 256 x 256 tile;
/// it returns the caller's error type `E`.
pub type WriteTile<'a, E> = dyn Fn(u8, u64, u64, &RgbaImage) -> Result<(), E> + Sync + 'a;

/// Builds the pyramid of `source` up to `levels.max` and hands each tile to `write` (zoom,
/// x, y, the 256 x 256 tile, transparent past the picture's edge) as it is made, from
/// rayon's threads; tiles wholly outside the picture are not made. Returns the tiles
/// written.
///
/// `write` returns the caller's own error type `E` (an `anyhow::Error`, an `io::Error`
/// wrapper, [`RenderError`] itself): the renderer's errors become `E` through `From`, so
/// a failed write comes back as it was made.
///
/// Returns the first error of `source` or `write`.
pub fn build_pyramid<E: From<RenderError> + Send>(
    source: &dyn TileSource,
    levels: Levels,
    write: &WriteTile<'_, E>,
) -> Result<u64, E> {
    let builder = Builder {
        source,
        levels,
        write,
    };
    Ok(builder.tile(0, 0, 0)?.map_or(0, |(_, n)| n))
}

struct Builder<'a, E> {
    source: &'a dyn TileSource,
    levels: Levels,
    write: &'a WriteTile<'a, E>,
}

impl<E: From<RenderError> + Send> Builder<'_, E> {
    /// Tile (z, x, y) and, below it, everything it covers; returns the tile and the tiles
    /// written, `None` outside the picture.
    fn tile(&self, z: u8, x: u64, y: u64) -> Result<Option<(RgbaImage, u64)>, E> {
        if !self.levels.has(z, x, y) {
            return Ok(None);
        }
        let (image, below) = if z == self.levels.native {
            let Some(image) = native_tile(self.source, &self.levels, x, y)? else {
                return Ok(None);
            };
            let below = self.magnify(z, x, y, &image)?;
            (image, below)
        } else {
            let children: Vec<Result<Option<(RgbaImage, u64)>, E>> =
                [(0, 0), (1, 0), (0, 1), (1, 1)]
                    .into_par_iter()
                    .map(|(dx, dy)| self.tile(z + 1, 2 * x + dx, 2 * y + dy))
                    .collect();
            let mut image = RgbaImage::new(TILE, TILE, [0; 4])?;
            let mut below = 0;
            let mut any = false;
            for ((dx, dy), child) in [(0, 0), (1, 0), (0, 1), (1, 1)].into_iter().zip(children) {
                if let Some((child, n)) = child? {
                    shrink_into(&mut image, &child, dx * TILE / 2, dy * TILE / 2);
                    below += n;
                    any = true;
                }
            }
            // Every tile inside the picture has its first child inside it too: only a
            // source's empty tiles leave a tile with none.
            if !any {
                return Ok(None);
            }
            (image, below)
        };
        (self.write)(z, x, y, &image)?;
        Ok(Some((image, below + 1)))
    }

    /// The magnified tiles under native tile (z, x, y), each level from the one above;
    /// returns how many were written.
    fn magnify(&self, z: u8, x: u64, y: u64, image: &RgbaImage) -> Result<u64, E> {
        if z >= self.levels.max {
            return Ok(0);
        }
        let counts: Vec<Result<u64, E>> = [(0u32, 0u32), (1, 0), (0, 1), (1, 1)]
            .into_par_iter()
            .map(|(dx, dy)| {
                let (cx, cy) = (2 * x + u64::from(dx), 2 * y + u64::from(dy));
                if !self.levels.has(z + 1, cx, cy) {
                    return Ok(0);
                }
                let child = grow(image, dx * TILE / 2, dy * TILE / 2)?;
                (self.write)(z + 1, cx, cy, &child)?;
                Ok(1 + self.magnify(z + 1, cx, cy, &child)?)
            })
            .collect();
        counts.into_iter().sum()
    }
}

/// The native tile (x, y): the picture's pixels, transparent past its edge; `None`
/// when the source says it is empty, or it is wholly transparent and the source does
/// not write such tiles.
fn native_tile(
    source: &dyn TileSource,
    levels: &Levels,
    x: u64,
    y: u64,
) -> Result<Option<RgbaImage>> {
    let Some(region) = native_region(levels, x, y) else {
        return RgbaImage::new(TILE, TILE, [0; 4]).map(Some);
    };
    if source.is_empty(region) {
        return Ok(None);
    }
    let part = source.draw(region)?;
    if !source.writes_transparent() && part.pixels.chunks_exact(4).all(|p| p.get(3) == Some(&0)) {
        return Ok(None);
    }
    if (part.width, part.height) == (TILE, TILE) {
        return Ok(Some(part));
    }
    let mut tile = RgbaImage::new(TILE, TILE, [0; 4])?;
    for row in 0..part.height {
        let (Some(from), Some(to)) = (part.row(row), tile.row_mut(row)) else {
            continue;
        };
        if let Some(to) = to.get_mut(..from.len()) {
            to.copy_from_slice(from);
        }
    }
    Ok(Some(tile))
}

/// The region of native tile (x, y), cut at the picture's edge; `None` past `u32`.
fn native_region(levels: &Levels, x: u64, y: u64) -> Option<Region> {
    let (w, h) = (levels.width, levels.height);
    let x0 = u32::try_from(x.checked_mul(u64::from(TILE))?).ok()?;
    let y0 = u32::try_from(y.checked_mul(u64::from(TILE))?).ok()?;
    Some(Region::new(
        x0,
        y0,
        TILE.min(w.saturating_sub(x0)),
        TILE.min(h.saturating_sub(y0)),
    ))
}

/// The tiles [`build_pyramid`] writes for `source` at `levels`: every tile of every level,
/// less those over the native tiles the source says are empty ([`TileSource::is_empty`];
/// tiles that come out wholly transparent and are not written cannot be known before
/// drawing, and are counted).
pub fn pyramid_tiles(source: &dyn TileSource, levels: &Levels) -> u64 {
    let (across, down) = levels.tiles_at(levels.native);
    let (Ok(a), Ok(d)) = (usize::try_from(across), usize::try_from(down)) else {
        return levels.tile_count();
    };
    // Native tiles kept, row by row; each level above keeps a tile when a child is kept.
    let mut kept: Vec<bool> = (0..d)
        .flat_map(|y| (0..a).map(move |x| (x, y)))
        .map(|(x, y)| {
            native_region(levels, x as u64, y as u64).is_none_or(|region| !source.is_empty(region))
        })
        .collect();
    let mut count = 0u64;
    // The levels past the native one: each kept native tile's descendants inside them.
    for (i, &k) in kept.iter().enumerate() {
        if !k {
            continue;
        }
        let (x, y) = ((i % a) as u64, (i / a) as u64);
        count += 1;
        for z in levels.native + 1..=levels.max {
            let shift = z - levels.native;
            let (za, zd) = levels.tiles_at(z);
            let span = |v: u64, n: u64| ((v + 1) << shift).min(n).saturating_sub(v << shift);
            count += span(x, za) * span(y, zd);
        }
    }
    let (mut a, mut d) = (a, d);
    for _ in 0..levels.native {
        let (pa, pd) = (a.div_ceil(2), d.div_ceil(2));
        let mut parent = vec![false; pa * pd];
        for (i, &k) in kept.iter().enumerate() {
            if k {
                let (x, y) = (i % a, i / a);
                if let Some(p) = parent.get_mut((y / 2) * pa + x / 2) {
                    *p = true;
                }
            }
        }
        count += parent.iter().filter(|&&k| k).count() as u64;
        (kept, a, d) = (parent, pa, pd);
    }
    count
}

/// `image` halved in each direction (its sides even): each pixel the average of 2 x 2 as
/// the pyramid's levels are made, the colour over the opaque ones, the alpha over all four.
pub(crate) fn halve(image: &RgbaImage) -> Result<RgbaImage> {
    let (w, h) = (image.width / 2, image.height / 2);
    let mut out = RgbaImage::new(w.max(1), h.max(1), [0; 4])?;
    for y in 0..h {
        let (Some(top), Some(bottom), Some(row)) =
            (image.row(2 * y), image.row(2 * y + 1), out.row_mut(y))
        else {
            continue;
        };
        let (top, bottom) = (top.as_chunks::<8>().0, bottom.as_chunks::<8>().0);
        for (p, (t, b)) in row
            .as_chunks_mut::<4>()
            .0
            .iter_mut()
            .zip(top.iter().zip(bottom))
        {
            if let Some(q) = shrink_quad(t, b) {
                *p = q;
            }
        }
    }
    Ok(out)
}

/// Writes `child` (256 x 256) shrunk to 128 x 128 into `image` at (`x0`, `y0`): each pixel
/// the average of 2 x 2, the colour over the opaque ones, the alpha over all four.
fn shrink_into(image: &mut RgbaImage, child: &RgbaImage, x0: u32, y0: u32) {
    let at = x0 as usize * 4;
    for y in 0..TILE / 2 {
        let (Some(top), Some(bottom), Some(out)) = (
            child.row(2 * y),
            child.row(2 * y + 1),
            image.row_mut(y0 + y),
        ) else {
            continue;
        };
        let Some(out) = out.get_mut(at..at + TILE as usize * 2) else {
            continue;
        };
        let (pairs, below) = (top.as_chunks::<8>().0, bottom.as_chunks::<8>().0);
        let out = out.as_chunks_mut::<4>().0;
        if opaque(pairs) && opaque(below) {
            // The inside of a picture: each channel's mean, alpha 255, four channels at a
            // time in 16-bit lanes of a u64 (a loop the compiler vectorizes).
            for (p, (t, b)) in out.iter_mut().zip(pairs.iter().zip(below)) {
                let (t, b) = (u64::from_le_bytes(*t), u64::from_le_bytes(*b));
                let sum = lanes(t) + lanes(t >> 32) + lanes(b) + lanes(b >> 32);
                *p = (unlanes(sum >> 2) | 0xFF00_0000).to_le_bytes();
            }
            continue;
        }
        for (p, (t, b)) in out.iter_mut().zip(pairs.iter().zip(below)) {
            if let Some(q) = shrink_quad(t, b) {
                *p = q;
            }
        }
    }
}

/// Whether both pixels of every pair are opaque (alpha 255).
fn opaque(pairs: &[[u8; 8]]) -> bool {
    // Folded whole, not stopped at the first pixel that is not: a loop the compiler
    // vectorizes.
    const ALPHAS: u64 = 0xFF00_0000_FF00_0000;
    pairs
        .iter()
        .fold(ALPHAS, |all, pair| all & u64::from_le_bytes(*pair))
        == ALPHAS
}

/// The pixel in the low 32 bits of `x` (red, green, blue, alpha from the lowest byte)
/// spread into 16-bit lanes: red in bits 0 to 15, blue 16 to 31, green 32 to 47, alpha 48
/// to 63; sums of four such are each channel's sum (at most 1,020, within its lane).
#[inline]
fn lanes(x: u64) -> u64 {
    (x & 0x00FF_00FF) | ((x & 0xFF00_FF00) << 24)
}

/// [`lanes`] undone: the low byte of each lane back in its place in a pixel.
#[inline]
fn unlanes(x: u64) -> u32 {
    u32::try_from((x & 0x00FF_00FF) | ((x >> 24) & 0xFF00_FF00)).unwrap_or(0)
}

/// The average of two pixels of `top` and the two below them in `bottom`: the colour over
/// the opaque ones (alpha not 0), the alpha over all four; `None` when none is.
#[inline]
fn shrink_quad(top: &[u8; 8], bottom: &[u8; 8]) -> Option<[u8; 4]> {
    let (mut rgb, mut alpha, mut opaque) = ([0u32; 3], 0u32, 0u32);
    for &[r, g, b, a] in top
        .as_chunks::<4>()
        .0
        .iter()
        .chain(bottom.as_chunks::<4>().0)
    {
        alpha += u32::from(a);
        if a > 0 {
            opaque += 1;
            for (c, v) in rgb.iter_mut().zip([r, g, b]) {
                *c += u32::from(v);
            }
        }
    }
    if opaque == 0 {
        return None;
    }
    let [r, g, b] = rgb.map(|c| u8::try_from(c / opaque).unwrap_or(u8::MAX));
    Some([r, g, b, u8::try_from(alpha / 4).unwrap_or(u8::MAX)])
}

/// The quarter of `parent` from (`x0`, `y0`), 128 x 128 pixels, doubled to 256 x 256.
fn grow(parent: &RgbaImage, x0: u32, y0: u32) -> Result<RgbaImage> {
    let mut tile = RgbaImage::new(TILE, TILE, [0; 4])?;
    for y in 0..TILE {
        for x in 0..TILE {
            if let Some(p) = parent.get(x0 + x / 2, y0 + y / 2) {
                tile.set(x, y, p);
            }
        }
    }
    Ok(tile)
}

#[cfg(test)]
// Test values are small by construction: casts cut nothing.
#[allow(clippy::cast_possible_truncation)]
mod tests {
    use std::collections::BTreeMap;
    use std::sync::Mutex;

    use super::*;

    /// The rule written again: the colour over the pixels whose alpha is not 0, the alpha
    /// over all four, each rounded down; nothing when none is.
    fn quad_by_the_rule(pixels: [[u8; 4]; 4]) -> Option<[u8; 4]> {
        let drawn: Vec<[u8; 4]> = pixels.iter().copied().filter(|p| p[3] != 0).collect();
        if drawn.is_empty() {
            return None;
        }
        let mean = |c: usize| {
            let sum: u32 = drawn.iter().map(|p| u32::from(p[c])).sum();
            (sum / drawn.len() as u32) as u8
        };
        let alpha: u32 = pixels.iter().map(|p| u32::from(p[3])).sum();
        Some([mean(0), mean(1), mean(2), (alpha / 4) as u8])
    }

    /// A xorshift generator from `state` (not 0): test pixels, the same each run.
    fn xorshift(mut state: u32) -> impl FnMut() -> u32 {
        move || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        }
    }

    #[test]
    fn a_quad_shrinks_by_the_rule_opaque_or_not() {
        let mut next = xorshift(0x2545_F491);
        for round in 0..20_000 {
            let mut pixels = [[0u8; 4]; 4];
            for p in &mut pixels {
                let v = next().to_le_bytes();
                // Mostly opaque, as inside a picture; else transparent or part.
                let alpha = match round % 4 {
                    0 | 1 => 255,
                    2 => [0, 255, 128, 1][(v[3] % 4) as usize],
                    _ => v[3],
                };
                *p = [v[0], v[1], v[2], alpha];
            }
            let pair = |a: [u8; 4], b: [u8; 4]| -> [u8; 8] {
                let mut p = [0; 8];
                p[..4].copy_from_slice(&a);
                p[4..].copy_from_slice(&b);
                p
            };
            let top = pair(pixels[0], pixels[1]);
            let bottom = pair(pixels[2], pixels[3]);
            assert_eq!(
                shrink_quad(&top, &bottom),
                quad_by_the_rule(pixels),
                "{pixels:?}"
            );
        }
        // 255 x 4 stays 255; 1 + 2 + 3 + 4 rounds down.
        let top = [255u8, 1, 9, 255, 255, 1, 9, 255];
        assert_eq!(shrink_quad(&top, &top), Some([255, 1, 9, 255]));
        let (t, b) = ([1, 0, 0, 255, 2, 0, 0, 255], [3, 0, 0, 255, 4, 0, 0, 255]);
        assert_eq!(shrink_quad(&t, &b), Some([2, 0, 0, 255]));
    }

    #[test]
    fn a_child_shrinks_by_the_rule_in_opaque_rows_and_the_others() {
        let mut next = xorshift(0x9E37_79B9);
        let mut child = RgbaImage::new(TILE, TILE, [0; 4]).expect("a tile");
        for y in 0..TILE {
            for x in 0..TILE {
                let v = next().to_le_bytes();
                // Rows 0 to 100 and 151 opaque (so that rows 100 and 101, and 150 and
                // 151, pair an opaque row with another); the rest to 199 with one pixel
                // in 16 transparent or part, and rows 200 on mostly transparent.
                let alpha = match (y, v[3] % 16) {
                    (0..=100 | 151, _) => 255,
                    (101..200, 0) => v[3] / 2,
                    (101..200, _) => 255,
                    (_, 1) => 255,
                    _ => 0,
                };
                child.set(x, y, [v[0], v[1], v[2], alpha]);
            }
        }
        let mut image = RgbaImage::new(TILE, TILE, [7, 7, 7, 7]).expect("a tile");
        shrink_into(&mut image, &child, TILE / 2, 0);
        for y in 0..TILE {
            for x in 0..TILE {
                let got = image.get(x, y).expect("inside");
                if x < TILE / 2 || y >= TILE / 2 {
                    assert_eq!(got, [7; 4], "({x}, {y}) outside the quarter is untouched");
                    continue;
                }
                let (cx, cy) = (2 * (x - TILE / 2), 2 * y);
                let quad = [(0, 0), (1, 0), (0, 1), (1, 1)]
                    .map(|(dx, dy)| child.get(cx + dx, cy + dy).expect("inside"));
                let want = quad_by_the_rule(quad).unwrap_or([7; 4]);
                assert_eq!(got, want, "({x}, {y}) from {quad:?}");
            }
        }
    }

    /// A picture whose pixel (x, y) is (x % 256, y % 256, (x / 256 + y / 256) % 256, 255).
    struct Ramp(u32, u32);

    impl TileSource for Ramp {
        fn size(&self) -> (u32, u32) {
            (self.0, self.1)
        }

        fn draw(&self, r: Region) -> Result<RgbaImage> {
            let mut image = RgbaImage::new(r.width, r.height, [0; 4])?;
            for y in 0..r.height {
                for x in 0..r.width {
                    let (px, py) = (r.x + x, r.y + y);
                    let c = [px % 256, py % 256, (px / 256 + py / 256) % 256].map(|v| v as u8);
                    image.set(x, y, [c[0], c[1], c[2], 255]);
                }
            }
            Ok(image)
        }
    }

    fn build(source: &Ramp, max: Option<u8>) -> BTreeMap<(u8, u64, u64), RgbaImage> {
        let (w, h) = source.size();
        let levels = Levels::new(w, h, max).unwrap();
        let tiles = Mutex::new(BTreeMap::new());
        let n = build_pyramid(source, levels, &|z, x, y, t| -> Result<(), RenderError> {
            tiles.lock().unwrap().insert((z, x, y), t.clone());
            Ok(())
        })
        .unwrap();
        let tiles = tiles.into_inner().unwrap();
        assert_eq!(n as usize, tiles.len());
        assert_eq!(levels.tile_count(), n);
        tiles
    }

    /// The caller's own error type comes back from a failed write as it was made, and the
    /// renderer's errors become it through `From`.
    #[test]
    fn a_write_error_comes_back_as_the_caller_made_it() {
        #[derive(Debug, PartialEq)]
        enum Mine {
            Disk(u8, u64, u64),
            Render(String),
        }
        impl From<RenderError> for Mine {
            fn from(e: RenderError) -> Self {
                Mine::Render(e.to_string())
            }
        }
        let source = Ramp(600, 300);
        let levels = Levels::new(600, 300, None).unwrap();
        let result = build_pyramid(&source, levels, &|z, x, y, _| match (z, x, y) {
            (z, 2, 1) if z == levels.native => Err(Mine::Disk(z, 2, 1)),
            _ => Ok(()),
        });
        assert_eq!(result, Err(Mine::Disk(levels.native, 2, 1)));
        struct Broken;
        impl TileSource for Broken {
            fn size(&self) -> (u32, u32) {
                (300, 300)
            }
            fn draw(&self, _: Region) -> Result<RgbaImage> {
                Err(RenderError::Scale { scale: 0 })
            }
        }
        let result = build_pyramid(
            &Broken,
            Levels::new(300, 300, None).unwrap(),
            &|_, _, _, _| Ok::<(), Mine>(()),
        );
        assert!(
            matches!(&result, Err(Mine::Render(m)) if m.contains("scale of 0")),
            "{result:?}"
        );
    }

    #[test]
    fn levels_count_the_tiles_of_each_zoom() {
        let l = Levels::new(7168, 4096, None).unwrap();
        assert_eq!(l.native, 5, "256 * 32 = 8192 covers 7168");
        assert_eq!(l.tiles_at(5), (28, 16));
        assert_eq!(l.tiles_at(4), (14, 8));
        assert_eq!(l.tiles_at(0), (1, 1));
        assert_eq!(l.tile_count(), 448 + 112 + 28 + 8 + 2 + 1);
        let m = Levels::new(300, 20, Some(3)).unwrap();
        assert_eq!((m.native, m.max), (1, 3));
        assert_eq!(m.size_at(3), (1200, 80));
        assert_eq!(m.tiles_at(3), (5, 1));
        assert!(Levels::new(0, 5, None).is_err());
        assert!(Levels::new(5, 5, Some(MAX_ZOOM + 1)).is_err());
    }

    #[test]
    fn native_tiles_are_the_picture_and_each_level_averages_the_one_below() {
        let source = Ramp(600, 300);
        let tiles = build(&source, None);
        // Native zoom 2 (1024 >= 600): 3 x 2 tiles; zoom 1: 2 x 1; zoom 0: 1.
        let keys: Vec<_> = tiles.keys().copied().collect();
        assert_eq!(
            keys,
            [
                (0, 0, 0),
                (1, 0, 0),
                (1, 1, 0),
                (2, 0, 0),
                (2, 0, 1),
                (2, 1, 0),
                (2, 1, 1),
                (2, 2, 0),
                (2, 2, 1)
            ]
        );
        // Native pixels are the source's, transparent past the edge.
        let t = &tiles[&(2, 2, 1)];
        assert_eq!(
            t.get(10, 20),
            Some([(512 + 10) as u8, (256 + 20) as u8, 3, 255])
        );
        assert_eq!(t.get(88, 20), Some([0, 0, 0, 0]), "x 600 is past the edge");
        assert_eq!(t.get(10, 44), Some([0, 0, 0, 0]), "y 300 is past the edge");
        // Zoom 1, pixel (5, 7): the average of native pixels (10..12, 14..16).
        let z1 = &tiles[&(1, 0, 0)];
        assert_eq!(z1.get(5, 7), Some([10, 14, 0, 255]));
        // Zoom 1 pixel (149, 0) covers native x 298, 299 (both in tile 1).
        assert_eq!(z1.get(149, 0), Some([42, 0, 1, 255]));
        // At the edge: zoom 1 pixel (10, 150) covers native rows 300, 301, past the edge.
        assert_eq!(z1.get(10, 150), Some([0, 0, 0, 0]));
        // Zoom 0 is zoom 1 averaged again: pixel (0, 0) covers native (0..4, 0..4).
        assert_eq!(tiles[&(0, 0, 0)].get(0, 0), Some([1, 1, 0, 255]));
    }

    #[test]
    fn magnified_levels_double_each_pixel() {
        let source = Ramp(200, 100);
        let tiles = build(&source, Some(2));
        // Native zoom 0; zoom 1 is 400 x 200 pixels: 2 x 1 tiles; zoom 2, 800 x 400: 4 x 2.
        assert_eq!(tiles.len(), 1 + 2 + 8);
        assert_eq!(tiles[&(1, 0, 0)].get(21, 31), tiles[&(0, 0, 0)].get(10, 15));
        assert_eq!(tiles[&(2, 3, 1)].get(0, 0), tiles[&(0, 0, 0)].get(192, 64));
        assert_eq!(tiles[&(2, 3, 1)].get(7, 3), tiles[&(0, 0, 0)].get(193, 64));
    }
}
