//! A picture's job in the export: what it takes of the decoding budget and what
//! it holds at once, within its thread's share of the 64 MiB the export's pictures may hold.

use std::cell::Cell;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

use mul_core::Limits;

use super::tally::{DrawError, Drawn, take_budget};

/// An entry decoded within what is left of the budget, or what to report in its place.
pub(super) enum Budgeted<T> {
    Decoded(T),
    Instead(Drawn),
}

thread_local! {
    /// Bytes the export's jobs on this thread hold: a thread that waits inside a job (on
    /// the PNG encoder's parallel parts) may run another job meanwhile.
    static HELD: Cell<u64> = const { Cell::new(0) };
}

/// What one picture's drawing may take of the decoding budget and hold at once, and what
/// it holds: while the threads run, the jobs on each may hold its share of [`HELD_MAX`]
/// (an even share); a picture past it is put off ([`Drawn::Later`]) and drawn after the
/// threads are done, one at a time, with all of it. What a job holds is let go when it
/// ends.
pub(super) struct Job<'a> {
    budget: &'a AtomicU64,
    /// Bytes the jobs on this thread may hold: a thread's share, or [`HELD_MAX`] for a job
    /// alone.
    cap: u64,
    /// Whether this job runs alone, after the threads (nothing is put off then).
    pub(super) alone: bool,
    /// The entries (offsets past the picture's numbers) to draw: all of them, or those
    /// put off.
    want: Range<usize>,
    /// Bytes this job holds now (the thread's [`HELD`] counts them too).
    held: Cell<u64>,
    /// Bytes held for the whole job (an inflated entry), kept past each part.
    kept: Cell<u64>,
    /// Bytes this job took from the budget, and those of them taken for the whole job
    /// (given back if it is put off: the job alone takes them again).
    taken: Cell<u64>,
    taken_kept: Cell<u64>,
}

impl<'a> Job<'a> {
    /// A job that may hold `cap` bytes and draws the entries `want`.
    pub(super) fn new(budget: &'a AtomicU64, cap: u64, alone: bool, want: Range<usize>) -> Self {
        Job {
            budget,
            cap: cap.min(HELD_MAX),
            alone,
            want,
            held: Cell::new(0),
            kept: Cell::new(0),
            taken: Cell::new(0),
            taken_kept: Cell::new(0),
        }
    }

    /// Whether the entry `offset` past the picture's numbers is to be drawn.
    pub(super) fn wants(&self, offset: usize) -> bool {
        self.want.contains(&offset)
    }

    /// Takes `bytes` from the budget and holds `held` more bytes: `None` when taken, else
    /// what to report in the picture's place, [`Drawn::Later`] past the job's share while
    /// the threads run, [`Drawn::OverBudget`] past [`HELD_MAX`] or the budget (nothing
    /// taken or held then).
    fn take(&self, bytes: u64, held: u64) -> Option<Drawn> {
        let on_thread = HELD.with(Cell::get).saturating_add(held);
        if on_thread > self.cap {
            let own = self.held.get().saturating_add(held);
            return Some(if self.alone || own > HELD_MAX {
                Drawn::OverBudget
            } else {
                self.later()
            });
        }
        if !take_budget(self.budget, bytes) {
            return Some(Drawn::OverBudget);
        }
        self.taken.set(self.taken.get().saturating_add(bytes));
        HELD.with(|h| h.set(on_thread));
        self.held.set(self.held.get().saturating_add(held));
        None
    }

    /// Lets go of what this job holds past `keep` bytes.
    fn let_go(&self, keep: u64) {
        let going = self.held.get().saturating_sub(keep);
        HELD.with(|h| h.set(h.get().saturating_sub(going)));
        self.held.set(self.held.get().saturating_sub(going));
    }

    /// Takes a picture's (or an animation direction's frames') `rgba` bytes from the
    /// budget, holding [`HELD_PER_RGBA`] times them: the pixels, their PNG and the encoder's
    /// parts in flight. As [`Job::take`] says.
    pub(super) fn picture(&self, rgba: u64) -> Option<Drawn> {
        self.take(rgba, rgba.saturating_mul(HELD_PER_RGBA))
    }

    /// Takes an entry's `bytes` inflated from the budget and holds them until the job's
    /// end ([`Job::keep`]). As [`Job::take`] says.
    pub(super) fn inflated(&self, bytes: u64) -> Option<Drawn> {
        let taken = self.take(bytes, bytes);
        self.keep();
        taken
    }

    /// Takes an inflate's work from the budget before it runs: the `read` stored bytes its
    /// decoder may read and the `written` bytes it may write (whatever a container
    /// declares), holding the `written` ones until the job's end ([`Job::keep`]). As
    /// [`Job::take`] says.
    pub(super) fn inflating(&self, read: u64, written: u64) -> Option<Drawn> {
        let taken = self.take(read.saturating_add(written), written);
        self.keep();
        taken
    }

    /// Keeps what the job holds now until its end: the parts drawn after hold the rest.
    pub(super) fn keep(&self) {
        self.kept.set(self.held.get());
        self.taken_kept.set(self.taken.get());
    }

    /// [`Drawn::Later`], the budget taken for the whole job given back (taken again when
    /// it is drawn alone; what the parts drawn took stays taken), so that what the budget
    /// holds does not hang on how many threads put pictures off.
    fn later(&self) -> Drawn {
        let back = self.taken_kept.replace(0);
        self.taken.set(self.taken.get().saturating_sub(back));
        // Never fails: the update always gives a value.
        let _ = self
            .budget
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                Some(left.saturating_add(back))
            });
        Drawn::Later
    }

    /// Lets go of what a part held, once written.
    pub(super) fn part_done(&self) {
        self.let_go(self.kept.get());
    }

    /// Decodes an entry with `decode`, its decoders held to what is left of the budget
    /// and of the job's share, and the `reserved` bytes already taken and held for this
    /// entry; then takes and holds the bytes `owned` says the result holds in a buffer of
    /// its own (0 when it lies in place) beyond `reserved`, kept until the job's end.
    /// `Instead(..)` when the budget or the share runs out in either, as [`Job::take`]
    /// says; `Instead(Drawn::Empty)` when there is no entry.
    ///
    /// Returns `Err` for an entry that cannot be decoded (a limit other than the decoded
    /// bytes' is such an error, not the budget's).
    pub(super) fn decode_within<T>(
        &self,
        reserved: u64,
        decode: impl FnOnce(&Limits) -> Result<Option<T>, mul_core::DataError>,
        owned: impl FnOnce(&T) -> u64,
    ) -> Result<Budgeted<T>, DrawError> {
        let left = self.budget.load(Ordering::Relaxed).saturating_add(reserved);
        let room = self
            .cap
            .saturating_sub(HELD.with(Cell::get))
            .saturating_add(reserved);
        let limits = Limits::default().with_max_decoded_bytes(left.min(room));
        let decoded = match decode(&limits) {
            Ok(Some(decoded)) => decoded,
            Ok(None) => return Ok(Budgeted::Instead(Drawn::Empty)),
            // The decoded bytes' cap, the budget's or the share's: past it, the picture
            // is over the budget or put off.
            Err(e)
                if matches!(e.kind(), mul_core::ErrorKind::Limit(l) if l.unit == "bytes"
                    && l.limit == limits.max_decoded_bytes) =>
            {
                let later = room < left && !self.alone && self.cap < HELD_MAX;
                return Ok(Budgeted::Instead(if later {
                    self.later()
                } else {
                    Drawn::OverBudget
                }));
            }
            Err(e) => return Err(e.into()),
        };
        let more = owned(&decoded).saturating_sub(reserved);
        let taken = self.take(more, more);
        self.keep();
        Ok(match taken {
            None => Budgeted::Decoded(decoded),
            Some(instead) => Budgeted::Instead(instead),
        })
    }
}

impl Drop for Job<'_> {
    fn drop(&mut self) {
        self.let_go(0);
    }
}

/// What the export's pictures may hold at once, in all threads, in bytes: the pictures
/// and their PNG bytes, and the entries inflated for them. Each thread holds at most its
/// share ([`Job`]); a picture past it is drawn after the threads are done, alone; one past
/// this is counted as over the budget. Real pictures take a few MiB at the most.
pub(super) const HELD_MAX: u64 = 64 << 20;

/// Bytes a picture holds a byte of its RGBA: the pixels, their PNG (about as many bytes at
/// the most, for pixels that do not compress) and the PNG encoder's filtered and deflated
/// parts in flight (as many again at the most).
pub(super) const HELD_PER_RGBA: u64 = 3;

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1 << 20;

    /// A job takes a picture's RGBA from the budget and holds three times it, within its
    /// thread's share while the threads run (past it: put off), within 64 MiB alone or at
    /// all (past it: over the budget); a part done lets go of all but what was kept.
    #[test]
    fn a_job_holds_its_thread_s_share_and_puts_off_what_is_past_it() {
        let budget = AtomicU64::new(100 * MIB);
        let job = Job::new(&budget, 16 * MIB, false, 0..1);
        assert!(job.wants(0) && !job.wants(1));
        assert!(job.inflated(MIB).is_none());
        assert!(job.picture(5 * MIB).is_none());
        assert_eq!(budget.load(Ordering::Relaxed), 94 * MIB);
        assert_eq!(HELD.with(Cell::get), 16 * MIB);
        // Past the share: put off, nothing taken, and the inflated entry's MiB given back
        // (the job alone inflates it again); the picture's 5 MiB stay taken.
        assert!(matches!(job.picture(1), Some(Drawn::Later)));
        assert_eq!(budget.load(Ordering::Relaxed), 95 * MIB);
        assert!(matches!(job.picture(1), Some(Drawn::Later)));
        assert_eq!(budget.load(Ordering::Relaxed), 95 * MIB);
        job.part_done();
        assert_eq!(HELD.with(Cell::get), MIB);
        // Another job on this thread (one run while this one waits) shares the share.
        {
            let other = Job::new(&budget, 16 * MIB, false, 0..1);
            assert!(matches!(other.picture(5 * MIB + 1), Some(Drawn::Later)));
            assert!(other.picture(5 * MIB).is_none());
            assert_eq!(HELD.with(Cell::get), 16 * MIB);
        }
        assert_eq!(HELD.with(Cell::get), MIB);
        // Past 64 MiB even alone: over the budget, not put off.
        assert!(matches!(job.picture(22 * MIB), Some(Drawn::OverBudget)));
        drop(job);
        assert_eq!(HELD.with(Cell::get), 0);
        let alone = Job::new(&budget, HELD_MAX, true, 0..1);
        assert!(alone.picture(21 * MIB).is_none());
        assert!(matches!(alone.picture(MIB), Some(Drawn::OverBudget)));
        drop(alone);
        // Past what is left of the budget: over it, nothing held.
        let poor = Job::new(&budget, HELD_MAX, true, 0..1);
        assert!(matches!(poor.picture(70 * MIB), Some(Drawn::OverBudget)));
        assert_eq!(HELD.with(Cell::get), 0);
        assert_eq!(budget.load(Ordering::Relaxed), 69 * MIB);
    }

    /// A decoder is held to the job's room as well as the budget: past the room while the
    /// threads run, the entry is put off; alone, past the budget, it is over it.
    #[test]
    fn a_decoder_past_the_job_s_room_is_put_off() {
        let budget = AtomicU64::new(100 * MIB);
        let limit_of = |job: &Job| {
            let mut seen = 0;
            let outcome = job
                .decode_within(
                    MIB,
                    |limits| {
                        seen = limits.max_decoded_bytes;
                        Err::<Option<()>, _>(mul_core::DataError::from(mul_core::LimitError {
                            what: "decoded bytes",
                            unit: "bytes",
                            limit: seen,
                            found: seen + 1,
                        }))
                    },
                    |_| 0,
                )
                .unwrap();
            (seen, outcome)
        };
        let job = Job::new(&budget, 16 * MIB, false, 0..1);
        assert!(job.inflated(MIB).is_none());
        let (limit, outcome) = limit_of(&job);
        assert_eq!(limit, 16 * MIB);
        assert!(matches!(outcome, Budgeted::Instead(Drawn::Later)));
        // The declared MiB given back.
        assert_eq!(budget.load(Ordering::Relaxed), 100 * MIB);
        drop(job);
        let alone = Job::new(&budget, HELD_MAX, true, 0..1);
        assert!(alone.inflated(MIB).is_none());
        let (limit, outcome) = limit_of(&alone);
        assert_eq!(limit, HELD_MAX);
        assert!(matches!(outcome, Budgeted::Instead(Drawn::OverBudget)));
        drop(alone);
        // The budget's limit reached, while the threads run: over it, not put off (alone,
        // the budget would be no larger). So too when both limits are the same.
        for left in [2 * MIB, 15 * MIB] {
            budget.store(left + MIB, Ordering::Relaxed);
            let job = Job::new(&budget, 16 * MIB, false, 0..1);
            assert!(job.inflated(MIB).is_none());
            let (limit, outcome) = limit_of(&job);
            assert_eq!(limit, left + MIB);
            assert!(matches!(outcome, Budgeted::Instead(Drawn::OverBudget)));
        }
        // One thread: its share is all there is, so past it is over the budget.
        budget.store(100 * MIB, Ordering::Relaxed);
        let only = Job::new(&budget, HELD_MAX, false, 0..1);
        assert!(only.inflated(MIB).is_none());
        let (limit, outcome) = limit_of(&only);
        assert_eq!(limit, HELD_MAX);
        assert!(matches!(outcome, Budgeted::Instead(Drawn::OverBudget)));
    }

    /// A job past its share but within 64 MiB of its own is put off; past 64 MiB it is over
    /// the budget.
    #[test]
    fn a_job_of_64_mib_is_put_off_and_one_past_it_is_over_the_budget() {
        let budget = AtomicU64::new(100 * MIB);
        let job = Job::new(&budget, 16 * MIB, false, 0..1);
        assert!(matches!(job.inflated(HELD_MAX), Some(Drawn::Later)));
        assert!(matches!(
            job.inflated(HELD_MAX + 1),
            Some(Drawn::OverBudget)
        ));
        assert_eq!(budget.load(Ordering::Relaxed), 100 * MIB);
    }
}
