//! `gamedata wwd info` and `gamedata wwd checksum`: a level's header, planes, tile properties, layout and checksum.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;
use wap_core::{ChecksumClass, CodePage, LevelFile, TileAttributes, base_checksum, decode};

use super::{FileArgs, Page, open, view};
use crate::output::Output;

#[derive(Args)]
pub(crate) struct InfoArgs {
    /// The level (.wwd).
    file: PathBuf,
    /// Code page of the text fields (names, author, birth).
    #[arg(long, value_enum, default_value = "cp1252")]
    code_page: Page,
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
    // The level's text, escaped on its own (a line feed in a name stays on its line).
    let line = |s: &str| gamedata_io::printable(s).into_owned();
    writeln!(
        w,
        "{} ({}), by {}, {}",
        line(&r.name),
        r.game,
        line(&r.author),
        line(&r.birth)
    )?;
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
            line(&p.name),
            p.flags,
            format!("{}x{}", p.tile_width, p.tile_height),
            format!("{}x{}", p.tiles_wide, p.tiles_high),
            p.z,
            p.objects,
            p.invisible_tiles,
            p.filled_tiles,
            line(&p.image_sets.join(", "))
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

pub(super) fn info(args: &InfoArgs, out: &mut Output) -> Result<()> {
    let file = open(&args.file)?;
    let report = info_report(&file, &args.file, args.code_page.code_page())?;
    out.report(&report, |w| print_info(w, &report))
}

pub(super) fn checksum(args: &FileArgs, out: &mut Output) -> Result<()> {
    let file = open(&args.file)?;
    let report = checksum_report(&file);
    out.report(&report, |w| print_checksum(w, &report))
}
