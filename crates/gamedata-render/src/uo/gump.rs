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

/// How a gump is hued: the hue asked for, and the file's first hue (for pixels of red 0);
/// before it, the hue gump.def gives the gump, applied as the client applies it when it
/// loads the gump ([`GumpHue::with_load_hue`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct GumpHue<'data> {
    hue: ArtHue<'data>,
    first: Option<&'data HueEntry>,
    /// gump.def's hue: a full hue, and a pixel it makes colour 0 is transparent.
    load: ArtHue<'data>,
}

impl<'data> GumpHue<'data> {
    /// What hue value `value` asks for of a gump, as [`ArtHue::from_value`] reads it.
    ///
    /// Returns `Err` as [`ArtHue::from_value`].
    pub fn from_value(hues: &Hues<'data>, value: u16) -> Result<Self> {
        Ok(GumpHue {
            hue: ArtHue::from_value(hues, value)?,
            first: hues.get(0),
            load: ArtHue::None,
        })
    }

    /// No hue but gump.def's (see [`GumpHue::with_load_hue`]).
    pub fn at_load(hues: &Hues<'data>, value: u16) -> Self {
        GumpHue::default().with_load_hue(hues, value)
    }

    /// These hues after the hue gump.def gives a gump (`mul_core::GumpBorrow::hue`),
    /// applied first, as the client applies it when it loads the gump, not by its hue
    /// shader (`docs/formats/uo.md`, "Gumps", "gump.def"): hue number `value` from 1 up to,
    /// but not including, hues.mul's count of hues changes every non-zero pixel to entry r
    /// of the hue's 32 colours (r the pixel's red), and a pixel that becomes colour 0 is
    /// transparent; any other value is no hue. There is no partial hue and no rule for
    /// pixels of red 0 at this step.
    pub fn with_load_hue(mut self, hues: &Hues<'data>, value: u16) -> Self {
        let number = usize::from(value);
        let entry = if number < hues.len() {
            number.checked_sub(1).and_then(|index| hues.get(index))
        } else {
            None
        };
        self.load = entry.map_or(ArtHue::None, |entry| ArtHue::Table {
            entry,
            partial: false,
        });
        self
    }

    /// The colour a stored pixel of colour `colour` (not 0) is drawn in, gump.def's hue
    /// then the hue asked for; `None` when gump.def's hue makes it transparent.
    pub fn draw(self, colour: u16) -> Option<u16> {
        let loaded = match self.load {
            ArtHue::None => colour,
            load => load.apply(colour),
        };
        (loaded != 0 || matches!(self.load, ArtHue::None)).then(|| self.apply(loaded))
    }

    /// The colour a drawn pixel of colour `colour` takes from the hue asked for (the
    /// shader's rule; gump.def's hue is [`GumpHue::draw`]'s).
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
        let Some(colour) = hue.draw(run.colour) else {
            continue;
        };
        let [r, g, b] = client_rgb(colour);
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
    use mul_core::gump::write::{GumpPicture, write_gumps};
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
        // A limit of exactly its RGBA bytes draws it; one byte less refuses it.
        let exact = 0x7FFF * 2 * 4;
        let at = |bytes| {
            gump_picture(
                &gump,
                GumpHue::default(),
                &limits.with_max_decoded_bytes(bytes),
            )
        };
        assert_eq!(at(exact).unwrap().pixels(), picture.pixels());
        assert!(matches!(at(exact - 1), Err(RenderError::Uo(_))));
    }

    /// gump.def's hue as the client applies it at load: hue 1 of a file whose hue 1 maps
    /// red r to colour r (so red 0 to colour 0), and hue 2 maps red r to 0x7C00 | r.
    #[test]
    fn a_def_hue_is_applied_at_load_and_colour_0_after_it_is_clear() {
        let mut file = vec![0u8; 4];
        for hue in 0..8u16 {
            for r in 0..32u16 {
                let c = if hue == 0 { r } else { 0x7C00 | r };
                file.extend_from_slice(&c.to_le_bytes());
            }
            file.extend_from_slice(&[0; 4 + 20]);
        }
        let hues = Hues::parse(&file).unwrap();
        let pixels = [0, 0x7C00, 0x0001, 0x03E0, 0x0400, 0x001F];
        let gumps = [GumpPicture::Picture {
            width: 3,
            height: 2,
            pixels: &pixels,
        }];
        let (index, data) = write_gumps(&gumps).unwrap();
        let set = Gumps::parse(&index, &data).unwrap();
        let gump = set.gump(0).unwrap().unwrap();
        let draw = |hue: GumpHue<'_>| -> Vec<[u8; 4]> {
            let picture = gump_picture(&gump, hue, &Limits::default()).unwrap();
            picture
                .pixels()
                .chunks(4)
                .map(|p| [p[0], p[1], p[2], p[3]])
                .collect()
        };
        let out = draw(GumpHue::at_load(&hues, 1));
        // Red 31 becomes colour 31 (blue); red 0 becomes colour 0: transparent.
        assert_eq!(out[0], [0; 4]);
        assert_eq!(out[1], rgba(31));
        assert_eq!(out[2], [0; 4]);
        assert_eq!(out[3], [0; 4]);
        // Red 1 becomes colour 1.
        assert_eq!(out[4], rgba(1));
        assert_eq!(out[5], [0; 4]);
        // The shader's rule would have drawn red 0 from hue 1's entry 0, opaque black.
        let shader = draw(GumpHue::from_value(&hues, 1).unwrap());
        assert_eq!(shader[2], [0, 0, 0, 255]);
        // Hue 2: every non-zero pixel takes 0x7C00 | red.
        let out = draw(GumpHue::at_load(&hues, 2));
        assert_eq!(out[1], rgba(0x7C00 | 31));
        assert_eq!(out[2], rgba(0x7C00));
        assert_eq!(out[0], [0; 4]);
        // 0, the file's count (8) and anything past it are no hue.
        for value in [0, 8, 9, 0xFFFF] {
            let out = draw(GumpHue::at_load(&hues, value));
            assert_eq!(out[1], rgba(0x7C00), "hue {value}");
            assert_eq!(out[2], rgba(0x0001), "hue {value}");
        }
        // Hue 7, the last the client uses.
        let out = draw(GumpHue::at_load(&hues, 7));
        assert_eq!(out[5], rgba(0x7C00));
        // gump.def's hue first, then the hue asked for: hue 2 at load makes red 0 into
        // 0x7C00 (red 31), which hue 1 then maps to colour 31; colour 0 stays clear.
        let both = GumpHue::from_value(&hues, 1)
            .unwrap()
            .with_load_hue(&hues, 2);
        let out = draw(both);
        assert_eq!(out[2], rgba(31));
        assert_eq!(out[0], [0; 4]);
        // Hue 1 at load clears red 0, which the shader's rule does not bring back.
        let out = draw(
            GumpHue::from_value(&hues, 2)
                .unwrap()
                .with_load_hue(&hues, 1),
        );
        assert_eq!(out[2], [0; 4]);
        // Red 31 becomes colour 31 at load, whose red is 0: the shader's rule draws it from
        // hue 1's entry 0, colour 0, opaque black.
        assert_eq!(out[1], [0, 0, 0, 255]);
    }
}
