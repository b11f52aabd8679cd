//! `gamedata uo anim`: one direction of a body's action (anim.mul and anim2 to anim5, or
//! AnimationFrame*.uop, as the client chooses) as the client draws it, a PNG a frame or one
//! sprite sheet.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, ValueEnum};
use gamedata_render::RgbaImage;
use gamedata_render::uo::anim::{frame_picture, uop_frame_picture};
use gamedata_render::uo::art::ArtHue;
use gamedata_render::uo::export::{FILE_COST, budget_for};
use mul_core::{AnimFileId, AnimFrame, Facing, HuesFile, LimitError, Limits, UopFrame};
use serde::ser::SerializeSeq;
use serde::{Serialize, Serializer};
use zerocopy::little_endian::U16;

use super::anim_folder::{AnimFolder, AnimFormatArg, AnimSource, mul_has, uop_entry_action};
use super::folder::folder_hues;
use super::parse_id;
use crate::output::Output;

mod read;
mod write;

use self::read::*;
use self::write::*;

/// What `--sheet` and the frames' order mean, for the command's help.
pub(crate) const ANIM_NOTE: &str = "Frames are written as OUTDIR/000.png, 001.png ... in \
    order, each distinct picture once: a frame that repeats an earlier one (at the same \
    offset of anim*.mul, or the same data of a UOP entry) is not written again, and \
    --json's \"files\" names the file that holds each frame's picture. A frame with no \
    pixel (stored with a width or height of 0 or less, or a UOP frame no record fills) is \
    a 1 x 1 transparent PNG, written once for all of them, and --json gives its size as \
    0 x 0. The PNG bytes written and the pixels drawn are each held to 64 bytes a byte of \
    input plus 64 MiB, as uo export's: past that the rest is not written and the command \
    exits with status 1. With --sheet, one PNG holds the \
    frames side by side, left to right in order, top-aligned, as wide as their widths \
    together and as high as the highest, transparent elsewhere (empty frames take no room), \
    drawn one distinct frame at a time (the sheet, its largest frame and a UOP entry's \
    decoded bytes within Limits::max_decoded_bytes together, and the sheet with its PNG \
    encoding's buffers; the sheet's pixels within the pixel budget, its PNG bytes within \
    the output budget; past one, nothing is written); nothing is written in OUTDIR. Directions 5, 6 and 7 are drawn as the client draws \
    them: stored directions 3, 2 and 1 mirrored left to right, each frame's centre x \
    becoming its width less the stored one. A body of anim.mul that the folder's \
    mobtypes.txt lists has its records where its type and flags put them; others are found \
    by number, as the client finds a body mobtypes.txt does not list (docs/formats/uo.md, \
    \"Animations\"). \
    With AnimationFrame1.uop in the folder (and --anim-format auto), a body that \
    mobtypes.txt lists with flag 0x10000 is read from AnimationFrame1.uop to \
    AnimationFrame10.uop, its action through AnimationSequence.uop's replacements, as the \
    client reads it; a body it lists without the flag from the MUL; a body it does not \
    list from the MUL, or from the UOP when the MUL has no frames there and the UOP has \
    the action. A UOP frame's palette colour 0 is transparent; a UOP direction has the \
    client's count of frames (its list's length / 5), a missing one empty.";

#[derive(Args)]
pub(crate) struct AnimArgs {
    /// The client folder: anim.idx and anim.mul (any letter case), anim2 to anim5 for
    /// --file, AnimationFrame1.uop to AnimationFrame10.uop with AnimationSequence.uop and
    /// mobtypes.txt when there, and hues.mul for --hue.
    dir: PathBuf,
    /// The body number (decimal or 0x hex), as the chosen file numbers it (after any
    /// Bodyconv.def move, which is the caller's).
    #[arg(value_parser = parse_id)]
    body: u16,
    /// The action, from 0 (a body of the high group has 22, of the low group 13, people 35).
    #[arg(long)]
    action: u16,
    /// The direction, 0 to 7 as the SDK numbers them: 0 to 4 are stored; 5, 6 and 7 are the
    /// client's mirrors of 3, 2 and 1, drawn mirrored.
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=7))]
    direction: u8,
    /// The folder the frames are written into (created): 000.png, 001.png ..., one file a
    /// distinct picture (see below).
    #[arg(
        short,
        long = "output",
        value_name = "OUTDIR",
        required_unless_present = "sheet"
    )]
    output: Option<PathBuf>,
    /// Draw with this hue (decimal or 0x hex, as the client stores it: 0x8000 asks for a
    /// partial hue, which changes grey pixels only); every drawn pixel takes it, black ones
    /// included. Needs hues.mul in the folder.
    #[arg(long, value_parser = parse_id)]
    hue: Option<u16>,
    /// Write one sprite sheet to this PNG instead of a PNG a frame (see below).
    #[arg(long, value_name = "PNG")]
    sheet: Option<PathBuf>,
    /// Which animation file: anim.mul (the default) or anim2 to anim5; each decides its
    /// bodies' groups of records. Read when the MUL form is read.
    #[arg(long, value_enum, default_value = "anim")]
    file: AnimFileArg,
    /// Which form: as the client chooses (auto: mobtypes.txt's flag 0x10000 sends a body
    /// to the UOP; see below), the MUL files, or AnimationFrame*.uop.
    #[arg(long, value_enum, default_value = "auto")]
    anim_format: AnimFormatArg,
}

/// An animation file on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum AnimFileArg {
    /// anim.idx with anim.mul.
    Anim,
    /// anim2.idx with anim2.mul.
    Anim2,
    /// anim3.idx with anim3.mul.
    Anim3,
    /// anim4.idx with anim4.mul.
    Anim4,
    /// anim5.idx with anim5.mul.
    Anim5,
}

impl From<AnimFileArg> for AnimFileId {
    fn from(arg: AnimFileArg) -> Self {
        match arg {
            AnimFileArg::Anim => AnimFileId::Anim,
            AnimFileArg::Anim2 => AnimFileId::Anim2,
            AnimFileArg::Anim3 => AnimFileId::Anim3,
            AnimFileArg::Anim4 => AnimFileId::Anim4,
            AnimFileArg::Anim5 => AnimFileId::Anim5,
        }
    }
}

/// One frame in `--json`.
#[derive(Clone, Copy, Serialize)]
struct FrameReport {
    /// Pixels (0 for an empty frame).
    width: u32,
    /// Pixels (0 for an empty frame).
    height: u32,
    /// As the picture is placed (mirrored: width less the stored one).
    centre_x: i32,
    centre_y: i32,
}

/// What `uo anim --json` prints: the plan's lists borrowed, not copied.
#[derive(Serialize)]
struct AnimReport<'r> {
    frames: &'r [FrameReport],
    /// The form read: `"mul"` or `"uop"`.
    source: &'static str,
    /// The file read: `anim.mul` ... `anim5.mul`, or `AnimationFrame1.uop` ...
    file: &'static str,
    /// The action whose frames were read: the one asked for, or for the UOP its
    /// AnimationSequence.uop replacement.
    entry_action: u16,
    /// One a frame, in order: the PNG in OUTDIR that holds its picture (`"000.png"` ...),
    /// the file of the first frame with the same picture for a repeat, `null` for a frame
    /// past the budget; the whole list `null` with `--sheet`.
    files: Option<FileList<'r>>,
    /// PNG files written.
    written: usize,
    /// Frames of a UOP direction that no record fills (a gap in the frame numbers, or past
    /// the last): empty, as the client leaves them; 0 for the MUL.
    missing: usize,
    /// Frames not written because the output or decoding budget ran out.
    over_budget: usize,
}

/// `--json`'s `"files"`: each frame's file, found through the picture it shows in the
/// list of the files written (`None` for a picture past the budget), serialised as a list
/// of strings and `null`s without a string a frame.
struct FileList<'r> {
    /// One a frame: the index of its picture.
    shows: &'r [u32],
    /// One a distinct picture: the file written for it.
    names: &'r [Option<String>],
}

impl FileList<'_> {
    /// The file written for picture `picture`, if any.
    fn name(&self, picture: u32) -> Option<&str> {
        self.names.get(picture as usize).and_then(|n| n.as_deref())
    }

    /// Frames whose picture has no file.
    fn missing(&self) -> usize {
        self.shows
            .iter()
            .filter(|&&p| self.name(p).is_none())
            .count()
    }
}

impl Serialize for FileList<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.shows.len()))?;
        for &p in self.shows {
            seq.serialize_element(&self.name(p))?;
        }
        seq.end()
    }
}

/// How a direction is drawn: which stored direction (mirrored or not), the hue, the bounds.
struct Drawing<'h> {
    facing: Facing,
    hue: ArtHue<'h>,
    limits: Limits,
}

/// What a distinct picture of a direction is drawn from.
#[derive(Clone, Copy)]
enum Source<'a> {
    /// A frame of anim*.mul, with its group's palette.
    Mul(AnimFrame<'a>, &'a [U16; 256]),
    /// A frame of a UOP entry, with its own palette.
    Uop(UopFrame<'a>),
    /// No pixel: a frame of a width or height of 0 or less, or a UOP place no record fills.
    Blank,
}

/// Bytes a frame of a [`Plan`] holds: its report and its picture's index, in lists
/// reserved once for the direction's count of frames, and with `--sheet` its place and its
/// rank by picture (two `u32`s, [`draw_sheet`]). `--json` borrows the lists, and its
/// `"files"` names each frame's file through the list of files written ([`FileList`]).
const FRAME_OVERHEAD: u64 = (size_of::<FrameReport>() + 3 * size_of::<u32>()) as u64;

/// Bytes a distinct picture of a [`Plan`] holds at most besides its frame's: its entry in
/// `pictures` and its data place in `seen` (a hash table of at most 8 entries a 7 buckets
/// of the entry and a control byte), each list as it grows by doubling (the old and the
/// new buffer together: three times the entries), and its file's name when written.
const PICTURE_OVERHEAD: u64 = (3 * size_of::<(usize, Source<'static>)>()
    + 4 * (size_of::<(u64, usize)>() + 1)
    + size_of::<Option<String>>()
    + 8) as u64;

/// A direction read, not drawn: each frame's report, and the distinct pictures the frames
/// show, each once. Memory: [`FRAME_OVERHEAD`] bytes a frame and [`PICTURE_OVERHEAD`] a
/// distinct picture at most, charged against the limit as the lists grow.
struct Plan<'a> {
    /// One a frame, in order.
    frames: Vec<FrameReport>,
    /// One a frame: the index in `pictures` of the picture it shows.
    shows: Vec<u32>,
    /// The distinct pictures in the order of their first frames: (first frame, source).
    pictures: Vec<(usize, Source<'a>)>,
    /// The first frame of each data place seen (anim*.mul offset, UOP entry offset).
    seen: HashMap<u64, usize>,
    /// The picture of no pixel, once a frame shows it.
    blank: Option<u32>,
    /// Frames of a UOP direction no record fills.
    missing: usize,
    /// Bytes the plan may hold: the limit less a UOP entry's decoded bytes.
    cap: u64,
}

impl<'a> Plan<'a> {
    /// A plan of at most `count` frames (the direction's count): the lists of frames
    /// reserved for that many, or for as many as `cap` has room for when fewer.
    fn new(cap: u64, count: usize) -> Self {
        let room = usize::try_from(cap / FRAME_OVERHEAD).unwrap_or(usize::MAX);
        let count = count.min(room);
        Plan {
            frames: Vec::with_capacity(count),
            shows: Vec::with_capacity(count),
            pictures: Vec::new(),
            seen: HashMap::new(),
            blank: None,
            missing: 0,
            cap,
        }
    }

    /// Checks room for one more frame, of a new picture when `new_picture`
    /// ([`FRAME_OVERHEAD`] bytes a frame, [`PICTURE_OVERHEAD`] a picture).
    fn room(&self, new_picture: bool) -> Result<()> {
        let frames = (self.frames.len() as u64)
            .saturating_add(1)
            .saturating_mul(FRAME_OVERHEAD);
        let pictures = (self.pictures.len() as u64)
            .saturating_add(u64::from(new_picture))
            .saturating_mul(PICTURE_OVERHEAD);
        let bytes = frames.saturating_add(pictures);
        if bytes > self.cap {
            return Err(LimitError {
                what: "the direction's frames",
                unit: "bytes",
                found: bytes,
                limit: self.cap,
            }
            .into());
        }
        Ok(())
    }

    /// The frame whose data starts at `key` repeats an earlier one: true (and the frame
    /// added, the earlier one's report and picture) when one was seen there.
    fn repeat(&mut self, key: u64) -> Result<bool> {
        let Some(&first) = self.seen.get(&key) else {
            return Ok(false);
        };
        let (Some(&report), Some(&shows)) = (self.frames.get(first), self.shows.get(first)) else {
            return Ok(false);
        };
        self.room(false)?;
        self.frames.push(report);
        self.shows.push(shows);
        Ok(true)
    }

    /// Adds a frame drawn from `source` (first seen at data place `key`, if any).
    fn push(&mut self, report: FrameReport, source: Source<'a>, key: Option<u64>) -> Result<()> {
        let place = self.frames.len();
        let blank = matches!(source, Source::Blank) || report.width == 0 || report.height == 0;
        let picture = match (blank, self.blank) {
            (true, Some(b)) => {
                self.room(false)?;
                b
            }
            _ => {
                self.room(true)?;
                let index = u32::try_from(self.pictures.len())
                    .map_err(|_| anyhow!("more than {} distinct frames", u32::MAX))?;
                let source = if blank { Source::Blank } else { source };
                self.pictures.push((place, source));
                if blank {
                    self.blank = Some(index);
                }
                index
            }
        };
        if let Some(key) = key {
            self.seen.insert(key, place);
        }
        self.frames.push(report);
        self.shows.push(picture);
        Ok(())
    }
}

/// A direction read, and where it came from.
struct Read<'a> {
    plan: Plan<'a>,
    source: AnimSource,
    file: &'static str,
    entry_action: u16,
}

pub(super) fn anim(args: &AnimArgs, out: &mut Output) -> Result<()> {
    let folder = AnimFolder::open(&args.dir, args.anim_format)?;
    let (hues_path, hues_file) = folder_hues(&args.dir, args.hue)?;
    let hues = hues_file.as_ref().map(HuesFile::view).transpose()?;
    let hue = match (args.hue, &hues) {
        (Some(value), Some(hues)) => ArtHue::from_value(hues, value)?,
        _ => ArtHue::None,
    };
    // 0 to 7 by the argument's parser.
    let facing = Facing::of(args.direction).unwrap_or(Facing {
        stored: 0,
        mirrored: false,
    });
    let drawing = Drawing {
        facing,
        hue,
        limits: Limits::default(),
    };
    let (body, action) = (args.body, args.action);
    let input_paths = folder.input_paths();
    // Never over an input: the animation files, and hues.mul with --hue.
    let inputs: Vec<&Path> = input_paths
        .iter()
        .map(PathBuf::as_path)
        .chain(hues_path.as_deref())
        .collect();
    let input_len: u64 = inputs
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    let mut budgets = Budgets {
        decoded: budget_for(input_len),
        output: budget_for(input_len),
    };
    let mul_files;
    let uop_files;
    let decoded;
    let read = match choose(args, &folder, facing.stored)? {
        AnimSource::Mul => {
            mul_files = folder.mul_view(&args.dir)?;
            read_mul(args, &folder, &mul_files, &drawing)?
        }
        AnimSource::Uop => {
            uop_files = folder.uop_view(&args.dir)?;
            let (entry_action, entry) = uop_entry(args, &uop_files, &drawing.limits)?;
            decoded = entry;
            read_uop(args, &folder, &decoded, entry_action, &drawing)?
        }
    };
    let plan = &read.plan;
    let frame_count = plan.frames.len();
    let mut outcome = Outcome {
        names: None,
        written: 0,
        over_budget: 0,
    };
    let written = match (&args.sheet, &args.output) {
        (Some(sheet), output) => {
            if output.is_some() {
                crate::output::error_line(
                    "note: --sheet writes the sheet only; OUTDIR is not used",
                );
            }
            let picture = draw_sheet(plan, &drawing, &mut budgets)?;
            write_sheet(&picture, sheet, &inputs, &mut budgets.output)?;
            outcome.written = 1;
            format!(
                "wrote {} ({} frames, {} x {} pixels)",
                sheet.display(),
                frame_count,
                picture.width(),
                picture.height()
            )
        }
        (None, Some(dir)) => {
            outcome = write_frames(dir, plan, &drawing, &inputs, &mut budgets)?;
            format!(
                "wrote {} PNG files for {} frames into {}",
                outcome.written,
                frame_count,
                dir.display()
            )
        }
        (None, None) => return Err(anyhow!("give -o OUTDIR or --sheet PNG")),
    };
    let over_budget = outcome.over_budget;
    let report = AnimReport {
        frames: &read.plan.frames,
        source: read.source.name(),
        file: read.file,
        entry_action: read.entry_action,
        files: outcome.names.as_deref().map(|names| FileList {
            shows: &read.plan.shows,
            names,
        }),
        written: outcome.written,
        missing: read.plan.missing,
        over_budget,
    };
    out.report(&report, |w| {
        let mirrored = if facing.mirrored {
            format!(", stored direction {} mirrored", facing.stored)
        } else {
            String::new()
        };
        let replaced = if read.entry_action == action {
            String::new()
        } else {
            format!(" (action {} by AnimationSequence.uop)", read.entry_action)
        };
        writeln!(
            w,
            "{written}: body {body} action {action} direction {}{mirrored} from {}{replaced}",
            args.direction, read.file
        )
    })?;
    if over_budget > 0 {
        bail!(
            "{over_budget} of {frame_count} frames were past the output or decoding budget \
             (64 bytes a byte of input plus 64 MiB each): not written"
        );
    }
    Ok(())
}

#[cfg(test)]
// A test's plan is small by construction and its calls succeed.
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use gamedata_testkit::heap::{peak, serial};

    /// Attack: 4,000,000 frames at one offset held about 97 bytes a frame (the lists
    /// grown by doubling, the report's copy of the frames, a file name a frame) where 64
    /// were charged: 397 MB resident for 16 MB. A plan of n frames of one picture, and its
    /// `--json` report, now hold at most [`FRAME_OVERHEAD`] bytes a frame (less the sheet's
    /// two `u32`s), counted by dhat.
    #[test]
    fn a_plan_and_its_report_hold_the_frame_overhead_a_frame() {
        // dhat counts every thread's allocations, and the other unit tests of this binary
        // run beside this one: it is measured alone, in a process of its own.
        const ALONE: &str = "GAMEDATA_CLI_PEAK_ALONE";
        const NAME: &str = "uo::anim::tests::a_plan_and_its_report_hold_the_frame_overhead_a_frame";
        if std::env::var_os(ALONE).is_none() {
            let out = std::process::Command::new(std::env::current_exe().unwrap())
                .args([NAME, "--exact", "--test-threads=1"])
                .env(ALONE, "1")
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                out.status.success() && stdout.contains("1 passed"),
                "{stdout}{stderr}"
            );
            return;
        }
        let serial = serial();
        let n = 1_000_000usize;
        let report = FrameReport {
            width: 1,
            height: 1,
            centre_x: 0,
            centre_y: 0,
        };
        let (frames, peak) = peak(&serial, || {
            let mut plan = Plan::new(Limits::default().max_decoded_bytes, n);
            plan.push(report, Source::Blank, Some(0)).unwrap();
            for _ in 1..n {
                assert!(plan.repeat(0).unwrap());
            }
            let names = vec![Some("000.png".to_owned())];
            let report = AnimReport {
                frames: &plan.frames,
                source: "mul",
                file: "anim.mul",
                entry_action: 0,
                files: Some(FileList {
                    shows: &plan.shows,
                    names: &names,
                }),
                written: 1,
                missing: 0,
                over_budget: 0,
            };
            serde_json::to_writer(std::io::sink(), &report).unwrap();
            plan.frames.len()
        });
        assert_eq!(frames, n);
        let without_sheet = FRAME_OVERHEAD - 2 * size_of::<u32>() as u64;
        let bound = n as u64 * without_sheet + 64 * 1024;
        assert!(
            peak <= bound,
            "peak {peak} bytes for {n} frames, bound {bound}"
        );
        // The lists are there: the reports alone are 16 bytes a frame.
        assert!(peak >= n as u64 * 16, "peak {peak}");
    }
}
