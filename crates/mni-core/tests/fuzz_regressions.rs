//! Replays the fuzz seeds, kept fuzz findings and truncations of them through every reading
//! path of `mni_core::exercise`. Passing means: no panic, whatever the bytes.

// Tests may panic: a failed unwrap or index is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::path::{Path, PathBuf};

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
    exercise::group(data);
    exercise::map(data);
    exercise::tileattr(data);
    exercise::tiles(data);
}

#[test]
fn seeds_findings_and_their_truncations_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = files_under(&root.join("tests/fuzz-cases"));
    let seeds = files_under(&root.join("../../fuzz/seeds"));
    assert!(seeds.len() >= 6, "fuzz seeds missing: {seeds:?}");
    files.extend(seeds);
    for path in files {
        let data = std::fs::read(&path).unwrap();
        for len in (0..data.len()).step_by(4093).chain([data.len()]) {
            run_all(&data[..len]);
        }
        exercise::render(&data);
        // Corrupt every byte of the first slots / map header, then a sample of the directory.
        let len = data.len().min(4000);
        for at in (0..len.min(64)).chain((64..len).step_by(400)) {
            let mut bad = data.clone();
            bad[at] ^= 0xFF;
            run_all(&bad);
        }
    }
}

#[test]
fn exercise_reads_the_synthetic_files() {
    let e = mni_core::synth::episode().unwrap();
    assert!(exercise::group(&e.stn) > 0);
    assert!(exercise::tileattr(&mni_core::synth::tile_attributes()) > 0);
    assert!(exercise::tiles(&mni_core::synth::solid_tiles()) > 0);
}
