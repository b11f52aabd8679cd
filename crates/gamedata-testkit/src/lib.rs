//! Test helpers for the gamedata crates. A dev-dependency only; never part of a reader.
//!
//! - [`gamedata_dir`], [`require_file`], [`optional_file`]: the real game files under
//!   `GAMEDATA_DIR`. Tests that need them are `#[ignore]`d so a fresh clone passes, and when
//!   the variable is set but a file is missing they fail loudly instead of passing on
//!   nothing.
//! - [`replay_mutations`]: truncations and seeded byte and bit changes of an input, run
//!   through a parse function; a panic fails the test with the input saved to a file.
//! - [`assert_golden`]: compare a JSON value with a golden file; `GOLDEN_UPDATE=1` rewrites
//!   the file and then fails, so a run with the variable set never passes silently.
//! - [`regression_inputs`] and [`replay_files`]: the kept fuzz findings and the fuzz seeds of
//!   a family, replayed with [`replay_mutations`].
//! - [`sweep`]: a real file cut at many lengths and changed at 1,024 positions, each call's
//!   peak heap and bytes allocated counted and bounded (no wall-clock time).
//! - [`heap`]: the peak heap of a call, counted by dhat, for the resource contract's tests.
//! - [`ani`]: ANI animations written and played without the readers' code.
//! - [`rng`]: a seeded ChaCha8 generator (the `rand_chacha` crate), the same stream on every
//!   platform and run.

// A test kit reports failures by panicking: that is what a failed test is.
#![allow(clippy::panic, clippy::expect_used)]

pub mod ani;
mod claw;
pub mod heap;
pub mod rez;

pub use claw::{ClawImage, claw_images};

use std::path::{Path, PathBuf};

pub use rand_chacha::ChaCha8Rng;
pub use rand_core::{RngCore, SeedableRng};

/// The variable that points at the real game files (the `data` folder beside the checkout).
pub const GAMEDATA_DIR: &str = "GAMEDATA_DIR";

/// Makes a FIFO (a named pipe) at `path` with the system's `mkfifo`.
///
/// # Panics
///
/// When `mkfifo` cannot run or fails: the test cannot go on.
#[cfg(unix)]
pub fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(made.success(), "mkfifo {}", path.display());
}

/// The root of the workspace: a relative `GAMEDATA_DIR` is taken from here.
pub fn workspace_root() -> PathBuf {
    // This crate is `crates/gamedata-testkit` of the workspace.
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `GAMEDATA_DIR` folder, or `None` when the variable is not set. A relative path is
/// taken from the workspace root ([`workspace_root`]), where the README's commands run:
/// cargo runs each package's tests and benches from the package's own folder, so the
/// process's working folder would not do.
///
/// # Panics
///
/// If the variable is set but is not a folder: the caller asked for real files and would
/// otherwise silently test nothing.
pub fn gamedata_dir() -> Option<PathBuf> {
    let dir = resolve_gamedata_dir(PathBuf::from(std::env::var_os(GAMEDATA_DIR)?));
    assert!(
        dir.is_dir(),
        "{GAMEDATA_DIR} is set to {}, which is not a folder",
        dir.display()
    );
    Some(dir)
}

/// `dir` as given when absolute, else under the workspace root.
fn resolve_gamedata_dir(dir: PathBuf) -> PathBuf {
    if dir.is_absolute() {
        dir
    } else {
        workspace_root().join(dir)
    }
}

/// `$GAMEDATA_DIR/relative`, for a real-file test (mark it `#[ignore]`).
///
/// # Panics
///
/// If `GAMEDATA_DIR` is not set, or the file is not there.
pub fn require_file(relative: &str) -> PathBuf {
    let dir = gamedata_dir().unwrap_or_else(|| {
        panic!(
            "{GAMEDATA_DIR} must point at the real game files for this test: set it to their \
             folder and run cargo test -- --include-ignored"
        )
    });
    existing(dir.join(relative))
}

/// `$GAMEDATA_DIR/relative` when the variable is set, `None` when it is not (benches fall
/// back to synthetic data then).
///
/// # Panics
///
/// If the variable is set but the file is not there.
pub fn optional_file(relative: &str) -> Option<PathBuf> {
    gamedata_dir().map(|dir| existing(dir.join(relative)))
}

fn existing(path: PathBuf) -> PathBuf {
    assert!(
        path.exists(),
        "{} is missing: {GAMEDATA_DIR} is set, so the real files must be there",
        path.display()
    );
    path
}

mod mutate;
pub use mutate::{
    EVERY_LENGTH_BELOW, MutationPlan, SWEEP_HEAP_MARGIN, SWEEP_WORK_FACTOR, Sweep,
    regression_inputs, replay_crate_regressions, replay_files, replay_mutations, sweep,
    truncation_lengths,
};

/// A seeded ChaCha8 generator: the same stream for the same seed on every platform.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A value in `0..n` from `rng` (`0` when `n` is 0). Slightly biased for huge `n`, which
/// does not matter for picking test positions.
pub fn below(rng: &mut impl RngCore, n: usize) -> usize {
    let n64 = u64::try_from(n).unwrap_or(u64::MAX);
    if n64 == 0 {
        return 0;
    }
    usize::try_from(rng.next_u64() % n64).unwrap_or(0)
}

/// The figures an independent reference reader computed from the real files:
/// `tools/reference/goldens/NAME` (written by the scripts beside it, which `.ci/run` runs and
/// compares), as JSON.
///
/// # Panics
///
/// If the file is missing or is not JSON.
pub fn reference(name: &str) -> serde_json::Value {
    let path = workspace_root().join("tools/reference/goldens").join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// Asserts the sizes in bytes of a format crate's three errors (its `Copy` error kind, its
/// data error, its full error), so that a change of size is a decision, not an accident.
/// The kind must be `Copy`.
///
/// Panics if a size differs from `expected` (kind, data error, error).
#[track_caller]
pub fn assert_error_sizes<Kind: Copy, DataError, Error>(expected: (usize, usize, usize)) {
    use std::mem::size_of;
    let found = (
        size_of::<Kind>(),
        size_of::<DataError>(),
        size_of::<Error>(),
    );
    assert_eq!(
        found, expected,
        "sizes of ErrorKind, DataError, Error in bytes"
    );
}

/// Asserts that `value`'s `Debug` text is at most `bound` bytes (a view's `Debug` must print
/// lengths, counts and the first few items, never its buffer), naming `what` and showing the
/// start of the text when it is not.
///
/// # Panics
///
/// If the text is longer than `bound`.
pub fn assert_debug_bounded(what: &str, value: &impl std::fmt::Debug, bound: usize) {
    let text = format!("{value:?}");
    let start: String = text.chars().take(300).collect();
    assert!(
        text.len() <= bound,
        "Debug of {what} is {} bytes: {start}",
        text.len()
    );
}

/// Compares `actual` with the JSON in the golden file at `path` (values compared, not text).
///
/// With `GOLDEN_UPDATE=1` in the environment it writes `actual` to `path` (pretty-printed)
/// and then fails, so that the rewrite is reviewed in the diff and a run with the variable
/// set can never pass.
///
/// # Panics
///
/// If the values differ, the golden file cannot be read or parsed, or it was rewritten.
pub fn assert_golden(path: &Path, actual: &serde_json::Value) {
    if std::env::var_os("GOLDEN_UPDATE").is_some() {
        let text = serde_json::to_string_pretty(actual).expect("a JSON value serialises") + "\n";
        std::fs::write(path, text)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        panic!(
            "golden files rewritten, review the diff ({}); run again without GOLDEN_UPDATE",
            path.display()
        );
    }
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "cannot read golden file {} ({e}); write it with GOLDEN_UPDATE=1",
            path.display()
        )
    });
    let expected: serde_json::Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("golden file {} is not JSON: {e}", path.display()));
    assert!(
        *actual == expected,
        "output differs from golden file {}\nexpected: {expected}\n  actual: {actual}",
        path.display()
    );
}

#[cfg(test)]
mod tests {
    use std::panic::catch_unwind;

    use super::*;

    #[test]
    fn a_relative_gamedata_dir_is_taken_from_the_workspace_root() {
        let root = workspace_root();
        assert!(root.join("Cargo.toml").is_file() && root.join("crates").is_dir());
        assert_eq!(
            resolve_gamedata_dir(PathBuf::from("../game-files")),
            root.join("../game-files")
        );
        let absolute = std::env::temp_dir();
        assert_eq!(resolve_gamedata_dir(absolute.clone()), absolute);
    }

    #[test]
    fn the_rng_is_the_same_stream_for_the_same_seed() {
        let stream = |seed| {
            let mut r = rng(seed);
            [r.next_u64(), r.next_u64(), r.next_u64()]
        };
        let (a, b, c) = (stream(7), stream(7), stream(8));
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mut r = rng(1);
        assert!((0..1000).all(|_| below(&mut r, 10) < 10));
        assert_eq!(below(&mut r, 0), 0);
    }

    #[test]
    fn golden_compares_values() {
        let dir = std::env::temp_dir().join(format!("golden-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp folder");
        let path = dir.join("g.json");
        std::fs::write(&path, "{\"b\": 2, \"a\": [1]}").expect("write");
        if std::env::var_os("GOLDEN_UPDATE").is_none() {
            assert_golden(&path, &serde_json::json!({"a": [1], "b": 2}));
            let differs = catch_unwind(|| assert_golden(&path, &serde_json::json!({"a": [2]})));
            assert!(differs.is_err());
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
