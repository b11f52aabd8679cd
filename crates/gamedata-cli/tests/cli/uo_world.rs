//! `gamedata uo render --style world` and `uo tiles --style world`: the contract (flags,
//! `--json` keys, the view a region frames, errors), and the pyramid's tiles against the
//! picture of the same screen pixels. The pixels themselves are checked against an
//! independent expectation in gamedata-render's `tests/it/world_expect`.

use serde_json::json;

use mul_core::{Map, MapSize};

use super::*;

/// A 64 x 64 synthetic world with its art (`uo synth --width 64 --height 64 --art`).
fn world() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    gamedata_ok(
        &[
            "uo", "synth", "w", "--facet", "0", "--width", "64", "--height", "64", "--art",
        ],
        dir.path(),
    );
    dir
}

/// The reading flags of the 64 x 64 world.
const SIZE: [&str; 6] = ["--facet", "0", "--width", "64", "--height", "64"];

fn render(dir: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["uo", "render", "w"];
    args.extend(SIZE);
    args.extend(["--style", "world", "--json"]);
    args.extend(extra);
    stdout_json(&gamedata_ok(&args, dir))
}

/// `--view SX,SY --view-size WxH`: the picture of that rectangle of screen pixels; the
/// report's keys in order, the view echoed, the counts consistent.
#[test]
fn a_view_is_drawn_and_reported() {
    let dir = world();
    let report = render(
        dir.path(),
        &["--view=-300,600", "--view-size", "640x480", "-o", "v.png"],
    );
    assert_eq!(
        json_keys(&report),
        [
            "output",
            "bytes",
            "width",
            "height",
            "style",
            "view",
            "tiles_drawn",
            "statics_drawn",
            "stretched",
            "elapsed_ms"
        ]
    );
    assert_eq!(report["view"], json!([-300, 600, 640, 480]));
    assert_eq!(report["style"], json!("world"));
    assert_eq!(png_size(&dir.path().join("v.png")), (640, 480));
    let tiles = report["tiles_drawn"].as_u64().unwrap();
    let stretched = report["stretched"].as_u64().unwrap();
    // 640 x 480 pixels hold about 640 * 480 / 968 land diamonds (968 pixels each), more at
    // the edges.
    assert!((300..=500).contains(&tiles), "{report}");
    assert!(stretched > 0 && stretched <= tiles, "{report}");
    // A view inside the world is drawn nearly everywhere (the client leaves gaps where a
    // cliff folds a triangle over, or flat water meets a lower slope).
    let pixels = png_pixels(&dir.path().join("v.png"));
    let drawn = pixels.chunks(4).filter(|p| p[3] == 255).count();
    assert!(drawn * 100 >= 640 * 480 * 95, "{drawn}");
}

/// `--region X,Y,W,H` frames the tiles: from the west corner of its south-west tile to the
/// east corner of its north-east one, and from the highest to the lowest land picture of
/// its tiles at their heights (computed here from the map's cells).
#[test]
fn a_region_frames_its_tiles() {
    let dir = world();
    let (x, y, w, h) = (10i64, 20i64, 12i64, 8i64);
    let report = render(dir.path(), &["--region", "10,20,12,8", "-o", "r.png"]);
    let map_bytes = std::fs::read(dir.path().join("w/map0.mul")).unwrap();
    let map = Map::parse(&map_bytes, MapSize::from_tiles(64, 64).unwrap()).unwrap();
    let (mut top, mut bottom) = (i64::MAX, i64::MIN);
    for tx in x..x + w {
        for ty in y..y + h {
            let z = i64::from(map.cell(tx as u32, ty as u32).unwrap().z);
            top = top.min((tx + ty) * 22 - 4 * z - 22);
            bottom = bottom.max((tx + ty) * 22 - 4 * z + 22);
        }
    }
    let left = (x - (y + h - 1)) * 22 - 22;
    let right = ((x + w - 1) - y) * 22 + 22;
    assert_eq!(
        report["view"],
        json!([left, top, right - left, bottom - top])
    );
    assert_eq!(
        png_size(&dir.path().join("r.png")),
        ((right - left) as u32, (bottom - top) as u32)
    );
}

/// What the world style refuses, with a sentence and status 1: a view without its size,
/// a view with a region, radar flags, a view past the picture cap, an output over an
/// input; and no picture is left behind.
#[test]
fn the_world_style_refuses_what_does_not_fit() {
    let dir = world();
    let run = |extra: &[&str]| {
        let mut args = vec!["uo", "render", "w"];
        args.extend(SIZE);
        args.extend(["--style", "world"]);
        args.extend(extra);
        gamedata_fails(&args, dir.path())
    };
    let e = run(&["--view", "0,0", "-o", "a.png"]);
    assert!(e.contains("--view-size"), "{e}");
    let e = run(&[
        "--view",
        "0,0",
        "--view-size",
        "8x8",
        "--region",
        "0,0,4,4",
        "-o",
        "a.png",
    ]);
    assert!(e.contains("not both"), "{e}");
    let e = run(&["--scale", "2", "-o", "a.png"]);
    assert!(e.contains("--scale"), "{e}");
    // 2^31 pixels: past the cap of 2^28.
    let e = run(&["--view", "0,0", "--view-size", "65536x32768", "-o", "a.png"]);
    assert!(e.contains("65536 x 32768"), "{e}");
    assert!(!dir.path().join("a.png").exists());
    let e = run(&["--view", "0,0", "--view-size", "8x8", "-o", "w/art.mul"]);
    assert!(e.contains("art.mul"), "{e}");
    assert!(
        std::fs::metadata(dir.path().join("w/art.mul"))
            .unwrap()
            .len()
            > 1000
    );
    // --view-size must be WxH of positive numbers.
    let mut args = vec!["uo", "render", "w"];
    args.extend(SIZE);
    args.extend([
        "--style",
        "world",
        "--view",
        "0,0",
        "--view-size",
        "0x5",
        "-o",
        "a.png",
    ]);
    let out = gamedata(&args, dir.path());
    assert_eq!(out.status.code(), Some(2));
}

/// The pyramid: every native tile written is the picture of its 256 x 256 screen pixels
/// (from the frame of the whole facet), none is wholly transparent, and the report counts
/// the files; `--base-scale 2`'s native tiles are the native pyramid's tiles one level up.
#[test]
fn the_world_pyramid_is_the_picture_cut_into_tiles() {
    let dir = world();
    let mut args = vec!["uo", "tiles", "w"];
    args.extend(SIZE);
    args.extend(["--style", "world", "-o", "p1", "--json"]);
    let report = stdout_json(&gamedata_ok(&args, dir.path()));
    let view = report["view"].as_array().unwrap();
    let (fx, fy) = (view[0].as_i64().unwrap(), view[1].as_i64().unwrap());
    let native = report["native_zoom"].as_u64().unwrap();
    let p1 = dir.path().join("p1");
    assert_eq!(report["tiles"].as_u64().unwrap(), pngs(&p1) as u64);
    let zdir = p1.join(native.to_string());
    let mut checked = 0;
    for column in std::fs::read_dir(&zdir).unwrap() {
        let column = column.unwrap();
        let x: i64 = column.file_name().to_str().unwrap().parse().unwrap();
        for tile in std::fs::read_dir(column.path()).unwrap() {
            let tile = tile.unwrap().path();
            let y: i64 = tile.file_stem().unwrap().to_str().unwrap().parse().unwrap();
            let pixels = png_pixels(&tile);
            assert!(pixels.chunks(4).any(|p| p[3] != 0), "{}", tile.display());
            // Every fourth tile drawn again as a view of its screen pixels.
            if (x + y) % 4 == 0 {
                let sx = (fx + 256 * x).to_string();
                let sy = (fy + 256 * y).to_string();
                let at = format!("--view={sx},{sy}");
                render(dir.path(), &[&at, "--view-size", "256x256", "-o", "t.png"]);
                assert_eq!(
                    pixels,
                    png_pixels(&dir.path().join("t.png")),
                    "{}",
                    tile.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 10, "{checked}");
    // The 64 x 64 world's frame is 2,816 pixels a side: 11 x 11 native tiles, of which the
    // corners outside the diamond are not written.
    let native_tiles = std::fs::read_dir(&zdir)
        .unwrap()
        .map(|c| std::fs::read_dir(c.unwrap().path()).unwrap().count())
        .sum::<usize>();
    assert!(native_tiles < 121 && native_tiles > 60, "{native_tiles}");

    let mut args = vec!["uo", "tiles", "w"];
    args.extend(SIZE);
    args.extend([
        "--style",
        "world",
        "--base-scale",
        "2",
        "-o",
        "p2",
        "--json",
    ]);
    let half = stdout_json(&gamedata_ok(&args, dir.path()));
    assert_eq!(half["native_zoom"].as_u64().unwrap(), native - 1);
    let p2 = dir.path().join("p2");
    let mut same = 0;
    for z in 0..native {
        let a = p1.join(z.to_string());
        for column in std::fs::read_dir(&a).unwrap() {
            let column = column.unwrap();
            for tile in std::fs::read_dir(column.path()).unwrap() {
                let tile = tile.unwrap().path();
                let other = p2
                    .join(z.to_string())
                    .join(column.file_name())
                    .join(tile.file_name().unwrap());
                assert_eq!(png_pixels(&tile), png_pixels(&other), "{}", tile.display());
                same += 1;
            }
        }
    }
    assert_eq!(same as u64, half["tiles"].as_u64().unwrap());
    // --base-scale goes with the world style only.
    let mut args = vec!["uo", "tiles", "w"];
    args.extend(SIZE);
    args.extend(["--base-scale", "2", "-o", "p3"]);
    let e = gamedata_fails(&args, dir.path());
    assert!(e.contains("--style world"), "{e}");
}
