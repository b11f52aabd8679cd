//! The gump writer (the `write` feature): gumpart.mul and gumpidx.mul from pictures, in the
//! layout the readers take, the conversions to and from gumpartLegacyMUL.uop, and a
//! synthetic set (`docs/formats/uo.md`, "Gumps").

// Writers: their arithmetic is on the lengths of buffers in memory (each at most
// isize::MAX bytes), sides below 0x8000 and small constants; every stored field goes
// through a checked conversion to its width, which refuses what does not fit.
#![allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use std::io::Write as _;

use gamedata_io::{Limits, Problems};

use crate::error::{DataError, ErrorKind, WriteProblem};
use crate::gump::Gumps;
use crate::gump::bwt;
use crate::picture::ITEM_BASE;
use crate::picture::UopPictures;
use crate::picture::convert::{
    Conversion, Entry, MulData, PictureSource, entry_number, pictures_to_mul, pictures_to_uop,
};
use crate::raw::EMPTY;
use crate::uop::name_hash;
use crate::uop::write::{UopWrite, write_uop};

/// One gump's picture, as [`write_gumps`] takes it.
#[derive(Clone, Copy, Debug)]
pub enum GumpPicture<'a> {
    /// No picture: the index entry is empty (offset and length 0xFFFFFFFF).
    Empty,
    /// `width` x `height` pixels row by row, 0 transparent.
    Picture {
        /// Width in pixels, 1 to 0x7FFF.
        width: u16,
        /// Height in pixels, 1 to 0x7FFF.
        height: u16,
        /// The pixels, `width * height` of them.
        pixels: &'a [u16],
    },
    /// The same bytes as an earlier id's (an index entry repeated exactly).
    Repeat(usize),
}

/// gumpart.mul and gumpidx.mul holding `gumps`, gump i under id i: each row as runs of equal
/// colours (at most 65,535 pixels a run), the size in the index's third word.
///
/// Returns `(gumpidx.mul, gumpart.mul)`, or `Err` ([`ErrorKind::Write`]) for a side of 0 or
/// past 0x7FFF, pixels that are not width x height, a repeat of no earlier gump, or a
/// gumpart.mul past 4 GiB.
pub fn write_gumps(gumps: &[GumpPicture<'_>]) -> Result<(Vec<u8>, Vec<u8>), DataError> {
    let mut index = Vec::with_capacity(gumps.len() * 12);
    let mut data = Vec::new();
    let mut placed: Vec<(u32, u32, u32)> = Vec::with_capacity(gumps.len());
    for (number, gump) in gumps.iter().enumerate() {
        let bad = |problem| DataError::from(ErrorKind::Write(problem));
        let record = match *gump {
            GumpPicture::Empty => (EMPTY, EMPTY, 0),
            // `placed` holds the entries before this one: a repeat of this or a later
            // one finds nothing.
            GumpPicture::Repeat(earlier) => *placed
                .get(earlier)
                .ok_or(bad(WriteProblem::Repeat { number, earlier }))?,
            GumpPicture::Picture {
                width,
                height,
                pixels,
            } => {
                let sides = 1..=0x7FFF;
                if !sides.contains(&width)
                    || !sides.contains(&height)
                    || pixels.len() != usize::from(width) * usize::from(height)
                {
                    return Err(bad(WriteProblem::Picture { number }));
                }
                let start = data.len();
                gump_bytes(&mut data, width, height, pixels);
                let too_large = || {
                    bad(WriteProblem::TooLarge {
                        what: "gumpart.mul",
                        found: data.len() as u64,
                    })
                };
                let offset = u32::try_from(start).map_err(|_| too_large())?;
                let length = u32::try_from(data.len() - start).map_err(|_| too_large())?;
                u32::try_from(data.len())
                    .ok()
                    .filter(|&end| end != EMPTY)
                    .ok_or_else(too_large)?;
                (offset, length, (u32::from(width) << 16) | u32::from(height))
            }
        };
        placed.push(record);
        for word in [record.0, record.1, record.2] {
            index.extend_from_slice(&word.to_le_bytes());
        }
    }
    Ok((index, data))
}

/// Appends a gump's row table and runs.
fn gump_bytes(data: &mut Vec<u8>, width: u16, height: u16, pixels: &[u16]) {
    let start = data.len();
    data.resize(start + 4 * usize::from(height), 0);
    for (y, row) in pixels.chunks_exact(usize::from(width)).enumerate() {
        let word = u32::try_from((data.len() - start) / 4).unwrap_or(u32::MAX);
        data[start + 4 * y..start + 4 * y + 4].copy_from_slice(&word.to_le_bytes());
        let mut i = 0;
        while i < row.len() {
            let colour = row[i];
            let same = row[i..].iter().take_while(|&&p| p == colour).count();
            let count = same.min(0xFFFF);
            data.extend_from_slice(&colour.to_le_bytes());
            // At most 0xFFFF: the cast cuts nothing.
            data.extend_from_slice(&u16::try_from(count).unwrap_or(u16::MAX).to_le_bytes());
            i += count;
        }
    }
}

/// gumpartLegacyMUL.uop holding `gumps`' entries: gump n under
/// `build/gumpartlegacymul/{n:08}.tga`, its width and height (i32 each) before its bytes;
/// exact repeats of the same size share their stored bytes. Read back
/// ([`Gumps::from_uop`]), every entry is the same bytes and size; the ids are
/// `gumps.len()` again when that is at least 0x4000 + 65,535 (fewer become that many, the
/// rest empty, as the client sees any gump UOP) and at most `gumps.len() - 0x4000` ids are
/// used (the client counts a UOP's table entries + 0x4000 ids). An entry that cannot be read is left out
/// (its slot empty) and listed in the result, a gump stored compressed among them (see
/// [`gumps_to_mul`]); so is a gump over an earlier gump's bytes with another size whose
/// copy would take such copies past [`SIZE_COPIES_BUDGET`](crate::picture::convert::SIZE_COPIES_BUDGET)
/// (64 MiB).
///
/// Memory: the container, written once at its size (at most the entries' bytes, 8 bytes
/// each, the tables and 64 MiB of copies), and 8 bytes a used entry.
///
/// Returns `Err` ([`ErrorKind::Write`]) for more ids than the readers take
/// ([`gamedata_io::Limits::DEFAULT_MAX_RECORDS`] + 0x4000) or a container past 4 GiB.
pub fn gumps_to_uop(gumps: &Gumps<'_>) -> Result<Conversion<Vec<u8>>, DataError> {
    pictures_to_uop(&gump_source(gumps), UopPictures::Gumps)
}

/// gumpart.mul and gumpidx.mul, `(index, data)`, holding `gumps`' entries byte for byte,
/// one index record a gump id (`gumps.len()` of them), each size in its record's third
/// word; exact repeats share their bytes. An entry that cannot be read is left out (empty)
/// and listed in the result; so is a gump a gumpartLegacyMUL.uop stores compressed
/// ([`UopEntryProblem::PictureCompression`](crate::UopEntryProblem::PictureCompression)):
/// conversions copy entries as stored, and decode none.
///
/// Returns `Err` ([`ErrorKind::Write`]) for a gumpart.mul past 4 GiB.
pub fn gumps_to_mul(gumps: &Gumps<'_>) -> Result<Conversion<MulData>, DataError> {
    pictures_to_mul(&gump_source(gumps), "gumpart.mul")
}

/// `gumps` as conversions read them: every entry's bytes and size word.
fn gump_source<'a>(
    gumps: &Gumps<'a>,
) -> PictureSource<'a, impl Fn(usize) -> Result<Entry<'a>, DataError>> {
    let gumps = gumps.clone();
    PictureSource {
        count: gumps.len(),
        data: gumps.data(),
        entry: move |n| gumps.entry(entry_number(n)),
    }
}

/// Gumps [`synthetic_gumps`] writes (ids 0 to 199).
pub const SYNTHETIC_GUMPS: usize = 200;

/// A synthetic gump set, `(gumpidx.mul, gumpart.mul)`: gumps 0 to 199, gump n 1 + 11n mod
/// 120 pixels wide and 1 + 17n mod 90 high (so every width 1 to 120 and every height 1 to
/// 90 occurs), each a frame of one colour (a 15-bit colour of its own with bits 0x0421
/// set: no channel 0) around bands of three rows (pixel (x, y) inside is ((b XOR (y / 3))
/// AND 0x7FFF), or 1 where that is 0, for a colour b of the gump's own), with transparent
/// corners (the three top left pixels, and the bottom right one in gumps wider than 2);
/// gump 150 repeats gump 20 (an exact repeat), gump 199 is empty, and gump 7's colours
/// have bit 15 set (which the client ignores). The same seed gives the same bytes.
// Colours are masked to 16 bits and sides are below 121: the casts cut nothing needed.
#[allow(clippy::cast_possible_truncation)]
pub fn synthetic_gumps(seed: u64) -> (Vec<u8>, Vec<u8>) {
    let mut next = crate::synth::picture_numbers(seed, crate::synth::PictureSet::Gumps);
    let pictures: Vec<(u16, u16, Vec<u16>)> = (0..SYNTHETIC_GUMPS)
        .map(|id| {
            let (w, h) = (1 + (id * 11) % 120, 1 + (id * 17) % 90);
            let frame = (next() & 0x7FFF) as u16 | 0x0421;
            let band = (next() & 0x7FFF) as u16;
            let high = if id == 7 { 0x8000 } else { 0 };
            let pixels = (0..w * h)
                .map(|i| {
                    let (x, y) = (i % w, i / w);
                    let corner = (x + y < 2) || (x + 1 == w && y + 1 == h && w > 2);
                    let edge = x == 0 || y == 0 || x + 1 == w || y + 1 == h;
                    if corner {
                        0
                    } else if edge {
                        frame | high
                    } else {
                        ((band ^ (y / 3) as u16) & 0x7FFF).max(1) | high
                    }
                })
                .collect();
            (w as u16, h as u16, pixels)
        })
        .collect();
    let mut gumps: Vec<GumpPicture<'_>> = pictures
        .iter()
        .map(|(width, height, pixels)| GumpPicture::Picture {
            width: *width,
            height: *height,
            pixels,
        })
        .collect();
    gumps[150] = GumpPicture::Repeat(20);
    gumps[199] = GumpPicture::Empty;
    // Every picture above is within the writer's bounds.
    write_gumps(&gumps).unwrap_or_default()
}

/// How [`gumps_to_compressed_uop`] stores a gump, as newer clients' gumpartLegacyMUL.uop
/// does (`docs/formats/uo.md`, "Gumps").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GumpCompression {
    /// Compression 1, as the client reads it: the i32 width and height, then a zlib stream
    /// of the u32 width, the u32 height and the gump's bytes.
    Zlib,
    /// Compression 3: a zlib stream of `bwt::compress` of the u32 width, the u32 height
    /// and the gump's bytes.
    ZlibBwt,
}

impl GumpCompression {
    /// The entry's compression value: 1 or 3.
    pub fn value(self) -> u16 {
        match self {
            GumpCompression::Zlib => 1,
            GumpCompression::ZlibBwt => 3,
        }
    }
}

/// One gump's UOP entry stored `how`: `(stored bytes, decompressed length)`, the gump
/// `width` x `height` with its MUL bytes `gump` (row table and runs).
///
/// Returns `Err` ([`WriteProblem::TooLarge`]) for a gump past what 32-bit lengths hold.
pub fn compressed_gump_entry(
    width: u16,
    height: u16,
    gump: &[u8],
    how: GumpCompression,
) -> Result<(Vec<u8>, u32), DataError> {
    let mut plain = Vec::with_capacity(8 + gump.len());
    plain.extend_from_slice(&u32::from(width).to_le_bytes());
    plain.extend_from_slice(&u32::from(height).to_le_bytes());
    plain.extend_from_slice(gump);
    let (mut stored, inflated) = match how {
        GumpCompression::Zlib => {
            let mut size = Vec::with_capacity(8);
            size.extend_from_slice(&i32::from(width).to_le_bytes());
            size.extend_from_slice(&i32::from(height).to_le_bytes());
            (size, plain)
        }
        GumpCompression::ZlibBwt => (Vec::new(), bwt::compress(&plain)?),
    };
    let too_large = || {
        DataError::from(ErrorKind::Write(WriteProblem::TooLarge {
            what: "a compressed gump",
            found: inflated.len() as u64,
        }))
    };
    let declared = u32::try_from(inflated.len()).map_err(|_| too_large())?;
    let mut z = flate2::write::ZlibEncoder::new(&mut stored, flate2::Compression::default());
    // Writing into a Vec cannot fail.
    z.write_all(&inflated).map_err(|_| too_large())?;
    z.finish().map_err(|_| too_large())?;
    Ok((stored, declared))
}

/// gumpartLegacyMUL.uop holding `gumps`' entries each stored `how` (as the newer clients'
/// files store them: [`GumpCompression::ZlibBwt`]), gump n under
/// `build/gumpartlegacymul/{n:08}.tga`, one entry a used id (repeats stored again), the
/// table sized so that the client's slots are `gumps.len()` when that is at least 0x4000 +
/// 65,535. An entry that cannot be read (a compressed one included) or whose size word is
/// not a gump's is left out (its slot empty) and listed in the result. For tests and
/// synthetic files: it holds every compressed entry at once.
///
/// Returns `Err` ([`ErrorKind::Write`]) for a table past what the readers take or a
/// container past 4 GiB.
// The size word's halves are 16 bits each.
#[allow(clippy::cast_possible_truncation)]
pub fn gumps_to_compressed_uop(
    gumps: &Gumps<'_>,
    how: GumpCompression,
) -> Result<Conversion<Vec<u8>>, DataError> {
    let mut left_out = Problems::new();
    let mut stored = Vec::new();
    for n in 0..gumps.len() {
        match gumps.entry(entry_number(n)) {
            Ok(Some((bytes, extra))) => {
                let (width, height) = ((extra >> 16) as u16, (extra & 0xFFFF) as u16);
                stored.push((n, compressed_gump_entry(width, height, bytes, how)?));
            }
            Ok(None) => {}
            Err(error) => left_out.push((n, error)),
        }
    }
    let places = gumps.len().saturating_sub(ITEM_BASE).max(stored.len());
    if places as u64 > Limits::DEFAULT_MAX_RECORDS {
        return Err(ErrorKind::Write(WriteProblem::TooLarge {
            what: UopPictures::Gumps.file_name(),
            found: places as u64,
        })
        .into());
    }
    let total: usize = stored.iter().map(|(_, (bytes, _))| bytes.len()).sum();
    if total as u64 >= u64::from(u32::MAX) {
        return Err(ErrorKind::Write(WriteProblem::TooLarge {
            what: UopPictures::Gumps.file_name(),
            found: total as u64,
        })
        .into());
    }
    let entries: Vec<UopWrite<'_>> = stored
        .iter()
        .map(|(n, (bytes, declared))| UopWrite {
            hash: name_hash(&UopPictures::Gumps.entry_name(*n)),
            data: bytes,
            stored_as: Some((how.value(), *declared)),
        })
        .collect();
    Ok(Conversion {
        files: write_uop(&entries, places),
        left_out,
    })
}
