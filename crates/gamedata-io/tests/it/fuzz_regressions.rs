//! Replays the `io_*` fuzz seeds and kept findings, with truncations and seeded byte and
//! bit changes, through `gamedata_exercise::io`: its properties hold, whatever the bytes.

use std::path::Path;

use gamedata_exercise::io as exercise;
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
    // The cursor program: an operation byte and a 4-byte argument a step, every one of the
    // eight operations used (the properties are checked inside, for each step).
    let program = read("io_bytes/every_operation");
    let ops: std::collections::BTreeSet<u8> = program.chunks_exact(5).map(|c| c[0] % 8).collect();
    assert_eq!(ops.len(), 8, "{ops:?}");
    exercise::bytes(&program);
}

#[test]
fn split_parts_reads_what_join_parts_writes() {
    use gamedata_exercise::io::{join_parts, split_parts};
    let joined = join_parts::<2>(&[b"ab", b"c", b"rest"]);
    assert_eq!(joined, b"\x02\x00ab\x01\x00crest");
    assert_eq!(split_parts::<3, 2>(&joined), [&b"ab"[..], b"c", b"rest"]);
    let wide = join_parts::<4>(&[b"xyz", b""]);
    assert_eq!(wide, b"\x03\x00\x00\x00xyz");
    assert_eq!(split_parts::<2, 4>(&wide), [&b"xyz"[..], b""]);
    // A length past the end takes the rest; a cut-off length leaves the later parts empty.
    assert_eq!(split_parts::<3, 2>(b"\xff\x00abc"), [&b"abc"[..], b"", b""]);
    assert_eq!(split_parts::<3, 4>(b"\x01\x00"), [&b""[..], b"", b""]);
    // A file longer than a 2-byte length can say is cut to 65,535 bytes.
    let long = vec![7u8; 70_000];
    let joined = join_parts::<2>(&[&long, b"t"]);
    assert_eq!(joined.len(), 2 + 65_535 + 1);
    assert_eq!(split_parts::<2, 2>(&joined)[0].len(), 65_535);
}
