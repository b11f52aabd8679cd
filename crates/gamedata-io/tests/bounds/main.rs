//! The resource contract's shared pieces under dhat's counting allocator: the overlap
//! search costs no allocation when a table's entries lie in order (every real file), and a
//! stream is read within its cap.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cast_possible_truncation
)]

use gamedata_io::{FileData, FileError, Limits, Overlaps};
use gamedata_testkit::heap::{self, MIB};

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

/// 1,000,000 entries in order (as writers lay them out): one pass, no allocation. The
/// same entries shuffled: a sort of their numbers, 8 bytes an entry.
#[test]
fn the_overlap_search_allocates_only_for_tables_out_of_order() {
    let serial = heap::serial();
    let n = 1_000_000u64;
    let (found, peak) = heap::peak(&serial, || {
        Overlaps::find(n as usize, |i| Some((i as u64 * 10, i as u64 * 10 + 10)))
    });
    assert!(found.is_empty());
    // Nothing that grows with the table (8 MB if it did): the test harness's own reporting
    // on another thread may allocate its output buffers meanwhile (10,288 bytes seen once).
    assert!(peak < 64 * 1024, "an in-order table allocated {peak} bytes");
    // Reversed order, still disjoint: the sort, and nothing left out.
    let (found, peak) = heap::peak(&serial, || {
        Overlaps::find(n as usize, |i| {
            let j = n - 1 - i as u64;
            Some((j * 10, j * 10 + 10))
        })
    });
    assert!(found.is_empty());
    assert!(peak <= 8 * n + 64 * 1024, "peak heap {peak}");
}

/// `/dev/zero` with a cap of 8 MiB: refused, having held at most the cap's buffer as it grew.
#[cfg(unix)]
#[test]
fn an_endless_stream_costs_its_cap() {
    let serial = heap::serial();
    let zero = std::path::Path::new("/dev/zero");
    if !zero.exists() {
        return;
    }
    let limits = Limits::default().with_max_stream_bytes(8 * MIB);
    let (result, peak) = heap::peak(&serial, || FileData::read_with(zero, &limits));
    assert!(matches!(result, Err(FileError::StreamTooLong { .. })));
    // The buffer doubles as it grows: at most twice the cap, and the old and new buffers
    // side by side for one copy.
    assert!(peak <= 3 * 8 * MIB + MIB, "peak heap {peak}");
}
