//! Replays the fuzz seeds and kept fuzz findings, with truncations and seeded byte and bit
//! changes (`gamedata_testkit::replay_mutations`), through every reading path of
//! `gamedata_exercise::cosmo`. Passing means: no panic, whatever the bytes; a panic saves the
//! input.

use std::path::Path;

use gamedata_exercise::cosmo as exercise;
use gamedata_testkit::{MutationPlan, replay_crate_regressions};

fn run_all(data: &[u8]) {
    exercise::render(data);
    exercise::group(data);
    exercise::map(data);
    exercise::tileattr(data);
    exercise::tiles(data);
    exercise::episode(data);
    exercise::round_trip(data);
    exercise::sprites(data);
}

#[test]
fn seeds_findings_and_their_mutations_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runs = replay_crate_regressions(
        root,
        "cosmo_",
        6,
        MutationPlan {
            byte_changes: 128,
            bit_flips: 128,
            ..MutationPlan::default()
        },
        run_all,
    );
    assert!(runs > 1000);
}

#[test]
fn exercise_reads_the_synthetic_files() {
    let e = mni_core::synth::episode().unwrap();
    assert!(exercise::group(&e.stn) > 0);
    assert!(exercise::tileattr(&mni_core::synth::tile_attributes()) > 0);
    assert!(exercise::tiles(&mni_core::synth::solid_tiles()) > 0);
    // The 267 synthetic sprite types of one frame each: the first 64 cut and read.
    let (info, tiles) = mni_core::synth::sprites();
    let both = gamedata_exercise::io::join_parts::<4>(&[&info, &tiles]);
    assert!(
        exercise::sprites(&both) >= 64,
        "{}",
        exercise::sprites(&both)
    );
}

#[test]
fn the_render_seed_reaches_solid_and_masked_tiles() {
    use mni_core::{Map, MapTile};
    let seed = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fuzz/seeds/cosmo_render/synthetic_a2"),
    )
    .unwrap();
    // cosmo_render decodes the drawn cells whose tile is among the first 64 of each table
    // (the seed's own bytes taken as TILES.MNI and MASKTILE.MNI): both kinds must be there.
    let map = Map::parse(&seed).unwrap();
    let (mut solid, mut masked) = (0, 0);
    for (_, _, tile) in map.drawn_cells() {
        match tile {
            MapTile::Solid(i) if i < 64 => solid += 1,
            MapTile::Masked(i) if i < 64 => masked += 1,
            _ => {}
        }
    }
    assert!(solid > 0 && masked > 0, "{solid} solid, {masked} masked");
    assert!(exercise::render(&seed) > 0);
}

/// Each target's seeds get past its first parse, into the work the target is for: a seed
/// its target refuses at once would fuzz only the refusal.
#[test]
fn every_seed_gets_past_its_target_s_first_parse() {
    use gamedata_exercise::io::split_parts;
    use mni_core::{
        ActorSprites, Backdrop, Episode, Group, Map, MaskedTiles, SolidTiles, TileAttrTable,
    };
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds");
    let read = |name: &str| std::fs::read(seeds.join(name)).unwrap();
    // cosmo_group and cosmo_round_trip: group files with entries that read.
    for name in [
        "cosmo_group/small_group",
        "cosmo_group/synthetic_stn",
        "cosmo_round_trip/small_group",
        "cosmo_round_trip/synthetic_stn",
    ] {
        let data = read(name);
        let group = Group::parse(&data).unwrap();
        assert!(group.len() > 1, "{name}");
        assert!(group.entries().all(|e| e.data().is_ok()), "{name}");
    }
    // cosmo_map and cosmo_round_trip: a map with actors (the synthetic A2 has 3) and drawn cells.
    for name in ["cosmo_map/synthetic_a2", "cosmo_round_trip/synthetic_a2"] {
        let data = read(name);
        let map = Map::parse(&data).unwrap();
        assert!(
            map.actors().len() >= 3,
            "{name}: {} actors",
            map.actors().len()
        );
        assert!(map.drawn_cells().count() > 1000, "{name}");
    }
    // cosmo_tileattr: the table parses.
    assert!(TileAttrTable::parse(&read("cosmo_tileattr/synthetic_tileattr")).is_ok());
    // cosmo_tiles: whole solid and masked tile tables.
    let solid = read("cosmo_tiles/synthetic_tiles");
    assert!(
        !SolidTiles::parse(&solid[..solid.len() / 32 * 32])
            .unwrap()
            .is_empty()
    );
    let masked = read("cosmo_tiles/synthetic_masktile");
    assert!(
        !MaskedTiles::parse(&masked[..masked.len() / 40 * 40])
            .unwrap()
            .is_empty()
    );
    // cosmo_sprites: a sprite table over its tiles, and a backdrop.
    let data = read("cosmo_sprites/synthetic_sprites");
    let [info, tiles] = split_parts::<2, 4>(&data);
    let sprites = ActorSprites::parse(info, tiles).unwrap();
    assert!(sprites.table.sprite_count() >= 64);
    let data = read("cosmo_sprites/synthetic_backdrop");
    let [_, tiles] = split_parts::<2, 4>(&data);
    assert!(Backdrop::parse(tiles).is_ok());
    // cosmo_episode: both group files, with maps that parse.
    let data = read("cosmo_episode/synthetic_episode");
    let [stn, vol] = split_parts::<2, 4>(&data);
    let episode = Episode::parse(stn, vol).unwrap();
    assert!(episode.level_names().count() >= 2);
    assert!(episode.tile_images().is_ok() && episode.sprites().is_ok());
}

/// Found by `cosmo_episode` in CI: a map whose name is not UTF-8. Lookups take text, so the
/// name's lossy form finds no entry; the property used to demand that every listed map be
/// found by it. The reader was right; the property now asks only for text names.
#[test]
fn a_map_named_by_bytes_that_are_not_text_is_listed_but_cannot_be_asked_for() {
    let mut e = mni_core::synth::episode().unwrap();
    // The VOL's first slot is A1.MNI: its name's first byte becomes 0xB2, not UTF-8.
    assert_eq!(&e.vol[..6], b"A1.MNI");
    e.vol[0] = 0xB2;
    let episode = mni_core::episode::Episode::parse(&e.stn, &e.vol).unwrap();
    let names: Vec<Vec<u8>> = episode.level_names().map(|n| n.name().to_vec()).collect();
    assert_eq!(names, [&b"\xB21.MNI"[..], b"A2.MNI", b"A3.MNI"]);
    let lossy = episode
        .level_names()
        .next()
        .unwrap()
        .name_lossy()
        .into_owned();
    assert_eq!(episode.get(&lossy).unwrap(), None);
    assert!(episode.level("A2.MNI").unwrap().is_some());
    // The walk over the episode reads the two text-named maps and does not panic.
    let both = gamedata_exercise::io::join_parts::<4>(&[&e.stn, &e.vol]);
    assert!(exercise::episode(&both) > 0);
}
