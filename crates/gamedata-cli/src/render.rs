//! The one image type every format renders into, and PNG output.

use std::fmt;
use std::path::Path;

use anyhow::Result;

/// An RGBA image, 4 bytes a pixel, rows top to bottom.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct RgbaImage {
    /// Width in pixels.
    pub(crate) width: u32,
    /// Height in pixels.
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

impl RgbaImage {
    /// A `width` x `height` image filled with `fill`. Callers bound the size (a Cosmo map
    /// is at most 32,768 tiles of 64 pixels: 8 MiB).
    pub(crate) fn new(width: u32, height: u32, fill: [u8; 4]) -> Self {
        let n = usize::try_from(u64::from(width) * u64::from(height)).unwrap_or(0);
        RgbaImage {
            width,
            height,
            pixels: fill.repeat(n),
        }
    }

    fn offset(&self, x: u32, y: u32) -> Option<usize> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let index = u64::from(y) * u64::from(self.width) + u64::from(x);
        usize::try_from(index * 4).ok()
    }

    /// The pixel at (`x`, `y`), or `None` outside the image.
    pub(crate) fn get(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        let at = self.offset(x, y)?;
        self.pixels.get(at..at + 4)?.try_into().ok()
    }

    /// Sets the pixel at (`x`, `y`); does nothing outside the image.
    pub(crate) fn set(&mut self, x: u32, y: u32, rgba: [u8; 4]) {
        if let Some(at) = self.offset(x, y)
            && let Some(p) = self.pixels.get_mut(at..at + 4)
        {
            p.copy_from_slice(&rgba);
        }
    }

    /// Blends `colour` at opacity `alpha` / 256 (`alpha` at most 256) into pixel (`x`, `y`);
    /// the result is opaque.
    pub(crate) fn blend(&mut self, x: u32, y: u32, colour: [u8; 3], alpha: u16) {
        let Some(under) = self.get(x, y) else {
            return;
        };
        let alpha = alpha.min(256);
        let mix = |src: u8, dst: u8| {
            let v = (u16::from(src) * alpha + u16::from(dst) * (256 - alpha)) / 256;
            u8::try_from(v).unwrap_or(u8::MAX)
        };
        let [r, g, b] = colour;
        self.set(
            x,
            y,
            [mix(r, under[0]), mix(g, under[1]), mix(b, under[2]), 255],
        );
    }

    /// Writes the image as an 8-bit RGBA PNG, whole or not at all, never over one of
    /// `inputs` ([`crate::files::write_file`]).
    pub(crate) fn write_png(&self, path: &Path, inputs: &[&Path]) -> Result<()> {
        crate::files::write_file(path, inputs, |w| {
            let mut encoder = png::Encoder::new(w, self.width, self.height);
            encoder.set_color(png::ColorType::Rgba);
            encoder.set_depth(png::BitDepth::Eight);
            let mut writer = encoder.write_header()?;
            writer.write_image_data(&self.pixels)?;
            writer.finish()?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn get_set_and_blend_stay_inside_the_image() {
        let mut img = RgbaImage::new(2, 3, [10, 20, 30, 255]);
        assert_eq!(img.pixels.len(), 24);
        img.set(1, 2, [1, 2, 3, 4]);
        assert_eq!(img.get(1, 2), Some([1, 2, 3, 4]));
        assert_eq!(img.get(2, 0), None);
        img.set(5, 5, [9; 4]); // outside: nothing happens
        img.blend(0, 0, [255, 255, 255], 128);
        // (255 * 128 + 10 * 128) / 256 = 132.5 -> 132
        assert_eq!(img.get(0, 0), Some([132, 137, 142, 255]));
        img.blend(0, 1, [0, 0, 0], 256);
        assert_eq!(img.get(0, 1), Some([0, 0, 0, 255]));
    }
}
