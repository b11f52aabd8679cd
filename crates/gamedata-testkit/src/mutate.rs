//! The mutation replay: the fuzz regressions of a crate (kept findings and seeds), each
//! input cut at many lengths and changed byte by byte and bit by bit, and the sweeps of the
//! real files within a heap bound; a failing input is saved under `$MUTATION_OUT`.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use crate::{RngCore, below, heap, rng};

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
