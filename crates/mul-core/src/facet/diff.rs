//! Diff patches: blocks of a facet replaced by later files, as older clients and many shards
//! ship them. `mapdifl{N}.mul` lists block numbers (u32) and `mapdif{N}.mul` holds the
//! replacing 196-byte blocks in the same order; `stadifl{N}.mul` lists block numbers,
//! `stadifi{N}.mul` their 12-byte index records and `stadif{N}.mul` the static records. A
//! later entry for the same block wins. Applying them is opt-in: a server tells a client
//! whether to. Source: `docs/formats/uo.md`, "Diff patches".

use std::fmt;

use gamedata_io::{Overlaps, PreviewBytes, PreviewTable, Problems, whole_records};

use zerocopy::little_endian::U32;
use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

use crate::error::{DiffProblem, ErrorKind};
use crate::index::index_overlaps;
use crate::raw::{IndexRecord, MapBlock};

/// Block numbers a patch may name: 2^24, far above the largest facet (458,752 blocks), so
/// that the membership bitset stays within 2 MiB.
pub const MAX_PATCH_BLOCK: u32 = 1 << 24;

/// Which blocks a patch replaces and with which of its entries: the block numbers sorted
/// (the last entry for a block kept) with a bitset for membership. Owns no file bytes.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct PatchIndex {
    /// (block number, entry number), sorted by block number, one per block.
    sorted: Vec<(u32, u32)>,
    /// Bit n set if block n is patched.
    bits: Vec<u64>,
}

impl fmt::Debug for PatchIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PatchIndex")
            .field("blocks", &PreviewTable(&self.sorted))
            .finish()
    }
}

impl PatchIndex {
    /// Indexes the block numbers of a list file (`mapdifl`, `stadifl`) whose entries are
    /// backed by `available` records in the data files. Entries past `available`, or with a
    /// block number of [`MAX_PATCH_BLOCK`] or more, are left out and reported in the
    /// returned problems ([`ErrorKind::DiffEntry`], naming `file`; the first 100 kept, all
    /// counted).
    pub fn new(
        numbers: &[U32],
        available: usize,
        file: &'static str,
    ) -> (Self, Problems<ErrorKind>) {
        let mut problems = Problems::new();
        let mut sorted = Vec::with_capacity(numbers.len().min(available));
        for (entry, number) in numbers.iter().enumerate() {
            let block = number.get();
            if entry >= available {
                problems.push(ErrorKind::DiffEntry {
                    file,
                    entry,
                    problem: DiffProblem::NoRecord { block, available },
                });
                continue;
            }
            if block >= MAX_PATCH_BLOCK {
                problems.push(ErrorKind::DiffEntry {
                    file,
                    entry,
                    problem: DiffProblem::PastAnyMap { block },
                });
                continue;
            }
            sorted.push((block, u32::try_from(entry).unwrap_or(u32::MAX)));
        }
        // Stable: for a block listed twice, the later entry comes last and wins.
        sorted.sort_by_key(|&(block, _)| block);
        let mut deduped: Vec<(u32, u32)> = Vec::with_capacity(sorted.len());
        for item in sorted {
            match deduped.last_mut() {
                Some(last) if last.0 == item.0 => *last = item,
                _ => deduped.push(item),
            }
        }
        let words = deduped
            .last()
            .map_or(0, |&(b, _)| (b as usize / 64).saturating_add(1));
        let mut bits = vec![0u64; words];
        for &(block, _) in &deduped {
            if let Some(w) = bits.get_mut(block as usize / 64) {
                *w |= 1 << (block % 64);
            }
        }
        (
            PatchIndex {
                sorted: deduped,
                bits,
            },
            problems,
        )
    }

    /// Blocks patched.
    pub fn len(&self) -> usize {
        self.sorted.len()
    }

    /// True if no block is patched.
    pub fn is_empty(&self) -> bool {
        self.sorted.is_empty()
    }

    /// True if block `block` is patched.
    #[inline]
    pub fn contains(&self, block: usize) -> bool {
        self.bits
            .get(block / 64)
            .is_some_and(|w| w & (1 << (block % 64)) != 0)
    }

    /// The entry that patches block `block`.
    #[inline]
    pub fn entry(&self, block: usize) -> Option<usize> {
        if !self.contains(block) {
            return None;
        }
        let i = self
            .sorted
            .binary_search_by_key(&block, |&(b, _)| b as usize)
            .ok()?;
        self.sorted.get(i).map(|&(_, e)| e as usize)
    }

    /// The patched block numbers, ascending, with their entries.
    pub fn blocks(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.sorted.iter().map(|&(b, e)| (b as usize, e as usize))
    }

    /// Keeps the patched blocks for which `keep(block, entry)` is true.
    fn retain(&mut self, mut keep: impl FnMut(usize, usize) -> bool) {
        self.sorted
            .retain(|&(block, entry)| keep(block as usize, entry as usize));
        self.bits.iter_mut().for_each(|w| *w = 0);
        for &(block, _) in &self.sorted {
            if let Some(w) = self.bits.get_mut(block as usize / 64) {
                *w |= 1 << (block % 64);
            }
        }
    }

    /// Patched block numbers below `blocks` (a map's block count).
    pub fn count_below(&self, blocks: usize) -> usize {
        self.sorted.partition_point(|&(b, _)| (b as usize) < blocks)
    }
}

/// A map patch: the index and the replacing blocks (`mapdif`), cast in place.
#[derive(Clone, Copy)]
pub struct MapPatch<'data> {
    /// Which blocks, and which entry each.
    pub index: &'data PatchIndex,
    /// The replacing blocks, entry by entry.
    pub blocks: &'data [MapBlock],
}

impl fmt::Debug for MapPatch<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MapPatch")
            .field("index", &self.index)
            .field("blocks", &self.blocks.len())
            .finish()
    }
}

impl<'data> MapPatch<'data> {
    /// The replacing block for block `block`, if patched.
    #[inline]
    pub fn block(&self, block: usize) -> Option<&'data MapBlock> {
        self.blocks.get(self.index.entry(block)?)
    }
}

/// A statics patch: the index, the replacing index records (`stadifi`) and their data
/// (`stadif`), cast in place.
#[derive(Clone, Copy)]
pub struct StaticsPatch<'data> {
    /// Which blocks, and which entry each.
    pub index: &'data PatchIndex,
    /// The replacing index records, entry by entry.
    pub records: &'data [IndexRecord],
    /// The static records they point into.
    pub data: &'data [u8],
}

impl fmt::Debug for StaticsPatch<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StaticsPatch")
            .field("index", &self.index)
            .field("records", &PreviewTable(self.records))
            .field("data", &PreviewBytes(self.data))
            .finish()
    }
}

/// The patch indexes of a facet's diff files, built once from their bytes.
#[derive(Debug, Default)]
pub struct DiffIndex {
    /// mapdifl + mapdif.
    pub map: PatchIndex,
    /// stadifl + stadifi.
    pub statics: PatchIndex,
    /// Entries left out and files of the wrong length: the first 100 kept, all counted.
    pub problems: Problems<ErrorKind>,
}

/// The whole records of `T` in a diff file named `what`, and a problem if bytes are left
/// over.
fn whole<'a, T>(data: &'a [u8], what: &'static str, problems: &mut Problems<ErrorKind>) -> &'a [T]
where
    T: FromBytes + Immutable + KnownLayout + Unaligned,
{
    let (table, left) = whole_records::<T>(data);
    if left > 0 {
        problems.push(ErrorKind::RecordMultiple {
            what,
            found: data.len() as u64,
            record: size_of::<T>(),
        });
    }
    table
}

impl DiffIndex {
    /// Indexes the diff files present: `map` as (mapdifl, mapdif) bytes, `statics` as
    /// (stadifl, stadifi, stadif) bytes. Never fails: what cannot be used is in `problems`.
    ///
    /// A stadifi record used by the patch whose bytes of stadif overlap another used
    /// record's is left out ([`DiffProblem::Overlap`]; the block keeps the map's statics), so
    /// that reading every patched block reads each byte of stadif at most once.
    pub fn new(map: Option<(&[u8], &[u8])>, statics: Option<(&[u8], &[u8], &[u8])>) -> Self {
        let mut problems = Problems::new();
        let mut index = DiffIndex::default();
        if let Some((list, blocks)) = map {
            let list = whole::<U32>(list, "mapdifl", &mut problems);
            let blocks = whole::<MapBlock>(blocks, "mapdif", &mut problems);
            let (p, more) = PatchIndex::new(list, blocks.len(), "mapdifl");
            index.map = p;
            problems.append(more);
        }
        if let Some((list, records, data)) = statics {
            let list = whole::<U32>(list, "stadifl", &mut problems);
            let records = whole::<IndexRecord>(records, "stadifi", &mut problems);
            let (mut p, more) = PatchIndex::new(list, records.len(), "stadifl");
            problems.append(more);
            let overlaps = used_overlaps(&p, records, data.len());
            p.retain(|block, entry| match overlaps.overlapped_by(entry) {
                None => true,
                Some(other) => {
                    problems.push(ErrorKind::DiffEntry {
                        file: "stadifi",
                        entry,
                        problem: DiffProblem::Overlap {
                            block: u32::try_from(block).unwrap_or(u32::MAX),
                            other,
                        },
                    });
                    false
                }
            });
            index.statics = p;
        }
        index.problems = problems;
        index
    }
}

/// The overlapping ones among the stadifi records that `patch` uses (a record superseded
/// by a later entry for its block is never read, so it cannot overlap).
fn used_overlaps(patch: &PatchIndex, records: &[IndexRecord], data_len: usize) -> Overlaps {
    let mut used = vec![false; records.len()];
    for (_, entry) in patch.blocks() {
        if let Some(u) = used.get_mut(entry) {
            *u = true;
        }
    }
    index_overlaps(records, data_len, |entry| {
        used.get(entry).copied().unwrap_or(false)
    })
}

/// The whole 196-byte blocks of a `mapdif` file, cast in place.
pub fn map_blocks(data: &[u8]) -> &[MapBlock] {
    whole_records(data).0
}

/// The whole 12-byte records of a `stadifi` file, cast in place.
pub fn index_records(data: &[u8]) -> &[IndexRecord] {
    whole_records(data).0
}
