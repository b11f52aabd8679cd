//! Replays the fuzz seeds and kept fuzz findings, with truncations and seeded byte and bit
//! changes (`gamedata_testkit::replay_mutations`), through every reading path of
//! `mni_core::exercise`. Passing means: no panic, whatever the bytes; a panic saves the input.

use std::path::{Path, PathBuf};

use gamedata_testkit::{MutationPlan, replay_mutations};
use mni_core::exercise;

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(items) = std::fs::read_dir(dir) else {
        return out;
    };
    for item in items.flatten() {
        let path = item.path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else if path.extension().is_none_or(|e| e != "md") {
            out.push(path);
        }
    }
    out
}

fn run_all(data: &[u8]) {
    exercise::render(data);
    exercise::group(data);
    exercise::map(data);
    exercise::tileattr(data);
    exercise::tiles(data);
}

#[test]
fn seeds_findings_and_their_mutations_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = files_under(&root.join("tests/fuzz-cases"));
    let seeds = files_under(&root.join("../../fuzz/seeds"));
    assert!(seeds.len() >= 6, "fuzz seeds missing: {seeds:?}");
    files.extend(seeds);
    // Fewer changes for the large inputs keep the debug-build run short.
    let plan = MutationPlan {
        byte_changes: 128,
        bit_flips: 128,
        ..MutationPlan::default()
    };
    for path in files {
        let data = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let runs = replay_mutations(&name, &data, plan, run_all);
        assert!(runs > 256, "{name}: {runs} runs");
        exercise::render(&data);
    }
}

#[test]
fn exercise_reads_the_synthetic_files() {
    let e = mni_core::synth::episode().unwrap();
    assert!(exercise::group(&e.stn) > 0);
    assert!(exercise::tileattr(&mni_core::synth::tile_attributes()) > 0);
    assert!(exercise::tiles(&mni_core::synth::solid_tiles()) > 0);
}
