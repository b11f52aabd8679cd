//! Backdrops: the picture behind a map (BDNEWSKY.MNI ..., in the VOL, two in the STN).
//!
//! A backdrop is 40 x 18 solid tiles (320 x 144 pixels), 23,040 bytes: 720 tiles of 32 bytes,
//! row-major from the top-left. A map names its backdrop by number (bits 0-4 of its header
//! flags, [`MapFlags::backdrop`](crate::MapFlags::backdrop)); the game's table of names is
//! [`BACKDROP_NAMES`]. Sources: `docs/formats/cosmo.md`, "Backdrops" (Cosmore's source,
//! `backdropNames` in GAME1.C; Cosmodoc, "Backdrop Database"; measured on episode 1).

use std::fmt;

use gamedata_io::records;

use crate::error::{DataError, ErrorKind, Result};
use crate::raw::{BACKDROP_HEIGHT, BACKDROP_LEN, BACKDROP_WIDTH, SolidTileRaw};

/// The backdrop entry names by number, as the game's table has them (upper-cased; the game
/// looks names up in any case). Numbers 26 to 31 name nothing.
pub const BACKDROP_NAMES: [&str; 26] = [
    "BDBLANK.MNI",
    "BDPIPE.MNI",
    "BDREDSKY.MNI",
    "BDROCKTK.MNI",
    "BDJUNGLE.MNI",
    "BDSTAR.MNI",
    "BDWIERD.MNI",
    "BDCAVE.MNI",
    "BDICE.MNI",
    "BDSHRUM.MNI",
    "BDTECHMS.MNI",
    "BDNEWSKY.MNI",
    "BDSTAR2.MNI",
    "BDSTAR3.MNI",
    "BDFOREST.MNI",
    "BDMOUNTN.MNI",
    "BDGUTS.MNI",
    "BDBRKTEC.MNI",
    "BDCLOUDS.MNI",
    "BDFUTCTY.MNI",
    "BDICE2.MNI",
    "BDCLIFF.MNI",
    "BDSPOOKY.MNI",
    "BDCRYSTL.MNI",
    "BDCIRCUT.MNI",
    "BDCIRCPC.MNI",
];

/// The entry name of backdrop `number`.
///
/// Returns `Err` ([`ErrorKind::BackdropNumber`]) for a number the game's table does not name.
pub fn backdrop_name(number: u8) -> Result<&'static str, DataError> {
    BACKDROP_NAMES
        .get(usize::from(number))
        .copied()
        .ok_or_else(|| {
            ErrorKind::BackdropNumber {
                found: number,
                count: BACKDROP_NAMES.len(),
            }
            .into()
        })
}

/// A backdrop, cast in place: 40 x 18 solid tiles.
#[derive(Clone, Copy)]
pub struct Backdrop<'data> {
    tiles: &'data [SolidTileRaw],
}

impl fmt::Debug for Backdrop<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Backdrop").finish_non_exhaustive()
    }
}

impl<'data> Backdrop<'data> {
    /// Width in tiles (40).
    pub const WIDTH: u16 = BACKDROP_WIDTH;
    /// Height in tiles (18).
    pub const HEIGHT: u16 = BACKDROP_HEIGHT;

    /// Casts a backdrop entry in place.
    ///
    /// Returns `Err` ([`ErrorKind::WrongSize`]) unless it is exactly 23,040 bytes.
    pub fn parse(data: &'data [u8]) -> Result<Self, DataError> {
        let wrong = || ErrorKind::WrongSize {
            what: "backdrop",
            found: data.len(),
            expected: BACKDROP_LEN,
        };
        if data.len() != BACKDROP_LEN {
            return Err(wrong().into());
        }
        let tiles = records::<SolidTileRaw>(data).map_err(|_| wrong())?;
        Ok(Backdrop { tiles })
    }

    /// The tile at column `col`, row `row` (from the top-left), or `None` outside 40 x 18.
    pub fn tile(&self, col: u16, row: u16) -> Option<&'data SolidTileRaw> {
        if col >= Self::WIDTH || row >= Self::HEIGHT {
            return None;
        }
        let index = usize::from(row)
            .saturating_mul(usize::from(Self::WIDTH))
            .saturating_add(usize::from(col));
        self.tiles.get(index)
    }

    /// All 720 tiles, row-major.
    pub fn tiles(&self) -> &'data [SolidTileRaw] {
        self.tiles
    }
}

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    #[test]
    fn names_and_numbers() {
        assert_eq!(backdrop_name(0).unwrap(), "BDBLANK.MNI");
        assert_eq!(backdrop_name(11).unwrap(), "BDNEWSKY.MNI");
        assert_eq!(backdrop_name(25).unwrap(), "BDCIRCPC.MNI");
        assert_eq!(
            backdrop_name(26).unwrap_err().kind(),
            ErrorKind::BackdropNumber {
                found: 26,
                count: 26
            }
        );
    }

    #[test]
    fn tiles_are_row_major() {
        let mut bytes = vec![0u8; BACKDROP_LEN];
        bytes[(40 + 2) * 32] = 0x80; // tile (2, 1), row 0, blue plane, leftmost pixel
        let b = Backdrop::parse(&bytes).unwrap();
        assert_eq!(b.tile(2, 1).unwrap().pixels()[0][0], 1);
        assert_eq!(b.tile(1, 2).unwrap().pixels()[0][0], 0);
        assert!(b.tile(40, 0).is_none() && b.tile(0, 18).is_none());
        assert_eq!(
            Backdrop::parse(&bytes[1..]).unwrap_err().kind(),
            ErrorKind::WrongSize {
                what: "backdrop",
                found: 23_039,
                expected: 23_040
            }
        );
    }
}
