//! UOP containers ("MYP"): the packages clients since 2010 ship their maps (and art, gumps,
//! sounds, multis) in. A 28-byte header points at a chain of table blocks; each entry gives
//! a file's offset, stored and decoded sizes, the 64-bit hash of its name (names are not
//! stored), an Adler-32 and the compression. Map UOPs hold the MUL map in chunks of 4,096
//! blocks named `build/map{N}legacymul/{i:08}.dat`. Source: `docs/formats/uo.md`, "UOP".
//!
//! [`Uop`] is the view over a container's bytes, [`UopFile`] the owner of one container
//! (read, mapped or handed over; [`UopContents`] its checked bytes), and [`write`](mod@write) (the
//! `write` feature) the layout this crate's writers give the UOPs they make.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use gamedata_io::{
    Bytes, FileData, FileOptions, Format, InflateError, Limits, Owned, inflate_exact,
};

use crate::error::{DataError, ErrorKind, OverlapWith, Result, UopEntryProblem, UopTableProblem};
use crate::raw::{UOP_MAGIC, UopEntryRaw, UopHeader, UopTableHeader};

mod ranged;
#[cfg(feature = "write")]
pub mod write;

pub(crate) use ranged::Source;
pub use ranged::{UopFetch, UopTables};

/// A container's chain of table blocks, checked: the magic, each block inside the file, none
/// overlapping the 28-byte header or another block (so the chain cannot loop, and no entry
/// is read twice), and the entries within `limits.max_records`.
///
/// Checking keeps 8 bytes a block (its offset) while it runs, and nothing after: a block is
/// at least 12 bytes of the file. Time: two walks of the chain and a sort of the offsets.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TableChain<'data> {
    source: Source<'data>,
    first: u64,
    /// Blocks in the chain.
    pub(crate) blocks: usize,
    /// Entries the blocks declare, used and unused.
    pub(crate) entries: usize,
}

/// One table block of a checked chain.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TableBlock<'data> {
    /// The table position of the block's first entry (unused entries counted).
    pub(crate) first_index: usize,
    /// Where its entries start in the file.
    pub(crate) entries_at: usize,
    /// Its entries, used and unused.
    pub(crate) raw: &'data [UopEntryRaw],
}

impl<'data> TableBlock<'data> {
    /// The used entries (offset not 0) with their table positions.
    pub(crate) fn entries(&self) -> impl Iterator<Item = (usize, &'data UopEntryRaw)> + use<'data> {
        let first = self.first_index;
        self.raw
            .iter()
            .enumerate()
            .filter(|(_, raw)| raw.offset.get() != 0)
            // Positions are at most one a 34 bytes of the file: no overflow.
            .map(move |(k, raw)| (first.saturating_add(k), raw))
    }
}

impl<'data> TableChain<'data> {
    /// Checks the header and chain of the container `source` (see [`Uop::parse`] for
    /// the errors).
    pub(crate) fn check(
        source: Source<'data>,
        limits: &Limits,
    ) -> Result<(&'data UopHeader, Self), DataError> {
        let header = source
            .read_at::<UopHeader>(0)
            .map_err(|_| ErrorKind::UopMagic {
                found: source.bytes_at(0, source.len().min(4)).map_or(0, |b| {
                    b.iter().rev().fold(0, |w, &x| (w << 8) | u32::from(x))
                }),
            })?;
        if header.magic.get() != UOP_MAGIC {
            return Err(ErrorKind::UopMagic {
                found: header.magic.get(),
            }
            .into());
        }
        let first = header.first_table.get();
        // Blocks that do not overlap each other or the header: at most this many fit, so a
        // longer chain holds an overlap (a loop is one), found below among the offsets kept.
        // Read by ranges, a chain past twice the blocks read (plus one) has come back to one
        // of them, and every block of the loop has been met twice: the same first overlap
        // in file order as the longer walk finds, for a walk within what was read.
        let room = (source.len().saturating_sub(size_of::<UopHeader>()))
            .checked_div(size_of::<UopTableHeader>())
            .unwrap_or(0)
            .min(source.max_walk());
        let mut starts = Vec::new();
        let mut next = first;
        let mut entries = 0u64;
        // The first block at which the entries pass the limit, reported once the chain is
        // known not to overlap itself (an overlap is the cause to name).
        let mut past_limit = None;
        while next != 0 {
            let block = starts.len();
            let (count, end, after) = block_at(&source, block, next)?;
            if next < size_of::<UopHeader>() as u64 {
                return Err(table_error(
                    block,
                    next,
                    UopTableProblem::Overlap {
                        start: next,
                        end,
                        other_start: 0,
                        other_end: size_of::<UopHeader>() as u64,
                        other: OverlapWith::Header,
                    },
                ));
            }
            starts.push(next);
            entries = entries.saturating_add(u64::from(count));
            if past_limit.is_none()
                && let Err(e) = limits.check_records("UOP table entries", entries)
            {
                past_limit = Some(table_error(block, next, UopTableProblem::Limit(e)));
            }
            if starts.len() > room {
                break;
            }
            next = after;
        }
        let chain = TableChain {
            source,
            first,
            blocks: starts.len(),
            entries: usize::try_from(entries).unwrap_or(usize::MAX),
        };
        starts.sort_unstable();
        let overlap = starts.windows(2).find_map(|pair| match *pair {
            [a, b] => {
                let a_end = block_at(&source, 0, a).map_or(u64::MAX, |(_, end, _)| end);
                (a_end > b).then_some((a, a_end, b))
            }
            _ => None,
        });
        drop(starts);
        if let Some((a, a_end, b)) = overlap {
            return Err(chain.overlap_error(a, a_end, b));
        }
        match past_limit {
            Some(error) => Err(error),
            None => Ok((header, chain)),
        }
    }

    /// The blocks in chain order.
    pub(crate) fn blocks(&self) -> impl Iterator<Item = TableBlock<'data>> + use<'data> {
        let bytes = self.source;
        let mut next = self.first;
        let mut first_index = 0usize;
        (0..self.blocks).map_while(move |_| {
            let at = usize::try_from(next).ok()?;
            let table = bytes.read_at::<UopTableHeader>(at).ok()?;
            let entries_at = at.checked_add(size_of::<UopTableHeader>())?;
            let raw = bytes
                .slice_at::<UopEntryRaw>(entries_at, table.count.get() as usize)
                .ok()?;
            let block = TableBlock {
                first_index,
                entries_at,
                raw,
            };
            first_index = first_index.saturating_add(raw.len());
            next = table.next.get();
            Some(block)
        })
    }

    /// The error for blocks starting at `a` (ending at `a_end`) and `b` overlapping, named
    /// by their places in the chain: the later one overlaps the earlier one (a block met
    /// twice, as in a loop, overlaps its first meeting).
    fn overlap_error(&self, a: u64, a_end: u64, b: u64) -> DataError {
        let mut places = self.starts().enumerate();
        let first_a = places.find(|&(_, s)| s == a).map_or(0, |(n, _)| n);
        let first_b = if a == b {
            places.find(|&(_, s)| s == b)
        } else {
            self.starts().enumerate().find(|&(_, s)| s == b)
        }
        .map_or(0, |(n, _)| n);
        let b_end = block_at(&self.source, 0, b).map_or(u64::MAX, |(_, end, _)| end);
        let ((block, start, end), (other, other_start, other_end)) = if first_b > first_a {
            ((first_b, b, b_end), (first_a, a, a_end))
        } else {
            ((first_a, a, a_end), (first_b, b, b_end))
        };
        table_error(
            block,
            start,
            UopTableProblem::Overlap {
                start,
                end,
                other_start,
                other_end,
                other: OverlapWith::Block(other),
            },
        )
    }

    /// The blocks' offsets in chain order.
    fn starts(&self) -> impl Iterator<Item = u64> + use<'data> {
        let bytes = self.source;
        let mut next = self.first;
        (0..self.blocks).map_while(move |_| {
            let at = next;
            next = bytes
                .read_at::<UopTableHeader>(usize::try_from(at).ok()?)
                .ok()?
                .next
                .get();
            Some(at)
        })
    }
}

/// Where entry `raw`'s stored bytes lie (after its entry header) in a file of `file_len`
/// bytes; `None` if outside it.
pub(crate) fn stored_range(raw: &UopEntryRaw, file_len: usize) -> Option<std::ops::Range<usize>> {
    let len = raw.compressed_len.get() as usize;
    raw.offset
        .get()
        .checked_add(u64::from(raw.header_len.get()))
        .and_then(|s| usize::try_from(s).ok())
        .and_then(|s| Some(s..s.checked_add(len)?))
        .filter(|r| r.end <= file_len)
}

fn table_error(block: usize, offset: u64, problem: UopTableProblem) -> DataError {
    ErrorKind::UopTable {
        block,
        offset,
        problem,
    }
    .into()
}

/// The block at `at` (number `block` in the chain, for errors): its entry count, where its
/// last entry ends and the next block's offset. Its header is read; its entries are only
/// measured against the file's length (read when the blocks are walked).
///
/// Returns `Err` ([`ErrorKind::UopTable`]) if its header or entries do not fit in the file.
fn block_at(source: &Source<'_>, block: usize, at: u64) -> Result<(u32, u64, u64), DataError> {
    let error = |problem| table_error(block, at, problem);
    let start = usize::try_from(at).map_err(|_| error(UopTableProblem::OffsetTooLarge))?;
    let table = source
        .read_at::<UopTableHeader>(start)
        .map_err(|e| error(UopTableProblem::Header(e)))?;
    let count = table.count.get();
    let entries_at = start.saturating_add(size_of::<UopTableHeader>());
    let size = (count as usize).checked_mul(size_of::<UopEntryRaw>());
    let end = size
        .and_then(|size| entries_at.checked_add(size))
        .filter(|&end| end <= source.len())
        .ok_or_else(|| {
            error(UopTableProblem::Entries {
                count,
                read: gamedata_io::ReadError {
                    offset: entries_at as u64,
                    size: size.map_or(u64::MAX, |s| s as u64),
                    len: source.len() as u64,
                },
            })
        })?;
    Ok((count, end as u64, table.next.get()))
}

/// Bob Jenkins' lookup3 `hashlittle2` over `key` with the two seeds `pc` (primary) and
/// `pb` (secondary); returns `(c, b)`. Source: lookup3.c (public domain, 2006).
pub fn hashlittle2(key: &[u8], pc: u32, pb: u32) -> (u32, u32) {
    // Lengths are taken modulo 2^32, as the C code's `size_t` is added to a `uint32_t`.
    let len = (key.len() as u64 & 0xFFFF_FFFF) as u32;
    let mut a = 0xDEAD_BEEFu32.wrapping_add(len).wrapping_add(pc);
    let mut b = a;
    let mut c = a.wrapping_add(pb);
    let word = |bytes: &[u8]| {
        let mut w = [0u8; 4];
        for (slot, &byte) in w.iter_mut().zip(bytes) {
            *slot = byte;
        }
        u32::from_le_bytes(w)
    };
    let mut rest = key;
    while rest.len() > 12 {
        let (block, tail) = rest.split_at(12);
        a = a.wrapping_add(word(block.get(0..4).unwrap_or_default()));
        b = b.wrapping_add(word(block.get(4..8).unwrap_or_default()));
        c = c.wrapping_add(word(block.get(8..12).unwrap_or_default()));
        mix(&mut a, &mut b, &mut c);
        rest = tail;
    }
    if rest.is_empty() {
        // Zero bytes left (only for an empty key): no final mixing.
        return (c, b);
    }
    // The last 1 to 12 bytes, zero-padded, added as three little-endian words.
    // (`word` takes at most four bytes of what it is given.)
    a = a.wrapping_add(word(rest));
    b = b.wrapping_add(word(rest.get(4..).unwrap_or_default()));
    c = c.wrapping_add(word(rest.get(8..).unwrap_or_default()));
    finish(&mut a, &mut b, &mut c);
    (c, b)
}

fn mix(a: &mut u32, b: &mut u32, c: &mut u32) {
    *a = a.wrapping_sub(*c);
    *a ^= c.rotate_left(4);
    *c = c.wrapping_add(*b);
    *b = b.wrapping_sub(*a);
    *b ^= a.rotate_left(6);
    *a = a.wrapping_add(*c);
    *c = c.wrapping_sub(*b);
    *c ^= b.rotate_left(8);
    *b = b.wrapping_add(*a);
    *a = a.wrapping_sub(*c);
    *a ^= c.rotate_left(16);
    *c = c.wrapping_add(*b);
    *b = b.wrapping_sub(*a);
    *b ^= a.rotate_left(19);
    *a = a.wrapping_add(*c);
    *c = c.wrapping_sub(*b);
    *c ^= b.rotate_left(4);
    *b = b.wrapping_add(*a);
}

fn finish(a: &mut u32, b: &mut u32, c: &mut u32) {
    *c ^= *b;
    *c = c.wrapping_sub(b.rotate_left(14));
    *a ^= *c;
    *a = a.wrapping_sub(c.rotate_left(11));
    *b ^= *a;
    *b = b.wrapping_sub(a.rotate_left(25));
    *c ^= *b;
    *c = c.wrapping_sub(b.rotate_left(16));
    *a ^= *c;
    *a = a.wrapping_sub(c.rotate_left(4));
    *b ^= *a;
    *b = b.wrapping_sub(a.rotate_left(14));
    *c ^= *b;
    *c = c.wrapping_sub(b.rotate_left(24));
}

/// The 64-bit hash a UOP entry is found by: `hashlittle2` of the ASCII name with both seeds
/// 0, combined as `(b << 32) | c`.
pub fn name_hash(name: &str) -> u64 {
    let (c, b) = hashlittle2(name.as_bytes(), 0, 0);
    (u64::from(b) << 32) | u64::from(c)
}

/// How an entry's data is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compression {
    /// As is.
    None,
    /// A zlib stream.
    Zlib,
    /// A value this crate does not know, kept.
    Other(u16),
}

impl Compression {
    /// The stored value's meaning.
    pub fn from_raw(value: u16) -> Self {
        match value {
            0 => Compression::None,
            1 => Compression::Zlib,
            other => Compression::Other(other),
        }
    }

    /// The name in reports: `none`, `zlib`, `other`.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Zlib => "zlib",
            Compression::Other(_) => "other",
        }
    }
}

/// One used entry of the table.
#[derive(Clone, Copy)]
pub struct UopEntry<'data> {
    raw: &'data UopEntryRaw,
    index: usize,
}

impl fmt::Debug for UopEntry<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UopEntry")
            .field("index", &self.index)
            .field("hash", &format_args!("{:#018x}", self.hash()))
            .field("offset", &self.raw.offset.get())
            .field("stored", &self.raw.compressed_len.get())
            .finish_non_exhaustive()
    }
}

impl<'data> UopEntry<'data> {
    /// The entry `raw` at table position `index` (unused entries counted), as a table
    /// read gives it: for a caller that kept the raw entry of
    /// [`UopTables::entries`](crate::uop::UopTables::entries).
    pub fn new(raw: &'data UopEntryRaw, index: usize) -> Self {
        UopEntry { raw, index }
    }

    /// The raw 34-byte entry.
    pub fn raw(&self) -> &'data UopEntryRaw {
        self.raw
    }

    /// The entry's position in the table (unused entries counted), from 0.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The name hash.
    pub fn hash(&self) -> u64 {
        self.raw.hash.get()
    }

    /// How the data is stored.
    pub fn compression(&self) -> Compression {
        Compression::from_raw(self.raw.compression.get())
    }

    pub(crate) fn error(&self, problem: UopEntryProblem) -> DataError {
        ErrorKind::UopEntry {
            index: self.index,
            hash: self.hash(),
            problem,
        }
        .into()
    }
}

/// A UOP container: the table read once into a hash lookup; each entry's data is read on
/// request, so a bad entry does not hide the others.
pub struct Uop<'data> {
    data: &'data [u8],
    header: &'data UopHeader,
    entries: Vec<UopEntry<'data>>,
    by_hash: HashMap<u64, usize>,
    table_blocks: usize,
    table_entries: usize,
}

impl fmt::Debug for Uop<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Uop")
            .field("entries", &self.entries.len())
            .field("table_blocks", &self.table_blocks)
            .finish_non_exhaustive()
    }
}

impl<'data> Uop<'data> {
    /// Reads the header and follows the chain of table blocks from the header's offset
    /// (never assuming where the first lies). Unused entries (offset 0) are skipped; the
    /// last entry with a hash wins the lookup.
    ///
    /// Table blocks may not overlap the header or each other (a chain that comes back to a
    /// block is one case), so the entries read are never more than the file's bytes hold:
    /// one a 34 bytes. The chain is checked before any entry is read, keeping 8 bytes a
    /// block (a block is at least 12 bytes); the table then costs 16 bytes a used entry and
    /// a hash map entry by name. Time is linear in the file's length but a sort of the
    /// blocks' offsets.
    ///
    /// Returns `Err` ([`ErrorKind::UopMagic`]) if the file is not a UOP container, or
    /// ([`ErrorKind::UopTable`]) if a table block lies outside the file, holds more entries than
    /// fit, overlaps the header or another block ([`UopTableProblem::Overlap`]: the later of
    /// the two in the chain is named, and of several such pairs the one starting first in
    /// the file), or the entries pass `limits.max_records`.
    pub fn parse(data: &'data [u8], limits: &Limits) -> Result<Self, DataError> {
        let (header, chain) = TableChain::check(Source::Whole(Bytes::new(data)), limits)?;
        let mut entries = Vec::new();
        for block in chain.blocks() {
            for (index, raw) in block.entries() {
                entries.push(UopEntry { raw, index });
            }
        }
        let by_hash = entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.hash(), i))
            .collect();
        Ok(Uop {
            data,
            header,
            entries,
            by_hash,
            table_blocks: chain.blocks,
            table_entries: chain.entries,
        })
    }

    /// The container's bytes, which stored entries lie in.
    pub fn data(&self) -> &'data [u8] {
        self.data
    }

    /// The header.
    pub fn header(&self) -> &'data UopHeader {
        self.header
    }

    /// The used entries in table order.
    pub fn entries(&self) -> &[UopEntry<'data>] {
        &self.entries
    }

    /// Table blocks read.
    pub fn table_blocks(&self) -> usize {
        self.table_blocks
    }

    /// Entries the table blocks declare, used and unused alike (the sum of the blocks'
    /// counts): what the client sizes an art or gump table by (`docs/formats/uo.md`, "Art").
    pub fn table_entries(&self) -> usize {
        self.table_entries
    }

    /// The entry whose name hashes to `hash`.
    pub fn find(&self, hash: u64) -> Option<&UopEntry<'data>> {
        self.entries.get(*self.by_hash.get(&hash)?)
    }

    /// The entry named `name`.
    pub fn find_name(&self, name: &str) -> Option<&UopEntry<'data>> {
        self.find(name_hash(name))
    }

    /// Where the entry's stored bytes lie in the file (after its entry header).
    ///
    /// Returns `Err` ([`ErrorKind::UopEntry`]) if they lie outside the file.
    pub fn stored_range(
        &self,
        entry: &UopEntry<'data>,
    ) -> Result<std::ops::Range<usize>, DataError> {
        let raw = entry.raw;
        stored_range(raw, self.data.len()).ok_or_else(|| {
            entry.error(UopEntryProblem::OutsideFile {
                len: raw.compressed_len.get(),
                offset: raw.offset.get(),
                header_len: raw.header_len.get(),
                file_len: self.data.len() as u64,
            })
        })
    }

    /// The entry's bytes as stored, in place.
    ///
    /// Returns `Err` as [`Uop::stored_range`].
    pub fn stored(&self, entry: &UopEntry<'data>) -> Result<&'data [u8], DataError> {
        let range = self.stored_range(entry)?;
        Ok(self.data.get(range).unwrap_or_default())
    }

    /// The entry's contents: in place when stored as is, decompressed (within
    /// `limits.max_decoded_bytes`) when zlib.
    ///
    /// Returns `Err` ([`ErrorKind::UopEntry`]) if the bytes lie outside the file, the
    /// compression is unknown, the stream is bad, or the decoded length is not the
    /// entry's; ([`ErrorKind::Limit`]) if the declared length passes the limit.
    pub fn contents(
        &self,
        entry: &UopEntry<'data>,
        limits: &Limits,
    ) -> Result<Cow<'data, [u8]>, DataError> {
        let stored = self.stored(entry)?;
        let declared = entry.raw.decompressed_len.get();
        match entry.compression() {
            Compression::None => Ok(Cow::Borrowed(stored)),
            Compression::Zlib => {
                match inflate_exact("a UOP entry", stored, u64::from(declared), &[], limits) {
                    Ok(inflated) => Ok(Cow::Owned(inflated.data)),
                    Err(InflateError::Limit(limit)) => Err(limit.into()),
                    Err(other) => Err(entry.error(UopEntryProblem::Inflate(other))),
                }
            }
            Compression::Other(value) => {
                Err(entry.error(UopEntryProblem::UnknownCompression(value)))
            }
        }
    }

    /// True if the Adler-32 of the stored bytes is the entry's.
    ///
    /// Returns `Err` as [`Uop::stored`].
    pub fn check_adler32(&self, entry: &UopEntry<'data>) -> Result<bool, DataError> {
        Ok(adler2::adler32_slice(self.stored(entry)?) == entry.raw.adler32.get())
    }
}

/// A UOP container, owned ([`Owned`] of [`UopContents`]; view: [`Uop`]). Its table is read
/// at opening and again by each `view` (linear in the file's length).
pub type UopFile = Owned<UopContents>;

/// A UOP container's bytes, checked within the options' limits ([`Uop::parse`]).
#[derive(Debug)]
pub struct UopContents {
    data: FileData,
    options: FileOptions,
}

impl Format for UopContents {
    type Options = FileOptions;
    type Kind = ErrorKind;
    type View<'data> = Uop<'data>;

    fn from_file(data: FileData, options: &FileOptions) -> Result<Self, DataError> {
        Uop::parse(&data, &options.limits)?;
        Ok(UopContents {
            data,
            options: *options,
        })
    }

    fn view(&self) -> Result<Uop<'_>, DataError> {
        Uop::parse(&self.data, &self.options.limits)
    }
}

impl UopContents {
    /// The bytes.
    pub fn data(&self) -> &FileData {
        &self.data
    }
}
