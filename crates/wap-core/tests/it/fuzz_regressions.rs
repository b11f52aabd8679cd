//! Replays the fuzz seeds and kept findings with truncations and seeded byte and bit
//! changes through `wap_core::exercise`: no panic, whatever the bytes.

use std::path::Path;

use gamedata_testkit::{MutationPlan, replay_crate_regressions};
use wap_core::exercise;

#[test]
fn seeds_findings_and_their_mutations_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runs = replay_crate_regressions(root, "wwd_", 2, MutationPlan::default(), |data| {
        exercise::level(data);
    });
    assert!(runs > 1000);
}
