//! Entries of a table that point at byte ranges of one data area (an index into a data file,
//! a directory into a group file): which of them overlap others.
//!
//! Real tables point each entry at bytes of its own, but a crafted one can point thousands
//! of entries at the same bytes, so that a scan of every entry reads the data thousands of
//! times. [`Overlaps::find`] settles which entries to leave out so that the kept ones are
//! pairwise disjoint: a scan of the kept entries reads each byte of the data at most once.

use std::fmt;

use crate::preview::PREVIEW_ITEMS;

/// The entries of a table left out because their byte ranges overlap a kept entry's.
///
/// Of entries whose ranges overlap, the one that starts first is kept (on equal starts, the
/// lower entry number), and every entry whose range overlaps a kept one is left out. The kept
/// entries' ranges are pairwise disjoint, so their lengths add up to at most the data's.
///
/// Finding them costs one pass over the table when its ranges lie in entry order (each
/// starting at or after the previous one's end, as writers lay them out), and a sort of the
/// non-empty entries' numbers (8 bytes an entry) otherwise.
///
/// Memory: 8 bytes an entry left out; finding them holds 8 bytes a non-empty entry. Entry
/// numbers are kept in 32 bits: of a table of more than 2^32 entries (a 48 GiB index of
/// 12-byte records), the entries from 2^32 on are all left out, as overlapping entry 0.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Overlaps {
    /// `entry left out << 32 | the kept entry it overlaps`, ascending.
    left_out: Vec<u64>,
    /// True if entries from 2^32 on are left out (a table past 32-bit numbers, not in
    /// order).
    past_numbered: bool,
}

/// Entries an [`Overlaps`] numbers: 2^32.
const NUMBERED: u64 = 1 << 32;

impl fmt::Debug for Overlaps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pairs: Vec<(usize, usize)> = self.iter().take(PREVIEW_ITEMS + 1).collect();
        write!(f, "Overlaps {{ left_out: {} items ", self.left_out.len())?;
        let mut list = f.debug_list();
        list.entries(pairs.iter().take(PREVIEW_ITEMS));
        if pairs.len() > PREVIEW_ITEMS {
            list.finish_non_exhaustive()?;
        } else {
            list.finish()?;
        }
        f.write_str(" }")
    }
}

impl Overlaps {
    /// Finds the overlapping entries of a table of `count` entries. `range(i)` gives entry
    /// `i`'s byte range as `(start, end)`, or `None` for an entry that points at nothing (an
    /// empty entry, or one outside the data, which is reported when it is read). Ranges with
    /// `end <= start` are taken as empty.
    pub fn find(count: usize, range: impl Fn(usize) -> Option<(u64, u64)>) -> Self {
        Self::find_with(count, range, false)
    }

    /// As [`Overlaps::find`], but an entry whose range is exactly a kept entry's (the same
    /// start and end) is not left out: tables where two numbers name the same bytes (art
    /// and gump indexes, where editors write one picture under several ids) keep both.
    /// Every other overlap is left out as by `find`.
    pub fn find_allowing_repeats(
        count: usize,
        range: impl Fn(usize) -> Option<(u64, u64)>,
    ) -> Self {
        Self::find_with(count, range, true)
    }

    fn find_with(count: usize, range: impl Fn(usize) -> Option<(u64, u64)>, repeats: bool) -> Self {
        let nonempty = |i: usize| range(i).filter(|&(start, end)| end > start);
        // Common case: in entry order, each range starts at or after the end of those before.
        let mut end_so_far = 0u64;
        let in_order = (0..count).filter_map(nonempty).all(|(start, end)| {
            let ok = start >= end_so_far;
            end_so_far = end_so_far.max(end);
            ok
        });
        if in_order {
            return Overlaps::default();
        }
        // Entry numbers are kept in 32 bits (see `Overlaps`).
        let numbered = usize::try_from(NUMBERED).unwrap_or(usize::MAX);
        let past_numbered = count > numbered;
        let ranges = (0..count.min(numbered)).filter(|&i| nonempty(i).is_some());
        let mut entries: Vec<u64> = Vec::with_capacity(ranges.clone().count());
        entries.extend(ranges.map(|i| i as u64));
        entries.sort_unstable_by_key(|&i| (nonempty(low(i)).map_or(0, |(start, _)| start), i));
        // The entries left out are written over the front of `entries` as they are found
        // (never more of them than entries read), each as `left out << 32 | kept`.
        let mut left_out = 0usize;
        // The kept range that reaches furthest: (start, end, entry).
        let mut kept: Option<(u64, u64, u64)> = None;
        for k in 0..entries.len() {
            let Some(&i) = entries.get(k) else { break };
            let Some((start, end)) = nonempty(low(i)) else {
                continue;
            };
            match kept {
                Some((kept_start, kept_end, _))
                    if repeats && (start, end) == (kept_start, kept_end) => {}
                Some((_, kept_end, kept_entry)) if start < kept_end => {
                    if let Some(slot) = entries.get_mut(left_out) {
                        *slot = (i << 32) | kept_entry;
                    }
                    left_out = left_out.saturating_add(1);
                }
                _ => kept = Some((start, end, i)),
            }
        }
        entries.truncate(left_out);
        entries.sort_unstable();
        entries.shrink_to_fit();
        Overlaps {
            left_out: entries,
            past_numbered,
        }
    }

    /// True if no entry is left out.
    pub fn is_empty(&self) -> bool {
        self.left_out.is_empty() && !self.past_numbered
    }

    /// Entries left out (those from 2^32 on not counted).
    pub fn len(&self) -> usize {
        self.left_out.len()
    }

    /// If entry `entry` is left out, the kept entry whose range it overlaps.
    #[inline]
    pub fn overlapped_by(&self, entry: usize) -> Option<usize> {
        if self.left_out.is_empty() && !self.past_numbered {
            return None;
        }
        let number = entry as u64;
        if number >= NUMBERED {
            return self.past_numbered.then_some(0);
        }
        let i = self
            .left_out
            .binary_search_by_key(&number, |&e| e >> 32)
            .ok()?;
        self.left_out.get(i).map(|&e| low(e))
    }

    /// The entries left out, ascending, each with the kept entry it overlaps (those from
    /// 2^32 on not listed).
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (usize, usize)> + '_ {
        self.left_out.iter().map(|&e| (low(e >> 32), low(e)))
    }
}

/// The low 32 bits of `e`, an entry number.
fn low(e: u64) -> usize {
    usize::try_from(e & 0xFFFF_FFFF).unwrap_or(usize::MAX)
}

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
mod tests {
    use super::Overlaps;

    fn find(ranges: &[Option<(u64, u64)>]) -> Vec<(usize, usize)> {
        Overlaps::find(ranges.len(), |i| ranges.get(i).copied().flatten())
            .iter()
            .collect()
    }

    #[test]
    fn disjoint_tables_leave_nothing_out() {
        assert!(find(&[]).is_empty());
        let none = Overlaps::find(2, |i| [(0, 4), (4, 8)].get(i).copied());
        assert!(none.is_empty());
        assert_eq!((none.len(), none.iter().count()), (0, 0));
        assert_eq!(format!("{none:?}"), "Overlaps { left_out: 0 items [] }");
        let one = Overlaps::find(2, |i| [(0, 4), (2, 8)].get(i).copied());
        assert_eq!(
            format!("{one:?}"),
            "Overlaps { left_out: 1 items [(1, 0)] }"
        );
        // In order, touching, with empty and missing entries between.
        assert!(
            find(&[
                Some((0, 10)),
                None,
                Some((10, 20)),
                Some((5, 5)),
                Some((30, 31))
            ])
            .is_empty()
        );
        // Out of order but disjoint.
        assert!(find(&[Some((30, 40)), Some((0, 10)), Some((10, 30))]).is_empty());
    }

    #[test]
    fn overlapping_entries_are_left_out_first_start_kept() {
        // Entry 2 starts first; 0 overlaps it, 1 does not overlap the kept 2 (ends at 10).
        assert_eq!(
            find(&[Some((5, 15)), Some((10, 20)), Some((0, 10))]),
            vec![(0, 2)]
        );
        // The same range three times: the lowest entry is kept.
        assert_eq!(
            find(&[Some((4, 8)), Some((4, 8)), Some((4, 8))]),
            vec![(1, 0), (2, 0)]
        );
        // A range inside a kept one, and one after a left-out one that only overlaps it.
        let got = find(&[
            Some((0, 100)),
            Some((10, 20)),
            Some((50, 150)),
            Some((120, 130)),
        ]);
        assert_eq!(got, vec![(1, 0), (2, 0)]);
        let overlaps = Overlaps::find(2, |i| [(0, 9), (3, 4)].get(i).copied());
        assert_eq!((overlaps.len(), overlaps.is_empty()), (1, false));
        assert_eq!(overlaps.overlapped_by(1), Some(0));
        assert_eq!(overlaps.overlapped_by(0), None);
        assert_eq!(overlaps.overlapped_by(7), None);
    }

    #[test]
    fn exact_repeats_are_kept_when_allowed() {
        let table = [
            Some((4, 8)),
            Some((0, 4)),
            Some((4, 8)),
            Some((4, 9)),
            Some((6, 8)),
            Some((4, 8)),
            Some((8, 12)),
        ];
        let range = |i: usize| table.get(i).copied().flatten();
        let got: Vec<_> = Overlaps::find_allowing_repeats(table.len(), range)
            .iter()
            .collect();
        // 2 and 5 repeat 0 exactly and stay; 3 and 4 only overlap it.
        assert_eq!(got, vec![(3, 0), (4, 0)]);
        // Without the allowance every repeat is left out too.
        assert_eq!(find(&table), vec![(2, 0), (3, 0), (4, 0), (5, 0)]);
        // A repeat of a left-out range is left out with it.
        let got: Vec<_> =
            Overlaps::find_allowing_repeats(3, |i| [(0, 10), (5, 15), (5, 15)].get(i).copied())
                .iter()
                .collect();
        assert_eq!(got, vec![(1, 0), (2, 0)]);
    }

    #[test]
    fn kept_ranges_add_up_to_at_most_the_data() {
        // Every kept range is disjoint from the others: checked on a pseudo-random table.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let ranges: Vec<Option<(u64, u64)>> = (0..500)
            .map(|_| {
                let start = next() % 1000;
                Some((start, start + next() % 50))
            })
            .collect();
        let overlaps = Overlaps::find(ranges.len(), |i| ranges.get(i).copied().flatten());
        let mut kept: Vec<(u64, u64)> = (0..ranges.len())
            .filter(|&i| overlaps.overlapped_by(i).is_none())
            .filter_map(|i| ranges.get(i).copied().flatten())
            .filter(|&(s, e)| e > s)
            .collect();
        kept.sort_unstable();
        assert!(
            kept.windows(2).all(|w| w[0].1 <= w[1].0),
            "kept ranges overlap"
        );
        let total: u64 = kept.iter().map(|(s, e)| e - s).sum();
        assert!(total <= 1050);
        assert!(overlaps.len() > 100, "a dense random table overlaps");
        // Every left-out entry overlaps the kept entry it names.
        for (entry, by) in overlaps.iter() {
            let (s, e) = ranges[entry].unwrap();
            let (ks, ke) = ranges[by].unwrap();
            assert!(s < ke && ks < e, "{entry} does not overlap {by}");
            assert!(overlaps.overlapped_by(by).is_none());
        }
    }
}
