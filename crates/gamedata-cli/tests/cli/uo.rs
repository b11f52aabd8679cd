//! `gamedata uo ...` on synthetic worlds and the real pre-alpha files.

use std::path::Path;

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
        json!({
            "map_blocks": 12,
            "statics_blocks": 12,
            "applied": false,
            "problems": [],
            "problem_count": 0
        })
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
fn uo_info_lists_the_first_hundred_bad_diff_entries_and_counts_the_rest() {
    let (dir, _) = synthetic_uo_dir();
    let d = dir.path().to_str().unwrap();
    // 1,000 block numbers past any map, and one replacing block: every entry is left out.
    let list: Vec<u8> = (0..1000u32).flat_map(|_| u32::MAX.to_le_bytes()).collect();
    std::fs::write(dir.path().join("mapdifl0.mul"), list).unwrap();
    std::fs::write(dir.path().join("mapdif0.mul"), vec![0u8; 196]).unwrap();
    let info = stdout_json(&gamedata(
        &[&["uo", "info", d][..], &UO_SIZE, &["--json"]].concat(),
        dir.path(),
    ));
    let diffs = &info["diffs"];
    assert_eq!(diffs["problem_count"], 1000);
    assert_eq!(diffs["problems"].as_array().unwrap().len(), 100);
    assert_eq!(
        diffs["problems"][0],
        "mapdifl entry 0: block number 4294967295 is past any map"
    );
    let text = gamedata_ok(&[&["uo", "info", d][..], &UO_SIZE].concat(), dir.path());
    let text = String::from_utf8_lossy(&text.stdout);
    assert_eq!(text.matches("  left out: ").count(), 100, "{text}");
    assert!(
        text.contains("and 900 more entries left out (the first 100 are listed)"),
        "{text}"
    );
}

#[test]
fn uo_info_lists_the_first_hundred_bad_statics_blocks_and_counts_the_rest() {
    let (dir, world) = synthetic_uo_dir();
    let d = dir.path().to_str().unwrap();
    // Every index record points past the end of a 7-byte statics file: 960 bad blocks.
    let index: Vec<u8> = (0..world.size.blocks())
        .flat_map(|_| [1000u32, 7, 0])
        .flat_map(u32::to_le_bytes)
        .collect();
    std::fs::write(dir.path().join("staidx0.mul"), index).unwrap();
    std::fs::write(dir.path().join("statics0.mul"), [0u8; 7]).unwrap();
    let info = stdout_json(&gamedata(
        &[&["uo", "info", d][..], &UO_SIZE, &["--json"]].concat(),
        dir.path(),
    ));
    let statics = &info["statics"];
    assert_eq!(statics["bad_blocks"], 960);
    assert_eq!(statics["problems"].as_array().unwrap().len(), 100);
    assert_eq!(
        statics["problems"][0],
        "staidx entry 0: offset 1000, length 7: it runs past the end of the data (the data \
         file is 7 bytes)"
    );
    let text = gamedata_ok(&[&["uo", "info", d][..], &UO_SIZE].concat(), dir.path());
    let text = String::from_utf8_lossy(&text.stdout);
    assert_eq!(text.matches("  bad block: ").count(), 100, "{text}");
    assert!(
        text.contains("and 860 more bad blocks (the first 100 are listed)"),
        "{text}"
    );
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

#[test]
fn uo_writing_commands_report_what_they_wrote() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path();
    let len = |p: &str| std::fs::metadata(cwd.join(p)).unwrap().len();
    // Facet 4 (1448 x 1448 tiles) with 3 diff blocks: every file listed with its length.
    let synth = stdout_json(&gamedata(
        &["--json", "uo", "synth", "w", "--facet", "4", "--diffs", "3"],
        cwd,
    ));
    assert_eq!(
        (synth["width"].as_u64(), synth["height"].as_u64()),
        (Some(1448), Some(1448))
    );
    assert_eq!(synth["diff_blocks"], 3);
    let files = synth["files"].as_array().unwrap();
    assert_eq!(files.len(), 11, "six world files and five diff files");
    for f in files {
        assert_eq!(f["bytes"].as_u64(), Some(len(f["path"].as_str().unwrap())));
    }
    assert_eq!(files[0]["path"], "w/map4.mul");
    assert_eq!(len("w/map4.mul"), 181 * 181 * 196);
    // A region reaching past the map is cut to it, said on stderr and in the report.
    let out = gamedata(
        &[
            "--json",
            "uo",
            "render",
            "w",
            "--facet",
            "4",
            "--scale",
            "4",
            "--region",
            "1400,0,100,40",
            "-o",
            "r.png",
        ],
        cwd,
    );
    let render = stdout_json(&out);
    assert_eq!(render["clipped"], true);
    assert_eq!(
        render["region"],
        json!({"x": 1400, "y": 0, "width": 48, "height": 40})
    );
    assert_eq!(
        (render["width"].as_u64(), render["height"].as_u64()),
        (Some(12), Some(10))
    );
    assert_eq!(png_size(&cwd.join("r.png")), (12, 10));
    assert_eq!(render["bytes"].as_u64(), Some(len("r.png")));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is clipped to the 1448 x 1448"));
    // Wholly outside: an error.
    let out = gamedata(
        &[
            "uo",
            "render",
            "w",
            "--facet",
            "4",
            "--region",
            "1448,0,10,10",
            "-o",
            "x.png",
        ],
        cwd,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(!cwd.join("x.png").exists());
    let convert = stdout_json(&gamedata(
        &[
            "--json", "uo", "convert", "w", "--facet", "4", "--to", "uop", "u",
        ],
        cwd,
    ));
    assert_eq!(convert["bytes"].as_u64(), Some(len("u/map4LegacyMUL.uop")));
    assert!(convert["elapsed_ms"].as_f64().is_some());
}

/// A 1024 x 1024 facet whose 16,384 index entries all cover the same 2.1 MB of statics
/// (300,000 records): each command reads them once and reports the 16,383 overlapping
/// entries (the commands once counted 4.9 billion statics and took a minute).
#[test]
fn uo_commands_read_overlapping_index_entries_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let statics: Vec<u8> = (0..300_000u32)
        .flat_map(|i| {
            let id: u16 = if i % 3 == 0 { 0x0EED } else { 1 };
            let [a, b] = id.to_le_bytes();
            [a, b, (i % 8) as u8, (i / 8 % 8) as u8, 0, 0, 0]
        })
        .collect();
    let index: Vec<u8> = (0..16_384)
        .flat_map(|_| [0, statics.len() as u32, 0])
        .flat_map(u32::to_le_bytes)
        .collect();
    std::fs::write(dir.path().join("statics0.mul"), &statics).unwrap();
    std::fs::write(dir.path().join("staidx0.mul"), index).unwrap();
    std::fs::write(dir.path().join("map0.mul"), vec![0u8; 16_384 * 196]).unwrap();
    let size = ["--width", "1024", "--height", "1024"];
    let info = stdout_json(&gamedata(
        &[&["uo", "info", d][..], &size, &["--json"]].concat(),
        dir.path(),
    ));
    assert_eq!(info["statics"]["count"], 300_000);
    assert_eq!(info["statics"]["bad_blocks"], 16_383);
    assert_eq!(
        info["statics"]["problems"][0],
        "staidx entry 1: offset 0, length 2100000: its bytes overlap entry 0's, which is read \
         instead (the data file is 2100000 bytes)"
    );
    let found = stdout_json(&gamedata(
        &[
            &["uo", "find", d][..],
            &size,
            &["--id", "0x0EED", "--count", "--json"],
        ]
        .concat(),
        dir.path(),
    ));
    assert_eq!(found["count"], 100_000);
    let stats = stdout_json(&gamedata(
        &[&["uo", "stats", d][..], &size, &["--json"]].concat(),
        dir.path(),
    ));
    assert_eq!(stats["statics"]["count"], 300_000);
    assert_eq!(stats["statics"]["top"][0]["count"], 200_000);
}

/// A 3.4 MB map UOP whose 4,096 zlib chunks would decode to 3.2 GB: refused before any is
/// decoded, with the total and the limit.
#[test]
fn uo_refuses_a_map_uop_whose_chunks_decode_past_the_limit() {
    use std::io::Write as _;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(&vec![0u8; 4096 * 196]).unwrap();
    let chunk = z.finish().unwrap();
    let n = 4096usize;
    let mut uop = Vec::new();
    for word in [0x0050_594Du32, 5, 0xFD23_EC43] {
        uop.extend(word.to_le_bytes());
    }
    uop.extend(28u64.to_le_bytes());
    uop.extend([n as u32, n as u32].map(u32::to_le_bytes).concat());
    uop.extend((n as u32).to_le_bytes());
    uop.extend(0u64.to_le_bytes());
    let mut at = (28 + 12 + 34 * n) as u64;
    for i in 0..n {
        let name = mul_core::facet::map_uop::map_chunk_name(0, i);
        uop.extend(at.to_le_bytes());
        uop.extend(0u32.to_le_bytes());
        uop.extend((chunk.len() as u32).to_le_bytes());
        uop.extend((4096u32 * 196).to_le_bytes());
        uop.extend(mul_core::name_hash(&name).to_le_bytes());
        uop.extend(0u32.to_le_bytes());
        uop.extend(1u16.to_le_bytes());
        at += chunk.len() as u64;
    }
    for _ in 0..n {
        uop.extend_from_slice(&chunk);
    }
    std::fs::write(dir.path().join("map0LegacyMUL.uop"), &uop).unwrap();
    std::fs::write(dir.path().join("staidx0.mul"), b"").unwrap();
    std::fs::write(dir.path().join("statics0.mul"), b"").unwrap();
    let err = gamedata_fails(&["uo", "info", d, "--facet", "0"], dir.path());
    assert!(
        err.contains(
            "map0LegacyMUL.uop: the map UOP's compressed chunks needs 268943360 bytes, over the \
             limit of 268435456"
        ),
        "{err}"
    );
}

/// `uo art`: an item and a land tile drawn as the client draws them, checked against the
/// rule computed here (the client's 5-to-8-bit table `v * 255 / 31`, colour 0 transparent
/// in items, the diamond opaque), hued, and the JSON contract.
#[test]
fn uo_art_draws_items_and_land_as_the_client_does() {
    use mul_core::art::write::{ArtPicture, write_art};
    use mul_core::art::{ITEM_BASE, LAND_PIXELS};

    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let item: Vec<u16> = vec![0, 0x7C00, 0x1084, 0x03E0, 0, 0x0001];
    let land: Vec<u16> = (0..LAND_PIXELS as u16).map(|i| i & 0x7FFF).collect();
    let mut pictures = vec![ArtPicture::Empty; ITEM_BASE + 4];
    pictures[7] = ArtPicture::Land(&land);
    pictures[ITEM_BASE + 1] = ArtPicture::Item {
        width: 3,
        height: 2,
        pixels: &item,
    };
    // Items with a side of 0: no pixel to draw (items 2 and 3).
    pictures[ITEM_BASE + 2] = ArtPicture::Item {
        width: 3,
        height: 0,
        pixels: &[],
    };
    pictures[ITEM_BASE + 3] = ArtPicture::Item {
        width: 0,
        height: 2,
        pixels: &[],
    };
    let (index, data) = write_art(&pictures).unwrap();
    std::fs::write(dir.path().join("ARTIDX.MUL"), index).unwrap();
    std::fs::write(dir.path().join("Art.mul"), data).unwrap();
    let widen = |v: u16| (u32::from(v & 31) * 255 / 31) as u8;
    let rgba = |c: u16| [widen(c >> 10), widen(c >> 5), widen(c), 255];

    let out = gamedata_ok(
        &["uo", "art", d, "--item", "1", "-o", "item.png", "--json"],
        dir.path(),
    );
    let report = stdout_json(&out);
    assert_eq!(json_keys(&report), ["kind", "id", "width", "height"]);
    assert_eq!(
        report,
        json!({"kind": "item", "id": 1, "width": 3, "height": 2})
    );
    let pixels = png_pixels(&dir.path().join("item.png"));
    let expected: Vec<u8> = item
        .iter()
        .flat_map(|&c| if c == 0 { [0; 4] } else { rgba(c) })
        .collect();
    assert_eq!(pixels, expected);
    // 4 in each channel widens to 32 (bit replication would give 33).
    assert_eq!(&pixels[8..12], [32, 32, 32, 255]);

    let out = gamedata_ok(
        &["uo", "art", d, "--land", "7", "-o", "land.png", "--json"],
        dir.path(),
    );
    assert_eq!(
        stdout_json(&out),
        json!({"kind": "land", "id": 7, "width": 44, "height": 44})
    );
    let pixels = png_pixels(&dir.path().join("land.png"));
    // Row 0: pixels 0 and 1 of the file at x = 21 and 22 (pixel 0 is colour 0: black, drawn).
    let at = |x: usize, y: usize| &pixels[(y * 44 + x) * 4..(y * 44 + x) * 4 + 4];
    assert_eq!(at(21, 0), [0, 0, 0, 255]);
    assert_eq!(at(22, 0), rgba(1));
    assert_eq!(at(20, 0), [0; 4]);
    assert_eq!(
        pixels.chunks(4).filter(|p| p[3] == 255).count(),
        LAND_PIXELS
    );

    // A hue: hues.mul's hue 1 maps red level r to colour 0x0400 | r (a 708-byte group).
    let mut hues = vec![0u8; 4];
    for _ in 0..8 {
        for r in 0..32u16 {
            hues.extend_from_slice(&(0x0400 | r).to_le_bytes());
        }
        hues.extend_from_slice(&[0; 24]);
    }
    std::fs::write(dir.path().join("hues.mul"), hues).unwrap();
    gamedata_ok(
        &[
            "uo", "art", d, "--item", "1", "-o", "hued.png", "--hue", "1",
        ],
        dir.path(),
    );
    let pixels = png_pixels(&dir.path().join("hued.png"));
    // Red 31 becomes entry 31; grey 4 entry 4; green (red 0) entry 0; zeros stay clear.
    assert_eq!(&pixels[4..8], rgba(0x0400 | 31));
    assert_eq!(&pixels[8..12], rgba(0x0400 | 4));
    assert_eq!(&pixels[12..16], rgba(0x0400));
    assert_eq!(&pixels[0..4], [0; 4]);
    // Partial: only the grey pixel changes.
    gamedata_ok(
        &[
            "uo", "art", d, "--item", "1", "-o", "part.png", "--hue", "0x8001",
        ],
        dir.path(),
    );
    let pixels = png_pixels(&dir.path().join("part.png"));
    assert_eq!(&pixels[4..8], rgba(0x7C00));
    assert_eq!(&pixels[8..12], rgba(0x0400 | 4));

    // Never over an input, hues.mul included.
    let before = std::fs::read(dir.path().join("hues.mul")).unwrap();
    let out = gamedata(
        &[
            "uo", "art", d, "--item", "1", "--hue", "1", "-o", "hues.mul",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read(dir.path().join("hues.mul")).unwrap(), before);
    // An empty number, and a land id past 0x3FFF (an argument error).
    let out = gamedata(&["uo", "art", d, "--item", "0", "-o", "x.png"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("item 0x0000 has no picture"));
    // A side of 0, either side: an error saying so, and no file.
    for (id, size) in [("2", "3 x 0"), ("3", "0 x 2")] {
        let out = gamedata(&["uo", "art", d, "--item", id, "-o", "x.png"], dir.path());
        assert_eq!(out.status.code(), Some(1));
        let text = String::from_utf8_lossy(&out.stderr);
        assert!(
            text.contains(&format!("is an empty picture ({size} pixels)")),
            "{text}"
        );
    }
    let out = gamedata(
        &["--json", "uo", "art", d, "--land", "0x4000", "-o", "x.png"],
        dir.path(),
    );
    let text = String::from_utf8_lossy(&out.stderr);
    let last: Value = serde_json::from_str(text.trim_end().lines().last().unwrap()).unwrap();
    assert_eq!(last["error"]["category"], "argument");
    assert_eq!(last["error"]["kind"], "LandId");
    assert!(!dir.path().join("x.png").exists());
}

/// `uo convert --art` over an art.mul with an entry past the file's end: the others are
/// written, the bad one is left out (empty), named in the report, and the exit status is 1.
#[test]
fn uo_convert_art_leaves_out_an_entry_it_cannot_read_and_fails() {
    use mul_core::art::ITEM_BASE;
    use mul_core::art::write::{ArtPicture, write_art};

    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    std::fs::create_dir(dir.path().join("mul")).unwrap();
    let pixels: Vec<u16> = vec![0x7C00, 0x03E0];
    let mut pictures = vec![ArtPicture::Empty; ITEM_BASE + 2];
    for id in [ITEM_BASE, ITEM_BASE + 1] {
        pictures[id] = ArtPicture::Item {
            width: 2,
            height: 1,
            pixels: &pixels,
        };
    }
    let (mut index, data) = write_art(&pictures).unwrap();
    // Item 1's length (the record's second word) far past art.mul's end.
    let at = (ITEM_BASE + 1) * 12 + 4;
    index[at..at + 4].copy_from_slice(&0x00FF_FFFFu32.to_le_bytes());
    std::fs::write(dir.path().join("mul/artidx.mul"), index).unwrap();
    std::fs::write(dir.path().join("mul/art.mul"), data).unwrap();
    let out = gamedata(
        &[
            "uo",
            "convert",
            &p("mul"),
            "--art",
            "--to",
            "uop",
            &p("uop"),
            "--json",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["failed"], 1, "{report}");
    let errors = report["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{report}");
    assert!(
        errors[0].as_str().unwrap().starts_with("entry 0x4001: "),
        "{report}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("1 entries could not be read and were left out"),
        "{stderr}"
    );
    // Item 0 is in the UOP; item 1 is empty there.
    gamedata_ok(
        &["uo", "art", &p("uop"), "--item", "0", "-o", &p("a.png")],
        dir.path(),
    );
    let out = gamedata(
        &["uo", "art", &p("uop"), "--item", "1", "-o", &p("b.png")],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("item 0x0001 has no picture"));
}

/// `uo convert --art` both ways and `uo art` on artLegacyMUL.uop: the same pictures from
/// either form, the form chosen by the folder or by `--art-format`, the art.mul back byte
/// for byte, and never a write over an input.
#[test]
fn uo_art_reads_the_uop_form_and_converts_both_ways() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    gamedata_ok(
        &["uo", "synth", &p("mul"), "--facet", "2", "--art"],
        dir.path(),
    );
    let out = gamedata_ok(
        &[
            "uo",
            "convert",
            &p("mul"),
            "--art",
            "--to",
            "uop",
            &p("uop"),
            "--json",
        ],
        dir.path(),
    );
    let report = stdout_json(&out);
    assert_eq!(
        json_keys(&report),
        [
            "from",
            "to",
            "bytes",
            "entries",
            "failed",
            "errors",
            "elapsed_ms"
        ]
    );
    assert_eq!(
        (&report["failed"], &report["errors"]),
        (&json!(0), &json!([]))
    );
    // 64 land tiles and 255 items (item 255 is empty; item 200 repeats item 10).
    assert_eq!(report["entries"], 319);
    let uop = std::fs::read(dir.path().join("uop/artLegacyMUL.uop")).unwrap();
    assert_eq!(&uop[..4], b"MYP\0");
    assert_eq!(report["bytes"], uop.len());
    // Each item drawn from the UOP is the PNG drawn from the MUL.
    for id in ["0", "10", "200", "254"] {
        gamedata_ok(
            &["uo", "art", &p("mul"), "--item", id, "-o", &p("a.png")],
            dir.path(),
        );
        gamedata_ok(
            &["uo", "art", &p("uop"), "--item", id, "-o", &p("b.png")],
            dir.path(),
        );
        assert_eq!(
            png_pixels(&dir.path().join("a.png")),
            png_pixels(&dir.path().join("b.png"))
        );
    }
    gamedata_ok(
        &["uo", "art", &p("uop"), "--land", "3", "-o", &p("land.png")],
        dir.path(),
    );
    // The UOP folder has no MUL pair: asking for it names the missing index.
    let out = gamedata(
        &[
            "uo",
            "art",
            &p("uop"),
            "--art-format",
            "mul",
            "--item",
            "1",
            "-o",
            &p("x.png"),
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("artidx.mul"));
    // Back to MUL: the same art.mul.
    gamedata_ok(
        &[
            "uo",
            "convert",
            &p("uop"),
            "--art",
            "--to",
            "mul",
            &p("back"),
        ],
        dir.path(),
    );
    assert!(
        std::fs::read(dir.path().join("back/art.mul")).unwrap()
            == std::fs::read(dir.path().join("mul/art.mul")).unwrap()
    );
    // `uo synth --art-format uop` writes the container the conversion writes.
    gamedata_ok(
        &[
            "uo",
            "synth",
            &p("s"),
            "--facet",
            "2",
            "--art",
            "--art-format",
            "uop",
        ],
        dir.path(),
    );
    assert!(std::fs::read(dir.path().join("s/artLegacyMUL.uop")).unwrap() == uop);
    // Never over an input: converting into the folder read from is refused.
    let out = gamedata(
        &[
            "uo",
            "convert",
            &p("back"),
            "--art",
            "--to",
            "mul",
            &p("uop"),
        ],
        dir.path(),
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "reading the UOP from a MUL folder fails"
    );
    let out = gamedata(
        &[
            "uo",
            "convert",
            &p("uop"),
            "--art",
            "--to",
            "uop",
            &p("uop"),
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(std::fs::read(dir.path().join("uop/artLegacyMUL.uop")).unwrap() == uop);
}

/// `uo gump`: a gump drawn as the client draws it (checked against the rule computed here),
/// hued with the gump shader's red-0 rule, from either form, and `uo convert --gumps`.
#[test]
fn uo_gump_draws_a_gump_from_either_form() {
    use mul_core::gump::write::{GumpPicture, write_gumps};

    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let pixels: Vec<u16> = vec![0, 0x7C00, 0x8000, 0x0421, 0x0421, 0x001F];
    let gumps = [
        GumpPicture::Empty,
        GumpPicture::Picture {
            width: 3,
            height: 2,
            pixels: &pixels,
        },
    ];
    let (index, data) = write_gumps(&gumps).unwrap();
    std::fs::create_dir(dir.path().join("mul")).unwrap();
    std::fs::write(dir.path().join("mul/GUMPIDX.MUL"), index).unwrap();
    std::fs::write(dir.path().join("mul/gumpart.mul"), data).unwrap();
    let widen = |v: u16| (u32::from(v & 31) * 255 / 31) as u8;
    let rgba = |c: u16| [widen(c >> 10), widen(c >> 5), widen(c), 255];
    let out = gamedata_ok(
        &["uo", "gump", &p("mul"), "1", "-o", &p("g.png"), "--json"],
        dir.path(),
    );
    let report = stdout_json(&out);
    assert_eq!(json_keys(&report), ["id", "width", "height"]);
    assert_eq!(report, json!({"id": 1, "width": 3, "height": 2}));
    let expected: Vec<u8> = pixels
        .iter()
        .flat_map(|&c| if c == 0 { [0; 4] } else { rgba(c) })
        .collect();
    assert_eq!(png_pixels(&dir.path().join("g.png")), expected);
    // An empty id is a clear error.
    let out = gamedata(
        &["uo", "gump", &p("mul"), "0", "-o", &p("x.png")],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("gump 0x0000 has no picture"));
    // Hue 2 (entry r = 0x0800 | r); red-0 pixels take hue 1's entry 0 (0x0400).
    let mut hues = vec![0u8; 4];
    for h in 1..=8u16 {
        for r in 0..32u16 {
            hues.extend_from_slice(&((h << 10) | r).to_le_bytes());
        }
        hues.extend_from_slice(&[0; 24]);
    }
    std::fs::write(dir.path().join("mul/hues.mul"), hues).unwrap();
    gamedata_ok(
        &[
            "uo",
            "gump",
            &p("mul"),
            "0x1",
            "-o",
            &p("h.png"),
            "--hue",
            "2",
        ],
        dir.path(),
    );
    let hued = png_pixels(&dir.path().join("h.png"));
    assert_eq!(&hued[4..8], rgba(0x0800 | 31));
    assert_eq!(&hued[8..12], rgba(0x0400));
    assert_eq!(&hued[12..16], rgba(0x0800 | 1));
    assert_eq!(&hued[20..24], rgba(0x0400));
    // To UOP and drawn from there: the same picture.
    let out = gamedata_ok(
        &[
            "uo",
            "convert",
            &p("mul"),
            "--gumps",
            "--to",
            "uop",
            &p("uop"),
            "--json",
        ],
        dir.path(),
    );
    assert_eq!(stdout_json(&out)["entries"], 1);
    gamedata_ok(
        &["uo", "gump", &p("uop"), "1", "-o", &p("u.png")],
        dir.path(),
    );
    assert_eq!(png_pixels(&dir.path().join("u.png")), expected);
    let out = gamedata(
        &[
            "uo",
            "gump",
            &p("uop"),
            "1",
            "--art-format",
            "mul",
            "-o",
            &p("x.png"),
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("gumpidx.mul"));
    // Back to MUL: the same gumpart.mul; never over an input.
    gamedata_ok(
        &[
            "uo",
            "convert",
            &p("uop"),
            "--gumps",
            "--to",
            "mul",
            &p("back"),
        ],
        dir.path(),
    );
    assert!(
        std::fs::read(dir.path().join("back/gumpart.mul")).unwrap()
            == std::fs::read(dir.path().join("mul/gumpart.mul")).unwrap()
    );
    let before = std::fs::read(dir.path().join("mul/hues.mul")).unwrap();
    let out = gamedata(
        &[
            "uo",
            "gump",
            &p("mul"),
            "1",
            "--hue",
            "2",
            "-o",
            &p("mul/hues.mul"),
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        std::fs::read(dir.path().join("mul/hues.mul")).unwrap(),
        before
    );
    assert!(!dir.path().join("x.png").exists());
}

/// `uo export`: every entry a PNG equal to `uo art`'s and `uo gump`'s, repeats decoded once,
/// bad entries and pictures past the decoding budget reported while the rest are written.
#[test]
fn uo_export_writes_every_picture_and_reports_the_rest() {
    use mul_core::art::ITEM_BASE;
    use mul_core::art::write::{ArtPicture, write_art};

    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    gamedata_ok(
        &["uo", "synth", &p("m"), "--facet", "4", "--art"],
        dir.path(),
    );
    let out = gamedata_ok(
        &["uo", "export", "art", &p("m"), "-o", &p("out"), "--json"],
        dir.path(),
    );
    let report = stdout_json(&out);
    assert_eq!(
        json_keys(&report),
        [
            "what",
            "format",
            "written",
            "decoded",
            "empty",
            "failed",
            "over_budget",
            "drawn_alone",
            "inflated",
            "errors",
            "bytes",
            "out_dir",
            "elapsed_ms"
        ]
    );
    assert_eq!(report["drawn_alone"], 0, "{report}");
    // 64 land tiles and 255 items, item 200 the same bytes as item 10: decoded once.
    assert_eq!(report["written"], 319);
    assert_eq!(report["decoded"], 318);
    assert_eq!(
        (report["failed"].clone(), report["over_budget"].clone()),
        (json!(0), json!(0))
    );
    let count = |sub: &str| std::fs::read_dir(dir.path().join(sub)).unwrap().count();
    assert_eq!((count("out/land"), count("out/items")), (64, 255));
    for (flag, id, file) in [
        ("--item", "10", "items/0x000A"),
        ("--land", "63", "land/0x003F"),
    ] {
        gamedata_ok(
            &["uo", "art", &p("m"), flag, id, "-o", &p("one.png")],
            dir.path(),
        );
        assert_eq!(
            png_pixels(&dir.path().join(format!("out/{file}.png"))),
            png_pixels(&dir.path().join("one.png"))
        );
    }
    assert!(
        std::fs::read(dir.path().join("out/items/0x00C8.png")).unwrap()
            == std::fs::read(dir.path().join("out/items/0x000A.png")).unwrap()
    );
    let out = gamedata_ok(
        &["uo", "export", "gumps", &p("m"), "-o", &p("out"), "--json"],
        dir.path(),
    );
    assert_eq!(stdout_json(&out)["written"], 199);
    // Texture maps: 300 ids, 18 empty, id 250 the same bytes as id 12.
    let out = gamedata_ok(
        &[
            "uo",
            "export",
            "texmaps",
            &p("m"),
            "-o",
            &p("out"),
            "--json",
        ],
        dir.path(),
    );
    let report = stdout_json(&out);
    assert_eq!(
        (report["written"].clone(), report["decoded"].clone()),
        (json!(282), json!(281))
    );
    gamedata_ok(
        &["uo", "texmap", &p("m"), "0x12", "-o", &p("tex.png")],
        dir.path(),
    );
    assert_eq!(
        png_pixels(&dir.path().join("out/texmaps/0x0012.png")),
        png_pixels(&dir.path().join("tex.png"))
    );
    gamedata_ok(
        &["uo", "gump", &p("m"), "33", "-o", &p("one.png")],
        dir.path(),
    );
    assert_eq!(
        png_pixels(&dir.path().join("out/gumps/0x0021.png")),
        png_pixels(&dir.path().join("one.png"))
    );

    // Crafted: item 0 good, item 1 overlapping it, and 20 items of 8,000 x 8,000 pixels in
    // 16 KiB each (their row tables; no run): 256 MB of RGBA each, far past the budget of
    // 64 bytes a byte of input plus 64 MiB. None of those is drawn; the good one is.
    let pixels = [5u16, 0, 6, 7];
    let mut pictures = vec![ArtPicture::Empty; ITEM_BASE + 22];
    pictures[ITEM_BASE] = ArtPicture::Item {
        width: 2,
        height: 2,
        pixels: &pixels,
    };
    let (mut index, mut data) = write_art(&pictures).unwrap();
    let record = |offset: u32, length: u32| {
        [offset, length, 0]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect::<Vec<u8>>()
    };
    let first = ITEM_BASE * 12;
    let good_len = u32::from_le_bytes(index[first + 4..first + 8].try_into().unwrap());
    index[first + 12..first + 24].copy_from_slice(&record(2, good_len));
    for k in 0..20 {
        let at = data.len() as u32;
        let mut huge = vec![0u8; 8 + 2 * 8000 + 4];
        huge[4..6].copy_from_slice(&8000u16.to_le_bytes());
        huge[6..8].copy_from_slice(&8000u16.to_le_bytes());
        // Every row offset points at one shared end-of-row run (skip 0, count 0).
        data.extend_from_slice(&huge);
        let n = first + (2 + k) * 12;
        index[n..n + 12].copy_from_slice(&record(at, huge.len() as u32));
    }
    std::fs::create_dir(dir.path().join("bad")).unwrap();
    std::fs::write(dir.path().join("bad/artidx.mul"), &index).unwrap();
    std::fs::write(dir.path().join("bad/art.mul"), &data).unwrap();
    let out = gamedata(
        &[
            "uo",
            "export",
            "art",
            &p("bad"),
            "-o",
            &p("bad-out"),
            "--json",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    // The report on stdout, the failure on stderr.
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("20 were past the decoding budget"));
    assert_eq!(report["written"], 1);
    assert_eq!(report["failed"], 1);
    assert_eq!(report["over_budget"], 20);
    let errors = report["errors"].as_array().unwrap();
    assert!(
        errors[0].as_str().unwrap().contains("0x0001.png"),
        "{errors:?}"
    );
    assert_eq!(count("bad-out/items"), 1);
}

/// `uo gump` and `uo export gumps` over a gumpartLegacyMUL.uop whose gumps are stored as
/// newer clients store them (compression 3: zlib then the BWT stage): the same pictures
/// as the MUL's; a crafted entry whose BWT counts claim 200 MiB in a few bytes is past the
/// export's decoding budget (counted, not decoded) and an error for `uo gump`.
#[test]
fn uo_gump_and_export_read_compressed_uop_gumps() {
    use std::io::Write;

    use mul_core::Gumps;
    use mul_core::gump::write::{GumpCompression, gumps_to_compressed_uop, synthetic_gumps};

    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let (index, data) = synthetic_gumps(1);
    let mul = Gumps::parse(&index, &data).unwrap();
    let uop = gumps_to_compressed_uop(&mul, GumpCompression::ZlibBwt)
        .unwrap()
        .files;
    for (sub, files) in [
        (
            "m",
            vec![
                ("gumpidx.mul", index.clone()),
                ("gumpart.mul", data.clone()),
            ],
        ),
        ("c", vec![("gumpartLegacyMUL.uop", uop)]),
    ] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
        for (name, bytes) in files {
            std::fs::write(dir.path().join(sub).join(name), bytes).unwrap();
        }
    }
    for id in ["0", "33", "0x77"] {
        let mut drawn = Vec::new();
        for sub in ["m", "c"] {
            let out = gamedata_ok(
                &["uo", "gump", &p(sub), id, "-o", &p("g.png"), "--json"],
                dir.path(),
            );
            drawn.push((stdout_json(&out), png_pixels(&dir.path().join("g.png"))));
        }
        assert!(drawn[0] == drawn[1], "gump {id}");
    }
    let out = gamedata_ok(
        &["uo", "export", "gumps", &p("c"), "-o", &p("out"), "--json"],
        dir.path(),
    );
    let report = stdout_json(&out);
    assert_eq!(
        (report["written"].clone(), report["format"].clone()),
        (json!(199), json!("uop"))
    );
    gamedata_ok(
        &["uo", "export", "gumps", &p("m"), "-o", &p("out_m")],
        dir.path(),
    );
    for id in [0, 20, 150, 198] {
        let name = format!("gumps/{id:#06X}.png");
        assert_eq!(
            png_pixels(&dir.path().join("out").join(&name)),
            png_pixels(&dir.path().join("out_m").join(&name)),
            "{name}"
        );
    }

    // One crafted entry: the BWT stage's counts give symbol 0 200 MiB (move-to-front
    // codes 0, 0, 0, 0x40 at place 0 ... then 0 at place 1; 0x0C80_0000 = 200 MiB is
    // coded as 0, 0, 0x80 at place 0x80, then 0x0C at place 0x0C).
    let mut stage = vec![0u8; 1029];
    stage[4..9].copy_from_slice(&[0, 0, 0x80, 0x0C, 2]);
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(&stage).unwrap();
    let stored = z.finish().unwrap();
    let name = mul_core::uop::name_hash("build/gumpartlegacymul/00000005.tga");
    let data_at = 28 + 12 + 34u64;
    let mut file = Vec::new();
    for word in [0x0050_594Du32, 5, 0] {
        file.extend(word.to_le_bytes());
    }
    file.extend(28u64.to_le_bytes());
    file.extend(1u32.to_le_bytes());
    file.extend(1u32.to_le_bytes());
    file.extend(1u32.to_le_bytes());
    file.extend(0u64.to_le_bytes());
    file.extend(data_at.to_le_bytes());
    file.extend(0u32.to_le_bytes());
    file.extend((stored.len() as u32).to_le_bytes());
    file.extend((stage.len() as u32).to_le_bytes());
    file.extend(name.to_le_bytes());
    file.extend(0u32.to_le_bytes());
    file.extend(3u16.to_le_bytes());
    file.extend_from_slice(&stored);
    std::fs::create_dir(dir.path().join("x")).unwrap();
    std::fs::write(dir.path().join("x/gumpartLegacyMUL.uop"), &file).unwrap();
    let out = gamedata(
        &[
            "uo",
            "export",
            "gumps",
            &p("x"),
            "-o",
            &p("out_x"),
            "--json",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (report["over_budget"].clone(), report["written"].clone()),
        (json!(1), json!(0))
    );
    // Within one decoder's default limit, `uo gump` decodes it: its one segment is read
    // past the list's 1,025 bytes, an error naming the gump and the stage.
    let stderr = gamedata_fails(&["uo", "gump", &p("x"), "5", "-o", &p("x.png")], dir.path());
    assert!(
        stderr.contains("gump 0x0005") && stderr.contains("BWT stage"),
        "{stderr}"
    );
}

/// `uo gump` with gump.def in the folder: gump 0's entry is empty and gump.def lends it
/// gump 1's with hue 2, applied at load (every non-zero pixel to entry `red` of hue 2,
/// worked out here from the hues.mul written below); verdata's patch of an id wins over
/// gump.def; `--no-def` reads the empty entry.
#[test]
fn uo_gump_reads_gump_def() {
    use mul_core::gump::write::{GumpPicture, write_gumps};

    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let pixels: Vec<u16> = vec![0, 0x7C00, 0x8000, 0x0421, 0x0421, 0x001F];
    let gumps = [
        GumpPicture::Empty,
        GumpPicture::Picture {
            width: 3,
            height: 2,
            pixels: &pixels,
        },
        GumpPicture::Empty,
    ];
    let (index, data) = write_gumps(&gumps).unwrap();
    std::fs::write(dir.path().join("gumpidx.mul"), index).unwrap();
    std::fs::write(dir.path().join("gumpart.mul"), data).unwrap();
    // Hue h's entry r is (h << 10) | r, but hue 2's entry 0 is 0 (clear at load).
    let mut hues = vec![0u8; 4];
    for h in 1..=8u16 {
        for r in 0..32u16 {
            let c = if h == 2 && r == 0 { 0 } else { (h << 10) | r };
            hues.extend_from_slice(&c.to_le_bytes());
        }
        hues.extend_from_slice(&[0; 24]);
    }
    std::fs::write(dir.path().join("hues.mul"), hues).unwrap();
    std::fs::write(
        dir.path().join("Gump.def"),
        "# id {candidates} hue\n0 {2, 1} 2\n2 {0} 3\n",
    )
    .unwrap();
    let widen = |v: u16| (u32::from(v & 31) * 255 / 31) as u8;
    let rgba = |c: u16| [widen(c >> 10), widen(c >> 5), widen(c), 255];
    let out = gamedata_ok(
        &["uo", "gump", &p(""), "0", "-o", &p("g.png"), "--json"],
        dir.path(),
    );
    assert_eq!(
        stdout_json(&out),
        json!({"id": 0, "width": 3, "height": 2, "def_source": 1, "def_hue": 2})
    );
    // 0x7C00 (red 31) -> 0x0800 | 31; 0x8000 (red 0) -> 0, clear; 0x0421 (red 1) ->
    // 0x0801; 0x001F (red 0) -> clear.
    let want: Vec<u8> = [
        [0; 4],
        rgba(0x0800 | 31),
        [0; 4],
        rgba(0x0801),
        rgba(0x0801),
        [0; 4],
    ]
    .concat();
    assert_eq!(png_pixels(&dir.path().join("g.png")), want);
    // Gump 2 borrows what gump 0 borrowed (gump 1's entry) with its own hue, 3.
    let out = gamedata_ok(
        &["uo", "gump", &p(""), "2", "-o", &p("g2.png"), "--json"],
        dir.path(),
    );
    assert_eq!(stdout_json(&out)["def_source"], json!(1));
    assert_eq!(stdout_json(&out)["def_hue"], json!(3));
    assert_eq!(
        &png_pixels(&dir.path().join("g2.png"))[4..8],
        rgba(0x0C00 | 31)
    );
    // Without gump.def, gump 0 has no picture.
    let out = gamedata(
        &["uo", "gump", &p(""), "0", "-o", &p("x.png"), "--no-def"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("gump 0x0000 has no picture"));
    // A verdata patch of gump 0 (a 1 x 1 gump of colour 0x001F) wins over gump.def.
    let patch: Vec<u8> = [1u32, (1 << 16) | 0x001F]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let mut verdata = 1u32.to_le_bytes().to_vec();
    for word in [12u32, 0, 4 + 20, 8, (1 << 16) | 1] {
        verdata.extend_from_slice(&word.to_le_bytes());
    }
    verdata.extend_from_slice(&patch);
    std::fs::write(dir.path().join("verdata.mul"), verdata).unwrap();
    let out = gamedata_ok(
        &["uo", "gump", &p(""), "0", "-o", &p("v.png"), "--json"],
        dir.path(),
    );
    assert_eq!(stdout_json(&out), json!({"id": 0, "width": 1, "height": 1}));
    assert_eq!(png_pixels(&dir.path().join("v.png")), rgba(0x001F));
    // Without hues.mul, gump.def's hue has nothing to look up: gump 2 is drawn as stored
    // (0x7C00 red); a hue asked for with --hue is an error naming hues.mul.
    std::fs::remove_file(dir.path().join("hues.mul")).unwrap();
    let out = gamedata_ok(
        &["uo", "gump", &p(""), "2", "-o", &p("n.png"), "--json"],
        dir.path(),
    );
    assert_eq!(stdout_json(&out)["def_hue"], json!(3));
    assert_eq!(&png_pixels(&dir.path().join("n.png"))[4..8], rgba(0x7C00));
    let out = gamedata(
        &["uo", "gump", &p(""), "2", "-o", &p("h.png"), "--hue", "1"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--hue needs hues.mul"), "{stderr}");
    assert!(!dir.path().join("h.png").exists());
}
