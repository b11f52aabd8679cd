//! `gamedata uo anim`: a direction of a body's action drawn as the client draws it, from a
//! frame group built here byte by byte (the expected pixels computed here), mirrored for
//! directions 5 to 7, hued, as frames or a sheet; and from `uo synth --art`'s set.

use serde_json::json;

use super::*;

/// A palette entry's RGBA as the client widens it: `v * 255 / 31` a channel, opaque.
fn rgba(colour: u16) -> [u8; 4] {
    let w = |v: u16| (u32::from(v & 31) * 255 / 31) as u8;
    [w(colour >> 10), w(colour >> 5), w(colour), 255]
}

/// Palette: 0 black, 1 grey (4, 4, 4), 2 red with bit 15 set, 3 blue.
const PALETTE: [u16; 4] = [0, 0x1084, 0xFC00, 0x001F];

/// A group of two frames. Frame 0: centre (1, -3), 3 x 2; row 0 indices 1, 0, 2 from
/// column 0 (x = 0 - 1 = -1, y = 0 + 3 - 2 = 1, 3 pixels: 0xFFC01003); row 1 index 3 at
/// column 2 (x = 1, y = 2: 0x00402001). Frame 1: centre (0, 0), 1 x 1, index 2 (x = 0,
/// y = 0 - 0 - 1 = -1: 0x003FF001).
pub(super) fn group() -> Vec<u8> {
    let mut out = vec![0u8; 512];
    for (i, c) in PALETTE.iter().enumerate() {
        out[2 * i..2 * i + 2].copy_from_slice(&c.to_le_bytes());
    }
    out.extend(2u32.to_le_bytes());
    let first = 4 + 8;
    let frame0_len = 8 + 4 + 3 + 4 + 1 + 4;
    out.extend((first as u32).to_le_bytes());
    out.extend(((first + frame0_len) as u32).to_le_bytes());
    for v in [1i16, -3, 3, 2] {
        out.extend(v.to_le_bytes());
    }
    out.extend(0xFFC0_1003u32.to_le_bytes());
    out.extend([1, 0, 2]);
    out.extend(0x0040_2001u32.to_le_bytes());
    out.push(3);
    out.extend(0x7FFF_7FFFu32.to_le_bytes());
    for v in [0i16, 0, 1, 1] {
        out.extend(v.to_le_bytes());
    }
    out.extend(0x003F_F001u32.to_le_bytes());
    out.push(2);
    out.extend(0x7FFF_7FFFu32.to_le_bytes());
    out
}

/// anim.idx of 110 records (body 0 of the high group), record `record` naming the first
/// `len` bytes of anim.mul, the others empty.
pub(super) fn body_0_index(record: u32, len: usize) -> Vec<u8> {
    let mut idx = Vec::new();
    for r in 0..110u32 {
        let (offset, size) = if r == record {
            (0, len as u32)
        } else {
            (u32::MAX, u32::MAX)
        };
        for word in [offset, size, 0] {
            idx.extend(word.to_le_bytes());
        }
    }
    idx
}

/// A folder with ANIM.IDX (110 records: body 0 of the high group) and anim.mul holding the
/// group at body 0 action 0 direction 1 (record 1).
pub(super) fn anim_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let data = group();
    std::fs::write(dir.path().join("ANIM.IDX"), body_0_index(1, data.len())).unwrap();
    std::fs::write(dir.path().join("anim.mul"), data).unwrap();
    dir
}

#[test]
fn uo_anim_draws_a_direction_s_frames_as_the_client_does() {
    let dir = anim_dir();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let d = p("");
    let out = gamedata_ok(
        &[
            "uo",
            "anim",
            &d,
            "0",
            "--action",
            "0",
            "--direction",
            "1",
            "-o",
            &p("out"),
            "--json",
        ],
        dir.path(),
    );
    let report = stdout_json(&out);
    assert_eq!(
        json_keys(&report),
        [
            "frames",
            "source",
            "file",
            "entry_action",
            "files",
            "written",
            "missing",
            "over_budget"
        ]
    );
    assert_eq!(
        report,
        json!({"frames": [
            {"width": 3, "height": 2, "centre_x": 1, "centre_y": -3},
            {"width": 1, "height": 1, "centre_x": 0, "centre_y": 0},
        ], "source": "mul", "file": "anim.mul", "entry_action": 0,
        "files": ["000.png", "001.png"], "written": 2, "missing": 0, "over_budget": 0})
    );
    // Black (index 0) is drawn; places no run covers are clear; bit 15 plays no part.
    let clear = [0u8; 4];
    let frame0: Vec<u8> = [
        rgba(0x1084),
        [0, 0, 0, 255],
        [255, 0, 0, 255],
        clear,
        clear,
        rgba(0x001F),
    ]
    .concat();
    assert_eq!(png_size(&dir.path().join("out/000.png")), (3, 2));
    assert_eq!(png_pixels(&dir.path().join("out/000.png")), frame0);
    assert_eq!(
        png_pixels(&dir.path().join("out/001.png")),
        [255, 0, 0, 255]
    );
    // Direction 7 is stored direction 1 mirrored: columns flipped, centre x = 3 - 1.
    let out = gamedata_ok(
        &[
            "uo",
            "anim",
            &d,
            "0",
            "--action",
            "0",
            "--direction",
            "7",
            "-o",
            &p("m"),
            "--json",
        ],
        dir.path(),
    );
    let report = stdout_json(&out);
    assert_eq!(report["frames"][0]["centre_x"], 2);
    assert_eq!(report["frames"][1]["centre_x"], 1);
    let mirrored: Vec<u8> = [
        [255, 0, 0, 255],
        [0, 0, 0, 255],
        rgba(0x1084),
        rgba(0x001F),
        clear,
        clear,
    ]
    .concat();
    assert_eq!(png_pixels(&dir.path().join("m/000.png")), mirrored);
    // The sheet: 3 + 1 pixels wide, 2 high, top-aligned; nothing in OUTDIR.
    gamedata_ok(
        &[
            "uo",
            "anim",
            &d,
            "0",
            "--action",
            "0",
            "--direction",
            "1",
            "--sheet",
            &p("sheet.png"),
        ],
        dir.path(),
    );
    assert_eq!(png_size(&dir.path().join("sheet.png")), (4, 2));
    let sheet = png_pixels(&dir.path().join("sheet.png"));
    assert_eq!(&sheet[..12], &frame0[..12]);
    assert_eq!(&sheet[12..16], &[255, 0, 0, 255]);
    assert_eq!(&sheet[16..28], &frame0[12..24]);
    assert_eq!(&sheet[28..32], &clear);
}

#[test]
fn uo_anim_hues_every_drawn_pixel_and_refuses_what_it_cannot_draw() {
    let dir = anim_dir();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let d = p("");
    // hues.mul of one group: hue 1's entry r is 0x0400 | r.
    let mut hues = vec![0u8; 4];
    for _ in 0..8 {
        for r in 0..32u16 {
            hues.extend((0x0400 | r).to_le_bytes());
        }
        hues.extend([0u8; 24]);
    }
    std::fs::write(dir.path().join("hues.mul"), hues).unwrap();
    gamedata_ok(
        &[
            "uo",
            "anim",
            &d,
            "0",
            "--action",
            "0",
            "--direction",
            "1",
            "-o",
            &p("h"),
            "--hue",
            "1",
        ],
        dir.path(),
    );
    // Every covered pixel takes entry r of hue 1, r its red: black too (entry 0).
    let clear = [0u8; 4];
    let hued: Vec<u8> = [
        rgba(0x0400 | 4),
        rgba(0x0400),
        rgba(0x0400 | 31),
        clear,
        clear,
        rgba(0x0400),
    ]
    .concat();
    assert_eq!(png_pixels(&dir.path().join("h/000.png")), hued);
    let fails = |args: &[&str], says: &str| {
        let out = gamedata(args, dir.path());
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{stderr}");
    };
    let anim = |extra: &[&str]| -> Vec<String> {
        let mut args: Vec<String> = ["uo", "anim", &d, "0", "--action", "0"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };
    let run = |extra: &[&str], says: &str| {
        let args = anim(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        fails(&args, says);
    };
    // An empty record, an action past the group, a body past the index, a missing file.
    run(&["--direction", "0", "-o", &p("x")], "has no frames");
    fails(
        &[
            "uo",
            "anim",
            &d,
            "0",
            "--action",
            "22",
            "--direction",
            "0",
            "-o",
            &p("x"),
        ],
        "action 22",
    );
    fails(
        &[
            "uo",
            "anim",
            &d,
            "1",
            "--action",
            "0",
            "--direction",
            "0",
            "-o",
            &p("x"),
        ],
        "body 1 has no animation",
    );
    run(
        &["--direction", "1", "-o", &p("x"), "--file", "anim2"],
        "no anim2.mul",
    );
    // Never over an input.
    run(
        &["--direction", "1", "--sheet", &p("anim.mul")],
        "is one of this command's inputs",
    );
    assert_eq!(std::fs::read(dir.path().join("anim.mul")).unwrap(), group());
    // A run past its frame is an error naming the entry.
    let mut bad = group();
    let at = 512 + 4 + 8 + 8;
    bad[at..at + 4].copy_from_slice(&0xFFC0_1004u32.to_le_bytes());
    std::fs::write(dir.path().join("anim.mul"), bad).unwrap();
    run(
        &["--direction", "1", "-o", &p("x")],
        "body 0 action 0 direction 1",
    );
}

#[test]
fn uo_anim_reads_the_synthetic_set() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    gamedata_ok(&["uo", "synth", d, "--facet", "4", "--art"], dir.path());
    let (idx, data) = mul_core::anim::write::synthetic_animations(1);
    assert_eq!(std::fs::read(dir.path().join("anim.idx")).unwrap(), idx);
    assert_eq!(std::fs::read(dir.path().join("anim.mul")).unwrap(), data);
    let out_dir = dir.path().join("frames");
    let o = out_dir.to_str().unwrap();
    // Body 400 action 1 direction 2: three frames, the middle one empty (a 1 x 1 clear PNG).
    let report = stdout_json(&gamedata_ok(
        &[
            "uo",
            "anim",
            d,
            "400",
            "--action",
            "1",
            "--direction",
            "2",
            "-o",
            o,
            "--json",
        ],
        dir.path(),
    ));
    let frames = report["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 3);
    assert_eq!(
        (frames[1]["width"].clone(), frames[1]["height"].clone()),
        (json!(0), json!(0))
    );
    assert_eq!(png_size(&out_dir.join("001.png")), (1, 1));
    assert_eq!(png_pixels(&out_dir.join("001.png")), [0, 0, 0, 0]);
    for (i, f) in frames.iter().enumerate().filter(|(i, _)| *i != 1) {
        let size = (
            f["width"].as_u64().unwrap() as u32,
            f["height"].as_u64().unwrap() as u32,
        );
        assert_eq!(png_size(&out_dir.join(format!("{i:03}.png"))), size);
    }
}

/// `uo export anims` over `uo synth --art`'s set: a folder of frames for each of the 59
/// directions stored (4 bodies x 3 actions x 5 directions, body 1's action 2 direction 4
/// empty), each frame's PNG the pixels `uo anim` draws for it; body 2's action 0 direction
/// 0 (an exact repeat of body 1's) decoded once; the empty frame a 1 x 1 transparent PNG.
/// Counts from `mul_core::anim::write`'s documented set.
#[test]
fn uo_export_anims_writes_every_stored_direction_as_uo_anim_draws_it() {
    use mul_core::anim::write::{SYNTHETIC_ACTIONS, SYNTHETIC_BODIES};

    let dir = tempfile::tempdir().unwrap();
    gamedata_ok(&["uo", "synth", "g", "--facet", "4", "--art"], dir.path());
    let out = gamedata_ok(
        &["uo", "export", "anims", "g", "-o", "out", "--json"],
        dir.path(),
    );
    let report = stdout_json(&out);
    let mut folders = 0;
    let mut frames = 0u64;
    let mut repeated = 0u64;
    for body in SYNTHETIC_BODIES {
        for action in 0..SYNTHETIC_ACTIONS {
            for direction in 0..5u8 {
                let folder = dir.path().join(format!(
                    "out/anims/anim/{body:#06X}/{action:02}/{direction}"
                ));
                if (body, action, direction) == (1, 2, 4) {
                    assert!(!folder.exists());
                    continue;
                }
                folders += 1;
                let drawn = dir
                    .path()
                    .join(format!("drawn-{body}-{action}-{direction}"));
                let args = [
                    "uo".to_string(),
                    "anim".into(),
                    "g".into(),
                    body.to_string(),
                    "--action".into(),
                    action.to_string(),
                    "--direction".into(),
                    direction.to_string(),
                    "-o".into(),
                    drawn.display().to_string(),
                ];
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                gamedata_ok(&args, dir.path());
                let mut names: Vec<_> = std::fs::read_dir(&drawn)
                    .unwrap()
                    .map(|e| e.unwrap().file_name())
                    .collect();
                names.sort();
                let mut exported: Vec<_> = std::fs::read_dir(&folder)
                    .unwrap()
                    .map(|e| e.unwrap().file_name())
                    .collect();
                exported.sort();
                assert_eq!(exported, names, "{}", folder.display());
                for name in &names {
                    assert_eq!(
                        png_pixels(&folder.join(name)),
                        png_pixels(&drawn.join(name)),
                        "{}",
                        folder.join(name).display()
                    );
                }
                frames += names.len() as u64;
                if (body, action, direction) == (2, 0, 0) {
                    repeated = names.len() as u64;
                }
            }
        }
    }
    assert_eq!(folders, 59);
    assert!(repeated > 0);
    assert_eq!(report["written"], frames);
    assert_eq!(report["decoded"], frames - repeated);
    assert_eq!(report["failed"], 0);
    // Body 400's action 1 direction 2: its middle frame is empty.
    let empty = dir.path().join("out/anims/anim/0x0190/01/2/001.png");
    assert_eq!(png_size(&empty), (1, 1));
    assert_eq!(png_pixels(&empty), [0, 0, 0, 0]);
}

/// `uo animdata` over `uo synth --art`'s animdata.mul: item 10 cycles through 10, 8, 12
/// and 10 at 100 ms a frame (interval 0), item 3 through 3, 4, 5 at 201 ms; an item past
/// the file's 24 records is an error naming the file.
#[test]
fn uo_animdata_tells_an_items_frames_and_pace() {
    let dir = tempfile::tempdir().unwrap();
    gamedata_ok(&["uo", "synth", "g", "--facet", "4", "--art"], dir.path());
    let out = gamedata_ok(&["uo", "animdata", "g", "10", "--json"], dir.path());
    let report = stdout_json(&out);
    assert_eq!(
        json_keys(&report),
        [
            "item",
            "frames",
            "frame_ms",
            "frame_interval",
            "frame_start",
            "unknown"
        ]
    );
    assert_eq!(report["frames"], json!([10, 8, 12, 10]));
    assert_eq!(
        (&report["frame_ms"], &report["frame_start"]),
        (&json!(100), &json!(1))
    );
    let out = gamedata_ok(&["uo", "animdata", "g", "0x3", "--json"], dir.path());
    let report = stdout_json(&out);
    assert_eq!(report["frames"], json!([3, 4, 5]));
    assert_eq!(report["frame_ms"], 201);
    let message = gamedata_fails(&["uo", "animdata", "g", "24"], dir.path());
    assert!(message.contains("animdata.mul"), "{message}");
}

/// Body 250 of anim.mul: by number an animal (low group, record `(250 - 200) * 65 + 22000
/// = 25250` onward), its direction 1 empty there; the group lies at record `250 * 110 + 1
/// = 27501`, where a monster's (high group) block has it. mobtypes.txt's type and flags
/// decide, as in ClassicUO's `AnimationsLoader.GetIndices`: listed as a monster, or as an
/// animal with 0x20 (the low group extended) and neither 0x40 nor 0x400, it is read from
/// the high group; unlisted, or an animal with 0x20 and 0x40, from the low group (nothing).
#[test]
fn uo_anim_finds_a_listed_body_where_mobtypes_puts_it() {
    let dir = tempfile::tempdir().unwrap();
    let data = group();
    let mut idx = Vec::new();
    for record in 0..250 * 110 + 110u32 {
        let (offset, size) = if record == 250 * 110 + 1 {
            (0, data.len() as u32)
        } else {
            (u32::MAX, u32::MAX)
        };
        for word in [offset, size, 0] {
            idx.extend(word.to_le_bytes());
        }
    }
    std::fs::write(dir.path().join("anim.idx"), idx).unwrap();
    std::fs::write(dir.path().join("anim.mul"), data).unwrap();
    let d = dir.path().to_str().unwrap().to_owned();
    let run = |mobtypes: Option<&str>| {
        let path = dir.path().join("mobtypes.txt");
        match mobtypes {
            Some(text) => std::fs::write(&path, text).unwrap(),
            None => {
                let _ = std::fs::remove_file(&path);
            }
        }
        gamedata(
            &[
                "uo",
                "anim",
                &d,
                "250",
                "--action",
                "0",
                "--direction",
                "1",
                "-o",
                "out",
                "--json",
            ],
            dir.path(),
        )
    };
    let widths = |out: &Output| -> Vec<u64> {
        stdout_json(out)["frames"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["width"].as_u64().unwrap())
            .collect()
    };
    for found in ["250 monster 0\n", "250\tanimal\t20\n"] {
        assert_eq!(widths(&run(Some(found))), [3, 1], "{found}");
    }
    for missing in [None, Some("250 animal 60\n"), Some("251 monster 0\n")] {
        let out = run(missing);
        assert!(!out.status.success(), "{missing:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("body 250"), "{missing:?}: {err}");
    }
    // mobtypes.txt speaks for anim.mul alone: the same files as anim2 read body 250 by
    // number, an animal there (the low group: nothing), though listed as a monster.
    for (from, to) in [("anim.idx", "anim2.idx"), ("anim.mul", "anim2.mul")] {
        std::fs::copy(dir.path().join(from), dir.path().join(to)).unwrap();
    }
    std::fs::write(dir.path().join("mobtypes.txt"), "250 monster 0\n").unwrap();
    let args = ["uo", "anim", &d, "250", "--action", "0", "--direction", "1"];
    let rest = ["-o", "out2", "--json", "--file", "anim2"];
    let out = gamedata(&[&args[..], &rest[..]].concat(), dir.path());
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("body 250") && err.contains("anim2.mul"),
        "{err}"
    );
}

/// A frame of no width but 2 rows high (no pixel) is written by the export as an empty
/// frame: a 1 x 1 transparent PNG, as a frame of no pixel at all is.
#[test]
fn uo_export_anims_writes_a_frame_of_no_width_as_an_empty_frame() {
    let dir = tempfile::tempdir().unwrap();
    let mut data = vec![0u8; 512];
    data.extend(1u32.to_le_bytes());
    data.extend(8u32.to_le_bytes());
    for v in [0i16, 0, 0, 2] {
        data.extend(v.to_le_bytes());
    }
    data.extend(0x7FFF_7FFFu32.to_le_bytes());
    std::fs::write(dir.path().join("anim.idx"), body_0_index(0, data.len())).unwrap();
    std::fs::write(dir.path().join("anim.mul"), data).unwrap();
    let report = stdout_json(&gamedata_ok(
        &["uo", "export", "anims", ".", "-o", "out", "--json"],
        dir.path(),
    ));
    assert_eq!(report["written"], 1, "{report}");
    let frame = dir.path().join("out/anims/anim/0x0000/00/0/000.png");
    assert_eq!(png_size(&frame), (1, 1));
    assert_eq!(png_pixels(&frame), [0, 0, 0, 0]);
}
