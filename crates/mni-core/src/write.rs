//! Writers for group files and maps: the inverse of [`crate::Group`] and [`crate::Map`],
//! used to build synthetic fixtures for tests, benches, fuzz seeds and the demo.

// Writers: their arithmetic is on the lengths of buffers in memory (each at most
// isize::MAX bytes) and small constants; every stored field goes through a checked
// conversion to its width, which refuses what does not fit.
#![allow(clippy::arithmetic_side_effects)]

use zerocopy::IntoBytes;

use crate::error::{DataError, ErrorKind, Result, WriteProblem};
use crate::map::{Actor, MAX_WIDTH, MIN_WIDTH, MapFlags};
use crate::raw::{
    ActorRecord, GROUP_DIRECTORY_LEN, GROUP_NAME_LEN, GROUP_SLOTS, GroupSlot, MAP_TILE_COUNT,
    MapHeader,
};

/// Writes a group file holding `entries` (name, data) in order, data contiguous from byte
/// 4,000, with the ASCII count slot after the last entry when a slot is free (as the game's
/// files have).
///
/// Returns `Err` ([`ErrorKind::Write`]) if a name is empty, longer than 12 bytes, not
/// ASCII or holds a NUL, if there are more than 200 entries, or if the file would pass 4 GiB.
pub fn write_group<'a, I>(entries: I) -> Result<Vec<u8>, DataError>
where
    I: IntoIterator<Item = (&'a str, &'a [u8])>,
{
    let entries: Vec<(&str, &[u8])> = entries.into_iter().collect();
    if entries.len() > GROUP_SLOTS {
        return Err(unwritable(WriteProblem::TooManyEntries {
            count: entries.len(),
        }));
    }
    let mut slots = Vec::with_capacity(GROUP_SLOTS);
    let mut offset = GROUP_DIRECTORY_LEN as u64;
    for (index, (name, data)) in entries.iter().enumerate() {
        let size = u32::try_from(data.len()).ok();
        let start = u32::try_from(offset).ok();
        let (Some(size), Some(start)) = (size, start) else {
            return Err(too_large(offset, data.len()));
        };
        slots.push(GroupSlot {
            name: entry_name(index, name)?,
            offset: start.into(),
            size: size.into(),
        });
        offset += u64::from(size);
    }
    if u32::try_from(offset).is_err() {
        return Err(too_large(offset, 0));
    }
    if slots.len() < GROUP_SLOTS {
        let count = entries.len().to_string();
        slots.push(GroupSlot {
            name: entry_name(entries.len(), &count)?,
            offset: 0.into(),
            size: 0.into(),
        });
    }
    slots.resize(
        GROUP_SLOTS,
        GroupSlot {
            name: [0; GROUP_NAME_LEN],
            offset: 0.into(),
            size: 0.into(),
        },
    );
    let mut out = Vec::with_capacity(usize::try_from(offset).unwrap_or(0));
    out.extend_from_slice(slots.as_bytes());
    for (_, data) in &entries {
        out.extend_from_slice(data);
    }
    Ok(out)
}

fn too_large(offset: u64, adding: usize) -> DataError {
    unwritable(WriteProblem::TooLarge {
        bytes: offset.saturating_add(adding as u64),
    })
}

fn unwritable(problem: WriteProblem) -> DataError {
    ErrorKind::Write(problem).into()
}

/// A name field: 1 to 12 ASCII bytes, no NUL, padded with NULs.
fn entry_name(index: usize, name: &str) -> Result<[u8; GROUP_NAME_LEN], DataError> {
    let bytes = name.as_bytes();
    if bytes.is_empty() || bytes.len() > GROUP_NAME_LEN || !name.is_ascii() || bytes.contains(&0) {
        return Err(unwritable(WriteProblem::EntryName {
            index,
            len: bytes.len(),
        }));
    }
    let mut field = [0u8; GROUP_NAME_LEN];
    for (dst, src) in field.iter_mut().zip(bytes) {
        *dst = *src;
    }
    Ok(field)
}

/// Writes a map: header, actor list, then 32,764 tile values (row-major, `width` a row;
/// `tiles` shorter than that is padded with 0, air).
///
/// Returns `Err` ([`ErrorKind::Write`]) if `width` is not a power of two from 32 to 2048,
/// if there are more than 21,845 actors (the list length is a u16 count of words), or if
/// `tiles` holds more than 32,764 values.
pub fn write_map(
    flags: MapFlags,
    width: u16,
    actors: &[Actor],
    tiles: &[u16],
) -> Result<Vec<u8>, DataError> {
    if !(MIN_WIDTH..=MAX_WIDTH).contains(&width) || !width.is_power_of_two() {
        return Err(unwritable(WriteProblem::MapWidth { width }));
    }
    let words = actors
        .len()
        .checked_mul(3)
        .and_then(|w| u16::try_from(w).ok())
        .ok_or_else(|| {
            unwritable(WriteProblem::TooManyActors {
                count: actors.len(),
            })
        })?;
    if tiles.len() > MAP_TILE_COUNT {
        return Err(unwritable(WriteProblem::TooManyTiles {
            count: tiles.len(),
        }));
    }
    let header = MapHeader {
        flags: flags.to_bits().into(),
        width: width.into(),
        actor_words: words.into(),
    };
    let mut out = Vec::with_capacity(6 + usize::from(words) * 2 + MAP_TILE_COUNT * 2);
    out.extend_from_slice(header.as_bytes());
    for actor in actors {
        let record = ActorRecord {
            kind: actor.kind.to_stored().into(),
            x: actor.x.into(),
            y: actor.y.into(),
        };
        out.extend_from_slice(record.as_bytes());
    }
    let padding = std::iter::repeat_n(0u16, MAP_TILE_COUNT - tiles.len());
    for value in tiles.iter().copied().chain(padding) {
        out.extend_from_slice(&value.to_le_bytes());
    }
    Ok(out)
}
