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
            "image_layers",
            "objects",
            "tilesets",
            "tiles",
            "images_dir",
            "images",
            "image_bytes",
            "bytes",
            "objects_drawn",
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
    // From the TMJ export, the same file.
    gamedata_ok(
        &["wwd", "tmx", &level, "--rez", &rez, "-o", "synth.tmj"],
        dir.path(),
    );
    gamedata_ok(
        &["wwd", "from-tmx", "synth.tmj", "-o", "BACK2.WWD"],
        dir.path(),
    );
    assert_eq!(
        std::fs::read(dir.path().join("BACK2.WWD")).unwrap(),
        std::fs::read(dir.path().join("BACK.WWD")).unwrap()
    );
    assert_eq!(report["objects"].as_u64().unwrap() as usize, {
        let o = objects(&level);
        o.as_array()
            .map_or_else(|| o["objects"].as_array().unwrap().len(), Vec::len)
    });
}

/// `s`'s `<object id="N" ...>` tags that have a gid, as (start, end of the tag, id, x).
fn tile_objects(s: &str) -> Vec<(usize, usize, String, f64)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = s[from..].find("<object id=\"") {
        let start = from + at;
        let end = start + s[start..].find('>').unwrap();
        let tag = &s[start..end];
        let attr = |k: &str| {
            let i = tag.find(&format!(" {k}=\""))? + k.len() + 3;
            Some(tag[i..i + tag[i..].find('"')?].to_owned())
        };
        if attr("gid").is_some() {
            out.push((
                start,
                end,
                attr("id").unwrap(),
                attr("x").unwrap().parse().unwrap(),
            ));
        }
        from = end;
    }
    out
}

/// RETAIL01 exported with the images of its sets (sizes and offsets of the real CLAW.REZ's,
/// flat pixels), edited as in Tiled (an object moved, one deleted, one added by its
/// tile), read back: `wwd validate` passes and `wwd objects` shows the edits.
#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn a_real_level_edited_in_tiled_comes_back_valid() {
    let dir = tempfile::tempdir().unwrap();
    let text =
        std::fs::read_to_string(gamedata_testkit::require_file("wap32/claw-image-sets.dict"))
            .unwrap();
    let images = gamedata_testkit::claw_images(&text);
    let pids: Vec<(String, Vec<u8>)> = images
        .iter()
        .filter(|(p, _, _)| p.starts_with("LEVEL1/") || p.starts_with("GAME/"))
        .map(|(path, (w, h), offset)| {
            let n = (w * h) as usize;
            let pixels = wap_core::PidPixels {
                width: *w,
                height: *h,
                indices: vec![16; n],
                opaque: vec![true; n],
            };
            let pid =
                wap_core::write_pid(&pixels, *offset, wap_core::PidFlags::empty(), None, true);
            (format!("{path}.PID"), pid)
        })
        .collect();
    let palette = wap_core::synth::palette();
    let mut files: Vec<(&str, &[u8])> = pids
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    files.push(("LEVEL1/PALETTES/MAIN.PAL", &palette[..]));
    std::fs::write(
        dir.path().join("R.REZ"),
        wap_core::write_rez(&files).unwrap(),
    )
    .unwrap();
    let level = gamedata_testkit::require_file("wwd/RETAIL01.WWD");
    let level = level.to_str().unwrap();
    gamedata_ok(
        &["wwd", "tmx", level, "--rez", "R.REZ", "-o", "r01.tmx"],
        dir.path(),
    );
    let tmx = std::fs::read_to_string(dir.path().join("r01.tmx")).unwrap();
    let tiles = tile_objects(&tmx);
    assert!(tiles.len() > 100, "{} tile objects", tiles.len());
    let (moved, deleted) = (&tiles[10], &tiles[20]);
    let wwd_id = |start: usize| {
        let block = &tmx[start..start + tmx[start..].find("</object>").unwrap()];
        let key = "name=\"wwd_id\" type=\"int\" value=\"";
        let at = block.find(key).unwrap() + key.len();
        block[at..at + block[at..].find('"').unwrap()]
            .parse::<i64>()
            .unwrap()
    };
    let (moved_id, deleted_id) = (wwd_id(moved.0), wwd_id(deleted.0));
    // Edits from the end back, so that the earlier places hold.
    let mut edited = tmx.clone();
    let deleted_end = deleted.0 + tmx[deleted.0..].find("</object>").unwrap() + 9;
    let gid_at = tmx[moved.0..moved.1].find(" gid=\"").unwrap() + moved.0 + 6;
    let gid = &tmx[gid_at..gid_at + tmx[gid_at..].find('"').unwrap()];
    edited.replace_range(deleted.0..deleted_end, "");
    edited.insert_str(
        deleted.0,
        &format!(
            "<object id=\"99999\" type=\"Officer\" gid=\"{gid}\" x=\"6000\" y=\"4000\" width=\"1\" height=\"1\"/>"
        ),
    );
    let tag = &tmx[moved.0..moved.1];
    let x = format!(" x=\"{}\"", moved.3);
    assert!(tag.contains(&x), "{tag}");
    edited.replace_range(
        moved.0..moved.1,
        &tag.replace(&x, &format!(" x=\"{}\"", moved.3 + 64.0)),
    );
    std::fs::write(dir.path().join("edited.tmx"), edited).unwrap();
    gamedata_ok(
        &["wwd", "from-tmx", "edited.tmx", "-o", "EDITED.WWD"],
        dir.path(),
    );
    gamedata_ok(&["wwd", "validate", "EDITED.WWD"], dir.path());
    let list = |f: &str| {
        let o = stdout_json(&gamedata(&["--json", "wwd", "objects", f], dir.path()));
        o.as_array()
            .cloned()
            .unwrap_or_else(|| o["objects"].as_array().unwrap().clone())
    };
    let (before, after) = (list(level), list("EDITED.WWD"));
    assert_eq!(after.len(), before.len());
    let by_id = |l: &[Value], id: i64| l.iter().find(|o| o["id"] == id).cloned();
    let was = by_id(&before, moved_id).unwrap();
    let now = by_id(&after, moved_id).unwrap();
    assert_eq!(now["x"].as_i64().unwrap(), was["x"].as_i64().unwrap() + 64);
    assert_eq!(now["y"], was["y"]);
    assert!(by_id(&after, deleted_id).is_none());
    let largest = before
        .iter()
        .map(|o| o["id"].as_i64().unwrap())
        .max()
        .unwrap();
    let added = by_id(&after, largest + 1).unwrap();
    assert_eq!(added["logic"], "Officer");
    assert_eq!(added["image_set"], was["image_set"]);
}
