//! Frame groups, frames and their runs, read in place.

use std::fmt;
use std::sync::Arc;

use zerocopy::FromBytes;
use zerocopy::little_endian::{U16, U32};

use crate::error::{AnimProblem, DataError, Result};

use super::{FRAME_HEADER_LEN, MIN_GROUP_LEN, Origin, PALETTE_LEN, RUN_END};

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
    pub(super) origin: Option<Origin>,
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

    /// Frame `frame` (from 0); `Ok(None)` past the count.
    ///
    /// Returns `Err` ([`AnimProblem::FrameHeader`]) for a header past the group's end, or
    /// ([`AnimProblem::FrameOverlap`]) for one that reaches the next frame's start, naming
    /// the entry when the group came from [`Animations`](super::Animations).
    pub fn frame(&self, frame: usize) -> Result<Option<AnimFrame<'data>>, DataError> {
        let Some(offset) = self.frame_offset(frame) else {
            return Ok(None);
        };
        self.frame_at(frame, offset)
            .map(Some)
            .map_err(|e| self.name_error(e))
    }

    /// The frames in order ([`FrameGroup::frame`] for each).
    pub fn frames(&self) -> impl Iterator<Item = Result<AnimFrame<'data>, DataError>> + '_ {
        (0..self.frame_count()).filter_map(|i| self.frame(i).transpose())
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
        // Where the frame's bytes end: the next frame's start, or the group's end.
        let next = self
            .next_offset(offset)
            .and_then(|o| usize::try_from(o).ok())
            .and_then(|o| o.checked_add(PALETTE_LEN))
            .filter(|&n| n < len);
        AnimFrame::read(self.bytes, start, next, number, self.origin)?
            .ok_or_else(|| header_err().into())
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
    pub(super) origin: Option<Origin>,
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
    /// The frame whose 8-byte header starts at byte `start` of `bytes` (a MUL frame group,
    /// or a decoded UOP animation entry) and whose bytes end at `next` (another frame's
    /// start) or at the end of `bytes`; shared by MUL groups and UOP entries.
    ///
    /// `Ok(None)` when the header does not fit in `bytes` (the caller names that);
    /// `Err` ([`AnimProblem::FrameOverlap`]) when it reaches `next`.
    pub(super) fn read(
        bytes: &'data [u8],
        start: usize,
        next: Option<usize>,
        number: u32,
        origin: Option<Origin>,
    ) -> Result<Option<Self>, DataError> {
        let len = bytes.len();
        let next = next.filter(|&n| n < len);
        let Some(header_end) = start.checked_add(FRAME_HEADER_LEN) else {
            return Ok(None);
        };
        let Some(header) = bytes.get(start..header_end) else {
            return Ok(None);
        };
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
        Ok(Some(AnimFrame {
            origin,
            number,
            centre_x: word(0),
            centre_y: word(2),
            width: word(4),
            height: word(6),
            runs: bytes.get(header_end..end).unwrap_or_default(),
            at: header_end as u64,
            next: next.map(|n| n as u64),
        }))
    }

    /// The frame's number: in a MUL frame group its place, from 0; in a UOP animation
    /// entry its record's frame number, from 1.
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
    /// [`Animations`](super::Animations).
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
