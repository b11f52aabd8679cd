//! The 12-byte index files shared by statics (staidx*.mul) and multis (multi.idx).

use gamedata_io::Bytes;

use crate::error::{Error, IndexProblem, Result};
use crate::raw::{EMPTY, IndexRecord};

/// Casts an index file in place.
///
/// Returns `Err` ([`Error::FileSize`]) if it is not a whole number of 12-byte records.
pub(crate) fn parse_index<'data>(
    data: &'data [u8],
    what: &'static str,
) -> Result<&'data [IndexRecord]> {
    let record = size_of::<IndexRecord>();
    let wrong = || Error::FileSize {
        what,
        found: data.len() as u64,
        expected: format!("a multiple of the {record}-byte index record"),
    };
    if !data.len().is_multiple_of(record) {
        return Err(wrong());
    }
    Bytes::new(data)
        .slice_at::<IndexRecord>(0, data.len() / record)
        .map_err(|_| wrong())
}

/// True if an index entry holds nothing: offset 0xFFFFFFFF, or length 0 or 0xFFFFFFFF.
/// Offset 0 is a valid place (`docs/formats/uo.md`, "Statics").
#[inline]
pub(crate) fn is_empty(record: &IndexRecord) -> bool {
    let (offset, length) = (record.offset.get(), record.length.get());
    offset == EMPTY || length == 0 || length == EMPTY
}

/// The data bytes of a non-empty index entry, checked to lie inside `data` and to hold whole
/// records of `record_len` bytes.
pub(crate) fn entry_bytes<'data>(
    record: &IndexRecord,
    data: &'data [u8],
    record_len: usize,
    file: &'static str,
    entry: usize,
) -> Result<&'data [u8]> {
    let (offset, length) = (record.offset.get(), record.length.get());
    let error = |problem| Error::IndexEntry {
        file,
        entry,
        offset,
        length,
        data_len: data.len(),
        problem,
    };
    let (Ok(at), Ok(len)) = (usize::try_from(offset), usize::try_from(length)) else {
        return Err(error(IndexProblem::PastEnd));
    };
    let bytes = Bytes::new(data)
        .bytes_at(at, len)
        .map_err(|_| error(IndexProblem::PastEnd))?;
    if record_len == 0 || !len.is_multiple_of(record_len) {
        return Err(error(IndexProblem::NotWholeRecords { record: record_len }));
    }
    Ok(bytes)
}

/// Which of `sizes` divides the length of every non-empty entry that lies inside the data;
/// the first such size, or `sizes[0]` when none does (the bad entries are then reported).
pub(crate) fn detect_record_size(index: &[IndexRecord], data_len: usize, sizes: &[usize]) -> usize {
    let lengths = || {
        index.iter().filter(|r| !is_empty(r)).filter_map(|r| {
            let end = u64::from(r.offset.get()) + u64::from(r.length.get());
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
