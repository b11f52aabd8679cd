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
    let level = file.view().unwrap();
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
    let level = file.view().unwrap();
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

/// A synthetic level and the archive of every image it names, in `dir`.
fn synth_level_and_rez(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let data = wap_core::synth::level(5, 40, 20);
    let level = dir.join("SYNTH.WWD");
    std::fs::write(&level, data.to_file(true).unwrap()).unwrap();
    let rez = dir.join("SYNTH.REZ");
    std::fs::write(&rez, wap_core::synth::level_archive(&data).unwrap()).unwrap();
    (level, rez)
}

/// `--view X,Y` draws the 640 x 480 screen (`--view-size` another), reports the camera
/// and the tile size; it takes no `--tile-px` and needs `--rez` or `--images`.
#[test]
fn a_view_is_the_screen_at_the_camera() {
    let dir = tempfile::tempdir().unwrap();
    let (level, rez) = synth_level_and_rez(dir.path());
    let (l, r) = (level.to_str().unwrap(), rez.to_str().unwrap());
    let png = dir.path().join("shot.png");
    let p = png.to_str().unwrap();
    let report = stdout_json(&gamedata_ok(
        &[
            "--json", "wwd", "render", l, "--rez", r, "--view", "100,-20", "-o", p,
        ],
        dir.path(),
    ));
    assert_eq!(report["width"], 640);
    assert_eq!(report["height"], 480);
    assert_eq!(report["view"], serde_json::json!([100, -20]));
    assert_eq!(report["tile_px"], 64);
    assert_eq!(png_size(&png), (640, 480));
    let text = gamedata_ok(
        &[
            "wwd",
            "render",
            l,
            "--rez",
            r,
            "--view",
            "0,0",
            "--view-size",
            "320x200",
            "-o",
            p,
        ],
        dir.path(),
    );
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("320 x 200 pixels, the screen at main-plane pixel 0,0"),
        "{text}"
    );
    assert_eq!(png_size(&png), (320, 200));
    // A camera left of and above the level: a negative X as the shell passes it.
    let report = stdout_json(&gamedata_ok(
        &[
            "--json", "wwd", "render", l, "--rez", r, "--view", "-5,-3", "-o", p,
        ],
        dir.path(),
    ));
    assert_eq!(report["view"], serde_json::json!([-5, -3]));
    for (args, says) in [
        (
            vec!["--view", "1,2", "--tile-px", "8"],
            "cannot be used with",
        ),
        (vec!["--view", "1"], "is not X,Y"),
        (
            vec!["--view", "1,2", "--view-size", "0x5"],
            "is not 1 to 16384",
        ),
        (vec!["--view-size", "10x10"], "--view"),
    ] {
        let mut all = vec!["wwd", "render", l, "--rez", r, "-o", p];
        all.extend(&args);
        let out = gamedata(&all, dir.path());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let out = gamedata(&["wwd", "render", l, "--view", "1,2", "-o", p], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs --rez or --images"));
}

/// The files of `data`'s archive that are its tiles and its palette (path, bytes).
fn tiles_and_palette(data: &wap_core::LevelData) -> Vec<(String, Vec<u8>)> {
    let image = data.image().unwrap();
    let view = wap_core::Level::parse(&image).unwrap();
    let names = wap_core::ImageNames::of(&view.header());
    // The tiles only: every object's image is missing.
    let full = wap_core::RezFile::from_data(
        wap_core::synth::level_archive(data).unwrap(),
        &Default::default(),
    )
    .unwrap();
    let source = wap_core::ImageSource::Archive(full);
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for plane in view.planes() {
        let plane = plane.unwrap();
        let sets: Vec<String> = plane
            .image_sets()
            .map(|s| names.tile_folder(s.unwrap()))
            .collect();
        for t in plane.tiles() {
            if let Tile::Image { set, id } = Tile::from_raw(t.get()) {
                let path = format!("{}/{id:03}.PID", sets[usize::from(set)]);
                if !files.iter().any(|(p, _)| *p == path) {
                    let bytes = source.file(&path).unwrap().unwrap().into_owned();
                    files.push((path, bytes));
                }
            }
        }
    }
    files.push((
        names.palette.clone(),
        source.file(&names.palette).unwrap().unwrap().into_owned(),
    ));
    files
}

/// An archive without the objects' images: nothing drawn for them by default, magenta
/// markers with `--markers`; the report is the same but for the pixels drawn.
#[test]
fn missing_images_are_drawn_only_with_markers() {
    let dir = tempfile::tempdir().unwrap();
    let (level, _) = synth_level_and_rez(dir.path());
    let data = wap_core::synth::level(5, 40, 20);
    let files = tiles_and_palette(&data);
    let refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    let rez = dir.path().join("TILES.REZ");
    std::fs::write(&rez, wap_core::write_rez(&refs).unwrap()).unwrap();
    let (l, r) = (level.to_str().unwrap(), rez.to_str().unwrap());
    let draw = |markers: bool, name: &str| {
        let png = dir.path().join(name);
        let mut args = vec![
            "--json",
            "wwd",
            "render",
            l,
            "--rez",
            r,
            "--tile-px",
            "16",
            "-o",
        ];
        args.push(png.to_str().unwrap());
        if markers {
            args.push("--markers");
        }
        let report = stdout_json(&gamedata_ok(&args, dir.path()));
        let magenta = png_pixels(&png)
            .chunks(4)
            .filter(|p| *p == [255, 0, 255, 255])
            .count();
        (report, magenta)
    };
    let (plain, none) = draw(false, "plain.png");
    let (marked, some) = draw(true, "marked.png");
    assert!(plain["missing_images"].as_u64().unwrap() > 0);
    assert_eq!(plain["objects_drawn"], 0);
    assert_eq!(plain["missing_images"], marked["missing_images"]);
    assert_eq!(plain["missing"], marked["missing"]);
    assert_eq!(none, 0);
    assert!(some > 0);
}

/// `--time MS`: objects whose animation names an ANI file are drawn at the frame it shows
/// then (here two frames of 100 ms each, each a colour of its own); the report gives the
/// time and the objects animated; `--time` needs `--rez` or `--images`.
#[test]
fn time_draws_each_object_at_its_animation_s_frame() {
    use gamedata_testkit::ani::{Record, bytes};
    let dir = tempfile::tempdir().unwrap();
    let mut data = wap_core::synth::level(5, 40, 20);
    for object in &mut data.planes[1].objects {
        object.animation = b"LEVEL_BLINK".to_vec();
        object.fixed.i.set(1);
    }
    let level = dir.path().join("BLINK.WWD");
    std::fs::write(&level, data.to_file(true).unwrap()).unwrap();
    let mut files = tiles_and_palette(&data);
    let sets: std::collections::BTreeSet<Vec<u8>> = data.planes[1]
        .objects
        .iter()
        .map(|o| o.image_set.clone())
        .collect();
    let image = data.image().unwrap();
    let names = wap_core::ImageNames::of(&wap_core::Level::parse(&image).unwrap().header());
    for set in &sets {
        // The synthetic sets' folders hold no `_` of their own.
        let folder = names.object_set(set).replace('_', "/");
        files.push((
            format!("{folder}/FRAME001.PID"),
            gamedata_testkit::rez::pid(24, 24, 40),
        ));
        files.push((
            format!("{folder}/FRAME002.PID"),
            gamedata_testkit::rez::pid(24, 24, 200),
        ));
    }
    let blink = bytes(b"", &[Record::show(1, 100), Record::show(2, 100)]);
    files.push(("LEVEL1/ANIS/BLINK.ANI".into(), blink));
    let refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    let rez = dir.path().join("BLINK.REZ");
    std::fs::write(&rez, wap_core::write_rez(&refs).unwrap()).unwrap();
    let (l, r) = (level.to_str().unwrap(), rez.to_str().unwrap());
    let draw = |time: Option<&str>, name: &str| {
        let png = dir.path().join(name);
        let mut args = vec!["--json", "wwd", "render", l, "--rez", r, "--tile-px", "16"];
        if let Some(t) = time {
            args.extend(["--time", t]);
        }
        args.extend(["-o", png.to_str().unwrap()]);
        (
            stdout_json(&gamedata_ok(&args, dir.path())),
            png_pixels(&png),
        )
    };
    let objects = drawable_objects(&level);
    assert!(objects > 5, "{objects}");
    let (still, at_rest) = draw(None, "still.png");
    assert!(still.get("time_ms").is_none());
    assert_eq!(
        (&still["animated"], &still["unplayed"]),
        (&0.into(), &0.into())
    );
    let (early, at_50) = draw(Some("50"), "early.png");
    let (late, at_150) = draw(Some("150"), "late.png");
    let (again, at_250) = draw(Some("250"), "again.png");
    assert_eq!(early["time_ms"], 50);
    assert_eq!(late["time_ms"], 150);
    for report in [&early, &late, &again] {
        assert_eq!(report["animated"], objects);
        assert_eq!(report["unplayed"], 0);
        assert_eq!(report["objects_drawn"], objects);
    }
    // Frame 1 at 50 ms (the level's frame too), frame 2 at 150 ms, frame 1 again at 250.
    assert_eq!(at_50, at_rest);
    assert_ne!(at_150, at_50);
    assert_eq!(at_250, at_50);
    let text = gamedata_ok(
        &[
            "wwd", "render", l, "--rez", r, "--time", "150", "-o", "t.png",
        ],
        dir.path(),
    );
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains(&format!(
            "at 150 ms: {objects} objects at their animation's frame"
        )),
        "{text}"
    );
    for command in ["render", "tiles"] {
        let out = gamedata(&["wwd", command, l, "--time", "5", "-o", "x"], dir.path());
        assert_eq!(out.status.code(), Some(1), "{command}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--time plays the objects' animations"),
            "{err}"
        );
    }
}

/// `--compression fast|default|best` (a global flag, fast by default): the same pixels,
/// files no larger as the level rises; an unknown level is a usage error.
#[test]
fn compression_changes_the_file_not_the_pixels() {
    let dir = tempfile::tempdir().unwrap();
    let (level, rez) = synth_level_and_rez(dir.path());
    let (l, r) = (level.to_str().unwrap(), rez.to_str().unwrap());
    let draw = |level: Option<&str>, name: &str| {
        let png = dir.path().join(name);
        let mut args = vec!["wwd", "render", l, "--rez", r, "--tile-px", "16"];
        if let Some(level) = level {
            args.extend(["--compression", level]);
        }
        args.extend(["-o", png.to_str().unwrap()]);
        gamedata_ok(&args, dir.path());
        (std::fs::metadata(&png).unwrap().len(), png_pixels(&png))
    };
    let (plain, pixels) = draw(None, "plain.png");
    let (fast, fast_pixels) = draw(Some("fast"), "fast.png");
    let (balanced, balanced_pixels) = draw(Some("default"), "default.png");
    let (best, best_pixels) = draw(Some("best"), "best.png");
    assert_eq!(plain, fast, "fast is the default");
    assert!(pixels == fast_pixels && pixels == balanced_pixels && pixels == best_pixels);
    assert!(
        balanced < fast && best <= balanced,
        "{fast} {balanced} {best}"
    );
    let out = gamedata(
        &["wwd", "render", l, "--compression", "tiny", "-o", "x.png"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
}
