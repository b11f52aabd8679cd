//! The parallel drawing and writing of each picture under its entries' names: the
//! pictures drawn in parallel, each thread within its share of what the pictures may hold
//! at once, those past it drawn after the threads, alone; each picture's PNG written under
//! the names of its entries while the output budget lasts.

use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::entries::{Grouping, number};
use super::job::{HELD_MAX, Job};
use super::sink::{ExportProgress, PngSink};
use super::tally::{DrawError, Drawn, FILE_COST, Tally, take_budget};
use crate::files::chain;
use crate::{PngOptions, PngPixels, write_png};

/// What one export runs with: where its pictures go, the decoding budget, the tally, how
/// the PNG files are stored, and whom to tell the progress.
pub(super) struct Run<'a> {
    pub(super) sink: &'a dyn PngSink,
    /// RGBA and inflated bytes that may still be decoded.
    pub(super) budget: &'a AtomicU64,
    pub(super) tally: &'a Tally,
    pub(super) png: PngOptions,
    pub(super) progress: &'a dyn ExportProgress,
}

/// One outcome of a picture's decoding for [`Run::parts`]: what is drawn for the entries
/// numbered `offset` past each of the picture's numbers. A `Picture` or `Frames` is written
/// under those numbers alone; any other outcome stands for `span` entries from there (an
/// entry that fails to decode, say, fails each of the directions drawn from it; one put
/// off is drawn again for those entries alone). `within`: the picture, when the job's
/// group holds several ([`Grouping::shares`]): its elements' places in the group; `None`
/// for the whole group.
pub(super) struct Part {
    pub(super) within: Option<Range<usize>>,
    pub(super) offset: usize,
    pub(super) span: usize,
    pub(super) drawn: Result<Drawn, DrawError>,
}

/// A picture put off (elements of [`super::entries::Entries::order`]), and the entries of
/// it to draw.
type Later<'a> = (&'a [u64], Range<usize>);

impl Run<'_> {
    /// How the report names the picture or folder `name`: as the sink locates it.
    pub(super) fn locate(&self, name: &str) -> String {
        self.sink.locate(name)
    }

    /// Draws each picture of `order` in parallel with `draw` (given its lowest number and
    /// its [`Job`]) and writes its PNG under the name of each of its entries (`name`) while
    /// the output budget lasts, as [`Run::parts`] does.
    pub(super) fn pictures(
        &self,
        order: &[u64],
        entries: &(impl Grouping + Sync),
        name: &(impl Fn(usize) -> String + Sync),
        draw: impl Fn(usize, &Job) -> Result<Drawn, DrawError> + Sync,
    ) {
        self.parts(order, entries, name, |group, job, part| {
            let Some(&first) = group.first() else {
                return;
            };
            part(Part {
                within: None,
                offset: 0,
                span: 1,
                drawn: draw(number(first), job),
            });
        });
    }

    /// [`Run::pictures`] for pictures that decode once into several entries' pictures:
    /// `draw` (given the job's group of elements of [`super::entries::Entries::order`],
    /// its pictures side by side ([`Grouping::shares`]), and its [`Job`]) hands each
    /// outcome to the function it is given as soon as it is drawn, which writes it and
    /// lets go of what it held, so that a thread holds one of them at a time. Pictures are
    /// drawn in parallel, each thread holding its share of [`HELD_MAX`]; those put off
    /// ([`Drawn::Later`]: past a share) are then drawn one at a time, each with all of it,
    /// for the entries put off (`draw` skips the others: [`Job::wants`]).
    pub(super) fn parts(
        &self,
        order: &[u64],
        entries: &(impl Grouping + Sync),
        name: &(impl Fn(usize) -> String + Sync),
        draw: impl Fn(&[u64], &Job, &mut dyn FnMut(Part)) + Sync,
    ) {
        self.progress.start(order.len() as u64);
        let threads = u64::try_from(rayon::current_num_threads()).unwrap_or(u64::MAX);
        let share = HELD_MAX.checked_div(threads).unwrap_or(HELD_MAX);
        let later: Mutex<Vec<Later<'_>>> = Mutex::new(Vec::new());
        let groups = order.chunk_by(|&a, &b| entries.shares(a, b));
        groups.par_bridge().for_each(|picture| {
            let job = Job::new(self.budget, share, false, 0..usize::MAX);
            draw(picture, &job, &mut |part| {
                self.deliver(picture, part, name, Some(&later));
                job.part_done();
            });
            self.progress.advance(picture.len() as u64);
        });
        self.progress.finish();
        let mut later = later.into_inner().unwrap_or_default();
        // In the order of the pictures, whatever the threads' order.
        later.sort_unstable_by_key(|(picture, want)| (picture.first().copied(), want.start));
        for (picture, want) in later {
            self.tally.alone.fetch_add(1, Ordering::Relaxed);
            let job = Job::new(self.budget, HELD_MAX, true, want);
            draw(picture, &job, &mut |part| {
                self.deliver(picture, part, name, None);
                job.part_done();
            });
        }
    }

    /// Counts and writes one outcome of `group`'s picture `part.within` (elements of
    /// [`super::entries::Entries::order`]); one put off goes to `later` (counted as over
    /// the budget when there is none: a job alone).
    fn deliver<'a>(
        &self,
        group: &'a [u64],
        part: Part,
        name: &impl Fn(usize) -> String,
        later: Option<&Mutex<Vec<Later<'a>>>>,
    ) {
        let tally = self.tally;
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
        let failed = |entries_here: usize, e: DrawError| {
            let others = match entries_here.saturating_sub(1) {
                0 => String::new(),
                more => format!(" (and {more} more entries of the same bytes)"),
            };
            tally.fail(
                entries_here,
                format!("{}{others}: {}", self.locate(&name(first)), chain(&*e)),
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
                match write_png(&mut png, PngPixels::Image(&image), &self.png) {
                    Err(e) => failed(picture.len(), e.into()),
                    Ok(()) => {
                        tally.decoded.fetch_add(1, Ordering::Relaxed);
                        for name in names() {
                            self.write_one(&name, &png);
                        }
                    }
                }
            }
            Ok(Drawn::Frames(frames)) => {
                let pngs: Result<Vec<Vec<u8>>, _> = frames
                    .iter()
                    .map(|frame| {
                        let mut png = Vec::new();
                        write_png(&mut png, PngPixels::Image(frame), &self.png).map(|()| png)
                    })
                    .collect();
                match pngs {
                    Err(e) => failed(picture.len(), e.into()),
                    Ok(pngs) => {
                        tally.decoded.fetch_add(pngs.len(), Ordering::Relaxed);
                        for name in names() {
                            self.write_frames(&name, &pngs);
                        }
                    }
                }
            }
        }
    }

    /// Writes each of `pngs` into folder `folder` (made by the sink, for [`FILE_COST`] of
    /// the output budget) as 000.png, 001.png ..., as [`Run::write_one`] does.
    fn write_frames(&self, folder: &str, pngs: &[Vec<u8>]) {
        let tally = self.tally;
        if !take_budget(&tally.output_budget, FILE_COST) {
            tally.over_budget.fetch_add(pngs.len(), Ordering::Relaxed);
            return;
        }
        if let Err(e) = self.sink.create_folder(folder) {
            tally.fail(pngs.len(), chain(&e));
            return;
        }
        for (i, png) in pngs.iter().enumerate() {
            self.write_one(&format!("{folder}/{i:03}.png"), png);
        }
    }

    /// Writes `png` under `name` if the output budget has room (for [`FILE_COST`] bytes at
    /// the least), counting it written, failed or past the budget.
    fn write_one(&self, name: &str, png: &[u8]) {
        let tally = self.tally;
        if !take_budget(&tally.output_budget, (png.len() as u64).max(FILE_COST)) {
            tally.over_budget.fetch_add(1, Ordering::Relaxed);
            return;
        }
        match self.sink.write(name, png) {
            Ok(()) => {
                tally.written.fetch_add(1, Ordering::Relaxed);
                tally.bytes.fetch_add(png.len() as u64, Ordering::Relaxed);
            }
            Err(e) => tally.fail(1, format!("{}: {}", self.locate(name), chain(&e))),
        }
    }
}

#[cfg(test)]
mod tests;
