//! `gamedata cosmo ...` on synthetic and real episodes.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::*;

#[test]
fn ls_json_lists_every_entry() {
    let dir = synthetic_game_dir();
    let ls = stdout_json(&gamedata(
        &["cosmo", "ls", "COSMO1.STN", "--json"],
        dir.path(),
    ));
    // Sizes: TILEATTR 7,000; TILES 19 tiles x 32; MASKTILE 3 tiles x 40; ACTRINFO 267 words
    // of lookup and 267 frames of 8 bytes; ACTORS 1,062 tiles x 40 (the frames of
    // (1 + s % 3) x (1 + s / 3 % 3) tiles summed over the 267 types); contiguous from 4,000.
    assert_eq!(
        ls,
        json!([
            {"name": "TILEATTR.MNI", "offset": 4000, "size": 7000},
            {"name": "TILES.MNI", "offset": 11000, "size": 608},
            {"name": "MASKTILE.MNI", "offset": 11608, "size": 120},
            {"name": "ACTRINFO.MNI", "offset": 11728, "size": 2670},
            {"name": "ACTORS.MNI", "offset": 14398, "size": 42480},
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
    let keys = json_keys(&v);
    assert_eq!(
        keys,
        [
            "width",
            "height",
            "actors",
            "backdrop",
            "music",
            "rain",
            "palette_animation",
            "render"
        ]
    );
    // With --render the report says what was drawn: the PNG's size, read back here.
    let render = &v["render"];
    assert_eq!(render["output"], "a2.png");
    assert_eq!(png_size(&dir.path().join("a2.png")), (512, 4096));
    assert_eq!(
        (render["width"].as_u64(), render["height"].as_u64()),
        (Some(512), Some(4096))
    );
    let len = std::fs::metadata(dir.path().join("a2.png")).unwrap().len();
    assert_eq!(render["bytes"].as_u64(), Some(len));
    assert_eq!(render["attributes"], false);
    assert!(render["elapsed_ms"].as_f64().is_some());
    // Without --json the sentence goes to stdout after the map's text.
    let out = gamedata(
        &["cosmo", "map", ".", "a2.mni", "--render", "b.png"],
        dir.path(),
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.trim_end().ends_with("tiles drawn)"), "{text}");
    assert!(text.contains("wrote b.png (512 x 4096 pixels"), "{text}");
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
    // --json reports the copy; with -o - stdout is the entry's bytes, so --json is refused.
    let report = stdout_json(&gamedata(
        &[
            "--json",
            "cosmo",
            "extract",
            "COSMO1.STN",
            "tiles.mni",
            "-o",
            "t2.bin",
        ],
        dir.path(),
    ));
    assert_eq!(report["entry"], "TILES.MNI");
    assert_eq!(report["output"], "t2.bin");
    assert_eq!(
        report["bytes"].as_u64(),
        Some(synth::solid_tiles().len() as u64)
    );
    let out = gamedata(
        &[
            "--json",
            "cosmo",
            "extract",
            "COSMO1.STN",
            "TILES.MNI",
            "-o",
            "-",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
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
    assert_eq!(listed.as_array().unwrap().len(), 5);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("4 bad entries")
            && err.contains("\"TILES.MNI\"")
            && err.contains("\"MASKTILE.MNI\"")
            && err.contains("\"ACTORS.MNI\""),
        "{err}"
    );

    // A map whose width is not a power of two, in a copy of the VOL.
    let mut vol = std::fs::read(dir.path().join("COSMO1.VOL")).unwrap();
    vol[4002..4004].copy_from_slice(&100u16.to_le_bytes()); // A1.MNI starts at 4000; width at +2
    std::fs::write(dir.path().join("COSMO1.VOL"), &vol).unwrap();
    let err = gamedata_fails(&["cosmo", "map", ".", "A1.MNI"], dir.path());
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
fn folder_errors_name_the_file_and_entry_errors_the_slot() {
    let dir = synthetic_game_dir();
    // A 0-byte COSMO1.STN: the message names the folder command and the file.
    let vol = std::fs::read(dir.path().join("COSMO1.VOL")).unwrap();
    let stn = std::fs::read(dir.path().join("COSMO1.STN")).unwrap();
    std::fs::write(dir.path().join("COSMO1.STN"), b"").unwrap();
    let err = gamedata_fails(&["cosmo", "tileattr", "."], dir.path());
    assert!(
        err.contains("reading TILEATTR.MNI of episode 1 in .")
            && err.contains(
                "caused by: in group file COSMO1.STN: group file directory is 0 bytes, \
                 expected at least 4000"
            ),
        "{err}"
    );

    // TILES.MNI (slot 1 of the STN) loses a byte: the render names the group file and slot.
    let mut damaged = stn.clone();
    // Slot 1's size field is at 20 + 16; TILES.MNI is 608 bytes in the synthetic STN.
    damaged[36..40].copy_from_slice(&607u32.to_le_bytes());
    std::fs::write(dir.path().join("COSMO1.STN"), &damaged).unwrap();
    std::fs::write(dir.path().join("COSMO1.VOL"), &vol).unwrap();
    let err = gamedata_fails(
        &["cosmo", "map", ".", "A1.MNI", "--render", "a.png"],
        dir.path(),
    );
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

/// The golden files are the output of `tools/reference/cosmo_goldens.py`, an independent
/// reader of the raw bytes (`.ci/run` runs it on `GAMEDATA_DIR` and compares).
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

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn renders_a1_with_its_actors_and_backdrop() {
    let cosmo = real_cosmo_dir();
    let out_dir = tempfile::tempdir().unwrap();
    let plain = out_dir.path().join("plain.png");
    let full = out_dir.path().join("full.png");
    let p = plain.to_str().unwrap();
    let f = full.to_str().unwrap();
    assert!(
        gamedata(&["cosmo", "map", ".", "A1.MNI", "--render", p], &cosmo)
            .status
            .success()
    );
    let out = gamedata(
        &[
            "--json",
            "cosmo",
            "map",
            ".",
            "A1.MNI",
            "--render",
            f,
            "--actors",
            "--backdrop",
        ],
        &cosmo,
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = stdout_json(&out);
    let render = &v["render"];
    assert_eq!(
        render["backdrop"],
        json!({"number": 11, "entry": "BDNEWSKY.MNI"})
    );
    // A1.MNI: 270 actors, the player start special; counted by
    // tools/reference/cosmo_actors.py (goldens/cosmo_actors.json).
    let facts = gamedata_testkit::reference("cosmo_actors.json");
    assert_eq!(render["actors"]["drawn"], facts["A1.MNI"]["drawn"]);
    assert_eq!(render["actors"]["special"], facts["A1.MNI"]["special"]);
    assert_eq!(render["actors"]["not_drawn"], facts["A1.MNI"]["not_drawn"]);
    assert_eq!(render["actors"]["drawn"], 269);
    // The backdrop fills what the tiles leave black: far fewer black pixels than without.
    let black = |png: &Path| {
        png_pixels(png)
            .chunks(4)
            .filter(|p| p[..3] == [0, 0, 0])
            .count()
    };
    let (before, after) = (black(&plain), black(&full));
    assert!(
        after * 10 < before,
        "black pixels: {before} without, {after} with"
    );
}

#[test]
fn actors_and_backdrop_on_the_synthetic_episode() {
    let dir = synthetic_game_dir();
    let out = gamedata(
        &[
            "cosmo",
            "map",
            ".",
            "a3.mni",
            "--json",
            "--render",
            "a3.png",
            "--actors",
            "--backdrop",
        ],
        dir.path(),
    );
    let v = stdout_json(&out);
    let render = &v["render"];
    // The synthetic maps name backdrop 3, whose entry the synthetic VOL holds.
    assert_eq!(
        render["backdrop"],
        json!({"number": 3, "entry": "BDROCKTK.MNI"})
    );
    // The synthetic A3's actors: the player start, and actor types 0 to 19 of which the
    // game defines all but 15 and 19: those are listed on stderr, the rest drawn.
    let level = synth::level(2048, 3);
    let mut want = (0, 0, 0);
    for a in &level.actors {
        match a.kind {
            mni_core::ActorKind::Special(_) => want.1 += 1,
            mni_core::ActorKind::Normal(15 | 19) => want.2 += 1,
            mni_core::ActorKind::Normal(_) => want.0 += 1,
        }
    }
    assert!(want.0 > 0 && want.2 > 0, "{want:?}");
    let actors = &render["actors"];
    assert_eq!(
        (
            actors["drawn"].as_u64(),
            actors["special"].as_u64(),
            actors["not_drawn"].as_u64()
        ),
        (Some(want.0), Some(want.1), Some(want.2))
    );
    let err = String::from_utf8_lossy(&out.stderr);
    let notes = err
        .lines()
        .filter(|l| l.starts_with("note: A3.MNI: actor "))
        .count();
    assert_eq!(notes as u64, want.2.min(20), "{err}");
    assert!(
        err.contains("the game defines no actor of this type, not drawn"),
        "{err}"
    );
    assert_eq!(
        actors["not_drawn_list"].as_array().unwrap().len() as u64,
        want.2.min(100)
    );
    // Without the flags the picture is the tiles alone; with them it differs.
    let plain = gamedata(
        &["cosmo", "map", ".", "a3.mni", "--render", "plain.png"],
        dir.path(),
    );
    assert!(plain.status.success() && plain.stderr.is_empty());
    assert_ne!(
        png_pixels(&dir.path().join("a3.png")),
        png_pixels(&dir.path().join("plain.png"))
    );
    // The flags need --render.
    let out = gamedata(&["cosmo", "map", ".", "a1.mni", "--actors"], dir.path());
    assert_eq!(out.status.code(), Some(2));
}
