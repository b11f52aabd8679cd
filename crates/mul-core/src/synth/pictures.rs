//! The drawable world's pictures, drawn procedurally: land tiles (44 x 44 diamonds) and
//! texture maps (64 x 64 or 128 x 128) of each terrain, and item pictures of recognisable
//! shapes (`docs/formats/uo.md`, "Synthetic world"). They are the same for every seed.

// Generators: their arithmetic is on picture sides below 256 and small constants.
#![allow(clippy::arithmetic_side_effects)]
// Colours are built from 5-bit channels and coordinates below 256: the casts cut nothing.
#![allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]

use crate::art::LAND_PIXELS;

/// A 15-bit colour from 5-bit channels (each taken mod 32).
pub(crate) const fn rgb(r: u16, g: u16, b: u16) -> u16 {
    ((r & 31) << 10) | ((g & 31) << 5) | (b & 31)
}

/// A grey of 5-bit level `v` (red, green and blue equal: a partial hue changes it).
const fn grey(v: u16) -> u16 {
    rgb(v, v, v)
}

/// A small hash of a pixel's place, 0..256, for speckles that look random but are fixed.
fn speckle(x: u32, y: u32, salt: u32) -> u32 {
    let mut h = x
        .wrapping_mul(0x9E37_79B1)
        .wrapping_add(y.wrapping_mul(0x85EB_CA77))
        .wrapping_add(salt.wrapping_mul(0xC2B2_AE3D));
    h ^= h >> 15;
    h = h.wrapping_mul(0x2C1B_3C6D);
    h ^= h >> 12;
    h & 0xFF
}

/// The terrains a land tile or texture map shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Terrain {
    Water,
    Shallows,
    Sand,
    Grass,
    Forest,
    Dirt,
    Rock,
    Snow,
    Lava,
}

/// Terrain `t`'s colour at (x, y) of a picture `side` pixels across (the pattern scales
/// with the side, so a texture map looks like the land tile).
fn terrain_colour(t: Terrain, x: u32, y: u32, side: u32) -> u16 {
    // Coordinates on a 44-pixel scale, so each terrain's grain is the same on every side.
    let (sx, sy) = (x * 44 / side, y * 44 / side);
    let s = speckle(sx, sy, t as u32);
    match t {
        Terrain::Water => {
            if (sx + 2 * sy) % 11 == 0 {
                rgb(7, 14, 27)
            } else {
                rgb(2, 7 + (s % 3) as u16, 20)
            }
        }
        Terrain::Shallows => {
            if s < 40 {
                rgb(22, 21, 13)
            } else {
                rgb(5, 17, 19 + (s % 2) as u16)
            }
        }
        Terrain::Sand => {
            if s < 50 {
                rgb(24, 21, 12)
            } else {
                rgb(28, 25, 16)
            }
        }
        Terrain::Grass => rgb(7 + (s % 3) as u16, 19 + (s % 4) as u16, 5),
        Terrain::Forest => {
            if s < 70 {
                rgb(2, 8, 2)
            } else {
                rgb(4, 12 + (s % 2) as u16, 3)
            }
        }
        Terrain::Dirt => {
            if s < 60 {
                rgb(13, 8, 4)
            } else {
                rgb(17, 11, 6)
            }
        }
        Terrain::Rock => {
            if (sx + sy) % 9 == 0 || s < 30 {
                grey(10)
            } else {
                grey(15 + (s % 3) as u16)
            }
        }
        Terrain::Snow => {
            if s < 40 {
                rgb(26, 28, 31)
            } else {
                rgb(30, 30, 31)
            }
        }
        Terrain::Lava => {
            if (sx + sy / 2) % 7 == 0 || s < 25 {
                rgb(31, 27, 6)
            } else {
                rgb(29, 12 + (s % 4) as u16, 1)
            }
        }
    }
}

/// A land tile of terrain `t`: its 1,012 diamond pixels row by row (`docs/formats/uo.md`,
/// "Art": rows 0 to 21 hold 2, 4, ... 44 pixels from x = 21, 20, ... 0; rows 22 to 43 hold
/// 44, 42, ... 2 from x = 0, 1, ... 21).
pub(crate) fn land_tile(t: Terrain) -> Vec<u16> {
    let mut out = Vec::with_capacity(LAND_PIXELS);
    for y in 0..44u32 {
        let (start, count) = if y < 22 {
            (21 - y, 2 * (y + 1))
        } else {
            (y - 22, 2 * (44 - y))
        };
        out.extend((start..start + count).map(|x| terrain_colour(t, x, y, 44)));
    }
    out
}

/// A texture map of terrain `t`, `side` x `side` pixels (64 or 128) row by row.
pub(crate) fn texmap(t: Terrain, side: u32) -> Vec<u16> {
    (0..side * side)
        .map(|i| terrain_colour(t, i % side, i / side, side))
        .collect()
}

/// An item picture being drawn: `width` x `height` pixels, 0 transparent.
pub(crate) struct Canvas {
    pub(crate) width: u16,
    pub(crate) height: u16,
    pub(crate) pixels: Vec<u16>,
}

impl Canvas {
    fn new(width: u16, height: u16) -> Self {
        Canvas {
            width,
            height,
            pixels: vec![0; usize::from(width) * usize::from(height)],
        }
    }

    /// Sets pixel (x, y) to `f(x, y)` (a colour of 0 is made 1: 0 is transparent); a place
    /// outside is ignored, so `f` sees only coordinates inside the picture.
    fn put(&mut self, x: i32, y: i32, f: &impl Fn(i32, i32) -> u16) {
        if x < 0 || y < 0 || x >= i32::from(self.width) || y >= i32::from(self.height) {
            return;
        }
        let i = y as usize * usize::from(self.width) + x as usize;
        if let Some(p) = self.pixels.get_mut(i) {
            *p = f(x, y).max(1);
        }
    }

    /// Sets pixel (x, y) to `c`, as [`Canvas::put`].
    fn set(&mut self, x: i32, y: i32, c: u16) {
        self.put(x, y, &|_, _| c);
    }

    /// Fills the rectangle from (x0, y0) to (x1, y1), exclusive, with `f(x, y)`.
    fn rect(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, f: impl Fn(i32, i32) -> u16) {
        for y in y0..y1 {
            for x in x0..x1 {
                self.put(x, y, &f);
            }
        }
    }

    /// Fills the ellipse centred at (cx, cy) with half-axes rx and ry with `f(x, y)`.
    fn ellipse(&mut self, cx: i32, cy: i32, rx: i32, ry: i32, f: impl Fn(i32, i32) -> u16) {
        let (rx, ry) = (rx.max(1), ry.max(1));
        for y in cy - ry..=cy + ry {
            for x in cx - rx..=cx + rx {
                let (dx, dy) = (i64::from(x - cx), i64::from(y - cy));
                let (a, b) = (i64::from(rx), i64::from(ry));
                if dx * dx * b * b + dy * dy * a * a <= a * a * b * b {
                    self.put(x, y, &f);
                }
            }
        }
    }

    /// Fills the diamond of a 44 x 22 tile top whose top corner is at (cx, y0) with `f`.
    fn diamond(&mut self, cx: i32, y0: i32, f: impl Fn(i32, i32) -> u16) {
        for r in 0..22 {
            let half = if r < 11 { 2 * r + 2 } else { 2 * (22 - r) };
            for x in cx - half..cx + half {
                self.put(x, y0 + r, &f);
            }
        }
    }

    /// An isometric block: a 44 x 22 top diamond at `y0`, and its two side faces `depth`
    /// pixels down, the left one in `left(x, y)`, the right one in `right(x, y)`.
    fn block(
        &mut self,
        y0: i32,
        depth: i32,
        top: impl Fn(i32, i32) -> u16,
        left: impl Fn(i32, i32) -> u16,
        right: impl Fn(i32, i32) -> u16,
    ) {
        for x in 0..44 {
            // The faces' top edge follows the diamond's lower edges.
            let edge = if x < 22 {
                y0 + 11 + x / 2
            } else {
                y0 + 11 + (43 - x) / 2
            };
            for y in edge..edge + depth {
                if x < 22 {
                    self.put(x, y, &left);
                } else {
                    self.put(x, y, &right);
                }
            }
        }
        self.diamond(22, y0, top);
    }
}

/// The item pictures the drawable world places.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Shape {
    /// A tree: a brown trunk and a crown of one of four greens.
    Tree(u8),
    Bush,
    Boulder,
    Wall,
    Floor,
    Roof,
    Lamp,
    Gold,
    Crate,
    Barrel,
    Rug,
    Table,
    Vase,
    Banner,
    Crystal,
    Puddle,
    Tower,
    /// A magenta cross on the ids the client never draws (0x0001, 0x21BC): seen, it shows
    /// a renderer drew what the client skips.
    Marker,
}

/// The picture of `shape`.
pub(crate) fn item(shape: Shape) -> Canvas {
    let trunk = |_, y: i32| rgb(11 + (y % 3) as u16, 7, 3);
    match shape {
        Shape::Tree(kind) => {
            let k = i32::from(kind % 4);
            let (w, h) = (44 + 2 * k, 100 + 4 * k);
            let mut c = Canvas::new(w as u16, h as u16);
            c.rect(w / 2 - 3, h - 40, w / 2 + 3, h - 2, trunk);
            let greens = [(3, 14, 3), (5, 17, 4), (2, 11, 5), (6, 15, 2)];
            let (r, g, b) = greens
                .get(usize::from(kind % 4))
                .copied()
                .unwrap_or((3, 14, 3));
            c.ellipse(w / 2, 32 + k, w / 2 - 1, 30 + k, |x, y| {
                if speckle(x as u32, y as u32, 7) < 60 {
                    rgb(r / 2, g - 4, b / 2)
                } else {
                    rgb(r, g, b)
                }
            });
            c
        }
        Shape::Bush => {
            let mut c = Canvas::new(32, 24);
            c.ellipse(16, 13, 15, 10, |x, y| {
                rgb(4, 14 + (speckle(x as u32, y as u32, 3) % 4) as u16, 3)
            });
            c
        }
        Shape::Boulder => {
            let mut c = Canvas::new(36, 28);
            c.ellipse(18, 15, 17, 12, |x, y| grey(12 + ((x + y) % 5) as u16));
            c
        }
        Shape::Wall => {
            // A brick block: red bricks in pure-grey mortar.
            let brick = |x: i32, y: i32| {
                let row = y / 5;
                let shift = if row % 2 == 0 { 0 } else { 5 };
                if y % 5 == 0 || (x + shift) % 10 == 0 {
                    grey(18)
                } else {
                    rgb(20, 7, 5)
                }
            };
            let mut c = Canvas::new(44, 86);
            c.block(0, 64, |_, _| grey(20), brick, |x, y| brick(x, y) & !0x0421);
            c
        }
        Shape::Floor => {
            let mut c = Canvas::new(44, 22);
            c.diamond(22, 0, |x, y| {
                if (x + 2 * y) % 8 == 0 {
                    rgb(12, 8, 4)
                } else {
                    rgb(19, 13, 7)
                }
            });
            c
        }
        Shape::Roof => {
            let mut c = Canvas::new(44, 30);
            c.block(
                0,
                8,
                |_, y| rgb(22 - (y % 4) as u16, 6, 4),
                |_, _| rgb(14, 4, 3),
                |_, _| rgb(11, 3, 2),
            );
            c
        }
        Shape::Lamp => {
            let mut c = Canvas::new(12, 90);
            c.rect(5, 12, 7, 90, |_, _| grey(6));
            c.rect(2, 86, 10, 90, |_, _| grey(4));
            c.ellipse(6, 7, 5, 6, |_, _| rgb(31, 28, 10));
            c
        }
        Shape::Gold => {
            let mut c = Canvas::new(16, 12);
            for (cx, cy) in [(5, 7), (10, 6), (8, 3)] {
                c.ellipse(cx, cy, 4, 3, |x, _| rgb(29, 23, 4 + (x % 2) as u16));
            }
            c
        }
        Shape::Crate => {
            let mut c = Canvas::new(44, 50);
            let plank = |_: i32, y: i32| {
                if y % 7 == 0 {
                    rgb(10, 6, 2)
                } else {
                    rgb(20, 14, 7)
                }
            };
            c.block(
                0,
                28,
                |_, _| rgb(23, 17, 9),
                plank,
                move |x, y| plank(x, y) & !0x0842,
            );
            c
        }
        Shape::Barrel => {
            let mut c = Canvas::new(30, 40);
            c.rect(2, 6, 28, 35, |_, y| {
                if y % 9 == 3 { grey(9) } else { rgb(17, 10, 4) }
            });
            c.ellipse(15, 6, 13, 5, |_, _| rgb(13, 8, 3));
            c.ellipse(15, 35, 13, 4, |_, _| rgb(15, 9, 4));
            c
        }
        Shape::Rug => {
            let mut c = Canvas::new(44, 22);
            c.diamond(22, 0, |x, y| {
                if (x + y) % 6 < 2 {
                    rgb(28, 24, 8)
                } else {
                    rgb(20, 3, 5)
                }
            });
            c
        }
        Shape::Table => {
            let mut c = Canvas::new(44, 40);
            c.block(
                0,
                4,
                |_, _| rgb(21, 14, 7),
                |_, _| rgb(14, 9, 4),
                |_, _| rgb(11, 7, 3),
            );
            for x in [4, 20, 24, 40] {
                c.rect(x - 1, 20, x + 1, 38, |_, _| rgb(11, 7, 3));
            }
            c
        }
        Shape::Vase => {
            // All grey: a full hue and a partial hue both change every pixel of it.
            let mut c = Canvas::new(20, 32);
            c.ellipse(10, 20, 9, 11, |x, _| grey(10 + (x / 2) as u16));
            c.rect(6, 2, 14, 10, |x, _| grey(12 + (x / 3) as u16));
            c.rect(4, 0, 16, 3, |_, _| grey(24));
            c
        }
        Shape::Banner => {
            // A brown pole (kept by a partial hue) with a grey cloth (hued by it).
            let mut c = Canvas::new(24, 70);
            c.rect(2, 0, 5, 70, |_, _| rgb(12, 7, 3));
            c.rect(5, 4, 23, 40, |x, y| grey(14 + ((x + y) % 8) as u16));
            c.rect(5, 40, 14, 48, |x, _| grey(14 + (x % 4) as u16));
            c
        }
        Shape::Crystal => {
            let mut c = Canvas::new(30, 60);
            for y in 0..60 {
                let half = if y < 20 {
                    y * 14 / 20
                } else {
                    (60 - y) * 14 / 40
                };
                c.rect(15 - half, y, 15 + half + 1, y + 1, |x, _| {
                    if x < 15 {
                        rgb(18, 28, 31)
                    } else {
                        rgb(12, 22, 30)
                    }
                });
            }
            c
        }
        Shape::Puddle => {
            let mut c = Canvas::new(40, 20);
            c.ellipse(20, 10, 19, 8, |x, y| {
                if (x + 2 * y) % 9 == 0 {
                    rgb(10, 18, 29)
                } else {
                    rgb(4, 10, 24)
                }
            });
            c
        }
        Shape::Tower => {
            // 44 x 220: a stone column (pure greys) with windows and a red cap.
            let mut c = Canvas::new(44, 220);
            c.rect(6, 30, 38, 208, |x, y| {
                if y % 12 == 0 || (x + if (y / 12) % 2 == 0 { 0 } else { 6 }) % 12 == 0 {
                    grey(9)
                } else {
                    grey(17 + ((x + y) % 3) as u16)
                }
            });
            for wy in [60, 110, 160] {
                c.rect(18, wy, 26, wy + 14, |_, _| rgb(4, 4, 10));
            }
            c.block(190, 8, |_, _| grey(20), |_, _| grey(13), |_, _| grey(10));
            for y in 0..30 {
                let half = y * 20 / 30 + 2;
                c.rect(22 - half, y, 22 + half, y + 1, |_, _| rgb(22, 5, 4));
            }
            c
        }
        Shape::Marker => {
            let mut c = Canvas::new(30, 30);
            for i in 0..30 {
                for d in -1..=1 {
                    c.set(i + d, i, rgb(31, 0, 31));
                    c.set(29 - i + d, i, rgb(31, 0, 31));
                }
            }
            c
        }
    }
}
