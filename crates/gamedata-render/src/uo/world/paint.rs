//! Painting the world view's objects into a window's pixels, in drawing order: land art
//! and statics copied pixel for pixel (hued, translucent), stretched land rasterised as the
//! graphics card does it under this project's stated rules.
//! Rules: `docs/formats/uo.md`, "The client's world view (isometric)".

// Pixel arithmetic on i64 screen coordinates of u32 tiles and u16 sides, and on f32 colour
// values between 0 and 255: far from overflow; f32 to u8 after clamping to 0..=255.
#![allow(clippy::arithmetic_side_effects)]
#![allow(clippy::cast_possible_truncation)]
#![allow(clippy::cast_sign_loss)]
#![allow(clippy::cast_precision_loss)]

use std::borrow::Cow;
use std::collections::HashMap;

use mul_core::raw::HueEntry;
use mul_core::{Art, Hues, ItemArt, Limits, Texmap, Texmaps};

use super::scene::{Op, What, Window};
use crate::uo::client::{CLIENT_LEVELS, client_rgb};

/// The land art's side.
const SIDE: i64 = 44;

/// `TerrainShadowsLevel` 15 times 0.1 (`GameScene.cs`).
const BRIGHTLIGHT: f32 = 1.5;

/// `get_light`'s level at 45 degrees.
const LEVEL: f32 = 0.853_553_4;

/// Alpha of a translucent static: 178 / 255.
const TRANSLUCENT: f32 = 178.0 / 255.0;

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
    fn set(&mut self, x: i64, y: i64, rgb: [u8; 3]) {
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
    fn blend(&mut self, x: i64, y: i64, rgb: [f32; 3], alpha: f32) {
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

/// A land tile's 44 x 44 pixels: colour | 0x10000 where drawn, 0 elsewhere.
struct LandPicture(Vec<u32>);

/// An item's pixels (colour 0: not drawn), rows `first` to `first + rows` of its picture
/// (all of them, unless the item is huge).
#[derive(Clone)]
struct ItemPicture {
    width: i64,
    first: i64,
    rows: i64,
    pixels: Vec<u16>,
}

/// A texture map's pixels as the client's 8-bit colours.
struct TexPicture {
    side: usize,
    rgb: Vec<[u8; 3]>,
}

/// The most bytes of decoded pictures a window keeps: past it the cache is emptied and
/// starts again (a hostile art file can make every picture large, or name thousands).
const CACHE_BYTES: usize = 32 << 20;

/// Items of more pixels than this are decoded for the rows a window shows alone, and not
/// kept: a picture's rows may all be one row of the file, so its size is not bounded by
/// the file's.
const HUGE_ITEM: u64 = 1 << 20;

/// The decoded pictures a window uses, each decoded once while the cache holds it.
pub(super) struct Pictures<'a, 'data> {
    art: &'a Art<'data>,
    texmaps: Option<&'a Texmaps<'data>>,
    hues: &'a Hues<'data>,
    limits: Limits,
    lands: HashMap<u16, Option<LandPicture>>,
    items: HashMap<u16, Option<ItemPicture>>,
    texs: HashMap<u16, Option<TexPicture>>,
    /// Bytes the three caches hold.
    bytes: usize,
}

impl<'a, 'data> Pictures<'a, 'data> {
    /// An empty cache over these files.
    pub(super) fn new(
        art: &'a Art<'data>,
        texmaps: Option<&'a Texmaps<'data>>,
        hues: &'a Hues<'data>,
        limits: Limits,
    ) -> Self {
        Pictures {
            art,
            texmaps,
            hues,
            limits,
            lands: HashMap::new(),
            items: HashMap::new(),
            texs: HashMap::new(),
            bytes: 0,
        }
    }

    /// Room for `bytes` more: the caches emptied first when they would pass
    /// [`CACHE_BYTES`].
    fn make_room(&mut self, bytes: usize) {
        if self.bytes.saturating_add(bytes) > CACHE_BYTES {
            self.lands.clear();
            self.items.clear();
            self.texs.clear();
            self.bytes = 0;
        }
        self.bytes = self.bytes.saturating_add(bytes);
    }

    fn land(&mut self, id: u16) -> Option<&LandPicture> {
        if !self.lands.contains_key(&id) {
            let picture = decode_land(self.art, id);
            self.make_room(picture.as_ref().map_or(0, |p| p.0.len() * 4));
            self.lands.insert(id, picture);
        }
        self.lands.get(&id)?.as_ref()
    }

    /// Item `id`, whole when it is not huge (kept), else rows `rows` of it (not kept).
    fn item(&mut self, id: u16, rows: (i64, i64)) -> Option<Cow<'_, ItemPicture>> {
        if !self.items.contains_key(&id) {
            let item = self.art.item(id).ok().flatten()?;
            let (w, h) = (item.width(), item.height());
            if u64::from(w) * u64::from(h) * 4 > self.limits.max_decoded_bytes || w == 0 || h == 0 {
                return None;
            }
            if u64::from(w) * u64::from(h) > HUGE_ITEM {
                return decode_item(&item, rows).map(Cow::Owned);
            }
            let picture = decode_item(&item, (0, i64::from(h)));
            self.make_room(picture.as_ref().map_or(0, |p| p.pixels.len() * 2));
            self.items.insert(id, picture);
        }
        self.items.get(&id)?.as_ref().map(Cow::Borrowed)
    }

    fn texmap(&mut self, tex: u16) -> Option<&TexPicture> {
        if !self.texs.contains_key(&tex) {
            let picture = (|| {
                let bytes = self.texmaps?.entry(u32::from(tex)).ok().flatten()?;
                let texmap = Texmap::parse(bytes).ok()?;
                Some(TexPicture {
                    side: texmap.side() as usize,
                    rgb: texmap
                        .pixels()
                        .iter()
                        .map(|c| client_rgb(c.get()))
                        .collect(),
                })
            })();
            self.make_room(picture.as_ref().map_or(0, |p| p.rgb.len() * 3));
            self.texs.insert(tex, picture);
        }
        self.texs.get(&tex)?.as_ref()
    }
}

/// Land tile `id`'s picture, `None` when the art has none or it cannot be read.
fn decode_land(art: &Art<'_>, id: u16) -> Option<LandPicture> {
    let land = art.land(id).ok().flatten()?;
    let mut pixels = vec![0u32; 44 * 44];
    for run in land.runs() {
        let start = (run.y as usize) * 44 + run.x as usize;
        let Some(out) = pixels.get_mut(start..) else {
            continue;
        };
        for (o, c) in out.iter_mut().zip(run.pixels) {
            *o = u32::from(c.get()) | 0x10000;
        }
    }
    Some(LandPicture(pixels))
}

/// Rows `rows.0` to `rows.1` (clamped to the picture) of `item`; `None` when its runs
/// cannot be read.
fn decode_item(item: &ItemArt<'_>, rows: (i64, i64)) -> Option<ItemPicture> {
    let (w, h) = (i64::from(item.width()), i64::from(item.height()));
    let (first, last) = (rows.0.clamp(0, h), rows.1.clamp(0, h));
    let count = (last - first).max(0);
    let mut pixels = vec![0u16; usize::try_from(w * count).ok()?];
    for run in item.runs() {
        let run = run.ok()?;
        let y = i64::from(run.y);
        if y < first || y >= last {
            continue;
        }
        let start = usize::try_from((y - first) * w + i64::from(run.x)).ok()?;
        let Some(out) = pixels.get_mut(start..) else {
            continue;
        };
        for (o, c) in out.iter_mut().zip(run.pixels) {
            *o = c.get();
        }
    }
    Some(ItemPicture {
        width: w,
        first,
        rows: count,
        pixels,
    })
}

/// How a drawn pixel's colour changes.
#[derive(Clone, Copy)]
enum Hue<'data> {
    /// Its own colour.
    None,
    /// Entry r of the hue's colours (r its red), or only for grey pixels.
    Table(&'data HueEntry, bool),
    /// A hue past the file: black, or only grey pixels.
    Missing(bool),
    /// The older way's spectral shadow: black at alpha 1 - 1.5 red.
    Spectral,
}

impl Hue<'_> {
    /// The 16-bit colour a drawn pixel of `colour` shows.
    #[inline]
    fn apply(self, colour: u16) -> u16 {
        let red = (colour >> 10) & 0x1F;
        let grey = red == (colour >> 5) & 0x1F && red == colour & 0x1F;
        match self {
            Hue::None | Hue::Spectral => colour,
            Hue::Table(_, true) | Hue::Missing(true) if !grey => colour,
            Hue::Table(entry, _) => entry.colours.get(usize::from(red)).map_or(0, |c| c.get()),
            Hue::Missing(_) => 0,
        }
    }
}

/// The hue a static's record value `value` gives: the mesh's rule (`ApplyMeshHue`) or,
/// `older`, `GetHueVector`'s; `partial` is tiledata's flag.
fn static_hue<'data>(hues: &Hues<'data>, value: u16, partial: bool, older: bool) -> Hue<'data> {
    let table = |index: usize, partial: bool| match hues.get(index) {
        Some(entry) => Hue::Table(entry, partial),
        None => Hue::Missing(partial),
    };
    if !older {
        if value == 0 {
            return Hue::None;
        }
        return table(usize::from(value - 1) % 16384, partial);
    }
    let partial = partial || value & 0x8000 != 0;
    let number = value & 0x7FFF;
    if number == 0 {
        return Hue::None;
    }
    if number & 0x4000 != 0 {
        return Hue::Spectral;
    }
    table(usize::from(number - 1), partial)
}

/// What one op drew, for the counts.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Drawn {
    /// Nothing: no picture.
    Nothing,
    /// Land flat (or stretched drawn flat: its texture map could not be decoded).
    Flat,
    /// Land as a texture map.
    Stretched,
    /// A static.
    Static,
}

/// Paints `op` into `canvas`, clipped to its window.
pub(super) fn paint(
    canvas: &mut Canvas<'_>,
    pictures: &mut Pictures<'_, '_>,
    op: &Op,
    partial: bool,
    translucent: bool,
) -> Drawn {
    match op.what {
        What::Flat { id, left, top } => flat(canvas, pictures, id, left, top),
        What::Stretched {
            id,
            tex,
            corners,
            normals,
            fallback,
        } => match pictures.texmap(tex) {
            Some(texmap) => {
                stretched(canvas, texmap, corners, normals);
                Drawn::Stretched
            }
            None => flat(canvas, pictures, id, fallback[0], fallback[1]),
        },
        What::Static {
            id,
            left,
            top,
            hue,
            older,
        } => {
            let hue = static_hue(pictures.hues, hue, partial, older);
            // The picture's rows the window shows (a huge item is decoded for those alone).
            let rows = (canvas.window.y0 - top, canvas.window.y1 - top);
            let Some(item) = pictures.item(id, rows) else {
                return Drawn::Nothing;
            };
            item_pixels(canvas, &item, left, top, hue, translucent);
            Drawn::Static
        }
    }
}

/// The rows and columns of a `width` x `height` picture at (left, top) inside the window.
#[inline]
fn clip(window: &Window, left: i64, top: i64, width: i64, height: i64) -> (i64, i64, i64, i64) {
    (
        left.max(window.x0),
        top.max(window.y0),
        (left + width).min(window.x1),
        (top + height).min(window.y1),
    )
}

fn flat(
    canvas: &mut Canvas<'_>,
    pictures: &mut Pictures<'_, '_>,
    id: u16,
    left: i64,
    top: i64,
) -> Drawn {
    let Some(land) = pictures.land(id) else {
        return Drawn::Nothing;
    };
    let (x0, y0, x1, y1) = clip(&canvas.window, left, top, SIDE, SIDE);
    for y in y0..y1 {
        for x in x0..x1 {
            let i = usize::try_from((y - top) * SIDE + (x - left)).unwrap_or(0);
            let v = land.0.get(i).copied().unwrap_or(0);
            if v != 0 {
                canvas.set(x, y, client_rgb(v as u16));
            }
        }
    }
    Drawn::Flat
}

fn item_pixels(
    canvas: &mut Canvas<'_>,
    item: &ItemPicture,
    left: i64,
    top: i64,
    hue: Hue<'_>,
    translucent: bool,
) {
    // The rows held: from `item.first` below the picture's top.
    let held = top + item.first;
    let (x0, y0, x1, y1) = clip(&canvas.window, left, held, item.width, item.rows);
    for y in y0..y1 {
        let row = usize::try_from((y - held) * item.width).unwrap_or(0);
        for x in x0..x1 {
            let i = row + usize::try_from(x - left).unwrap_or(0);
            let colour = item.pixels.get(i).copied().unwrap_or(0);
            if colour == 0 {
                continue;
            }
            if let Hue::Spectral = hue {
                let red = f32::from(level(colour >> 10)) / 255.0;
                let alpha = 1.0 - red * 1.5;
                canvas.blend(x, y, [0.0; 3], alpha);
                continue;
            }
            let rgb = client_rgb(hue.apply(colour));
            if translucent {
                canvas.blend(x, y, rgb.map(f32::from), TRANSLUCENT);
            } else {
                canvas.set(x, y, rgb);
            }
        }
    }
}

/// The client's 8-bit level of a 5-bit value.
#[inline]
fn level(v: u16) -> u8 {
    CLIENT_LEVELS
        .get(usize::from(v & 0x1F))
        .copied()
        .unwrap_or(0)
}

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
fn stretched(
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
