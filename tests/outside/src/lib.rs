//! The repository's own pages, compiled as doctests here: this package depends on the three
//! format crates (with `write`), as the pages' examples do, and is never published, so a
//! page outside any crate can be included (`cargo test -p outside-program --doc`).

/// The top-level README's Rust examples, compiled as doctests so that the README stays true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// The command manual's examples (`docs/cli.md`), compiled the same way should it hold Rust.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/cli.md")]
pub struct CliManualDoctests;

/// The testing guide's examples (`docs/testing.md`).
#[cfg(doctest)]
#[doc = include_str!("../../../docs/testing.md")]
pub struct TestingDoctests;
