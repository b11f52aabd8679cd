//! `gamedata uo synth`: a synthetic world at a facet's full size.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use mul_core::synth::World;
use mul_core::{MapFormat, MapSize};

use super::MapFormatArg;
use crate::files::write_bytes;
use crate::output::Output;

#[derive(Args)]
pub(crate) struct SynthArgs {
    /// Folder to write into (created).
    out_dir: PathBuf,
    /// Facet number 0-5: its full preset size (facet 0 and 1: 7168x4096) and file names.
    #[arg(long, default_value_t = 0)]
    facet: u8,
    /// Generator seed: the same seed gives the same bytes.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The map's form: map{N}.mul or map{N}LegacyMUL.uop.
    #[arg(long, value_enum, default_value = "mul")]
    map_format: MapFormatArg,
    /// Also write diff files patching this many blocks (land turned to lava, one gold coin
    /// a block).
    #[arg(long, default_value_t = 0)]
    diffs: usize,
}

pub(super) fn synth(args: &SynthArgs, out: &mut Output) -> Result<()> {
    // Facets 0 and 1 at their modern full width (896 x 512 blocks).
    let size = MapSize::preset(args.facet)?;
    let start = Instant::now();
    let world = World::generate(size, args.seed);
    let format = MapFormat::from(args.map_format);
    std::fs::create_dir_all(&args.out_dir)
        .with_context(|| format!("cannot create {}", args.out_dir.display()))?;
    // Each file whole or not at all; the command reads nothing, so no input to refuse.
    for (name, bytes) in world.files(args.facet, format)? {
        write_bytes(&args.out_dir.join(name), &[], &bytes)?;
    }
    if args.diffs > 0 {
        let (files, _) = world.diff_files(args.facet, args.diffs, args.seed);
        for (name, bytes) in files {
            write_bytes(&args.out_dir.join(name), &[], &bytes)?;
        }
    }
    out.note(&format!(
        "wrote facet {} ({size}, {} statics, map as {}) into {} in {:.1} s",
        args.facet,
        world.static_count,
        format.file_name(args.facet),
        args.out_dir.display(),
        start.elapsed().as_secs_f64()
    ))
}
