//! ANI animations of the WAP32 games: [`Ani`] views one in place, its 32-byte header, the
//! path of its image set and its frames (the image number each shows, for how many
//! milliseconds, and the sound some start). Format facts and their sources:
//! `docs/formats/wap32.md`, "ANI animations" (OpenClaw `libwap/AniFile.cpp` and WAP32.rs
//! `ani/src/lib.rs` read the same layout).
//!
//! A frame is a 20-byte record; with flag 0x2 a sound path ending in NUL follows it, so
//! frames are found by walking from the first: [`Ani::parse`] walks them once to check
//! that every one fits, and [`Ani::frames`] walks them again, allocating nothing.

use std::fmt;

use gamedata_io::{Bytes, FileData, FileOptions, Format, Owned};

use crate::error::{DataError, ErrorKind, ImageProblem};
use crate::raw::{AniFrameRecord, AniHeader};

mod play;

pub use play::{Next, Step};

/// A frame's flag: a NUL-terminated sound path follows its record.
pub const FRAME_SOUND: u16 = 0x2;

/// A frame's flag: its duration counts game updates (of [`TICK_MS`] milliseconds here).
pub const FRAME_TICKS: u16 = 0x1;

/// The engine's nominal update, in milliseconds, for the records that last until the next
/// update or count updates (gruntz-decomp `src/DDrawMgr/AniRecord.cpp`,
/// `CAniRecordView::GetSize`, counts a tick as 22 ms; in the game an update lasts what the
/// clock says).
pub const TICK_MS: u64 = 22;

/// A lone ANI file (one extracted from an archive), owned ([`Owned`]): read
/// ([`AniFile::open`]), mapped ([`AniFile::map`]) or handed over ([`AniFile::from_data`]);
/// [`AniFile::view`] parses it ([`Ani::parse`]). An animation inside an archive is a
/// [`RezFileEntry`](crate::RezFileEntry)'s bytes, parsed in place.
pub type AniFile = Owned<AniContents>;

/// A lone ANI file's bytes: what [`AniFile`] holds; the ANI implementation of [`Format`].
/// Its options are the shared [`FileOptions`] (nothing is decoded); the bytes are checked
/// when viewed, a header and one walk of the frames, so that an error names the animation
/// as its reader names it.
pub struct AniContents {
    data: FileData,
}

impl fmt::Debug for AniContents {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AniFile")
            .field("len", &self.data.len())
            .field("mapped", &self.data.is_mapped())
            .finish()
    }
}

impl Format for AniContents {
    type Options = FileOptions;
    type Kind = ErrorKind;
    type View<'data> = Ani<'data>;

    /// Keeps the bytes; never fails (they are checked by [`AniFile::view`]).
    fn from_file(data: FileData, _options: &FileOptions) -> Result<Self, DataError> {
        Ok(AniContents { data })
    }

    /// Parses the animation.
    ///
    /// Returns `Err` as [`Ani::parse`].
    fn view(&self) -> Result<Ani<'_>, DataError> {
        Ani::parse(&self.data)
    }
}

/// An ANI animation viewed in place.
#[derive(Clone, Copy)]
pub struct Ani<'data> {
    header: &'data AniHeader,
    image_set: &'data [u8],
    /// The frames' bytes: records and sound paths, from the first frame to the file's end.
    frames: &'data [u8],
    /// Where the frames start in the file.
    start: usize,
    len: usize,
}

impl fmt::Debug for Ani<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ani")
            .field("frames", &self.frame_count())
            .field("image_set", &String::from_utf8_lossy(self.image_set()))
            .finish_non_exhaustive()
    }
}

/// One frame of an [`Ani`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AniFrame<'data> {
    record: &'data AniFrameRecord,
    sound: Option<&'data [u8]>,
}

impl<'data> AniFrame<'data> {
    /// The frame number of the image it shows, in the object's image set, as stored (the
    /// step's parameter; [`AniFrame::param`] reads it signed, as the engine does).
    pub fn image(&self) -> u16 {
        self.record.image.get()
    }

    /// The step's parameter as the engine reads it, a signed 16-bit number: the frame
    /// number shown by [`Step::Set`], the count of [`Step::ForwardBy`] and [`Step::BackBy`],
    /// the frame [`Next::WhenFrame`] waits for.
    pub fn param(&self) -> i16 {
        self.record.image.get().cast_signed()
    }

    /// The duration as stored (milliseconds, or updates with flag 0x1;
    /// [`AniFrame::shown_ms`] is how long the record lasts).
    pub fn duration_ms(&self) -> u16 {
        self.record.duration.get()
    }

    /// How long the record lasts, in milliseconds, as the engine's playback counts it on
    /// a steady clock of [`TICK_MS`] updates (gruntz-decomp `src/Wwd/WwdFactoryObject.cpp`,
    /// `CAniAdvanceCursor::Advance`: the duration, sign-extended, loaded into an unsigned
    /// count): that many milliseconds; 0, until the next update (one tick); below 0, the
    /// count read unsigned (-1 is 4,294,967,295 ms, about 50 days); with flag 0x1, updates:
    /// the count plus one, a tick each. (The engine's total of an animation,
    /// `CAniRecordView::GetSize`, counts otherwise: 22 ms for 0 or less, the count times 22
    /// with flag 0x1; the games' records differ between the two only where one has no
    /// duration, which both count as 22 ms.)
    pub fn shown_ms(&self) -> u64 {
        let count = u64::from(i32::from(self.record.duration.get().cast_signed()).cast_unsigned());
        if self.record.flags.get() & FRAME_TICKS != 0 {
            count.saturating_add(1).saturating_mul(TICK_MS)
        } else if count == 0 {
            TICK_MS
        } else {
            count
        }
    }

    /// How the record moves the object's frame.
    pub fn step(&self) -> Step {
        Step::from_raw(self.record.step.get())
    }

    /// Which record comes after this one.
    pub fn next(&self) -> Next {
        Next::from_raw(self.record.next.get())
    }

    /// The sound it starts (a path without its NUL), with flag 0x2.
    pub fn sound(&self) -> Option<&'data [u8]> {
        self.sound
    }

    /// The 20-byte record as stored.
    pub fn record(&self) -> &'data AniFrameRecord {
        self.record
    }
}

/// Reads the frame at the cursor and moves past it (its record, and its sound path and
/// NUL); `None` when it does not fit.
fn frame_at<'data>(bytes: &mut Bytes<'data>) -> Option<AniFrame<'data>> {
    let record = bytes.read::<AniFrameRecord>().ok()?;
    let sound = if record.flags.get() & FRAME_SOUND != 0 {
        let rest = bytes.remaining();
        let end = rest.iter().position(|&b| b == 0)?;
        let path = bytes.read_bytes(end).ok()?;
        bytes.skip(1).ok()?;
        Some(path)
    } else {
        None
    };
    Some(AniFrame { record, sound })
}

impl<'data> Ani<'data> {
    /// Views an ANI file's bytes, checking that its header, image set path and every frame
    /// fit (one walk over the frames; nothing is allocated).
    ///
    /// Returns `Err` ([`ImageProblem::AniTooShort`]) when the header or the path does not
    /// fit, and ([`ImageProblem::AniFrame`]) naming the first frame that does not.
    pub fn parse(data: &'data [u8]) -> Result<Self, DataError> {
        let mut bytes = Bytes::new(data);
        let too_short = |expected: u64| {
            ErrorKind::Image(ImageProblem::AniTooShort {
                found: data.len(),
                expected,
            })
        };
        let header = bytes.read::<AniHeader>().map_err(|_| too_short(32))?;
        let path_len = header.image_set_len.get();
        let image_set = usize::try_from(path_len)
            .ok()
            .and_then(|n| bytes.read_bytes(n).ok())
            .ok_or_else(|| too_short(32u64.saturating_add(u64::from(path_len))))?;
        let start = bytes.position();
        let ani = Ani {
            header,
            image_set,
            frames: bytes.remaining(),
            start,
            len: data.len(),
        };
        // Every frame fits: the walk stops at the first that does not.
        let count = header.frame_count.get();
        let mut walk = Bytes::new(ani.frames);
        for frame in 0..count {
            let at = start.saturating_add(walk.position());
            if frame_at(&mut walk).is_none() {
                return Err(ErrorKind::Image(ImageProblem::AniFrame {
                    frame,
                    count,
                    at,
                    len: data.len(),
                })
                .into());
            }
        }
        Ok(ani)
    }

    /// The 32-byte header as stored.
    pub fn header(&self) -> &'data AniHeader {
        self.header
    }

    /// The image set's path, as the animation names it: the header's count of bytes, up
    /// to the first NUL among them (read as a C string, as OpenClaw does).
    pub fn image_set(&self) -> &'data [u8] {
        gamedata_io::field_text(self.image_set)
    }

    /// Frames the header declares (every one checked to fit by [`Ani::parse`]).
    pub fn frame_count(&self) -> u32 {
        self.header.frame_count.get()
    }

    /// The frames in order (a walk from the first, no allocation).
    pub fn frames(&self) -> impl Iterator<Item = AniFrame<'data>> + 'data {
        let mut walk = Bytes::new(self.frames);
        (0..self.frame_count()).map_while(move |_| frame_at(&mut walk))
    }

    /// Milliseconds all frames last, one after another ([`AniFrame::shown_ms`]).
    pub fn total_ms(&self) -> u64 {
        self.frames().map(|f| f.shown_ms()).sum()
    }

    /// The record in force `ms` milliseconds after the animation starts when its records
    /// play one after another in a loop, each for [`AniFrame::shown_ms`] (what records
    /// that all go on to the next do, as nearly all the games' records do; [`Ani::play`]
    /// follows every step and rule). `None` for an animation without frames.
    pub fn frame_at_ms(&self, ms: u64) -> Option<AniFrame<'data>> {
        let total = self.total_ms();
        let mut left = ms.checked_rem(total)?;
        for frame in self.frames() {
            let d = frame.shown_ms();
            if left < d {
                return Some(frame);
            }
            left = left.saturating_sub(d);
        }
        None
    }

    /// Where the first frame starts in the file, in bytes, and the file's length.
    pub fn frames_span(&self) -> (usize, usize) {
        (self.start, self.len)
    }
}

/// A frame to write with [`write_ani`]: the image number, its milliseconds and the sound
/// it starts (a path without NUL; `None`: no sound).
pub type AniFrameSpec<'a> = (u16, u16, Option<&'a [u8]>);

/// An ANI animation's bytes: the 32-byte header (signature 0, reserved words 0), the image
/// set's path, then each frame's record, as the games' records are written: step 3 (show
/// the image), next 0 (the following record), flag 0x2 with a sound, whose path and NUL
/// follow. A path or sound holding a NUL is cut at it; counts past `u32` are cut.
pub fn write_ani(image_set: &[u8], frames: &[AniFrameSpec<'_>]) -> Vec<u8> {
    let before_nul = |b: &[u8]| -> Vec<u8> { b.iter().copied().take_while(|&c| c != 0).collect() };
    let set = before_nul(image_set);
    let mut out = Vec::new();
    let count = u32::try_from(frames.len()).unwrap_or(u32::MAX);
    let len = u32::try_from(set.len()).unwrap_or(u32::MAX);
    for word in [0u32, 0, 0, count, len, 0, 0, 0] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.extend_from_slice(&set);
    for &(image, duration, sound) in frames {
        let flags: u16 = if sound.is_some() { FRAME_SOUND } else { 0 };
        out.extend_from_slice(&flags.to_le_bytes());
        // Step 3 (show the image), next 0 (the following record), position 0.
        out.extend_from_slice(&[3, 0, 0, 0, 0, 0]);
        out.extend_from_slice(&image.to_le_bytes());
        out.extend_from_slice(&duration.to_le_bytes());
        out.extend_from_slice(&[0; 8]);
        if let Some(s) = sound {
            out.extend_from_slice(&before_nul(s));
            out.push(0);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ani(set: &[u8], frames: &[AniFrameSpec<'_>]) -> Vec<u8> {
        write_ani(set, frames)
    }

    #[test]
    fn frames_are_read_with_their_sounds() {
        let bytes = ani(
            b"GAME_CYCLE",
            &[
                (1, 100, None),
                (2, 50, Some(b"GAME_SOUNDS_DING")),
                (3, 0, None),
            ],
        );
        let a = Ani::parse(&bytes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(a.image_set(), b"GAME_CYCLE");
        assert_eq!(a.frame_count(), 3);
        let frames: Vec<_> = a
            .frames()
            .map(|f| (f.image(), f.duration_ms(), f.sound()))
            .collect();
        assert_eq!(
            frames,
            [
                (1, 100, None),
                (2, 50, Some(&b"GAME_SOUNDS_DING"[..])),
                (3, 0, None)
            ]
        );
        // The frame of no duration lasts a 22-ms tick.
        assert_eq!(a.total_ms(), 172);
        assert_eq!(a.frames_span(), (42, bytes.len()));
        let at = |ms| a.frame_at_ms(ms).map(|f| f.image());
        // 1,000,080 ms is 5,814 loops of 172 ms and 72 ms.
        assert_eq!(
            [
                at(0),
                at(99),
                at(100),
                at(149),
                at(150),
                at(171),
                at(172),
                at(1_000_080)
            ],
            [
                Some(1),
                Some(1),
                Some(2),
                Some(2),
                Some(3),
                Some(3),
                Some(1),
                Some(1)
            ]
        );
        assert_eq!(at(1_000_080 + 50), Some(2));
    }

    #[test]
    fn debug_names_the_frames_and_the_image_set() {
        let bytes = ani(b"GAME_CYCLE", &[(1, 10, None), (2, 10, None)]);
        let a = Ani::parse(&bytes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            format!("{a:?}"),
            "Ani { frames: 2, image_set: \"GAME_CYCLE\", .. }"
        );
    }

    #[test]
    fn a_record_lasts_as_the_engine_measures_it() {
        // No duration: one 22-ms tick; a negative one read unsigned; flag 0x1: the count
        // of ticks plus one.
        let mut bytes = ani(
            b"",
            &[(1, 0, None), (2, 0xFFFB, None), (3, 3, None), (4, 3, None)],
        );
        let third = 32 + 2 * 20;
        bytes[third] = FRAME_TICKS.to_le_bytes()[0];
        let a = Ani::parse(&bytes).unwrap_or_else(|e| panic!("{e}"));
        let shown: Vec<u64> = a.frames().map(|f| f.shown_ms()).collect();
        assert_eq!(shown, [22, 4_294_967_291, 88, 3]);
        assert_eq!(a.total_ms(), 4_294_967_404);
        let params: Vec<i16> = a.frames().map(|f| f.param()).collect();
        assert_eq!(params, [1, 2, 3, 4]);
        // The writer's records show their image and go on to the next.
        let first = a.frames().next().map(|f| (f.step(), f.next()));
        assert_eq!(first, Some((Step::Set, Next::Following)));
        // No frames: nothing shows.
        let empty = ani(b"", &[]);
        let a = Ani::parse(&empty).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(a.frame_at_ms(5), None);
    }

    #[test]
    fn what_does_not_fit_is_named() {
        let bytes = ani(b"SET", &[(1, 10, None), (2, 10, Some(b"S"))]);
        let err = |data: &[u8]| Ani::parse(data).err().map(|e| e.kind);
        assert_eq!(
            err(&bytes[..20]),
            Some(ErrorKind::Image(ImageProblem::AniTooShort {
                found: 20,
                expected: 32
            }))
        );
        assert_eq!(
            err(&bytes[..34]),
            Some(ErrorKind::Image(ImageProblem::AniTooShort {
                found: 34,
                expected: 35
            }))
        );
        // The second frame's record fits but its sound path has no NUL.
        let cut = bytes.len() - 1;
        assert_eq!(
            err(&bytes[..cut]),
            Some(ErrorKind::Image(ImageProblem::AniFrame {
                frame: 1,
                count: 2,
                at: 55,
                len: cut
            }))
        );
        // A count past what the bytes hold.
        let mut many = bytes.clone();
        many[12] = 200;
        assert_eq!(
            err(&many),
            Some(ErrorKind::Image(ImageProblem::AniFrame {
                frame: 2,
                count: 200,
                at: bytes.len(),
                len: bytes.len()
            }))
        );
    }
}
