//! The radar's work, a band of tile rows at a time: the `Flat` style's colours widened once,
//! each block's colours and heights, the k x k averages and the height shading.

use mul_core::{Facet, RadarColours, rgb555_to_rgb8};

use super::client::{ClientTables, Relief};
use super::style::RadarStyle;
use crate::Region;

/// The `Flat` style's colours widened once: every radarcol.mul entry (land tiles, then
/// items; at most the 0x14000 a `u16` id reaches) as opaque RGBA by [`rgb555_to_rgb8`].
pub(super) struct FlatColours(pub(super) Vec<[u8; 4]>);

impl FlatColours {
    /// The most entries: 0x4000 land tiles and 0x10000 items.
    const MAX: usize = 0x14000;

    /// `colours` widened, when the style is `Flat` (none for the others).
    pub(super) fn new(colours: &RadarColours<'_>, style: RadarStyle) -> Self {
        if style != RadarStyle::Flat {
            return FlatColours(Vec::new());
        }
        // Entry i: land tile i below 0x4000, item i - 0x4000 from there (a land id past
        // 0x3FFF reads an item's entry, as `RadarColours::land`).
        let rgba = (0..=u16::MAX)
            .map(|id| colours.item(id))
            .take(Self::MAX - 0x4000);
        let rgba = (0..0x4000u16)
            .map(|id| colours.land(id))
            .chain(rgba)
            .map_while(|c| c)
            .map(|c| {
                let [r, g, b] = rgb555_to_rgb8(c);
                [r, g, b, 255]
            })
            .collect();
        FlatColours(rgba)
    }

    /// Land tile `id`'s colour (entry `id`); black past the file.
    #[inline]
    pub(super) fn land(&self, id: u16) -> [u8; 4] {
        self.0
            .get(usize::from(id))
            .copied()
            .unwrap_or([0, 0, 0, 255])
    }

    /// Item `id`'s colour; black past the file.
    #[inline]
    pub(super) fn item(&self, id: u16) -> [u8; 4] {
        self.0
            .get(0x4000 + usize::from(id))
            .copied()
            .unwrap_or([0, 0, 0, 255])
    }
}

/// One radar render's inputs, shared by its tasks.
pub(super) struct Job<'a, 'data> {
    pub(super) facet: &'a Facet<'data>,
    /// The `Flat` style's colours.
    pub(super) flat: &'a FlatColours,
    /// The tiles drawn: inside the facet (checked by [`RadarOptions::plan`]).
    pub(super) region: Region,
    /// 1 to 256.
    pub(super) scale: u32,
    /// Whether tiles are shaded by height (`Flat` only).
    pub(super) hillshade: bool,
    pub(super) style: RadarStyle,
    /// The `Client` and `Altitude` styles' tables.
    pub(super) client: Option<&'a ClientTables<'a, 'data>>,
}

impl Job<'_, '_> {
    /// Draws the job's region into `out`, its output rows (`width` pixels each, opaque
    /// black where nothing is drawn).
    pub(super) fn band(&self, out: &mut [u8], width: u32) {
        let width = width as usize;
        let region = self.region;
        let tiles = (
            region.x,
            region.x.saturating_add(region.width),
            region.y,
            region.y.saturating_add(region.height),
        );
        let mut sums = Sums {
            acc: if self.scale == 1 {
                Acc::One(out)
            } else {
                let pixels = out.len() / 4;
                Acc::Sums(vec![[0u32; 4]; pixels], out)
            },
            width,
            region,
            scale: self.scale,
        };
        match self.client {
            Some(client) => self.client_stripe(client, tiles, &mut sums),
            None => self.flat_stripe(tiles, &mut sums),
        }
        if let Acc::Sums(sums, out) = sums.acc {
            for (pixel, &[r, g, b, n]) in out.chunks_exact_mut(4).zip(&sums) {
                let [r, g, b] = [r, g, b]
                    .map(|v| u8::try_from(v.checked_div(n).unwrap_or(0)).unwrap_or(u8::MAX));
                pixel.copy_from_slice(&[r, g, b, 255]);
            }
        }
    }

    /// The `Flat` style's tiles, a block at a time: at scale 1 each block's rows copied
    /// into the picture.
    fn flat_stripe(&self, (tx0, tx1, ty0, ty1): (u32, u32, u32, u32), sums: &mut Sums<'_>) {
        let mut colours = [[0u8; 4]; 64];
        let (region, width) = (sums.region, sums.width);
        for bx in tx0 / 8..tx1.div_ceil(8) {
            // The block's columns inside the region.
            let x0 = bx.saturating_mul(8).max(tx0);
            let x1 = bx.saturating_mul(8).saturating_add(8).min(tx1);
            let c0 = (x0 % 8) as usize;
            let c1 = c0.saturating_add(x1.saturating_sub(x0) as usize);
            for by in ty0 / 8..ty1.div_ceil(8) {
                let tops = block_colours(self.facet, self.flat, bx, by, &mut colours);
                if self.hillshade {
                    let heights = tops.map_or([None; 64], |t| t.heights());
                    shade_block(self.facet, bx, by, &heights, &mut colours);
                }
                let y0 = by.saturating_mul(8).max(ty0);
                let y1 = by.saturating_mul(8).saturating_add(8).min(ty1);
                for y in y0..y1 {
                    let r = (y % 8) as usize;
                    let row = r.saturating_mul(8);
                    let Some(from) = colours.get(row.saturating_add(c0)..row.saturating_add(c1))
                    else {
                        continue;
                    };
                    match &mut sums.acc {
                        Acc::One(out) => {
                            let at = (y.saturating_sub(region.y) as usize)
                                .saturating_mul(width)
                                .saturating_add(x0.saturating_sub(region.x) as usize)
                                .saturating_mul(4);
                            let bytes = from.as_flattened();
                            let to = out.get_mut(at..at.saturating_add(bytes.len()));
                            if let Some(to) = to {
                                to.copy_from_slice(bytes);
                            }
                        }
                        Acc::Sums(..) => {
                            for (x, &[r, g, b, _]) in (x0..).zip(from) {
                                sums.add(x, y, [r, g, b]);
                            }
                        }
                    }
                }
            }
        }
    }

    /// The `Client` and `Altitude` styles' tiles, a column of blocks at a time: the
    /// column's colours and heights (with the row below the stripe, for the relief), and
    /// the heights of the column of tiles west of it, kept from the column before.
    fn client_stripe(
        &self,
        client: &ClientTables<'_, '_>,
        (tx0, tx1, ty0, ty1): (u32, u32, u32, u32),
        sums: &mut Sums<'_>,
    ) {
        let size = self.facet.size();
        let (map_w, map_h) = (size.width(), size.height());
        let with_relief = self.style == RadarStyle::Client;
        let by0 = ty0 / 8;
        // The block rows drawn, and for the relief the one holding the row below them.
        let last = if with_relief {
            ty1.saturating_add(1)
        } else {
            ty1
        };
        let by1 = last.div_ceil(8).min(size.height_blocks());
        let rows = by1.saturating_sub(by0).saturating_mul(8) as usize;
        let mut column = Column {
            colours: vec![0; rows.saturating_mul(8)],
            heights: vec![NO_HEIGHT; rows.saturating_mul(8)],
        };
        let mut west: Vec<i16> = vec![NO_HEIGHT; rows];
        let bx0 = tx0 / 8;
        if with_relief && tx0 % 8 == 0 && bx0 > 0 {
            column.fill(self.facet, client, bx0.saturating_sub(1), by0..by1);
            column.east_edge(&mut west);
        }
        for bx in bx0..tx1.div_ceil(8) {
            column.fill(self.facet, client, bx, by0..by1);
            let xs = bx.saturating_mul(8).max(tx0)..bx.saturating_mul(8).saturating_add(8).min(tx1);
            for y in ty0..ty1 {
                let r = y.saturating_sub(by0.saturating_mul(8)) as usize;
                let (here, below) = (r.saturating_mul(8), r.saturating_add(1));
                // The relief needs the row below and the column west: not on the border.
                let y_inner = y >= 1 && y.saturating_add(2) <= map_h;
                // The common case a block row at a time: scale 1, the relief, all 8 tiles
                // off the border (the same rule as below, without its per-tile choices).
                let whole = with_relief && xs.len() == 8 && y_inner;
                if whole
                    && xs.start >= 1
                    && xs.end < map_w
                    && let Acc::One(out) = &mut sums.acc
                {
                    let at = (y.saturating_sub(sums.region.y) as usize)
                        .saturating_mul(sums.width)
                        .saturating_add(xs.start.saturating_sub(sums.region.x) as usize)
                        .saturating_mul(4);
                    let to = out.get_mut(at..at.saturating_add(32));
                    let west = west.get(below).copied().unwrap_or(NO_HEIGHT);
                    if let Some(to) = to.and_then(|t| <&mut [u8; 32]>::try_from(t).ok())
                        && column.relief_row(client, here, below, west, to)
                    {
                        continue;
                    }
                }
                let mut row = [[0u8; 3]; 8];
                for (x, pixel) in xs.clone().zip(row.iter_mut()) {
                    let cx = (x % 8) as usize;
                    let at = here.saturating_add(cx);
                    let z0 = column.heights.get(at).copied().unwrap_or(NO_HEIGHT);
                    let colour = column.colours.get(at).copied().unwrap_or(0);
                    *pixel = if with_relief {
                        let inner = y_inner && x >= 1 && x.saturating_add(2) <= map_w;
                        let z1 = match cx.checked_sub(1) {
                            _ if !inner => NO_HEIGHT,
                            Some(wx) => {
                                let at = below.saturating_mul(8).saturating_add(wx);
                                column.heights.get(at).copied().unwrap_or(NO_HEIGHT)
                            }
                            None => west.get(below).copied().unwrap_or(NO_HEIGHT),
                        };
                        let relief = if z0 == NO_HEIGHT || z1 == NO_HEIGHT {
                            Relief::Flat
                        } else {
                            Relief::of(z0, z1)
                        };
                        client.shaded(colour, relief)
                    } else {
                        // z + 128: -128 is 0, 127 is 255; black where unread.
                        let grey = i8::try_from(z0).map_or(0, |z| z.cast_unsigned() ^ 0x80);
                        [grey; 3]
                    };
                }
                let n = xs.len().min(8);
                sums.put_row(xs.start, y, row.get(..n).unwrap_or_default());
            }
            column.east_edge(&mut west);
        }
    }
}

/// What a band's output pixels gather: at scale 1 each pixel is its tile's colour,
/// written into the picture; past it, the channels' totals and the tiles added, divided
/// at the end.
enum Acc<'o> {
    /// Scale 1: the picture's rows (RGBA).
    One(&'o mut [u8]),
    /// For each output pixel the channels' totals and the tiles added, and the rows they
    /// become.
    Sums(Vec<[u32; 4]>, &'o mut [u8]),
}

/// A band's output pixels, row-major.
struct Sums<'o> {
    acc: Acc<'o>,
    /// Output columns.
    width: usize,
    /// The band's tiles: its first output row is `region.y`'s.
    region: Region,
    scale: u32,
}

impl Sums<'_> {
    /// Adds the colours of tiles `x0..` of row `y` to the output pixels they fall in.
    fn put_row(&mut self, x0: u32, y: u32, colours: &[[u8; 3]]) {
        match &mut self.acc {
            Acc::One(pixels) => {
                let at = (y.saturating_sub(self.region.y) as usize)
                    .saturating_mul(self.width)
                    .saturating_add(x0.saturating_sub(self.region.x) as usize)
                    .saturating_mul(4);
                let end = at.saturating_add(colours.len().saturating_mul(4));
                if let Some(out) = pixels.get_mut(at..end) {
                    for (p, c) in out.chunks_exact_mut(4).zip(colours) {
                        p.get_mut(..3).unwrap_or_default().copy_from_slice(c);
                    }
                }
            }
            Acc::Sums(..) => {
                for (x, &c) in (x0..).zip(colours) {
                    self.add(x, y, c);
                }
            }
        }
    }

    /// Adds tile (`x`, `y`)'s colour to the output pixel it falls in.
    #[inline]
    fn add(&mut self, x: u32, y: u32, colour: [u8; 3]) {
        let Sums { region, scale, .. } = *self;
        let (dx, dy) = (x.saturating_sub(region.x), y.saturating_sub(region.y));
        match &mut self.acc {
            Acc::One(pixels) => {
                let at = (dy as usize)
                    .saturating_mul(self.width)
                    .saturating_add(dx as usize)
                    .saturating_mul(4);
                if let Some(p) = pixels.get_mut(at..at.saturating_add(3)) {
                    p.copy_from_slice(&colour);
                }
            }
            Acc::Sums(sums, _) => {
                let ox = dx.checked_div(scale).unwrap_or(0) as usize;
                let oy = dy.checked_div(scale).unwrap_or(0) as usize;
                let at = oy.saturating_mul(self.width).saturating_add(ox);
                if let Some(sum) = sums.get_mut(at) {
                    // At most 256 x 256 tiles of at most 255 a channel: no overflow.
                    for (s, c) in sum.iter_mut().zip(colour) {
                        *s = s.saturating_add(u32::from(c));
                    }
                    sum[3] = sum[3].saturating_add(1);
                }
            }
        }
    }
}

/// One column of blocks under the client rule: 8 tiles wide, row after row from the
/// stripe's first block row.
struct Column {
    /// RGB555 colours (bit 15 set; 0 where the map block cannot be read).
    colours: Vec<u16>,
    /// Heights; [`NO_HEIGHT`] where the map block cannot be read.
    heights: Vec<i16>,
}

/// A [`Column`]'s height where the map block cannot be read: below any `i8`.
const NO_HEIGHT: i16 = i16::MIN;

impl Column {
    /// Block rows `rows` of block column `bx`.
    fn fill(
        &mut self,
        facet: &Facet<'_>,
        client: &ClientTables<'_, '_>,
        bx: u32,
        rows: std::ops::Range<u32>,
    ) {
        let (mut colours, mut heights) = ([0u16; 64], [0i8; 64]);
        let blocks = self
            .colours
            .chunks_exact_mut(64)
            .zip(self.heights.chunks_exact_mut(64));
        for (by, (c, h)) in rows.zip(blocks) {
            let read = client.block(facet, bx, by, &mut colours, &mut heights);
            c.copy_from_slice(&colours);
            for (h, z) in h.iter_mut().zip(heights) {
                *h = if read { i16::from(z) } else { NO_HEIGHT };
            }
        }
    }

    /// Tile row `here / 8` of the column with the client's relief, as RGBA into `out`: each
    /// tile against its south-west neighbour, in row `below` (one column left, `west` for
    /// the first tile), all eight on the map. `false` (nothing written) when the rows are
    /// not in the column.
    #[inline]
    fn relief_row(
        &self,
        client: &ClientTables<'_, '_>,
        here: usize,
        below: usize,
        west: i16,
        out: &mut [u8; 32],
    ) -> bool {
        let eight = |v: &[i16], at: usize| -> Option<[i16; 8]> {
            v.get(at..at.checked_add(8)?)?.try_into().ok()
        };
        let colours: Option<[u16; 8]> = self
            .colours
            .get(here..here.saturating_add(8))
            .and_then(|c| c.try_into().ok());
        let (Some(colours), Some(z0), Some(zb)) = (
            colours,
            eight(&self.heights, here),
            eight(&self.heights, below.saturating_mul(8)),
        ) else {
            return false;
        };
        let south_west = std::iter::once(west).chain(zb.into_iter().take(7));
        for (((pixel, colour), z0), z1) in
            out.chunks_exact_mut(4).zip(colours).zip(z0).zip(south_west)
        {
            let relief = if z0 == NO_HEIGHT || z1 == NO_HEIGHT {
                Relief::Flat
            } else {
                Relief::of(z0, z1)
            };
            let [r, g, b] = client.shaded(colour, relief);
            pixel.copy_from_slice(&[r, g, b, 255]);
        }
        true
    }

    /// The heights of the column's easternmost tiles, row by row, into `west`.
    fn east_edge(&self, west: &mut [i16]) {
        for (w, row) in west.iter_mut().zip(self.heights.chunks_exact(8)) {
            *w = row.get(7).copied().unwrap_or(NO_HEIGHT);
        }
    }
}

/// What [`block_colours`] leaves of a block's heights: for each tile the z of the static
/// shown, else the land's less 1 (which a static at that z beats), and which tiles show a
/// static (bit `i` for tile `i`).
#[derive(Clone, Copy)]
struct BlockTops {
    top: [i16; 64],
    shown: u64,
}

impl BlockTops {
    /// Each tile's height for [`shade`]: the z of the static shown, else the land's.
    fn heights(&self) -> [Option<i16>; 64] {
        let mut heights = [None; 64];
        for (i, (h, &top)) in (0u32..).zip(heights.iter_mut().zip(&self.top)) {
            let static_shown = self.shown.checked_shr(i).unwrap_or(0) & 1 == 1;
            *h = Some(if static_shown {
                top
            } else {
                top.saturating_add(1)
            });
        }
        heights
    }
}

/// The radar colour of each of block (bx, by)'s 64 tiles, row by row (see the module's
/// documentation for the rules); returns what gives each tile's height for [`shade`]
/// ([`BlockTops::heights`]); `None` when the map block cannot be read.
fn block_colours(
    facet: &Facet<'_>,
    colours: &FlatColours,
    bx: u32,
    by: u32,
    out: &mut [[u8; 4]; 64],
) -> Option<BlockTops> {
    let Some(block) = facet.map.block(bx, by) else {
        *out = [[0, 0, 0, 255]; 64];
        return None;
    };
    let mut tops = BlockTops {
        top: [0; 64],
        shown: 0,
    };
    for ((colour, cell), z) in out.iter_mut().zip(&block.cells).zip(tops.top.iter_mut()) {
        *colour = colours.land(cell.id.get());
        *z = i16::from(cell.z).saturating_sub(1);
    }
    let statics = facet
        .size()
        .block_index(bx, by)
        .and_then(|b| facet.statics.block(b).ok());
    // A static at x or y of 8 or more lies outside its block: it is on no tile, as for
    // `Facet::statics_at` (and `Statics::validate` reports it).
    let inside = |s: &&mul_core::raw::StaticRecord| s.x < 8 && s.y < 8;
    for s in statics.into_iter().flatten().filter(inside) {
        let i = u32::from(s.y)
            .saturating_mul(8)
            .saturating_add(u32::from(s.x));
        let (Some(z), Some(colour)) = (tops.top.get_mut(i as usize), out.get_mut(i as usize))
        else {
            continue;
        };
        if i16::from(s.z) >= *z {
            *z = i16::from(s.z);
            tops.shown |= 1u64.checked_shl(i).unwrap_or(0);
            *colour = colours.item(s.id.get());
        }
    }
    Some(tops)
}

/// The height [`block_colours`] gives tile (`x`, `y`), found for that tile alone.
fn tile_height(facet: &Facet<'_>, x: u32, y: u32) -> Option<i16> {
    let land = i16::from(facet.map.cell(x, y)?.z);
    let top = facet.statics_at(x, y).ok().and_then(|statics| {
        statics
            .filter(|s| i16::from(s.z) >= land.saturating_sub(1))
            .max_by_key(|s| s.z)
    });
    Some(top.map_or(land, |s| i16::from(s.z)))
}

/// Shades block (bx, by)'s colours by [`shade`], each tile against its north-west
/// neighbour (in this block, or read from its own); tiles without both heights stay as
/// they are.
fn shade_block(
    facet: &Facet<'_>,
    bx: u32,
    by: u32,
    heights: &[Option<i16>; 64],
    colours: &mut [[u8; 4]; 64],
) {
    for (i, (colour, h)) in (0u32..).zip(colours.iter_mut().zip(heights)) {
        let (cx, cy) = (i % 8, i / 8);
        let neighbour = if cx > 0 && cy > 0 {
            heights
                .get(usize::try_from(i.saturating_sub(9)).unwrap_or(usize::MAX))
                .copied()
                .flatten()
        } else {
            let x = bx.saturating_mul(8).saturating_add(cx).checked_sub(1);
            let y = by.saturating_mul(8).saturating_add(cy).checked_sub(1);
            x.zip(y).and_then(|(x, y)| tile_height(facet, x, y))
        };
        if let (Some(h), Some(n)) = (*h, neighbour) {
            let [r, g, b, a] = *colour;
            let [r, g, b] = shade([r, g, b], h.saturating_sub(n));
            *colour = [r, g, b, a];
        }
    }
}

/// A colour lit from the north-west: `rise`, a tile's height less its north-west
/// neighbour's, clamped to -8..=8, scales each channel by (256 + 16 x rise) / 256, at most
/// 255 (a slope facing the light up to 50 % brighter, one facing away up to 50 % darker).
/// This project's rule, not the client's: the client's radar map is flat.
pub fn shade(colour: [u8; 3], rise: i16) -> [u8; 3] {
    let factor = 256i32.saturating_add(i32::from(rise.clamp(-8, 8)).saturating_mul(16));
    colour.map(|c| {
        let v = i32::from(c).saturating_mul(factor) / 256;
        u8::try_from(v.clamp(0, 255)).unwrap_or(u8::MAX)
    })
}
