//! Replays the fuzz seeds and kept findings with truncations and seeded byte and bit
//! changes through every reading path of `mul_core::exercise`: no panic, whatever the bytes.

use std::path::Path;

use gamedata_testkit::{MutationPlan, regression_inputs, replay_mutations};
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
    let files = regression_inputs(
        &root.join("tests/fuzz-cases"),
        &root.join("../../fuzz/seeds"),
        "uo_",
    );
    assert!(files.len() >= 4, "fuzz seeds missing: {files:?}");
    let plan = MutationPlan {
        byte_changes: 96,
        bit_flips: 96,
        ..MutationPlan::default()
    };
    for path in files {
        let data = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        // The 3 MB tiledata seed is only cut, not changed byte by byte, to keep this short.
        let plan = if data.len() > 1 << 20 {
            MutationPlan {
                byte_changes: 8,
                bit_flips: 8,
                ..plan
            }
        } else {
            plan
        };
        replay_mutations(&name, &data, plan, run_all);
    }
}
