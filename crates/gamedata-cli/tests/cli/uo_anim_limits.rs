//! `gamedata uo anim` against crafted frame groups, found by an attack: frames at one offset
//! written once, one file a distinct picture, the decoding budget, mobtypes.txt within the
//! .def files' cap, and the sheet counted against the pixel budget and the output limit.

use serde_json::json;

use super::uo_anim::body_0_index;
use super::*;

/// A frame group of `offsets.len()` frames, frame i at `offsets[i]` (an index into
/// `frames`, each `(width, height, runs)`: a header of centre (0, 0) and the size, then
/// the runs' bytes and the end marker); palette entry 1 white.
fn group_of(offsets: &[usize], frames: &[(i16, i16, Vec<u8>)]) -> Vec<u8> {
    let mut out = vec![0u8; 512];
    out[2..4].copy_from_slice(&0x7FFFu16.to_le_bytes());
    out.extend((offsets.len() as u32).to_le_bytes());
    let first = 4 + 4 * offsets.len();
    let mut starts = Vec::new();
    let mut at = first;
    for (_, _, runs) in frames {
        starts.push(at as u32);
        at += 8 + runs.len() + 4;
    }
    for &i in offsets {
        out.extend(starts[i].to_le_bytes());
    }
    for (width, height, runs) in frames {
        for v in [0i16, 0, *width, *height] {
            out.extend(v.to_le_bytes());
        }
        out.extend(runs);
        out.extend(0x7FFF_7FFFu32.to_le_bytes());
    }
    out
}

/// One white pixel at the frame's top left: a 1 x 1 frame's run (x 0, y -1, 1 pixel).
fn white_pixel() -> (i16, i16, Vec<u8>) {
    let mut runs = 0x003F_F001u32.to_le_bytes().to_vec();
    runs.push(1);
    (1, 1, runs)
}

/// A folder whose anim.mul holds `group` at body 0 action 0 direction 0 (record 0).
fn group_dir(group: &[u8]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("anim.idx"), body_0_index(0, group.len())).unwrap();
    std::fs::write(dir.path().join("anim.mul"), group).unwrap();
    dir
}

/// The PNG files in `dir`.
fn png_files(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "png")
        })
        .count()
}

const DIRECTION_0: [&str; 6] = ["0", "--action", "0", "--direction", "0", "--json"];

/// Attack: a direction of n frames all at one offset (4 bytes a frame) wrote n files, each
/// synced (10,000 frames in 42 KB: 10,000 files, 46 s). Frames at one offset are one
/// picture, written once; the report names its file for each: one file at 1x and 10x.
#[test]
fn uo_anim_writes_frames_at_one_offset_once() {
    for n in [1_000usize, 10_000] {
        let dir = group_dir(&group_of(&vec![0; n], &[white_pixel()]));
        let out = gamedata_ok(
            &[&["uo", "anim", "."][..], &DIRECTION_0, &["-o", "f"]].concat(),
            dir.path(),
        );
        let report = stdout_json(&out);
        assert_eq!(report["frames"].as_array().unwrap().len(), n);
        assert_eq!(report["written"], 1);
        let files = report["files"].as_array().unwrap();
        assert_eq!(files.len(), n);
        assert!(files.iter().all(|f| f == "000.png"));
        assert_eq!(png_files(&dir.path().join("f")), 1, "{n} frames");
        assert_eq!(png_pixels(&dir.path().join("f/000.png")), [255; 4]);
        // The sheet holds every frame, the picture drawn once.
        gamedata_ok(
            &[
                &["uo", "anim", "."][..],
                &DIRECTION_0,
                &["--sheet", "s.png"],
            ]
            .concat(),
            dir.path(),
        );
        assert_eq!(png_size(&dir.path().join("s.png")), (n as u32, 1));
        assert!(
            png_pixels(&dir.path().join("s.png"))
                .iter()
                .all(|&b| b == 255)
        );
    }
}

/// Frames of no pixel at distinct offsets, and repeats of two pictures: the 1 x 1
/// transparent PNG written once (at the first empty frame's name), each distinct picture
/// once; the report names the file of each frame.
#[test]
fn uo_anim_writes_one_file_a_distinct_picture() {
    let empty = (0i16, 0i16, Vec::new());
    // Palette entry 2 is 0: drawn black (opaque) in anim*.mul.
    let mut black = white_pixel();
    black.2[4] = 2;
    // Frames: white, empty A, black, empty B, white, black, empty A.
    let group = group_of(
        &[0, 1, 2, 3, 0, 2, 1],
        &[white_pixel(), empty.clone(), black, empty],
    );
    let dir = group_dir(&group);
    let report = stdout_json(&gamedata_ok(
        &[&["uo", "anim", "."][..], &DIRECTION_0, &["-o", "f"]].concat(),
        dir.path(),
    ));
    assert_eq!(
        report["files"],
        json!([
            "000.png", "001.png", "002.png", "001.png", "000.png", "002.png", "001.png"
        ])
    );
    assert_eq!(report["written"], 3);
    assert_eq!(png_files(&dir.path().join("f")), 3);
    assert_eq!(png_pixels(&dir.path().join("f/001.png")), [0; 4]);
}

/// Frames of 1000 x 1000 pixels in 16 bytes each: the pixels drawn are held to 64 bytes an
/// input byte plus 64 MiB, as `uo export`'s; past that the rest is not drawn or written,
/// counted in `over_budget` (their files `null`), and the command exits with status 1.
#[test]
fn uo_anim_stops_at_the_decoding_budget() {
    let n = 20;
    let frames: Vec<(i16, i16, Vec<u8>)> = (0..n).map(|_| (1000, 1000, Vec::new())).collect();
    let offsets: Vec<usize> = (0..n).collect();
    let dir = group_dir(&group_of(&offsets, &frames));
    let out = gamedata(
        &[&["uo", "anim", "."][..], &DIRECTION_0, &["-o", "f"]].concat(),
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    // 64 MiB + 64 x 2,483 input bytes: 16 pictures of 4,000,000 bytes.
    assert_eq!(report["written"], 16, "{report}");
    assert_eq!(report["over_budget"], 4);
    assert_eq!(report["files"][16], Value::Null);
    assert_eq!(png_files(&dir.path().join("f")), 16);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("4 of 20 frames were past"), "{stderr}");
}

/// Attack: the sheet of four frames of 4000 x 4000 (580 bytes) held the four frames (256
/// MB) and the sheet (256 MB), each within the limit alone (518 MB resident). The sheet
/// and its largest frame are now counted together against the one limit, before anything
/// is drawn: 256,000,000 + 64,000,000 bytes, refused.
#[test]
fn uo_anim_counts_the_sheet_and_its_frames_against_one_limit() {
    let frames: Vec<(i16, i16, Vec<u8>)> = (0..4).map(|_| (4000, 4000, Vec::new())).collect();
    let dir = group_dir(&group_of(&[0, 1, 2, 3], &frames));
    sheet_refused(
        dir.path(),
        &[
            "the sprite sheet is not drawn",
            "the sprite sheet and its largest frame together needs 320000000",
        ],
    );
}

/// Attack: mobtypes.txt was read whole, however long, then copied through lossy UTF-8 (200
/// MB of 0xFF cost 805 MiB). It is read within the .def files' 16 MiB: one byte more is an
/// error naming the file (a sparse file here), the bound itself read.
#[test]
fn uo_anim_reads_mobtypes_within_the_def_files_cap() {
    let dir = group_dir(&group_of(&[0], &[white_pixel()]));
    let file = std::fs::File::create(dir.path().join("mobtypes.txt")).unwrap();
    file.set_len(16 << 20).unwrap();
    let args = [&["uo", "anim", "."][..], &DIRECTION_0, &["-o", "f"]].concat();
    let report = stdout_json(&gamedata_ok(&args, dir.path()));
    assert_eq!(report["frames"].as_array().unwrap().len(), 1);
    file.set_len((16 << 20) + 1).unwrap();
    let message = gamedata_fails(&args, dir.path());
    assert!(
        message.contains("more than the 16777216 bytes a mobtypes.txt"),
        "{message}"
    );
}

/// Attack: the sheet was checked against `Limits::max_decoded_bytes` alone, not the pixel
/// budget the frames' drawing has (one 9000 x 1 frame 7,450 times at one offset, 44 KB:
/// a 268 MB sheet, 662 MB resident, a 94 MB PNG). Twenty copies of a 1000 x 1000 frame
/// (an 80,000,000-byte sheet, within the limit) in 2 KB pass the budget of 64 bytes a byte
/// of input plus 64 MiB: refused before drawing, exit 1, nothing written.
#[test]
fn uo_anim_counts_the_sheet_against_the_pixel_budget() {
    let dir = group_dir(&group_of(&[0; 20], &[(1000, 1000, Vec::new())]));
    sheet_refused(
        dir.path(),
        &[
            "the sprite sheet is not drawn",
            "the sprite sheet's 80000000 bytes of pixels (20000 x 1000)",
            "pass the pixel budget",
        ],
    );
}

/// Attack: a sheet of one row, 9000 x 1 frame 7,450 times (67,050,000 pixels, 268 MB),
/// passed the limit's check alone, and the encoder filtered the whole row into a second
/// buffer and deflated it into a third. The sheet and its encoding's buffers are counted
/// together against the limit before drawing: 804,600,002 bytes, refused, nothing written.
#[test]
fn uo_anim_counts_a_sheets_encoding_against_the_limit() {
    let (_, _, run) = white_pixel();
    let dir = group_dir(&group_of(&[0; 7_450], &[(9000, 1, run)]));
    sheet_refused(
        dir.path(),
        &["the sprite sheet and its PNG encoding's buffers together needs 804600002 bytes"],
    );
}

/// `uo anim --sheet s.png` in `dir`, refused: exit 1, stderr holding each of `needles`,
/// stdout empty, no sheet written (the folder holds its two input files alone).
fn sheet_refused(dir: &Path, needles: &[&str]) {
    let out = gamedata(
        &[
            &["uo", "anim", "."][..],
            &DIRECTION_0,
            &["--sheet", "s.png"],
        ]
        .concat(),
        dir,
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    for needle in needles {
        assert!(stderr.contains(needle), "{needle:?} in {stderr}");
    }
    assert!(out.stdout.is_empty());
    assert_eq!(
        std::fs::read_dir(dir).unwrap().count(),
        2,
        "anim.idx, anim.mul"
    );
}
