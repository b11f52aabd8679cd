//! Picture sets (art, gumps) between their MUL and UOP forms, byte for byte (the `write`
//! feature): the engine under [`art_to_uop`](crate::art::write::art_to_uop) and its kin.
//!
//! An entry that cannot be read is left out (written empty) and counted, so one bad entry
//! does not stop the others. Exact repeats (numbers naming the same bytes) are stored
//! once: the used entries are sorted by where their bytes start (8 bytes an entry, no map
//! by content), so a conversion holds its output, written once at its final size, and
//! 8 bytes a used entry; each distinct entry's bytes are read once more to be copied.
//! Source: `docs/formats/uo.md`, "Art" and "Gumps".

// Writers: their arithmetic is on the lengths of buffers in memory (each at most
// isize::MAX bytes) and small constants; every stored field goes through a checked
// conversion to its width, which refuses what does not fit.
#![allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use gamedata_io::{Limits, Problems};
use zerocopy::IntoBytes;

use crate::error::{DataError, ErrorKind, WriteProblem};
use crate::picture::ITEM_BASE;
use crate::picture::UopPictures;
use crate::raw::{EMPTY, UopEntryRaw};
use crate::uop::name_hash;
use crate::uop::write::UopLayout;

/// The bytes that copies of gumps over the same bytes as an earlier gump but with another
/// size may add to a gumpartLegacyMUL.uop (64 MiB): the UOP form stores a gump's size
/// before its data, so each such size is a copy of the bytes. A gump whose copy would pass
/// it is left out ([`WriteProblem::SizeCopies`]), so that an index naming one entry under
/// thousands of sizes cannot multiply the container. Real files have no such copies (a
/// gump's bytes fix its size).
pub const SIZE_COPIES_BUDGET: usize = 64 << 20;

/// A conversion's files and the entries it left out.
#[derive(Debug)]
pub struct Conversion<T> {
    /// The files written: the container, or `(index, data)`.
    pub files: T,
    /// The entries that could not be read, by number, each with its error: written empty.
    pub left_out: Problems<(usize, DataError)>,
}

/// A picture set's files in MUL form: `(index, data)`.
pub type MulData = (Vec<u8>, Vec<u8>);

/// An entry of a picture set as conversions take it: its bytes (inside the set's data) and
/// its index `extra`.
pub(crate) type Entry<'a> = Option<(&'a [u8], u32)>;

/// A picture set as conversions read it: `count` numbers whose bytes lie in `data`.
pub(crate) struct PictureSource<'a, F> {
    pub(crate) count: usize,
    pub(crate) data: &'a [u8],
    pub(crate) entry: F,
}

impl<'a, F: Fn(usize) -> Result<Entry<'a>, DataError>> PictureSource<'a, F> {
    /// Entry `number` when it can be read and is not empty, with where its bytes start in
    /// the data (below 4 GiB, as index records reach).
    fn good(&self, number: usize) -> Option<(u32, &'a [u8], u32)> {
        let (bytes, extra) = (self.entry)(number).ok()??;
        let start = bytes
            .as_ptr()
            .addr()
            .checked_sub(self.data.as_ptr().addr())?;
        Some((u32::try_from(start).ok()?, bytes, extra))
    }

    /// The entries that cannot be read, and how many can be and are not empty.
    fn survey(&self) -> (Problems<(usize, DataError)>, usize) {
        let mut left_out = Problems::new();
        let mut used = 0usize;
        for number in 0..self.count {
            match (self.entry)(number) {
                Ok(Some(_)) => used += 1,
                Ok(None) => {}
                Err(error) => left_out.push((number, error)),
            }
        }
        (left_out, used)
    }

    /// The used entries as `start << 32 | number`, sorted: exact repeats lie side by side
    /// (entries whose bytes overlap but exactly cannot be read). Of equal starts, the
    /// lower number first.
    fn by_start(&self, used: usize) -> Vec<u64> {
        let mut order = Vec::with_capacity(used);
        order.extend(
            (0..self.count)
                .filter_map(|n| Some((u64::from(self.good(n)?.0) << 32) | n as u64))
                .take(used),
        );
        order.sort_unstable();
        order
    }
}

/// The number in an element of [`PictureSource::by_start`].
fn number(element: u64) -> usize {
    (element & 0xFFFF_FFFF) as usize
}

/// The entries of a picture set in MUL form: an index of `source.count` records and the
/// data file `data_name`, each distinct entry's bytes written once, in the order they lie
/// in the source (the number order for a set this crate wrote), exact repeats pointing at
/// the same bytes, empty and left-out entries as offset and length 0xFFFFFFFF.
///
/// Returns `Err` ([`ErrorKind::Write`]) for more numbers than 32 bits count or a data file
/// past 4 GiB.
pub(crate) fn pictures_to_mul<'a>(
    source: &PictureSource<'a, impl Fn(usize) -> Result<Entry<'a>, DataError>>,
    data_name: &'static str,
) -> Result<Conversion<MulData>, DataError> {
    too_many(data_name, source.count as u64, u64::from(u32::MAX))?;
    let (left_out, used) = source.survey();
    let order = source.by_start(used);
    let mut index = Vec::with_capacity(source.count * 12);
    for number in 0..source.count {
        let (length, extra) = match source.good(number) {
            Some((_, bytes, extra)) => (length(data_name, bytes.len())?, extra),
            None => (EMPTY, 0),
        };
        // Offsets are set below, once the bytes are placed.
        index.extend_from_slice(&EMPTY.to_le_bytes());
        index.extend_from_slice(&length.to_le_bytes());
        index.extend_from_slice(&extra.to_le_bytes());
    }
    let groups = || order.chunk_by(|a, b| a >> 32 == b >> 32);
    let data_len: usize = groups()
        .filter_map(|g| source.good(number(*g.first()?)))
        .map(|(_, bytes, _)| bytes.len())
        .sum();
    // 0xFFFFFFFF marks an empty entry: every byte must lie before it.
    too_many(data_name, data_len as u64, u64::from(EMPTY))?;
    let mut data = Vec::with_capacity(data_len);
    for group in groups() {
        let Some((_, bytes, _)) = group.first().and_then(|&g| source.good(number(g))) else {
            continue;
        };
        let offset = u32::try_from(data.len()).unwrap_or(EMPTY);
        data.extend_from_slice(bytes);
        for &element in group {
            let at = number(element) * 12;
            index[at..at + 4].copy_from_slice(&offset.to_le_bytes());
        }
    }
    Ok(Conversion {
        files: (index, data),
        left_out,
    })
}

/// The entries of a picture set as a UOP of `pictures`: entry `number` named as slot
/// `number` (`build/artlegacymul/{number:08}.tga` ...), stored as is, the table in number
/// order, each distinct entry's bytes once in the order they lie in the source, exact
/// repeats pointing at the same bytes; a gump's size (`extra`'s halves) as i32 width and
/// height before its data, so that gumps over the same bytes with different sizes are
/// stored once a size. The table blocks' counts add up to `source.count - 0x4000` when
/// that is the larger, so that the client's slots (`max(entries, 65,535) + 0x4000`) are
/// `source.count` again.
///
/// Returns `Err` ([`ErrorKind::Write`]) for a table past what the readers take
/// ([`Limits::DEFAULT_MAX_RECORDS`] entries) or a container past 4 GiB.
pub(crate) fn pictures_to_uop<'a>(
    source: &PictureSource<'a, impl Fn(usize) -> Result<Entry<'a>, DataError>>,
    pictures: UopPictures,
) -> Result<Conversion<Vec<u8>>, DataError> {
    let what = pictures.file_name();
    let (mut left_out, used) = source.survey();
    let gumps = pictures == UopPictures::Gumps;
    let prefix = if gumps { 8 } else { 0 };
    let mut order = source.by_start(used);
    let extra_of = |element: u64| source.good(number(element)).map_or(0, |(_, _, e)| e);
    if gumps {
        // Gumps over the same bytes with different sizes are stored once a size.
        for run in order.chunk_by_mut(|a, b| a >> 32 == b >> 32) {
            if run.len() > 1 {
                run.sort_unstable_by_key(|&e| (extra_of(e), e));
            }
        }
        keep_size_copies_within_budget(source, &mut order, &mut left_out);
    }
    let used = order.len();
    let places = source.count.saturating_sub(ITEM_BASE).max(used);
    too_many(what, places as u64, Limits::DEFAULT_MAX_RECORDS)?;
    let same = |a: &u64, b: &u64| a >> 32 == b >> 32 && (!gumps || extra_of(*a) == extra_of(*b));
    let layout = UopLayout::new(places);
    let data_len: usize = order
        .chunk_by(same)
        .filter_map(|g| source.good(number(*g.first()?)))
        .map(|(_, bytes, _)| bytes.len() + prefix)
        .sum();
    too_many(
        what,
        (layout.data_start() + data_len) as u64,
        u64::from(u32::MAX),
    )?;
    let mut out = Vec::with_capacity(layout.data_start() + data_len);
    layout.write_tables(&mut out, used);
    let ranks = Ranks::new(source.count, order.iter().map(|&e| number(e)));
    let mut name = String::new();
    for group in order.chunk_by(same) {
        let Some((_, bytes, extra)) = group.first().and_then(|&g| source.good(number(g))) else {
            continue;
        };
        let offset = out.len();
        if gumps {
            let [h0, h1, w0, w1] = extra.to_le_bytes();
            out.extend_from_slice(&i32::from(u16::from_le_bytes([w0, w1])).to_le_bytes());
            out.extend_from_slice(&i32::from(u16::from_le_bytes([h0, h1])).to_le_bytes());
        }
        out.extend_from_slice(bytes);
        let stored = &out[offset..];
        let len = length(what, stored.len())?;
        let adler = adler2::adler32_slice(stored);
        for &element in group {
            let number = number(element);
            pictures.write_entry_name(&mut name, number);
            let raw = UopEntryRaw {
                offset: (offset as u64).into(),
                header_len: 0.into(),
                compressed_len: len.into(),
                decompressed_len: len.into(),
                hash: name_hash(&name).into(),
                adler32: adler.into(),
                compression: 0.into(),
            };
            let at = layout.entry_at(ranks.rank(number));
            if let Some(place) = out.get_mut(at..at + size_of::<UopEntryRaw>()) {
                place.copy_from_slice(raw.as_bytes());
            }
        }
    }
    Ok(Conversion {
        files: out,
        left_out,
    })
}

/// Leaves out of `order` (sorted by start, then size, then number) the gumps whose copy
/// under a second or later size over the same bytes would take such copies past
/// [`SIZE_COPIES_BUDGET`], each pushed to `left_out`; the first size over a start is free.
fn keep_size_copies_within_budget<'a>(
    source: &PictureSource<'a, impl Fn(usize) -> Result<Entry<'a>, DataError>>,
    order: &mut Vec<u64>,
    left_out: &mut Problems<(usize, DataError)>,
) {
    let mut copies = 0usize;
    // The start and size of the element before, and whether its group was kept.
    let mut before: Option<(u64, u32, bool)> = None;
    order.retain(|&element| {
        let Some((_, bytes, extra)) = source.good(number(element)) else {
            return false;
        };
        let start = element >> 32;
        let keep = match before {
            Some((s, e, kept)) if s == start && e == extra => kept,
            Some((s, _, _)) if s == start => {
                let cost = bytes.len() + 8;
                let fits = copies + cost <= SIZE_COPIES_BUDGET;
                if fits {
                    copies += cost;
                }
                fits
            }
            _ => true,
        };
        before = Some((start, extra, keep));
        if !keep {
            let number = number(element);
            let problem = WriteProblem::SizeCopies {
                number,
                budget: SIZE_COPIES_BUDGET,
            };
            left_out.push((number, ErrorKind::Write(problem).into()));
        }
        keep
    });
}

/// `Err` ([`WriteProblem::TooLarge`]) naming `what` if `found` passes `most`.
fn too_many(what: &'static str, found: u64, most: u64) -> Result<(), DataError> {
    if found > most {
        return Err(ErrorKind::Write(WriteProblem::TooLarge { what, found }).into());
    }
    Ok(())
}

/// An entry's length as stored, or `Err` ([`WriteProblem::TooLarge`]) past 32 bits.
fn length(what: &'static str, len: usize) -> Result<u32, DataError> {
    u32::try_from(len)
        .ok()
        .filter(|&l| l != EMPTY)
        .ok_or_else(|| {
            ErrorKind::Write(WriteProblem::TooLarge {
                what,
                found: len as u64,
            })
            .into()
        })
}

/// Which numbers are used, with how many are before each 64: a used number's place among
/// the used ones in constant time, in 3 bits a number.
struct Ranks {
    words: Vec<u64>,
    before: Vec<u32>,
}

impl Ranks {
    fn new(count: usize, used: impl Iterator<Item = usize>) -> Self {
        let mut words = vec![0u64; count.div_ceil(64)];
        for n in used {
            if let Some(word) = words.get_mut(n / 64) {
                *word |= 1 << (n % 64);
            }
        }
        let mut total = 0u32;
        let before = words
            .iter()
            .map(|w| {
                let here = total;
                total += w.count_ones();
                here
            })
            .collect();
        Ranks { words, before }
    }

    /// Used numbers below `n`.
    fn rank(&self, n: usize) -> usize {
        let (word, bit) = (n / 64, n % 64);
        let below = self
            .words
            .get(word)
            .map_or(0, |w| (w & ((1u64 << bit) - 1)).count_ones());
        self.before.get(word).map_or(0, |&b| b as usize) + below as usize
    }
}

/// Entry `n` of a picture set as the readers number entries (`u32`); an `n` past
/// `u32::MAX` is past every index, as `u32::MAX` is.
pub(crate) fn entry_number(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
