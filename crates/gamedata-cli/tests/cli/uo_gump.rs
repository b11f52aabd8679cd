//! `gamedata uo gump` and `uo convert --gumps`: a gump drawn as the client draws it from
//! either form, gumps stored compressed in the UOP as newer clients store them (also
//! through `uo export gumps`), and gump.def.

use serde_json::{Value, json};

use super::*;

/// `uo gump`: a gump drawn as the client draws it (checked against the rule computed here),
/// hued with the gump shader's red-0 rule, from either form, and `uo convert --gumps`.
#[test]
fn uo_gump_draws_a_gump_from_either_form() {
    use mul_core::gump::write::{GumpPicture, write_gumps};

    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let pixels: Vec<u16> = vec![0, 0x7C00, 0x8000, 0x0421, 0x0421, 0x001F];
    let gumps = [
        GumpPicture::Empty,
        GumpPicture::Picture {
            width: 3,
            height: 2,
            pixels: &pixels,
        },
    ];
    let (index, data) = write_gumps(&gumps).unwrap();
    std::fs::create_dir(dir.path().join("mul")).unwrap();
    std::fs::write(dir.path().join("mul/GUMPIDX.MUL"), index).unwrap();
    std::fs::write(dir.path().join("mul/gumpart.mul"), data).unwrap();
    let widen = |v: u16| (u32::from(v & 31) * 255 / 31) as u8;
    let rgba = |c: u16| [widen(c >> 10), widen(c >> 5), widen(c), 255];
    let out = gamedata_ok(
        &["uo", "gump", &p("mul"), "1", "-o", &p("g.png"), "--json"],
        dir.path(),
    );
    let report = stdout_json(&out);
    assert_eq!(json_keys(&report), ["id", "width", "height"]);
    assert_eq!(report, json!({"id": 1, "width": 3, "height": 2}));
    let expected: Vec<u8> = pixels
        .iter()
        .flat_map(|&c| if c == 0 { [0; 4] } else { rgba(c) })
        .collect();
    assert_eq!(png_pixels(&dir.path().join("g.png")), expected);
    // An empty id is a clear error.
    let out = gamedata(
        &["uo", "gump", &p("mul"), "0", "-o", &p("x.png")],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("gump 0x0000 has no picture"));
    // Hue 2 (entry r = 0x0800 | r); red-0 pixels take hue 1's entry 0 (0x0400).
    let mut hues = vec![0u8; 4];
    for h in 1..=8u16 {
        for r in 0..32u16 {
            hues.extend_from_slice(&((h << 10) | r).to_le_bytes());
        }
        hues.extend_from_slice(&[0; 24]);
    }
    std::fs::write(dir.path().join("mul/hues.mul"), hues).unwrap();
    gamedata_ok(
        &[
            "uo",
            "gump",
            &p("mul"),
            "0x1",
            "-o",
            &p("h.png"),
            "--hue",
            "2",
        ],
        dir.path(),
    );
    let hued = png_pixels(&dir.path().join("h.png"));
    assert_eq!(&hued[4..8], rgba(0x0800 | 31));
    assert_eq!(&hued[8..12], rgba(0x0400));
    assert_eq!(&hued[12..16], rgba(0x0800 | 1));
    assert_eq!(&hued[20..24], rgba(0x0400));
    // To UOP and drawn from there: the same picture.
    let out = gamedata_ok(
        &[
            "uo",
            "convert",
            &p("mul"),
            "--gumps",
            "--to",
            "uop",
            &p("uop"),
            "--json",
        ],
        dir.path(),
    );
    assert_eq!(stdout_json(&out)["entries"], 1);
    gamedata_ok(
        &["uo", "gump", &p("uop"), "1", "-o", &p("u.png")],
        dir.path(),
    );
    assert_eq!(png_pixels(&dir.path().join("u.png")), expected);
    let out = gamedata(
        &[
            "uo",
            "gump",
            &p("uop"),
            "1",
            "--art-format",
            "mul",
            "-o",
            &p("x.png"),
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("gumpidx.mul"));
    // Back to MUL: the same gumpart.mul; never over an input.
    gamedata_ok(
        &[
            "uo",
            "convert",
            &p("uop"),
            "--gumps",
            "--to",
            "mul",
            &p("back"),
        ],
        dir.path(),
    );
    assert!(
        std::fs::read(dir.path().join("back/gumpart.mul")).unwrap()
            == std::fs::read(dir.path().join("mul/gumpart.mul")).unwrap()
    );
    let before = std::fs::read(dir.path().join("mul/hues.mul")).unwrap();
    let out = gamedata(
        &[
            "uo",
            "gump",
            &p("mul"),
            "1",
            "--hue",
            "2",
            "-o",
            &p("mul/hues.mul"),
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        std::fs::read(dir.path().join("mul/hues.mul")).unwrap(),
        before
    );
    assert!(!dir.path().join("x.png").exists());
}

/// `uo gump` and `uo export gumps` over a gumpartLegacyMUL.uop whose gumps are stored as
/// newer clients store them (compression 3: zlib then the BWT stage): the same pictures
/// as the MUL's; a crafted entry whose BWT counts claim 200 MiB in a few bytes is past the
/// export's decoding budget (counted, not decoded) and an error for `uo gump`.
#[test]
fn uo_gump_and_export_read_compressed_uop_gumps() {
    use std::io::Write;

    use mul_core::Gumps;
    use mul_core::gump::write::{GumpCompression, gumps_to_compressed_uop, synthetic_gumps};

    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let (index, data) = synthetic_gumps(1);
    let mul = Gumps::parse(&index, &data).unwrap();
    let uop = gumps_to_compressed_uop(&mul, GumpCompression::ZlibBwt)
        .unwrap()
        .files;
    for (sub, files) in [
        (
            "m",
            vec![
                ("gumpidx.mul", index.clone()),
                ("gumpart.mul", data.clone()),
            ],
        ),
        ("c", vec![("gumpartLegacyMUL.uop", uop)]),
    ] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
        for (name, bytes) in files {
            std::fs::write(dir.path().join(sub).join(name), bytes).unwrap();
        }
    }
    for id in ["0", "33", "0x77"] {
        let mut drawn = Vec::new();
        for sub in ["m", "c"] {
            let out = gamedata_ok(
                &["uo", "gump", &p(sub), id, "-o", &p("g.png"), "--json"],
                dir.path(),
            );
            drawn.push((stdout_json(&out), png_pixels(&dir.path().join("g.png"))));
        }
        assert!(drawn[0] == drawn[1], "gump {id}");
    }
    let out = gamedata_ok(
        &["uo", "export", "gumps", &p("c"), "-o", &p("out"), "--json"],
        dir.path(),
    );
    let report = stdout_json(&out);
    assert_eq!(
        (report["written"].clone(), report["format"].clone()),
        (json!(199), json!("uop"))
    );
    gamedata_ok(
        &["uo", "export", "gumps", &p("m"), "-o", &p("out_m")],
        dir.path(),
    );
    for id in [0, 20, 150, 198] {
        let name = format!("gumps/{id:#06X}.png");
        assert_eq!(
            png_pixels(&dir.path().join("out").join(&name)),
            png_pixels(&dir.path().join("out_m").join(&name)),
            "{name}"
        );
    }

    // One crafted entry: the BWT stage's counts give symbol 0 200 MiB (move-to-front
    // codes 0, 0, 0, 0x40 at place 0 ... then 0 at place 1; 0x0C80_0000 = 200 MiB is
    // coded as 0, 0, 0x80 at place 0x80, then 0x0C at place 0x0C).
    let mut stage = vec![0u8; 1029];
    stage[4..9].copy_from_slice(&[0, 0, 0x80, 0x0C, 2]);
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(&stage).unwrap();
    let stored = z.finish().unwrap();
    let name = mul_core::uop::name_hash("build/gumpartlegacymul/00000005.tga");
    let data_at = 28 + 12 + 34u64;
    let mut file = Vec::new();
    for word in [0x0050_594Du32, 5, 0] {
        file.extend(word.to_le_bytes());
    }
    file.extend(28u64.to_le_bytes());
    file.extend(1u32.to_le_bytes());
    file.extend(1u32.to_le_bytes());
    file.extend(1u32.to_le_bytes());
    file.extend(0u64.to_le_bytes());
    file.extend(data_at.to_le_bytes());
    file.extend(0u32.to_le_bytes());
    file.extend((stored.len() as u32).to_le_bytes());
    file.extend((stage.len() as u32).to_le_bytes());
    file.extend(name.to_le_bytes());
    file.extend(0u32.to_le_bytes());
    file.extend(3u16.to_le_bytes());
    file.extend_from_slice(&stored);
    std::fs::create_dir(dir.path().join("x")).unwrap();
    std::fs::write(dir.path().join("x/gumpartLegacyMUL.uop"), &file).unwrap();
    let out = gamedata(
        &[
            "uo",
            "export",
            "gumps",
            &p("x"),
            "-o",
            &p("out_x"),
            "--json",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (report["over_budget"].clone(), report["written"].clone()),
        (json!(1), json!(0))
    );
    // Within one decoder's default limit, `uo gump` decodes it: its one segment is read
    // past the list's 1,025 bytes, an error naming the gump and the stage.
    let stderr = gamedata_fails(&["uo", "gump", &p("x"), "5", "-o", &p("x.png")], dir.path());
    assert!(
        stderr.contains("gump 0x0005") && stderr.contains("BWT stage"),
        "{stderr}"
    );
}

/// `uo gump` with gump.def in the folder: gump 0's entry is empty and gump.def lends it
/// gump 1's with hue 2, applied at load (every non-zero pixel to entry `red` of hue 2,
/// worked out here from the hues.mul written below); verdata's patch of an id wins over
/// gump.def; `--no-def` reads the empty entry.
#[test]
fn uo_gump_reads_gump_def() {
    use mul_core::gump::write::{GumpPicture, write_gumps};

    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let pixels: Vec<u16> = vec![0, 0x7C00, 0x8000, 0x0421, 0x0421, 0x001F];
    let gumps = [
        GumpPicture::Empty,
        GumpPicture::Picture {
            width: 3,
            height: 2,
            pixels: &pixels,
        },
        GumpPicture::Empty,
    ];
    let (index, data) = write_gumps(&gumps).unwrap();
    std::fs::write(dir.path().join("gumpidx.mul"), index).unwrap();
    std::fs::write(dir.path().join("gumpart.mul"), data).unwrap();
    // Hue h's entry r is (h << 10) | r, but hue 2's entry 0 is 0 (clear at load).
    let mut hues = vec![0u8; 4];
    for h in 1..=8u16 {
        for r in 0..32u16 {
            let c = if h == 2 && r == 0 { 0 } else { (h << 10) | r };
            hues.extend_from_slice(&c.to_le_bytes());
        }
        hues.extend_from_slice(&[0; 24]);
    }
    std::fs::write(dir.path().join("hues.mul"), hues).unwrap();
    std::fs::write(
        dir.path().join("Gump.def"),
        "# id {candidates} hue\n0 {2, 1} 2\n2 {0} 3\n",
    )
    .unwrap();
    let widen = |v: u16| (u32::from(v & 31) * 255 / 31) as u8;
    let rgba = |c: u16| [widen(c >> 10), widen(c >> 5), widen(c), 255];
    let out = gamedata_ok(
        &["uo", "gump", &p(""), "0", "-o", &p("g.png"), "--json"],
        dir.path(),
    );
    assert_eq!(
        stdout_json(&out),
        json!({"id": 0, "width": 3, "height": 2, "def_source": 1, "def_hue": 2})
    );
    // 0x7C00 (red 31) -> 0x0800 | 31; 0x8000 (red 0) -> 0, clear; 0x0421 (red 1) ->
    // 0x0801; 0x001F (red 0) -> clear.
    let want: Vec<u8> = [
        [0; 4],
        rgba(0x0800 | 31),
        [0; 4],
        rgba(0x0801),
        rgba(0x0801),
        [0; 4],
    ]
    .concat();
    assert_eq!(png_pixels(&dir.path().join("g.png")), want);
    // Gump 2 borrows what gump 0 borrowed (gump 1's entry) with its own hue, 3.
    let out = gamedata_ok(
        &["uo", "gump", &p(""), "2", "-o", &p("g2.png"), "--json"],
        dir.path(),
    );
    assert_eq!(stdout_json(&out)["def_source"], json!(1));
    assert_eq!(stdout_json(&out)["def_hue"], json!(3));
    assert_eq!(
        &png_pixels(&dir.path().join("g2.png"))[4..8],
        rgba(0x0C00 | 31)
    );
    // Without gump.def, gump 0 has no picture.
    let out = gamedata(
        &["uo", "gump", &p(""), "0", "-o", &p("x.png"), "--no-def"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("gump 0x0000 has no picture"));
    // A verdata patch of gump 0 (a 1 x 1 gump of colour 0x001F) wins over gump.def.
    let patch: Vec<u8> = [1u32, (1 << 16) | 0x001F]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let mut verdata = 1u32.to_le_bytes().to_vec();
    for word in [12u32, 0, 4 + 20, 8, (1 << 16) | 1] {
        verdata.extend_from_slice(&word.to_le_bytes());
    }
    verdata.extend_from_slice(&patch);
    std::fs::write(dir.path().join("verdata.mul"), verdata).unwrap();
    let out = gamedata_ok(
        &["uo", "gump", &p(""), "0", "-o", &p("v.png"), "--json"],
        dir.path(),
    );
    assert_eq!(stdout_json(&out), json!({"id": 0, "width": 1, "height": 1}));
    assert_eq!(png_pixels(&dir.path().join("v.png")), rgba(0x001F));
    // Without hues.mul, gump.def's hue has nothing to look up: gump 2 is drawn as stored
    // (0x7C00 red); a hue asked for with --hue is an error naming hues.mul.
    std::fs::remove_file(dir.path().join("hues.mul")).unwrap();
    let out = gamedata_ok(
        &["uo", "gump", &p(""), "2", "-o", &p("n.png"), "--json"],
        dir.path(),
    );
    assert_eq!(stdout_json(&out)["def_hue"], json!(3));
    assert_eq!(&png_pixels(&dir.path().join("n.png"))[4..8], rgba(0x7C00));
    let out = gamedata(
        &["uo", "gump", &p(""), "2", "-o", &p("h.png"), "--hue", "1"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--hue needs hues.mul"), "{stderr}");
    assert!(!dir.path().join("h.png").exists());
}
