//! TexTerr.def: its text resolved against an index of some records, checked against the
//! client's loop over an array of entries.

// Counts and ids are below 65,536: the casts cut nothing.
#![allow(clippy::cast_possible_truncation)]

use mul_core::TexTerrDef;
use mul_core::def::{def_lines, read_group, read_int};

/// Reads `data` as a record count (a little-endian u16) and TexTerr.def's text: the
/// resolved ids sorted, each sent to another id inside the index, and every id's source
/// equal to what the client's loop over an array of entries gives (the text split by the
/// same reader); ids past the index their own. Cost: the text's lines times their members,
/// and an array of at most 65,535 entries.
pub fn def_text(data: &[u8]) -> u64 {
    let (count, text) = match data {
        [a, b, rest @ ..] => (usize::from(u16::from_le_bytes([*a, *b])), rest),
        _ => (0, data),
    };
    let def = TexTerrDef::resolve(text, count);
    let redirects = def.redirects();
    assert!(redirects.windows(2).all(|w| w[0].id < w[1].id));
    assert!(redirects.iter().all(|r| r.id != r.source));
    assert!(
        redirects
            .iter()
            .all(|r| (r.id as usize) < count && (r.source as usize) < count)
    );
    // The client's loop, written out over an array.
    let lossy = String::from_utf8_lossy(text);
    let mut entries: Vec<u32> = (0..count as u32).collect();
    let mut lines = 0;
    for words in def_lines(&lossy, 2) {
        lines += 1;
        let Ok(id) = usize::try_from(read_int(words[0])) else {
            continue;
        };
        if id >= count {
            continue;
        }
        let Some(group) = read_group(words[1]) else {
            continue;
        };
        for member in group {
            if let Ok(member) = usize::try_from(member)
                && member < count
            {
                entries[id] = entries[member];
            }
        }
    }
    assert_eq!(def.lines(), lines);
    for (id, want) in entries.iter().enumerate() {
        assert_eq!(def.source(id as u32), *want, "{id}");
    }
    for past in [count as u32, u32::MAX] {
        assert_eq!(def.source(past), past);
    }
    (redirects.len() + lines) as u64
}
