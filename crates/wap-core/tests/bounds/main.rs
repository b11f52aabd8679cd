//! The resource contract (`docs/robustness.md`), held by counting the
//! heap (dhat's allocator): crafted files shaped to multiply a reader's memory or work, and
//! the sweeps of the real files, each call's peak heap and bytes allocated bounded by its
//! input. Never wall-clock time.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::cast_possible_truncation
)]

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

mod crafted;
mod images;
mod ranged;
mod sweeps;
