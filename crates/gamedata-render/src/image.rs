//! The one picture type every renderer draws into, and its PNG encoding.

use std::fmt;

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
pub(crate) fn picture_len(width: u32, height: u32) -> Result<usize> {
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
}
