//! `gamedata rez ...` on archives built by wap-core's writer, and the real PIDs.

use std::path::Path;

use serde_json::Value;
use wap_core::{PidFlags, PidPixels, write_pid, write_rez};

use super::*;

/// A 4 x 3 PID with its own palette (index i is (i, 2i, 3i)), the top-left pixel skipped.
fn small_pid() -> Vec<u8> {
    let pixels = PidPixels {
        width: 4,
        height: 3,
        indices: (1..=12).collect(),
        opaque: (0..12).map(|i| i != 0).collect(),
    };
    let mut palette = [0u8; 768];
    for (i, c) in palette.chunks_exact_mut(3).enumerate() {
        c.copy_from_slice(&[i as u8, (2 * i) as u8, (3 * i) as u8]);
    }
    write_pid(&pixels, (1, -2), PidFlags::empty(), Some(&palette), true)
}

/// CLAW.REZ in little: a level's tiles, palette and images.
fn archive(dir: &Path) -> std::path::PathBuf {
    let pid = small_pid();
    let grey = [5u8; 768];
    let files: Vec<(&str, &[u8])> = vec![
        ("LEVEL1/TILES/ACTION/012.PID", &pid),
        ("LEVEL1/TILES/ACTION/001.PID", &pid[..40]),
        ("LEVEL1/PALETTES/MAIN.PAL", &grey),
        ("CLAW/IMAGES/STAND/FRAME001.PID", &pid),
    ];
    let path = dir.join("CLAW.REZ");
    std::fs::write(&path, write_rez(&files).unwrap()).unwrap();
    path
}

#[test]
fn rez_ls_lists_paths_sizes_and_offsets_three_ways() {
    let dir = tempfile::tempdir().unwrap();
    let rez = archive(dir.path());
    let r = rez.to_str().unwrap();
    let text = gamedata_ok(&["rez", "ls", r], dir.path());
    let lines: Vec<String> = String::from_utf8(text.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    let paths: Vec<&str> = lines.iter().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(
        paths,
        [
            "CLAW/IMAGES/STAND/FRAME001.PID",
            "LEVEL1/PALETTES/MAIN.PAL",
            "LEVEL1/TILES/ACTION/001.PID",
            "LEVEL1/TILES/ACTION/012.PID",
        ]
    );
    // Each line's size and offset point at the file's bytes in the archive.
    let bytes = std::fs::read(&rez).unwrap();
    for line in &lines {
        let [_, size, offset] = line.split(' ').collect::<Vec<_>>()[..] else {
            panic!("{line}")
        };
        let (size, offset): (usize, usize) = (size.parse().unwrap(), offset.parse().unwrap());
        if line.contains("MAIN.PAL") {
            assert_eq!(&bytes[offset..offset + size], &[5u8; 768][..]);
        }
        if line.contains("ACTION/001.PID") {
            assert_eq!(size, 40);
            assert_eq!(&bytes[offset..offset + size], &small_pid()[..40]);
        }
    }
    // Under a directory in another case, as JSON Lines and as one document.
    let jsonl = gamedata_ok(&["rez", "ls", r, "level1\\tiles", "--jsonl"], dir.path());
    let rows: Vec<Value> = String::from_utf8(jsonl.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(json_keys(&rows[0]), ["path", "size", "offset"]);
    assert_eq!(rows[0]["path"], "LEVEL1/TILES/ACTION/001.PID");
    let doc = stdout_json(&gamedata(
        &["rez", "ls", r, "LEVEL1/PALETTES/MAIN.PAL", "--json"],
        dir.path(),
    ));
    // Streamed: the files as they are found, the count last.
    assert_eq!(json_keys(&doc), ["files", "count"]);
    assert_eq!(doc["count"], 1);
    assert_eq!(doc["files"][0]["path"], "LEVEL1/PALETTES/MAIN.PAL");
    assert_eq!(doc["files"][0]["size"], 768);
    let missing = gamedata(&["rez", "ls", r, "LEVEL9"], dir.path());
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no \"LEVEL9\""));
}

#[test]
fn rez_extract_writes_a_file_or_a_tree_inside_the_folder_only() {
    let dir = tempfile::tempdir().unwrap();
    let rez = archive(dir.path());
    let r = rez.to_str().unwrap();
    let out = dir.path().join("out");
    let o = out.to_str().unwrap();
    gamedata_ok(
        &["rez", "extract", r, "level1/palettes/main.pal", "-o", o],
        dir.path(),
    );
    assert_eq!(std::fs::read(out.join("MAIN.PAL")).unwrap(), [5u8; 768]);
    let report = stdout_json(&gamedata(
        &["rez", "extract", r, "LEVEL1", "-o", o, "--json"],
        dir.path(),
    ));
    assert_eq!(
        (report["files"].as_u64(), report["bytes"].as_u64()),
        (Some(3), Some((768 + 40 + small_pid().len()) as u64))
    );
    assert_eq!(
        std::fs::read(out.join("LEVEL1/TILES/ACTION/012.PID")).unwrap(),
        small_pid()
    );
    // No temporary folder is left; a second extraction of the tree is refused.
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    let again = gamedata(&["rez", "extract", r, "LEVEL1", "-o", o], dir.path());
    assert_eq!(again.status.code(), Some(1));
    // An archive whose names climb out of the folder is refused, nothing written.
    let evil = dir.path().join("EVIL.REZ");
    std::fs::write(&evil, write_rez(&[("A/../../X.PID", b"x")]).unwrap()).unwrap();
    let refused = gamedata(
        &["rez", "extract", evil.to_str().unwrap(), "A", "-o", o],
        dir.path(),
    );
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("cannot be written safely"));
    assert!(!dir.path().join("X.PID").exists() && !out.join("A").exists());
}

#[test]
fn rez_pid_writes_a_png_from_an_archive_a_folder_or_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let rez = archive(dir.path());
    let r = rez.to_str().unwrap();
    let png = dir.path().join("tile.png");
    let p = png.to_str().unwrap();
    let report = stdout_json(&gamedata(
        &[
            "rez",
            "pid",
            r,
            "LEVEL1/TILES/ACTION/012.PID",
            "-o",
            p,
            "--json",
        ],
        dir.path(),
    ));
    assert_eq!(
        (report["width"].as_u64(), report["height"].as_u64()),
        (Some(4), Some(3))
    );
    assert_eq!(report["offset"], serde_json::json!([1, -2]));
    assert_eq!(
        (report["palette"].as_str(), report["transparent"].as_u64()),
        (Some("embedded"), Some(1))
    );
    let pixels = png_pixels(&png);
    assert_eq!(
        &pixels[..8],
        &[0, 0, 0, 0, 2, 4, 6, 255],
        "skipped (index 0's colour), then index 2"
    );
    // With the level's palette (all 5s), from a folder of extracted files, and a lone file.
    let out = dir.path().join("x");
    gamedata_ok(
        &["rez", "extract", r, "LEVEL1", "-o", out.to_str().unwrap()],
        dir.path(),
    );
    let folder = out.to_str().unwrap();
    let given = dir.path().join("given.png");
    gamedata_ok(
        &[
            "rez",
            "pid",
            folder,
            "level1/tiles/action/012.pid",
            "-o",
            given.to_str().unwrap(),
            "--palette",
            "LEVEL1/PALETTES/MAIN.PAL",
        ],
        dir.path(),
    );
    assert_eq!(&png_pixels(&given)[4..8], &[5, 5, 5, 255]);
    let lone = dir.path().join("lone.png");
    let file = out.join("LEVEL1/TILES/ACTION/012.PID");
    gamedata_ok(
        &[
            "rez",
            "pid",
            file.to_str().unwrap(),
            "-o",
            lone.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(png_pixels(&lone), pixels);
    // A cut image is an error naming it.
    let cut = gamedata(
        &["rez", "pid", r, "LEVEL1/TILES/ACTION/001.PID", "-o", p],
        dir.path(),
    );
    assert_eq!(cut.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&cut.stderr).contains("001.PID"));
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn rez_pid_of_the_real_images_equals_their_reference_decodes() {
    let dir = gamedata_testkit::require_file("wap32/pid");
    let out = tempfile::tempdir().unwrap();
    for name in ["PERFECT", "FRAME043"] {
        let png = out.path().join(format!("{name}.png"));
        let pid = dir.join(format!("{name}.PID"));
        gamedata_ok(
            &[
                "rez",
                "pid",
                pid.to_str().unwrap(),
                "-o",
                png.to_str().unwrap(),
            ],
            out.path(),
        );
        let ours = png_pixels(&png);
        // The reference decode is RGB: every pixel's colour is the same; ours adds alpha.
        let mut decoder = png::Decoder::new(std::io::BufReader::new(
            std::fs::File::open(dir.join("de").join(format!("{name}.PNG"))).unwrap(),
        ));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        let step = info.color_type.samples();
        let reference: Vec<&[u8]> = buf[..info.buffer_size()].chunks_exact(step).collect();
        assert_eq!(reference.len() * 4, ours.len());
        for (i, (o, r)) in ours.chunks_exact(4).zip(reference).enumerate() {
            assert_eq!(&o[..3], &r[..3], "{name} pixel {i}");
        }
        let clear = ours.chunks_exact(4).filter(|p| p[3] == 0).count();
        assert!(
            clear > 0 && clear < ours.len() / 4,
            "{name}: {clear} transparent"
        );
    }
}

#[test]
fn rez_ani_lists_an_animation_s_frames() {
    let dir = tempfile::tempdir().unwrap();
    let ani = wap_core::write_ani(
        b"GAME_CYCLE",
        &[
            (1, 100, None),
            (3, 50, Some(b"GAME_SOUNDS_DING\n")),
            (2, 25, None),
        ],
    );
    let rez = dir.path().join("A.REZ");
    std::fs::write(&rez, write_rez(&[("GAME/ANIS/CYCLE.ANI", &ani)]).unwrap()).unwrap();
    let r = rez.to_str().unwrap();
    let report = stdout_json(&gamedata_ok(
        &["--json", "rez", "ani", r, "game\\anis\\cycle.ani"],
        dir.path(),
    ));
    assert_eq!(report["image_set"], "GAME_CYCLE");
    assert_eq!(report["frame_count"], 3);
    assert_eq!(report["total_ms"], 175);
    assert_eq!(
        report["frames"],
        serde_json::json!([
            {"image": 1, "duration_ms": 100, "sound": null},
            {"image": 3, "duration_ms": 50, "sound": "GAME_SOUNDS_DING\n"},
            {"image": 2, "duration_ms": 25, "sound": null},
        ])
    );
    // The file alone; the sound's newline escaped in the text.
    let file = dir.path().join("CYCLE.ANI");
    std::fs::write(&file, &ani).unwrap();
    let text = gamedata_ok(&["rez", "ani", file.to_str().unwrap()], dir.path());
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("3 frames, 175 ms in all"), "{text}");
    assert!(text.contains("sound GAME_SOUNDS_DING\\n\n"), "{text}");
    // Cut inside the second frame's sound: named.
    std::fs::write(&file, &ani[..95]).unwrap();
    let err = gamedata_fails(&["rez", "ani", file.to_str().unwrap()], dir.path());
    assert!(err.contains("ANI frame 1 of 3 at byte 62"), "{err}");
    let out = gamedata(&["rez", "ani", r, "GAME/ANIS/NONE.ANI"], dir.path());
    assert_eq!(out.status.code(), Some(1));
}
