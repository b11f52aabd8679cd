//! PID images and PAL palettes of the WAP32 games: [`Pid`] views an image in place (its
//! 32-byte header, flags, pixel data and embedded palette) and decodes it into palette
//! indices and an opacity mask, in a caller's buffers or in new ones checked against
//! [`Limits`] first; [`Palette`] views 256 RGB colours. Format facts and their sources:
//! `docs/formats/wap32.md`, "PID images" and "Palettes".
//!
//! Pixels are palette indices, rows top to bottom. With RLE (flag 0x20) a byte b above 128
//! skips b - 128 pixels (left transparent), any other byte is followed by b literal
//! indices; without it a byte b above 192 is a run of b - 192 copies of the next byte, any
//! other byte is one pixel. Runs carry on into the next row.
//!
//! Which pixels are transparent: the pixels an RLE image skips, and in an image with the
//! transparent flag (0x01) every pixel of its key index, 0 (the palettes' transparent
//! entry), or the low byte of the header's first user value when flag 0x100 is set. This is
//! the rule of OpenClaw's `libwap` (palette entry 0 transparent, skipped pixels
//! transparent) and of fizary/wap32 (the key index and flag 0x100); see
//! `docs/formats/wap32.md` for the reference decoder that differs.

use std::fmt;

use gamedata_io::{Bytes, Limits};
use zerocopy::FromBytes;

use crate::error::{ArgumentProblem, DataError, ErrorKind, ImageProblem};
use crate::raw::{PID_HEADER_LEN, PidHeader};

/// Bytes of a palette: 256 RGB colours.
pub const PALETTE_LEN: usize = 768;

/// The widest and tallest image accepted, in pixels.
pub const MAX_SIDE: u32 = 65_536;

bitflags::bitflags! {
    /// A PID image's flags. Unknown bits are kept.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct PidFlags: u32 {
        /// Drawn with a transparent key index (see the module's documentation).
        const TRANSPARENT = 0x01;
        /// Kept in video memory (a loading hint).
        const VIDEO_MEMORY = 0x02;
        /// Kept in system memory (a loading hint).
        const SYSTEM_MEMORY = 0x04;
        /// Drawn mirrored left to right.
        const MIRROR = 0x08;
        /// Drawn upside down.
        const INVERT = 0x10;
        /// Pixel data run-length encoded.
        const RLE = 0x20;
        /// A light map: indices are intensities, not colours.
        const LIGHTS = 0x40;
        /// A 768-byte palette ends the file.
        const PALETTE = 0x80;
        /// The key index is the low byte of the first user value.
        const KEY_INDEX = 0x100;
        const _ = !0;
    }
}

/// A 256-colour palette viewed in place: 768 bytes, an RGB triple a colour.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Palette<'data> {
    colours: &'data [[u8; 3]; 256],
}

impl fmt::Debug for Palette<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Palette")
            .field("first", &self.colours.first())
            .finish_non_exhaustive()
    }
}

impl<'data> Palette<'data> {
    /// Views a `.PAL` file (or the end of a PID).
    ///
    /// Returns `Err` ([`ImageProblem::Palette`]) unless `data` is 768 bytes.
    pub fn parse(data: &'data [u8]) -> Result<Self, DataError> {
        let colours = <[[u8; 3]; 256]>::ref_from_bytes(data)
            .map_err(|_| ErrorKind::Image(ImageProblem::Palette { found: data.len() }))?;
        Ok(Palette { colours })
    }

    /// The 256 colours.
    pub fn colours(&self) -> &'data [[u8; 3]; 256] {
        self.colours
    }

    /// Colour `index`.
    pub fn get(&self, index: u8) -> [u8; 3] {
        self.colours
            .get(usize::from(index))
            .copied()
            .unwrap_or_default()
    }
}

/// A PID image viewed in place.
#[derive(Clone, Copy)]
pub struct Pid<'data> {
    header: &'data PidHeader,
    data: &'data [u8],
    palette: Option<Palette<'data>>,
    width: u32,
    height: u32,
}

impl fmt::Debug for Pid<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pid")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("flags", &self.flags())
            .field("offset", &self.offset())
            .field("data_len", &self.data.len())
            .finish()
    }
}

/// An image decoded: palette indices and which pixels are opaque, row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PidPixels {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Palette indices (0 where skipped), `width * height`.
    pub indices: Vec<u8>,
    /// Whether each pixel is drawn, `width * height`.
    pub opaque: Vec<bool>,
}

impl PidPixels {
    /// The pixels as 8-bit RGBA through `palette`: each its index's colour, alpha 255 when
    /// opaque and 0 when transparent (a skipped pixel has index 0's colour).
    pub fn rgba(&self, palette: &Palette<'_>) -> Vec<u8> {
        self.indices
            .iter()
            .zip(&self.opaque)
            .flat_map(|(&i, &opaque)| {
                let [r, g, b] = palette.get(i);
                [r, g, b, if opaque { 255 } else { 0 }]
            })
            .collect()
    }
}

impl<'data> Pid<'data> {
    /// Views a PID file: the header, its size (1 to [`MAX_SIDE`] a side), the pixel data
    /// and, with flag 0x80, the palette in the last 768 bytes. Nothing is decoded.
    ///
    /// Returns `Err` ([`ImageProblem::PidTooShort`]) when the header (and palette) do not
    /// fit, ([`ImageProblem::PidSize`]) for a zero, negative or too large side.
    pub fn parse(data: &'data [u8]) -> Result<Self, DataError> {
        let image = |p| DataError::from(ErrorKind::Image(p));
        let header: &PidHeader = Bytes::new(data).read_at(0).map_err(|_| {
            image(ImageProblem::PidTooShort {
                found: data.len(),
                expected: PID_HEADER_LEN,
            })
        })?;
        let flags = PidFlags::from_bits_retain(header.flags.get());
        let (w, h) = (header.width.get(), header.height.get());
        let side = |v: i32| {
            u32::try_from(v)
                .ok()
                .filter(|&v| (1..=MAX_SIDE).contains(&v))
        };
        let (Some(width), Some(height)) = (side(w), side(h)) else {
            return Err(image(ImageProblem::PidSize {
                width: w,
                height: h,
            }));
        };
        let rest = data.get(PID_HEADER_LEN..).unwrap_or_default();
        let (pixels, palette) = if flags.contains(PidFlags::PALETTE) {
            let split =
                rest.len()
                    .checked_sub(PALETTE_LEN)
                    .ok_or(image(ImageProblem::PidTooShort {
                        found: data.len(),
                        expected: PID_HEADER_LEN.saturating_add(PALETTE_LEN),
                    }))?;
            let (pixels, palette) = rest.split_at(split);
            (pixels, Some(Palette::parse(palette)?))
        } else {
            (rest, None)
        };
        Ok(Pid {
            header,
            data: pixels,
            palette,
            width,
            height,
        })
    }

    /// The header as stored.
    pub fn header(&self) -> &'data PidHeader {
        self.header
    }

    /// The flags.
    pub fn flags(&self) -> PidFlags {
        PidFlags::from_bits_retain(self.header.flags.get())
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Pixels of the image (width times height).
    pub fn pixel_count(&self) -> u64 {
        u64::from(self.width).saturating_mul(u64::from(self.height))
    }

    /// The offset of the image's centre from the point it is drawn at, in pixels (x, y).
    pub fn offset(&self) -> (i32, i32) {
        (self.header.x.get(), self.header.y.get())
    }

    /// The embedded palette (flag 0x80).
    pub fn palette(&self) -> Option<Palette<'data>> {
        self.palette
    }

    /// The pixel data as stored (between the header and the palette).
    pub fn pixel_data(&self) -> &'data [u8] {
        self.data
    }

    /// The index drawn transparent in an image with the transparent flag (see the module's
    /// documentation); `None` without the flag.
    pub fn key_index(&self) -> Option<u8> {
        let flags = self.flags();
        if !flags.contains(PidFlags::TRANSPARENT) {
            return None;
        }
        Some(if flags.contains(PidFlags::KEY_INDEX) {
            self.header.user1.get().to_le_bytes()[0]
        } else {
            0
        })
    }

    /// Decodes into new buffers, after checking that `width * height` bytes of indices
    /// (and as many of mask) are within `limits.max_decoded_bytes`.
    ///
    /// Returns `Err` ([`ErrorKind::Limit`]) before allocating, or as
    /// [`Pid::decode_into`].
    pub fn decode(&self, limits: &Limits) -> Result<PidPixels, DataError> {
        let pixels = self.pixel_count();
        limits
            .check_decoded("a PID image's pixels", pixels.saturating_mul(2))
            .map_err(ErrorKind::Limit)?;
        let len = usize::try_from(pixels).unwrap_or(usize::MAX);
        let mut out = PidPixels {
            width: self.width,
            height: self.height,
            indices: vec![0; len],
            opaque: vec![false; len],
        };
        self.decode_into(&mut out.indices, &mut out.opaque)?;
        Ok(out)
    }

    /// Decodes into `indices` and `opaque`, each `width * height` long, row by row: the
    /// palette index of each pixel (0 where skipped) and whether it is drawn.
    ///
    /// Returns `Err` ([`ArgumentProblem::Buffer`]) for buffers of another length, and
    /// ([`ImageProblem::PidCut`]) when the pixel data ends before the image is filled
    /// (what was decoded stays in the buffers).
    pub fn decode_into(&self, indices: &mut [u8], opaque: &mut [bool]) -> Result<(), DataError> {
        let pixels = self.pixel_count();
        if [indices.len(), opaque.len()]
            .iter()
            .any(|&l| u64::try_from(l).ok() != Some(pixels))
        {
            return Err(ErrorKind::Argument(ArgumentProblem::Buffer {
                found: indices.len().min(opaque.len()),
                expected: pixels,
            })
            .into());
        }
        indices.fill(0);
        opaque.fill(false);
        let filled = if self.flags().contains(PidFlags::RLE) {
            decode_rle(self.data, indices, opaque)
        } else {
            decode_plain(self.data, indices, opaque)
        };
        if let Some(key) = self.key_index() {
            for (o, &i) in opaque.iter_mut().zip(indices.iter()) {
                if i == key {
                    *o = false;
                }
            }
        }
        let filled = u64::try_from(filled).unwrap_or(u64::MAX);
        if filled < pixels {
            return Err(ErrorKind::Image(ImageProblem::PidCut {
                found: self.data.len(),
                filled,
                pixels,
            })
            .into());
        }
        Ok(())
    }
}

/// RLE pixel data into `indices` and `opaque`; returns the pixels filled (skipped ones
/// included).
fn decode_rle(data: &[u8], indices: &mut [u8], opaque: &mut [bool]) -> usize {
    let total = indices.len();
    let (mut at, mut filled) = (0usize, 0usize);
    while filled < total {
        let Some(&b) = data.get(at) else { break };
        at = at.saturating_add(1);
        if b > 128 {
            filled = filled
                .saturating_add(usize::from(b.saturating_sub(128)))
                .min(total);
        } else {
            let n = usize::from(b).min(total.saturating_sub(filled));
            let src = data.get(at..).unwrap_or_default();
            let n = n.min(src.len());
            let end = filled.saturating_add(n);
            if let (Some(dst), Some(mask), Some(src)) = (
                indices.get_mut(filled..end),
                opaque.get_mut(filled..end),
                src.get(..n),
            ) {
                dst.copy_from_slice(src);
                mask.fill(true);
            }
            // Past the data's end when the run was cut: the next read stops the loop.
            at = at.saturating_add(usize::from(b));
            filled = end;
        }
    }
    filled
}

/// Plain (run-coded) pixel data into `indices` and `opaque`; returns the pixels filled.
fn decode_plain(data: &[u8], indices: &mut [u8], opaque: &mut [bool]) -> usize {
    let total = indices.len();
    let (mut at, mut filled) = (0usize, 0usize);
    while filled < total {
        let Some(&b) = data.get(at) else { break };
        at = at.saturating_add(1);
        let (n, index) = if b > 192 {
            let Some(&index) = data.get(at) else { break };
            at = at.saturating_add(1);
            (usize::from(b.saturating_sub(192)), index)
        } else {
            (1, b)
        };
        let end = filled.saturating_add(n).min(total);
        if let (Some(dst), Some(mask)) = (indices.get_mut(filled..end), opaque.get_mut(filled..end))
        {
            dst.fill(index);
            mask.fill(true);
        }
        filled = end;
    }
    filled
}

/// A PID file holding `pixels` (feature `write`): the header (`flags` but for the bits the
/// data decides: RLE when `rle`, the transparent flag when and only when a pixel is
/// transparent, the palette flag with `palette`, never 0x100), the pixel data, the palette. RLE stores transparent pixels as
/// skips; the plain form stores them as index 0 (the key), so an opaque pixel of index 0
/// reads back transparent there. `offset` is the image centre's offset in pixels.
#[cfg(feature = "write")]
pub fn write_pid(
    pixels: &PidPixels,
    offset: (i32, i32),
    flags: PidFlags,
    palette: Option<&[u8; PALETTE_LEN]>,
    rle: bool,
) -> Vec<u8> {
    let data_flags =
        PidFlags::RLE | PidFlags::PALETTE | PidFlags::KEY_INDEX | PidFlags::TRANSPARENT;
    let mut flags = flags.difference(data_flags);
    if rle {
        flags |= PidFlags::RLE;
    }
    if palette.is_some() {
        flags |= PidFlags::PALETTE;
    }
    if pixels.opaque.iter().any(|&o| !o) {
        flags |= PidFlags::TRANSPARENT;
    }
    let side = |v: u32| i32::try_from(v).unwrap_or(i32::MAX);
    let mut out = Vec::new();
    let words = [
        0,
        i32::from_le_bytes(flags.bits().to_le_bytes()),
        side(pixels.width),
        side(pixels.height),
        offset.0,
        offset.1,
        0,
        0,
    ];
    for w in words {
        out.extend_from_slice(&w.to_le_bytes());
    }
    let cells = pixels.indices.iter().zip(&pixels.opaque);
    if rle {
        write_rle(cells, &mut out);
    } else {
        write_plain(cells.map(|(&i, &o)| if o { i } else { 0 }), &mut out);
    }
    if let Some(p) = palette {
        out.extend_from_slice(p);
    }
    out
}

/// RLE pixel data: skips of up to 127 transparent pixels, runs of up to 128 literals.
#[cfg(feature = "write")]
fn write_rle<'a>(cells: impl Iterator<Item = (&'a u8, &'a bool)>, out: &mut Vec<u8>) {
    let mut literals: Vec<u8> = Vec::new();
    let mut skip = 0u8;
    let flush_literals = |literals: &mut Vec<u8>, out: &mut Vec<u8>| {
        for chunk in literals.chunks(128) {
            out.push(u8::try_from(chunk.len()).unwrap_or(128));
            out.extend_from_slice(chunk);
        }
        literals.clear();
    };
    for (&index, &opaque) in cells {
        if opaque {
            if skip > 0 {
                out.push(skip.saturating_add(128));
                skip = 0;
            }
            literals.push(index);
        } else {
            flush_literals(&mut literals, out);
            if skip == 127 {
                out.push(255);
                skip = 0;
            }
            skip = skip.saturating_add(1);
        }
    }
    flush_literals(&mut literals, out);
    if skip > 0 {
        out.push(skip.saturating_add(128));
    }
}

/// Plain pixel data: runs of up to 63 copies, single pixels of index 192 or below.
#[cfg(feature = "write")]
fn write_plain(indices: impl Iterator<Item = u8>, out: &mut Vec<u8>) {
    let mut run: Option<(u8, u8)> = None;
    let flush = |run: Option<(u8, u8)>, out: &mut Vec<u8>| {
        if let Some((index, n)) = run {
            if n == 1 && index <= 192 {
                out.push(index);
            } else {
                out.extend_from_slice(&[n.saturating_add(192), index]);
            }
        }
    };
    for index in indices {
        run = match run {
            Some((i, n)) if i == index && n < 63 => Some((i, n.saturating_add(1))),
            other => {
                flush(other, out);
                Some((index, 1))
            }
        };
    }
    flush(run, out);
}
