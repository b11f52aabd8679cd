//! `gamedata uo synth`: a synthetic world at a facet's full size or a size given in tiles.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use mul_core::synth::World;
use mul_core::{MapFormat, MapSize};

use super::MapFormatArg;
use serde::Serialize;

use crate::files::{Written, elapsed_ms, write_bytes};
use crate::output::Output;

#[derive(Args)]
pub(crate) struct SynthArgs {
    /// Folder to write into (created).
    out_dir: PathBuf,
    /// Facet number 0-5: its file names, and without --width and --height its full preset
    /// size (facet 0 and 1: 7168x4096).
    #[arg(long, default_value_t = 0)]
    facet: u8,
    /// Map width in tiles (a multiple of 8), for a world of a custom size.
    #[arg(long, requires = "height")]
    width: Option<u32>,
    /// Map height in tiles (a multiple of 8).
    #[arg(long, requires = "width")]
    height: Option<u32>,
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
    /// Also write pictures that draw the world, which then holds the showcase of every
    /// drawing case (docs/formats/uo.md, "Synthetic world") and a tiledata.mul giving its
    /// land texture maps: art.mul and artidx.mul (a synthetic set of 64 land tiles and 256
    /// items, one an exact repeat of another, one empty, with a picture at every land and
    /// item id the world places; items up to 0x21BC), gumpart.mul with gumpidx.mul (200
    /// gumps, one a repeat, one empty), texmaps.mul with texidx.mul (307 texture maps of
    /// 64 x 64 and 128 x 128 pixels, 19 empty, one an exact repeat, ids 300 to 306 the
    /// land's), and anim.idx with anim.mul (bodies 1, 2, 201 and 400, actions 0 to 2, one
    /// record a repeat, one empty) with animdata.mul (24 items, 3 of them animated), in MUL
    /// form whatever --art-format says; with --art-format uop also AnimationFrame1.uop
    /// (body 1 actions 0 and 2, body 400 action 4).
    #[arg(long)]
    art: bool,
    /// The art's form with --art: art.mul with artidx.mul and gumpart.mul with
    /// gumpidx.mul, or artLegacyMUL.uop and gumpartLegacyMUL.uop.
    #[arg(long, value_enum, default_value = "mul", requires = "art")]
    art_format: super::art::FormatArg,
    /// With --art, a full-size art set instead: 0x4000 land tiles and 0x10000 items (0x14000
    /// entries, about 230 MB), as High Seas clients have.
    #[arg(long, requires = "art")]
    art_full: bool,
}

/// What `uo synth --json` prints.
#[derive(Serialize)]
struct SynthReport {
    out_dir: String,
    facet: u8,
    seed: u64,
    /// Tiles.
    width: u32,
    /// Tiles.
    height: u32,
    statics: u64,
    map_format: &'static str,
    /// Blocks the diff files patch (0 without `--diffs`).
    diff_blocks: usize,
    files: Vec<Written>,
    elapsed_ms: f64,
}

pub(super) fn synth(args: &SynthArgs, out: &mut Output) -> Result<()> {
    // Facets 0 and 1 at their modern full width (896 x 512 blocks).
    let size = match (args.width, args.height) {
        (Some(w), Some(h)) => MapSize::from_tiles(w, h)?,
        _ => MapSize::preset(args.facet)?,
    };
    let start = Instant::now();
    let world = if args.art {
        World::generate_drawable(size, args.seed)
    } else {
        World::generate(size, args.seed)
    };
    let format = MapFormat::from(args.map_format);
    std::fs::create_dir_all(&args.out_dir)
        .with_context(|| format!("cannot create {}", args.out_dir.display()))?;
    // Each file whole or not at all; the command reads nothing, so no input to refuse.
    let mut files = Vec::new();
    for (name, bytes) in world.files(args.facet, format)? {
        let path = args.out_dir.join(name);
        write_bytes(&path, &[], &bytes)?;
        files.push(Written::of(&path)?);
    }
    let mut diff_blocks = 0;
    if args.diffs > 0 {
        let (diffs, blocks) = world.diff_files(args.facet, args.diffs, args.seed);
        diff_blocks = blocks.len();
        for (name, bytes) in diffs {
            let path = args.out_dir.join(name);
            write_bytes(&path, &[], &bytes)?;
            files.push(Written::of(&path)?);
        }
    }
    if args.art {
        let (index, data) = if args.art_full {
            mul_core::synth::drawable::art_sized(args.seed, 0x4000, 0x10000)
        } else {
            mul_core::synth::drawable::art(args.seed)
        };
        let (gump_index, gump_data) = mul_core::gump::write::synthetic_gumps(args.seed);
        // Texture maps have no UOP form: always texidx.mul and texmaps.mul.
        let (tex_index, tex_data) = mul_core::synth::drawable::texmaps(args.seed);
        let art_files = match args.art_format {
            super::art::FormatArg::Mul => vec![
                ("artidx.mul", index),
                ("art.mul", data),
                ("gumpidx.mul", gump_index),
                ("gumpart.mul", gump_data),
            ],
            super::art::FormatArg::Uop => {
                let art = mul_core::Art::parse(&index, &data)?;
                let gumps = mul_core::Gumps::parse(&gump_index, &gump_data)?;
                vec![
                    (
                        mul_core::UopPictures::Art.file_name(),
                        mul_core::art::write::art_to_uop(&art)?.files,
                    ),
                    (
                        mul_core::UopPictures::Gumps.file_name(),
                        mul_core::gump::write::gumps_to_uop(&gumps)?.files,
                    ),
                ]
            }
        };
        let texmaps = [("texidx.mul", tex_index), ("texmaps.mul", tex_data)];
        for (name, bytes) in art_files.into_iter().chain(texmaps) {
            let path = args.out_dir.join(name);
            write_bytes(&path, &[], &bytes)?;
            files.push(Written::of(&path)?);
        }
        // The MUL animations in both forms (as UOP clients still ship anim.mul), and with
        // --art-format uop AnimationFrame1.uop too, its entries compressed as the newer
        // clients' are (zlib, then the BWT stage).
        let (anim_index, anim_data) = mul_core::anim::write::synthetic_animations(args.seed);
        let animdata = mul_core::animdata::write::synthetic_animdata();
        let mut anim_files = vec![
            ("anim.idx", anim_index),
            ("anim.mul", anim_data),
            ("animdata.mul", animdata),
        ];
        if args.art_format == super::art::FormatArg::Uop {
            anim_files.push((
                mul_core::anim::UOP_ANIM_FILES[0],
                mul_core::anim::write::synthetic_uop_animations(
                    args.seed,
                    mul_core::anim::write::UopAnimCompression::ZlibBwt,
                ),
            ));
        }
        for (name, bytes) in anim_files {
            let path = args.out_dir.join(name);
            write_bytes(&path, &[], &bytes)?;
            files.push(Written::of(&path)?);
        }
    }
    let report = SynthReport {
        out_dir: args.out_dir.display().to_string(),
        facet: args.facet,
        seed: args.seed,
        width: size.width(),
        height: size.height(),
        statics: world.static_count,
        map_format: format.name(),
        diff_blocks,
        files,
        elapsed_ms: elapsed_ms(start),
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "wrote facet {} ({size}, {} statics, map as {}) into {} in {:.1} s",
            args.facet,
            world.static_count,
            format.file_name(args.facet),
            args.out_dir.display(),
            report.elapsed_ms / 1000.0
        )
    })
}
