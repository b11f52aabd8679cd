//! `wwd::Scene` on RETAIL01 with an archive shaped like CLAW.REZ (`claw-image-sets.dict`'s
//! paths, sizes and offsets; each image one colour from its path, its top-left pixel
//! transparent): where each object lands, computed here from the level's bytes and the
//! list, not through the renderer's naming or placement.

use std::collections::HashMap;

use gamedata_render::Region;
use gamedata_render::wap_core::synth::{SynthImage, image_archive};
use gamedata_render::wap_core::{DrawFlags, ImageSource, LevelFile, Limits, RezFile};
use gamedata_render::wwd::{Scene, SceneOptions, View};
use wap_core::LevelData;

use crate::engine::{Camera, RefArchive, RefImage, assert_same};

/// `claw-image-sets.dict`'s images (path, size, offset) and an archive of them with the
/// palettes at `palettes` (`wap_core::synth::image_archive`).
fn claw_like(palettes: &[&str]) -> (Vec<gamedata_testkit::ClawImage>, ImageSource) {
    let text =
        std::fs::read_to_string(gamedata_testkit::require_file("wap32/claw-image-sets.dict"))
            .unwrap();
    let images = gamedata_testkit::claw_images(&text);
    let entries: Vec<SynthImage<'_>> = images
        .iter()
        .map(|(p, s, o)| (p.as_str(), *s, *o))
        .collect();
    let rez = image_archive(&entries, palettes).unwrap();
    (
        images,
        ImageSource::Archive(RezFile::from_data(rez, &Default::default()).unwrap()),
    )
}

/// `claw-image-sets.dict`'s images made lopsided ([`RefImage::lopsided`]: offsets,
/// transparent corners, a gradient), each folder stored in reverse name order, with the
/// palettes at `palettes`.
pub(crate) fn claw_lopsided(palettes: &[&str]) -> RefArchive {
    claw_lopsided_with(palettes, Vec::new())
}

/// The same with the animations `anis` (path, records).
pub(crate) fn claw_lopsided_with(
    palettes: &[&str],
    anis: Vec<(String, Vec<gamedata_testkit::ani::Record>)>,
) -> RefArchive {
    let text =
        std::fs::read_to_string(gamedata_testkit::require_file("wap32/claw-image-sets.dict"))
            .unwrap();
    let mut images: Vec<RefImage> = gamedata_testkit::claw_images(&text)
        .iter()
        .map(|(path, (w, h), _)| RefImage::lopsided(path, *w, *h))
        .collect();
    images.sort_by(|a, b| b.path.cmp(&a.path));
    RefArchive::build_full(images, palettes, false, anis)
}

/// Regions of the whole picture at the tile size to compare: around the first objects of
/// each kind of draw flags, and spread over the level.
fn regions(level: &gamedata_render::wap_core::Level<'_>, width: u32, height: u32) -> Vec<Region> {
    let main = level.main_plane().unwrap().unwrap();
    let mut centres = Vec::new();
    for wanted in [0u32, 2, 4, 6] {
        centres.extend(
            main.objects()
                .map(Result::unwrap)
                .filter(|o| o.draw_flags().bits() & 6 == wanted)
                .take(2)
                .map(|o| o.position()),
        );
    }
    for k in 0..6i32 {
        centres.push((
            (width as i32) * (2 * k + 1) / 12,
            (height as i32) * ((k * 5) % 6 + 1) / 7,
        ));
    }
    centres
        .into_iter()
        .map(|(x, y)| {
            let side = 384u32;
            let x = (x - 192).clamp(0, width.saturating_sub(side) as i32) as u32;
            let y = (y - 192).clamp(0, height.saturating_sub(side) as i32) as u32;
            Region::new(x, y, side.min(width), side.min(height))
        })
        .collect()
}

/// Every retail level drawn from a lopsided archive shaped like CLAW.REZ equals the
/// engine's rules pixel for pixel: the whole level at 4 pixels a tile, regions at the tile
/// size, and the screen at the start, the corners and the middle.
#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn every_retail_level_is_drawn_by_the_engine_s_rules() {
    let palettes: Vec<String> = (1..=14)
        .map(|n| format!("LEVEL{n}/PALETTES/MAIN.PAL"))
        .collect();
    let palettes: Vec<&str> = palettes.iter().map(String::as_str).collect();
    let archive = claw_lopsided(&palettes);
    for n in 1..=14u32 {
        let file = LevelFile::open(gamedata_testkit::require_file(&format!(
            "wwd/RETAIL{n:02}.WWD"
        )))
        .unwrap();
        let level = file.view().unwrap();
        check_level(&level, &archive, &format!("RETAIL{n:02}"));
    }
}

/// `level` against the expectation: whole at 4 pixels a tile, regions at the tile size,
/// views at the start, the corners and the middle.
pub(crate) fn check_level(
    level: &gamedata_render::wap_core::Level<'_>,
    archive: &RefArchive,
    what: &str,
) {
    let main = level.main_plane().unwrap().unwrap();
    let (tw, th) = main.tile_size();
    let (wide, high) = (main.tiles_wide(), main.tiles_high());
    let camera = Camera::Whole { tile_px: 4 };
    assert_same(
        level,
        archive,
        camera,
        &[Region::new(0, 0, wide * 4, high * 4)],
        what,
    );
    // At the tile size, or half of it where the picture would pass the renderer's cap.
    let mut px = tw as u32;
    while u64::from(wide * px) * u64::from(high * px) > gamedata_render::MAX_PIXELS {
        px /= 2;
    }
    let camera = Camera::Whole { tile_px: px };
    assert_same(
        level,
        archive,
        camera,
        &regions(level, wide * px, high * px),
        what,
    );
    let (w, h) = (wide * tw as u32, high * th as u32);
    let (sx, sy) = level.header().start();
    let (w, h) = (w as i32, h as i32);
    for (x, y) in [
        (sx - 320, sy - 240),
        (0, 0),
        (w - 640, 0),
        (0, h - 480),
        (w - 640, h - 480),
        (w / 2, h / 2),
        (w / 3 + 17, h / 5 + 3),
    ] {
        let camera = Camera::View(View::at(x, y));
        assert_same(level, archive, camera, &[Region::new(0, 0, 640, 480)], what);
    }
}

/// An archive shaped like GRUNTZ.REZ: every PID of `gruntz-rez-paths.txt` (stored `DIP`,
/// the extension reversed), tiles 32 x 32 and other images of sizes from their paths,
/// lopsided, each carrying its palette (Gruntz levels name none), stored in reverse name
/// order.
pub(crate) fn gruntz_lopsided() -> RefArchive {
    gruntz_lopsided_with(Vec::new())
}

/// The same with the animations `anis` (path, records).
pub(crate) fn gruntz_lopsided_with(
    anis: Vec<(String, Vec<gamedata_testkit::ani::Record>)>,
) -> RefArchive {
    let text =
        std::fs::read_to_string(gamedata_testkit::require_file("wap32/gruntz-rez-paths.txt"))
            .unwrap();
    let mut images: Vec<RefImage> = text
        .lines()
        .filter_map(|line| line.trim().strip_suffix(".DIP"))
        .map(|path| {
            let path = path.replace('\\', "/");
            let h = path
                .bytes()
                .fold(7u32, |h, b| h.wrapping_mul(31) ^ u32::from(b));
            let (w, hgt) = if path.contains("/TILEZ/") {
                (32, 32)
            } else {
                (12 + h % 60, 12 + (h >> 8) % 60)
            };
            RefImage::lopsided(&path, w, hgt)
        })
        .collect();
    assert_eq!(images.len(), 19_953);
    images.sort_by(|a, b| b.path.cmp(&a.path));
    RefArchive::build_full(images, &[], true, anis)
}

/// The three Gruntz levels drawn from an archive shaped like GRUNTZ.REZ: every tile and
/// object whose image the archive holds, by the engine's rules (each image's own palette),
/// pixel for pixel against the expectation.
#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn gruntz_levels_are_drawn_from_an_archive_shaped_like_gruntz_rez() {
    let archive = gruntz_lopsided();
    for name in [
        "GRUNTZREZ_AREA8_WORLDZ_LEVEL29.WWD",
        "RockySwitch.wwd",
        "BombzAway!.wwd",
    ] {
        let file = LevelFile::open(gamedata_testkit::require_file(&format!("wwd/{name}"))).unwrap();
        let level = file.view().unwrap();
        let scene = Scene::new(
            &level,
            &archive.source,
            &SceneOptions::default(),
            &Limits::default(),
        )
        .unwrap();
        let report = scene.report();
        eprintln!(
            "{name}: {} tiles and {} objects drawn, {} images missing: {:?}",
            report.tiles_drawn,
            report.objects_drawn,
            report.missing_images,
            &report.missing[..report.missing.len().min(8)]
        );
        assert!(
            report.tiles_drawn > 1000 && report.objects_drawn > 100,
            "{name}"
        );
        check_level(&level, &archive, name);
    }
}

/// A copy of RETAIL01 with its objects mirrored, upside down and both in turn, the header's
/// z flag set: drawn by the engine's rules.
#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn retail01_with_objects_turned_is_drawn_by_the_engine_s_rules() {
    let archive = claw_lopsided(&["LEVEL1/PALETTES/MAIN.PAL"]);
    let file = LevelFile::open(gamedata_testkit::require_file("wwd/RETAIL01.WWD")).unwrap();
    let mut data = LevelData::from_level(&file.view().unwrap()).unwrap();
    let flags = data.header.flags.get();
    data.header.flags.set(flags | 1);
    let mut turned = 0;
    for plane in &mut data.planes {
        for (k, object) in plane.objects.iter_mut().enumerate() {
            let flags = object.fixed.draw_flags.get();
            object.fixed.draw_flags.set(flags ^ [2, 4, 6, 0][k % 4]);
            turned += usize::from(k % 4 != 3);
        }
    }
    assert!(turned > 1000, "{turned}");
    let image = data.image().unwrap();
    let level = gamedata_render::wap_core::Level::parse(&image).unwrap();
    check_level(&level, &archive, "RETAIL01 turned");
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn every_retail_level_is_drawn_from_an_archive_shaped_like_claw_rez() {
    use gamedata_render::wap_core::{PlaneFlags, Tile};
    let palettes: Vec<String> = (1..=14)
        .map(|n| format!("LEVEL{n}/PALETTES/MAIN.PAL"))
        .collect();
    let palettes: Vec<&str> = palettes.iter().map(String::as_str).collect();
    let (_, source) = claw_like(&palettes);
    // The objects whose image CLAW.REZ lacks, by level (wap-core's image_names test).
    let missing: HashMap<u32, u64> = [(1, 2), (6, 2), (9, 129)].into_iter().collect();
    for n in 1..=14u32 {
        let file = LevelFile::open(gamedata_testkit::require_file(&format!(
            "wwd/RETAIL{n:02}.WWD"
        )))
        .unwrap();
        let level = file.view().unwrap();
        let (mut tiles, mut objects) = (0u64, 0u64);
        for plane in level.planes() {
            let plane = plane.unwrap();
            if plane.flags().contains(PlaneFlags::NO_DRAW) {
                continue;
            }
            tiles += plane
                .tiles()
                .iter()
                .filter(|t| Tile::from_raw(t.get()) != Tile::Invisible)
                .count() as u64;
            for object in plane.objects() {
                let object = object.unwrap();
                objects += u64::from(!object.draw_flags().contains(DrawFlags::NO_DRAW));
            }
        }
        let options = SceneOptions {
            tile_px: Some(2),
            ..SceneOptions::default()
        };
        let scene = Scene::new(&level, &source, &options, &Limits::default()).unwrap();
        let report = scene.report();
        let lost = missing.get(&n).copied().unwrap_or(0);
        assert_eq!(report.tiles_drawn, tiles, "RETAIL{n:02} tiles");
        // The 133 objects without an image are all drawable ones.
        assert_eq!(
            (report.objects_drawn, report.missing_images),
            (objects - lost, lost),
            "RETAIL{n:02} objects"
        );
        let picture = scene
            .rect(Region::new(0, 0, scene.width(), scene.height()))
            .unwrap();
        assert_eq!(
            (picture.width(), picture.height()),
            (scene.width(), scene.height())
        );
    }
}

/// How much the planes and objects of the real Claw levels draw, against the picture
/// (16 pixels a tile), with the archive shaped like CLAW.REZ: far
/// under `SceneOptions::max_overdraw` (16), which refuses a level drawing more. The figures are
/// those of `docs/robustness.md` (the level picture's row).
#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn every_real_claw_level_draws_far_under_the_overdraw_cap() {
    let (_, source) = claw_like(&["LEVEL1/PALETTES/MAIN.PAL"]);
    let mut levels: Vec<String> = (1..=14).map(|n| format!("RETAIL{n:02}.WWD")).collect();
    levels.extend(
        [
            "LePortdeCoolness.wwd",
            "ParadiseCove.wwd",
            "Bushy.wwd",
            "MountEverest.wwd",
            "WapMapTest1.wwd",
        ]
        .map(String::from),
    );
    let (mut most_objects, mut most_all) = (0f64, 0f64);
    for name in &levels {
        let file = LevelFile::open(gamedata_testkit::require_file(&format!("wwd/{name}"))).unwrap();
        let level = file.view().unwrap();
        let options = SceneOptions {
            tile_px: Some(16),
            ..SceneOptions::default()
        };
        let all = Scene::new(&level, &source, &options, &Limits::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let bare = SceneOptions {
            no_objects: true,
            ..options
        };
        let planes = Scene::new(&level, &source, &bare, &Limits::default()).unwrap();
        let picture = f64::from(all.width()) * f64::from(all.height());
        let objects = (all.report().pixels_drawn - planes.report().pixels_drawn) as f64 / picture;
        let total = all.report().pixels_drawn as f64 / picture;
        eprintln!(
            "{name}: {} x {} pixels, objects draw {objects:.3} of the picture, planes and objects {total:.3}",
            all.width(),
            all.height()
        );
        assert!(objects > 0.0, "{name}");
        most_objects = most_objects.max(objects);
        most_all = most_all.max(total);
    }
    eprintln!("largest: objects {most_objects:.3}, planes and objects {most_all:.3}");
    assert!(
        most_all * 4.0 < SceneOptions::DEFAULT_MAX_OVERDRAW as f64,
        "{most_all}"
    );
}
