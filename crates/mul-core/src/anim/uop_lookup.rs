//! AnimationFrame1.uop to AnimationFrame10.uop as containers: a body's action found by its
//! entry name in the client's file order, and its entry decoded ([`UopAnimations`],
//! [`DecodedUopAnimation`]).
//!
//! Source: `docs/formats/uo.md`, "Animations", "UOP animations (AnimationFrame1.uop …)"
//! (ClassicUO's `AnimationsLoader`: `GetIndices`).

use std::borrow::Cow;
use std::fmt;

use gamedata_io::{InflateError, Limits, PreviewBytes, inflate_exact};

use crate::error::{DataError, ErrorKind, UopEntryProblem};
use crate::uop::{Uop, UopEntry, name_hash};

use super::uop::UopAnimation;
use super::{EntryName, Origin};

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

/// AnimationFrame1.uop to AnimationFrame10.uop, borrowed: a body's action by its entry
/// name ([`uop_anim_entry_name`]), looked up in each file in the client's order, the first
/// file that has it winning.
pub struct UopAnimations<'data> {
    /// (file number 1 to 10, container) in the client's order.
    files: Vec<(u8, Uop<'data>)>,
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
    /// Returns `Err` as [`Uop::parse`], naming the file.
    pub fn parse(
        files: impl IntoIterator<Item = (u8, &'data [u8])>,
        limits: &Limits,
    ) -> Result<Self, DataError> {
        let mut held = Vec::new();
        for (number, bytes) in files {
            let Some(name) = file_name(number) else {
                continue;
            };
            let uop = Uop::parse(bytes, limits).map_err(|e| e.with_file_name(name))?;
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
    pub fn find(&self, body: u16, action: u16) -> Option<(u8, &Uop<'data>, UopEntry<'data>)> {
        let hash = name_hash(&uop_anim_entry_name(body, action));
        self.files
            .iter()
            .find_map(|(n, uop)| Some((*n, uop, *uop.find(hash)?)))
    }

    /// Body `body`'s action `action`, decoded: in place when stored as is, inflated (and
    /// for compression 3 undone by the BWT stage, `gump::bwt::decompress`) into a buffer
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
        let origin = origin(number, body, action, &entry);
        let bytes = decode(uop, &entry, limits).map_err(|e| origin.name_error(e))?;
        Ok(Some(DecodedUopAnimation { bytes, origin }))
    }
}

impl<'data> UopAnimations<'data> {
    /// Where body `body`'s action `action` is stored, for a caller that inflates each
    /// stream once for every entry naming it ([`gamedata_io::inflate_shared`], then
    /// [`UopAnimations::decoded_from`]); `None` when no file has the entry.
    ///
    /// Returns `Err` ([`ErrorKind::UopEntry`]) for stored bytes outside the file, naming
    /// the entry.
    pub fn stream(
        &self,
        body: u16,
        action: u16,
    ) -> Option<Result<UopAnimStream<'data>, DataError>> {
        let (number, uop, entry) = self.find(body, action)?;
        let origin = origin(number, body, action, &entry);
        Some(
            uop.stored_range(&entry)
                .map(|range| UopAnimStream {
                    file: number,
                    start: range.start,
                    stored: uop.data().get(range).unwrap_or_default(),
                    compression: entry.raw().compression.get(),
                    declared: entry.raw().decompressed_len.get(),
                })
                .map_err(|e| origin.name_error(e)),
        )
    }

    /// Body `body`'s action `action` decoded as [`UopAnimations::decoded`] decodes it, its
    /// zlib stream's output given: `inflated`, the stream inflated to its declared length
    /// (or why not: a [`SharedStream::check`](gamedata_io::SharedStream::check) or
    /// [`inflate_exact`] error). An entry stored as is (compression 0) ignores `inflated`
    /// and is read in place.
    ///
    /// Returns `Err` as [`UopAnimations::decoded`].
    pub fn decoded_from(
        &self,
        body: u16,
        action: u16,
        inflated: Result<Vec<u8>, InflateError>,
        limits: &Limits,
    ) -> Result<Option<DecodedUopAnimation<'data>>, DataError> {
        let Some((number, uop, entry)) = self.find(body, action) else {
            return Ok(None);
        };
        let origin = origin(number, body, action, &entry);
        let output = |inflated: Result<Vec<u8>, InflateError>| match inflated {
            Ok(bytes) => Ok(bytes),
            Err(InflateError::Limit(limit)) => Err(DataError::from(ErrorKind::Limit(limit))),
            Err(other) => Err(entry.error(UopEntryProblem::Inflate(other))),
        };
        let bytes = match entry.raw().compression.get() {
            0 => uop.contents(&entry, limits),
            1 => output(inflated).map(Cow::Owned),
            3 => output(inflated)
                .and_then(|bytes| crate::gump::bwt::decompress(bytes, limits))
                .map(Cow::Owned),
            other => Err(entry.error(UopEntryProblem::UnknownCompression(other))),
        }
        .map_err(|e| origin.name_error(e))?;
        Ok(Some(DecodedUopAnimation { bytes, origin }))
    }
}

/// Where an AnimationFrame*.uop entry is stored ([`UopAnimations::stream`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UopAnimStream<'data> {
    /// The file's number (1 to 10: AnimationFrame1.uop ...).
    pub file: u8,
    /// Where the stored bytes start in the file, in bytes.
    pub start: usize,
    /// The stored bytes, in place: a zlib stream for compression 1 and 3.
    pub stored: &'data [u8],
    /// The entry's compression: 0 (as is), 1 (zlib), 3 (zlib then the BWT stage), or
    /// another value (an error when decoded).
    pub compression: u16,
    /// The bytes the entry declares its zlib stream decodes to.
    pub declared: u32,
}

/// The name of body `body`'s action `action` found in file `number` as `entry`.
fn origin(number: u8, body: u16, action: u16, entry: &UopEntry<'_>) -> Origin {
    Origin {
        file: file_name(number).unwrap_or("AnimationFrame.uop"),
        name: EntryName::Uop { body, action },
        record: entry.index(),
    }
}

fn file_name(number: u8) -> Option<&'static str> {
    UOP_ANIM_FILES
        .get(usize::from(number).checked_sub(1)?)
        .copied()
}

/// `entry`'s contents: as is (0), zlib (1), or zlib then the BWT stage (3).
pub(super) fn decode<'data>(
    uop: &Uop<'data>,
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
            Ok(Cow::Owned(crate::gump::bwt::decompress(inflated, limits)?))
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

impl DecodedUopAnimation<'static> {
    /// Body `body`'s action `action` from AnimationFrame`file`.uop's entry `entry` (from
    /// [`UopTables::entries`](crate::uop::UopTables::entries): a container read by ranges),
    /// its stored bytes `stored` read alone (the range
    /// [`UopTables::stored_range`](crate::uop::UopTables::stored_range) gives), decoded as
    /// [`UopAnimations::decoded`] decodes it, into a buffer of its own.
    ///
    /// Returns `Err` as [`UopAnimations::decoded`].
    pub fn from_entry(
        file: u8,
        body: u16,
        action: u16,
        entry: &UopEntry<'_>,
        stored: &[u8],
        limits: &Limits,
    ) -> Result<Self, DataError> {
        let origin = origin(file, body, action, entry);
        let declared = u64::from(entry.raw().decompressed_len.get());
        let inflate = |what: &'static str| match inflate_exact(what, stored, declared, &[], limits)
        {
            Ok(inflated) => Ok(inflated.data),
            Err(InflateError::Limit(limit)) => Err(DataError::from(ErrorKind::Limit(limit))),
            Err(other) => Err(entry.error(UopEntryProblem::Inflate(other))),
        };
        let bytes = match entry.raw().compression.get() {
            0 => Ok(stored.to_vec()),
            1 => inflate("a UOP entry"),
            3 => inflate("a UOP animation")
                .and_then(|bytes| crate::gump::bwt::decompress(bytes, limits)),
            other => Err(entry.error(UopEntryProblem::UnknownCompression(other))),
        }
        .map_err(|e| origin.name_error(e))?;
        Ok(DecodedUopAnimation {
            bytes: Cow::Owned(bytes),
            origin,
        })
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
