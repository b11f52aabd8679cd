//! Replays the fuzz seeds and kept fuzz findings, with truncations and seeded byte and bit
//! changes (`gamedata_testkit::replay_mutations`), through every reading path of
//! `mni_core::exercise`. Passing means: no panic, whatever the bytes; a panic saves the input.

use std::path::Path;

use gamedata_testkit::{MutationPlan, replay_crate_regressions};
use mni_core::exercise;

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
        "mni_",
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
    let both = gamedata_io::exercise::join_parts::<4>(&[&info, &tiles]);
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
            .join("../../fuzz/seeds/mni_render/synthetic_a2"),
    )
    .unwrap();
    // mni_render decodes the drawn cells whose tile is among the first 64 of each table
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
