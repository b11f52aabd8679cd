//! Replays the fuzz seeds and kept findings with truncations and seeded byte and bit
//! changes through every reading path of `mul_core::exercise`: no panic, whatever the bytes.

use std::path::{Path, PathBuf};

use gamedata_testkit::{MutationPlan, replay_mutations};
use mul_core::exercise;

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for item in std::fs::read_dir(dir).into_iter().flatten().flatten() {
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
    exercise::tiledata(data);
    exercise::map(data);
    exercise::statics(data);
    exercise::multi(data);
    exercise::colours(data);
}

#[test]
fn seeds_findings_and_their_mutations_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = files_under(&root.join("tests/fuzz-cases"));
    let seeds: Vec<PathBuf> = files_under(&root.join("../../fuzz/seeds"))
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("/uo_"))
        .collect();
    assert!(seeds.len() >= 4, "uo fuzz seeds missing: {seeds:?}");
    files.extend(seeds);
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
