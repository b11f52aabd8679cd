//! What `gamedata uo export` runs on: the used entries sorted into pictures, the budgets,
//! and the parallel drawing and writing of each picture under its entries' names.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use gamedata_render::RgbaImage;
use rayon::prelude::*;

use super::export::{BUDGET_BASE, BUDGET_PER_BYTE, ERRORS_KEPT};
use super::export_job::{HELD_MAX, Job};
use crate::output::progress_bar;

/// The tally the parallel jobs keep.
pub(super) struct Tally {
    /// PNG bytes that may still be written.
    pub(super) output_budget: AtomicU64,
    pub(super) written: AtomicUsize,
    pub(super) decoded: AtomicUsize,
    pub(super) empty: AtomicUsize,
    pub(super) failed: AtomicUsize,
    pub(super) over_budget: AtomicUsize,
    /// Pictures put off and drawn after the threads were done, one at a time.
    pub(super) alone: AtomicUsize,
    pub(super) bytes: AtomicU64,
    pub(super) errors: Mutex<Vec<String>>,
}

impl Tally {
    /// A tally whose output budget follows from `input` bytes of input.
    pub(super) fn new(input: u64) -> Self {
        Tally {
            output_budget: AtomicU64::new(budget_for(input)),
            written: AtomicUsize::new(0),
            decoded: AtomicUsize::new(0),
            empty: AtomicUsize::new(0),
            failed: AtomicUsize::new(0),
            over_budget: AtomicUsize::new(0),
            alone: AtomicUsize::new(0),
            bytes: AtomicU64::new(0),
            errors: Mutex::new(Vec::new()),
        }
    }

    /// Counts `entries` entries failed, keeping `what` among the first messages.
    pub(super) fn fail(&self, entries: usize, what: String) {
        self.failed.fetch_add(entries, Ordering::Relaxed);
        if let Ok(mut errors) = self.errors.lock()
            && errors.len() < ERRORS_KEPT
        {
            errors.push(what);
        }
    }
}

/// What an entry's picture is: drawn (one picture, or an animation's frames), of no pixel,
/// past the budget, or put off until the threads are done (past a thread's share of
/// [`HELD_MAX`]).
pub(super) enum Drawn {
    Picture(RgbaImage),
    Frames(Vec<RgbaImage>),
    Empty,
    OverBudget,
    Later,
}

/// The bytes a decoded entry holds in a buffer of its own: `bytes`' length when `owned`,
/// else 0 (it lies in place, in the mapped file).
pub(super) fn owned_len(owned: bool, bytes: &[u8]) -> u64 {
    if owned { bytes.len() as u64 } else { 0 }
}

/// A budget of [`BUDGET_PER_BYTE`] bytes per input byte plus [`BUDGET_BASE`].
pub(super) fn budget_for(input: u64) -> u64 {
    input
        .saturating_mul(BUDGET_PER_BYTE)
        .saturating_add(BUDGET_BASE)
}

/// Takes `bytes` of RGBA from `budget`; false (and nothing taken) if it has not that many.
pub(super) fn take_budget(budget: &AtomicU64, bytes: u64) -> bool {
    budget
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
            left.checked_sub(bytes)
        })
        .is_ok()
}

/// The decoding budget and the tally (with its output budget) for input files `inputs`.
pub(super) fn budgets(inputs: &[PathBuf]) -> (AtomicU64, Tally) {
    let len: u64 = inputs
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    (AtomicU64::new(budget_for(len)), Tally::new(len))
}

/// A picture set's entries as the export reads them, by number (below 2^32).
pub(super) struct Entries<N, R, S, V> {
    /// The numbers that may hold a picture, in order.
    pub(super) numbers: N,
    /// Whether entry n holds a picture (`Err` if it cannot be read).
    pub(super) read: R,
    /// Where entry n's bytes start: its index record's offset.
    pub(super) start: S,
    /// How entry n's bytes are read: entries over the same bytes read the same way are
    /// one picture.
    pub(super) reading: V,
}

/// The number in an element of [`Entries::order`].
pub(super) fn number(element: u64) -> usize {
    usize::try_from(element & 0xFFFF_FFFF).unwrap_or(usize::MAX)
}

/// Entries `0..count` as far as 32-bit numbers go; those past are counted as failed.
pub(super) fn numbered(count: usize, tally: &Tally) -> std::ops::Range<usize> {
    let numbered = count.min(1 << 32);
    if count > numbered {
        tally.fail(
            count - numbered,
            format!("entries from {numbered:#X} on: past 32-bit numbers"),
        );
    }
    0..numbered
}

impl<N, I, R, S, V> Entries<N, R, S, V>
where
    N: Fn() -> I,
    I: Iterator<Item = usize>,
    R: Fn(usize) -> Result<bool, mul_core::DataError>,
    S: Fn(usize) -> u32,
    V: Fn(usize) -> u64,
{
    /// The entries holding a picture as `start << 32 | number`, sorted so that the entries
    /// of one picture (the same bytes, read the same way) lie side by side, the lowest
    /// number first; entries that cannot be read are counted as failed.
    pub(super) fn order(&self, name: &impl Fn(usize) -> PathBuf, tally: &Tally) -> Vec<u64> {
        let mut used = 0usize;
        for n in (self.numbers)() {
            match (self.read)(n) {
                Ok(true) => used += 1,
                Ok(false) => {}
                Err(e) => tally.fail(1, format!("{}: {e}", name(n).display())),
            }
        }
        let mut order = Vec::with_capacity(used);
        order.extend(
            (self.numbers)()
                .filter(|&n| matches!((self.read)(n), Ok(true)))
                .map(|n| (u64::from((self.start)(n)) << 32) | (n as u64 & 0xFFFF_FFFF))
                .take(used),
        );
        order.sort_unstable();
        for run in order.chunk_by_mut(|a, b| a >> 32 == b >> 32) {
            if run.len() > 1 {
                run.sort_unstable_by_key(|&e| ((self.reading)(number(e)), e));
            }
        }
        order
    }
}

/// What [`run`] asks of a picture set's entries.
pub(super) trait Pictures {
    /// True if elements `a` and `b` of [`Entries::order`] are one picture.
    fn same(&self, a: u64, b: u64) -> bool;

    /// True if elements `a` and `b` (side by side in [`Entries::order`]) are decoded in one
    /// job, from one stream: one picture, or pictures that decode one stream each their
    /// own way ([`Streams`]).
    fn shares(&self, a: u64, b: u64) -> bool {
        self.same(a, b)
    }
}

/// The pictures of a job's `group` ([`Pictures::shares`]): each one's elements' places in
/// the group, in order.
pub(super) fn pictures_of(group: &[u64], entries: &impl Pictures) -> Vec<Range<usize>> {
    let mut at = 0usize;
    group
        .chunk_by(|&a, &b| entries.same(a, b))
        .map(|picture| {
            let start = at;
            at = at.saturating_add(picture.len());
            start..at
        })
        .collect()
}

/// [`Entries`] whose pictures over one start may share a stored stream: `shares(a, b)`
/// for the numbers of two entries of one start says whether their pictures are decoded
/// in one job (one inflate of the stream for all of them, each picture made its own way
/// from it, [`run_parts`] giving the job the pictures side by side).
pub(super) struct Streams<'a, E, F> {
    pub(super) entries: &'a E,
    pub(super) shares: F,
}

impl<E: Pictures, F: Fn(usize, usize) -> bool> Pictures for Streams<'_, E, F> {
    fn same(&self, a: u64, b: u64) -> bool {
        self.entries.same(a, b)
    }

    fn shares(&self, a: u64, b: u64) -> bool {
        self.entries.same(a, b) || (a >> 32 == b >> 32 && (self.shares)(number(a), number(b)))
    }
}

impl<N, R, S, V: Fn(usize) -> u64> Pictures for Entries<N, R, S, V> {
    fn same(&self, a: u64, b: u64) -> bool {
        a >> 32 == b >> 32 && (self.reading)(number(a)) == (self.reading)(number(b))
    }
}

/// Draws each picture of `order` in parallel with `draw` (given its lowest number and its
/// [`Job`]) and writes its PNG under the name of each of its entries while the output
/// budget lasts, as [`run_parts`] does.
pub(super) fn run(
    order: &[u64],
    entries: &(impl Pictures + Sync),
    name: &(impl Fn(usize) -> PathBuf + Sync),
    inputs: &[PathBuf],
    budget: &AtomicU64,
    tally: &Tally,
    draw: impl Fn(usize, &Job) -> Result<Drawn, anyhow::Error> + Sync,
) {
    run_parts(
        order,
        entries,
        name,
        inputs,
        budget,
        tally,
        |group, job, part| {
            let Some(&first) = group.first() else {
                return;
            };
            part(Part {
                within: None,
                offset: 0,
                span: 1,
                drawn: draw(number(first), job),
            });
        },
    );
}

/// One outcome of a picture's decoding for [`run_parts`]: what is drawn for the entries
/// numbered `offset` past each of the picture's numbers. A `Picture` or `Frames` is written
/// under those numbers alone; any other outcome stands for `span` entries from there (an
/// entry that fails to decode, say, fails each of the directions drawn from it; one put
/// off is drawn again for those entries alone). `within`: the picture, when the job's
/// group holds several ([`Pictures::shares`]): its elements' places in the group; `None`
/// for the whole group.
pub(super) struct Part {
    pub(super) within: Option<Range<usize>>,
    pub(super) offset: usize,
    pub(super) span: usize,
    pub(super) drawn: Result<Drawn, anyhow::Error>,
}

/// A picture put off (elements of [`Entries::order`]), and the entries of it to draw.
type Later<'a> = (&'a [u64], Range<usize>);

/// [`run`] for pictures that decode once into several entries' pictures: `draw` (given the
/// job's group of elements of [`Entries::order`], its pictures side by side ([`Pictures::shares`]), and its [`Job`]) hands each outcome to the function it is given
/// as soon as it is drawn, which writes it and lets go of what it held, so that a thread
/// holds one of them at a time. Pictures are drawn in parallel, each thread holding its
/// share of [`HELD_MAX`]; those put off ([`Drawn::Later`]: past a share) are then drawn
/// one at a time, each with all of it, for the entries put off (`draw` skips the others:
/// [`Job::wants`]).
pub(super) fn run_parts(
    order: &[u64],
    entries: &(impl Pictures + Sync),
    name: &(impl Fn(usize) -> PathBuf + Sync),
    inputs: &[PathBuf],
    budget: &AtomicU64,
    tally: &Tally,
    draw: impl Fn(&[u64], &Job, &mut dyn FnMut(Part)) + Sync,
) {
    let bar = progress_bar(order.len() as u64, "exporting {bar:40} {pos}/{len} {eta}");
    let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    let threads = u64::try_from(rayon::current_num_threads()).unwrap_or(u64::MAX);
    let share = HELD_MAX.checked_div(threads).unwrap_or(HELD_MAX);
    let later: Mutex<Vec<Later<'_>>> = Mutex::new(Vec::new());
    let groups = order.chunk_by(|&a, &b| entries.shares(a, b));
    groups.par_bridge().for_each(|picture| {
        let job = Job::new(budget, share, false, 0..usize::MAX);
        draw(picture, &job, &mut |part| {
            deliver(picture, part, name, &inputs, tally, Some(&later));
            job.part_done();
        });
        bar.inc(picture.len() as u64);
    });
    bar.finish_and_clear();
    let mut later = later.into_inner().unwrap_or_default();
    // In the order of the pictures, whatever the threads' order.
    later.sort_unstable_by_key(|(picture, want)| (picture.first().copied(), want.start));
    for (picture, want) in later {
        tally.alone.fetch_add(1, Ordering::Relaxed);
        let job = Job::new(budget, HELD_MAX, true, want);
        draw(picture, &job, &mut |part| {
            deliver(picture, part, name, &inputs, tally, None);
            job.part_done();
        });
    }
}

/// Counts and writes one outcome of `group`'s picture `part.within` (elements of
/// [`Entries::order`]); one put off goes to `later` (counted as over the budget when there
/// is none: a job alone).
fn deliver<'a>(
    group: &'a [u64],
    part: Part,
    name: &impl Fn(usize) -> PathBuf,
    inputs: &[&Path],
    tally: &Tally,
    later: Option<&Mutex<Vec<Later<'a>>>>,
) {
    let picture = match &part.within {
        Some(within) => group.get(within.clone()).unwrap_or_default(),
        None => group,
    };
    let Some(first) = picture
        .first()
        .map(|&e| number(e).saturating_add(part.offset))
    else {
        return;
    };
    // A picture written stands for its own entries; any other outcome for `span` each.
    let entries_here = picture.len().saturating_mul(part.span);
    let failed = |entries_here: usize, e: anyhow::Error| {
        let others = match entries_here.saturating_sub(1) {
            0 => String::new(),
            more => format!(" (and {more} more entries of the same bytes)"),
        };
        tally.fail(
            entries_here,
            format!("{}{others}: {e:#}", name(first).display()),
        );
    };
    let names = || {
        picture
            .iter()
            .map(|&element| name(number(element).saturating_add(part.offset)))
    };
    match part.drawn {
        Err(e) => failed(entries_here, e),
        Ok(Drawn::Empty) => {
            tally.empty.fetch_add(entries_here, Ordering::Relaxed);
        }
        Ok(Drawn::Later) => match later.map(Mutex::lock) {
            Some(Ok(mut later)) => {
                later.push((picture, part.offset..part.offset.saturating_add(part.span)));
            }
            _ => {
                tally.over_budget.fetch_add(entries_here, Ordering::Relaxed);
            }
        },
        Ok(Drawn::OverBudget) => {
            tally.over_budget.fetch_add(entries_here, Ordering::Relaxed);
        }
        Ok(Drawn::Picture(image)) => {
            let mut png = Vec::new();
            match image.write_png_with(&mut png, crate::render::compression()) {
                Err(e) => failed(picture.len(), e.into()),
                Ok(()) => {
                    tally.decoded.fetch_add(1, Ordering::Relaxed);
                    for path in names() {
                        write_one(&path, inputs, &png, tally);
                    }
                }
            }
        }
        Ok(Drawn::Frames(frames)) => {
            let pngs: Result<Vec<Vec<u8>>, _> = frames
                .iter()
                .map(|frame| {
                    let mut png = Vec::new();
                    frame
                        .write_png_with(&mut png, crate::render::compression())
                        .map(|()| png)
                })
                .collect();
            match pngs {
                Err(e) => failed(picture.len(), e.into()),
                Ok(pngs) => {
                    tally.decoded.fetch_add(pngs.len(), Ordering::Relaxed);
                    for path in names() {
                        write_frames(&path, inputs, &pngs, tally);
                    }
                }
            }
        }
    }
}

/// Writes each of `pngs` into `folder` (created, for [`FILE_COST`] of the output budget)
/// as 000.png, 001.png ..., as [`write_one`] does.
pub(super) fn write_frames(folder: &Path, inputs: &[&Path], pngs: &[Vec<u8>], tally: &Tally) {
    if !take_budget(&tally.output_budget, FILE_COST) {
        tally.over_budget.fetch_add(pngs.len(), Ordering::Relaxed);
        return;
    }
    if let Err(e) = std::fs::create_dir_all(folder) {
        tally.fail(
            pngs.len(),
            format!("cannot create {}: {e}", folder.display()),
        );
        return;
    }
    for (i, png) in pngs.iter().enumerate() {
        write_one(&folder.join(format!("{i:03}.png")), inputs, png, tally);
    }
}

/// What a file or folder written takes of the output budget at the least: a file system
/// block, in bytes. A set that names one small picture under a million names (133 KB of
/// anim.idx) once wrote a million files of 70 bytes: counted by their bytes alone, they
/// were within the budget while they took 4 GB of disk.
pub(super) const FILE_COST: u64 = 4096;

/// Writes `png` at `path` if the output budget has room (for [`FILE_COST`] bytes at the
/// least), counting it written, failed or past the budget.
pub(super) fn write_one(path: &Path, inputs: &[&Path], png: &[u8], tally: &Tally) {
    if !take_budget(&tally.output_budget, (png.len() as u64).max(FILE_COST)) {
        tally.over_budget.fetch_add(1, Ordering::Relaxed);
        return;
    }
    match crate::files::write_small(path, inputs, png) {
        Ok(()) => {
            tally.written.fetch_add(1, Ordering::Relaxed);
            tally.bytes.fetch_add(png.len() as u64, Ordering::Relaxed);
        }
        Err(e) => tally.fail(1, format!("{}: {e:#}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_past_32_bit_numbers_are_counted_as_failed() {
        let tally = Tally::new(0);
        assert_eq!(numbered(5, &tally), 0..5);
        assert_eq!(numbered(1 << 32, &tally), 0..1 << 32);
        assert_eq!(tally.failed.load(Ordering::Relaxed), 0);
        assert_eq!(numbered((1 << 32) + 3, &tally), 0..1 << 32);
        assert_eq!(tally.failed.load(Ordering::Relaxed), 3);
        let errors = tally.errors.lock().unwrap();
        assert_eq!(
            errors.as_slice(),
            ["entries from 0x100000000 on: past 32-bit numbers"]
        );
    }

    /// Entries sorted by where their bytes start, and those of one start by how they are
    /// read, then by number: each picture's entries side by side, the lowest number first.
    #[test]
    fn order_puts_each_picture_s_entries_side_by_side() {
        let tally = Tally::new(0);
        let starts = [50u32, 10, 50, 0, 10, 0, 50, 10];
        let entries = Entries {
            numbers: || 0..8usize,
            read: |n: usize| match n {
                3 => Err(mul_core::DataError::from(mul_core::ErrorKind::Write(
                    mul_core::WriteProblem::Picture { number: n },
                ))),
                5 => Ok(false),
                _ => Ok(true),
            },
            start: |n: usize| starts[n],
            reading: |n: usize| (n % 2) as u64,
        };
        let order = entries.order(&|n| PathBuf::from(n.to_string()), &tally);
        let at = |start: u64, n: u64| (start << 32) | n;
        // Start 10: entry 4 (read as 0), then 1 and 7 (read as 1); start 50: 0, 2, 6.
        assert_eq!(
            order,
            [
                at(10, 4),
                at(10, 1),
                at(10, 7),
                at(50, 0),
                at(50, 2),
                at(50, 6)
            ]
        );
        assert!(entries.same(at(10, 1), at(10, 7)));
        assert!(!entries.same(at(10, 4), at(10, 1)));
        assert!(!entries.same(at(10, 4), at(50, 0)));
        assert_eq!(tally.failed.load(Ordering::Relaxed), 1);
        assert!(tally.errors.lock().unwrap()[0].starts_with("3: "));
    }

    /// Two pictures: entries 8 and 9 (the same bytes) and entry 16. Each outcome stands for
    /// its span of entries at its offset past each of the picture's numbers; a picture
    /// written is written under those numbers alone, whatever its span.
    #[test]
    fn parts_count_their_span_and_are_written_at_their_offset() {
        let dir = tempfile::tempdir().unwrap();
        let tally = Tally::new(0);
        let entries = Entries {
            numbers: || [8usize, 9, 16].into_iter(),
            read: |_: usize| Ok(true),
            start: |_: usize| 0u32,
            reading: |n: usize| (n / 8) as u64,
        };
        let name = |n: usize| dir.path().join(n.to_string());
        let order = entries.order(&name, &tally);
        let white = || Ok(Drawn::Picture(RgbaImage::new(1, 1, [255; 4]).unwrap()));
        let budget = AtomicU64::new(u64::MAX);
        run_parts(
            &order,
            &entries,
            &name,
            &[],
            &budget,
            &tally,
            |group, _, part| {
                let n = number(group[0]);
                let parts: Vec<(usize, usize, Result<Drawn, anyhow::Error>)> = match n {
                    8 => vec![(0, 3, Err(anyhow::anyhow!("bad"))), (4, 3, white())],
                    16 => vec![
                        (1, 1, white()),
                        (2, 2, Ok(Drawn::OverBudget)),
                        (4, 1, Ok(Drawn::Empty)),
                    ],
                    other => panic!("drawn from {other}"),
                };
                for (offset, span, drawn) in parts {
                    part(Part {
                        within: None,
                        offset,
                        span,
                        drawn,
                    });
                }
            },
        );
        let count = |c: &AtomicUsize| c.load(Ordering::Relaxed);
        assert_eq!(
            (
                count(&tally.failed),
                count(&tally.written),
                count(&tally.decoded),
                count(&tally.over_budget),
                count(&tally.empty)
            ),
            (6, 3, 2, 2, 1)
        );
        let mut files: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        files.sort();
        assert_eq!(files, ["12", "13", "17"]);
        let errors = tally.errors.lock().unwrap();
        assert_eq!(
            errors.as_slice(),
            [format!(
                "{} (and 5 more entries of the same bytes): bad",
                name(8).display()
            )]
        );
    }

    const MIB: u64 = 1 << 20;

    /// With four threads (a share of 16 MiB each), a picture of 8 MiB of RGBA (24 MiB held)
    /// is put off at its second entry and drawn alone from there, the entries before it
    /// not drawn again; one of 30 MiB (90 MiB held) is over the budget.
    #[test]
    fn pictures_past_a_share_are_drawn_alone_from_the_entry_put_off() {
        let dir = tempfile::tempdir().unwrap();
        let tally = Tally::new(0);
        let entries = Entries {
            numbers: || [8usize, 16].into_iter(),
            read: |_: usize| Ok(true),
            start: |n: usize| u32::try_from(n).unwrap(),
            reading: |_: usize| 0u64,
        };
        let name = |n: usize| dir.path().join(n.to_string());
        let order = entries.order(&name, &tally);
        let budget = AtomicU64::new(u64::MAX);
        let drawn = Mutex::new(Vec::new());
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        pool.install(|| {
            run_parts(
                &order,
                &entries,
                &name,
                &[],
                &budget,
                &tally,
                |group, job, part| {
                    let n = number(group[0]);
                    let sizes = if n == 8 {
                        [MIB, 8 * MIB, MIB]
                    } else {
                        [MIB, 30 * MIB, MIB]
                    };
                    for (offset, rgba) in sizes.into_iter().enumerate() {
                        if !job.wants(offset) {
                            continue;
                        }
                        if let Some(instead) = job.picture(rgba) {
                            let later = matches!(instead, Drawn::Later);
                            part(Part {
                                within: None,
                                offset,
                                span: if later { 3 - offset } else { 1 },
                                drawn: Ok(instead),
                            });
                            if later {
                                return;
                            }
                            continue;
                        }
                        drawn.lock().unwrap().push((n + offset, job.alone));
                        part(Part {
                            within: None,
                            offset,
                            span: 1,
                            drawn: Ok(Drawn::Picture(RgbaImage::new(1, 1, [255; 4]).unwrap())),
                        });
                    }
                },
            );
        });
        let mut drawn = drawn.into_inner().unwrap();
        drawn.sort();
        assert_eq!(
            drawn,
            [(8, false), (9, true), (10, true), (16, false), (18, false)]
        );
        let count = |c: &AtomicUsize| c.load(Ordering::Relaxed);
        assert_eq!(
            (
                count(&tally.written),
                count(&tally.over_budget),
                count(&tally.alone)
            ),
            (5, 1, 1)
        );
    }
}
