//! The opening paths in a loop, for counting instructions where timings are too noisy to
//! compare two checkouts (a shared machine, a virtual one without hardware counters):
//!
//! ```sh
//! cargo build --release -p gamedata-benches --example open_loop
//! GAMEDATA_DIR=../shared/data valgrind --tool=cachegrind --cache-sim=no \
//!     target/release/examples/open_loop cosmo 20000
//! ```
//!
//! `cosmo N`: `mni_core::Episode::parse` of COSMO1.STN and COSMO1.VOL N times (two runs of
//! different N give the instructions a call, setup apart); `wwd N`: `LevelFile::open` of
//! every level of `$GAMEDATA_DIR/wwd`, N times.

// A measuring tool: a bad argument ends it.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::hint::black_box;

fn main() {
    let dir = std::env::var("GAMEDATA_DIR").expect("set GAMEDATA_DIR to the real files");
    let what = std::env::args().nth(1).unwrap_or_default();
    let n: usize = std::env::args()
        .nth(2)
        .map_or(1, |s| s.parse().expect("a count"));
    if what == "cosmo" {
        let stn = std::fs::read(format!("{dir}/cosmo/COSMO1.STN")).expect("COSMO1.STN");
        let vol = std::fs::read(format!("{dir}/cosmo/COSMO1.VOL")).expect("COSMO1.VOL");
        for _ in 0..n {
            black_box(mni_core::Episode::parse(black_box(&stn), black_box(&vol)).ok());
        }
    } else {
        let mut paths: Vec<_> = std::fs::read_dir(format!("{dir}/wwd"))
            .expect("the wwd folder")
            .filter_map(|e| Some(e.ok()?.path()))
            .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("wwd")))
            .collect();
        paths.sort();
        for _ in 0..n {
            for p in &paths {
                black_box(wap_core::LevelFile::open(black_box(p)).ok());
            }
        }
    }
}
