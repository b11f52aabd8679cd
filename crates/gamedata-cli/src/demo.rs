//! `gamedata demo`: the main job of each game family on built-in synthetic data, one section
//! a family (Cosmo, WWD, then Ultima Online), every file made by the crates' own writers, and
//! a picture of each: Cosmo's level A1 (its tiles, their attributes, and with its backdrop
//! and actors), a Claw level drawn whole as the game draws it (`wwd-level.png`: sky, hills,
//! grass-topped ground with pits, ledges and ladders, treasure, enemies, a checkpoint flag,
//! the map piece) and as its collision map (`wwd-collision.png`), an Ultima Online
//! facet's radar map (`uo-radar.png`), and a small Ultima Online world with art drawn as the
//! client draws it (`uo-world.png`: hills, a pond, a house, trees, hued vases, a tower).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use gamedata_render::uo::world::{WorldCounts, WorldView};
use mni_core::{Episode, Group, synth};
use mul_core::MapSize;
use mul_core::synth::World;
use serde::Serialize;

use crate::cosmo::draw::render_png;
use crate::cosmo::{
    entry_rows, map_report, print_entry_table, print_map, print_tileattr, tileattr_report,
};
use crate::files::{Written, elapsed_ms};
use crate::output::Output;
use crate::uo::radar::render_facet;
use crate::uo::stats::{print_stats, stats_report};
use crate::uo::world::WorldFiles;
use crate::uo::{SizeArgs, open_facet, views};
use crate::wwd::{self, info_report, print_info};

#[derive(Args)]
pub(crate) struct DemoArgs {
    /// Folder for the synthetic files and the rendered PNGs (created).
    #[arg(long, default_value = "gamedata-demo")]
    out: PathBuf,
}

/// What `demo --json` prints: the files written.
#[derive(Serialize)]
struct DemoReport {
    out_dir: String,
    files: Vec<Written>,
    elapsed_ms: f64,
}

pub(crate) fn run(args: &DemoArgs, out: &mut Output) -> Result<()> {
    let start = Instant::now();
    let out_dir = &args.out;
    std::fs::create_dir_all(out_dir)
        .with_context(|| format!("cannot create {}", out_dir.display()))?;
    let mut wrote = Vec::new();
    // The sections' text goes nowhere with --json: stdout then holds the report alone.
    let mut sink = std::io::sink();
    let json = out.is_json();
    let mut text = out.text();
    let w: &mut dyn Write = if json { &mut sink } else { &mut text };
    cosmo_section(out_dir, w, &mut wrote)?;
    wwd_section(out_dir, w, &mut wrote)?;
    uo_section(out_dir, w, &mut wrote)?;
    if json {
        let report = DemoReport {
            out_dir: out_dir.display().to_string(),
            files: wrote
                .iter()
                .map(|p| Written::of(p))
                .collect::<Result<_>>()?,
            elapsed_ms: elapsed_ms(start),
        };
        out.report(&report, |_| Ok(()))?;
    }
    Ok(())
}

/// The synthetic Claw level's size in tiles, and the pictures' pixels a tile side (64-pixel
/// tiles drawn at 3/8: 1,920 x 576 pixels).
const WWD_TILES: (u32, u32) = (80, 24);
const WWD_TILE_PX: u32 = 24;

/// WWD: a synthetic Claw level written with wap-core's writer, inspected, its collision
/// map rendered, then the level drawn as the game draws it (sky, hills, grass-topped
/// ground, pits, ledges and ladders, treasure, enemies, a checkpoint flag and the map piece)
/// with a synthetic archive of its pictures, also made by wap-core's writers.
fn wwd_section(out_dir: &Path, w: &mut dyn Write, wrote: &mut Vec<PathBuf>) -> Result<()> {
    writeln!(w, "\n== WWD (Claw): a synthetic level ==")?;
    let path = out_dir.join("SYNTH01.WWD");
    let data = wap_core::synth::level(1, WWD_TILES.0, WWD_TILES.1);
    let bytes = data.to_file(true)?;
    crate::files::write_bytes(&path, &[], &bytes)?;
    wrote.push(path.clone());
    writeln!(
        w,
        "built {} ({} bytes, zlib) with wap_core::LevelData::to_file",
        path.display(),
        bytes.len()
    )?;
    writeln!(w, "\n-- gamedata wwd info {}", path.display())?;
    let file = wwd::open(&path)?;
    print_info(w, &info_report(&file, &path, wap_core::CodePage::Cp1252)?)?;
    writeln!(
        w,
        "\n-- gamedata wwd render {} --tile-px {WWD_TILE_PX} -o wwd-collision.png",
        path.display()
    )?;
    let level = wwd::view(&file, &path)?;
    let plane = level
        .main_plane()?
        .context("the synthetic level has a main plane")?;
    let index = level.tile_properties()?.collect()?;
    let tile_px = WWD_TILE_PX;
    let drawn = gamedata_render::wwd::collision(&plane, &index, tile_px)?;
    let png = out_dir.join("wwd-collision.png");
    crate::render::write_png(&drawn.image, &png, &[&path])?;
    wrote.push(png.clone());
    writeln!(
        w,
        "wrote {} ({} x {} pixels, {tile_px} a tile side, {} objects marked): what the \
         player collides with, a colour a tile attribute (solid, ground, climb, death)",
        png.display(),
        drawn.image.width(),
        drawn.image.height(),
        drawn.objects
    )?;
    // The level as the game draws it, from an archive of synthetic images at the paths the
    // level names.
    let rez = out_dir.join("SYNTH.REZ");
    let archive = wap_core::synth::level_archive(&data)?;
    crate::files::write_bytes(&rez, &[&path], &archive)?;
    wrote.push(rez.clone());
    writeln!(
        w,
        "\n-- gamedata wwd render {} --rez {} --tile-px {WWD_TILE_PX} -o wwd-level.png",
        path.display(),
        rez.display()
    )?;
    let images =
        wap_core::ImageSource::Archive(wap_core::RezFile::from_data(archive, &Default::default())?);
    let options = gamedata_render::wwd::SceneOptions {
        tile_px: Some(tile_px),
        ..Default::default()
    };
    let scene =
        gamedata_render::wwd::Scene::new(&level, &images, &options, &wap_core::Limits::default())?;
    let picture = scene.rect(gamedata_render::Region::new(
        0,
        0,
        scene.width(),
        scene.height(),
    ))?;
    let png = out_dir.join("wwd-level.png");
    crate::render::write_png(&picture, &png, &[&path, &rez])?;
    wrote.push(png.clone());
    let drawn = scene.report();
    writeln!(
        w,
        "wrote {} ({} x {} pixels): {} tiles and {} objects drawn, {} images missing",
        png.display(),
        picture.width(),
        picture.height(),
        drawn.tiles_drawn,
        drawn.objects_drawn,
        drawn.missing_images
    )?;
    writeln!(
        w,
        "the whole level at 3/8 size: sky, clouds and hills (the background plane), \
         grass-topped ground with pits and spikes, stone ledges and ladders (the action \
         plane), vines (the front plane), treasure, officers, soldiers, a checkpoint flag \
         and the map piece at the end"
    )?;
    writeln!(
        w,
        "\nTry: gamedata wwd objects {} --logic Treasure, or gamedata wwd validate {}",
        path.display(),
        out_dir.display()
    )?;
    Ok(())
}

/// Ultima Online: a full-size synthetic facet 0 written, mapped, scanned and rendered.
fn uo_section(out_dir: &Path, w: &mut dyn Write, wrote: &mut Vec<PathBuf>) -> Result<()> {
    writeln!(w, "\n== Ultima Online: a synthetic facet 0 ==")?;
    let dir = out_dir.join("uo");
    let size = MapSize::preset(0)?;
    let start = Instant::now();
    let world = World::generate(size, 1);
    world
        .write_to(&dir, 0)
        .with_context(|| format!("writing into {}", dir.display()))?;
    for (name, _) in world.files(0, mul_core::MapFormat::Mul)? {
        wrote.push(dir.join(name));
    }
    writeln!(
        w,
        "built {} in {}: map0.mul ({} bytes), {} statics, tiledata, radarcol, hues ({:.1} s)",
        size,
        dir.display(),
        world.map.len(),
        world.static_count,
        start.elapsed().as_secs_f64()
    )?;
    drop(world);

    writeln!(w, "\n-- gamedata uo stats {} --facet 0", dir.display())?;
    let sizes = SizeArgs {
        facet: 0,
        width: None,
        height: None,
        map_format: None,
        apply_diffs: false,
    };
    let start = Instant::now();
    let files = open_facet(&dir, &sizes)?;
    let facet = views(&files, &sizes)?;
    writeln!(
        w,
        "opened (memory-mapped) in {:.0} µs",
        start.elapsed().as_secs_f64() * 1e6
    )?;
    print_stats(w, &stats_report(&facet, false))?;

    writeln!(
        w,
        "\n-- gamedata uo render {} --facet 0 --scale 8 -o uo-radar.png",
        dir.display()
    )?;
    let png = out_dir.join("uo-radar.png");
    let (pw, ph) = render_facet(&facet, 8, &png)?;
    wrote.push(png.clone());
    writeln!(
        w,
        "wrote {} ({pw} x {ph} pixels, 8 x 8 tiles a pixel)",
        png.display()
    )?;
    writeln!(
        w,
        "\nTry: gamedata uo tile {} --facet 0 3584 2048 --json",
        dir.display()
    )?;
    uo_world_section(out_dir, w, wrote)
}

/// The drawable synthetic world's size in tiles (`uo synth --art --width 64 --height 64`),
/// and the view of its showcase the demo draws: SX, SY, W, H in the client's screen pixels
/// (docs/formats/uo.md, "Synthetic world": the hills, the pond, the house, the trees, the
/// hued vases and banners, the tower).
const UO_WORLD_TILES: u32 = 64;
const UO_WORLD_VIEW: WorldView = WorldView {
    x: -800,
    y: 560,
    width: 1480,
    height: 1420,
};

/// Ultima Online as the client draws it: a small synthetic world with art and texture maps
/// (the showcase of every drawing case), written as `uo synth --art` writes it, and a view
/// of it drawn in the world style.
fn uo_world_section(out_dir: &Path, w: &mut dyn Write, wrote: &mut Vec<PathBuf>) -> Result<()> {
    let side = UO_WORLD_TILES;
    writeln!(
        w,
        "\n== Ultima Online: a small world with art, drawn as the client draws it =="
    )?;
    let dir = out_dir.join("uo-art");
    writeln!(
        w,
        "\n-- gamedata uo synth {} --facet 0 --width {side} --height {side} --art",
        dir.display()
    )?;
    let size = MapSize::from_tiles(side, side)?;
    let world = World::generate_drawable(size, 1);
    let (art_index, art) = mul_core::synth::drawable::art(1);
    let (tex_index, texmaps) = mul_core::synth::drawable::texmaps(1);
    let pictures = [
        ("artidx.mul", art_index),
        ("art.mul", art),
        ("texidx.mul", tex_index),
        ("texmaps.mul", texmaps),
    ];
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let world_files = world.files(0, mul_core::MapFormat::Mul)?;
    let named = world_files
        .iter()
        .map(|(name, bytes)| (name.as_str(), bytes.as_ref()))
        .chain(
            pictures
                .iter()
                .map(|(name, bytes)| (*name, bytes.as_slice())),
        );
    for (name, bytes) in named {
        let path = dir.join(name);
        crate::files::write_bytes(&path, &[], bytes)?;
        wrote.push(path);
    }
    writeln!(
        w,
        "built {size} in {}: map, {} statics, tiledata, radarcol, hues, art and texture maps",
        dir.display(),
        world.static_count
    )?;

    let view = UO_WORLD_VIEW;
    writeln!(
        w,
        "\n-- gamedata uo render {} --facet 0 --width {side} --height {side} --style world \
         --view={},{} --view-size {}x{} -o uo-world.png",
        dir.display(),
        view.x,
        view.y,
        view.width,
        view.height
    )?;
    let sizes = SizeArgs {
        facet: 0,
        width: Some(side),
        height: Some(side),
        map_format: None,
        apply_diffs: false,
    };
    let facet_files = open_facet(&dir, &sizes)?;
    let facet = views(&facet_files, &sizes)?;
    let pictures = WorldFiles::open(&dir)?;
    let png = out_dir.join("uo-world.png");
    let counts = pictures.with_source(&facet, &dir, |source| {
        let inputs = pictures.inputs();
        let mut counts = WorldCounts::default();
        crate::files::write_file(&png, &inputs, |out| {
            counts = source.write_png(view, crate::render::compression(), out, &|_| {})?;
            Ok(())
        })?;
        Ok(counts)
    })?;
    wrote.push(png.clone());
    writeln!(
        w,
        "wrote {} ({} x {} pixels from ({}, {}), world style: {} land tiles, {} stretched, {} \
         statics): grass and sand hills, a rock cliff, a pond, a dirt ramp, a house with its \
         roof, trees, vases and banners in many hues, a crystal and a tower",
        png.display(),
        view.width,
        view.height,
        view.x,
        view.y,
        counts.tiles_drawn,
        counts.stretched,
        counts.statics_drawn
    )?;
    writeln!(
        w,
        "\nTry: gamedata uo render {} --facet 0 --width {side} --height {side} --style world \
         -o world.png (the whole world)",
        dir.display()
    )?;
    Ok(())
}

/// Cosmo's Cosmic Adventure: a synthetic episode written, listed, summarised and rendered.
fn cosmo_section(out_dir: &Path, w: &mut dyn Write, wrote: &mut Vec<PathBuf>) -> Result<()> {
    writeln!(w, "== Cosmo's Cosmic Adventure: a synthetic episode ==")?;
    let files = synth::episode()?;
    let (stn_path, vol_path) = (out_dir.join("COSMO1.STN"), out_dir.join("COSMO1.VOL"));
    for (path, bytes) in [(&stn_path, &files.stn), (&vol_path, &files.vol)] {
        crate::files::write_bytes(path, &[], bytes)?;
        wrote.push(path.clone());
        writeln!(
            w,
            "built {} ({} bytes) with mni_core::write_group",
            path.display(),
            bytes.len()
        )?;
    }

    for (label, bytes) in [("COSMO1.STN", &files.stn), ("COSMO1.VOL", &files.vol)] {
        writeln!(w, "\n-- gamedata cosmo ls {label}")?;
        let (rows, problems) = entry_rows(&Group::parse(bytes)?);
        print_entry_table(w, &rows)?;
        if !problems.is_empty() {
            bail!(problems.join("\n"));
        }
    }

    let ep = Episode::parse_named(&files.stn, "COSMO1.STN", &files.vol, "COSMO1.VOL")?;
    writeln!(
        w,
        "\n-- gamedata cosmo tileattr (TILEATTR.MNI from the STN)"
    )?;
    print_tileattr(w, &tileattr_report(&ep.tile_attributes()?))?;

    writeln!(w, "\n-- gamedata cosmo map A1.MNI --render")?;
    let map = ep.level("A1.MNI")?.ok_or_else(|| ep.missing("A1.MNI"))?;
    print_map(w, "A1.MNI", &map_report(&map))?;
    let plain = crate::cosmo::draw::Layers::default();
    let attributes = crate::cosmo::draw::Layers {
        attributes: true,
        ..plain
    };
    let level = crate::cosmo::draw::Layers {
        actors: true,
        backdrop: true,
        ..plain
    };
    for (file, layers) in [
        ("A1.png", plain),
        ("A1-attributes.png", attributes),
        ("A1-level.png", level),
    ] {
        let png = out_dir.join(file);
        let drawn = render_png(&ep, &map, "A1.MNI", (&png, &[]), layers)?;
        wrote.push(png);
        writeln!(w, "{}", drawn.sentence())?;
    }
    writeln!(
        w,
        "\nTry the same on the synthetic files: gamedata cosmo map {} A1.MNI --json\n\
         or on the real episode 1 files: gamedata cosmo map DIR_WITH_COSMO1_FILES A1.MNI --render a1.png",
        out_dir.display()
    )?;
    Ok(())
}
