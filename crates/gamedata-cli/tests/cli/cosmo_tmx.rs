//! `gamedata cosmo tmx`: a map exported to Tiled's TMX and TMJ with its images beside it;
//! with GAMEDATA_DIR and tmxrasterizer, the picture Tiled draws of A1.MNI's export equals
//! `cosmo map --render --actors --backdrop`'s PNG pixel for pixel.

use super::*;

#[test]
fn tmx_and_tmj_of_a_synthetic_map_with_their_images() {
    let dir = synthetic_game_dir();
    let mut images = 0;
    for (out, format) in [("out/a2.tmx", "tmx"), ("out/a2.tmj", "tmj")] {
        let report = stdout_json(&gamedata_ok(
            &[
                "cosmo",
                "tmx",
                ".",
                "a2.mni",
                "-o",
                out,
                "--actors",
                "--backdrop",
                "--json",
            ],
            dir.path(),
        ));
        assert_eq!(
            json_keys(&report),
            [
                "tmx",
                "format",
                "width",
                "height",
                "layers",
                "tile_layers",
                "object_layers",
                "image_layers",
                "objects",
                "tilesets",
                "tiles",
                "images_dir",
                "images",
                "image_bytes",
                "bytes",
                "objects_drawn",
                "tiles_drawn",
                "missing",
                "backdrop",
                "actors_hidden",
                "actors_special",
                "actors_not_drawn",
                "elapsed_ms"
            ]
        );
        assert_eq!(report["format"], format);
        assert_eq!(
            (report["width"].as_u64(), report["height"].as_u64()),
            (Some(64), Some(512))
        );
        // TMX: the backdrop is an image layer; TMJ: a tile layer.
        let image_layers = u64::from(format == "tmx");
        assert_eq!(report["image_layers"], image_layers);
        assert_eq!(report["layers"], 5);
        images = report["images"].as_u64().unwrap();
        let map = std::fs::read_to_string(dir.path().join(out)).unwrap();
        assert_eq!(map.len() as u64, report["bytes"].as_u64().unwrap());
        if format == "tmx" {
            assert!(map.contains(r#"<imagelayer id="1" name="backdrop" repeatx="1" repeaty="1">"#));
            assert!(map.contains(r#"objectalignment="topleft""#));
        } else {
            let v: Value = serde_json::from_str(&map).unwrap();
            assert_eq!(v["layers"][0]["type"], "tilelayer");
        }
    }
    // Both forms share a2_images: solid, masked, backdrop and one a sprite drawn, as many
    // as the report says.
    let a2 = dir.path().join("out/a2_images");
    assert_eq!(pngs(&a2) as u64, images);
    assert!(a2.join("solid.png").is_file() && a2.join("backdrop.png").is_file());
    // Without --actors and --backdrop: the tiles alone.
    let report = stdout_json(&gamedata_ok(
        &["cosmo", "tmx", ".", "A1.MNI", "-o", "bare.tmx", "--json"],
        dir.path(),
    ));
    assert_eq!(
        (report["layers"].as_u64(), report["objects"].as_u64()),
        (Some(2), Some(0))
    );
    assert!(report.get("backdrop").is_none());
}

#[test]
fn a_missing_map_is_an_error_naming_it() {
    let dir = synthetic_game_dir();
    let out = gamedata(
        &["cosmo", "tmx", ".", "NOPE.MNI", "-o", "x.tmx"],
        dir.path(),
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("NOPE.MNI"));
}

/// A PNG's pixels as RGBA (8-bit RGB or RGBA files).
fn rgba(path: &Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    assert_eq!(info.bit_depth, png::BitDepth::Eight, "{}", path.display());
    let pixels = match info.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        other => panic!("{}: {other:?}", path.display()),
    };
    (info.width, info.height, pixels)
}

/// A1.MNI with --actors --backdrop: Tiled's picture of the TMX export equals the render.
#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files, and tmxrasterizer"]
fn tiled_draws_the_real_a1_export_as_cosmo_map_renders_it() {
    let game = gamedata_testkit::require_file("cosmo");
    let ok = Command::new("tmxrasterizer")
        .arg("--version")
        .env("QT_QPA_PLATFORM", "offscreen")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "tmxrasterizer is missing under CI"
        );
        eprintln!("skipped: tmxrasterizer is not installed (apt-get install tiled)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let game = game.to_str().unwrap();
    gamedata_ok(
        &[
            "cosmo",
            "map",
            game,
            "A1.MNI",
            "--render",
            "x.png",
            "--actors",
            "--backdrop",
        ],
        dir.path(),
    );
    for out in ["a1.tmx", "a1.tmj"] {
        gamedata_ok(
            &[
                "cosmo",
                "tmx",
                game,
                "A1.MNI",
                "-o",
                out,
                "--actors",
                "--backdrop",
            ],
            dir.path(),
        );
        let tiled = Command::new("tmxrasterizer")
            .args([out, "tiled.png"])
            .current_dir(dir.path())
            .env("QT_QPA_PLATFORM", "offscreen")
            .output()
            .unwrap();
        assert!(
            tiled.status.success(),
            "{}",
            String::from_utf8_lossy(&tiled.stderr)
        );
        let (want, got) = (
            rgba(&dir.path().join("x.png")),
            rgba(&dir.path().join("tiled.png")),
        );
        assert_eq!((got.0, got.1), (want.0, want.1), "{out}");
        assert_eq!((want.0, want.1), (4096, 512));
        let differing = got
            .2
            .chunks_exact(4)
            .zip(want.2.chunks_exact(4))
            .filter(|(a, b)| a != b)
            .count();
        assert_eq!(differing, 0, "{out}: {differing} pixels differ");
    }
}
