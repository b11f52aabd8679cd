//! mni-core: every structure and error path on hand-built bytes and synthetic files, the real
//! episode 1 files (ignored without `GAMEDATA_DIR`), and the replay of fuzz cases.

// The one place this test crate allows what library code may not: a failed unwrap, expect,
// index or panic is a failed test. (clippy.toml's allow-*-in-tests covers only #[test]
// functions, not the helpers beside them.)
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

/// The kind of a result's data error; `None` for `Ok` or a file-system error.
pub(crate) fn kind<T>(result: mni_core::Result<T>) -> Option<mni_core::ErrorKind> {
    result.err().and_then(|e| e.kind())
}

mod debug;
mod episode;
mod fuzz_regressions;
mod group;
mod map;
mod real_files;
mod sprites;
mod threads;
mod tileattr;
mod tiles;
