//! Diff patches: a synthetic world's diff files applied (opt-in) over its MUL and its UOP
//! map, a later entry winning, and every bad list entry and index record reported while the
//! good ones apply.

use mul_core::synth::{World, item, land};
use mul_core::{
    DiffIndex, ErrorKind, FacetFiles, FacetOptions, MapFormat, MapSize, PatchIndex, facet::query,
};
use zerocopy::little_endian::U32;

fn world() -> World {
    World::generate(MapSize::from_blocks(40, 128).unwrap(), 21)
}

#[test]
fn diffs_replace_their_blocks_only_when_applied() {
    let w = world();
    let plain_options = FacetOptions::default().with_size(w.size);
    let diff_options = plain_options.with_apply_diffs(true);
    for format in [MapFormat::Mul, MapFormat::Uop] {
        let dir = tempfile::tempdir().unwrap();
        w.write_as(dir.path(), 1, format).unwrap();
        let patched = w.write_diffs(dir.path(), 1, 50, 7).unwrap();
        assert_eq!(patched.len(), 50);
        let files = FacetFiles::open_with(dir.path(), 1, &plain_options).unwrap();
        let diffed = FacetFiles::open_with(dir.path(), 1, &diff_options).unwrap();
        let index = files.diff_index();
        assert_eq!((index.map.len(), index.statics.len()), (50, 50));
        assert!(index.problems.is_empty(), "{:?}", index.problems);
        let plain = files.view().unwrap();
        let with = diffed.view().unwrap();
        for &block in &patched {
            let (bx, by) = w.size.block_coords(block).unwrap();
            let (x, y) = (bx * 8 + 3, by * 8 + 3);
            // Patched: lava at z 10 in every cell (the snow entry listed first lost), one
            // gold coin at cell (3, 3).
            let b = with.map.block(bx, by).unwrap();
            assert!(
                b.cells
                    .iter()
                    .all(|c| c.id.get() == land::LAVA && c.z == 10)
            );
            let here: Vec<_> = with.statics_at(x, y).unwrap().map(|s| s.id.get()).collect();
            assert_eq!(here, [item::GOLD]);
            assert_eq!(with.block_statics(bx, by).unwrap().len(), 1);
            // Not applied: the world's own block.
            assert_ne!(plain.map.cell(x, y).unwrap().id.get(), land::LAVA);
            assert_eq!(
                plain.map.block(bx, by).unwrap().cells,
                mul_core::Map::parse(&w.map, w.size)
                    .unwrap()
                    .block(bx, by)
                    .unwrap()
                    .cells
            );
        }
        // Whole-map figures: 50 blocks of lava, sequential and parallel alike; the statics
        // count loses the patched blocks' own and gains one a block.
        let land = query::land_stats(&with.map);
        assert_eq!(land, query::land_stats_par(&with.map));
        assert_eq!(land.count(land::LAVA), 50 * 64);
        assert_eq!(query::land_stats(&plain.map).count(land::LAVA), 0);
        let blocks = w.size.blocks();
        let before = query::statics_stats(&plain.statics, blocks);
        let after = query::statics_stats_par(&with.statics, blocks);
        assert_eq!(after, query::statics_stats(&with.statics, blocks));
        let own: u64 = patched
            .iter()
            .map(|&b| plain.statics.block(b).unwrap().len() as u64)
            .sum();
        assert_eq!(after.count, before.count - own + 50);
        // The runs of a patched map hold every block once, in order.
        assert_eq!(with.map.runs().map(<[_]>::len).sum::<usize>(), blocks);
        assert!(with.map.blocks().eq((0..blocks).map(|i| {
            let (bx, by) = w.size.block_coords(i).unwrap();
            with.map.block(bx, by).unwrap()
        })));
        assert!(with.map.as_slice().is_none());
        // The patches the views hold, and their bounded Debug.
        let patch = with.statics.patch().expect("the statics patch applied");
        assert_eq!(patch.index.len(), 50);
        assert!(plain.statics.patch().is_none());
        let debug = format!("{patch:?}");
        assert!(
            debug.starts_with("StaticsPatch {") && debug.len() < 1024,
            "{debug}"
        );
        let map_patch = with.map.patch().expect("the map patch applied");
        let debug = format!("{map_patch:?}");
        assert!(
            debug.starts_with("MapPatch {") && debug.len() < 1024,
            "{debug}"
        );
    }
}

#[test]
fn a_patch_index_knows_its_blocks() {
    // Blocks 3, 70 and 3 again (the later entry wins), with three records.
    let (index, problems) = PatchIndex::new(&words(&[3, 70, 3]), 3, "stadifl");
    assert!(problems.is_empty());
    assert_eq!(index.len(), 2);
    let contains: Vec<usize> = (0..200).filter(|&b| index.contains(b)).collect();
    assert_eq!(contains, [3, 70]);
    assert_eq!(
        (index.entry(3), index.entry(70), index.entry(4)),
        (Some(2), Some(1), None)
    );
    assert_eq!(
        [0, 3, 4, 70, 71].map(|b| index.count_below(b)),
        [0, 0, 1, 1, 2]
    );
    let debug = format!("{index:?}");
    assert!(
        debug.starts_with("PatchIndex {") && debug.contains("(3, 2)"),
        "{debug}"
    );
}

fn words(values: &[u32]) -> Vec<U32> {
    values.iter().map(|&v| U32::new(v)).collect()
}

#[test]
fn a_million_bad_entries_keep_a_hundred_and_count_the_rest() {
    // Every entry past any map: the index holds nothing, the report 100 details.
    let numbers = vec![U32::new(u32::MAX); 1_000_000];
    let (index, problems) = PatchIndex::new(&numbers, numbers.len(), "mapdifl");
    assert!(index.is_empty());
    assert_eq!(
        (problems.kept().len(), problems.total(), problems.left_out()),
        (100, 1_000_000, 999_900)
    );
}

#[test]
fn bad_list_entries_are_left_out_and_reported() {
    // Entry 1 past any map, entry 3 without a record (three records), block 7 twice.
    let (index, problems) = PatchIndex::new(&words(&[7, 1 << 24, 2, 9, 7]), 3, "mapdifl");
    assert_eq!(problems.total(), 3);
    let problems = problems.kept();
    assert_eq!(
        problems[0].to_string(),
        "mapdifl entry 1: block number 16777216 is past any map"
    );
    assert_eq!(
        problems[1].to_string(),
        "mapdifl entry 3: block 9 has no record: the data holds 3"
    );
    assert!(matches!(problems[2], ErrorKind::DiffEntry { entry: 4, .. }));
    assert_eq!(index.len(), 2);
    assert_eq!(index.entry(7), Some(0));
    assert_eq!(index.entry(2), Some(2));
    assert_eq!(index.entry(9), None);
    assert!(!index.contains(1 << 24));
    assert_eq!(index.count_below(5), 1);

    // Files of the wrong length.
    let d = DiffIndex::new(
        Some((&[1, 0, 0], &[0; 200])),
        Some((&[0; 4], &[0; 13], &[])),
    );
    let text: Vec<String> = d.problems.kept().iter().map(ToString::to_string).collect();
    assert!(
        text.iter().any(|t| t.starts_with("mapdifl is 3 bytes")),
        "{text:?}"
    );
    assert!(
        text.iter().any(|t| t.starts_with("mapdif is 200 bytes")),
        "{text:?}"
    );
    assert!(
        text.iter().any(|t| t.starts_with("stadifi is 13 bytes")),
        "{text:?}"
    );
    assert_eq!(d.statics.len(), 1);
}

#[test]
fn a_bad_patch_record_names_itself_and_hides_nothing() {
    let w = world();
    let dir = tempfile::tempdir().unwrap();
    w.write_to(dir.path(), 0).unwrap();
    let patched = w.write_diffs(dir.path(), 0, 5, 3).unwrap();
    // Eleven files written whole: none left behind half-written.
    let mut names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "hues.mul",
            "map0.mul",
            "mapdif0.mul",
            "mapdifl0.mul",
            "radarcol.mul",
            "stadif0.mul",
            "stadifi0.mul",
            "stadifl0.mul",
            "staidx0.mul",
            "statics0.mul",
            "tiledata.mul"
        ]
    );
    // Record 2 (the second listed block after the duplicate) points past stadif's end;
    // a block number past this map is listed too.
    let mut stadifi = std::fs::read(dir.path().join("stadifi0.mul")).unwrap();
    stadifi[24..28].copy_from_slice(&10_000u32.to_le_bytes());
    std::fs::write(dir.path().join("stadifi0.mul"), stadifi).unwrap();
    let mut list = std::fs::read(dir.path().join("mapdifl0.mul")).unwrap();
    list.extend_from_slice(&(w.size.blocks() as u32 + 10).to_le_bytes());
    std::fs::write(dir.path().join("mapdifl0.mul"), list).unwrap();
    let options = FacetOptions::default()
        .with_size(w.size)
        .with_apply_diffs(true);
    let files = FacetFiles::open_with(dir.path(), 0, &options).unwrap();
    let index = files.diff_index();
    assert_eq!(index.map.count_below(w.size.blocks()), 5);
    assert_eq!(
        index.problems.total(),
        1,
        "the extra number has no mapdif block"
    );
    let facet = files.view().unwrap();
    let second = {
        let list = std::fs::read(dir.path().join("stadifl0.mul")).unwrap();
        u32::from_le_bytes(list[8..12].try_into().unwrap()) as usize
    };
    let err = facet.statics.block(second).unwrap_err();
    assert_eq!(
        err.to_string(),
        "stadifi entry 2: offset 10000, length 7: it runs past the end of the data (the data \
         file is 35 bytes)"
    );
    for &b in patched.iter().filter(|&&b| b != second) {
        assert_eq!(facet.statics.block(b).unwrap().len(), 1);
    }
    let stats = query::statics_stats(&facet.statics, w.size.blocks());
    assert_eq!(stats.bad_blocks, 1);
}
