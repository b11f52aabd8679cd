//! Actor sprites: ACTRINFO.MNI (the frames of each sprite type) and ACTORS.MNI (their 8x8
//! masked tiles), both in the STN.
//!
//! ACTRINFO.MNI starts with a lookup table of one u16 a sprite type: the word offset of the
//! type's first frame record; the first word is therefore also the number of sprite types
//! (267 in episode 1). Frame records ([`FrameRaw`], 8 bytes: height and width in tiles,
//! offset and segment) follow the table; a type's frames run to the next type's first frame
//! (514 frames in episode 1). A frame is `width * height` masked tiles of 40 bytes, row-major
//! from the top-left, at byte `segment * 65,535 + offset` of ACTORS.MNI: the game loads that
//! file in 65,535-byte blocks and no frame spans two. A sprite's origin is its bottom-left
//! tile. Sources: `docs/formats/cosmo.md`, "Sprites" (Cosmodoc, "Tile Info Format";
//! ModdingWiki, "Cosmo Tileinfo Format"; measured on episode 1).

use std::fmt;

use gamedata_io::{Overlaps, records, whole_records};
use zerocopy::little_endian::U16;

use crate::error::{DataError, ErrorKind, Result, SpriteTableProblem};
use crate::raw::{FrameRaw, MaskedTileRaw, SPRITE_SEGMENT_LEN};
use crate::tiles::TilePixels;

/// Bytes of one masked tile in ACTORS.MNI.
const TILE_BYTES: u64 = 40;

/// ACTRINFO.MNI, cast in place: the frames of each sprite type.
#[derive(Clone, Copy)]
pub struct SpriteTable<'data> {
    /// One word a sprite type: the word offset of its first frame record.
    lookup: &'data [U16],
    /// Every frame record, in file order.
    frames: &'data [FrameRaw],
}

impl fmt::Debug for SpriteTable<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SpriteTable")
            .field("sprite_types", &self.lookup.len())
            .field("frames", &self.frames.len())
            .finish()
    }
}

impl<'data> SpriteTable<'data> {
    /// Parses ACTRINFO.MNI: checks that the lookup table fits, that the frame records after
    /// it are whole, and that every sprite type starts on one of them (or at the end of the
    /// file: a type with no frames).
    ///
    /// Returns `Err` ([`ErrorKind::SpriteTable`]) saying which of these fails.
    pub fn parse(data: &'data [u8]) -> Result<Self, DataError> {
        let count = match data {
            [lo, hi, ..] => u16::from_le_bytes([*lo, *hi]),
            _ => 0,
        };
        if count == 0 {
            return Err(
                ErrorKind::SpriteTable(SpriteTableProblem::Empty { len: data.len() }).into(),
            );
        }
        let needed = usize::from(count).saturating_mul(2);
        let Some((table, rest)) = data.split_at_checked(needed) else {
            return Err(ErrorKind::SpriteTable(SpriteTableProblem::TablePastEnd {
                count,
                needed,
                len: data.len(),
            })
            .into());
        };
        // `needed` is even: the table is whole words, nothing left over.
        let (lookup, _) = whole_records::<U16>(table);
        let frames = records::<FrameRaw>(rest).map_err(|_| {
            ErrorKind::SpriteTable(SpriteTableProblem::FrameArea { bytes: rest.len() })
        })?;
        let last = data.len() / 2;
        let mut previous = 0u16;
        for (sprite, word) in (0u16..).zip(lookup) {
            let found = word.get();
            if found < previous {
                return Err(ErrorKind::SpriteTable(SpriteTableProblem::OutOfOrder {
                    sprite,
                    found,
                    previous,
                })
                .into());
            }
            previous = found;
            let on_record = found.checked_sub(count).is_some_and(|d| d % 4 == 0);
            if !on_record || usize::from(found) > last {
                return Err(ErrorKind::SpriteTable(SpriteTableProblem::FrameStart {
                    sprite,
                    found,
                    first: count,
                    last,
                })
                .into());
            }
        }
        Ok(SpriteTable { lookup, frames })
    }

    /// Number of sprite types (the first word of the file).
    pub fn sprite_count(&self) -> u16 {
        // The lookup table is at most u16::MAX words: its length is the first word.
        u16::try_from(self.lookup.len()).unwrap_or(u16::MAX)
    }

    /// Every frame record of the file, in file order.
    pub fn all_frames(&self) -> &'data [FrameRaw] {
        self.frames
    }

    /// The frame records of sprite type `sprite`: from its first frame up to the nearest
    /// first frame of a type that starts after it, or to the end of the file. Types that
    /// start at the same record share their frames; a type that starts at the end of the
    /// file has none. `None` if `sprite` is past the table (the table was checked by
    /// [`SpriteTable::parse`]: nothing here can fail).
    pub fn frames(&self, sprite: u16) -> Option<&'data [FrameRaw]> {
        let records = self.frame_records(sprite)?;
        Some(self.frames.get(records).unwrap_or_default())
    }

    /// The numbers (from 0, in file order) of sprite type `sprite`'s frame records; `None`
    /// past the table.
    fn frame_records(&self, sprite: u16) -> Option<std::ops::Range<usize>> {
        let start = self.lookup.get(usize::from(sprite))?.get();
        // The lookup is in order (checked at parse): the next type that starts later.
        let later = self.lookup.partition_point(|w| w.get() <= start);
        let end = self.lookup.get(later).map(|w| w.get());
        // Offsets were checked at parse time: at least the table length, on a record.
        let index = |word: u16| usize::from(word.saturating_sub(self.sprite_count()) / 4);
        let first = index(start).min(self.frames.len());
        let last = end.map_or(self.frames.len(), index).min(self.frames.len());
        Some(first..last.max(first))
    }
}

/// One frame of a sprite: `width` x `height` masked tiles, row-major from the top-left,
/// borrowed from ACTORS.MNI.
#[derive(Clone, Copy)]
pub struct SpriteFrame<'data> {
    /// Width in tiles.
    pub width: u16,
    /// Height in tiles.
    pub height: u16,
    tiles: &'data [MaskedTileRaw],
}

impl fmt::Debug for SpriteFrame<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SpriteFrame")
            .field("width", &self.width)
            .field("height", &self.height)
            .finish()
    }
}

impl<'data> SpriteFrame<'data> {
    /// The frame's tiles, row-major from the top-left (`width * height` of them).
    pub fn tiles(&self) -> &'data [MaskedTileRaw] {
        self.tiles
    }

    /// The tile at column `col`, row `row` (in tiles from the top-left), or `None` outside.
    pub fn tile(&self, col: u16, row: u16) -> Option<&'data MaskedTileRaw> {
        if col >= self.width || row >= self.height {
            return None;
        }
        let index = usize::from(row)
            .saturating_mul(usize::from(self.width))
            .saturating_add(usize::from(col));
        self.tiles.get(index)
    }

    /// The tile at `col`, `row` decoded (`None` pixels are transparent), or `None` outside.
    pub fn tile_pixels(&self, col: u16, row: u16) -> Option<TilePixels> {
        self.tile(col, row).map(MaskedTileRaw::pixels)
    }
}

/// The actor sprites of an episode: ACTRINFO.MNI's frame table over ACTORS.MNI's tiles.
///
/// Frame records whose tiles overlap another record's are bad ([`ErrorKind::FrameOverlap`]):
/// of overlapping frames the one whose tiles start first is read, so reading every frame
/// reads each byte of ACTORS.MNI at most once. (The game's frames each have tiles of their
/// own; sprite types that share frames share frame records, which is not an overlap.)
#[derive(Clone)]
pub struct ActorSprites<'data> {
    /// ACTRINFO.MNI.
    pub table: SpriteTable<'data>,
    /// ACTORS.MNI's bytes: masked tiles in 65,535-byte segments.
    pub tiles: &'data [u8],
    /// The frame records left out, found at parse.
    overlaps: Overlaps,
}

impl fmt::Debug for ActorSprites<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ActorSprites")
            .field("table", &self.table)
            .field("tile_bytes", &self.tiles.len())
            .finish()
    }
}

impl<'data> ActorSprites<'data> {
    /// Parses ACTRINFO.MNI (`info`) and wraps ACTORS.MNI (`tiles`, any length: frames are
    /// checked when asked for).
    ///
    /// Returns `Err` as [`SpriteTable::parse`] does.
    pub fn parse(info: &'data [u8], tiles: &'data [u8]) -> Result<Self, DataError> {
        Ok(Self::new(SpriteTable::parse(info)?, tiles))
    }

    /// A parsed ACTRINFO.MNI over ACTORS.MNI's bytes; finds the frame records whose tiles
    /// overlap others' (one pass when they lie in order, a sort of their numbers otherwise).
    pub fn new(table: SpriteTable<'data>, tiles: &'data [u8]) -> Self {
        let frames = table.all_frames();
        let overlaps = Overlaps::find(frames.len(), |i| {
            let (start, end) = frame_bytes(frames.get(i)?);
            (end <= tiles.len() as u64 && in_one_segment(frames.get(i)?)).then_some((start, end))
        });
        ActorSprites {
            table,
            tiles,
            overlaps,
        }
    }

    /// Frame `frame` of sprite type `sprite`, its tiles cast in place from ACTORS.MNI;
    /// `None` if the sprite type is past the table or has no such frame (a caller that
    /// needs the frame reports [`ActorSprites::missing`]).
    ///
    /// Returns `Err`: [`ErrorKind::FrameData`] if its tiles are not inside one 65,535-byte
    /// segment of ACTORS.MNI, [`ErrorKind::FrameOverlap`] if they overlap another record's.
    pub fn frame(&self, sprite: u16, frame: u16) -> Result<Option<SpriteFrame<'data>>, DataError> {
        let Some(numbers) = self.table.frame_records(sprite) else {
            return Ok(None);
        };
        let record = numbers.start.saturating_add(usize::from(frame));
        let Some(raw) = numbers
            .contains(&record)
            .then(|| self.table.frames.get(record))
            .flatten()
        else {
            return Ok(None);
        };
        let (width, height) = (raw.width.get(), raw.height.get());
        let (segment, offset) = (raw.segment.get(), raw.offset.get());
        let (start, end) = frame_bytes(raw);
        let bad = || ErrorKind::FrameData {
            sprite,
            frame,
            width,
            height,
            segment,
            offset,
            start,
            end,
            file_len: self.tiles.len(),
        };
        if !in_one_segment(raw) {
            return Err(bad().into());
        }
        let bytes = usize::try_from(start)
            .ok()
            .zip(usize::try_from(end).ok())
            .and_then(|(s, e)| self.tiles.get(s..e))
            .ok_or_else(bad)?;
        if let Some(other) = self.overlaps.overlapped_by(record) {
            return Err(ErrorKind::FrameOverlap {
                sprite,
                frame,
                start,
                end,
                other,
            }
            .into());
        }
        let tiles = records::<MaskedTileRaw>(bytes).map_err(|_| bad())?;
        Ok(Some(SpriteFrame {
            width,
            height,
            tiles,
        }))
    }

    /// The error for frame `frame` of sprite type `sprite` when [`ActorSprites::frame`]
    /// finds none: [`ErrorKind::SpriteIndex`] for a sprite type past the table, else
    /// [`ErrorKind::FrameIndex`] with the frames the type has.
    pub fn missing(&self, sprite: u16, frame: u16) -> DataError {
        match self.table.frame_records(sprite) {
            None => ErrorKind::SpriteIndex {
                sprite,
                count: self.table.sprite_count(),
            }
            .into(),
            Some(numbers) => ErrorKind::FrameIndex {
                sprite,
                frame,
                count: u16::try_from(numbers.len()).unwrap_or(u16::MAX),
            }
            .into(),
        }
    }
}

/// The bytes of ACTORS.MNI a frame record's tiles take: `segment * 65,535 + offset`, then
/// `width * height` tiles of 40 bytes (u64 from u16 values: nothing saturates).
fn frame_bytes(raw: &FrameRaw) -> (u64, u64) {
    let count = u64::from(raw.width.get()).saturating_mul(u64::from(raw.height.get()));
    let start = u64::from(raw.segment.get())
        .saturating_mul(SPRITE_SEGMENT_LEN)
        .saturating_add(u64::from(raw.offset.get()));
    (
        start,
        start.saturating_add(count.saturating_mul(TILE_BYTES)),
    )
}

/// True if the frame's tiles end within its 65,535-byte segment, as the game loads them.
fn in_one_segment(raw: &FrameRaw) -> bool {
    let (start, end) = frame_bytes(raw);
    u64::from(raw.offset.get()).saturating_add(end.saturating_sub(start)) <= SPRITE_SEGMENT_LEN
}

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    /// An ACTRINFO.MNI of `types` (frames each: `(height, width, offset, segment)`).
    fn info(types: &[&[(u16, u16, u16, u16)]]) -> Vec<u8> {
        let count = u16::try_from(types.len()).unwrap();
        let mut out = Vec::new();
        let mut next = count;
        for frames in types {
            out.extend(next.to_le_bytes());
            next += 4 * u16::try_from(frames.len()).unwrap();
        }
        for frames in types {
            for &(h, w, o, s) in *frames {
                for v in [h, w, o, s] {
                    out.extend(v.to_le_bytes());
                }
            }
        }
        out
    }

    #[test]
    fn types_out_of_order_are_refused() {
        // Two types of one frame each, the lookup swapped: type 0 at word 6 (the second
        // record), type 1 at word 2 (the first).
        let mut swapped = info(&[&[(1, 1, 0, 0)], &[(1, 1, 40, 0)]]);
        swapped[0..2].copy_from_slice(&6u16.to_le_bytes());
        swapped[2..4].copy_from_slice(&2u16.to_le_bytes());
        assert_eq!(
            SpriteTable::parse(&swapped).unwrap_err().kind(),
            ErrorKind::SpriteTable(SpriteTableProblem::OutOfOrder {
                sprite: 1,
                found: 2,
                previous: 6
            })
        );
    }

    #[test]
    fn frames_over_another_frames_tiles_are_left_out() {
        // Frame 0: 2 tiles at 0..80; frame 1: 1 tile at 40..80 (inside frame 0's);
        // frame 2: 1 tile at 80..120. Types 0 and 1 share frame 2's record.
        let bytes = info(&[&[(1, 2, 0, 0), (1, 1, 40, 0)], &[(1, 1, 80, 0)]]);
        let sprites = ActorSprites::parse(&bytes, &[0u8; 120]).unwrap();
        assert_eq!(sprites.frame(0, 0).unwrap().unwrap().width, 2);
        assert_eq!(sprites.frame(1, 0).unwrap().unwrap().width, 1);
        assert_eq!(
            sprites.frame(0, 1).unwrap_err().kind(),
            ErrorKind::FrameOverlap {
                sprite: 0,
                frame: 1,
                start: 40,
                end: 80,
                other: 0
            }
        );
    }

    #[test]
    fn frames_run_to_the_next_type() {
        let bytes = info(&[&[(1, 1, 0, 0), (2, 1, 40, 0)], &[], &[(1, 2, 120, 0)], &[]]);
        let t = SpriteTable::parse(&bytes).unwrap();
        assert_eq!(t.sprite_count(), 4);
        assert_eq!(t.frames(0).unwrap().len(), 2);
        assert_eq!(t.frames(2).unwrap().len(), 1);
        assert_eq!(t.frames(2).unwrap()[0].width.get(), 2);
        // Type 1 starts where type 2 does: the two share that frame.
        assert_eq!(t.frames(1).unwrap(), t.frames(2).unwrap());
        // Type 3 starts at the end of the file: no frames.
        assert_eq!(t.frames(3).unwrap().len(), 0);
        assert_eq!(t.all_frames().len(), 3);
        assert_eq!(t.frames(4), None);
    }

    #[test]
    fn frames_are_cut_from_their_segment() {
        let bytes = info(&[&[(2, 1, 40, 0), (1, 1, 0, 1), (1, 1, 65_500, 0)]]);
        let mut tiles = vec![0u8; 65_535 + 40];
        tiles[40] = 0xAA; // mask row 0 of the first tile of frame 0
        tiles[65_535] = 0x55; // mask row 0 of frame 1's tile: segment 1, offset 0
        let s = ActorSprites::parse(&bytes, &tiles).unwrap();
        let f = s.frame(0, 0).unwrap().unwrap();
        assert_eq!((f.width, f.height, f.tiles().len()), (1, 2, 2));
        assert_eq!(f.tile(0, 0).unwrap().rows[0][0], 0xAA);
        assert!(f.tile(1, 0).is_none() && f.tile(0, 2).is_none());
        assert_eq!(
            s.frame(0, 1).unwrap().unwrap().tile(0, 0).unwrap().rows[0][0],
            0x55
        );
        // 65,500 + 40 crosses the segment's end.
        let err = s.frame(0, 2).unwrap_err().kind();
        assert!(
            matches!(
                err,
                ErrorKind::FrameData {
                    start: 65_500,
                    end: 65_540,
                    ..
                }
            ),
            "{err:?}"
        );
        // Past the type's frames: none, and the error a caller reports names the count.
        assert!(s.frame(0, 3).unwrap().is_none());
        assert_eq!(
            s.missing(0, 3).kind(),
            ErrorKind::FrameIndex {
                sprite: 0,
                frame: 3,
                count: 3
            }
        );
        // Past the end of the file.
        let short = ActorSprites::parse(&bytes, &tiles[..60]).unwrap();
        assert!(matches!(
            short.frame(0, 0).unwrap_err().kind(),
            ErrorKind::FrameData {
                end: 120,
                file_len: 60,
                ..
            }
        ));
    }

    #[test]
    fn bad_tables_say_what_is_wrong() {
        let problem = |b: &[u8]| match SpriteTable::parse(b).unwrap_err().kind() {
            ErrorKind::SpriteTable(p) => p,
            other => panic!("{other:?}"),
        };
        assert_eq!(problem(&[]), SpriteTableProblem::Empty { len: 0 });
        assert_eq!(problem(&[0, 0, 9]), SpriteTableProblem::Empty { len: 3 });
        assert_eq!(
            problem(&[3, 0, 0, 0]),
            SpriteTableProblem::TablePastEnd {
                count: 3,
                needed: 6,
                len: 4
            }
        );
        assert_eq!(
            problem(&[1, 0, 0]),
            SpriteTableProblem::FrameArea { bytes: 1 }
        );
        // Two types (the first word, also type 0's start); type 1 starts at word 3: inside
        // the frame record of words 2 to 5, not on one.
        assert_eq!(
            problem(&[2, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
            SpriteTableProblem::FrameStart {
                sprite: 1,
                found: 3,
                first: 2,
                last: 6
            }
        );
        // Past the end of the file.
        assert!(matches!(
            problem(&[2, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
            SpriteTableProblem::FrameStart { found: 10, .. }
        ));
    }
}
