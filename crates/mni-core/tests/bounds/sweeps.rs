//! Sweeps over the real episode of `$GAMEDATA_DIR/cosmo` (ignored without it): each group
//! file cut at many lengths and changed at 1,024 positions (`gamedata_testkit::sweep`), read
//! as a group file and as the episode with the other file intact (every map read, every
//! drawn cell decoded); every call returns (Ok or Err, no panic) within the heap bounds (`gamedata_testkit::sweep`: the input plus 64 MiB at
//! the peak, plus what the call may decode).

use gamedata_exercise::cosmo as exercise;
use gamedata_testkit::{require_file, sweep};

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn both_real_group_files_cut_and_changed_read_or_err_within_the_heap_bounds() {
    let serial = gamedata_testkit::heap::serial();
    let stn = std::fs::read(require_file("cosmo/COSMO1.STN")).unwrap();
    let vol = std::fs::read(require_file("cosmo/COSMO1.VOL")).unwrap();
    // The episode as it is: its maps are drawn (the walk returns more than an error's length).
    assert!(exercise::episode(&gamedata_exercise::io::join_parts::<4>(&[&stn, &vol])) > 10_000);
    let mut runs = 0;
    runs += sweep(
        &serial,
        "COSMO1.STN",
        &stn,
        |_| 0,
        |d| {
            exercise::group(d);
            exercise::episode(&gamedata_exercise::io::join_parts::<4>(&[d, &vol]));
        },
    )
    .runs;
    runs += sweep(
        &serial,
        "COSMO1.VOL",
        &vol,
        |_| 0,
        |d| {
            exercise::group(d);
            exercise::episode(&gamedata_exercise::io::join_parts::<4>(&[&stn, d]));
        },
    )
    .runs;
    assert_eq!(runs, 2 * 2049);
}
