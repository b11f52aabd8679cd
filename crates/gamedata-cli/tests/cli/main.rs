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
mod rez;
mod rez_bounds;
mod uo;
mod uo_anim;
mod uo_anim_uop;
mod uo_attack;
mod uo_client;
mod uo_texmap;
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
