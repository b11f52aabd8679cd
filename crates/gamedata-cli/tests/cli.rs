//! The `gamedata` command end to end: synthetic files always, real files with GAMEDATA_DIR.

// Tests may panic: a failed unwrap or index is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use mni_core::synth;
use serde_json::{Value, json};

fn gamedata(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gamedata"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run gamedata")
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

fn png_pixels(path: &Path) -> Vec<u8> {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    buf
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
    // The demo's files are real group files the other commands read.
    let ls = stdout_json(&gamedata(
        &["cosmo", "ls", "demo/COSMO1.STN", "--json"],
        dir.path(),
    ));
    assert_eq!(ls.as_array().unwrap().len(), 3);
}

#[test]
fn ls_json_lists_every_entry() {
    let dir = synthetic_game_dir();
    let ls = stdout_json(&gamedata(
        &["cosmo", "ls", "COSMO1.STN", "--json"],
        dir.path(),
    ));
    // Sizes: TILEATTR 7,000; TILES 19 tiles x 32; MASKTILE 3 tiles x 40; contiguous from 4,000.
    assert_eq!(
        ls,
        json!([
            {"name": "TILEATTR.MNI", "offset": 4000, "size": 7000},
            {"name": "TILES.MNI", "offset": 11000, "size": 608},
            {"name": "MASKTILE.MNI", "offset": 11608, "size": 120},
        ])
    );
}

#[test]
fn map_json_and_render() {
    let dir = synthetic_game_dir();
    let out = gamedata(
        &[
            "cosmo", "map", ".", "a2.mni", "--json", "--render", "a2.png",
        ],
        dir.path(),
    );
    let v = stdout_json(&out);
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(64), Some(512))
    );
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "width",
            "height",
            "actors",
            "backdrop",
            "music",
            "rain",
            "palette_animation"
        ]
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("wrote a2.png"));
    assert_eq!(png_size(&dir.path().join("a2.png")), (512, 4096));
}

#[test]
fn tileattr_accepts_folder_group_file_and_entry() {
    let dir = synthetic_game_dir();
    std::fs::write(dir.path().join("TILEATTR.MNI"), synth::tile_attributes()).unwrap();
    let expected = json!({
        "tiles": 3000, "blocks_nothing": 2993, "blocks_everything": 4, "south_only": 2,
        "other_mix": 1,
        "flags": {"block_south": 6, "block_north": 4, "block_west": 4, "block_east": 5,
                  "slippery": 1, "in_front": 2, "sloped": 1, "clingable": 2}
    });
    for path in [".", "COSMO1.STN", "TILEATTR.MNI"] {
        let v = stdout_json(&gamedata(
            &["cosmo", "tileattr", path, "--json"],
            dir.path(),
        ));
        assert_eq!(v, expected, "{path}");
    }
}

#[test]
fn extract_copies_the_entry_bytes() {
    let dir = synthetic_game_dir();
    let out = gamedata(
        &[
            "cosmo",
            "extract",
            "COSMO1.STN",
            "tileattr.mni",
            "-o",
            "t.bin",
        ],
        dir.path(),
    );
    assert!(out.status.success());
    assert_eq!(
        std::fs::read(dir.path().join("t.bin")).unwrap(),
        synth::tile_attributes()
    );
    let out = gamedata(&["cosmo", "extract", "COSMO1.STN", "TILES.MNI"], dir.path());
    assert!(out.status.success());
    assert_eq!(
        std::fs::read(dir.path().join("TILES.MNI")).unwrap(),
        synth::solid_tiles()
    );
    let out = gamedata(
        &["cosmo", "extract", "COSMO1.STN", "MASKTILE.MNI", "-o", "-"],
        dir.path(),
    );
    assert_eq!(out.stdout, synth::masked_tiles());
    let out = gamedata(&["cosmo", "extract", "COSMO1.STN", "NOPE.MNI"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no entry named \"NOPE.MNI\""));
}

#[test]
fn bad_input_is_a_clear_error_on_stderr() {
    let dir = synthetic_game_dir();
    let stn = std::fs::read(dir.path().join("COSMO1.STN")).unwrap();
    std::fs::write(dir.path().join("short.stn"), &stn[..3000]).unwrap();
    let out = gamedata(&["cosmo", "ls", "short.stn", "--json"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("group file directory is 3000 bytes, expected at least 4000"),
        "{err}"
    );

    // Cut inside TILES.MNI: the listing is complete, the error names the two bad entries.
    std::fs::write(dir.path().join("cut.stn"), &stn[..11100]).unwrap();
    let out = gamedata(&["cosmo", "ls", "cut.stn", "--json"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 3);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("2 bad entries")
            && err.contains("\"TILES.MNI\"")
            && err.contains("\"MASKTILE.MNI\""),
        "{err}"
    );

    // A map whose width is not a power of two, in a copy of the VOL.
    let mut vol = std::fs::read(dir.path().join("COSMO1.VOL")).unwrap();
    vol[4002..4004].copy_from_slice(&100u16.to_le_bytes()); // A1.MNI starts at 4000; width at +2
    std::fs::write(dir.path().join("COSMO1.VOL"), &vol).unwrap();
    let out = gamedata(&["cosmo", "map", ".", "A1.MNI"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("reading map A1.MNI") && err.contains("map width is 100 tiles"),
        "{err}"
    );

    let out = gamedata(&["cosmo", "map", ".", "A1.MNI", "--attributes"], dir.path());
    assert_eq!(out.status.code(), Some(2), "--attributes needs --render");
}

/// `$GAMEDATA_DIR/cosmo`, failing loudly when unset or missing.
fn real_cosmo_dir() -> PathBuf {
    let dir = std::env::var_os("GAMEDATA_DIR")
        .map(PathBuf::from)
        .expect("GAMEDATA_DIR must be set for real-file tests");
    let cosmo = dir.join("cosmo");
    assert!(
        cosmo.join("COSMO1.STN").is_file() && cosmo.join("COSMO1.VOL").is_file(),
        "{} lacks COSMO1.STN/VOL",
        cosmo.display()
    );
    cosmo
}

/// Compares the command's JSON with `tests/golden/NAME` (rewrites it with GOLDEN_UPDATE=1).
fn golden(name: &str, args: &[&str], cwd: &Path) {
    let got = stdout_json(&gamedata(args, cwd));
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("GOLDEN_UPDATE").is_some() {
        std::fs::write(&path, serde_json::to_string_pretty(&got).unwrap() + "\n").unwrap();
        return;
    }
    let expected: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(got, expected, "{name}");
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn golden_json_on_real_files() {
    let cosmo = real_cosmo_dir();
    golden(
        "ls-COSMO1.STN.json",
        &["cosmo", "ls", "COSMO1.STN", "--json"],
        &cosmo,
    );
    golden(
        "ls-COSMO1.VOL.json",
        &["cosmo", "ls", "COSMO1.VOL", "--json"],
        &cosmo,
    );
    golden(
        "tileattr.json",
        &["cosmo", "tileattr", ".", "--json"],
        &cosmo,
    );
    golden(
        "map-A1.MNI.json",
        &["cosmo", "map", ".", "A1.MNI", "--json"],
        &cosmo,
    );
    golden(
        "map-A10.MNI.json",
        &["cosmo", "map", ".", "a10.mni", "--json"],
        &cosmo,
    );
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn renders_a1_from_the_real_files() {
    let cosmo = real_cosmo_dir();
    let out_dir = tempfile::tempdir().unwrap();
    let png = out_dir.path().join("a1.png");
    let overlay = out_dir.path().join("a1-attr.png");
    let p = png.to_str().unwrap();
    let out = gamedata(&["cosmo", "map", ".", "A1.MNI", "--render", p], &cosmo);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let q = overlay.to_str().unwrap();
    let out = gamedata(
        &["cosmo", "map", ".", "A1.MNI", "--render", q, "--attributes"],
        &cosmo,
    );
    assert!(out.status.success());
    assert_eq!(png_size(&png), (4096, 512));
    let pixels = png_pixels(&png);
    let drawn = pixels.chunks(4).filter(|p| p[..3] != [0, 0, 0]).count();
    // The ground, plants and ship cover a good part of the level; an all-black render fails.
    assert!(drawn > 4096 * 512 / 10, "only {drawn} non-black pixels");
    assert_ne!(pixels, png_pixels(&overlay));
}
