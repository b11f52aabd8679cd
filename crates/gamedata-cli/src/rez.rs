//! `gamedata rez`: the WAP32 games' REZ archives (CLAW.REZ, GRUNTZ.REZ): list, extract, and
//! one PID image as a PNG. Archives are memory-mapped; entries are read in place.

mod ani;

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use clap::Subcommand;
use serde::Serialize;
use wap_core::{
    FileData, ImageSource, Limits, Palette, Pid, Rez, RezEntry, RezFile, RezFileEntry, RezOptions,
};

use crate::files::{Written, elapsed_ms, write_bytes, write_file};
use crate::output::{ListArgs, Output, TextListing, error_line};

#[derive(Subcommand)]
pub(crate) enum RezCommand {
    /// List an archive's files under PATH (default: all), one a line as `path size
    /// offset` (bytes); --jsonl one JSON object a line, --json one document.
    Ls {
        /// The REZ archive.
        archive: PathBuf,
        /// A directory or file inside it (`LEVEL1/TILES`, any case, `/` or `\`).
        path: Option<String>,
        #[command(flatten)]
        list: ListArgs,
    },
    /// Copy a file, or a directory with everything under it, out of an archive into the
    /// folder OUT (written whole or not at all; nothing outside OUT).
    Extract {
        /// The REZ archive.
        archive: PathBuf,
        /// The file or directory inside it.
        path: String,
        /// The folder to write into (created if missing).
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
    },
    /// One PID image as an RGBA PNG (transparent pixels transparent), with its own palette
    /// or --palette's; a light map without one as grey levels.
    Pid {
        /// A REZ archive, a folder of extracted files, or a .PID file (then no PATH).
        source: PathBuf,
        /// The image inside the archive or folder (`LEVEL1/IMAGES/OFFICER/FRAME001.PID`).
        path: Option<String>,
        /// The PNG to write.
        #[arg(short, long, value_name = "OUT.png")]
        output: PathBuf,
        /// A 768-byte palette: a file, or a path inside SOURCE (`LEVEL1/PALETTES/MAIN.PAL`).
        #[arg(long, value_name = "FILE.PAL")]
        palette: Option<String>,
    },
    /// One ANI animation's frames: the image number each shows, for how many
    /// milliseconds, and the sound some start.
    Ani {
        /// A REZ archive, a folder of extracted files, or an .ANI file (then no PATH).
        source: PathBuf,
        /// The animation inside the archive or folder (`CLAW/ANIS/DUCKPISTOL.ANI`).
        path: Option<String>,
    },
}

pub(crate) fn run(cmd: RezCommand, out: &mut Output) -> Result<()> {
    match cmd {
        RezCommand::Ls {
            archive,
            path,
            list,
        } => ls(&archive, path.as_deref(), &list, out),
        RezCommand::Extract {
            archive,
            path,
            output,
        } => extract(&archive, &path, &output, out),
        RezCommand::Pid {
            source,
            path,
            output,
            palette,
        } => pid(&source, path.as_deref(), &output, palette.as_deref(), out),
        RezCommand::Ani { source, path } => ani::ani(&source, path.as_deref(), out),
    }
}

/// Maps the archive at `path`.
///
/// SAFETY contract taken on here ([`RezFile::map`]): nothing may modify or truncate the
/// archive while it is mapped. The command only reads game files the user points it at;
/// `docs/cli.md` ("Memory-mapped files") says that truncating one meanwhile ends the
/// process with SIGBUS.
#[allow(unsafe_code)]
fn map_archive(path: &Path) -> Result<RezFile> {
    // SAFETY: see this function's documentation.
    let archive = unsafe { RezFile::map(path) };
    archive.with_context(|| format!("opening {}", path.display()))
}

/// Maps an archive, or takes a folder (see [`map_archive`] for the contract).
#[allow(unsafe_code)]
fn map_source(path: &Path) -> Result<ImageSource> {
    // SAFETY: as `map_archive`'s.
    let source = ImageSource::at(path, |p| unsafe { RezFile::map(p) });
    source.with_context(|| format!("opening {}", path.display()))
}

/// One file of a listing.
#[derive(Serialize)]
struct Listed {
    path: String,
    size: u64,
    offset: u64,
}

/// The most directory problems and repeated names printed; the others are counted.
const MAX_PROBLEMS: u64 = 20;

/// What a walk met besides files: problems with directories and names repeated in a
/// folder, the first [`MAX_PROBLEMS`] of each printed to stderr, all counted.
#[derive(Default)]
struct Met {
    problems: std::cell::Cell<u64>,
    repeated: std::cell::Cell<u64>,
}

impl Met {
    fn problem(&self, e: &wap_core::DataError) {
        let n = self.problems.get();
        if n < MAX_PROBLEMS {
            error_line(&format!("gamedata: {e}"));
        }
        self.problems.set(n.saturating_add(1));
    }

    fn repeat(&self, path: &str) {
        let n = self.repeated.get();
        if n < MAX_PROBLEMS {
            error_line(&format!(
                "note: {} repeats a name of its folder (lookups find the first)",
                escaped(path)
            ));
        }
        self.repeated.set(n.saturating_add(1));
    }
}

/// `text` as it may be printed (`gamedata_io::printable`: control characters escaped),
/// so that a name prints on one line and sends the terminal nothing but text.
fn escaped(text: &str) -> Cow<'_, str> {
    gamedata_io::printable(text)
}

/// The files under `path` in `rez` with their full paths (the directories' names as
/// stored), depth first, each path within `options.max_path_bytes` (the path given
/// included); problems with directories and repeated names go to `met`.
fn files_under<'a>(
    rez: &Rez<'a>,
    path: Option<&str>,
    options: &RezOptions,
    met: &'a Met,
) -> Result<Box<dyn Iterator<Item = (String, RezFileEntry<'a>)> + 'a>> {
    let path = path.unwrap_or("");
    let Some(chain) = rez.find_all(path)? else {
        bail!("no \"{}\" in the archive", escaped(path));
    };
    // The directories' names as stored, one lookup for all.
    let mut stored = String::new();
    for entry in &chain {
        if let RezEntry::Dir(d) = entry {
            if !stored.is_empty() {
                stored.push('/');
            }
            stored.push_str(&d.name_lossy());
        }
    }
    let max = usize::try_from(options.max_path_bytes).unwrap_or(usize::MAX);
    let room = max.checked_sub(stored.len()).ok_or_else(|| {
        anyhow!(
            "the path {:?} is {} bytes, more than the {max} a path may have",
            escaped(&stored),
            stored.len()
        )
    })?;
    let dir = match chain.last() {
        Some(RezEntry::File(file)) => {
            let full = if stored.is_empty() {
                file.file_name()
            } else {
                format!("{stored}/{}", file.file_name())
            };
            return Ok(Box::new(std::iter::once((full, *file))));
        }
        Some(RezEntry::Dir(dir)) => *dir,
        None => rez.root(),
    };
    // Below the path given, what is left of the cap (less its `/`).
    let below =
        options.with_max_path_bytes(room.saturating_sub(usize::from(!stored.is_empty())) as u64);
    let mut walk = rez.walk_with(&dir, &below);
    let files = std::iter::from_fn(move || {
        loop {
            let entry = match walk.next_entry()? {
                Ok(entry) => entry,
                Err(e) => {
                    met.problem(&e);
                    continue;
                }
            };
            let mut full = String::with_capacity(stored.len() + entry.path.len() + 1);
            if !stored.is_empty() {
                full.push_str(&stored);
                full.push('/');
            }
            full.push_str(entry.path);
            if entry.repeated {
                met.repeat(&full);
            }
            if let RezEntry::File(file) = entry.entry {
                return Some((full, file));
            }
        }
    });
    Ok(Box::new(files))
}

fn ls(archive_path: &Path, path: Option<&str>, args: &ListArgs, out: &mut Output) -> Result<()> {
    let archive = map_archive(archive_path)?;
    let rez = archive.view()?;
    let met = Met::default();
    let files = files_under(&rez, path, &RezOptions::default(), &met)?.map(|(path, f)| {
        Ok(Listed {
            path,
            size: f.bytes.len() as u64,
            offset: u64::from(f.offset),
        })
    });
    if out.is_json() || args.jsonl || args.count {
        out.list(
            args,
            files,
            &TextListing {
                header: "",
                row: &|_, _| Ok(()),
                footer: &|_| String::new(),
            },
            "files",
        )?;
    } else {
        let limit = usize::try_from(args.limit.unwrap_or(u64::MAX)).unwrap_or(usize::MAX);
        let mut text = out.text();
        let w: &mut dyn std::io::Write = &mut text;
        for file in files.take(limit) {
            let file = file?;
            writeln!(w, "{} {} {}", escaped(&file.path), file.size, file.offset)?;
        }
    }
    if met.repeated.get() > MAX_PROBLEMS {
        error_line(&format!(
            "note: {} names repeat in their folder in all",
            met.repeated.get()
        ));
    }
    let problems = met.problems.get();
    if problems > 0 {
        bail!(
            "{}: {} director{} could not be read (the other files are listed)",
            archive_path.display(),
            problems,
            if problems == 1 { "y" } else { "ies" }
        );
    }
    Ok(())
}

/// What `rez extract --json` prints.
#[derive(Serialize)]
struct ExtractReport {
    archive: String,
    /// The file or folder written.
    output: String,
    files: u64,
    bytes: u64,
    /// File entries not written: a name repeated in its folder (the first is written).
    repeated: u64,
    /// File entries not written: their bytes overlap an earlier entry's.
    overlapping: u64,
    elapsed_ms: f64,
}

/// The files extracted so far: the byte ranges written, by start, with the file's number
/// in the walk, so that no byte of the archive is written twice.
#[derive(Default)]
struct Taken {
    ranges: std::collections::BTreeMap<u32, (u32, u32)>,
}

impl Taken {
    /// The number of an earlier file whose bytes overlap `start..end`, else `None` (and the
    /// range is taken as file `n`'s).
    fn take(&mut self, start: u32, end: u32, n: u64) -> Option<u64> {
        if start >= end {
            return None;
        }
        let before = self.ranges.range(..=start).next_back();
        if let Some((_, &(_, other))) = before.filter(|(_, (e, _))| *e > start) {
            return Some(u64::from(other));
        }
        if let Some((_, &(_, other))) = self.ranges.range(start..end).next() {
            return Some(u64::from(other));
        }
        // Entries number fewer than the archive's bytes: a u32 holds their count.
        self.ranges
            .insert(start, (end, u32::try_from(n).unwrap_or(u32::MAX)));
        None
    }
}

/// The paths of the entries numbered `wanted` (files and directories, from 0, as a walk of
/// `dir` meets them), in one walk.
fn paths_of(
    rez: &Rez<'_>,
    dir: &wap_core::RezDir<'_>,
    wanted: &[u64],
) -> std::collections::HashMap<u64, String> {
    let mut found = std::collections::HashMap::new();
    let mut walk = rez.walk(dir);
    let mut i = 0u64;
    while let Some(item) = walk.next_entry() {
        if let Ok(entry) = item {
            if wanted.contains(&i) {
                found.insert(i, entry.path.to_owned());
            }
            i = i.saturating_add(1);
        }
    }
    found
}

fn extract(archive_path: &Path, path: &str, folder: &Path, out: &mut Output) -> Result<()> {
    let start = std::time::Instant::now();
    let archive = map_archive(archive_path)?;
    let rez = archive.view()?;
    std::fs::create_dir_all(folder)
        .with_context(|| format!("cannot create the folder {}", folder.display()))?;
    let inputs = [archive_path];
    let (mut repeated, mut overlapping) = (0u64, 0u64);
    let (output, files, bytes) = match rez.find(path)? {
        None => bail!("no {path:?} in {}", archive_path.display()),
        Some(RezEntry::File(file)) => {
            let Some(name) = file.enclosed_name() else {
                bail!(
                    "the file's name {:?} cannot be written safely",
                    escaped(&file.file_name())
                );
            };
            let target = folder.join(name);
            write_bytes(&target, &inputs, file.bytes)?;
            (target, 1, file.bytes.len() as u64)
        }
        Some(RezEntry::Dir(dir)) => {
            let name = if dir.name.is_empty() {
                archive_path
                    .file_stem()
                    .map_or_else(|| "REZ".into(), |s| s.to_string_lossy().into_owned())
            } else {
                dir.name_lossy().into_owned()
            };
            // The root's name is the archive's; either way one safe part.
            let Some(enclosed) =
                wap_core::rez::enclosed_name(&name).filter(|_| !name.contains('/'))
            else {
                bail!(
                    "the directory's name {:?} cannot be written safely",
                    escaped(&name)
                );
            };
            let target = folder.join(enclosed);
            if target.exists() {
                bail!(
                    "{} exists: remove it, or extract elsewhere",
                    target.display()
                );
            }
            let temp = tempfile::Builder::new()
                .prefix(".gamedata-")
                .suffix(".partial")
                .tempdir_in(folder)
                .with_context(|| format!("cannot create a folder in {}", folder.display()))?;
            let (mut files, mut bytes) = (0u64, 0u64);
            let mut written = Taken::default();
            let mut overlaps = Vec::new();
            let mut walk = rez.walk(&dir);
            let mut n = 0u64;
            while let Some(item) = walk.next_entry() {
                let entry = item.with_context(|| format!("reading {}", archive_path.display()))?;
                let this = n;
                n = n.saturating_add(1);
                let RezEntry::File(file) = entry.entry else {
                    continue;
                };
                let sub = entry.path.to_owned();
                let Some(relative) = entry.enclosed_name() else {
                    bail!(
                        "{:?} in the archive cannot be written safely under {}",
                        escaped(&sub),
                        target.display()
                    );
                };
                let dest = temp.path().join(relative);
                if entry.repeated {
                    repeated = repeated.saturating_add(1);
                    if repeated <= MAX_PROBLEMS {
                        error_line(&format!(
                            "note: {} repeats a name of its folder: the first is written, not this one",
                            escaped(&sub)
                        ));
                    }
                    continue;
                }
                let end = file
                    .offset
                    .saturating_add(u32::try_from(file.bytes.len()).unwrap_or(u32::MAX));
                if let Some(other) = written.take(file.offset, end, this) {
                    overlapping = overlapping.saturating_add(1);
                    if overlapping <= MAX_PROBLEMS {
                        overlaps.push((sub, file.offset, end, other));
                    }
                    continue;
                }
                if let Some(parent) = dest.parent() {
                    std::fs::create_dir_all(parent)
                        .with_context(|| format!("cannot create {}", parent.display()))?;
                }
                let mut created = std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(&dest)
                    .with_context(|| format!("cannot write {}", dest.display()))?;
                std::io::Write::write_all(&mut created, file.bytes)
                    .with_context(|| format!("cannot write {}", dest.display()))?;
                files = files.saturating_add(1);
                bytes = bytes.saturating_add(file.bytes.len() as u64);
            }
            // The entries the first ones overlap, named after one more walk.
            let others: Vec<u64> = overlaps.iter().map(|o| o.3).collect();
            let names = paths_of(&rez, &dir, &others);
            for (sub, start, end, other) in &overlaps {
                let other = names.get(other).map_or("", String::as_str);
                error_line(&format!(
                    "gamedata: {} (bytes {start}..{end}) overlaps {}'s bytes: not written",
                    escaped(sub),
                    escaped(other)
                ));
            }
            let kept = temp.keep();
            std::fs::rename(&kept, &target).with_context(|| {
                let _ = std::fs::remove_dir_all(&kept);
                format!("cannot move the extracted tree to {}", target.display())
            })?;
            (target, files, bytes)
        }
    };
    let report = ExtractReport {
        archive: archive_path.display().to_string(),
        output: output.display().to_string(),
        files,
        bytes,
        repeated,
        overlapping,
        elapsed_ms: elapsed_ms(start),
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "wrote {} files ({} bytes) to {}",
            report.files, report.bytes, report.output
        )
    })?;
    if overlapping > 0 {
        bail!(
            "{}: {overlapping} file entr{} left out: their bytes overlap other entries' (the others are written)",
            archive_path.display(),
            if overlapping == 1 { "y" } else { "ies" }
        );
    }
    Ok(())
}

/// What `rez pid --json` prints.
#[derive(Serialize)]
struct PidReport {
    output: String,
    bytes: u64,
    /// Pixels.
    width: u32,
    /// Pixels.
    height: u32,
    /// The offset of the image's centre, pixels.
    offset: [i32; 2],
    flags: u32,
    /// `embedded`, `given` or `grey` (a light map without a palette).
    palette: &'static str,
    /// Pixels left transparent.
    transparent: u64,
}

fn pid(
    source: &Path,
    path: Option<&str>,
    output: &Path,
    palette: Option<&str>,
    out: &mut Output,
) -> Result<()> {
    let limits = Limits::default();
    let images = match path {
        Some(_) => Some(map_source(source)?),
        None => None,
    };
    let bytes = match (&images, path) {
        (Some(images), Some(path)) => images
            .file(path)
            .with_context(|| format!("reading {}", source.display()))?
            .ok_or_else(|| anyhow!("no {path:?} in {}", source.display()))?,
        _ => Cow::Owned(
            FileData::read_with(source, &limits)
                .with_context(|| format!("reading {}", source.display()))?
                .into_vec(),
        ),
    };
    let name = path.map_or_else(|| source.display().to_string(), str::to_owned);
    let image = Pid::parse(&bytes).with_context(|| format!("reading {name}"))?;
    let given = match palette {
        None => None,
        Some(p) if Path::new(p).exists() && !Path::new(p).is_dir() => Some(
            FileData::read_with(p, &limits)
                .with_context(|| format!("reading {p}"))?
                .into_vec(),
        ),
        Some(p) => {
            let inside = images.as_ref().map(|i| i.file(p)).transpose()?.flatten();
            Some(
                inside
                    .ok_or_else(|| {
                        anyhow!("no palette {p:?}: not a file, nor in {}", source.display())
                    })?
                    .into_owned(),
            )
        }
    };
    let palette = given
        .as_deref()
        .map(Palette::parse)
        .transpose()
        .context("reading the palette")?;
    // Indices and mask (2 bytes a pixel) and the RGBA copy (4) live together: checked first.
    let (picture, kind, transparent) =
        gamedata_render::wwd::pid_picture(&image, palette.as_ref(), &limits)
            .with_context(|| format!("decoding {name}"))?
            .ok_or_else(|| {
                anyhow!("{name} has no palette of its own: give one with --palette FILE.PAL")
            })?;
    write_file(output, &[source], |w| {
        Ok(gamedata_render::write_png(
            w,
            gamedata_render::PngPixels::Image(&picture),
            &crate::render::png_options(),
        )?)
    })?;
    let (x, y) = image.offset();
    let report = PidReport {
        output: output.display().to_string(),
        bytes: Written::of(output)?.bytes,
        width: image.width(),
        height: image.height(),
        offset: [x, y],
        flags: image.flags().bits(),
        palette: kind.name(),
        transparent,
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "wrote {} ({} x {} pixels, {} palette, {} transparent)",
            report.output, report.width, report.height, report.palette, report.transparent
        )
    })
}
