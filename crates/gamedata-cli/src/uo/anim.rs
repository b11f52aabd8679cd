//! `gamedata uo anim`: one direction of a body's action (anim.mul and anim2 to anim5) as
//! the client draws it, a PNG a frame or one sprite sheet.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use clap::{Args, ValueEnum};
use gamedata_render::RgbaImage;
use gamedata_render::uo::anim::{DrawnFrame, group_pictures, sprite_sheet};
use gamedata_render::uo::art::ArtHue;
use mul_core::{AnimFile, Facing, Limits, OwnedAnimations, OwnedHues};
use serde::Serialize;

use super::art::folder_hues;
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
    becoming its width less the stored one. The body's records are found as the client \
    finds a body that mobtypes.txt does not list (docs/formats/uo.md, \"Animations\").";

#[derive(Args)]
pub(crate) struct AnimArgs {
    /// The client folder: anim.idx and anim.mul (any letter case), anim2 to anim5 for
    /// --file, and hues.mul for --hue.
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
    /// bodies' groups of records.
    #[arg(long, value_enum, default_value = "anim")]
    file: AnimFileArg,
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
}

/// Maps the animation files through mul-core's owner.
///
/// SAFETY contract taken on here: as [`super::open_facet`]'s.
#[allow(unsafe_code)]
fn map_animations(dir: &Path) -> Result<OwnedAnimations, mul_core::Error> {
    // SAFETY: see this function's documentation.
    unsafe { OwnedAnimations::map(dir, ()) }
}

pub(super) fn anim(args: &AnimArgs, out: &mut Output) -> Result<()> {
    let owned = map_animations(&args.dir)
        .with_context(|| format!("reading animations in {}", args.dir.display()))?;
    let files = owned.view()?;
    let file = AnimFile::from(args.file);
    let anim = files.get(file).ok_or_else(|| {
        anyhow!(
            "{} has no {} with {}",
            args.dir.display(),
            file.data_name(),
            file.index_name()
        )
    })?;
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
    let (body, action) = (args.body, args.action);
    let group = anim
        .group(body, action, facing.stored)?
        .ok_or_else(|| match anim.body(body) {
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
    let limits = Limits::default();
    let drawn = group_pictures(&group, facing.mirrored, hue, &limits)?;
    // Never over an input: the animation files, and hues.mul with --hue.
    let inputs: Vec<&Path> = owned.input_paths().chain(hues_path.as_deref()).collect();
    let written = match (&args.sheet, &args.output) {
        (Some(sheet), output) => {
            if output.is_some() {
                crate::output::error_line(
                    "note: --sheet writes the sheet only; OUTDIR is not used",
                );
            }
            let picture = sprite_sheet(drawn.iter().map(|d| &d.picture), &limits)
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
    };
    out.report(&report, |w| {
        let mirrored = if facing.mirrored {
            format!(", stored direction {} mirrored", facing.stored)
        } else {
            String::new()
        };
        writeln!(
            w,
            "{written}: body {body} action {action} direction {}{mirrored}",
            args.direction
        )
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
