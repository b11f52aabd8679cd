//! PNG encoding at the speed of memory: stripes of rows drawn, filtered and deflated in
//! parallel, joined into one zlib stream.
//!
//! The zlib stream of a PNG's image data (RFC 1950 around RFC 1951's deflate) may be cut
//! anywhere into IDAT chunks, and a deflate stream may be made of independent parts: each
//! stripe is compressed alone, ended on a byte boundary by a sync flush (an empty stored
//! block, RFC 1951 section 3.2.4), so that the parts follow one another as one stream; the
//! last part ends with the final block. The Adler-32 of the whole is combined from the
//! stripes' own (RFC 1950 section 8.2; zlib's `adler32_combine`). This is how pigz
//! compresses in parallel (<https://zlib.net/pigz/pigz.pdf>).
//!
//! Each row is filtered (PNG specification, section 9) with `Up` (the byte above
//! subtracted), which costs one subtraction a byte and suits pictures whose rows repeat
//! the ones above (a level's background, a map's terrain); a stripe's first row uses
//! `Sub` (the byte four to the left subtracted), so that no stripe needs another's pixels.
//! The deflate is zlib-rs at level 2 for [`PngCompression::Fast`]: on the project's
//! pictures it makes files within 1.25 times what C zlib's level 1 makes of the raw
//! pixels, in a third of its time (`benches/README.md`, "Pictures at memory speed").

use std::borrow::Cow;
use std::io::Write;

use rayon::prelude::*;

use crate::{RenderError, Result};

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

/// Bytes of pixels a stripe when stripes are encoded in parallel: 2 MiB, so that a few
/// stripes a thread in flight stay within today's stripe of [`crate::STRIPE_BYTES`].
pub const PARALLEL_STRIPE_BYTES: usize = 2 << 20;

/// Rows of a picture `width` pixels wide that fill about `bytes`; at least 1.
pub(crate) fn rows_in(bytes: usize, width: u32) -> u32 {
    let rows = bytes
        .checked_div((width as usize).saturating_mul(4))
        .unwrap_or(1);
    u32::try_from(rows).unwrap_or(u32::MAX).max(1)
}

/// Rows of a picture `width` pixels wide that fill a stripe of about
/// [`PARALLEL_STRIPE_BYTES`]; at least 1.
pub fn parallel_stripe_rows(width: u32) -> u32 {
    rows_in(PARALLEL_STRIPE_BYTES, width)
}

/// Parts in flight at a time: two a thread, at most 8 (16 MiB of pixels and their filtered
/// and deflated bytes), whatever the machine's threads.
fn window() -> usize {
    rayon::current_num_threads().saturating_mul(2).clamp(1, 8)
}

/// PNG filter type bytes (PNG specification, section 9.2).
const FILTER_SUB: u8 = 1;
const FILTER_UP: u8 = 2;

/// One stripe filtered and deflated.
struct Part {
    /// Raw deflate, ending on a byte boundary (sync flush) or with the final block.
    deflated: Vec<u8>,
    /// Adler-32 of the filtered bytes.
    adler: u32,
    /// Filtered bytes (rows plus their filter bytes).
    len: u64,
}

/// zlib-rs's level for a compression.
fn level(compression: PngCompression) -> u32 {
    match compression {
        PngCompression::Fast => 2,
        PngCompression::Default => 6,
        PngCompression::Best => 9,
    }
}

/// The zlib header (RFC 1950 section 2.2): deflate with a 32 KiB window, FLEVEL as the
/// level says, FCHECK making the pair a multiple of 31.
fn zlib_header(level: u32) -> [u8; 2] {
    match level {
        0 | 1 => [0x78, 0x01],
        2..=5 => [0x78, 0x5E],
        6 => [0x78, 0x9C],
        _ => [0x78, 0xDA],
    }
}

/// How the rows of a PNG are filtered (PNG specification, section 9.2; the pixels are the
/// same either way, the size and the time are not: `docs/formats/png.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PngFilter {
    /// The first row of each stripe `Sub`, the others `Up` (the byte above subtracted): the
    /// better on pictures whose rows mostly repeat the ones above (level pictures: 7 times
    /// smaller than zlib level 1 makes of the raw pixels on RETAIL01). The default.
    #[default]
    Up,
    /// Every row `Sub` (the byte of the pixel to the left subtracted): the better on radar
    /// maps, noisy terrain whose rows differ from the ones above as much as along themselves
    /// (facet 0 flat: 0.89 times zlib level 1's size, against 1.11 with `Up`, and sooner).
    Sub,
}

/// Which pixels a PNG stores (PNG specification, section 6.1): the pictures are drawn as
/// RGBA either way, and decode to the same colours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PngColour {
    /// Red, green, blue and alpha (colour type 6). The default.
    #[default]
    Rgba,
    /// Red, green and blue (colour type 2), for a picture opaque everywhere (radar maps):
    /// a quarter fewer bytes to filter and deflate. A pixel whose alpha is not 255 is an
    /// error ([`RenderError::NotOpaque`]), never dropped silently.
    OpaqueRgb,
}

impl PngColour {
    /// Bytes of a pixel as stored.
    fn bytes(self) -> usize {
        match self {
            PngColour::Rgba => 4,
            PngColour::OpaqueRgb => 3,
        }
    }
}

/// The red, green and blue of RGBA `pixels` (whole rows of `width` pixels) filtered as
/// `how` says, in one pass (as [`filter`] does over the RGB bytes); `Err` with the place (in
/// pixels from the first) of the first pixel whose alpha is not 255.
fn filter_rgb(pixels: &[u8], width: usize, how: PngFilter) -> std::result::Result<Vec<u8>, usize> {
    let row_in = width.saturating_mul(4).max(1);
    let row_out = width.saturating_mul(3).saturating_add(1);
    let rows = pixels.len().checked_div(row_in).unwrap_or(0);
    let mut out = vec![0; rows.saturating_mul(row_out)];
    // Every alpha ANDed: the loops have no early exit, so they stay straight copies.
    let mut alphas = u8::MAX;
    let mut above: Option<&[[u8; 4]]> = None;
    for (row, to) in pixels
        .chunks_exact(row_in)
        .zip(out.chunks_exact_mut(row_out))
    {
        let row = row.as_chunks::<4>().0;
        let Some((kind, to)) = to.split_first_mut() else {
            continue;
        };
        let to = to.as_chunks_mut::<3>().0;
        match above.filter(|_| how == PngFilter::Up) {
            None => {
                *kind = FILTER_SUB;
                let mut left = [0u8; 3];
                for (t, &[r, g, b, a]) in to.iter_mut().zip(row) {
                    *t = [
                        r.wrapping_sub(left[0]),
                        g.wrapping_sub(left[1]),
                        b.wrapping_sub(left[2]),
                    ];
                    left = [r, g, b];
                    alphas &= a;
                }
            }
            Some(up) => {
                *kind = FILTER_UP;
                for ((t, &[r, g, b, a]), &[ur, ug, ub, _]) in to.iter_mut().zip(row).zip(up) {
                    *t = [r.wrapping_sub(ur), g.wrapping_sub(ug), b.wrapping_sub(ub)];
                    alphas &= a;
                }
            }
        }
        above = Some(row);
    }
    if alphas == u8::MAX {
        return Ok(out);
    }
    let first = pixels
        .chunks_exact(4)
        .position(|p| p.get(3) != Some(&u8::MAX));
    Err(first.unwrap_or(0))
}

/// Filters `pixels` (whole rows of `row_bytes`, `bpp` bytes a pixel) as `how` says.
fn filter(pixels: &[u8], row_bytes: usize, bpp: usize, how: PngFilter) -> Vec<u8> {
    let rows = pixels.len().checked_div(row_bytes).unwrap_or(0);
    let mut out = Vec::with_capacity(pixels.len().saturating_add(rows));
    let mut above: Option<&[u8]> = None;
    for row in pixels.chunks_exact(row_bytes.max(1)) {
        match above.filter(|_| how == PngFilter::Up) {
            None => {
                out.push(FILTER_SUB);
                let (head, _) = row.split_at(row.len().min(bpp));
                out.extend_from_slice(head);
                out.extend(
                    row.iter()
                        .skip(bpp)
                        .zip(row)
                        .map(|(&x, &left)| x.wrapping_sub(left)),
                );
            }
            Some(above) => {
                out.push(FILTER_UP);
                out.extend(row.iter().zip(above).map(|(&x, &up)| x.wrapping_sub(up)));
            }
        }
        above = Some(row);
    }
    out
}

/// Filters and deflates one stripe (RGBA rows from row `y`); `last` ends the stream.
///
/// Returns [`RenderError::NotOpaque`] for a pixel that is not opaque in a picture stored
/// [`PngColour::OpaqueRgb`].
fn deflate_part(pixels: &[u8], y: u32, shape: &Shape, last: bool) -> Result<Part> {
    let level = shape.level;
    let bpp = shape.colour.bytes();
    let filtered = match shape.colour {
        PngColour::Rgba => filter(pixels, shape.row_bytes, bpp, shape.filter),
        PngColour::OpaqueRgb => {
            let width = shape.width as usize;
            filter_rgb(pixels, width, shape.filter).map_err(|i| RenderError::NotOpaque {
                x: u32::try_from(i.checked_rem(width).unwrap_or(0)).unwrap_or(u32::MAX),
                y: u32::try_from(i.checked_div(width).unwrap_or(0))
                    .unwrap_or(u32::MAX)
                    .saturating_add(y),
            })?
        }
    };
    let adler = zlib_rs::adler32::adler32(1, &filtered);
    // A small part (a tile) kept compressor; a stripe of a large picture a new one, which
    // measured sooner there (the kept ones' memory held across the stripes' large
    // buffers made the kernel's page work three times what it was).
    if filtered.len() <= KEEP_COMPRESSOR_BELOW {
        with_compressor(level, |compress| {
            deflate_with(compress, filtered, adler, last)
        })
    } else {
        let mut compress = flate2::Compress::new(flate2::Compression::new(level), false);
        deflate_with(&mut compress, filtered, adler, last)
    }
}

/// Filtered bytes up to which a part is deflated by its thread's kept compressor: a 256 x
/// 256 tile's (256 KiB and its filter bytes) pass, a stripe of [`PARALLEL_STRIPE_BYTES`]
/// does not.
const KEEP_COMPRESSOR_BELOW: usize = 512 << 10;

thread_local! {
    /// Each thread's compressor, kept between parts: a fresh one costs its allocation and
    /// the zeroing of its tables (a third of a megabyte) every part, which for the 256 x
    /// 256 tiles of a pyramid is a fifth of the deflate's work.
    static COMPRESSOR: std::cell::RefCell<Option<(u32, flate2::Compress)>> =
        const { std::cell::RefCell::new(None) };
}

/// Calls `f` with a raw-deflate compressor at `level` in its initial state: this thread's
/// kept one (reset) when it is at that level, else a new one, kept afterwards.
fn with_compressor<T>(level: u32, f: impl FnOnce(&mut flate2::Compress) -> T) -> T {
    let kept = COMPRESSOR
        .try_with(|c| c.borrow_mut().take())
        .ok()
        .flatten();
    let mut compress = match kept {
        Some((kept_level, mut compress)) if kept_level == level => {
            compress.reset();
            compress
        }
        _ => flate2::Compress::new(flate2::Compression::new(level), false),
    };
    let result = f(&mut compress);
    // A thread being torn down keeps nothing.
    let _ = COMPRESSOR.try_with(|c| *c.borrow_mut() = Some((level, compress)));
    result
}

/// Deflates `filtered` with a fresh `compress`; `last` ends the stream.
fn deflate_with(
    compress: &mut flate2::Compress,
    filtered: Vec<u8>,
    adler: u32,
    last: bool,
) -> Result<Part> {
    let flush = if last {
        flate2::FlushCompress::Finish
    } else {
        flate2::FlushCompress::Sync
    };
    let mut deflated = Vec::with_capacity((filtered.len() >> 3).saturating_add(1024));
    loop {
        let done = usize::try_from(compress.total_in()).unwrap_or(usize::MAX);
        let input = filtered.get(done..).unwrap_or_default();
        let status = compress
            .compress_vec(input, &mut deflated, flush)
            .map_err(|e| RenderError::Png(png::EncodingError::from(std::io::Error::other(e))))?;
        let all_in = u64::try_from(filtered.len()).ok() == Some(compress.total_in());
        let finished = if last {
            status == flate2::Status::StreamEnd
        } else {
            // A sync flush is complete when it returns with room to spare.
            all_in && deflated.len() < deflated.capacity()
        };
        if finished {
            break;
        }
        deflated.reserve(deflated.capacity().max(1024));
    }
    Ok(Part {
        deflated,
        adler,
        len: u64::try_from(filtered.len()).unwrap_or(u64::MAX),
    })
}

/// What every part of a picture shares.
#[derive(Clone, Copy)]
struct Shape {
    width: u32,
    height: u32,
    /// `width * 4`.
    row_bytes: usize,
    /// zlib-rs's level.
    level: u32,
    filter: PngFilter,
    colour: PngColour,
    /// Rows a part when whole rows are given ([`ParallelPng::write_rows`]): about
    /// [`PARALLEL_STRIPE_BYTES`].
    part_rows: u32,
}

impl Shape {
    /// Checks that `pixels` holds `rows` rows starting at row `y`, then filters and deflates
    /// them; the part that reaches the last row ends the stream.
    fn part(&self, y: u32, rows: u32, pixels: &[u8]) -> Result<(u32, Part)> {
        let rows_left = self.height.saturating_sub(y);
        // The width the stripe's length gives its rows, for the error.
        let width = pixels
            .len()
            .checked_div((rows as usize).saturating_mul(4))
            .unwrap_or(0);
        if rows == 0
            || rows > rows_left
            || pixels.len() != self.row_bytes.saturating_mul(rows as usize)
        {
            return Err(RenderError::Stripe {
                width: u32::try_from(width).unwrap_or(u32::MAX),
                rows,
                expected_width: self.width,
                rows_left,
            });
        }
        let last = rows == rows_left;
        Ok((rows, deflate_part(pixels, y, self, last)?))
    }
}

/// A PNG being written: its header written, its rows deflated in parts as they come.
pub(crate) struct ParallelPng<W: Write> {
    writer: png::Writer<W>,
    shape: Shape,
    /// Rows written.
    done: u32,
    /// Adler-32 of the filtered bytes written.
    adler: u32,
}

impl<W: Write> ParallelPng<W> {
    /// Writes the PNG's signature and header: a `width` x `height` 8-bit RGBA picture, its
    /// rows filtered [`PngFilter::Up`] (the tests' shorthand).
    #[cfg(test)]
    pub(crate) fn new(
        out: W,
        width: u32,
        height: u32,
        compression: PngCompression,
    ) -> Result<Self> {
        Self::with_filter(out, width, height, compression, PngFilter::Up)
    }

    /// [`ParallelPng::new`] with the rows filtered as `how` says.
    #[cfg(test)]
    pub(crate) fn with_filter(
        out: W,
        width: u32,
        height: u32,
        compression: PngCompression,
        how: PngFilter,
    ) -> Result<Self> {
        Self::with_layout(out, (width, height), compression, how, PngColour::Rgba)
    }

    /// Writes the PNG's signature and header: a `width` x `height` 8-bit picture, its rows
    /// filtered as `how` says, its pixels stored as `colour` says (the rows given are RGBA
    /// either way).
    pub(crate) fn with_layout(
        out: W,
        (width, height): (u32, u32),
        compression: PngCompression,
        how: PngFilter,
        colour: PngColour,
    ) -> Result<Self> {
        let mut encoder = png::Encoder::new(out, width, height);
        encoder.set_color(match colour {
            PngColour::Rgba => png::ColorType::Rgba,
            PngColour::OpaqueRgb => png::ColorType::Rgb,
        });
        encoder.set_depth(png::BitDepth::Eight);
        Ok(ParallelPng {
            writer: encoder.write_header()?,
            shape: Shape {
                width,
                height,
                row_bytes: (width as usize).saturating_mul(4),
                level: level(compression),
                filter: how,
                colour,
                part_rows: parallel_stripe_rows(width),
            },
            done: 0,
            adler: 1,
        })
    }

    /// Writes parts in order, calling `written` with each one's rows.
    fn write_parts(
        &mut self,
        parts: Vec<Result<(u32, Part)>>,
        written: &mut dyn FnMut(u32),
    ) -> Result<()> {
        for part in parts {
            let (rows, mut part) = part?;
            self.adler = zlib_rs::adler32::adler32_combine(self.adler, part.adler, part.len);
            if self.done == 0 {
                part.deflated.splice(0..0, zlib_header(self.shape.level));
            }
            self.done = self.done.saturating_add(rows);
            if self.done == self.shape.height {
                part.deflated.extend_from_slice(&self.adler.to_be_bytes());
            }
            self.writer.write_chunk(png::chunk::IDAT, &part.deflated)?;
            written(rows);
        }
        Ok(())
    }

    /// Writes the rows of `pixels` (whole rows, the next ones of the picture), deflated in
    /// parts in parallel.
    ///
    /// Returns [`RenderError::Stripe`] for pixels that are not whole rows within the rows
    /// left, and [`RenderError::Png`] when writing fails.
    pub(crate) fn write_rows(&mut self, pixels: &[u8]) -> Result<()> {
        let rows = pixels.len().checked_div(self.shape.row_bytes).unwrap_or(0);
        let rows = u32::try_from(rows).unwrap_or(u32::MAX);
        let rows_left = self.shape.height.saturating_sub(self.done);
        let whole_rows = pixels.len().is_multiple_of(self.shape.row_bytes.max(1));
        if rows == 0 || rows > rows_left || !whole_rows {
            return Err(RenderError::Stripe {
                width: u32::try_from(
                    pixels
                        .len()
                        .checked_div((rows as usize).saturating_mul(4))
                        .unwrap_or(0),
                )
                .unwrap_or(u32::MAX),
                rows,
                expected_width: self.shape.width,
                rows_left,
            });
        }
        let part_rows = self.shape.part_rows.max(1);
        let chunk = self
            .shape
            .row_bytes
            .saturating_mul(part_rows as usize)
            .max(1);
        let shape = self.shape;
        // A window of parts at a time, so that what is held is a few parts' filtered and
        // deflated bytes whatever the picture's size.
        for window in pixels.chunks(chunk.saturating_mul(window())) {
            let y0 = self.done;
            let parts: Vec<Result<(u32, Part)>> = window
                .par_chunks(chunk)
                .enumerate()
                .map(|(i, p)| {
                    let i = u32::try_from(i).unwrap_or(u32::MAX);
                    let y = y0.saturating_add(i.saturating_mul(part_rows));
                    let n = p.len().checked_div(shape.row_bytes).unwrap_or(0);
                    let n = u32::try_from(n).unwrap_or(u32::MAX);
                    shape.part(y, n, p)
                })
                .collect();
            self.write_parts(parts, &mut |_| {})?;
        }
        Ok(())
    }

    /// Draws the rest of the picture with `stripe(y, n)` (`n * width * 4` bytes from row
    /// `y`; `n` is `rows`, fewer at the bottom), parts drawn, filtered and deflated in parallel, a few a thread at a time;
    /// `written` is called with each part's rows once written, in order, on the calling
    /// thread.
    ///
    /// Returns `stripe`'s errors, [`RenderError::Stripe`] for a stripe of the wrong length,
    /// and [`RenderError::Png`] when writing fails.
    pub(crate) fn draw_rest<'a>(
        &mut self,
        rows: u32,
        stripe: &(dyn Fn(u32, u32) -> Result<Cow<'a, [u8]>> + Sync),
        written: &mut dyn FnMut(u32),
    ) -> Result<()> {
        let rows = rows.max(1);
        let window = window();
        while self.done < self.shape.height {
            let y0 = self.done;
            let starts: Vec<u32> = (0..window)
                .map_while(|i| {
                    let y = y0.checked_add(u32::try_from(i).ok()?.checked_mul(rows)?)?;
                    (y < self.shape.height).then_some(y)
                })
                .collect();
            let this = self.shape;
            let parts: Vec<Result<(u32, Part)>> = starts
                .into_par_iter()
                .map(|y| {
                    let n = rows.min(this.height.saturating_sub(y));
                    let pixels = stripe(y, n)?;
                    this.part(y, n, &pixels)
                })
                .collect();
            self.write_parts(parts, written)?;
        }
        Ok(())
    }

    /// Ends the PNG.
    ///
    /// Returns [`RenderError::Stripe`] when rows are missing, and [`RenderError::Png`] when
    /// writing fails.
    pub(crate) fn finish(self) -> Result<()> {
        if self.done != self.shape.height {
            return Err(RenderError::Stripe {
                width: self.shape.width,
                rows: 0,
                expected_width: self.shape.width,
                rows_left: self.shape.height.saturating_sub(self.done),
            });
        }
        self.writer.finish()?;
        Ok(())
    }
}

#[cfg(test)]
// Test pictures are small by construction: casts cut nothing, sums do not overflow.
#[allow(clippy::arithmetic_side_effects, clippy::cast_possible_truncation)]
mod tests;
