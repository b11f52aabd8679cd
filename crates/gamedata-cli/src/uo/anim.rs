//! `gamedata uo anim`: one direction of a body's action (anim.mul and anim2 to anim5, or
//! AnimationFrame*.uop, as the client chooses) as the client draws it, a PNG a frame or one
//! sprite sheet.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use clap::{Args, ValueEnum};
use gamedata_render::RgbaImage;
use gamedata_render::uo::anim::{DrawnFrame, group_pictures, sprite_sheet, uop_direction_pictures};
use gamedata_render::uo::art::ArtHue;
use mul_core::{AnimFile, Facing, Limits, OwnedHues};
use serde::Serialize;

use super::anim_folder::{AnimFolder, AnimFormatArg, AnimSource, mul_has, uop_entry_action};
use super::folder::folder_hues;
use super::parse_id;
use crate::output::Output;

/// What `--sheet` and the frames' order mean, for the command's help.
pub(crate) const ANIM_NOTE: &str = "Frames are written as OUTDIR/000.png, 001.png ... in \
    order; an empty frame (stored with a width or height of 0 or less) is a 1 x 1 \
    transparent PNG, and --json gives its size as 0 x 0. With --sheet, one PNG holds the \
    frames side by side, left to right in order, top-aligned, as wide as their widths \
    together and as high as the highest, transparent elsewhere (empty frames take no room); \
    nothing is written in OUTDIR. Directions 5, 6 and 7 are drawn as the client draws \
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
    /// The folder the frames are written into (created): 000.png, 001.png ...
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

impl From<AnimFileArg> for AnimFile {
    fn from(arg: AnimFileArg) -> Self {
        match arg {
            AnimFileArg::Anim => AnimFile::Anim,
            AnimFileArg::Anim2 => AnimFile::Anim2,
            AnimFileArg::Anim3 => AnimFile::Anim3,
            AnimFileArg::Anim4 => AnimFile::Anim4,
            AnimFileArg::Anim5 => AnimFile::Anim5,
        }
    }
}

/// One frame in `--json`.
#[derive(Serialize)]
struct FrameReport {
    /// Pixels (0 for an empty frame).
    width: u32,
    /// Pixels (0 for an empty frame).
    height: u32,
    /// As the picture is placed (mirrored: width less the stored one).
    centre_x: i32,
    centre_y: i32,
}

/// What `uo anim --json` prints.
#[derive(Serialize)]
struct AnimReport {
    frames: Vec<FrameReport>,
    /// The form read: `"mul"` or `"uop"`.
    source: &'static str,
    /// The file read: `anim.mul` ... `anim5.mul`, or `AnimationFrame1.uop` ...
    file: &'static str,
    /// The action whose frames were read: the one asked for, or for the UOP its
    /// AnimationSequence.uop replacement.
    entry_action: u16,
}

/// How a direction is drawn: which stored direction (mirrored or not), the hue, the bounds.
struct Drawing<'h> {
    facing: Facing,
    hue: ArtHue<'h>,
    limits: Limits,
}

/// A direction drawn, and where it came from.
struct Read {
    drawn: Vec<DrawnFrame>,
    source: AnimSource,
    file: &'static str,
    entry_action: u16,
}

pub(super) fn anim(args: &AnimArgs, out: &mut Output) -> Result<()> {
    let folder = AnimFolder::open(&args.dir, args.anim_format)?;
    let (hues_path, hues_file) = folder_hues(&args.dir, args.hue)?;
    let hues = hues_file.as_ref().map(OwnedHues::view).transpose()?;
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
    let limits = &drawing.limits;
    let read = match choose(args, &folder, facing.stored)? {
        AnimSource::Mul => read_mul(args, &folder, &drawing)?,
        AnimSource::Uop => read_uop(args, &folder, &drawing)?,
    };
    let (body, action) = (args.body, args.action);
    let drawn = read.drawn;
    let input_paths = folder.input_paths();
    // Never over an input: the animation files, and hues.mul with --hue.
    let inputs: Vec<&Path> = input_paths
        .iter()
        .map(PathBuf::as_path)
        .chain(hues_path.as_deref())
        .collect();
    let written = match (&args.sheet, &args.output) {
        (Some(sheet), output) => {
            if output.is_some() {
                crate::output::error_line(
                    "note: --sheet writes the sheet only; OUTDIR is not used",
                );
            }
            let picture = sprite_sheet(drawn.iter().map(|d| &d.picture), limits)
                .context("the frames make no sprite sheet (no frame has pixels)")?;
            crate::render::write_png(&picture, sheet, &inputs)?;
            format!(
                "wrote {} ({} frames, {} x {} pixels)",
                sheet.display(),
                drawn.len(),
                picture.width(),
                picture.height()
            )
        }
        (None, Some(folder)) => {
            write_frames(folder, &drawn, &inputs)?;
            format!("wrote {} frames into {}", drawn.len(), folder.display())
        }
        (None, None) => return Err(anyhow!("give -o OUTDIR or --sheet PNG")),
    };
    let report = AnimReport {
        frames: drawn
            .iter()
            .map(|d| FrameReport {
                width: d.picture.width(),
                height: d.picture.height(),
                centre_x: d.centre_x,
                centre_y: d.centre_y,
            })
            .collect(),
        source: read.source.name(),
        file: read.file,
        entry_action: read.entry_action,
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
    })
}

/// The form body `args.body`'s action is read from (`docs/formats/uo.md`, "Which form:
/// MUL or UOP"): the only one the folder has (or `--anim-format` allows); with both, the
/// UOP for a body mobtypes.txt lists with flag 0x10000, the MUL for one it lists without;
/// for a body it does not list, the MUL, unless the MUL has no frames for the action's
/// direction and the UOP has the action (through AnimationSequence.uop).
fn choose(args: &AnimArgs, folder: &AnimFolder, stored: u8) -> Result<AnimSource> {
    let (Some(mul), Some(uop)) = (&folder.mul, &folder.uop) else {
        return Ok(if folder.uop.is_some() {
            AnimSource::Uop
        } else {
            AnimSource::Mul
        });
    };
    if let Some(mob) = folder.mobtypes().and_then(|m| m.get(args.body)) {
        return Ok(if mob.uses_uop() {
            AnimSource::Uop
        } else {
            AnimSource::Mul
        });
    }
    if let Some(anim) = mul.view()?.get(AnimFile::from(args.file))
        && mul_has(anim, args.body, args.action, stored)
    {
        return Ok(AnimSource::Mul);
    }
    let view = uop.view()?;
    let entry = uop_entry_action(&view, args.body, args.action, &Limits::default())?;
    Ok(if view.animations.find(args.body, entry).is_some() {
        AnimSource::Uop
    } else {
        AnimSource::Mul
    })
}

/// The direction from anim.mul (or `--file`'s file).
fn read_mul(args: &AnimArgs, folder: &AnimFolder, drawing: &Drawing<'_>) -> Result<Read> {
    let Drawing {
        facing,
        hue,
        ref limits,
    } = *drawing;
    let files = folder.mul_view(&args.dir)?;
    let file = AnimFile::from(args.file);
    let anim = files.get(file).ok_or_else(|| {
        anyhow!(
            "{} has no {} with {}",
            args.dir.display(),
            file.data_name(),
            file.index_name()
        )
    })?;
    let (body, action) = (args.body, args.action);
    // anim.mul's block of a body mobtypes.txt lists is found with its type and flags, as
    // ClassicUO's `AnimationsLoader.GetIndices` finds it (`docs/formats/uo.md`,
    // "Animations"); any other body, or any body of anim2 to anim5 named by its own number,
    // with the type the client gives it by number.
    let records = match folder.mobtypes().and_then(|m| m.get(body)) {
        Some(mob) if file == AnimFile::Anim => anim.body_as(body, mob.body_type, mob.flags),
        _ => anim.body(body),
    };
    let group = match &records {
        Some(r) => anim.group_of(r, action, facing.stored)?,
        None => None,
    };
    let group = group.ok_or_else(|| match records {
        None => anyhow!(
            "body {body} has no animation in {} (its records pass the index's {})",
            file.data_name(),
            anim.len()
        ),
        Some(_) => anyhow!(
            "body {body} action {action} direction {} has no frames in {}",
            facing.stored,
            file.data_name()
        ),
    })?;
    Ok(Read {
        drawn: group_pictures(&group, facing.mirrored, hue, limits)?,
        source: AnimSource::Mul,
        file: file.data_name(),
        entry_action: action,
    })
}

/// The direction from AnimationFrame*.uop, the action through AnimationSequence.uop.
fn read_uop(args: &AnimArgs, folder: &AnimFolder, drawing: &Drawing<'_>) -> Result<Read> {
    let Drawing {
        facing,
        hue,
        ref limits,
    } = *drawing;
    let files = folder.uop_view(&args.dir)?;
    let (body, action) = (args.body, args.action);
    let entry_action = uop_entry_action(&files, body, action, limits)?;
    let replaced = if entry_action == action {
        String::new()
    } else {
        format!(" (its entry action {entry_action} by AnimationSequence.uop)")
    };
    let decoded = files
        .animations
        .decoded(body, entry_action, limits)?
        .ok_or_else(|| {
            anyhow!("body {body} action {action}{replaced} has no entry in AnimationFrame*.uop")
        })?;
    let animation = decoded.animation()?;
    let per = animation.frames_per_direction(folder.uop_body_type(body));
    if per == 0 {
        return Err(anyhow!(
            "body {body} action {action}{replaced} has no frames in {} (its {} frames make \
             none a direction)",
            decoded.file(),
            animation.list_len()
        ));
    }
    Ok(Read {
        drawn: uop_direction_pictures(
            &animation,
            facing.stored,
            per,
            facing.mirrored,
            hue,
            limits,
        )?,
        source: AnimSource::Uop,
        file: decoded.file(),
        entry_action,
    })
}

/// Writes each frame as `folder/NNN.png` (an empty one as a 1 x 1 transparent PNG).
fn write_frames(folder: &Path, drawn: &[DrawnFrame], inputs: &[&Path]) -> Result<()> {
    std::fs::create_dir_all(folder)
        .with_context(|| format!("cannot create {}", folder.display()))?;
    let blank = RgbaImage::new(1, 1, [0; 4])?;
    for (i, frame) in drawn.iter().enumerate() {
        let picture = if frame.picture.width() == 0 || frame.picture.height() == 0 {
            &blank
        } else {
            &frame.picture
        };
        let path = folder.join(format!("{i:03}.png"));
        crate::render::write_png(picture, &path, inputs)?;
    }
    Ok(())
}
