//! UOP animations (AnimationFrame1.uop to AnimationFrame10.uop): one container entry a body
//! and action, holding the frames of all five stored directions, each frame with its own
//! palette.
//!
//! [`UopAnimation`] reads one decoded entry (the bytes after zlib, or zlib and the BWT
//! stage) in place; [`UopAnimations`] finds a body's action in the files, in the client's
//! order, and decodes it ([`DecodedUopAnimation`]).
//!
//! Source: `docs/formats/uo.md`, "Animations", "UOP animations (AnimationFrame1.uop …)"
//! (ClassicUO's `AnimationsLoader`: `GetIndices`, `ReadUOPAnimationFrames`).

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use gamedata_io::{InflateError, Limits, PreviewBytes, inflate_exact};
use zerocopy::little_endian::{U16, U32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use crate::error::{AnimProblem, ArgumentProblem, DataError, ErrorKind, UopEntryProblem};
use crate::uop::{UopEntry, UopFile, name_hash};

use super::{AnimFrame, BodyType, DIRECTIONS, EntryName, FRAME_HEADER_LEN, Origin, PALETTE_LEN};

/// Bytes before a decoded entry's frame table can start: 32 bytes nothing reads, the i32
/// frame count at byte 32 and the u32 table offset at byte 36.
pub const UOP_ANIM_HEADER_LEN: usize = 40;
/// Bytes of one frame record in the table.
pub const UOP_FRAME_RECORD_LEN: usize = 16;
/// Bytes of a UOP frame's data before its runs: the palette and the frame header.
const FRAME_DATA_MIN: usize = PALETTE_LEN + FRAME_HEADER_LEN;

/// The animation files the client reads, in its order: AnimationFrame1.uop to
/// AnimationFrame10.uop.
pub const UOP_ANIM_FILES: [&str; 10] = [
    "AnimationFrame1.uop",
    "AnimationFrame2.uop",
    "AnimationFrame3.uop",
    "AnimationFrame4.uop",
    "AnimationFrame5.uop",
    "AnimationFrame6.uop",
    "AnimationFrame7.uop",
    "AnimationFrame8.uop",
    "AnimationFrame9.uop",
    "AnimationFrame10.uop",
];

/// The entry name of body `body`'s action `action`:
/// `build/animationlegacyframe/{body:06}/{action:02}.bin`, found by its
/// [`name_hash`].
pub fn uop_anim_entry_name(body: u16, action: u16) -> String {
    format!("build/animationlegacyframe/{body:06}/{action:02}.bin")
}

/// One record of a decoded entry's frame table, 16 bytes, in place.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct UopFrameRecord {
    /// The action the frame belongs to (the client does not check it).
    pub group: U16,
    /// The frame's number, from 1, through all five directions.
    pub frame: U16,
    /// Eight bytes nothing reads.
    pub unknown: [u8; 8],
    /// Where the frame's data (palette, then frame) starts, counted from this record's own
    /// first byte.
    pub offset: U32,
}

/// One decoded AnimationFrame*.uop entry, read in place: a body's action, all five stored
/// directions.
///
/// Layout: 32 bytes nothing reads; at byte 32 an i32 count of frame records; at byte 36 the
/// u32 offset of the frame table ([`UopFrameRecord`], 16 bytes a record); each record's
/// frame data at the record's own place plus its offset: a 256-colour palette (512 bytes),
/// then a frame as in anim*.mul ([`AnimFrame`]: centre, size, runs).
///
/// Frames by direction follow the client: going through the records in order, a number
/// missing between one record's frame number and the next is an empty frame (frame 1 is
/// never filled in); the frames a direction has ([`UopAnimation::frames_per_direction`])
/// are that list's length divided by 5, rounded to nearest; frame number f is direction
/// `(f - 1) / per`, place `(f - 1) % per`.
///
/// Colours: unlike anim*.mul, palette colour 0 is transparent here: a run's pixel whose
/// palette entry is 0 is not drawn.
///
/// Checks: [`UopAnimation::parse`] checks the header, that the table lies after the 40
/// header bytes and inside the entry (so the count is at most the table's room: the
/// entry's length / 16), and that frame numbers rise from 1; each frame is checked when
/// asked for: its data after the table and inside the entry, its bytes ending where the
/// next frame's data (by place) starts, and its runs as they are read. Memory: 8 bytes a
/// record (the frames' starts, sorted), at most half the entry.
#[derive(Clone)]
pub struct UopAnimation<'data> {
    origin: Option<Origin>,
    bytes: &'data [u8],
    table_end: usize,
    records: &'data [UopFrameRecord],
    /// The places of the records' frame data in the entry, sorted.
    starts: Arc<[usize]>,
    /// The client's list: the records and the empty frames of the gaps between them.
    list_len: usize,
}

impl fmt::Debug for UopAnimation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UopAnimation")
            .field("len", &self.bytes.len())
            .field("records", &self.records.len())
            .field("list_len", &self.list_len)
            .finish_non_exhaustive()
    }
}

impl<'data> UopAnimation<'data> {
    /// Reads a decoded entry's header and frame table.
    ///
    /// Returns `Err` ([`AnimProblem::UopHeader`]) for fewer than 40 bytes,
    /// ([`AnimProblem::UopFrameTable`]) for a negative count or a table that starts before
    /// byte 40 or passes the entry's end, or ([`AnimProblem::UopFrameNumber`]) for a frame
    /// number that is not above the previous record's (the first's must be 1 or more).
    pub fn parse(bytes: &'data [u8]) -> Result<Self, DataError> {
        let word = |at: usize| {
            let b: [u8; 4] = bytes.get(at..at.checked_add(4)?)?.try_into().ok()?;
            Some(b)
        };
        let (Some(count), Some(offset)) = (word(32), word(36)) else {
            return Err(AnimProblem::UopHeader { found: bytes.len() }.into());
        };
        let (count, offset) = (i32::from_le_bytes(count), u32::from_le_bytes(offset));
        let table_err = || AnimProblem::UopFrameTable {
            count,
            offset,
            found: bytes.len(),
        };
        let start = usize::try_from(offset)
            .ok()
            .filter(|&o| o >= UOP_ANIM_HEADER_LEN)
            .ok_or_else(table_err)?;
        let records = usize::try_from(count)
            .ok()
            .and_then(|n| n.checked_mul(UOP_FRAME_RECORD_LEN))
            .and_then(|len| bytes.get(start..start.checked_add(len)?))
            .and_then(|table| <[UopFrameRecord]>::ref_from_bytes(table).ok())
            .ok_or_else(table_err)?;
        // The table lies inside the entry: its end and every record's place fit.
        let table_end = start.saturating_add(size_of_val(records));
        let mut previous = 0u16;
        let mut last = 1u16;
        let mut list_len = 0usize;
        for (i, record) in records.iter().enumerate() {
            let number = record.frame.get();
            if number <= previous {
                return Err(AnimProblem::UopFrameNumber {
                    record: u32::try_from(i).unwrap_or(u32::MAX),
                    number,
                    previous,
                }
                .into());
            }
            // The client fills the numbers between the last one and this one (from 2).
            let gap = number.saturating_sub(last).saturating_sub(1);
            list_len = list_len.saturating_add(usize::from(gap)).saturating_add(1);
            previous = number;
            last = number;
        }
        let mut starts: Vec<usize> = records
            .iter()
            .enumerate()
            .map(|(i, r)| record_place(start, i).saturating_add(r.offset.get() as usize))
            .collect();
        starts.sort_unstable();
        Ok(UopAnimation {
            origin: None,
            bytes,
            table_end,
            records,
            starts: Arc::from(starts),
            list_len,
        })
    }

    /// The decoded entry's bytes.
    pub fn bytes(&self) -> &'data [u8] {
        self.bytes
    }

    /// The frame table's records, in place.
    pub fn records(&self) -> &'data [UopFrameRecord] {
        self.records
    }

    /// Frame records in the table.
    pub fn record_count(&self) -> usize {
        self.records.len()
    }

    /// The length of the client's frame list: the records and one empty frame for each
    /// number missing between a record's frame number and the next (frame 1 never filled
    /// in). At most 65,535, as frame numbers rise and are 16 bits.
    pub fn list_len(&self) -> usize {
        self.list_len
    }

    /// Frames a direction has for a body of type `body_type`: the list's length
    /// ([`UopAnimation::list_len`]) divided by 5, rounded to nearest; at least 10 for
    /// [`BodyType::Equipment`]. 0 when the list has fewer than 3 frames: no direction then
    /// has a frame.
    pub fn frames_per_direction(&self, body_type: BodyType) -> u32 {
        // list_len is at most 65,535: (n + 2) / 5 rounds n / 5 to nearest (no fifth is
        // a half).
        let per = u32::try_from(self.list_len.saturating_add(2) / DIRECTIONS).unwrap_or(0);
        if body_type == BodyType::Equipment {
            per.max(10)
        } else {
            per
        }
    }

    /// The record holding frame number `number`, if any.
    pub fn record_of(&self, number: u16) -> Option<usize> {
        self.records
            .binary_search_by_key(&number, |r| r.frame.get())
            .ok()
    }

    /// The frame of stored direction `direction` (0 to 4) at place `place`, a direction
    /// having `per` frames ([`UopAnimation::frames_per_direction`]): frame number
    /// `direction * per + place + 1`. `Ok(None)` for an empty frame: a number no record
    /// has (a gap, or past the last), or a place of `per` or more.
    ///
    /// Returns `Err` ([`ArgumentProblem::AnimDirection`]) for a direction past 4, or as
    /// [`UopAnimation::record_frame`].
    pub fn frame(
        &self,
        direction: u8,
        place: u32,
        per: u32,
    ) -> Result<Option<UopFrame<'data>>, DataError> {
        if usize::from(direction) >= DIRECTIONS {
            return Err(ArgumentProblem::AnimDirection { direction }.into());
        }
        if place >= per {
            return Ok(None);
        }
        let number = u64::from(direction)
            .saturating_mul(u64::from(per))
            .saturating_add(u64::from(place))
            .saturating_add(1);
        let Some(record) = u16::try_from(number).ok().and_then(|n| self.record_of(n)) else {
            return Ok(None);
        };
        self.record_frame(record).transpose()
    }

    /// The `per` frames of stored direction `direction`, in order ([`UopAnimation::frame`]
    /// for each place).
    pub fn direction(
        &self,
        direction: u8,
        per: u32,
    ) -> impl Iterator<Item = Result<Option<UopFrame<'data>>, DataError>> + '_ {
        (0..per).map(move |place| self.frame(direction, place, per))
    }

    /// The frame of record `record` (from 0); `None` past the table.
    ///
    /// Returns `Err` ([`AnimProblem::UopFrameData`]) for frame data that starts inside the
    /// header or table, or whose palette and frame header pass the entry's end, or
    /// ([`AnimProblem::FrameOverlap`]) for a palette or header that reaches the next
    /// frame's data; naming the entry when it came from [`UopAnimations`].
    pub fn record_frame(&self, record: usize) -> Option<Result<UopFrame<'data>, DataError>> {
        let raw = self.records.get(record)?;
        Some(self.read_frame(record, raw).map_err(|e| self.name_error(e)))
    }

    fn read_frame(
        &self,
        record: usize,
        raw: &'data UopFrameRecord,
    ) -> Result<UopFrame<'data>, DataError> {
        let number = raw.frame.get();
        let offset = raw.offset.get();
        let table_start = self.table_end.saturating_sub(size_of_val(self.records));
        let at = record_place(table_start, record).saturating_add(offset as usize);
        let data_err = || AnimProblem::UopFrameData {
            record: u32::try_from(record).unwrap_or(u32::MAX),
            number,
            offset,
            at: at as u64,
            table_end: self.table_end as u64,
            found: self.bytes.len(),
        };
        let fits = at
            .checked_add(FRAME_DATA_MIN)
            .is_some_and(|end| end <= self.bytes.len());
        if at < self.table_end || !fits {
            return Err(data_err().into());
        }
        let palette_end = at.saturating_add(PALETTE_LEN);
        let palette = self
            .bytes
            .get(at..palette_end)
            .and_then(|p| <[U16; 256]>::ref_from_bytes(p).ok())
            .ok_or_else(data_err)?;
        let after = self.starts.partition_point(|&s| s <= at);
        let next = self.starts.get(after).copied();
        let frame = AnimFrame::read(
            self.bytes,
            palette_end,
            next,
            u32::from(number),
            self.origin,
        )?
        .ok_or_else(data_err)?;
        Ok(UopFrame {
            palette,
            frame,
            record,
            group: raw.group.get(),
            number,
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

/// Where record `record` of a table starting at `table` lies (inside the entry, as the
/// table was checked to fit).
fn record_place(table: usize, record: usize) -> usize {
    record
        .saturating_mul(UOP_FRAME_RECORD_LEN)
        .saturating_add(table)
}

/// One frame of a [`UopAnimation`]: its own palette and the frame ([`AnimFrame`]: centre,
/// size, runs), in place.
///
/// Palette colour 0 is transparent: a run's pixel that indexes an entry of 0 is not drawn
/// (anim*.mul draws it black). Other colours are 15-bit (red bits 10 to 14, green 5 to 9,
/// blue 0 to 4), bit 15 playing no part.
#[derive(Clone, Copy)]
pub struct UopFrame<'data> {
    palette: &'data [U16; 256],
    frame: AnimFrame<'data>,
    record: usize,
    group: u16,
    number: u16,
}

impl fmt::Debug for UopFrame<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UopFrame")
            .field("record", &self.record)
            .field("number", &self.number)
            .field("frame", &self.frame)
            .finish_non_exhaustive()
    }
}

impl<'data> UopFrame<'data> {
    /// The frame's palette: 256 colours, 0 transparent.
    pub fn palette(&self) -> &'data [U16; 256] {
        self.palette
    }

    /// The frame: centre, size and runs of palette indices ([`AnimFrame::runs`]).
    pub fn frame(&self) -> AnimFrame<'data> {
        self.frame
    }

    /// Its record in the table, from 0.
    pub fn record(&self) -> usize {
        self.record
    }

    /// Its record's group (action) field.
    pub fn group(&self) -> u16 {
        self.group
    }

    /// Its frame number, from 1.
    pub fn number(&self) -> u16 {
        self.number
    }
}

/// AnimationFrame1.uop to AnimationFrame10.uop, borrowed: a body's action by its entry
/// name ([`uop_anim_entry_name`]), looked up in each file in the client's order, the first
/// file that has it winning.
pub struct UopAnimations<'data> {
    /// (file number 1 to 10, container) in the client's order.
    files: Vec<(u8, UopFile<'data>)>,
}

impl fmt::Debug for UopAnimations<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let numbers: Vec<u8> = self.files.iter().map(|(n, _)| *n).collect();
        f.debug_struct("UopAnimations")
            .field("files", &numbers)
            .finish()
    }
}

impl<'data> UopAnimations<'data> {
    /// Reads the tables of `files`, each `(n, bytes)` the bytes of AnimationFrame`n`.uop
    /// (n from 1 to 10; others are left out), searched in the order of n.
    ///
    /// Returns `Err` as [`UopFile::parse`], naming the file.
    pub fn parse(
        files: impl IntoIterator<Item = (u8, &'data [u8])>,
        limits: &Limits,
    ) -> Result<Self, DataError> {
        let mut held = Vec::new();
        for (number, bytes) in files {
            let Some(name) = file_name(number) else {
                continue;
            };
            let uop = UopFile::parse(bytes, limits).map_err(|e| e.with_file_name(name))?;
            held.push((number, uop));
        }
        held.sort_by_key(|(n, _)| *n);
        held.dedup_by_key(|(n, _)| *n);
        Ok(UopAnimations { files: held })
    }

    /// The file numbers held (1 to 10), in order.
    pub fn files(&self) -> impl Iterator<Item = u8> + '_ {
        self.files.iter().map(|(n, _)| *n)
    }

    /// Where body `body`'s action `action` is: the first file (by number) whose table has
    /// its entry name, and the entry.
    pub fn find(&self, body: u16, action: u16) -> Option<(u8, &UopFile<'data>, UopEntry<'data>)> {
        let hash = name_hash(&uop_anim_entry_name(body, action));
        self.files
            .iter()
            .find_map(|(n, uop)| Some((*n, uop, *uop.find(hash)?)))
    }

    /// Body `body`'s action `action`, decoded: in place when stored as is, inflated (and
    /// for compression 3 undone by the BWT stage, [`crate::bwt::decompress`]) into a buffer
    /// of its own within `limits.max_decoded_bytes`; `None` when no file has the entry.
    ///
    /// Returns `Err` ([`ErrorKind::UopEntry`]) for stored bytes outside the file, an
    /// unknown compression or a zlib stream that does not decode to its declared length,
    /// ([`ErrorKind::Bwt`]) for a BWT stage that cannot be undone, or
    /// ([`ErrorKind::Limit`]) past `limits`; each naming the entry ("body 400 action 2")
    /// and its place in the file's table.
    pub fn decoded(
        &self,
        body: u16,
        action: u16,
        limits: &Limits,
    ) -> Result<Option<DecodedUopAnimation<'data>>, DataError> {
        let Some((number, uop, entry)) = self.find(body, action) else {
            return Ok(None);
        };
        let origin = Origin {
            file: file_name(number).unwrap_or("AnimationFrame.uop"),
            name: EntryName::Uop { body, action },
            record: entry.index(),
        };
        let bytes = decode(uop, &entry, limits).map_err(|e| origin.name_error(e))?;
        Ok(Some(DecodedUopAnimation { bytes, origin }))
    }
}

fn file_name(number: u8) -> Option<&'static str> {
    UOP_ANIM_FILES
        .get(usize::from(number).checked_sub(1)?)
        .copied()
}

/// `entry`'s contents: as is (0), zlib (1), or zlib then the BWT stage (3).
fn decode<'data>(
    uop: &UopFile<'data>,
    entry: &UopEntry<'data>,
    limits: &Limits,
) -> Result<Cow<'data, [u8]>, DataError> {
    match entry.raw().compression.get() {
        0 | 1 => uop.contents(entry, limits),
        3 => {
            let stored = uop.stored(entry)?;
            let declared = u64::from(entry.raw().decompressed_len.get());
            let inflated = match inflate_exact("a UOP animation", stored, declared, &[], limits) {
                Ok(inflated) => inflated.data,
                Err(InflateError::Limit(limit)) => return Err(ErrorKind::Limit(limit).into()),
                Err(other) => return Err(entry.error(UopEntryProblem::Inflate(other))),
            };
            Ok(Cow::Owned(crate::bwt::decompress(inflated, limits)?))
        }
        other => Err(entry.error(UopEntryProblem::UnknownCompression(other))),
    }
}

/// A body's action as [`UopAnimations::decoded`] gives it: the entry's decoded bytes, in
/// place or in a buffer of their own, and its name for messages.
#[derive(Clone)]
pub struct DecodedUopAnimation<'data> {
    bytes: Cow<'data, [u8]>,
    origin: Origin,
}

impl fmt::Debug for DecodedUopAnimation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecodedUopAnimation")
            .field("origin", &self.origin)
            .field("decoded", &self.is_decoded())
            .field("bytes", &PreviewBytes(&self.bytes))
            .finish()
    }
}

impl DecodedUopAnimation<'_> {
    /// The decoded bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// True if the bytes were decoded into a buffer of their own (false: in place).
    pub fn is_decoded(&self) -> bool {
        matches!(self.bytes, Cow::Owned(_))
    }

    /// The file it came from (AnimationFrame1.uop …).
    pub fn file(&self) -> &'static str {
        self.origin.file
    }

    /// Its place in the file's table (unused entries counted).
    pub fn entry_index(&self) -> usize {
        self.origin.record
    }

    /// The animation over these bytes, its errors (and its frames' and runs') naming the
    /// entry.
    ///
    /// Returns `Err` as [`UopAnimation::parse`], naming the entry ("body 400 action 2").
    pub fn animation(&self) -> Result<UopAnimation<'_>, DataError> {
        let mut animation =
            UopAnimation::parse(&self.bytes).map_err(|e| self.origin.name_error(e))?;
        animation.origin = Some(self.origin);
        Ok(animation)
    }
}

/// The entry name of body `body`'s sequence in AnimationSequence.uop:
/// `build/animationsequence/{body:08}.bin`.
pub fn uop_sequence_entry_name(body: u32) -> String {
    format!("build/animationsequence/{body:08}.bin")
}

/// Bytes before a decoded sequence's records: the u32 body, 48 bytes nothing reads, the
/// i32 record count at byte 52.
pub const UOP_SEQUENCE_HEADER_LEN: usize = 56;

/// One 72-byte record of a decoded AnimationSequence.uop entry, in place.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct UopSequenceRecord {
    /// The action replaced (signed, as stored).
    pub old_action: zerocopy::little_endian::I32,
    /// Frames; a record of 0 frames makes the old action play the new one's entry.
    pub frame_count: U32,
    /// The action whose entry is played (signed, as stored).
    pub new_action: zerocopy::little_endian::I32,
    /// Sixty bytes nothing reads.
    pub unknown: [u8; 60],
}

/// One decoded AnimationSequence.uop entry, a body's action replacements, in place
/// (`docs/formats/uo.md`, "UOP animations", AnimationSequence.uop).
///
/// Layout: u32 body, 48 bytes nothing reads, i32 count c at byte 52; unless c is 48 or 68
/// (then no record is read), c records of 72 bytes ([`UopSequenceRecord`]) from byte 56.
/// A record whose frame count is 0 makes its old action play its new action's entry, the
/// last such record of an action winning; one naming an action outside 0 to 65,535
/// replaces nothing.
#[derive(Clone, Copy, Debug)]
pub struct UopSequence<'data> {
    body: u32,
    records: &'data [UopSequenceRecord],
}

impl<'data> UopSequence<'data> {
    /// Reads a decoded sequence entry.
    ///
    /// Returns `Err` ([`AnimProblem::UopSequence`]) for fewer than 56 bytes, a negative
    /// count (but for the client's 48 and 68, which read no record) or records that pass
    /// the entry's end.
    pub fn parse(bytes: &'data [u8]) -> Result<Self, DataError> {
        let word = |at: usize| {
            let b: [u8; 4] = bytes.get(at..at.checked_add(4)?)?.try_into().ok()?;
            Some(b)
        };
        let bad = |count: Option<i32>| AnimProblem::UopSequence {
            count,
            found: bytes.len(),
        };
        let (Some(body), Some(count)) = (word(0), word(52)) else {
            return Err(bad(None).into());
        };
        let (body, count) = (u32::from_le_bytes(body), i32::from_le_bytes(count));
        let records = if count == 48 || count == 68 {
            Default::default()
        } else {
            usize::try_from(count)
                .ok()
                .and_then(|n| n.checked_mul(size_of::<UopSequenceRecord>()))
                .and_then(|len| {
                    bytes.get(UOP_SEQUENCE_HEADER_LEN..UOP_SEQUENCE_HEADER_LEN.checked_add(len)?)
                })
                .and_then(|table| <[UopSequenceRecord]>::ref_from_bytes(table).ok())
                .ok_or_else(|| bad(Some(count)))?
        };
        Ok(UopSequence { body, records })
    }

    /// The body the entry names.
    pub fn body(&self) -> u32 {
        self.body
    }

    /// The records, in place.
    pub fn records(&self) -> &'data [UopSequenceRecord] {
        self.records
    }

    /// The action whose entry `action` plays, by this table once: the new action of the
    /// last 0-frame record whose old action is `action`; `None` when no record replaces it
    /// or that last record's new action is outside 0 to 65,535.
    pub fn replacement(&self, action: u16) -> Option<u16> {
        self.records
            .iter()
            .rev()
            .filter(|r| r.frame_count.get() == 0)
            .find(|r| r.old_action.get() == i32::from(action))
            .and_then(|r| u16::try_from(r.new_action.get()).ok())
    }

    /// The action whose entry the client reads for `action`: the replacement applied twice,
    /// as the client applies it when it builds the body's table and again when it looks
    /// the action up (which differs from once only when a replacement's target is itself
    /// replaced).
    pub fn resolve(&self, action: u16) -> u16 {
        let once = self.replacement(action).unwrap_or(action);
        self.replacement(once).unwrap_or(once)
    }
}

/// AnimationSequence.uop, borrowed: each body's replacements by entry name
/// ([`uop_sequence_entry_name`]).
#[derive(Debug)]
pub struct UopSequences<'data> {
    uop: UopFile<'data>,
}

/// AnimationSequence.uop's name.
pub const UOP_SEQUENCE_FILE: &str = "AnimationSequence.uop";

impl<'data> UopSequences<'data> {
    /// Reads AnimationSequence.uop's table.
    ///
    /// Returns `Err` as [`UopFile::parse`], naming the file.
    pub fn parse(bytes: &'data [u8], limits: &Limits) -> Result<Self, DataError> {
        let uop = UopFile::parse(bytes, limits).map_err(|e| e.with_file_name(UOP_SEQUENCE_FILE))?;
        Ok(UopSequences { uop })
    }

    /// Body `body`'s entry, decoded as [`UopAnimations::decoded`] decodes (within
    /// `limits`); `None` when the file has none. Read it with [`UopSequence::parse`].
    ///
    /// Returns `Err` as [`UopAnimations::decoded`], naming the entry ("body 400 sequence").
    pub fn decoded(
        &self,
        body: u32,
        limits: &Limits,
    ) -> Result<Option<Cow<'data, [u8]>>, DataError> {
        let Some(entry) = self.uop.find_name(&uop_sequence_entry_name(body)) else {
            return Ok(None);
        };
        decode(&self.uop, entry, limits).map(Some).map_err(|e| {
            e.in_entry(
                UOP_SEQUENCE_FILE,
                &format!("body {body} sequence"),
                entry.index(),
            )
        })
    }
}
