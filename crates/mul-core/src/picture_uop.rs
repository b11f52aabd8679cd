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

use gamedata_io::Limits;
use zerocopy::FromZeros;

use crate::art::ITEM_BASE;
use crate::error::{DataError, ErrorKind, UopEntryProblem};
use crate::raw::{EMPTY, IndexRecord};
use crate::uop::{Compression, UopEntry, UopFile, name_hash};

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
}

/// A slot whose entry could not be taken, kept to be reported when the slot is read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SlotProblem {
    slot: usize,
    entry: usize,
    hash: u64,
    problem: UopEntryProblem,
}

impl SlotProblem {
    pub(crate) fn error(&self) -> DataError {
        ErrorKind::UopEntry {
            index: self.entry,
            hash: self.hash,
            problem: self.problem,
        }
        .into()
    }
}

/// A picture UOP's slots as MUL index records over the container's bytes (offsets into the
/// container, a gump's size in `extra`), with the slots whose entries could not be taken.
///
/// Memory: 12 bytes a slot, `max(entries, 65,535) + 0x4000` slots, the entries being at
/// most one a 34 bytes of the container; building hashes every slot's name once.
#[derive(Clone, Debug, Default)]
pub struct UopIndex {
    records: Vec<IndexRecord>,
    /// Sorted by slot.
    problems: Vec<SlotProblem>,
}

impl UopIndex {
    /// Reads `data` as a UOP container (within `limits`) holding `pictures`, and makes its
    /// slots' records.
    ///
    /// A slot's entry that cannot be taken is empty in the records and an error when read
    /// ([`UopIndex::problem`]): stored bytes outside the file or past 4 GiB
    /// ([`UopEntryProblem::OutsideFile`]), a name two entries share (the client refuses
    /// the whole file; here the slot alone, [`UopEntryProblem::SharedName`]), and for gumps
    /// a stored form other than as is ([`UopEntryProblem::PictureCompression`]) or a size
    /// that is missing or past 0xFFFF ([`UopEntryProblem::GumpSize`]).
    ///
    /// Returns `Err` as [`UopFile::parse`], or ([`ErrorKind::Limit`]) if the slots pass
    /// `limits.max_records`.
    pub fn build(data: &[u8], limits: &Limits, pictures: UopPictures) -> Result<Self, DataError> {
        let uop = UopFile::parse(data, limits)?;
        let slots = uop.table_entries().max(65_535).saturating_add(ITEM_BASE);
        limits.check_records("picture UOP slots", slots as u64)?;
        // Each name's entry, `None` when two entries share it.
        let mut by_hash: HashMap<u64, Option<usize>> = HashMap::with_capacity(uop.entries().len());
        for (i, entry) in uop.entries().iter().enumerate() {
            by_hash
                .entry(entry.hash())
                .and_modify(|e| *e = None)
                .or_insert(Some(i));
        }
        let mut records = vec![empty_record(); slots];
        let mut problems = Vec::new();
        let mut place = |slot: usize, hash: u64, taken: &Option<usize>| {
            let taken = match taken {
                None => Err(SlotProblem {
                    slot,
                    entry: first_with_hash(&uop, hash),
                    hash,
                    problem: UopEntryProblem::SharedName,
                }),
                Some(i) => match uop.entries().get(*i) {
                    Some(entry) => record(&uop, entry, pictures).map_err(|problem| SlotProblem {
                        slot,
                        entry: entry.index(),
                        hash,
                        problem,
                    }),
                    None => return,
                },
            };
            match (taken, records.get_mut(slot)) {
                (Ok(record), Some(at)) => *at = record,
                (Err(problem), _) => problems.push(problem),
                (Ok(_), None) => {}
            }
        };
        // The first slots' names are hashed once a process: each entry finds its slot.
        let known = known_slots(pictures);
        for (&hash, taken) in &by_hash {
            if let Some(&slot) = known.get(&hash) {
                place(slot as usize, hash, taken);
            }
        }
        // Slots past those (a table of more than 65,535 entries): their names hashed here.
        let mut name = String::from(pictures.name_stem());
        let stem = name.len();
        for slot in MIN_UOP_SLOTS..slots {
            name.truncate(stem);
            // Writing into a String cannot fail.
            let _ = write!(name, "{slot:08}.tga");
            let hash = name_hash(&name);
            if let Some(taken) = by_hash.get(&hash) {
                place(slot, hash, taken);
            }
        }
        problems.sort_unstable_by_key(|p| p.slot);
        Ok(UopIndex { records, problems })
    }

    /// The records, one a slot.
    pub fn records(&self) -> &[IndexRecord] {
        &self.records
    }

    /// Slots whose entries could not be taken.
    pub fn problems(&self) -> usize {
        self.problems.len()
    }

    /// Why slot `slot`'s entry could not be taken, if it could not.
    pub fn problem(&self, slot: usize) -> Option<DataError> {
        slot_problem(&self.problems, slot)
    }

    pub(crate) fn slot_problems(&self) -> &[SlotProblem] {
        &self.problems
    }
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

/// Why slot `slot` could not be taken, from `problems` (sorted by slot).
pub(crate) fn slot_problem(problems: &[SlotProblem], slot: usize) -> Option<DataError> {
    let at = problems.binary_search_by_key(&slot, |p| p.slot).ok()?;
    problems.get(at).map(SlotProblem::error)
}

fn empty_record() -> IndexRecord {
    let mut record = IndexRecord::new_zeroed();
    record.offset = EMPTY.into();
    record.length = EMPTY.into();
    record
}

/// The table position of the first entry named by `hash`.
fn first_with_hash(uop: &UopFile<'_>, hash: u64) -> usize {
    uop.entries()
        .iter()
        .find(|e| e.hash() == hash)
        .map_or(0, UopEntry::index)
}

/// Entry `entry`'s record: where its picture's bytes lie in the container, and for a gump
/// its size packed as gumpidx.mul packs it (width in the high 16 bits).
fn record(
    uop: &UopFile<'_>,
    entry: &UopEntry<'_>,
    pictures: UopPictures,
) -> Result<IndexRecord, UopEntryProblem> {
    let range = uop.stored_range(entry).map_err(|_| {
        let raw = entry.raw();
        UopEntryProblem::OutsideFile {
            len: raw.compressed_len.get(),
            offset: raw.offset.get(),
            header_len: raw.header_len.get(),
            file_len: uop.data().len() as u64,
        }
    })?;
    let mut record = IndexRecord::new_zeroed();
    let (start, end) = match pictures {
        // The client ignores the compression of art entries and reads them as stored.
        UopPictures::Art => (range.start, range.end),
        UopPictures::Gumps => {
            if entry.compression() != Compression::None {
                return Err(UopEntryProblem::PictureCompression(
                    entry.raw().compression.get(),
                ));
            }
            let size = uop.data().get(range.start..range.end).and_then(|b| {
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
    let too_far = || UopEntryProblem::OutsideFile {
        len: entry.raw().compressed_len.get(),
        offset: entry.raw().offset.get(),
        header_len: entry.raw().header_len.get(),
        file_len: uop.data().len() as u64,
    };
    // An offset of 0xFFFFFFFF means an empty entry, so the last place is 0xFFFFFFFE.
    let offset = u32::try_from(start)
        .ok()
        .filter(|&o| o != EMPTY)
        .ok_or_else(too_far)?;
    let length = u32::try_from(end.saturating_sub(start)).map_err(|_| too_far())?;
    record.offset = offset.into();
    record.length = length.into();
    Ok(record)
}
