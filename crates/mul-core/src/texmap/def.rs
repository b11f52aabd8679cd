//! TexTerr.def: texture maps the client reads from another texture map's entry.
//!
//! Each line the client keeps is a texture map id and a group of ids in braces, `6 {2}`
//! (words after the group play no part). When the client loads texmaps.mul it goes through
//! the lines in the file's order: for a line whose id is one of the index's records, each
//! member of the group that is one too, in turn, replaces the id's entry with the member's
//! entry as it stands then. So the last member inside the index wins, an id with an entry
//! of its own is replaced all the same, and a member an earlier line replaced lends what
//! it was given. The text is read as gump.def's ([`gump::def`](crate::gump::def)), with 2
//! words a line at least.
//!
//! Memory: 8 bytes an id a line replaces, the words of one line at a time; work: each
//! line's members once, each a lookup among the ids replaced so far.
//!
//! Source: `docs/formats/uo.md`, "Texture maps" (ClassicUO's `TexmapsLoader.Load` and
//! `DefReader`).

use std::collections::BTreeMap;

use crate::def::{def_lines, read_group, read_int};

/// A texture map read from another's entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexmapRedirect {
    /// The texture map id a land tile names.
    pub id: u32,
    /// The id whose entry in texidx.mul it is read from.
    pub source: u32,
}

/// TexTerr.def resolved against a texture map index: the ids read from another's entry.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TexTerrDef {
    /// Sorted by id, one per id, none to itself.
    redirects: Vec<TexmapRedirect>,
    /// Lines read (kept by the client's rules: 2 words or more).
    lines: usize,
}

impl TexTerrDef {
    /// Resolves TexTerr.def's text (`text`, UTF-8; other bytes read as U+FFFD) against an
    /// index of `records` records (ids 0 to `records - 1`; [`crate::Texmaps::len`]) as the
    /// client does (see the module's documentation). Never fails: what the client skips is
    /// skipped.
    pub fn resolve(text: &[u8], records: usize) -> TexTerrDef {
        let text = String::from_utf8_lossy(text);
        let inside = |word: i32| {
            usize::try_from(word)
                .ok()
                .filter(|&i| i < records)
                .and_then(|i| u32::try_from(i).ok())
        };
        // The entry each id replaced so far is read from.
        let mut entries: BTreeMap<u32, u32> = BTreeMap::new();
        let mut lines = 0usize;
        for words in def_lines(&text, 2) {
            lines = lines.saturating_add(1);
            let Some(id) = words.first().and_then(|w| inside(read_int(w))) else {
                continue;
            };
            let Some(group) = words.get(1).and_then(|w| read_group(w)) else {
                continue;
            };
            for member in group.filter_map(inside) {
                let source = entries.get(&member).copied().unwrap_or(member);
                entries.insert(id, source);
            }
        }
        let redirects = entries
            .into_iter()
            .filter(|(id, source)| id != source)
            .map(|(id, source)| TexmapRedirect { id, source })
            .collect();
        TexTerrDef { redirects, lines }
    }

    /// The id whose entry texture map `id` is read from: its own unless a line replaced it.
    pub fn source(&self, id: u32) -> u32 {
        self.redirects
            .binary_search_by_key(&id, |r| r.id)
            .ok()
            .and_then(|i| self.redirects.get(i))
            .map_or(id, |r| r.source)
    }

    /// Every texture map read from another's entry, by id.
    pub fn redirects(&self) -> &[TexmapRedirect] {
        &self.redirects
    }

    /// Lines read: those of 2 words or more that start with a number.
    pub fn lines(&self) -> usize {
        self.lines
    }
}
