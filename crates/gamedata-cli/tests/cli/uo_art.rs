//! `gamedata uo art` and `uo convert --art`: items and land tiles drawn as the client draws
//! them, an unreadable entry left out of a conversion, and artLegacyMUL.uop read and
//! converted both ways.

use serde_json::{Value, json};

use super::*;

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
    // 64 land tiles and 255 items (item 255 is empty; item 200 repeats item 10), and the
    // drawable world's pictures past them: 7 land tiles and 20 items.
    assert_eq!(report["entries"], 346);
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
