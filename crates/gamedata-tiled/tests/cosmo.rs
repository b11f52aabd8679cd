//! Cosmo maps exported to Tiled (`gamedata_tiled::cosmo`) and drawn by Tiled's own renderer
//! (`tmxrasterizer`, headless): its picture equals, pixel for pixel, the map as
//! `gamedata_render::cosmo::draw_level` draws it (what `gamedata cosmo map --render`
//! writes), with and without the backdrop and the actors, in TMX and TMJ. Without
//! tmxrasterizer the pixel tests say so and pass, but under CI.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects
)]

use std::path::Path;

mod common;
use common::{have_tmxrasterizer, rasterize};

use gamedata_render::cosmo::{LayerOptions, draw_level};
use gamedata_tiled::TiledError;
use gamedata_tiled::cosmo::{BackdropForm, ExportOptions, export};
use gamedata_tiled::map::{FLIP_VERTICAL, LayerData};
use mni_core::{Episode, synth};
use wap_core::Limits;

/// Exports `name` of `episode` into `dir` as `map.tmx` or `map.tmj` (`tmj`) with its images,
/// draws it with tmxrasterizer and with `draw_level`, and returns the pixels that differ.
fn differing(
    episode: &Episode<'_>,
    name: &str,
    layers: LayerOptions,
    tmj: bool,
    dir: &Path,
) -> u64 {
    let map = episode.level(name).unwrap().unwrap();
    let form = if tmj {
        BackdropForm::Tiles
    } else {
        BackdropForm::ImageLayer
    };
    let options = ExportOptions::default()
        .with_images_dir("map_images")
        .with_backdrop(layers.backdrop.then_some(form))
        .with_actors(layers.actors);
    let export = export(episode, &map, &options, &Limits::default()).unwrap();
    for image in &export.images {
        let path = dir.join(&image.path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let pixels = gamedata_render::PngPixels::Image(&image.image);
        let out = std::fs::File::create(path).unwrap();
        gamedata_render::write_png(out, pixels, &Default::default()).unwrap();
    }
    let path = dir.join(if tmj { "map.tmj" } else { "map.tmx" });
    let file = std::fs::File::create(&path).unwrap();
    if tmj {
        gamedata_tiled::tmj::write_tmj(&export.map, file).unwrap();
    } else {
        gamedata_tiled::tmx::write_tmx(&export.map, file).unwrap();
    }
    let want = draw_level(episode, &map, &layers).unwrap().image;
    let (w, h, got) = rasterize(&path);
    assert_eq!((w, h), (want.width(), want.height()), "{name}");
    got.chunks_exact(3)
        .zip(want.pixels().chunks_exact(4))
        .filter(|(a, b)| a[..] != b[..3] || b[3] != 255)
        .count() as u64
}

#[test]
fn synthetic_maps_are_drawn_by_tiled_as_cosmo_map_render_draws_them() {
    if !have_tmxrasterizer() {
        return;
    }
    let e = synth::episode().unwrap();
    let episode = Episode::parse(&e.stn, &e.vol).unwrap();
    let all = LayerOptions {
        backdrop: true,
        actors: true,
        attributes: false,
    };
    for (name, _, _) in synth::MAPS {
        for (layers, tmj) in [
            (all, false),
            (all, true),
            (LayerOptions::default(), false),
            (
                LayerOptions {
                    actors: true,
                    ..LayerOptions::default()
                },
                true,
            ),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let n = differing(&episode, name, layers, tmj, dir.path());
            assert_eq!(n, 0, "{name} {layers:?} tmj {tmj}: {n} pixels differ");
        }
    }
}

#[test]
fn the_export_holds_the_layers_actors_and_tilesets_described() {
    let e = synth::episode().unwrap();
    let episode = Episode::parse(&e.stn, &e.vol).unwrap();
    let map = episode.level("A2.MNI").unwrap().unwrap();
    let options = ExportOptions::default()
        .with_images_dir("a2_images")
        .with_backdrop(Some(BackdropForm::ImageLayer))
        .with_actors(true);
    let export = export(&episode, &map, &options, &Limits::default()).unwrap();
    let m = &export.map;
    assert_eq!((m.width, m.height, m.tile_width), (64, 512, 8));
    let names: Vec<&str> = m.layers.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(
        names,
        ["backdrop", "tiles", "below 80", "actors", "in front"]
    );
    assert!(matches!(&m.layers[0].data, LayerData::Image(i) if i.repeat_x && i.repeat_y));
    assert!(!m.layers[2].visible);
    // Every cell names a tile of a tileset, and every layer is the map's size.
    let last = m
        .tilesets
        .iter()
        .map(|t| t.first_gid + t.tile_count)
        .max()
        .unwrap();
    for layer in &m.layers {
        if let LayerData::Tiles(cells) = &layer.data {
            assert_eq!(cells.len(), 64 * 512);
            assert!(cells.iter().all(|&g| g < last), "{}", layer.name);
        }
    }
    // One object an actor, drawn as draw_level draws them.
    let drawn = draw_level(
        &episode,
        &map,
        &LayerOptions {
            actors: true,
            ..LayerOptions::default()
        },
    )
    .unwrap()
    .actors
    .unwrap();
    assert_eq!(m.objects().count(), map.actors().len());
    assert_eq!(export.report.actors_drawn, drawn.drawn as u64);
    assert_eq!(export.report.actors_special, drawn.special as u64);
    assert_eq!(
        m.objects().filter(|o| o.visible && o.gid.is_some()).count(),
        drawn.drawn
    );
    assert!(m.objects().all(|o| o.gid.unwrap_or(0) & FLIP_VERTICAL == 0
        || o.properties.iter().any(|p| p.name == "cosmo_draw")));
    // The images the map names are the images exported, and the other way round.
    let mut named: Vec<&str> = m
        .tilesets
        .iter()
        .flat_map(|t| {
            t.image
                .iter()
                .chain(t.tiles.iter().filter_map(|x| x.image.as_ref()))
        })
        .map(|i| i.0.as_str())
        .chain(m.layers.iter().filter_map(|l| match &l.data {
            LayerData::Image(i) => Some(i.image.0.as_str()),
            _ => None,
        }))
        .collect();
    let mut written: Vec<&str> = export.images.iter().map(|i| i.path.as_str()).collect();
    named.sort_unstable();
    named.dedup();
    written.sort_unstable();
    assert_eq!(named, written);
    assert!(written.iter().all(|p| p.starts_with("a2_images/")));
}

#[test]
fn an_export_past_the_limit_is_refused() {
    let e = synth::episode().unwrap();
    let episode = Episode::parse(&e.stn, &e.vol).unwrap();
    let map = episode.level("A1.MNI").unwrap().unwrap();
    let options = ExportOptions::default().with_actors(true);
    let limits = Limits::default().with_max_decoded_bytes(1000);
    assert!(matches!(
        export(&episode, &map, &options, &limits),
        Err(TiledError::TooLarge { .. })
    ));
}

/// A1.MNI of the real episode 1, with its backdrop and actors, in TMX and TMJ; then every
/// other map of the episode in TMX (among them the ceiling actors drawn flipped).
#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files, and tmxrasterizer"]
fn real_maps_are_drawn_by_tiled_as_cosmo_map_render_draws_them() {
    let dir = gamedata_testkit::require_file("cosmo");
    if !have_tmxrasterizer() {
        return;
    }
    let files = mni_core::EpisodeFiles::open(&dir, 1).unwrap();
    let episode = files.view().unwrap();
    let all = LayerOptions {
        backdrop: true,
        actors: true,
        attributes: false,
    };
    for tmj in [false, true] {
        let out = tempfile::tempdir().unwrap();
        let n = differing(&episode, "A1.MNI", all, tmj, out.path());
        assert_eq!(n, 0, "A1.MNI tmj {tmj}: {n} pixels differ");
    }
    let (mut maps, mut flipped) = (0, 0);
    for entry in episode.level_names() {
        let name = entry.name_lossy().into_owned();
        let map = episode.level(&name).unwrap().unwrap();
        flipped += map
            .actors()
            .filter(|a| {
                matches!(a.kind, mni_core::ActorKind::Normal(t)
                    if mni_core::ActorSprite::of(t)
                        .is_some_and(|s| s.draw == mni_core::ActorDraw::Flipped))
            })
            .count();
        let out = tempfile::tempdir().unwrap();
        let n = differing(&episode, &name, all, false, out.path());
        eprintln!("{name}: {n} pixels differ");
        assert_eq!(n, 0, "{name}: {n} pixels differ");
        maps += 1;
    }
    eprintln!("{maps} maps, {flipped} flipped actors");
    assert!(maps > 1);
}

/// Maps at the edges of what the format holds: every actor type the game knows and some it
/// does not, at the map's corners and past them, special actors, tile values over the whole
/// u16 range (masked images past their table), every backdrop number; then the same bytes
/// mutated. Each export is a map or an error, never a panic, and its layers are the map's
/// size.
#[test]
fn maps_at_the_edges_and_mutated_export_or_fail_cleanly() {
    use mni_core::{Actor, ActorKind, MapFlags, write_map};
    let e = synth::episode().unwrap();
    let episode = Episode::parse(&e.stn, &e.vol).unwrap();
    let mut actors = Vec::new();
    for t in (0..300u16).step_by(3) {
        for (x, y) in [(0, 0), (31, 1023), (65535, 65535), (5, 0)] {
            actors.push(Actor {
                kind: ActorKind::Normal(t),
                x,
                y,
            });
        }
    }
    actors.push(Actor {
        kind: ActorKind::Special(3),
        x: 1,
        y: 1,
    });
    let tiles: Vec<u16> = (0..32764u32).map(|i| (i * 2003 % 65536) as u16).collect();
    let forms = [
        ExportOptions::default()
            .with_backdrop(Some(BackdropForm::ImageLayer))
            .with_actors(true),
        ExportOptions::default()
            .with_backdrop(Some(BackdropForm::Tiles))
            .with_actors(true),
    ];
    let mut exported = 0;
    let known = episode.level("A2.MNI").unwrap().unwrap().flags().backdrop;
    for backdrop in [known, 0, 25, 31] {
        let flags = MapFlags {
            backdrop,
            ..MapFlags::default()
        };
        let bytes = write_map(flags, 32, &actors, &tiles).unwrap();
        let mut state = u64::from(backdrop) + 1;
        for round in 0..40 {
            let mut b = bytes.clone();
            if round > 0 {
                for _ in 0..8 {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let at = (state >> 33) as usize % b.len().min(4096);
                    b[at] ^= (state >> 20) as u8;
                }
            }
            let Ok(map) = mni_core::Map::parse(&b) else {
                continue;
            };
            for options in &forms {
                match export(&episode, &map, options, &Limits::default()) {
                    Ok(x) => {
                        exported += 1;
                        let cells = (x.map.width * x.map.height) as usize;
                        for layer in &x.map.layers {
                            if let LayerData::Tiles(c) = &layer.data {
                                assert_eq!(c.len(), cells);
                            }
                        }
                        assert_eq!(x.map.objects().count(), map.actors().len());
                        if round == 0 {
                            assert!(x.report.missing > 0 && !x.report.actors_not_drawn.is_empty());
                        }
                    }
                    // The synthetic VOL holds one backdrop: the others are errors.
                    Err(TiledError::Cosmo(_)) => {}
                    Err(other) => panic!("{other}"),
                }
            }
        }
    }
    assert!(exported > 0);
}
