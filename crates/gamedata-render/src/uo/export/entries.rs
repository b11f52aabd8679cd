//! A picture set's entries as the export reads them: the used entries sorted so that the
//! entries of one picture (the same bytes, read the same way) lie side by side, and which
//! of them are one picture or decoded in one job.

use std::ops::Range;

use mul_core::VerdataEntry;

use super::tally::Tally;

/// A picture set's entries as the export reads them, by number (below 2^32).
pub(super) struct Entries<N, R, S, V> {
    /// The numbers that may hold a picture, in order.
    pub(super) numbers: N,
    /// Whether entry n holds a picture (`Err` if it cannot be read).
    pub(super) read: R,
    /// Where entry n's bytes start: its index record's offset.
    pub(super) start: S,
    /// How entry n's bytes are read: entries over the same bytes read the same way are
    /// one picture.
    pub(super) reading: V,
}

/// The number in an element of [`Entries::order`].
pub(super) fn number(element: u64) -> usize {
    usize::try_from(element & 0xFFFF_FFFF).unwrap_or(usize::MAX)
}

/// Entries `0..count` as far as 32-bit numbers go; those past are counted as failed.
pub(super) fn numbered(count: usize, tally: &Tally) -> Range<usize> {
    // On a 32-bit target (WebAssembly) every count is below 2^32.
    let numbered = usize::try_from(1u64 << 32).map_or(count, |max| count.min(max));
    if count > numbered {
        tally.fail(
            count.saturating_sub(numbered),
            format!("entries from {numbered:#X} on: past 32-bit numbers"),
        );
    }
    0..numbered
}

/// Bit 32 of an entry's reading when verdata patches it (its bytes lie in verdata.mul).
pub(super) fn patched_bit(patch: Option<&VerdataEntry>) -> u64 {
    u64::from(patch.is_some()) << 32
}

impl<N, I, R, S, V> Entries<N, R, S, V>
where
    N: Fn() -> I,
    I: Iterator<Item = usize>,
    R: Fn(usize) -> Result<bool, mul_core::DataError>,
    S: Fn(usize) -> u32,
    V: Fn(usize) -> u64,
{
    /// The entries holding a picture as `start << 32 | number`, sorted so that the entries
    /// of one picture (the same bytes, read the same way) lie side by side, the lowest
    /// number first; entries that cannot be read are counted as failed, told by `locate`
    /// (the entry's name as the report gives it).
    pub(super) fn order(&self, locate: &impl Fn(usize) -> String, tally: &Tally) -> Vec<u64> {
        let mut used = 0usize;
        for n in (self.numbers)() {
            match (self.read)(n) {
                Ok(true) => used = used.saturating_add(1),
                Ok(false) => {}
                Err(e) => tally.fail(1, format!("{}: {e}", locate(n))),
            }
        }
        let mut order = Vec::with_capacity(used);
        order.extend(
            (self.numbers)()
                .filter(|&n| matches!((self.read)(n), Ok(true)))
                .map(|n| (u64::from((self.start)(n)) << 32) | (n as u64 & 0xFFFF_FFFF))
                .take(used),
        );
        order.sort_unstable();
        for run in order.chunk_by_mut(|a, b| a >> 32 == b >> 32) {
            if run.len() > 1 {
                run.sort_unstable_by_key(|&e| ((self.reading)(number(e)), e));
            }
        }
        order
    }
}

/// What the export's runs ask of a picture set's entries.
pub(super) trait Grouping {
    /// True if elements `a` and `b` of [`Entries::order`] are one picture.
    fn same(&self, a: u64, b: u64) -> bool;

    /// True if elements `a` and `b` (side by side in [`Entries::order`]) are decoded in one
    /// job, from one stream: one picture, or pictures that decode one stream each their
    /// own way ([`Streams`]).
    fn shares(&self, a: u64, b: u64) -> bool {
        self.same(a, b)
    }
}

/// The pictures of a job's `group` ([`Grouping::shares`]): each one's elements' places in
/// the group, in order.
pub(super) fn pictures_of(group: &[u64], entries: &impl Grouping) -> Vec<Range<usize>> {
    let mut at = 0usize;
    group
        .chunk_by(|&a, &b| entries.same(a, b))
        .map(|picture| {
            let start = at;
            at = at.saturating_add(picture.len());
            start..at
        })
        .collect()
}

/// [`Entries`] whose pictures over one start may share a stored stream: `shares(a, b)`
/// for the numbers of two entries of one start says whether their pictures are decoded
/// in one job (one inflate of the stream for all of them, each picture made its own way
/// from it, [`super::run::Run::parts`] giving the job the pictures side by side).
pub(super) struct Streams<'a, E, F> {
    pub(super) entries: &'a E,
    pub(super) shares: F,
}

impl<E: Grouping, F: Fn(usize, usize) -> bool> Grouping for Streams<'_, E, F> {
    fn same(&self, a: u64, b: u64) -> bool {
        self.entries.same(a, b)
    }

    fn shares(&self, a: u64, b: u64) -> bool {
        self.entries.same(a, b) || (a >> 32 == b >> 32 && (self.shares)(number(a), number(b)))
    }
}

impl<N, R, S, V: Fn(usize) -> u64> Grouping for Entries<N, R, S, V> {
    fn same(&self, a: u64, b: u64) -> bool {
        a >> 32 == b >> 32 && (self.reading)(number(a)) == (self.reading)(number(b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_past_32_bit_numbers_are_counted_as_failed() {
        let tally = Tally::new(u64::MAX);
        assert_eq!(numbered(5, &tally), 0..5);
        assert_eq!(numbered(1 << 32, &tally), 0..1 << 32);
        assert_eq!(tally.failed.load(std::sync::atomic::Ordering::Relaxed), 0);
        assert_eq!(numbered((1 << 32) + 3, &tally), 0..1 << 32);
        assert_eq!(tally.failed.load(std::sync::atomic::Ordering::Relaxed), 3);
        let errors = tally.errors.lock().unwrap();
        assert_eq!(
            errors.as_slice(),
            ["entries from 0x100000000 on: past 32-bit numbers"]
        );
    }

    /// Entries sorted by where their bytes start, and those of one start by how they are
    /// read, then by number: each picture's entries side by side, the lowest number first.
    #[test]
    fn order_puts_each_picture_s_entries_side_by_side() {
        let tally = Tally::new(u64::MAX);
        let starts = [50u32, 10, 50, 0, 10, 0, 50, 10];
        let entries = Entries {
            numbers: || 0..8usize,
            read: |n: usize| match n {
                3 => Err(mul_core::DataError::from(mul_core::ErrorKind::Write(
                    mul_core::WriteProblem::Picture { number: n },
                ))),
                5 => Ok(false),
                _ => Ok(true),
            },
            start: |n: usize| starts[n],
            reading: |n: usize| (n % 2) as u64,
        };
        let order = entries.order(&|n| n.to_string(), &tally);
        let at = |start: u64, n: u64| (start << 32) | n;
        // Start 10: entry 4 (read as 0), then 1 and 7 (read as 1); start 50: 0, 2, 6.
        assert_eq!(
            order,
            [
                at(10, 4),
                at(10, 1),
                at(10, 7),
                at(50, 0),
                at(50, 2),
                at(50, 6)
            ]
        );
        assert!(entries.same(at(10, 1), at(10, 7)));
        assert!(!entries.same(at(10, 4), at(10, 1)));
        assert!(!entries.same(at(10, 4), at(50, 0)));
        assert_eq!(tally.failed.load(std::sync::atomic::Ordering::Relaxed), 1);
        assert!(tally.errors.lock().unwrap()[0].starts_with("3: "));
    }
}
