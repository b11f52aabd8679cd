//! Ultima Online's world as the client draws it: the isometric plane of a facet, land as its
//! art or stretched as its texture map over the corners' heights and lit, statics as their
//! art, hued, in the client's order. Every rule comes from ClassicUO's source and is
//! restated, with file and function, in `docs/formats/uo.md`, "The client's world view
//! (isometric)"; the steps the client leaves to the graphics card are this project's, stated
//! there too.
//!
//! Coordinates are the client's screen pixels: tile (x, y) at height z has its 44 x 44 land
//! picture's top-left corner at ((x - y) x 22 - 22, (x + y) x 22 - 4 z - 22). A
//! [`WorldView`] is a rectangle of that plane; [`WorldSource::render`] draws one, and
//! [`WorldSource::write_png`] streams one to a PNG by stripes. Each stripe reads only the
//! blocks whose tiles can reach it: land within 4 x 128 pixels of its row at height 0 (the
//! heights' range), statics up to the tallest item picture above it, so a tall static south
//! of a view still draws into it. Stripes are drawn in parallel on rayon's threads; memory
//! holds a few stripes and the pictures they use, whatever the facet.
//!
//! Pixels no land or static reaches are transparent; every other pixel is opaque (a
//! translucent static blends over black where nothing lies below it).

// Screen arithmetic on i64 from u32 tile numbers (a region checked to lie inside the map)
// and i8 heights, and counts of objects: far from overflow.
#![allow(clippy::arithmetic_side_effects)]

mod paint;
mod raster;
mod scene;
mod tables;
#[cfg(test)]
mod tests;
mod tiles;

pub use tiles::{BASE_SCALES, WorldTiles};

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};

use mul_core::{Art, Facet, Hues, Limits, Texmaps};
use rayon::prelude::*;

use self::paint::{Drawn, Pictures, paint};
use self::raster::Canvas;
use self::scene::Window;
use self::tables::Lookups;
use crate::uo::RadarTable;
use crate::{MAX_PIXELS, PngCompression, Progress, Region, RenderError, Result, RgbaImage};

/// A rectangle of the isometric plane: its top-left pixel (x, y) in the client's screen
/// coordinates, and its size in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct WorldView {
    /// Left edge, in pixels (negative west of tile (0, 0)'s column).
    pub x: i64,
    /// Top edge, in pixels.
    pub y: i64,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

impl WorldView {
    /// Checks the view's size: 1 to [`MAX_PIXELS`] pixels.
    ///
    /// Returns [`RenderError::TooLarge`].
    pub fn check(&self) -> Result<()> {
        let pixels = u64::from(self.width).saturating_mul(u64::from(self.height));
        if pixels == 0 || pixels > MAX_PIXELS {
            return Err(RenderError::TooLarge {
                width: u64::from(self.width),
                height: u64::from(self.height),
                max: MAX_PIXELS,
            });
        }
        Ok(())
    }
}

/// What a view drew: an object counts when it draws a pixel in the view, whether or not a
/// nearer one covers it later.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct WorldCounts {
    /// Land tiles drawn (flat or stretched).
    pub tiles_drawn: u64,
    /// Statics drawn.
    pub statics_drawn: u64,
    /// Of the land tiles drawn, those drawn as texture maps (a stretched tile whose two
    /// triangles are both culled draws nothing and is not counted).
    pub stretched: u64,
}

impl WorldCounts {
    fn add(&self, other: &WorldCounts) -> WorldCounts {
        WorldCounts {
            tiles_drawn: self.tiles_drawn.saturating_add(other.tiles_drawn),
            statics_drawn: self.statics_drawn.saturating_add(other.statics_drawn),
            stretched: self.stretched.saturating_add(other.stretched),
        }
    }
}

/// A facet's isometric plane, ready to draw: the facet's map, statics, tiledata and hues,
/// the art and (optionally) the texture maps, with the tables made once (each land id's
/// texture map, each item id's flags and picture size: 0x10000 item headers read; the
/// tallest and widest picture the statics place: every block's statics read once).
pub struct WorldSource<'a, 'data> {
    facet: &'a Facet<'data>,
    art: &'a Art<'data>,
    texmaps: Option<&'a Texmaps<'data>>,
    hues: &'a Hues<'data>,
    lookups: Lookups,
    limits: Limits,
}

impl std::fmt::Debug for WorldSource<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorldSource")
            .field("size", &self.facet.size())
            .field("texmaps", &self.texmaps.is_some())
            .finish_non_exhaustive()
    }
}

impl<'a, 'data> WorldSource<'a, 'data> {
    /// The world of `facet` (which must have tiledata and hues) drawn with `art` and,
    /// when given, `texmaps` (without them no land stretches), with [`Limits::default`].
    ///
    /// Returns [`RenderError::MissingTable`] when the facet has no tiledata or hues.
    pub fn new(
        facet: &'a Facet<'data>,
        art: &'a Art<'data>,
        texmaps: Option<&'a Texmaps<'data>>,
    ) -> Result<Self> {
        Self::with_limits(facet, art, texmaps, Limits::default())
    }

    /// [`WorldSource::new`] with `limits`: an item picture whose RGBA bytes pass
    /// `limits.max_decoded_bytes` is not drawn.
    ///
    /// Returns [`RenderError::MissingTable`] when the facet has no tiledata or hues.
    pub fn with_limits(
        facet: &'a Facet<'data>,
        art: &'a Art<'data>,
        texmaps: Option<&'a Texmaps<'data>>,
        limits: Limits,
    ) -> Result<Self> {
        let missing = |table| RenderError::MissingTable {
            table,
            style: "world",
        };
        let tiledata = facet
            .tiledata
            .as_ref()
            .ok_or_else(|| missing(RadarTable::TileData))?;
        let hues = facet
            .hues
            .as_ref()
            .ok_or_else(|| missing(RadarTable::Hues))?;
        let lookups = Lookups::new(facet, tiledata, art, texmaps, &limits);
        Ok(WorldSource {
            facet,
            art,
            texmaps,
            hues,
            lookups,
            limits,
        })
    }

    /// The view that frames the tiles of `region` (the whole facet when `None`): from the
    /// west corner of its south-west tile to the east corner of its north-east one, and from
    /// the highest to the lowest of its land tiles' 44 x 44 pictures at their heights.
    ///
    /// Returns [`RenderError::RegionOutside`] for a region not inside the facet.
    pub fn frame(&self, region: Option<Region>) -> Result<WorldView> {
        let size = self.facet.size();
        let (width, height) = (size.width(), size.height());
        let region = region.unwrap_or(Region::whole(width, height));
        if !region.is_inside(width, height) {
            return Err(RenderError::RegionOutside {
                region,
                width,
                height,
            });
        }
        let (x0, y0) = (i64::from(region.x), i64::from(region.y));
        let (x1, y1) = (
            x0 + i64::from(region.width) - 1,
            y0 + i64::from(region.height) - 1,
        );
        // The highest and lowest land top, row by row of the region, in parallel.
        let (top, bottom) = (region.x..region.x + region.width)
            .into_par_iter()
            .map(|x| {
                let mut top = i64::MAX;
                let mut bottom = i64::MIN;
                for y in region.y..region.y + region.height {
                    let z = self.facet.map.cell(x, y).map_or(0, |c| i64::from(c.z));
                    let t = (i64::from(x) + i64::from(y)) * 22 - 4 * z - 22;
                    top = top.min(t);
                    bottom = bottom.max(t + 44);
                }
                (top, bottom)
            })
            .reduce(|| (i64::MAX, i64::MIN), |a, b| (a.0.min(b.0), a.1.max(b.1)));
        let left = (x0 - y1) * 22 - 22;
        let right = (x1 - y0) * 22 + 22;
        let clamp = |v: i64| u32::try_from(v.max(1)).unwrap_or(u32::MAX);
        Ok(WorldView {
            x: left,
            y: top,
            width: clamp(right - left),
            height: clamp(bottom - top),
        })
    }

    /// The picture of `view` and what it drew.
    ///
    /// Returns [`RenderError::TooLarge`] for a view of no pixel or more than [`MAX_PIXELS`].
    pub fn render(&self, view: WorldView) -> Result<(RgbaImage, WorldCounts)> {
        view.check()?;
        let mut image = RgbaImage::new(view.width, view.height, [0; 4])?;
        let rows = crate::parallel_stripe_rows(view.width).max(1);
        let row_bytes = (view.width as usize).saturating_mul(4);
        let counts = image
            .pixels
            .par_chunks_mut(row_bytes.saturating_mul(rows as usize))
            .enumerate()
            .map(|(i, pixels)| {
                let first = i64::try_from(i)
                    .unwrap_or(0)
                    .saturating_mul(i64::from(rows));
                let n = i64::try_from(pixels.len() / row_bytes.max(1)).unwrap_or(0);
                let window = Window {
                    x0: view.x,
                    y0: view.y.saturating_add(first),
                    x1: view.x.saturating_add(i64::from(view.width)),
                    y1: view.y.saturating_add(first).saturating_add(n),
                };
                self.draw(&view, window, pixels)
            })
            .reduce(WorldCounts::default, |a, b| a.add(&b));
        Ok((image, counts))
    }

    /// `view` written to `out` as an RGBA PNG at `compression`, drawn and deflated in
    /// stripes of about [`crate::PARALLEL_STRIPE_BYTES`] on rayon's threads
    /// ([`crate::PngPixels::Parallel`]'s way), so that memory holds a few stripes whatever
    /// the view's size. `progress` gets the rows written.
    ///
    /// Returns [`RenderError::TooLarge`] as [`WorldSource::render`], and
    /// [`RenderError::Png`] when writing fails.
    pub fn write_png(
        &self,
        view: WorldView,
        compression: PngCompression,
        out: impl Write,
        progress: Progress<'_>,
    ) -> Result<WorldCounts> {
        view.check()?;
        let tiles = AtomicU64::new(0);
        let statics = AtomicU64::new(0);
        let stretched = AtomicU64::new(0);
        let rows = crate::parallel_stripe_rows(view.width).max(1);
        crate::write::write_png_parallel_rows(
            out,
            (view.width, view.height),
            (rows, crate::encode::PngFilter::Up, crate::PngColour::Rgba),
            compression,
            |oy, n| {
                let mut stripe = RgbaImage::new(view.width, n, [0; 4])?;
                let y0 = view.y.saturating_add(i64::from(oy));
                let window = Window {
                    x0: view.x,
                    y0,
                    x1: view.x.saturating_add(i64::from(view.width)),
                    y1: y0.saturating_add(i64::from(n)),
                };
                let c = self.draw(&view, window, &mut stripe.pixels);
                tiles.fetch_add(c.tiles_drawn, Ordering::Relaxed);
                statics.fetch_add(c.statics_drawn, Ordering::Relaxed);
                stretched.fetch_add(c.stretched, Ordering::Relaxed);
                Ok(stripe)
            },
            progress,
        )?;
        Ok(WorldCounts {
            tiles_drawn: tiles.into_inner(),
            statics_drawn: statics.into_inner(),
            stretched: stretched.into_inner(),
        })
    }

    /// Draws `window` (rows of `view`) into `pixels` (its RGBA bytes, transparent) and counts
    /// the objects whose first drawn row in the view lies in the window.
    fn draw(&self, view: &WorldView, window: Window, pixels: &mut [u8]) -> WorldCounts {
        let ops = scene::collect(self.facet, &self.lookups, &window);
        let mut pictures = Pictures::new(self.art, self.texmaps, self.hues, self.limits);
        let mut canvas = Canvas {
            pixels,
            window,
            dry: false,
            touched: false,
        };
        let mut counts = WorldCounts::default();
        let mut none: [u8; 0] = [];
        for op in &ops {
            let (partial, translucent) = match op.what {
                scene::What::Static { id, .. } => {
                    let info = self.lookups.item(id);
                    (info.partial, info.translucent)
                }
                _ => (false, false),
            };
            canvas.touched = false;
            let drawn = paint(&mut canvas, &mut pictures, op, partial, translucent);
            if !canvas.touched {
                continue;
            }
            // Counted once: in the window holding its first drawn row in the view. When it
            // reaches above this window inside the view, a dry run over those rows says
            // whether a window above counted it.
            let above = op.bounds.y0.max(view.y);
            if above < window.y0 {
                let mut dry = Canvas {
                    pixels: &mut none,
                    window: Window {
                        x0: window.x0,
                        y0: above,
                        x1: window.x1,
                        y1: window.y0,
                    },
                    dry: true,
                    touched: false,
                };
                paint(&mut dry, &mut pictures, op, partial, translucent);
                if dry.touched {
                    continue;
                }
            }
            match drawn {
                Drawn::Nothing => {}
                Drawn::Flat => counts.tiles_drawn += 1,
                Drawn::Stretched => {
                    counts.tiles_drawn += 1;
                    counts.stretched += 1;
                }
                Drawn::Static => counts.statics_drawn += 1,
            }
        }
        counts
    }
}
