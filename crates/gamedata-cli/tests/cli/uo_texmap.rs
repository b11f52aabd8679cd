//! `gamedata uo texmap`: texture maps drawn as the client draws them, checked against the
//! rule computed here (the client's 5-to-8-bit table `v * 255 / 31`, every pixel opaque,
//! bit 15 ignored), the JSON contract, the errors, and `uo synth --art`'s texture maps.

use serde_json::{Value, json};

use super::*;

/// What the client draws for a raw pixel: low 15 bits widened by its table, opaque.
fn rgba(c: u16) -> [u8; 4] {
    let widen = |v: u16| (u32::from(v & 31) * 255 / 31) as u8;
    [widen(c >> 10), widen(c >> 5), widen(c), 255]
}

/// The last line of stderr, as the JSON error `--json` prints there.
fn json_error(out: &std::process::Output) -> Value {
    let text = String::from_utf8_lossy(&out.stderr);
    serde_json::from_str(text.trim_end().lines().last().unwrap()).unwrap()
}

#[test]
fn uo_texmap_draws_both_sizes_as_the_client_does() {
    use mul_core::texmap::write::{TexmapPicture, write_texmaps};

    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    // Id 1: 64 x 64, pixel i = i * 37 with bit 15 on every third (colour 0 at i = 0).
    let small: Vec<u16> = (0..4096u32)
        .map(|i| (i * 37) as u16 & 0x7FFF | if i % 3 == 1 { 0x8000 } else { 0 })
        .collect();
    // Id 0x12: 128 x 128, pixel i = i (its low 15 bits).
    let large: Vec<u16> = (0..16384u32).map(|i| i as u16).collect();
    let mut pictures = vec![TexmapPicture::Empty; 0x14];
    pictures[1] = TexmapPicture::Pixels(&small);
    pictures[0x12] = TexmapPicture::Pixels(&large);
    let (mut index, mut data) = write_texmaps(&pictures).unwrap();
    // Id 3: 0x3000 bytes after the others: a length the reader refuses.
    let end = data.len() as u32;
    data.extend(vec![0x55; 0x3000]);
    let bad: Vec<u8> = [end, 0x3000, 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    index[36..48].copy_from_slice(&bad);
    std::fs::write(dir.path().join("TEXIDX.MUL"), &index).unwrap();
    std::fs::write(dir.path().join("TexMaps.mul"), &data).unwrap();

    let out = gamedata_ok(
        &["uo", "texmap", d, "1", "-o", "small.png", "--json"],
        dir.path(),
    );
    let report = stdout_json(&out);
    assert_eq!(json_keys(&report), ["id", "width", "height"]);
    assert_eq!(report, json!({"id": 1, "width": 64, "height": 64}));
    let pixels = png_pixels(&dir.path().join("small.png"));
    let expected: Vec<u8> = small.iter().flat_map(|&c| rgba(c)).collect();
    assert_eq!(pixels, expected);
    // Colour 0 is opaque black; 4 in each channel widens to 32 (replication gives 33).
    assert_eq!(&pixels[..4], [0, 0, 0, 255]);
    assert_eq!(rgba(0x1084), [32, 32, 32, 255]);
    // Pixel 1 is 37 (green 1, blue 5) with bit 15: drawn as without it.
    assert_eq!(small[1], 0x8000 | 37);
    assert_eq!(&pixels[4..8], [0, 8, 41, 255]);

    let out = gamedata_ok(
        &["--json", "uo", "texmap", d, "0x12", "-o", "large.png"],
        dir.path(),
    );
    assert_eq!(
        stdout_json(&out),
        json!({"id": 18, "width": 128, "height": 128})
    );
    let pixels = png_pixels(&dir.path().join("large.png"));
    let expected: Vec<u8> = large.iter().flat_map(|&c| rgba(c)).collect();
    assert_eq!(pixels, expected);

    // Text: one line naming the file, the id and the size.
    let out = gamedata_ok(&["uo", "texmap", d, "1", "-o", "t.png"], dir.path());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "wrote t.png (texture map 0x0001, 64 x 64 pixels)\n"
    );

    // Empty ids and ids past the index have no picture.
    for id in ["0", "2", "0x14", "65535"] {
        let out = gamedata(&["uo", "texmap", d, id, "-o", "x.png"], dir.path());
        assert_eq!(out.status.code(), Some(1), "{id}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("has no picture"), "{id}: {err}");
    }
    // A bad length is a data error naming the texture map.
    let out = gamedata(
        &["--json", "uo", "texmap", d, "3", "-o", "x.png"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let last = json_error(&out);
    assert_eq!(last["error"]["category"], "data", "{last}");
    assert_eq!(last["error"]["kind"], "Picture", "{last}");
    assert_eq!(last["error"]["entry"], "texmap 0x0003", "{last}");
    assert_eq!(
        last["error"]["fields"],
        json!({"TexmapLength": {"found": 12288}})
    );
    let out = gamedata(&["uo", "texmap", d, "3", "-o", "x.png"], dir.path());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("texmap 0x0003") && err.contains("12288 bytes"),
        "{err}"
    );
    // Not an id.
    let out = gamedata(&["uo", "texmap", d, "0x10000", "-o", "x.png"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(!dir.path().join("x.png").exists());

    // Never over an input, whatever the case the name is given in.
    for name in ["TexMaps.mul", "TEXIDX.MUL"] {
        let before = std::fs::read(dir.path().join(name)).unwrap();
        let out = gamedata(&["uo", "texmap", d, "1", "-o", name], dir.path());
        assert_eq!(out.status.code(), Some(1), "{name}");
        assert_eq!(std::fs::read(dir.path().join(name)).unwrap(), before);
    }
    // A folder without the files.
    let empty = tempfile::tempdir().unwrap();
    let e = empty.path().to_str().unwrap();
    let out = gamedata(&["uo", "texmap", e, "1", "-o", "x.png"], empty.path());
    assert_eq!(out.status.code(), Some(1));
}

/// `uo synth --art` writes the drawable world's texture maps beside the art (the synthetic
/// set with id 0 empty and the land's from 300): their sizes, empty ones, and the exact
/// repeat drawn as the picture it repeats.
#[test]
fn uo_synth_art_writes_texture_maps() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let out = gamedata_ok(
        &[
            "uo", "synth", d, "--facet", "4", "--art", "--seed", "3", "--json",
        ],
        dir.path(),
    );
    let report = stdout_json(&out);
    let names: Vec<&str> = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert!(names.iter().any(|n| n.ends_with("texidx.mul")), "{names:?}");
    assert!(
        names.iter().any(|n| n.ends_with("texmaps.mul")),
        "{names:?}"
    );
    let (index, data) = mul_core::synth::drawable::texmaps(3);
    assert_eq!(std::fs::read(dir.path().join("texidx.mul")).unwrap(), index);
    assert_eq!(std::fs::read(dir.path().join("texmaps.mul")).unwrap(), data);

    let size = |id: &str| {
        let out = gamedata_ok(
            &["uo", "texmap", d, id, "-o", &format!("{id}.png"), "--json"],
            dir.path(),
        );
        let report = stdout_json(&out);
        (
            report["width"].as_u64().unwrap(),
            report["height"].as_u64().unwrap(),
        )
    };
    assert_eq!(size("4"), (128, 128));
    assert_eq!(size("1"), (64, 64));
    assert_eq!(size("300"), (128, 128));
    assert_eq!(size("301"), (64, 64));
    assert_eq!(size("12"), (128, 128));
    assert_eq!(size("250"), (128, 128));
    let png = |id: &str| png_pixels(&dir.path().join(format!("{id}.png")));
    assert_eq!(png("250"), png("12"));
    assert_ne!(png("4"), png("12"));
    for empty in ["15", "0"] {
        let out = gamedata(&["uo", "texmap", d, empty, "-o", "x.png"], dir.path());
        assert_eq!(out.status.code(), Some(1), "{empty}");
    }
}

/// TexTerr.def, found in any letter case: a texture map it names is drawn from the entry
/// its line gives (an empty id too, and one with its own entry), reported as `def_source`;
/// `--no-def` draws the files' own entries; the file is one of the inputs.
#[test]
fn uo_texmap_follows_texterr_def_as_the_client_does() {
    use mul_core::texmap::write::{TexmapPicture, write_texmaps};

    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    // Ids 1 and 2: 64 x 64 of one colour each; the rest empty.
    let one = vec![0x001Fu16; 4096];
    let two = vec![0x7C00u16; 4096];
    let mut pictures = vec![TexmapPicture::Empty; 8];
    pictures[1] = TexmapPicture::Pixels(&one);
    pictures[2] = TexmapPicture::Pixels(&two);
    let (index, data) = write_texmaps(&pictures).unwrap();
    std::fs::write(dir.path().join("texidx.mul"), &index).unwrap();
    std::fs::write(dir.path().join("texmaps.mul"), &data).unwrap();
    // 5 (empty) <- 2; 1 (its own entry) <- 9 (past the index, skipped), then 2; 6 <- 5,
    // which holds 2's entry now; 7 <- 3 (empty: the client draws nothing either).
    std::fs::write(
        dir.path().join("texterr.DEF"),
        "# id {group}\n5 {2}\n1 {9, 2} 0\n6 {5}\n7 {3}\n",
    )
    .unwrap();
    let draw = |id: &str, extra: &[&str]| {
        let name = format!("t{id}.png");
        let mut args = vec!["uo", "texmap", d, id, "-o", &name, "--json"];
        args.extend(extra);
        let out = gamedata_ok(&args, dir.path());
        (stdout_json(&out), png_pixels(&dir.path().join(&name)))
    };
    let blue = rgba(0x001F).repeat(4096);
    let red = rgba(0x7C00).repeat(4096);
    for id in ["5", "1", "6"] {
        let (report, pixels) = draw(id, &[]);
        assert_eq!(
            report,
            json!({"id": id.parse::<u32>().unwrap(), "width": 64, "height": 64, "def_source": 2}),
            "{id}"
        );
        assert_eq!(pixels, red, "{id}");
    }
    // Id 2 is its own; without the .def, 1 is its own again and 5 has no picture.
    let (report, pixels) = draw("2", &[]);
    assert_eq!(report, json!({"id": 2, "width": 64, "height": 64}));
    assert_eq!(pixels, red);
    let (report, pixels) = draw("1", &["--no-def"]);
    assert_eq!(report, json!({"id": 1, "width": 64, "height": 64}));
    assert_eq!(pixels, blue);
    let out = gamedata(
        &["uo", "texmap", d, "5", "-o", "x.png", "--no-def"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    // Sent to an empty entry: no picture, and the message says where it was sent.
    let out = gamedata(&["uo", "texmap", d, "7", "-o", "x.png"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("has no picture") && err.contains("0x0003"),
        "{err}"
    );
    // Text: the source named.
    let out = gamedata_ok(&["uo", "texmap", d, "5", "-o", "t.png"], dir.path());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "wrote t.png (texture map 0x0005, 64 x 64 pixels, TexTerr.def: texture map 0x0002's entry)\n"
    );
    // Never over the .def.
    let before = std::fs::read(dir.path().join("texterr.DEF")).unwrap();
    let out = gamedata(&["uo", "texmap", d, "5", "-o", "texterr.DEF"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        std::fs::read(dir.path().join("texterr.DEF")).unwrap(),
        before
    );
}
