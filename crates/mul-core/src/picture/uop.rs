//! The art and gump UOPs (artLegacyMUL.uop, gumpartLegacyMUL.uop) seen as the MUL index the
//! client makes of them: one 12-byte record a slot, pointing into the container's bytes, so
//! that the MUL readers read either form in place.
//!
//! The client gives such a UOP `max(entries, 65,535) + 0x4000` slots, `entries` being the
//! sum of its table blocks' counts (used and unused); slot `i` holds the entry whose name
//! hashes as `build/artlegacymul/{i:08}.tga` (`build/gumpartlegacymul/...` for gumps), and a
//! slot whose name is not in the file is empty. An art entry's stored bytes are the MUL
//! entry's; a gump entry's start with its i32 width and i32 height, then the MUL gump data.
//! Source: `docs/formats/uo.md`, "Art" ("How many items") and "Gumps"
//! ("gumpartLegacyMUL.uop"), from ClassicUO's `UOFileUop.FillEntries`.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

use gamedata_io::{Bytes, Limits};
use zerocopy::FromZeros;

use crate::error::{DataError, ErrorKind, UopEntryProblem};
use crate::raw::{EMPTY, IndexRecord, UopEntryRaw};
use crate::uop::{Compression, Source, TableChain, UopTables, name_hash, stored_range};

/// The first item's art number: item `id` is art number `ITEM_BASE + id`, after the 0x4000
/// land tiles. Defined here, where a picture UOP's slots are counted (the client gives art
/// and gump UOPs alike 0x4000 slots more than their entries), and re-exported by
/// [`art`](crate::art), whose numbering it is.
pub const ITEM_BASE: usize = 0x4000;

/// Slots the client gives a picture UOP at the least: 65,535 + 0x4000.
pub const MIN_UOP_SLOTS: usize = 65_535 + ITEM_BASE;

/// The form a folder's art or gumps are stored in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArtFormat {
    /// An index and a data file: artidx.mul with art.mul, gumpidx.mul with gumpart.mul.
    Mul,
    /// One UOP container: artLegacyMUL.uop, gumpartLegacyMUL.uop.
    Uop,
}

impl ArtFormat {
    /// The name in reports: `mul`, `uop`.
    pub fn name(self) -> &'static str {
        match self {
            ArtFormat::Mul => "mul",
            ArtFormat::Uop => "uop",
        }
    }
}

/// Which pictures a UOP holds: it decides the entries' names and whether a size comes
/// before the data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UopPictures {
    /// artLegacyMUL.uop: land tiles and items, each entry the MUL entry's bytes.
    Art,
    /// gumpartLegacyMUL.uop: gumps, each entry its width and height (i32 each), then the
    /// MUL gump data.
    Gumps,
}

impl UopPictures {
    /// The entries' names but the number: `build/artlegacymul/`, `build/gumpartlegacymul/`.
    pub fn name_stem(self) -> &'static str {
        match self {
            UopPictures::Art => "build/artlegacymul/",
            UopPictures::Gumps => "build/gumpartlegacymul/",
        }
    }

    /// The container's usual file name.
    pub fn file_name(self) -> &'static str {
        match self {
            UopPictures::Art => "artLegacyMUL.uop",
            UopPictures::Gumps => "gumpartLegacyMUL.uop",
        }
    }

    /// Slot `slot`'s entry name, as hashed.
    pub fn entry_name(self, slot: usize) -> String {
        format!("{}{slot:08}.tga", self.name_stem())
    }

    /// Writes slot `slot`'s entry name into `name` (its contents replaced).
    #[cfg(feature = "write")]
    pub(crate) fn write_entry_name(self, name: &mut String, slot: usize) {
        name.clear();
        name.push_str(self.name_stem());
        // Writing into a String cannot fail.
        let _ = write!(name, "{slot:08}.tga");
    }
}

/// `extra` of a slot's record when the slot's entry could not be taken (the record's
/// offset is then 0xFFFFFFFF, read as empty, and its length holds the entry's table
/// position).
const TAKEN_BAD: u32 = 0xFFFF_FFFF;
/// `extra` of a slot's record when two entries share the slot's name (the record's length
/// holds the first one's table position, or [`UNKNOWN_FIRST`] until it is found).
const SHARED: u32 = 0xFFFF_FFFE;
/// The first entry of a shared name, not yet found.
const UNKNOWN_FIRST: u32 = 0xFFFF_FFFF;

/// A picture UOP's slots as MUL index records over the container's bytes (offsets into the
/// container, a gump's size in `extra`); a slot whose entry could not be taken reads as
/// empty here, and [`UopIndex::problem`] says why.
///
/// A gump stored compressed (compression 1: zlib, 3: zlib then Mythic's BWT stage) is a
/// slot of its own kind ([`UopIndex::is_compressed`]): its record gives where the zlib
/// stream lies (for 1, after the 8 bytes of size before it) and, in `extra`, its entry's
/// table position, not a size (the size is in the decoded bytes); it is read through
/// [`Gumps::decoded`](crate::Gumps::decoded), not in place.
///
/// Memory: 12 bytes a slot, `max(entries, 65,535) + 0x4000` slots, the entries being at
/// most one a 34 bytes of the container, a bit a slot marking the compressed gumps, and 16
/// bytes a table block. Building also holds 16 bytes a slot past the first 81,919 (their
/// names' hashes, sorted), so at its peak it holds less than the container's length plus a
/// few MiB; it hashes every slot's name once and reads each entry once (twice when names
/// are shared).
#[derive(Clone, Debug)]
pub struct UopIndex {
    records: Vec<IndexRecord>,
    pictures: UopPictures,
    /// For each table block with entries: its first entry's table position and where its
    /// entries start in the container, in chain order (positions rising).
    blocks: Vec<(usize, usize)>,
    problems: usize,
    /// A bit a slot: set for a gump stored compressed (its record's `extra` is then its
    /// entry's table position).
    compressed: Vec<u64>,
}

impl UopIndex {
    /// Reads `data` as a UOP container (within `limits`) holding `pictures`, and makes its
    /// slots' records.
    ///
    /// A slot's entry that cannot be taken is empty in the records and an error when read
    /// ([`UopIndex::problem`]): stored bytes outside the file or past 4 GiB
    /// ([`UopEntryProblem::OutsideFile`]), a name two entries share (the client refuses
    /// the whole file; here the slot alone, [`UopEntryProblem::SharedName`]), and for gumps
    /// a compression other than 0, 1 and 3 ([`UopEntryProblem::PictureCompression`]), or,
    /// stored as is, a size that is missing or past 0xFFFF ([`UopEntryProblem::GumpSize`];
    /// also for compression 1 when shorter than its 8 bytes of size).
    ///
    /// Returns `Err` as [`Uop::parse`](crate::Uop::parse), or ([`ErrorKind::Limit`]) if the slots pass
    /// `limits.max_records`.
    pub fn build(data: &[u8], limits: &Limits, pictures: UopPictures) -> Result<Self, DataError> {
        Self::build_from(Source::Whole(Bytes::new(data)), limits, pictures)
    }

    /// [`UopIndex::build`] from a container read by ranges ([`UopFetch`](crate::uop::UopFetch),
    /// [`with_gump_sizes`](crate::uop::UopFetch::with_gump_sizes) for gumps): the same
    /// records, the same errors, without the pictures' bytes. A gump's size comes from the
    /// 8 bytes read before it; a fetch made without them has none, and its gumps stored as
    /// is are then slots whose entry could not be taken ([`UopEntryProblem::GumpSize`]).
    ///
    /// Returns `Err` as [`UopIndex::build`].
    pub fn from_tables(
        tables: &UopTables,
        limits: &Limits,
        pictures: UopPictures,
    ) -> Result<Self, DataError> {
        Self::build_from(Source::Tables(tables), limits, pictures)
    }

    fn build_from(
        data: Source<'_>,
        limits: &Limits,
        pictures: UopPictures,
    ) -> Result<Self, DataError> {
        let (_, chain) = TableChain::check(data, limits)?;
        let slots = chain.entries.max(65_535).saturating_add(ITEM_BASE);
        limits.check_records("picture UOP slots", slots as u64)?;
        let known = known_slots(pictures);
        let later = later_slots(pictures, slots);
        let slot_of = |hash: u64| match known.get(&hash) {
            Some(&slot) => Some(slot as usize),
            None => later
                .binary_search_by_key(&hash, |&(h, _)| h)
                .ok()
                .and_then(|at| later.get(at))
                .map(|&(_, slot)| slot as usize),
        };
        let mut records = vec![empty_record(); slots];
        let mut compressed = vec![0u64; slots.div_ceil(64)];
        let mut blocks = Vec::new();
        let mut unknown_first = false;
        for block in chain.blocks() {
            if !block.raw.is_empty() {
                blocks.push((block.first_index, block.entries_at));
            }
            for (index, raw) in block.entries() {
                let Some(slot) = slot_of(raw.hash.get()) else {
                    continue;
                };
                let Some(at) = records.get_mut(slot) else {
                    continue;
                };
                let position = u32::try_from(index).unwrap_or(UNKNOWN_FIRST - 1);
                *at = match (at.offset.get(), at.extra.get()) {
                    // Not taken yet.
                    (EMPTY, 0) => match record(data, raw, pictures, position) {
                        Ok((record, packed)) => {
                            if packed && let Some(word) = compressed.get_mut(slot / 64) {
                                *word |= 1 << (slot % 64);
                            }
                            record
                        }
                        Err(_) => marker(position, TAKEN_BAD),
                    },
                    // Taken already: shared, its first entry found below (a marker, which
                    // `is_compressed` never reads as a compressed entry, whatever its bit).
                    _ => {
                        unknown_first = true;
                        marker(UNKNOWN_FIRST, SHARED)
                    }
                };
            }
        }
        if unknown_first {
            // The first entry (in table order) of each shared name.
            for block in chain.blocks() {
                for (index, raw) in block.entries() {
                    let Some(at) = slot_of(raw.hash.get()).and_then(|slot| records.get_mut(slot))
                    else {
                        continue;
                    };
                    if at.offset.get() == EMPTY
                        && at.extra.get() == SHARED
                        && at.length.get() == UNKNOWN_FIRST
                    {
                        at.length = u32::try_from(index).unwrap_or(UNKNOWN_FIRST - 1).into();
                    }
                }
            }
        }
        let problems = records
            .iter()
            .filter(|r| r.offset.get() == EMPTY && matches!(r.extra.get(), TAKEN_BAD | SHARED))
            .count();
        Ok(UopIndex {
            records,
            pictures,
            blocks,
            problems,
            compressed,
        })
    }

    /// True if slot `slot` holds a gump stored compressed (compression 1 or 3), read
    /// through [`Gumps::decoded`](crate::Gumps::decoded); its record's `extra` is its
    /// entry's table position.
    pub fn is_compressed(&self, slot: usize) -> bool {
        let marked = self
            .compressed
            .get(slot / 64)
            .is_some_and(|word| word >> (slot % 64) & 1 == 1);
        // A slot whose name another entry shares later is a marker, no longer compressed.
        marked
            && self
                .records
                .get(slot)
                .is_some_and(|r| r.offset.get() != EMPTY)
    }

    /// Slot `slot`'s compressed entry, when [`UopIndex::is_compressed`]: its table position
    /// and raw entry in the container `data` the index was built from.
    pub(crate) fn compressed_entry<'data>(
        &self,
        data: &'data [u8],
        slot: usize,
    ) -> Option<(usize, &'data UopEntryRaw)> {
        self.compressed_in(Source::Whole(Bytes::new(data)), slot)
    }

    /// [`UopIndex::is_compressed`]'s slot `slot` of an index made by
    /// [`UopIndex::from_tables`]: its entry's table position and raw entry in `tables`.
    /// The entry's stored bytes, read alone, decode with
    /// [`DecodedGump::from_uop_entry`](crate::DecodedGump::from_uop_entry).
    pub fn compressed_entry_in<'t>(
        &self,
        tables: &'t UopTables,
        slot: usize,
    ) -> Option<(usize, &'t UopEntryRaw)> {
        self.compressed_in(Source::Tables(tables), slot)
    }

    fn compressed_in<'data>(
        &self,
        data: Source<'data>,
        slot: usize,
    ) -> Option<(usize, &'data UopEntryRaw)> {
        if !self.is_compressed(slot) {
            return None;
        }
        let index = self.records.get(slot)?.extra.get() as usize;
        Some((index, self.raw_entry(data, index)?))
    }

    /// The records, one a slot.
    pub fn records(&self) -> &[IndexRecord] {
        &self.records
    }

    /// Which pictures the container holds.
    pub fn pictures(&self) -> UopPictures {
        self.pictures
    }

    /// Slots whose entries could not be taken.
    pub fn problems(&self) -> usize {
        self.problems
    }

    /// Why slot `slot`'s entry could not be taken, if it could not; `data` is the container
    /// the index was built from (the entry is read again to say why).
    pub fn problem(&self, data: &[u8], slot: usize) -> Option<DataError> {
        self.problem_of(Source::Whole(Bytes::new(data)), slot)
    }

    /// [`UopIndex::problem`] for an index made by [`UopIndex::from_tables`], from the
    /// same `tables`.
    pub fn problem_in(&self, tables: &UopTables, slot: usize) -> Option<DataError> {
        self.problem_of(Source::Tables(tables), slot)
    }

    fn problem_of(&self, data: Source<'_>, slot: usize) -> Option<DataError> {
        let slot_record = self.records.get(slot)?;
        let kind = slot_record.extra.get();
        if slot_record.offset.get() != EMPTY || !matches!(kind, TAKEN_BAD | SHARED) {
            return None;
        }
        let index = slot_record.length.get() as usize;
        let raw = self.raw_entry(data, index)?;
        let problem = match kind {
            SHARED => UopEntryProblem::SharedName,
            _ => record(data, raw, self.pictures, 0).err()?,
        };
        Some(
            ErrorKind::UopEntry {
                index,
                hash: raw.hash.get(),
                problem,
            }
            .into(),
        )
    }

    /// The raw entry at table position `index` in `data`.
    fn raw_entry<'data>(&self, data: Source<'data>, index: usize) -> Option<&'data UopEntryRaw> {
        let after = self.blocks.partition_point(|&(first, _)| first <= index);
        let &(first, entries_at) = self.blocks.get(after.checked_sub(1)?)?;
        let at = index
            .checked_sub(first)?
            .checked_mul(size_of::<UopEntryRaw>())?
            .checked_add(entries_at)?;
        data.read_at::<UopEntryRaw>(at).ok()
    }
}

/// A record read as empty whose `extra` says why the slot is (`TAKEN_BAD`, `SHARED`) and
/// whose length holds an entry's table position.
fn marker(position: u32, kind: u32) -> IndexRecord {
    let mut record = empty_record();
    record.length = position.into();
    record.extra = kind.into();
    record
}

/// The hashes of the names of the slots from [`MIN_UOP_SLOTS`] to `slots` - 1, each with
/// its slot, sorted by hash (none when the table has at most 65,535 entries).
fn later_slots(pictures: UopPictures, slots: usize) -> Vec<(u64, u32)> {
    let mut name = String::from(pictures.name_stem());
    let stem = name.len();
    let mut later: Vec<(u64, u32)> = (MIN_UOP_SLOTS..slots)
        .map(|slot| {
            name.truncate(stem);
            // Writing into a String cannot fail.
            let _ = write!(name, "{slot:08}.tga");
            // Slots are at most `limits.max_records`, below 2^32.
            (name_hash(&name), u32::try_from(slot).unwrap_or(u32::MAX))
        })
        .collect();
    later.sort_unstable();
    later
}

/// The hashes of the names of slots 0 to [`MIN_UOP_SLOTS`] - 1 of `pictures`, each to its
/// slot, made once a process (81,919 names hashed; a few MiB).
fn known_slots(pictures: UopPictures) -> &'static HashMap<u64, u32> {
    static ART: OnceLock<HashMap<u64, u32>> = OnceLock::new();
    static GUMPS: OnceLock<HashMap<u64, u32>> = OnceLock::new();
    let cell = match pictures {
        UopPictures::Art => &ART,
        UopPictures::Gumps => &GUMPS,
    };
    cell.get_or_init(|| {
        let mut name = String::from(pictures.name_stem());
        let stem = name.len();
        (0..MIN_UOP_SLOTS)
            .map(|slot| {
                name.truncate(stem);
                // Writing into a String cannot fail.
                let _ = write!(name, "{slot:08}.tga");
                // Below 81,919: the slot fits.
                (name_hash(&name), u32::try_from(slot).unwrap_or(u32::MAX))
            })
            .collect()
    })
}

fn empty_record() -> IndexRecord {
    let mut record = IndexRecord::new_zeroed();
    record.offset = EMPTY.into();
    record.length = EMPTY.into();
    record
}

/// Entry `entry`'s record: where its picture's bytes lie in the container, and for a gump
/// its size packed as gumpidx.mul packs it (width in the high 16 bits); for a gump stored
/// compressed (then `true`), where its zlib stream lies and its table position `position`.
fn record(
    data: Source<'_>,
    raw: &UopEntryRaw,
    pictures: UopPictures,
    position: u32,
) -> Result<(IndexRecord, bool), UopEntryProblem> {
    let too_far = || UopEntryProblem::OutsideFile {
        len: raw.compressed_len.get(),
        offset: raw.offset.get(),
        header_len: raw.header_len.get(),
        file_len: data.len() as u64,
    };
    let range = stored_range(raw, data.len()).ok_or_else(too_far)?;
    let mut record = IndexRecord::new_zeroed();
    let mut packed = false;
    let (start, end) = match pictures {
        // The client ignores the compression of art entries and reads them as stored.
        UopPictures::Art => (range.start, range.end),
        // Compression 3: the whole stored bytes are the zlib stream, the size inside.
        UopPictures::Gumps if raw.compression.get() == 3 => {
            record.extra = position.into();
            packed = true;
            (range.start, range.end)
        }
        // Compression 1: the client takes 8 bytes of size, then the zlib stream.
        UopPictures::Gumps if raw.compression.get() == 1 => {
            if range.len() < 8 {
                return Err(UopEntryProblem::GumpSize {
                    width: None,
                    height: None,
                });
            }
            record.extra = position.into();
            packed = true;
            (range.start.saturating_add(8), range.end)
        }
        UopPictures::Gumps => {
            if Compression::from_raw(raw.compression.get()) != Compression::None {
                return Err(UopEntryProblem::PictureCompression(raw.compression.get()));
            }
            let head = (range.len() >= 8)
                .then(|| data.bytes_at(range.start, 8).ok())
                .flatten();
            let size = head.and_then(|b| {
                let word = |at: usize| {
                    let bytes: [u8; 4] = b.get(at..at.checked_add(4)?)?.try_into().ok()?;
                    Some(i32::from_le_bytes(bytes))
                };
                Some((word(0)?, word(4)?))
            });
            let Some((width, height)) = size else {
                return Err(UopEntryProblem::GumpSize {
                    width: None,
                    height: None,
                });
            };
            let packed = u16::try_from(width)
                .ok()
                .zip(u16::try_from(height).ok())
                .map(|(w, h)| (u32::from(w) << 16) | u32::from(h))
                .ok_or(UopEntryProblem::GumpSize {
                    width: Some(width),
                    height: Some(height),
                })?;
            record.extra = packed.into();
            (range.start.saturating_add(8), range.end)
        }
    };
    // An offset of 0xFFFFFFFF means an empty entry, so the last place is 0xFFFFFFFE.
    let offset = u32::try_from(start)
        .ok()
        .filter(|&o| o != EMPTY)
        .ok_or_else(too_far)?;
    let length = u32::try_from(end.saturating_sub(start)).map_err(|_| too_far())?;
    record.offset = offset.into();
    record.length = length.into();
    Ok((record, packed))
}
