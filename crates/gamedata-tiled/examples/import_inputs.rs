//! Writes large maps for measuring `gamedata wwd from-tmx` (`docs/cli.md`, "Levels in Tiled"):
//! the export of a synthetic level with many point objects added in its first object layer
//! (each as Tiled writes one added with a logic: `wwd_logic` its only property), and the
//! export of a large synthetic level, each as TMX and TMJ, under a folder:
//!
//! ```sh
//! cargo run --release -p gamedata-tiled --example import_inputs -- DIR [OBJECTS] [SIDE]
//! ```
//!
//! `DIR/objects-OBJECTS.tmx` (and `.tmj`): the synthetic level of `wap_core::synth::level`
//! (seed 1) at 400 x 100 tiles with OBJECTS (default 30,000) points added; `DIR/tiles-SIDE.tmx` (and `.tmj`): a level SIDE x
//! SIDE tiles (default 632, 400,000 cells a layer); `DIR/planes-bomb.tmx` (and `.tmj`):
//! the 400 x 100 tile level with twelve more copies of its first plane's layer, each
//! declaring 8,192 x 8,192 tiles (`wwd_tiles_wide`, `wwd_tiles_high`) with no
//! `wwd_tiles`: a few megabytes asking for 3.2 GB of tiles, which the import refuses
//! (`Limits::max_decoded_bytes / 4` tiles over all planes). Their images go nowhere: the
//! import does not read them.

use std::path::PathBuf;

use gamedata_tiled::map::{LayerData, Map, MapObject, Property};
use gamedata_tiled::wwd::{ExportOptions, export};
use wap_core::{ImageSource, Level, Limits, RezFile, synth};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(
        args.next()
            .ok_or("usage: import_inputs DIR [OBJECTS] [SIDE]")?,
    );
    let objects: u32 = args.next().map_or(Ok(30_000), |a| a.parse())?;
    let side: u32 = args.next().map_or(Ok(632), |a| a.parse())?;
    std::fs::create_dir_all(&dir)?;
    let mut map = exported(400, 100)?;
    add_points(&mut map, objects)?;
    write(&map, &dir, &format!("objects-{objects}"))?;
    write(&exported(side, side)?, &dir, &format!("tiles-{side}"))?;
    let mut bomb = exported(400, 100)?;
    add_declared_planes(&mut bomb, 12, 8192)?;
    write(&bomb, &dir, "planes-bomb")?;
    Ok(())
}

/// `n` copies of the first plane's layer (the map's first tile layer) added after it, each declaring `side` x `side` tiles and holding none of its
/// own past the map (no `wwd_tiles`), so each asks for `side * side` tiles.
fn add_declared_planes(map: &mut Map, n: u32, side: u32) -> Result<(), Box<dyn std::error::Error>> {
    let at = map
        .layers
        .iter()
        .position(|l| matches!(l.data, LayerData::Tiles(_)))
        .ok_or("no tile layer")?;
    let mut next = map.next_layer_id();
    for k in 0..n {
        let mut layer = map.layers.get(at).ok_or("no tile layer")?.clone();
        layer.id = next;
        next = next.checked_add(1).ok_or("too many layers")?;
        layer.name = format!("declared {k}");
        layer.properties.retain(|p| p.name != "wwd_tiles");
        for p in &mut layer.properties {
            if p.name == "wwd_tiles_wide" || p.name == "wwd_tiles_high" {
                *p = Property::int(p.name.clone(), side);
            }
        }
        map.layers.insert(at + 1, layer);
    }
    Ok(())
}

/// The map of the synthetic level `wide` x `high` tiles (`wap_core::synth::level`, seed 1).
fn exported(wide: u32, high: u32) -> Result<Map, Box<dyn std::error::Error>> {
    let data = synth::level(1, wide, high);
    let source = ImageSource::Archive(RezFile::from_data(
        synth::level_archive(&data)?,
        &Default::default(),
    )?);
    let image = data.image()?;
    let level = Level::parse(&image)?;
    Ok(export(
        &level,
        &source,
        &ExportOptions::default(),
        &Limits::default(),
    )?
    .map)
}

/// `n` points added at the end of the map's first object layer, spread over the level,
/// each with only a logic.
fn add_points(map: &mut Map, n: u32) -> Result<(), Box<dyn std::error::Error>> {
    let first = map.next_object_id();
    let (wide, high) = (
        i64::from(map.width) * i64::from(map.tile_width),
        i64::from(map.height) * i64::from(map.tile_height),
    );
    let layer = map
        .layers
        .iter_mut()
        .find_map(|l| match &mut l.data {
            LayerData::Objects(o) => Some(o),
            _ => None,
        })
        .ok_or("no object layer")?;
    for k in 0..n {
        let at = i64::from(k).wrapping_mul(7919);
        layer.push(MapObject {
            id: first.checked_add(k).ok_or("too many objects")?,
            name: String::new(),
            class: String::new(),
            gid: None,
            x: at % wide.max(1),
            y: (at / wide.max(1)) % high.max(1),
            width: 0,
            height: 0,
            visible: true,
            properties: vec![Property::string("wwd_logic", "Soldier")],
        });
    }
    Ok(())
}

fn write(map: &Map, dir: &std::path::Path, name: &str) -> Result<(), Box<dyn std::error::Error>> {
    let tmx = dir.join(format!("{name}.tmx"));
    gamedata_tiled::tmx::write_tmx(map, std::io::BufWriter::new(std::fs::File::create(&tmx)?))?;
    let tmj = dir.join(format!("{name}.tmj"));
    gamedata_tiled::tmj::write_tmj(map, std::io::BufWriter::new(std::fs::File::create(&tmj)?))?;
    for path in [tmx, tmj] {
        println!(
            "{} ({} bytes)",
            path.display(),
            std::fs::metadata(&path)?.len()
        );
    }
    Ok(())
}
