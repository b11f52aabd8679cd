//! gump.def: gumps with an empty entry that borrow another gump's entry and a hue, as the
//! client resolves them when it loads the gump files.
//!
//! Each line the client keeps is a gump id, a group of candidate ids in braces, and a hue:
//! `50416 {50400} 0`. When the id's index record is empty (its length, read as a signed
//! number, is 0 or less), the first candidate whose record is not empty lends its entry,
//! and the id is drawn from that entry with the line's hue, applied to every non-zero pixel
//! when the gump is loaded (`GumpHue::at_load` in gamedata-render). Lines are resolved in
//! the file's order, so a line may borrow from an id an earlier line filled (its entry and
//! this line's hue), and an id an earlier line filled is no longer empty. This happens
//! before verdata.mul's patches: a patched id is read from its patch.
//!
//! How the text is read, as the client's `DefReader` reads it (`docs/formats/uo.md`,
//! "Gumps", "gump.def"):
//! - lines are trimmed; an empty line, one starting with `#`, or one whose first character
//!   is not a number is skipped, and anything from a `#` on is cut;
//! - a line with both `{` and `}` is split into the words before the first `{` (at spaces
//!   and tabs), the text from that `{` to the first `}` as one word, and the words after;
//!   any other line at spaces and tabs; a line of fewer than 3 words is skipped;
//! - a number word is cut before its first character that is neither a number nor `+` or
//!   `-`, then read as a signed 32-bit decimal, or -1 if it cannot be (so `0x10` reads 0);
//! - the group's members are split at commas, spaces and braces; one starting with a digit
//!   and read whole as a decimal number (a trailing sign allowed) counts, others are
//!   skipped. The client's parser also takes forms such as `1e3` or `2.0`, which no
//!   gump.def we know of holds; they are skipped here.
//!
//! Memory: 6 bytes an id below 0x10000 the index holds, the words of one line at a time, and
//! 12 bytes a gump that borrows; work: each line once.
//!
//! Source: `docs/formats/uo.md`, "Gumps" (ClassicUO's `GumpsLoader.Load`, `GetGump`,
//! `DefReader`).

use crate::def::{def_lines, read_group, read_int};
use crate::gump::Gumps;

/// The client's gump id limit: ids from 0x10000 up are never borrowed or lent.
pub const MAX_DEF_GUMPS: u32 = 0x1_0000;

/// One gump that borrows another's entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GumpBorrow {
    /// The gump whose own entry is empty.
    pub id: u32,
    /// The gump whose entry (in gumpidx.mul or the UOP, before verdata's patches) it is
    /// drawn from.
    pub source: u32,
    /// The hue applied when it is loaded (the line's third word as 16 bits; 0 is none).
    pub hue: u16,
}

/// gump.def resolved against a gump index: the gumps that borrow, by id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GumpDef {
    /// Sorted by id, one per id.
    borrows: Vec<GumpBorrow>,
    /// Lines read (kept by the client's rules: 3 words or more).
    lines: usize,
}

impl GumpDef {
    /// Resolves gump.def's text (`text`, UTF-8; other bytes read as U+FFFD) against
    /// `gumps`' index records as the client does (see the module's documentation). Never
    /// fails: what the client skips is skipped.
    pub fn resolve(text: &[u8], gumps: &Gumps<'_>) -> GumpDef {
        let text = String::from_utf8_lossy(text);
        let mut def = GumpDef::default();
        // What each id below the client's limit borrows so far (source, hue): at most
        // 0x10000 slots of 6 bytes, so that many lines cost no more than one pass.
        let slots = gumps.len().min(MAX_DEF_GUMPS as usize);
        let mut filled: Vec<Option<(u16, u16)>> = vec![None; slots];
        for words in def_lines(&text, 3) {
            def.lines = def.lines.saturating_add(1);
            let Some(id) = words
                .first()
                .and_then(|w| usize::try_from(read_int(w)).ok())
            else {
                continue;
            };
            // Past the index or the limit, filled already, or an entry of its own.
            if !matches!(filled.get(id), Some(None)) || has_entry(gumps, id) {
                continue;
            }
            let Some(group) = words.get(1).and_then(|w| read_group(w)) else {
                continue;
            };
            for candidate in group {
                let Ok(candidate) = usize::try_from(candidate) else {
                    continue;
                };
                // A candidate an earlier line filled lends what it borrowed.
                let source = match filled.get(candidate) {
                    None => continue,
                    Some(Some((source, _))) => *source,
                    Some(None) if has_entry(gumps, candidate) => match u16::try_from(candidate) {
                        Ok(source) => source,
                        Err(_) => continue,
                    },
                    Some(None) => continue,
                };
                // The hue is the word after the group, kept to its low 16 bits.
                let [lo, hi, ..] = words.get(2).map_or(0, |w| read_int(w)).to_le_bytes();
                if let Some(slot) = filled.get_mut(id) {
                    *slot = Some((source, u16::from_le_bytes([lo, hi])));
                }
                break;
            }
        }
        def.borrows = filled
            .iter()
            .enumerate()
            .filter_map(|(id, slot)| {
                let (source, hue) = (*slot)?;
                Some(GumpBorrow {
                    id: u32::try_from(id).ok()?,
                    source: u32::from(source),
                    hue,
                })
            })
            .collect();
        def
    }

    /// Gump `id`'s borrowing, if it borrows.
    pub fn get(&self, id: u32) -> Option<GumpBorrow> {
        let i = self.borrows.binary_search_by_key(&id, |b| b.id).ok()?;
        self.borrows.get(i).copied()
    }

    /// Every borrowing, by id.
    pub fn borrows(&self) -> &[GumpBorrow] {
        &self.borrows
    }

    /// Lines read: those of 3 words or more that start with a number.
    pub fn lines(&self) -> usize {
        self.lines
    }
}

/// Whether gump `id`'s index record is not empty, by the client's test (its length as a
/// signed number above 0).
fn has_entry(gumps: &Gumps<'_>, id: usize) -> bool {
    gumps
        .index()
        .get(id)
        .is_some_and(|r| r.length.get().cast_signed() > 0)
}
