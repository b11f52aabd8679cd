//! `gamedata wwd render|tiles --rez`: levels drawn with their graphics from archives built
//! here, shaped like CLAW.REZ from `claw-image-sets.dict` (the real paths, sizes and
//! offsets, synthetic pixels: `wap_core::synth::image_archive`).

use std::path::Path;

use wap_core::synth::{SynthImage, image_archive};
use wap_core::{DrawFlags, LevelFile, PlaneFlags, Tile};

use super::*;

/// SYNTH.REZ in `dir`: every image of the list and each retail level's palette.
fn synth_rez(dir: &Path) -> std::path::PathBuf {
    let text =
        std::fs::read_to_string(gamedata_testkit::require_file("wap32/claw-image-sets.dict"))
            .unwrap();
    let images = gamedata_testkit::claw_images(&text);
    let entries: Vec<SynthImage<'_>> = images
        .iter()
        .map(|(p, s, o)| (p.as_str(), *s, *o))
        .collect();
    let palettes: Vec<String> = (1..=14)
        .map(|n| format!("LEVEL{n}/PALETTES/MAIN.PAL"))
        .collect();
    let palettes: Vec<&str> = palettes.iter().map(String::as_str).collect();
    let path = dir.join("SYNTH.REZ");
    std::fs::write(&path, image_archive(&entries, &palettes).unwrap()).unwrap();
    path
}

/// Tiles of the level's drawn planes that are not invisible.
fn visible_tiles(level: &Path) -> u64 {
    let file = LevelFile::open(level).unwrap();
    let level = file.level().unwrap();
    let mut n = 0;
    for plane in level.planes() {
        let plane = plane.unwrap();
        if plane.flags().contains(PlaneFlags::NO_DRAW) {
            continue;
        }
        n += plane
            .tiles()
            .iter()
            .filter(|t| Tile::from_raw(t.get()) != Tile::Invisible)
            .count() as u64;
    }
    n
}

/// Objects without the no-draw flag.
fn drawable_objects(level: &Path) -> u64 {
    let file = LevelFile::open(level).unwrap();
    let level = file.level().unwrap();
    let mut n = 0;
    for plane in level.planes() {
        for object in plane.unwrap().objects() {
            n += u64::from(!object.unwrap().draw_flags().contains(DrawFlags::NO_DRAW));
        }
    }
    n
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn retail01_is_drawn_whole_from_an_archive_shaped_like_claw_rez() {
    let dir = tempfile::tempdir().unwrap();
    let rez = synth_rez(dir.path());
    let level = gamedata_testkit::require_file("wwd/RETAIL01.WWD");
    let png = dir.path().join("r01.png");
    let report = stdout_json(&gamedata(
        &[
            "wwd",
            "render",
            level.to_str().unwrap(),
            "--rez",
            rez.to_str().unwrap(),
            "-o",
            png.to_str().unwrap(),
            "--tile-px",
            "4",
            "--json",
        ],
        dir.path(),
    ));
    assert_eq!(
        (report["width"].as_u64(), report["height"].as_u64()),
        (Some(384 * 4), Some(96 * 4))
    );
    assert_eq!(png_size(&png), (384 * 4, 96 * 4));
    // Every tile the level's planes draw is in the archive; every object but the 81 the
    // level flags not to be drawn and the two candelabras whose folder CLAW.REZ lacks (see
    // wap-core's image_names test).
    assert_eq!(report["tiles_drawn"].as_u64(), Some(visible_tiles(&level)));
    assert_eq!(drawable_objects(&level), 1479 - 81);
    assert_eq!(report["objects_drawn"].as_u64(), Some(1479 - 81 - 2));
    assert_eq!(report["missing_images"], 2);
    assert_eq!(
        report["missing"],
        serde_json::json!(["LEVEL1_IMAGES_CANDELABRASINGLE frame -1"])
    );
    // Without objects, and from a folder of the extracted level: the same tiles.
    let out = dir.path().join("x");
    gamedata_ok(
        &[
            "rez",
            "extract",
            rez.to_str().unwrap(),
            "/",
            "-o",
            out.to_str().unwrap(),
        ],
        dir.path(),
    );
    let folder = out.join("SYNTH");
    let bare = dir.path().join("bare.png");
    let report = stdout_json(&gamedata(
        &[
            "wwd",
            "render",
            level.to_str().unwrap(),
            "--images",
            folder.to_str().unwrap(),
            "--no-objects",
            "-o",
            bare.to_str().unwrap(),
            "--tile-px",
            "4",
            "--json",
        ],
        dir.path(),
    ));
    assert_eq!(report["tiles_drawn"].as_u64(), Some(visible_tiles(&level)));
    assert_eq!(
        (
            report["objects_drawn"].as_u64(),
            report["missing_images"].as_u64()
        ),
        (Some(0), Some(0))
    );
    assert_ne!(png_pixels(&bare), png_pixels(&png));
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files and Debian's chromium"]
fn retail01_s_full_size_pyramid_opens_in_a_headless_browser() {
    let dir = tempfile::tempdir().unwrap();
    let rez = synth_rez(dir.path());
    let level = gamedata_testkit::require_file("wwd/RETAIL01.WWD");
    let web = dir.path().join("web");
    let report = stdout_json(&gamedata(
        &[
            "wwd",
            "tiles",
            level.to_str().unwrap(),
            "--rez",
            rez.to_str().unwrap(),
            "-o",
            web.to_str().unwrap(),
            "--json",
        ],
        dir.path(),
    ));
    // Every game pixel at the native zoom: 24,576 x 6,144, 96 x 24 tiles there.
    assert_eq!(
        (report["width"].as_u64(), report["height"].as_u64()),
        (Some(24_576), Some(6_144))
    );
    assert_eq!(report["objects_drawn"].as_u64(), Some(1479 - 81 - 2));
    assert_eq!(report["missing_images"], 2);
    assert!(
        web.join(format!("{}/95/23.png", report["native_zoom"]))
            .is_file()
    );
    let (share, colours) = super::web::browser_map_share(&web.join("index.html"));
    assert!(
        share > 0.2,
        "{:.1} % of the screenshot is map",
        share * 100.0
    );
    assert!(colours >= 8, "{colours} map colours");
}
