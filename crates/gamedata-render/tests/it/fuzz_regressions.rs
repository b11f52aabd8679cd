//! Replays each renderer's fuzz seeds and the kept findings, with truncations and seeded
//! byte and bit changes, through `gamedata_exercise::render`: its properties hold, whatever
//! the bytes.

use std::path::Path;

use gamedata_exercise::render as exercise;
use gamedata_testkit::{MutationPlan, replay_crate_regressions};

/// Fewer changes than the default for the renderers that draw whole planes and maps per
/// input: the fuzz campaign goes deeper.
const LIGHT: MutationPlan = MutationPlan {
    seed: 0x6A4D_E7A1,
    byte_changes: 128,
    bit_flips: 128,
};

fn seed(target: &str, name: &str) -> Vec<u8> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::read(root.join("../../fuzz/seeds").join(target).join(name)).unwrap()
}

#[test]
fn radar_seeds_and_their_mutations_keep_the_properties() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runs = replay_crate_regressions(root, "uo_radar", 6, MutationPlan::default(), |data| {
        exercise::uo_radar(data);
    });
    assert!(runs > 1000, "{runs} runs");
}

#[test]
fn radar_seeds_draw_their_pictures() {
    // 24 x 16 tiles at scale 1 (every pixel checked against its tile), then a region
    // 19 x 13 at (5, 3), clipped from 41 x 41, at scale 3: 7 x 5 pixels; each result is
    // the sum of the picture's bytes, so it is above the alpha bytes alone.
    let whole = exercise::uo_radar(&seed("uo_radar", "synthetic_3x2_blocks"));
    assert!(whole > 24 * 16 * 255, "{whole}");
    let clipped = exercise::uo_radar(&seed("uo_radar", "synthetic_scale_3_clipped"));
    assert!(clipped > 1 + 7 * 5 * 255, "{clipped}");
    // The whole facet hillshaded at scale 2: 12 x 8 pixels.
    let shaded = exercise::uo_radar(&seed("uo_radar", "synthetic_scale_2_hillshaded"));
    assert!(shaded > 12 * 8 * 255, "{shaded}");
    // The client's rule with hued statics and a tree the client leaves out, every pixel
    // checked against its tile; the altitude of an 18 x 12 region at scale 2: 9 x 6
    // pixels; the client style without hues refused (1).
    let client = exercise::uo_radar(&seed("uo_radar", "synthetic_client_hued"));
    assert!(client > 24 * 16 * 255, "{client}");
    let altitude = exercise::uo_radar(&seed("uo_radar", "synthetic_altitude_scale_2"));
    assert!(altitude > 9 * 6 * 255, "{altitude}");
    let refused = exercise::uo_radar(&seed("uo_radar", "synthetic_client_without_hues"));
    assert_eq!(refused, 1);
}

#[test]
fn collision_seeds_and_their_mutations_keep_the_properties() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runs = replay_crate_regressions(root, "wwd_collision", 2, LIGHT, |data| {
        exercise::wwd_collision(data);
    });
    assert!(runs > 1000, "{runs} runs");
}

#[test]
fn collision_seeds_draw_every_plane() {
    // The first synthetic level has three planes of 8 x 8, 16 x 16 and 16 x 8 tiles of 64
    // pixels (`gamedata wwd info`): each is drawn small and at 64 pixels a tile, its counts
    // checked pixel by pixel. The wider
    // one's main plane (48 x 8 tiles) is past the exact render's 2^20 pixels: drawn small.
    let small = exercise::wwd_collision(&seed("wwd_collision", "synthetic_compressed"));
    assert!(small >= (8 * 8 + 16 * 16 + 16 * 8) * 64 * 64, "{small}");
    let wide = exercise::wwd_collision(&seed("wwd_collision", "synthetic_wide_plain"));
    assert!(wide >= 48 * 8, "{wide}");
}

#[test]
fn level_picture_seeds_and_their_mutations_keep_the_properties() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runs = replay_crate_regressions(root, "wwd_level_picture", 2, LIGHT, |data| {
        exercise::wwd_level_picture(data);
    });
    assert!(runs > 500, "{runs} runs");
    // The synthetic level (three planes of up to 16 x 16 tiles) at 4 pixels a tile, whole
    // and in stripes: its pixels sum past the alpha bytes of its 64 x 64 picture.
    let all = exercise::wwd_level_picture(&seed("wwd_level_picture", "synthetic_all_planes"));
    assert!(all > 64 * 64 * 255, "{all}");
    // Its third plane alone (16 x 8 tiles) at 1 pixel a tile: past its alpha bytes.
    let one =
        exercise::wwd_level_picture(&seed("wwd_level_picture", "synthetic_one_plane_no_objects"));
    assert!(one > 16 * 8 * 255, "{one}");
    // A 64 x 48 view: past its alpha bytes.
    let view =
        exercise::wwd_level_picture(&seed("wwd_level_picture", "synthetic_view_with_markers"));
    assert!(view > 64 * 48 * 255, "{view}");
}

#[test]
fn cosmo_seeds_and_their_mutations_keep_the_properties() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runs = replay_crate_regressions(root, "cosmo_draw", 1, LIGHT, |data| {
        exercise::cosmo_draw(data);
    });
    assert!(runs > 500, "{runs} runs");
    let drawn = exercise::cosmo_draw(&seed("cosmo_draw", "synthetic_a2"));
    assert!(drawn > 1000, "{drawn}");
}

#[test]
fn level_seeds_and_their_mutations_keep_the_properties() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Each run draws a whole 64 x 512-tile map three times: fewer changes still.
    let plan = MutationPlan {
        byte_changes: 48,
        bit_flips: 48,
        ..LIGHT
    };
    let runs = replay_crate_regressions(root, "cosmo_level", 1, plan, |data| {
        exercise::cosmo_level(data);
    });
    assert!(runs > 100, "{runs} runs");
    // The synthetic A2 with its actors and backdrop: its 64 x 512 tiles drawn, actors too.
    let drawn = exercise::cosmo_level(&seed("cosmo_level", "synthetic_a2_level"));
    assert!(drawn > 1000, "{drawn}");
}

#[test]
fn level_seeds_reach_every_kind_of_actor() {
    use gamedata_exercise::io::split_parts;
    use gamedata_render::cosmo::{NotDrawn, draw_actors, draw_tiles, map_image};
    use gamedata_render::mni_core::{
        ActorSprites, Map, MaskedTiles, SolidTiles, TileAttrTable, TileImages,
    };

    for (name, frames_cut) in [
        ("every_actor_type", false),
        ("every_actor_type_cut_sprites", true),
    ] {
        let data = seed("cosmo_level", name);
        let [solid, masked, attrs, info, tiles, _, map] = split_parts::<7, 4>(&data);
        let map = Map::parse(map).unwrap();
        let images = TileImages {
            solid: SolidTiles::parse(solid).unwrap(),
            masked: MaskedTiles::parse(masked).unwrap(),
        };
        let sprites = ActorSprites::parse(info, tiles).unwrap();
        let mut image = map_image(&map, [0, 0, 0, 255]).unwrap();
        draw_tiles(&mut image, &map, &images);
        let attrs = TileAttrTable::parse(attrs).unwrap();
        let r = draw_actors(&mut image, &map, &sprites, &images, &attrs);
        // 4 special actors and actor types 0 to 269, of which the game defines 245 (all of
        // them below 266): 25 are listed as undefined, and with ACTORS.MNI cut, frames past
        // its end are listed too (the list keeps the first 100).
        assert_eq!(r.special, 4, "{name}");
        let kept = r.not_drawn.kept();
        let unknown = kept
            .iter()
            .filter(|p| p.why == NotDrawn::UnknownType)
            .count();
        let frames = kept
            .iter()
            .filter(|p| matches!(p.why, NotDrawn::Frame { .. }))
            .count();
        if frames_cut {
            assert!(frames > 0 && r.not_drawn.total() > 25, "{name}: {r:?}");
        } else {
            assert_eq!((unknown, r.not_drawn.total()), (25, 25), "{name}");
        }
        assert!(r.hidden > 0 && r.in_front > 0, "{name}: {r:?}");
        assert_eq!(
            r.drawn + r.hidden + r.not_drawn.total() as usize,
            270,
            "{name}: every normal actor accounted for"
        );
    }
}
