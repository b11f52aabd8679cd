//! An owned level and its writer. [`LevelData::from_level`] copies a view (every raw field,
//! reserved words included); [`LevelData::main_block`] lays the sections out in the
//! editor's order (plane headers, tiles, image-set names, objects, tile properties) and
//! [`LevelData::to_file`] adds the header, compressed (zlib) or not, with the base
//! checksum. The main block of every real level comes out byte for byte. Source:
//! `docs/formats/wwd.md`, "Layout" and "Checksum".

// Writers: their arithmetic is on the lengths of buffers in memory (each at most
// isize::MAX bytes) and small constants; every stored field goes through a checked
// conversion to its width, which refuses what does not fit.
#![allow(clippy::arithmetic_side_effects)]

use std::fmt;
use std::io::Write as _;

use flate2::Compression;
use flate2::write::ZlibEncoder;
use gamedata_io::{PreviewBytes, PreviewTable};
use zerocopy::IntoBytes;

use crate::checksum::base_checksum;
use crate::error::{DataError, ErrorKind, Result, WriteProblem};
use crate::level::Level;
use crate::raw::{
    DoubleAttributes, FLAG_COMPRESS, HEADER_LEN, OBJECT_FIXED_LEN, ObjectFixed, PLANE_HEADER_LEN,
    PlaneHeader, TILE_DOUBLE, TILE_MASK, TILE_PROPERTIES_HEADER_LEN, TILE_SINGLE,
    TilePropertiesHeader, TilePropertyBase, WwdHeader,
};
use crate::tile_properties::TileAttributes;

/// A level held in owned memory, ready to write.
#[derive(Clone, PartialEq, Eq)]
pub struct LevelData {
    /// The header. The writer sets the plane count, the offsets, flag 0x2, the main block
    /// size and the checksum; every other field is written as it is.
    pub header: WwdHeader,
    /// The planes in order.
    pub planes: Vec<PlaneData>,
    /// The tile property table.
    pub tile_properties: TilePropertiesData,
}

impl fmt::Debug for LevelData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LevelData")
            .field(
                "name",
                &String::from_utf8_lossy(gamedata_io::field_text(&self.header.name)),
            )
            .field("planes", &PreviewTable(&self.planes))
            .field("tile_properties", &self.tile_properties)
            .finish()
    }
}

/// One plane, owned.
#[derive(Clone, PartialEq, Eq)]
pub struct PlaneData {
    /// The header. The writer sets the image-set and object counts and the three offsets
    /// (the object offset is 0 when there are no objects); the size in tiles must match
    /// `tiles`.
    pub header: PlaneHeader,
    /// The tiles, row-major, `tiles_wide * tiles_high` of them.
    pub tiles: Vec<u32>,
    /// The image-set names, without their NUL.
    pub image_sets: Vec<Vec<u8>>,
    /// The objects.
    pub objects: Vec<ObjectData>,
}

impl fmt::Debug for PlaneData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlaneData")
            .field(
                "name",
                &String::from_utf8_lossy(gamedata_io::field_text(&self.header.name)),
            )
            .field("tiles", &PreviewTable(&self.tiles))
            .field("image_sets", &self.image_sets.len())
            .field("objects", &PreviewTable(&self.objects))
            .finish()
    }
}

/// One object, owned.
#[derive(Clone, PartialEq, Eq)]
pub struct ObjectData {
    /// The fixed part; the writer sets the four string lengths.
    pub fixed: ObjectFixed,
    /// Name.
    pub name: Vec<u8>,
    /// Logic.
    pub logic: Vec<u8>,
    /// Image set.
    pub image_set: Vec<u8>,
    /// Animation.
    pub animation: Vec<u8>,
}

impl fmt::Debug for ObjectData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ObjectData")
            .field("id", &self.fixed.id.get())
            .field("name", &String::from_utf8_lossy(&self.name))
            .field("logic", &String::from_utf8_lossy(&self.logic))
            .field("image_set", &String::from_utf8_lossy(&self.image_set))
            .field("animation", &String::from_utf8_lossy(&self.animation))
            .finish()
    }
}

/// The tile property table, owned.
#[derive(Clone, PartialEq, Eq)]
pub struct TilePropertiesData {
    /// The 32-byte header; the writer sets the count.
    pub header: TilePropertiesHeader,
    /// The records, record i for tile id i.
    pub records: Vec<TilePropertyData>,
}

impl fmt::Debug for TilePropertiesData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TilePropertiesData")
            .field("records", &PreviewTable(&self.records))
            .finish()
    }
}

/// One tile property record, owned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TilePropertyData {
    /// The reserved word of the base (kept raw).
    pub reserved: u32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The attributes; a mask must hold `width * height` bytes.
    pub attributes: AttributesData,
}

/// The attributes of an owned record.
#[derive(Clone, PartialEq, Eq)]
pub enum AttributesData {
    /// Type 1.
    Single(i32),
    /// Type 2.
    Double(DoubleAttributes),
    /// Type 3.
    Mask(Vec<u8>),
}

impl fmt::Debug for AttributesData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AttributesData::Single(a) => f.debug_tuple("Single").field(a).finish(),
            AttributesData::Double(d) => f.debug_tuple("Double").field(d).finish(),
            AttributesData::Mask(m) => f.debug_tuple("Mask").field(&PreviewBytes(m)).finish(),
        }
    }
}

impl LevelData {
    /// Copies a level view: the copying parse. Every raw field is kept.
    ///
    /// Returns `Err` with the first section that cannot be read (a plane, its names or
    /// objects, the tile property table).
    pub fn from_level(level: &Level<'_>) -> Result<Self, DataError> {
        let mut planes = Vec::with_capacity(level.plane_count());
        for plane in level.planes() {
            let plane = plane?;
            let image_sets = plane
                .image_sets()
                .map(|n| n.map(<[u8]>::to_vec))
                .collect::<Result<_, DataError>>()?;
            let objects = plane
                .objects()
                .map(|o| {
                    o.map(|o| ObjectData {
                        fixed: *o.raw(),
                        name: o.name().to_vec(),
                        logic: o.logic().to_vec(),
                        image_set: o.image_set().to_vec(),
                        animation: o.animation().to_vec(),
                    })
                })
                .collect::<Result<_, DataError>>()?;
            planes.push(PlaneData {
                header: *plane.raw(),
                tiles: plane.tiles().iter().map(|t| t.get()).collect(),
                image_sets,
                objects,
            });
        }
        let table = level.tile_properties()?;
        let records = table
            .iter()
            .map(|r| {
                r.map(|r| TilePropertyData {
                    reserved: r.base().reserved.get(),
                    width: r.base().width.get(),
                    height: r.base().height.get(),
                    attributes: match r.attributes() {
                        TileAttributes::Single(v) => AttributesData::Single(v),
                        TileAttributes::Double(d) => AttributesData::Double(*d),
                        TileAttributes::Mask(m) => AttributesData::Mask(m.to_vec()),
                    },
                })
            })
            .collect::<Result<_, DataError>>()?;
        Ok(LevelData {
            header: *level.header().raw(),
            planes,
            tile_properties: TilePropertiesData {
                header: *table.header(),
                records,
            },
        })
    }

    /// The image: the header (plane count and offsets set, flag 0x2 clear, main block size
    /// 0, checksum of the uncompressed main block) then the main block, as an uncompressed
    /// level file holds it.
    ///
    /// Returns `Err` as [`LevelData::main_block`].
    pub fn image(&self) -> Result<Vec<u8>, DataError> {
        self.to_file(false)
    }

    /// Lays out the main block in the editor's order; offsets are absolute (the main block
    /// starts at byte 1,524 of the image).
    ///
    /// Returns `Err` ([`ErrorKind::Write`]) if a plane's tile count is not its width times its
    /// height, a mask is not `width * height` bytes, or an offset passes 4 GiB.
    pub fn main_block(&self) -> Result<Vec<u8>, DataError> {
        let mut block = Vec::new();
        self.lay_out(&mut block)?;
        Ok(block)
    }

    /// The level file: header, then the main block as a zlib stream (`compress`) or plain.
    /// Flag 0x2 is set or cleared, the main block size is its length when compressed and 0
    /// otherwise (as in the real uncompressed levels), and the checksum is the base value of
    /// the stored bytes.
    ///
    /// Returns `Err` as [`LevelData::main_block`].
    pub fn to_file(&self, compress: bool) -> Result<Vec<u8>, DataError> {
        // The main block is laid out behind room for the header: a plain file is that
        // buffer, with no second copy of the block.
        let mut file = vec![0; HEADER_LEN];
        let mut header = self.lay_out(&mut file)?;
        let flags = header.flags.get();
        if compress {
            let block = file.get(HEADER_LEN..).unwrap_or_default();
            header.flags.set(flags | FLAG_COMPRESS);
            header
                .main_block_size
                .set(offset_u32("main block size", block.len())?);
            let mut encoder = ZlibEncoder::new(Vec::new(), Compression::default());
            // Writing into a Vec cannot fail.
            let stored = encoder
                .write_all(block)
                .and_then(|()| encoder.finish())
                .unwrap_or_default();
            file.truncate(HEADER_LEN);
            file.shrink_to_fit();
            file.extend_from_slice(&stored);
        } else {
            header.flags.set(flags & !FLAG_COMPRESS);
            header.main_block_size.set(0);
        }
        if let Some((head, stored)) = file.split_at_mut_checked(HEADER_LEN) {
            header.checksum.set(base_checksum(stored));
            head.copy_from_slice(header.as_bytes());
        }
        Ok(file)
    }

    /// The header with counts and offsets set; the main block is appended to `out`.
    fn lay_out(&self, out: &mut Vec<u8>) -> Result<WwdHeader, DataError> {
        let mut headers: Vec<PlaneHeader> = self.planes.iter().map(|p| p.header).collect();
        let mut at = HEADER_LEN + self.planes.len() * PLANE_HEADER_LEN;
        for (index, (plane, header)) in self.planes.iter().zip(&mut headers).enumerate() {
            let wide = u64::try_from(header.tiles_wide.get()).unwrap_or(u64::MAX);
            let high = u64::try_from(header.tiles_high.get()).unwrap_or(u64::MAX);
            let expected = wide.saturating_mul(high);
            if plane.tiles.len() as u64 != expected {
                return Err(ErrorKind::Write(WriteProblem::TileCount {
                    plane: index,
                    found: plane.tiles.len() as u64,
                    expected,
                })
                .into());
            }
            header.tiles_offset.set(offset_u32("tiles offset", at)?);
            at += plane.tiles.len() * 4;
        }
        for (plane, header) in self.planes.iter().zip(&mut headers) {
            header
                .image_sets_offset
                .set(offset_u32("image sets offset", at)?);
            header
                .image_set_count
                .set(offset_u32("image set count", plane.image_sets.len())?);
            at += plane.image_sets.iter().map(|n| n.len() + 1).sum::<usize>();
        }
        for (plane, header) in self.planes.iter().zip(&mut headers) {
            let start = if plane.objects.is_empty() { 0 } else { at };
            header
                .objects_offset
                .set(offset_u32("objects offset", start)?);
            header
                .object_count
                .set(offset_u32("object count", plane.objects.len())?);
            at += plane
                .objects
                .iter()
                .map(ObjectData::stored_len)
                .sum::<usize>();
        }
        let table_offset = at;
        for (index, record) in self.tile_properties.records.iter().enumerate() {
            if let AttributesData::Mask(mask) = &record.attributes {
                let expected = u64::from(record.width) * u64::from(record.height);
                if mask.len() as u64 != expected {
                    return Err(ErrorKind::Write(WriteProblem::MaskLength {
                        record: index,
                        found: mask.len() as u64,
                        expected,
                    })
                    .into());
                }
            }
        }

        let mut header = self.header;
        header
            .plane_count
            .set(offset_u32("plane count", self.planes.len())?);
        header
            .planes_offset
            .set(offset_u32("planes offset", HEADER_LEN)?);
        header
            .tile_properties_offset
            .set(offset_u32("tile property table offset", table_offset)?);

        out.reserve_exact(at - HEADER_LEN);
        let start = out.len();
        for h in &headers {
            out.extend_from_slice(h.as_bytes());
        }
        for plane in &self.planes {
            for tile in &plane.tiles {
                out.extend_from_slice(&tile.to_le_bytes());
            }
        }
        for plane in &self.planes {
            for name in &plane.image_sets {
                out.extend_from_slice(name);
                out.push(0);
            }
        }
        for plane in &self.planes {
            for object in &plane.objects {
                object.write_to(out)?;
            }
        }
        self.tile_properties.write_to(out)?;
        offset_u32("main block end", HEADER_LEN + (out.len() - start))?;
        Ok(header)
    }
}

impl ObjectData {
    fn stored_len(&self) -> usize {
        OBJECT_FIXED_LEN
            + self.name.len()
            + self.logic.len()
            + self.image_set.len()
            + self.animation.len()
    }

    fn write_to(&self, out: &mut Vec<u8>) -> Result<(), DataError> {
        let mut fixed = self.fixed;
        fixed
            .name_len
            .set(offset_u32("object name length", self.name.len())?);
        fixed
            .logic_len
            .set(offset_u32("object logic length", self.logic.len())?);
        fixed
            .image_set_len
            .set(offset_u32("object image set length", self.image_set.len())?);
        fixed
            .animation_len
            .set(offset_u32("object animation length", self.animation.len())?);
        out.extend_from_slice(fixed.as_bytes());
        for s in [&self.name, &self.logic, &self.image_set, &self.animation] {
            out.extend_from_slice(s);
        }
        Ok(())
    }
}

impl TilePropertiesData {
    fn write_to(&self, out: &mut Vec<u8>) -> Result<(), DataError> {
        let mut header = self.header;
        header
            .count
            .set(offset_u32("tile property count", self.records.len())?);
        out.extend_from_slice(header.as_bytes());
        debug_assert_eq!(header.as_bytes().len(), TILE_PROPERTIES_HEADER_LEN);
        for record in &self.records {
            let kind = match record.attributes {
                AttributesData::Single(_) => TILE_SINGLE,
                AttributesData::Double(_) => TILE_DOUBLE,
                AttributesData::Mask(_) => TILE_MASK,
            };
            let base = TilePropertyBase {
                kind: kind.into(),
                reserved: record.reserved.into(),
                width: record.width.into(),
                height: record.height.into(),
            };
            out.extend_from_slice(base.as_bytes());
            match &record.attributes {
                AttributesData::Single(v) => out.extend_from_slice(&v.to_le_bytes()),
                AttributesData::Double(d) => out.extend_from_slice(d.as_bytes()),
                AttributesData::Mask(m) => out.extend_from_slice(m),
            }
        }
        Ok(())
    }
}

/// `value` as a stored u32, or a write error naming `what`.
fn offset_u32(what: &'static str, value: usize) -> Result<u32, DataError> {
    u32::try_from(value).map_err(|_| {
        ErrorKind::Write(WriteProblem::TooLarge {
            what,
            found: value as u64,
        })
        .into()
    })
}
