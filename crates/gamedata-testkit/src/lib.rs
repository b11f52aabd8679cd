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

use std::panic::{AssertUnwindSafe, catch_unwind};
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

/// The fuzz regression replay of one crate: the kept findings under
/// `{manifest_dir}/tests/fuzz-cases` and the seeds of the targets named `{target_prefix}*`
/// under `{manifest_dir}/../../fuzz/seeds` ([`regression_inputs`]), each run through
/// [`replay_files`]. Returns the inputs run.
///
/// # Panics
///
/// If fewer than `min_files` inputs are found (the seeds are missing), or as
/// [`replay_files`].
pub fn replay_crate_regressions(
    manifest_dir: &Path,
    target_prefix: &str,
    min_files: usize,
    plan: MutationPlan,
    parse: impl Fn(&[u8]) + Sync,
) -> usize {
    let files = regression_inputs(
        &manifest_dir.join("tests/fuzz-cases"),
        &manifest_dir.join("../../fuzz/seeds"),
        target_prefix,
    );
    assert!(files.len() >= min_files, "fuzz seeds missing: {files:?}");
    replay_files(&files, plan, parse)
}

/// The files to replay as fuzz regressions: every file under `cases` (kept findings) and
/// under the folders of `seeds` whose name starts with `target_prefix` ("cosmo_", "uo_"),
/// sorted; `.md` files are left out.
pub fn regression_inputs(cases: &Path, seeds: &Path, target_prefix: &str) -> Vec<PathBuf> {
    let mut files = files_under(cases);
    for target in std::fs::read_dir(seeds).into_iter().flatten().flatten() {
        if target
            .file_name()
            .to_string_lossy()
            .starts_with(target_prefix)
        {
            files.extend(files_under(&target.path()));
        }
    }
    files.sort();
    files
}

/// Runs [`replay_mutations`] over each of `files` (named by file name) and returns the
/// inputs run. Inputs over 1 MiB get at most 8 byte changes and 8 bit flips, so that a
/// multi-megabyte seed is mostly cut, not copied a thousand times.
///
/// The files are shared out over one thread a core (`available_parallelism`), each taking
/// the next file not yet taken: the replay is the slowest part of several crates' tests,
/// and the test harness runs one test binary at a time. What is run for each file does not
/// depend on the threads.
///
/// # Panics
///
/// If a file cannot be read, or `parse` panics (see [`replay_mutations`]): the first
/// thread's panic is raised again here, with its message.
pub fn replay_files(files: &[PathBuf], plan: MutationPlan, parse: impl Fn(&[u8]) + Sync) -> usize {
    let threads = std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .clamp(1, files.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut runs = 0;
                    while let Some(path) =
                        files.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                    {
                        runs += replay_file(path, plan, &parse);
                    }
                    runs
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e))
            })
            .sum()
    })
}

/// [`replay_mutations`] over one file, its plan cut to 8 and 8 changes over 1 MiB.
fn replay_file(path: &Path, plan: MutationPlan, parse: &(impl Fn(&[u8]) + Sync)) -> usize {
    let data =
        std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let plan = if data.len() > 1 << 20 {
        MutationPlan {
            byte_changes: plan.byte_changes.min(8),
            bit_flips: plan.bit_flips.min(8),
            ..plan
        }
    } else {
        plan
    };
    replay_mutations(&name, &data, plan, parse)
}

/// Every file under `dir`, recursively, but `.md` files; none if it cannot be listed.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for item in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = item.path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else if path.extension().is_none_or(|e| e != "md") {
            out.push(path);
        }
    }
    out
}

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

/// How many of each kind of change [`replay_mutations`] makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MutationPlan {
    /// Seed of the generator that picks positions and values.
    pub seed: u64,
    /// Single bytes replaced by a random value.
    pub byte_changes: usize,
    /// Single bits flipped.
    pub bit_flips: usize,
}

impl Default for MutationPlan {
    fn default() -> Self {
        MutationPlan {
            seed: 0x6A4D_E7A1,
            byte_changes: 512,
            bit_flips: 512,
        }
    }
}

/// Inputs under this many bytes are cut at every length; longer ones at 1,024 spaced lengths.
pub const EVERY_LENGTH_BELOW: usize = 4096;

/// The lengths [`replay_mutations`] cuts an input of `len` bytes at: every length from 0 to
/// `len` when `len` is under 4 KiB, else 1,024 lengths spread evenly over `0..len` plus
/// `len` itself.
pub fn truncation_lengths(len: usize) -> Vec<usize> {
    if len < EVERY_LENGTH_BELOW {
        return (0..=len).collect();
    }
    let mut lengths: Vec<usize> = (0..1024).map(|i| len / 1024 * i).collect();
    lengths.push(len);
    lengths
}

/// Runs `parse` over `data` cut at every [`truncation_lengths`], then over copies of `data`
/// with single bytes changed and single bits flipped at positions from a seeded generator.
///
/// `parse` may return errors (they are results); it must not panic. Returns the number of
/// inputs run.
///
/// # Panics
///
/// If `parse` panics: the input is saved to `$MUTATION_OUT` (default: the system's temp
/// folder, under `gamedata-mutations/`) as `{name}-{kind}-{n}.bin`, and the message names
/// the file, the kind of change and where it was.
pub fn replay_mutations(
    name: &str,
    data: &[u8],
    plan: MutationPlan,
    parse: impl Fn(&[u8]),
) -> usize {
    let out = std::env::var_os("MUTATION_OUT").map_or_else(
        || std::env::temp_dir().join("gamedata-mutations"),
        PathBuf::from,
    );
    let mut runs = 0;
    replay_saving_to(&out, name, data, plan, |input, _| {
        runs += 1;
        parse(input);
    });
    runs
}

/// The heap one call of a [`sweep`] may take besides its input and the caller's decoding
/// allowance: the resource contract's 64 MiB.
pub const SWEEP_HEAP_MARGIN: u64 = 64 << 20;

/// The bytes one call of a [`sweep`] may allocate in all (a measure of its work that no
/// machine load changes), as a multiple of its input and allowance, plus
/// [`SWEEP_HEAP_MARGIN`].
pub const SWEEP_WORK_FACTOR: u64 = 8;

/// What a [`sweep`] ran and measured.
#[derive(Clone, Debug)]
pub struct Sweep {
    /// Inputs run.
    pub runs: usize,
    /// The highest peak heap of a call, in bytes.
    pub peak: u64,
    /// The input it came from ("truncation (cut to 100 bytes)" ...).
    pub peak_input: String,
    /// The most bytes a call allocated in all.
    pub allocated: u64,
}

/// The sweep of a real file: `parse` over `data` cut at every [`truncation_lengths`] (every
/// length under 4 KiB, 1,024 spaced lengths above) and with single bytes changed at 1,024
/// positions from a seeded generator, each call's heap counted by dhat ([`heap`]; the test
/// binary must install dhat's allocator, and the sweep holds `serial`).
///
/// `allowance(input)` is what the call may decode besides (the `Limits`-bounded output of a
/// decompressor, for one); a call may peak at its input's length plus `allowance` plus
/// [`SWEEP_HEAP_MARGIN`], and allocate at most [`SWEEP_WORK_FACTOR`] times its input and
/// allowance plus the margin in all. Wall-clock time is not measured: speed is the
/// benchmarks' business.
///
///
/// # Panics
///
/// If `parse` panics (the input is saved, as [`replay_mutations`] does), or if a call passes
/// either heap bound.
pub fn sweep(
    serial: &heap::Serial,
    name: &str,
    data: &[u8],
    allowance: impl Fn(&[u8]) -> u64,
    parse: impl Fn(&[u8]),
) -> Sweep {
    let out = std::env::var_os("MUTATION_OUT").map_or_else(
        || std::env::temp_dir().join("gamedata-mutations"),
        PathBuf::from,
    );
    let plan = MutationPlan {
        byte_changes: 1024,
        bit_flips: 0,
        ..MutationPlan::default()
    };
    let mut sweep = Sweep {
        runs: 0,
        peak: 0,
        peak_input: String::new(),
        allocated: 0,
    };
    let measured = |input: &[u8], what: &str| {
        let profiler = dhat::Profiler::builder().testing().build();
        parse(input);
        let stats = dhat::HeapStats::get();
        drop(profiler);
        let (peak, total) = (stats.max_bytes as u64, stats.total_bytes);
        let base = (input.len() as u64).saturating_add(allowance(input));
        let peak_bound = base.saturating_add(SWEEP_HEAP_MARGIN);
        let work_bound = base
            .saturating_mul(SWEEP_WORK_FACTOR)
            .saturating_add(SWEEP_HEAP_MARGIN);
        assert!(
            peak <= peak_bound,
            "{name}: a call peaked at {peak} bytes of heap (over {peak_bound}) on a {what}"
        );
        assert!(
            total <= work_bound,
            "{name}: a call allocated {total} bytes in all (over {work_bound}) on a {what}"
        );
        (peak, total)
    };
    let _ = serial;
    replay_saving_to(&out, name, data, plan, |input, what: &str| {
        let (peak, total) = measured(input, what);
        sweep.runs += 1;
        sweep.allocated = sweep.allocated.max(total);
        if peak > sweep.peak {
            sweep.peak = peak;
            sweep.peak_input = what.to_owned();
        }
    });
    sweep
}

/// Calls `call` with every input of `plan` over `data` and what it is ("truncation (cut to
/// 100 bytes)" ...); a call that panics has its input saved under `out` and fails the test.
fn replay_saving_to(
    out: &Path,
    name: &str,
    data: &[u8],
    plan: MutationPlan,
    mut call: impl FnMut(&[u8], &str),
) {
    let mut runs = 0;
    let mut run = |input: &[u8], kind: &str, detail: String| {
        runs += 1;
        let what = format!("{kind} ({detail})");
        let result = catch_unwind(AssertUnwindSafe(|| call(input, &what)));
        if let Err(cause) = result {
            let path = save_failure(out, name, kind, runs, input);
            let message = cause
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| cause.downcast_ref::<&str>().copied())
                .unwrap_or("a panic");
            panic!(
                "parsing {name} panicked on a {kind} ({detail}): {message}; the input is saved \
                 at {}",
                path.display()
            );
        }
    };
    for len in truncation_lengths(data.len()) {
        if let Some(cut) = data.get(..len) {
            run(cut, "truncation", format!("cut to {len} bytes"));
        }
    }
    if data.is_empty() {
        return;
    }
    let mut rng = rng(plan.seed);
    let mut copy = data.to_vec();
    for _ in 0..plan.byte_changes {
        let at = below(&mut rng, copy.len());
        let value = rng.next_u32().to_le_bytes()[0];
        let Some(byte) = copy.get_mut(at) else {
            continue;
        };
        let old = std::mem::replace(byte, value);
        run(
            &copy,
            "byte change",
            format!("byte {at} set to {value:#04x}"),
        );
        if let Some(byte) = copy.get_mut(at) {
            *byte = old;
        }
    }
    for _ in 0..plan.bit_flips {
        let at = below(&mut rng, copy.len());
        let bit = below(&mut rng, 8);
        let Some(byte) = copy.get_mut(at) else {
            continue;
        };
        *byte ^= 1 << bit;
        run(&copy, "bit flip", format!("bit {bit} of byte {at}"));
        if let Some(byte) = copy.get_mut(at) {
            *byte ^= 1 << bit;
        }
    }
}

fn save_failure(dir: &Path, name: &str, kind: &str, n: usize, input: &[u8]) -> PathBuf {
    let safe: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let path = dir.join(format!("{safe}-{}-{n}.bin", kind.replace(' ', "_")));
    let saved = std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, input));
    if let Err(e) = saved {
        eprintln!(
            "could not save the failing input to {}: {e}",
            path.display()
        );
    }
    path
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
    fn truncation_lengths_cover_small_inputs_fully_and_large_ones_evenly() {
        assert_eq!(truncation_lengths(3), [0, 1, 2, 3]);
        assert_eq!(truncation_lengths(4095).len(), 4096);
        let big = truncation_lengths(1_000_000);
        assert_eq!(big.len(), 1025);
        assert_eq!(big.first(), Some(&0));
        assert_eq!(big.last(), Some(&1_000_000));
        assert!(big.windows(2).all(|w| w[0] < w[1]));
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
    fn replay_runs_every_truncation_and_change() {
        let data = vec![7u8; 100];
        let plan = MutationPlan {
            seed: 1,
            byte_changes: 5,
            bit_flips: 6,
        };
        let seen = std::cell::Cell::new(0usize);
        let runs = replay_mutations("count", &data, plan, |input| {
            assert!(input.len() <= 100);
            seen.set(seen.get() + 1);
        });
        assert_eq!(runs, 101 + 5 + 6);
        assert_eq!(seen.get(), runs);
    }

    #[test]
    fn a_panic_saves_the_input_and_fails() {
        let dir = std::env::temp_dir().join(format!("testkit-{}", std::process::id()));
        let data = b"abcdef".to_vec();
        let plan = MutationPlan {
            seed: 1,
            byte_changes: 0,
            bit_flips: 0,
        };
        let result = catch_unwind(|| {
            replay_saving_to(&dir, "boom", &data, plan, |input, _| {
                assert!(input.len() < 4, "too long");
            })
        });
        let message = result
            .expect_err("the parse panicked, so the replay must fail")
            .downcast::<String>()
            .expect("a formatted message");
        assert!(
            message.contains("truncation (cut to 4 bytes): too long"),
            "{message}"
        );
        // Runs 1..=4 are lengths 0..=3; the fifth, length 4, panicked.
        let saved = dir.join("boom-truncation-5.bin");
        assert!(message.contains(&saved.display().to_string()), "{message}");
        assert_eq!(std::fs::read(&saved).ok().as_deref(), Some(&b"abcd"[..]));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn byte_changes_and_bit_flips_reach_the_parser() {
        let data = vec![0u8; 64];
        let plan = MutationPlan {
            seed: 3,
            byte_changes: 0,
            bit_flips: 20,
        };
        let flipped = std::cell::Cell::new(0usize);
        replay_mutations("flips", &data, plan, |input| {
            if input.len() == 64 {
                // Exactly one bit differs from the all-zero input in a bit flip run.
                let ones: u32 = input.iter().map(|b| b.count_ones()).sum();
                assert!(ones <= 1);
                flipped.set(flipped.get() + usize::try_from(ones).unwrap_or(0));
            }
        });
        assert_eq!(flipped.get(), 20);
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
