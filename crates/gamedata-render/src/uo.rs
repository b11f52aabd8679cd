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

use std::io::Write;

use crate::{Region, RenderError, Result, RgbaImage};

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
    pub region: Option<Region>,
    /// Shade each tile by its height against its north-west neighbour's, as if lit from
    /// the north-west (see [`shade`]); off by default.
    pub hillshade: bool,
}

impl Default for RadarOptions {
    fn default() -> Self {
        RadarOptions {
            scale: 1,
            region: None,
            hillshade: false,
        }
    }
}

impl RadarOptions {
    /// The region drawn on a facet of `size` and the picture's width and height in pixels
    /// (the region's sides divided by the scale, rounded up).
    ///
    /// Returns [`RenderError::Scale`], [`RenderError::RegionOutside`] or
    /// [`RenderError::TooLarge`].
    pub fn plan(&self, size: MapSize) -> Result<(Region, u32, u32)> {
        if !(1..=256).contains(&self.scale) {
            return Err(RenderError::Scale { scale: self.scale });
        }
        let (width, height) = (size.width(), size.height());
        let region = self.region.unwrap_or(Region::whole(width, height));
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
        hillshade: options.hillshade,
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

/// [`radar`] encoded as an 8-bit RGBA PNG into `out` a stripe of rows at a time (about
/// [`crate::STRIPE_BYTES`] each), so that memory stays within one stripe whatever the picture's
/// size (facet 0 at scale 1 is 7,168 x 4,096 pixels, 112 MiB whole); the pixels are
/// [`radar`]'s. `progress` is called with the output rows done after each stripe. Returns
/// the picture's width and height.
///
/// Returns the errors of [`RadarOptions::plan`] and [`RenderError::Png`] when writing fails.
pub fn write_radar_png(
    facet: &Facet<'_>,
    colours: &RadarColours<'_>,
    options: &RadarOptions,
    out: impl Write,
    progress: &dyn Fn(u32),
) -> Result<(u32, u32)> {
    write_radar_png_rows(facet, colours, options, out, progress, None)
}

/// [`write_radar_png`] with stripes of `rows` output rows (`None`: [`crate::stripe_rows`]).
fn write_radar_png_rows(
    facet: &Facet<'_>,
    colours: &RadarColours<'_>,
    options: &RadarOptions,
    out: impl Write,
    progress: &dyn Fn(u32),
    rows: Option<u32>,
) -> Result<(u32, u32)> {
    let (region, width, height) = options.plan(facet.size())?;
    let rows = rows.unwrap_or_else(|| crate::stripe_rows(width)).max(1);
    let scale = options.scale;
    let bottom = region.y.saturating_add(region.height);
    crate::write_png_stripes(out, width, height, |oy| {
        // Stripes start at multiples of the scale, so each output pixel averages the same
        // tiles as in the whole picture.
        let y = region.y.saturating_add(oy.saturating_mul(scale));
        let tiles = rows.min(height.saturating_sub(oy)).saturating_mul(scale);
        let band = RadarOptions {
            scale,
            hillshade: options.hillshade,
            region: Some(Region::new(
                region.x,
                y,
                region.width,
                tiles.min(bottom.saturating_sub(y)),
            )),
        };
        let stripe = radar(facet, colours, &band)?;
        progress(stripe.height());
        Ok(stripe)
    })?;
    Ok((width, height))
}

/// A facet's radar map at one tile a pixel, as a [`crate::tiles::TileSource`]: the web map
/// pyramid of a facet.
#[derive(Clone, Copy, Debug)]
pub struct RadarSource<'a, 'data> {
    /// The facet.
    pub facet: &'a Facet<'data>,
    /// Its radar colours.
    pub colours: &'a RadarColours<'data>,
    /// Whether tiles are shaded by height ([`RadarOptions::hillshade`]).
    pub hillshade: bool,
}

impl crate::tiles::TileSource for RadarSource<'_, '_> {
    fn size(&self) -> (u32, u32) {
        (self.facet.size().width(), self.facet.size().height())
    }

    fn draw(&self, region: Region) -> Result<RgbaImage> {
        let options = RadarOptions {
            scale: 1,
            region: Some(region),
            hillshade: self.hillshade,
        };
        radar(self.facet, self.colours, &options)
    }
}

/// One radar render's inputs, shared by its tasks.
struct Job<'a, 'data> {
    facet: &'a Facet<'data>,
    colours: &'a RadarColours<'data>,
    /// Inside the facet (checked by [`RadarOptions::plan`]).
    region: Region,
    /// 1 to 256.
    scale: u32,
    /// Output rows.
    oh: u32,
    /// Whether tiles are shaded by height.
    hillshade: bool,
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
                let heights = block_colours(self.facet, self.colours, bx, by, &mut colours);
                if self.hillshade {
                    shade_block(self.facet, bx, by, &heights, &mut colours);
                }
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
/// documentation for the rules); returns each tile's height for [`shade`]: the z of the
/// static shown, else the land's; `None` for all when the map block cannot be read.
fn block_colours(
    facet: &Facet<'_>,
    colours: &RadarColours<'_>,
    bx: u32,
    by: u32,
    out: &mut [[u8; 3]; 64],
) -> [Option<i16>; 64] {
    let Some(block) = facet.map.block(bx, by) else {
        *out = [[0; 3]; 64];
        return [None; 64];
    };
    let mut top = [i16::MIN; 64];
    let mut heights = [None; 64];
    for (((colour, cell), z), h) in out
        .iter_mut()
        .zip(&block.cells)
        .zip(top.iter_mut())
        .zip(heights.iter_mut())
    {
        *colour = rgb555_to_rgb8(colours.land(cell.id.get()).unwrap_or(0));
        *z = i16::from(cell.z).saturating_sub(1);
        *h = Some(i16::from(cell.z));
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
        let (Some(z), Some(colour), Some(h)) = (top.get_mut(i), out.get_mut(i), heights.get_mut(i))
        else {
            continue;
        };
        if i16::from(s.z) >= *z {
            *z = i16::from(s.z);
            *h = Some(i16::from(s.z));
            *colour = rgb555_to_rgb8(colours.item(s.id.get()).unwrap_or(0));
        }
    }
    heights
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
    colours: &mut [[u8; 3]; 64],
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
            *colour = shade(*colour, h.saturating_sub(n));
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

#[cfg(test)]
mod tests {
    use mul_core::synth::World;

    use super::*;

    #[test]
    fn the_png_in_stripes_holds_the_whole_pictures_pixels() {
        let world = World::generate(MapSize::from_blocks(6, 5).unwrap(), 9);
        let facet = Facet::parse(world.facet_bytes(), world.size, None).unwrap();
        let colours = RadarColours::parse(&world.radarcol).unwrap();
        for (scale, region) in [(1, Region::whole(48, 40)), (3, Region::new(5, 4, 40, 35))] {
            let options = RadarOptions {
                scale,
                region: Some(region),
                hillshade: scale == 3,
            };
            let whole = radar(&facet, &colours, &options).unwrap();
            for rows in [1, 2, 5, 100] {
                let mut bytes = Vec::new();
                let done = std::cell::Cell::new(0);
                let size = write_radar_png_rows(
                    &facet,
                    &colours,
                    &options,
                    &mut bytes,
                    &|n| done.set(done.get() + n),
                    Some(rows),
                )
                .unwrap();
                assert_eq!(size, (whole.width(), whole.height()));
                assert_eq!(done.get(), whole.height());
                let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
                    .read_info()
                    .unwrap();
                let mut buf = vec![0; reader.output_buffer_size().unwrap()];
                let info = reader.next_frame(&mut buf).unwrap();
                assert_eq!(
                    &buf[..info.buffer_size()],
                    whole.pixels(),
                    "scale {scale}, {rows} rows"
                );
            }
        }
    }
}
