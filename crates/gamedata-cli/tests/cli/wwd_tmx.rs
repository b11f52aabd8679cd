//! `gamedata wwd tmx`: a level exported to Tiled's TMX and TMJ with its images beside it
//! (the pictures Tiled draws of exports are compared with the scene in gamedata-tiled's
//! tests; pytmx loads them in `tools/reference/tiled_pytmx.py`).

use std::path::Path;

use super::*;

/// A synthetic level and the archive of every image it names, in `dir`.
fn level_and_rez(dir: &Path) -> (String, String) {
    let data = wap_core::synth::level(5, 40, 20);
    let level = dir.join("SYNTH.WWD");
    std::fs::write(&level, data.to_file(true).unwrap()).unwrap();
    let rez = dir.join("SYNTH.REZ");
    std::fs::write(&rez, wap_core::synth::level_archive(&data).unwrap()).unwrap();
    (
        level.to_str().unwrap().to_owned(),
        rez.to_str().unwrap().to_owned(),
    )
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

#[test]
fn a_level_is_exported_to_tmx_and_tmj_with_its_images() {
    let dir = tempfile::tempdir().unwrap();
    let (level, rez) = level_and_rez(dir.path());
    let report = stdout_json(&gamedata(
        &[
            "--json",
            "wwd",
            "tmx",
            &level,
            "--rez",
            &rez,
            "-o",
            "out/synth.tmx",
        ],
        dir.path(),
    ));
    assert_eq!(
        json_keys(&report),
        [
            "tmx",
            "format",
            "width",
            "height",
            "layers",
            "tile_layers",
            "object_layers",
            "objects",
            "objects_drawn",
            "tilesets",
            "tiles",
            "images_dir",
            "images",
            "image_bytes",
            "bytes",
            "missing_images",
            "missing",
            "elapsed_ms"
        ]
    );
    let tmx = dir.path().join("out/synth.tmx");
    let text = std::fs::read_to_string(&tmx).unwrap();
    assert_eq!(report["bytes"], text.len() as u64);
    assert_eq!(report["format"], "tmx");
    assert_eq!(
        (&report["width"], &report["height"]),
        (&40.into(), &20.into())
    );
    // Three planes; the synthetic level's objects all drawn, none missing.
    assert_eq!(report["tile_layers"], 3);
    assert_eq!(text.matches("<layer ").count(), 3);
    assert_eq!(
        text.matches("<objectgroup ").count() as u64,
        report["object_layers"].as_u64().unwrap()
    );
    assert_eq!(
        text.matches("<object ").count() as u64,
        report["objects"].as_u64().unwrap()
    );
    assert_eq!(report["objects_drawn"], report["objects"]);
    assert_eq!(report["missing_images"], 0);
    // The images, each named by the map.
    let images = dir.path().join("out/synth_images");
    assert_eq!(report["images"].as_u64().unwrap() as usize, pngs(&images));
    assert_eq!(
        text.matches("<image source=\"synth_images/").count(),
        pngs(&images)
    );
    // The same as TMJ: Tiled's keys, the same layers and objects.
    let json = stdout_json(&gamedata(
        &[
            "--json",
            "wwd",
            "tmx",
            &level,
            "--rez",
            &rez,
            "-o",
            "out/synth.tmj",
        ],
        dir.path(),
    ));
    assert_eq!(json["format"], "tmj");
    let map: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("out/synth.tmj")).unwrap()).unwrap();
    assert_eq!(
        (map["type"].as_str(), map["width"].as_u64()),
        (Some("map"), Some(40))
    );
    assert_eq!(
        map["layers"].as_array().unwrap().len() as u64,
        json["layers"]
    );
    let objects: usize = map["layers"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["type"] == "objectgroup")
        .map(|l| l["objects"].as_array().unwrap().len())
        .sum();
    assert_eq!(objects as u64, report["objects"]);
}

#[test]
fn tmx_needs_images_and_never_writes_over_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let (level, rez) = level_and_rez(dir.path());
    let out = gamedata(&["wwd", "tmx", &level, "-o", "x.tmx"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let out = gamedata(
        &["wwd", "tmx", &level, "--rez", &rez, "-o", &level],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        std::fs::read(&level).unwrap(),
        wap_core::synth::level(5, 40, 20).to_file(true).unwrap()
    );
}

/// A level exported and read back: `wwd info --json` and `wwd objects --json` say the
/// same of both (the checksum and the stored bytes but the compressed stream aside).
#[test]
fn a_level_comes_back_from_its_tmx() {
    let dir = tempfile::tempdir().unwrap();
    let (level, rez) = level_and_rez(dir.path());
    gamedata_ok(
        &["wwd", "tmx", &level, "--rez", &rez, "-o", "synth.tmx"],
        dir.path(),
    );
    let report = stdout_json(&gamedata(
        &["--json", "wwd", "from-tmx", "synth.tmx", "-o", "BACK.WWD"],
        dir.path(),
    ));
    assert_eq!(
        json_keys(&report),
        [
            "output",
            "bytes",
            "compressed",
            "planes",
            "objects",
            "main_block_size",
            "checksum",
            "elapsed_ms"
        ]
    );
    assert_eq!(report["compressed"], true);
    let info = |f: &str| stdout_json(&gamedata(&["--json", "wwd", "info", f], dir.path()));
    let (mut a, mut b) = (info(&level), info("BACK.WWD"));
    for v in [&mut a, &mut b] {
        v.as_object_mut().unwrap().remove("checksum");
    }
    assert_eq!(a, b);
    let objects = |f: &str| stdout_json(&gamedata(&["--json", "wwd", "objects", f], dir.path()));
    assert_eq!(objects(&level), objects("BACK.WWD"));
    assert_eq!(report["objects"].as_u64().unwrap() as usize, {
        let o = objects(&level);
        o.as_array()
            .map_or_else(|| o["objects"].as_array().unwrap().len(), Vec::len)
    });
}
