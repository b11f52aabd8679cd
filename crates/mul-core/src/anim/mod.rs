//! Animations (anim.idx + anim.mul, and anim2 to anim5): the frames the client draws
//! mobiles with, read in place.
//!
//! A body's animations are a block of 12-byte index records, 5 stored directions for each
//! action; which block depends on the body's group ([`AnimGroup`]: high, low or people,
//! from its type, [`BodyType`]), and each record points at a frame group in the .mul: a
//! 256-colour palette, a frame count, the frames' offsets, then each frame's centre, size
//! and runs of palette indices. Nothing is decoded until asked: [`Animations::group`] hands
//! out a [`FrameGroup`] over the entry's bytes, [`FrameGroup::frame`] an [`AnimFrame`], and
//! [`AnimFrame::runs`] the pixels in place, run by run.
//!
//! Colours: every pixel a run covers is drawn, opaque, palette entry 0 included (black,
//! unlike art and gumps); places no run covers are transparent; bit 15 of a palette colour
//! plays no part (the SDK reads it as transparency; the client does not). Directions 0 to 4
//! are stored; the client draws 5, 6 and 7 by mirroring 3, 2 and 1 ([`Facing`]).
//!
//! What the files alone do not say (mobtypes.txt's types and flags, Bodyconv.def's moves
//! between files, Body.def and Corpse.def) is the caller's: [`Animations::body`] takes the
//! type the client gives a body mobtypes.txt does not list, [`Animations::body_as`] any.
//! AnimationFrame*.uop's animations are read by [`UopAnimations`] and [`UopAnimation`]
//! (one entry a body's action, all directions; each frame with its own palette, colour 0
//! transparent there).
//!
//! The owners are [`AnimationFiles`] (anim.mul to anim5.mul in a folder) and
//! [`UopAnimationFiles`] (the AnimationFrame UOPs); `write` (the `write` feature) writes
//! both forms.
//!
//! Source: `docs/formats/uo.md`, "Index files" and "Animations" (ClassicUO's
//! `AnimationsLoader`).

use std::fmt;
use std::sync::{Arc, OnceLock};

use gamedata_io::Overlaps;

use crate::error::{ArgumentProblem, DataError, ErrorKind, IndexProblem, Result};
use crate::index::parse_index;
use crate::raw::{EMPTY, IndexRecord};

/// Directions stored for each action (the client's 0 to 4; 5 to 7 mirror 3 to 1).
pub const DIRECTIONS: usize = 5;
/// Bytes of a frame group's palette: 256 colours of 16 bits.
pub const PALETTE_LEN: usize = 512;
/// The shortest frame group: its palette and its frame count.
pub const MIN_GROUP_LEN: usize = PALETTE_LEN + 4;
/// The run header that ends a frame's runs.
pub const RUN_END: u32 = 0x7FFF_7FFF;
/// Bytes of a frame's header: centre x, centre y, width, height (i16 each).
pub(super) const FRAME_HEADER_LEN: usize = 8;

/// mobtypes.txt flag: with [`BodyType::Animal`], the flags below choose the group.
pub const FLAG_LOW_GROUP_EXTENDED: u32 = 0x20;
/// mobtypes.txt flag: the low group's records (monsters; animals with 0x20).
pub const FLAG_BY_LOW_GROUP: u32 = 0x40;
/// mobtypes.txt flag: the people group's records (monsters; animals with 0x20).
pub const FLAG_BY_PEOPLE_GROUP: u32 = 0x400;

/// One of the MUL animation files: anim.mul (with anim.idx) is the client's file 0, anim2
/// to anim5 its files 1 to 4 (`docs/formats/uo.md`, "Animations").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AnimFileId {
    /// anim.idx and anim.mul (the client's file 0).
    Anim,
    /// anim2.idx and anim2.mul (file 1).
    Anim2,
    /// anim3.idx and anim3.mul (file 2).
    Anim3,
    /// anim4.idx and anim4.mul (file 3).
    Anim4,
    /// anim5.idx and anim5.mul (file 4).
    Anim5,
}

impl AnimFileId {
    /// The five files, in the client's order.
    pub const ALL: [AnimFileId; 5] = [
        AnimFileId::Anim,
        AnimFileId::Anim2,
        AnimFileId::Anim3,
        AnimFileId::Anim4,
        AnimFileId::Anim5,
    ];

    /// The client's number for the file, 0 to 4 (Bodyconv.def's columns 1 to 4 are 1 to 4).
    pub const fn number(self) -> usize {
        match self {
            AnimFileId::Anim => 0,
            AnimFileId::Anim2 => 1,
            AnimFileId::Anim3 => 2,
            AnimFileId::Anim4 => 3,
            AnimFileId::Anim5 => 4,
        }
    }

    /// The file of client number `number` (0 to 4).
    pub const fn from_number(number: usize) -> Option<Self> {
        match number {
            0 => Some(AnimFileId::Anim),
            1 => Some(AnimFileId::Anim2),
            2 => Some(AnimFileId::Anim3),
            3 => Some(AnimFileId::Anim4),
            4 => Some(AnimFileId::Anim5),
            _ => None,
        }
    }

    /// The files' common name: `anim`, `anim2` ... `anim5`.
    pub const fn name(self) -> &'static str {
        match self {
            AnimFileId::Anim => "anim",
            AnimFileId::Anim2 => "anim2",
            AnimFileId::Anim3 => "anim3",
            AnimFileId::Anim4 => "anim4",
            AnimFileId::Anim5 => "anim5",
        }
    }

    /// The index file's name: `anim.idx`, `anim2.idx` ...
    pub const fn index_name(self) -> &'static str {
        match self {
            AnimFileId::Anim => "anim.idx",
            AnimFileId::Anim2 => "anim2.idx",
            AnimFileId::Anim3 => "anim3.idx",
            AnimFileId::Anim4 => "anim4.idx",
            AnimFileId::Anim5 => "anim5.idx",
        }
    }

    /// The data file's name: `anim.mul`, `anim2.mul` ...
    pub const fn data_name(self) -> &'static str {
        match self {
            AnimFileId::Anim => "anim.mul",
            AnimFileId::Anim2 => "anim2.mul",
            AnimFileId::Anim3 => "anim3.mul",
            AnimFileId::Anim4 => "anim4.mul",
            AnimFileId::Anim5 => "anim5.mul",
        }
    }
}

impl fmt::Display for AnimFileId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A body's type, as mobtypes.txt names them (`docs/formats/uo.md`, "Animations": "The
/// body's type").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BodyType {
    /// `monster`.
    Monster,
    /// `sea_monster`.
    SeaMonster,
    /// `animal`.
    Animal,
    /// `human`.
    Human,
    /// `equipment`.
    Equipment,
}

impl BodyType {
    /// The type the client gives body `body` of `file` when mobtypes.txt does not list it
    /// (ClassicUO's `CalculateTypeByGraphic`): anim2: below 200 monster, else animal;
    /// anim3: below 300 animal, below 400 monster, else human; anim.mul, anim4 and anim5:
    /// below 200 monster, below 400 animal, else human.
    pub const fn of_body(file: AnimFileId, body: u16) -> Self {
        match file {
            AnimFileId::Anim2 => {
                if body < 200 {
                    BodyType::Monster
                } else {
                    BodyType::Animal
                }
            }
            AnimFileId::Anim3 => {
                if body < 300 {
                    BodyType::Animal
                } else if body < 400 {
                    BodyType::Monster
                } else {
                    BodyType::Human
                }
            }
            AnimFileId::Anim | AnimFileId::Anim4 | AnimFileId::Anim5 => {
                if body < 200 {
                    BodyType::Monster
                } else if body < 400 {
                    BodyType::Animal
                } else {
                    BodyType::Human
                }
            }
        }
    }

    /// The group of records a body of this type with mobtypes.txt flags `flags` has, and
    /// how many actions are read (ClassicUO's `CalculateOffset`): monster: high, but
    /// people with 0x400, low with 0x40; animal: low, but with 0x20 people with 0x400, low
    /// with 0x40, else high; human and equipment: people; sea monster: the high group's
    /// records, 13 actions of them.
    pub const fn records(self, flags: u32) -> (AnimGroup, u8) {
        let by_flags = if flags & FLAG_BY_PEOPLE_GROUP != 0 {
            AnimGroup::People
        } else if flags & FLAG_BY_LOW_GROUP != 0 {
            AnimGroup::Low
        } else {
            AnimGroup::High
        };
        let group = match self {
            BodyType::Monster => by_flags,
            BodyType::SeaMonster => return (AnimGroup::High, AnimGroup::Low.actions()),
            BodyType::Animal if flags & FLAG_LOW_GROUP_EXTENDED != 0 => by_flags,
            BodyType::Animal => AnimGroup::Low,
            BodyType::Human | BodyType::Equipment => AnimGroup::People,
        };
        (group, group.actions())
    }
}

/// A group of records in anim*.idx: where a body's block starts and how many actions it
/// holds (`docs/formats/uo.md`, "Animations": "The first record").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnimGroup {
    /// 22 actions from record `body * 110`.
    High,
    /// 13 actions from record `(body - 200) * 65 + 22000`.
    Low,
    /// 35 actions from record `(body - 400) * 175 + 35000`.
    People,
}

impl AnimGroup {
    /// Actions the group's blocks hold: 22, 13 or 35.
    pub const fn actions(self) -> u8 {
        match self {
            AnimGroup::High => 22,
            AnimGroup::Low => 13,
            AnimGroup::People => 35,
        }
    }

    /// The first record of body `body`'s block, or `None` when it comes out negative.
    pub fn first_record(self, body: u16) -> Option<u64> {
        let body = i64::from(body);
        // Products of a u16 and small constants: far inside an i64.
        let first = match self {
            AnimGroup::High => body.checked_mul(110),
            AnimGroup::Low => body
                .checked_sub(200)
                .and_then(|b| b.checked_mul(65))
                .and_then(|b| b.checked_add(22_000)),
            AnimGroup::People => body
                .checked_sub(400)
                .and_then(|b| b.checked_mul(175))
                .and_then(|b| b.checked_add(35_000)),
        }?;
        u64::try_from(first).ok()
    }
}

/// A body's block of records in one file: its first record and the actions read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BodyRecords {
    /// The body number.
    pub body: u16,
    /// The group its block is in.
    pub group: AnimGroup,
    /// Its first record (action 0, direction 0): an index entry's number.
    pub first: u32,
    /// Actions read: 0 to `actions - 1`.
    pub actions: u8,
}

impl BodyRecords {
    /// The record of action `action` and stored direction `direction` (0 to 4):
    /// `first + 5 * action + direction`.
    ///
    /// Returns `Err` ([`ArgumentProblem::AnimAction`]) for an action past the block, or
    /// ([`ArgumentProblem::AnimDirection`]) for a direction past 4.
    pub fn record(&self, action: u16, direction: u8) -> Result<u32, DataError> {
        if action >= u16::from(self.actions) {
            return Err(ArgumentProblem::AnimAction {
                action,
                actions: self.actions,
            }
            .into());
        }
        if usize::from(direction) >= DIRECTIONS {
            return Err(ArgumentProblem::AnimDirection { direction }.into());
        }
        // Both below the block's length, which lies inside the index.
        let directions = u32::try_from(DIRECTIONS).unwrap_or(u32::MAX);
        let step = u32::from(action)
            .saturating_mul(directions)
            .saturating_add(u32::from(direction));
        Ok(self.first.saturating_add(step))
    }
}

/// Which stored direction a direction is drawn from, and whether mirrored left to right
/// (`docs/formats/uo.md`, "Animations", "Directions").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Facing {
    /// The stored direction, 0 to 4.
    pub stored: u8,
    /// Drawn mirrored: columns flipped, the centre x becoming width - centre x.
    pub mirrored: bool,
}

impl Facing {
    /// Direction `direction` as the SDK and ultimapy number them (the client's number plus
    /// 5, modulo 8): 0 to 4 are the stored ones, 5, 6 and 7 mirror stored 3, 2 and 1.
    /// `None` past 7.
    pub const fn of(direction: u8) -> Option<Self> {
        let (stored, mirrored) = match direction {
            0..=4 => (direction, false),
            5 => (3, true),
            6 => (2, true),
            7 => (1, true),
            _ => return None,
        };
        Some(Facing { stored, mirrored })
    }

    /// Direction `direction` as the client numbers it (0 north, 1 right, 2 east, 3 down, 4
    /// south, 5 left, 6 west, 7 up; bit 0x80, running, dropped): 3 to 7 are stored 0 to 4
    /// as they are, 2, 1 and 0 stored 1, 2 and 3 mirrored (ClassicUO's `GetAnimDirection`).
    pub const fn of_client(direction: u8) -> Self {
        let (stored, mirrored) = match direction & 7 {
            0 => (3, true),
            1 => (2, true),
            2 => (1, true),
            3 => (0, false),
            4 => (1, false),
            5 => (2, false),
            6 => (3, false),
            _ => (4, false),
        };
        Facing { stored, mirrored }
    }
}

/// True if an anim*.idx record holds no frames, as the client decides: offset and size
/// both 0, offset or size 0xFFFFFFFF, or size 0 (`docs/formats/uo.md`, "MUL frame
/// groups"). Offset 0 with a size is a real place.
#[inline]
pub fn anim_entry_is_empty(record: &IndexRecord) -> bool {
    let (offset, size) = (record.offset.get(), record.length.get());
    offset == EMPTY || size == EMPTY || size == 0
}

/// The overlapping entries of an anim*.idx, found on first use and shared by the views
/// made from one owner.
pub(super) type SharedOverlaps = Arc<OnceLock<Overlaps>>;

/// One animation file, anim*.mul over its anim*.idx, borrowed: frame groups by body,
/// action and direction, or by record.
///
/// Entries are checked when asked for: one that passes the end of the .mul (the client
/// finds no frames there; a reader says why), or overlaps another entry's bytes but
/// exactly, is an error for that record alone; an exact repeat (two records naming the
/// same bytes) is read.
#[derive(Clone)]
pub struct Animations<'data> {
    file: AnimFileId,
    index: &'data [IndexRecord],
    data: &'data [u8],
    overlaps: SharedOverlaps,
}

impl fmt::Debug for Animations<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Animations")
            .field("file", &self.file)
            .field("records", &self.index.len())
            .field("data_len", &self.data.len())
            .finish()
    }
}

impl<'data> Animations<'data> {
    /// Casts `index` (anim*.idx) in place over `data` (anim*.mul) as the animation file
    /// `file` (which decides the bodies' default types, [`BodyType::of_body`]).
    ///
    /// Returns `Err` ([`ErrorKind::RecordMultiple`]) if the index is not a whole number of
    /// 12-byte records.
    pub fn parse(
        file: AnimFileId,
        index: &'data [u8],
        data: &'data [u8],
    ) -> Result<Self, DataError> {
        Self::parse_shared(file, index, data, SharedOverlaps::default())
    }

    fn parse_shared(
        file: AnimFileId,
        index: &'data [u8],
        data: &'data [u8],
        overlaps: SharedOverlaps,
    ) -> Result<Self, DataError> {
        Ok(Animations {
            file,
            index: parse_index(index, file.index_name())?,
            data,
            overlaps,
        })
    }

    /// The file read.
    pub fn file(&self) -> AnimFileId {
        self.file
    }

    /// Records in the index.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// True if the index has no record.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The raw index records.
    pub fn index(&self) -> &'data [IndexRecord] {
        self.index
    }

    /// The data file's bytes.
    pub fn data(&self) -> &'data [u8] {
        self.data
    }

    fn overlaps(&self) -> &Overlaps {
        self.overlaps.get_or_init(|| {
            let (index, data_len) = (self.index, self.data.len() as u64);
            Overlaps::find_allowing_repeats(index.len(), |i| {
                let record = index.get(i).filter(|r| !anim_entry_is_empty(r))?;
                let start = u64::from(record.offset.get());
                let end = start.saturating_add(u64::from(record.length.get()));
                (end <= data_len).then_some((start, end))
            })
        })
    }

    /// Record `record`'s bytes, a frame group's; `None` for an empty record
    /// ([`anim_entry_is_empty`]).
    ///
    /// Returns `Err` ([`ErrorKind::MissingIndexEntry`]) past the index, or
    /// ([`ErrorKind::IndexEntry`]) for bytes that pass the end of the .mul (offset + size
    /// taken in 64 bits) or overlap another record's but exactly.
    pub fn entry(&self, record: u32) -> Result<Option<&'data [u8]>, DataError> {
        self.entry_at(usize::try_from(record).unwrap_or(usize::MAX))
    }

    /// [`Animations::entry`] by position in the index.
    fn entry_at(&self, record: usize) -> Result<Option<&'data [u8]>, DataError> {
        let index_record = self.index.get(record).ok_or(ErrorKind::MissingIndexEntry {
            file: self.file.index_name(),
            entry: record,
            records: self.index.len(),
        })?;
        if anim_entry_is_empty(index_record) {
            return Ok(None);
        }
        let (offset, size) = (index_record.offset.get(), index_record.length.get());
        let bad = |problem| ErrorKind::IndexEntry {
            file: self.file.index_name(),
            entry: record,
            offset,
            length: size,
            data_len: self.data.len(),
            problem,
        };
        let bytes = usize::try_from(offset)
            .ok()
            .zip(usize::try_from(size).ok())
            .and_then(|(at, len)| self.data.get(at..at.checked_add(len)?))
            .ok_or(bad(IndexProblem::PastEnd))?;
        if let Some(other) = self.overlaps().overlapped_by(record) {
            return Err(bad(IndexProblem::Overlap { other }).into());
        }
        Ok(Some(bytes))
    }

    /// Body `body`'s block of records, the body's type being the one the client gives it
    /// in this file when mobtypes.txt does not list it ([`BodyType::of_body`]), with no
    /// flags; `None` when the body has no animation in this file: its block's first or last
    /// record lies past the index (or its first comes out negative).
    pub fn body(&self, body: u16) -> Option<BodyRecords> {
        self.body_as(body, BodyType::of_body(self.file, body), 0)
    }

    /// Body `body`'s block of records for a body of type `body_type` with mobtypes.txt
    /// flags `flags` ([`BodyType::records`]); `None` as [`Animations::body`].
    pub fn body_as(&self, body: u16, body_type: BodyType, flags: u32) -> Option<BodyRecords> {
        let (group, actions) = body_type.records(flags);
        let first = group.first_record(body)?;
        let count = u64::from(actions).saturating_mul(DIRECTIONS as u64);
        let end = first.checked_add(count)?;
        if end > self.index.len() as u64 {
            return None;
        }
        Some(BodyRecords {
            body,
            group,
            first: u32::try_from(first).ok()?,
            actions,
        })
    }

    /// The frame group of body `body` (its default type, [`Animations::body`]), action
    /// `action` and stored direction `direction` (0 to 4; see [`Facing`] for 5 to 7);
    /// `None` when the body has no animation in this file or the record is empty.
    ///
    /// Returns `Err` as [`BodyRecords::record`], as [`Animations::entry`], or as
    /// [`FrameGroup::parse`], naming the entry ("body 400 action 2 direction 3") and its
    /// record.
    pub fn group(
        &self,
        body: u16,
        action: u16,
        direction: u8,
    ) -> Result<Option<FrameGroup<'data>>, DataError> {
        let Some(records) = self.body(body) else {
            return Ok(None);
        };
        self.group_of(&records, action, direction)
    }

    /// [`Animations::group`] for a block the caller found ([`Animations::body_as`]).
    ///
    /// Returns `Err` as [`Animations::group`].
    pub fn group_of(
        &self,
        records: &BodyRecords,
        action: u16,
        direction: u8,
    ) -> Result<Option<FrameGroup<'data>>, DataError> {
        let record = usize::try_from(records.record(action, direction)?).unwrap_or(usize::MAX);
        let origin = Origin {
            file: self.file.data_name(),
            name: EntryName::Body {
                body: records.body,
                action,
                direction,
            },
            record,
        };
        self.group_with(record, origin)
    }

    /// The frame group of record `record`; `None` for an empty record.
    ///
    /// Returns `Err` as [`Animations::entry`] or as [`FrameGroup::parse`], naming the
    /// entry ("record 35012").
    pub fn group_at(&self, record: u32) -> Result<Option<FrameGroup<'data>>, DataError> {
        let record = usize::try_from(record).unwrap_or(usize::MAX);
        let origin = Origin {
            file: self.file.data_name(),
            name: EntryName::Record,
            record,
        };
        self.group_with(record, origin)
    }

    fn group_with(
        &self,
        record: usize,
        origin: Origin,
    ) -> Result<Option<FrameGroup<'data>>, DataError> {
        let Some(bytes) = self.entry_at(record).map_err(|e| origin.name_error(e))? else {
            return Ok(None);
        };
        let mut group = FrameGroup::parse(bytes).map_err(|e| origin.name_error(e))?;
        group.origin = Some(origin);
        Ok(Some(group))
    }
}

/// How an entry is named in messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum EntryName {
    /// "body 400 action 2 direction 3".
    Body {
        body: u16,
        action: u16,
        direction: u8,
    },
    /// "record 35012".
    Record,
    /// "body 400 action 2" (an AnimationFrame*.uop entry).
    Uop { body: u16, action: u16 },
}

/// Where a frame group came from, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Origin {
    file: &'static str,
    name: EntryName,
    record: usize,
}

impl Origin {
    #[cold]
    fn name_error(self, error: DataError) -> DataError {
        let name = match self.name {
            EntryName::Body {
                body,
                action,
                direction,
            } => format!("body {body} action {action} direction {direction}"),
            EntryName::Record => format!("record {}", self.record),
            EntryName::Uop { body, action } => format!("body {body} action {action}"),
        };
        error.in_entry(self.file, &name, self.record)
    }
}

mod files;
mod frames;
mod mobtypes;
mod uop;
mod uop_files;
mod uop_lookup;
mod uop_sequence;
#[cfg(feature = "write")]
pub mod write;

pub use files::{AnimFileData, AnimPaths, AnimationBytes, AnimationFiles, AnimationSet};
pub use frames::{AnimFrame, AnimRun, AnimRuns, FrameGroup};
pub use mobtypes::{FLAG_USE_UOP, MAX_MOBTYPES_LEN, MobType, MobTypes};
pub use uop::{UOP_ANIM_HEADER_LEN, UOP_FRAME_RECORD_LEN, UopAnimation, UopFrame, UopFrameRecord};
pub use uop_files::{
    UopAnimFileData, UopAnimPaths, UopAnimationBytes, UopAnimationFiles, UopAnimationSet,
};
pub use uop_lookup::{
    DecodedUopAnimation, UOP_ANIM_FILES, UopAnimStream, UopAnimations, uop_anim_entry_name,
};
pub use uop_sequence::{
    UOP_SEQUENCE_FILE, UOP_SEQUENCE_HEADER_LEN, UopSequence, UopSequenceRecord, UopSequences,
    uop_sequence_entry_name,
};
