//! Gumps as the client draws them, optionally hued.
//!
//! Colours widen from 5 to 8 bits through the client's table ([`client_rgb`]); colour 0 is
//! transparent, any other opaque (bit 15 plays no part). A hue changes a drawn pixel as on
//! art ([`ArtHue`]), but for one rule of the client's gump shader: a pixel whose red is 0
//! takes entry 0 of hue number 1 (the file's first hue) rather than entry 0 of the gump's
//! hue; with a partial hue, only when the pixel is grey. Sources: `docs/formats/uo.md`,
//! "Gumps" and "Hues on pictures" (ClassicUO's `GumpsLoader` and its hue shader).

use mul_core::raw::HueEntry;
use mul_core::{Gump, Hues, LimitError, Limits};

use super::art::ArtHue;
use super::client::client_rgb;
use crate::{RenderError, Result, RgbaImage};

/// How a gump is hued: the hue asked for, and the file's first hue (for pixels of red 0).
#[derive(Clone, Copy, Debug, Default)]
pub struct GumpHue<'data> {
    hue: ArtHue<'data>,
    first: Option<&'data HueEntry>,
}

impl<'data> GumpHue<'data> {
    /// What hue value `value` asks for of a gump, as [`ArtHue::from_value`] reads it.
    ///
    /// Returns `Err` as [`ArtHue::from_value`].
    pub fn from_value(hues: &Hues<'data>, value: u16) -> Result<Self> {
        Ok(GumpHue {
            hue: ArtHue::from_value(hues, value)?,
            first: hues.get(0),
        })
    }

    /// The colour a drawn pixel of colour `colour` takes.
    pub fn apply(self, colour: u16) -> u16 {
        let partial = match self.hue {
            ArtHue::None => return colour,
            ArtHue::Table { partial, .. } | ArtHue::Missing { partial } => partial,
        };
        let red = (colour >> 10) & 0x1F;
        let grey = red == (colour >> 5) & 0x1F && red == colour & 0x1F;
        if red == 0 && (grey || !partial) {
            // Entry 0 of the first hue; a file of no hue reads zeros on the card: black.
            return self
                .first
                .and_then(|h| h.colours.first())
                .map_or(0, |c| c.get());
        }
        self.hue.apply(colour)
    }
}

/// A gump as the client draws it: its width x height, colour 0 transparent.
///
/// Returns `Err` ([`RenderError::Uo`] with a [`LimitError`]) for a picture whose RGBA bytes
/// pass `limits.max_decoded_bytes`, or ([`RenderError::Uo`]) for rows the gump's bytes do
/// not hold ([`Gump::runs`]).
pub fn gump_picture(gump: &Gump<'_>, hue: GumpHue<'_>, limits: &Limits) -> Result<RgbaImage> {
    let (width, height) = (gump.width(), gump.height());
    let bytes = u64::from(width)
        .saturating_mul(u64::from(height))
        .saturating_mul(4);
    if bytes > limits.max_decoded_bytes {
        let limit = LimitError {
            what: "the gump's picture",
            unit: "bytes",
            found: bytes,
            limit: limits.max_decoded_bytes,
        };
        return Err(RenderError::Uo(limit.into()));
    }
    let mut picture = RgbaImage::new(width, height, [0; 4])?;
    for run in gump.runs() {
        let run = run?;
        if run.colour == 0 {
            continue;
        }
        let [r, g, b] = client_rgb(hue.apply(run.colour));
        let Some(row) = picture.row_mut(run.y) else {
            continue;
        };
        let start = (run.x as usize).saturating_mul(4);
        let end = start.saturating_add((run.count as usize).saturating_mul(4));
        if let Some(out) = row.get_mut(start..end) {
            for px in out.chunks_exact_mut(4) {
                px.copy_from_slice(&[r, g, b, 0xFF]);
            }
        }
    }
    Ok(picture)
}

#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]
mod tests {
    use mul_core::write_gump::{GumpPicture, write_gumps};
    use mul_core::{Gumps, Hues};

    use super::*;

    /// hues.mul of one group: hue i's colour r is `((i + 1) << 10) | r` (hue 1 = index 0).
    fn hues_file() -> Vec<u8> {
        let mut file = vec![0u8; 4];
        for hue in 0..8u16 {
            for r in 0..32u16 {
                file.extend_from_slice(&(((hue + 1) << 10) | r).to_le_bytes());
            }
            file.extend_from_slice(&[0; 4 + 20]);
        }
        file
    }

    /// The client's widening, written out: `v * 255 / 31` rounded down.
    fn rgba(colour: u16) -> [u8; 4] {
        let w = |v: u16| (u32::from(v & 31) * 255 / 31) as u8;
        [w(colour >> 10), w(colour >> 5), w(colour), 255]
    }

    fn drawn(pixels: &[u16], hue: Option<u16>) -> Vec<[u8; 4]> {
        let gumps = [GumpPicture::Picture {
            width: 3,
            height: 2,
            pixels,
        }];
        let (index, data) = write_gumps(&gumps).unwrap();
        let set = Gumps::parse(&index, &data).unwrap();
        let gump = set.gump(0).unwrap().unwrap();
        let hues_bytes = hues_file();
        let hues = Hues::parse(&hues_bytes).unwrap();
        let hue = match hue {
            Some(v) => GumpHue::from_value(&hues, v).unwrap(),
            None => GumpHue::default(),
        };
        let picture = gump_picture(&gump, hue, &Limits::default()).unwrap();
        assert_eq!((picture.width(), picture.height()), (3, 2));
        picture
            .pixels()
            .chunks(4)
            .map(|p| [p[0], p[1], p[2], p[3]])
            .collect()
    }

    #[test]
    fn colour_0_is_clear_and_bit_15_plays_no_part() {
        let pixels = [0, 0x7C00, 0x8000, 0x83E0, 0x0421, 0x001F];
        let out = drawn(&pixels, None);
        assert_eq!(out[0], [0; 4]);
        assert_eq!(out[1], [255, 0, 0, 255]);
        // 0x8000 is opaque black; 0x83E0 draws as 0x03E0.
        assert_eq!(out[2], [0, 0, 0, 255]);
        assert_eq!(out[3], rgba(0x03E0));
        // 1 in each channel widens to 8 (v * 255 / 31 rounded down).
        assert_eq!(out[4], [8, 8, 8, 255]);
    }

    #[test]
    fn a_hue_takes_red_and_red_0_takes_the_first_hues_entry_0() {
        // Hue 3's entry r is (3 << 10) | r; hue 1's entry 0 is 1 << 10.
        let pixels = [0, 0x7C00, 0x8000, 0x03E0, 0x0842, 0x001F];
        let out = drawn(&pixels, Some(3));
        assert_eq!(out[0], [0; 4]);
        assert_eq!(out[1], rgba((3 << 10) | 31));
        // Red 0: hue 1's entry 0, not hue 3's.
        assert_eq!(out[2], rgba(1 << 10));
        assert_eq!(out[3], rgba(1 << 10));
        assert_eq!(out[4], rgba((3 << 10) | 2));
        assert_eq!(out[5], rgba(1 << 10));
        // Partial: greys only; of red 0, only the grey black.
        let out = drawn(&pixels, Some(0x8003));
        assert_eq!(out[1], rgba(0x7C00));
        assert_eq!(out[2], rgba(1 << 10));
        assert_eq!(out[3], rgba(0x03E0));
        assert_eq!(out[4], rgba((3 << 10) | 2));
        assert_eq!(out[5], rgba(0x001F));
        // A hue past the file: black, but red 0 still takes the first hue.
        let out = drawn(&pixels, Some(100));
        assert_eq!(out[1], [0, 0, 0, 255]);
        assert_eq!(out[2], rgba(1 << 10));
    }

    #[test]
    fn a_huge_gump_is_refused_before_drawing() {
        // 32,767 x 2 pixels from a 16-byte entry: refused by the limit, not drawn.
        let mut bytes = Vec::new();
        for word in [2u32, 3, 0x7FFF_0000, 0x7FFF_0000] {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        let gump = Gump::parse(&bytes, (0x7FFF << 16) | 2).unwrap();
        let limits = Limits::default().with_max_decoded_bytes(4096);
        assert!(matches!(
            gump_picture(&gump, GumpHue::default(), &limits),
            Err(RenderError::Uo(_))
        ));
        let picture = gump_picture(&gump, GumpHue::default(), &Limits::default()).unwrap();
        assert_eq!(picture.width(), 0x7FFF);
    }
}
