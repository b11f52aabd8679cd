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
//! AnimationFrame*.uop is not read here.
//!
//! Source: `docs/formats/uo.md`, "Index files" and "Animations" (ClassicUO's
//! `AnimationsLoader`).

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use gamedata_io::{
    FileData, FileError, FileOptions, FileSet, Overlaps, OwnedSet, find_file_ignoring_case,
    find_optional,
};
use zerocopy::FromBytes;
use zerocopy::little_endian::{U16, U32};

use crate::error::{
    AnimProblem, ArgumentProblem, DataError, Error, ErrorKind, IndexProblem, Result,
};
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
const FRAME_HEADER_LEN: usize = 8;

/// mobtypes.txt flag: with [`BodyType::Animal`], the flags below choose the group.
pub const FLAG_LOW_GROUP_EXTENDED: u32 = 0x20;
/// mobtypes.txt flag: the low group's records (monsters; animals with 0x20).
pub const FLAG_BY_LOW_GROUP: u32 = 0x40;
/// mobtypes.txt flag: the people group's records (monsters; animals with 0x20).
pub const FLAG_BY_PEOPLE_GROUP: u32 = 0x400;

/// One of the MUL animation files: anim.mul (with anim.idx) is the client's file 0, anim2
/// to anim5 its files 1 to 4 (`docs/formats/uo.md`, "Animations").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AnimFile {
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

impl AnimFile {
    /// The five files, in the client's order.
    pub const ALL: [AnimFile; 5] = [
        AnimFile::Anim,
        AnimFile::Anim2,
        AnimFile::Anim3,
        AnimFile::Anim4,
        AnimFile::Anim5,
    ];

    /// The client's number for the file, 0 to 4 (Bodyconv.def's columns 1 to 4 are 1 to 4).
    pub const fn number(self) -> usize {
        match self {
            AnimFile::Anim => 0,
            AnimFile::Anim2 => 1,
            AnimFile::Anim3 => 2,
            AnimFile::Anim4 => 3,
            AnimFile::Anim5 => 4,
        }
    }

    /// The file of client number `number` (0 to 4).
    pub const fn from_number(number: usize) -> Option<Self> {
        match number {
            0 => Some(AnimFile::Anim),
            1 => Some(AnimFile::Anim2),
            2 => Some(AnimFile::Anim3),
            3 => Some(AnimFile::Anim4),
            4 => Some(AnimFile::Anim5),
            _ => None,
        }
    }

    /// The files' common name: `anim`, `anim2` ... `anim5`.
    pub const fn name(self) -> &'static str {
        match self {
            AnimFile::Anim => "anim",
            AnimFile::Anim2 => "anim2",
            AnimFile::Anim3 => "anim3",
            AnimFile::Anim4 => "anim4",
            AnimFile::Anim5 => "anim5",
        }
    }

    /// The index file's name: `anim.idx`, `anim2.idx` ...
    pub const fn index_name(self) -> &'static str {
        match self {
            AnimFile::Anim => "anim.idx",
            AnimFile::Anim2 => "anim2.idx",
            AnimFile::Anim3 => "anim3.idx",
            AnimFile::Anim4 => "anim4.idx",
            AnimFile::Anim5 => "anim5.idx",
        }
    }

    /// The data file's name: `anim.mul`, `anim2.mul` ...
    pub const fn data_name(self) -> &'static str {
        match self {
            AnimFile::Anim => "anim.mul",
            AnimFile::Anim2 => "anim2.mul",
            AnimFile::Anim3 => "anim3.mul",
            AnimFile::Anim4 => "anim4.mul",
            AnimFile::Anim5 => "anim5.mul",
        }
    }
}

impl fmt::Display for AnimFile {
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
    pub const fn of_body(file: AnimFile, body: u16) -> Self {
        match file {
            AnimFile::Anim2 => {
                if body < 200 {
                    BodyType::Monster
                } else {
                    BodyType::Animal
                }
            }
            AnimFile::Anim3 => {
                if body < 300 {
                    BodyType::Animal
                } else if body < 400 {
                    BodyType::Monster
                } else {
                    BodyType::Human
                }
            }
            AnimFile::Anim | AnimFile::Anim4 | AnimFile::Anim5 => {
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
    /// Its first record (action 0, direction 0).
    pub first: usize,
    /// Actions read: 0 to `actions - 1`.
    pub actions: u8,
}

impl BodyRecords {
    /// The record of action `action` and stored direction `direction` (0 to 4):
    /// `first + 5 * action + direction`.
    ///
    /// Returns `Err` ([`ArgumentProblem::AnimAction`]) for an action past the block, or
    /// ([`ArgumentProblem::AnimDirection`]) for a direction past 4.
    pub fn record(&self, action: u16, direction: u8) -> Result<usize, DataError> {
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
        let step = usize::from(action)
            .saturating_mul(DIRECTIONS)
            .saturating_add(usize::from(direction));
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
type SharedOverlaps = Arc<OnceLock<Overlaps>>;

/// One animation file, anim*.mul over its anim*.idx, borrowed: frame groups by body,
/// action and direction, or by record.
///
/// Entries are checked when asked for: one that passes the end of the .mul (the client
/// finds no frames there; a reader says why), or overlaps another entry's bytes but
/// exactly, is an error for that record alone; an exact repeat (two records naming the
/// same bytes) is read.
#[derive(Clone)]
pub struct Animations<'data> {
    file: AnimFile,
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
    pub fn parse(file: AnimFile, index: &'data [u8], data: &'data [u8]) -> Result<Self, DataError> {
        Self::parse_shared(file, index, data, SharedOverlaps::default())
    }

    fn parse_shared(
        file: AnimFile,
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
    pub fn file(&self) -> AnimFile {
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
    pub fn entry(&self, record: usize) -> Result<Option<&'data [u8]>, DataError> {
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
            first: usize::try_from(first).ok()?,
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
        let record = records.record(action, direction)?;
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
    pub fn group_at(&self, record: usize) -> Result<Option<FrameGroup<'data>>, DataError> {
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
        let Some(bytes) = self.entry(record).map_err(|e| origin.name_error(e))? else {
            return Ok(None);
        };
        let mut group = FrameGroup::parse(bytes).map_err(|e| origin.name_error(e))?;
        group.origin = Some(origin);
        Ok(Some(group))
    }
}

/// How an entry is named in messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EntryName {
    /// "body 400 action 2 direction 3".
    Body {
        body: u16,
        action: u16,
        direction: u8,
    },
    /// "record 35012".
    Record,
}

/// Where a frame group came from, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Origin {
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
        };
        error.in_entry(self.file, &name, self.record)
    }
}

/// A frame group, the bytes of one anim*.mul entry, in place: a 256-colour palette, a u32
/// frame count at byte 512, the frames' u32 offsets counted from byte 512, and the frames.
///
/// [`FrameGroup::parse`] checks the palette, the count and the offset table; each frame is
/// checked when asked for ([`FrameGroup::frame`]) and its runs as they are read
/// ([`AnimFrame::runs`]). A frame's bytes run from its offset up to where the next frame
/// (by offset) starts, or to the group's end: frames at the same offset are one frame, and
/// frames may not reach into each other's bytes, so reading every frame reads each byte
/// of the group at most once.
#[derive(Clone)]
pub struct FrameGroup<'data> {
    origin: Option<Origin>,
    bytes: &'data [u8],
    palette: &'data [U16; 256],
    offsets: &'data [U32],
    /// The offsets sorted, when the table is not already in order (real files are).
    sorted: Option<Arc<[u32]>>,
}

impl fmt::Debug for FrameGroup<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FrameGroup")
            .field("len", &self.bytes.len())
            .field("frames", &self.offsets.len())
            .finish_non_exhaustive()
    }
}

impl<'data> FrameGroup<'data> {
    /// Casts a frame group's bytes: its palette, frame count and offset table.
    ///
    /// Returns `Err` ([`AnimProblem::GroupTooShort`]) for fewer than 516 bytes, or
    /// ([`AnimProblem::FrameTable`]) if the frame offsets do not fit in the group. Costs a
    /// sort of the offsets (4 bytes a frame) when they are not in order.
    pub fn parse(bytes: &'data [u8]) -> Result<Self, DataError> {
        let short = || DataError::from(AnimProblem::GroupTooShort { found: bytes.len() });
        let palette = bytes.get(..PALETTE_LEN).ok_or_else(short)?;
        let palette = <[U16; 256]>::ref_from_bytes(palette).map_err(|_| short())?;
        let count = bytes
            .get(PALETTE_LEN..MIN_GROUP_LEN)
            .and_then(|b| <[u8; 4]>::try_from(b).ok())
            .map(u32::from_le_bytes)
            .ok_or_else(short)?;
        let table = || AnimProblem::FrameTable {
            count,
            found: bytes.len(),
        };
        let offsets = usize::try_from(count)
            .ok()
            .and_then(|n| n.checked_mul(4))
            .and_then(|len| bytes.get(MIN_GROUP_LEN..MIN_GROUP_LEN.checked_add(len)?))
            .and_then(|table| <[U32]>::ref_from_bytes(table).ok())
            .ok_or_else(table)?;
        let in_order = offsets.windows(2).all(|w| match w {
            [a, b] => a.get() <= b.get(),
            _ => true,
        });
        let sorted = (!in_order).then(|| {
            let mut sorted: Vec<u32> = offsets.iter().map(|o| o.get()).collect();
            sorted.sort_unstable();
            Arc::from(sorted)
        });
        Ok(FrameGroup {
            origin: None,
            bytes,
            palette,
            offsets,
            sorted,
        })
    }

    /// The group's bytes.
    pub fn bytes(&self) -> &'data [u8] {
        self.bytes
    }

    /// The palette: 256 colours of 15 bits (red bits 10 to 14, green 5 to 9, blue 0 to 4;
    /// bit 15 plays no part), in place at the group's start. Every entry is opaque, 0
    /// (black) included.
    pub fn palette(&self) -> &'data [U16; 256] {
        self.palette
    }

    /// Frames the group declares (the client keeps the count in a byte, so that 256 or
    /// more wrap there; all are read here).
    pub fn frame_count(&self) -> usize {
        self.offsets.len()
    }

    /// The frames' offsets, counted from byte 512.
    pub fn offsets(&self) -> &'data [U32] {
        self.offsets
    }

    /// Frame `frame`'s offset (counted from byte 512); `None` past the count.
    pub fn frame_offset(&self, frame: usize) -> Option<u32> {
        self.offsets.get(frame).map(|o| o.get())
    }

    /// The first offset above `offset`, if any.
    fn next_offset(&self, offset: u32) -> Option<u32> {
        match &self.sorted {
            Some(sorted) => {
                let at = sorted.partition_point(|&o| o <= offset);
                sorted.get(at).copied()
            }
            None => {
                let at = self.offsets.partition_point(|o| o.get() <= offset);
                self.offsets.get(at).map(|o| o.get())
            }
        }
    }

    /// Frame `frame` (from 0); `None` past the count.
    ///
    /// Returns `Err` ([`AnimProblem::FrameHeader`]) for a header past the group's end, or
    /// ([`AnimProblem::FrameOverlap`]) for one that reaches the next frame's start, naming
    /// the entry when the group came from [`Animations`].
    pub fn frame(&self, frame: usize) -> Option<Result<AnimFrame<'data>, DataError>> {
        let offset = self.frame_offset(frame)?;
        Some(self.frame_at(frame, offset).map_err(|e| self.name_error(e)))
    }

    /// The frames in order ([`FrameGroup::frame`] for each).
    pub fn frames(&self) -> impl Iterator<Item = Result<AnimFrame<'data>, DataError>> + '_ {
        (0..self.frame_count()).filter_map(|i| self.frame(i))
    }

    fn frame_at(&self, frame: usize, offset: u32) -> Result<AnimFrame<'data>, DataError> {
        let number = u32::try_from(frame).unwrap_or(u32::MAX);
        let len = self.bytes.len();
        let header_err = || AnimProblem::FrameHeader {
            frame: number,
            offset,
            found: len,
        };
        let start = usize::try_from(offset)
            .ok()
            .and_then(|o| o.checked_add(PALETTE_LEN))
            .ok_or_else(header_err)?;
        let header_end = start.checked_add(FRAME_HEADER_LEN).ok_or_else(header_err)?;
        let header = self.bytes.get(start..header_end).ok_or_else(header_err)?;
        // Where the frame's bytes end: the next frame's start, or the group's end.
        let next = self
            .next_offset(offset)
            .and_then(|o| usize::try_from(o).ok())
            .and_then(|o| o.checked_add(PALETTE_LEN))
            .filter(|&n| n < len);
        let end = next.unwrap_or(len);
        if header_end > end {
            return Err(AnimProblem::FrameOverlap {
                frame: number,
                next: end as u64,
            }
            .into());
        }
        let word = |i: usize| {
            let b = |k: usize| header.get(k).copied().unwrap_or(0);
            i16::from_le_bytes([b(i), b(i.saturating_add(1))])
        };
        Ok(AnimFrame {
            origin: self.origin,
            number,
            centre_x: word(0),
            centre_y: word(2),
            width: word(4),
            height: word(6),
            runs: self.bytes.get(header_end..end).unwrap_or_default(),
            at: header_end as u64,
            next: next.map(|n| n as u64),
        })
    }

    #[cold]
    fn name_error(&self, error: DataError) -> DataError {
        match self.origin {
            Some(origin) => origin.name_error(error),
            None => error,
        }
    }
}

/// A run of one frame's pixels, in place: `pixels.len()` palette indices from column `x`
/// of row `y` rightwards, each drawn opaque.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnimRun<'data> {
    /// Column of the first pixel, from 0 at the frame's left.
    pub x: u32,
    /// Row, from 0 at the frame's top.
    pub y: u32,
    /// Indices into the group's palette (1 to 4,095 of them).
    pub pixels: &'data [u8],
}

/// A frame of a [`FrameGroup`]: its centre, its size and its runs, in place.
///
/// The frame is a header of four i16s (centre x, centre y, width, height), then u32 run
/// headers up to [`RUN_END`]: bits 0 to 11 the run's length, 12 to 21 its y and 22 to 31
/// its x (10-bit signed numbers each), then its pixels, one palette index a byte. The run's
/// first pixel is column `x + centre x`, row `y + centre y + height`. A width or height of
/// 0 or less is an empty frame: it has no pixels and no runs are read.
#[derive(Clone, Copy)]
pub struct AnimFrame<'data> {
    origin: Option<Origin>,
    number: u32,
    centre_x: i16,
    centre_y: i16,
    width: i16,
    height: i16,
    /// The bytes after the header, up to the next frame's start or the group's end.
    runs: &'data [u8],
    /// Where `runs` starts in the group.
    at: u64,
    /// Where the next frame starts, when `runs` stops there rather than at the group's end.
    next: Option<u64>,
}

impl fmt::Debug for AnimFrame<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AnimFrame")
            .field("number", &self.number)
            .field("centre_x", &self.centre_x)
            .field("centre_y", &self.centre_y)
            .field("width", &self.width)
            .field("height", &self.height)
            .finish_non_exhaustive()
    }
}

impl<'data> AnimFrame<'data> {
    /// The frame's number in its group, from 0.
    pub fn number(&self) -> u32 {
        self.number
    }

    /// Centre x: the frame's left edge is drawn this many pixels left of the mobile's
    /// point.
    pub fn centre_x(&self) -> i16 {
        self.centre_x
    }

    /// Centre y: the frame's top edge is drawn `height + centre y` pixels above the
    /// mobile's point.
    pub fn centre_y(&self) -> i16 {
        self.centre_y
    }

    /// The width as stored (0 or less: an empty frame).
    pub fn stored_width(&self) -> i16 {
        self.width
    }

    /// The height as stored (0 or less: an empty frame).
    pub fn stored_height(&self) -> i16 {
        self.height
    }

    /// True if the frame has no pixels: a stored width or height of 0 or less.
    pub fn is_empty(&self) -> bool {
        self.width <= 0 || self.height <= 0
    }

    /// Width in pixels (0 to 32,767; 0 for an empty frame).
    pub fn width(&self) -> u32 {
        if self.is_empty() {
            0
        } else {
            u32::from(self.width.unsigned_abs())
        }
    }

    /// Height in pixels (0 to 32,767; 0 for an empty frame).
    pub fn height(&self) -> u32 {
        if self.is_empty() {
            0
        } else {
            u32::from(self.height.unsigned_abs())
        }
    }

    /// The runs, in stored order, as the client reads them: up to [`RUN_END`], or the
    /// group's end. Runs of no pixels are not given. Each run read costs at least 4 bytes
    /// of the frame's own, so reading all costs at most its bytes / 4 runs; an empty frame
    /// gives none.
    ///
    /// Yields `Err` and then nothing more for a run header or pixels past the group's end
    /// ([`AnimProblem::RunCut`]), a run outside the frame ([`AnimProblem::RunOutside`]),
    /// or runs that reach the next frame's start before their end
    /// ([`AnimProblem::FrameOverlap`]), naming the entry when the group came from
    /// [`Animations`].
    pub fn runs(&self) -> AnimRuns<'data> {
        AnimRuns {
            frame: *self,
            at: 0,
            done: self.is_empty(),
        }
    }
}

/// The runs of an [`AnimFrame`] ([`AnimFrame::runs`]).
#[derive(Clone, Debug)]
pub struct AnimRuns<'data> {
    frame: AnimFrame<'data>,
    /// The next run header's place in the frame's bytes.
    at: usize,
    done: bool,
}

impl<'data> AnimRuns<'data> {
    #[cold]
    fn fail(&mut self, problem: AnimProblem) -> Option<Result<AnimRun<'data>, DataError>> {
        self.done = true;
        let error = DataError::from(problem);
        Some(Err(match self.frame.origin {
            Some(origin) => origin.name_error(error),
            None => error,
        }))
    }

    /// The error for bytes missing at the end of the frame's bytes: past the group's end,
    /// or into the next frame's.
    fn cut(&mut self) -> Option<Result<AnimRun<'data>, DataError>> {
        let frame = self.frame.number;
        match self.frame.next {
            Some(next) => self.fail(AnimProblem::FrameOverlap { frame, next }),
            None => self.fail(AnimProblem::RunCut {
                frame,
                at: self.frame.at.saturating_add(self.at as u64),
            }),
        }
    }
}

/// A 10-bit two's-complement number (-512 to 511).
#[inline]
fn signed10(bits: u32) -> i32 {
    let v = i32::try_from(bits & 0x3FF).unwrap_or(0);
    // v is 0 to 1023: the XOR and the difference stay in -512..=511.
    (v ^ 0x200).saturating_sub(0x200)
}

impl<'data> Iterator for AnimRuns<'data> {
    type Item = Result<AnimRun<'data>, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        let bytes = self.frame.runs;
        while !self.done {
            let at = self.at;
            if at == bytes.len() {
                // The group's end: the client stops there; another frame's start: overlap.
                if self.frame.next.is_some() {
                    return self.cut();
                }
                self.done = true;
                return None;
            }
            let Some(header) = at
                .checked_add(4)
                .and_then(|end| bytes.get(at..end))
                .and_then(|h| <[u8; 4]>::try_from(h).ok())
                .map(u32::from_le_bytes)
            else {
                return self.cut();
            };
            if header == RUN_END {
                self.done = true;
                return None;
            }
            // 12 bits.
            let length = u16::try_from(header & 0x0FFF).unwrap_or(0);
            let (x, y) = (signed10(header >> 22), signed10(header >> 12));
            let (f, width, height) = (&self.frame, self.frame.width, self.frame.height);
            // Sums of 10-bit and 16-bit numbers: far inside an i32.
            let column = x.saturating_add(i32::from(f.centre_x));
            let row = y
                .saturating_add(i32::from(f.centre_y))
                .saturating_add(i32::from(height));
            let right = column.saturating_add(i32::from(length));
            if row < 0 || row >= i32::from(height) || column < 0 || right > i32::from(width) {
                return self.fail(AnimProblem::RunOutside {
                    frame: f.number,
                    column,
                    row,
                    length,
                    width,
                    height,
                });
            }
            let start = at.saturating_add(4);
            let Some(pixels) = start
                .checked_add(usize::from(length))
                .and_then(|end| bytes.get(start..end))
            else {
                return self.cut();
            };
            self.at = start.saturating_add(pixels.len());
            if !pixels.is_empty() {
                return Some(Ok(AnimRun {
                    x: column.unsigned_abs(),
                    y: row.unsigned_abs(),
                    pixels,
                }));
            }
        }
        None
    }
}

/// A folder's animation files, owned ([`OwnedSet`] of [`AnimSet`]; view:
/// [`AnimationFiles`]): anim.idx with anim.mul, and anim2 to anim5 when the folder has both
/// of a pair. A folder holds one set: its id is `()` (`OwnedAnimations::open(dir, ())`).
pub type OwnedAnimations = OwnedSet<AnimSet>;

/// Where a folder's animation files are: for each [`AnimFile`] (in the client's order),
/// its index file and its data file, when both are there.
pub type AnimPaths = [Option<[PathBuf; 2]>; 5];

/// The bytes of a folder's animation files (what [`OwnedAnimations::from_data`] takes):
/// for each [`AnimFile`], its index file's bytes and its data file's.
pub type AnimFileData = [Option<[FileData; 2]>; 5];

/// A folder's animation files, checked: each index a whole number of 12-byte records; the
/// entries' overlaps, found when a file's first entry is read, kept for every view.
pub struct AnimSet {
    /// Where they are (`None` for bytes handed over without paths).
    pub paths: Option<AnimPaths>,
    files: [Option<([FileData; 2], SharedOverlaps)>; 5],
}

impl AnimSet {
    /// The files the set holds, in the client's order.
    pub fn files(&self) -> impl Iterator<Item = AnimFile> + '_ {
        AnimFile::ALL
            .into_iter()
            .zip(&self.files)
            .filter_map(|(file, held)| held.as_ref().map(|_| file))
    }

    /// The paths of every file read (index and data files), for callers that must not
    /// write over an input.
    pub fn input_paths(&self) -> impl Iterator<Item = &Path> + '_ {
        self.paths
            .iter()
            .flatten()
            .flatten()
            .flatten()
            .map(PathBuf::as_path)
    }
}

impl fmt::Debug for AnimSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = f.debug_struct("OwnedAnimations");
        out.field("paths", &self.paths);
        for (file, held) in AnimFile::ALL.iter().zip(&self.files) {
            if let Some(([index, data], _)) = held {
                out.field(file.index_name(), index);
                out.field(file.data_name(), data);
            }
        }
        out.finish()
    }
}

impl FileSet for AnimSet {
    type Options = FileOptions;
    type Kind = ErrorKind;
    type Id = ();
    type Paths = Option<AnimPaths>;
    type Files = AnimFileData;
    type View<'data> = AnimationFiles<'data>;

    /// anim.idx and anim.mul in `dir` (any letter case; both required), and each of
    /// anim2 to anim5 whose two files are both there.
    fn find(dir: &Path, _id: (), _options: &FileOptions) -> Result<Self::Paths, Error> {
        let mut paths: AnimPaths = Default::default();
        for (file, slot) in AnimFile::ALL.into_iter().zip(paths.iter_mut()) {
            *slot = if file == AnimFile::Anim {
                Some([
                    find_file_ignoring_case(dir, file.index_name())?,
                    find_file_ignoring_case(dir, file.data_name())?,
                ])
            } else {
                match (
                    find_optional(dir, file.index_name())?,
                    find_optional(dir, file.data_name())?,
                ) {
                    (Some(index), Some(data)) => Some([index, data]),
                    _ => None,
                }
            };
        }
        Ok(Some(paths))
    }

    fn load(
        paths: &Self::Paths,
        load: &mut dyn FnMut(&Path) -> Result<FileData, FileError>,
    ) -> Result<AnimFileData, FileError> {
        let mut files: AnimFileData = Default::default();
        if let Some(paths) = paths {
            for (slot, pair) in files.iter_mut().zip(paths) {
                if let Some([index, data]) = pair {
                    *slot = Some([load(index)?, load(data)?]);
                }
            }
        }
        Ok(files)
    }

    /// Checks each index (a whole number of 12-byte records), naming it in errors.
    fn from_files(
        paths: Self::Paths,
        files: AnimFileData,
        _options: &FileOptions,
    ) -> Result<Self, DataError> {
        let mut held: [Option<([FileData; 2], SharedOverlaps)>; 5] = Default::default();
        for (i, (slot, pair)) in held.iter_mut().zip(files).enumerate() {
            let Some([index, data]) = pair else {
                continue;
            };
            let file = AnimFile::from_number(i).unwrap_or(AnimFile::Anim);
            Animations::parse(file, &index, &data).map_err(|e| {
                match paths
                    .as_ref()
                    .and_then(|p| p.get(i))
                    .and_then(Option::as_ref)
                {
                    Some([index_path, _]) => DataError::in_file(index_path)(e),
                    None => e,
                }
            })?;
            *slot = Some(([index, data], SharedOverlaps::default()));
        }
        Ok(AnimSet { paths, files: held })
    }

    fn view(&self) -> Result<AnimationFiles<'_>, DataError> {
        let mut views: [Option<Animations<'_>>; 5] = Default::default();
        for (i, (slot, held)) in views.iter_mut().zip(&self.files).enumerate() {
            if let Some(([index, data], overlaps)) = held {
                let file = AnimFile::from_number(i).unwrap_or(AnimFile::Anim);
                *slot = Some(Animations::parse_shared(
                    file,
                    index,
                    data,
                    overlaps.clone(),
                )?);
            }
        }
        Ok(AnimationFiles { files: views })
    }
}

/// The animation files of a folder ([`OwnedAnimations::view`]): one [`Animations`] for each
/// file the folder holds.
#[derive(Clone, Debug)]
pub struct AnimationFiles<'data> {
    files: [Option<Animations<'data>>; 5],
}

impl<'data> AnimationFiles<'data> {
    /// The views over the files it holds, each as [`Animations::parse`] makes it.
    pub fn new(files: impl IntoIterator<Item = Animations<'data>>) -> Self {
        let mut views: [Option<Animations<'data>>; 5] = Default::default();
        for view in files {
            if let Some(slot) = views.get_mut(view.file().number()) {
                *slot = Some(view);
            }
        }
        AnimationFiles { files: views }
    }

    /// File `file`, if the folder holds it.
    pub fn get(&self, file: AnimFile) -> Option<&Animations<'data>> {
        self.files.get(file.number()).and_then(Option::as_ref)
    }

    /// The files held, in the client's order.
    pub fn iter(&self) -> impl Iterator<Item = &Animations<'data>> + '_ {
        self.files.iter().flatten()
    }
}
