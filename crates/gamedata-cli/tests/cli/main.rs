//! The `gamedata` command end to end: synthetic files always, real files with GAMEDATA_DIR.
//! One test crate; a module a family (`cosmo`, `uo`, `wwd`), the shared helpers and the
//! commands of no family here.

// The one place this test crate allows what library code may not: a failed unwrap, expect,
// index or panic is a failed test. (clippy.toml's allow-*-in-tests covers only #[test]
// functions, not the helpers beside them.)
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::cast_possible_truncation
)]

use std::path::Path;
use std::process::{Command, Output};

use mni_core::synth;
use serde_json::Value;

mod cosmo;
mod cosmo_tmx;
mod printable;
mod rez;
mod rez_bounds;
mod uo;
mod uo_anim;
mod uo_anim_limits;
mod uo_anim_uop;
mod uo_art;
mod uo_attack;
mod uo_client;
mod uo_export;
mod uo_gump;
mod uo_map_files;
mod uo_shared_streams;
mod uo_synth;
mod uo_texmap;
mod uo_world;
mod uo_world_attack;
mod web;
mod wwd;
mod wwd_scene;
mod wwd_tmx;

fn gamedata(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gamedata"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run gamedata")
}

/// The keys of a JSON object, in their order (the report's contract).
fn json_keys(value: &Value) -> Vec<&str> {
    let object = value.as_object().expect("a JSON object");
    object.keys().map(String::as_str).collect()
}

/// PNG files under `dir`, at any depth.
fn pngs(dir: &Path) -> usize {
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            n += pngs(&path);
        } else if path.extension().is_some_and(|e| e == "png") {
            n += 1;
        }
    }
    n
}

fn stdout_json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON document")
}

/// A folder holding the synthetic COSMO1.STN / COSMO1.VOL.
fn synthetic_game_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let e = synth::episode().unwrap();
    std::fs::write(dir.path().join("COSMO1.STN"), &e.stn).unwrap();
    std::fs::write(dir.path().join("COSMO1.VOL"), &e.vol).unwrap();
    dir
}

fn png_size(path: &Path) -> (u32, u32) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let reader = decoder.read_info().unwrap();
    let info = reader.info();
    (info.width, info.height)
}

/// The PNG's pixels as RGBA: an RGB one's (an opaque picture, such as a radar map, stored
/// without alpha) with alpha 255.
fn png_pixels(path: &Path) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap();
    gamedata_render::RgbaImage::from_png(&bytes)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .into_pixels()
}

/// Runs `gamedata` and asserts it succeeded, showing its stderr otherwise.
fn gamedata_ok(args: &[&str], cwd: &Path) -> Output {
    let out = gamedata(args, cwd);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs `gamedata`, asserts it failed with status 1 (an error, not a panic), and returns
/// its stderr.
fn gamedata_fails(args: &[&str], cwd: &Path) -> String {
    let out = gamedata(args, cwd);
    let message = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{message}");
    message
}

/// The JSON without its timing, which differs run to run.
fn without_timing(mut v: Value) -> Value {
    if let Some(o) = v.as_object_mut() {
        o.remove("elapsed_ms");
    }
    v
}

#[test]
fn demo_builds_lists_summarises_and_renders() {
    let dir = tempfile::tempdir().unwrap();
    let out = gamedata(&["demo", "--out", "demo"], dir.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "TILEATTR.MNI",
        "A1.MNI",
        "block only south",
        "256 x 128 tiles",
        "demo/A1.png",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in:\n{text}");
    }
    let demo = dir.path().join("demo");
    assert_eq!(png_size(&demo.join("A1.png")), (2048, 1024));
    assert_ne!(
        png_pixels(&demo.join("A1.png")),
        png_pixels(&demo.join("A1-attributes.png"))
    );
    // With the synthetic backdrop and actors: another picture of the same size.
    assert_eq!(png_size(&demo.join("A1-level.png")), (2048, 1024));
    assert_ne!(
        png_pixels(&demo.join("A1.png")),
        png_pixels(&demo.join("A1-level.png"))
    );
    assert!(text.contains("backdrop 3 (BDROCKTK.MNI)"), "{text}");
    // The synthetic level drawn with its synthetic archive: every image found, the picture
    // the size of its collision map and another.
    assert!(text.contains("objects drawn, 0 images missing"), "{text}");
    assert_eq!(
        png_size(&demo.join("wwd-level.png")),
        png_size(&demo.join("wwd-collision.png"))
    );
    assert_ne!(
        png_pixels(&demo.join("wwd-level.png")),
        png_pixels(&demo.join("wwd-collision.png"))
    );
    level_picture_shows_the_level(&demo);
    world_picture_shows_the_showcase(&demo, dir.path());
    // The level validates.
    let text =
        String::from_utf8(gamedata_ok(&["wwd", "validate", "demo"], dir.path()).stdout).unwrap();
    assert!(text.contains("1 levels: 1 ok, 0 failed"), "{text}");
    // The demo's files are real group files the other commands read.
    let ls = stdout_json(&gamedata(
        &["cosmo", "ls", "demo/COSMO1.STN", "--json"],
        dir.path(),
    ));
    assert_eq!(ls.as_array().unwrap().len(), 5);
    // With --json, one document listing every file written with its length, and no text.
    let report = stdout_json(&gamedata(&["--json", "demo", "--out", "demo2"], dir.path()));
    let files = report["files"].as_array().unwrap();
    let names: Vec<&str> = files.iter().map(|f| f["path"].as_str().unwrap()).collect();
    for want in [
        "demo2/COSMO1.STN",
        "demo2/A1.png",
        "demo2/A1-level.png",
        "demo2/SYNTH01.WWD",
        "demo2/wwd-collision.png",
        "demo2/SYNTH.REZ",
        "demo2/wwd-level.png",
        "demo2/uo/map0.mul",
        "demo2/uo-radar.png",
        "demo2/uo-art/art.mul",
        "demo2/uo-art/texmaps.mul",
        "demo2/uo-world.png",
    ] {
        assert!(names.contains(&want), "{want} not in {names:?}");
    }
    for f in files {
        let path = dir.path().join(f["path"].as_str().unwrap());
        assert_eq!(
            f["bytes"].as_u64(),
            Some(std::fs::metadata(path).unwrap().len())
        );
    }
    assert!(report["elapsed_ms"].as_f64().unwrap() > 0.0);
}

/// `uo-world.png` of the demo in `demo` is the view its text names of the folder `uo synth
/// --art` writes at 64 x 64 tiles (drawn again by `uo render --style world` from a folder
/// the synth command wrote in `tmp`), and shows the showcase where docs/formats/uo.md puts
/// it: a land tile (x, y) at z 0 centred on screen pixel ((x - y) * 22, (x + y) * 22).
fn world_picture_shows_the_showcase(demo: &Path, tmp: &Path) {
    let (sx, sy) = (-800i64, 560i64);
    assert_eq!(png_size(&demo.join("uo-world.png")), (1480, 1420));
    gamedata_ok(
        &[
            "uo",
            "synth",
            "synth-art",
            "--width",
            "64",
            "--height",
            "64",
            "--art",
        ],
        tmp,
    );
    for name in [
        "map0.mul",
        "statics0.mul",
        "tiledata.mul",
        "hues.mul",
        "art.mul",
        "texmaps.mul",
    ] {
        assert_eq!(
            std::fs::read(demo.join("uo-art").join(name)).unwrap(),
            std::fs::read(tmp.join("synth-art").join(name)).unwrap(),
            "{name}"
        );
    }
    gamedata_ok(
        &[
            "uo",
            "render",
            "synth-art",
            "--width",
            "64",
            "--height",
            "64",
            "--style",
            "world",
            "--view=-800,560",
            "--view-size",
            "1480x1420",
            "-o",
            "world.png",
        ],
        tmp,
    );
    let pixels = png_pixels(&demo.join("uo-world.png"));
    assert_eq!(pixels, png_pixels(&tmp.join("world.png")));
    let rgb = |x: i64, y: i64| -> [i64; 3] {
        let at = (((y - sy) * 1480 + (x - sx)) * 4) as usize;
        [0, 1, 2].map(|c| i64::from(pixels[at + c]))
    };
    let tile = |x: i64, y: i64| rgb((x - y) * 22, (x + y) * 22);
    let green = |[r, g, b]: [i64; 3]| g > r + 30 && g > b + 30;
    let blue = |[r, g, b]: [i64; 3]| b > r + 40 && b > g + 20;
    let orange = |[r, g, b]: [i64; 3]| r > 180 && r > g + 40 && g > b;
    // Grass at z 0, the lava and water patches (x 22 and 24, y 10), the pond's water.
    for (x, y) in [(30, 40), (36, 22), (12, 50)] {
        assert!(green(tile(x, y)), "grass at ({x}, {y}): {:?}", tile(x, y));
    }
    assert!(orange(tile(23, 11)), "lava: {:?}", tile(23, 11));
    assert!(blue(tile(25, 11)), "water: {:?}", tile(25, 11));
    assert!(blue(tile(15, 31)), "the pond: {:?}", tile(15, 31));
    // The tower (44 x 220 pixels, at (32, 54)) stands over the grass north of its tile:
    // 100 pixels above its tile's centre is stone, not grass.
    let (tx, ty) = ((32 - 54) * 22, (32 + 54) * 22);
    assert!(
        !green(rgb(tx, ty - 100)),
        "the tower: {:?}",
        rgb(tx, ty - 100)
    );
    assert!(
        green(rgb(tx + 60, ty - 100)),
        "beside the tower: {:?}",
        rgb(tx + 60, ty - 100)
    );
}

/// `wwd-level.png` of the demo in `demo` shows the level the demo's `SYNTH01.WWD` holds,
/// whole at 24 pixels a 64-pixel tile: sky on top, earth at the bottom, grass where the
/// level's grass tiles are, and each object's sprite where the object is (gold coins, red
/// officers, blue soldiers, red flags, a parchment map), told by hue.
fn level_picture_shows_the_level(demo: &Path) {
    type Hue = dyn Fn([i64; 3]) -> bool;
    let file = wap_core::LevelFile::open(demo.join("SYNTH01.WWD")).unwrap();
    let level = file.view().unwrap();
    let main = level.main_plane().unwrap().unwrap();
    let (wide, high) = (main.tiles_wide(), main.tiles_high());
    let png = demo.join("wwd-level.png");
    let (w, h) = png_size(&png);
    assert_eq!((w, h), (wide * 24, high * 24));
    let pixels = png_pixels(&png);
    let rgb = |x: i64, y: i64| -> [i64; 3] {
        let at = ((y.clamp(0, i64::from(h) - 1) * i64::from(w) + x.clamp(0, i64::from(w) - 1)) * 4)
            as usize;
        [0, 1, 2].map(|c| i64::from(pixels[at + c]))
    };
    let blue = |[r, g, b]: [i64; 3]| b > r + 40 && b >= g;
    let green = |[r, g, b]: [i64; 3]| g > r + 30 && g > b + 30;
    let brown = |[r, g, b]: [i64; 3]| r > g + 15 && g > b + 5;
    let share = |rows: std::ops::Range<i64>, test: &dyn Fn([i64; 3]) -> bool| {
        let n = rows.clone().count() as f64 * f64::from(w);
        let hits = rows
            .flat_map(|y| (0..i64::from(w)).map(move |x| (x, y)))
            .filter(|&(x, y)| test(rgb(x, y)))
            .count();
        hits as f64 / n
    };
    let (hi, wi) = (i64::from(h), i64::from(w));
    let sky = share(0..hi / 6, &blue);
    assert!(
        sky > 0.8,
        "{:.0} % of the top rows are sky blue",
        sky * 100.0
    );
    let earth = share(hi - 8..hi, &brown);
    assert!(
        earth > 0.6,
        "{:.0} % of the bottom rows are earth",
        earth * 100.0
    );
    // Grass on top of every grass tile (an object's feet may stand on a few).
    let (mut tiles, mut grassy) = (0u32, 0u32);
    for ty in 0..high {
        for tx in 0..wide {
            if main.tile_raw(tx, ty) == Some(u32::from(wap_core::synth::tiles::GRASS)) {
                tiles += 1;
                let (x, y) = (i64::from(tx) * 24, i64::from(ty) * 24 + 1);
                grassy += u32::from((0..24).filter(|dx| green(rgb(x + dx, y))).count() > 12);
            }
        }
    }
    assert!(
        tiles > wide / 2 && grassy * 10 >= tiles * 9,
        "{grassy} of {tiles}"
    );
    // Each object's sprite at its place: a window of its picture holds its colour.
    let mut seen = std::collections::BTreeSet::new();
    for object in main.objects() {
        let object = object.unwrap();
        let (x, y) = object.position();
        let (x, y) = (i64::from(x), i64::from(y));
        // The window in game pixels (left, top, right, bottom) and the colour.
        let (window, colour): ((i64, i64, i64, i64), &Hue) = match object.logic() {
            b"Treasure" => ((x - 10, y + 4, x + 10, y + 28), &|[r, g, b]| {
                r > 180 && g > 130 && b < 100
            }),
            b"Officer" => ((x - 8, y - 24, x + 8, y + 4), &|[r, g, b]| {
                r > 150 && g < 80 && b < 80
            }),
            b"Soldier" => ((x - 8, y - 24, x + 8, y + 4), &|[r, g, b]| {
                b > 120 && r < 90 && g < 110
            }),
            b"Checkpoint" => ((x - 10, y - 70, x + 18, y - 45), &|[r, g, b]| {
                r > 150 && g < 80 && b < 80
            }),
            b"EndOfLevelPowerup" => ((x - 15, y + 4, x + 15, y + 28), &|[r, g, b]| {
                r > 200 && g > 180 && (120..200).contains(&b)
            }),
            other => panic!("{}", String::from_utf8_lossy(other)),
        };
        let (l, t, r, b) = window;
        let hits = (t * 24 / 64..b * 24 / 64)
            .flat_map(|py| (l * 24 / 64..r * 24 / 64).map(move |px| (px, py)))
            .filter(|&(px, py)| px < wi && py < hi && colour(rgb(px, py)))
            .count();
        let logic = String::from_utf8_lossy(object.logic()).into_owned();
        assert!(hits >= 3, "{logic} at {x},{y}: {hits} pixels of its colour");
        seen.insert(logic);
    }
    assert_eq!(seen.len(), 5, "{seen:?}");
}

#[test]
fn json_is_a_global_flag() {
    let dir = synthetic_game_dir();
    let before = stdout_json(&gamedata(
        &["--json", "cosmo", "map", ".", "A1.MNI"],
        dir.path(),
    ));
    let after = stdout_json(&gamedata(
        &["cosmo", "map", ".", "A1.MNI", "--json"],
        dir.path(),
    ));
    let between = stdout_json(&gamedata(
        &["cosmo", "--json", "map", ".", "A1.MNI"],
        dir.path(),
    ));
    assert_eq!(before, after);
    assert_eq!(before, between);
    assert_eq!(before["width"], 256);
}

#[test]
fn a_closed_pipe_ends_quietly_with_status_0() {
    use std::io::Read;
    use std::process::Stdio;
    let dir = synthetic_game_dir();
    // A level with about a thousand objects: a JSON listing far larger than a pipe's buffer.
    let level = wap_core::synth::level(3, 2000, 20).to_file(true).unwrap();
    std::fs::write(dir.path().join("big.wwd"), level).unwrap();
    for args in [
        &["cosmo", "map", ".", "A1.MNI", "--render", "x.png"][..],
        &["cosmo", "ls", "COSMO1.VOL"][..],
        &["cosmo", "extract", "COSMO1.VOL", "A1.MNI", "-o", "-"][..],
        &["demo", "--out", "demo"][..],
        &["wwd", "objects", "big.wwd", "--json"][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gamedata"))
            .args(args)
            .current_dir(dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Read one byte, like `head -c1`, then close the pipe.
        let mut first = [0u8; 1];
        child.stdout.take().unwrap().read_exact(&mut first).unwrap();
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// A listing command (`args`, run in `cwd`) prints the same results in every mode: the
/// `--json` document's `key` array (returned), one object a line with `--jsonl`, the first
/// N with `--limit N`, the number alone with `--count` (and `{"count": N}` with `--json`),
/// and text with a header line first and "N `noun`" last.
fn check_listing(args: &[&str], cwd: &Path, key: &str, noun: &str) -> Vec<Value> {
    let run = |extra: &[&str]| {
        let out = gamedata(&[args, extra].concat(), cwd);
        assert!(
            out.status.success(),
            "{extra:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let doc: Value = serde_json::from_str(&run(&["--json"])).unwrap();
    let rows = doc[key].as_array().unwrap().clone();
    let n = rows.len();
    assert_eq!(doc["count"], n);
    assert!(n >= 3, "{n} rows: too few to check --limit");
    let lines = |text: &str| -> Vec<Value> {
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    assert_eq!(lines(&run(&["--jsonl"])), rows);
    assert_eq!(lines(&run(&["--jsonl", "--limit", "3"])), rows[..3]);
    let limited: Value = serde_json::from_str(&run(&["--json", "--limit", "2"])).unwrap();
    assert_eq!(limited["count"], 2);
    assert_eq!(limited[key].as_array().unwrap()[..], rows[..2]);
    assert_eq!(run(&["--count"]), format!("{n}\n"));
    let count: Value = serde_json::from_str(&run(&["--count", "--json"])).unwrap();
    assert_eq!(count, serde_json::json!({ "count": n }));
    let text = run(&[]);
    let text: Vec<&str> = text.lines().collect();
    assert_eq!(text.len(), n + 2);
    assert!(
        text[0]
            .split_whitespace()
            .all(|w| w.parse::<i64>().is_err()),
        "a header first: {:?}",
        text[0]
    );
    assert_eq!(text[n + 1], format!("{n} {noun}"));
    rows
}

/// An endless stream given as a file is read up to the stream cap (256 MiB) and refused,
/// naming the path, by every family that reads whole files.
#[cfg(unix)]
#[test]
fn an_endless_stream_is_refused_at_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["wwd", "info", "/dev/zero"][..],
        &["cosmo", "ls", "/dev/zero"],
        &["rez", "pid", "/dev/zero", "-o", "x.png"],
    ] {
        let out = gamedata(args, dir.path());
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(
                "/dev/zero is not a regular file and gives more than 268435456 bytes (the limit \
                 for a stream"
            ),
            "{args:?}: {err}"
        );
    }
}
