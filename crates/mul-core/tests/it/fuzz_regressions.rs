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

#[test]
fn the_seeds_reach_what_they_are_for() {
    use gamedata_io::exercise::split_parts;
    use mul_core::{DiffIndex, Limits, MapChunk, UopFile, map_uop};
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds");
    let read = |name: &str| std::fs::read(seeds.join(name)).unwrap();
    // The patched facet: both patches have blocks, and the walk gets past its early returns
    // (0: no map size, 1: the plain facet does not parse) into the patch check.
    let seed = read("uo_patched/synthetic_4x4_blocks_3_diffs");
    let [_, _, _, mapdifl, mapdif, stadifl, stadifi, stadif] = split_parts::<8, 2>(&seed);
    let index = DiffIndex::new(Some((mapdifl, mapdif)), Some((stadifl, stadifi, stadif)));
    assert!(
        !index.map.is_empty() && !index.statics.is_empty(),
        "{index:?}"
    );
    assert!(exercise::patched(&seed) > 1);
    // The UOP seeds: the map's chunks are found, stored in place and as zlib.
    for (name, decoded) in [("map_64_blocks", false), ("map_64_blocks_zlib", true)] {
        let seed = read(&format!("uo_uop/{name}"));
        let container = UopFile::parse(&seed, &Limits::default()).unwrap();
        let chunks = map_uop::map_chunks(&container, 0, &Limits::default()).unwrap();
        assert_eq!(
            chunks.iter().map(MapChunk::len).sum::<usize>(),
            64,
            "{name}"
        );
        assert_eq!(
            chunks.iter().any(|c| matches!(c, MapChunk::Decoded(_))),
            decoded,
            "{name}"
        );
        assert!(exercise::uop(&seed) > 64 * 196, "{name}");
    }
}
