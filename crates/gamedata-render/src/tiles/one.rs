//! One tile of a pyramid, made on demand (a web page asks for the tiles it shows, one at a
//! time): the same pixels [`build_pyramid`](super::build_pyramid) hands its callback for
//! that tile, made the same way from the same source.

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
/// picture. Returns `Err` as the source's drawing.
pub fn pyramid_tile(
    source: &dyn TileSource,
    levels: &Levels,
    z: u8,
    x: u64,
    y: u64,
) -> Result<Option<RgbaImage>> {
    if !levels.has(z, x, y) {
        return Ok(None);
    }
    if z == levels.native {
        return native_tile(source, levels, x, y);
    }
    if z > levels.native {
        // The tile above, its quarter under this one doubled.
        let Some(parent) = pyramid_tile(source, levels, z - 1, x / 2, y / 2)? else {
            return Ok(None);
        };
        let half = TILE / 2;
        let (qx, qy) = (u32::from(x % 2 == 1) * half, u32::from(y % 2 == 1) * half);
        return grow(&parent, qx, qy).map(Some);
    }
    let mut image = RgbaImage::new(TILE, TILE, [0; 4])?;
    let mut any = false;
    for (dx, dy) in [(0u32, 0u32), (1, 0), (0, 1), (1, 1)] {
        let (cx, cy) = (2 * x + u64::from(dx), 2 * y + u64::from(dy));
        if let Some(child) = pyramid_tile(source, levels, z + 1, cx, cy)? {
            shrink_into(&mut image, &child, dx * TILE / 2, dy * TILE / 2);
            any = true;
        }
    }
    Ok(any.then_some(image))
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
