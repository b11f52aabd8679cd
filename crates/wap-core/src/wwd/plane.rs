//! Planes: the 160-byte header, the tiles cast in place, the image-set names and the
//! objects. Source: `docs/formats/wwd.md`, "Planes" and "Tiles".

use std::fmt;

use gamedata_io::{Bytes, CodePage, decode, field_text};
use zerocopy::little_endian::U32;

use crate::error::{DataError, ErrorKind, Result};
use crate::raw::{PlaneHeader, TILE_FILLED, TILE_INVISIBLE};
use crate::wwd::object::Objects;
use crate::wwd::section::SectionKind;

bitflags::bitflags! {
    /// The plane flags word. Bits 0x20, 0x40 and 0x80 occur in real levels with unknown
    /// meaning; every bit is kept (`bits()` gives the stored word back).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct PlaneFlags: u32 {
        /// The main plane: where the action happens, with the tile properties and objects.
        const MAIN = 0x1;
        /// Not drawn.
        const NO_DRAW = 0x2;
        /// Wraps horizontally.
        const WRAP_X = 0x4;
        /// Wraps vertically.
        const WRAP_Y = 0x8;
        /// The editor sizes tiles automatically.
        const AUTO_TILE_SIZE = 0x10;
        // Unknown bits are kept as stored.
        const _ = !0;
    }
}

/// One tile value decoded: `0xFFFFFFFF` invisible, `0xEEEEEEEE` filled, otherwise the high
/// 16 bits are the image-set index and the low 16 bits the tile id. Garbage values such as
/// `0xEEEEEE00` decode as an image tile; [`Tile::raw`] gives the stored word back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tile {
    /// Nothing is drawn.
    Invisible,
    /// Filled with the plane's fill colour.
    Filled,
    /// A tile image.
    Image {
        /// Index into the plane's image sets (0 in nearly every real tile).
        set: u16,
        /// Tile id: the index of its tile property record.
        id: u16,
    },
}

impl Tile {
    /// Decodes a stored tile value.
    pub fn from_raw(value: u32) -> Self {
        match value {
            TILE_INVISIBLE => Tile::Invisible,
            TILE_FILLED => Tile::Filled,
            _ => {
                let [a, b, c, d] = value.to_le_bytes();
                Tile::Image {
                    set: u16::from_le_bytes([c, d]),
                    id: u16::from_le_bytes([a, b]),
                }
            }
        }
    }

    /// The stored value.
    pub fn raw(self) -> u32 {
        match self {
            Tile::Invisible => TILE_INVISIBLE,
            Tile::Filled => TILE_FILLED,
            Tile::Image { set, id } => (u32::from(set) << 16) | u32::from(id),
        }
    }
}

/// A view of one plane: its header, its tiles (row-major, `tiles_wide * tiles_high` of
/// them, cast in place) and the offsets of its names and objects. Made by
/// [`crate::Level::plane`], which has checked the size and that the tiles lie in the image.
#[derive(Clone, Copy)]
pub struct Plane<'data> {
    index: usize,
    raw: &'data PlaneHeader,
    tiles: &'data [U32],
    wide: u32,
    high: u32,
    /// The bytes the image-set names may be read from (the image, or up to the next
    /// section's start when the plane comes from a [`Level`](crate::Level)), or the earlier
    /// section that starts where they do.
    pub(crate) names_room: std::result::Result<&'data [u8], SectionKind>,
    /// As `names_room`, for the objects.
    pub(crate) objects_room: std::result::Result<&'data [u8], SectionKind>,
}

impl fmt::Debug for Plane<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Plane")
            .field("index", &self.index)
            .field("name", &decode(self.name(), CodePage::Cp1252))
            .field("flags", &self.flags())
            .field("tiles", &(self.wide, self.high))
            .finish_non_exhaustive()
    }
}

impl<'data> Plane<'data> {
    /// Checks the plane header `raw` (plane `index`) against `image` and casts its tiles.
    ///
    /// Returns `Err` ([`ErrorKind::PlaneSize`]) if a dimension is negative or the tiles' byte
    /// count overflows, or ([`ErrorKind::PlaneTiles`]) if the tiles do not lie inside `image`.
    pub(crate) fn new(
        index: usize,
        raw: &'data PlaneHeader,
        image: &'data [u8],
    ) -> Result<Self, DataError> {
        let (wide_raw, high_raw) = (raw.tiles_wide.get(), raw.tiles_high.get());
        let bad_size = || ErrorKind::PlaneSize {
            plane: index,
            wide: wide_raw,
            high: high_raw,
        };
        let wide = u32::try_from(wide_raw).map_err(|_| bad_size())?;
        let high = u32::try_from(high_raw).map_err(|_| bad_size())?;
        // Four bytes a tile: a size whose byte count does not fit in memory is bad itself.
        let count = u64::from(wide).saturating_mul(u64::from(high)); // two u32s: fits.
        let count = count
            .checked_mul(4)
            .and_then(|bytes| usize::try_from(bytes).ok())
            .map(|bytes| bytes / 4)
            .ok_or_else(bad_size)?;
        let offset = raw.tiles_offset.get() as usize;
        let tiles = Bytes::new(image)
            .slice_at::<U32>(offset, count)
            .map_err(|read| ErrorKind::PlaneTiles { plane: index, read })?;
        Ok(Plane {
            index,
            raw,
            tiles,
            wide,
            high,
            names_room: Ok(image),
            objects_room: Ok(image),
        })
    }

    /// The plane's index in the level.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The raw header, every field, reserved words included.
    pub fn raw(&self) -> &'data PlaneHeader {
        self.raw
    }

    /// The name's bytes (up to the first NUL of its 64-byte field).
    pub fn name(&self) -> &'data [u8] {
        field_text(&self.raw.name)
    }

    /// The flags, unknown bits kept.
    pub fn flags(&self) -> PlaneFlags {
        PlaneFlags::from_bits_retain(self.raw.flags.get())
    }

    /// True if the main flag is set.
    pub fn is_main(&self) -> bool {
        self.flags().contains(PlaneFlags::MAIN)
    }

    /// Tile size in pixels (width, height) as stored: 64 in Claw, 32 in Gruntz, 1 to 8 in
    /// some custom levels.
    pub fn tile_size(&self) -> (i32, i32) {
        (self.raw.tile_width.get(), self.raw.tile_height.get())
    }

    /// Size in pixels (width, height) as stored: tiles times tile size in the editor's
    /// files.
    pub fn size_px(&self) -> (i32, i32) {
        (self.raw.width_px.get(), self.raw.height_px.get())
    }

    /// Parallax movement in percent of the main plane's (x, y): 100 for the main plane.
    pub fn movement_percent(&self) -> (i32, i32) {
        (
            self.raw.movement_x_percent.get(),
            self.raw.movement_y_percent.get(),
        )
    }

    /// The fill colour of filled tiles (a palette index).
    pub fn fill_color(&self) -> i32 {
        self.raw.fill_color.get()
    }

    /// The words at 0x68 and 0x6C, kept raw (the Gruntz loader reads them as scroll x, y).
    pub fn scroll_words(&self) -> (u32, u32) {
        (self.raw.reserved3.get(), self.raw.reserved4.get())
    }

    /// Number of image-set names the header declares.
    pub fn image_set_count(&self) -> u32 {
        self.raw.image_set_count.get()
    }

    /// Width in tiles.
    pub fn tiles_wide(&self) -> u32 {
        self.wide
    }

    /// Height in tiles.
    pub fn tiles_high(&self) -> u32 {
        self.high
    }

    /// The z coordinate (drawing order: negative behind the main plane).
    pub fn z(&self) -> i32 {
        self.raw.z.get()
    }

    /// Every tile, row-major, cast in place.
    pub fn tiles(&self) -> &'data [U32] {
        self.tiles
    }

    /// The stored value of the tile at column `x`, row `y`; `None` outside the plane.
    pub fn tile_raw(&self, x: u32, y: u32) -> Option<u32> {
        if x >= self.wide || y >= self.high {
            return None;
        }
        // Inside the plane, whose tiles are in memory: the index is below their count.
        let index = (y as usize)
            .saturating_mul(self.wide as usize)
            .saturating_add(x as usize);
        self.tiles.get(index).map(|t| t.get())
    }

    /// The tile at column `x`, row `y`, decoded; `None` outside the plane.
    pub fn tile(&self, x: u32, y: u32) -> Option<Tile> {
        self.tile_raw(x, y).map(Tile::from_raw)
    }

    /// One row of tiles; `None` past the last row.
    pub fn row(&self, y: u32) -> Option<&'data [U32]> {
        if y >= self.high {
            return None;
        }
        let start = (y as usize).saturating_mul(self.wide as usize);
        self.tiles
            .get(start..start.saturating_add(self.wide as usize))
    }

    /// Counts of invisible and filled tiles.
    // Chunks of 2^16 tiles: the u32 lanes cannot overflow, nor the sums of counts of tiles
    // in memory.
    #[allow(clippy::arithmetic_side_effects)]
    pub fn special_tile_counts(&self) -> (usize, usize) {
        // Branch-free counting in 32-bit lanes over chunks (the compiler turns it into
        // vector compares), added up per chunk.
        let (mut invisible, mut filled) = (0usize, 0usize);
        for chunk in self.tiles.chunks(1 << 16) {
            let (mut i, mut f) = (0u32, 0u32);
            for tile in chunk {
                let value = tile.get();
                i += u32::from(value == TILE_INVISIBLE);
                f += u32::from(value == TILE_FILLED);
            }
            invisible += i as usize;
            filled += f as usize;
        }
        (invisible, filled)
    }

    /// The image-set names (NUL-terminated strings at the plane's image-set offset); the
    /// iterator yields an error and stops at a name with no terminator.
    pub fn image_sets(&self) -> ImageSets<'data> {
        ImageSets {
            plane: self.index,
            room: self.names_room,
            offset: self.raw.image_sets_offset.get() as usize,
            index: 0,
            count: self.raw.image_set_count.get() as usize,
            failed: false,
        }
    }

    /// Number of objects the header declares.
    pub fn object_count(&self) -> u32 {
        self.raw.object_count.get()
    }

    /// The plane's objects in stored order; the iterator yields an error and stops at an
    /// object that does not fit in the image.
    pub fn objects(&self) -> Objects<'data> {
        Objects::new(
            self.index,
            self.objects_room,
            self.raw.objects_offset.get() as usize,
            self.raw.object_count.get(),
        )
    }
}

/// Iterator over a plane's image-set names (bytes without the NUL).
#[derive(Clone)]
pub struct ImageSets<'data> {
    plane: usize,
    room: std::result::Result<&'data [u8], SectionKind>,
    offset: usize,
    index: usize,
    count: usize,
    failed: bool,
}

impl fmt::Debug for ImageSets<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ImageSets")
            .field("plane", &self.plane)
            .field("room", &self.room.map(<[u8]>::len))
            .field("offset", &self.offset)
            .field("index", &self.index)
            .field("count", &self.count)
            .field("failed", &self.failed)
            .finish()
    }
}

impl ImageSets<'_> {
    /// Absolute offset of the next name; after the last one, the end of the names.
    pub fn offset(&self) -> usize {
        self.offset
    }
}

impl<'data> Iterator for ImageSets<'data> {
    type Item = Result<&'data [u8], DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.index >= self.count {
            return None;
        }
        let room = match self.room {
            Ok(room) => room,
            Err(other) => {
                self.failed = true;
                return Some(Err(ErrorKind::SectionShared {
                    section: SectionKind::ImageSets(self.plane),
                    other,
                    offset: self.offset,
                }
                .into()));
            }
        };
        let rest = room.get(self.offset..).unwrap_or_default();
        let Some(len) = rest.iter().position(|&b| b == 0) else {
            self.failed = true;
            return Some(Err(ErrorKind::ImageSetName {
                plane: self.plane,
                index: self.index,
                offset: self.offset,
                end: room.len(),
            }
            .into()));
        };
        let name = rest.get(..len).unwrap_or_default();
        // The name and its NUL lie in the image, which fits in memory.
        self.offset = self.offset.saturating_add(len).saturating_add(1);
        self.index = self.index.saturating_add(1);
        Some(Ok(name))
    }
}
