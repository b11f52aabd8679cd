//! The real files of `$GAMEDATA_DIR/uo` (ignored without it). Expected figures were read
//! from the raw bytes independently of this crate and agree with the data folder's manifest
//! (`docs/formats/uo.md`, "Files measured"); the pre-alpha facet's come from
//! `tools/reference/uo_facts.py`, whose output (`tools/reference/goldens/uo_facts.json`) the
//! test reads (`.ci/run` runs the script and compares).

use gamedata_testkit::require_file;
use mul_core::{
    FacetFiles, FacetOptions, Hues, MapSize, MultiFormat, Multis, RadarColours, StaticFormat,
    TileData, TileDataLayout, query,
};

fn read(relative: &str) -> Vec<u8> {
    std::fs::read(require_file(relative)).unwrap()
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn prealpha_map_and_eleven_byte_statics() {
    let dir = require_file("uo/prealpha");
    let files = FacetFiles::open(&dir, 0).unwrap();
    // 128 x 128 blocks is not a size of facet 0: without the size it is refused.
    let err = files.facet().unwrap_err();
    assert!(
        matches!(
            err.kind(),
            Some(mul_core::ErrorKind::MapSizeUnknown {
                facet: 0,
                blocks: 16_384,
                square: Some(128),
                ..
            })
        ),
        "{err:?}"
    );
    let size = MapSize::from_tiles(1024, 1024).unwrap();
    let facet = files
        .facet_with(&FacetOptions {
            size: Some(size),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(facet.statics.format(), StaticFormat::PreAlpha);
    assert_eq!(facet.statics.index().len(), 16_384);
    assert!(!facet.map.padded());

    // The figures of tools/reference/uo_facts.py: (8, 16) is land 3 at z 0, (500, 600) land
    // 5 at z 0; the most common land and static ids, z ranges, the statics' count.
    let facts = gamedata_testkit::reference("uo_facts.json");
    let pair = |v: &serde_json::Value| (v[0].as_i64().unwrap(), v[1].as_i64().unwrap());
    let top = |v: &serde_json::Value| -> Vec<(u16, u64)> {
        let list = v.as_array().unwrap();
        list.iter()
            .map(|p| (p[0].as_u64().unwrap() as u16, p[1].as_u64().unwrap()))
            .collect()
    };
    for (x, y, key) in [(8, 16, "cell_8_16"), (500, 600, "cell_500_600")] {
        let c = facet.map.cell(x, y).unwrap();
        assert_eq!((i64::from(c.id.get()), i64::from(c.z)), pair(&facts[key]));
    }

    let land = query::land_stats_par(&facet.map);
    assert_eq!(land, query::land_stats(&facet.map));
    assert_eq!(land.top(3), top(&facts["land_top3"]));
    assert_eq!(
        (i64::from(land.z_min), i64::from(land.z_max)),
        pair(&facts["land_z"])
    );

    let st = query::statics_stats_par(&facet.statics, size.blocks());
    assert_eq!(st, query::statics_stats(&facet.statics, size.blocks()));
    assert_eq!(st.count, facts["statics"].as_u64().unwrap());
    assert_eq!(st.top(3), top(&facts["statics_top3"]));
    assert_eq!(
        (i64::from(st.z_min), i64::from(st.z_max)),
        pair(&facts["statics_z"])
    );
    assert_eq!(st.bad_blocks, 0);
    // Every static inside its block, every entry in bounds.
    assert_eq!(facet.statics.validate(size.blocks()).total(), 0);
    // Block 1 (bx 0, by 1) starts at offset 0: 55 bytes = 5 statics; the first is id 1004.
    let b1 = &facts["block1"];
    assert_eq!(
        u64::from(facet.statics.index()[1].offset.get()),
        b1["offset"].as_u64().unwrap()
    );
    let b1_statics = facet.statics.block(1).unwrap();
    assert_eq!(b1_statics.len() as u64, b1["statics"].as_u64().unwrap());
    let first = b1_statics.get(0).unwrap();
    assert_eq!(
        (u64::from(first.id.get()), u64::from(first.x)),
        (
            b1["first_id"].as_u64().unwrap(),
            b1["first_x"].as_u64().unwrap()
        )
    );
    let non_empty = (0..size.blocks())
        .filter(|&b| !facet.statics.block(b).unwrap().is_empty())
        .count();
    assert_eq!(
        non_empty as u64,
        facts["non_empty_blocks"].as_u64().unwrap()
    );
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn tiledata_in_all_three_files() {
    for file in ["uo/classic/tiledata.mul", "uo/hs/tiledata.mul"] {
        let bytes = read(file);
        let t = TileData::parse(&bytes).unwrap();
        assert_eq!(t.land(3).unwrap().name(), b"grass", "{file}");
        let ankh = t.item(2).unwrap();
        assert_eq!(
            (ankh.name(), ankh.weight(), ankh.height()),
            (&b"ankh"[..], 255, 12)
        );
        assert_eq!(ankh.flags().bits(), 67_149_888, "{file}");
        let gold = t.item(0x0EED).unwrap();
        assert_eq!(gold.name(), b"gold coin", "{file}");
        assert_eq!(gold.flags().bits(), 67_110_913, "{file}");
    }
    let hs = read("uo/hs/tiledata.mul");
    let t = TileData::parse(&hs).unwrap();
    assert_eq!(
        (t.layout(), t.item_count()),
        (TileDataLayout::HighSeas, 65_536)
    );
    assert!(t.tile_zero_first());
    assert_eq!(t.land(0).unwrap().name(), b"UNUSED");
    assert_eq!(t.land(1).unwrap().name(), b"VOID!!!!!!");
    assert_eq!(t.land(1).unwrap().flags().bits(), 80);
    assert!(t.item(0xFFFF).is_some());

    let pre = read("uo/prealpha/TILEDATA.MUL");
    let t = TileData::parse(&pre).unwrap();
    assert_eq!(t.layout(), TileDataLayout::Old);
    assert_eq!(t.land(3).unwrap().flags().bits(), 67_108_864);
    assert_eq!(t.item(2).unwrap().name(), b"castle wall");
    assert_eq!(t.item(2).unwrap().height(), 22);
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn sixteen_byte_multis_all_in_bounds() {
    let (idx, mul) = (read("uo/hs/multi.idx"), read("uo/hs/multi.mul"));
    let m = Multis::parse(&idx, &mul, None).unwrap();
    assert_eq!((m.format(), m.len()), (MultiFormat::Long, 8480));
    assert_eq!(m.validate().total(), 0);
    assert_eq!(m.ids().count(), 800);
    let total: usize = m.ids().map(|id| m.get(id).unwrap().len()).sum();
    assert_eq!(total, 62_177);
    let first = m.get(0).unwrap();
    assert_eq!(first.len(), 38);
    assert_eq!(first.get(0).unwrap().id.get(), 16_093);
    let min_x = first.iter().map(|c| c.x.get()).min().unwrap();
    let min_y = first.iter().map(|c| c.y.get()).min().unwrap();
    assert_eq!((min_x, min_y), (-2, -5), "signed offsets");
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn radar_colours_and_hues() {
    let rc = read("uo/hs/radarcol.mul");
    let r = RadarColours::parse(&rc).unwrap();
    assert_eq!((r.colours().len(), r.item_count()), (81_884, 0xFFDC));
    assert_eq!((r.land(3), r.item(0x0EED)), (Some(0x1502), Some(0x61A2)));

    let pre = read("uo/prealpha/HUES.MUL");
    let h = Hues::parse(&pre).unwrap();
    assert_eq!(h.len(), 128 * 8);
    assert_eq!(h.get(0).unwrap().name_lossy(), "Light Blue");
    assert_eq!(h.get(7).unwrap().name_lossy(), "skin8");
    let hs = read("uo/hs/hues.mul");
    let h = Hues::parse(&hs).unwrap();
    assert_eq!(h.len(), 375 * 8);
    assert_eq!(h.get(7).unwrap().name_lossy(), "Hue (2054->10302)");
}
