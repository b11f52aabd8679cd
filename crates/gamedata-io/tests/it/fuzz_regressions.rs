//! Replays the `io_*` fuzz seeds and kept findings, with truncations and seeded byte and
//! bit changes, through `gamedata_io::exercise`: its properties hold, whatever the bytes.

use std::path::Path;

use gamedata_io::exercise;
use gamedata_testkit::{MutationPlan, replay_crate_regressions};

#[test]
fn seeds_findings_and_their_mutations_keep_the_properties() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runs = replay_crate_regressions(root, "io_", 5, MutationPlan::default(), |data| {
        exercise::bytes(data);
        exercise::limits(data);
    });
    assert!(runs > 5000, "{runs} runs");
}

#[test]
fn the_seeds_reach_what_they_are_for() {
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds");
    let read = |name: &str| std::fs::read(seeds.join(name)).unwrap();
    // The exact stream decodes: the result is the bytes the stream took (its length, less
    // than the 4,000 it decodes to).
    let exact = read("io_limits/exact_4000");
    assert_eq!(exercise::limits(&exact), exact.len() as u64 - 16 + 1);
    // Over the limit (100): refused with the declared size; the record check fails too.
    assert_eq!(exercise::limits(&read("io_limits/over_the_limit")), 4000);
    // Trailing bytes are not consumed.
    let trailing = read("io_limits/trailing_bytes");
    assert_eq!(
        exercise::limits(&trailing),
        trailing.len() as u64 - 16 - 4 + 1
    );
    assert!(exercise::bytes(&read("io_bytes/every_operation")) > 0);
}
