//! Replays the fuzz seeds and kept findings with truncations and seeded byte and bit
//! changes through `mul_core::exercise`, each target's seeds through its own reading path:
//! no panic, whatever the bytes.

use std::path::Path;

use gamedata_testkit::{MutationPlan, replay_crate_regressions};
use mul_core::exercise;

/// One of `exercise`'s reading paths.
type Walk = fn(&[u8]) -> u64;

#[test]
fn seeds_findings_and_their_mutations_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let plan = MutationPlan {
        byte_changes: 96,
        bit_flips: 96,
        ..MutationPlan::default()
    };
    let targets: [(&str, Walk); 10] = [
        ("uo_tiledata", exercise::tiledata),
        ("uo_map", exercise::map),
        ("uo_statics", exercise::statics),
        ("uo_multi", exercise::multi),
        ("uo_colours", exercise::colours),
        ("uo_uop", exercise::uop),
        ("uo_patched", exercise::patched),
        ("uo_folder", exercise::folder),
        ("uo_sizes", exercise::sizes),
        ("uo_round_trip", exercise::round_trip),
    ];
    let mut runs = 0;
    for (target, walk) in targets {
        runs += replay_crate_regressions(root, target, 1, plan, |data| {
            walk(data);
        });
    }
    assert!(runs > 7000, "{runs} runs");
}
