//! `gamedata wwd from-tmx`: a level read back from a TMX or TMJ map `wwd tmx` wrote,
//! maybe edited in Tiled since (`gamedata_tiled::from_tmx`).

use std::io::Read;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;
use wap_core::Limits;

use crate::output::Output;

#[derive(Args)]
pub(crate) struct FromTmxArgs {
    /// The map that `wwd tmx` wrote: TMX, or TMJ (Tiled's JSON) for a name ending in
    /// `.tmj` or `.json`.
    file: PathBuf,
    /// The level to write.
    #[arg(short, long, value_name = "LEVEL.WWD")]
    output: PathBuf,
    /// Store the main block as a zlib stream (the default follows the header's flag 0x2).
    #[arg(long, conflicts_with = "no_compress")]
    compress: bool,
    /// Store the main block plain.
    #[arg(long)]
    no_compress: bool,
}

/// What `wwd from-tmx --json` prints.
#[derive(Serialize)]
struct FromTmxReport {
    output: String,
    bytes: u64,
    compressed: bool,
    planes: usize,
    objects: usize,
    main_block_size: u64,
    checksum: u32,
    elapsed_ms: f64,
}

pub(super) fn from_tmx(args: &FromTmxArgs, out: &mut Output) -> Result<()> {
    let start = std::time::Instant::now();
    let limits = Limits::default();
    // The map's text, read to a cap: a TMX of a level is a few MB.
    let file = std::fs::File::open(&args.file)
        .with_context(|| format!("cannot open {}", args.file.display()))?;
    let mut text = String::new();
    file.take(limits.max_stream_bytes.saturating_add(1))
        .read_to_string(&mut text)
        .with_context(|| format!("reading {} (UTF-8 text)", args.file.display()))?;
    if text.len() as u64 > limits.max_stream_bytes {
        anyhow::bail!(
            "{} is longer than {} bytes (Limits::max_stream_bytes)",
            args.file.display(),
            limits.max_stream_bytes
        );
    }
    let json = args
        .file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("tmj") || e.eq_ignore_ascii_case("json"));
    let read = if json {
        gamedata_tiled::from_tmx::level_from_tmj
    } else {
        gamedata_tiled::from_tmx::level_from_tmx
    };
    let data = read(&text, &limits)
        .with_context(|| format!("reading a level from {}", args.file.display()))?;
    // The level holds all it needs: the text goes before the file is made.
    drop(text);
    let compress = if args.compress || args.no_compress {
        args.compress
    } else {
        data.header.flags.get() & 0x2 != 0
    };
    // Checked against the limits the reader reads it with, then written as it is laid out
    // (the level and the file are not both whole in memory).
    let layout = data.layout(compress, &limits)?;
    let mut written = None;
    crate::files::write_seekable(&args.output, &[&args.file], |w| {
        written = Some(layout.write_to(w)?);
        Ok(())
    })?;
    let written = written.context("the level was not written")?;
    let report = FromTmxReport {
        output: args.output.display().to_string(),
        bytes: written.file_len,
        compressed: compress,
        planes: data.planes.len(),
        objects: data.planes.iter().map(|p| p.objects.len()).sum(),
        main_block_size: written.main_block_len,
        checksum: written.checksum,
        elapsed_ms: crate::files::elapsed_ms(start),
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "wrote {} ({} bytes, {} planes, {} objects, main block {} bytes{})",
            report.output,
            report.bytes,
            report.planes,
            report.objects,
            report.main_block_size,
            if report.compressed {
                ", compressed"
            } else {
                ""
            }
        )
    })
}
