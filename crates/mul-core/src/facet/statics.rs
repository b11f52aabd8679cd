//! Statics: staidx*.mul (one 12-byte index record a block) and statics*.mul (the records).
//!
//! Index record `bx * height_blocks + by` says where block (bx, by)'s statics lie in the
//! data file. Empty blocks have offset 0xFFFFFFFF (length 0 or 0xFFFFFFFF also means empty);
//! offset 0 is a valid place. A static is 7 bytes in every released client and 11 bytes
//! (a serial first) in the pre-alpha one; the size is a parameter, or detected from the
//! index lengths. Every entry is checked against the data file when it is read, so one bad
//! block never hides the others. Source: `docs/formats/uo.md`, "Statics".

use std::fmt;

use gamedata_io::{PreviewTable, Problems};

use crate::error::{DataError, ErrorKind, Result};
use crate::facet::diff::StaticsPatch;
use crate::index::{
    LazyOverlaps, check_overlap, detect_record_size, entry_records, is_empty, parse_index,
};
use crate::raw::{IndexRecord, PreAlphaStaticRecord, StaticRecord};

/// The size of a static record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum StaticFormat {
    /// 7 bytes {id, x, y, z, hue}: every released client.
    #[default]
    Standard,
    /// 11 bytes {serial, id, x, y, z, hue}: the pre-alpha client.
    PreAlpha,
}

impl StaticFormat {
    /// Bytes a record.
    pub const fn record_len(self) -> usize {
        match self {
            StaticFormat::Standard => 7,
            StaticFormat::PreAlpha => 11,
        }
    }

    /// The format whose record size divides every non-empty in-bounds index length among up
    /// to 256 records spread over the index (so that opening stays O(1) in the facet's
    /// size): 7 first, then 11; 7 when neither does (the entries that disagree are then
    /// reported by [`Statics::validate`]).
    pub fn detect(index: &[IndexRecord], data_len: usize) -> Self {
        match detect_record_size(index, data_len, &[7, 11]) {
            11 => StaticFormat::PreAlpha,
            _ => StaticFormat::Standard,
        }
    }
}

/// The statics of one block, cast in place.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum StaticSlice<'data> {
    /// 7-byte records.
    Standard(&'data [StaticRecord]),
    /// 11-byte records.
    PreAlpha(&'data [PreAlphaStaticRecord]),
}

impl fmt::Debug for StaticSlice<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StaticSlice::Standard(s) => f.debug_tuple("Standard").field(&PreviewTable(s)).finish(),
            StaticSlice::PreAlpha(s) => f.debug_tuple("PreAlpha").field(&PreviewTable(s)).finish(),
        }
    }
}

impl<'data> StaticSlice<'data> {
    /// No statics.
    pub const EMPTY: StaticSlice<'static> = StaticSlice::Standard(&[]);

    /// Number of statics.
    pub fn len(&self) -> usize {
        match self {
            StaticSlice::Standard(s) => s.len(),
            StaticSlice::PreAlpha(s) => s.len(),
        }
    }

    /// True if there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Static `i` (its standard fields), or `None` past the end.
    pub fn get(&self, i: usize) -> Option<&'data StaticRecord> {
        match self {
            StaticSlice::Standard(s) => s.get(i),
            StaticSlice::PreAlpha(s) => s.get(i).map(|r| &r.record),
        }
    }

    /// Calls `f` with each static in file order. Faster than [`StaticSlice::iter`] in hot
    /// loops: the record size is matched once, not per static.
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(&'data StaticRecord)) {
        match self {
            StaticSlice::Standard(s) => s.iter().for_each(f),
            StaticSlice::PreAlpha(s) => s.iter().for_each(|r| f(&r.record)),
        }
    }

    /// The statics in file order (their standard fields, borrowed from the data).
    pub fn iter(&self) -> StaticIter<'data> {
        StaticIter {
            slice: *self,
            next: 0,
        }
    }
}

impl<'data> IntoIterator for StaticSlice<'data> {
    type Item = &'data StaticRecord;
    type IntoIter = StaticIter<'data>;
    fn into_iter(self) -> StaticIter<'data> {
        self.iter()
    }
}

/// Iterator over a [`StaticSlice`].
#[derive(Clone, Debug)]
pub struct StaticIter<'data> {
    slice: StaticSlice<'data>,
    next: usize,
}

impl<'data> Iterator for StaticIter<'data> {
    type Item = &'data StaticRecord;
    #[inline]
    fn next(&mut self) -> Option<&'data StaticRecord> {
        let item = self.slice.get(self.next)?;
        // Below the slice's length, as the get succeeded.
        self.next = self.next.saturating_add(1);
        Some(item)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.slice.len().saturating_sub(self.next);
        (n, Some(n))
    }
}

impl ExactSizeIterator for StaticIter<'_> {}

/// A statics index and data file, borrowed.
///
/// Index entries whose bytes overlap another entry's are bad
/// ([`IndexProblem::Overlap`](crate::IndexProblem::Overlap)): of overlapping entries the one
/// that starts first is read, so a scan of every block reads each byte of the data at most
/// once, however the index is made. Which entries overlap is found on the first read of a
/// block (one pass over the index when its entries lie in order, as real files' do; a sort
/// of the non-empty entries otherwise) and shared by the view's clones.
#[derive(Clone)]
pub struct Statics<'data> {
    index: &'data [IndexRecord],
    data: &'data [u8],
    format: StaticFormat,
    patch: Option<StaticsPatch<'data>>,
    overlaps: LazyOverlaps,
}

impl fmt::Debug for Statics<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Statics")
            .field("index_records", &self.index.len())
            .field("data_len", &self.data.len())
            .field("format", &self.format)
            .field("patched_blocks", &self.patch.map_or(0, |p| p.index.len()))
            .finish()
    }
}

impl<'data> Statics<'data> {
    /// Casts the index file in place over the data file; `format` `None` detects it
    /// ([`StaticFormat::detect`]).
    ///
    /// Returns `Err` ([`ErrorKind::RecordMultiple`]) if the index is not a whole number of 12-byte
    /// records. Entries are checked when read, not here.
    pub fn parse(
        index: &'data [u8],
        data: &'data [u8],
        format: Option<StaticFormat>,
    ) -> Result<Self, DataError> {
        let index = parse_index(index, "staidx")?;
        let format = format.unwrap_or_else(|| StaticFormat::detect(index, data.len()));
        Ok(Statics {
            index,
            data,
            format,
            patch: None,
            overlaps: LazyOverlaps::default(),
        })
    }

    /// These statics with `patch` applied: a patched block's statics come from the
    /// patch's index record and data (see [`crate::facet::diff`]).
    pub fn with_patch<'a>(self, patch: StaticsPatch<'a>) -> Statics<'a>
    where
        'data: 'a,
    {
        Statics {
            patch: Some(patch),
            ..self
        }
    }

    /// The patch applied, if any.
    pub fn patch(&self) -> Option<StaticsPatch<'data>> {
        self.patch
    }

    /// The record format in use.
    pub fn format(&self) -> StaticFormat {
        self.format
    }

    /// The index records, cast in place (one a block, column-major).
    pub fn index(&self) -> &'data [IndexRecord] {
        self.index
    }

    /// The data file's bytes.
    pub fn data(&self) -> &'data [u8] {
        self.data
    }

    /// The statics of block number `block` (bx * height_blocks + by), cast in place.
    ///
    /// Returns `Err` ([`ErrorKind::MissingIndexEntry`]) if the index has no such entry, or
    /// ([`ErrorKind::IndexEntry`]) if the entry points outside the data file, does not hold
    /// whole records or overlaps another entry's bytes. An empty entry is `Ok` with no
    /// statics.
    pub fn block(&self, block: usize) -> Result<StaticSlice<'data>, DataError> {
        if let Some(patch) = self.patch
            && let Some(entry) = patch.index.entry(block)
        {
            // PatchIndex only keeps entries that have a record.
            let record = patch
                .records
                .get(entry)
                .ok_or(ErrorKind::MissingIndexEntry {
                    file: "stadifi",
                    entry,
                    records: patch.records.len(),
                })?;
            return self.records(record, patch.data, "stadifi", entry);
        }
        let record = self.index.get(block).ok_or(ErrorKind::MissingIndexEntry {
            file: "staidx",
            entry: block,
            records: self.index.len(),
        })?;
        let overlaps = self
            .overlaps
            .get(self.index, self.data.len(), self.format.record_len());
        check_overlap(overlaps, record, self.data, "staidx", block)?;
        self.records(record, self.data, "staidx", block)
    }

    /// The records an index entry points at in `data`.
    #[inline]
    fn records(
        &self,
        record: &IndexRecord,
        data: &'data [u8],
        file: &'static str,
        entry: usize,
    ) -> Result<StaticSlice<'data>, DataError> {
        if is_empty(record) {
            return Ok(StaticSlice::EMPTY);
        }
        Ok(match self.format {
            StaticFormat::Standard => {
                StaticSlice::Standard(entry_records(record, data, file, entry)?)
            }
            StaticFormat::PreAlpha => {
                StaticSlice::PreAlpha(entry_records(record, data, file, entry)?)
            }
        })
    }

    /// Checks `blocks` entries (the map's block count): each in bounds, whole records, no
    /// bytes shared with another entry, and every static at x, y below 8 (the first one outside a block is reported). Returns the
    /// problems in block order, the first [`Problems::KEEP`] kept and all counted; the good
    /// blocks stay readable whatever this finds.
    pub fn validate(&self, blocks: usize) -> Problems<ErrorKind> {
        let mut problems = Problems::new();
        for block in 0..blocks {
            match self.block(block) {
                Ok(statics) => {
                    if let Some((index, s)) = statics
                        .iter()
                        .enumerate()
                        .find(|(_, s)| s.x >= 8 || s.y >= 8)
                    {
                        problems.push(ErrorKind::StaticPosition {
                            block,
                            index,
                            x: s.x,
                            y: s.y,
                        });
                    }
                }
                Err(e) => {
                    problems.push(e.kind);
                    if matches!(e.kind, ErrorKind::MissingIndexEntry { .. }) {
                        break;
                    }
                }
            }
        }
        problems
    }
}
