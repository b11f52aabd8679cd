//! The `tiles` commands: the pyramid's files, its native tiles against the plain render,
//! and the viewer opened in a real headless browser (Debian's chromium; CI installs it).

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use super::*;

/// A 320 x 192-tile synthetic facet (40 x 24 blocks) in a temporary folder.
fn synthetic_facet() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let size = mul_core::MapSize::from_blocks(40, 24).unwrap();
    mul_core::synth::World::generate(size, 5)
        .write_to(dir.path(), 0)
        .unwrap();
    dir
}

const SIZE: [&str; 4] = ["--width", "320", "--height", "192"];

/// The RGBA pixel (x, y) of a decoded PNG of `width` pixels and 4 bytes a pixel.
fn pixel(pixels: &[u8], width: u32, x: u32, y: u32) -> [u8; 4] {
    let at = ((y * width + x) * 4) as usize;
    pixels[at..at + 4].try_into().unwrap()
}

#[test]
fn uo_tiles_hold_the_radar_map_at_every_zoom() {
    let dir = synthetic_facet();
    let cwd = dir.path();
    let report: Value = stdout_json(&gamedata(
        &[
            &["--json", "uo", "tiles", "."][..],
            &SIZE,
            &["-o", "web", "--max-zoom", "2"],
        ]
        .concat(),
        cwd,
    ));
    // 320 pixels across: native zoom 1 (512 >= 320), 2 x 1 tiles; zoom 2 doubles: 3 x 2;
    // zoom 0: one tile.
    assert_eq!(report["native_zoom"], 1);
    assert_eq!(report["max_zoom"], 2);
    assert_eq!(report["tiles"], 1 + 2 + 6);
    let mut files = Vec::new();
    for z in 0..=2 {
        for entry in walk(&cwd.join("web").join(z.to_string())) {
            files.push(entry);
        }
    }
    assert_eq!(files.len(), 9, "{files:?}");
    let bytes: u64 = files
        .iter()
        .map(|f| std::fs::metadata(f).unwrap().len())
        .sum();
    assert_eq!(report["bytes"].as_u64(), Some(bytes));
    for f in &files {
        assert_eq!(png_size(f), (256, 256), "{}", f.display());
    }
    let index = std::fs::read_to_string(cwd.join("web/index.html")).unwrap();
    assert!(index.contains("<title>Facet 0: 320 x 192 tiles"), "{index}");
    assert!(index.contains("\"nativeZoom\":1"));
    for name in ["leaflet.js", "leaflet.css", "LICENSE"] {
        assert!(cwd.join("web/leaflet").join(name).is_file(), "{name}");
    }
    // The native tiles are the plain render's pixels, transparent past the map's edge.
    gamedata_ok(
        &[&["uo", "render", "."][..], &SIZE, &["-o", "radar.png"]].concat(),
        cwd,
    );
    let radar = png_pixels(&cwd.join("radar.png"));
    let left = png_pixels(&cwd.join("web/1/0/0.png"));
    let right = png_pixels(&cwd.join("web/1/1/0.png"));
    for (x, y) in [(0, 0), (255, 10), (100, 191), (256, 5), (319, 191)] {
        let tile = if x < 256 { &left } else { &right };
        assert_eq!(
            pixel(tile, 256, x % 256, y),
            pixel(&radar, 320, x, y),
            "{x},{y}"
        );
    }
    assert_eq!(pixel(&right, 256, 64, 0)[3], 0, "x 320 is past the edge");
    assert_eq!(pixel(&left, 256, 0, 192)[3], 0, "y 192 is past the edge");
    // A magnified tile doubles the native pixels: zoom 2 tile (0, 0) pixel (2x, 2y).
    let zoom2 = png_pixels(&cwd.join("web/2/0/0.png"));
    assert_eq!(pixel(&zoom2, 256, 20, 30), pixel(&left, 256, 10, 15));
    assert_eq!(pixel(&zoom2, 256, 21, 31), pixel(&left, 256, 10, 15));
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

#[test]
fn wwd_and_cosmo_tiles_write_their_pyramids() {
    let dir = synthetic_game_dir();
    let cwd = dir.path();
    let level = wap_core::synth::level(2, 40, 16).to_file(true).unwrap();
    std::fs::write(cwd.join("level.wwd"), level).unwrap();
    // 40 x 16 tiles of 64 pixels: 2560 x 1024 pixels, native zoom 4 (4096 >= 2560).
    let wwd = stdout_json(&gamedata(
        &["--json", "wwd", "tiles", "level.wwd", "-o", "w"],
        cwd,
    ));
    assert_eq!(
        (wwd["width"].as_u64(), wwd["height"].as_u64()),
        (Some(2560), Some(1024))
    );
    assert_eq!(wwd["native_zoom"], 4);
    // Zoom 4: 10 x 4; zoom 3: 5 x 2; zoom 2: 3 x 1; zoom 1: 2 x 1; zoom 0: 1.
    assert_eq!(wwd["tiles"], 40 + 10 + 3 + 2 + 1);
    assert!(cwd.join("w/4/9/3.png").is_file());
    assert!(!cwd.join("w/4/10").exists(), "no column past the picture");
    // The synthetic A1.MNI is 256 x 128 tiles of 8 pixels: 2048 x 1024, native zoom 3.
    let cosmo = stdout_json(&gamedata(
        &["--json", "cosmo", "tiles", ".", "a1.mni", "-o", "c"],
        cwd,
    ));
    assert_eq!(
        (cosmo["width"].as_u64(), cosmo["height"].as_u64()),
        (Some(2048), Some(1024))
    );
    assert_eq!(cosmo["tiles"], 32 + 8 + 2 + 1);
    assert_eq!(cosmo["title"], "A1.MNI of episode 1");
    // The native tiles are the map render's pixels.
    gamedata_ok(&["cosmo", "map", ".", "A1.MNI", "--render", "a1.png"], cwd);
    let whole = png_pixels(&cwd.join("a1.png"));
    let tile = png_pixels(&cwd.join("c/3/2/1.png"));
    for (x, y) in [(0, 0), (100, 200), (255, 255)] {
        assert_eq!(
            pixel(&tile, 256, x, y),
            pixel(&whole, 2048, 512 + x, 256 + y)
        );
    }
    assert!(cosmo.get("actors").is_none() && cosmo.get("backdrop").is_none());
    // With the backdrop and actors: the report says what was drawn, as `cosmo map` does,
    // and the native tiles are that render's pixels.
    let level = stdout_json(&gamedata(
        &[
            "--json",
            "cosmo",
            "tiles",
            ".",
            "a1.mni",
            "-o",
            "l",
            "--actors",
            "--backdrop",
        ],
        cwd,
    ));
    let map = stdout_json(&gamedata(
        &[
            "--json",
            "cosmo",
            "map",
            ".",
            "a1.mni",
            "--render",
            "l.png",
            "--actors",
            "--backdrop",
        ],
        cwd,
    ));
    assert_eq!(level["backdrop"], map["render"]["backdrop"]);
    assert_eq!(level["actors"], map["render"]["actors"]);
    assert!(level["actors"]["drawn"].as_u64() > Some(0));
    let whole = png_pixels(&cwd.join("l.png"));
    let tile = png_pixels(&cwd.join("l/3/0/0.png"));
    for (x, y) in [(0, 0), (100, 200), (255, 255)] {
        assert_eq!(pixel(&tile, 256, x, y), pixel(&whole, 2048, x, y));
    }
}

#[test]
#[ignore = "needs Debian's chromium (CI installs it)"]
fn the_viewer_shows_map_tiles_in_a_headless_browser() {
    let dir = synthetic_facet();
    let cwd = dir.path();
    gamedata_ok(
        &[
            &["uo", "tiles", "."][..],
            &SIZE,
            &["-o", "web", "--max-zoom", "3"],
        ]
        .concat(),
        cwd,
    );
    let (share, colours) = browser_map_share(&cwd.join("web/index.html"));
    assert!(
        share > 0.2,
        "{:.1} % of the screenshot is map",
        share * 100.0
    );
    assert!(colours >= 8, "{colours} map colours");
}

/// Opens `index` (a viewer page) in headless chromium and measures its screenshot: the
/// share of pixels that are map (neither the page's background #1b1b1f nor grey, as
/// Leaflet's zoom buttons are) and how many colours the map has.
pub(super) fn browser_map_share(index: &Path) -> (f64, usize) {
    let cwd = index.parent().unwrap();
    let profile = tempfile::tempdir().unwrap();
    let shot = cwd.join("../shot.png");
    let url = format!("file://{}", index.display());
    let out = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1000,700",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(&url)
        .output()
        .expect("run chromium");
    assert!(
        shot.is_file(),
        "no screenshot: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.buffer_size() / (info.width as usize * info.height as usize);
    assert!(channels >= 3, "{info:?}");
    // The page's background is #1b1b1f and Leaflet's zoom buttons are white and grey; map
    // tiles of the synthetic facet are water, sand, grass, forest and rock, none of them
    // grey. The facet 0 viewer with its tiles removed measured 0.05 % such pixels; with
    // them, 66 %.
    let pixels: Vec<[u8; 3]> = buf[..info.buffer_size()]
        .chunks_exact(channels)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    let background = [0x1b, 0x1b, 0x1f];
    let map: Vec<[u8; 3]> = pixels
        .iter()
        .copied()
        .filter(|&p| p != background && !(p[0] == p[1] && p[1] == p[2]))
        .collect();
    let mut colours = map.clone();
    colours.sort_unstable();
    colours.dedup();
    let share = map.len() as f64 / pixels.len() as f64;
    (share, colours.len())
}
