//! The three ways a radar map colours a tile ([`RadarStyle`]) and the files each needs
//! besides radarcol.mul ([`RadarTable`]); used by the drawing ([`radar`](super::radar)), the
//! bands and the client's rule alike.

use std::fmt;
use std::str::FromStr;

use mul_core::Facet;

/// How [`radar`](super::radar) colours a tile (`docs/formats/uo.md`, "Radar colours" and "The client's
/// radar map").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RadarStyle {
    /// This project's rule (the module's documentation), shaded when
    /// [`RadarOptions::hillshade`](super::RadarOptions::hillshade) is on. Needs radarcol.mul.
    #[default]
    Flat,
    /// The client's rule, pixel for pixel (ClassicUO's world map): statics the client does
    /// not draw left out, hued statics in their hue's colour, the client's 5-to-8-bit table
    /// ([`client_rgb`](super::client::client_rgb)) and its relief ([`relief`](super::client::relief)) against each tile's
    /// south-west neighbour, except on the map's border. Needs radarcol.mul, tiledata.mul and
    /// hues.mul.
    Client,
    /// Each tile's height as the client computes it (the z of the static shown under the
    /// `Client` rule, else the land's), as the grey level z + 128 (-128 black, 127 white);
    /// black where the map block cannot be read. Needs tiledata.mul.
    Altitude,
}

impl RadarStyle {
    /// The three styles.
    pub const ALL: [RadarStyle; 3] = [RadarStyle::Flat, RadarStyle::Client, RadarStyle::Altitude];

    /// The style's name as the command line and reports spell it: `flat`, `client` or
    /// `altitude`.
    pub const fn name(self) -> &'static str {
        match self {
            RadarStyle::Flat => "flat",
            RadarStyle::Client => "client",
            RadarStyle::Altitude => "altitude",
        }
    }

    /// The files the style draws from besides radarcol.mul: none for `Flat`, tiledata.mul
    /// for `Altitude`, tiledata.mul and hues.mul for `Client` (what [`RadarOptions::check`](super::RadarOptions::check)
    /// asks of a facet).
    pub const fn needs(self) -> &'static [RadarTable] {
        match self {
            RadarStyle::Flat => &[],
            RadarStyle::Altitude => &[RadarTable::TileData],
            RadarStyle::Client => &[RadarTable::TileData, RadarTable::Hues],
        }
    }

    /// True if [`RadarOptions::hillshade`](super::RadarOptions::hillshade) applies to the style: `Flat` only (the client
    /// style draws the client's own relief).
    pub const fn takes_hillshade(self) -> bool {
        matches!(self, RadarStyle::Flat)
    }
}

impl fmt::Display for RadarStyle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A file a radar style may need besides radarcol.mul ([`RadarStyle::needs`]), each a field
/// of [`Facet`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RadarTable {
    /// tiledata.mul ([`Facet::tiledata`]).
    TileData,
    /// hues.mul ([`Facet::hues`]).
    Hues,
}

impl RadarTable {
    /// The file's name: `tiledata.mul` or `hues.mul`.
    pub const fn file_name(self) -> &'static str {
        match self {
            RadarTable::TileData => "tiledata.mul",
            RadarTable::Hues => "hues.mul",
        }
    }

    /// True if `facet` holds the table.
    pub const fn is_in(self, facet: &Facet<'_>) -> bool {
        match self {
            RadarTable::TileData => facet.tiledata.is_some(),
            RadarTable::Hues => facet.hues.is_some(),
        }
    }
}

impl fmt::Display for RadarTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.file_name())
    }
}

/// A name that is not one of [`RadarStyle::name`]'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a radar style (flat, client or altitude)")]
pub struct UnknownStyle(pub String);

impl FromStr for RadarStyle {
    type Err = UnknownStyle;

    /// The style of that name, in any letter case.
    fn from_str(text: &str) -> std::result::Result<Self, UnknownStyle> {
        RadarStyle::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| UnknownStyle(text.to_owned()))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for RadarStyle {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}
