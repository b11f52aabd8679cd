//! `gamedata uo texmap`: one texture map of texmaps.mul as the client draws it, as a PNG.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use clap::Args;
use gamedata_render::uo::texmap::texmap_picture;
use mul_core::OwnedTexmaps;
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
}

#[derive(Serialize)]
struct TexmapReport {
    id: u16,
    width: u32,
    height: u32,
}

/// Maps texmaps.mul and texidx.mul through mul-core's owner.
///
/// SAFETY contract taken on here: as [`super::open_facet`]'s.
#[allow(unsafe_code)]
fn map_texmaps(dir: &Path) -> Result<OwnedTexmaps, mul_core::Error> {
    // SAFETY: see this function's documentation.
    unsafe { OwnedTexmaps::map(dir, ()) }
}

pub(super) fn texmap(args: &TexmapArgs, out: &mut Output) -> Result<()> {
    let owned = map_texmaps(&args.dir)
        .with_context(|| format!("reading texture maps in {}", args.dir.display()))?;
    let texmaps = owned.view()?;
    let id = args.id;
    let texmap = texmaps.texmap(u32::from(id))?.ok_or_else(|| {
        anyhow!(
            "texture map {id:#06X} has no picture in {} (its {} ids)",
            args.dir.display(),
            texmaps.len()
        )
    })?;
    let picture = texmap_picture(&texmap)?;
    // Never over an input: texidx.mul and texmaps.mul.
    let inputs: Vec<&Path> = owned.paths.iter().flatten().map(PathBuf::as_path).collect();
    crate::render::write_png(&picture, &args.output, &inputs)?;
    let report = TexmapReport {
        id,
        width: picture.width(),
        height: picture.height(),
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "wrote {} (texture map {id:#06X}, {} x {} pixels)",
            args.output.display(),
            report.width,
            report.height
        )
    })
}
