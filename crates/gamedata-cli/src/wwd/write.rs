//! `gamedata wwd write`: a level read and written again, compressed or not.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;
use wap_core::{LevelData, base_checksum};

use super::level::{open, view};
use crate::output::Output;

#[derive(Args)]
pub(crate) struct WriteArgs {
    /// The level to read.
    file: PathBuf,
    /// The level to write.
    out: PathBuf,
    /// Store the main block as a zlib stream (the default keeps the input's choice).
    #[arg(long, conflicts_with = "no_compress")]
    compress: bool,
    /// Store the main block plain.
    #[arg(long)]
    no_compress: bool,
}

#[derive(Serialize)]
struct WriteReport {
    output: String,
    compressed: bool,
    bytes: usize,
    main_block_size: usize,
    checksum: u32,
    same_main_block: bool,
    elapsed_ms: f64,
}

pub(super) fn write(args: &WriteArgs, out: &mut Output) -> Result<()> {
    let start = std::time::Instant::now();
    let file = open(&args.file)?;
    let level = view(&file, &args.file)?;
    let data = LevelData::from_level(&level)
        .with_context(|| format!("reading {}", args.file.display()))?;
    let compress = if args.compress || args.no_compress {
        args.compress
    } else {
        file.compressed()
    };
    let block = data.main_block()?;
    let bytes = data.to_file(compress)?;
    crate::files::write_bytes(&args.out, &[&args.file], &bytes)?;
    let report = WriteReport {
        output: args.out.display().to_string(),
        compressed: compress,
        bytes: bytes.len(),
        main_block_size: block.len(),
        checksum: base_checksum(bytes.get(1524..).unwrap_or_default()),
        same_main_block: block == file.main_block(),
        elapsed_ms: crate::files::elapsed_ms(start),
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "wrote {} ({} bytes, {}), main block {} bytes{}, checksum {:#010x}",
            report.output,
            report.bytes,
            if compress { "zlib" } else { "plain" },
            report.main_block_size,
            if report.same_main_block {
                ", identical to the input's"
            } else {
                ", laid out in the editor's order"
            },
            report.checksum
        )
    })
}
