//! The `gamedata` command end to end: synthetic files always, real files with GAMEDATA_DIR.

// The one place this test crate allows what library code may not: a failed unwrap, expect,
// index or panic is a failed test. (clippy.toml's allow-*-in-tests covers only #[test]
// functions, not the helpers beside them.)
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
        err.contains("reading map A1.MNI")
            && err.contains("in entry A1.MNI (slot 0) of COSMO1.VOL")
            && err.contains("map width is 100 tiles"),
        "{err}"
    );

    let out = gamedata(&["cosmo", "map", ".", "A1.MNI", "--attributes"], dir.path());
    assert_eq!(out.status.code(), Some(2), "--attributes needs --render");
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

#[test]
fn folder_errors_name_the_file_and_entry_errors_the_slot() {
    let dir = synthetic_game_dir();
    // A 0-byte COSMO1.STN: the message names the folder command and the file.
    let vol = std::fs::read(dir.path().join("COSMO1.VOL")).unwrap();
    let stn = std::fs::read(dir.path().join("COSMO1.STN")).unwrap();
    std::fs::write(dir.path().join("COSMO1.STN"), b"").unwrap();
    let out = gamedata(&["cosmo", "tileattr", "."], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("reading TILEATTR.MNI of episode 1 in .")
            && err.contains("caused by: in group file COSMO1.STN")
            && err.contains("caused by: group file directory is 0 bytes, expected at least 4000"),
        "{err}"
    );

    // TILES.MNI (slot 1 of the STN) loses a byte: the render names the group file and slot.
    let mut damaged = stn.clone();
    // Slot 1's size field is at 20 + 16; TILES.MNI is 608 bytes in the synthetic STN.
    damaged[36..40].copy_from_slice(&607u32.to_le_bytes());
    std::fs::write(dir.path().join("COSMO1.STN"), &damaged).unwrap();
    std::fs::write(dir.path().join("COSMO1.VOL"), &vol).unwrap();
    let out = gamedata(
        &["cosmo", "map", ".", "A1.MNI", "--render", "a.png"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("in entry TILES.MNI (slot 1) of COSMO1.STN")
            && err.contains("TILES.MNI is 607 bytes, not a multiple of its 32-byte record"),
        "{err}"
    );
}

/// `$GAMEDATA_DIR/cosmo`, failing loudly when unset or a file is missing.
fn real_cosmo_dir() -> PathBuf {
    gamedata_testkit::require_file("cosmo/COSMO1.STN");
    gamedata_testkit::require_file("cosmo/COSMO1.VOL");
    gamedata_testkit::require_file("cosmo")
}

/// Compares the command's JSON with `tests/golden/NAME` (GOLDEN_UPDATE=1 rewrites it and fails).
fn golden(name: &str, args: &[&str], cwd: &Path) {
    let got = stdout_json(&gamedata(args, cwd));
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    gamedata_testkit::assert_golden(&path, &got);
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

/// A folder with a synthetic 40 x 24-block facet 0 (map, statics, tiledata, radarcol, hues)
/// in upper-case file names, and a multi.idx / multi.mul with one 16-byte multi.
fn synthetic_uo_dir() -> (tempfile::TempDir, mul_core::synth::World) {
    let dir = tempfile::tempdir().unwrap();
    let size = mul_core::MapSize::from_blocks(40, 24).unwrap();
    let world = mul_core::synth::World::generate(size, 11);
    world.write_to(dir.path(), 0).unwrap();
    std::fs::rename(dir.path().join("map0.mul"), dir.path().join("MAP0.MUL")).unwrap();
    // Multi 1: two components, the second at negative offsets. Multi 0 is empty.
    let mut mul = Vec::new();
    for (id, x, y, z, flags) in [(0x0064u16, 0i16, 0i16, 0i16, 1u32), (0x0065, -3, -4, 5, 0)] {
        mul.extend(id.to_le_bytes());
        for v in [x, y, z] {
            mul.extend(v.to_le_bytes());
        }
        mul.extend(flags.to_le_bytes());
        mul.extend(0u32.to_le_bytes());
    }
    let idx: Vec<u8> = [[u32::MAX, 0, 0], [0, 32, 0]]
        .iter()
        .flatten()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    std::fs::write(dir.path().join("multi.idx"), idx).unwrap();
    std::fs::write(dir.path().join("multi.mul"), mul).unwrap();
    (dir, world)
}

const UO_SIZE: [&str; 4] = ["--width", "320", "--height", "192"];

#[test]
fn uo_stats_json_agrees_with_the_library_both_ways() {
    let (dir, world) = synthetic_uo_dir();
    let d = dir.path().to_str().unwrap();
    let par = stdout_json(&gamedata(
        &[&["uo", "stats", d][..], &UO_SIZE, &["--json"]].concat(),
        dir.path(),
    ));
    let seq = stdout_json(&gamedata(
        &[
            &["uo", "stats", d][..],
            &UO_SIZE,
            &["--sequential", "--json"],
        ]
        .concat(),
        dir.path(),
    ));
    let keys: Vec<&str> = par
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        ["width", "height", "blocks", "land", "statics", "elapsed_ms"]
    );
    assert_eq!(
        (
            par["width"].as_u64(),
            par["height"].as_u64(),
            par["blocks"].as_u64()
        ),
        (Some(320), Some(192), Some(960))
    );
    assert_eq!(par["statics"]["count"].as_u64(), Some(world.static_count));
    assert_eq!(par["land"], seq["land"]);
    assert_eq!(par["statics"], seq["statics"]);
    let top = par["land"]["top"].as_array().unwrap();
    assert!(!top.is_empty() && top.len() <= 10);
    assert!(top[0]["count"].as_u64() >= top.last().unwrap()["count"].as_u64());
    // Brute-force count of the most common land id over the map bytes.
    let id = u16::try_from(top[0]["id"].as_u64().unwrap()).unwrap();
    let cells = world
        .map
        .chunks(196)
        .flat_map(|b| b[4..].chunks(3))
        .filter(|c| u16::from_le_bytes([c[0], c[1]]) == id)
        .count();
    assert_eq!(top[0]["count"].as_u64(), Some(cells as u64));
}

#[test]
fn uo_tile_info_tiledata_find_multi_and_render() {
    let (dir, world) = synthetic_uo_dir();
    let d = dir.path().to_str().unwrap();
    // A tree from the statics, found by id, then read back with `uo tile`.
    let tree = mul_core::synth::item::TREES[0];
    let found = stdout_json(&gamedata(
        &[
            &["uo", "find", d][..],
            &UO_SIZE,
            &["--id", &format!("{tree:#x}"), "--json"],
        ]
        .concat(),
        dir.path(),
    ));
    let first = &found["statics"][0];
    let (x, y) = (
        first["x"].as_u64().unwrap().to_string(),
        first["y"].as_u64().unwrap().to_string(),
    );
    let tile = stdout_json(&gamedata(
        &[&["uo", "tile", d][..], &UO_SIZE, &[&x, &y, "--json"]].concat(),
        dir.path(),
    ));
    let keys: Vec<&str> = tile
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["x", "y", "land", "statics", "top_z"]);
    assert!(
        tile["statics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["id"] == u64::from(tree))
    );
    // Trees are 20 high in the synthetic tiledata.
    assert_eq!(
        tile["top_z"].as_i64(),
        Some(first["z"].as_i64().unwrap() + 20)
    );
    // --flag finds at least every tree (they are impassable).
    let impassable = stdout_json(&gamedata(
        &[
            &["uo", "find", d][..],
            &UO_SIZE,
            &["--flag", "Impassable", "--json"],
        ]
        .concat(),
        dir.path(),
    ));
    assert!(impassable["count"].as_u64() >= found["count"].as_u64());

    let info = stdout_json(&gamedata(
        &[&["uo", "info", d][..], &UO_SIZE, &["--json"]].concat(),
        dir.path(),
    ));
    assert_eq!(info["statics"]["record_size"], 7);
    assert_eq!(info["statics"]["count"].as_u64(), Some(world.static_count));
    assert_eq!(info["tiledata"]["items"], 65536);
    assert_eq!(info["multi"]["record_size"], 16);

    let td = dir.path().join("tiledata.mul");
    let wall = stdout_json(&gamedata(
        &[
            "uo",
            "tiledata",
            td.to_str().unwrap(),
            "--item",
            "6",
            "--json",
        ],
        dir.path(),
    ));
    assert_eq!(
        wall,
        json!({"id": 6, "name": "stone wall", "flags": ["wall", "impassable", "no_shoot"], "height": 20, "weight": 255})
    );
    let grass = stdout_json(&gamedata(
        &[
            "uo",
            "tiledata",
            td.to_str().unwrap(),
            "--land",
            "0x3",
            "--json",
        ],
        dir.path(),
    ));
    assert_eq!(grass["name"], "grass");

    let multi = stdout_json(&gamedata(&["uo", "multi", d, "1", "--json"], dir.path()));
    assert_eq!(
        multi["components"],
        json!([{"id": 100, "x": 0, "y": 0, "z": 0, "flags": 1}, {"id": 101, "x": -3, "y": -4, "z": 5, "flags": 0}])
    );

    let png = dir.path().join("radar.png");
    let out = gamedata(
        &[
            &["uo", "render", d][..],
            &UO_SIZE,
            &["--scale", "4", "-o", png.to_str().unwrap()],
        ]
        .concat(),
        dir.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "no progress bar when piped: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(png_size(&png), (80, 48));
    let region = dir.path().join("region.png");
    let out = gamedata(
        &[
            &["uo", "render", d][..],
            &UO_SIZE,
            &["--region", "8,8,20,10", "-o", region.to_str().unwrap()],
        ]
        .concat(),
        dir.path(),
    );
    assert!(out.status.success());
    assert_eq!(png_size(&region), (20, 10));
}

#[test]
fn uo_errors_name_what_is_wrong() {
    let (dir, _) = synthetic_uo_dir();
    let d = dir.path().to_str().unwrap();
    // This small map has none of facet 0's sizes: refused, naming the map file, its block
    // count and what to give.
    let out = gamedata(&["uo", "stats", d, "--facet", "0"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("in MAP0.MUL")
            && err.contains("960 blocks: not one of facet 0's sizes")
            && err.contains("--width and --height"),
        "{err}"
    );
    let out = gamedata(&["uo", "stats", d, "--facet", "3"], dir.path());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no map3.mul in"));
    let out = gamedata(
        &[&["uo", "find", d][..], &UO_SIZE, &["--flag", "sparkly"]].concat(),
        dir.path(),
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("no tiledata flag named \"sparkly\""));
    let out = gamedata(&["uo", "tiledata", d, "--item", "1"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let out = gamedata(&["uo", "multi", d, "7"], dir.path());
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("multi.idx has 2 entries, so entry 7 is missing")
    );
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn uo_commands_on_the_real_prealpha_files() {
    let pre = gamedata_testkit::require_file("uo/prealpha");
    let hs = gamedata_testkit::require_file("uo/hs");
    let p = pre.to_str().unwrap();
    let size = ["--width", "1024", "--height", "1024"];
    // Without a size, the 128 x 128-block map is no size of facet 0: exit 1, the block
    // count and the flags to pass named, and no picture written.
    let out_dir = tempfile::tempdir().unwrap();
    let unsized_png = out_dir.path().join("unsized.png");
    for args in [
        vec!["uo", "info", p],
        vec!["uo", "render", p, "-o", unsized_png.to_str().unwrap()],
    ] {
        let out = gamedata(&args, &pre);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("16384 blocks")
                && err.contains("a square map of 128 x 128 blocks (1024 x 1024 tiles) would fit")
                && err.contains("--width and --height"),
            "{err}"
        );
        assert!(out.stdout.is_empty());
    }
    assert!(!unsized_png.exists());
    // Figures read from the raw bytes by a separate script (docs/formats/uo.md).
    let stats = stdout_json(&gamedata(
        &[&["uo", "stats", p][..], &size, &["--json"]].concat(),
        &pre,
    ));
    assert_eq!(stats["blocks"], 16_384);
    assert_eq!(stats["land"]["top"][0], json!({"id": 5, "count": 230_780}));
    assert_eq!(
        (
            stats["land"]["z_min"].as_i64(),
            stats["land"]["z_max"].as_i64()
        ),
        (Some(-33), Some(104))
    );
    assert_eq!(stats["statics"]["count"], 186_765);
    assert_eq!(
        stats["statics"]["top"][0],
        json!({"id": 245, "count": 9486})
    );
    let tile = stdout_json(&gamedata(
        &[&["uo", "tile", p][..], &size, &["500", "600", "--json"]].concat(),
        &pre,
    ));
    assert_eq!(tile["land"], json!({"id": 5, "z": 0}));
    let info = stdout_json(&gamedata(
        &[&["uo", "info", p][..], &size, &["--json"]].concat(),
        &pre,
    ));
    assert_eq!(info["statics"]["record_size"], 11);
    assert_eq!(info["tiledata"]["layout"], "old");

    let gold = stdout_json(&gamedata(
        &[
            "uo",
            "tiledata",
            hs.join("tiledata.mul").to_str().unwrap(),
            "--item",
            "0x0EED",
            "--json",
        ],
        &hs,
    ));
    assert_eq!(gold["name"], "gold coin");
    let multi = stdout_json(&gamedata(
        &["uo", "multi", hs.to_str().unwrap(), "0", "--json"],
        &hs,
    ));
    assert_eq!(multi["components"].as_array().unwrap().len(), 38);

    // The radar map with the High Seas colours: 1024 x 1024, and far from one colour.
    let png = out_dir.path().join("pre.png");
    let radarcol = hs.join("radarcol.mul");
    let out = gamedata(
        &[
            &["uo", "render", p][..],
            &size,
            &[
                "-o",
                png.to_str().unwrap(),
                "--radarcol",
                radarcol.to_str().unwrap(),
            ],
        ]
        .concat(),
        &pre,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(png_size(&png), (1024, 1024));
    let pixels = png_pixels(&png);
    let distinct: std::collections::HashSet<&[u8]> = pixels.chunks(4).collect();
    assert!(distinct.len() > 100, "{} colours", distinct.len());
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

/// A folder with the synthetic level 7 (40 x 20 tiles) compressed and plain, and its data.
fn synthetic_wwd_dir() -> (tempfile::TempDir, wap_core::LevelData) {
    let dir = tempfile::tempdir().unwrap();
    let data = wap_core::synth::level(7, 40, 20);
    std::fs::write(dir.path().join("level.wwd"), data.to_file(true).unwrap()).unwrap();
    std::fs::write(dir.path().join("PLAIN.WWD"), data.to_file(false).unwrap()).unwrap();
    (dir, data)
}

#[test]
fn wwd_info_checksum_objects_and_write_on_a_synthetic_level() {
    let (dir, data) = synthetic_wwd_dir();
    let cwd = dir.path();
    let info = stdout_json(&gamedata(&["wwd", "info", "level.wwd", "--json"], cwd));
    // The contract's keys, in its order.
    let keys: Vec<&str> = info
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys[..12],
        [
            "game",
            "compressed",
            "trailer_bytes",
            "main_block_size",
            "name",
            "author",
            "birth",
            "start_x",
            "start_y",
            "planes",
            "tile_properties",
            "checksum"
        ]
    );
    assert_eq!(info["game"], "claw");
    assert_eq!(info["compressed"], true);
    assert_eq!(info["trailer_bytes"], 0);
    assert_eq!(info["main_block_size"], data.main_block().unwrap().len());
    assert_eq!(info["name"], "Synthetic level 7");
    assert_eq!(info["author"], "gamedata synth");
    assert_eq!(
        (info["start_x"].clone(), info["start_y"].clone()),
        (json!(128), json!(64))
    );
    let planes = info["planes"].as_array().unwrap();
    assert_eq!(planes.len(), 3);
    for (plane, want) in planes.iter().zip(&data.planes) {
        let keys: Vec<&str> = plane
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "name",
                "flags",
                "tile_width",
                "tile_height",
                "tiles_wide",
                "tiles_high",
                "z",
                "image_sets",
                "objects",
                "invisible_tiles",
                "filled_tiles"
            ]
        );
        let invisible = want.tiles.iter().filter(|&&t| t == 0xFFFF_FFFF).count();
        let filled = want.tiles.iter().filter(|&&t| t == 0xEEEE_EEEE).count();
        assert_eq!(plane["invisible_tiles"], invisible);
        assert_eq!(plane["filled_tiles"], filled);
        assert_eq!(plane["objects"], want.objects.len());
        assert_eq!(plane["tiles_wide"], want.header.tiles_wide.get());
        assert_eq!(plane["z"], want.header.z.get());
    }
    assert_eq!(planes[1]["name"], "Action");
    assert_eq!(planes[1]["flags"], 1);
    assert_eq!(planes[0]["image_sets"], json!(["BACK"]));
    // The synthetic table: records 0..8 are single, single, double, single, double, mask,
    // double, single.
    assert_eq!(
        info["tile_properties"],
        json!({"count": 8, "single": 4, "double": 3, "mask": 1})
    );
    assert_eq!(info["checksum"]["class"], "exact");
    assert_eq!(info["checksum"]["slack"], Value::Null);
    assert_eq!(info["checksum"]["stored"], info["checksum"]["computed"]);
    let checksum = stdout_json(&gamedata(&["--json", "wwd", "checksum", "PLAIN.WWD"], cwd));
    assert_eq!(checksum["class"], "exact");

    // Objects, all and by logic (case ignored).
    let all = stdout_json(&gamedata(&["wwd", "objects", "level.wwd", "--json"], cwd));
    assert_eq!(all["count"], data.planes[1].objects.len());
    let treasures = data.planes[1]
        .objects
        .iter()
        .filter(|o| o.logic == b"Treasure")
        .count();
    assert!(treasures > 0);
    let some = stdout_json(&gamedata(
        &[
            "wwd",
            "objects",
            "level.wwd",
            "--logic",
            "treasure",
            "--json",
        ],
        cwd,
    ));
    assert_eq!(some["count"], treasures);
    assert!(
        some["objects"]
            .as_array()
            .unwrap()
            .iter()
            .all(|o| o["logic"] == "Treasure" && o["plane"] == 1)
    );

    // Write plain, then compressed again: the same bytes as the writer's compressed file.
    gamedata_ok(
        &["wwd", "write", "level.wwd", "copy.wwd", "--no-compress"],
        cwd,
    );
    assert_eq!(
        std::fs::read(cwd.join("copy.wwd")).unwrap(),
        std::fs::read(cwd.join("PLAIN.WWD")).unwrap()
    );
    gamedata_ok(
        &["wwd", "write", "copy.wwd", "again.wwd", "--compress"],
        cwd,
    );
    assert_eq!(
        std::fs::read(cwd.join("again.wwd")).unwrap(),
        std::fs::read(cwd.join("level.wwd")).unwrap()
    );
}

#[test]
fn wwd_validate_reports_each_level_and_fails_on_a_bad_one() {
    let (dir, _) = synthetic_wwd_dir();
    let cwd = dir.path();
    let sub = cwd.join("more");
    std::fs::create_dir(&sub).unwrap();
    let good = std::fs::read(cwd.join("level.wwd")).unwrap();
    std::fs::write(sub.join("cut.Wwd"), &good[..good.len() - 100]).unwrap();
    std::fs::write(sub.join("notes.txt"), b"not a level").unwrap();
    let out = gamedata(&["wwd", "validate", ".", "--json"], cwd);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a failed level fails the command"
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (report["total"].clone(), report["ok"].clone()),
        (json!(3), json!(2))
    );
    assert_eq!(report["failed"], 1);
    let files = report["files"].as_array().unwrap();
    let cut = files.iter().find(|f| f["ok"] == false).unwrap();
    assert!(cut["path"].as_str().unwrap().ends_with("cut.Wwd"));
    assert!(
        cut["error"]
            .as_str()
            .unwrap()
            .contains("zlib stream of the main block ends early"),
        "{}",
        cut["error"]
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 of 3 levels failed validation"));
    // The good ones alone pass, and without a terminal there is no progress bar.
    let out = gamedata(&["wwd", "validate", "level.wwd", "PLAIN.WWD"], cwd);
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.ends_with("2 levels: 2 ok, 0 failed\n"), "{text}");
}

#[test]
fn wwd_render_draws_each_attribute_where_the_tiles_put_it() {
    let (dir, data) = synthetic_wwd_dir();
    let cwd = dir.path();
    let out = gamedata(
        &[
            "--json",
            "wwd",
            "render",
            "level.wwd",
            "-o",
            "c.png",
            "--tile-px",
            "64",
        ],
        cwd,
    );
    let report = stdout_json(&out);
    assert_eq!(png_size(&cwd.join("c.png")), (40 * 64, 20 * 64));
    let p = &report["pixels"];
    let sum: u64 = ["clear", "solid", "ground", "climb", "death", "other"]
        .iter()
        .map(|k| p[k].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 40 * 64 * 20 * 64);
    // Expected pixel counts from the tiles and the synthetic records' shapes: rock is
    // solid (64 x 64), grass has 8 rows of ground, a ladder is climb, spikes have 32 rows
    // of death, a half wall 32 columns of solid, a slope 2,080 solid pixels (x + y >= 63).
    let tiles = &data.planes[1].tiles;
    let n = |id: u32| tiles.iter().filter(|&&t| t == id).count() as u64;
    let solid = n(1) * 4096 + n(6) * 2048 + n(5) * 2080;
    assert_eq!(p["solid"], solid);
    assert_eq!(p["ground"], n(2) * 64 * 8);
    assert_eq!(p["climb"], n(3) * 4096);
    assert_eq!(p["death"], n(4) * 64 * 32);
    assert_eq!(p["other"], 0);
    assert_eq!(report["objects"], data.planes[1].objects.len());
    // Another plane by name, and a name that is not there.
    gamedata_ok(
        &[
            "wwd",
            "render",
            "level.wwd",
            "-o",
            "f.png",
            "--plane",
            "front",
        ],
        cwd,
    );
    let out = gamedata(
        &[
            "wwd",
            "render",
            "level.wwd",
            "-o",
            "x.png",
            "--plane",
            "nope",
        ],
        cwd,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains(
        "no plane named \"nope\"; the planes are [\"Background\", \"Action\", \"Front\"]"
    ));
}

fn real_wwd(file: &str) -> PathBuf {
    gamedata_testkit::require_file(&format!("wwd/{file}"))
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn wwd_commands_on_the_real_levels() {
    let cwd = std::env::temp_dir();
    // Figures from a separate Python reader of the raw bytes.
    let r01 = real_wwd("RETAIL01.WWD");
    let info = stdout_json(&gamedata(
        &["wwd", "info", r01.to_str().unwrap(), "--json"],
        &cwd,
    ));
    assert_eq!(info["game"], "claw");
    assert_eq!(info["compressed"], true);
    assert_eq!(info["main_block_size"], 647_102);
    assert_eq!(info["name"], "Claw - Level 1");
    assert_eq!(info["planes"][1]["tiles_wide"], 384);
    assert_eq!(info["planes"][1]["tiles_high"], 96);
    assert_eq!(info["planes"][1]["objects"], 1479);
    assert_eq!(info["planes"][1]["invisible_tiles"], 25_587);
    assert_eq!(info["planes"][2]["invisible_tiles"], 2280);
    assert_eq!(
        info["tile_properties"],
        json!({"count": 938, "single": 905, "double": 33, "mask": 0})
    );
    assert_eq!(info["checksum"]["class"], "editor_slack");
    assert_eq!(info["checksum"]["slack"], 255);
    let wapmap = real_wwd("WapMapTest1.wwd");
    let info = stdout_json(&gamedata(
        &["wwd", "info", wapmap.to_str().unwrap(), "--json"],
        &cwd,
    ));
    assert_eq!(info["trailer_bytes"], 63);
    assert_eq!(info["checksum"]["class"], "wapmap");
    let rocky = real_wwd("RockySwitch.wwd");
    let info = stdout_json(&gamedata(
        &["wwd", "info", rocky.to_str().unwrap(), "--json"],
        &cwd,
    ));
    assert_eq!(info["game"], "gruntz");
    assert_eq!(info["planes"][0]["tile_width"], 32);
    let coolness = real_wwd("LePortdeCoolness.wwd");
    let info = stdout_json(&gamedata(
        &["wwd", "info", coolness.to_str().unwrap(), "--json"],
        &cwd,
    ));
    assert_eq!(info["tile_properties"]["mask"], 2);

    // Validate the folder: every level but the bad signature.
    let folder = r01.parent().unwrap();
    let out = gamedata(
        &["wwd", "validate", folder.to_str().unwrap(), "--json"],
        &cwd,
    );
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["total"], 25);
    assert_eq!(report["failed"], 1);
    let bad: Vec<&Value> = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["ok"] == false)
        .collect();
    assert!(
        bad[0]["path"]
            .as_str()
            .unwrap()
            .ends_with("RETAIL01_badsig.WWD")
    );
    assert!(
        bad[0]["error"]
            .as_str()
            .unwrap()
            .contains("not a WWD level")
    );

    // The collision map of level 1: 384 x 96 tiles at 10 pixels a tile side.
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("r01.png");
    let out = gamedata(
        &[
            "--json",
            "wwd",
            "render",
            r01.to_str().unwrap(),
            "-o",
            png.to_str().unwrap(),
        ],
        &cwd,
    );
    let report = stdout_json(&out);
    assert_eq!(png_size(&png), (3840, 960));
    assert_eq!(report["objects"], 1479);
    assert!(report["pixels"]["solid"].as_u64().unwrap() > 500_000);
    assert!(report["pixels"]["death"].as_u64().unwrap() > 0);
}

/// The JSON without its timing, which differs run to run.
fn without_timing(mut v: Value) -> Value {
    if let Some(o) = v.as_object_mut() {
        o.remove("elapsed_ms");
    }
    v
}

#[test]
fn uo_commands_read_a_map_uop_as_they_read_the_mul() {
    // 40 x 160 blocks: 6,400 blocks, two chunks.
    let size = mul_core::MapSize::from_blocks(40, 160).unwrap();
    let world = mul_core::synth::World::generate(size, 4);
    let mul_dir = tempfile::tempdir().unwrap();
    let uop_dir = tempfile::tempdir().unwrap();
    world
        .write_as(mul_dir.path(), 3, mul_core::MapFormat::Mul)
        .unwrap();
    world
        .write_as(uop_dir.path(), 3, mul_core::MapFormat::Uop)
        .unwrap();
    let dims = ["--facet", "3", "--width", "320", "--height", "1280"];
    let run = |dir: &Path, args: &[&str]| {
        let d = dir.to_str().unwrap();
        stdout_json(&gamedata(
            &[&["uo", args[0], d][..], &dims, &args[1..], &["--json"]].concat(),
            dir,
        ))
    };
    let (m, u) = (mul_dir.path(), uop_dir.path());
    assert_eq!(run(m, &["info"])["map_format"], "mul");
    assert_eq!(run(u, &["info"])["map_format"], "uop");
    assert_eq!(
        without_timing(run(m, &["stats"])),
        without_timing(run(u, &["stats"]))
    );
    assert_eq!(
        without_timing(run(m, &["stats", "--sequential"])),
        without_timing(run(u, &["stats"]))
    );
    for (x, y) in ["0 0", "319 1279", "160 700", "5 1025"].map(|p| {
        let mut it = p.split(' ');
        (it.next().unwrap(), it.next().unwrap())
    }) {
        assert_eq!(
            run(m, &["tile", x, y]),
            run(u, &["tile", x, y]),
            "({x}, {y})"
        );
    }
    let find = |dir: &Path| without_timing(run(dir, &["find", "--flag", "wall"]));
    assert_eq!(find(m), find(u));
    for dir in [m, u] {
        let d = dir.to_str().unwrap();
        gamedata_ok(
            &[
                &["uo", "render", d][..],
                &dims,
                &["-o", "radar.png", "--scale", "4"],
            ]
            .concat(),
            dir,
        );
    }
    assert_eq!(
        png_pixels(&m.join("radar.png")),
        png_pixels(&u.join("radar.png"))
    );
    // Asked for the form it does not have.
    let out = gamedata(
        &[
            &["uo", "info", u.to_str().unwrap()][..],
            &dims,
            &["--map-format", "mul"],
        ]
        .concat(),
        u,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no map3.mul in"));

    // The container's entries, named.
    let ls = stdout_json(&gamedata(
        &["uo", "uop", "ls", "map3LegacyMUL.uop", "--json"],
        u,
    ));
    assert_eq!(ls["count"], 2);
    assert_eq!(ls["entries"][0]["name"], "build/map3legacymul/00000000.dat");
    assert_eq!(ls["entries"][1]["decompressed_len"], 2304 * 196);
    assert_eq!(ls["entries"][1]["compression"], "none");
    assert_eq!(
        ls["entries"][0]["hash"],
        format!(
            "{:#018x}",
            mul_core::name_hash("build/map3legacymul/00000000.dat")
        )
    );

    // Convert MUL -> UOP -> MUL: the same bytes.
    let convert = |from: &Path, to: &str| {
        let out = tempfile::tempdir().unwrap();
        let args = [
            "uo",
            "convert",
            from.to_str().unwrap(),
            "--facet",
            "3",
            "--to",
            to,
        ];
        gamedata_ok(&[&args[..], &[out.path().to_str().unwrap()]].concat(), m);
        out
    };
    let out1 = convert(m, "uop");
    assert_eq!(
        std::fs::read(out1.path().join("map3LegacyMUL.uop")).unwrap(),
        std::fs::read(u.join("map3LegacyMUL.uop")).unwrap()
    );
    let out2 = convert(out1.path(), "mul");
    assert_eq!(
        std::fs::read(out2.path().join("map3.mul")).unwrap(),
        world.map
    );
}

#[test]
fn uo_apply_diffs_shows_the_patched_land_and_statics() {
    let size = mul_core::MapSize::from_blocks(40, 24).unwrap();
    let world = mul_core::synth::World::generate(size, 8);
    let dir = tempfile::tempdir().unwrap();
    world.write_to(dir.path(), 0).unwrap();
    let patched = world.write_diffs(dir.path(), 0, 12, 5).unwrap();
    let d = dir.path().to_str().unwrap();
    let run = |command: &str, extra: &[&str], apply: bool| {
        let mut args = vec!["uo", command, d];
        args.extend(UO_SIZE);
        args.extend(extra);
        args.push("--json");
        if apply {
            args.push("--apply-diffs");
        }
        stdout_json(&gamedata(&args, dir.path()))
    };
    assert_eq!(
        run("info", &[], false)["diffs"],
        json!({"map_blocks": 12, "statics_blocks": 12, "applied": false, "problems": []})
    );
    assert_eq!(run("info", &[], true)["diffs"]["applied"], true);
    let block = patched[0];
    let (bx, by) = size.block_coords(block).unwrap();
    let (x, y) = ((bx * 8 + 3).to_string(), (by * 8 + 3).to_string());
    let (before, after) = (run("tile", &[&x, &y], false), run("tile", &[&x, &y], true));
    let map = mul_core::Map::parse(&world.map, size).unwrap();
    let own = map.cell(bx * 8 + 3, by * 8 + 3).unwrap();
    assert_eq!(before["land"]["id"], own.id.get());
    assert_eq!(
        after["land"],
        json!({"id": mul_core::synth::land::LAVA, "z": 10})
    );
    let ids: Vec<&Value> = after["statics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["id"])
        .collect();
    assert_eq!(ids, [&json!(mul_core::synth::item::GOLD)]);
    // Whole-map search: the 12 gold coins exist only with the diffs applied.
    assert_eq!(run("find", &["--id", "0x0EED"], false)["count"], 0);
    assert_eq!(run("find", &["--id", "0x0EED"], true)["count"], 12);
}
