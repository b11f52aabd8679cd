//! The one PNG writer: [`write_png`] encodes any picture ([`PngPixels`]: held whole,
//! borrowed RGBA bytes, stripes drawn one after another or in parallel) as [`PngOptions`]
//! say, its rows filtered and deflated in parallel parts (`encode`'s documentation,
//! `docs/formats/png.md`); [`write_source_png`] writes a [`TileSource`]'s whole picture.

use std::borrow::Cow;
use std::fmt;
use std::io::Write;

use crate::encode::{ParallelPng, PngColour, PngCompression, PngFilter};
use crate::image::picture_len;
use crate::picture::{Progress, TileSource};
use crate::{MAX_PIXELS, Region, RenderError, Result, RgbaImage};

/// How [`write_png`] stores a picture: how hard it is compressed, how its rows are
/// filtered, which pixels are stored. The pixels decoded are the same whatever the options
/// (`docs/formats/png.md`).
///
/// The default is what `gamedata` writes: [`PngCompression::Fast`], [`PngFilter::Up`],
/// [`PngColour::Rgba`]. Build it from [`PngOptions::default`] and set fields, or with
/// the `with_` methods:
///
/// ```
/// use gamedata_render::{PngCompression, PngFilter, PngOptions};
///
/// let mut options = PngOptions::default();
/// options.compression = PngCompression::Best;
/// assert_eq!(options, PngOptions::default().with_compression(PngCompression::Best));
/// assert_eq!(options.filter, PngFilter::Up);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct PngOptions {
    /// The deflate level: [`PngCompression::Fast`] by default.
    pub compression: PngCompression,
    /// How the rows are filtered: [`PngFilter::Up`] by default (a stripe's first row
    /// `Sub`).
    pub filter: PngFilter,
    /// Which pixels are stored: [`PngColour::Rgba`] by default; [`PngColour::OpaqueRgb`]
    /// for a picture opaque everywhere.
    pub colour: PngColour,
}

impl PngOptions {
    /// Sets [`PngOptions::compression`].
    #[must_use]
    pub const fn with_compression(mut self, compression: PngCompression) -> Self {
        self.compression = compression;
        self
    }

    /// Sets [`PngOptions::filter`].
    #[must_use]
    pub const fn with_filter(mut self, filter: PngFilter) -> Self {
        self.filter = filter;
        self
    }

    /// Sets [`PngOptions::colour`].
    #[must_use]
    pub const fn with_colour(mut self, colour: PngColour) -> Self {
        self.colour = colour;
        self
    }
}

/// The pixels [`write_png`] encodes: RGBA rows top to bottom, 4 bytes a pixel, however
/// the caller has them.
#[non_exhaustive]
pub enum PngPixels<'a> {
    /// A picture held whole (borrowed: no copy).
    Image(&'a RgbaImage),
    /// `width * height * 4` bytes of RGBA the caller holds (borrowed: no copy).
    Rgba {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
        /// The pixels.
        pixels: &'a [u8],
    },
    /// A picture of any size written a stripe at a time, costing the memory of one
    /// stripe: `next(y)` draws the stripe that starts at row `y` (the picture's width, at
    /// least one row, at most the rows left), called until every row is written.
    Stripes {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
        /// Draws the stripe from row `y`.
        next: &'a mut dyn FnMut(u32) -> Result<RgbaImage>,
    },
    /// A picture of any size drawn, filtered and deflated in parallel: `draw(y, rows)`
    /// draws rows `y..y + rows` (the picture's width), called from rayon's threads for
    /// stripes of about [`crate::PARALLEL_STRIPE_BYTES`], a few a thread at a time, so that
    /// memory stays within those stripes whatever the picture's size; `progress` is
    /// called on the calling thread with each stripe's rows once written, in order.
    Parallel {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
        /// Draws rows `y..y + rows`.
        draw: &'a (dyn Fn(u32, u32) -> Result<RgbaImage> + Sync),
        /// Told the rows written.
        progress: Progress<'a>,
    },
}

impl fmt::Debug for PngPixels<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (kind, (width, height)) = match self {
            PngPixels::Image(image) => ("Image", (image.width, image.height)),
            PngPixels::Rgba { width, height, .. } => ("Rgba", (*width, *height)),
            PngPixels::Stripes { width, height, .. } => ("Stripes", (*width, *height)),
            PngPixels::Parallel { width, height, .. } => ("Parallel", (*width, *height)),
        };
        f.debug_struct(kind)
            .field("width", &width)
            .field("height", &height)
            .finish_non_exhaustive()
    }
}

/// Writes `pixels` to `out` as an 8-bit PNG stored as `options` say (the one PNG writer
/// of this crate), its rows filtered and deflated in parallel parts.
///
/// Returns [`RenderError::TooLarge`] for an empty picture, one past [`MAX_PIXELS`], or
/// RGBA bytes that are not `width * height * 4`; [`RenderError::Stripe`] for a stripe
/// that does not fit the picture; the drawing's own errors (the first in row order);
/// [`RenderError::NotOpaque`] for a pixel that is not opaque with
/// [`PngColour::OpaqueRgb`]; and [`RenderError::Png`] when encoding or writing fails.
pub fn write_png<W: Write>(out: W, pixels: PngPixels<'_>, options: &PngOptions) -> Result<()> {
    let PngOptions {
        compression,
        filter,
        colour,
    } = *options;
    match pixels {
        PngPixels::Image(image) => {
            let size = (image.width, image.height);
            let mut png = ParallelPng::with_layout(out, size, compression, filter, colour)?;
            png.write_rows(&image.pixels)?;
            png.finish()
        }
        PngPixels::Rgba {
            width,
            height,
            pixels,
        } => {
            if picture_len(width, height)? != pixels.len() {
                return Err(RenderError::TooLarge {
                    width: u64::from(width),
                    height: u64::from(height),
                    max: MAX_PIXELS,
                });
            }
            let size = (width, height);
            let mut png = ParallelPng::with_layout(out, size, compression, filter, colour)?;
            png.write_rows(pixels)?;
            png.finish()
        }
        PngPixels::Stripes {
            width,
            height,
            next,
        } => {
            picture_len(width, height)?;
            let size = (width, height);
            let mut png = ParallelPng::with_layout(out, size, compression, filter, colour)?;
            let mut y = 0u32;
            while y < height {
                let stripe = next(y)?;
                let rows_left = height.saturating_sub(y);
                if stripe.width != width || stripe.height == 0 || stripe.height > rows_left {
                    return Err(RenderError::Stripe {
                        width: stripe.width,
                        rows: stripe.height,
                        expected_width: width,
                        rows_left,
                    });
                }
                png.write_rows(&stripe.pixels)?;
                y = y.saturating_add(stripe.height);
            }
            png.finish()
        }
        PngPixels::Parallel {
            width,
            height,
            draw,
            progress,
        } => write_png_parallel_rows(
            out,
            (width, height),
            (crate::parallel_stripe_rows(width), filter, colour),
            compression,
            draw,
            progress,
        ),
    }
}

/// [`PngPixels::Parallel`] with stripes of `rows` rows (a radar map's stripes are whole
/// block rows), filtered as `how` says, stored as `colour` says.
pub(crate) fn write_png_parallel_rows<W: Write>(
    out: W,
    (width, height): (u32, u32),
    (rows, how, colour): (u32, PngFilter, PngColour),
    compression: PngCompression,
    draw: impl Fn(u32, u32) -> Result<RgbaImage> + Sync,
    mut progress: impl FnMut(u32),
) -> Result<()> {
    picture_len(width, height)?;
    let mut png = ParallelPng::with_layout(out, (width, height), compression, how, colour)?;
    png.draw_rest(
        rows,
        &|y, rows| {
            let stripe = draw(y, rows)?;
            if stripe.width != width || stripe.height != rows {
                return Err(RenderError::Stripe {
                    width: stripe.width,
                    rows: stripe.height,
                    expected_width: width,
                    rows_left: height.saturating_sub(y),
                });
            }
            Ok(Cow::Owned(stripe.pixels))
        },
        &mut progress,
    )?;
    png.finish()
}

/// Writes `source`'s whole picture to `out` as a PNG stored as `options` say: stripes of
/// about [`crate::PARALLEL_STRIPE_BYTES`] drawn with [`TileSource::draw`] and deflated on
/// rayon's threads, joined into one stream ([`PngPixels::Parallel`]); memory holds a few
/// stripes whatever the picture's size. `progress` gets the rows written.
///
/// Returns `source`'s errors (the first in row order) and the errors of [`write_png`].
pub fn write_source_png<W: Write>(
    out: W,
    source: &(impl TileSource + ?Sized),
    options: &PngOptions,
    progress: Progress<'_>,
) -> Result<()> {
    let (width, height) = source.size();
    let draw = |y, rows| source.draw(Region::new(0, y, width, rows));
    let pixels = PngPixels::Parallel {
        width,
        height,
        draw: &draw,
        progress,
    };
    write_png(out, pixels, options)
}

#[cfg(test)]
mod tests;
