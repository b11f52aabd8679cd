//! Sweeps over every real Ultima Online file of `$GAMEDATA_DIR/uo` (ignored without it): each
//! file cut at many lengths and changed at 1,024 positions (`gamedata_testkit::sweep`), read
//! through the path that reads it whole, the others of its facet left intact. Every call
//! returns (Ok or Err, no panic) within the heap bounds (`gamedata_testkit::sweep`: the input plus 64 MiB at
//! the peak, plus what the call may decode).

use gamedata_exercise::uo as exercise;
use gamedata_testkit::{require_file, sweep};
use mul_core::{Facet, FacetBytes, MapSize, Multis, facet::query};

/// The pre-alpha facet (1,024 x 1,024 tiles) with one of its three files replaced: land and
/// statics figures, validation, a search, and a few tiles.
fn facet(map: &[u8], staidx: &[u8], statics: &[u8]) {
    let size = MapSize::from_tiles(1024, 1024).unwrap();
    let Ok(facet) = Facet::parse(
        FacetBytes {
            map,
            staidx,
            statics,
        },
        size,
        None,
    ) else {
        return;
    };
    // The sequential queries: the parallel ones read the same blocks over rayon, and the
    // fuzz properties check that both agree (each rayon job's allocations would cost dhat a
    // backtrace apiece here).
    query::land_stats(&facet.map);
    let blocks = size.blocks();
    query::statics_stats(&facet.statics, blocks);
    facet.statics.validate(blocks);
    query::find_statics(&facet.statics, size, |s| s.z > 50);
    for (x, y) in [(0, 0), (500, 600), (1023, 1023)] {
        let _ = facet.top_surface(x, y);
    }
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn every_real_uo_file_cut_and_changed_reads_or_errs_within_the_heap_bounds() {
    let serial = gamedata_testkit::heap::serial();
    let read = |name: &str| std::fs::read(require_file(&format!("uo/{name}"))).unwrap();
    let (map, staidx, statics) = (
        read("prealpha/MAP0.MUL"),
        read("prealpha/STAIDX0.MUL"),
        read("prealpha/STATICS0.MUL"),
    );
    let mut runs = 0;
    runs += sweep(
        &serial,
        "MAP0.MUL",
        &map,
        |_| 0,
        |d| facet(d, &staidx, &statics),
    )
    .runs;
    runs += sweep(
        &serial,
        "STAIDX0.MUL",
        &staidx,
        |_| 0,
        |d| facet(&map, d, &statics),
    )
    .runs;
    runs += sweep(
        &serial,
        "STATICS0.MUL",
        &statics,
        |_| 0,
        |d| facet(&map, &staidx, d),
    )
    .runs;
    for name in [
        "prealpha/TILEDATA.MUL",
        "classic/tiledata.mul",
        "hs/tiledata.mul",
    ] {
        runs += sweep(
            &serial,
            name,
            &read(name),
            |_| 0,
            |d| {
                exercise::tiledata(d);
            },
        )
        .runs;
    }
    for name in ["prealpha/HUES.MUL", "hs/hues.mul", "hs/radarcol.mul"] {
        runs += sweep(
            &serial,
            name,
            &read(name),
            |_| 0,
            |d| {
                exercise::colours(d);
            },
        )
        .runs;
    }
    let (idx, mul) = (read("hs/multi.idx"), read("hs/multi.mul"));
    let multis = |idx: &[u8], mul: &[u8]| {
        if let Ok(m) = Multis::parse(idx, mul, None) {
            m.validate();
            let _ = m.ids().count();
        }
    };
    runs += sweep(&serial, "multi.idx", &idx, |_| 0, |d| multis(d, &mul)).runs;
    runs += sweep(&serial, "multi.mul", &mul, |_| 0, |d| multis(&idx, d)).runs;
    // 11 files of at least 4 KiB: 1,025 cuts and 1,024 changes each.
    assert_eq!(runs, 11 * 2049);
}
