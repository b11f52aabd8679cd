//! Sweeps over every real level of `$GAMEDATA_DIR/wwd` (ignored without it): each cut at
//! many lengths and changed at 1,024 positions (`gamedata_testkit::sweep`), opened and
//! walked whole; every call returns (Ok or Err, no panic) within the heap bounds (`gamedata_testkit::sweep`: the input plus 64 MiB at
//! the peak, plus what the call may decode). Each level as it
//! is also goes through the write round trip.

use gamedata_exercise::wwd as exercise;
use gamedata_testkit::{gamedata_dir, sweep};

/// What a level of `input` bytes may decode: its main block, declared in the header, at most
/// the deflate bound of 1,032 bytes a stored byte and the default 256 MiB.
fn decoded(input: &[u8]) -> u64 {
    (input.len() as u64)
        .saturating_mul(gamedata_io::MAX_INFLATE_RATIO)
        .min(wap_core::Limits::DEFAULT_MAX_DECODED_BYTES)
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn every_real_level_cut_and_changed_reads_or_errs_within_the_heap_bounds() {
    let serial = gamedata_testkit::heap::serial();
    let dir = gamedata_dir().expect("GAMEDATA_DIR").join("wwd");
    let mut levels: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("wwd")))
        .collect();
    levels.sort();
    assert_eq!(levels.len(), 25, "{levels:?}");
    let mut runs = 0;
    for path in &levels {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let data = std::fs::read(path).unwrap();
        // The level as it is reads whole and writes back (see exercise::round_trip): its
        // result is the written file's length, far above the early returns (0 to 3). The
        // bad-signature copy is refused at opening (0).
        let written = exercise::round_trip(&data);
        if name == "RETAIL01_badsig.WWD" {
            assert_eq!(written, 0);
        } else {
            assert!(written > 1000, "{name}");
        }
        runs += sweep(&serial, &name, &data, decoded, |d| {
            exercise::level(d);
        })
        .runs;
    }
    // WapMapTest1.wwd is under 4 KiB (2,422 bytes): cut at every length.
    assert_eq!(runs, 24 * 2049 + 2423 + 1024);
}
