//! `gamedata uo render --style client` against the client's rule computed here from the
//! files' bytes (`docs/formats/uo.md`, "The client's radar map"), without the project's
//! readers or renderer: the pre-alpha map with the High Seas radarcol.mul.

use std::path::Path;

use super::*;

/// ClassicUO's 5-to-8-bit table, as its `Hues` source lists it.
const LEVELS: [u8; 32] = [
    0x00, 0x08, 0x10, 0x18, 0x20, 0x29, 0x31, 0x39, 0x41, 0x4A, 0x52, 0x5A, 0x62, 0x6A, 0x73, 0x7B,
    0x83, 0x8B, 0x94, 0x9C, 0xA4, 0xAC, 0xB4, 0xBD, 0xC5, 0xCD, 0xD5, 0xDE, 0xE6, 0xEE, 0xF6, 0xFF,
];

fn u16_at(bytes: &[u8], at: usize) -> u16 {
    bytes
        .get(at..at + 2)
        .map_or(0, |b| u16::from_le_bytes([b[0], b[1]]))
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    bytes
        .get(at..at + 4)
        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// The old tiledata layout: 512 land groups of 4 + 32 x 26 bytes, then item groups of
/// 4 + 32 x 37 bytes: flags (u32) first, the 20-byte name at 17.
fn item_record(tiledata: &[u8], id: usize) -> Option<&[u8]> {
    let at = 512 * (4 + 32 * 26) + id / 32 * (4 + 32 * 37) + 4 + id % 32 * 37;
    tiledata.get(at..at + 37)
}

/// Whether the client draws item `id` (`CanBeDrawn`, as `docs/formats/uo.md` words it).
fn drawn(tiledata: &[u8], id: u16) -> bool {
    if id == 0 || id == 0xFFFF {
        return false;
    }
    if [0x0001, 0x21BC, 0x63D3].contains(&id)
        || (0xA1FE..=0xA201).contains(&id)
        || (0x2198..=0x21A4).contains(&id)
    {
        return false;
    }
    let Some(record) = item_record(tiledata, usize::from(id)) else {
        return false;
    };
    let flags = u32_at(record, 0);
    if [0x9E4C, 0x9E64, 0x9E65, 0x9E7D].contains(&id) {
        return flags & (0x1 | 0x200) == 0;
    }
    if record[17..23].eq_ignore_ascii_case(b"nodraw") {
        return false;
    }
    flags & 0x0200_0000 == 0
}

/// The client's picture of a `blocks` x `blocks` map in the 11-byte statics form, RGB a
/// pixel, row by row.
fn client_picture(dir: &Path, radarcol: &Path, blocks: usize) -> Vec<[u8; 3]> {
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap();
    let (map, staidx, statics) = (read("MAP0.MUL"), read("STAIDX0.MUL"), read("STATICS0.MUL"));
    let (tiledata, hues) = (read("TILEDATA.MUL"), read("HUES.MUL"));
    let radarcol = std::fs::read(radarcol).unwrap();
    let side = blocks * 8;
    let mut colour = vec![0u16; side * side];
    let mut height = vec![0i8; side * side];
    let hue_count = hues.len() / 708 * 8;
    for block in 0..blocks * blocks {
        // Blocks column by column; 196 bytes each: a 4-byte header, 64 cells of 3 bytes.
        let (bx, by) = (block / blocks, block % blocks);
        for cell in 0..64 {
            let at = block * 196 + 4 + cell * 3;
            let i = (by * 8 + cell / 8) * side + bx * 8 + cell % 8;
            let land = usize::from(u16_at(&map, at) & 0x3FFF);
            colour[i] = 0x8000 | u16_at(&radarcol, land * 2);
            height[i] = map[at + 2] as i8;
        }
        let (offset, length) = (u32_at(&staidx, block * 12), u32_at(&staidx, block * 12 + 4));
        if offset == u32::MAX || length == u32::MAX {
            continue;
        }
        let (offset, length) = (offset as usize, length as usize);
        for record in statics[offset..offset + length].chunks_exact(11) {
            // A 4-byte serial, then id, x, y, z and hue.
            let (id, x, y, z, hue) = (
                u16_at(record, 4),
                usize::from(record[6]),
                usize::from(record[7]),
                record[8] as i8,
                u16_at(record, 9),
            );
            let i = (by * 8 + y) * side + bx * 8 + x;
            if x >= 8 || y >= 8 || !drawn(&tiledata, id) || z < height[i] {
                continue;
            }
            height[i] = z;
            colour[i] = 0x8000
                | if hue != 0 && usize::from(hue) < hue_count {
                    let h = usize::from(hue) - 1;
                    u16_at(&hues, h / 8 * 708 + 4 + h % 8 * 88 + 16 * 2)
                } else if hue != 0 {
                    0x4000
                } else {
                    u16_at(&radarcol, (0x4000 + usize::from(id)) * 2)
                };
        }
    }
    let rgb = |c: u16| [10, 5, 0].map(|shift| LEVELS[usize::from((c >> shift) & 0x1F)]);
    let mut picture: Vec<[u8; 3]> = colour.iter().map(|&c| rgb(c)).collect();
    for y in 1..side - 1 {
        for x in 1..side - 1 {
            let (z0, z1) = (height[y * side + x], height[(y + 1) * side + x - 1]);
            let pixel = &mut picture[y * side + x];
            if z0 == z1 || *pixel == [0; 3] {
                continue;
            }
            let factor: f32 = if z0 < z1 { 0.8 } else { 1.25 };
            *pixel = pixel.map(|c| (f32::from(c) * factor).min(255.0) as u8);
        }
    }
    picture
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn the_client_style_is_the_clients_rule_pixel_for_pixel() {
    let pre = gamedata_testkit::require_file("uo/prealpha");
    let radarcol = gamedata_testkit::require_file("uo/hs/radarcol.mul");
    let out = tempfile::tempdir().unwrap();
    let render = |style: &str| {
        let png = out.path().join(format!("{style}.png"));
        let report = stdout_json(&gamedata(
            &[
                "uo",
                "render",
                pre.to_str().unwrap(),
                "--width",
                "1024",
                "--height",
                "1024",
                "--radarcol",
                radarcol.to_str().unwrap(),
                "--style",
                style,
                "-o",
                png.to_str().unwrap(),
                "--json",
            ],
            &pre,
        ));
        assert_eq!(report["style"], style);
        assert_eq!(png_size(&png), (1024, 1024));
        png_pixels(&png)
    };
    let expected = client_picture(&pre, &radarcol, 128);
    let client = render("client");
    let mut wrong = 0;
    for (i, (got, want)) in client.chunks_exact(4).zip(&expected).enumerate() {
        if got[..3] != want[..] || got[3] != 255 {
            if wrong < 5 {
                eprintln!(
                    "pixel {},{}: {got:?}, expected {want:?}",
                    i % 1024,
                    i / 1024
                );
            }
            wrong += 1;
        }
    }
    assert_eq!(wrong, 0, "pixels unlike the client's rule");
    // The issue that asked for the style counted the flat picture's pixels that differ
    // from the client's: 782,458 of the 1,048,576.
    let flat = render("flat");
    let differ = flat
        .chunks_exact(4)
        .zip(&expected)
        .filter(|(f, e)| f[..3] != e[..])
        .count();
    assert_eq!(differ, 782_458);
}

#[test]
fn styles_on_a_synthetic_facet() {
    let (dir, world) = super::uo::synthetic_uo_dir();
    let d = dir.path().to_str().unwrap();
    let size = super::uo::UO_SIZE;
    let out = tempfile::tempdir().unwrap();
    let png = |name: &str| out.path().join(name).to_str().unwrap().to_owned();
    let render = |extra: &[&str], name: &str| {
        let path = png(name);
        let args = [
            &["uo", "render", d][..],
            &size,
            extra,
            &["-o", &path, "--json"],
        ]
        .concat();
        stdout_json(&gamedata(&args, dir.path()))
    };
    // Flat stays the default: the same PNG bytes with and without `--style flat`.
    assert_eq!(render(&[], "default.png")["style"], "flat");
    assert_eq!(render(&["--style", "flat"], "flat.png")["style"], "flat");
    let read = |name: &str| std::fs::read(png(name)).unwrap();
    assert_eq!(read("default.png"), read("flat.png"));
    let client = render(&["--style", "client"], "client.png");
    assert_eq!(
        (client["style"].as_str(), client["width"].as_u64()),
        (Some("client"), Some(320))
    );
    assert_ne!(read("client.png"), read("flat.png"));
    // Altitude: where a tile has no static, its grey level is its land z + 128, read
    // from the map's bytes (blocks column by column, 196 bytes each).
    render(&["--style", "altitude"], "altitude.png");
    let grey = png_pixels(Path::new(&png("altitude.png")));
    let mut with_statics = std::collections::HashSet::new();
    for block in 0..40 * 24usize {
        let (offset, length) = (
            u32_at(&world.staidx, block * 12),
            u32_at(&world.staidx, block * 12 + 4),
        );
        if offset == u32::MAX {
            continue;
        }
        let records = &world.statics[offset as usize..(offset + length) as usize];
        for r in records.chunks_exact(7) {
            let (x, y) = (
                block / 24 * 8 + usize::from(r[2]),
                block % 24 * 8 + usize::from(r[3]),
            );
            with_statics.insert((x, y));
        }
    }
    let mut checked = 0;
    for (x, y) in (0..320).flat_map(|x| (0..192).map(move |y| (x, y))) {
        if with_statics.contains(&(x, y)) {
            continue;
        }
        let at = (x / 8 * 24 + y / 8) * 196 + 4 + (y % 8 * 8 + x % 8) * 3;
        let level = (world.map[at + 2] as i8 as i16 + 128) as u8;
        assert_eq!(
            &grey[(y * 320 + x) * 4..][..4],
            &[level, level, level, 255],
            "{x},{y}"
        );
        checked += 1;
    }
    assert!(checked > 320 * 192 / 2, "{checked}");
    // The web map names its style.
    let web = out.path().join("web");
    let tiles = stdout_json(&gamedata(
        &[
            &["uo", "tiles", d][..],
            &size,
            &["--style", "altitude", "-o", web.to_str().unwrap(), "--json"],
        ]
        .concat(),
        dir.path(),
    ));
    assert_eq!(tiles["style"], "altitude");
    assert!(web.join("0/0/0.png").exists());
}

#[test]
fn a_style_without_its_files_is_refused_with_the_flag_to_give() {
    let (dir, _) = super::uo::synthetic_uo_dir();
    let d = dir.path().to_str().unwrap();
    let size = super::uo::UO_SIZE;
    let out = tempfile::tempdir().unwrap();
    let png = out.path().join("x.png");
    let p = png.to_str().unwrap();
    let hues = dir.path().join("hues.mul");
    let kept = out.path().join("kept_hues.mul");
    std::fs::rename(&hues, &kept).unwrap();
    let run = |extra: &[&str]| {
        gamedata(
            &[&["uo", "render", d][..], &size, extra, &["-o", p]].concat(),
            dir.path(),
        )
    };
    let refused = run(&["--style", "client"]);
    assert_eq!(refused.status.code(), Some(1));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("no hues.mul") && err.contains("--hues FILE"),
        "{err}"
    );
    assert!(!png.exists());
    // The altitude needs no hues; the client style takes them from --hues.
    assert!(run(&["--style", "altitude"]).status.success());
    assert!(
        run(&["--style", "client", "--hues", kept.to_str().unwrap()])
            .status
            .success()
    );
    // Hillshading is the flat style's.
    let shaded = run(&[
        "--style",
        "client",
        "--hillshade",
        "--hues",
        kept.to_str().unwrap(),
    ]);
    assert_eq!(shaded.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&shaded.stderr)
            .contains("--hillshade applies to the flat style only")
    );
    // Without tiledata, both client styles are refused, naming --tiledata.
    std::fs::rename(
        dir.path().join("tiledata.mul"),
        out.path().join("tiledata.mul"),
    )
    .unwrap();
    let err = run(&["--style", "altitude"]);
    assert!(String::from_utf8_lossy(&err.stderr).contains("no tiledata.mul"));
    let tiledata = out.path().join("tiledata.mul");
    assert!(
        run(&[
            "--style",
            "altitude",
            "--tiledata",
            tiledata.to_str().unwrap()
        ])
        .status
        .success()
    );
}
