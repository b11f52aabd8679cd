//! A REZ archive read by ranges: its 168-byte header and its directory tables alone, each
//! kept once by its offset and length, so that a program that cannot map a file (a web
//! page reading `Blob.slice`s) browses an archive of hundreds of megabytes holding only
//! its tables, and reads each file's bytes when it is shown. [`RezFetch`] does no I/O: it
//! names the range it wants, is given its bytes, and at the end holds [`RezTables`], whose
//! [`RezTables::view`] is a [`Rez`] that lists, finds and walks as the whole archive's view
//! does (the same entries, in the same order, with the same errors), its files' bytes
//! empty and their ranges given (`offset`, `size`). One difference: an entry read at an
//! offset of one's own choosing ([`Rez::entry_at`]) may be a directory that no listed
//! directory leads to (past an entry that cannot be read, or inside another entry); its
//! table was not read, and its entries are an error that says so
//! ([`RezProblem::TableNotRead`](crate::RezProblem)). Format facts:
//! `docs/formats/wap32.md`, "REZ archives".
//!
//! What it reads and holds is bounded by the archive: the ranges asked, and the tables kept
//! with their bookkeeping, stay within half the archive's length plus 1 MiB; a tree whose
//! tables would cost more (a hostile one: thousands of tiny or overlapping tables) is
//! given up, and the caller reads the archive whole
//! ([`RezFile::from_data`](super::RezFile)), as a program that maps it does. Each table
//! (offset and length) is kept once, however many entries point at it.
//!
//! Tables are read lowest offset first, each range reaching up to 64 KiB past its table
//! while half the budget is left: tables that lie together (as a writer lays a tree out)
//! then come in a few ranges, not one each (a page's read costs about a millisecond
//! whatever its length).

use std::collections::{BTreeMap, BTreeSet};

use zerocopy::FromBytes;

use crate::error::{DataError, ErrorKind, RezProblem};
use crate::raw::{REZ_HEADER_LEN, RezHeader};

use super::archive::{Rez, RezEntry, RezOptions, check_root};
use super::entries::Entries;

/// What each range read costs the budget besides its bytes: its place in the tables kept
/// and in the queue.
const RANGE_COST: u64 = 48;

/// The budget past half the archive's length: room for a small archive's tables.
const BUDGET_SLACK: u64 = 1 << 20;

/// How far a range reaches past its table, for the tables after it.
const READ_AHEAD: u32 = 64 << 10;

/// The header's length as a range's length (168).
const HEADER_RANGE: u32 = 168;

const _: () = assert!(HEADER_RANGE as usize == REZ_HEADER_LEN);

/// Reads a REZ archive's header and directory tables by ranges (see the module's docs).
///
/// ```
/// use wap_core::{RezFetch, RezOptions};
///
/// # fn read_at(offset: u64, length: u32) -> Vec<u8> { vec![0; length as usize] }
/// let len = 1_000u64;
/// let mut fetch = RezFetch::new(len, &RezOptions::default());
/// while let Some((offset, length)) = fetch.wanted() {
///     fetch.give(read_at(offset, length));
/// }
/// // Zeroed bytes: version 0, not 1.
/// assert!(fetch.finish().is_err());
/// ```
#[derive(Debug)]
pub struct RezFetch {
    len: u64,
    max_path_bytes: u64,
    budget: u64,
    spent: u64,
    state: State,
    header: Option<RezHeader>,
    /// Tables to read, lowest offset first (each key once).
    queue: BTreeSet<(u32, u32)>,
    /// Every table met: read or queued.
    met: BTreeSet<(u32, u32)>,
    tables: BTreeMap<(u32, u32), Box<[u8]>>,
    /// The last range read (its offset and bytes), where the next tables are looked for
    /// before a range is asked.
    ahead: (u64, Box<[u8]>),
}

/// Where a fetch is.
#[derive(Debug)]
enum State {
    /// The header is wanted.
    Header,
    /// The range of the queue's first table is wanted; done when the queue is empty.
    Tables,
    /// The tables cost more than the budget, or a range came back of another length.
    GaveUp,
    /// The archive is not one: the error the whole archive's view gives.
    Failed(DataError),
}

impl RezFetch {
    /// A fetch of an archive of `len` bytes, its view walking within `options`'s
    /// `max_path_bytes`.
    pub fn new(len: u64, options: &RezOptions) -> Self {
        let state = if len < REZ_HEADER_LEN as u64 {
            State::Failed(
                ErrorKind::Rez(RezProblem::TooShort {
                    found: usize::try_from(len).unwrap_or(usize::MAX),
                })
                .into(),
            )
        } else {
            State::Header
        };
        RezFetch {
            len,
            max_path_bytes: options.max_path_bytes,
            // Tables lie in the first 8 GiB (u32 offsets and sizes): a longer archive
            // budgets as one of 8 GiB.
            budget: (len.min(1 << 33) / 2).saturating_add(BUDGET_SLACK),
            spent: REZ_HEADER_LEN as u64,
            state,
            header: None,
            queue: BTreeSet::new(),
            met: BTreeSet::new(),
            tables: BTreeMap::new(),
            ahead: (0, Box::default()),
        }
    }

    /// The range to read next (offset and length, inside the archive), or `None` when the
    /// fetch is over ([`RezFetch::finish`]).
    pub fn wanted(&self) -> Option<(u64, u32)> {
        match self.state {
            State::Header => Some((0, HEADER_RANGE)),
            State::Tables => self
                .queue
                .first()
                .map(|&(offset, size)| (u64::from(offset), self.span(offset, size))),
            State::GaveUp | State::Failed(_) => None,
        }
    }

    /// Hands over the bytes of the range [`RezFetch::wanted`] named (kept without a copy
    /// while their tables are read). Bytes of another length end the fetch (the caller
    /// reads the archive whole).
    pub fn give(&mut self, bytes: Vec<u8>) {
        let Some((_, length)) = self.wanted() else {
            return;
        };
        if bytes.len() != length as usize {
            self.state = State::GaveUp;
            return;
        }
        match self.state {
            State::Header => self.header(&bytes),
            State::Tables => self.table(bytes),
            State::GaveUp | State::Failed(_) => {}
        }
    }

    /// The tables read, to view; `Ok(None)` when the fetch gave up or was not run to its
    /// end (the caller reads the archive whole).
    ///
    /// Returns `Err` as [`Rez::parse`] over the whole archive does: an archive shorter than
    /// its header, of a version other than 1, or whose root lies past its end.
    pub fn finish(self) -> Result<Option<RezTables>, DataError> {
        match (self.state, self.header) {
            (State::Failed(e), _) => Err(e),
            (State::Tables, Some(header)) if self.queue.is_empty() => Ok(Some(RezTables {
                len: self.len,
                header,
                tables: self.tables,
                max_path_bytes: self.max_path_bytes,
            })),
            _ => Ok(None),
        }
    }

    /// Checks the header as [`Rez::parse`] does and queues the root's table.
    fn header(&mut self, bytes: &[u8]) {
        let Ok(header) = RezHeader::read_from_bytes(bytes) else {
            self.state = State::GaveUp;
            return;
        };
        if header.version.get() != 1 {
            self.state = State::Failed(
                ErrorKind::Rez(RezProblem::Version {
                    found: header.version.get(),
                })
                .into(),
            );
            return;
        }
        if let Err(e) = check_root(&header, self.view_len()) {
            self.state = State::Failed(e);
            return;
        }
        self.header = Some(header);
        self.state = State::Tables;
        self.meet(header.root_offset.get(), header.root_size.get());
        self.check_budget();
    }

    /// The length of the range asked for the table of `size` bytes at `offset`: up to
    /// [`READ_AHEAD`] past it (not past the archive's end) while the range leaves half
    /// the budget, else the table alone.
    fn span(&self, offset: u32, size: u32) -> u32 {
        let room = self.len.saturating_sub(u64::from(offset));
        let ahead = u64::from(size.max(READ_AHEAD)).min(room);
        if self.spent.saturating_add(ahead) <= self.budget / 2 {
            u32::try_from(ahead).unwrap_or(size)
        } else {
            size
        }
    }

    /// Keeps the range read, then every queued table it holds, lowest offset first (a
    /// range that is one table alone becomes that table, without a copy).
    fn table(&mut self, bytes: Vec<u8>) {
        let Some(&(offset, size)) = self.queue.first() else {
            return;
        };
        self.spent = self.spent.saturating_add(bytes.len() as u64);
        if bytes.len() == size as usize {
            self.queue.remove(&(offset, size));
            self.keep((offset, size), bytes.into_boxed_slice());
            self.ahead = (0, Box::default());
            if !matches!(self.state, State::GaveUp) {
                self.check_budget();
            }
            return;
        }
        self.ahead = (u64::from(offset), bytes.into_boxed_slice());
        while let Some(&key) = self.queue.first() {
            let (start, held) = (&self.ahead.0, &self.ahead.1);
            let Some(table) = u64::from(key.0)
                .checked_sub(*start)
                .and_then(|at| usize::try_from(at).ok())
                .and_then(|at| held.get(at..at.checked_add(key.1 as usize)?))
            else {
                break;
            };
            // Tables that overlap are each kept: each is counted.
            if self.spent.saturating_add(u64::from(key.1)) > self.budget {
                self.state = State::GaveUp;
                return;
            }
            let table: Box<[u8]> = table.into();
            self.queue.remove(&key);
            self.keep(key, table);
            if matches!(self.state, State::GaveUp) {
                return;
            }
        }
        self.check_budget();
    }

    /// Keeps `table`, of `key`, and queues the directories it lists, up to its first
    /// entry that cannot be read (where the view's entries stop too); gives up as soon as
    /// what is met passes the budget.
    fn keep(&mut self, key: (u32, u32), table: Box<[u8]>) {
        self.spent = self
            .spent
            .saturating_add(table.len() as u64)
            .saturating_add(RANGE_COST);
        let len = self.view_len();
        for entry in Entries::over(None, len, &table, key.0 as usize) {
            match entry {
                Ok(RezEntry::Dir(dir)) => self.meet(dir.offset, dir.size),
                Ok(RezEntry::File(_)) => {}
                Err(_) => break,
            }
            if self.spent > self.budget {
                self.state = State::GaveUp;
                return;
            }
        }
        self.tables.insert(key, table);
    }

    /// Queues the table of `size` bytes at `offset` when it holds bytes, lies inside the
    /// archive and was not met before (a view finds one outside an error, and an empty
    /// one empty, without reading).
    fn meet(&mut self, offset: u32, size: u32) {
        let inside = u64::from(offset).saturating_add(u64::from(size)) <= self.len;
        if size > 0 && inside && self.met.insert((offset, size)) {
            self.queue.insert((offset, size));
            self.spent = self.spent.saturating_add(RANGE_COST);
        }
    }

    /// Gives up when the next table, read and kept, would pass the budget.
    fn check_budget(&mut self) {
        if let Some(&(_, size)) = self.queue.first()
            && self.spent.saturating_add(u64::from(size).saturating_mul(2)) > self.budget
        {
            self.state = State::GaveUp;
        }
    }

    /// The archive's length as the view counts it.
    fn view_len(&self) -> usize {
        usize::try_from(self.len).unwrap_or(usize::MAX)
    }
}

/// A REZ archive's header and directory tables, read by ranges ([`RezFetch`]); its
/// [`RezTables::view`] lists, finds and walks as the whole archive's view does, its files'
/// bytes read by their ranges ([`RezFileEntry::offset`](super::RezFileEntry),
/// `size`).
#[derive(Debug)]
pub struct RezTables {
    len: u64,
    header: RezHeader,
    tables: BTreeMap<(u32, u32), Box<[u8]>>,
    max_path_bytes: u64,
}

impl RezTables {
    /// The view: entries, lookups and walks as over the whole archive; files' `bytes`
    /// empty ([`Rez::is_whole`] is false).
    pub fn view(&self) -> Rez<'_> {
        Rez::of_tables(
            &self.header,
            usize::try_from(self.len).unwrap_or(usize::MAX),
            &self.tables,
            self.max_path_bytes,
        )
    }

    /// The archive's length in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True for an archive of no bytes (never: its header was read).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The tables read.
    pub fn table_count(&self) -> usize {
        self.tables.len()
    }

    /// The bytes held: the header and the tables.
    pub fn held_bytes(&self) -> u64 {
        self.tables.values().fold(REZ_HEADER_LEN as u64, |sum, t| {
            sum.saturating_add(t.len() as u64)
        })
    }
}
