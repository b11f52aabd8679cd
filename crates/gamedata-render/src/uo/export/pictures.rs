//! The single pictures exported: art (land tiles and items), gumps and texture maps,
//! each set's entries sorted into pictures and drawn by the renderers of
//! [`crate::uo::art`], [`crate::uo::gump`] and [`crate::uo::texmap`].

use std::ops::Range;

use mul_core::art::ITEM_BASE;
use mul_core::{Art, Gumps, InflateError, Limits, Texmaps};

use super::entries::{Entries, Streams, number, numbered, patched_bit, pictures_of};
use super::job::{Budgeted, Job};
use super::run::{Part, Run};
use super::stream::{FromStream, inflate_once};
use super::tally::{DrawError, Drawn, owned_len};
use crate::uo::art::{ArtHue, item_picture, land_picture};
use crate::uo::gump::{GumpHue, gump_picture};
use crate::uo::texmap::texmap_picture;

/// The top folders of an art export.
pub(super) const ART_FOLDERS: [&str; 2] = ["land", "items"];

/// Land tiles into `land/0x0003.png`, items into `items/0x0EED.png` (numbered from
/// [`ITEM_BASE`]).
pub(super) fn export_art(art: &Art<'_>, run: &Run<'_>) {
    let name = |number: usize| match number.checked_sub(ITEM_BASE) {
        None => format!("land/{number:#06X}.png"),
        Some(id) => format!("items/{id:#06X}.png"),
    };
    let index = art.index();
    let range = numbered(art.len(), run.tally);
    let entries = Entries {
        numbers: || range.clone(),
        read: |n: usize| art.entry(entry_number(n)).map(|e| e.is_some()),
        // A patched number's bytes lie in verdata.mul: told apart by `reading`.
        start: |n: usize| match art.patch(entry_number(n)) {
            Some(patch) => patch.offset.get(),
            None => index.get(n).map_or(0, |r| r.offset.get()),
        },
        // Land tiles and items read the same bytes differently.
        reading: |n: usize| u64::from(n >= ITEM_BASE) | patched_bit(art.patch(entry_number(n))),
    };
    let order = entries.order(&|n| run.locate(&name(n)), run.tally);
    let limits = Limits::default();
    run.pictures(&order, &entries, &name, |number, job| {
        let picture = match number.checked_sub(ITEM_BASE) {
            None => {
                let id = u16::try_from(number).unwrap_or(u16::MAX);
                let Some(land) = art.land(id)? else {
                    return Ok(Drawn::Empty);
                };
                if let Some(instead) = job.picture(44 * 44 * 4) {
                    return Ok(instead);
                }
                land_picture(&land, ArtHue::None)?
            }
            Some(_) => {
                let Some(item) = art.item_at(entry_number(number))? else {
                    return Ok(Drawn::Empty);
                };
                let pixels = u64::from(item.width()).saturating_mul(u64::from(item.height()));
                if pixels == 0 {
                    return Ok(Drawn::Empty);
                }
                if let Some(instead) = job.picture(pixels.saturating_mul(4)) {
                    return Ok(instead);
                }
                item_picture(&item, ArtHue::None, &limits)?
            }
        };
        Ok(Drawn::Picture(picture))
    });
}

/// Texture maps into `texmaps/0x0012.png`.
pub(super) fn export_texmaps(texmaps: &Texmaps<'_>, run: &Run<'_>) {
    let name = |id: usize| format!("texmaps/{id:#06X}.png");
    let index = texmaps.index();
    let range = numbered(texmaps.len(), run.tally);
    let entries = Entries {
        numbers: || range.clone(),
        read: |n: usize| texmaps.entry(entry_number(n)).map(|e| e.is_some()),
        start: |n: usize| index.get(n).map_or(0, |r| r.offset.get()),
        // The same bytes are the same texture map.
        reading: |_: usize| 0u64,
    };
    let order = entries.order(&|n| run.locate(&name(n)), run.tally);
    run.pictures(&order, &entries, &name, |id, job| {
        let Some(texmap) = texmaps.texmap(u32::try_from(id).unwrap_or(u32::MAX))? else {
            return Ok(Drawn::Empty);
        };
        let side = u64::from(texmap.side());
        if let Some(instead) = job.picture(side.saturating_mul(side).saturating_mul(4)) {
            return Ok(instead);
        }
        Ok(Drawn::Picture(texmap_picture(&texmap)?))
    });
}

/// Gumps into `gumps/0x01F4.png`: the compressed gumps over one stored stream decoded in
/// one job, the stream inflated once for all of them.
pub(super) fn export_gumps(gumps: &Gumps<'_>, run: &Run<'_>) {
    let name = |id: usize| format!("gumps/{id:#06X}.png");
    let index = gumps.index();
    let range = numbered(gumps.len(), run.tally);
    let entries = Entries {
        numbers: || range.clone(),
        // A compressed gump's stored bytes are its zlib stream.
        read: |n: usize| gumps.stored(entry_number(n)).map(|e| e.is_some()),
        // A patched id's bytes lie in verdata.mul: told apart by `reading`.
        start: |n: usize| match gumps.patch(entry_number(n)) {
            Some(patch) => patch.offset.get(),
            None => index.get(n).map_or(0, |r| r.offset.get()),
        },
        // Gumps of different sizes read the same bytes differently; compressed gumps
        // over one stream (their size inside it) by their compression and the
        // length they declare it decodes to.
        reading: |n: usize| match gumps.patch(entry_number(n)) {
            Some(patch) => u64::from(patch.extra.get()) | patched_bit(Some(patch)),
            None => match gumps.compressed_stream(entry_number(n)) {
                Ok(Some(stream)) => {
                    COMPRESSED_BIT
                        | (u64::from(stream.compression == 3) << 32)
                        | u64::from(stream.declared)
                }
                _ if gumps.is_compressed(entry_number(n)) => COMPRESSED_BIT | (1 << 39),
                _ => u64::from(index.get(n).map_or(0, |r| r.extra.get())),
            },
        },
    };
    let order = entries.order(&|n| run.locate(&name(n)), run.tally);
    // The compressed gumps over one stream are decoded in one job, the stream
    // inflated once for all of them.
    let streams = Streams {
        entries: &entries,
        shares: |a: usize, b: usize| {
            gumps.is_compressed(entry_number(a)) && gumps.is_compressed(entry_number(b))
        },
    };
    run.parts(&order, &streams, &name, |group, job, part| {
        let Some(first) = group.first().map(|&e| number(e)) else {
            return;
        };
        if !gumps.is_compressed(entry_number(first)) {
            let drawn = draw_gump(gumps, first, job, Ok(Vec::new()), 0);
            return part(Part {
                within: None,
                offset: 0,
                span: 1,
                drawn,
            });
        }
        // Its pictures: the same compression and declared length each.
        let pictures = pictures_of(group, &streams);
        let stream_of = |within: &Range<usize>| {
            let id = group.get(within.start).map_or(usize::MAX, |&e| number(e));
            (id, gumps.compressed_stream(entry_number(id)))
        };
        // Each picture's stream: one for all of them, as entries over one start have one
        // stored length (others overlap them, errors); a stream of another length all the
        // same is inflated on its own.
        let mut streams: Vec<SharedGumps<'_>> = Vec::new();
        for within in &pictures {
            match stream_of(within) {
                (_, Ok(Some(stream))) => {
                    let same = |s: &[u8]| {
                        std::ptr::eq(s.as_ptr(), stream.stored.as_ptr())
                            && s.len() == stream.stored.len()
                    };
                    let at = match streams.iter().position(|(s, _, _)| same(s)) {
                        Some(at) => at,
                        None => {
                            streams.push((stream.stored, Vec::new(), Vec::new()));
                            streams.len().saturating_sub(1)
                        }
                    };
                    if let Some((_, declared, inflating)) = streams.get_mut(at) {
                        declared.push(u64::from(stream.declared));
                        inflating.push(within.clone());
                    }
                }
                (_, Ok(None)) => part(Part {
                    within: Some(within.clone()),
                    offset: 0,
                    span: 1,
                    drawn: Ok(Drawn::Empty),
                }),
                (_, Err(e)) => part(Part {
                    within: Some(within.clone()),
                    offset: 0,
                    span: 1,
                    drawn: Err(e.into()),
                }),
            }
        }
        for (stored, declared, inflating) in streams {
            let inputs = inflate_once(job, "a gump's zlib stream", stored, &declared);
            for (within, input) in inflating.into_iter().zip(inputs) {
                let id = group.get(within.start).map_or(usize::MAX, |&e| number(e));
                let drawn = match input {
                    FromStream::Instead(drawn) => Ok(drawn),
                    FromStream::Bytes(inflated, reserved) => {
                        draw_gump(gumps, id, job, inflated, reserved)
                    }
                };
                part(Part {
                    within: Some(within),
                    offset: 0,
                    span: 1,
                    drawn,
                });
            }
        }
    });
}

/// A stream some compressed gumps share, the lengths they declare and their pictures'
/// places in the job's group.
type SharedGumps<'a> = (&'a [u8], Vec<u64>, Vec<Range<usize>>);

/// Bit 40 of a gump's reading when it is stored compressed (below it: a gump stored as is,
/// its size word and [`patched_bit`]).
const COMPRESSED_BIT: u64 = 1 << 40;

/// Draws gump `id` within the budget: decoded from `inflated`, its zlib stream's output
/// (for a gump stored compressed; `reserved` bytes of the budget taken for it), or in
/// place. A compressed gump's BWT stage spends the budget too, held to what is left.
fn draw_gump(
    gumps: &Gumps<'_>,
    id: usize,
    job: &Job,
    inflated: Result<Vec<u8>, InflateError>,
    reserved: u64,
) -> Result<Drawn, DrawError> {
    let id32 = u32::try_from(id).unwrap_or(u32::MAX);
    let decoded = match job.decode_within(
        reserved,
        |limits| gumps.decoded_from(id32, inflated, limits),
        |d| owned_len(d.is_decoded(), d.bytes()),
    )? {
        Budgeted::Decoded(decoded) => decoded,
        Budgeted::Instead(drawn) => return Ok(drawn),
    };
    let gump = decoded.gump()?;
    let pixels = u64::from(gump.width()).saturating_mul(u64::from(gump.height()));
    if let Some(instead) = job.picture(pixels.saturating_mul(4)) {
        return Ok(instead);
    }
    Ok(Drawn::Picture(gump_picture(
        &gump,
        GumpHue::default(),
        &Limits::default(),
    )?))
}

/// Entry `n` as mul-core numbers index entries (`u32`); an `n` past `u32::MAX` is past
/// every index, as `u32::MAX` is.
fn entry_number(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
