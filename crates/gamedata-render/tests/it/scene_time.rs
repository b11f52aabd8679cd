//! The real levels at a time of their objects' animations (`GAMEDATA_DIR`): every
//! animation string of the 14 retail Claw levels and the three Gruntz levels given an ANI
//! file in an archive shaped like CLAW.REZ (GRUNTZ.REZ), its records of every step and rule
//! made from the string, and the pictures at several times equal to the independent
//! expectation (`engine.rs`, its frames from the test kit's plain record walk).

use std::collections::BTreeMap;

use gamedata_render::Region;
use gamedata_render::wap_core::{Level, LevelFile};
use gamedata_render::wwd::View;
use gamedata_testkit::ani::Record;

use crate::engine::{Camera, RefArchive, assert_same_at, rendered};
use crate::scene::{claw_lopsided_with, gruntz_lopsided_with};

/// FNV-1a of `text`, for records that differ from string to string.
fn hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Records made from `key`: 1 to 6, of steps 0 to 7 (mostly 3, a frame 0 to 9) and rules
/// 0, 1, 3, 8 and 9, durations -5 to 294 ms, some in ticks.
fn records(key: &str) -> Vec<Record> {
    let mut h = hash(key);
    let mut next = |n: u64| {
        h = h.rotate_left(17).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5555;
        h % n
    };
    (0..1 + next(6))
        .map(|_| {
            let step = [3, 3, 3, 1, 2, 4, 5, 6, 7, 0][next(10) as usize];
            Record {
                flags: u16::from(next(7) == 0),
                step,
                next: [0, 0, 0, 1, 3, 8, 9][next(7) as usize],
                param: next(10) as i16,
                duration: next(300) as i16 - 5,
            }
        })
        .collect()
}

/// Where a level whose prefixes are `prefixes` keeps the animation `key`: the `ANIS`
/// (`ANIZ`) folder beside the prefix's `IMAGES` (`IMAGEZ`), each `_` of the rest a folder.
fn path_of(key: &str, prefixes: &[(String, String)]) -> Option<String> {
    prefixes.iter().find_map(|(prefix, folder)| {
        let rest = key.strip_prefix(prefix.as_str())?.strip_prefix('_')?;
        let (parent, name) = folder.rsplit_once('/')?;
        let beside = match name {
            "IMAGES" => "ANIS",
            "IMAGEZ" => "ANIZ",
            _ => return None,
        };
        Some(format!("{parent}/{beside}/{}.ANI", rest.replace('_', "/")))
    })
}

/// Every animation string of `levels`' objects, as a path and its records.
fn animations(levels: &[Level<'_>]) -> Vec<(String, Vec<Record>)> {
    let mut anis = BTreeMap::new();
    for level in levels {
        let prefixes: Vec<(String, String)> = level
            .header()
            .image_set_prefixes()
            .iter()
            .filter(|(p, f)| !p.is_empty() && !f.is_empty())
            .map(|(p, f)| {
                // Some headers join the folder with `_` (`LEVEL3_IMAGES`).
                let folder = String::from_utf8_lossy(f).replace(['\\', '_'], "/");
                let folder = folder.trim_matches('/').to_ascii_uppercase();
                (String::from_utf8_lossy(p).into_owned(), folder)
            })
            .collect();
        for plane in level.planes() {
            for object in plane.unwrap().objects() {
                let key = String::from_utf8_lossy(object.unwrap().animation()).into_owned();
                if let Some(path) = path_of(&key, &prefixes) {
                    anis.entry(path).or_insert_with(|| records(&key));
                }
            }
        }
    }
    anis.into_iter().collect()
}

/// `level` at several times: whole at 4 pixels a tile, the screen at the start and in
/// the middle; returns the objects the renderer drew at their animation's frame.
fn check_times(level: &Level<'_>, archive: &RefArchive, what: &str) -> u64 {
    let main = level.main_plane().unwrap().unwrap();
    let (wide, high) = (main.tiles_wide(), main.tiles_high());
    let (tw, th) = main.tile_size();
    let (sx, sy) = level.header().start();
    let middle = (wide as i32 * tw / 2, high as i32 * th / 2);
    for time in [0, 777, 10_000_019] {
        let whole = Camera::Whole { tile_px: 4 };
        let all = [Region::new(0, 0, wide * 4, high * 4)];
        assert_same_at(level, archive, whole, Some(time), &all, what);
        for (x, y) in [(sx - 320, sy - 240), middle] {
            let screen = [Region::new(0, 0, 640, 480)];
            let view = Camera::View(View::at(x, y));
            assert_same_at(level, archive, view, Some(time), &screen, what);
        }
    }
    let scene = rendered(level, archive, Camera::Whole { tile_px: 4 }, Some(777));
    let report = scene.report();
    eprintln!(
        "{what}: {} animated, {} unplayed",
        report.animated, report.unplayed
    );
    assert_eq!(report.unplayed, 0, "{what}");
    report.animated
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn every_retail_level_at_a_time_is_drawn_by_the_engine_s_rules() {
    let files: Vec<LevelFile> = (1..=14)
        .map(|n| {
            let path = gamedata_testkit::require_file(&format!("wwd/RETAIL{n:02}.WWD"));
            LevelFile::open(path).unwrap()
        })
        .collect();
    let levels: Vec<Level<'_>> = files.iter().map(|f| f.view().unwrap()).collect();
    let anis = animations(&levels);
    assert!(anis.len() > 100, "{} animations", anis.len());
    let palettes: Vec<String> = (1..=14)
        .map(|n| format!("LEVEL{n}/PALETTES/MAIN.PAL"))
        .collect();
    let palettes: Vec<&str> = palettes.iter().map(String::as_str).collect();
    let archive = claw_lopsided_with(&palettes, anis);
    let mut animated = 0;
    for (n, level) in levels.iter().enumerate() {
        animated += check_times(level, &archive, &format!("RETAIL{:02} at a time", n + 1));
    }
    assert!(animated > 1_000, "{animated} objects animated");
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn gruntz_levels_at_a_time_are_drawn_by_the_engine_s_rules() {
    let files: Vec<LevelFile> = [
        "GRUNTZREZ_AREA8_WORLDZ_LEVEL29.WWD",
        "RockySwitch.wwd",
        "BombzAway!.wwd",
    ]
    .iter()
    .map(|name| LevelFile::open(gamedata_testkit::require_file(&format!("wwd/{name}"))).unwrap())
    .collect();
    let levels: Vec<Level<'_>> = files.iter().map(|f| f.view().unwrap()).collect();
    let anis = animations(&levels);
    assert!(!anis.is_empty());
    let archive = gruntz_lopsided_with(anis);
    let mut animated = 0;
    for (n, level) in levels.iter().enumerate() {
        animated += check_times(level, &archive, &format!("Gruntz level {n} at a time"));
    }
    assert!(animated > 0, "{animated} objects animated");
}
