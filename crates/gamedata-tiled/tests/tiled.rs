//! Levels exported to Tiled and drawn by Tiled's own renderer (`tmxrasterizer`, Debian's
//! `tiled` package, headless with `QT_QPA_PLATFORM=offscreen`): its picture equals, pixel
//! for pixel, the level as `gamedata_render::wwd::Scene` draws it (what `gamedata wwd
//! render --rez --tile-px 64` writes), with the images from archives built here whose
//! pixels are lopsided (a gradient, a transparent corner), so that a flip, a shift or a
//! crop shows. Without tmxrasterizer the tests say so and pass, but under CI (`CI` set),
//! where `.ci/run` installs it.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects
)]

use std::path::{Path, PathBuf};

mod common;
use common::{have_tmxrasterizer, rasterize};

use gamedata_render::Region;
use gamedata_render::wwd::scene::MAX_REGION_PIXELS;
use gamedata_render::wwd::{Scene, SceneOptions};
use gamedata_testkit::ClawImage;
use gamedata_tiled::map::{LayerData, Map};
use gamedata_tiled::wwd::{ExportOptions, export};
use wap_core::rez::{PidFlags, PidPixels};
use wap_core::{ImageSource, Level, LevelFile, Limits, RezFile};

/// `map`'s tiles `x0..x0 + w` across and `y0..y0 + h` down, the objects moved with them (a
/// picture tmxrasterizer can hold: Qt's images stop at 2^31 bytes).
fn window(map: &Map, x0: u32, y0: u32, w: u32, h: u32) -> Map {
    let mut out = map.clone();
    out.width = w;
    out.height = h;
    for layer in &mut out.layers {
        match &mut layer.data {
            LayerData::Tiles(cells) => {
                let mut kept = Vec::with_capacity((w * h) as usize);
                for y in y0..y0 + h {
                    let row = (y * map.width) as usize;
                    kept.extend_from_slice(&cells[row + x0 as usize..row + (x0 + w) as usize]);
                }
                *cells = kept;
            }
            LayerData::Objects(objects) => {
                for o in objects {
                    o.x -= i64::from(x0 * map.tile_width);
                    o.y -= i64::from(y0 * map.tile_height);
                }
            }
            LayerData::Image(_) => panic!("the WWD export makes no image layer"),
        }
    }
    out
}

/// Exports `level` from `source` into `dir` (the images, then the map in windows of at
/// most `max` tiles a side, each as TMX, and the first also as TMJ when `tmj`), draws each
/// window with tmxrasterizer and with the scene, and returns the windows compared and
/// the pixels that differ.
fn compare(
    level: &Level<'_>,
    source: &ImageSource,
    dir: &Path,
    max: (u32, u32),
    tmj: bool,
) -> (usize, u64) {
    let options = ExportOptions::default().with_images_dir("images");
    let export = export(level, source, &options, &Limits::default()).unwrap();
    for image in &export.images {
        let path = dir.join(&image.path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let pixels = gamedata_render::PngPixels::Image(&image.image);
        let out = std::fs::File::create(path).unwrap();
        gamedata_render::write_png(out, pixels, &Default::default()).unwrap();
    }
    let map = &export.map;
    eprintln!(
        "  {} tiles and {} objects drawn, {} images missing",
        export.report.tiles_drawn, export.report.objects_drawn, export.report.missing_images
    );
    // Drawn a window at a time: past MAX_PIXELS whole (RETAIL03 is 49,152 x 12,288).
    let scene = Scene::with_max_pixels(
        level,
        source,
        &SceneOptions::default(),
        &Limits::default(),
        MAX_REGION_PIXELS,
    )
    .unwrap();
    assert_eq!(
        (scene.width(), scene.height()),
        (map.width * map.tile_width, map.height * map.tile_height)
    );
    let (mut windows, mut differing) = (0, 0u64);
    for y0 in (0..map.height).step_by(max.1 as usize) {
        for x0 in (0..map.width).step_by(max.0 as usize) {
            let (w, h) = ((map.width - x0).min(max.0), (map.height - y0).min(max.1));
            let part = window(map, x0, y0, w, h);
            let mut forms = vec![dir.join("window.tmx")];
            if tmj && windows == 0 {
                forms.push(dir.join("window.tmj"));
            }
            let region = Region::new(
                x0 * map.tile_width,
                y0 * map.tile_height,
                w * map.tile_width,
                h * map.tile_height,
            );
            let want = scene.rect(region).unwrap();
            for path in forms {
                let file = std::fs::File::create(&path).unwrap();
                if path.extension().is_some_and(|e| e == "tmj") {
                    gamedata_tiled::tmj::write_tmj(&part, file).unwrap();
                } else {
                    gamedata_tiled::tmx::write_tmx(&part, file).unwrap();
                }
                let (pw, ph, got) = rasterize(&path);
                assert_eq!(
                    (pw, ph),
                    (region.width, region.height),
                    "{}",
                    path.display()
                );
                differing += got
                    .chunks_exact(3)
                    .zip(want.pixels().chunks_exact(4))
                    .filter(|(a, b)| a[..] != b[..3] || b[3] != 255)
                    .count() as u64;
            }
            windows += 1;
        }
    }
    (windows, differing)
}

/// Lopsided pixels for an image `w` x `h`: a gradient of indices 16 to 255 along both
/// axes, the triangle of its top-left corner transparent.
fn lopsided(w: u32, h: u32) -> PidPixels {
    let n = (w * h) as usize;
    let mut indices = Vec::with_capacity(n);
    let mut opaque = Vec::with_capacity(n);
    for y in 0..h {
        for x in 0..w {
            indices.push((16 + (x * 3 + y * 7) % 240) as u8);
            opaque.push(x + y >= w.min(h) / 3);
        }
    }
    PidPixels {
        width: w,
        height: h,
        indices,
        opaque,
    }
}

/// An archive of `images` (path without `.PID`, size, offset) with lopsided pixels, and the
/// synthetic palette at `palettes`.
fn lopsided_archive(images: &[ClawImage], palettes: &[String]) -> Vec<u8> {
    let pids: Vec<(String, Vec<u8>)> = images
        .iter()
        .map(|(path, (w, h), offset)| {
            let pid =
                wap_core::write_pid(&lopsided(*w, *h), *offset, PidFlags::empty(), None, true);
            (format!("{path}.PID"), pid)
        })
        .collect();
    let palette = wap_core::synth::palette();
    let mut files: Vec<(&str, &[u8])> = pids
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    files.extend(palettes.iter().map(|p| (p.as_str(), &palette[..])));
    wap_core::write_rez(&files).unwrap()
}

/// An archive shaped like GRUNTZ.REZ: every image `gruntz-rez-paths.txt` names (stored
/// `DIP`, the extension reversed), tiles 32 x 32, other images of sizes and offsets from
/// their paths, lopsided, each carrying its palette (Gruntz levels name none).
fn gruntz_archive() -> Vec<u8> {
    let text =
        std::fs::read_to_string(gamedata_testkit::require_file("wap32/gruntz-rez-paths.txt"))
            .unwrap();
    let palette = wap_core::synth::palette();
    let pids: Vec<(String, Vec<u8>)> = text
        .lines()
        .filter_map(|line| line.trim().strip_suffix(".DIP"))
        .map(|path| {
            let path = path.replace('\\', "/");
            let h = path
                .bytes()
                .fold(7u32, |h, b| h.wrapping_mul(31) ^ u32::from(b));
            let (w, hgt, offset) = if path.contains("/TILEZ/") {
                (32, 32, (0, 0))
            } else {
                let offset = ((h % 9) as i32 - 4, ((h >> 4) % 9) as i32 - 4);
                (12 + h % 60, 12 + (h >> 8) % 60, offset)
            };
            let pixels = lopsided(w, hgt);
            let pid = wap_core::write_pid(&pixels, offset, PidFlags::empty(), Some(&palette), true);
            (format!("{path}.PID"), pid)
        })
        .collect();
    assert_eq!(pids.len(), 19_953);
    let files: Vec<(&str, &[u8])> = pids
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    wap_core::write_rez(&files).unwrap()
}

fn archive_source(bytes: Vec<u8>) -> ImageSource {
    ImageSource::Archive(RezFile::from_data(bytes, &Default::default()).unwrap())
}

/// The images a synthetic level names (through its own archive's listing), lopsided.
fn synthetic_images(data: &wap_core::LevelData) -> Vec<ClawImage> {
    let plain = wap_core::synth::level_archive(data).unwrap();
    let rez = wap_core::Rez::parse(&plain).unwrap();
    let mut images = Vec::new();
    for entry in rez.walk(&rez.root()) {
        let (path, file) = entry.unwrap();
        let Some(path) = path.strip_suffix(".PID") else {
            continue;
        };
        let pid = wap_core::Pid::parse(file.bytes).unwrap();
        let (w, h) = (pid.width(), pid.height());
        // Offsets of both signs, and odd sizes, from the path.
        let k = wap_core::synth::image_index(path) as i32;
        let odd = u32::from(!path.contains("TILES"));
        images.push((path.to_owned(), (w + odd, h + odd), (k % 7 - 3, k % 5 - 2)));
    }
    images
}

#[test]
fn a_synthetic_level_is_drawn_by_tiled_as_the_engine_draws_it() {
    if !have_tmxrasterizer() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut data = wap_core::synth::level(7, 80, 24);
    // Objects mirrored, upside down, both and hidden, at z below, between and above the
    // planes (with the header's z flag); fill tiles in the wrapping background.
    data.header.flags.set(data.header.flags.get() | 1);
    let mut n = 0u32;
    for plane in &mut data.planes {
        for object in &mut plane.objects {
            object
                .fixed
                .draw_flags
                .set([0, 2, 4, 6, 1][(n % 5) as usize]);
            object
                .fixed
                .z
                .set([-2000, 0, 5000, 10000][(n % 4) as usize]);
            n += 1;
        }
    }
    assert!(n >= 20, "{n} objects");
    // The front plane flagged not to be drawn: a hidden layer, which Tiled leaves out.
    let flags = data.planes[2].header.flags.get();
    data.planes[2].header.flags.set(flags | 2);
    data.planes[0].header.fill_color.set(77);
    for tile in data.planes[0].tiles.iter_mut().step_by(3) {
        *tile = 0xEEEE_EEEE;
    }
    let images = synthetic_images(&data);
    let source = archive_source(lopsided_archive(
        &images,
        &["LEVEL1/PALETTES/MAIN.PAL".to_owned()],
    ));
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let (windows, differing) = compare(&level, &source, dir.path(), (80, 24), true);
    assert_eq!((windows, differing), (1, 0));
}

/// The retail levels and the community levels shaped like them, from an archive of every
/// image of the real CLAW.REZ (claw-image-sets.dict: paths, sizes, offsets) with lopsided
/// pixels, in windows of 256 x 192 tiles.
#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files, and tmxrasterizer"]
fn retail_and_community_levels_are_drawn_by_tiled_as_the_engine_draws_them() {
    let text =
        std::fs::read_to_string(gamedata_testkit::require_file("wap32/claw-image-sets.dict"))
            .unwrap();
    if !have_tmxrasterizer() {
        return;
    }
    let images: Vec<ClawImage> = gamedata_testkit::claw_images(&text);
    let palettes: Vec<String> = (1..=14)
        .map(|n| format!("LEVEL{n}/PALETTES/MAIN.PAL"))
        .collect();
    let source = archive_source(lopsided_archive(&images, &palettes));
    let levels: Vec<PathBuf> = match std::env::var("TMX_LEVELS") {
        Ok(list) => list
            .split(',')
            .map(|l| format!("wwd/{l}"))
            .map(|p| gamedata_testkit::require_file(&p))
            .collect(),
        Err(_) => (1..=14)
            .map(|n| format!("wwd/RETAIL{n:02}.WWD"))
            .chain(["wwd/LePortdeCoolness.wwd".to_owned()])
            .map(|p| gamedata_testkit::require_file(&p))
            .collect(),
    };
    let mut failed = Vec::new();
    for path in &levels {
        let dir = tempfile::tempdir().unwrap();
        let file = LevelFile::open(path).unwrap();
        let level = file.view().unwrap();
        let start = std::time::Instant::now();
        let (windows, differing) = compare(&level, &source, dir.path(), (256, 192), false);
        eprintln!(
            "{}: {windows} windows, {differing} pixels differ ({:.1} s)",
            path.display(),
            start.elapsed().as_secs_f64()
        );
        if differing != 0 {
            failed.push(path.display().to_string());
        }
    }
    assert!(failed.is_empty(), "differing: {failed:?}");
}

/// The three Gruntz levels (32-pixel tiles, each image with its own palette), from an
/// archive shaped like GRUNTZ.REZ.
#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files, and tmxrasterizer"]
fn gruntz_levels_are_drawn_by_tiled_as_the_engine_draws_them() {
    let rez = gruntz_archive();
    if !have_tmxrasterizer() {
        return;
    }
    let source = archive_source(rez);
    for name in [
        "GRUNTZREZ_AREA8_WORLDZ_LEVEL29.WWD",
        "RockySwitch.wwd",
        "BombzAway!.wwd",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let file = LevelFile::open(gamedata_testkit::require_file(&format!("wwd/{name}"))).unwrap();
        let level = file.view().unwrap();
        let (windows, differing) = compare(&level, &source, dir.path(), (256, 192), true);
        eprintln!("{name}: {windows} windows, {differing} pixels differ");
        assert_eq!(differing, 0, "{name}");
    }
}
