//! tiledata.mul: the properties of every land tile and item tile.
//!
//! 512 land groups of {u32 header, 32 land records}, then item groups of {u32 header, 32 item
//! records} to the end of the file. Three layouts exist, told apart by the file's size:
//!
//! | bytes | layout | flags | land record | item record | items |
//! |---|---|---|---|---|---|
//! | 1,036,288 | old | u32 | 26 | 37 | 16,384 |
//! | 1,644,544 | old, more items | u32 | 26 | 37 | 32,768 |
//! | 3,188,736 | High Seas | u64 | 30 | 41 | 65,536 |
//!
//! Real High Seas files put land tile 0 before the header of land group 0 (tile 0 at byte
//! 0, the header at bytes 30..34); editors that re-save write the header first. Only tile 0
//! moves; both orders are read. Names are 20 bytes, NUL-padded, never read past. Source:
//! `docs/formats/uo.md`, "Tiledata"; flag names from ServUO's `TileFlag`.
//!
//! [`TileData`] is the view, [`TileDataFile`] its owner (read, mapped or handed over).

use std::borrow::Cow;
use std::fmt;

use gamedata_io::{Bytes, Owned, field_text, latin1};
use zerocopy::little_endian::{U32, U64};

use crate::error::{DataError, ErrorKind, Result};
use crate::raw::{
    GROUP_HEADER_LEN, ItemTileNew, ItemTileOld, LAND_TILES, LandTileNew, LandTileOld,
    TILES_PER_GROUP,
};

bitflags::bitflags! {
    /// The flags of a land or item tile (64 bits in the High Seas layout, the low 32 before).
    ///
    /// Names and bits as in ServUO's `TileFlag` (`docs/formats/uo.md`, "Tiledata"). Bits
    /// with no name are kept.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub struct TileFlags: u64 {
        /// Drawn behind other things.
        const BACKGROUND = 0x1;
        /// A weapon.
        const WEAPON = 0x2;
        /// Transparent.
        const TRANSPARENT = 0x4;
        /// Translucent.
        const TRANSLUCENT = 0x8;
        /// A wall.
        const WALL = 0x10;
        /// Damages whoever stands on it.
        const DAMAGING = 0x20;
        /// Cannot be walked through.
        const IMPASSABLE = 0x40;
        /// Water.
        const WET = 0x80;
        /// Meaning unknown.
        const UNKNOWN1 = 0x100;
        /// Can be stood on.
        const SURFACE = 0x200;
        /// A bridge or stairs: climbable.
        const BRIDGE = 0x400;
        /// Stackable.
        const GENERIC = 0x800;
        /// A window.
        const WINDOW = 0x1000;
        /// Blocks line of sight and missiles.
        const NO_SHOOT = 0x2000;
        /// Named with the article "a".
        const ARTICLE_A = 0x4000;
        /// Named with the article "an".
        const ARTICLE_AN = 0x8000;
        /// Internal (not shown to players).
        const INTERNAL = 0x10000;
        /// Foliage (drawn see-through when something stands behind it).
        const FOLIAGE = 0x20000;
        /// Only part of the art is hued.
        const PARTIAL_HUE = 0x40000;
        /// Meaning unknown.
        const UNKNOWN2 = 0x80000;
        /// A map.
        const MAP = 0x100000;
        /// A container.
        const CONTAINER = 0x200000;
        /// Can be worn.
        const WEARABLE = 0x400000;
        /// Gives light.
        const LIGHT_SOURCE = 0x800000;
        /// Animated.
        const ANIMATION = 0x1000000;
        /// Cannot be passed diagonally.
        const NO_DIAGONAL = 0x2000000;
        /// Meaning unknown.
        const UNKNOWN3 = 0x4000000;
        /// Armour.
        const ARMOR = 0x8000000;
        /// A roof.
        const ROOF = 0x10000000;
        /// A door.
        const DOOR = 0x20000000;
        /// Stairs rising to the back.
        const STAIR_BACK = 0x40000000;
        /// Stairs rising to the right.
        const STAIR_RIGHT = 0x80000000;
        /// Alpha-blended (High Seas).
        const ALPHA_BLEND = 0x1_0000_0000;
        /// Uses the new art (High Seas).
        const USE_NEW_ART = 0x2_0000_0000;
        /// Art in use (High Seas).
        const ART_USED = 0x4_0000_0000;
        /// Casts no shadow (High Seas).
        const NO_SHADOW = 0x10_0000_0000;
        /// Pixels bleed into neighbouring tiles (High Seas).
        const PIXEL_BLEED = 0x20_0000_0000;
        /// The animation plays once (High Seas).
        const PLAY_ANIM_ONCE = 0x40_0000_0000;
        /// Part of a movable multi such as a ship (High Seas).
        const MULTI_MOVABLE = 0x100_0000_0000;
        const _ = !0;
    }
}

impl TileFlags {
    /// The flag named `name` (as in [`TileFlags::names`], ASCII case and `_` / `-` ignored:
    /// "impassable", "NoShoot", "no_shoot"), or `None`.
    pub fn from_name_ignoring_case(name: &str) -> Option<Self> {
        Self::all()
            .iter_names()
            .find(|(n, _)| squash(n).eq(squash(name)))
            .map(|(_, f)| f)
    }

    /// The names of the named flags that are set, in bit order (`"IMPASSABLE"` ...).
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        self.iter_names().map(|(n, _)| n)
    }
}

fn squash(name: &str) -> impl Iterator<Item = char> + '_ {
    name.chars()
        .filter(|c| *c != '_' && *c != '-')
        .map(|c| c.to_ascii_lowercase())
}

/// The three layouts of tiledata.mul.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TileDataLayout {
    /// 1,036,288 bytes: 32-bit flags, 16,384 items.
    Old,
    /// 1,644,544 bytes: 32-bit flags, 32,768 items.
    OldExtended,
    /// 3,188,736 bytes: 64-bit flags, 65,536 items (High Seas and later).
    HighSeas,
}

impl TileDataLayout {
    /// The layout of a file of `len` bytes, or `None` for any other size.
    pub const fn from_len(len: u64) -> Option<Self> {
        match len {
            1_036_288 => Some(TileDataLayout::Old),
            1_644_544 => Some(TileDataLayout::OldExtended),
            3_188_736 => Some(TileDataLayout::HighSeas),
            _ => None,
        }
    }

    /// Bytes of the file.
    pub const fn file_len(self) -> usize {
        match self {
            TileDataLayout::Old => 1_036_288,
            TileDataLayout::OldExtended => 1_644_544,
            TileDataLayout::HighSeas => 3_188_736,
        }
    }

    /// Item tiles.
    pub const fn items(self) -> usize {
        match self {
            TileDataLayout::Old => 16_384,
            TileDataLayout::OldExtended => 32_768,
            TileDataLayout::HighSeas => 65_536,
        }
    }

    /// Bytes of a land record.
    pub const fn land_record_len(self) -> usize {
        match self {
            TileDataLayout::HighSeas => 30,
            _ => 26,
        }
    }

    /// Bytes of an item record.
    pub const fn item_record_len(self) -> usize {
        match self {
            TileDataLayout::HighSeas => 41,
            _ => 37,
        }
    }

    #[allow(clippy::arithmetic_side_effects)] // Constants: at most 4 + 32 x 30 bytes.
    const fn land_group_len(self) -> usize {
        GROUP_HEADER_LEN + TILES_PER_GROUP * self.land_record_len()
    }

    #[allow(clippy::arithmetic_side_effects)] // Constants: at most 4 + 32 x 41 bytes.
    const fn item_group_len(self) -> usize {
        GROUP_HEADER_LEN + TILES_PER_GROUP * self.item_record_len()
    }
}

/// A flags word of either width.
pub trait FlagsWord: Copy {
    /// The flags, widened to 64 bits.
    fn flags(self) -> TileFlags;
}

impl FlagsWord for U32 {
    fn flags(self) -> TileFlags {
        TileFlags::from_bits_retain(u64::from(self.get()))
    }
}

impl FlagsWord for U64 {
    fn flags(self) -> TileFlags {
        TileFlags::from_bits_retain(self.get())
    }
}

/// A land tile's record in either layout, borrowed from the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LandTile<'data> {
    /// Old layout.
    Old(&'data LandTileOld),
    /// High Seas layout.
    New(&'data LandTileNew),
}

/// An item tile's record in either layout, borrowed from the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemTile<'data> {
    /// Old layout.
    Old(&'data ItemTileOld),
    /// High Seas layout.
    New(&'data ItemTileNew),
}

/// Calls `$body` with the record of either layout bound to `$t`.
macro_rules! either {
    ($value:expr, $ty:ident, $t:ident => $body:expr) => {
        match $value {
            $ty::Old($t) => $body,
            $ty::New($t) => $body,
        }
    };
}

impl<'data> LandTile<'data> {
    /// Flags.
    pub fn flags(&self) -> TileFlags {
        either!(self, LandTile, t => t.flags.flags())
    }

    /// Texture id.
    pub fn texture(&self) -> u16 {
        either!(self, LandTile, t => t.texture.get())
    }

    /// The name bytes before the first NUL (at most 20).
    pub fn name(&self) -> &'data [u8] {
        either!(*self, LandTile, t => field_text(&t.name))
    }

    /// The name as text (bytes above 0x7F as Latin-1).
    pub fn name_lossy(&self) -> Cow<'data, str> {
        latin1(self.name())
    }
}

impl<'data> ItemTile<'data> {
    /// Flags.
    pub fn flags(&self) -> TileFlags {
        either!(self, ItemTile, t => t.flags.flags())
    }

    /// Weight in stones (255: cannot be lifted).
    pub fn weight(&self) -> u8 {
        either!(self, ItemTile, t => t.weight)
    }

    /// Quality; the layer for wearables, the light for light sources.
    pub fn quality(&self) -> u8 {
        either!(self, ItemTile, t => t.quality)
    }

    /// Quantity; the weapon class for weapons, the armour for armour.
    pub fn quantity(&self) -> u8 {
        either!(self, ItemTile, t => t.quantity)
    }

    /// Hue.
    pub fn hue(&self) -> u8 {
        either!(self, ItemTile, t => t.hue)
    }

    /// Height in altitude units (for a container, its capacity).
    pub fn height(&self) -> u8 {
        either!(self, ItemTile, t => t.height)
    }

    /// Animation (body) id.
    pub fn animation(&self) -> u16 {
        either!(self, ItemTile, t => t.animation.get())
    }

    /// The name bytes before the first NUL (at most 20).
    pub fn name(&self) -> &'data [u8] {
        either!(*self, ItemTile, t => field_text(&t.name))
    }

    /// The name as text (bytes above 0x7F as Latin-1).
    pub fn name_lossy(&self) -> Cow<'data, str> {
        latin1(self.name())
    }
}

/// tiledata.mul, borrowed.
#[derive(Clone, Copy)]
pub struct TileData<'data> {
    data: &'data [u8],
    layout: TileDataLayout,
    /// Land tile 0 sits before group 0's header (the real High Seas files).
    tile_zero_first: bool,
}

impl fmt::Debug for TileData<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TileData")
            .field("layout", &self.layout)
            .field("tile_zero_first", &self.tile_zero_first)
            .finish()
    }
}

impl<'data> TileData<'data> {
    /// Reads the layout from the file's size.
    ///
    /// Returns `Err` ([`ErrorKind::TileDataLength`]) for a size that is none of the three layouts.
    pub fn parse(data: &'data [u8]) -> Result<Self, DataError> {
        let layout =
            TileDataLayout::from_len(data.len() as u64).ok_or(ErrorKind::TileDataLength {
                found: data.len() as u64,
            })?;
        let tile_zero_first = layout == TileDataLayout::HighSeas && tile_zero_comes_first(data);
        Ok(TileData {
            data,
            layout,
            tile_zero_first,
        })
    }

    /// The layout.
    pub fn layout(&self) -> TileDataLayout {
        self.layout
    }

    /// True if land tile 0 comes before the header of land group 0 (real High Seas files).
    pub fn tile_zero_first(&self) -> bool {
        self.tile_zero_first
    }

    /// Land tiles: 16,384.
    pub fn land_count(&self) -> usize {
        LAND_TILES
    }

    /// Item tiles (16,384, 32,768 or 65,536).
    pub fn item_count(&self) -> usize {
        self.layout.items()
    }

    // id is below the 0x4000 land tiles (checked first), so the offset is below 1 MB.
    #[allow(clippy::arithmetic_side_effects)]
    fn land_offset(&self, id: usize) -> Option<usize> {
        if id >= LAND_TILES {
            return None;
        }
        if id == 0 && self.tile_zero_first {
            return Some(0);
        }
        let rec = self.layout.land_record_len();
        let group = id / TILES_PER_GROUP;
        Some(group * self.layout.land_group_len() + GROUP_HEADER_LEN + (id % TILES_PER_GROUP) * rec)
    }

    // id is below the layout's item count (checked first, at most 0x10000), so the offset
    // is below 4 MB.
    #[allow(clippy::arithmetic_side_effects)]
    fn item_offset(&self, id: usize) -> Option<usize> {
        if id >= self.layout.items() {
            return None;
        }
        let base = LAND_TILES / TILES_PER_GROUP * self.layout.land_group_len();
        let rec = self.layout.item_record_len();
        let group = id / TILES_PER_GROUP;
        Some(
            base + group * self.layout.item_group_len()
                + GROUP_HEADER_LEN
                + (id % TILES_PER_GROUP) * rec,
        )
    }

    /// Land tile `id`, or `None` if `id` is 16,384 or more.
    pub fn land(&self, id: u16) -> Option<LandTile<'data>> {
        let at = self.land_offset(usize::from(id))?;
        let bytes = Bytes::new(self.data);
        match self.layout {
            TileDataLayout::HighSeas => bytes.read_at::<LandTileNew>(at).ok().map(LandTile::New),
            _ => bytes.read_at::<LandTileOld>(at).ok().map(LandTile::Old),
        }
    }

    /// Item tile `id`, or `None` past the layout's item count.
    pub fn item(&self, id: u16) -> Option<ItemTile<'data>> {
        let at = self.item_offset(usize::from(id))?;
        let bytes = Bytes::new(self.data);
        match self.layout {
            TileDataLayout::HighSeas => bytes.read_at::<ItemTileNew>(at).ok().map(ItemTile::New),
            _ => bytes.read_at::<ItemTileOld>(at).ok().map(ItemTile::Old),
        }
    }

    /// Every item's flags and height, indexed by item id: the table the whole-world
    /// queries look up per static.
    pub fn item_table(&self) -> Vec<(TileFlags, u8)> {
        (0..self.layout.items())
            .map(|id| {
                u16::try_from(id)
                    .ok()
                    .and_then(|id| self.item(id))
                    .map_or((TileFlags::empty(), 0), |t| (t.flags(), t.height()))
            })
            .collect()
    }
}

/// In a High Seas file, whether land tile 0 comes first (its name at bytes 10..30) rather
/// than after the group header (its name at 14..34). The two orders differ only there; when
/// neither or both look like a name, the real files' order (tile first) is assumed.
fn tile_zero_comes_first(data: &[u8]) -> bool {
    let name_at = |at: usize| {
        data.get(at..at.saturating_add(20))
            .is_some_and(looks_like_name)
    };
    !name_at(14) || name_at(10)
}

/// Printable ASCII, then only NULs.
fn looks_like_name(field: &[u8]) -> bool {
    let text = field_text(field);
    let pad = field.get(text.len()..).unwrap_or_default();
    !text.is_empty() && text.iter().all(|b| (0x20..0x7F).contains(b)) && pad.iter().all(|&b| b == 0)
}

/// tiledata.mul, owned ([`Owned`] of [`TileDataContents`]; view: [`TileData`]).
pub type TileDataFile = Owned<TileDataContents>;

single_file! {
    /// tiledata.mul's bytes, checked ([`TileData::parse`]).
    TileDataContents => TileData
}
