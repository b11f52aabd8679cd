//! wap-core: the header, decompression and checksum on hand-built levels, and every real
//! level (ignored without `GAMEDATA_DIR`).

// The one place this test crate allows what library code may not: a failed unwrap, expect,
// index or panic is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::cast_possible_truncation
)]

/// The kind of a result's data error; `None` for `Ok` or a file-system error.
pub(crate) fn kind<T, E: Into<wap_core::Error>>(
    result: Result<T, E>,
) -> Option<wap_core::ErrorKind> {
    result.err().and_then(|e| e.into().kind())
}

mod animations;
mod debug;
mod fuzz_regressions;
mod image_names;
mod index;
mod index_disk;
mod index_walk;
mod level;
mod options;
mod pid;
mod real_files;
mod rez;
mod rez_ranged;
mod structures;
mod structures_errors;
mod synth_level;
mod threads;
mod views;

/// The errors stay small: a view's error is the kind and where it was found, with no I/O
/// variant (a `DataError` is a plain struct); the kind is `Copy`. Bytes, on 64-bit targets.
#[test]
#[cfg(target_pointer_width = "64")]
fn error_sizes() {
    use wap_core::{DataError, Error, ErrorKind};
    gamedata_testkit::assert_error_sizes::<ErrorKind, DataError, Error>((56, 80, 80));
}
