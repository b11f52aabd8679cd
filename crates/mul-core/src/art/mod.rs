//! Art (art.mul + artidx.mul): the land tiles and items the client draws the world with,
//! read in place.
//!
//! An art number names both: 0 to 0x3FFF are land tiles (the land id), 0x4000 + id are
//! items. A land tile is 1,012 raw 16-bit pixels filling a 44 x 44 diamond; an item is a
//! width, a height, a table of row offsets and, for each row, runs of pixels. Pixels are
//! 15-bit colours (red bits 10 to 14, green 5 to 9, blue 0 to 4; bit 15 plays no part):
//! every pixel of a land tile's diamond is drawn, colour 0 included, while in an item a
//! pixel of value 0 is transparent. Nothing is decoded until asked: [`Art::land`] and
//! [`Art::item`] hand out views of the entry's bytes, and [`LandArt::runs`] and
//! [`ItemArt::runs`] the pixels in place, row by row.
//!
//! [`Art`] reads art.mul with artidx.mul, or artLegacyMUL.uop through the index its slots
//! make ([`UopIndex`]); [`ArtFiles`] owns a folder's art in either form; `write` (the
//! `write` feature) writes art and converts it between its two forms.
//!
//! Source: `docs/formats/uo.md`, "Index files" and "Art" (ClassicUO's `ArtLoader`).

use std::fmt;

use gamedata_io::Bytes;
use zerocopy::FromBytes;
use zerocopy::little_endian::U16;

use crate::error::{ArgumentProblem, DataError, PictureProblem};
use crate::picture::{ArtFormat, PictureIndex, SharedOverlaps, UopIndex, UopPictures};
use crate::raw::IndexRecord;
use crate::verdata::{ART_FILE, Verdata, VerdataEntry};

mod files;
#[cfg(feature = "write")]
pub mod write;

pub use files::{ArtFiles, ArtSet};

/// The side of a land tile's square, in pixels.
pub const LAND_SIDE: u32 = 44;
/// Pixels of a land tile's diamond: 2 x (2 + 4 + ... + 44).
pub const LAND_PIXELS: usize = 1012;
/// Bytes of a land tile's pixels (entries may be longer; the rest is not read).
pub const LAND_LEN: usize = LAND_PIXELS * 2;
pub use crate::picture::ITEM_BASE;
/// A run that reaches this x (skip + count, as the client sums them) ends the picture.
const RUN_STOP: u32 = 2048;

/// art.mul over artidx.mul, borrowed: land tiles and items by number.
///
/// Entries are checked when asked for: one outside art.mul, or overlapping another's bytes
/// but exactly, is an error for that number alone.
#[derive(Clone)]
pub struct Art<'data> {
    entries: PictureIndex<'data>,
    format: ArtFormat,
}

impl fmt::Debug for Art<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Art")
            .field("entries", &self.entries.index.len())
            .field("data_len", &self.entries.data.len())
            .finish()
    }
}

impl<'data> Art<'data> {
    /// Casts artidx.mul in place over art.mul.
    ///
    /// Returns `Err` ([`ErrorKind::RecordMultiple`](crate::ErrorKind::RecordMultiple)) if the index is not a whole number of
    /// 12-byte records.
    pub fn parse(index: &'data [u8], data: &'data [u8]) -> Result<Self, DataError> {
        Self::parse_shared(index, data, SharedOverlaps::default())
    }

    /// [`Art::parse`] with the overlaps an owner keeps.
    pub(crate) fn parse_shared(
        index: &'data [u8],
        data: &'data [u8],
        overlaps: SharedOverlaps,
    ) -> Result<Self, DataError> {
        Ok(Art {
            entries: PictureIndex::parse(index, data, "artidx.mul", overlaps)?,
            format: ArtFormat::Mul,
        })
    }

    /// The art of an artLegacyMUL.uop: `index` built from the container's bytes `data`
    /// ([`UopIndex::build`] with [`UopPictures::Art`](crate::UopPictures)), the
    /// pictures read in place from `data`. Entries are checked as for art.mul; a slot whose
    /// UOP entry could not be taken gives that entry's error.
    pub fn from_uop(index: &'data UopIndex, data: &'data [u8]) -> Self {
        Self::from_uop_shared(index, data, SharedOverlaps::default())
    }

    /// [`Art::from_uop`] with the overlaps an owner keeps.
    pub(crate) fn from_uop_shared(
        index: &'data UopIndex,
        data: &'data [u8],
        overlaps: SharedOverlaps,
    ) -> Self {
        Art {
            entries: PictureIndex::from_uop(index, data, UopPictures::Art.file_name(), overlaps),
            format: ArtFormat::Uop,
        }
    }

    /// Art numbers the index holds (land tiles and items together).
    pub fn len(&self) -> usize {
        self.entries.index.len()
    }

    /// True if the index has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.index.is_empty()
    }

    /// Items the index holds: its entries past the 0x4000 land tiles, as the client counts
    /// them (item ids 0 to `item_count() - 1`).
    pub fn item_count(&self) -> usize {
        self.len().saturating_sub(ITEM_BASE)
    }

    /// The raw index records.
    pub fn index(&self) -> &'data [IndexRecord] {
        self.entries.index
    }

    /// The data file's bytes (the container's, for the UOP form), which entries lie in.
    #[cfg(feature = "write")]
    pub(crate) fn data(&self) -> &'data [u8] {
        self.entries.data
    }

    /// The data file's name, for messages: art.mul or artLegacyMUL.uop.
    pub fn data_file(&self) -> &'static str {
        match self.format {
            ArtFormat::Mul => "art.mul",
            ArtFormat::Uop => UopPictures::Art.file_name(),
        }
    }

    /// The form the art is read from.
    pub fn format(&self) -> ArtFormat {
        self.format
    }

    /// This art with verdata.mul's art patches (file 4) applied, as the client applies them
    /// (`docs/formats/uo.md`, "Patches: verdata.mul"): a patched number's bytes are read
    /// from verdata.mul, the last patch of a number winning; patches past the index are
    /// skipped. A patch outside verdata.mul, or overlapping another patch's bytes but
    /// exactly, is an error for its number alone, when read.
    pub fn with_verdata(self, verdata: &Verdata<'data>) -> Self {
        Art {
            entries: self.entries.patched(verdata, ART_FILE),
            format: self.format,
        }
    }

    /// Numbers verdata patches.
    pub fn patched(&self) -> usize {
        self.entries.patch_count()
    }

    /// Art number `number`'s verdata patch, when [`Art::with_verdata`] gave it one: its
    /// bytes are then read from verdata.mul, not art.mul.
    pub fn patch(&self, number: u32) -> Option<&'data VerdataEntry> {
        self.entries.patch(number as usize)
    }

    /// Art number `number`'s bytes; `None` for an empty entry.
    ///
    /// Returns `Err` ([`ErrorKind::MissingIndexEntry`](crate::ErrorKind::MissingIndexEntry)) past the index, or
    /// ([`ErrorKind::IndexEntry`](crate::ErrorKind::IndexEntry)) if the entry lies outside art.mul or overlaps another
    /// entry's bytes (an exact repeat is no overlap).
    pub fn entry(&self, number: u32) -> Result<Option<&'data [u8]>, DataError> {
        self.entries.entry(number as usize)
    }

    /// Land tile `id` (0 to 0x3FFF); `None` for an empty entry.
    ///
    /// Returns `Err` as [`Art::entry`], ([`ArgumentProblem::LandId`]) for an id past
    /// 0x3FFF, or ([`PictureProblem::LandTooShort`]) for an entry shorter than the 2,024
    /// bytes of pixels; a picture's error names the entry ("land 0x0003") and its slot.
    pub fn land(&self, id: u16) -> Result<Option<LandArt<'data>>, DataError> {
        if usize::from(id) >= ITEM_BASE {
            return Err(ArgumentProblem::LandId { id }.into());
        }
        let number = usize::from(id);
        let Some(bytes) = self.entries.entry(number)? else {
            return Ok(None);
        };
        LandArt::parse(bytes)
            .map(Some)
            .map_err(|e| in_art_entry(e, self.data_file(), number))
    }

    /// Item `id` (art number 0x4000 + id; ids are the client's 16-bit graphics); `None`
    /// for an empty entry, or an id past the index ([`Art::item_count`]).
    ///
    /// Returns `Err` as [`Art::entry`] (but for an id past the index), or as
    /// [`ItemArt::parse`], naming the entry ("item 0x0EED") and its slot.
    pub fn item(&self, id: u16) -> Result<Option<ItemArt<'data>>, DataError> {
        // ITEM_BASE as a u32.
        self.item_at(u32::from(id).saturating_add(0x4000))
    }

    /// The item at art number `number` (0x4000 and up: [`Art::item`] of `number - 0x4000`),
    /// which also reaches the items past id 0xFFFF that an art UOP of more than 0x10000
    /// items holds; `None` for an empty entry, a land number (below 0x4000) or a number
    /// past the index.
    ///
    /// Returns `Err` as [`Art::item`].
    pub fn item_at(&self, number: u32) -> Result<Option<ItemArt<'data>>, DataError> {
        let number = number as usize;
        if number < ITEM_BASE || number >= self.len() {
            return Ok(None);
        }
        let Some(bytes) = self.entries.entry(number)? else {
            return Ok(None);
        };
        let file = self.data_file();
        let mut item = ItemArt::parse(bytes).map_err(|e| in_art_entry(e, file, number))?;
        item.origin = Some((file, number));
        Ok(Some(item))
    }
}

/// The entry's name in messages: "land 0x0003", "item 0x0EED".
fn art_name(number: usize) -> String {
    match number.checked_sub(ITEM_BASE) {
        None => format!("land {number:#06X}"),
        Some(id) => format!("item {id:#06X}"),
    }
}

/// `error` placed in entry `number` of `file` (art.mul, artLegacyMUL.uop).
#[cold]
fn in_art_entry(error: DataError, file: &'static str, number: usize) -> DataError {
    error.in_entry(file, &art_name(number), number)
}

/// A run of pixels of a picture, in place: `pixels.len()` pixels from (`x`, `y`) rightwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run<'data> {
    /// Column of the first pixel, from 0 at the left.
    pub x: u32,
    /// Row, from 0 at the top.
    pub y: u32,
    /// The raw 16-bit colours (see the module's docs for what they mean).
    pub pixels: &'data [U16],
}

/// A land tile: 1,012 pixels filling a 44 x 44 diamond, every one drawn.
#[derive(Clone, Copy)]
pub struct LandArt<'data> {
    pixels: &'data [U16],
}

impl fmt::Debug for LandArt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LandArt").finish_non_exhaustive()
    }
}

impl<'data> LandArt<'data> {
    /// Casts a land tile's entry: its first 2,024 bytes (the rest is not read, as the
    /// client reads it).
    ///
    /// Returns `Err` ([`PictureProblem::LandTooShort`]) for fewer bytes.
    pub fn parse(bytes: &'data [u8]) -> Result<Self, DataError> {
        let short = || DataError::from(PictureProblem::LandTooShort { found: bytes.len() });
        let pixels = bytes.get(..LAND_LEN).ok_or_else(short)?;
        let pixels = <[U16]>::ref_from_bytes(pixels).map_err(|_| short())?;
        Ok(LandArt { pixels })
    }

    /// The 1,012 raw pixels, row by row.
    pub fn pixels(&self) -> &'data [U16] {
        self.pixels
    }

    /// The diamond's rows as runs, top to bottom: row y holds 2 (y + 1) pixels from x =
    /// 21 - y for y below 22, then 2 (44 - y) pixels from x = y - 22.
    pub fn runs(&self) -> impl Iterator<Item = Run<'data>> + 'data {
        let pixels = self.pixels;
        (0..LAND_SIDE).scan(0usize, move |at, y| {
            let (x, len) = land_row(y);
            let start = *at;
            *at = start.saturating_add(len as usize);
            Some(Run {
                x,
                y,
                pixels: pixels.get(start..*at).unwrap_or_default(),
            })
        })
    }
}

/// Row `y`'s first column and its pixel count in a land tile.
#[allow(clippy::arithmetic_side_effects)] // y is below 44: every value is in 0..=44.
const fn land_row(y: u32) -> (u32, u32) {
    let half = LAND_SIDE / 2;
    if y < half {
        (half - 1 - y, 2 * (y + 1))
    } else {
        (y - half, 2 * (LAND_SIDE - y))
    }
}

/// An item's picture: its size and, for each row, runs of pixels, in place.
///
/// The entry is a u32 flag (not read), u16 width, u16 height, `height` u16 row offsets
/// counted in 16-bit words from the end of that table, then each row's runs: u16 skip,
/// u16 count and `count` pixels, the skip counted from where the row's previous run ended;
/// skip 0 with count 0 ends the row. [`ItemArt::parse`] checks the header and the row
/// table; the runs are checked as they are read ([`ItemArt::runs`]).
#[derive(Clone, Copy)]
pub struct ItemArt<'data> {
    /// The data file and art number, when read from an [`Art`] (for messages).
    origin: Option<(&'static str, usize)>,
    width: u16,
    height: u16,
    rows: &'data [U16],
    /// The bytes after the row table, where the offsets count from.
    body: &'data [u8],
}

impl fmt::Debug for ItemArt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ItemArt")
            .field("width", &self.width)
            .field("height", &self.height)
            .finish_non_exhaustive()
    }
}

impl<'data> ItemArt<'data> {
    /// Casts an item's entry: its header and row table.
    ///
    /// Returns `Err` ([`PictureProblem::ItemHeader`]) for an entry shorter than its 8-byte
    /// header, ([`PictureProblem::NegativeSize`]) for a width or height of 0x8000 or more
    /// (negative to the client, which fails on them), or ([`PictureProblem::RowTable`]) if
    /// the row table does not fit in the entry.
    pub fn parse(bytes: &'data [u8]) -> Result<Self, DataError> {
        let mut reader = Bytes::new(bytes);
        let header = reader
            .read_slice::<U16>(4)
            .map_err(|_| PictureProblem::ItemHeader { found: bytes.len() })?;
        let [_, _, width, height] = [0, 1, 2, 3].map(|i| header.get(i).map_or(0, |v| v.get()));
        if width > 0x7FFF || height > 0x7FFF {
            return Err(PictureProblem::NegativeSize { width, height }.into());
        }
        let rows = reader.read_slice::<U16>(usize::from(height)).map_err(|_| {
            PictureProblem::RowTable {
                height,
                found: bytes.len(),
            }
        })?;
        Ok(ItemArt {
            origin: None,
            width,
            height,
            rows,
            body: reader.remaining(),
        })
    }

    /// Width in pixels (0 to 0x7FFF).
    pub fn width(&self) -> u32 {
        u32::from(self.width)
    }

    /// Height in pixels (0 to 0x7FFF).
    pub fn height(&self) -> u32 {
        u32::from(self.height)
    }

    /// The runs, row by row, left to right, as the client reads them: a run whose skip and
    /// count reach 2,048 ends the picture (rows not reached stay transparent). Runs of no
    /// pixels are not given. Each row costs at most `width + 1` runs read, so reading all
    /// costs at most the picture's area and its height.
    ///
    /// An item yields `Err` and then nothing more for a row offset past the entry
    /// ([`PictureProblem::RowOffset`]), a run that runs past it ([`PictureProblem::RunCut`])
    /// or past the width ([`PictureProblem::RunPastWidth`]), naming the entry when the
    /// item came from an [`Art`].
    pub fn runs(&self) -> ItemRuns<'data> {
        ItemRuns {
            art: *self,
            y: 0,
            at: None,
            x: 0,
            done: false,
        }
    }
}

/// The runs of an [`ItemArt`] ([`ItemArt::runs`]).
#[derive(Clone, Debug)]
pub struct ItemRuns<'data> {
    art: ItemArt<'data>,
    /// The row being read.
    y: u16,
    /// The byte of the body where the next run header is, once the row is started.
    at: Option<usize>,
    /// Where the row's previous run ended.
    x: u32,
    done: bool,
}

impl<'data> ItemRuns<'data> {
    #[cold]
    fn fail(&mut self, problem: PictureProblem) -> Option<Result<Run<'data>, DataError>> {
        self.done = true;
        let error = DataError::from(problem);
        Some(Err(match self.art.origin {
            Some((file, number)) => in_art_entry(error, file, number),
            None => error,
        }))
    }
}

impl<'data> Iterator for ItemRuns<'data> {
    type Item = Result<Run<'data>, DataError>;

    // Skips and counts are u16s and x stays at most the width (a u16): their sums fit a
    // u32; byte places are below the body's length plus 4 + 2 x 0xFFFF.
    #[allow(clippy::arithmetic_side_effects)]
    fn next(&mut self) -> Option<Self::Item> {
        let body = self.art.body;
        while !self.done && self.y < self.art.height {
            let row = self.y;
            let at = match self.at {
                Some(at) => at,
                None => {
                    let offset = self.art.rows.get(usize::from(row)).map_or(0, |o| o.get());
                    let at = usize::from(offset).saturating_mul(2);
                    if at > body.len() {
                        return self.fail(PictureProblem::RowOffset { row, offset });
                    }
                    self.x = 0;
                    at
                }
            };
            let cut = PictureProblem::RunCut { row, at: at as u64 };
            let Some(header) = at.checked_add(4).and_then(|end| body.get(at..end)) else {
                return self.fail(cut);
            };
            let word = |i: usize| {
                u16::from_le_bytes([
                    header.get(i).copied().unwrap_or(0),
                    header.get(i + 1).copied().unwrap_or(0),
                ])
            };
            let (skip, count) = (u32::from(word(0)), u32::from(word(2)));
            if skip == 0 && count == 0 {
                self.y = row.saturating_add(1);
                self.at = None;
                continue;
            }
            if skip + count >= RUN_STOP {
                self.done = true;
                return None;
            }
            let x = self.x + skip;
            let end = x + count;
            if end > self.art.width() {
                return self.fail(PictureProblem::RunPastWidth {
                    row,
                    x,
                    count,
                    width: self.art.width,
                });
            }
            let start = at + 4;
            let stop = start + 2 * count as usize;
            let Some(pixels) = body.get(start..stop) else {
                return self.fail(cut);
            };
            let Ok(pixels) = <[U16]>::ref_from_bytes(pixels) else {
                return self.fail(cut);
            };
            self.at = Some(stop);
            self.x = end;
            if count > 0 {
                return Some(Ok(Run {
                    x,
                    y: u32::from(row),
                    pixels,
                }));
            }
        }
        None
    }
}
