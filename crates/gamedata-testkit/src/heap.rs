//! Peak heap of a call, counted by dhat's testing profiler: the resource contract's tests
//! assert memory with it, never wall-clock time.
//!
//! The test binary must install dhat's allocator:
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOC: dhat::Alloc = dhat::Alloc;
//! ```
//!
//! dhat counts every thread's allocations and allows one profiler at a time, so each test
//! of such a binary holds [`serial`] from its start (building its input included) to its end.

use std::sync::{Mutex, MutexGuard};

/// One mebibyte, for bounds written as `64 * MIB`.
pub const MIB: u64 = 1 << 20;

static SERIAL: Mutex<()> = Mutex::new(());

/// A guard that keeps the other tests of the binary from allocating while it lives.
pub struct Serial(#[allow(dead_code)] MutexGuard<'static, ()>);

/// Waits until no other test of the binary runs, and keeps it so while the guard lives.
pub fn serial() -> Serial {
    Serial(
        SERIAL
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()),
    )
}

/// Runs `f` and returns its result with the peak of heap bytes allocated during it (bytes
/// allocated before and still held are not counted; rayon's threads are).
pub fn peak<T>(_serial: &Serial, f: impl FnOnce() -> T) -> (T, u64) {
    let profiler = dhat::Profiler::builder().testing().build();
    let out = f();
    let peak = dhat::HeapStats::get().max_bytes as u64;
    drop(profiler);
    (out, peak)
}
