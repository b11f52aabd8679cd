//! What the import holds while it reads, counted without timing: the elements alive at
//! once stay the same whatever the number of objects or cells (one layer's or one object's
//! at a time, beside the map's properties and tilesets); and the errors of a document come
//! in the order they did when it was read whole first.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use wap_core::{ImageSource, Level, LevelData, Limits, RezFile};

use super::element::live;
use super::{level_from_tmj, level_from_tmx};
use crate::map::{LayerData, Map, MapObject, Property};
use crate::wwd::{ExportOptions, export};

/// The export of a synthetic level `wide` x `high` tiles with `added` point objects added
/// at the end of its first object layer, as TMX and TMJ.
fn exported(wide: u32, high: u32, added: u32) -> (String, String) {
    let data = wap_core::synth::level(3, wide, high);
    let rez = wap_core::synth::level_archive(&data).unwrap();
    let source = ImageSource::Archive(RezFile::from_data(rez, &Default::default()).unwrap());
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let mut map = export(
        &level,
        &source,
        &ExportOptions::default(),
        &Limits::default(),
    )
    .unwrap()
    .map;
    add_points(&mut map, added);
    let mut tmx = Vec::new();
    crate::tmx::write_tmx(&map, &mut tmx).unwrap();
    let mut tmj = Vec::new();
    crate::tmj::write_tmj(&map, &mut tmj).unwrap();
    (
        String::from_utf8(tmx).unwrap(),
        String::from_utf8(tmj).unwrap(),
    )
}

/// `n` points added in Tiled (a logic, nothing else) at the end of the first object layer.
fn add_points(map: &mut Map, n: u32) {
    let first = map.next_object_id();
    let objects = map
        .layers
        .iter_mut()
        .find_map(|l| match &mut l.data {
            LayerData::Objects(o) => Some(o),
            _ => None,
        })
        .unwrap();
    for k in 0..n {
        objects.push(MapObject {
            id: first + k,
            name: String::new(),
            class: String::new(),
            gid: None,
            x: i64::from(k % 500) * 7,
            y: i64::from(k / 500) * 5,
            width: 0,
            height: 0,
            visible: true,
            properties: vec![Property::string("wwd_logic", "Soldier")],
        });
    }
}

fn objects(level: &LevelData) -> usize {
    level.planes.iter().map(|p| p.objects.len()).sum()
}

/// The level `read` reads from `text`, and the most elements alive at once meanwhile.
fn peak(
    read: fn(&str, &Limits) -> Result<LevelData, crate::TiledError>,
    text: &str,
) -> (LevelData, usize) {
    live::take_peak();
    let level = read(text, &Limits::default()).unwrap();
    (level, live::take_peak())
}

/// Elements in a TMX text (its start and empty tags).
fn tags(tmx: &str) -> usize {
    tmx.matches('<').count() - tmx.matches("</").count() - tmx.matches("<?").count()
}

/// Elements of the tilesets of a TMX text.
fn tileset_tags(tmx: &str) -> usize {
    let (start, end) = (tmx.find("<tileset").unwrap(), tmx.find("<layer").unwrap());
    tags(&tmx[start..end])
}

#[test]
fn the_elements_held_do_not_grow_with_the_objects_or_the_cells() {
    let (few_tmx, few_tmj) = exported(16, 16, 10);
    let (many_tmx, many_tmj) = exported(16, 16, 2_000);
    let (wide_tmx, wide_tmj) = exported(400, 300, 10);
    // A larger level has more distinct tiles in its tilesets; their elements are not kept
    // (what the import needs of each tile is), so what is held is the map's properties
    // and one tileset, layer or object.
    let (sets_few, sets_wide) = (tileset_tags(&few_tmx), tileset_tags(&wide_tmx));
    assert!(sets_wide > sets_few);
    for (read, few, many, wide) in [
        (
            level_from_tmx as fn(&str, &Limits) -> _,
            &few_tmx,
            &many_tmx,
            &wide_tmx,
        ),
        (level_from_tmj, &few_tmj, &many_tmj, &wide_tmj),
    ] {
        let (a, held_few) = peak(read, few);
        let (b, held_many) = peak(read, many);
        let (_, held_wide) = peak(read, wide);
        assert_eq!(objects(&b), objects(&a) + 1_990);
        // The same elements at most, whatever the objects; whatever the cells (470 times
        // as many) and the tilesets' tiles.
        assert_eq!(held_many, held_few);
        assert_eq!(held_wide, held_few);
        assert!(
            held_many * 20 < tags(&many_tmx),
            "{held_many} of {}",
            tags(&many_tmx)
        );
    }
}

/// A TMX map's properties may come anywhere among its children (the header is read at
/// the end); a tileset after a layer is an error naming it (the layers are read as they
/// come, through the tilesets before them).
#[test]
fn children_out_of_tileds_order() {
    let (tmx, _) = exported(16, 16, 0);
    let level = level_from_tmx(&tmx, &Limits::default()).unwrap();
    let props = tmx.find(" <properties>").unwrap();
    let props_end = tmx.find(" </properties>").unwrap() + " </properties>\n".len();
    let mut late = tmx.clone();
    late.insert_str(late.find("</map>").unwrap(), &tmx[props..props_end]);
    late.replace_range(props..props_end, "");
    let back = level_from_tmx(&late, &Limits::default()).unwrap();
    assert_eq!(back.image().unwrap(), level.image().unwrap());
    let mut late = tmx.clone();
    let tileset = "<tileset firstgid=\"90000\" name=\"late\" tilecount=\"1\"/>";
    late.insert_str(late.find("</map>").unwrap(), tileset);
    let err = level_from_tmx(&late, &Limits::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("tileset \"late\"") && err.contains("found it after a layer"),
        "{err}"
    );
}

/// A map wrong early and badly formed later is the XML's error (TMX) or the JSON's (TMJ),
/// as when the whole document was read before the map.
#[test]
fn the_documents_errors_come_before_the_maps() {
    let (tmx, tmj) = exported(16, 16, 0);
    let wrong = tmx.replacen("name=\"wwd_name\"", "name=\"wwd_nom\"", 1);
    let err = level_from_tmx(&wrong, &Limits::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("property wwd_name"), "{err}");
    let broken = wrong.replace("</map>", "</map><late>");
    let err = level_from_tmx(&broken, &Limits::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("unclosed elements"), "{err}");
    let few = Limits::default().with_max_records(u64::try_from(tags(&tmx) - 1).unwrap());
    let err = level_from_tmx(&wrong, &few).unwrap_err().to_string();
    assert!(err.contains("XML elements"), "{err}");

    let wrong = tmj.replacen("\"name\":\"wwd_name\"", "\"name\":\"wwd_nom\"", 1);
    assert_ne!(wrong, tmj);
    let err = level_from_tmj(&wrong, &Limits::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("property wwd_name"), "{err}");
    let at = wrong.rfind("\"data\":[").unwrap() + "\"data\":[".len();
    let mut bad_cell = wrong.clone();
    bad_cell.insert_str(at, "-1,");
    let err = level_from_tmj(&bad_cell, &Limits::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("data[0]"), "{err}");
    let mut bad_json = wrong;
    bad_json.push_str("{[1e400]}");
    let err = level_from_tmj(&bad_json, &Limits::default())
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("the JSON"), "{err}");
}
