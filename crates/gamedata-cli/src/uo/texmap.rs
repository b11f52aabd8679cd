//! `gamedata uo texmap`: one texture map of texmaps.mul as the client draws it, as a PNG.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use clap::Args;
use gamedata_render::uo::texmap::texmap_picture;
use mul_core::{TexTerrDef, TexmapFiles};
use serde::Serialize;

use super::parse_id;
use crate::output::Output;

#[derive(Args)]
pub(crate) struct TexmapArgs {
    /// The client folder: texmaps.mul and texidx.mul (any letter case).
    dir: PathBuf,
    /// The texture map's id (decimal or 0x hex), as a land tile's tiledata names it.
    #[arg(value_parser = parse_id)]
    id: u16,
    /// Where to write the PNG (64 x 64 or 128 x 128, every pixel opaque).
    #[arg(short, long)]
    output: PathBuf,
    /// Do not read TexTerr.def (by default, when the folder has it, a texture map it
    /// names is drawn from the entry its line gives, as the client does).
    #[arg(long)]
    no_def: bool,
}

#[derive(Serialize)]
struct TexmapReport {
    id: u16,
    width: u32,
    height: u32,
    /// The texture map whose entry TexTerr.def sent this one to, when it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    def_source: Option<u32>,
}

/// Maps texmaps.mul and texidx.mul through mul-core's owner.
///
/// SAFETY contract taken on here: as [`super::open_facet`]'s.
#[allow(unsafe_code)]
fn map_texmaps(dir: &Path) -> Result<TexmapFiles, mul_core::Error> {
    // SAFETY: see this function's documentation.
    unsafe { TexmapFiles::map(dir, ()) }
}

pub(super) fn texmap(args: &TexmapArgs, out: &mut Output) -> Result<()> {
    let owned = map_texmaps(&args.dir)
        .with_context(|| format!("reading texture maps in {}", args.dir.display()))?;
    let texmaps = owned.view()?;
    let id = args.id;
    // TexTerr.def, resolved on the index as the client loads texmaps.mul.
    let def_file = super::folder::folder_def(&args.dir, "TexTerr.def", args.no_def)?;
    let source = match &def_file {
        Some((_, text)) => TexTerrDef::resolve(text, texmaps.len()).source(u32::from(id)),
        None => u32::from(id),
    };
    let def_source = (source != u32::from(id)).then_some(source);
    let texmap = texmaps.texmap(source)?.ok_or_else(|| {
        let sent = def_source.map_or(String::new(), |s| {
            format!(" (TexTerr.def reads it from texture map {s:#06X})")
        });
        anyhow!(
            "texture map {id:#06X} has no picture in {}{sent} (its {} ids)",
            args.dir.display(),
            texmaps.len()
        )
    })?;
    let picture = texmap_picture(&texmap)?;
    // Never over an input: texidx.mul, texmaps.mul and TexTerr.def.
    let mut inputs: Vec<&Path> = owned.paths.iter().flatten().map(PathBuf::as_path).collect();
    inputs.extend(def_file.as_ref().map(|(path, _)| path.as_path()));
    crate::render::write_png(&picture, &args.output, &inputs)?;
    let report = TexmapReport {
        id,
        width: picture.width(),
        height: picture.height(),
        def_source,
    };
    out.report(&report, |w| {
        let sent = def_source.map_or(String::new(), |s| {
            format!(", TexTerr.def: texture map {s:#06X}'s entry")
        });
        writeln!(
            w,
            "wrote {} (texture map {id:#06X}, {} x {} pixels{sent})",
            args.output.display(),
            report.width,
            report.height
        )
    })
}
