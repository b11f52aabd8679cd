//! How many comparisons the lookups of the import make on this thread: each step of a
//! binary search among the tilesets or a list of properties, each tileset looked at by a
//! scan, each comparison of a sort of properties. The tests read it to see that a cell
//! costs a search among the tilesets and an object lookups among its tile's properties,
//! whatever their numbers, never a clock.

use std::cell::Cell;

thread_local! {
    static COMPARED: Cell<u64> = const { Cell::new(0) };
}

/// `n` more comparisons.
pub(in crate::from_tmx) fn compared(n: u64) {
    COMPARED.with(|c| c.set(c.get().saturating_add(n)));
}

/// The comparisons made since the last call (which starts a new count).
pub(in crate::from_tmx) fn take() -> u64 {
    COMPARED.with(|c| c.replace(0))
}
