//! Group files: COSMO1.STN, COSMO1.VOL (and Duke Nukem II's NUKEM2.CMP, same format).
//!
//! A group file starts with a 4,000-byte directory of 200 slots of 20 bytes
//! ([`GroupSlot`]): a 12-byte name, a u32 offset and a u32 size. The directory ends at the
//! first slot with an empty name or with offset = size = 0; that last slot may hold the entry
//! count as ASCII ("21" in COSMO1.STN, "36" in COSMO1.VOL). Entry data follows the directory.
//! Source: `docs/formats/cosmo.md`, "Group files".

use std::borrow::Cow;
use std::fmt;

use gamedata_io::{Bytes, Overlaps, field_text};

use crate::error::{DataError, ErrorKind, Result};
use crate::raw::{GROUP_DIRECTORY_LEN, GROUP_NAME_LEN, GROUP_SLOTS, GroupSlot};

/// A parsed group file: a view of its directory over the file's bytes.
///
/// Parsing checks that the 4,000-byte directory is there and which entries' bytes overlap
/// another's (real group files give each entry bytes of its own); each entry's range is
/// checked when its data is asked for, so one bad entry never hides the others. Of entries
/// that overlap, the one that starts first is read and the others are bad
/// ([`ErrorKind::EntryOverlap`]), so reading every entry reads each byte at most once.
#[derive(Clone, Copy)]
pub struct Group<'data> {
    data: &'data [u8],
    /// The entry slots, before the terminating slot.
    entries: &'data [GroupSlot],
    /// The terminating slot, when the directory has one (it may hold the ASCII entry count).
    terminator: Option<&'data GroupSlot>,
    /// Bit n set if entry n overlaps an entry that is read.
    left_out: [u64; GROUP_SLOTS.div_ceil(64)],
}

impl fmt::Debug for Group<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Group")
            .field("file_len", &self.data.len())
            .field("entries", &self.entries.len())
            .finish()
    }
}

impl<'data> Group<'data> {
    /// Parses the directory at the start of `data`.
    ///
    /// Returns `Err` ([`ErrorKind::TooShort`]) if `data` is shorter than the 4,000-byte
    /// ([`GROUP_DIRECTORY_LEN`]) directory.
    pub fn parse(data: &'data [u8]) -> Result<Self, DataError> {
        let slots = Bytes::new(data)
            .slice_at::<GroupSlot>(0, GROUP_SLOTS)
            .map_err(crate::error::too_short("group file directory"))?;
        let end = slots.iter().position(is_terminator).unwrap_or(slots.len());
        let (entries, rest) = slots.split_at(end);
        let overlaps = Overlaps::find(entries.len(), |i| {
            let slot = entries.get(i)?;
            data_range(slot, data.len()).map(|(start, end)| (start as u64, end as u64))
        });
        let mut left_out = [0u64; GROUP_SLOTS.div_ceil(64)];
        for (entry, _) in overlaps.iter() {
            if let Some(word) = left_out.get_mut(entry / 64) {
                *word |= 1 << (entry % 64);
            }
        }
        Ok(Group {
            data,
            entries,
            terminator: rest.first(),
            left_out,
        })
    }

    /// The whole file's bytes.
    pub fn bytes(&self) -> &'data [u8] {
        self.data
    }

    /// Number of entries in the directory (bad ones included).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True if the directory has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry in directory slot `index`, or `None` if the index is past the last entry.
    pub fn entry(&self, index: usize) -> Option<Entry<'data>> {
        self.entries
            .get(index)
            .map(|slot| self.make_entry(slot, index))
    }

    /// Every entry in directory order, bad ones included (their [`Entry::data`] is an `Err`).
    pub fn entries(&self) -> impl ExactSizeIterator<Item = Entry<'data>> + 'data {
        let group = *self;
        self.entries
            .iter()
            .enumerate()
            .map(move |(index, slot)| group.make_entry(slot, index))
    }

    fn make_entry(&self, slot: &'data GroupSlot, index: usize) -> Entry<'data> {
        let left_out = self
            .left_out
            .get(index / 64)
            .is_some_and(|w| w & (1 << (index % 64)) != 0);
        Entry {
            slot,
            index,
            file: self.data,
            overlaps: left_out.then(|| self.overlapped_by(slot, index)),
        }
    }

    /// The entry that is read whose bytes `slot` (left out) overlaps: the first in the
    /// directory (cold path: only for an entry that is left out).
    #[cold]
    fn overlapped_by(&self, slot: &GroupSlot, index: usize) -> usize {
        let Some((start, end)) = data_range(slot, self.data.len()) else {
            return index;
        };
        (0..self.entries.len())
            .filter(|&i| i != index)
            .filter(|&i| {
                self.left_out
                    .get(i / 64)
                    .is_some_and(|w| w & (1 << (i % 64)) == 0)
            })
            .find(|&i| {
                self.entries
                    .get(i)
                    .and_then(|other| data_range(other, self.data.len()))
                    .is_some_and(|(s, e)| s < end && start < e)
            })
            .unwrap_or(index)
    }

    /// The first entry whose name equals `name`, ignoring ASCII case, as the game compares.
    pub fn find(&self, name: &str) -> Option<Entry<'data>> {
        // An empty name or one of more than 12 bytes matches no entry (`name_matches`).
        self.entries()
            .find(|e| name_matches(&e.slot.name, name.as_bytes()))
    }

    /// The bytes of the entry named `name` (ASCII case ignored), borrowed from the file;
    /// `Ok(None)` if no entry has that name.
    ///
    /// Returns `Err` as [`Entry::data`] if the entry's bytes cannot be read.
    pub fn get(&self, name: &str) -> Result<Option<&'data [u8]>, DataError> {
        self.find(name).map(|e| e.data()).transpose()
    }

    /// The error saying that no entry is named `name` ([`ErrorKind::EntryNotFound`], naming
    /// the entry), for a caller that needs the entry ([`Group::get`] gave `Ok(None)`).
    pub fn missing(&self, name: &str) -> DataError {
        crate::error::not_found(name, "the group file")
    }

    /// The slot that ends the directory, if any (it is absent when all 200 slots are entries).
    pub fn terminator(&self) -> Option<&'data GroupSlot> {
        self.terminator
    }

    /// The entry count written as ASCII digits in the terminating slot ("21" in COSMO1.STN),
    /// or `None` if there is no such slot or its name is not a decimal number.
    pub fn declared_count(&self) -> Option<u32> {
        let name = field_text(&self.terminator?.name);
        // Digits only ("+1" would parse); an empty name does not parse.
        if !name.iter().all(u8::is_ascii_digit) {
            return None;
        }
        std::str::from_utf8(name).ok()?.parse().ok()
    }
}

/// Where a slot's data lies in a file of `file_len` bytes: `None` for an empty entry or one
/// that starts inside the directory or ends past the file (an error when read).
fn data_range(slot: &GroupSlot, file_len: usize) -> Option<(usize, usize)> {
    let start = usize::try_from(slot.offset.get()).ok()?;
    let end = start.checked_add(usize::try_from(slot.size.get()).ok()?)?;
    (start >= GROUP_DIRECTORY_LEN && end <= file_len && end > start).then_some((start, end))
}

/// A directory slot that ends the list: an empty name, or offset = size = 0.
fn is_terminator(slot: &GroupSlot) -> bool {
    slot.name[0] == 0 || (slot.offset.get() == 0 && slot.size.get() == 0)
}

/// True if the name field holds `wanted` (1..=12 bytes, ASCII case ignored) and nothing
/// after it: the next byte, if any, is the NUL that ends the name.
#[inline]
fn name_matches(field: &[u8; GROUP_NAME_LEN], wanted: &[u8]) -> bool {
    let (Some(head), tail) = (field.get(..wanted.len()), field.get(wanted.len())) else {
        return false;
    };
    head.eq_ignore_ascii_case(wanted) && tail.is_none_or(|&b| b == 0)
}

/// One entry of a group file directory.
#[derive(Clone, Copy)]
pub struct Entry<'data> {
    slot: &'data GroupSlot,
    index: usize,
    file: &'data [u8],
    /// The entry whose bytes this one overlaps, if it is left out.
    overlaps: Option<usize>,
}

impl fmt::Debug for Entry<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry")
            .field("slot", &self.index)
            .field("name", &self.name_lossy())
            .field("offset", &self.offset())
            .field("size", &self.size())
            .finish()
    }
}

impl<'data> Entry<'data> {
    /// Directory slot, from 0.
    pub fn slot(&self) -> usize {
        self.index
    }

    /// The name bytes as stored, up to the first NUL (at most 12 bytes).
    pub fn name(&self) -> &'data [u8] {
        field_text(&self.slot.name)
    }

    /// The name as text; bytes that are not UTF-8 become U+FFFD.
    pub fn name_lossy(&self) -> Cow<'data, str> {
        String::from_utf8_lossy(self.name())
    }

    /// Absolute offset of the data in bytes, as stored.
    pub fn offset(&self) -> u32 {
        self.slot.offset.get()
    }

    /// Size of the data in bytes, as stored.
    pub fn size(&self) -> u32 {
        self.slot.size.get()
    }

    /// The raw directory slot.
    pub fn raw(&self) -> &'data GroupSlot {
        self.slot
    }

    /// The entry's bytes, borrowed from the group file.
    ///
    /// Returns `Err` ([`ErrorKind::EntryOutOfBounds`]) if the data starts inside the directory or
    /// ends past the end of the file, or ([`ErrorKind::EntryOverlap`]) if its bytes overlap
    /// those of an entry that starts before it. A zero-size entry is `Ok(&[])` wherever it
    /// points.
    pub fn data(&self) -> Result<&'data [u8], DataError> {
        let (offset, size) = (self.offset(), self.size());
        if size == 0 {
            return Ok(&[]);
        }
        if let Some(other) = self.overlaps {
            return Err(ErrorKind::EntryOverlap {
                name: self.slot.name,
                slot: self.index,
                other,
            }
            .into());
        }
        let in_data_area = usize::try_from(offset).is_ok_and(|o| o >= GROUP_DIRECTORY_LEN);
        let bytes = usize::try_from(offset)
            .ok()
            .zip(usize::try_from(size).ok())
            .filter(|_| in_data_area)
            .and_then(|(at, len)| Bytes::new(self.file).bytes_at(at, len).ok());
        bytes.ok_or_else(|| {
            ErrorKind::EntryOutOfBounds {
                name: self.slot.name,
                slot: self.index,
                offset,
                end: u64::from(offset).saturating_add(u64::from(size)),
                data_start: GROUP_DIRECTORY_LEN,
                file_len: self.file.len(),
            }
            .into()
        })
    }
}
