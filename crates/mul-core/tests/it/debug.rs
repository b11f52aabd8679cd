//! `Debug` of every view is bounded: lengths, counts and the first few items, never the
//! bytes (a derived `Debug` of the full-size facet 0 printed 1,016,529 bytes).

use gamedata_testkit::assert_debug_bounded;
use mul_core::synth::World;
use mul_core::{
    DiffIndex, FacetData, FacetFiles, FacetPaths, MapFormat, MapPatch, MapSize, Multis,
    StaticsPatch, Uop, facet::query, write_map_uop,
};

#[test]
fn debug_of_a_full_size_facet_and_its_parts_is_bounded() {
    let size = MapSize::from_blocks(896, 512).unwrap();
    let world = World::generate(size, 1);
    let diffs = world.diffs(5000, 2);
    let facet = {
        let mut f = mul_core::Facet::parse(world.facet_bytes(), size, None).unwrap();
        f.tiledata = Some(mul_core::TileData::parse(&world.tiledata).unwrap());
        f.radar = Some(mul_core::RadarColours::parse(&world.radarcol).unwrap());
        f.hues = Some(mul_core::Hues::parse(&world.hues).unwrap());
        f
    };
    assert_debug_bounded("a facet", &facet, 4096);
    assert_debug_bounded("its bytes", &world.facet_bytes(), 1024);
    assert_debug_bounded("the diffs", &diffs, 1024);
    let index = DiffIndex::new(
        Some((&diffs.mapdifl, &diffs.mapdif)),
        Some((&diffs.stadifl, &diffs.stadifi, &diffs.stadif)),
    );
    assert!(index.map.len() > 1000 && index.statics.len() > 1000);
    assert_debug_bounded("a diff index", &index, 2048);
    let map_patch = MapPatch {
        index: &index.map,
        blocks: mul_core::facet::diff::map_blocks(&diffs.mapdif),
    };
    let statics_patch = StaticsPatch {
        index: &index.statics,
        records: mul_core::facet::diff::index_records(&diffs.stadifi),
        data: &diffs.stadif,
    };
    assert_debug_bounded("a map patch", &map_patch, 1024);
    assert_debug_bounded("a statics patch", &statics_patch, 1024);
    let patched = facet.statics.clone().with_patch(statics_patch);
    assert_debug_bounded("patched statics", &patched, 1024);
    // The busiest block's statics, and the whole-facet results.
    let busiest = (0..size.blocks())
        .max_by_key(|&b| facet.statics.block(b).map_or(0, |s| s.len()))
        .unwrap();
    let block = facet.statics.block(busiest).unwrap();
    assert!(block.len() > 4);
    assert_debug_bounded("a block's statics", &block, 1024);
    assert_debug_bounded("a statics iterator", &block.iter(), 1024);
    let land = query::land_stats(&facet.map);
    let statics = query::statics_stats(&facet.statics, size.blocks());
    assert!(land.histogram.len() > 4 && statics.histogram.len() > 1000);
    assert_debug_bounded("land stats", &land, 1024);
    assert_debug_bounded("statics stats", &statics, 1024);
    let problems = facet.statics.validate(size.blocks());
    assert_debug_bounded("problems", &problems, 4096);

    // The UOP form: the container, its chunks, and the files that hold them.
    let uop = write_map_uop(&world.map, 0).unwrap();
    let container = Uop::parse(&uop, &Default::default()).unwrap();
    assert_debug_bounded("a UOP container", &container, 1024);
    let chunks = mul_core::facet::map_uop::map_chunks(&container, 0, &Default::default()).unwrap();
    assert_eq!(chunks.len(), 112);
    assert_debug_bounded("a chunk", &chunks[0], 1024);
    let mut paths = FacetPaths {
        facet: 0,
        map: "map0LegacyMUL.uop".into(),
        map_format: MapFormat::Uop,
        staidx: "staidx0.mul".into(),
        statics: "statics0.mul".into(),
        tiledata: None,
        radarcol: None,
        hues: None,
        diffs: Default::default(),
    };
    let data = FacetData {
        map: gamedata_io::FileData::from(uop),
        staidx: gamedata_io::FileData::from(world.staidx.clone()),
        statics: gamedata_io::FileData::from(world.statics.clone()),
        tiledata: None,
        radarcol: None,
        hues: None,
        diffs: Default::default(),
    };
    paths.tiledata = None;
    let files = FacetFiles::from_data(paths, data, &Default::default()).unwrap();
    assert_debug_bounded("facet files", &files, 2048);
    assert_debug_bounded("facet data", &files.data(), 2048);
    let facet = files.view().unwrap();
    assert_debug_bounded("a facet of a UOP", &facet, 4096);
}

#[test]
fn debug_of_multis_and_a_multi_is_bounded() {
    // One multi of 100,000 components.
    let mul = vec![0u8; 100_000 * 16];
    let mut idx = Vec::new();
    idx.extend(0u32.to_le_bytes());
    idx.extend((mul.len() as u32).to_le_bytes());
    idx.extend(0u32.to_le_bytes());
    let multis = Multis::parse(&idx, &mul, None).unwrap();
    assert_debug_bounded("multis", &multis, 1024);
    let multi = multis.get(0).unwrap().unwrap();
    assert_eq!(multi.len(), 100_000);
    assert_debug_bounded("a multi", &multi, 1024);
}
