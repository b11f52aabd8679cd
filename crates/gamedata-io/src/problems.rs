//! Lists of problems found in a file, capped: the first ones kept with their details, every
//! one counted. A crafted file can hold millions of bad entries; a report of them must not
//! cost more memory than the file.

use std::fmt;

use crate::PreviewTable;

/// Problems found reading a file: the first [`Problems::KEEP`] kept, all of them counted.
#[derive(Clone, PartialEq, Eq)]
pub struct Problems<T> {
    kept: Vec<T>,
    total: u64,
}

impl<T: fmt::Debug> fmt::Debug for Problems<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Problems")
            .field("total", &self.total)
            .field("kept", &PreviewTable(&self.kept))
            .finish()
    }
}

impl<T> Default for Problems<T> {
    fn default() -> Self {
        Problems {
            kept: Vec::new(),
            total: 0,
        }
    }
}

impl<T> Problems<T> {
    /// Problems kept with their details; the rest are only counted.
    pub const KEEP: usize = 100;

    /// No problem yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Counts `problem`, and keeps it if fewer than [`Problems::KEEP`] are kept.
    pub fn push(&mut self, problem: T) {
        self.total = self.total.saturating_add(1);
        if self.kept.len() < Self::KEEP {
            self.kept.push(problem);
        }
    }

    /// Adds `other`'s problems: its kept ones while there is room, all of its count.
    pub fn append(&mut self, other: Problems<T>) {
        let room = Self::KEEP.saturating_sub(self.kept.len());
        self.kept.extend(other.kept.into_iter().take(room));
        self.total = self.total.saturating_add(other.total);
    }

    /// The problems kept, in the order found (at most [`Problems::KEEP`]).
    pub fn kept(&self) -> &[T] {
        &self.kept
    }

    /// Every problem found, kept or not.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Problems counted but not kept.
    pub fn left_out(&self) -> u64 {
        self.total.saturating_sub(self.kept.len() as u64)
    }

    /// True if none was found.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }
}
