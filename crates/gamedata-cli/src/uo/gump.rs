//! `gamedata uo gump`: one gump as the client draws it, as a PNG.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use clap::Args;
use gamedata_render::uo::gump::{GumpHue, gump_picture};
use mul_core::{ArtFormat, Limits, OwnedGumps, OwnedHues, PicturePaths};
use serde::Serialize;

use super::art::{FormatArg, folder_hues, folder_verdata};
use super::parse_id;
use crate::output::Output;

#[derive(Args)]
pub(crate) struct GumpArgs {
    /// The client folder: gumpart.mul and gumpidx.mul, or gumpartLegacyMUL.uop (any letter
    /// case), and hues.mul for --hue.
    dir: PathBuf,
    /// The gump id (decimal or 0x hex).
    #[arg(value_parser = parse_gump_id)]
    id: u32,
    /// Where to write the PNG (transparent where the gump's colour is 0).
    #[arg(short, long)]
    output: PathBuf,
    /// Draw with this hue (decimal or 0x hex, as the client stores it: 0x8000 asks for a
    /// partial hue, which changes grey pixels only); needs hues.mul in the folder.
    #[arg(long, value_parser = parse_id)]
    hue: Option<u16>,
    /// Which gump files to read. By default gumpart.mul with gumpidx.mul when both are in
    /// the folder, else gumpartLegacyMUL.uop.
    #[arg(long, value_enum)]
    art_format: Option<FormatArg>,
    /// Do not apply verdata.mul's gump patches (applied by default when the folder has the
    /// file, as the client does).
    #[arg(long)]
    no_verdata: bool,
}

/// A gump id: decimal or 0x hex, up to 32 bits (UOP gumps pass 0xFFFF).
fn parse_gump_id(text: &str) -> Result<u32, String> {
    let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16),
        None => text.parse(),
    };
    parsed.map_err(|e| format!("{text:?} is not a gump id: {e}"))
}

#[derive(Serialize)]
struct GumpReport {
    id: u32,
    width: u32,
    height: u32,
}

/// Maps the gump files through mul-core's owner.
///
/// SAFETY contract taken on here: as [`super::open_facet`]'s.
#[allow(unsafe_code)]
fn map_gumps(dir: &Path, format: Option<FormatArg>) -> Result<OwnedGumps, mul_core::Error> {
    // SAFETY: see this function's documentation.
    unsafe { OwnedGumps::map(dir, format.map(ArtFormat::from)) }
}

pub(super) fn gump(args: &GumpArgs, out: &mut Output) -> Result<()> {
    let owned = map_gumps(&args.dir, args.art_format)
        .with_context(|| format!("reading gumps in {}", args.dir.display()))?;
    let verdata = folder_verdata(&args.dir, args.no_verdata)?;
    let patches = verdata.as_ref().map(|(_, v)| v.view()).transpose()?;
    let gumps = match &patches {
        Some(patches) => owned.view()?.with_verdata(patches),
        None => owned.view()?,
    };
    let (hues_path, hues_file) = folder_hues(&args.dir, args.hue)?;
    let hues = hues_file.as_ref().map(OwnedHues::view).transpose()?;
    let hue = match (args.hue, &hues) {
        (Some(value), Some(hues)) => GumpHue::from_value(hues, value)?,
        _ => GumpHue::default(),
    };
    // In place, or decoded when stored compressed (gumpartLegacyMUL.uop's compression 1
    // and 3), within the default limits.
    let limits = Limits::default();
    let decoded = gumps.decoded(args.id, &limits)?.ok_or_else(|| {
        anyhow!(
            "gump {:#06X} has no picture in {} (its {} ids)",
            args.id,
            args.dir.display(),
            gumps.len()
        )
    })?;
    let gump = decoded.gump()?;
    let picture = gump_picture(&gump, hue, &limits)?;
    // Never over an input: the gump files, verdata.mul, and hues.mul with --hue.
    let inputs: Vec<&Path> = owned
        .paths
        .iter()
        .flat_map(PicturePaths::files)
        .map(PathBuf::as_path)
        .chain(verdata.as_ref().map(|(p, _)| p.as_path()))
        .chain(hues_path.as_deref())
        .collect();
    crate::render::write_png(&picture, &args.output, &inputs)?;
    let report = GumpReport {
        id: args.id,
        width: picture.width(),
        height: picture.height(),
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "wrote {} (gump {:#06X}, {} x {} pixels)",
            args.output.display(),
            report.id,
            report.width,
            report.height
        )
    })
}
