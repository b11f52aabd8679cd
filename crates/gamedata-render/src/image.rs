//! The one picture type every renderer draws into, and its PNG encoding.

use std::borrow::Cow;
use std::fmt;
use std::io::Write;

use crate::encode::ParallelPng;

use crate::{RenderError, Result};

/// The most pixels a render may have: 2^28 (1 GiB of RGBA).
pub const MAX_PIXELS: u64 = 1 << 28;

/// An RGBA picture, 4 bytes a pixel (red, green, blue, alpha), rows top to bottom.
#[derive(Clone, PartialEq, Eq)]
pub struct RgbaImage {
    pub(crate) width: u32,
    pub(crate) height: u32,
    /// `width * height * 4` bytes.
    pub(crate) pixels: Vec<u8>,
}

impl fmt::Debug for RgbaImage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RgbaImage")
            .field("width", &self.width)
            .field("height", &self.height)
            .finish_non_exhaustive()
    }
}

/// The byte length of a `width` x `height` RGBA picture, if it has at most [`MAX_PIXELS`].
fn byte_len(width: u32, height: u32) -> Result<usize> {
    let pixels = u64::from(width).saturating_mul(u64::from(height));
    // At most 2^30 bytes when within the cap.
    usize::try_from(pixels.saturating_mul(4))
        .ok()
        .filter(|_| pixels <= MAX_PIXELS)
        .ok_or(RenderError::TooLarge {
            width: u64::from(width),
            height: u64::from(height),
            max: MAX_PIXELS,
        })
}

/// The byte length of a `width` x `height` RGBA picture of 1 to [`MAX_PIXELS`] pixels: an
/// empty one is [`RenderError::TooLarge`] too.
fn picture_len(width: u32, height: u32) -> Result<usize> {
    if width == 0 || height == 0 {
        return Err(RenderError::TooLarge {
            width: u64::from(width),
            height: u64::from(height),
            max: MAX_PIXELS,
        });
    }
    byte_len(width, height)
}

/// Bytes of one stripe when a picture is drawn and encoded a stripe at a time: 16 MiB.
pub const STRIPE_BYTES: usize = 16 << 20;

/// Rows of a picture `width` pixels wide that fill a stripe of about [`STRIPE_BYTES`]; at
/// least 1.
pub fn stripe_rows(width: u32) -> u32 {
    crate::encode::rows_in(STRIPE_BYTES, width)
}

impl RgbaImage {
    /// A `width` x `height` picture filled with `fill`.
    ///
    /// Returns [`RenderError::TooLarge`] above [`MAX_PIXELS`].
    pub fn new(width: u32, height: u32, fill: [u8; 4]) -> Result<Self> {
        let len = byte_len(width, height)?;
        Ok(RgbaImage {
            width,
            height,
            pixels: fill.repeat(len / 4),
        })
    }

    /// A picture over `pixels` (`width * height * 4` bytes, rows top to bottom); `None` when
    /// the length is not that.
    pub fn from_pixels(width: u32, height: u32, pixels: Vec<u8>) -> Option<Self> {
        (byte_len(width, height).ok()? == pixels.len()).then_some(RgbaImage {
            width,
            height,
            pixels,
        })
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The pixels: `width * height * 4` bytes, rows top to bottom.
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// The pixels, owned.
    pub fn into_pixels(self) -> Vec<u8> {
        self.pixels
    }

    /// Row `y` (`width * 4` bytes), or `None` below the picture.
    pub fn row(&self, y: u32) -> Option<&[u8]> {
        let row = usize::try_from(self.width).ok()?.checked_mul(4)?;
        let start = usize::try_from(y).ok()?.checked_mul(row)?;
        self.pixels.get(start..start.checked_add(row)?)
    }

    /// Row `y` (`width * 4` bytes) to change, or `None` below the picture.
    pub fn row_mut(&mut self, y: u32) -> Option<&mut [u8]> {
        let row = usize::try_from(self.width).ok()?.checked_mul(4)?;
        let start = usize::try_from(y).ok()?.checked_mul(row)?;
        self.pixels.get_mut(start..start.checked_add(row)?)
    }

    fn offset(&self, x: u32, y: u32) -> Option<usize> {
        if x >= self.width || y >= self.height {
            return None;
        }
        // Inside a picture of at most 2^28 pixels: no overflow.
        let index = u64::from(y)
            .checked_mul(u64::from(self.width))?
            .checked_add(u64::from(x))?;
        usize::try_from(index.checked_mul(4)?).ok()
    }

    /// The pixel at (`x`, `y`), or `None` outside the picture.
    pub fn get(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        let at = self.offset(x, y)?;
        self.pixels.get(at..at.checked_add(4)?)?.try_into().ok()
    }

    /// Sets the pixel at (`x`, `y`); does nothing outside the picture.
    pub fn set(&mut self, x: u32, y: u32, rgba: [u8; 4]) {
        if let Some(at) = self.offset(x, y)
            && let Some(end) = at.checked_add(4)
            && let Some(p) = self.pixels.get_mut(at..end)
        {
            p.copy_from_slice(&rgba);
        }
    }

    /// Blends `colour` at opacity `alpha` / 256 (`alpha` at most 256) into pixel (`x`, `y`);
    /// the result is opaque. Does nothing outside the picture.
    pub fn blend(&mut self, x: u32, y: u32, colour: [u8; 3], alpha: u16) {
        let Some(under) = self.get(x, y) else {
            return;
        };
        let alpha = u32::from(alpha.min(256));
        // At most (255 * 256 + 255 * 256) / 256: no overflow.
        let mix = |src: u8, dst: u8| {
            let v = u32::from(src)
                .saturating_mul(alpha)
                .saturating_add(u32::from(dst).saturating_mul(256u32.saturating_sub(alpha)))
                / 256;
            u8::try_from(v).unwrap_or(u8::MAX)
        };
        let [r, g, b] = colour;
        let [ur, ug, ub, _] = under;
        self.set(x, y, [mix(r, ur), mix(g, ug), mix(b, ub), 255]);
    }

    /// Encodes the picture as an 8-bit RGBA PNG into `out`, [`PngCompression::Fast`].
    ///
    /// Returns [`RenderError::Png`] when encoding or writing fails.
    pub fn write_png(&self, out: impl Write) -> Result<()> {
        self.write_png_with(out, PngCompression::default())
    }

    /// [`RgbaImage::write_png`] compressed as `compression` says: rows filtered and
    /// deflated in parallel parts (`encode`'s documentation).
    ///
    /// Returns [`RenderError::Png`] when encoding or writing fails.
    pub fn write_png_with(&self, out: impl Write, compression: PngCompression) -> Result<()> {
        self.write_png_filtered(out, compression, crate::PngFilter::Up)
    }

    /// [`RgbaImage::write_png_with`] with the rows filtered as `filter` says
    /// ([`crate::PngFilter::Sub`] for radar maps; the pixels are the same).
    ///
    /// Returns [`RenderError::Png`] when encoding or writing fails.
    pub fn write_png_filtered(
        &self,
        out: impl Write,
        compression: PngCompression,
        filter: crate::PngFilter,
    ) -> Result<()> {
        self.write_png_as(out, compression, filter, crate::PngColour::Rgba)
    }

    /// Reads a PNG back: an 8-bit RGBA picture as it is, an 8-bit RGB one (such as a radar
    /// map, stored without alpha: [`crate::PngColour::OpaqueRgb`]) with alpha 255. The
    /// pixels are what the writers of this crate were given.
    ///
    /// Returns [`RenderError::PngRead`] for bytes that are not such a PNG, another colour
    /// type or depth, or a picture past [`MAX_PIXELS`].
    pub fn from_png(bytes: &[u8]) -> Result<Self> {
        let read = |e: &dyn std::fmt::Display| RenderError::PngRead(e.to_string());
        let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        // The decoder's own buffers, besides the picture (bounded below).
        decoder.set_limits(png::Limits { bytes: 64 << 20 });
        let mut reader = decoder.read_info().map_err(|e| read(&e))?;
        let (width, height) = reader.info().size();
        let rgb = match reader.info().color_type {
            png::ColorType::Rgb => true,
            png::ColorType::Rgba => false,
            other => return Err(read(&format_args!("a {other:?} picture, not RGB or RGBA"))),
        };
        if reader.info().bit_depth != png::BitDepth::Eight {
            return Err(read(&"not 8 bits a channel"));
        }
        picture_len(width, height)?;
        let size = reader
            .output_buffer_size()
            .ok_or_else(|| read(&"too large"))?;
        let mut buf = vec![0; size];
        let frame = reader.next_frame(&mut buf).map_err(|e| read(&e))?;
        buf.truncate(frame.buffer_size());
        if rgb {
            buf = buf
                .chunks_exact(3)
                .flat_map(|p| match *p {
                    [r, g, b] => [r, g, b, u8::MAX],
                    _ => [0; 4],
                })
                .collect();
        }
        RgbaImage::from_pixels(width, height, buf).ok_or_else(|| read(&"a short picture"))
    }

    /// True if every pixel's alpha is 255.
    pub fn is_opaque(&self) -> bool {
        // Every pixel's word ANDed, no early exit: one pass the compiler widens.
        let all = self.pixels.chunks_exact(4).fold(u32::MAX, |all, p| {
            all & p.try_into().map_or(0, u32::from_le_bytes)
        });
        all >> 24 == 0xFF
    }

    /// [`RgbaImage::write_png_filtered`] storing the pixels as `colour` says
    /// ([`crate::PngColour::OpaqueRgb`] for a picture opaque everywhere; the colours
    /// decoded are the same).
    ///
    /// Returns [`RenderError::NotOpaque`] for a pixel that is not opaque when `colour` is
    /// [`crate::PngColour::OpaqueRgb`], and [`RenderError::Png`] when encoding or writing
    /// fails.
    pub fn write_png_as(
        &self,
        out: impl Write,
        compression: PngCompression,
        filter: crate::PngFilter,
        colour: crate::PngColour,
    ) -> Result<()> {
        let size = (self.width, self.height);
        let mut png = ParallelPng::with_layout(out, size, compression, filter, colour)?;
        png.write_rows(&self.pixels)?;
        png.finish()
    }
}

/// How hard a PNG is compressed: zlib-rs's deflate level, the rows filtered `Up` (a
/// stripe's first row `Sub`), stripes deflated in parallel (`docs/formats/png.md`). The
/// pixels are the same at every level.
///
/// `Fast` (the default) is level 2: on the project's pictures within 1.25 times the size
/// that C zlib's level 1 makes of the raw pixels, in a third of its time on one core
/// (`benches/README.md`, "Pictures at memory speed"); `Default` is level 6 and `Best` level 9, for
/// archives of tiles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PngCompression {
    /// Level 2.
    #[default]
    Fast,
    /// Level 6.
    Default,
    /// Level 9.
    Best,
}

impl PngCompression {
    /// The three levels.
    pub const ALL: [PngCompression; 3] = [
        PngCompression::Fast,
        PngCompression::Default,
        PngCompression::Best,
    ];

    /// The level's name as the command line and Python spell it: `fast`, `default` or
    /// `best`.
    pub const fn name(self) -> &'static str {
        match self {
            PngCompression::Fast => "fast",
            PngCompression::Default => "default",
            PngCompression::Best => "best",
        }
    }
}

/// A name that is not one of [`PngCompression::name`]'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a PNG compression (fast, default or best)")]
pub struct UnknownCompression(pub String);

impl std::str::FromStr for PngCompression {
    type Err = UnknownCompression;

    /// The level of that name, in any letter case.
    fn from_str(text: &str) -> std::result::Result<Self, UnknownCompression> {
        PngCompression::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| UnknownCompression(text.to_owned()))
    }
}

/// Writes an 8-bit RGBA PNG of `width` x `height` pixels to `out` a stripe of rows at a
/// time, so that a picture of any size costs the memory of one stripe: `next(y)` draws the
/// stripe that starts at row `y` (the picture's width, at least one row, at most the rows
/// left), called until every row is written; [`PngCompression::Fast`].
///
/// Returns [`RenderError::TooLarge`] for an empty picture or one past [`MAX_PIXELS`],
/// [`RenderError::Stripe`] for a stripe that does not fit, `next`'s errors, and
/// [`RenderError::Png`] when writing fails.
pub fn write_png_stripes<W: Write>(
    out: W,
    width: u32,
    height: u32,
    next: impl FnMut(u32) -> Result<RgbaImage>,
) -> Result<()> {
    write_png_stripes_with(out, width, height, PngCompression::default(), next)
}

/// [`write_png_stripes`] compressed as `compression` says.
///
/// Returns the errors of [`write_png_stripes`].
pub fn write_png_stripes_with<W: Write>(
    out: W,
    width: u32,
    height: u32,
    compression: PngCompression,
    mut next: impl FnMut(u32) -> Result<RgbaImage>,
) -> Result<()> {
    picture_len(width, height)?;
    let mut png = ParallelPng::new(out, width, height, compression)?;
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

/// Writes `pixels` (`width * height * 4` bytes, RGBA rows top to bottom, borrowed: no copy)
/// as an 8-bit RGBA PNG to `out`, as [`RgbaImage::write_png_with`] does.
///
/// Returns [`RenderError::TooLarge`] when the length is not that of such a picture of at
/// most [`MAX_PIXELS`] (or it is empty), and [`RenderError::Png`] when writing fails.
pub fn write_png_pixels<W: Write>(
    out: W,
    width: u32,
    height: u32,
    pixels: &[u8],
    compression: PngCompression,
) -> Result<()> {
    if picture_len(width, height)? != pixels.len() {
        return Err(RenderError::TooLarge {
            width: u64::from(width),
            height: u64::from(height),
            max: MAX_PIXELS,
        });
    }
    let mut png = ParallelPng::new(out, width, height, compression)?;
    png.write_rows(pixels)?;
    png.finish()
}

/// Writes an 8-bit RGBA PNG of `width` x `height` pixels to `out`, its stripes drawn,
/// filtered and deflated in parallel: `draw(y, rows)` draws rows `y..y + rows` (the
/// picture's width), called from rayon's threads for stripes of about
/// [`crate::PARALLEL_STRIPE_BYTES`], a few a thread at a time, so that memory stays within
/// those stripes whatever the picture's size; `progress` is called on the calling thread
/// with each stripe's rows once written, in order.
///
/// Returns [`RenderError::TooLarge`] for an empty picture or one past [`MAX_PIXELS`],
/// [`RenderError::Stripe`] for a stripe that is not `rows` rows of the picture's width,
/// `draw`'s errors (the first in row order), and [`RenderError::Png`] when writing fails.
pub fn write_png_parallel<W: Write>(
    out: W,
    width: u32,
    height: u32,
    compression: PngCompression,
    draw: impl Fn(u32, u32) -> Result<RgbaImage> + Sync,
    progress: crate::Progress<'_>,
) -> Result<()> {
    let rows = crate::parallel_stripe_rows(width);
    let how = crate::encode::PngFilter::Up;
    write_png_parallel_rows(
        out,
        (width, height),
        (rows, how, crate::PngColour::Rgba),
        compression,
        draw,
        progress,
    )
}

/// [`write_png_parallel`] with stripes of `rows` rows, filtered as `how` says, stored as
/// `colour` says.
pub(crate) fn write_png_parallel_rows<W: Write>(
    out: W,
    (width, height): (u32, u32),
    (rows, how, colour): (u32, crate::encode::PngFilter, crate::PngColour),
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

#[cfg(test)]
// Test values are small by construction: casts cut nothing.
#[allow(clippy::cast_possible_truncation)]
mod tests {
    use super::*;

    #[test]
    fn get_set_and_blend_stay_inside_the_picture() {
        let mut img = RgbaImage::new(2, 3, [10, 20, 30, 255]).unwrap();
        assert_eq!(img.pixels().len(), 24);
        img.set(1, 2, [1, 2, 3, 4]);
        assert_eq!(img.get(1, 2), Some([1, 2, 3, 4]));
        assert_eq!(img.row(2), Some(&[10, 20, 30, 255, 1, 2, 3, 4][..]));
        assert_eq!(img.row(3), None);
        assert_eq!(img.get(2, 0), None);
        img.set(5, 5, [9; 4]); // outside: nothing happens
        img.blend(0, 0, [255, 255, 255], 128);
        // (255 * 128 + 10 * 128) / 256 = 132.5 -> 132
        assert_eq!(img.get(0, 0), Some([132, 137, 142, 255]));
        img.blend(0, 1, [0, 0, 0], 256);
        assert_eq!(img.get(0, 1), Some([0, 0, 0, 255]));
    }

    #[test]
    fn sizes_past_the_cap_are_refused() {
        assert!(matches!(
            RgbaImage::new(u32::MAX, u32::MAX, [0; 4]),
            Err(RenderError::TooLarge { .. })
        ));
        assert_eq!(byte_len(1 << 14, 1 << 14).ok(), Some(1 << 30));
        assert!(RgbaImage::new((1 << 14) + 1, 1 << 14, [0; 4]).is_err());
        assert!(RgbaImage::from_pixels(2, 2, vec![0; 16]).is_some());
        assert!(RgbaImage::from_pixels(2, 2, vec![0; 15]).is_none());
    }

    #[test]
    fn a_png_written_in_stripes_decodes_to_the_whole_picture() {
        let mut whole = RgbaImage::new(5, 7, [9, 9, 9, 255]).unwrap();
        for y in 0..7u8 {
            whole.set(u32::from(y % 5), u32::from(y), [y * 30, 0, 255, 255]);
        }
        let stripe = |y0: u32, rows: u32| {
            let bytes: Vec<u8> = (y0..y0 + rows)
                .flat_map(|y| whole.row(y).unwrap().to_vec())
                .collect();
            RgbaImage::from_pixels(5, rows, bytes).unwrap()
        };
        let mut bytes = Vec::new();
        write_png_stripes(&mut bytes, 5, 7, |y| Ok(stripe(y, 3.min(7 - y)))).unwrap();
        assert_eq!(&RgbaImage::from_png(&bytes).unwrap(), &whole);
        // Stripes that do not fit: too many rows, another width, no rows.
        let too_many = write_png_stripes(Vec::new(), 5, 2, |_| Ok(stripe(0, 3)));
        assert!(matches!(
            too_many,
            Err(RenderError::Stripe {
                rows: 3,
                rows_left: 2,
                ..
            })
        ));
        let narrow = write_png_stripes(Vec::new(), 4, 2, |_| Ok(stripe(0, 1)));
        assert!(matches!(narrow, Err(RenderError::Stripe { width: 5, .. })));
        let empty = write_png_stripes(Vec::new(), 5, 2, |_| RgbaImage::new(5, 0, [0; 4]));
        assert!(matches!(empty, Err(RenderError::Stripe { rows: 0, .. })));
    }

    fn decoded(bytes: Vec<u8>) -> (u32, u32, Vec<u8>) {
        let image = RgbaImage::from_png(&bytes).unwrap();
        (image.width(), image.height(), image.into_pixels())
    }

    #[test]
    fn a_source_written_whole_decodes_to_its_picture_and_reports_its_rows() {
        let mut whole = RgbaImage::new(700, 900, [0, 0, 0, 255]).unwrap();
        for y in 0..900u32 {
            whole.set((y * 7) % 700, y, [y as u8, (y / 3) as u8, 9, 255]);
        }
        let done = std::sync::atomic::AtomicU32::new(0);
        let mut bytes = Vec::new();
        crate::write_source_png(&mut bytes, &whole, PngCompression::Fast, &|n| {
            done.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        })
        .unwrap();
        assert_eq!(decoded(bytes), (700, 900, whole.pixels().to_vec()));
        assert_eq!(done.into_inner(), 900);

        /// A source whose draw fails: its error comes out, nothing else.
        struct Failing;
        impl crate::TileSource for Failing {
            fn size(&self) -> (u32, u32) {
                (10, 10)
            }
            fn draw(&self, _: crate::Region) -> Result<RgbaImage> {
                Err(RenderError::Scale { scale: 5 })
            }
        }
        let err = crate::write_source_png(Vec::new(), &Failing, PngCompression::Fast, &|_| {});
        assert!(matches!(err, Err(RenderError::Scale { scale: 5 })));
    }

    #[test]
    fn borrowed_pixels_and_drawn_stripes_decode_to_the_picture() {
        let mut whole = RgbaImage::new(9, 300, [1, 2, 3, 255]).unwrap();
        for y in 0..300u32 {
            whole.set(
                y % 9,
                y,
                [(y % 251) as u8, 7, (y / 3) as u8, (y % 2) as u8 * 255],
            );
        }
        for filter in [crate::PngFilter::Up, crate::PngFilter::Sub] {
            let mut bytes = Vec::new();
            whole
                .write_png_filtered(&mut bytes, PngCompression::Fast, filter)
                .unwrap();
            assert_eq!(
                decoded(bytes),
                (9, 300, whole.pixels().to_vec()),
                "{filter:?}"
            );
        }
        let mut bytes = Vec::new();
        write_png_pixels(&mut bytes, 9, 300, whole.pixels(), PngCompression::Best).unwrap();
        assert_eq!(decoded(bytes), (9, 300, whole.pixels().to_vec()));
        // Drawn in stripes of 7 rows: the progress adds up, in order.
        let mut bytes = Vec::new();
        let mut seen = Vec::new();
        let crop = |y: u32, rows: u32| {
            let at = y as usize * 36;
            RgbaImage::from_pixels(
                9,
                rows,
                whole.pixels()[at..at + rows as usize * 36].to_vec(),
            )
            .ok_or(RenderError::Scale { scale: 0 })
        };
        write_png_parallel_rows(
            &mut bytes,
            (9, 300),
            (7, crate::PngFilter::Up, crate::PngColour::Rgba),
            PngCompression::Default,
            crop,
            |n| seen.push(n),
        )
        .unwrap();
        assert_eq!(decoded(bytes), (9, 300, whole.pixels().to_vec()));
        assert_eq!(seen.len(), 43);
        assert_eq!(seen.iter().sum::<u32>(), 300);
        assert_eq!(seen.last(), Some(&6));
    }

    #[test]
    fn what_does_not_fit_the_picture_is_refused() {
        let wrong_length = write_png_pixels(Vec::new(), 3, 2, &[0; 23], PngCompression::Fast);
        assert!(matches!(
            wrong_length,
            Err(RenderError::TooLarge {
                width: 3,
                height: 2,
                ..
            })
        ));
        let empty = write_png_pixels(Vec::new(), 0, 2, &[], PngCompression::Fast);
        assert!(matches!(empty, Err(RenderError::TooLarge { width: 0, .. })));
        let no_rows = write_png_parallel(
            Vec::new(),
            4,
            0,
            PngCompression::Fast,
            |_, _| RgbaImage::new(4, 1, [0; 4]),
            &|_| {},
        );
        assert!(matches!(
            no_rows,
            Err(RenderError::TooLarge { height: 0, .. })
        ));
        // A stripe of another width or height, and the drawing's own error, come back.
        let narrow = write_png_parallel(
            Vec::new(),
            4,
            3,
            PngCompression::Fast,
            |_, rows| RgbaImage::new(3, rows, [0; 4]),
            &|_| {},
        );
        assert!(matches!(
            narrow,
            Err(RenderError::Stripe {
                width: 3,
                expected_width: 4,
                ..
            })
        ));
        let short = write_png_parallel(
            Vec::new(),
            4,
            3,
            PngCompression::Fast,
            |_, _| RgbaImage::new(4, 1, [0; 4]),
            &|_| {},
        );
        assert!(matches!(
            short,
            Err(RenderError::Stripe {
                rows: 1,
                rows_left: 3,
                ..
            })
        ));
        let failed = write_png_parallel(
            Vec::new(),
            4,
            3,
            PngCompression::Fast,
            |_, _| Err::<RgbaImage, _>(RenderError::Scale { scale: 77 }),
            &|_| {},
        );
        assert!(matches!(failed, Err(RenderError::Scale { scale: 77 })));
    }

    #[test]
    fn compression_names_parse_in_any_case() {
        for c in PngCompression::ALL {
            assert_eq!(c.name().parse::<PngCompression>(), Ok(c));
            assert_eq!(c.name().to_uppercase().parse::<PngCompression>(), Ok(c));
        }
        assert_eq!(PngCompression::Best.name(), "best");
        let bad = "quick".parse::<PngCompression>().unwrap_err();
        assert_eq!(
            bad.to_string(),
            "\"quick\" is not a PNG compression (fast, default or best)"
        );
    }

    #[test]
    fn the_png_decodes_to_the_same_pixels() {
        let mut img = RgbaImage::new(3, 2, [0, 0, 0, 255]).unwrap();
        img.set(2, 1, [200, 100, 50, 255]);
        let mut bytes = Vec::new();
        img.write_png(&mut bytes).unwrap();
        assert_eq!(RgbaImage::from_png(&bytes).unwrap(), img);
    }
}
