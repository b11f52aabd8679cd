//! What the export's parallel jobs count (the [`Tally`] that becomes the report), the
//! outcome of drawing one picture ([`Drawn`]), and taking bytes from a budget.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use crate::RgbaImage;

/// Entries whose messages the report keeps.
pub(super) const ERRORS_KEPT: usize = 10;

/// What a file or folder written takes of the output budget at the least: a file system
/// block, in bytes. A set that names one small picture under a million names (133 KB of
/// anim.idx) once wrote a million files of 70 bytes: counted by their bytes alone, they
/// were within the budget while they took 4 GB of disk.
pub const FILE_COST: u64 = 4096;

/// An error of drawing a picture, told in the report with its causes.
pub(super) type DrawError = Box<dyn std::error::Error + Send + Sync>;

/// The tally the parallel jobs keep.
pub(super) struct Tally {
    /// PNG bytes that may still be written.
    pub(super) output_budget: AtomicU64,
    pub(super) written: AtomicUsize,
    pub(super) decoded: AtomicUsize,
    pub(super) empty: AtomicUsize,
    pub(super) failed: AtomicUsize,
    pub(super) over_budget: AtomicUsize,
    /// Pictures put off and drawn after the threads were done, one at a time.
    pub(super) alone: AtomicUsize,
    pub(super) bytes: AtomicU64,
    pub(super) errors: Mutex<Vec<String>>,
}

impl Tally {
    /// A tally that may write `output_budget` bytes.
    pub(super) fn new(output_budget: u64) -> Self {
        Tally {
            output_budget: AtomicU64::new(output_budget),
            written: AtomicUsize::new(0),
            decoded: AtomicUsize::new(0),
            empty: AtomicUsize::new(0),
            failed: AtomicUsize::new(0),
            over_budget: AtomicUsize::new(0),
            alone: AtomicUsize::new(0),
            bytes: AtomicU64::new(0),
            errors: Mutex::new(Vec::new()),
        }
    }

    /// Counts `entries` entries failed, keeping `what` among the first messages.
    pub(super) fn fail(&self, entries: usize, what: String) {
        self.failed.fetch_add(entries, Ordering::Relaxed);
        if let Ok(mut errors) = self.errors.lock()
            && errors.len() < ERRORS_KEPT
        {
            errors.push(what);
        }
    }
}

/// What an entry's picture is: drawn (one picture, or an animation's frames), of no pixel,
/// past the budget, or put off until the threads are done (past a thread's share of
/// [`super::job::HELD_MAX`]).
pub(super) enum Drawn {
    Picture(RgbaImage),
    Frames(Vec<RgbaImage>),
    Empty,
    OverBudget,
    Later,
}

/// The bytes a decoded entry holds in a buffer of its own: `bytes`' length when `owned`,
/// else 0 (it lies in place, in the mapped file).
pub(super) fn owned_len(owned: bool, bytes: &[u8]) -> u64 {
    if owned { bytes.len() as u64 } else { 0 }
}

/// Takes `bytes` of RGBA from `budget`; false (and nothing taken) if it has not that many.
pub(super) fn take_budget(budget: &AtomicU64, bytes: u64) -> bool {
    budget
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
            left.checked_sub(bytes)
        })
        .is_ok()
}
