//! What the tests share: finding Tiled's own renderer (`tmxrasterizer`) and reading its
//! picture, and the map a synthetic level exports to.

#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::path::Path;
use std::process::Command;

/// Whether tmxrasterizer runs here; a message and `false` when it does not (a failure
/// under CI).
pub(crate) fn have_tmxrasterizer() -> bool {
    let ok = Command::new("tmxrasterizer")
        .arg("--version")
        .env("QT_QPA_PLATFORM", "offscreen")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "tmxrasterizer is missing under CI: .ci/run installs Debian's tiled package"
        );
        eprintln!("skipped: tmxrasterizer is not installed (apt-get install tiled)");
    }
    ok
}

/// tmxrasterizer's picture of `map` (a .tmx or .tmj), as RGB: written as PPM (Qt's
/// writer, uncompressed: three times as fast as its PNG), where what it leaves
/// transparent is black, the scene's background (tmxrasterizer ignores the map's
/// background colour).
pub(crate) fn rasterize(map: &Path) -> (u32, u32, Vec<u8>) {
    let ppm = map.with_extension("tiled.ppm");
    let out = Command::new("tmxrasterizer")
        .arg(map)
        .arg(&ppm)
        .env("QT_QPA_PLATFORM", "offscreen")
        .output()
        .expect("run tmxrasterizer");
    assert!(
        out.status.success(),
        "tmxrasterizer {}: {}",
        map.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&ppm).unwrap();
    std::fs::remove_file(&ppm).unwrap();
    // "P6", width, height, 255, each after white space, then one white space and the
    // pixels.
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        while !bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        fields.push(std::str::from_utf8(&bytes[start..at]).unwrap().to_owned());
    }
    assert_eq!((fields[0].as_str(), fields[3].as_str()), ("P6", "255"));
    let (w, h): (u32, u32) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    let pixels = bytes[at + 1..].to_vec();
    assert_eq!(pixels.len(), (w * h * 3) as usize);
    (w, h, pixels)
}

/// The map level `data` exports to (its images from the synthetic archive of its image
/// sets, the default options and limits).
pub(crate) fn exported_map(data: &wap_core::LevelData) -> gamedata_tiled::map::Map {
    use wap_core::{ImageSource, Level, Limits, RezFile};
    let rez = wap_core::synth::level_archive(data).unwrap();
    let source = ImageSource::Archive(RezFile::from_data(rez, &Default::default()).unwrap());
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    gamedata_tiled::wwd::export(
        &level,
        &source,
        &gamedata_tiled::wwd::ExportOptions::default(),
        &Limits::default(),
    )
    .unwrap()
    .map
}
