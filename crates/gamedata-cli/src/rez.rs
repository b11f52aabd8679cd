//! `gamedata rez`: the WAP32 games' REZ archives (CLAW.REZ, GRUNTZ.REZ): list, extract, and
//! one PID image as a PNG. Archives are memory-mapped; entries are read in place.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use clap::Subcommand;
use gamedata_render::RgbaImage;
use serde::Serialize;
use wap_core::{ImageSource, Limits, Palette, Pid, PidFlags, Rez, RezArchive, RezEntry, RezFile};

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
    }
}

/// Maps the archive at `path`.
///
/// SAFETY contract taken on here ([`RezArchive::map`]): nothing may modify or truncate the
/// archive while it is mapped. The command only reads game files the user points it at;
/// the README says that truncating one meanwhile ends the process with SIGBUS.
#[allow(unsafe_code)]
fn map_archive(path: &Path) -> Result<RezArchive> {
    // SAFETY: see this function's documentation.
    let archive = unsafe { RezArchive::map(path) };
    archive.with_context(|| format!("opening {}", path.display()))
}

/// Maps an archive, or takes a folder (see [`map_archive`] for the contract).
#[allow(unsafe_code)]
fn map_source(path: &Path) -> Result<ImageSource> {
    // SAFETY: as `map_archive`'s.
    let source = unsafe { ImageSource::map(path) };
    source.with_context(|| format!("opening {}", path.display()))
}

/// One file of a listing.
#[derive(Serialize)]
struct Listed {
    path: String,
    size: u64,
    offset: u64,
}

/// What `rez ls --json` prints.
#[derive(Serialize)]
struct LsReport {
    count: usize,
    files: Vec<Listed>,
}

/// The most directory problems printed; the others are counted.
const MAX_PROBLEMS: usize = 20;

/// The files under `path` in `rez` with their full paths, depth first; problems with
/// directories are printed to stderr (the first [`MAX_PROBLEMS`]) and counted in
/// `problems`.
fn files_under<'a>(
    rez: &Rez<'a>,
    path: Option<&str>,
    problems: &'a std::cell::Cell<usize>,
) -> Result<Box<dyn Iterator<Item = (String, RezFile<'a>)> + 'a>> {
    let prefix: Vec<&str> = path
        .unwrap_or("")
        .split(['/', '\\'])
        .filter(|p| !p.is_empty())
        .collect();
    let found = rez.find(path.unwrap_or(""))?;
    let dir = match found {
        None => bail!("no {:?} in the archive", path.unwrap_or("")),
        Some(RezEntry::File(file)) => {
            let dirs = prefix
                .get(..prefix.len().saturating_sub(1))
                .unwrap_or_default();
            let stored = stored_prefix(rez, dirs)?;
            let full = if stored.is_empty() {
                file.file_name()
            } else {
                format!("{stored}/{}", file.file_name())
            };
            return Ok(Box::new(std::iter::once((full, file))));
        }
        Some(RezEntry::Dir(dir)) => dir,
    };
    // The directories' names as stored, from the walk below them.
    let stored = stored_prefix(rez, &prefix)?;
    let walk = rez.walk(&dir).filter_map(move |item| match item {
        Ok((sub, file)) => Some((
            if stored.is_empty() {
                sub
            } else {
                format!("{stored}/{sub}")
            },
            file,
        )),
        Err(e) => {
            let n = problems.get();
            if n < MAX_PROBLEMS {
                error_line(&format!("gamedata: {e}"));
            }
            problems.set(n.saturating_add(1));
            None
        }
    });
    Ok(Box::new(walk))
}

/// The stored names of the directories `parts` names in any case, joined by `/`.
fn stored_prefix(rez: &Rez<'_>, parts: &[&str]) -> Result<String> {
    let mut names = Vec::new();
    for i in 0..parts.len() {
        let sub = parts.get(..=i).unwrap_or_default().join("/");
        if let Some(RezEntry::Dir(d)) = rez.find(&sub)? {
            names.push(d.name_lossy().into_owned());
        }
    }
    Ok(names.join("/"))
}

fn ls(archive_path: &Path, path: Option<&str>, args: &ListArgs, out: &mut Output) -> Result<()> {
    let archive = map_archive(archive_path)?;
    let rez = archive.rez();
    let problems = std::cell::Cell::new(0usize);
    let files = files_under(&rez, path, &problems)?.map(|(path, f)| {
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
            |files| LsReport {
                count: files.len(),
                files,
            },
        )?;
    } else {
        let limit = usize::try_from(args.limit.unwrap_or(u64::MAX)).unwrap_or(usize::MAX);
        let w = out.raw();
        for file in files.take(limit) {
            let file = file?;
            writeln!(w, "{} {} {}", file.path, file.size, file.offset)?;
        }
    }
    if problems.get() > 0 {
        bail!(
            "{}: {} director{} could not be read (the other files are listed)",
            archive_path.display(),
            problems.get(),
            if problems.get() == 1 { "y" } else { "ies" }
        );
    }
    Ok(())
}

/// Whether `part` is safe as a file or folder name under the output folder.
fn safe_part(part: &str) -> bool {
    !(part.is_empty()
        || part == "."
        || part == ".."
        || part.contains(['/', '\\', ':', '\0'])
        || part.chars().any(char::is_control))
}

/// What `rez extract --json` prints.
#[derive(Serialize)]
struct ExtractReport {
    archive: String,
    /// The file or folder written.
    output: String,
    files: u64,
    bytes: u64,
    elapsed_ms: f64,
}

fn extract(archive_path: &Path, path: &str, folder: &Path, out: &mut Output) -> Result<()> {
    let start = std::time::Instant::now();
    let archive = map_archive(archive_path)?;
    let rez = archive.rez();
    std::fs::create_dir_all(folder)
        .with_context(|| format!("cannot create the folder {}", folder.display()))?;
    let inputs = [archive_path];
    let (output, files, bytes) = match rez.find(path)? {
        None => bail!("no {path:?} in {}", archive_path.display()),
        Some(RezEntry::File(file)) => {
            let name = file.file_name();
            if !safe_part(&name) {
                bail!("the file's name {name:?} cannot be written safely");
            }
            let target = folder.join(&name);
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
            if !safe_part(&name) {
                bail!("the directory's name {name:?} cannot be written safely");
            }
            let target = folder.join(&name);
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
            for item in rez.walk(&dir) {
                let (sub, file) =
                    item.with_context(|| format!("reading {}", archive_path.display()))?;
                let parts: Vec<&str> = sub.split('/').collect();
                if !parts.iter().all(|p| safe_part(p)) {
                    bail!(
                        "{sub:?} in the archive cannot be written safely under {}",
                        target.display()
                    );
                }
                let dest = parts
                    .iter()
                    .fold(temp.path().to_path_buf(), |p, part| p.join(part));
                if let Some(parent) = dest.parent() {
                    std::fs::create_dir_all(parent)
                        .with_context(|| format!("cannot create {}", parent.display()))?;
                }
                std::fs::write(&dest, file.bytes)
                    .with_context(|| format!("cannot write {}", dest.display()))?;
                files = files.saturating_add(1);
                bytes = bytes.saturating_add(file.bytes.len() as u64);
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
        elapsed_ms: elapsed_ms(start),
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "wrote {} files ({} bytes) to {}",
            report.files, report.bytes, report.output
        )
    })
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
    let images = match path {
        Some(_) => Some(map_source(source)?),
        None => None,
    };
    let bytes = match (&images, path) {
        (Some(images), Some(path)) => images
            .file(path)
            .with_context(|| format!("reading {}", source.display()))?
            .ok_or_else(|| anyhow!("no {path:?} in {}", source.display()))?,
        _ => std::borrow::Cow::Owned(
            std::fs::read(source).with_context(|| format!("reading {}", source.display()))?,
        ),
    };
    let name = path.map_or_else(|| source.display().to_string(), str::to_owned);
    let image = Pid::parse(&bytes).with_context(|| format!("reading {name}"))?;
    let given = match palette {
        None => None,
        Some(p) if Path::new(p).is_file() => {
            Some(std::fs::read(p).with_context(|| format!("reading {p}"))?)
        }
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
    let pixels = image
        .decode(&Limits::default())
        .with_context(|| format!("decoding {name}"))?;
    let (rgba, kind) = match (&given, image.palette()) {
        (Some(bytes), _) => {
            let palette = Palette::parse(bytes).context("reading the palette")?;
            (pixels.rgba(&palette), "given")
        }
        (None, Some(embedded)) => (pixels.rgba(&embedded), "embedded"),
        (None, None) if image.flags().contains(PidFlags::LIGHTS) => {
            let grey: Vec<u8> = pixels
                .indices
                .iter()
                .zip(&pixels.opaque)
                .flat_map(|(&i, &o)| if o { [i, i, i, 255] } else { [0; 4] })
                .collect();
            (grey, "grey")
        }
        (None, None) => bail!("{name} has no palette of its own: give one with --palette FILE.PAL"),
    };
    let picture = RgbaImage::from_pixels(image.width(), image.height(), rgba).ok_or_else(|| {
        anyhow!(
            "{name}: a {} x {} image cannot be written",
            image.width(),
            image.height()
        )
    })?;
    write_file(output, &[source], |w| Ok(picture.write_png(w)?))?;
    let (x, y) = image.offset();
    let report = PidReport {
        output: output.display().to_string(),
        bytes: Written::of(output)?.bytes,
        width: image.width(),
        height: image.height(),
        offset: [x, y],
        flags: image.flags().bits(),
        palette: kind,
        transparent: pixels.opaque.iter().filter(|&&o| !o).count() as u64,
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "wrote {} ({} x {} pixels, {} palette, {} transparent)",
            report.output, report.width, report.height, report.palette, report.transparent
        )
    })
}
