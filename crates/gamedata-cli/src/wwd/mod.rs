//! `gamedata wwd ...`: WWD levels of the WAP32 engine (Claw 1997, Gruntz 1999).
//!
//! Levels are a few megabytes at most, so they are read into memory (no mapping): an
//! uncompressed level is then used in place, a compressed one decompressed once.

pub(crate) mod collision;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, Subcommand, ValueEnum};
use rayon::prelude::*;
use serde::Serialize;
use wap_core::{
    ChecksumClass, CodePage, Level, LevelData, LevelFile, TileAttributes, base_checksum, decode,
};

use crate::output::{ListArgs, Output, TextListing};

#[derive(Subcommand)]
pub(crate) enum WwdCommand {
    /// A level's header, planes, tile properties and checksum (--json: game, compressed,
    /// trailer_bytes, main_block_size, name, author, birth, start_x, start_y, planes,
    /// tile_properties, checksum).
    Info(InfoArgs),
    /// Check levels (files, or folders searched for .wwd in any case), in parallel: one
    /// result a file and totals; the exit status is 1 if any level failed.
    Validate(ValidateArgs),
    /// The objects of every plane, or those with one logic.
    Objects(ObjectsArgs),
    /// Render a plane's collision map (tile attributes pixel by pixel, objects marked) as
    /// a PNG.
    Render(collision::RenderArgs),
    /// Web map tiles of a plane's collision map ({z}/{x}/{y}.png, 256 pixels, one game
    /// pixel a pixel at the native zoom) and a Leaflet viewer, index.html.
    Tiles(collision::TilesArgs),
    /// The stored checksum, the base value over the stored bytes, and their relation.
    Checksum(FileArgs),
    /// Write the level again with this crate's writer, compressed or not, with the base
    /// checksum.
    Write(WriteArgs),
}

/// The code page of a level's text fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Page {
    /// Windows-1252 (Western): most levels.
    Cp1252,
    /// Windows-1250 (Central European): Polish levels.
    Cp1250,
}

impl Page {
    fn code_page(self) -> CodePage {
        match self {
            Page::Cp1252 => CodePage::Cp1252,
            Page::Cp1250 => CodePage::Cp1250,
        }
    }
}

#[derive(Args)]
pub(crate) struct FileArgs {
    /// The level (.wwd).
    file: PathBuf,
}

#[derive(Args)]
pub(crate) struct InfoArgs {
    /// The level (.wwd).
    file: PathBuf,
    /// Code page of the text fields (names, author, birth).
    #[arg(long, value_enum, default_value = "cp1252")]
    code_page: Page,
}

#[derive(Args)]
pub(crate) struct ValidateArgs {
    /// Levels and folders (searched recursively for .wwd files, any case).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

#[derive(Args)]
pub(crate) struct ObjectsArgs {
    /// The level (.wwd).
    file: PathBuf,
    /// Only objects with this logic (case ignored), e.g. Treasure, Officer, TileTrigger.
    #[arg(long)]
    logic: Option<String>,
    #[command(flatten)]
    list: ListArgs,
}

#[derive(Args)]
pub(crate) struct WriteArgs {
    /// The level to read.
    file: PathBuf,
    /// The level to write.
    out: PathBuf,
    /// Store the main block as a zlib stream (the default keeps the input's choice).
    #[arg(long, conflicts_with = "no_compress")]
    compress: bool,
    /// Store the main block plain.
    #[arg(long)]
    no_compress: bool,
}

pub(crate) fn run(cmd: WwdCommand, out: &mut Output) -> Result<()> {
    match cmd {
        WwdCommand::Info(args) => info(&args, out),
        WwdCommand::Validate(args) => validate(&args, out),
        WwdCommand::Objects(args) => objects(&args, out),
        WwdCommand::Render(args) => collision::render(&args, out),
        WwdCommand::Tiles(args) => collision::tiles(&args, out),
        WwdCommand::Checksum(args) => checksum(&args, out),
        WwdCommand::Write(args) => write(&args, out),
    }
}

/// Reads and opens a level within the default limits.
pub(crate) fn open(path: &Path) -> Result<LevelFile> {
    LevelFile::open(path).with_context(|| format!("reading {}", path.display()))
}

/// The level view, with the file named in the error.
pub(crate) fn view<'a>(file: &'a LevelFile, path: &Path) -> Result<Level<'a>> {
    file.level()
        .with_context(|| format!("reading {}", path.display()))
}

#[derive(Serialize)]
pub(crate) struct InfoReport {
    game: &'static str,
    compressed: bool,
    trailer_bytes: usize,
    main_block_size: usize,
    name: String,
    author: String,
    birth: String,
    start_x: i32,
    start_y: i32,
    planes: Vec<PlaneReport>,
    tile_properties: TilePropertiesReport,
    checksum: ChecksumReport,
    layout: LayoutReport,
}

#[derive(Serialize)]
struct PlaneReport {
    name: String,
    flags: u32,
    tile_width: i32,
    tile_height: i32,
    tiles_wide: u32,
    tiles_high: u32,
    z: i32,
    image_sets: Vec<String>,
    objects: u32,
    invisible_tiles: usize,
    filled_tiles: usize,
}

#[derive(Serialize, Default)]
struct TilePropertiesReport {
    count: u32,
    single: usize,
    double: usize,
    mask: usize,
}

#[derive(Serialize)]
struct ChecksumReport {
    stored: u32,
    computed: u32,
    class: &'static str,
    slack: Option<u8>,
}

#[derive(Serialize)]
struct LayoutReport {
    canonical: bool,
    in_usual_order: bool,
    gaps: Vec<[usize; 2]>,
    overlaps: Vec<[String; 2]>,
}

fn checksum_report(file: &LevelFile) -> ChecksumReport {
    let class = file.checksum_class();
    ChecksumReport {
        stored: file.header().checksum(),
        computed: base_checksum(file.stored_main_block()),
        class: class.name(),
        slack: match class {
            ChecksumClass::EditorSlack(x) => Some(x),
            _ => None,
        },
    }
}

/// The `info` report of a level; errors name the first section that cannot be read.
pub(crate) fn info_report(file: &LevelFile, path: &Path, page: CodePage) -> Result<InfoReport> {
    let level = view(file, path)?;
    let reading = || format!("reading {}", path.display());
    let text = |bytes: &[u8]| decode(bytes, page).into_owned();
    let header = level.header();
    let mut planes = Vec::with_capacity(level.plane_count());
    for plane in level.planes() {
        let plane = plane.with_context(reading)?;
        let image_sets = plane
            .image_sets()
            .map(|n| n.map(text))
            .collect::<Result<_, wap_core::DataError>>()
            .with_context(reading)?;
        let objects = plane.objects().try_fold(0u32, |n, o| o.map(|_| n + 1));
        let objects = objects.with_context(reading)?;
        let (invisible_tiles, filled_tiles) = plane.special_tile_counts();
        let (tile_width, tile_height) = plane.tile_size();
        planes.push(PlaneReport {
            name: text(plane.name()),
            flags: plane.flags().bits(),
            tile_width,
            tile_height,
            tiles_wide: plane.tiles_wide(),
            tiles_high: plane.tiles_high(),
            z: plane.z(),
            image_sets,
            objects,
            invisible_tiles,
            filled_tiles,
        });
    }
    let table = level.tile_properties().with_context(reading)?;
    let mut tile_properties = TilePropertiesReport {
        count: table.count(),
        ..TilePropertiesReport::default()
    };
    for record in table.iter() {
        match record.with_context(reading)?.attributes() {
            TileAttributes::Single(_) => tile_properties.single += 1,
            TileAttributes::Double(_) => tile_properties.double += 1,
            TileAttributes::Mask(_) => tile_properties.mask += 1,
        }
    }
    let layout = level.layout();
    let (start_x, start_y) = header.start();
    Ok(InfoReport {
        game: level.game().name(),
        compressed: file.compressed(),
        trailer_bytes: file.trailer().len(),
        main_block_size: file.main_block().len(),
        name: text(header.name()),
        author: text(header.author()),
        birth: text(header.birth()),
        start_x,
        start_y,
        planes,
        tile_properties,
        checksum: checksum_report(file),
        layout: LayoutReport {
            canonical: layout.is_canonical(),
            in_usual_order: layout.in_usual_order,
            gaps: layout.gaps.iter().map(|g| [g.start, g.end]).collect(),
            overlaps: layout
                .overlaps
                .iter()
                .map(|(a, b)| [a.to_string(), b.to_string()])
                .collect(),
        },
    })
}

pub(crate) fn print_info(w: &mut dyn Write, r: &InfoReport) -> std::io::Result<()> {
    writeln!(w, "{} ({}), by {}, {}", r.name, r.game, r.author, r.birth)?;
    writeln!(
        w,
        "main block {} bytes{}{}, start ({}, {}) px",
        r.main_block_size,
        if r.compressed { ", zlib" } else { ", plain" },
        if r.trailer_bytes > 0 {
            format!(", {} bytes after the stream", r.trailer_bytes)
        } else {
            String::new()
        },
        r.start_x,
        r.start_y
    )?;
    writeln!(
        w,
        "{:<3} {:<16} {:>5} {:>9} {:>11} {:>6} {:>8} {:>10} {:>7}  image sets",
        "#", "plane", "flags", "tile px", "tiles", "z", "objects", "invisible", "filled"
    )?;
    for (i, p) in r.planes.iter().enumerate() {
        writeln!(
            w,
            "{:<3} {:<16} {:>#5x} {:>9} {:>11} {:>6} {:>8} {:>10} {:>7}  {}",
            i,
            p.name,
            p.flags,
            format!("{}x{}", p.tile_width, p.tile_height),
            format!("{}x{}", p.tiles_wide, p.tiles_high),
            p.z,
            p.objects,
            p.invisible_tiles,
            p.filled_tiles,
            p.image_sets.join(", ")
        )?;
    }
    let t = &r.tile_properties;
    writeln!(
        w,
        "tile properties: {} records ({} single, {} double, {} mask)",
        t.count, t.single, t.double, t.mask
    )?;
    print_checksum(w, &r.checksum)?;
    let l = &r.layout;
    if l.canonical {
        writeln!(w, "layout: the editor's order, no gaps or overlaps")
    } else {
        writeln!(
            w,
            "layout: {}, {} gaps, {} overlaps",
            if l.in_usual_order {
                "usual order"
            } else {
                "unusual order"
            },
            l.gaps.len(),
            l.overlaps.len()
        )
    }
}

fn print_checksum(w: &mut dyn Write, c: &ChecksumReport) -> std::io::Result<()> {
    let slack = c.slack.map(|x| format!(" (+{x})")).unwrap_or_default();
    writeln!(
        w,
        "checksum: stored {:#010x}, base {:#010x}: {}{}",
        c.stored, c.computed, c.class, slack
    )
}

fn info(args: &InfoArgs, out: &mut Output) -> Result<()> {
    let file = open(&args.file)?;
    let report = info_report(&file, &args.file, args.code_page.code_page())?;
    out.report(&report, |w| print_info(w, &report))
}

fn checksum(args: &FileArgs, out: &mut Output) -> Result<()> {
    let file = open(&args.file)?;
    let report = checksum_report(&file);
    out.report(&report, |w| print_checksum(w, &report))
}

#[derive(Serialize)]
struct WriteReport {
    output: String,
    compressed: bool,
    bytes: usize,
    main_block_size: usize,
    checksum: u32,
    same_main_block: bool,
    elapsed_ms: f64,
}

fn write(args: &WriteArgs, out: &mut Output) -> Result<()> {
    let start = std::time::Instant::now();
    let file = open(&args.file)?;
    let level = view(&file, &args.file)?;
    let data = LevelData::from_level(&level)
        .with_context(|| format!("reading {}", args.file.display()))?;
    let compress = if args.compress || args.no_compress {
        args.compress
    } else {
        file.compressed()
    };
    let block = data.main_block()?;
    let bytes = data.to_file(compress)?;
    crate::files::write_bytes(&args.out, &[&args.file], &bytes)?;
    let report = WriteReport {
        output: args.out.display().to_string(),
        compressed: compress,
        bytes: bytes.len(),
        main_block_size: block.len(),
        checksum: base_checksum(bytes.get(1524..).unwrap_or_default()),
        same_main_block: block == file.main_block(),
        elapsed_ms: crate::files::elapsed_ms(start),
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "wrote {} ({} bytes, {}), main block {} bytes{}, checksum {:#010x}",
            report.output,
            report.bytes,
            if compress { "zlib" } else { "plain" },
            report.main_block_size,
            if report.same_main_block {
                ", identical to the input's"
            } else {
                ", laid out in the editor's order"
            },
            report.checksum
        )
    })
}

#[derive(Serialize)]
struct ObjectReport {
    plane: usize,
    index: usize,
    id: i32,
    logic: String,
    name: String,
    image_set: String,
    animation: String,
    x: i32,
    y: i32,
    z: i32,
    object_type: u32,
    hit_type_flags: u32,
    add_flags: u32,
    dynamic_flags: u32,
    draw_flags: u32,
    user_flags: u32,
}

#[derive(Serialize)]
struct ObjectsReport {
    count: usize,
    objects: Vec<ObjectReport>,
}

fn objects(args: &ObjectsArgs, out: &mut Output) -> Result<()> {
    let file = open(&args.file)?;
    let level = view(&file, &args.file)?;
    let reading = || format!("reading {}", args.file.display());
    let text = |b: &[u8]| decode(b, CodePage::Cp1252).into_owned();
    let wanted = |o: &wap_core::Object<'_>| {
        args.logic
            .as_ref()
            .is_none_or(|logic| o.logic().eq_ignore_ascii_case(logic.as_bytes()))
    };
    // Plane by plane, object by object, as they are read: nothing is collected unless one
    // JSON document is asked for.
    let rows = level.planes().flat_map(|plane| {
        let rows: Box<dyn Iterator<Item = Result<ObjectReport>>> = match plane {
            Err(e) => Box::new(std::iter::once(Err(
                anyhow::Error::from(e).context(reading())
            ))),
            Ok(plane) => {
                let number = plane.index();
                Box::new(
                    plane
                        .objects()
                        .enumerate()
                        .filter_map(move |(index, object)| {
                            let o = match object {
                                Ok(o) => o,
                                Err(e) => {
                                    return Some(Err(anyhow::Error::from(e).context(reading())));
                                }
                            };
                            if !wanted(&o) {
                                return None;
                            }
                            let (x, y) = o.position();
                            Some(Ok(ObjectReport {
                                plane: number,
                                index,
                                id: o.id(),
                                logic: text(o.logic()),
                                name: text(o.name()),
                                image_set: text(o.image_set()),
                                animation: text(o.animation()),
                                x,
                                y,
                                z: o.z(),
                                object_type: o.object_type().0,
                                hit_type_flags: o.hit_type_flags().bits(),
                                add_flags: o.add_flags().bits(),
                                dynamic_flags: o.dynamic_flags().bits(),
                                draw_flags: o.draw_flags().bits(),
                                user_flags: o.user_flags(),
                            }))
                        }),
                )
            }
        };
        rows
    });
    let header = format!(
        "{:<5} {:<6} {:>6} {:>8} {:>8}  {:<24} image set",
        "plane", "index", "id", "x", "y", "logic"
    );
    let listing = TextListing {
        header: &header,
        row: &|w, o: &ObjectReport| {
            writeln!(
                w,
                "{:<5} {:<6} {:>6} {:>8} {:>8}  {:<24} {}",
                o.plane, o.index, o.id, o.x, o.y, o.logic, o.image_set
            )
        },
        footer: &|n| format!("{n} objects"),
    };
    out.list(&args.list, rows, &listing, |objects| ObjectsReport {
        count: objects.len(),
        objects,
    })
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

/// Reads everything in a level: the header, decompression, every plane with its tiles,
/// names and objects, every tile property record. Warnings are what a level may have and
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
        for plane in level.planes() {
            let plane = plane?;
            for name in plane.image_sets() {
                name?;
            }
            for object in plane.objects() {
                object?;
            }
        }
        level.tile_properties()?.collect()?;
        if level.main_plane().is_none() {
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

fn validate(args: &ValidateArgs, out: &mut Output) -> Result<()> {
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
                        r.path,
                        r.game.unwrap_or("unknown"),
                        r.checksum.unwrap_or("?")
                    )?;
                    for warning in &r.warnings {
                        write!(w, "; warning: {warning}")?;
                    }
                    writeln!(w)?;
                }
                Some(e) => writeln!(w, "FAILED  {}: {e}", r.path)?,
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
