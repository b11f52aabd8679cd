//! One output row of a scene, drawn front to back.
//!
//! Every pixel a layer draws is drawn whole (an image's pixel whose alpha is not 0, the
//! fill colour, a marker), so the picture's pixel is the one of the topmost layer that
//! draws there: the layers are visited from the top down, each drawing only where no layer
//! above drew, and a row is done when every column is covered. The columns still open are
//! kept as spans; a tile whose image row is drawn whole (or the fill colour) closes its
//! columns, so the layers under an opaque one cost nothing there. What is never drawn ends
//! opaque black, as painting back to front over black gives.

// Coordinates are game pixels and output pixels widened to i64 (see the scene's module).
#![allow(clippy::arithmetic_side_effects)]

use std::ops::Range;

use wap_core::Tile;

use super::{BAND, Image, Layer, PlaneLayer, Scene, Source, Sprite, marker};

/// Pixels no layer has drawn: alpha 0 (a drawn pixel's alpha is never 0).
fn open_pixel(p: &[u8]) -> bool {
    p.get(3) == Some(&0)
}

/// A run of a row's columns no layer has covered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    start: usize,
    end: usize,
    /// No pixel of the span is drawn yet: an image row may be copied over it whole.
    pristine: bool,
}

/// The open columns of the row being drawn, reused from row to row.
#[derive(Default)]
pub(super) struct Open {
    spans: Vec<Span>,
    next: Vec<Span>,
}

impl Open {
    /// Appends a span to `next`, joined to the one before when they touch and agree.
    fn keep(next: &mut Vec<Span>, start: usize, end: usize, pristine: bool) {
        if start >= end {
            return;
        }
        if let Some(last) = next.last_mut()
            && last.end == start
            && last.pristine == pristine
        {
            last.end = end;
            return;
        }
        next.push(Span {
            start,
            end,
            pristine,
        });
    }
}

/// The tiles of a row's run looked up last, by raw value: neighbouring runs mostly show a
/// few tiles, so the scene's table is asked once for each.
struct Recent<'s> {
    slots: [Option<(u32, Source<'s>)>; 16],
}

impl<'l> Scene<'l> {
    /// Draws output row `oy` from column `ox0` into `row` (RGBA, all 0 on entry; `gxs` the
    /// game x of its columns): the layers of its band from the top down, each over its own
    /// open columns only.
    pub(super) fn draw_row(&self, row: &mut [u8], oy: i64, ox0: i64, gxs: &[i64], open: &mut Open) {
        let gy = self.game(oy, self.tile.1);
        let columns = (row.len() / 4) as i64;
        let band = self
            .bands
            .get(usize::try_from(oy / i64::from(BAND)).unwrap_or(usize::MAX))
            .map_or(&[][..], Vec::as_slice);
        open.spans.clear();
        Open::keep(&mut open.spans, 0, row.len() / 4, true);
        for layer in band
            .iter()
            .rev()
            .filter_map(|&i| self.layers.get(i as usize))
        {
            if open.spans.is_empty() {
                break;
            }
            match layer {
                Layer::Plane(plane) => {
                    let (_, span) = self.extent(layer);
                    let to_row = |x: i64| usize::try_from((x - ox0).clamp(0, columns)).unwrap_or(0);
                    let columns = to_row(span.start)..to_row(span.end);
                    self.draw_plane_row(plane, row, gy, (ox0, gxs), columns, open);
                }
                Layer::Sprite(sprite) => self.draw_sprite_row(sprite, row, gy, ox0, gxs, open),
            }
        }
        // Never drawn: black.
        for span in &open.spans {
            let pixels = row
                .get_mut(span.start * 4..span.end * 4)
                .unwrap_or_default();
            for p in pixels.chunks_exact_mut(4) {
                if open_pixel(p) {
                    p.copy_from_slice(&[0, 0, 0, 255]);
                }
            }
        }
    }

    /// Draws the part of `sprite` in game row `gy` over output columns `ox0..` (`gxs`
    /// their game x), where no layer above drew.
    fn draw_sprite_row(
        &self,
        sprite: &Sprite,
        row: &mut [u8],
        gy: i64,
        ox0: i64,
        gxs: &[i64],
        open: &mut Open,
    ) {
        if gy < sprite.top || gy >= sprite.top + sprite.height {
            return;
        }
        let columns = gxs.len() as i64;
        let first = (self.output(sprite.left, self.tile.0) - ox0).max(0);
        let end = (self.output(sprite.left + sprite.width, self.tile.0) - ox0).min(columns);
        if first >= end {
            return;
        }
        let iy = gy - sprite.top;
        let iy = if sprite.invert {
            sprite.height - 1 - iy
        } else {
            iy
        };
        let (Ok(first), Ok(end)) = (usize::try_from(first), usize::try_from(end)) else {
            return;
        };
        // The spans it crosses are no longer pristine.
        for span in &mut open.spans {
            if span.start < end && first < span.end {
                span.pristine = false;
            }
        }
        let pixels = row.chunks_exact_mut(4).zip(gxs).take(end).skip(first);
        let column = |gx: i64| {
            let ix = gx - sprite.left;
            if sprite.mirror {
                sprite.width - 1 - ix
            } else {
                ix
            }
        };
        match sprite.image.and_then(|i| self.images.get(i)) {
            Some(image) => {
                let Some((src, _)) = image.row(iy) else {
                    return;
                };
                for (out, &gx) in pixels {
                    if let Some(c) = usize::try_from(column(gx)).ok().and_then(|ix| src.get(ix)) {
                        put_open(out, *c);
                    }
                }
            }
            None => {
                for (out, &gx) in pixels {
                    if let Some(c) = marker(column(gx), iy, sprite.width, sprite.height) {
                        put_open(out, c);
                    }
                }
            }
        }
    }

    /// The image of tile `id` of `plane`'s tile set `set`, if found and decoded.
    fn tile_image(&self, plane: &PlaneLayer<'_>, set: u16, id: u16) -> Option<&Image> {
        let folder = (*plane.sets.get(usize::from(set))?)?;
        let index = (*self.resolved.get(&(folder, i64::from(id)))?)?;
        self.images.get(index)
    }

    /// What raw tile value `value` of `plane` draws, asked of `recent` first.
    fn tile_source<'s>(
        &'s self,
        plane: &PlaneLayer<'_>,
        value: Option<u32>,
        recent: &mut Recent<'s>,
    ) -> Source<'s> {
        let Some(value) = value else {
            return Source::Nothing;
        };
        let slot = (value.wrapping_mul(0x9E37_79B9) >> 28) as usize;
        if let Some(Some((v, source))) = recent.slots.get(slot)
            && *v == value
        {
            return *source;
        }
        let source = match Tile::from_raw(value) {
            Tile::Invisible => Source::Nothing,
            Tile::Filled => Source::Fill,
            Tile::Image { set, id } => match self.tile_image(plane, set, id) {
                Some(image) => Source::Image(image),
                None if self.markers => Source::Marker,
                None => Source::Nothing,
            },
        };
        if let Some(s) = recent.slots.get_mut(slot) {
            *s = Some((value, source));
        }
        source
    }

    /// Draws the part of `plane` in game row `gy` over the open columns among `columns`
    /// (`gxs` the game x of the row's columns from `ox0`), a run of columns in one tile at
    /// a time; the runs it draws whole are closed.
    fn draw_plane_row(
        &self,
        plane: &PlaneLayer<'_>,
        row: &mut [u8],
        gy: i64,
        (ox0, gxs): (i64, &[i64]),
        columns: Range<usize>,
        open: &mut Open,
    ) {
        let (pw, ph) = (plane.tiles.0 * plane.tile.0, plane.tiles.1 * plane.tile.1);
        if pw <= 0 || ph <= 0 || columns.is_empty() {
            return;
        }
        let gy = gy + plane.origin.1;
        let py = if plane.wrap.1 { gy.rem_euclid(ph) } else { gy };
        if py < 0 || py >= ph {
            return;
        }
        let (ty, iy) = (py / plane.tile.1, py % plane.tile.1);
        let mut recent = Recent { slots: [None; 16] };
        let mut next = std::mem::take(&mut open.next);
        next.clear();
        for span in &open.spans {
            let (s, e) = (
                span.start.max(columns.start),
                span.end.min(columns.end).min(gxs.len()),
            );
            if s >= e {
                Open::keep(&mut next, span.start, span.end, span.pristine);
                continue;
            }
            Open::keep(&mut next, span.start, s, span.pristine);
            let mut dx = s;
            while dx < e {
                let g0 = gxs.get(dx).copied().unwrap_or_default();
                let gx = g0 + plane.origin.0;
                let px = if plane.wrap.0 { gx.rem_euclid(pw) } else { gx };
                if px < 0 || px >= pw {
                    Open::keep(&mut next, dx, dx + 1, span.pristine);
                    dx += 1;
                    continue;
                }
                let (tx, ix0) = (px / plane.tile.0, px % plane.tile.0);
                // The run: up to the first column showing the next tile's game x.
                let after = self.output(g0 + plane.tile.0 - ix0, self.tile.0) - ox0;
                let run_end = usize::try_from(after).unwrap_or(0).clamp(dx + 1, e);
                let (Some(cols), Some(out)) =
                    (gxs.get(dx..run_end), row.get_mut(dx * 4..run_end * 4))
                else {
                    break;
                };
                let value = usize::try_from(ty * plane.tiles.0 + tx)
                    .ok()
                    .and_then(|i| plane.cells.get(i))
                    .map(|v| v.get());
                let run = Run {
                    out,
                    cols,
                    g0,
                    ix0,
                    pristine: span.pristine,
                };
                // Whether the run stays open, and pristine.
                let still_open = match self.tile_source(plane, value, &mut recent) {
                    Source::Nothing => Some(span.pristine),
                    Source::Fill => (!run.fill(plane.fill)).then_some(false),
                    Source::Marker => (!run.marker(iy, plane.tile)).then_some(false),
                    Source::Image(image) => (!run.image(image, iy)).then_some(false),
                };
                if let Some(pristine) = still_open {
                    Open::keep(&mut next, dx, run_end, pristine);
                }
                dx = run_end;
            }
            Open::keep(&mut next, e, span.end, span.pristine);
        }
        open.next = std::mem::replace(&mut open.spans, next);
    }
}

/// Writes `c` over `out` if no layer above drew there and `c` is drawn (alpha not 0).
fn put_open(out: &mut [u8], c: [u8; 4]) {
    if c[3] != 0 && open_pixel(out) {
        out.copy_from_slice(&c);
    }
}

/// A run of a row's columns showing one tile.
struct Run<'r> {
    /// Its pixels.
    out: &'r mut [u8],
    /// Their game x.
    cols: &'r [i64],
    /// The first column's game x, and the tile column it shows.
    g0: i64,
    ix0: i64,
    /// No pixel of it is drawn yet.
    pristine: bool,
}

impl Run<'_> {
    /// The tile column column `g` shows.
    fn ix(&self, g: i64) -> i64 {
        self.ix0 + g - self.g0
    }

    /// Fills the open pixels with `colour`; returns whether the run is now drawn whole.
    fn fill(self, colour: [u8; 4]) -> bool {
        for p in self.out.chunks_exact_mut(4) {
            put_open(p, colour);
        }
        colour[3] != 0
    }

    /// The marker of a missing tile image of `tile` game pixels, row `iy`.
    fn marker(self, iy: i64, tile: (i64, i64)) -> bool {
        for (p, &g) in self.out.chunks_exact_mut(4).zip(self.cols) {
            if let Some(c) = marker(self.ix0 + g - self.g0, iy, tile.0, tile.1) {
                put_open(p, c);
            }
        }
        false
    }

    /// Row `iy` of `image` over the run's open pixels; returns whether the run is now
    /// drawn whole.
    fn image(self, image: &Image, iy: i64) -> bool {
        let Some((src, opaque)) = image.row(iy) else {
            return false;
        };
        let last = self.cols.last().map_or(self.g0, |&g| g);
        let n = self.cols.len();
        // Every pixel of the run lands inside the image row.
        let inside = self.ix0 >= 0 && self.ix(last) < image.width;
        let one_to_one = last - self.g0 == n as i64 - 1;
        if opaque && inside && one_to_one && self.pristine {
            let span = usize::try_from(self.ix0)
                .ok()
                .and_then(|i| src.get(i..i + n));
            if let Some(span) = span {
                self.out.copy_from_slice(span.as_flattened());
                return true;
            }
        }
        for (p, &g) in self.out.chunks_exact_mut(4).zip(self.cols) {
            let ix = usize::try_from(self.ix0 + g - self.g0).ok();
            if let Some(&c) = ix.and_then(|i| src.get(i)) {
                put_open(p, c);
            }
        }
        opaque && inside
    }
}
