//! Ultima Online radar maps: one colour a tile, as the client's radar map (its overview
//! map) draws the world.
//!
//! A tile's colour is the radarcol.mul colour (RGB555, widened to 8 bits a channel) of its
//! highest static, else of its land tile; a static shows when its z is at least the land's
//! z less 1, and of two statics at the same z the later one in the block shows, as it is
//! drawn later (`docs/formats/uo.md`, "Radar colours"). A tile whose map block cannot be
//! read is black; a bad statics block shows its land; a static whose x or y is 8 or more
//! lies outside its block and is on no tile. At `scale` k each output pixel is the
//! average (rounded down, a channel at a time) of the k x k tiles it covers, fewer at the
//! region's right and bottom edges.

use mul_core::{Facet, MapSize, RadarColours, rgb555_to_rgb8};
use rayon::prelude::*;

use crate::{RenderError, Result, RgbaImage};

/// Output columns one task computes: 8 columns of blocks at scale 1, read in file order
/// (blocks are stored column by column).
const STRIPE: u32 = 8;

/// What [`radar`] draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RadarOptions {
    /// Tiles an output pixel along each side, 1 to 256 (facet 0, 7168 x 4096 tiles, at 8 is
    /// 896 x 512 pixels). Default 1.
    pub scale: u32,
    /// The tiles to draw, wholly inside the facet; `None` (the default) draws all of it.
    pub region: Option<crate::Region>,
}

impl Default for RadarOptions {
    fn default() -> Self {
        RadarOptions {
            scale: 1,
            region: None,
        }
    }
}

impl RadarOptions {
    /// The region drawn on a facet of `size` and the picture's width and height in pixels
    /// (the region's sides divided by the scale, rounded up).
    ///
    /// Returns [`RenderError::Scale`], [`RenderError::RegionOutside`] or
    /// [`RenderError::TooLarge`].
    pub fn plan(&self, size: MapSize) -> Result<(crate::Region, u32, u32)> {
        if !(1..=256).contains(&self.scale) {
            return Err(RenderError::Scale { scale: self.scale });
        }
        let (width, height) = (size.width(), size.height());
        let region = self.region.unwrap_or(crate::Region::whole(width, height));
        if !region.is_inside(width, height) {
            return Err(RenderError::RegionOutside {
                region,
                width,
                height,
            });
        }
        let (ow, oh) = (
            region.width.div_ceil(self.scale),
            region.height.div_ceil(self.scale),
        );
        if u64::from(ow).saturating_mul(u64::from(oh)) > crate::MAX_PIXELS {
            return Err(RenderError::TooLarge {
                width: u64::from(ow),
                height: u64::from(oh),
                max: crate::MAX_PIXELS,
            });
        }
        Ok((region, ow, oh))
    }
}

/// The radar map of `facet` coloured by `colours`, as [`RadarOptions`] say; opaque pixels.
///
/// Returns the errors of [`RadarOptions::plan`].
pub fn radar(
    facet: &Facet<'_>,
    colours: &RadarColours<'_>,
    options: &RadarOptions,
) -> Result<RgbaImage> {
    radar_with_progress(facet, colours, options, &|_| {})
}

/// [`radar`], calling `progress` with the number of output columns finished each time a
/// stripe of them is done (from rayon's threads; the calls add up to the picture's width).
pub fn radar_with_progress(
    facet: &Facet<'_>,
    colours: &RadarColours<'_>,
    options: &RadarOptions,
    progress: &(dyn Fn(u32) + Sync),
) -> Result<RgbaImage> {
    let (region, ow, oh) = options.plan(facet.size())?;
    let mut image = RgbaImage::new(ow, oh, [0, 0, 0, 255])?;
    let job = Job {
        facet,
        colours,
        region,
        scale: options.scale,
        oh,
    };
    let stripes: Vec<(u32, Vec<[u8; 3]>)> = (0..ow.div_ceil(STRIPE))
        .into_par_iter()
        .map(|s| {
            let ox0 = s.saturating_mul(STRIPE);
            let ox1 = ox0.saturating_add(STRIPE).min(ow);
            let pixels = job.stripe(ox0, ox1);
            progress(ox1.saturating_sub(ox0));
            (ox0, pixels)
        })
        .collect();
    for (ox0, pixels) in stripes {
        let width = STRIPE.min(ow.saturating_sub(ox0)).max(1);
        for (i, [r, g, b]) in (0u32..).zip(pixels) {
            let (dx, y) = (i.checked_rem(width), i.checked_div(width));
            image.set(
                ox0.saturating_add(dx.unwrap_or(0)),
                y.unwrap_or(0),
                [r, g, b, 255],
            );
        }
    }
    Ok(image)
}

/// One radar render's inputs, shared by its tasks.
struct Job<'a, 'data> {
    facet: &'a Facet<'data>,
    colours: &'a RadarColours<'data>,
    /// Inside the facet (checked by [`RadarOptions::plan`]).
    region: crate::Region,
    /// 1 to 256.
    scale: u32,
    /// Output rows.
    oh: u32,
}

impl Job<'_, '_> {
    /// Output columns `ox0..ox1` (all rows), row-major within the stripe.
    fn stripe(&self, ox0: u32, ox1: u32) -> Vec<[u8; 3]> {
        let Job { region, scale, .. } = *self;
        // The region is inside the facet, so tile coordinates stay below its width and
        // height (u32); output coordinates times the scale stay within the region.
        let tx0 = region.x.saturating_add(ox0.saturating_mul(scale));
        let right = region.x.saturating_add(region.width);
        let tx1 = region
            .x
            .saturating_add(ox1.saturating_mul(scale))
            .min(right);
        let (ty0, ty1) = (region.y, region.y.saturating_add(region.height));
        let width = ox1.saturating_sub(ox0) as usize;
        let mut sums = vec![[0u32; 4]; width.saturating_mul(self.oh as usize)];
        let mut colours = [[0u8; 3]; 64];
        for bx in tx0 / 8..tx1.div_ceil(8) {
            for by in ty0 / 8..ty1.div_ceil(8) {
                block_colours(self.facet, self.colours, bx, by, &mut colours);
                for (i, colour) in (0u32..).zip(&colours) {
                    let x = bx.saturating_mul(8).saturating_add(i % 8);
                    let y = by.saturating_mul(8).saturating_add(i / 8);
                    if x < tx0 || x >= tx1 || y < ty0 || y >= ty1 {
                        continue;
                    }
                    let ox = x.saturating_sub(region.x).checked_div(scale).unwrap_or(0);
                    let ox = ox.saturating_sub(ox0) as usize;
                    let oy = y.saturating_sub(region.y).checked_div(scale).unwrap_or(0) as usize;
                    let at = oy.saturating_mul(width).saturating_add(ox);
                    if let Some(sum) = sums.get_mut(at) {
                        // At most 256 x 256 tiles of at most 255 a channel: no overflow.
                        for (s, c) in sum.iter_mut().zip(colour) {
                            *s = s.saturating_add(u32::from(*c));
                        }
                        sum[3] = sum[3].saturating_add(1);
                    }
                }
            }
        }
        sums.iter()
            .map(|&[r, g, b, n]| {
                [r, g, b].map(|v| u8::try_from(v.checked_div(n).unwrap_or(0)).unwrap_or(u8::MAX))
            })
            .collect()
    }
}

/// The radar colour of each of block (bx, by)'s 64 tiles, row by row (see the module's
/// documentation for the rules).
fn block_colours(
    facet: &Facet<'_>,
    colours: &RadarColours<'_>,
    bx: u32,
    by: u32,
    out: &mut [[u8; 3]; 64],
) {
    let Some(block) = facet.map.block(bx, by) else {
        *out = [[0; 3]; 64];
        return;
    };
    let mut top = [i16::MIN; 64];
    for ((colour, cell), z) in out.iter_mut().zip(&block.cells).zip(top.iter_mut()) {
        *colour = rgb555_to_rgb8(colours.land(cell.id.get()).unwrap_or(0));
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
        let i = usize::from(s.y)
            .saturating_mul(8)
            .saturating_add(usize::from(s.x));
        let (Some(z), Some(colour)) = (top.get_mut(i), out.get_mut(i)) else {
            continue;
        };
        if i16::from(s.z) >= *z {
            *z = i16::from(s.z);
            *colour = rgb555_to_rgb8(colours.item(s.id.get()).unwrap_or(0));
        }
    }
}
