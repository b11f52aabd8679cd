//! verdata.mul: patches the old clients apply over the other files. An i32 count, then that
//! many 20-byte entries `{file id, block, offset, length, extra}`, each naming a place in
//! verdata.mul itself. Art (file 4) and gump (file 12) patches are applied by
//! [`Art::with_verdata`](crate::Art::with_verdata) and
//! [`Gumps::with_verdata`](crate::Gumps::with_verdata). Source: `docs/formats/uo.md`,
//! "Patches: verdata.mul" (ClassicUO `VerdataLoader.Load`, `UOFileManager.Load`).
//!
//! [`Verdata`] is the view, [`VerdataFile`] its owner.

use std::fmt;
use std::sync::Arc;

use gamedata_io::{Bytes, Overlaps, Owned, PreviewBytes, record};
use zerocopy::little_endian::U32;

use crate::error::{DataError, ErrorKind, IndexProblem};

record! {
    /// One patch: which file and block it replaces, and where its bytes lie in verdata.mul.
    pub struct VerdataEntry {
        /// The patched file (4 art, 12 gumps; see `docs/formats/uo.md` for the rest).
        pub file: U32,
        /// The block, art number or gump id replaced.
        pub block: U32,
        /// Where the patch's bytes start in verdata.mul.
        pub offset: U32,
        /// Bytes of the patch.
        pub length: U32,
        /// For a gump, its size as gumpidx.mul packs it (width in the high 16 bits).
        pub extra: U32,
    } = 20;
}

/// verdata.mul's file id of art.mul.
pub const ART_FILE: u32 = 4;
/// verdata.mul's file id of gumpart.mul.
pub const GUMPS_FILE: u32 = 12;

/// verdata.mul, borrowed: its table of patches cast in place.
#[derive(Clone, Copy)]
pub struct Verdata<'data> {
    data: &'data [u8],
    entries: &'data [VerdataEntry],
    declared: i32,
}

impl fmt::Debug for Verdata<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Verdata")
            .field("declared", &self.declared)
            .field("entries", &self.entries.len())
            .field("data", &PreviewBytes(self.data))
            .finish()
    }
}

impl<'data> Verdata<'data> {
    /// Casts the table: the entries the count declares that fit in the file. A file too
    /// short for the count has none; a negative count has none; a table cut short keeps the
    /// entries that fit (the client also applies zeroed entries for the missing ones, as
    /// patches of map0's block 0, which this crate does not apply).
    ///
    /// Never fails (every file is one the client reads); the `Result` keeps the readers'
    /// shape.
    pub fn parse(data: &'data [u8]) -> Result<Self, DataError> {
        let bytes = Bytes::new(data);
        let declared = bytes
            .read_at::<zerocopy::little_endian::I32>(0)
            .map_or(0, |c| c.get());
        let room = data
            .len()
            .saturating_sub(4)
            .checked_div(size_of::<VerdataEntry>())
            .unwrap_or(0);
        let count = usize::try_from(declared).unwrap_or(0).min(room);
        let entries = bytes.slice_at::<VerdataEntry>(4, count).unwrap_or_default();
        Ok(Verdata {
            data,
            entries,
            declared,
        })
    }

    /// The patches, in the file's order (a later one of the same block wins).
    pub fn entries(&self) -> &'data [VerdataEntry] {
        self.entries
    }

    /// The count the file declares (the entries may be fewer: those that fit).
    pub fn declared(&self) -> i32 {
        self.declared
    }

    /// The file's bytes, which patches lie in.
    pub fn data(&self) -> &'data [u8] {
        self.data
    }
}

/// A patch's bytes (`None` for a patch of no byte) and its extra word.
pub(crate) type PatchBytes<'data> = Option<(&'data [u8], u32)>;

/// The patches of one file over a picture index of `count` entries: for each patched
/// number the last patch of it, and which patches' bytes overlap another's but exactly.
/// Memory: 8 bytes a patch of the file; an entry of the index costs nothing.
#[derive(Clone, Debug)]
pub(crate) struct Patches<'data> {
    data: &'data [u8],
    entries: &'data [VerdataEntry],
    /// (number, entry of `entries`), sorted by number, one a number.
    by_number: Arc<[(u32, u32)]>,
    /// Over the positions of `by_number`.
    overlaps: Arc<Overlaps>,
}

impl<'data> Patches<'data> {
    /// The patches of file `file` in `verdata` for numbers below `count` (the client skips
    /// art patches past the art table; gump patches past the index are skipped too, where
    /// the client would write past its table).
    pub(crate) fn new(verdata: &Verdata<'data>, file: u32, count: usize) -> Self {
        let entries = verdata.entries;
        let mut by_number: Vec<(u32, u32)> = entries
            .iter()
            .zip(0u32..)
            .filter(|(e, _)| e.file.get() == file && (e.block.get() as usize) < count)
            .map(|(e, i)| (e.block.get(), i))
            .collect();
        by_number.sort_unstable();
        // The last patch of each number wins: keep the last of each run.
        by_number.reverse();
        by_number.dedup_by_key(|(number, _)| *number);
        by_number.reverse();
        let data_len = verdata.data.len() as u64;
        let overlaps = Overlaps::find_allowing_repeats(by_number.len(), |at| {
            let &(_, i) = by_number.get(at)?;
            let e = entries.get(i as usize)?;
            let start = u64::from(e.offset.get());
            let end = start.saturating_add(u64::from(e.length.get()));
            (end <= data_len).then_some((start, end))
        });
        Patches {
            data: verdata.data,
            entries,
            by_number: by_number.into(),
            overlaps: Arc::new(overlaps),
        }
    }

    /// Number `number`'s patch, if it has one.
    pub(crate) fn entry_of(&self, number: usize) -> Option<&'data VerdataEntry> {
        self.find(number).map(|(_, entry)| entry)
    }

    /// Number `number`'s place in `by_number` and its patch, if it has one.
    fn find(&self, number: usize) -> Option<(usize, &'data VerdataEntry)> {
        let key = u32::try_from(number).ok()?;
        let at = self
            .by_number
            .binary_search_by_key(&key, |&(n, _)| n)
            .ok()?;
        let &(_, i) = self.by_number.get(at)?;
        Some((at, self.entries.get(i as usize)?))
    }

    /// Patches kept (one a number).
    pub(crate) fn len(&self) -> usize {
        self.by_number.len()
    }

    /// Number `number`'s patch, if it has one: its bytes (`None` for a patch of no byte)
    /// and its extra word.
    ///
    /// Returns `Err` ([`ErrorKind::IndexEntry`] naming verdata.mul) if the patch lies
    /// outside verdata.mul or overlaps another patch's bytes but exactly.
    pub(crate) fn get(&self, number: usize) -> Option<Result<PatchBytes<'data>, DataError>> {
        let (at, entry) = self.find(number)?;
        let (offset, length) = (entry.offset.get(), entry.length.get());
        let bad = |problem| {
            DataError::from(ErrorKind::IndexEntry {
                file: "verdata.mul",
                entry: number,
                offset,
                length,
                data_len: self.data.len(),
                problem,
            })
        };
        if length == 0 || length == u32::MAX {
            return Some(Ok(None));
        }
        let bytes = (offset as usize)
            .checked_add(length as usize)
            .and_then(|end| self.data.get(offset as usize..end));
        let Some(bytes) = bytes else {
            return Some(Err(bad(IndexProblem::PastEnd)));
        };
        if let Some(other) = self.overlaps.overlapped_by(at) {
            let other = self.by_number.get(other).map_or(0, |&(n, _)| n as usize);
            return Some(Err(bad(IndexProblem::Overlap { other })));
        }
        Some(Ok(Some((bytes, entry.extra.get()))))
    }
}

/// verdata.mul, owned ([`Owned`] of [`VerdataContents`]; view: [`Verdata`]).
pub type VerdataFile = Owned<VerdataContents>;

single_file! {
    /// verdata.mul's bytes ([`Verdata::parse`]: every length is taken).
    VerdataContents => Verdata
}
