//! Stretched land as the graphics card draws it, under this project's stated rules: the
//! quad's two triangles, counter-clockwise ones culled, the top-left rule at quarter-pixel
//! sample points, the texel chosen exactly, the normal interpolated and the client's light.
//! Rules: `docs/formats/uo.md`, "The client's world view (isometric)", "What the graphics
//! card decides".

// Pixel arithmetic on i64 screen coordinates of u32 tiles and u16 sides, and on f32 colour
// values between 0 and 255: far from overflow; f32 to u8 after clamping to 0..=255.
#![allow(clippy::arithmetic_side_effects)]
#![allow(clippy::cast_possible_truncation)]
#![allow(clippy::cast_sign_loss)]
#![allow(clippy::cast_precision_loss)]

use super::scene::Window;

/// A window's RGBA pixels, row-major; or, `dry`, no pixels: painting only notes whether
/// it would draw one.
pub(super) struct Canvas<'b> {
    pub(super) pixels: &'b mut [u8],
    pub(super) window: Window,
    /// Paint nothing, only note `touched`.
    pub(super) dry: bool,
    /// A pixel was drawn (or would be, when dry) since this was last cleared.
    pub(super) touched: bool,
}

impl Canvas<'_> {
    /// The byte offset of world pixel (x, y), which must be inside the window.
    #[inline]
    fn at(&self, x: i64, y: i64) -> usize {
        let width = self.window.x1 - self.window.x0;
        usize::try_from(((y - self.window.y0) * width + (x - self.window.x0)) * 4).unwrap_or(0)
    }

    /// Sets pixel (x, y) to `rgb`, opaque.
    #[inline]
    pub(super) fn set(&mut self, x: i64, y: i64, rgb: [u8; 3]) {
        self.touched = true;
        if self.dry {
            return;
        }
        let at = self.at(x, y);
        if let Some(px) = self.pixels.get_mut(at..at + 4) {
            px.copy_from_slice(&[rgb[0], rgb[1], rgb[2], 0xFF]);
        }
    }

    /// Blends `rgb` over pixel (x, y) at `alpha` (premultiplied: `rgb` x alpha + below x
    /// (1 - alpha), below black where nothing was drawn), rounded, opaque.
    #[inline]
    pub(super) fn blend(&mut self, x: i64, y: i64, rgb: [f32; 3], alpha: f32) {
        self.touched = true;
        if self.dry {
            return;
        }
        let at = self.at(x, y);
        if let Some(px) = self.pixels.get_mut(at..at + 4) {
            for (c, v) in px.iter_mut().zip(rgb) {
                *c = round(v * alpha + f32::from(*c) * (1.0 - alpha));
            }
            if let Some(a) = px.get_mut(3) {
                *a = 0xFF;
            }
        }
    }
}

/// `v` rounded to the nearest integer (halves up) and clamped to 0..=255 (the cast
/// saturates below 0).
#[inline]
fn round(v: f32) -> u8 {
    (v + 0.5).min(255.0) as u8
}

/// A texture map's pixels as the client's 8-bit colours.
pub(super) struct TexPicture {
    pub(super) side: usize,
    pub(super) rgb: Vec<[u8; 3]>,
}

/// `TerrainShadowsLevel` 15 times 0.1 (`GameScene.cs`).
const BRIGHTLIGHT: f32 = 1.5;

/// `get_light`'s level at 45 degrees.
const LEVEL: f32 = 0.853_553_4;

/// `get_light` for the interpolated normal `n`.
#[inline]
fn light(n: [f32; 3]) -> f32 {
    // normalize(0, 1, 1): (0, 1 / sqrt 2, 1 / sqrt 2); its x adds nothing to the dot.
    const L: f32 = std::f32::consts::FRAC_1_SQRT_2;
    let k = 1.0 / (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    let base = (n[1] * k * L + n[2] * k * L).max(0.0) / 2.0 + 0.5;
    base + ((BRIGHTLIGHT * (base - LEVEL)) - (base - LEVEL))
}

/// A corner of a triangle: its position in quarter pixels (moved a quarter pixel left and
/// up), its texture coordinate and its normal.
#[derive(Clone, Copy)]
struct Vertex {
    q: [i64; 2],
    st: [f32; 2],
    n: [f32; 3],
}

/// A stretched land tile: the quad's two triangles (top, right, left) and (right, bottom,
/// left), each drawn when it runs clockwise on the screen.
pub(super) fn stretched(
    canvas: &mut Canvas<'_>,
    texmap: &TexPicture,
    corners: [[i64; 2]; 4],
    normals: [[f32; 3]; 4],
) {
    let st = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]];
    let v: Vec<Vertex> = (0..4)
        .map(|i| Vertex {
            q: corners
                .get(i)
                .map_or([0, 0], |c| [4 * c[0] - 1, 4 * c[1] - 1]),
            st: st.get(i).copied().unwrap_or([0.0; 2]),
            n: normals.get(i).copied().unwrap_or([0.0, 0.0, 1.0]),
        })
        .collect();
    if let [top, right, left, bottom] = v[..] {
        triangle(canvas, texmap, [top, right, left]);
        triangle(canvas, texmap, [right, bottom, left]);
    }
}

/// The edge function of a -> b at p: positive on the inside of a clockwise triangle.
#[inline]
fn edge(a: [i64; 2], b: [i64; 2], p: [i64; 2]) -> i64 {
    (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
}

/// Whether edge a -> b of a clockwise triangle is a top edge (level, the triangle below) or
/// a left one (rising): a sample point on it is inside.
#[inline]
fn top_left(a: [i64; 2], b: [i64; 2]) -> bool {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    dy < 0 || (dy == 0 && dx > 0)
}

/// The first pixel column at or right of `x0` (when `step` > 0) or the last at or left of
/// it (`step` < 0) where `e0 + (x - x0) step >= min`; `None` when no column is (`step` 0
/// and `e0` below `min`), `Some(None)` when every column is.
#[inline]
fn bound(e0: i64, step: i64, min: i64) -> Option<Option<i64>> {
    if step == 0 {
        return (e0 >= min).then_some(None);
    }
    if step > 0 {
        // The least d with e0 + d step >= min: ceil((min - e0) / step).
        let need = min - e0;
        return Some(Some(
            need.div_euclid(step) + i64::from(need.rem_euclid(step) != 0),
        ));
    }
    // The greatest d with e0 + d step >= min: floor((e0 - min) / -step).
    Some(Some((e0 - min).div_euclid(-step)))
}

/// One triangle of a stretched tile, rasterised into the canvas: row by row, the span of
/// columns whose sample points are inside, each pixel's weights from the exact edge values.
fn triangle(canvas: &mut Canvas<'_>, texmap: &TexPicture, [a, b, c]: [Vertex; 3]) {
    let area = edge(a.q, b.q, c.q);
    if area <= 0 {
        return;
    }
    let side = texmap.side;
    let w = canvas.window;
    // Pixel x's sample point is 4 x + 2 in quarter pixels.
    let lo = |m: i64| (m - 2).div_euclid(4) + i64::from((m - 2).rem_euclid(4) != 0);
    let hi = |m: i64| (m - 2).div_euclid(4);
    let x0 = lo(a.q[0].min(b.q[0]).min(c.q[0])).max(w.x0);
    let x1 = hi(a.q[0].max(b.q[0]).max(c.q[0])).min(w.x1 - 1);
    let y0 = lo(a.q[1].min(b.q[1]).min(c.q[1])).max(w.y0);
    let y1 = hi(a.q[1].max(b.q[1]).max(c.q[1])).min(w.y1 - 1);
    if x0 > x1 || y0 > y1 {
        return;
    }
    // Edges opposite a, b and c: a point on an edge is inside when the edge is top-left,
    // so the edge value must reach 0 there, else 1 (edge values are integers).
    let edges = [(b.q, c.q), (c.q, a.q), (a.q, b.q)];
    let mins = edges.map(|(p, q)| i64::from(!top_left(p, q)));
    // A pixel to the right adds -(dy) x 4 to an edge's value.
    let steps = edges.map(|(p, q)| -(q[1] - p[1]) * 4);
    let inv = 1.0 / area as f32;
    // The normal's change a pixel to the right.
    let (da, db, dc) = (
        steps[0] as f32 * inv,
        steps[1] as f32 * inv,
        steps[2] as f32 * inv,
    );
    let dn = [0usize, 1, 2].map(|i| {
        da * a.n.get(i).copied().unwrap_or(0.0)
            + db * b.n.get(i).copied().unwrap_or(0.0)
            + dc * c.n.get(i).copied().unwrap_or(0.0)
    });
    // Which corners have texture coordinate s (t) 1.
    let s_one = [a.st[0] > 0.5, b.st[0] > 0.5, c.st[0] > 0.5];
    let t_one = [a.st[1] > 0.5, b.st[1] > 0.5, c.st[1] > 0.5];
    let stride = (w.x1 - w.x0) as usize * 4;
    for y in y0..=y1 {
        let p = [4 * x0 + 2, 4 * y + 2];
        let e0 = edges.map(|(a, b)| edge(a, b, p));
        let (mut first, mut last) = (x0, x1);
        let mut empty = false;
        for ((e, step), min) in e0.into_iter().zip(steps).zip(mins) {
            match bound(e, step, min) {
                None => empty = true,
                Some(None) => {}
                Some(Some(d)) if step > 0 => first = first.max(x0 + d),
                Some(Some(d)) => last = last.min(x0 + d),
            }
        }
        if empty || first > last {
            continue;
        }
        let skip = first - x0;
        let e = [
            e0[0] + skip * steps[0],
            e0[1] + skip * steps[1],
            e0[2] + skip * steps[2],
        ];
        let row = (y - w.y0) as usize * stride;
        // The texel under the sample point, exactly: floor(0.5 + s (side - 1)) with s =
        // (the edge values of the corners whose s is 1) / area, stepped along the row.
        let mut u = Texel::new(e, steps, s_one, area, side);
        let mut v = Texel::new(e, steps, t_one, area, side);
        // The normal at the span's first pixel from its exact weights, then stepped: it is
        // linear along the row.
        let (wa, wb, wc) = (e[0] as f32 * inv, e[1] as f32 * inv, e[2] as f32 * inv);
        let mut n = [0usize, 1, 2].map(|i| {
            wa * a.n.get(i).copied().unwrap_or(0.0)
                + wb * b.n.get(i).copied().unwrap_or(0.0)
                + wc * c.n.get(i).copied().unwrap_or(0.0)
        });
        let at0 = row + (first - w.x0) as usize * 4;
        let end = row + (last + 1 - w.x0) as usize * 4;
        if canvas.dry {
            canvas.touched = true;
            return;
        }
        canvas.touched = true;
        let Some(out) = canvas.pixels.get_mut(at0..end) else {
            continue;
        };
        for px in out.chunks_exact_mut(4) {
            let (col, line) = (
                (u.q.max(0) as usize).min(side - 1),
                (v.q.max(0) as usize).min(side - 1),
            );
            let rgb = texmap.rgb.get(line * side + col).copied().unwrap_or([0; 3]);
            let k = light(n);
            px.copy_from_slice(&[scale(rgb[0], k), scale(rgb[1], k), scale(rgb[2], k), 0xFF]);
            n = [n[0] + dn[0], n[1] + dn[1], n[2] + dn[2]];
            u.step();
            v.step();
        }
    }
}

/// floor((area + 2 (side - 1) S) / (2 area)) for S, the sum of the picked edge values,
/// stepped a pixel at a time as a quotient and remainder.
struct Texel {
    q: i64,
    r: i64,
    dq: i64,
    dr: i64,
    d: i64,
}

impl Texel {
    #[inline]
    fn new(e: [i64; 3], steps: [i64; 3], pick: [bool; 3], area: i64, side: usize) -> Self {
        let k = 2 * (side as i64 - 1);
        let (mut sum, mut step) = (0, 0);
        for ((e, s), pick) in e.into_iter().zip(steps).zip(pick) {
            if pick {
                sum += e;
                step += s;
            }
        }
        let d = 2 * area;
        let num = area + k * sum;
        let inc = k * step;
        Texel {
            q: num.div_euclid(d),
            r: num.rem_euclid(d),
            dq: inc.div_euclid(d),
            dr: inc.rem_euclid(d),
            d,
        }
    }

    #[inline]
    fn step(&mut self) {
        self.q += self.dq;
        self.r += self.dr;
        if self.r >= self.d {
            self.q += 1;
            self.r -= self.d;
        }
    }
}

/// Channel `v` times the light `k`, rounded to the nearest integer, at most 255.
#[inline]
fn scale(v: u8, k: f32) -> u8 {
    (f32::from(v) * k + 0.5).min(255.0) as u8
}

/// The pixels [`triangle`] covers for corners `q` (quarter pixels) in a window of
/// -40..40 a side, row by row: for the tests.
#[cfg(test)]
pub(super) fn coverage_for_tests(q: [[i64; 2]; 3]) -> Vec<(i64, i64)> {
    let window = Window {
        x0: -40,
        y0: -40,
        x1: 40,
        y1: 40,
    };
    let mut pixels = vec![0u8; 80 * 80 * 4];
    let mut canvas = Canvas {
        pixels: &mut pixels,
        window,
        dry: false,
        touched: false,
    };
    let texmap = TexPicture {
        side: 64,
        rgb: vec![[255; 3]; 64 * 64],
    };
    let v = q.map(|q| Vertex {
        q,
        st: [0.0; 2],
        n: [0.0, 0.0, 1.0],
    });
    triangle(&mut canvas, &texmap, v);
    let mut out = Vec::new();
    for y in -40..40i64 {
        for x in -40..40i64 {
            let at = usize::try_from(((y + 40) * 80 + x + 40) * 4 + 3).unwrap_or(0);
            if pixels.get(at) == Some(&0xFF) {
                out.push((x, y));
            }
        }
    }
    out
}
