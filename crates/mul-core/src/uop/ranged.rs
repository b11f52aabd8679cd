//! A UOP container read by ranges: the header, the chain of table blocks and (for gumps)
//! the 8 bytes of size before each gump, without its stored pictures. What a reader that
//! cannot map a file (a web page reading `Blob.slice`s) builds a picture UOP's slots from
//! ([`UopIndex::from_tables`](crate::UopIndex::from_tables)), then reads each entry alone.
//!
//! [`UopFetch`] asks for the ranges one at a time and does no I/O itself: the caller reads
//! each range [`UopFetch::wanted`] names however it can and hands the bytes to
//! [`UopFetch::give`]; [`UopFetch::finish`] gives the [`UopTables`]. The chain is checked
//! when the tables are used, as [`Uop::parse`](crate::Uop::parse) checks it over the whole
//! bytes, with the same errors. Source: `docs/formats/uo.md`, "UOP".

use std::collections::HashSet;
use std::ops::Range;

use gamedata_io::{Bytes, Limits, ReadError};
use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

use crate::error::{DataError, UopEntryProblem};
use crate::raw::{UopEntryRaw, UopHeader, UopTableHeader};
use crate::uop::{TableChain, UopEntry, stored_range};

/// Entries the first table block is guessed to hold, read with its header in one range
/// (then each block is guessed to hold as many as the one before). The clients' UOPs hold
/// 100 a block (`docs/formats/uo.md`, "UOP").
const FIRST_GUESS: u64 = 100;

/// The parts of a UOP container that its table and slots are read from, read by ranges:
/// the header, the table blocks and, for gumps, the 8 bytes before each gump's data.
///
/// Memory: the bytes read (28, then 12 + 34 a entry a block, then 8 a gump entry plus 8
/// for its offset), at most the container's length and within the limits the fetch was
/// given.
#[derive(Clone, Debug)]
pub struct UopTables {
    len: u64,
    /// Ranges read, by offset (the header, the blocks).
    pieces: Vec<(u64, Box<[u8]>)>,
    /// The first 8 bytes of entries' stored bytes, by their offset.
    heads: Vec<(u64, [u8; 8])>,
}

impl UopTables {
    /// The container's length in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True for an empty container (which is no UOP).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes held: what was read.
    pub fn held_bytes(&self) -> u64 {
        let pieces: usize = self.pieces.iter().map(|(_, p)| p.len()).sum();
        (pieces as u64).saturating_add(16u64.saturating_mul(self.heads.len() as u64))
    }

    /// The used entries of the table read (offset not 0), in table order, as
    /// [`Uop::entries`](crate::Uop::entries) gives them over the whole bytes.
    ///
    /// Returns `Err` as [`Uop::parse`](crate::Uop::parse).
    pub fn entries(&self, limits: &Limits) -> Result<Vec<UopEntry<'_>>, DataError> {
        let (_, chain) = TableChain::check(Source::Tables(self), limits)?;
        Ok(chain
            .blocks()
            .flat_map(|block| block.entries())
            .map(|(index, raw)| UopEntry { raw, index })
            .collect())
    }

    /// Where `entry`'s stored bytes lie in the container (after its entry header), to be
    /// read alone.
    ///
    /// Returns `Err` ([`ErrorKind::UopEntry`](crate::ErrorKind::UopEntry)) if they lie
    /// outside the container, as [`Uop::stored_range`](crate::Uop::stored_range).
    pub fn stored_range(&self, entry: &UopEntry<'_>) -> Result<Range<u64>, DataError> {
        let raw = entry.raw();
        let start = raw
            .offset
            .get()
            .checked_add(u64::from(raw.header_len.get()));
        let end = start.and_then(|s| s.checked_add(u64::from(raw.compressed_len.get())));
        match (start, end) {
            (Some(start), Some(end)) if end <= self.len => Ok(start..end),
            _ => Err(entry.error(UopEntryProblem::OutsideFile {
                len: raw.compressed_len.get(),
                offset: raw.offset.get(),
                header_len: raw.header_len.get(),
                file_len: self.len,
            })),
        }
    }

    /// The 8 bytes at `at` read as an entry's head.
    fn head(&self, at: u64) -> Option<&[u8; 8]> {
        let found = self.heads.binary_search_by_key(&at, |&(o, _)| o).ok()?;
        self.heads.get(found).map(|(_, head)| head)
    }

    /// `size` bytes at `at`: from a range read that holds them (any: each is the file's
    /// own bytes), or an entry's head.
    ///
    /// Returns `Err` for bytes past the container's end, or not read.
    fn bytes_at(&self, at: usize, size: usize) -> Result<&[u8], ReadError> {
        let error = || ReadError {
            offset: at as u64,
            size: size as u64,
            len: self.len,
        };
        let start = at as u64;
        let end = start
            .checked_add(size as u64)
            .filter(|&end| end <= self.len)
            .ok_or_else(error)?;
        if size <= 8
            && let Some(head) = self.head(start)
        {
            return head.get(..size).ok_or_else(error);
        }
        // The two ranges starting nearest at or before `at`: a block's header and entries,
        // or the header and a block read at its offset, whose bytes are the same file's
        // (a read that neither holds was not made, and is an error).
        let before = self.pieces.partition_point(|&(s, _)| s <= start);
        self.pieces
            .get(before.saturating_sub(2)..before)
            .unwrap_or_default()
            .iter()
            .rev()
            .find_map(|(s, piece)| {
                let from = usize::try_from(start.checked_sub(*s)?).ok()?;
                let to = usize::try_from(end.checked_sub(*s)?).ok()?;
                piece.get(from..to)
            })
            .ok_or_else(error)
    }
}

/// The bytes a container's table is read from: all of them, or the parts read by ranges.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Source<'data> {
    /// The whole container.
    Whole(Bytes<'data>),
    /// The parts read by ranges.
    Tables(&'data UopTables),
}

impl<'data> Source<'data> {
    /// The container's length, as a `usize` (saturated on a target whose addresses are
    /// shorter than the file: such offsets are then too large to read).
    pub(crate) fn len(&self) -> usize {
        match self {
            Source::Whole(bytes) => bytes.len(),
            Source::Tables(tables) => usize::try_from(tables.len).unwrap_or(usize::MAX),
        }
    }

    /// The longest walk of a chain worth making: unbounded over the whole bytes (the
    /// file's length bounds it), twice the ranges read plus one by ranges.
    pub(crate) fn max_walk(&self) -> usize {
        match self {
            Source::Whole(_) => usize::MAX,
            Source::Tables(tables) => tables.pieces.len().saturating_mul(2).saturating_add(1),
        }
    }

    /// `size` bytes at `at`.
    pub(crate) fn bytes_at(&self, at: usize, size: usize) -> Result<&'data [u8], ReadError> {
        match self {
            Source::Whole(bytes) => bytes.bytes_at(at, size),
            Source::Tables(tables) => tables.bytes_at(at, size),
        }
    }

    /// The record at `at`.
    pub(crate) fn read_at<T>(&self, at: usize) -> Result<&'data T, ReadError>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        match self {
            Source::Whole(bytes) => bytes.read_at(at),
            Source::Tables(_) => {
                let bytes = self.bytes_at(at, size_of::<T>())?;
                Bytes::new(bytes).read_at(0).map_err(|_| ReadError {
                    offset: at as u64,
                    size: size_of::<T>() as u64,
                    len: self.len() as u64,
                })
            }
        }
    }

    /// `count` records at `at`.
    pub(crate) fn slice_at<T>(&self, at: usize, count: usize) -> Result<&'data [T], ReadError>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        match self {
            Source::Whole(bytes) => bytes.slice_at(at, count),
            Source::Tables(tables) => {
                let error = |size: Option<usize>| ReadError {
                    offset: at as u64,
                    size: size.map_or(u64::MAX, |s| s as u64),
                    len: tables.len,
                };
                let size = count.checked_mul(size_of::<T>()).ok_or(error(None))?;
                let bytes = self.bytes_at(at, size)?;
                Bytes::new(bytes)
                    .slice_at(0, count)
                    .map_err(|_| error(Some(size)))
            }
        }
    }
}

/// Where a fetch is.
#[derive(Clone, Debug)]
enum Step {
    /// The 28-byte header (fewer in a shorter file).
    Header,
    /// Table block at `at`, read with room for `guess` entries after its header.
    Block { at: u64, guess: u64 },
    /// The entries of the block at `at` (declaring `count`) that its first read did not
    /// hold; then the block at `next`.
    Entries { at: u64, count: u32, next: u64 },
    /// The heads of the gumps, the `next` of `offsets`.
    Heads { offsets: Vec<u64>, next: usize },
    /// Nothing more to read.
    Done,
}

/// Bytes counted for each range kept, past its own bytes (its place in the lists).
const RANGE_COST: u64 = 48;

/// Bytes counted for each gump's head: its offset while the heads are read (8), the head
/// and its offset kept (16), and its range (48).
const HEAD_COST: u64 = 72;

/// Of [`HEAD_COST`], what is counted when a head is kept (its offset was counted before).
const HEAD_KEPT: u64 = 64;

/// Reads a UOP container's table by ranges, as a state machine that does no I/O: ask
/// [`UopFetch::wanted`] for a range, read it, [`UopFetch::give`] it; when nothing is wanted,
/// [`UopFetch::finish`].
///
/// The ranges follow the chain from the header: one range a table block (its header with
/// room for as many entries as the block before held; a second range when it holds more),
/// then, for gumps, the 8 bytes of size before each gump stored as is or compressed with
/// zlib alone (compression 1). Past `limits.max_records` entries, only the blocks' headers are read (the check then
/// says which fault to name). The fetch stops where the chain leaves the file or comes
/// back to a block already read: the tables hold what was read, and the check on use
/// reports the fault as [`Uop::parse`](crate::Uop::parse) does.
///
/// Memory: what is read, plus 48 bytes a range, 16 a block and 72 a gump's head, checked
/// before each range is asked for (so the ranges too are bounded). A container whose table
/// would cost more than half its length plus 1 MiB that way (thousands of tiny blocks or gumps, as
/// only a hostile file has) is given up: [`UopFetch::finish`] says to read it whole.
#[derive(Debug)]
pub struct UopFetch {
    tables: UopTables,
    limits: Limits,
    /// Whether the gumps' 8 bytes of size are read too.
    gump_sizes: bool,
    step: Step,
    /// Blocks' offsets met.
    seen: HashSet<u64>,
    entries: u64,
    /// Bytes kept so far, counted as [`RANGE_COST`] says.
    held: u64,
    given_up: bool,
}

impl UopFetch {
    /// A fetch of the table of a `len`-byte container within `limits` (the gumps' sizes
    /// not read: see [`UopFetch::with_gump_sizes`]).
    pub fn new(len: u64, limits: &Limits) -> Self {
        UopFetch {
            tables: UopTables {
                len,
                pieces: Vec::new(),
                heads: Vec::new(),
            },
            limits: *limits,
            gump_sizes: false,
            step: Step::Header,
            seen: HashSet::new(),
            entries: 0,
            held: 0,
            given_up: false,
        }
    }

    /// The same fetch reading, after the table, the 8 bytes of size before each entry
    /// stored as is or compressed with zlib alone: what a gumpartLegacyMUL.uop's slots
    /// need ([`UopIndex::from_tables`](crate::UopIndex::from_tables) with
    /// [`UopPictures::Gumps`](crate::UopPictures::Gumps)).
    #[must_use]
    pub fn with_gump_sizes(mut self) -> Self {
        self.gump_sizes = true;
        self
    }

    /// The next range to read: its offset and length in bytes (never past the container's
    /// end); `None` when the fetch is done.
    pub fn wanted(&self) -> Option<(u64, u64)> {
        let len = self.tables.len;
        match &self.step {
            Step::Header => Some((0, len.min(size_of::<UopHeader>() as u64))),
            Step::Block { at, guess } => {
                let size = (size_of::<UopTableHeader>() as u64)
                    .saturating_add(guess.saturating_mul(size_of::<UopEntryRaw>() as u64));
                Some((*at, size.min(len.saturating_sub(*at))))
            }
            Step::Entries { at, count, .. } => Some((
                at.saturating_add(size_of::<UopTableHeader>() as u64),
                u64::from(*count).saturating_mul(size_of::<UopEntryRaw>() as u64),
            )),
            Step::Heads { offsets, next } => offsets.get(*next).map(|&o| (o, 8)),
            Step::Done => None,
        }
    }

    /// Hands over the bytes of the range [`UopFetch::wanted`] named. Bytes of another
    /// length end the fetch there (as if the container ended).
    pub fn give(&mut self, bytes: Vec<u8>) {
        let Some((at, size)) = self.wanted() else {
            return;
        };
        let step = std::mem::replace(&mut self.step, Step::Done);
        if bytes.len() as u64 != size {
            return;
        }
        self.step = match step {
            Step::Header => {
                let first = Bytes::new(&bytes)
                    .read_at::<UopHeader>(0)
                    .map(|h| h.first_table.get());
                self.keep(0, bytes);
                match first {
                    Ok(first) => self.block(first, FIRST_GUESS),
                    Err(_) => Step::Done,
                }
            }
            Step::Block { .. } => {
                let Ok(header) = Bytes::new(&bytes).read_at::<UopTableHeader>(0) else {
                    return;
                };
                let (count, next) = (header.count.get(), header.next.get());
                let held = bytes
                    .len()
                    .saturating_sub(size_of::<UopTableHeader>())
                    .checked_div(size_of::<UopEntryRaw>())
                    .unwrap_or(0);
                let mut piece = bytes;
                // Only this block's bytes are kept.
                let kept = usize::try_from(count).unwrap_or(usize::MAX).min(held);
                piece.truncate(
                    size_of::<UopTableHeader>()
                        .saturating_add(kept.saturating_mul(size_of::<UopEntryRaw>())),
                );
                let held = held as u64;
                self.keep(at, piece);
                self.after_header(at, count, held, next)
            }
            Step::Entries { count, next, .. } => {
                self.keep(at, bytes);
                self.block(next, u64::from(count))
            }
            Step::Heads { offsets, next } => {
                if let Ok(head) = <[u8; 8]>::try_from(bytes.as_slice()) {
                    self.tables.heads.push((at, head));
                    self.held = self.held.saturating_add(HEAD_KEPT);
                }
                // Past the last offset, nothing more is wanted.
                Step::Heads {
                    offsets,
                    next: next.saturating_add(1),
                }
            }
            Step::Done => Step::Done,
        };
        // A table that costs more than half the container: given up (read it whole).
        if !self.affords(0) {
            self.given_up = true;
            self.step = Step::Done;
        }
    }

    /// Keeps `bytes`, read at `at`.
    fn keep(&mut self, at: u64, bytes: Vec<u8>) {
        self.held = self
            .held
            .saturating_add(bytes.len() as u64)
            .saturating_add(RANGE_COST);
        self.tables.pieces.push((at, bytes.into()));
    }

    /// The step after a block's header at `at` declaring `count` entries (of which `held`
    /// came with it) and the next block at `next`.
    fn after_header(&mut self, at: u64, count: u32, held: u64, next: u64) -> Step {
        self.entries = self.entries.saturating_add(u64::from(count));
        let past_limit = self
            .limits
            .check_records("UOP table entries", self.entries)
            .is_err();
        let entries_end = at
            .saturating_add(size_of::<UopTableHeader>() as u64)
            .saturating_add(u64::from(count).saturating_mul(size_of::<UopEntryRaw>() as u64));
        if entries_end > self.tables.len {
            return Step::Done;
        }
        if past_limit {
            // Past the limit, the check needs the rest of the chain's headers alone.
            return self.block(next, 0);
        }
        if u64::from(count) > held {
            let size = u64::from(count).saturating_mul(size_of::<UopEntryRaw>() as u64);
            if !self.affords(size) {
                return self.give_up();
            }
            return Step::Entries { at, count, next };
        }
        self.block(next, u64::from(count))
    }

    /// The step that reads the block at `next` (0: the chain's end), guessing `guess`
    /// entries.
    fn block(&mut self, next: u64, guess: u64) -> Step {
        if next == 0 {
            return self.heads();
        }
        let header_fits = next
            .checked_add(size_of::<UopTableHeader>() as u64)
            .is_some_and(|end| end <= self.tables.len);
        // A block met before: the rest of the chain has been read.
        if !header_fits || !self.seen.insert(next) {
            return Step::Done;
        }
        self.held = self.held.saturating_add(16);
        let room = |guess: u64| {
            (size_of::<UopTableHeader>() as u64)
                .saturating_add(guess.saturating_mul(size_of::<UopEntryRaw>() as u64))
        };
        // No room guessed past what the budget affords (past the limit, the caller
        // guesses none).
        let guess = if self.affords(room(guess)) { guess } else { 0 };
        if !self.affords(room(0)) {
            return self.give_up();
        }
        Step::Block { at: next, guess }
    }

    /// True when keeping `size` bytes more (in one range) stays within the budget: half
    /// the container's length plus 1 MiB.
    fn affords(&self, size: u64) -> bool {
        let budget = (self.tables.len / 2).saturating_add(1 << 20);
        self.held.saturating_add(size).saturating_add(RANGE_COST) <= budget
    }

    /// Gives the fetch up: the container is to be read whole.
    fn give_up(&mut self) -> Step {
        self.given_up = true;
        Step::Done
    }

    /// The step after the chain: the gumps' heads, when asked for and the chain is sound.
    fn heads(&mut self) -> Step {
        if !self.gump_sizes {
            return Step::Done;
        }
        self.tables.pieces.sort_by_key(|&(start, _)| start);
        let Ok((_, chain)) = TableChain::check(Source::Tables(&self.tables), &self.limits) else {
            return Step::Done;
        };
        let len = self.tables.len;
        let mut offsets: Vec<u64> = chain
            .blocks()
            .flat_map(|block| block.entries())
            .filter(|(_, raw)| matches!(raw.compression.get(), 0 | 1))
            .filter_map(|(_, raw)| stored_range(raw, usize::try_from(len).unwrap_or(usize::MAX)))
            .filter(|range| range.len() >= 8)
            .map(|range| range.start as u64)
            .collect();
        offsets.sort_unstable();
        offsets.dedup();
        // Each head costs its offset, its 8 bytes with their offset kept, and a range.
        let cost = HEAD_COST.saturating_mul(offsets.len() as u64);
        if !self.affords(cost) {
            return self.give_up();
        }
        self.held = self
            .held
            .saturating_add(8u64.saturating_mul(offsets.len() as u64));
        self.tables.heads.reserve_exact(offsets.len());
        Step::Heads { offsets, next: 0 }
    }

    /// The tables read; `None` when the fetch was given up (a table that would cost more
    /// than half the container's length: read the container whole instead).
    pub fn finish(mut self) -> Option<UopTables> {
        if self.given_up {
            return None;
        }
        self.tables.pieces.sort_by_key(|&(start, _)| start);
        self.tables.heads.sort_unstable_by_key(|&(start, _)| start);
        Some(self.tables)
    }
}
