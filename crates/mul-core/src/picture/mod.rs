//! What art, gumps and texture maps share: an index over a data file whose entries are
//! pictures (`PictureIndex`, crate-internal: entries checked to lie inside the data file
//! and not to overlap but exactly, verdata patches read instead of the entries they name),
//! the art and gump UOPs seen as that index ([`UopIndex`], [`UopPictures`]), where a
//! folder's art or gumps are and their bytes ([`PicturePaths`], [`PictureData`], in either
//! [`ArtFormat`]), and, behind the `write` feature, the conversion of art and gumps between
//! their MUL and UOP forms ([`convert`]). Source: `docs/formats/uo.md`, "Index files", "Art"
//! and "Gumps".

use std::sync::{Arc, OnceLock};

use gamedata_io::Overlaps;

use crate::error::{DataError, ErrorKind, IndexProblem};
use crate::index::parse_index;
use crate::raw::{EMPTY, IndexRecord};
use crate::verdata::{Patches, Verdata, VerdataEntry};

#[cfg(feature = "write")]
pub mod convert;
mod files;
mod uop;

pub use files::{PictureData, PicturePaths};
pub(crate) use files::{PictureStore, StoredPictures};
pub use uop::{ArtFormat, ITEM_BASE, MIN_UOP_SLOTS, UopIndex, UopPictures};

/// True if an art, gump or texture index entry holds nothing, as the client decides: offset
/// 0xFFFFFFFF, or a length that is 0 or negative as a signed 32-bit number. Offset 0 is a
/// real place (`docs/formats/uo.md`, "Index files").
#[inline]
pub(crate) fn picture_entry_is_empty(record: &IndexRecord) -> bool {
    record.offset.get() == EMPTY || record.length.get().cast_signed() <= 0
}

/// The overlapping entries of a picture index, found on first use and shared by the views
/// made from one owner, so that a view costs nothing to make.
pub(crate) type SharedOverlaps = Arc<OnceLock<Overlaps>>;

/// An index over a data file whose entries are pictures: each entry's bytes, checked to lie
/// inside the data file and not to overlap another entry's bytes but exactly (two numbers
/// may name the same bytes, as editors write them).
#[derive(Clone)]
pub(crate) struct PictureIndex<'data> {
    pub(crate) index: &'data [IndexRecord],
    pub(crate) data: &'data [u8],
    /// Index file's name, for messages.
    pub(crate) file: &'static str,
    overlaps: SharedOverlaps,
    /// For a UOP's index, where the slots whose entries could not be taken are told.
    pub(crate) uop: Option<&'data UopIndex>,
    /// verdata.mul's patches, read instead of the index's entries they name.
    patches: Option<Patches<'data>>,
}

impl<'data> PictureIndex<'data> {
    /// Casts the index; its overlapping entries are found when an entry is first read (one
    /// pass when the entries lie in order, a sort of the used ones otherwise), into
    /// `overlaps`.
    ///
    /// Returns `Err` ([`ErrorKind::RecordMultiple`]) if the index is not whole records.
    pub(crate) fn parse(
        index: &'data [u8],
        data: &'data [u8],
        file: &'static str,
        overlaps: SharedOverlaps,
    ) -> Result<Self, DataError> {
        Ok(PictureIndex {
            index: parse_index(index, file)?,
            data,
            file,
            overlaps,
            uop: None,
            patches: None,
        })
    }

    /// The index a UOP's slots make ([`UopIndex::build`]) over the container's bytes.
    pub(crate) fn from_uop(
        uop: &'data UopIndex,
        data: &'data [u8],
        file: &'static str,
        overlaps: SharedOverlaps,
    ) -> Self {
        PictureIndex {
            index: uop.records(),
            data,
            file,
            overlaps,
            uop: Some(uop),
            patches: None,
        }
    }

    /// Entry `entry`'s extra word: its patch's when verdata patches it, else its record's.
    pub(crate) fn extra(&self, entry: usize) -> u32 {
        if let Some(Ok(Some((_, extra)))) = self.patches.as_ref().and_then(|p| p.get(entry)) {
            return extra;
        }
        self.index.get(entry).map_or(0, |r| r.extra.get())
    }

    /// This index with file `file`'s patches of `verdata` read instead of the entries they
    /// name.
    pub(crate) fn patched(mut self, verdata: &Verdata<'data>, file: u32) -> Self {
        self.patches = Some(Patches::new(verdata, file, self.index.len()));
        self
    }

    /// Entry `entry`'s verdata patch, if it has one.
    pub(crate) fn patch(&self, entry: usize) -> Option<&'data VerdataEntry> {
        self.patches.as_ref()?.entry_of(entry)
    }

    /// Entries verdata patches.
    pub(crate) fn patch_count(&self) -> usize {
        self.patches.as_ref().map_or(0, Patches::len)
    }

    fn overlaps(&self) -> &Overlaps {
        self.overlaps.get_or_init(|| {
            let (index, data_len) = (self.index, self.data.len() as u64);
            Overlaps::find_allowing_repeats(index.len(), |i| {
                let record = index.get(i).filter(|r| !picture_entry_is_empty(r))?;
                let start = u64::from(record.offset.get());
                let end = start.saturating_add(u64::from(record.length.get()));
                (end <= data_len).then_some((start, end))
            })
        })
    }

    /// Entry `entry`'s bytes; `None` for an empty entry.
    ///
    /// Returns `Err` ([`ErrorKind::MissingIndexEntry`]) past the index's end, or
    /// ([`ErrorKind::IndexEntry`]) for bytes outside the data file or overlapping another
    /// entry's but exactly.
    pub(crate) fn entry(&self, entry: usize) -> Result<Option<&'data [u8]>, DataError> {
        if let Some(patched) = self.patches.as_ref().and_then(|p| p.get(entry)) {
            return Ok(patched?.map(|(bytes, _)| bytes));
        }
        let record = self.index.get(entry).ok_or(ErrorKind::MissingIndexEntry {
            file: self.file,
            entry,
            records: self.index.len(),
        })?;
        if picture_entry_is_empty(record) {
            return match self.uop.and_then(|uop| uop.problem(self.data, entry)) {
                Some(error) => Err(error),
                None => Ok(None),
            };
        }
        let bad = |problem| ErrorKind::IndexEntry {
            file: self.file,
            entry,
            offset: record.offset.get(),
            length: record.length.get(),
            data_len: self.data.len(),
            problem,
        };
        let (at, len) = (record.offset.get() as usize, record.length.get() as usize);
        let bytes = at
            .checked_add(len)
            .and_then(|end| self.data.get(at..end))
            .ok_or(bad(IndexProblem::PastEnd))?;
        if let Some(other) = self.overlaps().overlapped_by(entry) {
            return Err(bad(IndexProblem::Overlap { other }).into());
        }
        Ok(Some(bytes))
    }
}
