//! Texture maps as the client draws them: a square of 64 x 64 or 128 x 128 pixels, every
//! one opaque.
//!
//! A pixel's low 15 bits are its colour (red bits 10 to 14, green 5 to 9, blue 0 to 4),
//! widened from 5 to 8 bits through the client's table ([`client_rgb`], the art's too);
//! colour 0 is black, not transparent, and bit 15 plays no part. Source:
//! `docs/formats/uo.md`, "Texture maps" (ClassicUO's `TexmapsLoader`).

use mul_core::Texmap;

use super::client::client_rgb;
use crate::{Result, RgbaImage};

/// A texture map as the client draws it: `side` x `side` RGBA pixels, row by row, alpha 255
/// everywhere.
///
/// Returns `Err` only if the picture cannot be made (it cannot: it is at most 128 x 128).
pub fn texmap_picture(texmap: &Texmap<'_>) -> Result<RgbaImage> {
    let side = texmap.side();
    let mut picture = RgbaImage::new(side, side, [0, 0, 0, 0xFF])?;
    for y in 0..side {
        let (Some(row), Some(out)) = (texmap.row(y), picture.row_mut(y)) else {
            continue;
        };
        for (px, colour) in out.chunks_exact_mut(4).zip(row) {
            let [r, g, b] = client_rgb(colour.get());
            px.copy_from_slice(&[r, g, b, 0xFF]);
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
    use mul_core::Texmaps;
    use mul_core::texmap::write::{TexmapPicture, write_texmaps};

    use super::*;

    #[test]
    fn every_pixel_is_opaque_black_included_and_bit_15_plays_no_part() {
        // A 64 x 64 map: (0, 0) colour 0, (1, 0) 1 in every channel, (2, 0) the same with
        // bit 15, (3, 0) 4 in every channel, (0, 1) pure red, the rest 0x8000 (black).
        let mut small = vec![0x8000u16; 64 * 64];
        small[0] = 0;
        small[1] = 0x0421;
        small[2] = 0x8421;
        small[3] = 0x1084;
        small[64] = 0x7C00;
        let large: Vec<u16> = (0..128 * 128).map(|i| (i as u16) & 0x03E0).collect();
        let (index, data) =
            write_texmaps(&[TexmapPicture::Pixels(&small), TexmapPicture::Pixels(&large)]).unwrap();
        let texmaps = Texmaps::parse(&index, &data).unwrap();
        let picture = texmap_picture(&texmaps.texmap(0).unwrap().unwrap()).unwrap();
        assert_eq!((picture.width(), picture.height()), (64, 64));
        assert_eq!(picture.get(0, 0), Some([0, 0, 0, 255]));
        // The client's table: 1 * 255 / 31 = 8, 4 * 255 / 31 = 32 (bit replication: 33).
        assert_eq!(picture.get(1, 0), Some([8, 8, 8, 255]));
        assert_eq!(picture.get(2, 0), Some([8, 8, 8, 255]));
        assert_eq!(picture.get(3, 0), Some([32, 32, 32, 255]));
        assert_eq!(picture.get(0, 1), Some([255, 0, 0, 255]));
        assert_eq!(picture.get(63, 63), Some([0, 0, 0, 255]));
        assert!(picture.pixels().chunks(4).all(|p| p[3] == 255));

        let picture = texmap_picture(&texmaps.texmap(1).unwrap().unwrap()).unwrap();
        assert_eq!((picture.width(), picture.height()), (128, 128));
        // Pixel i is green (i >> 5) & 31 by the same table, everywhere.
        for (i, px) in picture.pixels().chunks(4).enumerate() {
            let green = ((i >> 5) & 31) as u32 * 255 / 31;
            assert_eq!(px, [0, green as u8, 0, 255], "{i}");
        }
    }
}
