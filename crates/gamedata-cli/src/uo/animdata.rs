//! `gamedata uo animdata`: how an animated item cycles through art, from animdata.mul.

use std::path::PathBuf;

use anyhow::{Context, Result, anyhow};
use clap::Args;
use mul_core::AnimDataContents;
use serde::Serialize;

use super::{map_single, parse_id};
use crate::output::Output;

#[derive(Args)]
pub(crate) struct AnimDataArgs {
    /// The client folder: animdata.mul (any letter case).
    dir: PathBuf,
    /// The item's id (decimal or 0x hex).
    #[arg(value_parser = parse_id)]
    item: u16,
}

#[derive(Serialize)]
struct AnimDataReport {
    item: u16,
    /// The art item ids shown in turn (`null` for one outside 0 to 0xFFFF).
    frames: Vec<Option<u16>>,
    /// How long each frame shows, in milliseconds, as the client paces it.
    frame_ms: u32,
    frame_interval: u8,
    frame_start: u8,
    unknown: u8,
}

pub(super) fn animdata(args: &AnimDataArgs, out: &mut Output) -> Result<()> {
    let path = gamedata_io::find_file_ignoring_case(&args.dir, "animdata.mul")
        .with_context(|| format!("finding animdata.mul in {}", args.dir.display()))?;
    let owned = map_single::<AnimDataContents>(&path)?;
    let animdata = owned.view()?;
    let item = args.item;
    let record = animdata.get(item).ok_or_else(|| {
        anyhow!(
            "item {item:#06X} has no record in {} (its records end at item {:#06X})",
            path.display(),
            animdata.len()
        )
    })?;
    let report = AnimDataReport {
        item,
        frames: record.frame_items(item).collect(),
        frame_ms: record.frame_ms(),
        frame_interval: record.frame_interval,
        frame_start: record.frame_start,
        unknown: record.unknown,
    };
    out.report(&report, |w| {
        let frames: Vec<String> = report
            .frames
            .iter()
            .map(|f| f.map_or_else(|| "-".to_owned(), |id| format!("{id:#06X}")))
            .collect();
        writeln!(
            w,
            "item {item:#06X}: {} frames of {} ms: {}",
            frames.len(),
            report.frame_ms,
            frames.join(" ")
        )
    })
}
