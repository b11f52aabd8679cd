//! AnimationSequence.uop: each body's action replacements ([`UopSequences`],
//! [`UopSequence`]).
//!
//! Source: `docs/formats/uo.md`, "UOP animations", AnimationSequence.uop (ClassicUO's
//! `AnimationsLoader.LoadUop`, `ReplaceUopGroup`).

use std::borrow::Cow;

use gamedata_io::Limits;
use zerocopy::little_endian::U32;
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use crate::error::{AnimProblem, DataError};
use crate::uop::Uop;

use super::uop_lookup::decode;

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
    uop: Uop<'data>,
}

/// AnimationSequence.uop's name.
pub const UOP_SEQUENCE_FILE: &str = "AnimationSequence.uop";

impl<'data> UopSequences<'data> {
    /// Reads AnimationSequence.uop's table.
    ///
    /// Returns `Err` as [`Uop::parse`], naming the file.
    pub fn parse(bytes: &'data [u8], limits: &Limits) -> Result<Self, DataError> {
        let uop = Uop::parse(bytes, limits).map_err(|e| e.with_file_name(UOP_SEQUENCE_FILE))?;
        Ok(UopSequences { uop })
    }

    /// Body `body`'s entry, decoded as [`UopAnimations::decoded`](super::UopAnimations::decoded) decodes (within
    /// `limits`); `None` when the file has none. Read it with [`UopSequence::parse`].
    ///
    /// Returns `Err` as [`UopAnimations::decoded`](super::UopAnimations::decoded), naming the entry ("body 400 sequence").
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
