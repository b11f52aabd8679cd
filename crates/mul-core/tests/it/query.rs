use mul_core::synth::{self, World};
use mul_core::{Facet, MapSize, TileData, TileFlags, facet::query};

fn world() -> World {
    World::generate(MapSize::from_blocks(40, 24).unwrap(), 11)
}

#[test]
fn parallel_and_sequential_queries_agree_with_a_brute_force_count() {
    let w = world();
    let facet = Facet::parse(w.facet_bytes(), w.size, None).unwrap();
    let land = query::land_stats(&facet.map);
    assert_eq!(land, query::land_stats_par(&facet.map));
    assert_eq!(land.cells, 320 * 192);
    // Brute force over tiles with `cell`.
    let mut grass = 0u64;
    let (mut zmin, mut zmax) = (i8::MAX, i8::MIN);
    for y in 0..192 {
        for x in 0..320 {
            let c = facet.map.cell(x, y).unwrap();
            grass += u64::from(c.id.get() == synth::land::GRASS);
            zmin = zmin.min(c.z);
            zmax = zmax.max(c.z);
        }
    }
    assert_eq!(land.histogram[usize::from(synth::land::GRASS)], grass);
    assert_eq!((land.z_min, land.z_max), (zmin, zmax));
    assert_eq!(land.histogram.iter().sum::<u64>(), land.cells);

    let blocks = w.size.blocks();
    let st = query::statics_stats(&facet.statics, blocks);
    assert_eq!(st, query::statics_stats_par(&facet.statics, blocks));
    assert_eq!(st.count, w.static_count);
    assert!(st.count > 1000, "a world has statics: {}", st.count);
    assert_eq!(st.bad_blocks, 0);
    assert_eq!(st.histogram.iter().sum::<u64>(), st.count);
    let top = st.top(3);
    assert!(top.windows(2).all(|p| p[0].1 >= p[1].1));
}

#[test]
fn find_by_id_and_by_flag_both_ways() {
    let w = world();
    let facet = Facet::parse(w.facet_bytes(), w.size, None).unwrap();
    let tree = synth::item::TREES[0];
    let seq = query::find_statics(&facet.statics, w.size, |s| s.id.get() == tree);
    let par = query::find_statics_par(&facet.statics, w.size, |s| s.id.get() == tree);
    assert_eq!(seq, par);
    let st = query::statics_stats(&facet.statics, w.size.blocks());
    assert_eq!(seq.len() as u64, st.histogram[usize::from(tree)]);
    // Every hit is where statics_at finds it.
    for f in seq.iter().take(50) {
        assert!(
            facet
                .statics_at(f.x, f.y)
                .unwrap()
                .any(|s| s.id.get() == tree && s.z == f.z)
        );
    }
    let td = TileData::parse(&w.tiledata).unwrap();
    let table = td.item_table();
    let impassable = query::find_statics_par(&facet.statics, w.size, |s| {
        table[usize::from(s.id.get())]
            .0
            .contains(TileFlags::IMPASSABLE)
    });
    let trees: u64 = synth::item::TREES
        .iter()
        .map(|&t| st.histogram[usize::from(t)])
        .sum();
    assert!(impassable.len() as u64 >= trees);
}

#[test]
fn the_top_surface_adds_the_static_height() {
    let w = world();
    let mut facet = Facet::parse(w.facet_bytes(), w.size, None).unwrap();
    let td = TileData::parse(&w.tiledata).unwrap();
    let tree = synth::item::TREES[0];
    let hit = query::find_statics(&facet.statics, w.size, |s| s.id.get() == tree)[0];
    let land_z = facet.map.cell(hit.x, hit.y).unwrap().z;
    // Without tiledata, heights count as 0.
    let without = facet.top_surface(hit.x, hit.y).unwrap().unwrap();
    assert_eq!(without, i16::from(land_z.max(hit.z)));
    facet.tiledata = Some(td);
    let with = facet.top_surface(hit.x, hit.y).unwrap().unwrap();
    assert_eq!(with, i16::from(hit.z) + 20, "trees are 20 high");
    assert_eq!(facet.top_surface(w.size.width(), 0).unwrap(), None);
}

#[test]
fn generation_is_deterministic() {
    let a = World::generate(MapSize::from_blocks(8, 8).unwrap(), 3);
    let b = World::generate(MapSize::from_blocks(8, 8).unwrap(), 3);
    let c = World::generate(MapSize::from_blocks(8, 8).unwrap(), 4);
    assert!(a.map == b.map && a.statics == b.statics && a.staidx == b.staidx);
    assert!(a.map != c.map);
}

#[test]
fn land_stats_count_uniform_and_mixed_blocks_and_extreme_altitudes() {
    // Column 0: a uniform block (id 7, z 5) then a mixed one (ids 7 and 9, z -128 and 127);
    // column 1: a uniform block of id 9 at z 0, and one of id 7 at z -1.
    let block = |id: &dyn Fn(usize) -> u16, z: &dyn Fn(usize) -> i8| {
        let mut b = vec![0u8; 4];
        for i in 0..64 {
            b.extend_from_slice(&id(i).to_le_bytes());
            b.push(z(i) as u8);
        }
        b
    };
    let bytes = [
        block(&|_| 7, &|_| 5),
        block(&|i| if i % 5 == 0 { 9 } else { 7 }, &|i| match i {
            10 => -128,
            63 => 127,
            _ => 0,
        }),
        block(&|_| 9, &|_| 0),
        block(&|_| 7, &|_| -1),
    ]
    .concat();
    let size = MapSize::from_blocks(2, 2).unwrap();
    let map = mul_core::Map::parse(&bytes, size).unwrap();
    let stats = query::land_stats(&map);
    assert_eq!(stats, query::land_stats_par(&map));
    // ids: 64 + (64 - 13) + 64 of 7; 13 + 64 of 9 (i % 5 == 0 for 13 of 0..64).
    assert_eq!(stats.histogram[7], 64 + 51 + 64);
    assert_eq!(stats.histogram[9], 13 + 64);
    assert_eq!((stats.z_min, stats.z_max, stats.cells), (-128, 127, 256));
    assert_eq!(stats.top(5), [(7, 179), (9, 77)]);
}
