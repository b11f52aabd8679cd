//! What the import's lookups cost, counted without timing ([`super::probes`]): a cell's
//! tileset is a binary search among the tilesets, its image set one look; an object's
//! tileset the same search, its tile's properties looked up, not copied or sorted again.
//! The shapes are those of the attack of issue 56 (many tilesets under many cells; many
//! objects of a tile with many properties), small.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects,
    clippy::cast_precision_loss
)]

use std::fmt::Write as _;

use wap_core::{ImageSource, Level, LevelData, Limits, RezFile};

use super::probes;
use super::{level_from_tmj, level_from_tmx};
use crate::wwd::{ExportOptions, export};

/// The map's `<properties>` of the TMX export of a small synthetic level: a header that
/// reads back.
fn header() -> String {
    let data = wap_core::synth::level(3, 16, 16);
    let rez = wap_core::synth::level_archive(&data).unwrap();
    let source = ImageSource::Archive(RezFile::from_data(rez, &Default::default()).unwrap());
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let map = export(
        &level,
        &source,
        &ExportOptions::default(),
        &Limits::default(),
    )
    .unwrap()
    .map;
    let mut tmx = Vec::new();
    crate::tmx::write_tmx(&map, &mut tmx).unwrap();
    let tmx = String::from_utf8(tmx).unwrap();
    let start = tmx.find(" <properties>").unwrap();
    let end = tmx.find(" </properties>").unwrap() + " </properties>\n".len();
    tmx[start..end].to_owned()
}

/// A tile layer's `<properties>`: a plane flagged main, `wide` x `high` tiles of image
/// sets `sets`.
fn layer_properties(wide: u32, high: u32, sets: &[&str]) -> String {
    let mut s = String::from("  <properties>\n");
    for (k, v) in [
        ("wwd_size", 160),
        ("wwd_flags", 1),
        ("wwd_tile_width", 64),
        ("wwd_tile_height", 64),
        ("wwd_tiles_wide", i64::from(wide)),
        ("wwd_tiles_high", i64::from(high)),
        ("wwd_image_set_count", sets.len() as i64),
    ] {
        writeln!(s, "   <property name=\"{k}\" type=\"int\" value=\"{v}\"/>").unwrap();
    }
    for k in [
        "reserved1",
        "reserved2",
        "width_px",
        "height_px",
        "reserved3",
        "reserved4",
        "movement_x_percent",
        "movement_y_percent",
        "fill_color",
        "z",
        "reserved5",
        "reserved6",
        "reserved7",
    ] {
        writeln!(
            s,
            "   <property name=\"wwd_{k}\" type=\"int\" value=\"0\"/>"
        )
        .unwrap();
    }
    s.push_str("   <property name=\"wwd_name\" value=\"Action\"/>\n");
    for (n, set) in sets.iter().enumerate() {
        writeln!(
            s,
            "   <property name=\"wwd_image_set{}\" value=\"{set}\"/>",
            n + 1
        )
        .unwrap();
    }
    s.push_str("  </properties>\n");
    s
}

/// A map `wide` x `high` of one plane (image sets `ACTION`, `FRONT`) over `fills` fill
/// tilesets given by descending first id (2 up), after two tilesets of first id 1: a fill
/// one, then one of tile set `FRONT` (the later is the one read). Cell `k` is global id
/// `1 + k % (fills + 1)`.
fn cells_map(header: &str, fills: u32, wide: u32, high: u32) -> String {
    let mut s = format!("<?xml version=\"1.0\"?>\n<map width=\"{wide}\" height=\"{high}\">\n");
    s.push_str(header);
    s.push_str(" <tileset firstgid=\"1\" name=\"fill\" tilecount=\"1\"/>\n");
    s.push_str(
        " <tileset firstgid=\"1\" name=\"FRONT\" tilecount=\"1\"><properties>\
         <property name=\"wwd_image_set\" value=\"FRONT\"/></properties>\
         <tile id=\"0\"><properties><property name=\"wwd_tile\" value=\"5\"/></properties>\
         </tile></tileset>\n",
    );
    for k in (0..fills).rev() {
        writeln!(
            s,
            " <tileset firstgid=\"{}\" name=\"fill\" tilecount=\"1\"/>",
            k + 2
        )
        .unwrap();
    }
    writeln!(
        s,
        " <layer name=\"Action\" width=\"{wide}\" height=\"{high}\">"
    )
    .unwrap();
    s.push_str(&layer_properties(wide, high, &["ACTION", "FRONT"]));
    s.push_str("  <data encoding=\"csv\">\n");
    for k in 0..wide * high {
        write!(s, "{},", 1 + k % (fills + 1)).unwrap();
    }
    s.push_str("\n  </data>\n </layer>\n</map>\n");
    s
}

/// The level `text` reads back as, and the comparisons the lookups made.
fn counted(text: &str) -> (LevelData, u64) {
    probes::take();
    let level = level_from_tmx(text, &Limits::default()).unwrap();
    (level, probes::take())
}

/// A cell's tileset is a binary search: a cell costs at most `log2(tilesets) + 2`
/// comparisons (12 here; a scan of the tilesets, as before, cost one a tileset: 2,002); the
/// tilesets are sorted once. The tile read is the one the last tileset of the greatest
/// first id not past the cell's gives.
#[test]
fn a_cell_costs_a_binary_search_among_the_tilesets() {
    let header = header();
    let (fills, wide) = (2_000, 50);
    let (few, few_work) = counted(&cells_map(&header, fills, wide, 40));
    let (many, many_work) = counted(&cells_map(&header, fills, wide, 80));
    let tiles = &many.planes[0].tiles;
    assert_eq!(tiles.len(), 50 * 80);
    // Global id 1: tile 5 of FRONT, the plane's image set 1.
    assert_eq!(tiles[0], 1 << 16 | 5);
    assert_eq!(tiles[1], wap_core::raw::TILE_FILLED);
    assert_eq!(tiles[2_001], 1 << 16 | 5);
    assert_eq!(few.planes[0].tiles[..], tiles[..50 * 40]);
    let per_cell = (many_work - few_work) as f64 / f64::from(wide * 40);
    let bound = f64::from(fills + 2).log2() + 2.0;
    assert!(
        per_cell <= bound,
        "{per_cell} comparisons a cell, over {bound}"
    );
}

/// The attack's shape at 1x and 10x (tilesets and cells both ten times as many): ten
/// times the comparisons and a little more (12.7 times: the binary search's few more
/// steps), where a scan of the tilesets by each cell cost 99 times.
#[test]
fn many_tilesets_under_many_cells_cost_their_input() {
    let header = header();
    let (_, small) = counted(&cells_map(&header, 200, 100, 20));
    let (_, large) = counted(&cells_map(&header, 2_000, 100, 200));
    let ratio = large as f64 / small as f64;
    assert!(ratio < 15.0, "{small} then {large} comparisons: x{ratio}");
}

/// [`cells_map`] as TMJ (the map's properties those of the synthetic export's TMJ).
fn cells_tmj(fills: u32, wide: u32, high: u32) -> String {
    use serde_json::{Value, json};
    let data = wap_core::synth::level(3, 16, 16);
    let rez = wap_core::synth::level_archive(&data).unwrap();
    let source = ImageSource::Archive(RezFile::from_data(rez, &Default::default()).unwrap());
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let options = ExportOptions::default();
    let map = export(&level, &source, &options, &Limits::default())
        .unwrap()
        .map;
    let mut out = Vec::new();
    crate::tmj::write_tmj(&map, &mut out).unwrap();
    let exported: Value = serde_json::from_slice(&out).unwrap();
    let fill = |first: u32| json!({"firstgid": first, "name": "fill", "tilecount": 1});
    let mut tilesets = vec![
        fill(1),
        json!({"firstgid": 1, "name": "FRONT", "tilecount": 1,
            "properties": [{"name": "wwd_image_set", "type": "string", "value": "FRONT"}],
            "tiles": [{"id": 0, "properties": [{"name": "wwd_tile", "type": "int", "value": 5}]}]}),
    ];
    tilesets.extend((0..fills).rev().map(|k| fill(k + 2)));
    // The layer's properties as the TMX map's, each an int but the names.
    let xml = layer_properties(wide, high, &["ACTION", "FRONT"]);
    let props: Vec<Value> = xml
        .lines()
        .filter_map(|l| {
            let name = l.split("name=\"").nth(1)?.split('"').next()?;
            let value = l.split("value=\"").nth(1)?.split('"').next()?;
            Some(match value.parse::<i64>() {
                Ok(v) if l.contains("type=\"int\"") => {
                    json!({"name": name, "type": "int", "value": v})
                }
                _ => json!({"name": name, "type": "string", "value": value}),
            })
        })
        .collect();
    let cells: Vec<u32> = (0..wide * high).map(|k| 1 + k % (fills + 1)).collect();
    json!({"type": "map", "width": wide, "height": high,
        "properties": exported["properties"], "tilesets": tilesets,
        "layers": [{"type": "tilelayer", "name": "Action", "width": wide, "height": high,
            "properties": props, "data": cells}]})
    .to_string()
}

/// The same map as TMJ: the same level, the same bound a cell.
#[test]
fn tmj_cells_cost_the_same_search() {
    let header = header();
    let (level, _) = counted(&cells_map(&header, 500, 30, 20));
    let (a, b) = (cells_tmj(500, 30, 10), cells_tmj(500, 30, 20));
    probes::take();
    level_from_tmj(&a, &Limits::default()).unwrap();
    let one = probes::take();
    let back = level_from_tmj(&b, &Limits::default()).unwrap();
    let two = probes::take();
    assert_eq!(back.planes[0].tiles, level.planes[0].tiles);
    let per_cell = (two - one) as f64 / 300.0;
    assert!(per_cell <= f64::from(502u32).log2() + 2.0, "{per_cell}");
}

/// A map of one main plane and `objects` tile objects added in Tiled, all of tile 0 of the
/// tileset `objects`, whose tile has `extra` properties beside its logic, offset, score and
/// name. Object 2 has its own score and its name in hex.
fn objects_map(header: &str, objects: u32, extra: u32) -> String {
    let mut s = String::from("<?xml version=\"1.0\"?>\n<map width=\"1\" height=\"1\">\n");
    s.push_str(header);
    s.push_str(
        " <tileset firstgid=\"1\" name=\"objects\" tilecount=\"1\" objectalignment=\"topleft\">\n\
         \x20 <tile id=\"0\">\n   <properties>\n\
         \x20   <property name=\"wwd_logic\" value=\"Soldier\"/>\n\
         \x20   <property name=\"wwd_offset_x\" type=\"int\" value=\"3\"/>\n\
         \x20   <property name=\"wwd_offset_y\" type=\"int\" value=\"-2\"/>\n\
         \x20   <property name=\"wwd_score\" type=\"int\" value=\"7\"/>\n\
         \x20   <property name=\"wwd_name\" value=\"tile's\"/>\n",
    );
    for k in 0..extra {
        writeln!(s, "    <property name=\"p{k:06}\" value=\"{k}\"/>").unwrap();
    }
    s.push_str(
        "   </properties>\n   <image source=\"o.png\" width=\"32\" height=\"48\"/>\n  </tile>\n \
         </tileset>\n <layer name=\"Action\" width=\"1\" height=\"1\">\n",
    );
    s.push_str(&layer_properties(1, 1, &[]));
    s.push_str("  <data encoding=\"csv\">0</data>\n </layer>\n <objectgroup name=\"objects\">\n");
    for k in 1..=objects {
        write!(s, "  <object id=\"{k}\" gid=\"1\" x=\"{k}\" y=\"10\"").unwrap();
        if k == 2 {
            s.push_str(
                "><properties><property name=\"wwd_score\" type=\"int\" value=\"9\"/>\
                 <property name=\"wwd_name_hex\" value=\"4142\"/></properties></object>\n",
            );
        } else {
            s.push_str("/>\n");
        }
    }
    s.push_str(" </objectgroup>\n</map>\n");
    s
}

/// An object's properties are its own, then its tile's looked up (not copied and sorted
/// again for each object): the comparisons an object costs grow with the logarithm of its
/// tile's properties, not with their number: 425 then 637 here, where a copy and sort of
/// the tile's properties by each object, as before, cost 747 then 6,659.
#[test]
fn an_object_looks_its_tiles_properties_up() {
    let header = header();
    let per_object = |extra: u32| {
        let (level, one) = counted(&objects_map(&header, 50, extra));
        let (_, two) = counted(&objects_map(&header, 100, extra));
        let objects = &level.planes[0].objects;
        assert_eq!(objects.len(), 50);
        // Inherited from the tile where the object has none of its own: logic, score,
        // name; object 2's own score and name (in hex, over the tile's wwd_name).
        assert_eq!(objects[0].logic, b"Soldier");
        assert_eq!(objects[0].fixed.score.get(), 7);
        // Its name is its own (`name`, here none), not the tile's.
        assert_eq!(objects[0].name, b"");
        assert_eq!(objects[1].fixed.score.get(), 9);
        assert_eq!(objects[1].name, b"AB");
        // Placed by the tile's offset: x = 1 + 16 - 3.
        assert_eq!(objects[0].fixed.x.get(), 14);
        (two - one) as f64 / 50.0
    };
    let (small, large) = (per_object(100), per_object(2_000));
    // log2(2,000) / log2(100) = 1.65.
    assert!(
        large < small * 1.7,
        "{small} comparisons an object, then {large}"
    );
}

/// The attack's shape at 1x and 10x (objects and the tile's properties both ten times as
/// many): ten times the comparisons and a little more (13.2 times), where a copy and sort
/// of the tile's properties by each object cost 54 times.
#[test]
fn many_objects_of_a_tile_of_many_properties_cost_their_input() {
    let header = header();
    let (_, small) = counted(&objects_map(&header, 150, 150));
    let (_, large) = counted(&objects_map(&header, 1_500, 1_500));
    let ratio = large as f64 / small as f64;
    assert!(ratio < 15.0, "{small} then {large} comparisons: x{ratio}");
}

/// A map of one main plane and an object layer named `layer` of `objects` points added in
/// Tiled (a class, nothing else); the last rotated when `rotated`.
fn named_layer_map(header: &str, layer: &str, objects: u32, rotated: bool) -> String {
    let mut s = String::from("<?xml version=\"1.0\"?>\n<map width=\"1\" height=\"1\">\n");
    s.push_str(header);
    s.push_str(" <layer name=\"Action\" width=\"1\" height=\"1\">\n");
    s.push_str(&layer_properties(1, 1, &[]));
    s.push_str("  <data encoding=\"csv\">0</data>\n </layer>\n");
    writeln!(s, " <objectgroup name=\"{layer}\">").unwrap();
    for k in 1..=objects {
        let turn = if rotated && k == objects {
            " rotation=\"90\""
        } else {
            ""
        };
        writeln!(
            s,
            "  <object id=\"{k}\" type=\"Soldier\" x=\"{k}\" y=\"5\"{turn}><point/></object>"
        )
        .unwrap();
    }
    s.push_str(" </objectgroup>\n</map>\n");
    s
}

/// What an object's errors name (its id and its layer's name) is written out only for an
/// error: objects of a layer with a long name do not each copy it (as they did: 200 x
/// 100,000 bytes here), and the error names it once.
#[test]
fn an_objects_layer_name_is_written_out_only_for_an_error() {
    let header = header();
    let name = "n".repeat(100_000);
    probes::take_named();
    let level = level_from_tmx(
        &named_layer_map(&header, &name, 200, false),
        &Limits::default(),
    )
    .unwrap();
    assert_eq!(level.planes[0].objects.len(), 200);
    assert_eq!(level.planes[0].objects[0].logic, b"Soldier");
    assert_eq!(probes::take_named(), 0);
    let err = level_from_tmx(
        &named_layer_map(&header, &name, 200, true),
        &Limits::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.starts_with("object 200 of layer \"nnn"),
        "{}",
        &err[..40]
    );
    assert!(err.contains(": rotation"));
    assert_eq!(probes::take_named(), 100_000);
}
