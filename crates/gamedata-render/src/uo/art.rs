//! Art pictures (land tiles and items) as the client draws them, optionally hued.
//!
//! Colours widen from 5 to 8 bits through the client's table ([`client_rgb`]); every pixel
//! of a land tile's diamond is opaque (colour 0 is black), an item's pixel of value 0 is
//! transparent, and whatever no run covers is transparent. A hue replaces a drawn pixel's
//! colour by entry r of the hue's 32 colours, r the pixel's red; a partial hue does so only
//! for grey pixels (red, green and blue equal). Sources: `docs/formats/uo.md`, "Art" and
//! "Hues on pictures" (ClassicUO's `ArtLoader` and its hue shader).

use mul_core::raw::HueEntry;
use mul_core::{Hues, ItemArt, LandArt, LimitError, Limits};

use super::client::client_rgb;
use crate::{RenderError, Result, RgbaImage};

/// How a picture is hued: what a hue value (as the client stores it on an object) asks for.
#[derive(Clone, Copy, Debug, Default)]
pub enum ArtHue<'data> {
    /// The picture's own colours (hue value 0, or 0x8000 alone).
    #[default]
    None,
    /// Every drawn pixel (or, `partial`, every grey one) takes its colour from the hue's
    /// table.
    Table {
        /// The hue's 32 colours.
        entry: &'data HueEntry,
        /// Only grey pixels change.
        partial: bool,
    },
    /// A hue number past hues.mul's hues: the client's lookup finds zeros there, so every
    /// pixel the hue would change is black.
    Missing {
        /// Only grey pixels change.
        partial: bool,
    },
}

impl<'data> ArtHue<'data> {
    /// What hue value `value` asks for, as the client reads it: bit 0x8000 asks for a
    /// partial hue and is then cleared; 0 is no hue; hue number h is hues.mul's entry
    /// h - 1.
    ///
    /// Returns `Err` ([`RenderError::SpectralHue`]) for a value with bit 0x4000 (the
    /// client's translucent shadow, not a colour lookup), which these pictures do not draw.
    pub fn from_value(hues: &Hues<'data>, value: u16) -> Result<Self> {
        let partial = value & 0x8000 != 0;
        let number = value & 0x7FFF;
        if number == 0 {
            return Ok(ArtHue::None);
        }
        if number & 0x4000 != 0 {
            return Err(RenderError::SpectralHue { value });
        }
        Ok(match hues.get(usize::from(number).saturating_sub(1)) {
            Some(entry) => ArtHue::Table { entry, partial },
            None => ArtHue::Missing { partial },
        })
    }

    /// The colour a drawn pixel of colour `colour` takes.
    #[inline]
    pub fn apply(self, colour: u16) -> u16 {
        let red = usize::from((colour >> 10) & 0x1F);
        let grey = red == usize::from((colour >> 5) & 0x1F) && red == usize::from(colour & 0x1F);
        match self {
            ArtHue::None => colour,
            ArtHue::Table { partial: true, .. } | ArtHue::Missing { partial: true } if !grey => {
                colour
            }
            ArtHue::Table { entry, .. } => entry.colours.get(red).map_or(0, |c| c.get()),
            ArtHue::Missing { .. } => 0,
        }
    }

    /// A drawn pixel's RGBA, opaque.
    #[inline]
    fn rgba(self, colour: u16) -> [u8; 4] {
        let [r, g, b] = client_rgb(self.apply(colour));
        [r, g, b, 0xFF]
    }
}

/// A land tile as the client draws it: 44 x 44 pixels, the diamond opaque, the corners
/// transparent.
///
/// Returns `Err` only if the picture cannot be made (it cannot: it is 44 x 44).
pub fn land_picture(land: &LandArt<'_>, hue: ArtHue<'_>) -> Result<RgbaImage> {
    let side = mul_core::art::LAND_SIDE;
    let mut picture = RgbaImage::new(side, side, [0; 4])?;
    for run in land.runs() {
        draw_run(&mut picture, run.x, run.y, run.pixels, hue, Zero::Black);
    }
    Ok(picture)
}

/// An item as the client draws it: its width x height, pixels of value 0 and places no run
/// covers transparent.
///
/// Returns `Err` ([`RenderError::TooLarge`]) for a picture of no pixel,
/// ([`RenderError::Uo`] with a [`LimitError`]) for one whose RGBA bytes pass
/// `limits.max_decoded_bytes`, or ([`RenderError::Uo`]) for runs the item's bytes do not hold
/// ([`ItemArt::runs`]).
pub fn item_picture(item: &ItemArt<'_>, hue: ArtHue<'_>, limits: &Limits) -> Result<RgbaImage> {
    let (width, height) = (item.width(), item.height());
    let bytes = u64::from(width)
        .saturating_mul(u64::from(height))
        .saturating_mul(4);
    if bytes > limits.max_decoded_bytes {
        let limit = LimitError {
            what: "the item's picture",
            unit: "bytes",
            found: bytes,
            limit: limits.max_decoded_bytes,
        };
        return Err(RenderError::Uo(limit.into()));
    }
    let mut picture = RgbaImage::new(width, height, [0; 4])?;
    for run in item.runs() {
        let run = run?;
        draw_run(
            &mut picture,
            run.x,
            run.y,
            run.pixels,
            hue,
            Zero::Transparent,
        );
    }
    Ok(picture)
}

/// What a pixel of value 0 is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Zero {
    /// Black, opaque (land tiles).
    Black,
    /// Not drawn (items).
    Transparent,
}

/// Draws `pixels` from (x, y) rightwards, opaque; a 0 as `zero` says.
fn draw_run(
    picture: &mut RgbaImage,
    x: u32,
    y: u32,
    pixels: &[zerocopy::little_endian::U16],
    hue: ArtHue<'_>,
    zero: Zero,
) {
    let Some(row) = picture.row_mut(y) else {
        return;
    };
    let start = (x as usize).saturating_mul(4);
    let Some(out) = row.get_mut(start..) else {
        return;
    };
    for (px, colour) in out.chunks_exact_mut(4).zip(pixels) {
        let colour = colour.get();
        if colour != 0 || zero == Zero::Black {
            px.copy_from_slice(&hue.rgba(colour));
        }
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
mod tests {
    use mul_core::art::write::{ArtPicture, write_art};
    use mul_core::art::{ITEM_BASE, LAND_PIXELS};
    use mul_core::{Art, Hues};

    use super::*;

    /// hues.mul of one group: hue i's colour r is `(i << 10) | r` (hue 1 = index 0).
    fn hues_file() -> Vec<u8> {
        let mut file = vec![0u8; 4];
        for hue in 0..8u16 {
            for r in 0..32u16 {
                file.extend_from_slice(&((hue << 10) | r).to_le_bytes());
            }
            file.extend_from_slice(&[0; 4 + 20]);
        }
        file
    }

    /// Art holding a land tile at 0 and one item of 3 x 2 at item 0.
    fn art_files(land: &[u16], item: &[u16]) -> (Vec<u8>, Vec<u8>) {
        let mut pictures = vec![ArtPicture::Empty; ITEM_BASE + 1];
        pictures[0] = ArtPicture::Land(land);
        pictures[ITEM_BASE] = ArtPicture::Item {
            width: 3,
            height: 2,
            pixels: item,
        };
        write_art(&pictures).unwrap()
    }

    #[test]
    fn a_land_tile_is_an_opaque_diamond_with_black_drawn() {
        let mut land = vec![0x7FFF; LAND_PIXELS];
        land[0] = 0; // row 0's first pixel, at (21, 0): black, drawn
        land[1] = 0x0421; // (22, 0): 1 in every channel
        let (index, data) = art_files(&land, &[0; 6]);
        let art = Art::parse(&index, &data).unwrap();
        let picture = land_picture(&art.land(0).unwrap().unwrap(), ArtHue::None).unwrap();
        assert_eq!((picture.width(), picture.height()), (44, 44));
        assert_eq!(picture.get(21, 0), Some([0, 0, 0, 255]));
        // The client's table: 1 * 255 / 31 = 8 (bit replication would give 8 too; 4 differs).
        assert_eq!(picture.get(22, 0), Some([8, 8, 8, 255]));
        assert_eq!(picture.get(20, 0), Some([0; 4]));
        assert_eq!(picture.get(23, 0), Some([0; 4]));
        assert_eq!(picture.get(0, 21), Some([255, 255, 255, 255]));
        assert_eq!(picture.get(0, 22), Some([255, 255, 255, 255]));
        assert_eq!(picture.get(0, 23), Some([0; 4]));
        // Opaque pixels: exactly the diamond's 1,012.
        let opaque = picture.pixels().chunks(4).filter(|p| p[3] == 255).count();
        assert_eq!(opaque, LAND_PIXELS);
    }

    #[test]
    fn an_items_zeros_are_transparent_and_colours_widen_by_the_clients_table() {
        let item = [0, 0x1084, 0x7C00, 0x0000, 0x03E0, 0x001F];
        let (index, data) = art_files(&vec![0; LAND_PIXELS], &item);
        let art = Art::parse(&index, &data).unwrap();
        let item = art.item(0).unwrap().unwrap();
        let picture = item_picture(&item, ArtHue::None, &Limits::default()).unwrap();
        let got: Vec<[u8; 4]> = (0..6).map(|i| picture.get(i % 3, i / 3).unwrap()).collect();
        // 4 in each channel: 4 * 255 / 31 = 32 (replication would give 33).
        assert_eq!(
            got,
            [
                [0; 4],
                [32, 32, 32, 255],
                [255, 0, 0, 255],
                [0; 4],
                [0, 255, 0, 255],
                [0, 0, 255, 255]
            ]
        );
        // A cap below its 24 bytes refuses it.
        let err = item_picture(
            &item,
            ArtHue::None,
            &Limits::new().with_max_decoded_bytes(23),
        );
        assert!(
            matches!(err, Err(RenderError::Uo(e)) if matches!(e.kind, mul_core::ErrorKind::Limit(_)))
        );
        // A cap of exactly its 24 bytes draws it.
        let capped = item_picture(
            &item,
            ArtHue::None,
            &Limits::new().with_max_decoded_bytes(24),
        );
        assert_eq!(capped.unwrap().pixels(), picture.pixels());
    }

    #[test]
    fn hues_take_the_red_channels_entry_and_partial_ones_only_greys() {
        let file = hues_file();
        let hues = Hues::parse(&file).unwrap();
        let grey = 0x1084; // 4, 4, 4
        let red = 0x7C00; // 31, 0, 0
        // Hue 3 is index 2: colour r = (2 << 10) | r.
        let full = ArtHue::from_value(&hues, 3).unwrap();
        assert_eq!(full.apply(grey), (2 << 10) | 4);
        assert_eq!(full.apply(red), (2 << 10) | 31);
        let partial = ArtHue::from_value(&hues, 0x8003).unwrap();
        assert_eq!(partial.apply(grey), (2 << 10) | 4);
        assert_eq!(partial.apply(red), red);
        assert_eq!(partial.apply(0), 2 << 10);
        // No hue: 0 and 0x8000 alone.
        for value in [0, 0x8000] {
            assert!(matches!(
                ArtHue::from_value(&hues, value).unwrap(),
                ArtHue::None
            ));
            assert_eq!(ArtHue::from_value(&hues, value).unwrap().apply(red), red);
        }
        // Past the file's 8 hues: black where the hue applies.
        let missing = ArtHue::from_value(&hues, 9).unwrap();
        assert_eq!((missing.apply(red), missing.apply(grey)), (0, 0));
        let missing = ArtHue::from_value(&hues, 0x8009).unwrap();
        assert_eq!((missing.apply(red), missing.apply(grey)), (red, 0));
        // The spectral bit is refused.
        assert!(matches!(
            ArtHue::from_value(&hues, 0x4001),
            Err(RenderError::SpectralHue { value: 0x4001 })
        ));
        // An item's transparent pixels stay transparent when hued.
        let (index, data) = art_files(&vec![0; LAND_PIXELS], &[0, grey, red, 0, 0, 0]);
        let art = Art::parse(&index, &data).unwrap();
        let item = art.item(0).unwrap().unwrap();
        let picture = item_picture(&item, full, &Limits::default()).unwrap();
        assert_eq!(picture.get(0, 0), Some([0; 4]));
        let [r, g, b] = client_rgb((2 << 10) | 4);
        assert_eq!(picture.get(1, 0), Some([r, g, b, 255]));
    }
}
