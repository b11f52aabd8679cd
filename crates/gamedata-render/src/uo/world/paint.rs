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

use super::raster::{Canvas, TexPicture, stretched};
use super::scene::{Op, What, Window};
use crate::uo::client::{CLIENT_LEVELS, client_rgb};

/// The land art's side.
const SIDE: i64 = 44;

/// Alpha of a translucent static: 178 / 255.
const TRANSLUCENT: f32 = 178.0 / 255.0;

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
