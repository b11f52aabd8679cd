//! Tests of the Cosmo renderers.

// Test coordinates are small: u32 pixel positions / 8 fit u16 tile positions.
#![allow(clippy::cast_possible_truncation)]

use mni_core::{
    Actor, ActorKind, ActorSprites, Episode, ErrorKind, MapFlags, MapTile, MaskedTiles, SolidTiles,
    synth, write_map,
};

use super::*;

#[test]
fn draw_level_layers_in_the_game_s_order() {
    let e = synth::episode().unwrap();
    let episode = Episode::parse(&e.stn, &e.vol).unwrap();
    let map = episode.level("A2.MNI").unwrap().unwrap();
    let (images, attrs) = (
        episode.tile_images().unwrap(),
        episode.tile_attributes().unwrap(),
    );
    let sprites = episode.sprites().unwrap();
    // By hand: backdrop, tiles, actors, overlay.
    let mut image = map_image(&map, BACKGROUND).unwrap();
    draw_backdrop(
        &mut image,
        &episode.backdrop(map.flags().backdrop).unwrap().unwrap(),
    );
    draw_tiles(&mut image, &map, &images);
    let by_hand = draw_actors(&mut image, &map, &sprites, &images, &attrs);
    overlay_attributes(&mut image, &map, &attrs);
    let all = LayerOptions {
        backdrop: true,
        actors: true,
        attributes: true,
    };
    let level = draw_level(&episode, &map, &all).unwrap();
    assert!(level.image.pixels() == image.pixels());
    assert_eq!(level.actors, Some(by_hand));
    assert_eq!(
        level.backdrop,
        Some(BackdropDrawn {
            number: map.flags().backdrop,
            entry: "BDROCKTK.MNI"
        })
    );
    let plain = draw_level(&episode, &map, &LayerOptions::default()).unwrap();
    let tiles = draw_map(&map, &images, BACKGROUND).unwrap();
    assert!(plain.image.pixels() == tiles.image.pixels());
    assert_eq!((plain.drawn, plain.missing), (tiles.drawn, tiles.missing));
}

#[test]
fn draws_tiles_at_their_cells_and_skips_commands() {
    // The synthetic tile set; pixel decoding itself is tested in mni-core.
    let (solid, masked) = (synth::solid_tiles(), synth::masked_tiles());
    let images = TileImages {
        solid: SolidTiles::parse(&solid).unwrap(),
        masked: MaskedTiles::parse(&masked).unwrap(),
    };
    let grass = MapTile::Solid(synth::solid::GRASS);
    let flower = MapTile::Masked(synth::masked::FLOWER);
    let mut tiles = vec![0u16; 32_764];
    tiles[0] = synth::solid_value(synth::solid::GRASS); // (0, 0)
    tiles[1] = synth::masked_value(synth::masked::FLOWER); // (1, 0)
    tiles[2] = 72; // solid 9: a value below 80, not drawn
    tiles[32 + 3] = 8 * 500; // solid 500 at (3, 1): no such image
    let bytes = write_map(MapFlags::default(), 32, &[], &tiles).unwrap();
    let map = Map::parse(&bytes).unwrap();
    let bg = [1, 2, 3, 255];
    let r = draw_map(&map, &images, bg).unwrap();
    assert_eq!((r.image.width, r.image.height), (256, 8192));
    assert_eq!((r.drawn, r.missing), (2, 1));
    // Every pixel of the two drawn cells is its tile's pixel, or the background where
    // the masked tile is transparent.
    for (tile, x0) in [(grass, 0), (flower, 8)] {
        let pixels = images.pixels(tile).unwrap();
        for (dy, row) in (0u32..).zip(pixels) {
            for (dx, p) in (0u32..).zip(row) {
                let want = p.map_or(bg, ega_rgba);
                assert_eq!(r.image.get(x0 + dx, dy), Some(want), "{tile:?} {dx},{dy}");
            }
        }
    }
    assert!(
        images
            .pixels(flower)
            .unwrap()
            .iter()
            .flatten()
            .any(Option::is_none),
        "the flower has transparent pixels, so the background check above means something"
    );
    for (x, y, why) in [(16, 0, "value 72 is not drawn"), (24, 8, "missing image")] {
        for d in 0..8 {
            assert_eq!(r.image.get(x + d, y + d), Some(bg), "{why}");
        }
    }
    assert_eq!(r.image.get(256, 0), None);
}

/// A 32-wide map of actors and tiles, the synthetic sprites and tile images, and a
/// TILEATTR.MNI giving the flower the "in front" attribute: the files' bytes.
struct Scene {
    map: Vec<u8>,
    info: Vec<u8>,
    actor_tiles: Vec<u8>,
    solid: Vec<u8>,
    masked: Vec<u8>,
    attrs: Vec<u8>,
}

impl Scene {
    /// `actors` on a map with `tiles` set (cell index, value).
    fn new(actors: &[Actor], tiles: &[(usize, u16)]) -> Scene {
        let mut values = vec![0u16; 32_764];
        for &(i, v) in tiles {
            values[i] = v;
        }
        let mut attrs = vec![0u8; 7000];
        attrs[usize::from(synth::masked_value(synth::masked::FLOWER) / 8)] =
            TileAttributes::IN_FRONT;
        let (info, actor_tiles) = synth::sprites();
        Scene {
            map: write_map(MapFlags::default(), 32, actors, &values).unwrap(),
            info,
            actor_tiles,
            solid: synth::solid_tiles(),
            masked: synth::masked_tiles(),
            attrs,
        }
    }

    /// The views, ACTORS.MNI cut to `actor_bytes` bytes.
    fn views(
        &self,
        actor_bytes: usize,
    ) -> (Map<'_>, ActorSprites<'_>, TileImages<'_>, TileAttrTable<'_>) {
        let tiles = &self.actor_tiles[..actor_bytes.min(self.actor_tiles.len())];
        (
            Map::parse(&self.map).unwrap(),
            ActorSprites::parse(&self.info, tiles).unwrap(),
            TileImages {
                solid: SolidTiles::parse(&self.solid).unwrap(),
                masked: MaskedTiles::parse(&self.masked).unwrap(),
            },
            TileAttrTable::parse(&self.attrs).unwrap(),
        )
    }
}

fn normal(actor_type: u16, x: u16, y: u16) -> Actor {
    Actor {
        kind: ActorKind::Normal(actor_type),
        x,
        y,
    }
}

#[test]
fn actors_stand_on_their_shifted_bottom_left_tile() {
    // Actor type 4 (the east arrow piston): sprite type 4, shifted 4 tiles west; the
    // synthetic sprite 4 is 2 x 2 tiles. At (10, 5) its bottom-left tile is (6, 5).
    let scene = Scene::new(&[normal(4, 10, 5)], &[]);
    let (map, sprites, images, attrs) = scene.views(usize::MAX);
    let bg = [1, 2, 3, 255];
    let mut image = map_image(&map, bg).unwrap();
    let r = draw_actors(&mut image, &map, &sprites, &images, &attrs);
    assert_eq!(
        (r.drawn, r.hidden, r.special, r.not_drawn.total()),
        (1, 0, 0, 0)
    );
    let frame = sprites.frame(4, 0).unwrap().unwrap();
    assert_eq!((frame.width, frame.height), (2, 2));
    let mut opaque = 0;
    for y in 0..64u32 {
        for x in 0..96u32 {
            let (col, row) = (x / 8, y / 8);
            let inside = (6..8).contains(&col) && (4..6).contains(&row);
            let want = if inside {
                let p = frame.tile_pixels(col as u16 - 6, row as u16 - 4).unwrap();
                p[(y % 8) as usize][(x % 8) as usize].map_or(bg, ega_rgba)
            } else {
                bg
            };
            opaque += usize::from(want != bg);
            assert_eq!(image.get(x, y), Some(want), "{x},{y}");
        }
    }
    assert!(opaque > 100, "the sprite has opaque pixels: {opaque}");
}

#[test]
fn ceiling_actors_are_flipped_and_in_front_tiles_cover_sprites() {
    // Actor type 96 (the ceiling eye plant): sprite type 95 (3 x 2 tiles here), shifted
    // one tile south, flipped top to bottom. At (2, 3): bottom-left (2, 4), top-left (2, 3).
    // A flower (in front of sprites) at cell (3, 3).
    let flower = synth::masked_value(synth::masked::FLOWER);
    let scene = Scene::new(&[normal(96, 2, 3)], &[(3 * 32 + 3, flower)]);
    let (map, sprites, images, attrs) = scene.views(usize::MAX);
    let bg = [1, 2, 3, 255];
    let mut image = map_image(&map, bg).unwrap();
    draw_tiles(&mut image, &map, &images);
    let r = draw_actors(&mut image, &map, &sprites, &images, &attrs);
    assert_eq!((r.drawn, r.in_front), (1, 1));
    let frame = sprites.frame(95, 0).unwrap().unwrap();
    assert_eq!((frame.width, frame.height), (3, 2));
    let flower_pixels = images
        .pixels(MapTile::Masked(synth::masked::FLOWER))
        .unwrap();
    let (mut flower_seen, mut sprite_under_flower) = (0, 0);
    for y in 0..16u32 {
        for x in 0..24u32 {
            // Frame pixel (x, 15 - y): the picture is the frame upside down.
            let fy = 15 - y;
            let p = frame.tile_pixels((x / 8) as u16, (fy / 8) as u16).unwrap();
            let mut want = p[(fy % 8) as usize][(x % 8) as usize].map_or(bg, ega_rgba);
            if (8..16).contains(&x) && y < 8 {
                match flower_pixels[y as usize][(x - 8) as usize] {
                    Some(c) => {
                        want = ega_rgba(c);
                        flower_seen += 1;
                    }
                    None => sprite_under_flower += usize::from(want != bg),
                }
            }
            assert_eq!(image.get(16 + x, 24 + y), Some(want), "{x},{y}");
        }
    }
    assert!(flower_seen > 0 && sprite_under_flower > 0);
}

#[test]
fn actors_that_cannot_be_drawn_are_listed_and_the_rest_drawn() {
    let actors = [
        Actor {
            kind: ActorKind::Special(0),
            x: 1,
            y: 1,
        },
        normal(15, 2, 2),  // no actor type 15
        normal(165, 3, 3), // an end-of-episode trigger: never shown
        normal(1, 4, 4),   // sprite type 1: past the cut ACTORS.MNI below
        normal(0, 5, 5),   // sprite type 0: its one tile is there
    ];
    let scene = Scene::new(&actors, &[]);
    // Sprite type 0 is one tile, 40 bytes; sprite type 1 starts after it.
    let (map, sprites, images, attrs) = scene.views(40);
    let mut image = map_image(&map, BACKGROUND).unwrap();
    let r = draw_actors(&mut image, &map, &sprites, &images, &attrs);
    assert_eq!((r.drawn, r.hidden, r.special), (1, 1, 1));
    let kept = r.not_drawn.kept();
    assert_eq!(kept.len(), 2);
    assert_eq!((kept[0].index, kept[0].why), (1, NotDrawn::UnknownType));
    assert_eq!(
        kept[0].to_string(),
        "actor 1 (type 15) at tile (2, 2): the game defines no actor of this type"
    );
    assert!(
        matches!(
            kept[1].why,
            NotDrawn::Frame {
                sprite: 1,
                error: ErrorKind::FrameData { file_len: 40, .. }
            }
        ),
        "{:?}",
        kept[1]
    );
}

#[test]
fn the_backdrop_repeats_from_the_top_left() {
    let bytes = synth::backdrop();
    let backdrop = Backdrop::parse(&bytes).unwrap();
    let mut image = RgbaImage::new(700, 300, BACKGROUND).unwrap();
    draw_backdrop(&mut image, &backdrop);
    for (x, y) in [
        (0, 0),
        (19, 3),
        (319, 143),
        (320, 144),
        (333, 150),
        (699, 299),
    ] {
        let (bx, by) = (x % 320, y % 144);
        let tile = backdrop.tile((bx / 8) as u16, (by / 8) as u16).unwrap();
        let want = ega_rgba(tile.pixels()[(by % 8) as usize][(bx % 8) as usize]);
        assert_eq!(image.get(x, y), Some(want), "{x},{y}");
    }
    // Bands of different blues: the picture is not one colour.
    assert_ne!(image.get(0, 0), image.get(0, 100));
}

#[test]
fn overlay_marks_standable_tiles_on_their_top_edge() {
    let mut attrs = vec![0u8; 7000];
    attrs[10] = TileAttributes::BLOCK_SOUTH; // value 80
    let attrs = TileAttrTable::parse(&attrs).unwrap();
    let mut tiles = vec![0u16; 32_764];
    tiles[0] = 80;
    let bytes = write_map(MapFlags::default(), 32, &[], &tiles).unwrap();
    let map = Map::parse(&bytes).unwrap();
    let mut image = RgbaImage::new(256, 8192, BACKGROUND).unwrap();
    overlay_attributes(&mut image, &map, &attrs);
    // Yellow at 218/256 over black: 255 * 218 / 256 = 217, 230 * 218 / 256 = 195.
    assert_eq!(image.get(3, 0), Some([217, 195, 0, 255]));
    assert_eq!(image.get(3, 1), Some([217, 195, 0, 255]));
    assert_eq!(
        image.get(3, 2),
        Some(BACKGROUND),
        "the bar is two pixels high"
    );
    assert_eq!(
        image.get(8, 0),
        Some(BACKGROUND),
        "the next cell blocks nothing"
    );
}
