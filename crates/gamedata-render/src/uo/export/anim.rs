//! Animations exported: every stored direction of every body's action, from anim.mul and
//! anim2 to anim5 (`anims/anim2/0x00C8/03/2/000.png`) and from AnimationFrame*.uop
//! (`anims/uop/0x0190/04/2/000.png`), a folder of frames each.

use std::ops::Range;
use std::sync::atomic::Ordering;

use mul_core::anim::DIRECTIONS;
use mul_core::{
    AnimFileId, AnimationBytes, Animations, BodyType, Limits, MobTypes, UopAnimation, UopAnimations,
};
use rayon::prelude::*;

use super::entries::{Entries, Streams, number, pictures_of};
use super::job::{Budgeted, Job};
use super::run::{Part, Run};
use super::stream::{FromStream, inflate_once};
use super::tally::{DrawError, Drawn, FILE_COST, owned_len};
use crate::RgbaImage;
use crate::uo::anim::{DrawnFrame, group_pictures, uop_body_type, uop_direction_pictures};
use crate::uo::art::ArtHue;

/// Actions the client reads of a UOP body: 0 to 79 (`docs/formats/uo.md`, "Which form").
pub(super) const UOP_ACTIONS: u16 = 80;

/// Exports the MUL files' directions and then the UOP's (its bodies' types from
/// `mobtypes`), as given, into `anims/`; returns the PNG files written from each (MUL,
/// UOP).
pub(super) fn export_anims(
    mul: Option<&AnimationBytes<'_>>,
    uop: Option<&UopAnimations<'_>>,
    mobtypes: Option<&MobTypes>,
    run: &Run<'_>,
) -> (usize, usize) {
    let limits = Limits::default();
    if let Some(files) = mul {
        for file in AnimFileId::ALL {
            if let Some(anim) = files.get(file) {
                export_mul(anim, &format!("anims/{}", file.name()), run, &limits);
            }
        }
    }
    let mul_written = run.tally.written.load(Ordering::Relaxed);
    if let Some(animations) = uop {
        export_uop(mobtypes, animations, "anims/uop", run);
    }
    let all = run.tally.written.load(Ordering::Relaxed);
    (mul_written, all.saturating_sub(mul_written))
}

/// The frames' pictures for writing: an empty frame as a 1 x 1 transparent PNG.
fn frames_of(drawn: Vec<DrawnFrame>) -> Result<Drawn, DrawError> {
    let blank = RgbaImage::new(1, 1, [0; 4])?;
    Ok(Drawn::Frames(
        drawn
            .into_iter()
            .map(|d| {
                if d.picture.width() == 0 || d.picture.height() == 0 {
                    blank.clone()
                } else {
                    d.picture
                }
            })
            .collect(),
    ))
}

/// The RGBA bytes a frame of `width` x `height` pixels counts for: 4 a pixel, and at least
/// [`FILE_COST`], what its PNG file takes on disk, so that frames of no pixel (written as
/// 1 x 1 PNGs) cost their drawing and encoding too: a group of millions of empty frames in
/// a few bytes each is over the budget, not drawn.
fn frame_rgba(width: u32, height: u32) -> u64 {
    u64::from(width)
        .saturating_mul(u64::from(height))
        .saturating_mul(4)
        .max(FILE_COST)
}

/// The folder of entry `n` ([`pack`]) under `folder`: body in hex, action, direction.
fn entry_folder(folder: &str, n: usize) -> String {
    let (body, action, direction) = unpack(n);
    format!("{folder}/{body:#06X}/{action:02}/{direction}")
}

/// One MUL file's directions into `folder` (`anims/anim` ...).
fn export_mul(anim: &Animations<'_>, folder: &str, run: &Run<'_>, limits: &Limits) {
    let name = |n: usize| entry_folder(folder, n);
    let index = anim.index();
    let record = |n: usize| {
        let (body, action, direction) = unpack(n);
        anim.body(body)
            .and_then(|records| records.record(action, direction).ok())
    };
    let entries = Entries {
        numbers: || anim_entries(anim),
        read: |n: usize| match record(n) {
            Some(r) => anim.entry(r).map(|e| e.is_some()),
            None => Ok(false),
        },
        start: |n: usize| {
            record(n)
                .and_then(|r| index.get(usize::try_from(r).ok()?))
                .map_or(0, |r| r.offset.get())
        },
        // The same bytes are the same frames.
        reading: |_: usize| 0u64,
    };
    let order = entries.order(&|n| run.locate(&name(n)), run.tally);
    run.pictures(&order, &entries, &name, |n, job| {
        let (body, action, direction) = unpack(n);
        let Some(group) = anim.group(body, action, direction)? else {
            return Ok(Drawn::Empty);
        };
        let mut rgba = 0u64;
        for frame in group.frames() {
            let frame = frame?;
            rgba = rgba.saturating_add(frame_rgba(frame.width(), frame.height()));
        }
        if let Some(instead) = job.picture(rgba) {
            return Ok(instead);
        }
        frames_of(group_pictures(&group, false, ArtHue::None, limits)?)
    });
}

/// The UOP's directions into `folder` (`anims/uop`): every body 0 to 0xFFFF and action 0
/// to 79 whose entry name one of the files has (the first file having it, as the client
/// reads it; no AnimationSequence.uop replacement: each entry under its own name), its five
/// stored directions with the client's count of frames a direction (the body's type from
/// mobtypes.txt when it lists the body). The entries over one stored stream are decoded in one
/// job, the stream inflated once for all of them ([`inflate_once`]); each picture (entries
/// of one compression, declared length and body type as far as it sets the frames a
/// direction) is decoded once for its five directions and written under each name.
fn export_uop(
    mobtypes: Option<&MobTypes>,
    animations: &UopAnimations<'_>,
    folder: &str,
    run: &Run<'_>,
) {
    // Found once, in parallel (5.2 million names hashed): 4 bytes an entry found.
    let found: Vec<(u16, u16)> = (0..=u16::MAX)
        .into_par_iter()
        .flat_map_iter(|body| {
            (0..UOP_ACTIONS)
                .filter(move |&action| animations.find(body, action).is_some())
                .map(move |action| (body, action))
        })
        .collect();
    // Each entry's stream (the stored bytes it names: entries sharing them are decoded in
    // one job, the stream inflated once) and how it reads them: 16 bytes an entry kept, 56
    // an entry while they are worked out.
    let keys: Vec<((u8, usize, usize), u64)> = found
        .par_iter()
        .enumerate()
        .map(
            |(i, &(body, action))| match animations.stream(body, action) {
                Some(Ok(stream)) => {
                    let inflated = matches!(stream.compression, 1 | 3);
                    let declared = if inflated { stream.declared } else { 0 };
                    let equipment = uop_body_type(mobtypes, body) == BodyType::Equipment;
                    (
                        (stream.file, stream.start, stream.stored.len()),
                        (u64::from(stream.compression) << 33)
                            | (u64::from(equipment) << 32)
                            | u64::from(declared),
                    )
                }
                // An entry whose bytes cannot be read: a stream of its own.
                _ => ((u8::MAX, i, 0), 0),
            },
        )
        .collect();
    let ids: Vec<(u32, u64)> = {
        let mut streams: Vec<(u8, usize, usize)> = keys.iter().map(|&(stream, _)| stream).collect();
        streams.par_sort_unstable();
        streams.dedup();
        keys.iter()
            .map(|(stream, reading)| {
                let id = streams.binary_search(stream).unwrap_or(0);
                (u32::try_from(id).unwrap_or(u32::MAX), *reading)
            })
            .collect()
    };
    drop(keys);
    let id_of = |n: usize| {
        let (body, action, _) = unpack(n);
        found
            .binary_search(&(body, action))
            .ok()
            .and_then(|i| ids.get(i))
            .copied()
            .unwrap_or((u32::MAX, 0))
    };
    let name = |n: usize| entry_folder(folder, n);
    let entries = Entries {
        // An entry's number is its direction 0's; direction d is that number + d.
        numbers: || found.iter().map(|&(body, action)| pack(body, action, 0)),
        read: |_: usize| Ok(true),
        // Its stream, as a number: entries of one stream side by side.
        start: |n: usize| id_of(n).0,
        // Entries of one stream and reading are one picture: the same compression and
        // declared length, and the same body type as far as it sets the frames a
        // direction (equipment or not).
        reading: |n: usize| id_of(n).1,
    };
    let order = entries.order(&|n| run.locate(&name(n)), run.tally);
    let streams = Streams {
        entries: &entries,
        shares: |_: usize, _: usize| true,
    };
    run.parts(&order, &streams, &name, |group, job, part| {
        let pictures = pictures_of(group, &streams);
        let number_at = |within: &Range<usize>| group.get(within.start).map_or(0, |&e| number(e));
        // The pictures inflating the stream (compression 1 and 3), and the others.
        let mut stored: &[u8] = &[];
        let mut declared = Vec::new();
        let mut inflating = Vec::new();
        for within in pictures {
            let (body, action, _) = unpack(number_at(&within));
            match animations.stream(body, action) {
                Some(Ok(stream)) if matches!(stream.compression, 1 | 3) => {
                    stored = stream.stored;
                    declared.push(u64::from(stream.declared));
                    inflating.push(within);
                }
                _ => uop_entry(
                    &Drawing {
                        mobtypes,
                        animations,
                        group,
                        job,
                    },
                    within,
                    None,
                    part,
                ),
            }
        }
        if inflating.is_empty() {
            return;
        }
        let inputs = inflate_once(job, "a UOP animation", stored, &declared);
        for (within, input) in inflating.into_iter().zip(inputs) {
            uop_entry(
                &Drawing {
                    mobtypes,
                    animations,
                    group,
                    job,
                },
                within,
                Some(input),
                part,
            );
        }
    });
}

/// What drawing a job's UOP animation entries reads.
struct Drawing<'a, 'data> {
    mobtypes: Option<&'a MobTypes>,
    animations: &'a UopAnimations<'data>,
    /// The job's group (elements of [`Entries::order`]).
    group: &'a [u64],
    job: &'a Job<'a>,
}

/// Draws the five stored directions of the picture `within` the job's group (its lowest
/// number's body and action), decoded from `input` (its share of the job's inflated
/// stream) or, for `None`, as the entry is stored; each direction handed to `part`.
fn uop_entry(
    drawing: &Drawing<'_, '_>,
    within: Range<usize>,
    input: Option<FromStream>,
    part: &mut dyn FnMut(Part),
) {
    let Drawing {
        mobtypes,
        animations,
        group,
        job,
    } = *drawing;
    let n = group.get(within.start).map_or(0, |&e| number(e));
    let (body, action, _) = unpack(n);
    // The directions to draw: all of them, or those put off from a first drawing.
    let from = (0..DIRECTIONS)
        .find(|&offset| job.wants(offset))
        .unwrap_or(DIRECTIONS);
    let mut every_direction = |drawn| {
        part(Part {
            within: Some(within.clone()),
            offset: from,
            span: DIRECTIONS.saturating_sub(from),
            drawn,
        });
    };
    // The decoders spend the budget too, each held to what is left and what was taken
    // (the inflated stream's bytes taken before it was inflated, whatever its end).
    let decoded = match input {
        Some(FromStream::Instead(drawn)) => return every_direction(Ok(drawn)),
        Some(FromStream::Bytes(inflated, reserved)) => job.decode_within(
            reserved,
            |limits| animations.decoded_from(body, action, inflated, limits),
            |d| owned_len(d.is_decoded(), d.bytes()),
        ),
        None => job.decode_within(
            0,
            |limits| animations.decoded(body, action, limits),
            |d| owned_len(d.is_decoded(), d.bytes()),
        ),
    };
    let decoded = match decoded {
        Ok(Budgeted::Decoded(decoded)) => decoded,
        Ok(Budgeted::Instead(drawn)) => return every_direction(Ok(drawn)),
        Err(e) => return every_direction(Err(e)),
    };
    let animation = match decoded.animation() {
        Ok(animation) => animation,
        Err(e) => return every_direction(Err(e.into())),
    };
    let per = animation.frames_per_direction(uop_body_type(mobtypes, body));
    if per == 0 {
        return every_direction(Ok(Drawn::Empty));
    }
    for (offset, direction) in (0..DIRECTIONS).zip(0u8..) {
        if !job.wants(offset) {
            continue;
        }
        let drawn = uop_direction(&animation, direction, per, job);
        if matches!(drawn, Ok(Drawn::Later)) {
            // This direction and those after it, drawn again alone.
            return part(Part {
                within: Some(within.clone()),
                offset,
                span: DIRECTIONS.saturating_sub(offset),
                drawn,
            });
        }
        part(Part {
            within: Some(within.clone()),
            offset,
            span: 1,
            drawn,
        });
    }
}

/// Stored direction `direction` of a decoded UOP animation, `per` frames a direction, its
/// pixels taken from the budget and held by `job` ([`Job::picture`]).
fn uop_direction(
    animation: &UopAnimation<'_>,
    direction: u8,
    per: u32,
    job: &Job,
) -> Result<Drawn, DrawError> {
    let mut rgba = 0u64;
    for frame in animation.direction(direction, per) {
        // A frame missing from the entry is written too (1 x 1, transparent).
        rgba = rgba.saturating_add(match frame? {
            Some(frame) => frame_rgba(frame.frame().width(), frame.frame().height()),
            None => frame_rgba(0, 0),
        });
    }
    if let Some(instead) = job.picture(rgba) {
        return Ok(instead);
    }
    let drawn = uop_direction_pictures(
        animation,
        direction,
        per,
        false,
        ArtHue::None,
        &Limits::default(),
    )?;
    frames_of(drawn)
}

/// A (body, action, stored direction) as an entry number: body in bits 16 and up, action
/// in bits 3 to 15, direction in bits 0 to 2.
fn pack(body: u16, action: u16, direction: u8) -> usize {
    (usize::from(body) << 16) | (usize::from(action & 0x1FFF) << 3) | usize::from(direction & 7)
}

/// The (body, action, stored direction) of an entry number made by [`pack`].
fn unpack(n: usize) -> (u16, u16, u8) {
    let body = u16::try_from(n >> 16).unwrap_or(u16::MAX);
    let action = u16::try_from((n >> 3) & 0x1FFF).unwrap_or(0);
    let direction = u8::try_from(n & 7).unwrap_or(0);
    (body, action, direction)
}

/// Every (body, action, stored direction) of `anim` whose record lies in its index, as
/// entry numbers ([`pack`]), in order: bodies from 0 to 0xFFFF, each with the actions its
/// block holds in this file (the client's default body types).
fn anim_entries<'a>(anim: &'a Animations<'a>) -> impl Iterator<Item = usize> + 'a {
    (0..=u16::MAX).flat_map(move |body| {
        let actions = anim.body(body).map_or(0, |records| records.actions);
        (0..u16::from(actions)).flat_map(move |action| {
            (0..DIRECTIONS)
                .map(move |direction| pack(body, action, u8::try_from(direction).unwrap_or(0)))
        })
    })
}
