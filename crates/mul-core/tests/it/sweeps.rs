//! Sweeps over every real Ultima Online file of `$GAMEDATA_DIR/uo` (ignored without it): each
//! file cut at many lengths and changed at 1,024 positions (`gamedata_testkit::sweep`), read
//! through the path that reads it whole, the others of its facet left intact. Every call
//! returns (Ok or Err, no panic) within a second.

use gamedata_testkit::{require_file, sweep};
use mul_core::exercise;
use mul_core::{Facet, FacetBytes, MapSize, Multis, query};

/// The pre-alpha facet (1,024 x 1,024 tiles) with one of its three files replaced: land and
/// statics figures, both ways (which must agree), validation, a search, and a few tiles.
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
    assert_eq!(
        query::land_stats(&facet.map),
        query::land_stats_par(&facet.map)
    );
    let blocks = size.blocks();
    assert_eq!(
        query::statics_stats(&facet.statics, blocks),
        query::statics_stats_par(&facet.statics, blocks)
    );
    facet.statics.validate(blocks);
    query::find_statics(&facet.statics, size, |s| s.z > 50);
    for (x, y) in [(0, 0), (500, 600), (1023, 1023)] {
        let _ = facet.top_surface(x, y);
    }
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn every_real_uo_file_cut_and_changed_reads_or_errs_within_a_second() {
    let read = |name: &str| std::fs::read(require_file(&format!("uo/{name}"))).unwrap();
    let (map, staidx, statics) = (
        read("prealpha/MAP0.MUL"),
        read("prealpha/STAIDX0.MUL"),
        read("prealpha/STATICS0.MUL"),
    );
    let mut runs = 0;
    runs += sweep("MAP0.MUL", &map, |d| facet(d, &staidx, &statics)).runs;
    runs += sweep("STAIDX0.MUL", &staidx, |d| facet(&map, d, &statics)).runs;
    runs += sweep("STATICS0.MUL", &statics, |d| facet(&map, &staidx, d)).runs;
    for name in [
        "prealpha/TILEDATA.MUL",
        "classic/tiledata.mul",
        "hs/tiledata.mul",
    ] {
        runs += sweep(name, &read(name), |d| {
            exercise::tiledata(d);
        })
        .runs;
    }
    for name in ["prealpha/HUES.MUL", "hs/hues.mul", "hs/radarcol.mul"] {
        runs += sweep(name, &read(name), |d| {
            exercise::colours(d);
        })
        .runs;
    }
    let (idx, mul) = (read("hs/multi.idx"), read("hs/multi.mul"));
    let multis = |idx: &[u8], mul: &[u8]| {
        if let Ok(m) = Multis::parse(idx, mul, None) {
            m.validate();
            let _ = m.ids().count();
        }
    };
    runs += sweep("multi.idx", &idx, |d| multis(d, &mul)).runs;
    runs += sweep("multi.mul", &mul, |d| multis(&idx, d)).runs;
    // 11 files of at least 4 KiB: 1,025 cuts and 1,024 changes each.
    assert_eq!(runs, 11 * 2049);
}
