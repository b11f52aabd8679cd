//! animdata.mul: how animated items (tiledata's animation flag) cycle through art. Groups of
//! 548 bytes, each a u32 header and the 68-byte records of 8 items; item `i`'s record is at
//! byte `68 * i + 4 * (i / 8 + 1)`. Source: `docs/formats/uo.md`, "animdata.mul" (ClassicUO
//! `AnimDataLoader`, `AnimatedStaticsManager`).
//!
//! [`AnimData`] is the view, [`AnimDataFile`] the owner, [`write`](mod@write) (the `write` feature) the
//! writer. animdata.mul animates items' art, so it sits apart from [`anim`](crate::anim)
//! (the mobiles' anim.mul and AnimationFrame UOPs).

use std::fmt;

use gamedata_io::{Bytes, Owned, PreviewBytes, record};

use crate::error::DataError;

record! {
    /// One item's animation: the art offsets of its frames, their count and pace.
    pub struct AnimDataRecord {
        /// Frame k shows the art of item `id + frames[k]` (signed).
        pub frames: [i8; 64],
        /// Not understood; kept raw.
        pub unknown: u8,
        /// Frames the item cycles through.
        pub frame_count: u8,
        /// Pace: each frame lasts `interval * 100 + 1` ms, 100 ms when 0.
        pub frame_interval: u8,
        /// Kept raw (the client does not read it to animate).
        pub frame_start: u8,
    } = 68;
}

/// Bytes of a group: the header and 8 records.
pub const GROUP_LEN: usize = 4 + 8 * size_of::<AnimDataRecord>();

impl AnimDataRecord {
    /// The frames' art offsets, in order: `frame_count` of them, at most the record's 64.
    /// (The client reads a count past 64 beyond the record, into the fields after the
    /// offsets and past them; what that shows is not defined, so it is not given here.)
    pub fn offsets(&self) -> &[i8] {
        let count = usize::from(self.frame_count).min(self.frames.len());
        self.frames.get(..count).unwrap_or_default()
    }

    /// How long each frame shows, in milliseconds, as the client paces it: `interval * 100
    /// + 1`, or 100 when the interval is 0.
    pub fn frame_ms(&self) -> u32 {
        match self.frame_interval {
            0 => 100,
            interval => u32::from(interval).saturating_mul(100).saturating_add(1),
        }
    }

    /// The art item ids item `item` shows, frame by frame (`item + offset`); an id that
    /// falls outside 0 to 0xFFFF is `None`.
    pub fn frame_items(&self, item: u16) -> impl Iterator<Item = Option<u16>> + '_ {
        self.offsets().iter().map(move |&offset| {
            u16::try_from(i32::from(item).saturating_add(i32::from(offset))).ok()
        })
    }
}

/// animdata.mul, borrowed: each item's record read in place.
///
/// Any length is taken (files need not be whole groups: the pre-alpha one ends 124 bytes
/// into a group); an item whose record does not end inside the file has none, as the
/// client decides.
#[derive(Clone, Copy)]
pub struct AnimData<'data> {
    data: &'data [u8],
}

impl fmt::Debug for AnimData<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AnimData")
            .field("items", &self.len())
            .field("data", &PreviewBytes(self.data))
            .finish()
    }
}

impl<'data> AnimData<'data> {
    /// Wraps animdata.mul's bytes.
    ///
    /// Never fails (every length is a file the client reads); the `Result` keeps the
    /// readers' shape.
    pub fn parse(data: &'data [u8]) -> Result<Self, DataError> {
        Ok(AnimData { data })
    }

    /// Where item `item`'s record starts.
    fn record_at(item: usize) -> Option<usize> {
        item.checked_mul(size_of::<AnimDataRecord>())?
            .checked_add((item / 8).checked_add(1)?.checked_mul(4)?)
    }

    /// Items whose records end inside the file (ids 0 to `len() - 1`).
    pub fn len(&self) -> usize {
        let whole = self.data.len() / GROUP_LEN;
        // The records of the last, partial group that end inside the file.
        let rest = self.data.len() % GROUP_LEN;
        let partial = rest
            .saturating_sub(4)
            .checked_div(size_of::<AnimDataRecord>())
            .unwrap_or(0);
        whole.saturating_mul(8).saturating_add(partial)
    }

    /// True if no record ends inside the file.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Item `item`'s record; `None` when it does not end inside the file.
    pub fn get(&self, item: u16) -> Option<&'data AnimDataRecord> {
        Bytes::new(self.data)
            .read_at::<AnimDataRecord>(Self::record_at(usize::from(item))?)
            .ok()
    }

    /// The header word of group `group` (items `8 * group` to `8 * group + 7`), kept raw.
    pub fn group_header(&self, group: usize) -> Option<u32> {
        let at = group.checked_mul(GROUP_LEN)?;
        Bytes::new(self.data)
            .read_at::<zerocopy::little_endian::U32>(at)
            .ok()
            .map(|w| w.get())
    }
}

/// animdata.mul, owned ([`Owned`] of [`AnimDataContents`]; view: [`AnimData`]).
pub type AnimDataFile = Owned<AnimDataContents>;

single_file! {
    /// animdata.mul's bytes ([`AnimData::parse`]: every length is taken).
    AnimDataContents => AnimData
}

/// The animdata.mul writer (the `write` feature): the file from items' animations, and a
/// synthetic one (`docs/formats/uo.md`, "animdata.mul").
#[cfg(feature = "write")]
pub mod write {
    // Writers: their arithmetic is on the lengths of buffers in memory and small constants.
    #![allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

    use super::GROUP_LEN;
    use crate::error::{DataError, ErrorKind, WriteProblem};

    /// One item's animation, as [`write_animdata`] takes it.
    #[derive(Clone, Copy, Debug)]
    pub struct AnimDataItem<'a> {
        /// The frames' art offsets (at most 64).
        pub offsets: &'a [i8],
        /// The pace (`AnimDataRecord::frame_interval`).
        pub interval: u8,
        /// Kept raw (`AnimDataRecord::frame_start`).
        pub start: u8,
    }

    /// animdata.mul holding `items`, item i's record from `items[i]` (`None`: zeros), in whole
    /// groups of 8 records, each group's header word 0 (`docs/formats/uo.md`, "animdata.mul").
    ///
    /// Returns `Err` ([`ErrorKind::Write`]) for an item of more than 64 offsets.
    pub fn write_animdata(items: &[Option<AnimDataItem<'_>>]) -> Result<Vec<u8>, DataError> {
        let groups = items.len().div_ceil(8);
        let mut out = Vec::with_capacity(groups * GROUP_LEN);
        for (group, chunk) in items.chunks(8).enumerate() {
            out.extend_from_slice(&0u32.to_le_bytes());
            for k in 0..8 {
                let mut record = [0u8; 68];
                if let Some(Some(item)) = chunk.get(k) {
                    if item.offsets.len() > 64 {
                        return Err(ErrorKind::Write(WriteProblem::Picture {
                            number: group * 8 + k,
                        })
                        .into());
                    }
                    for (slot, &offset) in record.iter_mut().zip(item.offsets) {
                        *slot = offset.to_le_bytes()[0];
                    }
                    // At most 64: the cast cuts nothing.
                    record[65] = u8::try_from(item.offsets.len()).unwrap_or(64);
                    record[66] = item.interval;
                    record[67] = item.start;
                }
                out.extend_from_slice(&record);
            }
        }
        Ok(out)
    }

    /// A synthetic animdata.mul of 24 items (3 groups): item 3 cycles through items 3, 4, 5
    /// (interval 2: 201 ms a frame), item 10 through 10, 8, 12, 10 (interval 0: 100 ms), item
    /// 17 has 64 frames (offsets 0 to 63), the rest no frames.
    pub fn synthetic_animdata() -> Vec<u8> {
        let cycle: Vec<i8> = (0..64).collect();
        let mut items: Vec<Option<AnimDataItem<'_>>> = vec![None; 24];
        items[3] = Some(AnimDataItem {
            offsets: &[0, 1, 2],
            interval: 2,
            start: 0,
        });
        items[10] = Some(AnimDataItem {
            offsets: &[0, -2, 2, 0],
            interval: 0,
            start: 1,
        });
        items[17] = Some(AnimDataItem {
            offsets: &cycle,
            interval: 1,
            start: 0,
        });
        // Every item above has at most 64 offsets.
        write_animdata(&items).unwrap_or_default()
    }
}
