//! Planes, objects, tile properties, game, layout and the writer on every level of
//! `$GAMEDATA_DIR/wwd`. The expected figures come from a separate Python script over the
//! raw bytes (zlib, struct), not from this crate.

use std::collections::HashMap;

use gamedata_io::FileData;
use gamedata_testkit::require_file;
use wap_core::{CodePage, Game, LevelData, LevelFile, Limits, TileAttributes, decode};

/// One plane: name bytes, flags, tile size (px), size in tiles, z, image-set names,
/// objects, invisible and filled tiles.
struct P {
    name: &'static [u8],
    flags: u32,
    tile: i32,
    wide: u32,
    high: u32,
    z: i32,
    sets: &'static [&'static [u8]],
    objects: u32,
    invisible: usize,
    filled: usize,
}

/// One level: file, game, planes, tile property records [count, single, double, mask].
struct L {
    file: &'static str,
    game: Game,
    planes: &'static [P],
    properties: [usize; 4],
}

#[rustfmt::skip]
const LEVELS: [L; 24] = [
    L {
        file: "BombzAway!.wwd",
        game: Game::Gruntz,
        planes: &[
            P { name: b"Action", flags: 1, tile: 32, wide: 120, high: 70, z: 0, sets: &[b"ACTION"], objects: 1728, invisible: 0, filled: 0 },
        ],
        properties: [910, 910, 0, 0],
    },
    L {
        file: "Bushy.wwd",
        game: Game::Claw,
        planes: &[
            P { name: b"T\xb3o", flags: 4, tile: 64, wide: 24, high: 100, z: -9500, sets: &[b"BACK"], objects: 0, invisible: 0, filled: 692 },
            P { name: b"T\xb3o 2", flags: 12, tile: 64, wide: 15, high: 10, z: -5000, sets: &[b"ACTION"], objects: 0, invisible: 132, filled: 0 },
            P { name: b"Akcja", flags: 1, tile: 64, wide: 204, high: 152, z: 0, sets: &[b"FRONT"], objects: 464, invisible: 25642, filled: 0 },
        ],
        properties: [930, 845, 85, 0],
    },
    L {
        file: "GRUNTZREZ_AREA8_WORLDZ_LEVEL29.WWD",
        game: Game::Gruntz,
        planes: &[
            P { name: b"Back", flags: 12, tile: 32, wide: 80, high: 80, z: 0, sets: &[b"BACK"], objects: 0, invisible: 0, filled: 0 },
            P { name: b"Action", flags: 1, tile: 32, wide: 80, high: 80, z: 0, sets: &[b"ACTION"], objects: 740, invisible: 680, filled: 0 },
        ],
        properties: [910, 910, 0, 0],
    },
    L {
        file: "LePortdeCoolness.wwd",
        game: Game::Claw,
        planes: &[
            P { name: b"Background", flags: 4, tile: 64, wide: 24, high: 64, z: -999, sets: &[b"BACK"], objects: 0, invisible: 576, filled: 752 },
            P { name: b"Action", flags: 1, tile: 64, wide: 768, high: 192, z: 0, sets: &[b"ACTION"], objects: 1304, invisible: 142010, filled: 0 },
            P { name: b"Front", flags: 4, tile: 64, wide: 21, high: 250, z: 9000, sets: &[b"FRONT"], objects: 0, invisible: 4549, filled: 0 },
        ],
        properties: [928, 856, 70, 2],
    },
    L {
        file: "MountEverest.wwd",
        game: Game::Claw,
        planes: &[
            P { name: b"Background", flags: 12, tile: 64, wide: 24, high: 100, z: -1000, sets: &[b"BACK"], objects: 0, invisible: 0, filled: 0 },
            P { name: b"Action", flags: 1, tile: 64, wide: 750, high: 192, z: 0, sets: &[b"ACTION"], objects: 2167, invisible: 136693, filled: 0 },
            P { name: b"Front", flags: 4, tile: 64, wide: 24, high: 300, z: 9000, sets: &[b"FRONT"], objects: 0, invisible: 6461, filled: 0 },
        ],
        properties: [226, 105, 121, 0],
    },
    L {
        file: "ParadiseCove.wwd",
        game: Game::Claw,
        planes: &[
            P { name: b"Background", flags: 4, tile: 64, wide: 24, high: 100, z: -999, sets: &[b"BACK"], objects: 0, invisible: 552, filled: 900 },
            P { name: b"Action", flags: 1, tile: 64, wide: 768, high: 192, z: 0, sets: &[b"ACTION"], objects: 754, invisible: 145119, filled: 0 },
            P { name: b"Front", flags: 4, tile: 64, wide: 21, high: 240, z: 9000, sets: &[b"FRONT"], objects: 0, invisible: 4561, filled: 0 },
        ],
        properties: [928, 816, 111, 1],
    },
    L {
        file: "RETAIL01.WWD",
        game: Game::Claw,
        planes: &[
            P { name: b"Background", flags: 12, tile: 64, wide: 24, high: 24, z: -999, sets: &[b"BACK"], objects: 0, invisible: 0, filled: 0 },
            P { name: b"Action", flags: 1, tile: 64, wide: 384, high: 96, z: 0, sets: &[b"ACTION"], objects: 1479, invisible: 25587, filled: 0 },
            P { name: b"Front", flags: 4, tile: 64, wide: 24, high: 120, z: 9000, sets: &[b"FRONT"], objects: 0, invisible: 2280, filled: 0 },
        ],
        properties: [938, 905, 33, 0],
    },
    L {
        file: "RETAIL01_nocompress.WWD",
        game: Game::Claw,
        planes: &[
            P { name: b"Background", flags: 12, tile: 64, wide: 24, high: 24, z: -999, sets: &[b"BACK"], objects: 0, invisible: 0, filled: 0 },
            P { name: b"Action", flags: 1, tile: 64, wide: 384, high: 96, z: 0, sets: &[b"ACTION"], objects: 1479, invisible: 25587, filled: 0 },
            P { name: b"Front", flags: 4, tile: 64, wide: 24, high: 120, z: 9000, sets: &[b"FRONT"], objects: 0, invisible: 2280, filled: 0 },
        ],
        properties: [938, 905, 33, 0],
    },
    L {
        file: "RETAIL02.WWD",
        game: Game::Claw,
        planes: &[
            P { name: b"Background", flags: 12, tile: 64, wide: 24, high: 50, z: -999, sets: &[b"BACK"], objects: 0, invisible: 0, filled: 744 },
            P { name: b"Action", flags: 1, tile: 64, wide: 384, high: 96, z: 0, sets: &[b"ACTION"], objects: 1058, invisible: 26601, filled: 0 },
            P { name: b"Front", flags: 4, tile: 64, wide: 24, high: 120, z: 9000, sets: &[b"FRONT"], objects: 0, invisible: 2138, filled: 0 },
        ],
        properties: [512, 439, 73, 0],
    },
    L {
        file: "RETAIL03.WWD",
        game: Game::Claw,
        planes: &[
            P { name: b"Background", flags: 4, tile: 64, wide: 24, high: 100, z: -999, sets: &[b"BACK"], objects: 0, invisible: 0, filled: 692 },
            P { name: b"Action", flags: 1, tile: 64, wide: 768, high: 192, z: 0, sets: &[b"ACTION"], objects: 1379, invisible: 137369, filled: 0 },
            P { name: b"Front", flags: 4, tile: 64, wide: 24, high: 240, z: 9000, sets: &[b"FRONT"], objects: 0, invisible: 4658, filled: 0 },
        ],
        properties: [930, 856, 74, 0],
    },
    L {
        file: "RETAIL03_nocompress.WWD",
        game: Game::Claw,
        planes: &[
            P { name: b"Background", flags: 4, tile: 64, wide: 24, high: 100, z: -999, sets: &[b"BACK"], objects: 0, invisible: 0, filled: 692 },
            P { name: b"Action", flags: 1, tile: 64, wide: 768, high: 192, z: 0, sets: &[b"ACTION"], objects: 1379, invisible: 137369, filled: 0 },
            P { name: b"Front", flags: 4, tile: 64, wide: 24, high: 240, z: 9000, sets: &[b"FRONT"], objects: 0, invisible: 4658, filled: 0 },
        ],
        properties: [930, 856, 74, 0],
    },
    L {
        file: "RETAIL04.WWD",
        game: Game::Claw,
        planes: &[
            P { name: b"Background", flags: 12, tile: 64, wide: 24, high: 24, z: -1000, sets: &[b"BACK"], objects: 0, invisible: 0, filled: 0 },
            P { name: b"Action", flags: 1, tile: 64, wide: 384, high: 120, z: 0, sets: &[b"ACTION"], objects: 2313, invisible: 41215, filled: 0 },
            P { name: b"Front", flags: 4, tile: 64, wide: 28, high: 121, z: 9000, sets: &[b"FRONT"], objects: 0, invisible: 3076, filled: 0 },
        ],
        properties: [602, 545, 57, 0],
    },
    L {
        file: "RETAIL05.WWD",
        game: Game::Claw,
        planes: &[
            P { name: b"Background", flags: 4, tile: 64, wide: 375, high: 100, z: -999, sets: &[b"BACK"], objects: 0, invisible: 0, filled: 32002 },
            P { name: b"Action", flags: 1, tile: 64, wide: 768, high: 192, z: 0, sets: &[b"ACTION"], objects: 1439, invisible: 140761, filled: 0 },
            P { name: b"Front", flags: 4, tile: 64, wide: 1154, high: 154, z: 9000, sets: &[b"FRONT"], objects: 0, invisible: 156402, filled: 0 },
        ],
        properties: [928, 801, 127, 0],
    },
    L {
        file: "RETAIL06.WWD",
        game: Game::Claw,
        planes: &[
            P { name: b"Background", flags: 4, tile: 64, wide: 24, high: 64, z: -999, sets: &[b"BACK"], objects: 0, invisible: 576, filled: 752 },
            P { name: b"Action", flags: 1, tile: 64, wide: 768, high: 192, z: 0, sets: &[b"ACTION"], objects: 1852, invisible: 115540, filled: 0 },
            P { name: b"Front", flags: 4, tile: 64, wide: 21, high: 250, z: 9000, sets: &[b"FRONT"], objects: 0, invisible: 4549, filled: 0 },
        ],
        properties: [928, 858, 70, 0],
    },
    L {
        file: "RETAIL07.WWD",
        game: Game::Claw,
        planes: &[
            P { name: b"Background", flags: 4, tile: 64, wide: 16, high: 100, z: -999, sets: &[b"BACK"], objects: 0, invisible: 0, filled: 496 },
            P { name: b"Action", flags: 1, tile: 64, wide: 768, high: 192, z: 0, sets: &[b"ACTION"], objects: 3315, invisible: 140110, filled: 0 },
            P { name: b"Front", flags: 4, tile: 64, wide: 24, high: 240, z: 9000, sets: &[b"FRONT"], objects: 0, invisible: 5400, filled: 192 },
        ],
        properties: [928, 868, 60, 0],
    },
    L {
        file: "RETAIL08.WWD",
        game: Game::Claw,
        planes: &[
            P { name: b"Background", flags: 4, tile: 64, wide: 25, high: 95, z: -1000, sets: &[b"BACK"], objects: 0, invisible: 1100, filled: 223 },
            P { name: b"Action", flags: 1, tile: 64, wide: 768, high: 192, z: 0, sets: &[b"ACTION"], objects: 2704, invisible: 123292, filled: 16801 },
            P { name: b"Front", flags: 4, tile: 64, wide: 24, high: 192, z: 9000, sets: &[b"FRONT"], objects: 0, invisible: 4231, filled: 0 },
        ],
        properties: [928, 822, 106, 0],
    },
    L {
        file: "RETAIL09.WWD",
        game: Game::Claw,
        planes: &[
            P { name: b"Background", flags: 4, tile: 64, wide: 24, high: 100, z: -999, sets: &[b"BACK"], objects: 0, invisible: 552, filled: 900 },
            P { name: b"Action", flags: 1, tile: 64, wide: 768, high: 192, z: 0, sets: &[b"ACTION"], objects: 2849, invisible: 134830, filled: 0 },
            P { name: b"Front", flags: 4, tile: 64, wide: 21, high: 240, z: 9000, sets: &[b"FRONT"], objects: 0, invisible: 4561, filled: 0 },
        ],
        properties: [928, 817, 111, 0],
    },
    L {
        file: "RETAIL10.WWD",
        game: Game::Claw,
        planes: &[
            P { name: b"Background", flags: 12, tile: 64, wide: 24, high: 100, z: -1000, sets: &[b"BACK"], objects: 0, invisible: 0, filled: 1224 },
            P { name: b"Action", flags: 1, tile: 64, wide: 750, high: 192, z: 0, sets: &[b"ACTION"], objects: 2536, invisible: 100218, filled: 0 },
            P { name: b"Front", flags: 4, tile: 64, wide: 24, high: 300, z: 9000, sets: &[b"FRONT"], objects: 0, invisible: 6465, filled: 0 },
        ],
        properties: [226, 105, 121, 0],
    },
    L {
        file: "RETAIL11.WWD",
        game: Game::Claw,
        planes: &[
            P { name: b"Background", flags: 12, tile: 64, wide: 27, high: 27, z: -999, sets: &[b"BACK"], objects: 0, invisible: 0, filled: 0 },
            P { name: b"Action", flags: 1, tile: 64, wide: 384, high: 96, z: 0, sets: &[b"ACTION"], objects: 3203, invisible: 23843, filled: 0 },
            P { name: b"Front", flags: 12, tile: 64, wide: 24, high: 24, z: 9000, sets: &[b"FRONT"], objects: 0, invisible: 510, filled: 0 },
        ],
        properties: [382, 315, 67, 0],
    },
    L {
        file: "RETAIL12.WWD",
        game: Game::Claw,
        planes: &[
            P { name: b"Background", flags: 12, tile: 64, wide: 24, high: 50, z: -999, sets: &[b"BACK"], objects: 0, invisible: 0, filled: 0 },
            P { name: b"Action", flags: 1, tile: 64, wide: 700, high: 96, z: 0, sets: &[b"ACTION"], objects: 3193, invisible: 46930, filled: 0 },
            P { name: b"Front", flags: 4, tile: 64, wide: 24, high: 120, z: 9000, sets: &[b"FRONT"], objects: 0, invisible: 2616, filled: 0 },
        ],
        properties: [421, 357, 64, 0],
    },
    L {
        file: "RETAIL13.WWD",
        game: Game::Claw,
        planes: &[
            P { name: b"Background", flags: 0, tile: 64, wide: 469, high: 120, z: -100, sets: &[b"BACK"], objects: 0, invisible: 0, filled: 45177 },
            P { name: b"Action", flags: 1, tile: 64, wide: 750, high: 300, z: 0, sets: &[b"ACTION"], objects: 4154, invisible: 184700, filled: 0 },
            P { name: b"Front", flags: 4, tile: 64, wide: 24, high: 120, z: 9000, sets: &[b"FRONT"], objects: 0, invisible: 2510, filled: 0 },
        ],
        properties: [255, 166, 89, 0],
    },
    L {
        file: "RETAIL14.WWD",
        game: Game::Claw,
        planes: &[
            P { name: b"Background", flags: 12, tile: 64, wide: 24, high: 17, z: -999, sets: &[b"BACK"], objects: 0, invisible: 0, filled: 0 },
            P { name: b"Action", flags: 1, tile: 64, wide: 700, high: 96, z: 0, sets: &[b"ACTION"], objects: 3310, invisible: 51061, filled: 0 },
            P { name: b"Front", flags: 4, tile: 64, wide: 30, high: 120, z: 9000, sets: &[b"FRONT"], objects: 0, invisible: 3400, filled: 0 },
        ],
        properties: [430, 377, 53, 0],
    },
    L {
        file: "RockySwitch.wwd",
        game: Game::Gruntz,
        planes: &[
            P { name: b"Action", flags: 1, tile: 32, wide: 50, high: 50, z: 0, sets: &[b"ACTION"], objects: 569, invisible: 0, filled: 0 },
        ],
        properties: [910, 910, 0, 0],
    },
    L {
        file: "WapMapTest1.wwd",
        game: Game::Claw,
        planes: &[
            P { name: b"Background", flags: 12, tile: 64, wide: 24, high: 24, z: -999, sets: &[b"BACK"], objects: 0, invisible: 0, filled: 0 },
            P { name: b"Action", flags: 1, tile: 64, wide: 50, high: 50, z: 0, sets: &[b"ACTION"], objects: 1, invisible: 2381, filled: 1 },
            P { name: b"Front", flags: 4, tile: 64, wide: 24, high: 120, z: 9000, sets: &[b"FRONT"], objects: 0, invisible: 2280, filled: 0 },
        ],
        properties: [938, 905, 33, 0],
    },
];

fn open(file: &str) -> LevelFile {
    LevelFile::open(require_file(&format!("wwd/{file}")), &Limits::default()).unwrap()
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn every_level_reads_its_planes_objects_and_tile_properties() {
    for expected in &LEVELS {
        let file = expected.file;
        let owner = open(file);
        let level = owner.level().unwrap();
        assert_eq!(level.game(), expected.game, "{file}");
        assert_eq!(level.plane_count(), expected.planes.len(), "{file}");
        for (plane, want) in level.planes().zip(expected.planes) {
            let plane = plane.unwrap();
            let at = format!("{file} plane {}", plane.index());
            assert_eq!(plane.name(), want.name, "{at}");
            assert_eq!(plane.flags().bits(), want.flags, "{at}");
            assert_eq!(plane.tile_size(), (want.tile, want.tile), "{at}");
            assert_eq!(
                (plane.tiles_wide(), plane.tiles_high()),
                (want.wide, want.high),
                "{at}"
            );
            assert_eq!(plane.z(), want.z, "{at}");
            let sets: Vec<&[u8]> = plane.image_sets().map(Result::unwrap).collect();
            assert_eq!(sets, want.sets, "{at}");
            assert_eq!(
                plane.objects().map(Result::unwrap).count() as u32,
                want.objects,
                "{at}"
            );
            assert_eq!(
                plane.special_tile_counts(),
                (want.invisible, want.filled),
                "{at}"
            );
        }
        let table = level.tile_properties().unwrap();
        let mut counts = [table.count() as usize, 0, 0, 0];
        for record in table.iter() {
            match record.unwrap().attributes() {
                TileAttributes::Single(_) => counts[1] += 1,
                TileAttributes::Double(_) => counts[2] += 1,
                TileAttributes::Mask(_) => counts[3] += 1,
            }
        }
        assert_eq!(counts, expected.properties, "{file}");
        // Every real level is laid out the editor's way, the table ending the image.
        let layout = level.layout();
        assert!(layout.is_canonical(), "{file}: {layout:?}");
        let last = layout.sections.last().unwrap();
        assert_eq!(last.range.end, owner.image().len(), "{file}");
        // Exactly one main plane, and only it has objects.
        let main = level.main_plane().unwrap().unwrap();
        assert!(main.is_main(), "{file}");
    }
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn the_writer_re_emits_every_main_block_byte_for_byte() {
    for expected in &LEVELS {
        let file = expected.file;
        let owner = open(file);
        let data = LevelData::from_level(&owner.level().unwrap()).unwrap();
        let block = data.main_block().unwrap();
        assert!(
            block == owner.main_block(),
            "{file}: the main block differs"
        );
        // Parse, write (compressed and not), parse: the same level, the base checksum.
        for compress in [true, false] {
            let written = data.to_file(compress).unwrap();
            let again = LevelFile::from_data(FileData::Read(written), &Limits::default()).unwrap();
            assert_eq!(again.compressed(), compress, "{file}");
            assert_eq!(
                again.checksum_class(),
                wap_core::ChecksumClass::Exact,
                "{file}"
            );
            assert!(again.main_block() == owner.main_block(), "{file}");
            let reparsed = LevelData::from_level(&again.level().unwrap()).unwrap();
            assert!(reparsed.planes == data.planes, "{file}");
            assert!(reparsed.tile_properties == data.tile_properties, "{file}");
        }
    }
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn uncompressed_copies_hold_the_same_level_with_objects_reordered() {
    for n in ["01", "03"] {
        let packed = open(&format!("RETAIL{n}.WWD"));
        let plain = open(&format!("RETAIL{n}_nocompress.WWD"));
        let a = LevelData::from_level(&packed.level().unwrap()).unwrap();
        let b = LevelData::from_level(&plain.level().unwrap()).unwrap();
        assert!(a.tile_properties == b.tile_properties, "RETAIL{n}");
        assert_eq!(a.planes.len(), b.planes.len());
        for (pa, pb) in a.planes.iter().zip(&b.planes) {
            assert!(pa.header == pb.header, "RETAIL{n}");
            assert!(pa.tiles == pb.tiles, "RETAIL{n}");
            assert_eq!(pa.image_sets, pb.image_sets, "RETAIL{n}");
            // The same objects in another order (ids are not unique: sort whole records).
            let key = |o: &wap_core::ObjectData| {
                (
                    zerocopy::IntoBytes::as_bytes(&o.fixed).to_vec(),
                    o.name.clone(),
                    o.logic.clone(),
                )
            };
            let mut oa: Vec<_> = pa.objects.iter().map(key).collect();
            let mut ob: Vec<_> = pb.objects.iter().map(key).collect();
            assert_eq!(oa.len(), ob.len(), "RETAIL{n}");
            if !oa.is_empty() {
                assert!(oa != ob, "RETAIL{n}: the measured order difference is gone");
            }
            oa.sort();
            ob.sort();
            assert!(oa == ob, "RETAIL{n}: the object sets differ");
        }
    }
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn mask_records_read_pixel_by_pixel() {
    // (file, record index, pixels with attribute 0) from the Python reader.
    for (file, index, zeros) in [
        ("LePortdeCoolness.wwd", 22, 2707),
        ("LePortdeCoolness.wwd", 110, 2707),
        ("ParadiseCove.wwd", 43, 4030),
    ] {
        let owner = open(file);
        let level = owner.level().unwrap();
        let table = level.tile_properties().unwrap().collect().unwrap();
        let record = table.get(index).unwrap();
        let TileAttributes::Mask(mask) = record.attributes() else {
            panic!("{file} record {index} is not a mask");
        };
        assert_eq!(record.size(), (64, 64));
        assert_eq!(mask.len(), 64 * 64);
        let mut clear = 0;
        for y in 0..64 {
            for x in 0..64 {
                let value = record.attribute_at(x, y);
                assert_eq!(value, i32::from(mask[(y * 64 + x) as usize]));
                clear += usize::from(value == 0);
            }
        }
        assert_eq!(clear, zeros, "{file} record {index}");
    }
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn objects_strings_and_double_rects_read_as_stored() {
    let owner = open("RETAIL01.WWD");
    let level = owner.level().unwrap();
    let main = level.main_plane().unwrap().unwrap();
    let first = main.objects().next().unwrap().unwrap();
    // The Python reader: id 179, no name, logic "Rat", image set "LEVEL_RAT" at (5377, 4374).
    assert_eq!(first.id(), 179);
    assert_eq!(first.name(), b"");
    assert_eq!(first.logic(), b"Rat");
    assert_eq!(first.image_set(), b"LEVEL_RAT");
    assert_eq!(first.position(), (5377, 4374));
    let mut logic: HashMap<&[u8], usize> = HashMap::new();
    for object in main.objects() {
        *logic.entry(object.unwrap().logic()).or_default() += 1;
    }
    assert_eq!(logic[&b"BehindAniCandy"[..]], 485);
    assert_eq!(logic[&b"TreasurePowerup"[..]], 138);
    // Bushy's plane names are cp1250 ("Tło"), as its Polish editor saved them.
    let bushy = open("Bushy.wwd");
    let plane = bushy.level().unwrap().plane(0).unwrap().unwrap();
    assert_eq!(decode(plane.name(), CodePage::Cp1250), "Tło");
    // A double record of RETAIL01 with rect (0, 55, 63, 63), as counted by the reader.
    let table = level.tile_properties().unwrap();
    let bottom_strips = table
        .iter()
        .map(Result::unwrap)
        .filter(|r| matches!(r.attributes(), TileAttributes::Double(d) if d.rect == wap_core::Rect::new(0, 55, 63, 63)))
        .count();
    assert_eq!(bottom_strips, 6);
}
