//! The 12-byte index files shared by statics (staidx*.mul), multis (multi.idx) and the
//! pictures (artidx.mul, gumpidx.mul, texidx.mul), and an index file found and owned with
//! its data file ([`IndexedPair`]).

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use gamedata_io::{FileData, FileError, Overlaps, find_file_ignoring_case, records};
use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

use crate::error::{DataError, Error, ErrorKind, IndexProblem, Result};
use crate::raw::{EMPTY, IndexRecord};

/// Casts an index file in place.
///
/// Returns `Err` ([`ErrorKind::RecordMultiple`]) if it is not a whole number of 12-byte
/// records.
pub(crate) fn parse_index<'data>(
    data: &'data [u8],
    what: &'static str,
) -> Result<&'data [IndexRecord], DataError> {
    records::<IndexRecord>(data).map_err(|e| {
        ErrorKind::RecordMultiple {
            what,
            found: e.len,
            record: e.record,
        }
        .into()
    })
}

/// True if an index entry holds nothing: offset 0xFFFFFFFF, or length 0 or 0xFFFFFFFF.
/// Offset 0 is a valid place (`docs/formats/uo.md`, "Statics").
#[inline]
pub(crate) fn is_empty(record: &IndexRecord) -> bool {
    let (offset, length) = (record.offset.get(), record.length.get());
    offset == EMPTY || length == 0 || length == EMPTY
}

/// The records of a non-empty index entry, cast in place: checked to lie inside `data` and to
/// hold whole `T` records. Generic so that the record size is a constant in the hot path.
#[inline]
pub(crate) fn entry_records<'data, T>(
    record: &IndexRecord,
    data: &'data [u8],
    file: &'static str,
    entry: usize,
) -> Result<&'data [T], DataError>
where
    T: FromBytes + KnownLayout + Immutable + Unaligned,
{
    let (offset, length) = (record.offset.get(), record.length.get());
    let range = usize::try_from(offset)
        .ok()
        .zip(usize::try_from(length).ok())
        .and_then(|(at, len)| data.get(at..at.checked_add(len)?));
    let Some(bytes) = range else {
        return Err(entry_error(
            record,
            data,
            file,
            entry,
            IndexProblem::PastEnd,
        ));
    };
    <[T]>::ref_from_bytes(bytes).map_err(|_| {
        let problem = IndexProblem::NotWholeRecords {
            record: size_of::<T>(),
        };
        entry_error(record, data, file, entry, problem)
    })
}

#[cold]
fn entry_error(
    record: &IndexRecord,
    data: &[u8],
    file: &'static str,
    entry: usize,
    problem: IndexProblem,
) -> DataError {
    ErrorKind::IndexEntry {
        file,
        entry,
        offset: record.offset.get(),
        length: record.length.get(),
        data_len: data.len(),
        problem,
    }
    .into()
}

/// The entries of `index` for which `used` is true whose ranges of a `data_len`-byte data
/// file overlap others' (see [`Overlaps`]): empty entries and entries that run past the data
/// are not ranges.
pub(crate) fn index_overlaps(
    index: &[IndexRecord],
    data_len: usize,
    used: impl Fn(usize) -> bool,
) -> Overlaps {
    Overlaps::find(index.len(), |i| {
        let record = index.get(i).filter(|r| !is_empty(r) && used(i))?;
        let start = u64::from(record.offset.get());
        // Two u32s: their sum fits a u64.
        let end = start.saturating_add(u64::from(record.length.get()));
        (end <= data_len as u64).then_some((start, end))
    })
}

/// An index's [`index_overlaps`], found on first use and shared by the view's copies, so
/// that casting an index stays O(1) and a scan of every entry reads each data byte once.
#[derive(Clone, Default)]
pub(crate) struct LazyOverlaps(Arc<OnceLock<Overlaps>>);

impl LazyOverlaps {
    /// The overlapping entries of `index` over `data_len` bytes among those that hold whole
    /// `record`-byte records (the others are bad on their own), computed by the first call;
    /// every call must pass the same index, length and record size.
    #[inline]
    pub(crate) fn get(&self, index: &[IndexRecord], data_len: usize, record: usize) -> &Overlaps {
        self.0.get_or_init(|| {
            index_overlaps(index, data_len, |i| {
                index.get(i).is_some_and(|r| {
                    usize::try_from(r.length.get())
                        .is_ok_and(|len| record != 0 && len.is_multiple_of(record))
                })
            })
        })
    }
}

/// `Err` ([`ErrorKind::IndexEntry`] with [`IndexProblem::Overlap`]) if entry `entry` is left
/// out by `overlaps`.
#[inline]
pub(crate) fn check_overlap(
    overlaps: &Overlaps,
    record: &IndexRecord,
    data: &[u8],
    file: &'static str,
    entry: usize,
) -> Result<(), DataError> {
    match overlaps.overlapped_by(entry) {
        None => Ok(()),
        Some(other) => Err(entry_error(
            record,
            data,
            file,
            entry,
            IndexProblem::Overlap { other },
        )),
    }
}

/// Index records [`detect_record_size`] looks at, at most: enough to tell 7 from 11 (or 12
/// from 16) on any real file, few enough that opening a facet stays independent of its size.
pub(crate) const DETECT_SAMPLE: usize = 256;

/// Which of `sizes` divides the length of every non-empty entry that lies inside the data,
/// among at most [`DETECT_SAMPLE`] records spread evenly over the index; the first such size,
/// or `sizes[0]` when none does (entries that disagree are reported when read).
pub(crate) fn detect_record_size(index: &[IndexRecord], data_len: usize, sizes: &[usize]) -> usize {
    let step = index.len().div_ceil(DETECT_SAMPLE).max(1);
    let lengths = || {
        index
            .iter()
            .step_by(step)
            .filter(|r| !is_empty(r))
            .filter_map(|r| {
                // Two u32s: their sum fits a u64.
                let end = u64::from(r.offset.get()).saturating_add(u64::from(r.length.get()));
                (end <= data_len as u64).then(|| r.length.get() as usize)
            })
    };
    sizes
        .iter()
        .copied()
        .find(|&size| size > 0 && lengths().all(|len| len.is_multiple_of(size)))
        .or_else(|| sizes.first().copied())
        .unwrap_or(1)
}

/// An index file and its data file found together in a folder (multi.idx and multi.mul,
/// artidx.mul and art.mul): their bytes, the sets' shared part.
pub(crate) struct IndexedPair {
    pub(crate) index: FileData,
    pub(crate) data: FileData,
}

impl IndexedPair {
    /// The pair named `names` (index, data) in `dir`, any letter case.
    pub(crate) fn find(
        dir: &Path,
        [index, data]: [&str; 2],
    ) -> Result<Option<[PathBuf; 2]>, Error> {
        let index = find_file_ignoring_case(dir, index)?;
        let data = find_file_ignoring_case(dir, data)?;
        Ok(Some([index, data]))
    }

    /// Loads both files (nothing for bytes handed over).
    pub(crate) fn load(
        paths: &Option<[PathBuf; 2]>,
        load: &mut dyn FnMut(&Path) -> Result<FileData, FileError>,
    ) -> Result<[FileData; 2], FileError> {
        match paths {
            Some([index, data]) => Ok([load(index)?, load(data)?]),
            None => Ok([FileData::from(&[][..]), FileData::from(&[][..])]),
        }
    }

    /// The pair, once `check` (the view's parse) took its bytes; its error names the index
    /// found at `paths`.
    pub(crate) fn checked(
        paths: Option<&[PathBuf; 2]>,
        [index, data]: [FileData; 2],
        check: impl FnOnce(&[u8], &[u8]) -> Result<(), DataError>,
    ) -> Result<Self, DataError> {
        check(&index, &data).map_err(|e| match paths {
            Some([index, _]) => DataError::in_file(index)(e),
            None => e,
        })?;
        Ok(IndexedPair { index, data })
    }

    pub(crate) fn debug(
        &self,
        f: &mut fmt::Formatter<'_>,
        name: &str,
        paths: &Option<[PathBuf; 2]>,
    ) -> fmt::Result {
        f.debug_struct(name)
            .field("paths", paths)
            .field("index", &self.index)
            .field("data", &self.data)
            .finish()
    }
}
