//! `gamedata uo tiledata` and `gamedata uo tile`: one tile of tiledata, one tile of a map.

use std::path::PathBuf;

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use mul_core::{TileDataContents, TileFlags};
use serde::Serialize;

use super::{SizeArgs, map_single, open_facet, parse_id, views};
use crate::output::Output;

#[derive(Args)]
pub(crate) struct TiledataArgs {
    /// tiledata.mul.
    file: PathBuf,
    /// A land tile id (decimal or 0x hex).
    #[arg(long, value_parser = parse_id, conflicts_with = "item", required_unless_present = "item")]
    land: Option<u16>,
    /// An item tile id (decimal or 0x hex).
    #[arg(long, value_parser = parse_id)]
    item: Option<u16>,
}

#[derive(Args)]
pub(crate) struct TileArgs {
    /// The client folder.
    dir: PathBuf,
    #[command(flatten)]
    size: SizeArgs,
    /// Column in tiles.
    x: u32,
    /// Row in tiles.
    y: u32,
}

#[derive(Serialize)]
struct TileReport {
    id: u16,
    name: String,
    /// Flag names in lower case ("impassable", "no_shoot"), as `find --flag` takes them.
    flags: Vec<String>,
    height: Option<u8>,
    weight: Option<u8>,
}

pub(super) fn tiledata(args: &TiledataArgs, out: &mut Output) -> Result<()> {
    let owned = map_single::<TileDataContents>(&args.file)
        .with_context(|| format!("reading {}", args.file.display()))?;
    let t = owned.view()?;
    let report = match (args.land, args.item) {
        (Some(id), _) => {
            let l = t
                .land(id)
                .ok_or_else(|| anyhow!("land id {id} is past the 16,384 land tiles"))?;
            TileReport {
                id,
                name: l.name_lossy().into_owned(),
                flags: flag_names(l.flags()),
                height: None,
                weight: None,
            }
        }
        (None, Some(id)) => {
            let i = t.item(id).ok_or_else(|| {
                anyhow!(
                    "item id {id} is past the {} item tiles of this file",
                    t.item_count()
                )
            })?;
            TileReport {
                id,
                name: i.name_lossy().into_owned(),
                flags: flag_names(i.flags()),
                height: Some(i.height()),
                weight: Some(i.weight()),
            }
        }
        (None, None) => bail!("give --land ID or --item ID"),
    };
    let kind = if args.land.is_some() { "land" } else { "item" };
    out.report(&report, |w| {
        writeln!(
            w,
            "{kind} {:#06x} ({}): {:?}",
            report.id, report.id, report.name
        )?;
        writeln!(
            w,
            "  flags: {}",
            if report.flags.is_empty() {
                "none".to_owned()
            } else {
                report.flags.join(", ")
            }
        )?;
        if let (Some(h), Some(wt)) = (report.height, report.weight) {
            writeln!(w, "  height {h}, weight {wt}")?;
        }
        Ok(())
    })
}

/// The names of the named flags that are set, in lower case, in bit order.
fn flag_names(flags: TileFlags) -> Vec<String> {
    flags.names().map(str::to_ascii_lowercase).collect()
}

#[derive(Serialize)]
struct LandAt {
    id: u16,
    z: i8,
}

#[derive(Serialize)]
struct StaticAt {
    id: u16,
    z: i8,
    hue: u16,
}

#[derive(Serialize)]
struct TileAtReport {
    x: u32,
    y: u32,
    land: LandAt,
    statics: Vec<StaticAt>,
    top_z: Option<i16>,
}

pub(super) fn tile(args: &TileArgs, out: &mut Output) -> Result<()> {
    let files = open_facet(&args.dir, &args.size)?;
    let facet = views(&files, &args.size)?;
    let (x, y) = (args.x, args.y);
    let size = facet.size();
    let cell = facet
        .map
        .cell(x, y)
        .ok_or_else(|| anyhow!("tile ({x}, {y}) is outside the {size} map"))?;
    let statics: Vec<StaticAt> = facet
        .statics_at(x, y)
        .with_context(|| format!("reading the statics of block ({}, {})", x / 8, y / 8))?
        .map(|s| StaticAt {
            id: s.id.get(),
            z: s.z,
            hue: s.hue.get(),
        })
        .collect();
    let top_z = match facet.tiledata {
        Some(_) => facet.top_surface(x, y)?,
        None => None,
    };
    let report = TileAtReport {
        x,
        y,
        land: LandAt {
            id: cell.id.get(),
            z: cell.z,
        },
        statics,
        top_z,
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "({x}, {y}): land {:#06x} at z {}",
            report.land.id, report.land.z
        )?;
        for s in &report.statics {
            writeln!(w, "  static {:#06x} at z {} hue {}", s.id, s.z, s.hue)?;
        }
        match report.top_z {
            Some(z) => writeln!(w, "top surface z {z}"),
            None => writeln!(w, "top surface: needs tiledata.mul in the folder"),
        }
    })
}
