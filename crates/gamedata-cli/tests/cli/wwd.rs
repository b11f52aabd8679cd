//! `gamedata wwd ...` on synthetic and real levels.

use std::path::PathBuf;

use serde_json::{Value, json};

use super::*;

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
    let keys = json_keys(&info);
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
        (
            json!(data.header.start_x.get()),
            json!(data.header.start_y.get())
        )
    );
    let planes = info["planes"].as_array().unwrap();
    assert_eq!(planes.len(), 3);
    for (plane, want) in planes.iter().zip(&data.planes) {
        let keys = json_keys(plane);
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
    // double, double.
    assert_eq!(
        info["tile_properties"],
        json!({"count": 8, "single": 3, "double": 4, "mask": 1})
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
            .contains("the zlib stream ends early"),
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
    // Figures from tools/reference/wwd_facts.py, an independent reader of the raw bytes
    // (its output, goldens/wwd_facts.json; .ci/run compares the two).
    let facts = gamedata_testkit::reference("wwd_facts.json");
    let r01 = real_wwd("RETAIL01.WWD");
    let info = stdout_json(&gamedata(
        &["wwd", "info", r01.to_str().unwrap(), "--json"],
        &cwd,
    ));
    let want = &facts["RETAIL01.WWD"];
    assert_eq!(info["game"], want["game"]);
    assert_eq!(info["compressed"], true);
    assert_eq!(info["main_block_size"], want["main_block"]);
    assert_eq!(info["main_block_size"], 647_102);
    assert_eq!(info["name"], "Claw - Level 1");
    for (plane, w) in want["plane_details"].as_array().unwrap().iter().enumerate() {
        let got = &info["planes"][plane];
        assert_eq!(got["tiles_wide"], w["wide"], "plane {plane}");
        assert_eq!(got["tiles_high"], w["high"], "plane {plane}");
        assert_eq!(got["objects"], w["objects"], "plane {plane}");
        assert_eq!(got["invisible_tiles"], w["invisible"], "plane {plane}");
    }
    let props = &want["tile_properties"];
    assert_eq!(
        info["tile_properties"],
        json!({"count": props[0], "single": props[1], "double": props[2], "mask": props[3]})
    );
    // The script's class "editor slack 255".
    assert_eq!(want["checksum"], "editor slack 255");
    assert_eq!(info["checksum"]["class"], "editor_slack");
    assert_eq!(info["checksum"]["slack"], 255);
    let wapmap = real_wwd("WapMapTest1.wwd");
    let info = stdout_json(&gamedata(
        &["wwd", "info", wapmap.to_str().unwrap(), "--json"],
        &cwd,
    ));
    assert_eq!(info["trailer_bytes"], facts["WapMapTest1.wwd"]["trailer"]);
    assert_eq!(
        info["checksum"]["class"],
        facts["WapMapTest1.wwd"]["checksum"]
    );
    let rocky = real_wwd("RockySwitch.wwd");
    let info = stdout_json(&gamedata(
        &["wwd", "info", rocky.to_str().unwrap(), "--json"],
        &cwd,
    ));
    let want = &facts["RockySwitch.wwd"];
    assert_eq!(info["game"], want["game"]);
    assert_eq!(
        info["planes"][0]["tile_width"],
        want["plane_details"][0]["tile"]
    );
    let coolness = real_wwd("LePortdeCoolness.wwd");
    let info = stdout_json(&gamedata(
        &["wwd", "info", coolness.to_str().unwrap(), "--json"],
        &cwd,
    ));
    assert_eq!(
        info["tile_properties"]["mask"],
        facts["LePortdeCoolness.wwd"]["tile_properties"][3]
    );

    // Validate the folder: every level but the bad signature.
    let folder = r01.parent().unwrap();
    let out = gamedata(
        &["wwd", "validate", folder.to_str().unwrap(), "--json"],
        &cwd,
    );
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        report["total"].as_u64(),
        Some(facts.as_object().unwrap().len() as u64)
    );
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
    assert_eq!(
        report["objects"],
        facts["RETAIL01.WWD"]["plane_details"][1]["objects"]
    );
    assert!(report["pixels"]["solid"].as_u64().unwrap() > 500_000);
    assert!(report["pixels"]["death"].as_u64().unwrap() > 0);
}

#[test]
fn wwd_write_never_replaces_its_input() {
    let (dir, _) = synthetic_wwd_dir();
    let cwd = dir.path();
    let before = std::fs::read(cwd.join("level.wwd")).unwrap();
    // The same file, named directly and through another path.
    for target in ["level.wwd", "./level.wwd"] {
        let out = gamedata(&["wwd", "write", "level.wwd", target, "--no-compress"], cwd);
        assert_eq!(out.status.code(), Some(1), "{target}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("is one of this command's inputs"), "{err}");
    }
    assert_eq!(std::fs::read(cwd.join("level.wwd")).unwrap(), before);
    // Another target is written whole, and replaces an older file there.
    std::fs::write(cwd.join("copy.wwd"), b"old").unwrap();
    gamedata_ok(&["wwd", "write", "level.wwd", "copy.wwd"], cwd);
    let copy = std::fs::read(cwd.join("copy.wwd")).unwrap();
    assert_eq!(&copy[..4], &1524u32.to_le_bytes());
    let names: Vec<_> = std::fs::read_dir(cwd)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with(".tmp"))
        .collect();
    assert!(names.is_empty(), "{names:?}");
}

#[test]
fn wwd_objects_streams_limits_and_counts() {
    let (dir, data) = synthetic_wwd_dir();
    let rows = check_listing(
        &["wwd", "objects", "level.wwd"],
        dir.path(),
        "objects",
        "objects",
    );
    let want: usize = data.planes.iter().map(|p| p.objects.len()).sum();
    assert_eq!(rows.len(), want);
}

#[test]
fn wwd_writing_commands_report_what_they_wrote() {
    let (dir, _) = synthetic_wwd_dir();
    let cwd = dir.path();
    let len = |p: &str| std::fs::metadata(cwd.join(p)).unwrap().len();
    let write = stdout_json(&gamedata(
        &["--json", "wwd", "write", "level.wwd", "copy.wwd"],
        cwd,
    ));
    assert_eq!(write["bytes"].as_u64(), Some(len("copy.wwd")));
    assert!(write["elapsed_ms"].as_f64().is_some());
    let render = stdout_json(&gamedata(
        &[
            "--json",
            "wwd",
            "render",
            "level.wwd",
            "-o",
            "c.png",
            "--tile-px",
            "2",
        ],
        cwd,
    ));
    assert_eq!(render["bytes"].as_u64(), Some(len("c.png")));
    assert_eq!(
        (render["width"].as_u64(), render["height"].as_u64()),
        (Some(80), Some(40))
    );
    assert!(render["elapsed_ms"].as_f64().is_some());
}
