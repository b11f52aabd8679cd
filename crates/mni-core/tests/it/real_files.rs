//! Tests on the real episode 1 shareware files (`$GAMEDATA_DIR/cosmo/COSMO1.STN`, `.VOL`).
//!
//! Ignored by default; run with `GAMEDATA_DIR=../shared/data cargo test -- --include-ignored`.
//! The expected directories agree with `../shared/data/MANIFEST.md` and with
//! `tools/reference/cosmo_goldens.py`'s listings (the CLI's goldens); the maps' sizes, actors,
//! backdrops and music, the tile attribute figures, the sprite table's figures, the cells not
//! drawn and the special actors come from `tools/reference/cosmo_facts.py` (its output,
//! `tools/reference/goldens/cosmo_facts.json`, is read by the tests; `.ci/run` runs the script
//! and compares).

use std::path::PathBuf;

use mni_core::{Episode, EpisodeFiles, Group, GroupKind, MapTile, TileAttrTable};

/// `$GAMEDATA_DIR/cosmo`; fails loudly when the variable is unset or a file is missing.
fn cosmo_dir() -> PathBuf {
    gamedata_testkit::require_file("cosmo/COSMO1.STN");
    gamedata_testkit::require_file("cosmo/COSMO1.VOL");
    gamedata_testkit::require_file("cosmo")
}

fn files() -> EpisodeFiles {
    EpisodeFiles::open(cosmo_dir(), 1).expect("COSMO1.STN and COSMO1.VOL")
}

const STN: [(&str, u32, u32); 21] = [
    ("MASKTILE.MNI", 4000, 40000),
    ("TILES.MNI", 44000, 64000),
    ("ACTRINFO.MNI", 108000, 4646),
    ("PLYRINFO.MNI", 112646, 386),
    ("CARTINFO.MNI", 113032, 178),
    ("CARTOON.MNI", 113210, 64280),
    ("FONTS.MNI", 177490, 4000),
    ("SOUNDS.MNI", 181490, 3332),
    ("SOUNDS2.MNI", 184822, 3876),
    ("SOUNDS3.MNI", 188698, 4020),
    ("ACTORS.MNI", 192718, 191910),
    ("PLAYERS.MNI", 384628, 30000),
    ("PRETITLE.MNI", 414628, 32000),
    ("TILEATTR.MNI", 446628, 7000),
    ("BONUS.MNI", 453628, 32000),
    ("CREDIT.MNI", 485628, 32000),
    ("ONEMOMNT.MNI", 517628, 32000),
    ("STATUS.MNI", 549628, 7296),
    ("BDSTAR2.MNI", 556924, 23040),
    ("BDSTAR3.MNI", 579964, 23040),
    ("NOMEMORY.MNI", 603004, 4000),
];

const VOL: [(&str, u32, u32); 36] = [
    ("TITLE1.MNI", 4000, 32000),
    ("END1.MNI", 36000, 32000),
    ("A1.MNI", 68000, 67154),
    ("A2.MNI", 135154, 67418),
    ("A3.MNI", 202572, 67262),
    ("A5.MNI", 269834, 67904),
    ("A6.MNI", 337738, 66884),
    ("A9.MNI", 404622, 66752),
    ("A10.MNI", 471374, 68156),
    ("A11.MNI", 539530, 65984),
    ("A7.MNI", 605514, 67700),
    ("A8.MNI", 673214, 67502),
    ("BONUS1.MNI", 740716, 66794),
    ("BONUS2.MNI", 807510, 67580),
    ("A4.MNI", 875090, 67004),
    ("BDWIERD.MNI", 942094, 23040),
    ("BDNEWSKY.MNI", 965134, 23040),
    ("BDFOREST.MNI", 988174, 23040),
    ("BDSPOOKY.MNI", 1011214, 23040),
    ("BDCLIFF.MNI", 1034254, 23040),
    ("BDICE2.MNI", 1057294, 23040),
    ("BDCLOUDS.MNI", 1080334, 23040),
    ("BDROCKTK.MNI", 1103374, 23040),
    ("BDMOUNTN.MNI", 1126414, 23040),
    ("MHAPPY.MNI", 1149454, 15848),
    ("MDRUMS.MNI", 1165302, 20640),
    ("MRUNAWAY.MNI", 1185942, 10892),
    ("MZZTOP.MNI", 1196834, 25152),
    ("MDEVO.MNI", 1221986, 25784),
    ("MBOSS.MNI", 1247770, 29584),
    ("MCAVES.MNI", 1277354, 17080),
    ("MDADODA.MNI", 1294434, 23768),
    ("COSMO1.MNI", 1318202, 4000),
    ("MTECK4.MNI", 1322202, 14908),
    ("MEASY2.MNI", 1337110, 21060),
    ("PREVDEMO.MNI", 1358170, 1769),
];

/// (name, width, height, actors, backdrop, music) of the 13 maps, from
/// `tools/reference/cosmo_facts.py` (goldens/cosmo_facts.json, "maps").
fn maps() -> Vec<(String, u16, u16, usize, u8, u8)> {
    let facts = gamedata_testkit::reference("cosmo_facts.json");
    let maps = facts["maps"].as_object().unwrap();
    let n = |v: &serde_json::Value| v.as_u64().unwrap();
    maps.iter()
        .map(|(name, m)| {
            (
                name.clone(),
                u16::try_from(n(&m[0])).unwrap(),
                u16::try_from(n(&m[1])).unwrap(),
                usize::try_from(n(&m[2])).unwrap(),
                u8::try_from(n(&m[3])).unwrap(),
                u8::try_from(n(&m[4])).unwrap(),
            )
        })
        .collect()
}

fn check_directory(group: &Group<'_>, expected: &[(&str, u32, u32)], count: u32, file_len: usize) {
    assert_eq!(group.bytes().len(), file_len);
    assert_eq!(group.len(), expected.len());
    assert_eq!(group.declared_count(), Some(count));
    for (entry, &(name, offset, size)) in group.entries().zip(expected) {
        assert_eq!(entry.name(), name.as_bytes());
        assert_eq!((entry.offset(), entry.size()), (offset, size), "{name}");
        assert_eq!(entry.data().unwrap().len(), size as usize, "{name}");
    }
    // Data is contiguous from byte 4,000 to the end of the file.
    let mut at = 4000;
    for &(_, offset, size) in expected {
        assert_eq!(offset, at);
        at += size;
    }
    assert_eq!(at as usize, file_len);
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn stn_and_vol_directories() {
    let f = files();
    let ep = f.view().unwrap();
    check_directory(&ep.stn, &STN, 21, 607_004);
    check_directory(&ep.vol, &VOL, 36, 1_359_939);
    assert_eq!(ep.find("tileattr.mni").unwrap().0, GroupKind::Stn);
    assert_eq!(ep.find("a1.mni").unwrap().0, GroupKind::Vol);
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn tile_attribute_figures_match_the_seed() {
    let f = files();
    let ep = f.view().unwrap();
    let s = ep.tile_attributes().unwrap().summary();
    // The figures of tools/reference/cosmo_facts.py (goldens/cosmo_facts.json, "tileattr").
    let facts = gamedata_testkit::reference("cosmo_facts.json");
    let want = &facts["tileattr"];
    let n = |key: &str| want[key].as_u64().unwrap();
    assert_eq!(u64::from(s.tiles), n("tiles"));
    assert_eq!(u64::from(s.south_only), n("south_only"));
    assert_eq!(u64::from(s.other_mix), n("other_mix"));
    assert_eq!(u64::from(s.blocks_nothing), n("blocks_nothing"));
    assert_eq!(u64::from(s.blocks_everything), n("blocks_everything"));
    // "90% of the tiles" block nothing or everything (seed): 2,711 / 3,000 = 90.4%.
    assert_eq!(s.blocks_nothing + s.blocks_everything, 2711);
    // Our name for each bit against the script's count under that name.
    let flags: Vec<u64> = mni_core::TileAttributes::FLAG_NAMES
        .map(|f| want["flags"][f].as_u64().unwrap())
        .into();
    assert_eq!(s.flags.map(u64::from).to_vec(), flags);
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn all_thirteen_maps_parse() {
    let f = files();
    let ep: Episode<'_> = f.view().unwrap();
    let mut names: Vec<String> = ep
        .level_names()
        .map(|e| e.name_lossy().into_owned())
        .collect();
    names.sort();
    let maps = maps();
    assert_eq!(maps.len(), 13);
    let mut expected: Vec<&str> = maps.iter().map(|m| m.0.as_str()).collect();
    expected.sort();
    assert_eq!(names, expected);
    let attrs: TileAttrTable<'_> = ep.tile_attributes().unwrap();
    let images = ep.tile_images().unwrap();
    assert_eq!((images.solid.len(), images.masked.len()), (2000, 1000));
    let mut not_drawn = 0;
    for (name, width, height, actors, backdrop, music) in maps.iter().cloned() {
        let map = ep.level(&name).unwrap().unwrap();
        assert_eq!(
            (map.width(), map.height(), map.actors().len()),
            (width, height, actors),
            "{name}"
        );
        assert_eq!(
            (map.flags().backdrop, map.flags().music),
            (backdrop, music),
            "{name}"
        );
        assert!(map.trailing().is_empty(), "{name}");
        // Every stored cell has an attribute and a tile image.
        assert_eq!(map.cell_attributes(&attrs).len(), 32_764);
        for v in map.tile_values() {
            assert!(
                attrs.for_value(v.get()).is_some(),
                "{name}: value {}",
                v.get()
            );
            let has_image = match MapTile::from_value(v.get()) {
                MapTile::Solid(i) => images.solid.get(i).is_some(),
                MapTile::Masked(i) => images.masked.get(i).is_some(),
            };
            assert!(has_image, "{name}: value {}", v.get());
        }
        not_drawn += 32_764 - map.drawn_cells().count();
    }
    // Value 0 and the platform arrows (values 8..64) are not drawn (docs/formats/cosmo.md,
    // "Maps"): 303,940 cells, counted by tools/reference/cosmo_facts.py.
    let facts = gamedata_testkit::reference("cosmo_facts.json");
    assert_eq!(not_drawn as u64, facts["cells_not_drawn"].as_u64().unwrap());
    let a1 = ep.level("A1.MNI").unwrap().unwrap();
    assert_eq!((a1.width() as u32 * 8, a1.height() as u32 * 8), (4096, 512));
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn actor_sprites_and_backdrops() {
    use mni_core::raw::SPRITE_SEGMENT_LEN;
    use mni_core::{ActorKind, ActorSprite, Backdrop};

    let f = files();
    let ep = f.view().unwrap();
    let sprites = ep.sprites().unwrap();
    // The figures of tools/reference/cosmo_facts.py (an independent reader of the raw bytes;
    // Cosmodoc, "Tile Info Format", also gives 267 sprite types).
    let facts = gamedata_testkit::reference("cosmo_facts.json");
    let fact = |key: &str| facts[key].as_u64().unwrap();
    assert_eq!(
        u64::from(sprites.table.sprite_count()),
        fact("sprite_types")
    );
    assert_eq!(
        sprites.table.all_frames().len() as u64,
        fact("frame_records")
    );
    // Every frame of every type cuts from ACTORS.MNI, and the last one ends the file.
    let mut frames = 0;
    let mut furthest = 0u64;
    for sprite in 0..267 {
        let records = sprites.table.frames(sprite).unwrap();
        assert!(!records.is_empty(), "sprite type {sprite} has frames");
        for (frame, r) in (0u16..).zip(records) {
            let f = sprites.frame(sprite, frame).unwrap().unwrap();
            assert_eq!(
                f.tiles().len(),
                usize::from(f.width) * usize::from(f.height)
            );
            let start = u64::from(r.segment.get()) * SPRITE_SEGMENT_LEN + u64::from(r.offset.get());
            furthest = furthest.max(start + 40 * f.tiles().len() as u64);
            frames += 1;
        }
    }
    // 107 types start at the same record as the next type and share its frames (Cosmore's
    // sprite.h calls sprite type 150 "a copy of SMALL_FLAME", 151): 751 frames by type, 514
    // records, 160 distinct starts.
    assert_eq!(frames, fact("frames_by_type"));
    let starts: std::collections::BTreeSet<_> = (0..267)
        .map(|s| sprites.table.frames(s).unwrap().as_ptr())
        .collect();
    assert_eq!(starts.len() as u64, fact("distinct_starts"));
    assert_eq!(furthest, fact("furthest_frame_byte"));
    // Every normal actor of the 13 maps is an actor type the game defines, with frames; the
    // special actors of each map as the reference reader counts them.
    let special = facts["special_actors"].as_object().unwrap();
    assert_eq!(special.len(), 13);
    for (name, specials) in special {
        let map = ep.level(name).unwrap().unwrap();
        let specials = specials.as_u64().unwrap();
        let mut found = 0u64;
        for actor in map.actors() {
            match actor.kind {
                ActorKind::Special(_) => found += 1,
                ActorKind::Normal(t) => {
                    let s = ActorSprite::of(t).unwrap_or_else(|| panic!("{name}: type {t}"));
                    sprites.frame(s.sprite, 0).unwrap().unwrap();
                }
            }
        }
        assert_eq!(found, specials, "{name}");
        // Its backdrop is in the group files, whole.
        let b: Backdrop<'_> = ep.backdrop(map.flags().backdrop).unwrap().unwrap();
        assert_eq!(b.tiles().len(), 720, "{name}");
    }
    // A1's backdrop number is 11: BDNEWSKY.MNI, in the VOL.
    assert_eq!(ep.level("A1.MNI").unwrap().unwrap().flags().backdrop, 11);
    assert_eq!(
        ep.backdrop(11).unwrap().unwrap().tiles().as_ptr(),
        Backdrop::parse(ep.get("BDNEWSKY.MNI").unwrap().unwrap())
            .unwrap()
            .tiles()
            .as_ptr()
    );
}
