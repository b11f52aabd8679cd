//! One decoded AnimationFrame*.uop entry, read in place: a body's action, the frames of
//! all five stored directions, each frame with its own palette.
//!
//! [`UopAnimation`] reads the entry's header and frame table; [`UopFrame`] is one frame.
//! Finding and decoding the entry is [`super::UopAnimations`]'s work (`uop_lookup.rs`).
//!
//! Source: `docs/formats/uo.md`, "Animations", "UOP animations (AnimationFrame1.uop …)"
//! (ClassicUO's `AnimationsLoader`: `ReadUOPAnimationFrames`).

use std::fmt;
use std::sync::Arc;

use zerocopy::little_endian::{U16, U32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use crate::error::{AnimProblem, ArgumentProblem, DataError};

use super::{AnimFrame, BodyType, DIRECTIONS, FRAME_HEADER_LEN, Origin, PALETTE_LEN};

/// Bytes before a decoded entry's frame table can start: 32 bytes nothing reads, the i32
/// frame count at byte 32 and the u32 table offset at byte 36.
pub const UOP_ANIM_HEADER_LEN: usize = 40;
/// Bytes of one frame record in the table.
pub const UOP_FRAME_RECORD_LEN: usize = 16;
/// Bytes of a UOP frame's data before its runs: the palette and the frame header.
const FRAME_DATA_MIN: usize = PALETTE_LEN + FRAME_HEADER_LEN;

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
    pub(super) origin: Option<Origin>,
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
        self.record_frame(record)
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

    /// The frame of record `record` (from 0); `Ok(None)` past the table.
    ///
    /// Returns `Err` ([`AnimProblem::UopFrameData`]) for frame data that starts inside the
    /// header or table, or whose palette and frame header pass the entry's end, or
    /// ([`AnimProblem::FrameOverlap`]) for a palette or header that reaches the next
    /// frame's data; naming the entry when it came from [`UopAnimations`](super::UopAnimations).
    pub fn record_frame(&self, record: usize) -> Result<Option<UopFrame<'data>>, DataError> {
        let Some(raw) = self.records.get(record) else {
            return Ok(None);
        };
        self.read_frame(record, raw)
            .map(Some)
            .map_err(|e| self.name_error(e))
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
            at,
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
    at: usize,
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

    /// Where its data (its palette, then the frame) starts in the decoded entry: the
    /// record's own place plus its offset. Records whose data start at one place are one
    /// frame: the same palette and the same bytes.
    pub fn data_offset(&self) -> usize {
        self.at
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
