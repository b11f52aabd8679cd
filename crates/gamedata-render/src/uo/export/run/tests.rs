//! The runs' tests: outcomes counted for their span and written at their offset, pictures
//! past a thread's share drawn alone.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use super::{Part, Run};
use crate::uo::export::entries::{Entries, number};
use crate::uo::export::job::Job;
use crate::uo::export::sink::{FolderWriter, PngSink};
use crate::uo::export::tally::{DrawError, Drawn, Tally};
use crate::{PngOptions, RgbaImage};

/// A run writing into `sink` as `gamedata uo export` does.
fn run_into<'a>(sink: &'a FolderWriter, budget: &'a AtomicU64, tally: &'a Tally) -> Run<'a> {
    Run {
        sink,
        budget,
        tally,
        png: PngOptions::default(),
        progress: &(),
    }
}

/// Two pictures: entries 8 and 9 (the same bytes) and entry 16. Each outcome stands for
/// its span of entries at its offset past each of the picture's numbers; a picture
/// written is written under those numbers alone, whatever its span.
#[test]
fn parts_count_their_span_and_are_written_at_their_offset() {
    let dir = tempfile::tempdir().unwrap();
    let tally = Tally::new(64 << 20);
    let entries = Entries {
        numbers: || [8usize, 9, 16].into_iter(),
        read: |_: usize| Ok(true),
        start: |_: usize| 0u32,
        reading: |n: usize| (n / 8) as u64,
    };
    let sink = FolderWriter::new(dir.path(), Vec::new());
    let name = |n: usize| n.to_string();
    let order = entries.order(&name, &tally);
    let white = || Ok(Drawn::Picture(RgbaImage::new(1, 1, [255; 4]).unwrap()));
    let budget = AtomicU64::new(u64::MAX);
    run_into(&sink, &budget, &tally).parts(&order, &entries, &name, |group, _: &Job, part| {
        let n = number(group[0]);
        let parts: Vec<(usize, usize, Result<Drawn, DrawError>)> = match n {
            8 => vec![(0, 3, Err(DrawError::from("bad"))), (4, 3, white())],
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
    });
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
            sink.locate("8")
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
    let tally = Tally::new(64 << 20);
    let entries = Entries {
        numbers: || [8usize, 16].into_iter(),
        read: |_: usize| Ok(true),
        start: |n: usize| u32::try_from(n).unwrap(),
        reading: |_: usize| 0u64,
    };
    let sink = FolderWriter::new(dir.path(), Vec::new());
    let name = |n: usize| n.to_string();
    let order = entries.order(&name, &tally);
    let budget = AtomicU64::new(u64::MAX);
    let drawn = Mutex::new(Vec::new());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    pool.install(|| {
        run_into(&sink, &budget, &tally).parts(&order, &entries, &name, |group, job, part| {
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
        });
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
