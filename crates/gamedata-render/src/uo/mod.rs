//! Ultima Online radar maps: one colour a tile, as the client's radar map (its overview
//! map) draws the world, in one of three [`RadarStyle`]s.
//!
//! [`RadarStyle::Flat`], this project's own rule: a tile's colour is the radarcol.mul colour
//! (RGB555, widened to 8 bits a channel by [`rgb555_to_rgb8`](mul_core::rgb555_to_rgb8)) of its highest static, else
//! of its land tile; a static shows when its z is at least the land's z less 1, and of two
//! statics at the same z the later one in the block shows, as it is drawn later
//! (`docs/formats/uo.md`, "Radar colours"). [`RadarStyle::Client`] is the client's own rule
//! (`docs/formats/uo.md`, "The client's radar map"; module [`client`]): hued statics, the
//! items the client leaves out, its 5-to-8-bit table and its relief.
//! [`RadarStyle::Altitude`] is the client's tile heights as grey levels.
//!
//! A tile whose map block cannot be read is black; a bad statics block shows its land; a
//! static whose x or y is 8 or more lies outside its block and is on no tile. At `scale` k
//! each output pixel is the average (rounded down, a channel at a time) of the k x k tiles
//! it covers, fewer at the region's right and bottom edges.

pub mod anim;
pub mod art;
mod band;
pub mod client;
pub mod export;
pub mod gump;
mod style;
pub mod texmap;
pub mod world;

use std::fmt;
use std::io::Write;

use mul_core::{Facet, MapSize, RadarColours};
use rayon::prelude::*;

use crate::{PngCompression, Progress, Region, RenderError, Result, RgbaImage};
pub use band::shade;
use band::{FlatColours, Job};
use client::ClientTables;
pub use style::{RadarStyle, RadarTable, UnknownStyle};

/// Tile rows one task computes at least (8 rows of blocks at scale 1): a band's blocks
/// are read once, and those it shares with the band below (and, for the client's relief,
/// the row of heights below it) twice.
const BAND_TILES: u32 = 64;

/// What [`radar`] draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RadarOptions {
    /// Tiles an output pixel along each side, 1 to 256 (facet 0, 7168 x 4096 tiles, at 8 is
    /// 896 x 512 pixels). Default 1.
    pub scale: u32,
    /// The tiles to draw, wholly inside the facet; `None` (the default) draws all of it.
    pub region: Option<Region>,
    /// In the `Flat` style, shade each tile by its height against its north-west
    /// neighbour's, as if lit from the north-west (see [`shade`]); off by default, and
    /// refused with the other styles ([`RadarOptions::check`]: `Client` has the client's
    /// relief).
    pub hillshade: bool,
    /// How tiles are coloured; `Flat` by default.
    pub style: RadarStyle,
}

impl Default for RadarOptions {
    fn default() -> Self {
        RadarOptions {
            scale: 1,
            region: None,
            hillshade: false,
            style: RadarStyle::Flat,
        }
    }
}

impl RadarOptions {
    /// Checks that the options fit each other and `facet`, the one place this is decided:
    /// [`RadarOptions::hillshade`] only with a style that takes it
    /// ([`RadarStyle::takes_hillshade`]), and every file the style needs
    /// ([`RadarStyle::needs`]) in `facet`. [`radar`], [`write_radar_png`] and
    /// [`RadarSource::new`] call it; a program may call it first to phrase its own message.
    ///
    /// Returns [`RenderError::Hillshade`] or [`RenderError::MissingTable`] (naming the
    /// first file missing).
    pub fn check(&self, facet: &Facet<'_>) -> Result<()> {
        let style = self.style;
        if self.hillshade && !style.takes_hillshade() {
            return Err(RenderError::Hillshade {
                style: style.name(),
            });
        }
        match style.needs().iter().find(|table| !table.is_in(facet)) {
            Some(&table) => Err(RenderError::MissingTable {
                table,
                style: style.name(),
            }),
            None => Ok(()),
        }
    }

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
/// The `Client` and `Altitude` styles take tiledata (and `Client` hues) from `facet`.
///
/// Returns the errors of [`RadarOptions::check`] and [`RadarOptions::plan`].
pub fn radar(
    facet: &Facet<'_>,
    colours: &RadarColours<'_>,
    options: &RadarOptions,
) -> Result<RgbaImage> {
    radar_with_progress(facet, colours, options, &|_| {})
}

/// [`radar`], calling `progress` with the number of output rows finished each time a band
/// of them is done (from rayon's threads; the calls add up to the picture's height).
pub fn radar_with_progress(
    facet: &Facet<'_>,
    colours: &RadarColours<'_>,
    options: &RadarOptions,
    progress: Progress<'_>,
) -> Result<RgbaImage> {
    options.check(facet)?;
    let tables = ClientTables::for_style(facet, colours, options.style);
    let flat = FlatColours::new(colours, options.style);
    draw(facet, &flat, options, tables.as_ref(), BAND_TILES, progress)
}

/// [`radar_with_progress`] with the style's tables made.
/// Bands of about `band_tiles` tile rows are drawn in parallel.
fn draw(
    facet: &Facet<'_>,
    flat: &FlatColours,
    options: &RadarOptions,
    client: Option<&ClientTables<'_, '_>>,
    band_tiles: u32,
    progress: Progress<'_>,
) -> Result<RgbaImage> {
    let (region, ow, oh) = options.plan(facet.size())?;
    let mut image = RgbaImage::new(ow, oh, [0, 0, 0, 255])?;
    let scale = options.scale;
    let band_rows = band_tiles.div_ceil(scale).max(1);
    let row_bytes = (ow as usize).saturating_mul(4).max(1);
    let bottom = region.y.saturating_add(region.height);
    image
        .pixels
        .par_chunks_mut(row_bytes.saturating_mul(band_rows as usize))
        .enumerate()
        .for_each(|(i, out)| {
            let rows = u32::try_from(out.len().checked_div(row_bytes).unwrap_or(0)).unwrap_or(0);
            let oy0 = u32::try_from(i).unwrap_or(0).saturating_mul(band_rows);
            let ty0 = region.y.saturating_add(oy0.saturating_mul(scale));
            let ty1 = ty0.saturating_add(rows.saturating_mul(scale)).min(bottom);
            let job = Job {
                facet,
                flat,
                region: Region::new(region.x, ty0, region.width, ty1.saturating_sub(ty0)),
                scale,
                hillshade: options.hillshade,
                style: options.style,
                client,
            };
            job.band(out, ow);
            progress(rows);
        });
    Ok(image)
}

/// [`radar`] encoded as an 8-bit RGB PNG into `out` (a radar map is opaque everywhere, so
/// it is stored without alpha: [`crate::PngColour::OpaqueRgb`]), drawn and deflated in
/// stripes of whole block rows (about [`crate::PARALLEL_STRIPE_BYTES`] each) on rayon's
/// threads, a few at a time, as [`crate::PngPixels::Parallel`] is, so that memory stays
/// within those stripes whatever the picture's size (facet 0 at scale 1 is 7,168 x 4,096
/// pixels, 112 MiB whole); the pixels are [`radar`]'s (the `Client` relief reads the row of
/// heights below each stripe), deflated at `compression`'s level. `progress` is called with
/// the output rows done after each stripe. Returns the picture's width and height.
///
/// Returns the errors of [`radar`] and [`RenderError::Png`] when writing fails.
pub fn write_radar_png(
    facet: &Facet<'_>,
    colours: &RadarColours<'_>,
    options: &RadarOptions,
    compression: PngCompression,
    out: impl Write,
    progress: Progress<'_>,
) -> Result<(u32, u32)> {
    write_radar_png_rows(facet, colours, options, out, progress, None, compression)
}

/// [`write_radar_png`] with stripes of `rows` output rows (`None`: [`crate::stripe_rows`]).
fn write_radar_png_rows(
    facet: &Facet<'_>,
    colours: &RadarColours<'_>,
    options: &RadarOptions,
    out: impl Write,
    progress: Progress<'_>,
    rows: Option<u32>,
    compression: PngCompression,
) -> Result<(u32, u32)> {
    options.check(facet)?;
    let (region, width, height) = options.plan(facet.size())?;
    let tables = ClientTables::for_style(facet, colours, options.style);
    let flat = FlatColours::new(colours, options.style);
    // Whole block rows a stripe (at any scale, 8 output rows are 8 x scale tiles), so that
    // a stripe starting on a block row reads each of its blocks once.
    let rows = rows
        .unwrap_or_else(|| {
            let rows = crate::parallel_stripe_rows(width);
            if rows >= 8 { rows & !7 } else { rows }
        })
        .max(1);
    let scale = options.scale;
    let bottom = region.y.saturating_add(region.height);
    let draw_rows = |oy: u32, n: u32| {
        // Stripes start at multiples of the scale, so each output pixel averages the same
        // tiles as in the whole picture.
        let y = region.y.saturating_add(oy.saturating_mul(scale));
        let tiles = n.saturating_mul(scale);
        let band = RadarOptions {
            region: Some(Region::new(
                region.x,
                y,
                region.width,
                tiles.min(bottom.saturating_sub(y)),
            )),
            ..*options
        };
        // One band a stripe: the stripes are the parallel tasks.
        draw(facet, &flat, &band, tables.as_ref(), u32::MAX, &|_| {})
    };
    // Radar maps compress better filtered `Sub` (docs/formats/png.md); they are opaque
    // everywhere, so stored without alpha.
    crate::write::write_png_parallel_rows(
        out,
        (width, height),
        (
            rows,
            crate::encode::PngFilter::Sub,
            crate::PngColour::OpaqueRgb,
        ),
        compression,
        draw_rows,
        progress,
    )?;
    Ok((width, height))
}

/// A facet's radar map at one tile a pixel, as a [`crate::tiles::TileSource`]: the web map
/// pyramid of a facet.
pub struct RadarSource<'a, 'data> {
    facet: &'a Facet<'data>,
    flat: FlatColours,
    options: RadarOptions,
    client: Option<ClientTables<'a, 'data>>,
}

impl<'a, 'data> RadarSource<'a, 'data> {
    /// The radar map of `facet` coloured by `colours` in `options`' style (and hillshading);
    /// its scale and region are not used: a tile source draws any region at one tile a
    /// pixel.
    ///
    /// Returns the errors of [`RadarOptions::check`].
    pub fn new(
        facet: &'a Facet<'data>,
        colours: &'a RadarColours<'data>,
        options: &RadarOptions,
    ) -> Result<Self> {
        options.check(facet)?;
        Ok(RadarSource {
            facet,
            flat: FlatColours::new(colours, options.style),
            options: *options,
            client: ClientTables::for_style(facet, colours, options.style),
        })
    }
}

impl fmt::Debug for RadarSource<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RadarSource")
            .field("size", &self.facet.size())
            .field("style", &self.options.style)
            .field("hillshade", &self.options.hillshade)
            .finish_non_exhaustive()
    }
}

impl crate::picture::TileSource for RadarSource<'_, '_> {
    fn size(&self) -> (u32, u32) {
        (self.facet.size().width(), self.facet.size().height())
    }

    fn draw(&self, region: Region) -> Result<RgbaImage> {
        let options = RadarOptions {
            scale: 1,
            region: Some(region),
            ..self.options
        };
        draw(
            self.facet,
            &self.flat,
            &options,
            self.client.as_ref(),
            BAND_TILES,
            &|_| {},
        )
    }
}

#[cfg(test)]
mod tests;
