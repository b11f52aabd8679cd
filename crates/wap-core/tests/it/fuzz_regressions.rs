//! Replays the fuzz seeds and kept findings with truncations and seeded byte and bit
//! changes through `wap_core::exercise`, each target's seeds through its own harness: no
//! panic, whatever the bytes.

use std::path::Path;

use gamedata_testkit::{MutationPlan, replay_crate_regressions};
use wap_core::exercise;

#[test]
fn level_seeds_findings_and_their_mutations_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runs = replay_crate_regressions(root, "wwd_level", 4, MutationPlan::default(), |data| {
        exercise::level(data);
    });
    assert!(runs > 1000);
}

#[test]
fn main_block_seeds_and_their_mutations_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runs =
        replay_crate_regressions(root, "wwd_main_block", 1, MutationPlan::default(), |data| {
            exercise::main_block(data);
        });
    assert!(runs > 1000);
}

#[test]
fn round_trip_seeds_and_their_mutations_read_back_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let plan = MutationPlan {
        byte_changes: 256,
        bit_flips: 256,
        ..MutationPlan::default()
    };
    let runs = replay_crate_regressions(root, "wwd_round_trip", 3, plan, |data| {
        exercise::round_trip(data);
    });
    assert!(runs > 1000);
    // The seeds go all the way: each is written again (a length above the early returns).
    let seeds = root.join("../../fuzz/seeds/wwd_round_trip");
    for name in ["synthetic_compressed", "synthetic_plain", "synthetic_wide"] {
        let data = std::fs::read(seeds.join(name)).unwrap();
        assert!(exercise::round_trip(&data) > 1000, "{name}");
    }
}
