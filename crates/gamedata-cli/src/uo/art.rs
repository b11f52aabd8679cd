//! `gamedata uo art`: one land tile or item of art.mul as the client draws it, as a PNG.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, ValueEnum};
use gamedata_render::uo::art::{ArtHue, item_picture, land_picture};
use mul_core::{ArtFiles, ArtFormat, HuesFile, Limits, PicturePaths};
use serde::Serialize;

use super::folder::{folder_hues, folder_verdata};
use super::parse_id;
use crate::output::Output;

#[derive(Args)]
pub(crate) struct ArtArgs {
    /// The client folder: art.mul and artidx.mul, or artLegacyMUL.uop (any letter case),
    /// and hues.mul for --hue.
    dir: PathBuf,
    /// Which art files to read. By default art.mul with artidx.mul when both are in the
    /// folder, else artLegacyMUL.uop.
    #[arg(long, value_enum)]
    art_format: Option<FormatArg>,
    /// An item id (decimal or 0x hex): art number 0x4000 + ID.
    #[arg(long, value_parser = parse_id, conflicts_with = "land", required_unless_present = "land")]
    item: Option<u16>,
    /// A land tile id, 0 to 0x3FFF (decimal or 0x hex).
    #[arg(long, value_parser = parse_id)]
    land: Option<u16>,
    /// Where to write the PNG (transparent where the client draws nothing).
    #[arg(short, long)]
    output: PathBuf,
    /// Draw with this hue (decimal or 0x hex, as the client stores it: 0x8000 asks for a
    /// partial hue, which changes grey pixels only); needs hues.mul in the folder.
    #[arg(long, value_parser = parse_id)]
    hue: Option<u16>,
    /// Do not apply verdata.mul's art patches (applied by default when the folder has the
    /// file, as the client does).
    #[arg(long)]
    no_verdata: bool,
}

#[derive(Serialize)]
struct ArtReport {
    kind: &'static str,
    id: u16,
    width: u32,
    height: u32,
}

/// The form of the art or gump files to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum FormatArg {
    /// artidx.mul with art.mul (gumpidx.mul with gumpart.mul).
    Mul,
    /// artLegacyMUL.uop (gumpartLegacyMUL.uop).
    Uop,
}

impl From<FormatArg> for ArtFormat {
    fn from(arg: FormatArg) -> Self {
        match arg {
            FormatArg::Mul => ArtFormat::Mul,
            FormatArg::Uop => ArtFormat::Uop,
        }
    }
}

/// Maps the art files through mul-core's owner.
///
/// SAFETY contract taken on here: as [`super::open_facet`]'s.
#[allow(unsafe_code)]
fn map_art(dir: &Path, format: Option<FormatArg>) -> Result<ArtFiles, mul_core::Error> {
    // SAFETY: see this function's documentation.
    unsafe { ArtFiles::map(dir, format.map(ArtFormat::from)) }
}

pub(super) fn art(args: &ArtArgs, out: &mut Output) -> Result<()> {
    let owned = map_art(&args.dir, args.art_format)
        .with_context(|| format!("reading art in {}", args.dir.display()))?;
    let verdata = folder_verdata(&args.dir, args.no_verdata)?;
    let patches = verdata.as_ref().map(|(_, v)| v.view()).transpose()?;
    let art = match &patches {
        Some(patches) => owned.view()?.with_verdata(patches),
        None => owned.view()?,
    };
    let (hues_path, hues_file) = folder_hues(&args.dir, args.hue)?;
    let hues = hues_file.as_ref().map(HuesFile::view).transpose()?;
    let hue = match (args.hue, &hues) {
        (Some(value), Some(hues)) => ArtHue::from_value(hues, value)?,
        _ => ArtHue::None,
    };
    let (kind, id, picture) = match (args.land, args.item) {
        (Some(id), _) => {
            let land = art.land(id)?.ok_or_else(|| {
                anyhow!(
                    "land tile {id:#06X} has no picture in {}",
                    args.dir.display()
                )
            })?;
            ("land", id, land_picture(&land, hue)?)
        }
        (None, Some(id)) => {
            let item = art.item(id)?.ok_or_else(|| {
                anyhow!(
                    "item {id:#06X} has no picture in {} (its {} items)",
                    args.dir.display(),
                    art.item_count()
                )
            })?;
            if item.width() == 0 || item.height() == 0 {
                bail!(
                    "item {id:#06X} is an empty picture ({} x {} pixels)",
                    item.width(),
                    item.height()
                );
            }
            ("item", id, item_picture(&item, hue, &Limits::default())?)
        }
        (None, None) => bail!("give --item ID or --land ID"),
    };
    // Never over an input: the art's files, verdata.mul, and hues.mul with --hue.
    let inputs: Vec<&Path> = owned
        .paths
        .iter()
        .flat_map(PicturePaths::files)
        .map(PathBuf::as_path)
        .chain(verdata.as_ref().map(|(p, _)| p.as_path()))
        .chain(hues_path.as_deref())
        .collect();
    crate::render::write_png(&picture, &args.output, &inputs)?;
    let report = ArtReport {
        kind,
        id,
        width: picture.width(),
        height: picture.height(),
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "wrote {} ({} {id:#06X}, {} x {} pixels)",
            args.output.display(),
            report.kind,
            report.width,
            report.height
        )
    })
}
