//! Replays the fuzz seeds and kept findings with truncations and seeded byte and bit
//! changes through `gamedata_exercise::wwd`, each target's seeds through its own harness: no
//! panic, whatever the bytes.

use std::path::Path;
use wap_core::LevelOptions;

use gamedata_exercise::wwd as exercise;
use gamedata_testkit::{MutationPlan, replay_crate_regressions};

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

#[test]
fn rez_seeds_and_their_mutations_keep_the_properties() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runs = replay_crate_regressions(root, "wwd_rez", 2, MutationPlan::default(), |data| {
        exercise::rez(data);
    });
    assert!(runs > 1000);
    // The seeds list their files; the second also points the root's directories back at
    // the root (its two directories reported as loops, its two files listed).
    let seeds = root.join("../../fuzz/seeds/wwd_rez");
    // The sum counts each file's bytes: two RLE PIDs (988 bytes), a plain one (255) and the
    // palette (768), and more.
    let tree = exercise::rez(&std::fs::read(seeds.join("level_tree")).unwrap());
    assert!(tree > 2 * 988 + 255 + 768, "{tree}");
    let looping = exercise::rez(&std::fs::read(seeds.join("level_tree_self_pointing")).unwrap());
    assert!(looping > tree, "{looping}");
}

#[test]
fn image_name_seeds_and_their_mutations_keep_the_properties() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runs = replay_crate_regressions(
        root,
        "wwd_image_names",
        2,
        MutationPlan::default(),
        |data| {
            exercise::image_names(data);
        },
    );
    assert!(runs > 1000);
    // The sums count the folders indexed and problems, paths and images: the three cuts'
    // archive indexes 7 folders; the self-listing one 1 folder, 3 loops and its root's
    // 34-byte image.
    let seeds = root.join("../../fuzz/seeds/wwd_image_names");
    let cuts = exercise::image_names(&std::fs::read(seeds.join("three_cuts")).unwrap());
    assert!(cuts > 7 + "A/B/C".len() as u64, "{cuts}");
    let looping = exercise::image_names(&std::fs::read(seeds.join("self_listing")).unwrap());
    assert_eq!(looping, 1 + 3 + 34);
}

#[test]
fn ani_seeds_and_their_mutations_keep_the_properties() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runs = replay_crate_regressions(root, "wwd_ani", 2, MutationPlan::default(), |data| {
        exercise::ani(data);
    });
    assert!(runs > 200);
    // The sums are the total time plus the frames: 175 + 3, and a frame of no duration
    // lasting the engine's 22-ms tick, 22 + 1.
    let seeds = root.join("../../fuzz/seeds/wwd_ani");
    assert_eq!(
        exercise::ani(&std::fs::read(seeds.join("cycle_with_sound")).unwrap()),
        178
    );
    assert_eq!(
        exercise::ani(&std::fs::read(seeds.join("no_duration")).unwrap()),
        23
    );
}

#[test]
fn pid_seeds_and_their_mutations_decode_and_round_trip() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runs = replay_crate_regressions(root, "wwd_pid", 2, MutationPlan::default(), |data| {
        exercise::pid(data);
    });
    assert!(runs > 1000);
    // Both seeds decode whole and are written again: more than their 23 x 9 pixels.
    let seeds = root.join("../../fuzz/seeds/wwd_pid");
    for name in ["rle_palette", "plain"] {
        let n = exercise::pid(&std::fs::read(seeds.join(name)).unwrap());
        assert!(n > 23 * 9 + 32, "{name}: {n}");
    }
}

/// The level and main-block seeds get past the first parse into the planes, objects and
/// tile properties (header offsets: `docs/formats/wwd.md`; the main-block target puts a
/// header in front of its input's block, as below).
#[test]
fn every_seed_gets_past_its_target_s_first_parse() {
    use wap_core::{Level, LevelFile};
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds");
    let read = |name: &str| std::fs::read(seeds.join(name)).unwrap();
    let walks = |level: &Level<'_>, name: &str| {
        assert!(level.plane_count() > 0, "{name}");
        for plane in level.planes() {
            let plane = plane.unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(plane.image_sets().all(|n| n.is_ok()), "{name}");
            assert!(plane.objects().all(|o| o.is_ok()), "{name}");
        }
        assert!(level.tile_properties().unwrap().collect().is_ok(), "{name}");
    };
    // Two seeds for the file paths (a patterned block, zlib with a trailer, and plain):
    // they open; two synthetic levels: their planes walk.
    for (name, compressed, walk) in [
        ("compressed_with_trailer", true, false),
        ("synthetic_compressed", true, true),
        ("synthetic_plain", false, true),
        ("uncompressed", false, false),
    ] {
        let data = read(&format!("wwd_level/{name}"));
        let file = LevelFile::from_data(data, &LevelOptions::default()).unwrap();
        assert_eq!(file.compressed(), compressed, "{name}");
        if walk {
            walks(&file.view().unwrap(), name);
        }
    }
    let data = read("wwd_main_block/synthetic");
    let (block, tail) = data.split_at(data.len() - 8);
    let mut image = vec![0u8; 1524];
    for (at, value) in [(0, 1524), (0x2DC, 0), (0x2E0, 1524), (0x2E4, 4)] {
        let value = if at == 0x2DC || at == 0x2E4 {
            u32::from_le_bytes(tail[value..value + 4].try_into().unwrap())
        } else {
            value as u32
        };
        image[at..at + 4].copy_from_slice(&value.to_le_bytes());
    }
    image.extend_from_slice(block);
    walks(&Level::parse(&image).unwrap(), "wwd_main_block/synthetic");
    assert!(exercise::main_block(&read("wwd_main_block/synthetic")) > 1000);
}
