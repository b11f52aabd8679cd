//! The texture map writer (the `write` feature): texmaps.mul and texidx.mul from pictures,
//! in the layout the readers take (`docs/formats/uo.md`, "Texture maps"), for tests and
//! synthetic files.

// Writers: their arithmetic is on the lengths of buffers in memory (each at most
// isize::MAX bytes), sides of 64 or 128 and small constants; every stored field goes
// through a checked conversion to its width, which refuses what does not fit.
#![allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use crate::error::{DataError, ErrorKind, WriteProblem};
use crate::raw::EMPTY;
use crate::texmap::{LARGE_LEN, LARGE_SIDE, SMALL_LEN, SMALL_SIDE};

/// One texture map id's picture, as [`write_texmaps`] takes it.
#[derive(Clone, Copy, Debug)]
pub enum TexmapPicture<'a> {
    /// No picture: the index entry is empty (offset and length 0xFFFFFFFF).
    Empty,
    /// A square of raw 16-bit pixels row by row: 4,096 of them (64 x 64) or 16,384
    /// (128 x 128), written as they are (bit 15 included).
    Pixels(&'a [u16]),
    /// The same bytes as an earlier id's (an index entry repeated exactly, as editors write
    /// one picture under several ids).
    Repeat(usize),
}

/// texmaps.mul and texidx.mul holding `texmaps`, picture i under id i: each picture's
/// pixels as they are, 0x2000 bytes for 64 x 64 and 0x8000 for 128 x 128, one after
/// another. The index's extra is 1 for the large ones and 0 for the others, as the SDK
/// writes it (the client does not read it).
///
/// Returns `(texidx.mul, texmaps.mul)`, or `Err` ([`ErrorKind::Write`]) for a picture of
/// neither 4,096 nor 16,384 pixels ([`WriteProblem::TexmapPixels`]), a repeat of no
/// earlier id ([`WriteProblem::TexmapRepeat`]) or a texmaps.mul past 4 GiB
/// ([`WriteProblem::TooLarge`]).
pub fn write_texmaps(texmaps: &[TexmapPicture<'_>]) -> Result<(Vec<u8>, Vec<u8>), DataError> {
    let bad = |problem| DataError::from(ErrorKind::Write(problem));
    let mut index = Vec::with_capacity(texmaps.len().saturating_mul(12));
    let mut data = Vec::new();
    let mut placed: Vec<[u32; 3]> = Vec::with_capacity(texmaps.len());
    for (id, picture) in texmaps.iter().enumerate() {
        let record = match *picture {
            TexmapPicture::Empty => [EMPTY, EMPTY, 0],
            // `placed` holds the entries before this one: a repeat of this or a later
            // one finds nothing.
            TexmapPicture::Repeat(earlier) => *placed
                .get(earlier)
                .ok_or(bad(WriteProblem::TexmapRepeat { id, earlier }))?,
            TexmapPicture::Pixels(pixels) => {
                let bytes = pixels.len() * 2;
                if bytes != SMALL_LEN && bytes != LARGE_LEN {
                    return Err(bad(WriteProblem::TexmapPixels {
                        id,
                        found: pixels.len(),
                    }));
                }
                let start = data.len();
                for &p in pixels {
                    data.extend_from_slice(&p.to_le_bytes());
                }
                let too_large = || {
                    bad(WriteProblem::TooLarge {
                        what: "texmaps.mul",
                        found: data.len() as u64,
                    })
                };
                let offset = u32::try_from(start).map_err(|_| too_large())?;
                u32::try_from(data.len()).map_err(|_| too_large())?;
                // Below 0x8001: fits.
                let length = u32::try_from(bytes).map_err(|_| too_large())?;
                [offset, length, u32::from(bytes == LARGE_LEN)]
            }
        };
        placed.push(record);
        for field in record {
            index.extend_from_slice(&field.to_le_bytes());
        }
    }
    Ok((index, data))
}

/// Texture map ids [`synthetic_texmaps`] writes (0 to 299).
pub const SYNTHETIC_TEXMAPS: usize = 300;

/// A synthetic set of texture maps, `(texidx.mul, texmaps.mul)`: ids 0 to 299, those
/// divisible by 4 128 x 128 pixels, the others 64 x 64; ids 15, 31, 47 ... (16 n + 15) are
/// empty, and id 250 repeats id 12 exactly (as editors write them). Each is a checkerboard
/// of 8-pixel squares: colour 0 (black) on the squares whose column and row add up to an
/// even number, elsewhere red x * 31 / (side - 1) (0 to 31 left to right), green
/// y * 31 / (side - 1) (0 to 31 top to bottom) and a blue of the id's own, with bit 15 set
/// on every other pixel (the readers ignore it). The same seed gives the same bytes.
pub fn synthetic_texmaps(seed: u64) -> (Vec<u8>, Vec<u8>) {
    synthetic_texmaps_overlaid(seed, &[])
}

/// [`synthetic_texmaps`] with `overlay`'s pictures, `(id, picture)`, in place of the set's
/// at those ids, the set grown (with empty entries) to hold the highest. The other ids hold
/// what [`synthetic_texmaps`] gives them. An overlay the writer refuses
/// ([`write_texmaps`]) gives two empty files.
// Channels are masked to 5 bits: the casts cut nothing needed.
#[allow(clippy::cast_possible_truncation)]
pub fn synthetic_texmaps_overlaid(
    seed: u64,
    overlay: &[(usize, TexmapPicture<'_>)],
) -> (Vec<u8>, Vec<u8>) {
    let mut next = crate::synth::picture_numbers(seed, crate::synth::PictureSet::Texmaps);
    let pictures: Vec<Vec<u16>> = (0..SYNTHETIC_TEXMAPS)
        .map(|id| {
            let side = if id % 4 == 0 { LARGE_SIDE } else { SMALL_SIDE } as usize;
            let blue = (next() & 0x1F) as u16;
            (0..side * side)
                .map(|i| {
                    let (x, y) = (i % side, i / side);
                    if (x / 8 + y / 8) % 2 == 0 {
                        return 0;
                    }
                    let red = (x * 31 / (side - 1)) as u16;
                    let green = (y * 31 / (side - 1)) as u16;
                    let high = if (x + y) % 2 == 1 { 0x8000 } else { 0 };
                    high | red << 10 | green << 5 | blue
                })
                .collect()
        })
        .collect();
    let mut texmaps: Vec<TexmapPicture<'_>> =
        pictures.iter().map(|p| TexmapPicture::Pixels(p)).collect();
    for id in (15..SYNTHETIC_TEXMAPS).step_by(16) {
        texmaps[id] = TexmapPicture::Empty;
    }
    texmaps[250] = TexmapPicture::Repeat(12);
    let last = overlay.iter().map(|&(id, _)| id + 1).max().unwrap_or(0);
    if last > texmaps.len() {
        texmaps.resize(last, TexmapPicture::Empty);
    }
    for &(id, picture) in overlay {
        texmaps[id] = picture;
    }
    // Every picture above is within the writer's bounds.
    write_texmaps(&texmaps).unwrap_or_default()
}
