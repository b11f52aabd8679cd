//! `gamedata wwd validate`: every level under the paths read whole ([`wap_core::Level::validate`]).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use rayon::prelude::*;
use serde::Serialize;
use wap_core::ChecksumClass;

use super::level::{open, view};
use crate::output::Output;

#[derive(Args)]
pub(crate) struct ValidateArgs {
    /// Levels and folders (searched recursively for .wwd files, any case).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

#[derive(Serialize)]
struct FileResult {
    path: String,
    ok: bool,
    error: Option<String>,
    game: Option<&'static str>,
    checksum: Option<&'static str>,
    warnings: Vec<String>,
}

#[derive(Serialize)]
struct ValidateReport {
    files: Vec<FileResult>,
    total: usize,
    ok: usize,
    failed: usize,
}

/// Every `.wwd` file (any case) under `paths`, folders searched recursively, sorted.
fn level_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut pending: Vec<PathBuf> = paths.to_vec();
    while let Some(path) = pending.pop() {
        let meta =
            std::fs::metadata(&path).with_context(|| format!("cannot read {}", path.display()))?;
        if meta.is_dir() {
            let entries = std::fs::read_dir(&path)
                .with_context(|| format!("cannot list {}", path.display()))?;
            for entry in entries {
                let entry = entry.with_context(|| format!("cannot list {}", path.display()))?;
                let child = entry.path();
                if child.is_dir() {
                    pending.push(child);
                } else if child
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("wwd"))
                {
                    files.push(child);
                }
            }
        } else {
            files.push(path);
        }
    }
    files.sort();
    files.dedup();
    Ok(files)
}

/// Reads everything in a level: the header, decompression, then every plane with its tiles,
/// names and objects and every tile property record ([`wap_core::Level::validate`]). Warnings are what a level may have and
/// still load (a layout other than the editor's, a checksum mismatch).
fn check_level(path: &Path) -> FileResult {
    let mut result = FileResult {
        path: path.display().to_string(),
        ok: false,
        error: None,
        game: None,
        checksum: None,
        warnings: Vec::new(),
    };
    let outcome = (|| -> Result<()> {
        let file = open(path)?;
        let level = view(&file, path)?;
        let counts = level.validate()?;
        if !counts.main_plane {
            result.warnings.push("no plane has the main flag".into());
        }
        let layout = level.layout();
        if !layout.is_canonical() {
            result.warnings.push(format!(
                "sections not in the editor's layout ({} gaps, {} overlaps)",
                layout.gaps.len(),
                layout.overlaps.len()
            ));
        }
        let class = file.checksum_class();
        if class == ChecksumClass::Mismatch {
            result
                .warnings
                .push("the checksum matches no known editor".into());
        }
        result.game = Some(level.game().name());
        result.checksum = Some(class.name());
        Ok(())
    })();
    match outcome {
        Ok(()) => result.ok = true,
        Err(e) => {
            let mut message = e.to_string();
            for cause in e.chain().skip(1) {
                message.push_str(&format!(": {cause}"));
            }
            result.error = Some(message);
        }
    }
    result
}

pub(super) fn validate(args: &ValidateArgs, out: &mut Output) -> Result<()> {
    let files = level_files(&args.paths)?;
    if files.is_empty() {
        bail!("no .wwd files under the given paths");
    }
    let bar =
        crate::output::progress_bar(files.len() as u64, "validating {bar:40} {pos}/{len} {eta}");
    let failed = AtomicUsize::new(0);
    let results: Vec<FileResult> = files
        .par_iter()
        .map(|path| {
            let result = check_level(path);
            if !result.ok {
                failed.fetch_add(1, Ordering::Relaxed);
            }
            bar.inc(1);
            result
        })
        .collect();
    bar.finish_and_clear();
    let failed = failed.into_inner();
    let report = ValidateReport {
        total: results.len(),
        ok: results.len() - failed,
        failed,
        files: results,
    };
    out.report(&report, |w| {
        for r in &report.files {
            match &r.error {
                None => {
                    write!(
                        w,
                        "ok      {} ({}, checksum {})",
                        gamedata_io::printable(&r.path),
                        r.game.unwrap_or("unknown"),
                        r.checksum.unwrap_or("?")
                    )?;
                    for warning in &r.warnings {
                        write!(w, "; warning: {warning}")?;
                    }
                    writeln!(w)?;
                }
                Some(e) => writeln!(
                    w,
                    "FAILED  {}: {}",
                    gamedata_io::printable(&r.path),
                    gamedata_io::printable(e)
                )?,
            }
        }
        writeln!(
            w,
            "{} levels: {} ok, {} failed",
            report.total, report.ok, report.failed
        )
    })?;
    if report.failed > 0 {
        return Err(anyhow!(
            "{} of {} levels failed validation",
            report.failed,
            report.total
        ));
    }
    Ok(())
}
