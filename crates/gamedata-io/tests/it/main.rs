//! gamedata-io: every reading path and every error path.

// The one place this test crate allows what library code may not: a failed unwrap, expect,
// index or panic is a failed test. (clippy.toml's allow-*-in-tests covers only #[test]
// functions, not the helpers beside them.)
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod bytes;
mod error;
mod file;
mod fuzz_regressions;
mod helpers;
mod limits;
mod owner;
mod text;
