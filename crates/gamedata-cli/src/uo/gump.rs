//! `gamedata uo gump`: one gump as the client draws it, as a PNG.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use clap::Args;
use gamedata_render::uo::gump::{GumpHue, gump_picture};
use mul_core::{ArtFormat, GumpDef, GumpFiles, HuesFile, Limits, PicturePaths};
use serde::Serialize;

use super::art::FormatArg;
use super::folder::{folder_def, folder_hues, folder_verdata};
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
    /// Do not read gump.def (by default, when the folder has it, a gump with an empty entry
    /// is drawn from the entry gump.def lends it, with gump.def's hue, as the client does).
    #[arg(long)]
    no_def: bool,
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
    /// The gump gump.def lent this one's picture, when it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    def_source: Option<u32>,
    /// gump.def's hue for it (0 is none), when it lent one.
    #[serde(skip_serializing_if = "Option::is_none")]
    def_hue: Option<u16>,
}

/// Maps the gump files through mul-core's owner.
///
/// SAFETY contract taken on here: as [`super::open_facet`]'s.
#[allow(unsafe_code)]
fn map_gumps(dir: &Path, format: Option<FormatArg>) -> Result<GumpFiles, mul_core::Error> {
    // SAFETY: see this function's documentation.
    unsafe { GumpFiles::map(dir, format.map(ArtFormat::from)) }
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
    // gump.def, resolved on the index before verdata's patches, as the client loads it: a
    // patched id is read from its patch, another with an empty entry may borrow.
    let def_file = folder_def(&args.dir, "gump.def", args.no_def)?;
    let plain = owned.view()?;
    let borrowed = match &def_file {
        Some((_, text)) if gumps.patch(args.id).is_none() => {
            GumpDef::resolve(text, &plain).get(args.id)
        }
        _ => None,
    };
    let def_hue = borrowed.map_or(0, |b| b.hue);
    let wants_hues = args.hue.or((def_hue != 0).then_some(def_hue));
    let (hues_path, hues_file) = match folder_hues(&args.dir, wants_hues) {
        Ok(found) => found,
        // gump.def's hue without hues.mul: nothing to look it up in; drawn as stored.
        Err(_) if args.hue.is_none() => (None, None),
        Err(e) => return Err(e),
    };
    let hues = hues_file.as_ref().map(HuesFile::view).transpose()?;
    let mut hue = match (args.hue, &hues) {
        (Some(value), Some(hues)) => GumpHue::from_value(hues, value)?,
        _ => GumpHue::default(),
    };
    if let (Some(_), Some(hues)) = (borrowed, &hues) {
        hue = hue.with_load_hue(hues, def_hue);
    }
    // In place, or decoded when stored compressed (gumpartLegacyMUL.uop's compression 1
    // and 3), within the default limits; a borrowing gump from its source's own entry.
    let limits = Limits::default();
    let decoded = match borrowed {
        Some(b) => plain.decoded(b.source, &limits)?,
        None => gumps.decoded(args.id, &limits)?,
    };
    let decoded = decoded.ok_or_else(|| {
        anyhow!(
            "gump {:#06X} has no picture in {} (its {} ids)",
            args.id,
            args.dir.display(),
            gumps.len()
        )
    })?;
    let gump = decoded.gump()?;
    let picture = gump_picture(&gump, hue, &limits)?;
    // Never over an input: the gump files, verdata.mul, gump.def, and hues.mul.
    let inputs: Vec<&Path> = owned
        .paths
        .iter()
        .flat_map(PicturePaths::files)
        .map(PathBuf::as_path)
        .chain(verdata.as_ref().map(|(p, _)| p.as_path()))
        .chain(def_file.as_ref().map(|(p, _)| p.as_path()))
        .chain(hues_path.as_deref())
        .collect();
    crate::render::write_png(&picture, &args.output, &inputs)?;
    let report = GumpReport {
        id: args.id,
        width: picture.width(),
        height: picture.height(),
        def_source: borrowed.map(|b| b.source),
        def_hue: borrowed.map(|b| b.hue),
    };
    out.report(&report, |w| {
        write!(
            w,
            "wrote {} (gump {:#06X}, {} x {} pixels",
            args.output.display(),
            report.id,
            report.width,
            report.height
        )?;
        if let Some(b) = borrowed {
            write!(
                w,
                ", gump.def: gump {:#06X}'s entry, hue {}",
                b.source, b.hue
            )?;
        }
        writeln!(w, ")")
    })
}
