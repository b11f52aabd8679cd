//! `gamedata wwd from-tmx`: a level read back from a TMX or TMJ map `wwd tmx` wrote,
//! maybe edited in Tiled since (`gamedata_tiled::from_tmx`).

use std::io::Read;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;
use wap_core::{Limits, base_checksum};
use zerocopy::FromBytes;

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
    bytes: usize,
    compressed: bool,
    planes: usize,
    objects: usize,
    main_block_size: usize,
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
    let bytes = data.to_file(compress)?;
    // The main block's length: the header says it of a compressed one; a plain one is the
    // rest of the file.
    let block_len = match (compress, bytes.get(..1524)) {
        (true, Some(head)) => wap_core::raw::WwdHeader::read_from_bytes(head)
            .map_or(0, |h| h.main_block_size.get() as usize),
        _ => bytes.len().saturating_sub(1524),
    };
    crate::files::write_bytes(&args.output, &[&args.file], &bytes)?;
    let report = FromTmxReport {
        output: args.output.display().to_string(),
        bytes: bytes.len(),
        compressed: compress,
        planes: data.planes.len(),
        objects: data.planes.iter().map(|p| p.objects.len()).sum(),
        main_block_size: block_len,
        checksum: base_checksum(bytes.get(1524..).unwrap_or_default()),
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
