//! The JavaScript face of the library ([`Gamedata`]) compiled to WebAssembly and run in a
//! browser (`wasm-bindgen-test`, headless Chromium over chromedriver): files in, the ids
//! listed, tiles as bytes equal to the ones gamedata-render makes from the same picture in
//! the same build, `undefined` past the picture, and errors thrown as JavaScript `Error`s
//! carrying the sentence. Run by `.ci/run` (docs/web.md says how by hand).
#![cfg(target_arch = "wasm32")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use gamedata_render::tiles::{Levels, pyramid_tile};
use gamedata_web::Gamedata;
use wasm_bindgen::{JsCast, JsError, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// The message of the JavaScript `Error` an error becomes when thrown.
fn message(e: JsError) -> String {
    let value = JsValue::from(e);
    assert!(value.is_instance_of::<js_sys::Error>(), "{value:?}");
    String::from(js_sys::Error::from(value).message())
}

/// The synthetic episode given as a person gives a folder.
fn with_episode() -> (Gamedata, mni_core::synth::SynthEpisode) {
    let synth = mni_core::synth::episode().unwrap();
    let mut lib = Gamedata::new();
    lib.add_file("game/COSMO1.STN", synth.stn.clone());
    lib.add_file("game/cosmo1.vol", synth.vol.clone());
    lib.scan();
    (lib, synth)
}

#[wasm_bindgen_test]
fn the_episode_is_found_and_its_maps_listed() {
    let (lib, _) = with_episode();
    assert_eq!(lib.maps(), ["cosmo/A1", "cosmo/A2", "cosmo/A3"]);
    assert_eq!(lib.found(), ["Cosmo's Cosmic Adventure: episode 1, 3 maps"]);
    assert!(lib.errors().is_empty());
}

#[wasm_bindgen_test]
fn a_tile_is_the_pyramid_s_tile_of_the_picture_drawn_here() {
    let (mut lib, synth) = with_episode();
    let episode = mni_core::Episode::parse(&synth.stn, &synth.vol).unwrap();
    let map = episode.level("A2.MNI").unwrap().unwrap();
    let layers = gamedata_render::cosmo::LayerOptions {
        actors: true,
        backdrop: true,
        attributes: false,
    };
    let picture = gamedata_render::cosmo::draw_level(&episode, &map, &layers).unwrap();
    let (w, h) = (picture.image.width(), picture.image.height());
    let levels = lib.levels("cosmo/A2?actors,backdrop").unwrap();
    assert_eq!((levels.width, levels.height), (w, h));
    let want = Levels::new(w, h, None).unwrap();
    assert_eq!(
        (levels.native_zoom, levels.max_zoom),
        (want.native, want.max)
    );
    let mut compared = 0;
    for z in 0..=want.max {
        let (across, down) = want.tiles_at(z);
        for x in 0..across as u32 {
            for y in 0..down as u32 {
                let got = lib.tile("cosmo/A2?actors,backdrop", z, x, y).unwrap();
                let expected = pyramid_tile(&picture.image, &want, z, x.into(), y.into()).unwrap();
                assert_eq!(
                    got.as_deref(),
                    expected.as_ref().map(|t| t.pixels()),
                    "{z}/{x}/{y}"
                );
                assert_eq!(got.map(|t| t.len()), expected.map(|_| 256 * 256 * 4));
                compared += 1;
            }
        }
    }
    assert!(compared > 1);
    // Past the deepest zoom and past the edge: no tile.
    assert_eq!(
        lib.tile("cosmo/A2?actors,backdrop", want.max + 1, 0, 0)
            .unwrap(),
        None
    );
    let (across, _) = want.tiles_at(0);
    assert_eq!(lib.tile("cosmo/A2", 0, across as u32, 0).unwrap(), None);
}

#[wasm_bindgen_test]
fn errors_are_thrown_as_errors_with_the_sentence() {
    let (mut lib, _) = with_episode();
    let e = lib.tile("cosmo/A9", 0, 0, 0).unwrap_err();
    assert!(message(e).contains("no map cosmo/A9 among the files given"));
    let e = lib.tile("cosmo/A2?sprites", 0, 0, 0).unwrap_err();
    assert!(message(e).contains("has the option \"sprites\""));
    let e = lib.levels("tiles/1").unwrap_err();
    assert!(message(e).contains("is not a map id"));
}

#[wasm_bindgen_test]
fn a_bad_level_is_reported_and_the_rest_stays_usable() {
    let (mut lib, _) = with_episode();
    lib.add_file("levels/BROKEN.WWD", b"not a level at all".to_vec());
    lib.scan();
    let errors = lib.errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("reading levels/BROKEN.WWD: "),
        "{errors:?}"
    );
    assert!(!lib.maps().iter().any(|m| m.starts_with("wwd/")));
    assert!(lib.tile("cosmo/A1", 0, 0, 0).unwrap().is_some());
}

#[wasm_bindgen_test]
fn only_the_files_the_readers_use_are_wanted() {
    for path in [
        "uo/MAP0.MUL",
        "uo/statics0.mul",
        "levels/RETAIL01.WWD",
        "CLAW.REZ",
        "COSMO1.STN",
        "uo/anim2.mul",
        "uo/AnimationFrame3.uop",
        "pid/FRAME043.PID",
        "MAIN.pal",
    ] {
        assert!(Gamedata::wants(path), "{path}");
    }
    for path in [
        "uo/animx.mul",
        "readme.txt",
        "uo/unifont.mul",
        "uo/sound.mul",
    ] {
        assert!(!Gamedata::wants(path), "{path}");
    }
}
