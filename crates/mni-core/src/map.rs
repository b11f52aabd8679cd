//! Maps (A1.MNI ... in COSMO1.VOL).
//!
//! Layout: a 6-byte [`MapHeader`] (flags, width in tiles, actor list length in words), the
//! actor list (3 words an actor: type, x, y), then exactly 65,528 bytes of tile values:
//! 32,764 u16 values, row-major. The grid is `width` x `32768 / width` tiles; its last four
//! cells are not stored. Source: `docs/formats/cosmo.md`, "Maps", checked against the 13
//! maps of episode 1.

use std::fmt;

use gamedata_io::Bytes;
use zerocopy::little_endian::U16;

use crate::error::{ActorListProblem, DataError, ErrorKind, Result};
use crate::raw::{ActorRecord, MAP_CELLS, MAP_TILE_COUNT, MASKED_VALUE_BASE, MapHeader};
use crate::tileattr::{TileAttrTable, TileAttributes};

/// Smallest map width the game accepts, in tiles. The game's loader knows only the powers of
/// two from 32 to 2048 (`docs/formats/cosmo.md`, "Maps": ModdingWiki and cosmo-engine).
pub const MIN_WIDTH: u16 = 32;
/// Largest map width the game accepts, in tiles (see [`MIN_WIDTH`]).
pub const MAX_WIDTH: u16 = 2048;
/// Cell values below this one (solid tiles 0 to 9: two blank tiles and eight direction
/// arrows that mark moving-platform paths) are not scenery; renderers leave them as
/// background, as the game does. Measured on episode 1 (`docs/formats/cosmo.md`, "Maps").
pub const FIRST_DRAWN_VALUE: u16 = 80;
/// Actor types below this one are special actors (player start, platforms ...).
pub const SPECIAL_ACTOR_LIMIT: u16 = 31;

/// The decoded header flags of a map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MapFlags {
    /// Backdrop number, bits 0-4 (0..32).
    pub backdrop: u8,
    /// Rain, bit 5.
    pub rain: bool,
    /// Backdrop scrolls horizontally, bit 6.
    pub backdrop_h_scroll: bool,
    /// Backdrop scrolls vertically, bit 7.
    pub backdrop_v_scroll: bool,
    /// Palette animation mode, bits 8-10 (0..8).
    pub palette_animation: u8,
    /// Music number, bits 11-15 (0..32).
    pub music: u8,
}

impl MapFlags {
    /// Decodes the header's flags word.
    pub const fn from_bits(bits: u16) -> Self {
        MapFlags {
            backdrop: (bits & 0x1F) as u8,
            rain: bits & (1 << 5) != 0,
            backdrop_h_scroll: bits & (1 << 6) != 0,
            backdrop_v_scroll: bits & (1 << 7) != 0,
            palette_animation: ((bits >> 8) & 0x7) as u8,
            music: (bits >> 11) as u8,
        }
    }

    /// Encodes the flags word; fields wider than their bits are masked.
    pub const fn to_bits(self) -> u16 {
        (self.backdrop as u16 & 0x1F)
            | (self.rain as u16) << 5
            | (self.backdrop_h_scroll as u16) << 6
            | (self.backdrop_v_scroll as u16) << 7
            | (self.palette_animation as u16 & 0x7) << 8
            | (self.music as u16 & 0x1F) << 11
    }
}

/// What kind of actor a map actor record places.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActorKind {
    /// A special actor (stored type below 31: player start, platforms, ...).
    Special(u16),
    /// A normal actor; the value is the actor type (stored type - 31).
    Normal(u16),
}

impl ActorKind {
    /// Decodes a stored actor type word.
    pub const fn from_stored(kind: u16) -> Self {
        if kind < SPECIAL_ACTOR_LIMIT {
            ActorKind::Special(kind)
        } else {
            // Not below the limit: no wrap.
            ActorKind::Normal(kind.wrapping_sub(SPECIAL_ACTOR_LIMIT))
        }
    }

    /// The stored type word.
    pub const fn to_stored(self) -> u16 {
        match self {
            ActorKind::Special(k) => k,
            ActorKind::Normal(k) => k.saturating_add(SPECIAL_ACTOR_LIMIT),
        }
    }
}

/// One actor of a map, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Actor {
    /// Special or normal, with its type.
    pub kind: ActorKind,
    /// Column in tiles.
    pub x: u16,
    /// Row in tiles.
    pub y: u16,
}

impl From<&ActorRecord> for Actor {
    fn from(r: &ActorRecord) -> Self {
        Actor {
            kind: ActorKind::from_stored(r.kind.get()),
            x: r.x.get(),
            y: r.y.get(),
        }
    }
}

/// A decoded map tile value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MapTile {
    /// A solid tile: image index `value / 8` in TILES.MNI.
    Solid(u16),
    /// A masked tile: image index `(value - 16000) / 40` in MASKTILE.MNI.
    Masked(u16),
}

impl MapTile {
    /// Decodes a tile value: below 16,000 solid, otherwise masked.
    #[inline]
    pub const fn from_value(value: u16) -> Self {
        if value < MASKED_VALUE_BASE {
            MapTile::Solid(value / 8)
        } else {
            // Not below the base: no wrap.
            MapTile::Masked(value.wrapping_sub(MASKED_VALUE_BASE) / 40)
        }
    }
}

/// A parsed map, borrowing the map file's bytes.
#[derive(Clone, Copy)]
pub struct Map<'data> {
    header: &'data MapHeader,
    /// Width and height in tiles, derived from the header at parse time.
    width: u16,
    height: u16,
    actors: &'data [ActorRecord],
    tiles: &'data [U16],
    trailing: &'data [u8],
}

impl fmt::Debug for Map<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Map")
            .field("width", &self.width())
            .field("height", &self.height())
            .field("flags", &self.flags())
            .field("actors", &self.actors.len())
            .field("trailing", &self.trailing.len())
            .finish()
    }
}

impl<'data> Map<'data> {
    /// Parses a map file.
    ///
    /// Returns `Err` if the file is shorter than the header ([`ErrorKind::TooShort`]), the width
    /// is not a power of two from 32 to 2048 ([`ErrorKind::MapWidth`]), the actor list is not a
    /// whole number of actors or runs past the end ([`ErrorKind::ActorList`]), or fewer than
    /// 65,528 bytes of tile values follow it ([`ErrorKind::TooShort`]). Bytes after the tile
    /// values are kept as [`Map::trailing`].
    pub fn parse(data: &'data [u8]) -> Result<Self, DataError> {
        let mut bytes = Bytes::new(data);
        let header = bytes
            .read::<MapHeader>()
            .map_err(crate::error::too_short("map header"))?;
        let width = header.width.get();
        if !(MIN_WIDTH..=MAX_WIDTH).contains(&width) || !width.is_power_of_two() {
            return Err(ErrorKind::MapWidth { found: width }.into());
        }
        let words = header.actor_words.get();
        let actor_error = |problem| ErrorKind::ActorList {
            words,
            bytes: usize::from(words) * 2,
            problem,
        };
        if words % 3 != 0 {
            return Err(actor_error(ActorListProblem::NotWholeActors).into());
        }
        let actors = bytes
            .read_slice::<ActorRecord>(usize::from(words / 3))
            .map_err(|_| {
                actor_error(ActorListProblem::PastEnd {
                    available: bytes.len(),
                })
            })?;
        let tiles = bytes
            .read_slice::<U16>(MAP_TILE_COUNT)
            .map_err(crate::error::too_short(
                "map tile data after the actor list",
            ))?;
        let trailing = bytes.remaining();
        Ok(Map {
            header,
            width,
            // width is a power of two in 32..=2048, so the quotient is in 16..=1024.
            height: MAP_CELLS
                .checked_div(usize::from(width))
                .and_then(|h| u16::try_from(h).ok())
                .unwrap_or(u16::MAX),
            actors,
            tiles,
            trailing,
        })
    }

    /// The raw header.
    pub fn header(&self) -> &'data MapHeader {
        self.header
    }

    /// The decoded header flags.
    pub fn flags(&self) -> MapFlags {
        MapFlags::from_bits(self.header.flags.get())
    }

    /// Width in tiles (a power of two from 32 to 2048).
    pub fn width(&self) -> u16 {
        self.width
    }

    /// Height in tiles: 32,768 / width.
    pub fn height(&self) -> u16 {
        self.height
    }

    /// The raw actor records, cast in place.
    pub fn actor_records(&self) -> &'data [ActorRecord] {
        self.actors
    }

    /// The actors, decoded.
    pub fn actors(&self) -> impl ExactSizeIterator<Item = Actor> + 'data {
        self.actors.iter().map(Actor::from)
    }

    /// The 32,764 stored tile values, row-major, cast in place.
    pub fn tile_values(&self) -> &'data [U16] {
        self.tiles
    }

    /// Bytes after the tile values (none in real files).
    pub fn trailing(&self) -> &'data [u8] {
        self.trailing
    }

    /// The tile value at column `x`, row `y` (in tiles), or `None` if the cell is outside
    /// the grid or is one of the last four cells, which the file does not store.
    #[inline]
    pub fn tile_value(&self, x: u16, y: u16) -> Option<u16> {
        if x >= self.width || y >= self.height {
            return None;
        }
        // Both below 2^16: the index is below 2^32.
        let index = usize::from(y)
            .saturating_mul(usize::from(self.width))
            .saturating_add(usize::from(x));
        self.tiles.get(index).map(|v| v.get())
    }

    /// Every stored cell whose value is scenery (at least [`FIRST_DRAWN_VALUE`]), row-major,
    /// as (column, row, tile) in tiles: what a renderer draws.
    pub fn drawn_cells(&self) -> impl Iterator<Item = (u16, u16, MapTile)> + 'data {
        let width = usize::from(self.width).max(1);
        self.tiles.iter().enumerate().filter_map(move |(i, v)| {
            let value = v.get();
            let x = u16::try_from(i.checked_rem(width)?).ok()?;
            let y = u16::try_from(i.checked_div(width)?).ok()?;
            (value >= FIRST_DRAWN_VALUE).then(|| (x, y, MapTile::from_value(value)))
        })
    }

    /// The decoded tile at column `x`, row `y` (see [`Map::tile_value`] for `None`).
    pub fn tile(&self, x: u16, y: u16) -> Option<MapTile> {
        self.tile_value(x, y).map(MapTile::from_value)
    }

    /// The attributes of the cell at column `x`, row `y`, looked up in `attrs` (see
    /// [`Map::tile_value`] and [`TileAttrTable::for_value`] for `None`).
    pub fn attributes(&self, x: u16, y: u16, attrs: &TileAttrTable<'_>) -> Option<TileAttributes> {
        attrs.for_value(self.tile_value(x, y)?)
    }

    /// The attributes of every stored cell in row-major order (32,764 items); a value with no
    /// attribute byte gives empty attributes.
    pub fn cell_attributes<'a>(
        &self,
        attrs: &'a TileAttrTable<'_>,
    ) -> impl ExactSizeIterator<Item = TileAttributes> + 'a
    where
        'data: 'a,
    {
        self.tiles
            .iter()
            .map(move |v| attrs.for_value(v.get()).unwrap_or_default())
    }
}
