//! `gamedata uo info`: the files of one facet.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;
use mul_core::facet::query;
use serde::Serialize;

use super::multi::open_multis;
use super::{SizeArgs, open_facet, views};
use crate::output::Output;

#[derive(Args)]
pub(crate) struct InfoArgs {
    /// The client folder.
    dir: PathBuf,
    #[command(flatten)]
    size: SizeArgs,
}

#[derive(Serialize)]
struct FileRow {
    name: String,
    bytes: u64,
}

#[derive(Serialize)]
struct InfoReport {
    facet: u8,
    map_format: &'static str,
    diffs: DiffInfo,
    files: Vec<FileRow>,
    /// Tiles.
    width: u32,
    height: u32,
    width_blocks: u32,
    height_blocks: u32,
    blocks: usize,
    padded: bool,
    statics: StaticsInfo,
    tiledata: Option<TiledataInfo>,
    multi: Option<MultiInfo>,
    radarcol_entries: Option<usize>,
    hues: Option<usize>,
}

#[derive(Serialize)]
struct DiffInfo {
    /// Map blocks the diff files replace (inside this map).
    map_blocks: usize,
    /// Statics blocks the diff files replace.
    statics_blocks: usize,
    /// Whether they were applied (--apply-diffs).
    applied: bool,
    /// List entries left out (past any map, without a record) and files of a wrong length:
    /// the first 100.
    problems: Vec<String>,
    /// All of them, listed or not.
    problem_count: u64,
}

#[derive(Serialize)]
struct StaticsInfo {
    record_size: usize,
    count: u64,
    /// Bad blocks (entries out of bounds, statics outside their block), all counted.
    bad_blocks: u64,
    /// The first 100 of them, said.
    problems: Vec<String>,
}

#[derive(Serialize)]
struct TiledataInfo {
    layout: &'static str,
    land: usize,
    items: usize,
}

#[derive(Serialize)]
struct MultiInfo {
    record_size: usize,
    entries: usize,
    multis: usize,
}

pub(super) fn info(args: &InfoArgs, out: &mut Output) -> Result<()> {
    let files = open_facet(&args.dir, &args.size)?;
    let facet = views(&files, &args.size)?;
    let size = facet.size();
    let mut rows = Vec::new();
    let p = &files.paths;
    let d = &p.diffs;
    for path in [Some(&p.map), Some(&p.staidx), Some(&p.statics)]
        .into_iter()
        .chain([p.tiledata.as_ref(), p.radarcol.as_ref(), p.hues.as_ref()])
        .chain([&d.mapdifl, &d.mapdif, &d.stadifl, &d.stadifi, &d.stadif].map(Option::as_ref))
        .flatten()
    {
        rows.push(file_row(path)?);
    }
    let multis = open_multis(&args.dir)?;
    if let Some(paths) = multis.as_ref().and_then(|m| m.paths.as_ref()) {
        for path in paths {
            rows.push(file_row(path)?);
        }
    }
    let multi = match &multis {
        Some(owned) => {
            let m = owned.view().context("reading multi.idx")?;
            Some(MultiInfo {
                record_size: m.format().record_len(),
                entries: m.len(),
                multis: m.ids().count(),
            })
        }
        None => None,
    };
    let st = query::statics_stats_par(&facet.statics, size.blocks());
    let report = InfoReport {
        facet: args.size.facet,
        map_format: files.paths.map_format.name(),
        diffs: DiffInfo {
            map_blocks: files.diff_index().map.count_below(size.blocks()),
            statics_blocks: files.diff_index().statics.count_below(size.blocks()),
            applied: args.size.apply_diffs,
            problems: files
                .diff_index()
                .problems
                .kept()
                .iter()
                .map(ToString::to_string)
                .collect(),
            problem_count: files.diff_index().problems.total(),
        },
        files: rows,
        width: size.width(),
        height: size.height(),
        width_blocks: size.width_blocks(),
        height_blocks: size.height_blocks(),
        blocks: size.blocks(),
        padded: facet.map.padded(),
        statics: {
            let problems = facet.statics.validate(size.blocks());
            StaticsInfo {
                record_size: facet.statics.format().record_len(),
                count: st.count,
                bad_blocks: problems.total(),
                problems: problems.kept().iter().map(ToString::to_string).collect(),
            }
        },
        tiledata: facet.tiledata.map(|t| TiledataInfo {
            layout: match t.layout() {
                mul_core::TileDataLayout::Old => "old",
                mul_core::TileDataLayout::OldExtended => "old-extended",
                mul_core::TileDataLayout::HighSeas => "high-seas",
            },
            land: t.land_count(),
            items: t.item_count(),
        }),
        multi,
        radarcol_entries: facet.radar.map(|r| r.colours().len()),
        hues: facet.hues.map(|h| h.len()),
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "facet {}: {size}, map read from the {}{}",
            report.facet,
            if report.map_format == "uop" {
                "UOP container"
            } else {
                "MUL file"
            },
            if report.padded {
                ", one padding block"
            } else {
                ""
            }
        )?;
        for f in &report.files {
            writeln!(w, "  {:<16} {:>12} bytes", f.name, f.bytes)?;
        }
        let d = &report.diffs;
        if d.map_blocks + d.statics_blocks > 0 || d.problem_count > 0 {
            writeln!(
                w,
                "diffs: {} map blocks, {} statics blocks, {}",
                d.map_blocks,
                d.statics_blocks,
                if d.applied {
                    "applied"
                } else {
                    "not applied (--apply-diffs applies them)"
                }
            )?;
            for problem in &d.problems {
                writeln!(w, "  left out: {problem}")?;
            }
            let more = d.problem_count.saturating_sub(d.problems.len() as u64);
            if more > 0 {
                writeln!(
                    w,
                    "  and {more} more entries left out (the first 100 are listed)"
                )?;
            }
        }
        let s = &report.statics;
        writeln!(
            w,
            "statics: {} records of {} bytes, {} bad blocks",
            s.count, s.record_size, s.bad_blocks
        )?;
        for problem in &s.problems {
            writeln!(w, "  bad block: {problem}")?;
        }
        let more = s.bad_blocks.saturating_sub(s.problems.len() as u64);
        if more > 0 {
            writeln!(w, "  and {more} more bad blocks (the first 100 are listed)")?;
        }
        match &report.tiledata {
            Some(t) => writeln!(
                w,
                "tiledata: {} layout, {} land and {} item tiles",
                t.layout, t.land, t.items
            )?,
            None => writeln!(w, "tiledata: not in the folder")?,
        }
        if let Some(m) = &report.multi {
            writeln!(
                w,
                "multi: {} entries, {} multis, {}-byte components",
                m.entries, m.multis, m.record_size
            )?;
        }
        if let Some(n) = report.radarcol_entries {
            writeln!(w, "radarcol: {n} colours")?;
        }
        if let Some(n) = report.hues {
            writeln!(w, "hues: {n}")?;
        }
        Ok(())
    })
}

fn file_row(path: &Path) -> Result<FileRow> {
    let meta =
        std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(FileRow {
        name: path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
        bytes: meta.len(),
    })
}
