//! `wwd::Scene` against the independent expectation of `engine.rs`, on a synthetic level
//! made to exercise every rule: images with lopsided offsets and transparent corners,
//! stored out of name order, two images of one number and a name without digits;
//! objects mirrored, upside down, hidden, outside their plane, without a logic, of frame
//! -1 and of missing frames, at z values below, between and above the planes; with and
//! without the header's z flag; the whole level at several scales and views at several
//! camera positions over planes that move at 50 % and 150 % and wrap.

use std::collections::BTreeSet;

use gamedata_render::Region;
use gamedata_render::wwd::scene::MISSING;
use gamedata_render::wwd::{Scene, SceneOptions, View};
use wap_core::synth::level;
use wap_core::{Level, LevelData, Limits, Tile};

use crate::engine::{Camera, RefArchive, RefImage, assert_same};

/// The synthetic level of `seed` with its objects changed to cover the rules, and with the
/// header's z flag set or not.
fn rule_level(seed: u64, uses_z: bool) -> LevelData {
    let mut data = level(seed, 40, 20);
    if uses_z {
        let flags = data.header.flags.get();
        data.header.flags.set(flags | 1);
    }
    let main = &mut data.planes[1];
    let zs = [-2000, 0, 5000, 9500, -500, 0];
    let frames = [-1, 0, 1, 2, 3, 9];
    for (k, object) in main.objects.iter_mut().enumerate() {
        let f = &mut object.fixed;
        let flags = match k % 7 {
            1 => 2,               // mirrored
            2 => 4,               // upside down
            3 => 6,               // both
            4 if k % 3 == 0 => 1, // hidden
            _ => 0,
        };
        f.draw_flags.set(flags);
        f.z.set(zs[k % zs.len()]);
        f.i.set(frames[k % frames.len()]);
        if k % 11 == 5 {
            object.logic.clear(); // not created
        }
        if k % 13 == 6 {
            f.x.set(-3); // outside the plane: not created
        }
    }
    data
}

/// An archive holding every tile the level's planes use (64 x 64, lopsided) and, for each
/// object image set, frames 3, 1, 2 stored in that order, an `X001` stored first (a second
/// frame 1, which wins) and a `BASE` without digits (frame 0) in every other set.
fn rule_archive(level: &Level<'_>) -> RefArchive {
    let mut images = Vec::new();
    let mut seen = BTreeSet::new();
    for plane in level.planes() {
        let plane = plane.unwrap();
        let sets: Vec<String> = plane
            .image_sets()
            .map(|s| String::from_utf8_lossy(s.unwrap()).into_owned())
            .collect();
        for t in plane.tiles() {
            if let Tile::Image { set, id } = Tile::from_raw(t.get()) {
                let path = format!("LEVEL1/TILES/{}/{id:03}", sets[usize::from(set)]);
                if seen.insert(path.clone()) {
                    images.push(RefImage::lopsided(&path, 64, 64));
                }
            }
        }
        for object in plane.objects() {
            let set = String::from_utf8_lossy(object.unwrap().image_set()).into_owned();
            let folder = if let Some(rest) = set.strip_prefix("LEVEL_") {
                format!("LEVEL1/IMAGES/{}", rest.replace('_', "/"))
            } else if let Some(rest) = set.strip_prefix("GAME_") {
                format!("GAME/IMAGES/{}", rest.replace('_', "/"))
            } else {
                continue;
            };
            if !seen.insert(folder.clone()) {
                continue;
            }
            let k = seen.len() as u32;
            images.push(RefImage::lopsided(&format!("{folder}/X001"), 21, 17));
            for n in [3, 1, 2] {
                let path = format!("{folder}/FRAME{n:03}");
                images.push(RefImage::lopsided(&path, 20 + 7 * n + k % 5, 30 + 5 * n));
            }
            if k.is_multiple_of(2) {
                images.push(RefImage::lopsided(&format!("{folder}/BASE"), 13, 40));
            }
        }
    }
    RefArchive::build(images, &["LEVEL1/PALETTES/MAIN.PAL"])
}

/// The level's whole picture at several scales and views at several camera positions
/// equal the expectation pixel for pixel.
fn check(seed: u64, uses_z: bool) {
    let data = rule_level(seed, uses_z);
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let archive = rule_archive(&level);
    let what = format!("synthetic level {seed}, z flag {uses_z}");
    for tile_px in [64, 16, 7] {
        let camera = Camera::Whole { tile_px };
        let (w, h) = (40 * tile_px, 20 * tile_px);
        assert_same(&level, &archive, camera, &[Region::new(0, 0, w, h)], &what);
    }
    let (start_x, start_y) = level.header().start();
    for (x, y, w, h) in [
        (0, 0, 640, 480),
        (start_x - 320, start_y - 240, 640, 480),
        (1000, 300, 640, 480),
        (-500, -700, 640, 480),
        (2200, 900, 640, 480),
        (777, 123, 333, 211),
        (5000, 5000, 200, 100),
    ] {
        let camera = Camera::View(View {
            x,
            y,
            width: w,
            height: h,
        });
        assert_same(&level, &archive, camera, &[Region::new(0, 0, w, h)], &what);
    }
}

#[test]
fn a_level_without_the_z_flag_is_drawn_by_the_engine_s_rules() {
    check(7, false);
}

#[test]
fn a_level_with_the_z_flag_is_drawn_by_the_engine_s_rules() {
    check(7, true);
    check(11, true);
}

#[test]
fn missing_images_draw_nothing_unless_markers_are_asked_for() {
    let data = rule_level(7, false);
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let archive = rule_archive(&level);
    let draw = |markers| {
        let options = SceneOptions {
            tile_px: Some(16),
            markers,
            ..SceneOptions::default()
        };
        let scene = Scene::new(&level, &archive.source, &options, &Limits::default()).unwrap();
        let picture = scene
            .rect(Region::new(0, 0, scene.width(), scene.height()))
            .unwrap();
        let magenta = picture.pixels().chunks(4).filter(|p| *p == MISSING).count();
        (scene.report().clone(), magenta)
    };
    let (plain, none) = draw(false);
    let (marked, some) = draw(true);
    // Frame 9 is in no set, frame 0 only in sets with a `BASE`: those objects are
    // missing, counted and listed either way; only the markers' pixels differ.
    assert!(plain.missing_images > 0);
    assert_eq!(
        (plain.missing_images, &plain.missing, plain.objects_drawn),
        (marked.missing_images, &marked.missing, marked.objects_drawn)
    );
    assert!(
        plain
            .missing
            .iter()
            .all(|m| m.ends_with("frame 9") || m.ends_with("frame 0")),
        "{:?}",
        plain.missing
    );
    assert!(marked.pixels_drawn > plain.pixels_drawn);
    assert_eq!(none, 0);
    assert!(some > 0);
}

/// The level's palette is used, and reported, when its file is 768 bytes; a pipe at its
/// path in a folder of extracted files is not waited on (each image's own palette, here
/// none: grey levels).
#[cfg(unix)]
#[test]
fn the_level_s_palette_is_read_only_when_it_is_one() {
    let data = level(3, 20, 16);
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let archive = wap_core::synth::level_archive(&data).unwrap();
    let rez = wap_core::RezArchive::from_data(archive).unwrap();
    let options = SceneOptions {
        tile_px: Some(8),
        ..SceneOptions::default()
    };
    let from_archive = wap_core::ImageSource::Archive(rez);
    let scene = Scene::new(&level, &from_archive, &options, &Limits::default()).unwrap();
    assert_eq!(
        scene.report().palette.as_deref(),
        Some("LEVEL1/PALETTES/MAIN.PAL")
    );
    let coloured = scene
        .rect(Region::new(0, 0, scene.width(), scene.height()))
        .unwrap();
    // The same files in a folder, the palette replaced by a pipe.
    let dir = tempfile::tempdir().unwrap();
    let wap_core::ImageSource::Archive(rez) = &from_archive else {
        unreachable!()
    };
    let view = rez.rez();
    for item in view.walk(&view.root()) {
        let (path, file) = item.unwrap();
        let to = dir.path().join(&path);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        if path.ends_with("MAIN.PAL") {
            gamedata_testkit::mkfifo(&to);
        } else {
            std::fs::write(&to, file.bytes).unwrap();
        }
    }
    let folder = wap_core::ImageSource::open(dir.path()).unwrap();
    let scene = Scene::new(&level, &folder, &options, &Limits::default()).unwrap();
    assert_eq!(scene.report().palette, None);
    let grey = scene
        .rect(Region::new(0, 0, scene.width(), scene.height()))
        .unwrap();
    assert_ne!(coloured.pixels(), grey.pixels());
    assert!(
        grey.pixels()
            .chunks(4)
            .all(|p| p[0] == p[1] && p[1] == p[2])
    );
}
