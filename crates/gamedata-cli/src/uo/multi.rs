//! `gamedata uo multi`: the components of one multi.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use clap::Args;
use mul_core::{MultiFiles, MultiSlice};
use serde::Serialize;

use super::parse_id_usize;
use crate::output::Output;

#[derive(Args)]
pub(crate) struct MultiArgs {
    /// The client folder holding multi.idx and multi.mul.
    dir: PathBuf,
    /// The multi id (decimal or 0x hex).
    #[arg(value_parser = parse_id_usize)]
    id: usize,
}

/// multi.idx and multi.mul of `dir`, mapped and checked, if both are there.
pub(super) fn open_multis(dir: &Path) -> Result<Option<MultiFiles>> {
    #[allow(unsafe_code)]
    // SAFETY: as `map_single`'s contract, which the command takes on for every game file.
    let owned = unsafe { MultiFiles::map(dir, ()) };
    match owned {
        Err(mul_core::Error::File(mul_core::FileError::Missing { .. })) => Ok(None),
        owned => Ok(Some(owned.context("reading multi.idx")?)),
    }
}

#[derive(Serialize)]
struct ComponentRow {
    id: u16,
    x: i16,
    y: i16,
    z: i16,
    flags: u32,
}

#[derive(Serialize)]
struct MultiReport {
    id: usize,
    components: Vec<ComponentRow>,
}

pub(super) fn multi(args: &MultiArgs, out: &mut Output) -> Result<()> {
    let owned = open_multis(&args.dir)?
        .ok_or_else(|| anyhow!("no multi.idx and multi.mul in {}", args.dir.display()))?;
    let multis = owned.view().context("reading multi.idx")?;
    let list = multis
        .get(u32::try_from(args.id).unwrap_or(u32::MAX))
        .with_context(|| format!("reading multi {}", args.id))?
        .unwrap_or(MultiSlice::Short(&[]));
    let report = MultiReport {
        id: args.id,
        components: list
            .iter()
            .map(|c| ComponentRow {
                id: c.id.get(),
                x: c.x.get(),
                y: c.y.get(),
                z: c.z.get(),
                flags: c.flags.get(),
            })
            .collect(),
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "multi {}: {} components",
            report.id,
            report.components.len()
        )?;
        for c in &report.components {
            writeln!(
                w,
                "  {:#06x} at ({:>4}, {:>4}, {:>4}) flags {:#x}",
                c.id, c.x, c.y, c.z, c.flags
            )?;
        }
        Ok(())
    })
}
