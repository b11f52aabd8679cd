//! How many comparisons the lookups of the import make on this thread: each step of a
//! binary search among the tilesets or a list of properties, each tileset looked at by a
//! scan, each comparison of a sort of properties. The tests read it to see that a cell
//! costs a search among the tilesets and an object lookups among its tile's properties,
//! whatever their numbers, never a clock. Beside them, the bytes of layer names written
//! into what errors name ([`super::element::What`]): none unless an error is made.

use std::cell::Cell;

thread_local! {
    static COMPARED: Cell<u64> = const { Cell::new(0) };
    static NAMED: Cell<u64> = const { Cell::new(0) };
}

/// `n` more comparisons.
pub(in crate::from_tmx) fn compared(n: u64) {
    COMPARED.with(|c| c.set(c.get().saturating_add(n)));
}

/// `n` more bytes of a layer's name written out.
pub(in crate::from_tmx) fn named(n: usize) {
    NAMED.with(|c| c.set(c.get().saturating_add(n as u64)));
}

/// The bytes of layers' names written out since the last call (which starts a new count).
pub(in crate::from_tmx) fn take_named() -> u64 {
    NAMED.with(|c| c.replace(0))
}

/// The comparisons made since the last call (which starts a new count).
pub(in crate::from_tmx) fn take() -> u64 {
    COMPARED.with(|c| c.replace(0))
}
