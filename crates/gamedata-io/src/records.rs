//! A whole file (or entry) read as a table of fixed-size records, cast in place.
//!
//! Many game files are nothing but records: radarcol.mul (2-byte colours), hues.mul
//! (708-byte groups), a statics index (12-byte records), TILES.MNI (32-byte tiles). A length
//! that is not a whole number of records means a wrong or damaged file.

use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

/// A file's length is not a whole number of its records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[error("{len} bytes are not a whole number of {record}-byte records")]
pub struct RecordLengthError {
    /// The file's length in bytes.
    pub len: u64,
    /// The record's size in bytes.
    pub record: usize,
}

/// `data` as records of `T`, cast in place.
///
/// Returns `Err` if `data`'s length is not a multiple of `T`'s size.
///
/// ```
/// use gamedata_io::records;
/// use zerocopy::little_endian::U16;
/// let colours = records::<U16>(&[1, 0, 2, 0]).unwrap();
/// assert_eq!(colours[1].get(), 2);
/// assert_eq!(records::<U16>(&[1, 0, 2]).unwrap_err().len, 3);
/// ```
pub fn records<T>(data: &[u8]) -> Result<&[T], RecordLengthError>
where
    T: FromBytes + Immutable + KnownLayout + Unaligned,
{
    match whole_records::<T>(data) {
        (table, 0) => Ok(table),
        _ => Err(RecordLengthError {
            len: data.len() as u64,
            record: size_of::<T>(),
        }),
    }
}

/// The whole records of `T` at the start of `data`, cast in place, and the number of bytes
/// left over after them: for files whose bad tail is reported but does not hide the rest.
/// A zero-sized `T` gives no record.
pub fn whole_records<T>(data: &[u8]) -> (&[T], usize)
where
    T: FromBytes + Immutable + KnownLayout + Unaligned,
{
    let Some(count) = data.len().checked_div(size_of::<T>()) else {
        return (&[], data.len());
    };
    match <[T]>::ref_from_prefix_with_elems(data, count) {
        Ok((table, rest)) => (table, rest.len()),
        Err(_) => (&[], data.len()),
    }
}
