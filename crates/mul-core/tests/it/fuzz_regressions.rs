//! Replays the fuzz seeds and kept findings with truncations and seeded byte and bit
//! changes through every reading path of `mul_core::exercise`: no panic, whatever the bytes.

use std::path::Path;

use gamedata_testkit::{MutationPlan, replay_crate_regressions};
use mul_core::exercise;

fn run_all(data: &[u8]) {
    exercise::tiledata(data);
    exercise::map(data);
    exercise::statics(data);
    exercise::multi(data);
    exercise::colours(data);
}

#[test]
fn seeds_findings_and_their_mutations_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runs = replay_crate_regressions(
        root,
        "uo_",
        4,
        MutationPlan {
            byte_changes: 96,
            bit_flips: 96,
            ..MutationPlan::default()
        },
        run_all,
    );
    assert!(runs > 1000);
}
