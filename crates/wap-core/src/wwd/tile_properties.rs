//! The tile property table: a 32-byte header and one record per tile id, each single (one
//! attribute), double (an inside rectangle and an outside attribute) or mask (one attribute
//! byte per pixel). Source: `docs/formats/wwd.md`, "Tile properties".

use std::fmt;

use gamedata_io::{Bytes, PreviewBytes, PreviewTable, ReadError};
use zerocopy::little_endian::I32;

use crate::error::{DataError, ErrorKind, Result};
use crate::raw::{
    DoubleAttributes, TILE_DOUBLE, TILE_MASK, TILE_PROPERTIES_HEADER_LEN, TILE_PROPERTY_BASE_LEN,
    TILE_SINGLE, TilePropertiesHeader, TilePropertyBase,
};

/// Bytes of the smallest record (single): the bound on how many records a table can hold.
const MIN_RECORD_LEN: usize = TILE_PROPERTY_BASE_LEN + 4;

/// A tile attribute: the five standard values, or another value kept raw (Gruntz uses up to
/// 0x9A; some Claw values are garbage).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Attribute {
    /// 0: passable.
    Clear,
    /// 1: solid on every side.
    Solid,
    /// 2: ground: solid from above only.
    Ground,
    /// 3: climbable.
    Climb,
    /// 4: kills.
    Death,
    /// Any other value.
    Other(i32),
}

impl Attribute {
    /// Classifies a stored attribute value.
    pub fn from_raw(value: i32) -> Self {
        match value {
            0 => Attribute::Clear,
            1 => Attribute::Solid,
            2 => Attribute::Ground,
            3 => Attribute::Climb,
            4 => Attribute::Death,
            other => Attribute::Other(other),
        }
    }

    /// The stored value.
    pub fn raw(self) -> i32 {
        match self {
            Attribute::Clear => 0,
            Attribute::Solid => 1,
            Attribute::Ground => 2,
            Attribute::Climb => 3,
            Attribute::Death => 4,
            Attribute::Other(v) => v,
        }
    }

    /// The name in reports: `clear`, `solid`, `ground`, `climb`, `death`, `other`.
    pub fn name(self) -> &'static str {
        match self {
            Attribute::Clear => "clear",
            Attribute::Solid => "solid",
            Attribute::Ground => "ground",
            Attribute::Climb => "climb",
            Attribute::Death => "death",
            Attribute::Other(_) => "other",
        }
    }
}

/// What a record says about the pixels of its tile.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum TileAttributes<'data> {
    /// Type 1: one attribute for every pixel.
    Single(i32),
    /// Type 2: `inside` within `rect` (edges inclusive), `outside` elsewhere.
    Double(&'data DoubleAttributes),
    /// Type 3: `width * height` attribute bytes, row-major, borrowed.
    Mask(&'data [u8]),
}

impl fmt::Debug for TileAttributes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TileAttributes::Single(a) => f.debug_tuple("Single").field(a).finish(),
            TileAttributes::Double(d) => f.debug_tuple("Double").field(d).finish(),
            TileAttributes::Mask(m) => f.debug_tuple("Mask").field(&PreviewBytes(m)).finish(),
        }
    }
}

/// One tile property record, borrowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileProperty<'data> {
    index: usize,
    offset: usize,
    base: &'data TilePropertyBase,
    attributes: TileAttributes<'data>,
}

impl<'data> TileProperty<'data> {
    /// The record's index: the tile id it describes.
    pub fn index(&self) -> usize {
        self.index
    }

    /// Absolute offset of the record in the level image.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The 16-byte base: type, reserved word, width, height.
    pub fn base(&self) -> &'data TilePropertyBase {
        self.base
    }

    /// Width and height in pixels as stored (not always the tile size).
    pub fn size(&self) -> (u32, u32) {
        (self.base.width.get(), self.base.height.get())
    }

    /// The attributes.
    pub fn attributes(&self) -> TileAttributes<'data> {
        self.attributes
    }

    /// Bytes of the record.
    pub fn stored_len(&self) -> usize {
        TILE_PROPERTY_BASE_LEN.saturating_add(match self.attributes {
            TileAttributes::Single(_) => 4,
            TileAttributes::Double(_) => size_of::<DoubleAttributes>(),
            TileAttributes::Mask(mask) => mask.len(),
        })
    }

    /// The attribute value of pixel (x, y) of the tile. A double record gives its inside
    /// attribute within its rectangle and its outside one elsewhere; a mask gives the byte
    /// of that pixel, and 0 (clear) outside its `width x height` area.
    pub fn attribute_at(&self, x: i32, y: i32) -> i32 {
        match self.attributes {
            TileAttributes::Single(value) => value,
            TileAttributes::Double(d) => {
                if d.rect.contains(x, y) {
                    d.inside.get()
                } else {
                    d.outside.get()
                }
            }
            TileAttributes::Mask(mask) => {
                let (w, h) = self.size();
                match (u32::try_from(x), u32::try_from(y)) {
                    (Ok(x), Ok(y)) if x < w && y < h => {
                        // Inside w x h, a product of two u32s: fits a u64.
                        let at = u64::from(y)
                            .saturating_mul(u64::from(w))
                            .saturating_add(u64::from(x));
                        usize::try_from(at)
                            .ok()
                            .and_then(|at| mask.get(at))
                            .map_or(0, |&b| i32::from(b))
                    }
                    _ => 0,
                }
            }
        }
    }
}

/// The tile property table: its header and its records, read in order.
#[derive(Clone, Copy)]
pub struct TileProperties<'data> {
    header: &'data TilePropertiesHeader,
    offset: usize,
    image: &'data [u8],
}

impl fmt::Debug for TileProperties<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TileProperties")
            .field("header", &self.header)
            .field("offset", &self.offset)
            .field("image", &PreviewBytes(self.image))
            .finish()
    }
}

impl<'data> TileProperties<'data> {
    /// Reads the table header at `offset` of `image`.
    ///
    /// Returns `Err` ([`ErrorKind::TilePropertyTable`]) if the 32-byte header does not fit.
    pub(crate) fn new(image: &'data [u8], offset: usize) -> Result<Self, DataError> {
        let header = Bytes::new(image)
            .read_at::<TilePropertiesHeader>(offset)
            .map_err(|read| ErrorKind::TilePropertyTable { read })?;
        Ok(TileProperties {
            header,
            offset,
            image,
        })
    }

    /// The raw 32-byte header.
    pub fn header(&self) -> &'data TilePropertiesHeader {
        self.header
    }

    /// Absolute offset of the table.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Number of records the header declares.
    pub fn count(&self) -> u32 {
        self.header.count.get()
    }

    /// The records in order. The iterator yields an error and stops at a record that does
    /// not fit or has an unknown type (its length, and so the next record's start, is
    /// unknown).
    pub fn iter(&self) -> TilePropertyIter<'data> {
        TilePropertyIter {
            image: Bytes::new(self.image),
            offset: self.offset.saturating_add(TILE_PROPERTIES_HEADER_LEN),
            index: 0,
            count: self.count() as usize,
            failed: false,
        }
    }

    /// The records of tile ids 0 to 65,535, for lookup by tile id: a plane's tile names its
    /// id in 16 bits (`docs/formats/wwd.md`, "Tiles"), so records past those are walked and
    /// checked but not held (read them with [`TileProperties::iter`]). The index holds at
    /// most 65,536 records of 48 bytes (3 MiB), whatever the table's length; it is sized by
    /// what the data can hold (at most one record per 20 bytes left), never by the stored
    /// count alone.
    ///
    /// Returns `Err` at the first record that [`TileProperties::iter`] cannot read.
    pub fn collect(&self) -> Result<TilePropertyIndex<'data>, DataError> {
        let room = self.image.len().saturating_sub(self.offset) / MIN_RECORD_LEN;
        let held = (self.count() as usize).min(room).min(TILE_IDS);
        let mut records = Vec::with_capacity(held);
        for record in self.iter() {
            let record = record?;
            if records.len() < TILE_IDS {
                records.push(record);
            }
        }
        Ok(TilePropertyIndex { records })
    }
}

/// Tile ids a plane's tile can name: 16 bits.
const TILE_IDS: usize = 1 << 16;

/// The records of a table, indexed by tile id (the first 65,536; see
/// [`TileProperties::collect`]).
#[derive(Clone, Default)]
pub struct TilePropertyIndex<'data> {
    records: Vec<TileProperty<'data>>,
}

impl fmt::Debug for TilePropertyIndex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TilePropertyIndex")
            .field("records", &PreviewTable(&self.records))
            .finish()
    }
}

impl<'data> TilePropertyIndex<'data> {
    /// The record of tile `id` (the 16-bit id of [`Tile::Image`](crate::Tile::Image)), if
    /// the table has one.
    pub fn get(&self, id: u16) -> Option<&TileProperty<'data>> {
        self.records.get(usize::from(id))
    }

    /// Every record of tile ids 0 to 65,535, in order.
    pub fn records(&self) -> &[TileProperty<'data>] {
        &self.records
    }

    /// The attribute value of pixel (x, y) of tile `id`; `None` if there is no record.
    pub fn attribute_at(&self, id: u16, x: i32, y: i32) -> Option<i32> {
        self.get(id).map(|r| r.attribute_at(x, y))
    }
}

/// Iterator over tile property records; see [`TileProperties::iter`].
#[derive(Clone, Debug)]
pub struct TilePropertyIter<'data> {
    image: Bytes<'data>,
    offset: usize,
    index: usize,
    count: usize,
    failed: bool,
}

impl TilePropertyIter<'_> {
    /// Absolute offset of the next record; after the last one, the end of the table.
    pub fn offset(&self) -> usize {
        self.offset
    }
}

impl<'data> TilePropertyIter<'data> {
    fn read(&self) -> Result<TileProperty<'data>, DataError> {
        let index = self.index;
        let at_record = |read: ReadError| ErrorKind::TileProperty { index, read };
        let base = self
            .image
            .read_at::<TilePropertyBase>(self.offset)
            .map_err(at_record)?;
        let body = self.offset.saturating_add(TILE_PROPERTY_BASE_LEN);
        let attributes = match base.kind.get() {
            TILE_SINGLE => {
                TileAttributes::Single(self.image.read_at::<I32>(body).map_err(at_record)?.get())
            }
            TILE_DOUBLE => TileAttributes::Double(
                self.image
                    .read_at::<DoubleAttributes>(body)
                    .map_err(at_record)?,
            ),
            TILE_MASK => {
                // Two u32s: fits a u64.
                let size = u64::from(base.width.get()).saturating_mul(u64::from(base.height.get()));
                let size = usize::try_from(size).unwrap_or(usize::MAX);
                TileAttributes::Mask(self.image.bytes_at(body, size).map_err(at_record)?)
            }
            found => {
                return Err(ErrorKind::TilePropertyType {
                    index,
                    offset: self.offset,
                    found,
                }
                .into());
            }
        };
        Ok(TileProperty {
            index,
            offset: self.offset,
            base,
            attributes,
        })
    }
}

impl<'data> Iterator for TilePropertyIter<'data> {
    type Item = Result<TileProperty<'data>, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.index >= self.count {
            return None;
        }
        let record = self.read();
        match &record {
            Ok(r) => {
                // Within the image, which fits in memory.
                self.offset = self.offset.saturating_add(r.stored_len());
                self.index = self.index.saturating_add(1);
            }
            Err(_) => self.failed = true,
        }
        Some(record)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        if self.failed {
            return (0, Some(0));
        }
        (0, Some(self.count.saturating_sub(self.index)))
    }
}
