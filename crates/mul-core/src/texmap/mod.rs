//! Texture maps (texmaps.mul + texidx.mul): the square pictures the client lays over land
//! tiles that are not flat, read in place.
//!
//! A texture map is a square of raw 16-bit pixels, row by row from the top-left corner:
//! 64 x 64 when its entry is exactly 0x2000 bytes (8,192), 128 x 128 when it is exactly
//! 0x8000 bytes (32,768). The client takes any other non-empty entry as 128 x 128 and reads
//! 0x8000 bytes from its offset whatever its length; here such an entry is an error for its
//! id alone ([`PictureProblem::TexmapLength`]). Pixels are 15-bit colours (red bits 10 to
//! 14, green 5 to 9, blue 0 to 4; bit 15 plays no part) and every one is drawn, colour 0
//! included (black). Empty entries and overlapping ones follow the rules of art's index.
//! A land tile names its texture map in tiledata.mul
//! ([`LandTile::texture`](crate::LandTile::texture)).
//!
//! [`Texmaps`] is the view, [`TexmapFiles`] the owner of a folder's texmaps.mul and
//! texidx.mul, [`def`] TexTerr.def's redirections, `write` (the `write` feature) the
//! writer.
//!
//! Source: `docs/formats/uo.md`, "Index files" and "Texture maps" (ClassicUO's
//! `TexmapsLoader`).

use std::fmt;

use zerocopy::FromBytes;
use zerocopy::little_endian::U16;

use crate::error::{DataError, PictureProblem};
use crate::picture::{PictureIndex, SharedOverlaps};
use crate::raw::IndexRecord;

pub mod def;
mod files;
#[cfg(feature = "write")]
pub mod write;

pub use files::{TexmapFiles, TexmapSet};

/// The side of a small texture map, in pixels.
pub const SMALL_SIDE: u32 = 64;
/// The side of a large texture map, in pixels.
pub const LARGE_SIDE: u32 = 128;
/// Bytes of a small texture map's entry: 64 x 64 pixels of 2 bytes.
pub const SMALL_LEN: usize = 0x2000;
/// Bytes of a large texture map's entry: 128 x 128 pixels of 2 bytes.
pub const LARGE_LEN: usize = 0x8000;

/// texmaps.mul over texidx.mul, borrowed: texture maps by id.
///
/// Entries are checked when asked for: one outside texmaps.mul, overlapping another's
/// bytes but exactly, or of a length that is neither 0x2000 nor 0x8000, is an error for
/// that id alone.
#[derive(Clone)]
pub struct Texmaps<'data> {
    entries: PictureIndex<'data>,
}

impl fmt::Debug for Texmaps<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Texmaps")
            .field("entries", &self.entries.index.len())
            .field("data_len", &self.entries.data.len())
            .finish()
    }
}

impl<'data> Texmaps<'data> {
    /// Casts texidx.mul in place over texmaps.mul.
    ///
    /// Returns `Err` ([`ErrorKind::RecordMultiple`](crate::ErrorKind::RecordMultiple)) if
    /// the index is not a whole number of 12-byte records.
    pub fn parse(index: &'data [u8], data: &'data [u8]) -> Result<Self, DataError> {
        Self::parse_shared(index, data, SharedOverlaps::default())
    }

    /// [`Texmaps::parse`] with the overlaps an owner keeps.
    pub(crate) fn parse_shared(
        index: &'data [u8],
        data: &'data [u8],
        overlaps: SharedOverlaps,
    ) -> Result<Self, DataError> {
        Ok(Texmaps {
            entries: PictureIndex::parse(index, data, "texidx.mul", overlaps)?,
        })
    }

    /// Texture map ids the index holds (empty entries included): ids 0 to `len() - 1`.
    pub fn len(&self) -> usize {
        self.entries.index.len()
    }

    /// True if the index has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.index.is_empty()
    }

    /// The raw index records.
    pub fn index(&self) -> &'data [IndexRecord] {
        self.entries.index
    }

    /// Texture map `id`'s bytes, whatever their length; `None` for an empty entry.
    ///
    /// Returns `Err` ([`ErrorKind::MissingIndexEntry`](crate::ErrorKind::MissingIndexEntry))
    /// past the index, or ([`ErrorKind::IndexEntry`](crate::ErrorKind::IndexEntry)) if the
    /// entry lies outside texmaps.mul or overlaps another entry's bytes (an exact repeat is
    /// no overlap).
    pub fn entry(&self, id: u32) -> Result<Option<&'data [u8]>, DataError> {
        self.entries.entry(id as usize)
    }

    /// Texture map `id`; `None` for an empty entry or an id past the index (the client
    /// finds no texture there).
    ///
    /// Returns `Err` as [`Texmaps::entry`] (but for an id past the index), or
    /// ([`PictureProblem::TexmapLength`]) for an entry neither 0x2000 nor 0x8000 bytes long,
    /// naming the entry ("texmap 0x0012") and its slot.
    pub fn texmap(&self, id: u32) -> Result<Option<Texmap<'data>>, DataError> {
        let Some(number) = usize::try_from(id).ok().filter(|&n| n < self.len()) else {
            return Ok(None);
        };
        let Some(bytes) = self.entries.entry(number)? else {
            return Ok(None);
        };
        Texmap::parse(bytes)
            .map(Some)
            .map_err(|e| e.in_entry("texmaps.mul", &format!("texmap {id:#06X}"), number))
    }
}

/// A texture map: `side` x `side` raw pixels in place, row by row, every one drawn.
#[derive(Clone, Copy)]
pub struct Texmap<'data> {
    side: u32,
    pixels: &'data [U16],
}

impl fmt::Debug for Texmap<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Texmap")
            .field("side", &self.side)
            .finish_non_exhaustive()
    }
}

impl<'data> Texmap<'data> {
    /// Casts a texture map's entry: 0x2000 bytes are 64 x 64 pixels, 0x8000 bytes 128 x 128.
    ///
    /// Returns `Err` ([`PictureProblem::TexmapLength`]) for any other length.
    pub fn parse(bytes: &'data [u8]) -> Result<Self, DataError> {
        let bad = || DataError::from(PictureProblem::TexmapLength { found: bytes.len() });
        let side = match bytes.len() {
            SMALL_LEN => SMALL_SIDE,
            LARGE_LEN => LARGE_SIDE,
            _ => return Err(bad()),
        };
        let pixels = <[U16]>::ref_from_bytes(bytes).map_err(|_| bad())?;
        Ok(Texmap { side, pixels })
    }

    /// The side in pixels: 64 or 128 (the picture is square).
    pub fn side(&self) -> u32 {
        self.side
    }

    /// The `side * side` raw pixels, row by row from the top-left corner.
    pub fn pixels(&self) -> &'data [U16] {
        self.pixels
    }

    /// Row `y` (0 at the top): `side` raw pixels, or `None` for `y` of `side` or more.
    pub fn row(&self, y: u32) -> Option<&'data [U16]> {
        let side = self.side as usize;
        let start = (y as usize).checked_mul(side)?;
        self.pixels.get(start..start.checked_add(side)?)
    }
}
