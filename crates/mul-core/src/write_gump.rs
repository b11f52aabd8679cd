//! The gump writer (the `write` feature): gumpart.mul and gumpidx.mul from pictures, in the
//! layout the readers take, the conversions to and from gumpartLegacyMUL.uop, and a
//! synthetic set (`docs/formats/uo.md`, "Gumps").

// Writers: their arithmetic is on the lengths of buffers in memory (each at most
// isize::MAX bytes), sides below 0x8000 and small constants; every stored field goes
// through a checked conversion to its width, which refuses what does not fit.
#![allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use crate::convert::{
    Conversion, Entry, MulFiles, PictureSource, pictures_to_mul, pictures_to_uop,
};
use crate::error::{DataError, ErrorKind, WriteProblem};
use crate::gump::Gumps;
use crate::picture_uop::UopPictures;
use crate::raw::EMPTY;

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
            GumpPicture::Repeat(earlier) => *placed
                .get(earlier)
                .filter(|_| earlier < number)
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
/// rest empty, as the client sees any gump UOP). An entry that cannot be read is left out
/// (its slot empty) and listed in the result.
///
/// Memory: the container, written once at its size, and 8 bytes a used entry.
///
/// Returns `Err` ([`ErrorKind::Write`]) for more ids than the readers take
/// ([`gamedata_io::Limits::DEFAULT_MAX_RECORDS`] + 0x4000) or a container past 4 GiB.
pub fn gumps_to_uop(gumps: &Gumps<'_>) -> Result<Conversion<Vec<u8>>, DataError> {
    pictures_to_uop(&gump_source(gumps), UopPictures::Gumps)
}

/// gumpart.mul and gumpidx.mul, `(index, data)`, holding `gumps`' entries byte for byte,
/// one index record a gump id (`gumps.len()` of them), each size in its record's third
/// word; exact repeats share their bytes. An entry that cannot be read is left out (empty)
/// and listed in the result.
///
/// Returns `Err` ([`ErrorKind::Write`]) for a gumpart.mul past 4 GiB.
pub fn gumps_to_mul(gumps: &Gumps<'_>) -> Result<Conversion<MulFiles>, DataError> {
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
        entry: move |n| gumps.entry(n),
    }
}

/// Gumps [`synthetic_gumps`] writes (ids 0 to 199).
pub const SYNTHETIC_GUMPS: usize = 200;

/// A synthetic gump set, `(gumpidx.mul, gumpart.mul)`: gumps 0 to 199 of sizes 1 to 120 x
/// 1 to 90 pixels, each a frame of one colour around bands of others, with transparent
/// corners; gump 150 repeats gump 20 (an exact repeat), gump 199 is empty, and gump 7's
/// colours have bit 15 set (which the client ignores). The same seed gives the same bytes.
// Colours are masked to 16 bits and sides are below 121: the casts cut nothing needed.
#[allow(clippy::cast_possible_truncation)]
pub fn synthetic_gumps(seed: u64) -> (Vec<u8>, Vec<u8>) {
    let mut state = seed ^ 0xD1B5_4A32_D192_ED03;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
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
