//! An owned level and its writer. [`LevelData::from_level`] copies a view (every raw field,
//! reserved words included); [`LevelData::main_block`] lays the sections out in the
//! editor's order (plane headers, tiles, image-set names, objects, tile properties) and
//! [`LevelData::to_file`] adds the header, compressed (zlib) or not, with the base
//! checksum. The main block of every real level comes out byte for byte. Source:
//! `docs/formats/wwd.md`, "Layout" and "Checksum".
//!
//! [`LevelData::layout`] and [`LevelLayout::write_to`] write the same file to a seekable
//! writer without holding it: the sections go out as they are laid out (through the zlib
//! encoder when compressed), the checksum summed as they pass, and the header written last
//! over the room left for it; a level whose main block the reader would refuse
//! (`Limits::max_decoded_bytes`) is refused before a byte is written.

// Writers: their arithmetic is on the lengths of buffers in memory (each at most
// isize::MAX bytes) and small constants; every stored field goes through a checked
// conversion to its width, which refuses what does not fit.
#![allow(clippy::arithmetic_side_effects)]

use std::fmt;
use std::io::{Seek, SeekFrom, Write};

use flate2::Compression;
use flate2::write::ZlibEncoder;
use gamedata_io::{Limits, PreviewBytes, PreviewTable};
use zerocopy::IntoBytes;

use crate::error::{DataError, ErrorKind, Result, WriteProblem};
use crate::raw::{
    DoubleAttributes, FLAG_COMPRESS, HEADER_LEN, OBJECT_FIXED_LEN, ObjectFixed, PLANE_HEADER_LEN,
    PlaneHeader, TILE_DOUBLE, TILE_MASK, TILE_PROPERTIES_HEADER_LEN, TILE_PROPERTY_BASE_LEN,
    TILE_SINGLE, TilePropertiesHeader, TilePropertyBase, WwdHeader,
};
use crate::wwd::checksum::base_checksum;
use crate::wwd::level::Level;
use crate::wwd::tile_properties::TileAttributes;

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
        let plan = self.plan()?;
        out.reserve_exact(plan.end - HEADER_LEN);
        // Writing into a Vec cannot fail.
        if self.emit(&plan.planes, out).is_err() {
            return Err(ErrorKind::Write(WriteProblem::TooLarge {
                what: "main block end",
                found: plan.end as u64,
            })
            .into());
        }
        Ok(plan.header)
    }

    /// The header and plane headers with counts and offsets set, and where the main block
    /// ends: every check of the writer, nothing written.
    fn plan(&self) -> Result<Plan, DataError> {
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
        at += self.tile_properties.stored_len();
        offset_u32("main block end", at)?;

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
        Ok(Plan {
            header,
            planes: headers,
            end: at,
        })
    }

    /// Writes the main block (plane headers `headers`, then the sections) to `out`, a few
    /// KiB at a time: tiles go through a buffer of 4,096 tiles (16 KiB).
    fn emit(&self, headers: &[PlaneHeader], out: &mut impl Write) -> std::io::Result<()> {
        for h in headers {
            out.write_all(h.as_bytes())?;
        }
        let mut buffer = [0u8; TILE_CHUNK * 4];
        for plane in &self.planes {
            for chunk in plane.tiles.chunks(TILE_CHUNK) {
                for (bytes, tile) in buffer.chunks_exact_mut(4).zip(chunk) {
                    bytes.copy_from_slice(&tile.to_le_bytes());
                }
                out.write_all(buffer.get(..chunk.len() * 4).unwrap_or_default())?;
            }
        }
        for plane in &self.planes {
            for name in &plane.image_sets {
                out.write_all(name)?;
                out.write_all(&[0])?;
            }
        }
        for plane in &self.planes {
            for object in &plane.objects {
                object.write_to(out)?;
            }
        }
        self.tile_properties.write_to(out)
    }

    /// Checks the level for writing: what [`LevelData::main_block`] checks, and its main
    /// block against `limits.max_decoded_bytes`, the most the level reader decodes
    /// (`LevelFile` with these limits), so that a level written is one read back,
    /// compressed or not (a zlib stream is within the reader's other bound, 1,032 bytes a
    /// stored byte, by deflate's own). Nothing is written.
    ///
    /// Returns `Err` as [`LevelData::main_block`], and ([`ErrorKind::Limit`]) for a main
    /// block past the limit.
    pub fn layout(&self, compress: bool, limits: &Limits) -> Result<LevelLayout<'_>, DataError> {
        let plan = self.plan()?;
        let block = (plan.end - HEADER_LEN) as u64;
        limits
            .check_decoded("the main block", block)
            .map_err(ErrorKind::Limit)?;
        Ok(LevelLayout {
            level: self,
            plan,
            compress,
        })
    }
}

/// Tiles written at a time by [`LevelLayout::write_to`].
const TILE_CHUNK: usize = 4096;

/// The most bytes of a main block [`LevelLayout::write_to`] gives the zlib encoder at once
/// (16 MiB; the real levels' main blocks are under 4 MiB).
const STAGE: usize = 16 << 20;

/// What [`LevelData::plan`] finds.
struct Plan {
    header: WwdHeader,
    planes: Vec<PlaneHeader>,
    /// The end of the main block, an absolute offset.
    end: usize,
}

/// A level checked for writing ([`LevelData::layout`]): its header's counts and offsets
/// set, its main block's length known.
pub struct LevelLayout<'l> {
    level: &'l LevelData,
    plan: Plan,
    compress: bool,
}

impl fmt::Debug for LevelLayout<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LevelLayout")
            .field("main_block_len", &self.main_block_len())
            .field("compress", &self.compress)
            .finish()
    }
}

/// What [`LevelLayout::write_to`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written {
    /// The file's bytes: the header and the main block as stored.
    pub file_len: u64,
    /// The main block's bytes, uncompressed.
    pub main_block_len: u64,
    /// The header's checksum: the base value of the stored main block.
    pub checksum: u32,
}

impl LevelLayout<'_> {
    /// The main block's bytes, uncompressed.
    pub fn main_block_len(&self) -> u64 {
        (self.plan.end - HEADER_LEN) as u64
    }

    /// Writes the level file that [`LevelData::to_file`] makes, byte for byte, from where
    /// `out` stands: room for the header, the main block as it is laid out (through the
    /// zlib encoder when compressed, a few KiB at a time), then the header over its room,
    /// `out` left at the file's end. What it holds beyond the level is the encoder's state,
    /// one buffer of 4,096 tiles (16 KiB) and, when compressing, the block's next piece for
    /// the encoder (the block's length, at most 16 MiB), whatever the level's size. A
    /// compressed main block of up to 16 MiB is stored as [`LevelData::to_file`] stores it;
    /// a longer one as another zlib stream of the same bytes.
    ///
    /// Returns `Err` with `out`'s error (nothing is checked here: [`LevelData::layout`]
    /// checked the level).
    pub fn write_to<W: Write + Seek>(self, out: &mut W) -> std::io::Result<Written> {
        let start = out.stream_position()?;
        out.write_all(&[0u8; HEADER_LEN])?;
        let mut header = self.plan.header;
        let flags = header.flags.get();
        let main_block_len = self.main_block_len();
        let mut summed = Summing::new(&mut *out);
        if self.compress {
            header.flags.set(flags | FLAG_COMPRESS);
            // The plan checked that the block's end fits 32 bits.
            header.main_block_size.set(fits(main_block_len));
            let mut encoder = ZlibEncoder::new(&mut summed, Compression::default());
            // The encoder is given the block in pieces of STAGE bytes: zlib-rs's deflate
            // depends on how its input comes, and a block of one piece is compressed as
            // `to_file` compresses it, byte for byte.
            // (One byte over the block: a write that fills the buffer whole goes past it.)
            let stage = usize::try_from(main_block_len)
                .unwrap_or(STAGE)
                .saturating_add(1)
                .min(STAGE);
            let mut staged = std::io::BufWriter::with_capacity(stage, &mut encoder);
            self.level.emit(&self.plan.planes, &mut staged)?;
            // Its last piece given (not `flush`, which would flush the encoder: a sync
            // point in the stream).
            staged.into_inner().map_err(|e| e.into_error())?;
            encoder.finish()?;
        } else {
            header.flags.set(flags & !FLAG_COMPRESS);
            header.main_block_size.set(0);
            self.level.emit(&self.plan.planes, &mut summed)?;
        }
        let (stored, checksum) = summed.finish();
        header.checksum.set(checksum);
        let end = out.stream_position()?;
        out.seek(SeekFrom::Start(start))?;
        out.write_all(header.as_bytes())?;
        out.seek(SeekFrom::Start(end))?;
        Ok(Written {
            file_len: HEADER_LEN as u64 + stored,
            main_block_len,
            checksum,
        })
    }
}

/// A writer that passes bytes on and sums them as [`base_checksum`] does.
struct Summing<W> {
    out: W,
    /// Bytes passed.
    len: u64,
    /// The sum so far, without the length's term.
    sum: u32,
}

impl<W: Write> Summing<W> {
    fn new(out: W) -> Self {
        Summing {
            out,
            len: 0,
            sum: 0,
        }
    }

    /// The bytes passed and their base checksum.
    fn finish(self) -> (u64, u32) {
        // Lengths and offsets modulo 2^32, as base_checksum takes them.
        (self.len, self.sum.wrapping_sub(low32(self.len)))
    }
}

impl<W: Write> Write for Summing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.out.write(buf)?;
        for &byte in buf.get(..n).unwrap_or_default() {
            if self.len > 0 {
                self.sum = self
                    .sum
                    .wrapping_add(u32::from(byte))
                    .wrapping_sub(low32(self.len));
            }
            self.len += 1;
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
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

    /// Writes the object; its lengths fit 32 bits ([`LevelData::plan`] checked that the
    /// main block's end does).
    fn write_to(&self, out: &mut impl Write) -> std::io::Result<()> {
        let mut fixed = self.fixed;
        fixed.name_len.set(fits(self.name.len()));
        fixed.logic_len.set(fits(self.logic.len()));
        fixed.image_set_len.set(fits(self.image_set.len()));
        fixed.animation_len.set(fits(self.animation.len()));
        out.write_all(fixed.as_bytes())?;
        for s in [&self.name, &self.logic, &self.image_set, &self.animation] {
            out.write_all(s)?;
        }
        Ok(())
    }
}

impl TilePropertiesData {
    /// The table's bytes: its header and records.
    fn stored_len(&self) -> usize {
        TILE_PROPERTIES_HEADER_LEN
            + self
                .records
                .iter()
                .map(|r| {
                    TILE_PROPERTY_BASE_LEN
                        + match &r.attributes {
                            AttributesData::Single(_) => 4,
                            AttributesData::Double(d) => d.as_bytes().len(),
                            AttributesData::Mask(m) => m.len(),
                        }
                })
                .sum::<usize>()
    }

    /// Writes the table; its count fits 32 bits ([`LevelData::plan`] checked that the main
    /// block's end does, and each record takes bytes of it).
    fn write_to(&self, out: &mut impl Write) -> std::io::Result<()> {
        let mut header = self.header;
        header.count.set(fits(self.records.len()));
        out.write_all(header.as_bytes())?;
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
            out.write_all(base.as_bytes())?;
            match &record.attributes {
                AttributesData::Single(v) => out.write_all(&v.to_le_bytes())?,
                AttributesData::Double(d) => out.write_all(d.as_bytes())?,
                AttributesData::Mask(m) => out.write_all(m)?,
            }
        }
        Ok(())
    }
}

/// `value`'s low 32 bits (lengths and offsets modulo 2^32, as the checksum takes them).
fn low32(value: u64) -> u32 {
    u32::try_from(value & 0xFFFF_FFFF).unwrap_or_default()
}

/// A length [`LevelData::plan`] checked to fit 32 bits (the main block's end does).
fn fits<T: TryInto<u32>>(value: T) -> u32 {
    value.try_into().unwrap_or(u32::MAX)
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
