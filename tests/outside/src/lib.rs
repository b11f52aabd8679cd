//! The repository's own pages, compiled as doctests here: this package depends on the three
//! format crates (with `write`), as the pages' examples do, and is never published, so a
//! page outside any crate can be included (`cargo test -p outside-program --doc`).

/// The top-level README's Rust examples, compiled as doctests so that the README stays true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

// The command manual, `docs/cli.md`, when it holds Rust examples: add
// `#[cfg(doctest)] #[doc = include_str!("../../../docs/cli.md")] pub struct CliDoctests;`
