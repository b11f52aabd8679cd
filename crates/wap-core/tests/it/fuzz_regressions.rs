//! Replays the fuzz seeds and kept findings with truncations and seeded byte and bit
//! changes through `wap_core::exercise`: no panic, whatever the bytes.

use std::path::Path;

use gamedata_testkit::{MutationPlan, regression_inputs, replay_files};
use wap_core::exercise;

#[test]
fn seeds_findings_and_their_mutations_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = regression_inputs(
        &root.join("tests/fuzz-cases"),
        &root.join("../../fuzz/seeds"),
        "wwd_",
    );
    assert!(files.len() >= 2, "wwd fuzz seeds missing: {files:?}");
    let runs = replay_files(&files, MutationPlan::default(), |data| {
        exercise::level(data);
    });
    assert!(runs > 1000);
}
