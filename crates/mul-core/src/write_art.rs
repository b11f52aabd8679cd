//! The art writer (the `write` feature): art.mul and artidx.mul from pictures, in the layout
//! the readers take (`docs/formats/uo.md`, "Art"), for tests and synthetic files.

// Writers: their arithmetic is on the lengths of buffers in memory (each at most
// isize::MAX bytes), sides below 0x8000 and small constants; every stored field goes
// through a checked conversion to its width, which refuses what does not fit.
#![allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use crate::art::{Art, ITEM_BASE, LAND_PIXELS};
use crate::error::{DataError, ErrorKind, WriteProblem};
use crate::picture_uop::UopPictures;
use crate::raw::EMPTY;
use crate::uop::name_hash;
use crate::write::{UopData, UopWrite, write_uop};

/// One art number's picture, as [`write_art`] takes it.
#[derive(Clone, Copy, Debug)]
pub enum ArtPicture<'a> {
    /// No picture: the index entry is empty (offset and length 0xFFFFFFFF).
    Empty,
    /// A land tile: its 1,012 diamond pixels row by row (numbers below 0x4000 only).
    Land(&'a [u16]),
    /// An item: `width` x `height` pixels row by row, 0 transparent (numbers from 0x4000).
    Item {
        /// Width in pixels, below 0x8000.
        width: u16,
        /// Height in pixels, below 0x8000.
        height: u16,
        /// The pixels, `width * height` of them.
        pixels: &'a [u16],
    },
    /// The same bytes as an earlier number's (an index entry repeated exactly, as editors
    /// write one picture under several numbers).
    Repeat(usize),
}

/// art.mul and artidx.mul holding `pictures`, picture i under art number i: land tiles as
/// 2,048-byte entries (the pixels, then zeros, as real files have them), items as runs of
/// their non-zero pixels, each run shorter than the 2,048 pixels at which the client stops
/// reading (longer ones and gaps are split), every row ended by an empty run.
///
/// Returns `(artidx.mul, art.mul)`, or `Err` ([`ErrorKind::Write`]) for a land tile of
/// another pixel count or past 0x3FFF, an item before 0x4000 or of a size its pixels do not
/// fill or past 0x7FFF, a row table past the 16-bit offsets' reach, a repeat of no earlier
/// picture, or an art.mul past 4 GiB.
pub fn write_art(pictures: &[ArtPicture<'_>]) -> Result<(Vec<u8>, Vec<u8>), DataError> {
    let mut index = Vec::with_capacity(pictures.len().saturating_mul(12));
    let mut data = Vec::new();
    let mut placed: Vec<(u32, u32)> = Vec::with_capacity(pictures.len());
    for (number, picture) in pictures.iter().enumerate() {
        let bad = |problem| DataError::from(ErrorKind::Write(problem));
        let (offset, length) = match *picture {
            ArtPicture::Empty => (EMPTY, EMPTY),
            ArtPicture::Repeat(earlier) => *placed
                .get(earlier)
                .filter(|_| earlier < number)
                .ok_or(bad(WriteProblem::Repeat { number, earlier }))?,
            ArtPicture::Land(pixels) => {
                if number >= ITEM_BASE || pixels.len() != LAND_PIXELS {
                    return Err(bad(WriteProblem::Picture { number }));
                }
                let start = data.len();
                for &p in pixels {
                    data.extend_from_slice(&p.to_le_bytes());
                }
                data.resize(start + 2048, 0);
                place(start, data.len())?
            }
            ArtPicture::Item {
                width,
                height,
                pixels,
            } => {
                let area = usize::from(width) * usize::from(height);
                if number < ITEM_BASE || width > 0x7FFF || height > 0x7FFF || pixels.len() != area {
                    return Err(bad(WriteProblem::Picture { number }));
                }
                let start = data.len();
                item_bytes(&mut data, width, height, pixels)
                    .ok_or(bad(WriteProblem::Picture { number }))?;
                place(start, data.len())?
            }
        };
        placed.push((offset, length));
        index.extend_from_slice(&offset.to_le_bytes());
        index.extend_from_slice(&length.to_le_bytes());
        index.extend_from_slice(&0u32.to_le_bytes());
    }
    Ok((index, data))
}

/// The index fields of bytes `start..end` of art.mul.
fn place(start: usize, end: usize) -> Result<(u32, u32), DataError> {
    let too_large = || {
        DataError::from(ErrorKind::Write(WriteProblem::TooLarge {
            what: "art.mul",
            found: end as u64,
        }))
    };
    let offset = u32::try_from(start).map_err(|_| too_large())?;
    let length = u32::try_from(end - start).map_err(|_| too_large())?;
    u32::try_from(end).map_err(|_| too_large())?;
    Ok((offset, length))
}

/// Appends an item's header, row table and runs; `None` if a row starts past the 16-bit
/// offsets' reach.
fn item_bytes(data: &mut Vec<u8>, width16: u16, height: u16, pixels: &[u16]) -> Option<()> {
    let width = usize::from(width16);
    data.extend_from_slice(&0u32.to_le_bytes());
    data.extend_from_slice(&width16.to_le_bytes());
    data.extend_from_slice(&height.to_le_bytes());
    let table = data.len();
    data.resize(table + 2 * usize::from(height), 0);
    let body = data.len();
    for y in 0..usize::from(height) {
        let offset = u16::try_from((data.len() - body) / 2).ok()?;
        data[table + 2 * y..table + 2 * y + 2].copy_from_slice(&offset.to_le_bytes());
        let row = pixels.get(y * width..(y + 1) * width).unwrap_or_default();
        let mut x = 0usize; // where the previous run ended
        let mut i = 0usize;
        while i < row.len() {
            if row[i] == 0 {
                i += 1;
                continue;
            }
            let end = row[i..]
                .iter()
                .position(|&p| p == 0)
                .map_or(row.len(), |n| i + n);
            // skip + count stays below 2,048, where the client stops reading.
            let mut skip = i - x;
            while skip >= 2047 {
                push_run(data, 2047, &[]);
                skip -= 2047;
            }
            let mut from = i;
            while from < end {
                let count = (end - from).min(2047 - skip);
                push_run(data, skip, &row[from..from + count]);
                from += count;
                skip = 0;
            }
            (x, i) = (end, end);
        }
        push_run(data, 0, &[]);
    }
    Some(())
}

/// Appends a run header and its pixels; the skip and the count are below 2,048.
#[allow(clippy::cast_possible_truncation)]
fn push_run(data: &mut Vec<u8>, skip: usize, pixels: &[u16]) {
    data.extend_from_slice(&(skip as u16).to_le_bytes());
    data.extend_from_slice(&(pixels.len() as u16).to_le_bytes());
    for &p in pixels {
        data.extend_from_slice(&p.to_le_bytes());
    }
}

/// Land tiles [`synthetic_art`] fills (ids 0 to 63; the rest of the 0x4000 are empty).
pub const SYNTHETIC_LANDS: usize = 64;
/// Items [`synthetic_art`] writes (ids 0 to 255).
pub const SYNTHETIC_ITEMS: usize = 256;

/// A synthetic art set, `(artidx.mul, art.mul)`: land tiles 0 to 63 (gradients over the
/// diamond), then items 0 to 255 of sizes 1 to 64 x 1 to 96 pixels, each an ellipse of
/// colours with transparent corners; item 200 repeats item 10 (an exact repeat, as editors
/// write them) and item 255 is empty. The same seed gives the same bytes.
pub fn synthetic_art(seed: u64) -> (Vec<u8>, Vec<u8>) {
    synthetic_art_sized(seed, SYNTHETIC_LANDS, SYNTHETIC_ITEMS)
}

/// [`synthetic_art`] with `lands` land tiles (at most 0x4000) and `items` items of the same
/// kinds: `synthetic_art_sized(seed, 0x4000, 0x10000)` is a full-size set of 0x14000
/// entries (about 230 MB of art.mul), as High Seas clients have. Item 200 repeats item 10
/// and item 255 is empty when there are that many.
// Colours are masked to 15 bits and sides are below 97: the casts cut nothing needed.
#[allow(clippy::cast_possible_truncation)]
pub fn synthetic_art_sized(seed: u64, lands: usize, items: usize) -> (Vec<u8>, Vec<u8>) {
    let lands_wanted = lands.min(ITEM_BASE);
    let mut state = seed ^ 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let lands: Vec<Vec<u16>> = (0..lands_wanted)
        .map(|_| {
            let base = next();
            (0..LAND_PIXELS)
                .map(|i| ((base as usize + i / 23) & 0x7FFF) as u16)
                .collect()
        })
        .collect();
    let items: Vec<(u16, u16, Vec<u16>)> = (0..items)
        .map(|id| {
            let (w, h) = (1 + (id * 7) % 64, 1 + (id * 13) % 96);
            let colour = (next() & 0x7FFF) as u16 | 1;
            let pixels = (0..w * h)
                .map(|i| {
                    let (x, y) = (i % w, i / w);
                    // Inside the ellipse through the sides' middles: drawn, else 0.
                    let (dx, dy) = (2 * x + 1, 2 * y + 1);
                    let (dx, dy) = (dx.abs_diff(w) * h, dy.abs_diff(h) * w);
                    let inside = dx * dx + dy * dy <= w * w * h * h;
                    if inside {
                        ((colour ^ (x + y) as u16) & 0x7FFF).max(1)
                    } else {
                        0
                    }
                })
                .collect();
            (w as u16, h as u16, pixels)
        })
        .collect();
    let mut pictures = vec![ArtPicture::Empty; ITEM_BASE + items.len()];
    for (id, land) in lands.iter().enumerate() {
        pictures[id] = ArtPicture::Land(land);
    }
    for (id, (width, height, pixels)) in items.iter().enumerate() {
        pictures[ITEM_BASE + id] = ArtPicture::Item {
            width: *width,
            height: *height,
            pixels,
        };
    }
    if items.len() > 255 {
        pictures[ITEM_BASE + 200] = ArtPicture::Repeat(ITEM_BASE + 10);
        pictures[ITEM_BASE + 255] = ArtPicture::Empty;
    }
    // Every picture above is within the writer's bounds.
    write_art(&pictures).unwrap_or_default()
}

/// An entry of a picture set as conversions take it: its bytes and its index `extra`.
type Entry<'a> = Option<(&'a [u8], u32)>;

/// The entries of a picture set in MUL form: an index of `count` records and the data file,
/// each entry's bytes written once in number order (an entry naming the same bytes as an
/// earlier one, as an exact repeat does, points at the earlier one's), empty entries as
/// offset and length 0xFFFFFFFF.
///
/// Returns `Err` as `entry` does, or ([`ErrorKind::Write`]) for a data file past 4 GiB.
pub(crate) fn pictures_to_mul<'a>(
    count: usize,
    data_name: &'static str,
    entry: impl Fn(usize) -> Result<Entry<'a>, DataError>,
) -> Result<(Vec<u8>, Vec<u8>), DataError> {
    let mut index = Vec::with_capacity(count.saturating_mul(12));
    let mut data = Vec::new();
    // Where each distinct byte range went, by its place in memory.
    let mut written: std::collections::HashMap<(usize, usize), u32> =
        std::collections::HashMap::new();
    for number in 0..count {
        let (offset, length, extra) = match entry(number)? {
            None => (EMPTY, EMPTY, 0),
            Some((bytes, extra)) => {
                let key = (bytes.as_ptr() as usize, bytes.len());
                let offset = match written.get(&key) {
                    Some(&offset) => offset,
                    None => {
                        let (offset, _) =
                            place_in(data_name, data.len(), data.len() + bytes.len())?;
                        data.extend_from_slice(bytes);
                        written.insert(key, offset);
                        offset
                    }
                };
                let (_, length) = place_in(data_name, 0, bytes.len())?;
                (offset, length, extra)
            }
        };
        index.extend_from_slice(&offset.to_le_bytes());
        index.extend_from_slice(&length.to_le_bytes());
        index.extend_from_slice(&extra.to_le_bytes());
    }
    Ok((index, data))
}

/// The index fields of bytes `start..end` of `name`.
fn place_in(name: &'static str, start: usize, end: usize) -> Result<(u32, u32), DataError> {
    let too_large = || {
        DataError::from(ErrorKind::Write(WriteProblem::TooLarge {
            what: name,
            found: end as u64,
        }))
    };
    let offset = u32::try_from(start).map_err(|_| too_large())?;
    let length = u32::try_from(end - start).map_err(|_| too_large())?;
    // 0xFFFFFFFF marks an empty entry: the last byte must lie before it.
    u32::try_from(end)
        .ok()
        .filter(|&e| e != EMPTY)
        .ok_or_else(too_large)?;
    Ok((offset, length))
}

/// The entries of a picture set as a UOP of `pictures`: entry `number` named as slot
/// `number` (`build/artlegacymul/{number:08}.tga` ...), stored as is, in number order, an
/// entry naming the same bytes as an earlier one pointing at the earlier one's; a gump's
/// size (`extra`'s halves) as i32 width and height before its data. The table blocks'
/// counts add up to `count - 0x4000` when that is the larger, so that the client's slots
/// (`max(entries, 65,535) + 0x4000`) are `count` again.
///
/// Returns `Err` as `entry` does.
pub(crate) fn pictures_to_uop<'a>(
    count: usize,
    pictures: UopPictures,
    entry: impl Fn(usize) -> Result<Entry<'a>, DataError>,
) -> Result<Vec<u8>, DataError> {
    let mut owned: Vec<(usize, Vec<u8>)> = Vec::new();
    let mut used: Vec<(usize, &'a [u8], u32)> = Vec::new();
    for number in 0..count {
        if let Some((bytes, extra)) = entry(number)? {
            used.push((number, bytes, extra));
        }
    }
    if pictures == UopPictures::Gumps {
        for &(number, bytes, extra) in &used {
            let mut stored = Vec::with_capacity(bytes.len() + 8);
            let [h0, h1, w0, w1] = extra.to_le_bytes();
            stored.extend_from_slice(&i32::from(u16::from_le_bytes([w0, w1])).to_le_bytes());
            stored.extend_from_slice(&i32::from(u16::from_le_bytes([h0, h1])).to_le_bytes());
            stored.extend_from_slice(bytes);
            owned.push((number, stored));
        }
    }
    let mut first: std::collections::HashMap<(usize, usize), usize> =
        std::collections::HashMap::new();
    let mut entries = Vec::with_capacity(used.len());
    for (i, &(number, bytes, _)) in used.iter().enumerate() {
        let key = (bytes.as_ptr() as usize, bytes.len());
        let data = match first.get(&key) {
            Some(&earlier) => UopData::Same(earlier),
            None => {
                first.insert(key, i);
                match owned.get(i) {
                    Some((_, stored)) => UopData::Bytes(stored),
                    None => UopData::Bytes(bytes),
                }
            }
        };
        entries.push(UopWrite {
            hash: name_hash(&pictures.entry_name(number)),
            data,
        });
    }
    Ok(write_uop(&entries, count.saturating_sub(ITEM_BASE)))
}

/// artLegacyMUL.uop holding `art`'s entries, byte for byte (see `docs/formats/uo.md`,
/// "Art"): slot n holds art number n, stored as is; exact repeats share their bytes. Read
/// back ([`Art::from_uop`]), every entry is the same bytes, and the art numbers are
/// `art.len()` again when that is at least 0x4000 + 65,535 (fewer become that many, the
/// rest empty, as the client sees any art UOP).
///
/// Returns `Err` as [`Art::entry`] for the first entry that cannot be read.
pub fn art_to_uop(art: &Art<'_>) -> Result<Vec<u8>, DataError> {
    pictures_to_uop(art.len(), UopPictures::Art, |n| {
        Ok(art.entry(n)?.map(|bytes| (bytes, 0)))
    })
}

/// art.mul and artidx.mul, `(index, data)`, holding `art`'s entries byte for byte, one
/// index record an art number (`art.len()` of them), the index's third words 0; exact
/// repeats share their bytes. An art set this crate's writer made ([`write_art`]) comes
/// back the same bytes through [`art_to_uop`] and this when it has at least 0x4000 +
/// 65,535 numbers.
///
/// Returns `Err` as [`Art::entry`] for the first entry that cannot be read, or
/// ([`ErrorKind::Write`]) for an art.mul past 4 GiB.
pub fn art_to_mul(art: &Art<'_>) -> Result<(Vec<u8>, Vec<u8>), DataError> {
    pictures_to_mul(art.len(), "art.mul", |n| {
        Ok(art.entry(n)?.map(|bytes| (bytes, 0)))
    })
}
