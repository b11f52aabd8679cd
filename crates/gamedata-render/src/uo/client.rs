//! The client's radar map rule (`docs/formats/uo.md`, "The client's radar map"; ClassicUO's
//! `WorldMapGump`, `GameObject.CanBeDrawn`, `HuesLoader.GetColor16` and
//! `HuesHelper.Color16To32`): which statics show, their hued colours, the client's 5-to-8-bit
//! table and its relief.

use std::fmt;

use mul_core::{Facet, Hues, RadarColours, TileData, TileFlags};

use super::style::RadarStyle;

/// The client's 8-bit value of each 5-bit channel value `v`: `v * 255 / 31` rounded down
/// (0x00, 0x08, 0x10, 0x18, 0x20, 0x29, ... 0xF6, 0xFF). It differs from `v << 3 | v >> 2`
/// (the `Flat` style's widening) at 15 of the 32 values, one lower each time.
// A constant of 32 values below 256: no index past the table, no overflow, no truncation.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]
pub const CLIENT_LEVELS: [u8; 32] = {
    let mut table = [0u8; 32];
    let mut v = 0;
    while v < 32 {
        table[v] = (v * 255 / 31) as u8;
        v += 1;
    }
    table
};

/// An RGB555 colour (bit 15 ignored) as the client widens it to 8 bits a channel, through
/// [`CLIENT_LEVELS`]: red from bits 10 to 14, green 5 to 9, blue 0 to 4.
#[inline]
pub fn client_rgb(colour: u16) -> [u8; 3] {
    let level = |shift: u16| {
        let v = usize::from((colour >> shift) & 0x1F);
        CLIENT_LEVELS.get(v).copied().unwrap_or(u8::MAX)
    };
    [level(10), level(5), level(0)]
}

/// The client's relief: a tile of height `z0` whose south-west neighbour (x - 1, y + 1) has
/// height `z1` is darkened (each channel times 0.8) when lower than it, brightened (times
/// 1.25, at most 255) when higher, in 32-bit floating point, truncated; an equal height or a
/// black colour is kept.
#[inline]
pub fn relief(colour: [u8; 3], z0: i8, z1: i8) -> [u8; 3] {
    if z0 == z1 || colour == [0; 3] {
        return colour;
    }
    let factor: f32 = if z0 < z1 { 0.8 } else { 1.25 };
    // A float in 0..=255 after `min`: the cast truncates, as the client's does.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    colour.map(|c| (f32::from(c) * factor).min(255.0) as u8)
}

/// Whether the client draws item `id` on its map (ClassicUO's `GameObject.CanBeDrawn`, the
/// newer clients' rule): never 0x0001, 0x21BC, 0xA1FE to 0xA201, 0x63D3 or 0x2198 to 0x21A4,
/// nor an id at or past tiledata's item count; 0x9E4C, 0x9E64, 0x9E65 and 0x9E7D only when
/// their tiledata entry is neither background nor surface; otherwise not when its tiledata
/// name starts with "nodraw" (any case), else when it lacks [`TileFlags::NO_DIAGONAL`].
/// The map loop also skips ids 0 and 0xFFFF, which this function leaves to the flags.
pub fn client_draws(tiledata: &TileData<'_>, id: u16) -> bool {
    match id {
        0x0001 | 0x21BC | 0xA1FE..=0xA201 | 0x63D3 | 0x2198..=0x21A4 => return false,
        _ => {}
    }
    let Some(item) = tiledata.item(id) else {
        return false;
    };
    let flags = item.flags();
    if matches!(id, 0x9E4C | 0x9E64 | 0x9E65 | 0x9E7D) {
        return !flags.intersects(TileFlags::BACKGROUND | TileFlags::SURFACE);
    }
    let name = item.name();
    if name
        .get(..6)
        .is_some_and(|start| start.eq_ignore_ascii_case(b"nodraw"))
    {
        return false;
    }
    !flags.contains(TileFlags::NO_DIAGONAL)
}

/// The colour the client gives a static of hue `hue` (not 0) on its map: `GetColor16(0x4000,
/// hue)`, entry 16 of hue `hue - 1`'s table when `hue` is below the file's count of hues,
/// else 0x4000 itself.
#[inline]
pub fn client_hue_colour(hues: &Hues<'_>, hue: u16) -> u16 {
    const BASE: u16 = 0x4000;
    let index = usize::from(hue).wrapping_sub(1);
    if hue == 0 || usize::from(hue) >= hues.len() {
        return BASE;
    }
    hues.get(index)
        .and_then(|h| h.colours.get(usize::from((BASE >> 10) & 0x1F)))
        .map_or(BASE, |c| c.get())
}

/// What the client rule looks up, prepared once a picture: the item table and the hues.
pub(crate) struct ClientTables<'a, 'data> {
    colours: &'a RadarColours<'data>,
    hues: Option<Hues<'data>>,
    /// Per item id: 0 when the client does not draw it, else `0x8000 | radarcol colour`.
    items: Vec<u16>,
    /// Each 5-bit channel value as [`client_rgb`] widens it, as it is, then darkened and
    /// brightened by [`relief`] (which works a channel at a time): 96 bytes, so the lookups
    /// stay in the nearest cache.
    shaded: [[u8; 32]; 3],
}

/// Which of [`relief`]'s three results a tile takes: as it is, darker, brighter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Relief {
    /// No neighbour, or an equal height.
    Flat = 0,
    /// Lower than its south-west neighbour.
    Lower = 1,
    /// Higher than its south-west neighbour.
    Higher = 2,
}

impl Relief {
    /// A tile of height `z0` against its south-west neighbour's `z1`.
    #[inline]
    pub(crate) fn of(z0: i16, z1: i16) -> Self {
        match z0.cmp(&z1) {
            std::cmp::Ordering::Equal => Relief::Flat,
            std::cmp::Ordering::Less => Relief::Lower,
            std::cmp::Ordering::Greater => Relief::Higher,
        }
    }
}

impl fmt::Debug for ClientTables<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientTables")
            .field("hues", &self.hues)
            .field(
                "items_drawn",
                &self.items.iter().filter(|&&c| c != 0).count(),
            )
            .finish()
    }
}

impl<'a, 'data> ClientTables<'a, 'data> {
    /// The tables `style` needs from `facet`: none for `Flat`, tiledata's for `Altitude`,
    /// tiledata's and the hues for `Client`; `None` also when `facet` lacks one of them
    /// (which [`RadarOptions::check`](super::RadarOptions::check) refuses before drawing).
    pub(crate) fn for_style(
        facet: &Facet<'data>,
        colours: &'a RadarColours<'data>,
        style: RadarStyle,
    ) -> Option<Self> {
        let hues = match style {
            RadarStyle::Flat => return None,
            RadarStyle::Altitude => None,
            RadarStyle::Client => Some(facet.hues?),
        };
        let tiledata = facet.tiledata?;
        let items = (0..=u16::MAX)
            .map(|id| {
                let drawn = id != 0 && id != 0xFFFF && client_draws(&tiledata, id);
                if drawn {
                    0x8000 | colours.item(id).unwrap_or(0)
                } else {
                    0
                }
            })
            .collect();
        // The heights 0 against 0, 1 and -1 pick relief's three results; a grey level
        // gives each channel the same value.
        let shaded = [0i8, 1, -1].map(|z1| {
            CLIENT_LEVELS.map(|v| {
                let [v, _, _] = relief([v; 3], 0, z1);
                v
            })
        });
        Some(ClientTables {
            colours,
            hues,
            items,
            shaded,
        })
    }

    /// RGB555 `colour` (bit 15 ignored) as the client draws it with relief `relief`
    /// ([`client_rgb`], then [`relief`]).
    #[inline]
    pub(crate) fn shaded(&self, colour: u16, relief: Relief) -> [u8; 3] {
        let Some(levels) = self.shaded.get(relief as usize) else {
            return [0; 3];
        };
        let level = |shift: u16| {
            let v = usize::from((colour >> shift) & 0x1F);
            levels.get(v).copied().unwrap_or(u8::MAX)
        };
        [level(10), level(5), level(0)]
    }

    /// The client's RGB555 colours (bit 15 set) and heights of block (`bx`, `by`)'s 64
    /// tiles, row by row; `false` (and black, height 0) when its map block cannot be read.
    /// A bad statics block leaves the land.
    pub(crate) fn block(
        &self,
        facet: &Facet<'_>,
        bx: u32,
        by: u32,
        colours: &mut [u16; 64],
        heights: &mut [i8; 64],
    ) -> bool {
        let Some(block) = facet.map.block(bx, by) else {
            *colours = [0; 64];
            *heights = [0; 64];
            return false;
        };
        for ((colour, z), cell) in colours.iter_mut().zip(heights.iter_mut()).zip(&block.cells) {
            *colour = 0x8000 | self.colours.land(cell.id.get() & 0x3FFF).unwrap_or(0);
            *z = cell.z;
        }
        let statics = facet
            .size()
            .block_index(bx, by)
            .and_then(|b| facet.statics.block(b).ok());
        for s in statics.into_iter().flatten() {
            if s.x >= 8 || s.y >= 8 {
                continue;
            }
            let i = usize::from(s.y)
                .saturating_mul(8)
                .saturating_add(usize::from(s.x));
            let item = self
                .items
                .get(usize::from(s.id.get()))
                .copied()
                .unwrap_or(0);
            let (Some(colour), Some(z)) = (colours.get_mut(i), heights.get_mut(i)) else {
                continue;
            };
            if item == 0 || s.z < *z {
                continue;
            }
            *z = s.z;
            let hue = s.hue.get();
            *colour = match (&self.hues, hue) {
                (Some(hues), 1..) => 0x8000 | client_hue_colour(hues, hue),
                _ => item,
            };
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_client_levels_are_the_published_table() {
        // ClassicUO's `HuesHelper` table, as its source lists it.
        let published: [u8; 32] = [
            0x00, 0x08, 0x10, 0x18, 0x20, 0x29, 0x31, 0x39, 0x41, 0x4A, 0x52, 0x5A, 0x62, 0x6A,
            0x73, 0x7B, 0x83, 0x8B, 0x94, 0x9C, 0xA4, 0xAC, 0xB4, 0xBD, 0xC5, 0xCD, 0xD5, 0xDE,
            0xE6, 0xEE, 0xF6, 0xFF,
        ];
        assert_eq!(CLIENT_LEVELS, published);
        let shifted = (0u8..32).filter(|&v| CLIENT_LEVELS[usize::from(v)] != (v << 3 | v >> 2));
        assert_eq!(shifted.count(), 15);
        assert_eq!(client_rgb(0x8000 | 0x4000), [0x83, 0, 0]);
        assert_eq!(client_rgb(0x7FFF), [0xFF; 3]);
        assert_eq!(client_rgb(0b00001_00100_11110), [0x08, 0x20, 0xF6]);
    }

    #[test]
    fn relief_darkens_below_and_brightens_above() {
        assert_eq!(relief([100, 200, 50], 3, 5), [80, 160, 40]);
        assert_eq!(relief([100, 220, 51], 5, 3), [125, 255, 63]);
        assert_eq!(relief([100, 200, 50], 4, 4), [100, 200, 50]);
        assert_eq!(relief([0, 0, 0], 4, 9), [0, 0, 0]);
        // 0.8 in f32 is a little above 0.8: 5 x 0.8 truncates to 4, 10 x 0.8 to 8.
        assert_eq!(relief([5, 10, 1], -128, 127), [4, 8, 0]);
    }
}
