//! The export's contract on crafted levels: any bytes export or give an error, never a
//! panic; the output stays within the bounds `gamedata_tiled::wwd` documents.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use gamedata_testkit::MutationPlan;
use gamedata_tiled::TiledError;
use gamedata_tiled::map::LayerData;
use gamedata_tiled::wwd::{ExportOptions, export};
use wap_core::{ImageSource, Level, Limits, RezFile};

fn source(data: &wap_core::LevelData) -> ImageSource {
    let rez = wap_core::synth::level_archive(data).unwrap();
    ImageSource::Archive(RezFile::from_data(rez, &Default::default()).unwrap())
}

/// Exports `image` (a level's decoded image) if it parses, and writes the map both ways.
fn export_any(image: &[u8], source: &ImageSource, limits: &Limits) {
    let Ok(level) = Level::parse(image) else {
        return;
    };
    if let Ok(export) = export(&level, source, &ExportOptions::default(), limits) {
        gamedata_tiled::tmx::write_tmx(&export.map, std::io::sink()).unwrap();
        gamedata_tiled::tmj::write_tmj(&export.map, std::io::sink()).unwrap();
        // Each tile layer holds the map's cells.
        let cells = (export.map.width * export.map.height) as usize;
        for layer in &export.map.layers {
            if let LayerData::Tiles(data) = &layer.data {
                assert_eq!(data.len(), cells);
            }
        }
    }
}

#[test]
fn mutated_levels_export_or_fail_without_panicking() {
    let data = wap_core::synth::level(3, 16, 16);
    let source = source(&data);
    let image = data.image().unwrap();
    let limits = Limits::default().with_max_decoded_bytes(64 << 20);
    let plan = MutationPlan {
        byte_changes: 400,
        bit_flips: 400,
        ..MutationPlan::default()
    };
    let runs = gamedata_testkit::replay_mutations("tiled-wwd", &image, plan, |bytes| {
        export_any(bytes, &source, &limits);
    });
    assert!(runs > 800, "{runs} inputs");
}

/// A level of many planes: the layers' cells are refused past `max_decoded_bytes / 4`
/// before anything is made; within it, one tile layer a plane.
#[test]
fn the_layers_cells_are_bounded_by_the_limits() {
    let data = wap_core::synth::level(3, 16, 16);
    let stacked = wap_core::synth::stacked_planes(&data, 40, 64, 32).unwrap();
    let source = source(&data);
    let image = stacked.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let planes = level.plane_count() as u64;
    let cells = 64 * 32 * planes;
    let tight = Limits::default().with_max_decoded_bytes(cells * 4 - 4);
    match export(&level, &source, &ExportOptions::default(), &tight) {
        Err(TiledError::TooLarge { found, limit, .. }) => {
            assert_eq!((found, limit), (cells, cells - 1));
        }
        other => panic!("expected TooLarge, got {other:?}"),
    }
    let export = export(
        &level,
        &source,
        &ExportOptions::default(),
        &Limits::default(),
    )
    .unwrap();
    let tile_layers = export
        .map
        .layers
        .iter()
        .filter(|l| matches!(l.data, LayerData::Tiles(_)))
        .count() as u64;
    assert_eq!(tile_layers, planes);
}

/// The planes read back share one bound on their tiles: 40 stacked planes, each far
/// below the limit alone, are read within the main block they make and refused 1 tile
/// under their sum (the last plane then finds only what the others left), in TMX and TMJ.
#[test]
fn the_planes_read_back_share_one_bound_on_their_tiles() {
    let data = wap_core::synth::level(3, 16, 16);
    let stacked = wap_core::synth::stacked_planes(&data, 40, 64, 32).unwrap();
    let image = stacked.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let export = export(
        &level,
        &source(&data),
        &ExportOptions::default(),
        &Limits::default(),
    )
    .unwrap();
    let mut tmx = Vec::new();
    gamedata_tiled::tmx::write_tmx(&export.map, &mut tmx).unwrap();
    let mut tmj = Vec::new();
    gamedata_tiled::tmj::write_tmj(&export.map, &mut tmj).unwrap();
    for (form, text) in [("tmx", tmx), ("tmj", tmj)] {
        let text = String::from_utf8(text).unwrap();
        let read = |limits: &Limits| match form {
            "tmx" => gamedata_tiled::from_tmx::level_from_tmx(&text, limits),
            _ => gamedata_tiled::from_tmx::level_from_tmj(&text, limits),
        };
        let back = read(&Limits::default()).unwrap();
        let sizes: Vec<u64> = back.planes.iter().map(|p| p.tiles.len() as u64).collect();
        let total: u64 = sizes.iter().sum();
        let last = *sizes.last().unwrap();
        assert!(
            sizes.len() == 40 && last > 0 && last * 10 < total,
            "{sizes:?}"
        );
        // The bound is the level's main block (what the level reader decodes): the planes
        // are charged their headers, tiles and names, the objects their records (and the
        // tile property table's header) as they are read, the whole block once the level
        // is made.
        let planes: u64 = back
            .planes
            .iter()
            .map(|p| 160 + p.image_sets.iter().map(|n| n.len() as u64 + 1).sum::<u64>())
            .sum();
        // The objects, read before the last plane, count with it.
        let objects: u64 = back
            .planes
            .iter()
            .flat_map(|p| &p.objects)
            .map(|o| {
                284 + (o.name.len() + o.logic.len() + o.image_set.len() + o.animation.len()) as u64
            })
            .sum();
        let need = 32 + planes + objects + total * 4;
        let block = back.main_block().unwrap().len() as u64;
        assert!(read(&Limits::default().with_max_decoded_bytes(block)).is_ok());
        match read(&Limits::default().with_max_decoded_bytes(block - 1)) {
            Err(TiledError::TooLarge { found, limit, .. }) => {
                assert_eq!((found, limit), (block, block - 1), "{form}");
            }
            other => panic!("{form}: expected TooLarge, got {other:?}"),
        }
        match read(&Limits::default().with_max_decoded_bytes(need - 4)) {
            Err(TiledError::TooLarge { found, limit, .. }) => {
                assert_eq!((found, limit), (last, last - 1), "{form}");
            }
            other => panic!("{form}: expected TooLarge, got {other:?}"),
        }
    }
}

/// A level without a main plane, and one whose planes' tile sizes differ, are refused by
/// name.
#[test]
fn a_map_needs_one_grid() {
    let mut data = wap_core::synth::level(3, 16, 16);
    let source = source(&data);
    data.planes[2].header.tile_width.set(32);
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let err = export(
        &level,
        &source,
        &ExportOptions::default(),
        &Limits::default(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            TiledError::TileSize {
                plane: 2,
                width: 32,
                height: 64,
                ..
            }
        ),
        "{err}"
    );
    for plane in &mut data.planes {
        let flags = plane.header.flags.get();
        plane.header.flags.set(flags & !1);
    }
    data.planes[2].header.tile_width.set(64);
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let err = export(
        &level,
        &source,
        &ExportOptions::default(),
        &Limits::default(),
    )
    .unwrap_err();
    assert!(matches!(err, TiledError::NoMainPlane), "{err}");
}

/// The map keeps the tile property table as stored: the level's bytes from the table's
/// offset to the end (the writer puts it last).
#[test]
fn the_tile_property_table_is_kept_whole() {
    let data = wap_core::synth::level(3, 16, 16);
    let source = source(&data);
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let export = export(
        &level,
        &source,
        &ExportOptions::default(),
        &Limits::default(),
    )
    .unwrap();
    let hex = export
        .map
        .properties
        .iter()
        .find(|p| p.name == "wwd_tile_properties")
        .map(|p| match &p.value {
            gamedata_tiled::map::Value::String(s) => s.clone(),
            other => panic!("{other:?}"),
        })
        .unwrap();
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    let offset = level.header().raw().tile_properties_offset.get() as usize;
    assert_eq!(bytes, image[offset..]);
    assert!(bytes.len() > 32);
}

/// The TMX export of a small synthetic level.
fn small_tmx() -> String {
    let data = wap_core::synth::level(3, 16, 16);
    let source = source(&data);
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let export = export(
        &level,
        &source,
        &ExportOptions::default(),
        &Limits::default(),
    )
    .unwrap();
    let mut tmx = Vec::new();
    gamedata_tiled::tmx::write_tmx(&export.map, &mut tmx).unwrap();
    String::from_utf8(tmx).unwrap()
}

/// Crafted maps: a document type (where XML bombs live) is refused, a missing property
/// or a bad value is named, a plane past the limits is refused before its tiles are made.
#[test]
fn crafted_maps_are_refused_by_name() {
    use gamedata_tiled::from_tmx::level_from_tmx;
    let limits = Limits::default();
    let bomb = "<?xml version=\"1.0\"?><!DOCTYPE m [<!ENTITY a \"aaaaaaaa\">\
                <!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">]><map>&b;</map>";
    let err = level_from_tmx(bomb, &limits).unwrap_err().to_string();
    assert!(err.contains("a document type"), "{err}");
    let err = level_from_tmx("<tileset/>", &limits)
        .unwrap_err()
        .to_string();
    assert!(err.contains("no <map>"), "{err}");
    let tmx = small_tmx();
    assert!(level_from_tmx(&tmx, &limits).is_ok());
    let no_name = tmx.replacen("name=\"wwd_name\"", "name=\"wwd_nom\"", 1);
    let err = level_from_tmx(&no_name, &limits).unwrap_err().to_string();
    assert_eq!(
        err,
        "the map: property wwd_name: found none, expected the property"
    );
    // The background plane, 16 tiles wide and high, made 2 billion tiles wide.
    let huge = tmx.replacen(
        "name=\"wwd_tiles_wide\" type=\"int\" value=\"16\"",
        "name=\"wwd_tiles_wide\" type=\"int\" value=\"2000000000\"",
        1,
    );
    assert_ne!(huge, tmx);
    match level_from_tmx(&huge, &limits) {
        Err(TiledError::TooLarge { found, .. }) => assert_eq!(found, 2_000_000_000 * 16),
        other => panic!("expected TooLarge, got {other:?}"),
    }
    let flipped = tmx.replacen("\n1,", &format!("\n{},", 1u32 | 0x8000_0000), 1);
    assert_ne!(flipped, tmx);
    let err = level_from_tmx(&flipped, &limits).unwrap_err().to_string();
    assert!(err.contains("flipped"), "{err}");
}

#[test]
fn mutated_maps_read_back_or_fail_without_panicking() {
    let tmx = small_tmx();
    let limits = Limits::default();
    let plan = MutationPlan {
        byte_changes: 300,
        bit_flips: 300,
        ..MutationPlan::default()
    };
    let runs = gamedata_testkit::replay_mutations("tiled-tmx", tmx.as_bytes(), plan, |bytes| {
        if let Ok(text) = std::str::from_utf8(bytes) {
            let _ = gamedata_tiled::from_tmx::level_from_tmx(text, &limits);
        }
    });
    assert!(runs > 600, "{runs} inputs");
}

/// The TMJ export of the small synthetic level.
fn small_tmj() -> String {
    let data = wap_core::synth::level(3, 16, 16);
    let source = source(&data);
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let export = export(
        &level,
        &source,
        &ExportOptions::default(),
        &Limits::default(),
    )
    .unwrap();
    let mut tmj = Vec::new();
    gamedata_tiled::tmj::write_tmj(&export.map, &mut tmj).unwrap();
    String::from_utf8(tmj).unwrap()
}

/// TMJ: the elements it stands for are counted against `Limits::max_records`, a layer's
/// data must be ids, mutated text reads back or fails without a panic.
#[test]
fn tmj_maps_are_bounded_and_mutations_fail_without_panicking() {
    use gamedata_tiled::from_tmx::level_from_tmj;
    let tmj = small_tmj();
    let limits = Limits::default();
    assert!(level_from_tmj(&tmj, &limits).is_ok());
    let few = Limits::default().with_max_records(50);
    match level_from_tmj(&tmj, &few) {
        Err(TiledError::TooLarge { limit, .. }) => assert_eq!(limit, 50),
        other => panic!("expected TooLarge, got {other:?}"),
    }
    let err = level_from_tmj("[1]", &limits).unwrap_err().to_string();
    assert!(err.contains("a TMJ map"), "{err}");
    let negative = tmj.replacen("\"data\":[", "\"data\":[-1,", 1);
    assert_ne!(negative, tmj);
    let err = level_from_tmj(&negative, &limits).unwrap_err().to_string();
    assert!(err.contains("data[0]"), "{err}");
    let plan = MutationPlan {
        byte_changes: 300,
        bit_flips: 300,
        ..MutationPlan::default()
    };
    let runs = gamedata_testkit::replay_mutations("tiled-tmj", tmj.as_bytes(), plan, |bytes| {
        if let Ok(text) = std::str::from_utf8(bytes) {
            let _ = level_from_tmj(text, &limits);
        }
    });
    assert!(runs > 600, "{runs} inputs");
}

/// The map's `<properties>` of the small synthetic level's TMX (a header that reads).
fn small_header() -> String {
    let tmx = small_tmx();
    let start = tmx.find(" <properties>").unwrap();
    let end = tmx.find(" </properties>\n").unwrap() + " </properties>\n".len();
    tmx[start..end].to_owned()
}

/// A tile layer of one cell, the main plane, with the properties a plane needs.
fn one_cell_layer() -> String {
    let mut out =
        String::from(" <layer name=\"Action\" width=\"1\" height=\"1\">\n  <properties>\n");
    for (k, v) in [
        ("wwd_size", 160),
        ("wwd_flags", 1),
        ("wwd_tile_width", 64),
        ("wwd_tile_height", 64),
        ("wwd_tiles_wide", 1),
        ("wwd_tiles_high", 1),
        ("wwd_image_set_count", 0),
    ] {
        out += &format!("   <property name=\"{k}\" type=\"int\" value=\"{v}\"/>\n");
    }
    for k in "reserved1 reserved2 width_px height_px reserved3 reserved4 movement_x_percent \
              movement_y_percent fill_color z reserved5 reserved6 reserved7"
        .split_whitespace()
    {
        out += &format!("   <property name=\"wwd_{k}\" type=\"int\" value=\"0\"/>\n");
    }
    out += "   <property name=\"wwd_name\" value=\"Action\"/>\n  </properties>\n";
    out += "  <data encoding=\"csv\">0</data>\n </layer>\n";
    out
}

/// Tile objects take their tile's properties where they have none of their own: a tile
/// whose `wwd_image_set` and `wwd_animation` are 20,000 bytes each, under 2,000 tile
/// objects of 30 bytes each (a 100 KB map), made a level whose objects hold 80 MB of text
/// (each object a copy of both), past the map's bytes + 64 MiB + `max_decoded_bytes`
/// (4 MiB here). The command at 10 times (`findings/craft_attack1.py inherit`): a 467 KB
/// map read into 1.57 GB resident and written as an 800 MB level. The objects' bytes must
/// be bounded (refused past the limits) as the planes' tiles are.
#[test]
fn tile_objects_do_not_multiply_their_tiles_text_past_the_limits() {
    use gamedata_tiled::from_tmx::level_from_tmx;
    let big = "A".repeat(20_000);
    let mut tmx = String::from("<?xml version=\"1.0\"?>\n<map width=\"1\" height=\"1\">\n");
    tmx += &small_header();
    tmx += " <tileset firstgid=\"1\" name=\"objects\" tilecount=\"1\" \
            objectalignment=\"topleft\">\n  <tile id=\"0\">\n   <properties>\n\
            <property name=\"wwd_logic\" value=\"Soldier\"/>\n\
            <property name=\"wwd_offset_x\" type=\"int\" value=\"0\"/>\n\
            <property name=\"wwd_offset_y\" type=\"int\" value=\"0\"/>\n";
    tmx += &format!("<property name=\"wwd_image_set\" value=\"{big}\"/>\n");
    tmx += &format!("<property name=\"wwd_animation\" value=\"{big}\"/>\n");
    tmx += "   </properties>\n   <image source=\"o.png\" width=\"32\" height=\"48\"/>\n\
            </tile>\n </tileset>\n";
    tmx += &one_cell_layer();
    tmx += " <objectgroup name=\"o\">\n";
    for k in 1..=2_000 {
        tmx += &format!("<object id=\"{k}\" gid=\"1\"/>\n");
    }
    tmx += " </objectgroup>\n</map>\n";
    let limits = Limits::default().with_max_decoded_bytes(4 << 20);
    let bound = tmx.len() as u64 + (64 << 20) + limits.max_decoded_bytes;
    match level_from_tmx(&tmx, &limits) {
        Err(TiledError::TooLarge { .. }) => {}
        Err(e) => panic!("expected TooLarge or a level within the bound, got {e}"),
        Ok(level) => {
            let objects: Vec<_> = level.planes.iter().flat_map(|p| &p.objects).collect();
            let text: u64 = objects
                .iter()
                .map(|o| {
                    (o.name.len() + o.logic.len() + o.image_set.len() + o.animation.len()) as u64
                })
                .sum();
            assert!(
                text <= bound,
                "{} objects hold {text} bytes of text, from a map of {} bytes (bound {bound})",
                objects.len(),
                tmx.len()
            );
        }
    }
}
