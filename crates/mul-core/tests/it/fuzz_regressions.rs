//! Replays the fuzz seeds and kept findings with truncations and seeded byte and bit
//! changes through `gamedata_exercise::uo`, each target's seeds through its own reading path:
//! no panic, whatever the bytes.

use std::path::Path;

use gamedata_exercise::uo as exercise;
use gamedata_testkit::{MutationPlan, replay_crate_regressions};

/// One of `exercise`'s reading paths.
type Walk = fn(&[u8]) -> u64;

#[test]
fn seeds_findings_and_their_mutations_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let plan = MutationPlan {
        byte_changes: 96,
        bit_flips: 96,
        ..MutationPlan::default()
    };
    let targets: [(&str, Walk); 18] = [
        ("uo_verdata", exercise::verdata),
        ("uo_def", exercise::def_text),
        ("uo_anim", exercise::anim),
        ("uo_anim_uop", exercise::anim_uop),
        ("uo_animdata", exercise::animdata),
        ("uo_art", exercise::art),
        ("uo_gump", exercise::gump),
        ("uo_texmap", exercise::texmap),
        ("uo_tiledata", exercise::tiledata),
        ("uo_map", exercise::map),
        ("uo_statics", exercise::statics),
        ("uo_multi", exercise::multi),
        ("uo_colours", exercise::colours),
        ("uo_uop", exercise::uop),
        ("uo_patched", exercise::patched),
        ("uo_folder", exercise::folder),
        ("uo_sizes", exercise::sizes),
        ("uo_round_trip", exercise::round_trip),
    ];
    let mut runs = 0;
    for (target, walk) in targets {
        runs += replay_crate_regressions(root, target, 1, plan, |data| {
            walk(data);
        });
    }
    assert!(runs > 7000, "{runs} runs");
}

#[test]
fn the_seeds_reach_what_they_are_for() {
    use gamedata_exercise::io::split_parts;
    use mul_core::{DiffIndex, Limits, MapChunk, Uop, facet::map_uop};
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds");
    let read = |name: &str| std::fs::read(seeds.join(name)).unwrap();
    // The art seed: a land tile and its repeat, two items with runs, an empty entry and an
    // overlap, so that the walk reaches every kind of entry.
    let seed = read("uo_art/land_repeat_items_overlap");
    let [index, data] = split_parts::<2, 4>(&seed);
    let art = mul_core::Art::parse(index, data).unwrap();
    let land = |n| {
        art.entry(n)
            .unwrap()
            .and_then(|b| mul_core::LandArt::parse(b).ok())
    };
    assert_eq!(land(0).unwrap().pixels(), land(1).unwrap().pixels());
    for n in [2, 3] {
        let item = mul_core::ItemArt::parse(art.entry(n).unwrap().unwrap()).unwrap();
        assert!(item.runs().all(|r| r.is_ok()) && item.runs().count() > 0);
    }
    assert!(art.entry(4).unwrap().is_none());
    assert!(art.entry(5).is_err());
    assert!(exercise::art(&seed) > 0);
    // The gump seeds: MUL gumps with a repeat, an empty entry and an overlap; the same as a
    // UOP read through its slots.
    let seed = read("uo_gump/repeat_empty_overlap");
    let [index, data] = split_parts::<2, 4>(&seed);
    let gumps = mul_core::Gumps::parse(index, data).unwrap();
    assert_eq!(gumps.entry(2).unwrap(), gumps.entry(0).unwrap());
    assert!(gumps.gump(1).unwrap().unwrap().runs().all(|r| r.is_ok()));
    assert!(gumps.entry(3).unwrap().is_none());
    // The overlapping entry is the error; the gumps it overlaps read.
    assert!(gumps.entry(4).is_err() && gumps.entry(0).is_ok() && gumps.entry(1).is_ok());
    assert!(exercise::gump(&seed) > 0);
    let seed = read("uo_gump/uop_no_index");
    let [_, uop] = split_parts::<2, 4>(&seed);
    let slots =
        mul_core::UopIndex::build(uop, &Limits::default(), mul_core::UopPictures::Gumps).unwrap();
    let gumps = mul_core::Gumps::from_uop(&slots, uop);
    assert_eq!(gumps.gump(0).unwrap().unwrap().width(), 5);
    assert!(exercise::gump(&seed) > 0);
    // The same gumps stored compressed (3: zlib then BWT; 1: zlib), each decoded.
    for name in ["uo_gump/uop_compressed_bwt", "uo_gump/uop_compressed_zlib"] {
        let seed = read(name);
        let [_, uop] = split_parts::<2, 4>(&seed);
        let slots =
            mul_core::UopIndex::build(uop, &Limits::default(), mul_core::UopPictures::Gumps)
                .unwrap();
        let gumps = mul_core::Gumps::from_uop(&slots, uop);
        assert!(gumps.is_compressed(0) && gumps.is_compressed(1));
        let decoded = gumps.decoded(0, &Limits::default()).unwrap().unwrap();
        assert_eq!(decoded.gump().unwrap().width(), 5);
        assert!(exercise::gump(&seed) > 0);
    }
    // Eight compressed gumps over two shared streams (issue 56): gumps 0 to 3 name one
    // zlib stream (compression 1) declaring its length, one more, 3 and its length again;
    // 4 to 7 one stream of empty blocks (compression 3) declaring 0 to 3. Gumps 0 and 3
    // decode, the others are errors for themselves.
    let seed = read("uo_gump/uop_shared_stream");
    let [_, uop] = split_parts::<2, 4>(&seed);
    let slots =
        mul_core::UopIndex::build(uop, &Limits::default(), mul_core::UopPictures::Gumps).unwrap();
    let gumps = mul_core::Gumps::from_uop(&slots, uop);
    let stream = |id: u32| gumps.compressed_stream(id).unwrap().unwrap().stored;
    assert!(std::ptr::eq(stream(0), stream(3)) && std::ptr::eq(stream(4), stream(7)));
    let decodes: Vec<bool> = (0..8)
        .map(|id| gumps.decoded(id, &Limits::default()).is_ok())
        .collect();
    assert_eq!(
        decodes,
        [true, false, false, true, false, false, false, false]
    );
    assert!(exercise::gump(&seed) > 0);
    // One gump's BWT stage alone: 40 bytes back.
    let seed = read("uo_gump/bwt_stage");
    assert_eq!(
        mul_core::gump::bwt::decompress(seed, &Limits::default())
            .unwrap()
            .len(),
        40
    );
    // The texture map seed: both sizes, a repeat, an empty entry, a length of neither size,
    // an overlap and an entry past the end.
    let seed = read("uo_texmap/sizes_repeat_empty_bad_overlap_past_end");
    let [index, data] = split_parts::<2, 4>(&seed);
    let texmaps = mul_core::Texmaps::parse(index, data).unwrap();
    let side = |id| texmaps.texmap(id).map(|t| t.map(|t| t.side()));
    assert_eq!(
        [side(0), side(1), side(2), side(3)].map(Result::unwrap),
        [Some(64), Some(128), Some(64), None]
    );
    let kind = |id| texmaps.texmap(id).unwrap_err().kind;
    assert_eq!(
        kind(4),
        mul_core::ErrorKind::Picture(mul_core::PictureProblem::TexmapLength { found: 0x1000 })
    );
    for (id, overlap) in [(5, true), (6, false)] {
        let mul_core::ErrorKind::IndexEntry { problem, .. } = kind(id) else {
            panic!("{id}: {:?}", kind(id));
        };
        assert_eq!(
            problem,
            if overlap {
                mul_core::IndexProblem::Overlap { other: 0 }
            } else {
                mul_core::IndexProblem::PastEnd
            }
        );
    }
    assert!(exercise::texmap(&seed) > 0);
    // The animation seed: body 0's block with two groups, a repeat, an empty record, an
    // overlap and an empty frame, so that the walk reaches every kind of record and frame.
    let seed = read("uo_anim/body_0_repeat_empty_overlap");
    let [index, data] = split_parts::<2, 4>(&seed);
    let anim = mul_core::Animations::parse(mul_core::AnimFileId::Anim, index, data).unwrap();
    assert_eq!(anim.body(0).unwrap().first, 0);
    let group = anim.group(0, 0, 0).unwrap().unwrap();
    assert_eq!(group.frame_count(), 2);
    for frame in group.frames() {
        assert!(frame.unwrap().runs().all(|r| r.is_ok()));
    }
    assert_eq!(anim.entry(1).unwrap(), anim.entry(0).unwrap());
    assert!(anim.group(0, 0, 2).unwrap().is_none());
    assert!(anim.group(0, 0, 3).is_err());
    let with_empty = anim.group(0, 0, 4).unwrap().unwrap();
    assert!(with_empty.frame(1).unwrap().unwrap().is_empty());
    assert!(exercise::anim(&seed) > 0);
    // The patched facet: both patches have blocks, and the walk gets past its early returns
    // (0: no map size, 1: the plain facet does not parse) into the patch check.
    let seed = read("uo_patched/synthetic_4x4_blocks_3_diffs");
    let [_, _, _, mapdifl, mapdif, stadifl, stadifi, stadif] = split_parts::<8, 2>(&seed);
    let index = DiffIndex::new(Some((mapdifl, mapdif)), Some((stadifl, stadifi, stadif)));
    assert!(
        !index.map.is_empty() && !index.statics.is_empty(),
        "{index:?}"
    );
    assert!(exercise::patched(&seed) > 1);
    // The UOP seeds: the map's chunks are found, stored in place and as zlib.
    for (name, decoded) in [("map_64_blocks", false), ("map_64_blocks_zlib", true)] {
        let seed = read(&format!("uo_uop/{name}"));
        let container = Uop::parse(&seed, &Limits::default()).unwrap();
        let chunks = map_uop::map_chunks(&container, 0, &Limits::default()).unwrap();
        assert_eq!(
            chunks.iter().map(MapChunk::len).sum::<usize>(),
            64,
            "{name}"
        );
        assert_eq!(
            chunks.iter().any(|c| matches!(c, MapChunk::Decoded(_))),
            decoded,
            "{name}"
        );
        assert!(exercise::uop(&seed) > 64 * 196, "{name}");
    }
    // AnimationFrame1.uop's names over two shared streams (issue 56): bodies 0 to 3 over one
    // zlib stream of 100 bytes (compression 1) declaring 100, 99, 101, 0; bodies 4 to 7
    // over one stream of empty blocks (compression 3) declaring 0 to 3. Body 0 decodes,
    // the others are errors for themselves.
    let seed = read("uo_uop/anim_shared_stream");
    let animations = mul_core::UopAnimations::parse([(1, &seed[..])], &Limits::default()).unwrap();
    let start = |body: u16| animations.stream(body, 0).unwrap().unwrap().start;
    assert!(start(0) == start(3) && start(4) == start(7) && start(0) != start(4));
    let decodes: Vec<bool> = (0..8)
        .map(|body| animations.decoded(body, 0, &Limits::default()).is_ok())
        .collect();
    assert_eq!(
        decodes,
        [true, false, false, false, false, false, false, false]
    );
    assert!(exercise::uop(&seed) > 0);
}

/// Each target's seeds get past its first parse, into the work the target is for (the
/// targets split their input as `exercise` does: see its functions).
#[test]
fn every_seed_gets_past_its_target_s_first_parse() {
    use gamedata_exercise::io::split_parts;
    use mul_core::{Hues, Map, MapSize, Multis, RadarColours, Statics, TileData, TileDataLayout};
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds");
    let read = |name: &str| std::fs::read(seeds.join(name)).unwrap();
    // uo_tiledata: a High Seas table.
    let data = read("uo_tiledata/synthetic_high_seas");
    assert_eq!(
        TileData::parse(&data).unwrap().layout(),
        TileDataLayout::HighSeas
    );
    // uo_map: the first byte gives the width in blocks (byte % 32 + 1), the rest is blocks.
    let data = read("uo_map/synthetic_4x4_blocks");
    let (width, blocks) = (u32::from(data[0] % 32) + 1, (data.len() - 1) / 196);
    let size = MapSize::from_blocks(width, blocks as u32 / width).unwrap();
    assert_eq!(Map::parse(&data[1..], size).unwrap().len(), 16);
    // uo_statics: an index and its statics, with statics in some blocks.
    for name in [
        "uo_statics/prealpha_shape",
        "uo_statics/synthetic_8x8_blocks",
    ] {
        let data = read(name);
        let [index, rest] = split_parts::<2, 2>(&data);
        let statics = Statics::parse(index, rest, None).unwrap();
        let found: usize = (0..statics.index().len())
            .filter_map(|b| statics.block(b).ok())
            .map(|s| s.len())
            .sum();
        assert!(found > 0, "{name}");
    }
    // uo_multi: an index and its 16-byte components.
    let data = read("uo_multi/sixteen_byte");
    let [index, rest] = split_parts::<2, 2>(&data);
    assert!(Multis::parse(index, rest, None).unwrap().ids().count() > 0);
    // uo_colours: a radar colour file and a hue file.
    assert!(RadarColours::parse(&read("uo_colours/synthetic_radarcol")).is_ok());
    assert!(
        !Hues::parse(&read("uo_colours/synthetic_hues"))
            .unwrap()
            .is_empty()
    );
    // uo_round_trip: whole blocks after the facet byte; 0xFA and up repeat them.
    for (name, repeated) in [
        ("uo_round_trip/map_16_blocks", false),
        ("uo_round_trip/map_16_blocks_repeated", true),
    ] {
        let data = read(name);
        assert_eq!((data.len() - 1) % 196, 0, "{name}");
        assert_eq!(data[0] >= 0xFA, repeated, "{name}");
        assert!(exercise::round_trip(&data) > 1, "{name}");
    }
    // uo_sizes: words that make map sizes.
    let data = read("uo_sizes/real_facets_and_text");
    let sizes = data
        .chunks(16)
        .filter(|w| w.len() >= 8)
        .filter(|w| {
            let word = |i: usize| u32::from_le_bytes(w[i * 4..i * 4 + 4].try_into().unwrap());
            MapSize::from_blocks(word(0), word(1)).is_ok()
        })
        .count();
    assert!(sizes >= 6, "{sizes}");
    // uo_folder: a map of 4 x 4 blocks with its index, statics and diff files, and a
    // tiledata in the seed named for it.
    for (name, tiledata) in [
        ("uo_folder/facet_4x4_blocks_mul_diffs", false),
        ("uo_folder/facet_4x4_blocks_tiledata", true),
        ("uo_folder/facet_4x4_blocks_uop_diffs", false),
    ] {
        let data = read(name);
        let parts = split_parts::<12, 4>(&data);
        assert!(!parts[0].is_empty() && parts[1].len() == 16 * 12, "{name}");
        assert!(Statics::parse(parts[1], parts[2], None).is_ok(), "{name}");
        assert_eq!(TileData::parse(parts[3]).is_ok(), tiledata, "{name}");
        assert!(parts[6..11].iter().all(|p| !p.is_empty()), "{name}");
    }
}
