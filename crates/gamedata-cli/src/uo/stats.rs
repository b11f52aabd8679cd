//! `gamedata uo stats` and `gamedata uo find`: whole-facet queries.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use clap::Args;
use mul_core::raw::StaticRecord;
use mul_core::{Facet, TileFlags, facet::query};
use serde::Serialize;

use super::{SizeArgs, open_facet, parse_id, views};
use crate::output::{ListArgs, Output, TextListing};

#[derive(Args)]
pub(crate) struct StatsArgs {
    /// The client folder (the map and statics files are enough).
    dir: PathBuf,
    #[command(flatten)]
    size: SizeArgs,
    /// Scan on one thread instead of rayon's pool (the results are the same).
    #[arg(long)]
    sequential: bool,
}

#[derive(Args)]
pub(crate) struct FindArgs {
    /// The client folder.
    dir: PathBuf,
    #[command(flatten)]
    size: SizeArgs,
    /// An item id (decimal or 0x hex).
    #[arg(long, value_parser = parse_id, conflicts_with = "flag", required_unless_present = "flag")]
    id: Option<u16>,
    /// A tiledata flag name (impassable, surface, wet, foliage, no_shoot ...; case ignored).
    #[arg(long)]
    flag: Option<String>,
    #[command(flatten)]
    list: ListArgs,
}

#[derive(Serialize)]
struct IdCount {
    id: u16,
    count: u64,
}

#[derive(Serialize)]
struct LandSummary {
    /// `null` for a map with no cell.
    z_min: Option<i8>,
    z_max: Option<i8>,
    top: Vec<IdCount>,
}

#[derive(Serialize)]
struct StaticsSummary {
    count: u64,
    /// `null` when there is no static.
    z_min: Option<i8>,
    z_max: Option<i8>,
    top: Vec<IdCount>,
}

#[derive(Serialize)]
pub(crate) struct StatsReport {
    width: u32,
    height: u32,
    blocks: usize,
    land: LandSummary,
    statics: StaticsSummary,
    elapsed_ms: f64,
}

fn top(list: Vec<(u16, u64)>) -> Vec<IdCount> {
    list.into_iter()
        .map(|(id, count)| IdCount { id, count })
        .collect()
}

/// Whole-facet statistics, timed from the views being ready to the figures.
pub(crate) fn stats_report(facet: &Facet<'_>, sequential: bool) -> StatsReport {
    let size = facet.size();
    let start = Instant::now();
    let (land, st) = if sequential {
        (
            query::land_stats(&facet.map),
            query::statics_stats(&facet.statics, size.blocks()),
        )
    } else {
        (
            query::land_stats_par(&facet.map),
            query::statics_stats_par(&facet.statics, size.blocks()),
        )
    };
    let elapsed_ms = start.elapsed().as_secs_f64() * 1000.0;
    StatsReport {
        width: size.width(),
        height: size.height(),
        blocks: size.blocks(),
        land: LandSummary {
            z_min: (land.cells > 0).then_some(land.z_min),
            z_max: (land.cells > 0).then_some(land.z_max),
            top: top(land.top(10)),
        },
        statics: StaticsSummary {
            count: st.count,
            z_min: (st.count > 0).then_some(st.z_min),
            z_max: (st.count > 0).then_some(st.z_max),
            top: top(st.top(10)),
        },
        elapsed_ms: (elapsed_ms * 1000.0).round() / 1000.0,
    }
}

/// "lo..hi", or "none" for an empty set.
fn z_range(lo: Option<i8>, hi: Option<i8>) -> String {
    match (lo, hi) {
        (Some(lo), Some(hi)) => format!("{lo}..{hi}"),
        _ => "none".to_owned(),
    }
}

pub(crate) fn print_stats(w: &mut dyn Write, r: &StatsReport) -> std::io::Result<()> {
    writeln!(
        w,
        "{} x {} tiles, {} blocks, scanned in {:.1} ms",
        r.width, r.height, r.blocks, r.elapsed_ms
    )?;
    writeln!(w, "land: z {}", z_range(r.land.z_min, r.land.z_max))?;
    for t in &r.land.top {
        writeln!(w, "  {:#06x} {:>12}", t.id, t.count)?;
    }
    writeln!(
        w,
        "statics: {} of them, z {}",
        r.statics.count,
        z_range(r.statics.z_min, r.statics.z_max)
    )?;
    for t in &r.statics.top {
        writeln!(w, "  {:#06x} {:>12}", t.id, t.count)?;
    }
    Ok(())
}

pub(super) fn stats(args: &StatsArgs, out: &mut Output) -> Result<()> {
    let files = open_facet(&args.dir, &args.size)?;
    let facet = views(&files, &args.size)?;
    let report = stats_report(&facet, args.sequential);
    out.report(&report, |w| print_stats(w, &report))
}

#[derive(Serialize)]
struct FoundRow {
    x: u32,
    y: u32,
    z: i8,
    id: u16,
    hue: u16,
}

impl From<query::FoundStatic> for FoundRow {
    fn from(f: query::FoundStatic) -> Self {
        FoundRow {
            x: f.x,
            y: f.y,
            z: f.z,
            id: f.id,
            hue: f.hue,
        }
    }
}

pub(super) fn find(args: &FindArgs, out: &mut Output) -> Result<()> {
    let files = open_facet(&args.dir, &args.size)?;
    let facet = views(&files, &args.size)?;
    let wanted: Box<dyn Fn(&StaticRecord) -> bool + Sync + '_> = match (args.id, &args.flag) {
        (Some(id), _) => Box::new(move |s: &StaticRecord| s.id.get() == id),
        (None, Some(name)) => {
            let flag = TileFlags::from_name_ignoring_case(name).ok_or_else(|| {
                let names: Vec<&str> = TileFlags::all().names().collect();
                anyhow!(
                    "no tiledata flag named {name:?}; the names are {}",
                    names.join(", ").to_lowercase()
                )
            })?;
            let tiledata = facet
                .tiledata
                .ok_or_else(|| anyhow!("--flag needs tiledata.mul in {}", args.dir.display()))?;
            let table = tiledata.item_table();
            Box::new(move |s: &StaticRecord| {
                table
                    .get(usize::from(s.id.get()))
                    .is_some_and(|(f, _)| f.intersects(flag))
            })
        }
        (None, None) => bail!("give --id ID or --flag NAME"),
    };
    let size = facet.size();
    let text = TextListing {
        header: "    x     y    z     id   hue",
        row: &|w, f: &FoundRow| {
            writeln!(
                w,
                "{:>5} {:>5} {:>4} {:#06x} {:>5}",
                f.x, f.y, f.z, f.id, f.hue
            )
        },
        footer: &|n| format!("{n} statics"),
    };
    // One JSON document: the parallel scan, then the rows. Otherwise one static at a time,
    // as the blocks are read: nothing is collected.
    let document = out.is_json() && !args.list.jsonl && !args.list.count;
    let rows: Box<dyn Iterator<Item = Result<FoundRow>>> = if document {
        let found = query::find_statics_par(&facet.statics, size, &wanted);
        Box::new(found.into_iter().map(|f| Ok(FoundRow::from(f))))
    } else {
        Box::new(query::statics_found(facet.statics, size, &wanted).map(|f| Ok(FoundRow::from(f))))
    };
    out.list(&args.list, rows, &text, "statics")
}
