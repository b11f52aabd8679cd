//! A gump's bytes as decoded ([`DecodedGump`]): in place, or from a compressed UOP entry,
//! read with the whole container or alone.

use std::borrow::Cow;
use std::fmt;

use gamedata_io::{InflateError, Limits, PreviewBytes, inflate_exact};

#[cfg(doc)]
use super::Gumps;
use super::{Gump, bwt, in_gump, uop_error};
#[cfg(doc)]
use crate::UopIndex;
use crate::error::{DataError, ErrorKind, UopEntryProblem};
use crate::picture::UopPictures;
use crate::raw::UopEntryRaw;

/// A gump's bytes and size as [`Gumps::decoded`] gives them: in place, or decoded from a
/// compressed entry into a buffer of its own.
#[derive(Clone)]
pub struct DecodedGump<'data> {
    pub(super) bytes: Cow<'data, [u8]>,
    pub(super) extra: u32,
    pub(super) file: &'static str,
    pub(super) id: usize,
}

impl fmt::Debug for DecodedGump<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecodedGump")
            .field("id", &self.id)
            .field("extra", &format_args!("{:#010x}", self.extra))
            .field("decoded", &self.is_decoded())
            .field("bytes", &PreviewBytes(&self.bytes))
            .finish()
    }
}

impl DecodedGump<'_> {
    /// The gump's bytes: its row table and runs.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The size word, as gumpidx.mul packs it (width in the high 16 bits).
    pub fn extra(&self) -> u32 {
        self.extra
    }

    /// True if the bytes were decoded from a compressed entry (false: in place).
    pub fn is_decoded(&self) -> bool {
        matches!(self.bytes, Cow::Owned(_))
    }

    /// The gump, over these bytes.
    ///
    /// Returns `Err` as [`Gump::parse`], naming the entry ("gump 0x01F4") and its slot.
    pub fn gump(&self) -> Result<Gump<'_>, DataError> {
        let mut gump =
            Gump::parse(&self.bytes, self.extra).map_err(|e| in_gump(e, self.file, self.id))?;
        gump.origin = Some((self.file, self.id));
        Ok(gump)
    }
}

impl DecodedGump<'static> {
    /// Gump `slot` of a gumpartLegacyMUL.uop whose entry was read alone (a container read
    /// by ranges, [`UopIndex::from_tables`]): `raw` its table entry at table position
    /// `position` (from [`UopIndex::compressed_entry_in`]), `stored` its stored bytes (the
    /// `raw.compressed_len` bytes after its entry header). Decoded as [`Gumps::decoded`]
    /// decodes a gump stored compressed; a gump stored as is is read from its own 8 bytes
    /// of size and copied. `None` for an entry with no bytes past its size (an empty
    /// entry, as its slot's record reads), or a compression-1 gump whose size is 0 or less
    /// on both sides (the client shows no gump then). Read alone, an entry is not checked
    /// against the others' bytes (an overlap [`Gumps::decoded`] refuses).
    ///
    /// Returns `Err` as [`Gumps::decoded`], naming gumpartLegacyMUL.uop and the slot.
    pub fn from_uop_entry(
        slot: usize,
        position: usize,
        raw: &UopEntryRaw,
        stored: &[u8],
        limits: &Limits,
    ) -> Result<Option<Self>, DataError> {
        let file = UopPictures::Gumps.file_name();
        let side = |at: usize| {
            let b: [u8; 4] = stored.get(at..at.checked_add(4)?)?.try_into().ok()?;
            Some(i32::from_le_bytes(b))
        };
        let fail = |problem| in_gump(uop_error(position, raw, problem), file, slot);
        let empty = |head: usize| stored.len() == head;
        let stream = match raw.compression.get() {
            0 if empty(8) => return Ok(None),
            1 if empty(8) => return Ok(None),
            3 if empty(0) => return Ok(None),
            0 => {
                let (width, height) = (side(0), side(4));
                let extra = width
                    .zip(height)
                    .and_then(|(w, h)| {
                        Some(
                            (u32::from(u16::try_from(w).ok()?) << 16)
                                | u32::from(u16::try_from(h).ok()?),
                        )
                    })
                    .ok_or_else(|| fail(UopEntryProblem::GumpSize { width, height }))?;
                return Ok(Some(DecodedGump {
                    bytes: Cow::Owned(stored.get(8..).unwrap_or_default().to_vec()),
                    extra,
                    file,
                    id: slot,
                }));
            }
            1 => match (side(0), side(4)) {
                (Some(w), Some(h)) if w <= 0 && h <= 0 => return Ok(None),
                (Some(_), Some(_)) => stored.get(8..).unwrap_or_default(),
                _ => {
                    return Err(fail(UopEntryProblem::GumpSize {
                        width: None,
                        height: None,
                    }));
                }
            },
            3 => stored,
            other => return Err(fail(UopEntryProblem::PictureCompression(other))),
        };
        let inflated = inflate_exact(
            "a gump's zlib stream",
            stream,
            u64::from(raw.decompressed_len.get()),
            &[],
            limits,
        )
        .map(|inflated| inflated.data);
        finish_compressed(file, slot, position, raw, inflated, limits).map(Some)
    }
}

/// A compressed gump (`id` of `file`, its UOP entry `raw` at table position `index`) from
/// its zlib stream's output `inflated`: undone by the BWT stage for compression 3, then
/// its 8 bytes of size taken off.
pub(crate) fn finish_compressed(
    file: &'static str,
    number: usize,
    index: usize,
    raw: &UopEntryRaw,
    inflated: Result<Vec<u8>, InflateError>,
    limits: &Limits,
) -> Result<DecodedGump<'static>, DataError> {
    let fail = |e: DataError| in_gump(e, file, number);
    let compression = raw.compression.get();
    let mut bytes = match inflated {
        Ok(bytes) => bytes,
        Err(InflateError::Limit(limit)) => return Err(fail(ErrorKind::Limit(limit).into())),
        Err(other) => {
            return Err(fail(uop_error(index, raw, UopEntryProblem::Inflate(other))));
        }
    };
    if compression == 3 {
        bytes = bwt::decompress(bytes, limits).map_err(fail)?;
    }
    let word = |at: usize| {
        let b: [u8; 4] = bytes.get(at..at.checked_add(4)?)?.try_into().ok()?;
        Some(u32::from_le_bytes(b))
    };
    let (width, height) = (word(0), word(4));
    let extra = width
        .zip(height)
        .and_then(|(w, h)| {
            let (w, h) = (u16::try_from(w).ok()?, u16::try_from(h).ok()?);
            Some((u32::from(w) << 16) | u32::from(h))
        })
        .ok_or_else(|| {
            fail(uop_error(
                index,
                raw,
                UopEntryProblem::GumpSize {
                    width: width.map(u32::cast_signed),
                    height: height.map(u32::cast_signed),
                },
            ))
        })?;
    bytes.drain(..8);
    Ok(DecodedGump {
        bytes: Cow::Owned(bytes),
        extra,
        file,
        id: number,
    })
}
