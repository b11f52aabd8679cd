//! The library on synthetic files (the readers' own writers): the games found, the ids
//! listed, the bad file's sentence, and tiles equal to the ones `build_pyramid` makes from
//! the same picture drawn directly with gamedata-render (what the `tiles` commands write).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::cast_possible_truncation
)]

use std::collections::BTreeMap;
use std::sync::Mutex;

use gamedata_render::tiles::{Levels, build_pyramid};
use gamedata_render::{RenderError, RgbaImage, TileSource};
use gamedata_web::Library;

/// Every tile `build_pyramid` writes for `source` to its native zoom.
fn pyramid(source: &dyn TileSource) -> BTreeMap<(u8, u64, u64), RgbaImage> {
    let (w, h) = source.size();
    let tiles = Mutex::new(BTreeMap::new());
    let levels = Levels::new(w, h, None).unwrap();
    build_pyramid(source, levels, &|z, x, y, t| -> Result<(), RenderError> {
        tiles.lock().unwrap().insert((z, x, y), t.clone());
        Ok(())
    })
    .unwrap();
    tiles.into_inner().unwrap()
}

/// Checks that the library's tiles of `id` are `want`'s, and that a tile past them is
/// `None`.
fn same_tiles(library: &mut Library, id: &str, want: &BTreeMap<(u8, u64, u64), RgbaImage>) {
    assert!(!want.is_empty());
    for (&(z, x, y), tile) in want {
        let got = library
            .tile(id, z, u32::try_from(x).unwrap(), u32::try_from(y).unwrap())
            .unwrap()
            .unwrap_or_else(|| panic!("{id}: tile {z}/{x}/{y} missing"));
        assert!(
            got.pixels() == tile.pixels(),
            "{id}: tile {z}/{x}/{y} differs"
        );
    }
    let deepest = want.keys().map(|k| k.0).max().unwrap();
    assert!(library.tile(id, deepest + 1, 0, 0).unwrap().is_none());
    assert!(library.tile(id, 0, 1, 0).unwrap().is_none());
}

#[test]
fn cosmo_maps_are_listed_and_drawn_as_cosmo_tiles_draws_them() {
    let synth = mni_core::synth::episode().unwrap();
    let mut library = Library::new();
    library.add_file("game/COSMO1.STN", synth.stn.clone());
    library.add_file("game/cosmo1.vol", synth.vol.clone());
    library.scan();
    assert_eq!(library.maps(), ["cosmo/A1", "cosmo/A2", "cosmo/A3"]);
    assert!(library.errors().is_empty(), "{:?}", library.errors());
    assert_eq!(
        library.found(),
        ["Cosmo's Cosmic Adventure: episode 1, 3 maps"]
    );
    let episode = mni_core::Episode::parse(&synth.stn, &synth.vol).unwrap();
    let map = episode.level("A2.MNI").unwrap().unwrap();
    let layers = gamedata_render::cosmo::LayerOptions {
        actors: true,
        backdrop: true,
        attributes: false,
    };
    let picture = gamedata_render::cosmo::draw_level(&episode, &map, &layers).unwrap();
    same_tiles(
        &mut library,
        "cosmo/A2?actors,backdrop",
        &pyramid(&picture.image),
    );
    let plain = gamedata_render::cosmo::draw_level(&episode, &map, &Default::default()).unwrap();
    assert!(plain.image.pixels() != picture.image.pixels());
    same_tiles(&mut library, "cosmo/A2", &pyramid(&plain.image));
    let e = library.tile("cosmo/A2?sprites", 0, 0, 0).unwrap_err();
    assert!(
        format!("{e:#}").contains("has the option \"sprites\""),
        "{e:#}"
    );
    let e = library.tile("cosmo/A9", 0, 0, 0).unwrap_err();
    assert!(
        format!("{e:#}").contains("no map cosmo/A9 among the files given"),
        "{e:#}"
    );
}

#[test]
fn levels_are_drawn_as_collision_maps_or_with_the_archive_and_a_bad_one_is_reported() {
    let data = wap_core::synth::level(7, 40, 24);
    let file = data.to_file(true).unwrap();
    let mut bad = file.clone();
    bad[0] ^= 0xFF;
    let mut library = Library::new();
    library.add_file("levels/SYNTH.WWD", file.clone());
    library.add_file("levels/BAD.wwd", bad);
    library.scan();
    assert_eq!(library.maps(), ["wwd/SYNTH"]);
    assert_eq!(library.errors().len(), 1, "{:?}", library.errors());
    assert!(
        library.errors()[0].starts_with("reading levels/BAD.wwd: "),
        "{:?}",
        library.errors()
    );
    let owned = wap_core::LevelFile::from_data(file.clone(), &Default::default()).unwrap();
    let level = owned.view().unwrap();
    let plane = level.main_plane().unwrap().unwrap();
    let index = level.tile_properties().and_then(|t| t.collect()).unwrap();
    let tile = u32::try_from(plane.tile_size().0).unwrap();
    let map = gamedata_render::wwd::CollisionMap::new(&plane, &index, tile).unwrap();
    same_tiles(&mut library, "wwd/SYNTH", &pyramid(&map));
    // With an archive among the files: the level by the engine's rules.
    let rez = wap_core::synth::level_archive(&data).unwrap();
    library.add_file("CLAW.REZ", rez.clone());
    library.scan();
    assert_eq!(library.maps(), ["wwd/SYNTH"]);
    let archive = wap_core::RezFile::from_data(rez.clone(), &Default::default()).unwrap();
    let images = wap_core::ImageSource::Archive(archive);
    let options = gamedata_render::wwd::SceneOptions {
        tile_px: Some(tile),
        ..Default::default()
    };
    let defaults = wap_core::Limits::default();
    let limits =
        defaults.with_max_decoded_bytes(defaults.max_decoded_bytes - level.image().len() as u64);
    let scene = gamedata_render::wwd::Scene::new(&level, &images, &options, &limits).unwrap();
    let drawn = pyramid(&scene);
    same_tiles(&mut library, "wwd/SYNTH", &drawn);
    same_tiles(&mut library, "wwd/SYNTH?collision", &pyramid(&map));
    assert!(drawn[&(0, 0, 0)].pixels() != pyramid(&map)[&(0, 0, 0)].pixels());

    // The archive given by size: its tables read by ranges once, each picture by its own
    // range; the same tiles.
    let reads: std::rc::Rc<std::cell::RefCell<Vec<(u64, u32)>>> = Default::default();
    let seen = std::rc::Rc::clone(&reads);
    let bytes = rez.clone();
    let mut library = Library::new();
    library.add_file("levels/SYNTH.WWD", file);
    library.add_lazy_file(
        "CLAW.REZ",
        rez.len() as u64,
        Box::new(move |offset, length| {
            seen.borrow_mut().push((offset, length));
            let at = offset as usize;
            Ok(bytes[at..at + length as usize].to_vec())
        }),
    );
    library.scan();
    same_tiles(&mut library, "wwd/SYNTH", &drawn);
    let reads = reads.borrow();
    assert_eq!(reads.iter().filter(|r| **r == (0, 168)).count(), 1);
    let largest = reads.iter().map(|&(_, l)| l).max().unwrap();
    assert!(
        (largest as usize) < rez.len() / 4,
        "{largest} of {}",
        rez.len()
    );
}

#[test]
fn a_level_lists_its_planes_and_the_shown_plane_s_objects() {
    let data = wap_core::synth::level(7, 40, 24);
    let file = data.to_file(true).unwrap();
    let mut library = Library::new();
    library.add_file("levels/SYNTH.WWD", file.clone());
    library.scan();
    let owned = wap_core::LevelFile::from_data(file, &Default::default()).unwrap();
    let level = owned.view().unwrap();
    let names: Vec<String> = level
        .planes()
        .map(|p| String::from_utf8_lossy(p.unwrap().name()).into_owned())
        .collect();
    assert!(names.len() >= 2, "{names:?}");
    let info = library.level_info("wwd/SYNTH").unwrap();
    assert_eq!(info.planes, names);
    let main = level.main_plane().unwrap().unwrap();
    assert_eq!(info.shown, String::from_utf8_lossy(main.name()));
    let objects: Vec<(i32, i32)> = main.objects().map(|o| o.unwrap().position()).collect();
    assert!(!objects.is_empty());
    let listed: Vec<(i32, i32)> = info.objects.iter().map(|o| (o.x, o.y)).collect();
    assert_eq!(listed, objects);
    assert!(info.objects_error.is_none());
    assert_eq!(info.archive, None);
    // Another plane by name (any case): its own objects.
    let other = level
        .planes()
        .map(|p| p.unwrap())
        .find(|p| p.index() != main.index())
        .unwrap();
    let name = String::from_utf8_lossy(other.name()).to_lowercase();
    let info = library
        .level_info(&format!("wwd/SYNTH?plane={name}"))
        .unwrap();
    assert_eq!(info.shown, String::from_utf8_lossy(other.name()));
    assert_eq!(info.objects.len(), other.objects().count());
    let e = library.level_info("wwd/SYNTH?plane=NOPE").unwrap_err();
    assert!(
        format!("{e:#}").contains("no plane named \"NOPE\""),
        "{e:#}"
    );
    let e = library.level_info("cosmo/A1").unwrap_err();
    assert!(format!("{e:#}").contains("no map cosmo/A1"), "{e:#}");
}
