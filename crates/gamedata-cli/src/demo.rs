//! `gamedata demo`: the main job on built-in synthetic data.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use mni_core::{Episode, GroupFile, synth};

use crate::CliResult;
use crate::cosmo::{
    entry_rows, map_report, print_entry_table, print_map, print_tileattr, render_png,
    tileattr_report,
};

#[derive(Args)]
pub(crate) struct DemoArgs {
    /// Folder for the synthetic COSMO1.STN / COSMO1.VOL and the rendered PNGs (created).
    #[arg(long, default_value = "gamedata-demo")]
    out: PathBuf,
}

pub(crate) fn run(args: &DemoArgs) -> CliResult {
    let out_dir = &args.out;
    std::fs::create_dir_all(out_dir)
        .map_err(|e| format!("cannot create {}: {e}", out_dir.display()))?;
    let mut out = std::io::stdout().lock();

    writeln!(out, "== Cosmo's Cosmic Adventure: a synthetic episode ==")?;
    let files = synth::episode()?;
    let (stn_path, vol_path) = (out_dir.join("COSMO1.STN"), out_dir.join("COSMO1.VOL"));
    for (path, bytes) in [(&stn_path, &files.stn), (&vol_path, &files.vol)] {
        std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        writeln!(
            out,
            "built {} ({} bytes) with mni_core::write_group",
            path.display(),
            bytes.len()
        )?;
    }

    for (label, bytes) in [("COSMO1.STN", &files.stn), ("COSMO1.VOL", &files.vol)] {
        writeln!(out, "\n-- gamedata cosmo ls {label}")?;
        let (rows, problems) = entry_rows(&GroupFile::parse(bytes)?);
        print_entry_table(&mut out, &rows)?;
        if !problems.is_empty() {
            return Err(problems.join("\n").into());
        }
    }

    let ep = Episode::parse(&files.stn, &files.vol)?;
    writeln!(
        out,
        "\n-- gamedata cosmo tileattr (TILEATTR.MNI from the STN)"
    )?;
    print_tileattr(&mut out, &tileattr_report(&ep.tile_attributes()?))?;

    writeln!(out, "\n-- gamedata cosmo map A1.MNI --render")?;
    let map = ep.map("A1.MNI")?;
    print_map(&mut out, "A1.MNI", &map_report(&map))?;
    for (file, overlay) in [("A1.png", false), ("A1-attributes.png", true)] {
        let msg = render_png(&ep, &map, &out_dir.join(file), overlay)?;
        writeln!(out, "{msg}")?;
    }
    writeln!(
        out,
        "\nTry the same on the synthetic files: gamedata cosmo map {} A1.MNI --json\n\
         or on the real episode 1 files: gamedata cosmo map DIR_WITH_COSMO1_FILES A1.MNI --render a1.png",
        out_dir.display()
    )?;
    Ok(out.flush()?)
}
