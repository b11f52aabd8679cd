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
pub(crate) fn rule_level(seed: u64, uses_z: bool) -> LevelData {
    let mut data = level(seed, 40, 20);
    if uses_z {
        let flags = data.header.flags.get();
        data.header.flags.set(flags | 1);
    }
    let main = &mut data.planes[1];
    // Below, between, equal to (0 the main plane's, 9000 the front plane's) and above the
    // planes' z.
    let zs = [-2000, 0, 5000, 9500, -500, 0, 9000, -999];
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

/// An archive holding every tile the level's planes use (64 x 64, every third 48 x 40,
/// lopsided) and, for each
/// object image set, frames 3, 1, 2 stored in that order, an `X001` stored first (a second
/// frame 1, which wins) and a `BASE` without digits (frame 0) in every other set.
fn rule_archive(level: &Level<'_>) -> RefArchive {
    rule_archive_with(level, Vec::new())
}

/// The same with the animations `anis` (path, records).
pub(crate) fn rule_archive_with(
    level: &Level<'_>,
    anis: Vec<(String, Vec<gamedata_testkit::ani::Record>)>,
) -> RefArchive {
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
                // Every third tile image smaller than its tile (the rest of the tile
                // draws nothing).
                let (w, h) = if id % 3 == 0 { (48, 40) } else { (64, 64) };
                if seen.insert(path.clone()) {
                    images.push(RefImage::lopsided(&path, w, h));
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
    RefArchive::build_full(images, &["LEVEL1/PALETTES/MAIN.PAL"], false, anis)
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

/// Regions two pixels wide cut every tile into runs of one or two columns at scales that
/// sample every second, third or fourth game pixel: a run of sampled columns is never
/// copied as if it were one-to-one (`row.rs`'s fast copy).
#[test]
fn short_runs_of_sampled_columns_are_drawn_by_the_engine_s_rules() {
    let data = rule_level(5, false);
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let archive = rule_archive(&level);
    for tile_px in [32, 21, 16] {
        let regions: Vec<Region> = (0..3 * tile_px)
            .map(|x| Region::new(x, 0, 2, 20 * tile_px))
            .collect();
        assert_same(
            &level,
            &archive,
            Camera::Whole { tile_px },
            &regions,
            "synthetic level 5, narrow regions",
        );
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
/// With markers, a rectangle of the picture is the same pixels wherever it starts: the
/// missing objects' markers cut by rectangles starting right of column 0 (and below row
/// 0) are the whole picture's.
#[test]
fn markers_in_a_rectangle_are_the_whole_picture_s() {
    let data = rule_level(7, false);
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let archive = rule_archive(&level);
    let options = SceneOptions {
        tile_px: Some(16),
        markers: true,
        ..SceneOptions::default()
    };
    let scene = Scene::new(&level, &archive.source, &options, &Limits::default()).unwrap();
    let (w, h) = (scene.width(), scene.height());
    let whole = scene.rect(Region::new(0, 0, w, h)).unwrap();
    let mut marker_pixels = 0;
    for (x0, y0, rw, rh) in [
        (1, 0, 97, 60),
        (37, 11, 200, 150),
        (300, 40, 333, 280),
        (5, 3, 1, 1),
    ] {
        let part = scene.rect(Region::new(x0, y0, rw, rh)).unwrap();
        for y in 0..rh {
            for x in 0..rw {
                let got = part.get(x, y).unwrap();
                assert_eq!(
                    got,
                    whole.get(x0 + x, y0 + y).unwrap(),
                    "({}, {})",
                    x0 + x,
                    y0 + y
                );
                marker_pixels += usize::from(got == MISSING);
            }
        }
    }
    assert!(marker_pixels > 0, "the rectangles cut markers");
}

#[test]
fn the_level_s_palette_is_read_only_when_it_is_one() {
    let data = level(3, 20, 16);
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let archive = wap_core::synth::level_archive(&data).unwrap();
    let rez = wap_core::RezFile::from_data(archive, &Default::default()).unwrap();
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
    let view = rez.view().unwrap();
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
    let folder = wap_core::ImageSource::at(dir.path(), |p| wap_core::RezFile::open(p)).unwrap();
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

/// The synthetic level of seed 3 (20 x 16 tiles of 64 pixels: 1,280 x 1,024) with its main
/// plane's objects replaced by `objects` (x, y, image set, frame), all of logic `Treasure`.
fn with_objects(objects: &[(i32, i32, &str, i32)]) -> LevelData {
    let mut data = level(3, 20, 16);
    let main = &mut data.planes[1];
    let template = main.objects[0].clone();
    main.objects = objects
        .iter()
        .map(|&(x, y, set, frame)| {
            let mut o = template.clone();
            o.fixed.x.set(x);
            o.fixed.y.set(y);
            o.fixed.i.set(frame);
            o.image_set = set.as_bytes().to_vec();
            o
        })
        .collect();
    data
}

/// The scene's report and picture at the tile size, with markers or not, and the
/// expectation's pixels compared.
fn drawn(
    data: &LevelData,
    markers: bool,
) -> (
    gamedata_render::wwd::SceneReport,
    gamedata_render::RgbaImage,
) {
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let archive = rule_archive(&level);
    if !markers {
        let camera = Camera::Whole { tile_px: 64 };
        assert_same(
            &level,
            &archive,
            camera,
            &[Region::new(0, 0, 1280, 1024)],
            "objects",
        );
    }
    let options = SceneOptions {
        tile_px: Some(64),
        markers,
        ..SceneOptions::default()
    };
    let scene = Scene::new(&level, &archive.source, &options, &Limits::default()).unwrap();
    let picture = scene.rect(Region::new(0, 0, 1280, 1024)).unwrap();
    (scene.report().clone(), picture)
}

/// An object exists only inside its plane: at 0 and at the last pixel it is drawn, at -1
/// and one past the end it is not created (not drawn, not missing).
#[test]
fn objects_exist_only_inside_their_plane() {
    let set = "GAME_TREASURE_COINS";
    let inside = [(0, 100), (100, 0), (1279, 100), (100, 1023)];
    let outside = [(-1, 100), (100, -1), (1280, 100), (100, 1024)];
    let objects: Vec<_> = inside
        .iter()
        .chain(&outside)
        // Frame 3, the tallest and widest: at an edge part of it is in the picture.
        .map(|&(x, y)| (x, y, set, 3))
        .collect();
    let (report, _) = drawn(&with_objects(&objects), false);
    assert_eq!((report.objects_drawn, report.missing_images), (4, 0));
}

/// A missing image's marker is 32 x 32 pixels centred on the object (16 left and up, 15
/// right and down), its frame 2 pixels wide.
#[test]
fn a_marker_is_centred_on_its_object() {
    // Below the front plane (8 rows of 64 pixels), which is drawn over the objects.
    let data = with_objects(&[(500, 800, "GAME_TREASURE_COINS", 9)]);
    let (report, picture) = drawn(&data, true);
    assert_eq!(report.missing_images, 1);
    let magenta = |x, y| picture.get(x, y) == Some(MISSING);
    assert!(magenta(484, 800) && magenta(515, 800) && magenta(500, 784) && magenta(500, 815));
    assert!(!magenta(483, 800) && !magenta(516, 800) && !magenta(500, 783) && !magenta(500, 816));
}

/// Missing images are listed once each, the first 100, and all counted; a name past 300
/// bytes is cut, ending in `…`.
#[test]
fn missing_images_are_listed_100_at_most_and_cut() {
    let names: Vec<String> = (0..150).map(|i| format!("NOWHERE{i:03}")).collect();
    let long = "L".repeat(400);
    // `LEVEL1_TILES_` + 279 bytes + ` frame 1`: exactly 300 bytes, not cut.
    let exact = "E".repeat(279);
    let mut objects: Vec<(i32, i32, &str, i32)> =
        vec![(10, 10, long.as_str(), 1), (20, 20, exact.as_str(), 1)];
    objects.extend(names.iter().map(|n| (50, 50, n.as_str(), 1)));
    objects.push((60, 60, names[0].as_str(), 1));
    let (report, _) = drawn(&with_objects(&objects), false);
    assert_eq!(report.missing_images, 153);
    assert_eq!(report.missing.len(), 100);
    let first = &report.missing[0];
    assert_eq!(first.len(), 300 + '…'.len_utf8(), "{first}");
    assert!(
        first.ends_with('…') && first.starts_with("LEVEL1_TILES_LLL"),
        "{first}"
    );
    assert_eq!(report.missing[1], format!("LEVEL1_TILES_{exact} frame 1"));
    assert_eq!(report.missing[1].len(), 300);
    assert_eq!(report.missing[2], "LEVEL1_TILES_NOWHERE000 frame 1");
    assert_eq!(report.missing[99], "LEVEL1_TILES_NOWHERE097 frame 1");
}

/// Tiles whose image is missing are not drawn nor counted drawn; each missing tile value is
/// listed once, the first 100.
#[test]
fn missing_tiles_are_counted_and_listed_once_each() {
    let mut data = level(3, 20, 16);
    // 150 distinct ids the archive lacks, each twice, in the main plane's first rows.
    let main = &mut data.planes[1];
    for (k, t) in main.tiles.iter_mut().take(300).enumerate() {
        *t = 5000 + (k / 2) as u32;
    }
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let mut archive_data = data.clone();
    archive_data.planes[1]
        .tiles
        .iter_mut()
        .take(300)
        .for_each(|t| *t = 1);
    let archive_image = archive_data.image().unwrap();
    let archive = rule_archive(&Level::parse(&archive_image).unwrap());
    let camera = Camera::Whole { tile_px: 16 };
    assert_same(
        &level,
        &archive,
        camera,
        &[Region::new(0, 0, 320, 256)],
        "missing tiles",
    );
    let scene = Scene::new(
        &level,
        &archive.source,
        &SceneOptions {
            tile_px: Some(16),
            ..SceneOptions::default()
        },
        &Limits::default(),
    )
    .unwrap();
    let report = scene.report();
    assert!(report.missing_images >= 300, "{}", report.missing_images);
    assert_eq!(report.missing.len(), 100);
    let mut listed = report.missing.clone();
    listed.dedup();
    assert_eq!(listed.len(), 100);
    assert!(
        report
            .missing
            .iter()
            .all(|m| m.starts_with("LEVEL1/TILES/ACTION frame 5")),
        "{:?}",
        &report.missing[..3]
    );
}

/// A main plane that wraps, the camera at its left edge: the window starts at 0 (not at
/// the plane's width), so the objects there are drawn where the engine draws them.
#[test]
fn a_view_at_the_edge_of_a_wrapping_main_plane_keeps_its_objects() {
    let mut data = with_objects(&[
        (100, 300, "GAME_TREASURE_COINS", 1),
        (700, 300, "GAME_TREASURE_COINS", 2),
    ]);
    let flags = data.planes[1].header.flags.get();
    data.planes[1].header.flags.set(flags | 0x4);
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let archive = rule_archive(&level);
    let camera = Camera::View(View {
        x: 0,
        y: 100,
        width: 640,
        height: 480,
    });
    assert_same(
        &level,
        &archive,
        camera,
        &[Region::new(0, 0, 640, 480)],
        "wrapping main plane",
    );
}

/// Two tile values that share a slot of the row renderer's 16-slot recent-tile cache (the
/// slot is the top 4 bits of `value * 0x9E3779B9`, `wwd/scene/row.rs`), side by side in
/// the main plane's rows, each draw their own image: a slot holding the other value is
/// not taken for this one.
#[test]
fn tiles_sharing_a_cache_slot_draw_their_own_images() {
    let slot = |v: u32| v.wrapping_mul(0x9E37_79B9) >> 28;
    let mut data = rule_level(3, false);
    let main = &mut data.planes[1];
    let a = main
        .tiles
        .iter()
        .copied()
        .find(|&t| matches!(Tile::from_raw(t), Tile::Image { .. }))
        .unwrap();
    let Tile::Image { set, id } = Tile::from_raw(a) else {
        unreachable!()
    };
    // Another tile of the same set whose value falls in a's slot.
    let b = (1..=u16::MAX)
        .map(|d| {
            Tile::Image {
                set,
                id: id.wrapping_add(d),
            }
            .raw()
        })
        .find(|&b| b != a && slot(b) == slot(a))
        .unwrap();
    for y in 4..12 {
        for x in 0..40 {
            main.tiles[y * 40 + x] = if (x + y) % 2 == 0 { a } else { b };
        }
    }
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let archive = rule_archive(&level);
    for tile_px in [64, 16] {
        let camera = Camera::Whole { tile_px };
        let (w, h) = (40 * tile_px, 20 * tile_px);
        let what = format!("tiles {a:#x} and {b:#x} sharing a cache slot");
        assert_same(&level, &archive, camera, &[Region::new(0, 0, w, h)], &what);
    }
}

/// A plane that does not wrap draws nothing outside its tiles: a background plane smaller
/// than the screen, all fill tiles, stays inside itself in views around it
/// (`wwd/scene/row.rs`, a row outside the plane is skipped before any tile is looked up;
/// `wwd/camera.rs`, a plane smaller than the screen is not moved inside it).
#[test]
fn fill_tiles_stay_inside_a_small_plane_that_does_not_wrap() {
    let mut data = rule_level(5, false);
    let back = &mut data.planes[0];
    let flags = back.header.flags.get();
    back.header.flags.set(flags & !0xC);
    back.header.fill_color.set(77);
    back.header.tiles_wide.set(4);
    back.header.tiles_high.set(3);
    let (tw, th) = (back.header.tile_width.get(), back.header.tile_height.get());
    back.header.width_px.set(4 * tw);
    back.header.height_px.set(3 * th);
    back.tiles = vec![0xEEEE_EEEE; 12];
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let archive = rule_archive(&level);
    for (x, y) in [(0, 0), (300, 200), (1200, 700), (40, 500)] {
        let camera = Camera::View(View {
            x,
            y,
            width: 640,
            height: 480,
        });
        let what = format!("a small fill plane, a view at ({x}, {y})");
        assert_same(
            &level,
            &archive,
            camera,
            &[Region::new(0, 0, 640, 480)],
            &what,
        );
    }
}
