//! The renderers on the real files of `$GAMEDATA_DIR`, with the properties of
//! `gamedata_exercise::render` checked on each picture: the pre-alpha facet's radar map
//! (its map and statics, coloured by the High Seas radarcol.mul), every plane of every
//! real level, every map of Cosmo's episode 1.

use gamedata_exercise::render::{check_collision, check_draw, check_radar};
use gamedata_render::mni_core::{Episode, EpisodeFiles};
use gamedata_render::mul_core::{FacetFiles, FacetOptions, MapSize, RadarColours};
use gamedata_render::uo::{RadarOptions, RadarStyle, radar};
use gamedata_render::wap_core::LevelFile;
use gamedata_render::{Region, wwd};
use gamedata_testkit::require_file;

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn prealpha_radar_map_is_its_tiles_averaged() {
    let options = FacetOptions::default().with_size(MapSize::from_tiles(1024, 1024).unwrap());
    let files = FacetFiles::open_with(require_file("uo/prealpha"), 0, &options).unwrap();
    let facet = files.view().unwrap();
    let radarcol = std::fs::read(require_file("uo/hs/radarcol.mul")).unwrap();
    let colours = RadarColours::parse(&radarcol).unwrap();
    // The whole map at scale 1 checked tile by tile, and averaged at 8; a region past the
    // edge refused, then drawn clipped at 3.
    let whole = Region::whole(1024, 1024);
    let flat = (false, RadarStyle::Flat);
    assert!(check_radar(&facet, &colours, whole, 8, flat) > 128 * 128 * 255);
    let shaded = (true, RadarStyle::Flat);
    let past = Region::new(1000, 10, 100, 30);
    assert!(check_radar(&facet, &colours, past, 3, shaded) > 8 * 10 * 255);
    // The client's rule (the folder's TILEDATA.MUL and HUES.MUL) and its heights, tile by
    // tile, with the relief at the map's edges and along a region's.
    assert!(facet.tiledata.is_some() && facet.hues.is_some());
    for style in [RadarStyle::Client, RadarStyle::Altitude] {
        assert!(check_radar(&facet, &colours, whole, 8, (false, style)) > 128 * 128 * 255);
        assert!(check_radar(&facet, &colours, past, 3, (false, style)) > 8 * 10 * 255);
    }
    // Not one colour: the map has water, land and statics.
    let small = radar(
        &facet,
        &colours,
        &RadarOptions {
            scale: 16,
            ..RadarOptions::default()
        },
    )
    .unwrap();
    let mut distinct: Vec<&[u8]> = small.pixels().chunks_exact(4).collect();
    distinct.sort_unstable();
    distinct.dedup();
    assert!(distinct.len() > 100, "{} colours", distinct.len());
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn every_plane_of_every_real_level_draws() {
    let dir = require_file("wwd");
    let mut planes = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(file) = LevelFile::open(&path) else {
            continue;
        };
        let Ok(level) = file.view() else {
            continue;
        };
        let index = level.tile_properties().and_then(|t| t.collect()).unwrap();
        for plane in level.planes() {
            let plane = plane.unwrap();
            let tile_px = wwd::default_tile_px(&plane).min(4);
            let counted = check_collision(&plane, &index, tile_px, false);
            let pixels = u64::from(plane.tiles_wide() * plane.tiles_high() * tile_px * tile_px);
            assert!(counted >= pixels, "{name}: {counted} < {pixels}");
            planes += 1;
        }
    }
    assert!(planes >= 60, "{planes} planes");
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn every_map_of_episode_one_draws_with_no_missing_tile() {
    let files = EpisodeFiles::open(require_file("cosmo"), 1).unwrap();
    let episode: Episode<'_> = files.view().unwrap();
    let images = episode.tile_images().unwrap();
    let attrs = episode.tile_attributes().unwrap();
    let mut maps = 0;
    for entry in episode.level_names() {
        let map = episode.level(&entry.name_lossy()).unwrap().unwrap();
        let drawn = check_draw(&map, &images, Some(&attrs));
        assert!(drawn > 1000, "{}", entry.name_lossy());
        let picture = gamedata_render::cosmo::draw_map(&map, &images, [0, 0, 0, 255]).unwrap();
        assert_eq!(picture.missing, 0, "{}", entry.name_lossy());
        maps += 1;
    }
    assert!(maps >= 13, "{maps} maps");
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn every_map_of_episode_one_draws_with_its_actors_and_backdrop() {
    use gamedata_render::cosmo::{draw_actors, draw_backdrop, draw_tiles, map_image};

    let files = EpisodeFiles::open(require_file("cosmo"), 1).unwrap();
    let episode: Episode<'_> = files.view().unwrap();
    let images = episode.tile_images().unwrap();
    let attrs = episode.tile_attributes().unwrap();
    let sprites = episode.sprites().unwrap();
    // (map, actors drawn, hidden, special) from tools/reference/cosmo_actors.py (its
    // output, goldens/cosmo_actors.json), which counts them over the raw bytes with
    // Cosmodoc's actor table: every normal actor has frames; the hidden ones are the exit
    // lines, smoke emitters and end triggers.
    let facts = gamedata_testkit::reference("cosmo_actors.json");
    let facts = facts.as_object().unwrap();
    assert_eq!(facts.len(), 13);
    let count = |v: &serde_json::Value| v.as_u64().unwrap() as usize;
    let expected: Vec<_> = facts
        .iter()
        .map(|(name, c)| {
            assert_eq!(c["not_drawn"], 0, "{name}");
            (
                name.as_str(),
                count(&c["drawn"]),
                count(&c["hidden"]),
                count(&c["special"]),
            )
        })
        .collect();
    // The script's figures for the first and the busiest maps, as counted when the
    // renderer was written.
    assert!(expected.contains(&("A1.MNI", 269, 0, 1)));
    assert!(expected.contains(&("A10.MNI", 308, 0, 129)));
    for (name, drawn, hidden, special) in expected {
        let map = episode.level(name).unwrap().unwrap();
        let mut image = map_image(&map, [0, 0, 0, 255]).unwrap();
        draw_backdrop(
            &mut image,
            &episode.backdrop(map.flags().backdrop).unwrap().unwrap(),
        );
        // The backdrop covers the whole picture: no black left but the backdrop's own.
        let tiles_only = gamedata_render::cosmo::draw_map(&map, &images, [0, 0, 0, 255]).unwrap();
        draw_tiles(&mut image, &map, &images);
        let before_actors = image.clone();
        let r = draw_actors(&mut image, &map, &sprites, &images, &attrs);
        assert_eq!(
            (r.drawn, r.hidden, r.special, r.not_drawn.total()),
            (drawn, hidden, special, 0),
            "{name}"
        );
        assert_ne!(
            image.pixels(),
            before_actors.pixels(),
            "{name}: actors drawn"
        );
        assert_ne!(
            before_actors.pixels(),
            tiles_only.image.pixels(),
            "{name}: backdrop drawn"
        );
        // draw_level owns that order: the same pixels and counts, and with no layer the
        // tiles alone; the overlay goes on top of everything.
        use gamedata_render::cosmo::{LayerOptions, draw_level, overlay_attributes};
        let both = LayerOptions {
            backdrop: true,
            actors: true,
            attributes: false,
        };
        let level = draw_level(&episode, &map, &both).unwrap();
        assert!(
            level.image.pixels() == image.pixels(),
            "{name}: layered as by hand"
        );
        assert_eq!(
            level.actors.as_ref().map(|a| a.drawn),
            Some(drawn),
            "{name}"
        );
        let backdrop = level.backdrop.unwrap();
        assert_eq!(backdrop.number, map.flags().backdrop, "{name}");
        assert!(backdrop.entry.starts_with("BD") && backdrop.entry.ends_with(".MNI"));
        let plain = draw_level(&episode, &map, &LayerOptions::default()).unwrap();
        assert!(
            plain.image.pixels() == tiles_only.image.pixels(),
            "{name}: tiles alone"
        );
        assert!(plain.backdrop.is_none() && plain.actors.is_none());
        let all = draw_level(
            &episode,
            &map,
            &LayerOptions {
                attributes: true,
                ..both
            },
        )
        .unwrap();
        overlay_attributes(&mut image, &map, &attrs);
        assert!(
            all.image.pixels() == image.pixels(),
            "{name}: overlay on top"
        );
    }
}
