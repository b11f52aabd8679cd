//! `gamedata uo ...` on synthetic worlds and the real pre-alpha files: the facet's stats,
//! tiles, tiledata, multis, finds and renders, the errors, empty sets and wrong kinds of
//! path; the synthetic folder the other `uo_*` modules share.

use serde_json::{Value, json};

use super::*;

/// A folder with a synthetic 40 x 24-block facet 0 (map, statics, tiledata, radarcol, hues)
/// in upper-case file names, and a multi.idx / multi.mul with one 16-byte multi.
pub(super) fn synthetic_uo_dir() -> (tempfile::TempDir, mul_core::synth::World) {
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

pub(super) const UO_SIZE: [&str; 4] = ["--width", "320", "--height", "192"];

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
    let keys = json_keys(&par);
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
    let keys = json_keys(&tile);
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
    let err = gamedata_fails(&["uo", "stats", d, "--facet", "0"], dir.path());
    assert!(
        err.contains("MAP0.MUL: the map is 188160 bytes")
            && err.contains("960 blocks: not one of facet 0's sizes")
            && err.contains("--width and --height"),
        "{err}"
    );
    // With --json the same sentence is on stderr, then the error as one JSON line, what is
    // wrong as data; stdout stays empty.
    let last_line = |stderr: &[u8]| -> serde_json::Value {
        let text = String::from_utf8_lossy(stderr).into_owned();
        assert!(text.starts_with("gamedata: error: "), "{text}");
        let line = text
            .trim_end()
            .lines()
            .last()
            .unwrap_or_default()
            .to_owned();
        serde_json::from_str(&line).expect("the last line is JSON")
    };
    let out = gamedata(&["--json", "uo", "stats", d, "--facet", "0"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let doc = last_line(&out.stderr);
    let error = &doc["error"];
    assert_eq!(
        json_keys(error),
        ["message", "category", "kind", "file", "entry", "fields"]
    );
    assert_eq!(error["category"], "data");
    assert_eq!(error["kind"], "MapSizeUnknown");
    assert_eq!(error["file"], "MAP0.MUL");
    assert_eq!(error["fields"]["length"], 188_160);
    assert_eq!(error["fields"]["blocks"], 960);
    assert_eq!(error["fields"]["facet"], 0);
    assert!(error["message"].as_str().unwrap().contains("960 blocks"));
    // An error that is not in the bytes (a missing folder) has no kind.
    let out = gamedata(&["--json", "uo", "stats", "no-such-dir"], dir.path());
    let doc = last_line(&out.stderr);
    assert_eq!(doc["error"]["category"], "file");
    assert!(doc["error"]["kind"].is_null());
    assert_eq!(doc["error"]["fields"], serde_json::json!({}));
    // A size no file could make right is an argument error, named by its problem.
    let out = gamedata(
        &[
            "--json", "uo", "stats", d, "--width", "12", "--height", "16",
        ],
        dir.path(),
    );
    let doc = last_line(&out.stderr);
    assert_eq!(doc["error"]["category"], "argument");
    assert_eq!(doc["error"]["kind"], "Dimensions");
    assert_eq!(doc["error"]["fields"]["width_blocks"], 1);
    // Sizes at the edge of u32 (the tests run a debug build, where an overflow panics).
    for side in ["4294967288", "4294967295"] {
        let err = gamedata_fails(
            &["uo", "stats", d, "--width", side, "--height", side],
            dir.path(),
        );
        assert!(
            err.starts_with("gamedata: error:") && !err.contains("panicked"),
            "{err}"
        );
    }
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
    // Figures read from the raw bytes by tools/reference/uo_facts.py (its output,
    // goldens/uo_facts.json; .ci/run compares the two).
    let facts = gamedata_testkit::reference("uo_facts.json");
    let stats = stdout_json(&gamedata(
        &[&["uo", "stats", p][..], &size, &["--json"]].concat(),
        &pre,
    ));
    assert_eq!(stats["blocks"], 16_384);
    let pair = |v: &serde_json::Value| json!({"id": v[0], "count": v[1]});
    assert_eq!(stats["land"]["top"][0], pair(&facts["land_top3"][0]));
    assert_eq!(
        json!([stats["land"]["z_min"], stats["land"]["z_max"]]),
        facts["land_z"]
    );
    assert_eq!(stats["statics"]["count"], facts["statics"]);
    assert_eq!(stats["statics"]["top"][0], pair(&facts["statics_top3"][0]));
    let tile = stdout_json(&gamedata(
        &[&["uo", "tile", p][..], &size, &["500", "600", "--json"]].concat(),
        &pre,
    ));
    let cell = &facts["cell_500_600"];
    assert_eq!(tile["land"], json!({"id": cell[0], "z": cell[1]}));
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
    // tools/reference/uo_files_facts.py's figures (goldens/uo_files.json).
    let files = gamedata_testkit::reference("uo_files.json");
    assert_eq!(
        gold["name"],
        files["tiledata"]["hs"]["item"]["3821"]["name"]
    );
    assert_eq!(gold["name"], "gold coin");
    let multi = stdout_json(&gamedata(
        &["uo", "multi", hs.to_str().unwrap(), "0", "--json"],
        &hs,
    ));
    assert_eq!(
        json!(multi["components"].as_array().unwrap().len()),
        files["multi_hs"]["first"]["components"]
    );

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

#[test]
fn uo_empty_sets_and_wrong_kinds_of_path() {
    let (dir, world) = synthetic_uo_dir();
    let d = dir.path().to_str().unwrap();
    // No statics at all: every index record empty, no data. The z range is null, not the
    // scan's starting sentinels, and "none" in text.
    let empty: Vec<u8> = (0..world.size.blocks())
        .flat_map(|_| [u32::MAX, 0, 0])
        .flat_map(u32::to_le_bytes)
        .collect();
    std::fs::write(dir.path().join("staidx0.mul"), empty).unwrap();
    std::fs::write(dir.path().join("statics0.mul"), b"").unwrap();
    let stats = stdout_json(&gamedata(
        &[&["uo", "stats", d][..], &UO_SIZE, &["--json"]].concat(),
        dir.path(),
    ));
    assert_eq!(stats["statics"]["count"], 0);
    assert_eq!(
        (&stats["statics"]["z_min"], &stats["statics"]["z_max"]),
        (&Value::Null, &Value::Null)
    );
    assert!(stats["land"]["z_min"].is_i64());
    let text = gamedata_ok(&[&["uo", "stats", d][..], &UO_SIZE].concat(), dir.path());
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("statics: 0 of them, z none"), "{text}");

    // A file where the client folder goes, a folder where tiledata.mul goes.
    let map = dir.path().join("MAP0.MUL");
    let err = gamedata_fails(&["uo", "info", map.to_str().unwrap()], dir.path());
    assert!(err.contains("MAP0.MUL is not a folder"), "{err}");
    let err = gamedata_fails(&["uo", "tiledata", d, "--item", "1"], dir.path());
    assert!(err.contains("is a folder, expected a file"), "{err}");

    // An empty file as --radarcol: refused, no picture.
    let empty = dir.path().join("empty.mul");
    std::fs::write(&empty, b"").unwrap();
    let png = dir.path().join("radar.png");
    let err = gamedata_fails(
        &[
            &["uo", "render", d][..],
            &UO_SIZE,
            &[
                "-o",
                png.to_str().unwrap(),
                "--radarcol",
                empty.to_str().unwrap(),
            ],
        ]
        .concat(),
        dir.path(),
    );
    assert!(
        err.contains("radarcol.mul is 0 bytes, expected at least 32768"),
        "{err}"
    );
    assert!(!png.exists());
}

#[test]
fn uo_find_streams_limits_and_counts() {
    let (dir, world) = synthetic_uo_dir();
    let d = dir.path().to_str().unwrap();
    let tree = mul_core::synth::item::TREES[0];
    let id = format!("{tree:#x}");
    let rows = check_listing(
        &[&["uo", "find", d][..], &UO_SIZE, &["--id", &id]].concat(),
        dir.path(),
        "statics",
        "statics",
    );
    // Independently: the statics of that id in the world's files, block by block.
    let facet = mul_core::Facet::parse(world.facet_bytes(), world.size, None).unwrap();
    let mut want = 0;
    for block in 0..world.size.blocks() {
        want += facet
            .statics
            .block(block)
            .unwrap()
            .iter()
            .filter(|s| s.id.get() == tree)
            .count();
    }
    assert_eq!(rows.len(), want);
    assert!(rows.iter().all(|r| r["id"] == u64::from(tree)));
}
