//! The real files of `$GAMEDATA_DIR/uo` (ignored without it). Expected figures were read
//! from the raw bytes independently of this crate and agree with the data folder's manifest
//! (`docs/formats/uo.md`, "Files measured"); the pre-alpha facet's come from
//! `tools/reference/uo_facts.py`, the tiledata, multi, radar colour and hue figures from
//! `tools/reference/uo_files_facts.py`, whose outputs (`tools/reference/goldens/uo_facts.json`,
//! `uo_files.json`) the tests read (`.ci/run` runs the scripts and compares).

use gamedata_testkit::require_file;
use mul_core::{
    FacetFiles, FacetOptions, Hues, MapSize, MultiFormat, Multis, RadarColours, StaticFormat,
    TileData, TileDataLayout, facet::query,
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
    let err = files.view().unwrap_err();
    assert!(
        matches!(
            err.kind(),
            mul_core::ErrorKind::MapSizeUnknown {
                facet: 0,
                blocks: 16_384,
                square: Some(128),
                ..
            }
        ),
        "{err:?}"
    );
    let size = MapSize::from_tiles(1024, 1024).unwrap();
    let options = FacetOptions::default().with_size(size);
    let files = FacetFiles::open_with(&dir, 0, &options).unwrap();
    let facet = files.view().unwrap();
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

/// `tools/reference/uo_files_facts.py`'s figures (`goldens/uo_files.json`).
fn files_facts() -> serde_json::Value {
    gamedata_testkit::reference("uo_files.json")
}

fn as_u64(v: &serde_json::Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn as_i64(v: &serde_json::Value) -> i64 {
    v.as_i64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn as_name(v: &serde_json::Value) -> &[u8] {
    v.as_str()
        .unwrap_or_else(|| panic!("not a name: {v}"))
        .as_bytes()
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn tiledata_in_all_three_files() {
    let facts = files_facts();
    for (file, key) in [
        ("uo/classic/tiledata.mul", "classic"),
        ("uo/hs/tiledata.mul", "hs"),
        ("uo/prealpha/TILEDATA.MUL", "prealpha"),
    ] {
        let want = &facts["tiledata"][key];
        let bytes = read(file);
        let t = TileData::parse(&bytes).unwrap();
        let layout = match want["layout"].as_str() {
            Some("old") => TileDataLayout::Old,
            Some("high_seas") => TileDataLayout::HighSeas,
            other => panic!("{other:?}"),
        };
        assert_eq!(t.layout(), layout, "{file}");
        assert_eq!(t.item_count() as u64, as_u64(&want["items"]), "{file}");
        assert_eq!(
            t.tile_zero_first(),
            want["tile_zero_first"].as_bool().unwrap()
        );
        for id in [0u16, 1, 3] {
            let land = t.land(id).unwrap();
            let w = &want["land"][id.to_string()];
            assert_eq!(land.name(), as_name(&w["name"]), "{file} land {id}");
            assert_eq!(land.flags().bits(), as_u64(&w["flags"]), "{file} land {id}");
        }
        for id in [2u16, 0x0EED] {
            let item = t.item(id).unwrap();
            let w = &want["item"][id.to_string()];
            assert_eq!(item.name(), as_name(&w["name"]), "{file} item {id}");
            assert_eq!(item.flags().bits(), as_u64(&w["flags"]), "{file} item {id}");
            assert_eq!(u64::from(item.weight()), as_u64(&w["weight"]));
            assert_eq!(u64::from(item.height()), as_u64(&w["height"]));
        }
    }
    // docs/formats/uo.md's sanity facts, as the script finds them.
    let item = |key: &str, id: &str| facts["tiledata"][key]["item"][id]["name"].clone();
    assert_eq!(item("classic", "2"), "ankh");
    assert_eq!(item("hs", "3821"), "gold coin");
    assert_eq!(item("prealpha", "2"), "castle wall");
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn sixteen_byte_multis_all_in_bounds() {
    let want = &files_facts()["multi_hs"];
    let (idx, mul) = (read("uo/hs/multi.idx"), read("uo/hs/multi.mul"));
    let m = Multis::parse(&idx, &mul, None).unwrap();
    assert_eq!(as_u64(&want["component_size"]), 16);
    assert_eq!(
        (m.format(), m.len() as u64),
        (MultiFormat::Long, as_u64(&want["entries"]))
    );
    assert_eq!(m.validate().total(), 0);
    assert_eq!(m.ids().count() as u64, as_u64(&want["non_empty"]));
    let total: usize = m.ids().map(|id| m.get(id).unwrap().unwrap().len()).sum();
    assert_eq!(total as u64, as_u64(&want["components"]));
    let first_id = m.ids().next().unwrap();
    let first = m.get(first_id).unwrap().unwrap();
    let w = &want["first"];
    assert_eq!(first_id as u64, as_u64(&w["id"]));
    assert_eq!(first.len() as u64, as_u64(&w["components"]));
    assert_eq!(
        u64::from(first.get(0).unwrap().id.get()),
        as_u64(&w["first_item"])
    );
    let min_x = first.iter().map(|c| c.x.get()).min().unwrap();
    let min_y = first.iter().map(|c| c.y.get()).min().unwrap();
    assert_eq!(
        (i64::from(min_x), i64::from(min_y)),
        (as_i64(&w["min_x"]), as_i64(&w["min_y"]))
    );
    assert!(min_x < 0 && min_y < 0, "signed offsets");
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn radar_colours_and_hues() {
    let facts = files_facts();
    let want = &facts["radarcol_hs"];
    let rc = read("uo/hs/radarcol.mul");
    let r = RadarColours::parse(&rc).unwrap();
    assert_eq!(
        (r.colours().len() as u64, r.item_count() as u64),
        (as_u64(&want["entries"]), as_u64(&want["items"]))
    );
    assert_eq!(r.land(3).map(u64::from), Some(as_u64(&want["land_3"])));
    assert_eq!(
        r.item(0x0EED).map(u64::from),
        Some(as_u64(&want["item_0x0EED"]))
    );

    for (file, key) in [
        ("uo/prealpha/HUES.MUL", "prealpha"),
        ("uo/hs/hues.mul", "hs"),
    ] {
        let want = &facts["hues"][key];
        let bytes = read(file);
        let h = Hues::parse(&bytes).unwrap();
        assert_eq!(h.len() as u64, as_u64(&want["hues"]), "{file}");
        assert_eq!(
            h.get(0).unwrap().name_lossy(),
            want["name_0"].as_str().unwrap()
        );
        assert_eq!(
            h.get(7).unwrap().name_lossy(),
            want["name_7"].as_str().unwrap()
        );
    }
}
