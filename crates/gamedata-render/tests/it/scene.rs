//! `wwd::Scene` on RETAIL01 with an archive shaped like CLAW.REZ (`claw-image-sets.dict`'s
//! paths, sizes and offsets; each image one colour from its path, its top-left pixel
//! transparent): where each object lands, computed here from the level's bytes and the
//! list, not through the renderer's naming or placement.

use std::collections::HashMap;

use gamedata_render::Region;
use gamedata_render::wap_core::synth::{SynthImage, image_archive, image_index, palette};
use gamedata_render::wap_core::{DrawFlags, ImageSource, LevelFile, Limits, RezArchive};
use gamedata_render::wwd::{Scene, SceneOptions};

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
        ImageSource::Archive(RezArchive::from_data(rez).unwrap()),
    )
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn retail01_objects_land_where_the_rules_put_them() {
    let (images, source) = claw_like(&["LEVEL1/PALETTES/MAIN.PAL"]);
    // Each folder's images by frame number (the first digits of the name), from the list.
    // Frame -1 is the folder's first image: the archive lists each folder by name (the
    // crate's writer sorts them), so the first of the folder's `NAME.PID` names.
    let mut frames: HashMap<String, HashMap<i64, Vec<usize>>> = HashMap::new();
    let mut first: HashMap<String, (String, usize)> = HashMap::new();
    for (i, (path, _, _)) in images.iter().enumerate() {
        let (folder, name) = path.rsplit_once('/').unwrap();
        let stored = format!("{name}.PID");
        let key = folder.replace('/', "_");
        if first.get(&key).is_none_or(|(n, _)| stored < *n) {
            first.insert(key, (stored, i));
        }
        let digits: String = name
            .chars()
            .skip_while(|c| !c.is_ascii_digit())
            .take_while(char::is_ascii_digit)
            .collect();
        if let Ok(n) = digits.parse::<i64>() {
            frames
                .entry(folder.replace('/', "_"))
                .or_default()
                .entry(n)
                .or_default()
                .push(i);
        }
    }
    let file = LevelFile::open(gamedata_testkit::require_file("wwd/RETAIL01.WWD")).unwrap();
    let level = file.level().unwrap();
    let main = level.main_plane().unwrap().unwrap();
    let options = SceneOptions {
        tile_px: Some(64),
        plane: Some(main.index()),
        no_objects: false,
    };
    let scene = Scene::new(&level, &source, &options, &Limits::default()).unwrap();
    let bare = Scene::new(
        &level,
        &source,
        &SceneOptions {
            no_objects: true,
            ..options.clone()
        },
        &Limits::default(),
    )
    .unwrap();
    let colours = palette();
    // Each drawn object's rectangle: its image's size, centred on its position, moved by
    // the image's offset ("LEVEL" stands for LEVEL1/IMAGES, "GAME" for GAME/IMAGES, as the
    // header says).
    let mut rects = Vec::new();
    for object in main.objects() {
        let object = object.unwrap();
        let flags = object.draw_flags();
        if flags.contains(DrawFlags::NO_DRAW) {
            continue;
        }
        let set = String::from_utf8_lossy(object.image_set()).into_owned();
        let key = if let Some(rest) = set.strip_prefix("LEVEL") {
            format!("LEVEL1_IMAGES{rest}")
        } else if let Some(rest) = set.strip_prefix("GAME") {
            format!("GAME_IMAGES{rest}")
        } else {
            format!("LEVEL1_TILES_{set}")
        };
        let frame = i64::from(object.raw().i.get());
        let i = if frame == -1 {
            first.get(&key).map(|(_, i)| *i)
        } else {
            match frames
                .get(&key)
                .and_then(|f| f.get(&frame))
                .map(Vec::as_slice)
            {
                Some(&[i]) => Some(i),
                _ => None, // absent, or two images of one number: not checked here
            }
        };
        let Some(i) = i else {
            continue;
        };
        let (path, (w, h), (ox, oy)) = &images[i];
        let path: &str = path;
        let (x, y) = object.position();
        let (w, h) = (i64::from(*w), i64::from(*h));
        let left = i64::from(x) - w / 2 + i64::from(*ox);
        let top = i64::from(y) - h / 2 + i64::from(*oy);
        let [r, g, b] = {
            let k = usize::from(image_index(path)) * 3;
            [colours[k], colours[k + 1], colours[k + 2]]
        };
        rects.push((left, top, w, h, object.z(), flags, [r, g, b, 255]));
    }
    assert!(rects.len() > 1000, "{} objects resolved", rects.len());
    let pixel = |scene: &Scene, x: i64, y: i64| {
        let (x, y) = (u32::try_from(x).ok()?, u32::try_from(y).ok()?);
        let image = scene.rect(Region::new(x, y, 1, 1)).ok()?;
        image.get(0, 0)
    };
    let (mut checked, mut mirrored) = (0, 0);
    for (k, &(left, top, w, h, z, flags, colour)) in rects.iter().enumerate() {
        // Alone on its pixels: no other object's rectangle meets it, and over the plane.
        let alone = rects.iter().enumerate().all(|(j, &(l2, t2, w2, h2, ..))| {
            j == k || l2 >= left + w || left >= l2 + w2 || t2 >= top + h || top >= t2 + h2
        });
        if !alone || z < main.z() || w < 2 || h < 2 {
            continue;
        }
        let right = left + w - 1;
        let bottom = top + h - 1;
        // The image's transparent top-left pixel, moved by mirroring and inverting.
        let clear = (
            if flags.contains(DrawFlags::MIRROR) {
                right
            } else {
                left
            },
            if flags.contains(DrawFlags::INVERT) {
                bottom
            } else {
                top
            },
        );
        for corner in [(left, top), (right, top), (left, bottom), (right, bottom)] {
            let Some(got) = pixel(&scene, corner.0, corner.1) else {
                continue; // off the picture
            };
            if corner == clear {
                assert_eq!(
                    Some(got),
                    pixel(&bare, corner.0, corner.1),
                    "object {k}: the clear corner shows the plane"
                );
            } else {
                assert_eq!(got, colour, "object {k} corner {corner:?}");
            }
        }
        checked += 1;
        mirrored += usize::from(flags.contains(DrawFlags::MIRROR));
    }
    assert!(checked > 200, "{checked} objects checked");
    assert!(mirrored > 5, "{mirrored} mirrored objects checked");
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
        let level = file.level().unwrap();
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
/// under `Limits::max_overdraw` (16), which refuses a level drawing more. The figures are
/// the README's ("Robustness").
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
        let level = file.level().unwrap();
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
        most_all * 4.0 < Limits::default().max_overdraw as f64,
        "{most_all}"
    );
}
