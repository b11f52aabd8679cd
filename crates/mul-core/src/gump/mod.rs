//! Gumps (gumpart.mul + gumpidx.mul, or gumpartLegacyMUL.uop): the pictures of the client's
//! windows, paperdolls and buttons, read in place.
//!
//! A gump's size is in its index record's third word (width in the high 16 bits, height in
//! the low 16; a UOP entry stores them before the data, see
//! [`UopPictures::Gumps`](crate::UopPictures)). Its bytes are `height` u32 row
//! offsets counted in 4-byte words from the gump's first byte, then runs of 4 bytes: a u16
//! colour and a u16 count of pixels of that colour. Row y's runs lie from word `offset[y]`
//! up to `offset[y + 1]` (the last row's up to the entry's end) and cover the width. Colour
//! 0 is transparent; any other is an opaque 15-bit colour (bit 15 plays no part).
//!
//! The newer clients' gumpartLegacyMUL.uop stores gumps compressed (compression 3: zlib,
//! then Mythic's BWT stage, `bwt`; also 1: zlib alone): [`Gumps::decoded`] decodes
//! such a gump into a buffer of its own ([`DecodedGump`]) and gives any other in place;
//! [`Gumps::gump`] reads in place only.
//!
//! [`Gumps`] is the view, [`GumpFiles`] the owner of a folder's gumps in either form,
//! [`def`] gump.def's borrowed entries, `write` (the `write` feature) the writer and the
//! conversions between the two forms; `bwt` is the BWT stage, both ways.
//!
//! Source: `docs/formats/uo.md`, "Index files" and "Gumps" (ClassicUO's `GumpsLoader`,
//! `UOFileUop` and `BwtDecompress`).

use std::borrow::Cow;
use std::fmt;

use gamedata_io::{Bytes, InflateError, Limits, inflate_exact};
use zerocopy::little_endian::U32;

use crate::error::{DataError, ErrorKind, PictureProblem, UopEntryProblem};
use crate::picture::{ArtFormat, PictureIndex, SharedOverlaps, UopIndex, UopPictures};
use crate::raw::{IndexRecord, UopEntryRaw};
use crate::verdata::{GUMPS_FILE, Verdata, VerdataEntry};

#[doc(hidden)]
pub mod bwt;
mod decoded;
pub mod def;
mod files;
#[cfg(feature = "write")]
pub mod write;

pub use decoded::DecodedGump;
pub(crate) use decoded::finish_compressed;
pub use files::{GumpFiles, GumpSet};

/// gumpart.mul over gumpidx.mul (or gumpartLegacyMUL.uop), borrowed: gumps by id.
///
/// Entries are checked when asked for: one outside the data file, or overlapping another's
/// bytes but exactly, is an error for that id alone. A UOP's compressed gumps are read
/// through [`Gumps::decoded`].
#[derive(Clone)]
pub struct Gumps<'data> {
    entries: PictureIndex<'data>,
    format: ArtFormat,
}

impl fmt::Debug for Gumps<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Gumps")
            .field("format", &self.format)
            .field("entries", &self.entries.index.len())
            .field("data_len", &self.entries.data.len())
            .finish()
    }
}

impl<'data> Gumps<'data> {
    /// Casts gumpidx.mul in place over gumpart.mul.
    ///
    /// Returns `Err` ([`ErrorKind::RecordMultiple`]) if the
    /// index is not a whole number of 12-byte records.
    pub fn parse(index: &'data [u8], data: &'data [u8]) -> Result<Self, DataError> {
        Self::parse_shared(index, data, SharedOverlaps::default())
    }

    /// [`Gumps::parse`] with the overlaps an owner keeps.
    pub(crate) fn parse_shared(
        index: &'data [u8],
        data: &'data [u8],
        overlaps: SharedOverlaps,
    ) -> Result<Self, DataError> {
        Ok(Gumps {
            entries: PictureIndex::parse(index, data, "gumpidx.mul", overlaps)?,
            format: ArtFormat::Mul,
        })
    }

    /// The gumps of a gumpartLegacyMUL.uop: `index` built from the container's bytes
    /// `data` ([`UopIndex::build`] with [`UopPictures::Gumps`]), read in place.
    pub fn from_uop(index: &'data UopIndex, data: &'data [u8]) -> Self {
        Self::from_uop_shared(index, data, SharedOverlaps::default())
    }

    /// [`Gumps::from_uop`] with the overlaps an owner keeps.
    pub(crate) fn from_uop_shared(
        index: &'data UopIndex,
        data: &'data [u8],
        overlaps: SharedOverlaps,
    ) -> Self {
        Gumps {
            entries: PictureIndex::from_uop(index, data, UopPictures::Gumps.file_name(), overlaps),
            format: ArtFormat::Uop,
        }
    }

    /// Gump ids the index holds (0 to `len() - 1`).
    pub fn len(&self) -> usize {
        self.entries.index.len()
    }

    /// True if the index has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.index.is_empty()
    }

    /// The form the gumps are read from.
    pub fn format(&self) -> ArtFormat {
        self.format
    }

    /// The raw index records (for the UOP form, the records its slots make).
    pub fn index(&self) -> &'data [IndexRecord] {
        self.entries.index
    }

    /// The data file's bytes (the container's, for the UOP form), which entries lie in.
    #[cfg(feature = "write")]
    pub(crate) fn data(&self) -> &'data [u8] {
        self.entries.data
    }

    /// The data file's name, for messages: gumpart.mul or gumpartLegacyMUL.uop.
    pub fn data_file(&self) -> &'static str {
        match self.format {
            ArtFormat::Mul => "gumpart.mul",
            ArtFormat::Uop => UopPictures::Gumps.file_name(),
        }
    }

    /// These gumps with verdata.mul's gump patches (file 12) applied, as the client applies
    /// them (`docs/formats/uo.md`, "Patches: verdata.mul"): a patched id's bytes are read
    /// from verdata.mul with the patch's size word, the last patch of an id winning;
    /// patches past the index are skipped. A patch outside verdata.mul, or overlapping
    /// another patch's bytes but exactly, is an error for its id alone, when read.
    pub fn with_verdata(self, verdata: &Verdata<'data>) -> Self {
        Gumps {
            entries: self.entries.patched(verdata, GUMPS_FILE),
            format: self.format,
        }
    }

    /// Ids verdata patches.
    pub fn patched(&self) -> usize {
        self.entries.patch_count()
    }

    /// Gump `id`'s verdata patch, when [`Gumps::with_verdata`] gave it one: its bytes and
    /// size are then read from verdata.mul.
    pub fn patch(&self, id: u32) -> Option<&'data VerdataEntry> {
        let id = id as usize;
        self.entries.patch(id)
    }

    /// Gump `id`'s bytes and size word, in place; `None` for an empty entry.
    ///
    /// Returns `Err` as [`Art::entry`](crate::Art::entry), or
    /// ([`UopEntryProblem::PictureCompression`]) for a gump stored compressed, whose bytes
    /// are not the gump's ([`Gumps::decoded`] reads it).
    pub fn entry(&self, id: u32) -> Result<Option<(&'data [u8], u32)>, DataError> {
        let id = id as usize;
        if let Some((index, raw)) = self.compressed_entry(id) {
            return Err(in_gump(
                uop_error(
                    index,
                    raw,
                    UopEntryProblem::PictureCompression(raw.compression.get()),
                ),
                self.data_file(),
                id,
            ));
        }
        let Some(bytes) = self.entries.entry(id)? else {
            return Ok(None);
        };
        Ok(Some((bytes, self.entries.extra(id))))
    }

    /// Gump `id`'s stored bytes, in place: the gump's bytes, or for a gump stored
    /// compressed its zlib stream; `None` for an empty entry. What a caller looking for
    /// repeats compares.
    ///
    /// Returns `Err` as [`Art::entry`](crate::Art::entry).
    pub fn stored(&self, id: u32) -> Result<Option<&'data [u8]>, DataError> {
        let id = id as usize;
        self.entries.entry(id)
    }

    /// True if gump `id` is stored compressed (a gumpartLegacyMUL.uop entry of compression
    /// 1 or 3), so that only [`Gumps::decoded`] reads it.
    pub fn is_compressed(&self, id: u32) -> bool {
        let id = id as usize;
        self.compressed_entry(id).is_some()
    }

    /// For a gump stored compressed: the bytes its zlib stream declares it decodes to
    /// (before the BWT stage, for compression 3).
    pub fn declared_len(&self, id: u32) -> Option<u32> {
        let id = id as usize;
        self.compressed_entry(id)
            .map(|(_, raw)| raw.decompressed_len.get())
    }

    /// A compressed entry's table position and raw entry; `None` for an entry stored as is
    /// or one verdata patches (its bytes then read from verdata.mul, as is).
    fn compressed_entry(&self, id: usize) -> Option<(usize, &'data UopEntryRaw)> {
        if self.entries.patch(id).is_some() {
            return None;
        }
        self.entries.uop?.compressed_entry(self.entries.data, id)
    }

    /// Gump `id`'s bytes and size, whatever its form: in place when stored as is, decoded
    /// into a buffer of its own when stored compressed, as the client decodes it
    /// (`docs/formats/uo.md`, "Gumps"): compression 1, the zlib stream after the entry's 8
    /// bytes of size (a size of 0 or less on both sides is no gump), compression 3, the
    /// whole entry a zlib stream then undone by `bwt::decompress`; either way the
    /// decoded bytes start with the u32 width and u32 height, then the gump's row table and
    /// runs. `None` for an empty entry or an id past the index. Each decoder's output is
    /// within `limits.max_decoded_bytes`; memory: the decoded bytes, twice at most.
    ///
    /// Returns `Err` as [`Gumps::entry`] for a gump stored as is; for a compressed one,
    /// ([`ErrorKind::UopEntry`] with [`UopEntryProblem::Inflate`]) for a zlib stream that
    /// does not decode to its declared length, ([`ErrorKind::Bwt`]) for a BWT stage that
    /// cannot be undone, ([`ErrorKind::Limit`]) past `limits`, or
    /// ([`UopEntryProblem::GumpSize`]) for decoded bytes without a width and height from 0
    /// to 0xFFFF; each naming the entry ("gump 0x01F4") and its slot.
    pub fn decoded(
        &self,
        id: u32,
        limits: &Limits,
    ) -> Result<Option<DecodedGump<'data>>, DataError> {
        let number = id as usize;
        if number >= self.len() || !self.is_compressed(id) {
            return self.decoded_from(id, Ok(Vec::new()), limits);
        }
        let Some(stream) = self.compressed_stream(id)? else {
            return Ok(None);
        };
        let inflated = inflate_exact(
            "a gump's zlib stream",
            stream.stored,
            u64::from(stream.declared),
            &[],
            limits,
        )
        .map(|inflated| inflated.data);
        self.decoded_from(id, inflated, limits)
    }

    /// For a gump stored compressed (compression 1 or 3): its zlib stream in place, its
    /// compression and the bytes the stream declares it decodes to. `None` for a gump
    /// stored as is, an empty entry, an id past the index, or a compression-1 gump whose
    /// 8 bytes of size are both 0 or less (the client shows no gump then). Entries over
    /// the same stored bytes have the same stream: inflate it once
    /// ([`gamedata_io::inflate_shared`]) and hand each its part ([`Gumps::decoded_from`]).
    ///
    /// Returns `Err` as [`Gumps::stored`].
    pub fn compressed_stream(&self, id: u32) -> Result<Option<GumpStream<'data>>, DataError> {
        let id = id as usize;
        let Some((_, raw)) = self.compressed_entry(id) else {
            return Ok(None);
        };
        let Some(stored) = self.entries.entry(id)? else {
            return Ok(None);
        };
        let compression = raw.compression.get();
        if compression == 1 && !sized(self.entries.data, stored) {
            return Ok(None);
        }
        Ok(Some(GumpStream {
            stored,
            compression,
            declared: raw.decompressed_len.get(),
        }))
    }

    /// Gump `id` decoded as [`Gumps::decoded`] decodes it, its zlib stream's output given:
    /// `inflated`, the stream inflated to its declared length (or why not: a
    /// [`SharedStream::check`](gamedata_io::SharedStream::check) or [`inflate_exact`]
    /// error), so that one inflate serves every entry naming the stream. A gump stored as
    /// is ignores `inflated` and is read in place.
    ///
    /// Returns `Err` as [`Gumps::decoded`].
    pub fn decoded_from(
        &self,
        id: u32,
        inflated: Result<Vec<u8>, InflateError>,
        limits: &Limits,
    ) -> Result<Option<DecodedGump<'data>>, DataError> {
        let number = id as usize;
        if number >= self.len() {
            return Ok(None);
        }
        let file = self.data_file();
        let Some((index, raw)) = self.compressed_entry(number) else {
            return Ok(self.entry(id)?.map(|(bytes, extra)| DecodedGump {
                bytes: Cow::Borrowed(bytes),
                extra,
                file,
                id: number,
            }));
        };
        if self.compressed_stream(id)?.is_none() {
            return Ok(None);
        }
        finish_compressed(file, number, index, raw, inflated, limits).map(Some)
    }

    /// Gump `id`; `None` for an empty entry or an id past the index.
    ///
    /// Returns `Err` as [`Gumps::entry`] (but for an id past the index: a gump stored
    /// compressed is one, read it with [`Gumps::decoded`]), or as [`Gump::parse`], naming
    /// the entry ("gump 0x01F4") and its slot.
    pub fn gump(&self, id: u32) -> Result<Option<Gump<'data>>, DataError> {
        let number = id as usize;
        if number >= self.len() {
            return Ok(None);
        }
        let Some((bytes, extra)) = self.entry(id)? else {
            return Ok(None);
        };
        let file = self.data_file();
        let mut gump = Gump::parse(bytes, extra).map_err(|e| in_gump(e, file, number))?;
        gump.origin = Some((file, number));
        Ok(Some(gump))
    }
}

/// A compressed gump's zlib stream ([`Gumps::compressed_stream`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GumpStream<'data> {
    /// The zlib stream, in place (for compression 1, after the 8 bytes of size).
    pub stored: &'data [u8],
    /// The entry's compression: 1 (zlib) or 3 (zlib, then the BWT stage).
    pub compression: u16,
    /// The bytes the entry declares the stream decodes to (before the BWT stage).
    pub declared: u32,
}

/// True unless the 8 bytes before a compression-1 gump's zlib stream `stream` (inside
/// `data`) give a width and a height of 0 or less: the client shows no gump then.
fn sized(data: &[u8], stream: &[u8]) -> bool {
    let start = stream.as_ptr().addr().wrapping_sub(data.as_ptr().addr());
    let side = |at: usize| {
        let b: [u8; 4] = data.get(at..at.checked_add(4)?)?.try_into().ok()?;
        Some(i32::from_le_bytes(b))
    };
    let (width, height) = (
        start.checked_sub(8).and_then(side),
        start.checked_sub(4).and_then(side),
    );
    !matches!((width, height), (Some(w), Some(h)) if w <= 0 && h <= 0)
}

/// `problem` of the UOP entry `raw` at table position `index`.
fn uop_error(index: usize, raw: &UopEntryRaw, problem: UopEntryProblem) -> DataError {
    ErrorKind::UopEntry {
        index,
        hash: raw.hash.get(),
        problem,
    }
    .into()
}

/// `error` placed in gump `id` of `file`.
#[cold]
fn in_gump(error: DataError, file: &'static str, id: usize) -> DataError {
    error.in_entry(file, &format!("gump {id:#06X}"), id)
}

/// A run of one colour in a gump: `count` pixels from (`x`, `y`) rightwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GumpRun {
    /// Column of the first pixel, from 0 at the left.
    pub x: u32,
    /// Row, from 0 at the top.
    pub y: u32,
    /// Pixels in the run (at least 1).
    pub count: u32,
    /// The raw 16-bit colour (0 transparent).
    pub colour: u16,
}

/// A gump: its size and its rows of runs, in place.
#[derive(Clone, Copy)]
pub struct Gump<'data> {
    origin: Option<(&'static str, usize)>,
    width: u16,
    height: u16,
    rows: &'data [U32],
    bytes: &'data [u8],
}

impl fmt::Debug for Gump<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Gump")
            .field("width", &self.width)
            .field("height", &self.height)
            .finish_non_exhaustive()
    }
}

impl<'data> Gump<'data> {
    /// Casts a gump's entry `bytes` with the size word `extra` (width in the high 16 bits,
    /// height in the low 16), and checks its row table.
    ///
    /// Returns `Err` ([`PictureProblem::GumpSize`]) for a side of 0 or of 0x8000 and more
    /// (the client keeps no size from a word that is 0 or negative, and reads the height
    /// as signed), or ([`PictureProblem::GumpRows`]) if the row offsets do not fit.
    pub fn parse(bytes: &'data [u8], extra: u32) -> Result<Self, DataError> {
        let [h0, h1, w0, w1] = extra.to_le_bytes();
        let (width, height) = (u16::from_le_bytes([w0, w1]), u16::from_le_bytes([h0, h1]));
        if !(1..=0x7FFF).contains(&width) || !(1..=0x7FFF).contains(&height) {
            return Err(PictureProblem::GumpSize {
                extra,
                width,
                height,
            }
            .into());
        }
        let rows = Bytes::new(bytes)
            .slice_at::<U32>(0, usize::from(height))
            .map_err(|_| PictureProblem::GumpRows {
                height,
                found: bytes.len(),
            })?;
        Ok(Gump {
            origin: None,
            width,
            height,
            rows,
            bytes,
        })
    }

    /// Width in pixels (1 to 0x7FFF).
    pub fn width(&self) -> u32 {
        u32::from(self.width)
    }

    /// Height in pixels (1 to 0x7FFF).
    pub fn height(&self) -> u32 {
        u32::from(self.height)
    }

    /// The runs, row by row, left to right; runs of no pixels are not given. Reading all
    /// costs at most the entry's length / 4 runs.
    ///
    /// Yields `Err` and then nothing more for a row offset past the entry or before the
    /// row above's ([`PictureProblem::GumpRowOffset`]), or a row whose runs do not cover
    /// exactly the width ([`PictureProblem::GumpRowWidth`]), naming the entry when the gump
    /// came from [`Gumps`].
    pub fn runs(&self) -> GumpRuns<'data> {
        GumpRuns {
            gump: *self,
            y: 0,
            at: 0,
            end: 0,
            x: 0,
            started: false,
            done: false,
        }
    }
}

/// The runs of a [`Gump`] ([`Gump::runs`]).
#[derive(Clone, Debug)]
pub struct GumpRuns<'data> {
    gump: Gump<'data>,
    y: u16,
    /// The next run's word, and the row's end word.
    at: u32,
    end: u32,
    /// Pixels of the row covered so far.
    x: u32,
    started: bool,
    done: bool,
}

impl GumpRuns<'_> {
    #[cold]
    fn fail(&mut self, problem: PictureProblem) -> Option<Result<GumpRun, DataError>> {
        self.done = true;
        let error = DataError::from(problem);
        Some(Err(match self.gump.origin {
            Some((file, id)) => in_gump(error, file, id),
            None => error,
        }))
    }

    /// The entry's length in whole 4-byte words.
    fn words(&self) -> u32 {
        u32::try_from(self.gump.bytes.len() / 4).unwrap_or(u32::MAX)
    }
}

impl Iterator for GumpRuns<'_> {
    type Item = Result<GumpRun, DataError>;

    // x stays at most the width (a u16) plus one u16 count; word places are below the
    // entry's words.
    #[allow(clippy::arithmetic_side_effects)]
    fn next(&mut self) -> Option<Self::Item> {
        let (width, words) = (self.gump.width(), self.words());
        while !self.done && self.y < self.gump.height {
            let row = self.y;
            if !self.started {
                let offset_of = |r: usize| self.gump.rows.get(r).map(|o| o.get());
                let start = offset_of(usize::from(row)).unwrap_or(0);
                let end = offset_of(usize::from(row) + 1).unwrap_or(words);
                // Row y's start was checked as row y - 1's end: only row 0's is new here.
                if start > words {
                    return self.fail(PictureProblem::GumpRowOffset {
                        row,
                        offset: start,
                        from: 0,
                        words,
                    });
                }
                if end < start || end > words {
                    return self.fail(PictureProblem::GumpRowOffset {
                        row: row + 1,
                        offset: end,
                        from: start,
                        words,
                    });
                }
                (self.at, self.end, self.x, self.started) = (start, end, 0, true);
            }
            if self.at == self.end {
                if self.x != width {
                    return self.fail(PictureProblem::GumpRowWidth {
                        row,
                        found: u64::from(self.x),
                        width: self.gump.width,
                    });
                }
                self.y = row + 1;
                self.started = false;
                continue;
            }
            let byte = self.at as usize * 4;
            let run = self.gump.bytes.get(byte..byte + 4).unwrap_or(&[0; 4]);
            let colour = u16::from_le_bytes([run.first().copied()?, run.get(1).copied()?]);
            let count = u32::from(u16::from_le_bytes([
                run.get(2).copied()?,
                run.get(3).copied()?,
            ]));
            self.at += 1;
            let x = self.x;
            if x + count > width {
                return self.fail(PictureProblem::GumpRowWidth {
                    row,
                    found: u64::from(x + count),
                    width: self.gump.width,
                });
            }
            self.x = x + count;
            if count > 0 {
                return Some(Ok(GumpRun {
                    x,
                    y: u32::from(row),
                    count,
                    colour,
                }));
            }
        }
        None
    }
}
