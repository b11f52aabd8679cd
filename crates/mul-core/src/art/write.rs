//! The art writer (the `write` feature): art.mul and artidx.mul from pictures, in the layout
//! the readers take (`docs/formats/uo.md`, "Art"), for tests and synthetic files.

// Writers: their arithmetic is on the lengths of buffers in memory (each at most
// isize::MAX bytes), sides below 0x8000 and small constants; every stored field goes
// through a checked conversion to its width, which refuses what does not fit.
#![allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use crate::art::{Art, ITEM_BASE, LAND_PIXELS};
use crate::error::{DataError, ErrorKind, WriteProblem};
use crate::picture::UopPictures;
use crate::picture::convert::{
    Conversion, Entry, MulData, PictureSource, entry_number, pictures_to_mul, pictures_to_uop,
};
use crate::raw::EMPTY;

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
            // `placed` holds the numbers before this one: a repeat of this or a later
            // number finds nothing.
            ArtPicture::Repeat(earlier) => *placed
                .get(earlier)
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
/// diamond), then items 0 to 255, item n 1 + 7n mod 64 pixels wide and 1 + 13n mod 96
/// high (so every width 1 to 64 and every height 1 to 96 occurs), each an ellipse with
/// transparent corners: pixel (x, y) inside it is ((c XOR (x + y)) AND 0x7FFF), or 1 where
/// that is 0, for an odd 15-bit colour c of the item's own. Item 200 repeats item 10 (an
/// exact repeat, as editors write them) and item 255 is empty. The same seed gives the
/// same bytes.
pub fn synthetic_art(seed: u64) -> (Vec<u8>, Vec<u8>) {
    synthetic_art_sized(seed, SYNTHETIC_LANDS, SYNTHETIC_ITEMS)
}

/// [`synthetic_art`] with `lands` land tiles (at most 0x4000) and `items` items of the same
/// kinds: `synthetic_art_sized(seed, 0x4000, 0x10000)` is a full-size set of 0x14000
/// entries (about 230 MB of art.mul), as High Seas clients have. Item 200 repeats item 10
/// and item 255 is empty when there are that many.
pub fn synthetic_art_sized(seed: u64, lands: usize, items: usize) -> (Vec<u8>, Vec<u8>) {
    synthetic_art_overlaid(seed, lands, items, &[])
}

/// [`synthetic_art_sized`] with `overlay`'s pictures, `(art number, picture)`, in place of
/// the set's at those numbers, the set grown (with empty entries) to hold the highest. The
/// other numbers hold what [`synthetic_art_sized`] gives them; a repeat in `overlay` may
/// name any number before its own. An overlay the writer refuses ([`write_art`]) gives
/// two empty files.
// Colours are masked to 15 bits and sides are below 97: the casts cut nothing needed.
#[allow(clippy::cast_possible_truncation)]
pub fn synthetic_art_overlaid(
    seed: u64,
    lands: usize,
    items: usize,
    overlay: &[(usize, ArtPicture<'_>)],
) -> (Vec<u8>, Vec<u8>) {
    let lands_wanted = lands.min(ITEM_BASE);
    let mut next = crate::synth::picture_numbers(seed, crate::synth::PictureSet::Art);
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
    let last = overlay.iter().map(|&(n, _)| n + 1).max().unwrap_or(0);
    if last > pictures.len() {
        pictures.resize(last, ArtPicture::Empty);
    }
    for &(number, picture) in overlay {
        pictures[number] = picture;
    }
    // Every picture above is within the writer's bounds.
    write_art(&pictures).unwrap_or_default()
}

/// artLegacyMUL.uop holding `art`'s entries, byte for byte (see `docs/formats/uo.md`,
/// "Art"): slot n holds art number n, stored as is; exact repeats share their bytes. Read
/// back ([`Art::from_uop`]), every entry is the same bytes, and the art numbers are
/// `art.len()` again when that is at least 0x4000 + 65,535 (fewer become that many, the
/// rest empty, as the client sees any art UOP) and at most `art.len() - 0x4000` numbers
/// are used: the client counts a UOP's table entries + 0x4000 numbers, so a set using more
/// comes back with that many, the numbers past `art.len()` empty. An entry that cannot be read is left out
/// (its slot empty) and listed in the result.
///
/// Memory: the container, written once at its size, and 8 bytes a used entry.
///
/// Returns `Err` ([`ErrorKind::Write`]) for more numbers than the readers take
/// ([`gamedata_io::Limits::DEFAULT_MAX_RECORDS`] + 0x4000) or a container past 4 GiB.
pub fn art_to_uop(art: &Art<'_>) -> Result<Conversion<Vec<u8>>, DataError> {
    pictures_to_uop(&art_source(art), UopPictures::Art)
}

/// art.mul and artidx.mul, `(index, data)`, holding `art`'s entries byte for byte, one
/// index record an art number (`art.len()` of them), the index's third words 0, the
/// entries' bytes in the order they lie in the source; exact repeats share their bytes. An
/// art set this crate's writer made ([`write_art`]) comes back the same bytes through
/// [`art_to_uop`] and this when it has at least 0x4000 + 65,535 numbers, of which at most
/// all but 0x4000 are used (see [`art_to_uop`]). An entry that
/// cannot be read is left out (empty) and listed in the result.
///
/// Returns `Err` ([`ErrorKind::Write`]) for an art.mul past 4 GiB.
pub fn art_to_mul(art: &Art<'_>) -> Result<Conversion<MulData>, DataError> {
    pictures_to_mul(&art_source(art), "art.mul")
}

/// `art` as conversions read it: every entry's bytes, the third words 0.
fn art_source<'a>(
    art: &Art<'a>,
) -> PictureSource<'a, impl Fn(usize) -> Result<Entry<'a>, DataError>> {
    let art = art.clone();
    PictureSource {
        count: art.len(),
        data: art.data(),
        entry: move |n| Ok(art.entry(entry_number(n))?.map(|bytes| (bytes, 0))),
    }
}
