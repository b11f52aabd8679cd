//! `gamedata uo export`: every entry a PNG equal to `uo art`'s and `uo gump`'s, repeats
//! decoded once, bad entries and pictures past the decoding budget reported.

use serde_json::{Value, json};

use super::*;

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
    // The synthetic set's 64 land tiles and 255 items (item 200 the same bytes as item 10:
    // decoded once), with the drawable world's pictures: 7 more land tiles (land 3 and
    // 0x16 are in the set's 64) and 20 more items (items 1 and 6 are in its 255).
    assert_eq!(report["written"], 346);
    assert_eq!(report["decoded"], 345);
    assert_eq!(
        (report["failed"].clone(), report["over_budget"].clone()),
        (json!(0), json!(0))
    );
    let count = |sub: &str| std::fs::read_dir(dir.path().join(sub)).unwrap().count();
    assert_eq!((count("out/land"), count("out/items")), (71, 275));
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
    // Texture maps: 307 ids, 19 empty (id 0 among them), id 250 the same bytes as id 12.
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
        (json!(288), json!(287))
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
