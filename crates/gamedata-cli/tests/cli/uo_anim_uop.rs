//! `gamedata uo anim` and `uo export anims` over AnimationFrame*.uop: frames written here
//! through mul-core's UOP writers from pixels chosen here (the expected pixels worked out
//! by hand from the client's rules: palette colour 0 transparent, 0x8000 drawn black, gaps
//! in the frame numbers empty frames, a direction's count the list's length / 5), the
//! client's choice between MUL and UOP (mobtypes.txt's flag 0x10000, AnimationSequence.uop's
//! replacements), and `uo synth --art --art-format uop`'s set exported.

use mul_core::anim::write::{
    AnimFramePicture, UopAnimCompression, UopFramePicture, write_uop_animation,
    write_uop_animations, write_uop_sequences,
};
use serde_json::json;

use super::*;

/// The palette of every frame: 0 is 0 (transparent here), 1 white, 2 bit 15 alone (a value
/// that is not 0: drawn, black), 3 blue, 4 red.
fn palette() -> Box<[u16; 256]> {
    let mut p = Box::new([0u16; 256]);
    p[1..5].copy_from_slice(&[0x7FFF, 0x8000, 0x001F, 0x7C00]);
    p
}

const CLEAR: [u8; 4] = [0; 4];
const WHITE: [u8; 4] = [255, 255, 255, 255];
const BLACK: [u8; 4] = [0, 0, 0, 255];
const BLUE: [u8; 4] = [0, 0, 255, 255];
const RED: [u8; 4] = [255, 0, 0, 255];

/// A decoded entry of frames numbered 1 and 3 to 10 (2 missing: a gap), 10 in the client's
/// list, so 2 a direction: number 3 (direction 1, place 0) is 3 x 2, centre (1, -3), row 0
/// indices 1, 0, 2, row 1 index 3 at column 2 alone; number 4 (direction 1, place 1) is 1 x 1
/// index 4; every other frame 1 x 1 index 1.
fn entry(group: u16) -> Vec<u8> {
    let palette = palette();
    let big = [Some(1), Some(0), Some(2), None, None, Some(3)];
    let red = [Some(4)];
    let white = [Some(1)];
    let pictures: Vec<UopFramePicture<'_>> = [1u16, 3, 4, 5, 6, 7, 8, 9, 10]
        .into_iter()
        .map(|number| {
            let picture = match number {
                3 => AnimFramePicture {
                    centre_x: 1,
                    centre_y: -3,
                    width: 3,
                    height: 2,
                    pixels: &big,
                },
                n => AnimFramePicture {
                    centre_x: 0,
                    centre_y: 0,
                    width: 1,
                    height: 1,
                    pixels: if n == 4 { &red } else { &white },
                },
            };
            UopFramePicture {
                group,
                number,
                palette: &palette,
                picture,
            }
        })
        .collect();
    write_uop_animation(&pictures).unwrap()
}

/// AnimationFrame1.uop holding body `body`'s action 0 ([`entry`]), zlib then BWT, as the
/// newer clients store them.
fn write_uop(dir: &Path, body: u16) {
    let file = write_uop_animations(&[(body, 0, entry(0))], UopAnimCompression::ZlibBwt).unwrap();
    std::fs::write(dir.join("AnimationFrame1.uop"), file).unwrap();
}

/// AnimationSequence.uop: body `body`'s action 1 plays action 0's entry (a record of 0
/// frames).
fn write_sequence(dir: &Path, body: u16) {
    let mut bytes = u32::from(body).to_le_bytes().to_vec();
    bytes.extend([0u8; 48]);
    bytes.extend(1i32.to_le_bytes());
    bytes.extend(1i32.to_le_bytes());
    bytes.extend(0u32.to_le_bytes());
    bytes.extend(0i32.to_le_bytes());
    bytes.extend([0u8; 60]);
    let file = write_uop_sequences(&[(u32::from(body), bytes)], UopAnimCompression::Zlib).unwrap();
    std::fs::write(dir.join("AnimationSequence.uop"), file).unwrap();
}

fn anim_args(d: &str, body: &str, action: &str, direction: &str, out: &str) -> Vec<String> {
    [
        "uo",
        "anim",
        d,
        body,
        "--action",
        action,
        "--direction",
        direction,
        "-o",
        out,
        "--json",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn run_json(args: &[String], cwd: &Path) -> Value {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    stdout_json(&gamedata(&args, cwd))
}

#[test]
fn uo_anim_draws_uop_frames_as_the_client_does() {
    let dir = tempfile::tempdir().unwrap();
    write_uop(dir.path(), 5);
    let d = dir.path().to_str().unwrap();
    let out = |name: &str| dir.path().join(name);
    let o = out("d1");
    let report = run_json(
        &anim_args(d, "5", "0", "1", o.to_str().unwrap()),
        dir.path(),
    );
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
        ], "source": "uop", "file": "AnimationFrame1.uop", "entry_action": 0,
        "files": ["000.png", "001.png"], "written": 2, "missing": 0, "over_budget": 0})
    );
    // Colour 0 clear, 0x8000 black, places no run covers clear.
    let big = [WHITE, CLEAR, BLACK, CLEAR, CLEAR, BLUE].concat();
    assert_eq!(png_pixels(&o.join("000.png")), big);
    assert_eq!(png_pixels(&o.join("001.png")), RED);
    // Direction 0: frame 1, then the gap (number 2): an empty frame, a 1 x 1 clear PNG.
    let o = out("d0");
    let report = run_json(
        &anim_args(d, "5", "0", "0", o.to_str().unwrap()),
        dir.path(),
    );
    assert_eq!(
        report["frames"][1],
        json!({"width": 0, "height": 0, "centre_x": 0, "centre_y": 0})
    );
    assert_eq!(report["missing"], 1);
    assert_eq!(report["files"], json!(["000.png", "001.png"]));
    assert_eq!(png_pixels(&o.join("000.png")), WHITE);
    assert_eq!(png_size(&o.join("001.png")), (1, 1));
    assert_eq!(png_pixels(&o.join("001.png")), CLEAR);
    // Direction 7: stored 1 mirrored, centre x 3 - 1.
    let o = out("d7");
    let report = run_json(
        &anim_args(d, "5", "0", "7", o.to_str().unwrap()),
        dir.path(),
    );
    assert_eq!(report["frames"][0]["centre_x"], 2);
    let mirrored = [BLACK, CLEAR, WHITE, BLUE, CLEAR, CLEAR].concat();
    assert_eq!(png_pixels(&o.join("000.png")), mirrored);
    // An action the files do not have; --anim-format mul where there is no MUL.
    let args = anim_args(d, "5", "1", "0", out("x").to_str().unwrap());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let message = gamedata_fails(&args, dir.path());
    assert!(
        message.contains("body 5 action 1 has no entry"),
        "{message}"
    );
    let mut args = anim_args(d, "5", "0", "0", out("x").to_str().unwrap());
    args.extend(["--anim-format".into(), "mul".into()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_eq!(gamedata(&args, dir.path()).status.code(), Some(1));
    // Half of the MUL form (anim.idx without anim.mul, or the other way) is no MUL form:
    // the UOP is read as before.
    for (half, other) in [("anim.idx", "anim.mul"), ("anim.mul", "anim.idx")] {
        std::fs::write(dir.path().join(half), [0xFFu8; 12]).unwrap();
        let _ = std::fs::remove_file(dir.path().join(other));
        let o = out(&format!("half-{half}"));
        let report = run_json(
            &anim_args(d, "5", "0", "1", o.to_str().unwrap()),
            dir.path(),
        );
        assert_eq!(report["source"], "uop", "{half}: {report}");
        assert_eq!(png_pixels(&o.join("000.png")), big, "{half}");
    }
}

/// A body both forms hold (body 0 action 0 direction 1: the MUL group of `uo_anim.rs`,
/// whose frame 0 starts with grey 0x1084; the UOP entry above, whose frame 0 starts white)
/// is read from the UOP exactly when mobtypes.txt flags it 0x10000, or `--anim-format uop`
/// asks; an action the MUL lacks is read from the UOP for a body mobtypes.txt does not list,
/// through AnimationSequence.uop (action 1 plays action 0's entry).
#[test]
fn a_body_in_both_forms_is_read_from_the_uop_only_when_the_rule_says_so() {
    let dir = super::uo_anim::anim_dir();
    write_uop(dir.path(), 0);
    write_sequence(dir.path(), 0);
    let d = dir.path().to_str().unwrap().to_owned();
    let grey = {
        let w = (4u32 * 255 / 31) as u8;
        [w, w, w, 255]
    };
    let case = |mobtypes: Option<&str>, action: &str, extra: &[&str]| {
        let path = dir.path().join("mobtypes.txt");
        match mobtypes {
            Some(text) => std::fs::write(&path, text).unwrap(),
            None => {
                let _ = std::fs::remove_file(&path);
            }
        }
        let o = dir.path().join("o");
        let _ = std::fs::remove_dir_all(&o);
        let mut args = anim_args(&d, "0", action, "1", o.to_str().unwrap());
        args.extend(extra.iter().map(|s| s.to_string()));
        let report = run_json(&args, dir.path());
        let first = png_pixels(&o.join("000.png"))[..4].to_vec();
        (
            report["source"].as_str().unwrap().to_owned(),
            report["entry_action"].as_u64().unwrap(),
            first,
        )
    };
    let mul = ("mul".to_owned(), 0, grey.to_vec());
    let uop = ("uop".to_owned(), 0, WHITE.to_vec());
    // Not listed (no mobtypes.txt): the MUL, as the client reads it.
    assert_eq!(case(None, "0", &[]), mul);
    // Listed with 0x10000 (and other bits): the UOP; listed without: the MUL.
    assert_eq!(case(Some("0\tmonster\t10400\n"), "0", &[]), uop);
    assert_eq!(case(Some("0 monster 0 # not uop\n"), "0", &[]), mul);
    // Another body listed with the flag changes nothing for body 0.
    assert_eq!(case(Some("1 monster 10000\n"), "0", &[]), mul);
    // The flag as the client reads "10000#": the character before '#' is cut ("1000").
    assert_eq!(case(Some("0 monster 10000#\n"), "0", &[]), mul);
    // --anim-format decides whatever mobtypes.txt says.
    assert_eq!(
        case(Some("0 monster 10000\n"), "0", &["--anim-format", "mul"]),
        mul
    );
    assert_eq!(case(None, "0", &["--anim-format", "uop"]), uop);
    // Action 1: AnimationSequence.uop gives it action 0's entry; with the flag, the UOP.
    let replaced = ("uop".to_owned(), 0, WHITE.to_vec());
    assert_eq!(case(Some("0 monster 10000\n"), "1", &[]), replaced);
    // Not listed: the MUL's record of action 1 is empty, the UOP has it: the UOP.
    assert_eq!(case(None, "1", &[]), replaced);
    // Without --json, the line names the entry's action when it is another.
    std::fs::write(dir.path().join("mobtypes.txt"), "0 monster 10000\n").unwrap();
    let text = |action: &str| {
        let o = dir.path().join("t");
        let args = [
            "uo",
            "anim",
            &d,
            "0",
            "--action",
            action,
            "--direction",
            "1",
            "-o",
        ];
        let out = gamedata_ok(&[&args[..], &[o.to_str().unwrap()]].concat(), dir.path());
        String::from_utf8(out.stdout).unwrap()
    };
    let line = text("1");
    assert!(
        line.contains(" (action 0 by AnimationSequence.uop)"),
        "{line}"
    );
    let line = text("0");
    assert!(
        line.contains("from AnimationFrame1.uop") && !line.contains("by "),
        "{line}"
    );
    // Listed without the flag: the MUL, which has no frames there (as the client, nothing).
    std::fs::write(dir.path().join("mobtypes.txt"), "0 monster 0\n").unwrap();
    let args = anim_args(&d, "0", "1", "1", dir.path().join("x").to_str().unwrap());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let message = gamedata_fails(&args, dir.path());
    assert!(message.contains("has no frames in anim.mul"), "{message}");
}

/// The frames of `uo synth --art`'s anim.mul (seed 1), counted by mul-core's reader: the
/// documented set gives each group 1 to 4 frames, as its random numbers fall.
fn synthetic_mul_frames() -> u64 {
    use mul_core::anim::write::{SYNTHETIC_ACTIONS, SYNTHETIC_BODIES, synthetic_animations};
    let (idx, data) = synthetic_animations(1);
    let anim = mul_core::Animations::parse(mul_core::AnimFileId::Anim, &idx, &data).unwrap();
    let mut frames = 0;
    for body in SYNTHETIC_BODIES {
        for action in 0..SYNTHETIC_ACTIONS {
            for direction in 0..5 {
                if let Some(group) = anim.group(body, action, direction).unwrap() {
                    frames += group.frame_count() as u64;
                }
            }
        }
    }
    frames
}

/// `uo export anims` over `uo synth --art --art-format uop`: besides the MUL's frames,
/// the UOP's 15 directions (body 1 actions 0 and 2, body 400 action 4; 2, 3 and 1 frames a
/// direction: 30 PNG files), each frame as `uo anim --anim-format uop` draws it, body 1
/// action 2's direction 1 places 1 and 2 (numbers 5 and 6, missing) 1 x 1 clear PNGs.
/// Counts from `mul_core::anim::write`'s documented set.
#[test]
fn uo_export_anims_writes_the_uop_directions_too() {
    let dir = tempfile::tempdir().unwrap();
    gamedata_ok(
        &[
            "uo",
            "synth",
            "g",
            "--facet",
            "4",
            "--art",
            "--art-format",
            "uop",
        ],
        dir.path(),
    );
    let report = stdout_json(&gamedata_ok(
        &["uo", "export", "anims", "g", "-o", "out", "--json"],
        dir.path(),
    ));
    assert_eq!(report["format"], "mul+uop");
    let mul_frames = synthetic_mul_frames();
    assert!(mul_frames >= 59, "{mul_frames}");
    assert_eq!(report["written_mul"], mul_frames);
    assert_eq!(report["written_uop"], 30);
    assert_eq!(report["written"], mul_frames + 30);
    assert_eq!(report["failed"], 0);
    let mut files = 0;
    for (body, action, per) in [(1u16, 0u16, 2usize), (1, 2, 3), (400, 4, 1)] {
        for direction in 0..8u8 {
            let stored = match direction {
                5 => 3,
                6 => 2,
                7 => 1,
                d => d,
            };
            let drawn = dir
                .path()
                .join(format!("drawn-{body}-{action}-{direction}"));
            let args = anim_args(
                "g",
                &body.to_string(),
                &action.to_string(),
                &direction.to_string(),
                drawn.to_str().unwrap(),
            );
            let mut args = args;
            args.extend(["--anim-format".into(), "uop".into()]);
            let frames = run_json(&args, dir.path());
            assert_eq!(frames["frames"].as_array().unwrap().len(), per);
            if direction != stored {
                continue;
            }
            let folder = dir
                .path()
                .join(format!("out/anims/uop/{body:#06X}/{action:02}/{direction}"));
            // `uo anim` writes each distinct picture once: a frame names its file.
            for i in 0..per {
                let name = format!("{i:03}.png");
                let file = frames["files"][i].as_str().unwrap();
                assert_eq!(
                    png_pixels(&folder.join(&name)),
                    png_pixels(&drawn.join(file)),
                    "{}",
                    folder.join(&name).display()
                );
                files += 1;
            }
            assert!(!folder.join(format!("{per:03}.png")).exists());
        }
    }
    assert_eq!(files, 30);
    for place in ["001", "002"] {
        let gap = dir
            .path()
            .join(format!("out/anims/uop/0x0001/02/1/{place}.png"));
        assert_eq!(png_size(&gap), (1, 1));
        assert_eq!(png_pixels(&gap), CLEAR);
    }
    // --anim-format mul leaves the UOP out, uop the MUL.
    for (form, written, other) in [
        ("mul", mul_frames, "written_uop"),
        ("uop", 30, "written_mul"),
    ] {
        let report = stdout_json(&gamedata_ok(
            &[
                "uo",
                "export",
                "anims",
                "g",
                "-o",
                form,
                "--anim-format",
                form,
                "--json",
            ],
            dir.path(),
        ));
        assert_eq!(report["format"], form);
        assert_eq!(
            (report["written"].clone(), report[other].clone()),
            (json!(written), json!(0))
        );
    }
}

/// Attack (attack33): AnimationFrame1.uop with 40 entries (bodies 0 to 39, action 0) all
/// naming entry 0's zlib stream, each declaring 60 MiB it does not inflate to. Each of the
/// 200 directions decoded its entry again and failed at the stream's end (with a stream of
/// 60 MiB, 200 entries took 67 s). The entries over one stream are now decoded in one job,
/// the stream inflated once for all of them (issue 56), and a length past what the stored
/// bytes can decode to (1,032 bytes a byte) is refused before anything is inflated or
/// taken: the 40 entries' 200 directions fail, one message for all, no stream inflated.
#[test]
fn uo_export_anims_takes_a_stream_s_declared_bytes_from_the_budget_first() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("u")).unwrap();
    let entries: Vec<(u16, u16, Vec<u8>)> = (0..40u16).map(|body| (body, 0, entry(0))).collect();
    let mut file = write_uop_animations(&entries, UopAnimCompression::Zlib).unwrap();
    let places: Vec<usize> = {
        let uop = mul_core::Uop::parse(&file, &mul_core::Limits::default()).unwrap();
        assert_eq!(uop.entries().len(), 40);
        uop.entries()
            .iter()
            .map(|e| std::ptr::from_ref(e.raw()).addr() - file.as_ptr().addr())
            .collect()
    };
    // Entry fields: offset (8 bytes), header length (4), stored length (4), declared
    // length (4), hash (8), Adler-32 (4), compression (2).
    let first = places[0];
    let stored: [u8; 16] = file[first..first + 16].try_into().unwrap();
    for &at in &places {
        file[at..at + 16].copy_from_slice(&stored);
        file[at + 16..at + 20].copy_from_slice(&(60u32 << 20).to_le_bytes());
    }
    std::fs::write(dir.path().join("u/AnimationFrame1.uop"), &file).unwrap();
    let out = gamedata(
        &["uo", "export", "anims", "u", "-o", "out", "--json"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (
            report["written"].clone(),
            report["failed"].clone(),
            report["over_budget"].clone()
        ),
        (json!(0), json!(200), json!(0)),
        "{report}"
    );
    assert_eq!(report["inflated"]["streams"], json!(0), "{report}");
    let errors = report["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{report}");
    let error = errors[0].as_str().unwrap();
    assert!(
        error.contains("/0 (and 199 more entries of the same bytes): ")
            && error.contains("more than"),
        "{error}"
    );
}

/// A stored entry (compression 0) is read in place, and only an inflated one's declared
/// length is taken from the decoding budget first: two stored entries whose length field
/// says 60 MiB each are both drawn (taken, the second would pass the budget of 64 MiB plus
/// 64 bytes an input byte).
#[test]
fn uo_export_anims_takes_no_declared_bytes_for_a_stored_entry() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("u")).unwrap();
    let entries = [(0u16, 0u16, entry(0)), (1, 0, entry(0))];
    let mut file = write_uop_animations(&entries, UopAnimCompression::None).unwrap();
    let places: Vec<usize> = {
        let uop = mul_core::Uop::parse(&file, &mul_core::Limits::default()).unwrap();
        uop.entries()
            .iter()
            .map(|e| std::ptr::from_ref(e.raw()).addr() - file.as_ptr().addr())
            .collect()
    };
    // The declared length: after the offset (8 bytes), header length and stored length.
    for &at in &places {
        file[at + 16..at + 20].copy_from_slice(&(60u32 << 20).to_le_bytes());
    }
    std::fs::write(dir.path().join("u/AnimationFrame1.uop"), &file).unwrap();
    let report = stdout_json(&gamedata_ok(
        &["uo", "export", "anims", "u", "-o", "out", "--json"],
        dir.path(),
    ));
    assert_eq!(
        (
            report["written"].clone(),
            report["failed"].clone(),
            report["over_budget"].clone()
        ),
        // Each entry: 10 frames in its list, 2 a direction, frame 2 a gap (1 x 1 clear).
        (json!(20), json!(0), json!(0)),
        "{report}"
    );
}

/// With eight threads (a share of 8 MiB each of the 64 MiB the export's pictures may hold),
/// an entry whose direction 2 is one frame of 1,000 x 1,000 pixels (4 MB of RGBA, held
/// three times over) is put off at that direction: directions 0 and 1 are written once,
/// while the threads run, and the entry is inflated again alone for directions 2 to 4.
#[test]
fn uo_export_anims_draws_an_entry_alone_from_the_direction_put_off() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("u")).unwrap();
    let palette = palette();
    let mut big = vec![None; 1000 * 1000];
    big[0] = Some(3);
    let small = [Some(1)];
    let pictures: Vec<UopFramePicture<'_>> = (1u16..=5)
        .map(|number| UopFramePicture {
            group: 0,
            number,
            palette: &palette,
            picture: if number == 3 {
                AnimFramePicture {
                    // A run's x and y from the centre, and y from the frame's bottom,
                    // within 10 bits.
                    centre_x: 500,
                    centre_y: -500,
                    width: 1000,
                    height: 1000,
                    pixels: &big,
                }
            } else {
                AnimFramePicture {
                    centre_x: 0,
                    centre_y: 0,
                    width: 1,
                    height: 1,
                    pixels: &small,
                }
            },
        })
        .collect();
    let entry = write_uop_animation(&pictures).unwrap();
    let file = write_uop_animations(&[(1, 0, entry)], UopAnimCompression::Zlib).unwrap();
    std::fs::write(dir.path().join("u/AnimationFrame1.uop"), file).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gamedata"))
        .args(["uo", "export", "anims", "u", "-o", "out", "--json"])
        .env("RAYON_NUM_THREADS", "8")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // One frame a direction: five files, each written once.
    assert_eq!(
        (
            report["written"].clone(),
            report["decoded"].clone(),
            report["drawn_alone"].clone(),
            report["over_budget"].clone()
        ),
        (json!(5), json!(5), json!(1), json!(0)),
        "{report}"
    );
    let frame = |direction: u8| {
        dir.path()
            .join(format!("out/anims/uop/0x0001/00/{direction}/000.png"))
    };
    assert_eq!(png_size(&frame(2)), (1000, 1000));
    assert_eq!(png_pixels(&frame(2))[..4], BLUE);
    for direction in [0, 1, 3, 4] {
        assert_eq!(png_pixels(&frame(direction)), WHITE);
    }
}

/// A decoded entry of two 1 x 1 white frames numbered 1 and `last`.
fn gap_entry(last: u16) -> Vec<u8> {
    let palette = palette();
    let white = [Some(1)];
    let picture = AnimFramePicture {
        centre_x: 0,
        centre_y: 0,
        width: 1,
        height: 1,
        pixels: &white,
    };
    let frames: Vec<UopFramePicture<'_>> = [1, last]
        .into_iter()
        .map(|number| UopFramePicture {
            group: 0,
            number,
            palette: &palette,
            picture,
        })
        .collect();
    write_uop_animation(&frames).unwrap()
}

/// Attack: frame numbers 1 and 65,535 (a 637-byte file) make the client's list 65,535
/// long, 13,107 frames a direction, all but one missing: each was written as a 1 x 1 PNG
/// (13,107 files, 58 s). The missing frames are still the client's places (0 x 0 in the
/// report, counted in `missing`), and share the one transparent file: two files at 1x
/// (numbers 1 and 6,554: 1,311 frames) and 10x (13,107 frames).
#[test]
fn uo_anim_writes_no_file_a_missing_frame() {
    for (last, per) in [(6_554u16, 1_311usize), (65_535, 13_107)] {
        let dir = tempfile::tempdir().unwrap();
        let file =
            write_uop_animations(&[(0, 0, gap_entry(last))], UopAnimCompression::Zlib).unwrap();
        std::fs::write(dir.path().join("AnimationFrame1.uop"), file).unwrap();
        let report = run_json(&anim_args(".", "0", "0", "0", "f"), dir.path());
        let frames = report["frames"].as_array().unwrap();
        assert_eq!(frames.len(), per);
        assert_eq!(report["missing"], per - 1);
        assert_eq!(report["written"], 2);
        let files = report["files"].as_array().unwrap();
        assert_eq!(files[0], "000.png");
        assert!(files[1..].iter().all(|f| f == "001.png"));
        let written = std::fs::read_dir(dir.path().join("f")).unwrap().count();
        assert_eq!(written, 2, "{per} frames");
        assert_eq!(png_pixels(&dir.path().join("f/001.png")), CLEAR);
    }
}

/// Attack: a UOP entry inflated into a buffer of its own was held while its frames were
/// drawn, each within the limit alone. The entry's decoded bytes now come off the limit
/// the frames are drawn within: a 64 KiB entry (zlib) holding an 8192 x 8191 frame
/// (268,402,688 bytes, 32 KiB under the limit) is refused before it is drawn, the limit
/// left 268,369,920 bytes. A 3.2 MB stored entry beside it lifts the decoding budget past
/// the frame, so that the limit alone refuses it.
#[test]
fn uo_anim_counts_a_uop_entry_and_its_frames_against_one_limit() {
    let dir = tempfile::tempdir().unwrap();
    let palette = palette();
    let none = [None];
    let picture = |number| UopFramePicture {
        group: 0,
        number,
        palette: &palette,
        picture: AnimFramePicture {
            centre_x: 0,
            centre_y: 0,
            width: 1,
            height: 1,
            pixels: &none,
        },
    };
    let frames: Vec<UopFramePicture<'_>> = (1..=5).map(picture).collect();
    let mut entry = write_uop_animation(&frames).unwrap();
    // Frame 1 made 8192 x 8191 (no run: transparent): its header's width and height, after
    // its palette, at record 0's place (byte 40) plus the record's offset.
    let offset = u32::from_le_bytes(entry[52..56].try_into().unwrap()) as usize;
    let header = 40 + offset + 512;
    entry[header + 4..header + 6].copy_from_slice(&8192i16.to_le_bytes());
    entry[header + 6..header + 8].copy_from_slice(&8191i16.to_le_bytes());
    entry.resize(64 << 10, 0);
    let zlib = write_uop_animations(&[(0, 0, entry)], UopAnimCompression::Zlib).unwrap();
    std::fs::write(dir.path().join("AnimationFrame1.uop"), zlib).unwrap();
    let filler =
        write_uop_animations(&[(1, 0, vec![0; 3_200_000])], UopAnimCompression::None).unwrap();
    std::fs::write(dir.path().join("AnimationFrame2.uop"), filler).unwrap();
    let args = anim_args(".", "0", "0", "0", "f");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let message = gamedata_fails(&args, dir.path());
    assert!(
        message.contains("needs 268402688 bytes, over the limit of 268369920"),
        "{message}"
    );
    assert!(!dir.path().join("f/000.png").exists());
}
