//! Mythic's BWT stage, both ways: the second stage of a gump stored with compression 3 in
//! gumpartLegacyMUL.uop (the first is zlib), and of an AnimationFrame UOP entry stored so,
//! undone as the client undoes it ([`decompress`]) and, behind the `write` feature, applied
//! (`compress`, which the gump and animation writers use).
//!
//! Public for the fuzz properties (gamedata-exercise) and tests, hidden from the
//! documentation: readers meet the stage through [`Gumps::decoded`](crate::Gumps::decoded)
//! and [`UopAnimations`](crate::UopAnimations).
//!
//! The input (what the entry's zlib stream decodes to) is a 4-byte header, which the client
//! ignores, then bytes undone in two steps:
//!
//! 1. Move-to-front: every byte after the header but the input's last is decoded against a
//!    list of the 256 byte values, at first in order: the value at that place is given out
//!    and moved to the front. A 0 stands in for the last byte, so the list is as long as
//!    the input less its header.
//! 2. The list's first 1,024 bytes are 256 signed 32-bit symbol counts (byte value i's
//!    count at bytes 4i to 4i + 3); the output is their sum of bytes. Taken by count,
//!    highest first (equal counts: the lower value first), each symbol with a count has a
//!    segment of `count` bytes after the counts: its first byte is the place the symbol
//!    takes in a table of symbols (at first 0 to 255 in order), the others its re-insert
//!    places. The table's first symbol is given out again and again: while its segment has
//!    places left, the next place `p` either keeps it first (0) or moves the table's
//!    places 1 to `p` one down and puts it at `p`; when its segment is spent, the table's
//!    live symbols move one down over it (none when no symbol is live any more, and the
//!    same symbol is given out again).
//!
//! Each output byte costs at most one move of 255 places, so the work is linear in the
//! output, which is capped by [`Limits::max_decoded_bytes`]; the memory is the input,
//! decoded in place, and the output. Crafted inputs that the client would stop on with an
//! exception (too short, a segment read past the list) are errors here, and so are negative
//! counts and sums past 2^31 - 1, which the client's signed sum mistakes.
//!
//! Source: `docs/formats/uo.md`, "Gumps", from ClassicUO's `BwtDecompress.Decompress`
//! (`src/ClassicUO.Utility/BwtDecompress.cs`).

use gamedata_io::Limits;

use crate::error::{BwtProblem, DataError};
#[cfg(feature = "write")]
use crate::error::{ErrorKind, WriteProblem};

/// Bytes before the move-to-front step's first: the header, which the client ignores.
pub const HEADER_LEN: usize = 4;
/// Bytes of the symbol counts at the start of the list.
pub const COUNTS_LEN: usize = 1024;
/// The shortest input: the header and the counts (the list's last byte, the count's
/// highest, is the 0 that stands in for the input's last byte).
pub const MIN_LEN: usize = HEADER_LEN + COUNTS_LEN;

/// Undoes the BWT stage of `input` (what a compression-3 gump's zlib stream decodes to),
/// decoding the move-to-front step in place in `input`'s buffer.
///
/// Returns `Err` ([`ErrorKind::Bwt`](crate::ErrorKind::Bwt)) for an input shorter than
/// [`MIN_LEN`], a negative count, counts adding up past 2^31 - 1, or a segment read past
/// the list; ([`ErrorKind::Limit`](crate::ErrorKind::Limit)) if the counts add up past
/// `limits.max_decoded_bytes`, checked before the output is allocated.
pub fn decompress(mut input: Vec<u8>, limits: &Limits) -> Result<Vec<u8>, DataError> {
    let found = input.len();
    let decoded = found
        .checked_sub(MIN_LEN)
        .and_then(|_| found.checked_sub(HEADER_LEN.wrapping_add(1)))
        .ok_or(BwtProblem::TooShort { found })?;
    move_to_front(&mut input, decoded);
    symbols(&input, limits)
}

/// The move-to-front step: bytes `HEADER_LEN .. HEADER_LEN + decoded` decoded into places
/// `0 .. decoded`, then a 0, and the buffer cut after it.
fn move_to_front(buffer: &mut Vec<u8>, decoded: usize) {
    let mut table: [u8; 256] = std::array::from_fn(|i| u8::try_from(i).unwrap_or(0));
    for at in 0..decoded {
        let Some(&place) = buffer.get(at.wrapping_add(HEADER_LEN)) else {
            break;
        };
        let value = match table.get_mut(..=usize::from(place)) {
            Some(front) => {
                front.rotate_right(1);
                front.first().copied().unwrap_or(0)
            }
            None => 0,
        };
        if let Some(out) = buffer.get_mut(at) {
            *out = value;
        }
    }
    buffer.truncate(decoded);
    buffer.push(0);
}

/// The symbol step over the list `list` (see the module's documentation).
fn symbols(list: &[u8], limits: &Limits) -> Result<Vec<u8>, DataError> {
    let mut counts = [0usize; 256];
    let mut sum = 0u64;
    for ((symbol, word), count) in (0u8..=255)
        .zip(list.chunks_exact(4).take(256))
        .zip(counts.iter_mut())
    {
        let value = i32::from_le_bytes([
            word.first().copied().unwrap_or(0),
            word.get(1).copied().unwrap_or(0),
            word.get(2).copied().unwrap_or(0),
            word.get(3).copied().unwrap_or(0),
        ]);
        let value = u32::try_from(value).map_err(|_| BwtProblem::NegativeCount {
            symbol,
            count: value,
        })?;
        *count = value as usize;
        sum = sum.saturating_add(u64::from(value));
    }
    if sum > i32::MAX as u64 {
        return Err(BwtProblem::CountsPastClient { sum }.into());
    }
    limits.check_decoded("a gump's BWT stage", sum)?;
    // At most 2^31 - 1: fits.
    let len = usize::try_from(sum).unwrap_or(usize::MAX);
    let past = |symbol: u8, at: usize| BwtProblem::SegmentPast {
        symbol,
        at: at as u64,
        len: list.len(),
    };
    // Symbols with a count, highest first, equal counts lower value first.
    let mut order: Vec<u8> = (0u8..=255).filter(|&s| count_of(&counts, s) > 0).collect();
    order.sort_by_key(|&s| (std::cmp::Reverse(count_of(&counts, s)), s));
    let mut table: [u8; 256] = std::array::from_fn(|i| u8::try_from(i).unwrap_or(0));
    // Each symbol's next re-insert place in the list, and where its segment ends.
    let mut next = [0usize; 256];
    let mut end = [0usize; 256];
    let mut start = COUNTS_LEN;
    for &symbol in &order {
        let &place = list.get(start).ok_or_else(|| past(symbol, start))?;
        set(&mut table, place, symbol);
        // Segments end within the sum's 2^31 bytes past the counts: no overflow.
        let segment_end = start.saturating_add(count_of(&counts, symbol));
        if let Some(n) = next.get_mut(usize::from(symbol)) {
            *n = start.saturating_add(1);
        }
        if let Some(e) = end.get_mut(usize::from(symbol)) {
            *e = segment_end;
        }
        start = segment_end;
    }
    let mut live = order.len();
    let mut out = Vec::with_capacity(len);
    let mut symbol = at(&table, 0);
    while out.len() < len {
        out.push(symbol);
        let s = usize::from(symbol);
        let (Some(n), Some(&e)) = (next.get_mut(s), end.get(s)) else {
            break;
        };
        if *n >= e {
            // Spent: the live symbols move one down over it.
            if let Some(fewer) = live.checked_sub(1) {
                live = fewer;
                table.copy_within(1..=live, 0);
                symbol = at(&table, 0);
            }
        } else {
            let &place = list.get(*n).ok_or_else(|| past(symbol, *n))?;
            *n = n.saturating_add(1);
            if place != 0 {
                table.copy_within(1..=usize::from(place), 0);
                set(&mut table, place, symbol);
                symbol = at(&table, 0);
            }
        }
    }
    Ok(out)
}

fn count_of(counts: &[usize; 256], symbol: u8) -> usize {
    counts.get(usize::from(symbol)).copied().unwrap_or(0)
}

fn at(table: &[u8; 256], place: u8) -> u8 {
    table.get(usize::from(place)).copied().unwrap_or(0)
}

fn set(table: &mut [u8; 256], place: u8, symbol: u8) {
    if let Some(slot) = table.get_mut(usize::from(place)) {
        *slot = symbol;
    }
}

/// The key [`compress`] writes its header with: the header is the output's length XOR
/// this (UOFiddler's `MythicDecompress.Decompress` reads it so; the client ignores it).
#[cfg(feature = "write")]
pub const HEADER_KEY: u32 = 0x8E2C_9A3D;

/// Mythic's BWT stage applied to `data`: what [`decompress`] undoes (see it
/// for the layout). The symbols' first places are their order of first occurrence; each
/// occurrence but a symbol's last is followed by its re-insert place, the number of other
/// symbols still to come whose next occurrence is before its own; the list is then
/// move-to-front coded after a 4-byte header (the length XOR [`HEADER_KEY`]), and a
/// last byte (0) that is never decoded ends it. Time: `O(n log n)` for `n` bytes; memory
/// about 10 bytes a byte.
///
/// Returns `Err` ([`WriteProblem::TooLarge`]) for more than 2^31 - 1 bytes, past what the
/// client's signed sum of counts holds.
// Lengths are checked below 2^31 first; places and counts of first occurrences are below
// 256 (at most 256 symbols); size words are split into their 16-bit halves.
#[cfg(feature = "write")]
#[allow(
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects,
    clippy::indexing_slicing
)]
pub fn compress(data: &[u8]) -> Result<Vec<u8>, DataError> {
    let n = data.len();
    if n > i32::MAX as usize {
        return Err(ErrorKind::Write(WriteProblem::TooLarge {
            what: "a BWT stage's input",
            found: n as u64,
        })
        .into());
    }
    let mut counts = [0usize; 256];
    for &b in data {
        counts[usize::from(b)] += 1;
    }
    let mut order: Vec<usize> = (0..256).filter(|&s| counts[s] > 0).collect();
    order.sort_by_key(|&s| (std::cmp::Reverse(counts[s]), s));
    // First places: the order of first occurrence.
    let mut first_place = [0u8; 256];
    let mut seen = [false; 256];
    let mut distinct = 0usize;
    for &b in data {
        let s = usize::from(b);
        if !seen[s] {
            seen[s] = true;
            first_place[s] = distinct as u8;
            distinct += 1;
        }
    }
    // Each byte's next occurrence of the same symbol (n: none).
    let mut next_of = vec![n; n];
    let mut upcoming = [n; 256];
    for i in (0..n).rev() {
        let s = usize::from(data[i]);
        next_of[i] = upcoming[s];
        upcoming[s] = i;
    }
    // `upcoming[s]`: where symbol s comes next (n: not again); the live symbols' places are
    // marked in a Fenwick tree, so that "how many come before t" is a prefix sum.
    let mut marks = Fenwick::new(n);
    for &first in &upcoming {
        if first < n {
            marks.add(first, 1);
        }
    }
    let mut places: Vec<Vec<u8>> = vec![Vec::new(); 256];
    for (i, &b) in data.iter().enumerate() {
        let s = usize::from(b);
        marks.add(i, -1);
        let next = next_of[i];
        upcoming[s] = next;
        if next < n {
            // The others still to come sit at places after i and before `next`: every
            // place up to i is unmarked by now, so they are the marks before `next`.
            let before = marks.prefix(next);
            places[s].push(before as u8);
            marks.add(next, 1);
        }
    }
    let mut list = Vec::with_capacity(COUNTS_LEN + n);
    for count in counts {
        list.extend_from_slice(&(count as u32).to_le_bytes());
    }
    for &s in &order {
        list.push(first_place[s]);
        list.extend_from_slice(&places[s]);
    }
    let mut out = Vec::with_capacity(HEADER_LEN + list.len() + 1);
    out.extend_from_slice(&((n as u32) ^ HEADER_KEY).to_le_bytes());
    let mut table: [u8; 256] = std::array::from_fn(|i| i as u8);
    for &v in &list {
        let place = table.iter().position(|&t| t == v).unwrap_or(0);
        table[..=place].rotate_right(1);
        out.push(place as u8);
    }
    out.push(0);
    Ok(out)
}

/// A Fenwick tree of counts over places `0..n`.
#[cfg(feature = "write")]
struct Fenwick(Vec<i64>);

#[cfg(feature = "write")]
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
impl Fenwick {
    fn new(n: usize) -> Self {
        Fenwick(vec![0; n + 1])
    }

    fn add(&mut self, place: usize, delta: i64) {
        let mut i = place + 1;
        while i < self.0.len() {
            self.0[i] += delta;
            i += i & i.wrapping_neg();
        }
    }

    /// The sum over places `0..end`.
    fn prefix(&self, end: usize) -> i64 {
        let mut i = end;
        let mut sum = 0;
        while i > 0 {
            sum += self.0[i];
            i -= i & i.wrapping_neg();
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::indexing_slicing,
        clippy::unwrap_used,
        clippy::arithmetic_side_effects
    )]

    use super::*;
    use crate::ErrorKind;

    /// The list of counts `counts` (symbol, count) followed by `tail`.
    fn list(counts: &[(u8, i32)], tail: &[u8]) -> Vec<u8> {
        let mut out = vec![0u8; COUNTS_LEN];
        for &(symbol, count) in counts {
            let at = 4 * usize::from(symbol);
            out[at..at + 4].copy_from_slice(&count.to_le_bytes());
        }
        out.extend_from_slice(tail);
        out
    }

    fn problem(result: Result<Vec<u8>, DataError>) -> BwtProblem {
        match result.unwrap_err().kind() {
            ErrorKind::Bwt(p) => p,
            other => panic!("{other:?}"),
        }
    }

    /// [1, 2, 1, 1] worked by hand through the client's rules: counts 1 -> 3, 2 -> 1, so 1's
    /// segment comes first: its place 0, then re-insert places 1 (behind 2, which comes
    /// next) and 0 (it comes again at once); 2's segment is its place 1 alone.
    #[test]
    fn a_hand_worked_list_decodes() {
        let l = list(&[(1, 3), (2, 1)], &[0, 1, 0, 1]);
        assert_eq!(symbols(&l, &Limits::default()).unwrap(), [1, 2, 1, 1]);
    }

    /// The same list through move-to-front, worked by hand: the counts' bytes 3 and 1 are
    /// at places 3 and 2 when met, each 0 after them at place 1 once; then the segment
    /// bytes 0, 1, 0, 1 are places 0, 1, 1, 1. The header and the last byte play no part.
    #[test]
    fn a_hand_worked_input_decodes() {
        let mut input = vec![0xAA, 0xBB, 0xCC, 0xDD];
        let mut codes = vec![0u8; COUNTS_LEN];
        codes[4..12].copy_from_slice(&[3, 1, 0, 0, 2, 1, 0, 0]);
        input.extend_from_slice(&codes);
        input.extend_from_slice(&[0, 1, 1, 1, 0x55]);
        assert_eq!(decompress(input, &Limits::default()).unwrap(), [1, 2, 1, 1]);
    }

    /// A table whose first place no symbol was put at: the client gives out its value (0,
    /// of no count) again and again without reading, as many bytes as the counts say.
    #[test]
    fn a_first_place_of_no_symbol_repeats_as_the_client_does() {
        let l = list(&[(7, 3)], &[5]);
        assert_eq!(symbols(&l, &Limits::default()).unwrap(), [0, 0, 0]);
    }

    #[test]
    fn crafted_lists_are_errors() {
        let limits = Limits::default();
        // A segment read past the list: 1's fourth byte.
        assert_eq!(
            problem(symbols(&list(&[(1, 5)], &[0, 0]), &limits)),
            BwtProblem::SegmentPast {
                symbol: 1,
                at: 1026,
                len: 1026
            }
        );
        // A segment's first byte past the list: symbol 3's (counts 2 before it).
        assert_eq!(
            problem(symbols(&list(&[(2, 2), (3, 1)], &[0, 0]), &limits)),
            BwtProblem::SegmentPast {
                symbol: 3,
                at: 1026,
                len: 1026
            }
        );
        assert_eq!(
            problem(symbols(&list(&[(9, -1)], &[0]), &limits)),
            BwtProblem::NegativeCount {
                symbol: 9,
                count: -1
            }
        );
        assert_eq!(
            problem(symbols(&list(&[(0, i32::MAX), (1, 1)], &[0]), &limits)),
            BwtProblem::CountsPastClient { sum: 1 << 31 }
        );
        // Counts past the limit: refused before anything is allocated.
        let huge = symbols(&list(&[(0, i32::MAX)], &[0]), &limits).unwrap_err();
        assert!(matches!(huge.kind(), ErrorKind::Limit(l) if l.found == i32::MAX as u64));
        let small = Limits::default().with_max_decoded_bytes(2);
        assert!(matches!(
            symbols(&list(&[(1, 3), (2, 1)], &[0, 1, 0, 1]), &small)
                .unwrap_err()
                .kind(),
            ErrorKind::Limit(_)
        ));
        for found in [0, 4, 5, 1027] {
            assert_eq!(
                problem(decompress(vec![0; found], &limits)),
                BwtProblem::TooShort { found }
            );
        }
        // The shortest: counts alone, all 0 (the last the 0 standing in), no output.
        assert!(decompress(vec![0; MIN_LEN], &limits).unwrap().is_empty());
    }
}
