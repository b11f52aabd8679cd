//! Radar colours (radarcol.mul) and hues (hues.mul).
//!
//! radarcol.mul is an array of RGB555 colours: 0x4000 for the land tiles, then one for each
//! item tile. hues.mul is groups of 708 bytes: a header word and 8 hues of 32 RGB555 colours,
//! a table start and end colour and a 20-byte name. Source: `docs/formats/uo.md`, "Radar
//! colours" and "Hues".
//!
//! [`RadarColours`] and [`Hues`] are the views, [`RadarColoursFile`] and [`HuesFile`]
//! their owners.

use std::fmt;

use std::borrow::Cow;

use gamedata_io::{Owned, field_text, latin1, records};
use zerocopy::little_endian::U16;

use crate::error::{DataError, ErrorKind, Result};
use crate::raw::{HUES_PER_GROUP, HueEntry, HueGroup, RADAR_LAND_ENTRIES};

/// An RGB555 colour (bit 15 unused) as 8-bit RGB: each 5-bit channel `v` becomes
/// `v << 3 | v >> 2`, so 0 is 0 and 31 is 255.
#[inline]
pub const fn rgb555_to_rgb8(colour: u16) -> [u8; 3] {
    [widen5(colour >> 10), widen5(colour >> 5), widen5(colour)]
}

/// The low 5 bits of `v` as 0..=255.
#[inline]
const fn widen5(v: u16) -> u8 {
    let v = (v & 0x1F) as u8;
    v << 3 | v >> 2
}

/// radarcol.mul, cast in place.
#[derive(Clone, Copy)]
pub struct RadarColours<'data> {
    colours: &'data [U16],
}

impl fmt::Debug for RadarColours<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RadarColours")
            .field("colours", &self.colours.len())
            .finish()
    }
}

impl<'data> RadarColours<'data> {
    /// Casts radarcol.mul.
    ///
    /// Returns `Err` ([`ErrorKind::RecordMultiple`]) if its length is odd, or
    /// ([`ErrorKind::RadarColLength`]) if it holds fewer than the 0x4000 land colours every
    /// radarcol.mul starts with (an empty or foreign file, say).
    pub fn parse(data: &'data [u8]) -> Result<Self, DataError> {
        let colours = records::<U16>(data).map_err(|e| ErrorKind::RecordMultiple {
            what: "radarcol.mul",
            found: e.len,
            record: e.record,
        })?;
        if colours.len() < RADAR_LAND_ENTRIES {
            return Err(ErrorKind::RadarColLength {
                found: data.len() as u64,
            }
            .into());
        }
        Ok(RadarColours { colours })
    }

    /// Every colour, land first, cast in place.
    pub fn colours(&self) -> &'data [U16] {
        self.colours
    }

    /// The RGB555 colour of land tile `id` (word `id` of the file), or `None` if the file is
    /// too short. Land ids are below 0x4000; a larger one reads an item's colour.
    #[inline]
    pub fn land(&self, id: u16) -> Option<u16> {
        self.colours.get(usize::from(id)).map(|c| c.get())
    }

    /// The RGB555 colour of item tile `id`, or `None` if the file is too short.
    #[inline]
    pub fn item(&self, id: u16) -> Option<u16> {
        self.colours
            .get(RADAR_LAND_ENTRIES + usize::from(id))
            .map(|c| c.get())
    }

    /// Item colours in the file (entries after the 0x4000 land colours).
    pub fn item_count(&self) -> usize {
        self.colours.len().saturating_sub(RADAR_LAND_ENTRIES)
    }
}

/// hues.mul, cast in place.
#[derive(Clone, Copy)]
pub struct Hues<'data> {
    groups: &'data [HueGroup],
}

impl fmt::Debug for Hues<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hues")
            .field("groups", &self.groups.len())
            .finish()
    }
}

impl<'data> Hues<'data> {
    /// Casts hues.mul.
    ///
    /// Returns `Err` ([`ErrorKind::RecordMultiple`]) unless it is a whole number of
    /// 708-byte groups.
    pub fn parse(data: &'data [u8]) -> Result<Self, DataError> {
        let groups = records::<HueGroup>(data).map_err(|e| ErrorKind::RecordMultiple {
            what: "hues.mul",
            found: e.len,
            record: e.record,
        })?;
        Ok(Hues { groups })
    }

    /// The groups, cast in place.
    pub fn groups(&self) -> &'data [HueGroup] {
        self.groups
    }

    /// Number of hues (8 a group).
    pub fn len(&self) -> usize {
        // The groups lie in the file, 708 bytes each: eight hues each cannot overflow.
        self.groups.len().saturating_mul(HUES_PER_GROUP)
    }

    /// True if the file has no hue.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// Hue `index` counted from 0 in file order (the game's hue numbers start at 1: hue
    /// number `n` is index `n - 1`), or `None` past the end.
    pub fn get(&self, index: usize) -> Option<&'data HueEntry> {
        self.groups
            .get(index / HUES_PER_GROUP)?
            .entries
            .get(index % HUES_PER_GROUP)
    }
}

impl HueEntry {
    /// The name bytes before the first NUL (at most 20).
    pub fn name_bytes(&self) -> &[u8] {
        field_text(&self.name)
    }

    /// The name as text (bytes above 0x7F as Latin-1).
    pub fn name_lossy(&self) -> Cow<'_, str> {
        latin1(self.name_bytes())
    }
}

/// radarcol.mul, owned ([`Owned`] of [`RadarColoursContents`]; view: [`RadarColours`]).
pub type RadarColoursFile = Owned<RadarColoursContents>;

single_file! {
    /// radarcol.mul's bytes, checked ([`RadarColours::parse`]).
    RadarColoursContents => RadarColours
}

/// hues.mul, owned ([`Owned`] of [`HuesContents`]; view: [`Hues`]).
pub type HuesFile = Owned<HuesContents>;

single_file! {
    /// hues.mul's bytes, checked ([`Hues::parse`]).
    HuesContents => Hues
}
