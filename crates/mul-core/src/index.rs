//! The 12-byte index files shared by statics (staidx*.mul) and multis (multi.idx).

use gamedata_io::records;
use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

use crate::error::{Error, ErrorKind, IndexProblem, Result};
use crate::raw::{EMPTY, IndexRecord};

/// Casts an index file in place.
///
/// Returns `Err` ([`ErrorKind::RecordMultiple`]) if it is not a whole number of 12-byte
/// records.
pub(crate) fn parse_index<'data>(
    data: &'data [u8],
    what: &'static str,
) -> Result<&'data [IndexRecord]> {
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
) -> Result<&'data [T]>
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
) -> Error {
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
