//! Sweeps over every real level of `$GAMEDATA_DIR/wwd` (ignored without it): each cut at
//! many lengths and changed at 1,024 positions (`gamedata_testkit::sweep`), opened and
//! walked whole; every call returns (Ok or Err, no panic) within a second. Each level as it
//! is also goes through the write round trip.

use gamedata_testkit::{gamedata_dir, sweep};
use wap_core::exercise;

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn every_real_level_cut_and_changed_reads_or_errs_within_a_second() {
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
        runs += sweep(&name, &data, |d| {
            exercise::level(d);
        })
        .runs;
    }
    // WapMapTest1.wwd is under 4 KiB (2,422 bytes): cut at every length.
    assert_eq!(runs, 24 * 2049 + 2423 + 1024);
}
