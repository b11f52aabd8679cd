//! The animation writers (the `write` feature): anim.idx and anim.mul from frames, and
//! AnimationFrame*.uop entries and containers, in the layouts the readers take, with
//! synthetic sets (`docs/formats/uo.md`, "Animations").

// Writers: their arithmetic is on the lengths of buffers in memory (each at most
// isize::MAX bytes), sides below 0x8000 and small constants; every stored field goes
// through a checked conversion to its width, which refuses what does not fit.
#![allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use crate::anim::{AnimGroup, BodyType, DIRECTIONS, PALETTE_LEN, RUN_END};
use crate::error::{DataError, ErrorKind, WriteProblem};
use crate::raw::EMPTY;
use crate::uop::name_hash;
use crate::uop::write::{UopWrite, write_uop};

/// The longest run the writer stores: 4,094 pixels, one short of the 12-bit field's 4,095,
/// so that no run header can read as the end marker 0x7FFF7FFF.
const MAX_RUN: usize = 0x0FFE;

/// One frame, as [`write_animations`] takes it.
#[derive(Clone, Copy, Debug)]
pub struct AnimFramePicture<'a> {
    /// Centre x (the frame's left edge is drawn this many pixels left of the mobile).
    pub centre_x: i16,
    /// Centre y (the top edge is drawn `height + centre_y` pixels above the mobile).
    pub centre_y: i16,
    /// Width in pixels, 0 to 0x7FFF (0: an empty frame).
    pub width: u16,
    /// Height in pixels, 0 to 0x7FFF (0: an empty frame).
    pub height: u16,
    /// `width * height` palette indices row by row; `None` where no run covers the pixel
    /// (transparent).
    pub pixels: &'a [Option<u8>],
}

/// One anim.idx record's frame group, as [`write_animations`] takes it.
#[derive(Clone, Copy, Debug)]
pub enum AnimEntry<'a> {
    /// No frames: the record is empty (offset and size 0xFFFFFFFF).
    Empty,
    /// A palette and its frames.
    Group {
        /// The 256 colours.
        palette: &'a [u16; 256],
        /// The frames, in order.
        frames: &'a [AnimFramePicture<'a>],
    },
    /// The same bytes as an earlier record's (a record repeated exactly).
    Repeat(usize),
}

/// anim.idx and anim.mul holding `entries`, entry i under record i: each group its palette,
/// frame count, offsets and frames laid out one after another, each frame's rows as runs of
/// the pixels that are `Some` (at most 4,094 a run), ended by 0x7FFF7FFF.
///
/// Returns `(anim.idx, anim.mul)`, or `Err` ([`ErrorKind::Write`]) for a frame whose side
/// passes 0x7FFF, whose pixels are not width x height, whose runs' x or y (the column less
/// the centre x, the row less the centre y and the height) pass a 10-bit signed number, a
/// repeat of no earlier entry, or an anim.mul past 4 GiB.
pub fn write_animations(entries: &[AnimEntry<'_>]) -> Result<(Vec<u8>, Vec<u8>), DataError> {
    let mut index = Vec::with_capacity(entries.len() * 12);
    let mut data = Vec::new();
    let mut placed: Vec<(u32, u32)> = Vec::with_capacity(entries.len());
    for (number, entry) in entries.iter().enumerate() {
        let bad = |problem| DataError::from(ErrorKind::Write(problem));
        let record = match *entry {
            AnimEntry::Empty => (EMPTY, EMPTY),
            // `placed` holds the entries before this one: a repeat of this or a later
            // one finds nothing.
            AnimEntry::Repeat(earlier) => *placed
                .get(earlier)
                .ok_or(bad(WriteProblem::Repeat { number, earlier }))?,
            AnimEntry::Group { palette, frames } => {
                let group =
                    group_bytes(palette, frames).ok_or(bad(WriteProblem::Picture { number }))?;
                let start = data.len();
                data.extend_from_slice(&group);
                let too_large = || {
                    bad(WriteProblem::TooLarge {
                        what: "anim.mul",
                        found: data.len() as u64,
                    })
                };
                let offset = u32::try_from(start).map_err(|_| too_large())?;
                let size = u32::try_from(group.len()).map_err(|_| too_large())?;
                u32::try_from(data.len())
                    .ok()
                    .filter(|&end| end != EMPTY)
                    .ok_or_else(too_large)?;
                (offset, size)
            }
        };
        placed.push(record);
        for word in [record.0, record.1, 0] {
            index.extend_from_slice(&word.to_le_bytes());
        }
    }
    Ok((index, data))
}

/// A frame group's bytes; `None` for a frame that cannot be stored.
fn group_bytes(palette: &[u16; 256], frames: &[AnimFramePicture<'_>]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(PALETTE_LEN + 4 + 4 * frames.len());
    for colour in palette {
        out.extend_from_slice(&colour.to_le_bytes());
    }
    out.extend_from_slice(&u32::try_from(frames.len()).ok()?.to_le_bytes());
    let table = out.len();
    out.resize(table + 4 * frames.len(), 0);
    for (i, frame) in frames.iter().enumerate() {
        let offset = u32::try_from(out.len() - PALETTE_LEN).ok()?;
        out[table + 4 * i..table + 4 * i + 4].copy_from_slice(&offset.to_le_bytes());
        frame_bytes(&mut out, frame)?;
    }
    Some(out)
}

/// Appends a frame's header and runs; `None` for a frame that cannot be stored.
fn frame_bytes(out: &mut Vec<u8>, frame: &AnimFramePicture<'_>) -> Option<()> {
    let (w, h) = (usize::from(frame.width), usize::from(frame.height));
    if frame.width > 0x7FFF || frame.height > 0x7FFF || frame.pixels.len() != w * h {
        return None;
    }
    for v in [
        frame.centre_x,
        frame.centre_y,
        i16::try_from(frame.width).ok()?,
        i16::try_from(frame.height).ok()?,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    if w > 0 && h > 0 {
        for (row, line) in frame.pixels.chunks_exact(w).enumerate() {
            let mut column = 0;
            while column < w {
                if line[column].is_none() {
                    column += 1;
                    continue;
                }
                let len = line[column..]
                    .iter()
                    .take_while(|p| p.is_some())
                    .count()
                    .min(MAX_RUN);
                let x = i32::try_from(column).ok()? - i32::from(frame.centre_x);
                let y =
                    i32::try_from(row).ok()? - i32::from(frame.centre_y) - i32::from(frame.height);
                if !(-512..=511).contains(&x) || !(-512..=511).contains(&y) {
                    return None;
                }
                let field = |v: i32| u32::from_le_bytes(v.to_le_bytes()) & 0x3FF;
                let header = (field(x) << 22) | (field(y) << 12) | u32::try_from(len).ok()?;
                out.extend_from_slice(&header.to_le_bytes());
                out.extend(line[column..column + len].iter().map(|p| p.unwrap_or(0)));
                column += len;
            }
        }
    }
    out.extend_from_slice(&RUN_END.to_le_bytes());
    Some(())
}

/// The bodies [`synthetic_animations`] writes: two of the high group (1 and 2), one of the
/// low group (201) and one of the people group (400), as anim.mul's default types put them.
pub const SYNTHETIC_BODIES: [u16; 4] = [1, 2, 201, 400];
/// Actions each synthetic body has (0 to 2; its other actions' records are empty).
pub const SYNTHETIC_ACTIONS: u16 = 3;

/// The anim.idx record of `body`'s `action` and stored `direction` in anim.mul, as its
/// default type puts it.
fn record_of(body: u16, action: u16, direction: usize) -> usize {
    let (group, _) = BodyType::of_body(crate::anim::AnimFileId::Anim, body).records(0);
    let first = group
        .first_record(body)
        .and_then(|f| usize::try_from(f).ok())
        .unwrap_or(0);
    first + usize::from(action) * DIRECTIONS + direction
}

/// A synthetic anim.idx and anim.mul, `(index, data)`: bodies 1, 2, 201 and 400
/// ([`SYNTHETIC_BODIES`]), actions 0 to 2 each, 5 directions, each group 1 to 4 frames of
/// 3 to 26 x 4 to 31 pixels (a blob with transparent corners and holes, palette index 0,
/// black, at its centre; any other drawn pixel (x, y) indexes entry 1 + (s + x + 3y) mod
/// 255 for a shade s from 0 to 199 of the frame's own), its own palette (entries 1 to 255
/// random 15-bit colours, none 0; entry 7's bit 15 set too, which the client ignores).
/// Body 2's action 0 direction 0 repeats body 1's (an exact repeat); body 1's action 2
/// direction 4 is empty; body 400's action 1 direction 2 has an empty frame (width 0)
/// between two others. The index holds 35,175 records (body 400's block ends there); the
/// records of the other actions are empty. The same seed gives the same bytes.
// Values are masked or below 256: the casts cut nothing.
#[allow(clippy::cast_possible_truncation)]
pub fn synthetic_animations(seed: u64) -> (Vec<u8>, Vec<u8>) {
    let mut next = crate::synth::picture_numbers(seed, crate::synth::PictureSet::Animations);
    /// Centre x, centre y, width, height, pixels.
    type Frame = (i16, i16, u16, u16, Vec<Option<u8>>);
    struct Group {
        record: usize,
        palette: Box<[u16; 256]>,
        frames: Vec<Frame>,
    }
    let mut groups = Vec::new();
    for body in SYNTHETIC_BODIES {
        for action in 0..SYNTHETIC_ACTIONS {
            for direction in 0..DIRECTIONS {
                let mut palette = Box::new([0u16; 256]);
                for colour in palette.iter_mut().skip(1) {
                    *colour = ((next() & 0x7FFF) as u16).max(1);
                }
                palette[7] |= 0x8000;
                let with_empty = body == 400 && action == 1 && direction == 2;
                let count = if with_empty {
                    3
                } else {
                    1 + (next() % 4) as usize
                };
                let frames = (0..count)
                    .map(|f| {
                        let empty = with_empty && f == 1;
                        let (w, h) = if empty {
                            (0, 0)
                        } else {
                            (3 + (next() % 24) as usize, 4 + (next() % 28) as usize)
                        };
                        let cx = (w / 2) as i16;
                        let cy = -((h / 4) as i16) - (next() % 3) as i16;
                        let shade = (next() % 200) as usize;
                        let pixels = (0..w * h)
                            .map(|i| {
                                let (x, y) = (i % w, i / w);
                                let (dx, dy) =
                                    (2 * x as i64 - w as i64 + 1, 2 * y as i64 - h as i64 + 1);
                                let (rx, ry) = (w as i64, h as i64);
                                // Inside the ellipse of the frame, but for a hole every 5th pixel
                                // of every 3rd row.
                                let inside =
                                    dx * dx * ry * ry + dy * dy * rx * rx <= rx * rx * ry * ry;
                                let hole = y % 3 == 1 && x % 5 == 2;
                                if !inside || hole {
                                    None
                                } else if x == w / 2 && y == h / 2 {
                                    Some(0)
                                } else {
                                    Some((1 + (shade + x + 3 * y) % 255) as u8)
                                }
                            })
                            .collect();
                        (cx, cy, w as u16, h as u16, pixels)
                    })
                    .collect();
                groups.push(Group {
                    record: record_of(body, action, direction),
                    palette,
                    frames,
                });
            }
        }
    }
    let pictures: Vec<Vec<AnimFramePicture<'_>>> = groups
        .iter()
        .map(|g| {
            g.frames
                .iter()
                .map(|(cx, cy, w, h, pixels)| AnimFramePicture {
                    centre_x: *cx,
                    centre_y: *cy,
                    width: *w,
                    height: *h,
                    pixels,
                })
                .collect()
        })
        .collect();
    let last = record_of(400, 0, 0) + usize::from(AnimGroup::People.actions()) * DIRECTIONS;
    let mut entries = vec![AnimEntry::Empty; last];
    for (group, frames) in groups.iter().zip(&pictures) {
        entries[group.record] = AnimEntry::Group {
            palette: &group.palette,
            frames,
        };
    }
    entries[record_of(2, 0, 0)] = AnimEntry::Repeat(record_of(1, 0, 0));
    entries[record_of(1, 2, 4)] = AnimEntry::Empty;
    // Every frame above is within the writer's bounds.
    write_animations(&entries).unwrap_or_default()
}

/// One frame of a UOP animation entry, as [`write_uop_animation`] takes it.
#[derive(Clone, Copy, Debug)]
pub struct UopFramePicture<'a> {
    /// The record's group (action) field.
    pub group: u16,
    /// The frame number, from 1 (through all five directions; numbers must rise).
    pub number: u16,
    /// The frame's own 256 colours (0 is transparent to the client here).
    pub palette: &'a [u16; 256],
    /// The frame.
    pub picture: AnimFramePicture<'a>,
}

/// How [`write_uop_animations`] stores its entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UopAnimCompression {
    /// Compression 0: as is.
    None,
    /// Compression 1: a zlib stream.
    Zlib,
    /// Compression 3: a zlib stream of `gump::bwt::compress`'s
    /// output.
    ZlibBwt,
}

impl UopAnimCompression {
    /// The entry's compression value: 0, 1 or 3.
    pub fn value(self) -> u16 {
        match self {
            UopAnimCompression::None => 0,
            UopAnimCompression::Zlib => 1,
            UopAnimCompression::ZlibBwt => 3,
        }
    }
}

/// "AMOU", the first word of the entries the clients' files hold (nothing reads it).
const UOP_ANIM_MAGIC: &[u8; 4] = b"AMOU";

/// A decoded AnimationFrame*.uop entry holding `frames` (`docs/formats/uo.md`,
/// "Animations", "UOP animations"): 40 header bytes ("AMOU", version 1, the entry's
/// length, then zeros; the frame count at byte 32 and the table's offset, 40, at byte 36),
/// one 16-byte record a frame in the order given, then each frame's palette and frame
/// bytes (runs as [`write_animations`] writes them), one after another in the same order.
///
/// Returns `Err` ([`ErrorKind::Write`]) for frame numbers that do not rise from 1, a frame
/// that cannot be stored (as [`write_animations`]), or an entry past 4 GiB.
pub fn write_uop_animation(frames: &[UopFramePicture<'_>]) -> Result<Vec<u8>, DataError> {
    let bad = |number: usize| DataError::from(ErrorKind::Write(WriteProblem::Picture { number }));
    let table = crate::anim::UOP_ANIM_HEADER_LEN;
    let record_len = crate::anim::UOP_FRAME_RECORD_LEN;
    let data_start = table + record_len * frames.len();
    let mut out = vec![0u8; data_start];
    let mut previous = 0u16;
    for (i, frame) in frames.iter().enumerate() {
        if frame.number <= previous {
            return Err(bad(i));
        }
        previous = frame.number;
        let at = out.len();
        let place = table + record_len * i;
        let offset = u32::try_from(at - place).map_err(|_| bad(i))?;
        for colour in frame.palette {
            out.extend_from_slice(&colour.to_le_bytes());
        }
        frame_bytes(&mut out, &frame.picture).ok_or_else(|| bad(i))?;
        let record = &mut out[place..place + record_len];
        record[0..2].copy_from_slice(&frame.group.to_le_bytes());
        record[2..4].copy_from_slice(&frame.number.to_le_bytes());
        record[12..16].copy_from_slice(&offset.to_le_bytes());
    }
    let too_large = || {
        DataError::from(ErrorKind::Write(WriteProblem::TooLarge {
            what: "a UOP animation",
            found: out.len() as u64,
        }))
    };
    let total = u32::try_from(out.len()).map_err(|_| too_large())?;
    let count = i32::try_from(frames.len()).map_err(|_| too_large())?;
    let table_word = u32::try_from(table).map_err(|_| too_large())?;
    out[0..4].copy_from_slice(UOP_ANIM_MAGIC);
    out[4..8].copy_from_slice(&1u32.to_le_bytes());
    out[8..12].copy_from_slice(&total.to_le_bytes());
    out[32..36].copy_from_slice(&count.to_le_bytes());
    out[36..40].copy_from_slice(&table_word.to_le_bytes());
    Ok(out)
}

/// An AnimationFrame*.uop container holding `entries`, each `(body, action, decoded
/// entry)` (as [`write_uop_animation`] makes them) under
/// [`uop_anim_entry_name`](crate::anim::uop_anim_entry_name), stored `how`, in the order
/// given, with their Adler-32s.
///
/// Returns `Err` ([`ErrorKind::Write`]) for an entry or a container past 4 GiB.
pub fn write_uop_animations(
    entries: &[(u16, u16, Vec<u8>)],
    how: UopAnimCompression,
) -> Result<Vec<u8>, DataError> {
    let named: Vec<(String, &[u8])> = entries
        .iter()
        .map(|(body, action, bytes)| {
            (
                crate::anim::uop_anim_entry_name(*body, *action),
                bytes.as_slice(),
            )
        })
        .collect();
    write_named_uop(&named, how)
}

/// An AnimationSequence.uop holding `entries`, each `(body, decoded entry)` (a u32 body,
/// 48 bytes, an i32 count and 72-byte records: `docs/formats/uo.md`, "UOP animations")
/// under [`uop_sequence_entry_name`](crate::anim::uop_sequence_entry_name), stored `how`.
///
/// Returns `Err` as [`write_uop_animations`].
pub fn write_uop_sequences(
    entries: &[(u32, Vec<u8>)],
    how: UopAnimCompression,
) -> Result<Vec<u8>, DataError> {
    let named: Vec<(String, &[u8])> = entries
        .iter()
        .map(|(body, bytes)| {
            (
                crate::anim::uop_sequence_entry_name(*body),
                bytes.as_slice(),
            )
        })
        .collect();
    write_named_uop(&named, how)
}

/// A container of `entries` (name, decoded bytes) stored `how`, in the order given.
fn write_named_uop(
    entries: &[(String, &[u8])],
    how: UopAnimCompression,
) -> Result<Vec<u8>, DataError> {
    use std::io::Write as _;
    let too_large = |found: usize| {
        DataError::from(ErrorKind::Write(WriteProblem::TooLarge {
            what: "a UOP animation container",
            found: found as u64,
        }))
    };
    let mut stored = Vec::with_capacity(entries.len());
    for (_, plain) in entries {
        // What the zlib stream decodes to (for compression 3, the BWT stage's input).
        let input = match how {
            UopAnimCompression::ZlibBwt => crate::gump::bwt::compress(plain)?,
            UopAnimCompression::None | UopAnimCompression::Zlib => plain.to_vec(),
        };
        let declared = u32::try_from(input.len()).map_err(|_| too_large(input.len()))?;
        let bytes = if how == UopAnimCompression::None {
            input
        } else {
            let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
            // Writing into a Vec cannot fail.
            z.write_all(&input).map_err(|_| too_large(input.len()))?;
            z.finish().map_err(|_| too_large(input.len()))?
        };
        stored.push((bytes, declared));
    }
    let total: usize = stored.iter().map(|(b, _)| b.len()).sum();
    if total as u64 >= u64::from(u32::MAX) {
        return Err(too_large(total));
    }
    let list: Vec<UopWrite<'_>> = entries
        .iter()
        .zip(&stored)
        .map(|((name, _), (bytes, declared))| UopWrite {
            hash: name_hash(name),
            data: bytes,
            stored_as: (how != UopAnimCompression::None).then_some((how.value(), *declared)),
        })
        .collect();
    Ok(write_uop(&list, list.len()))
}

/// The body and actions [`synthetic_uop_animations`] writes.
pub const SYNTHETIC_UOP_ENTRIES: [(u16, u16); 3] = [(1, 0), (1, 2), (400, 4)];

/// A synthetic AnimationFrame1.uop stored `how`, holding [`SYNTHETIC_UOP_ENTRIES`]: body 1
/// action 0 with 2 frames a direction (numbers 1 to 10), body 1 action 2 with 3 a
/// direction but frames 5 and 6 missing (so direction 1's places 1 and 2 are empty) and
/// body 400 action 4 with 1 a direction (numbers 1 to 5). Each frame has its own palette
/// (entry 0 is 0, transparent; entry 1 is 0x7FFF, white; the others random 15-bit colours,
/// none 0) and w = 2 to 17 x h = 3 to 18
/// pixels, its centre at (w / 2, -(h / 3)); every pixel whose column and row add up to 3
/// (mod 4) is transparent, the others drawn, the middle one, (w / 2, h / 2), when drawn,
/// indexing colour 0. The same seed gives the same bytes.
// Values are masked or below 256: the casts cut nothing.
#[allow(clippy::cast_possible_truncation)]
pub fn synthetic_uop_animations(seed: u64, how: UopAnimCompression) -> Vec<u8> {
    let mut next = crate::synth::picture_numbers(seed, crate::synth::PictureSet::UopAnimations);
    let mut entries = Vec::new();
    for (body, action) in SYNTHETIC_UOP_ENTRIES {
        let (per, missing): (u16, &[u16]) = match (body, action) {
            (1, 0) => (2, &[]),
            (1, 2) => (3, &[5, 6]),
            _ => (1, &[]),
        };
        let mut frames = Vec::new();
        for number in 1..=per * 5 {
            if missing.contains(&number) {
                continue;
            }
            let mut palette = Box::new([0u16; 256]);
            for colour in palette.iter_mut().skip(1) {
                *colour = ((next() & 0x7FFF) as u16).max(1);
            }
            palette[1] = 0x7FFF;
            let (w, h) = (2 + (next() % 16) as usize, 3 + (next() % 16) as usize);
            let pixels: Vec<Option<u8>> = (0..w * h)
                .map(|i| {
                    let (x, y) = (i % w, i / w);
                    if (x + y) % 4 == 3 {
                        None
                    } else if x == w / 2 && y == h / 2 {
                        Some(0)
                    } else {
                        Some((1 + (x * 7 + y * 3) % 255) as u8)
                    }
                })
                .collect();
            frames.push((
                number,
                palette,
                (w / 2) as i16,
                -((h / 3) as i16),
                w,
                h,
                pixels,
            ));
        }
        let pictures: Vec<UopFramePicture<'_>> = frames
            .iter()
            .map(|(number, palette, cx, cy, w, h, pixels)| UopFramePicture {
                group: action,
                number: *number,
                palette,
                picture: AnimFramePicture {
                    centre_x: *cx,
                    centre_y: *cy,
                    width: *w as u16,
                    height: *h as u16,
                    pixels,
                },
            })
            .collect();
        // Every frame above is within the writer's bounds.
        entries.push((
            body,
            action,
            write_uop_animation(&pictures).unwrap_or_default(),
        ));
    }
    write_uop_animations(&entries, how).unwrap_or_default()
}
