//! Planes, objects, tile properties, game, layout and the writer on every level of
//! `$GAMEDATA_DIR/wwd`. The expected figures are the output of `tools/reference/wwd_facts.py`
//! (`tools/reference/goldens/wwd_facts.json`), an independent reader of the raw bytes
//! (zlib, struct) written from `docs/formats/wwd.md`, not from this crate.

use std::collections::HashMap;
use wap_core::LevelOptions;

use gamedata_testkit::require_file;
use wap_core::{CodePage, LevelData, LevelFile, TileAttributes, decode};

/// The levels of `tools/reference/goldens/wwd_facts.json` that open (the bad-signature
/// copy is left out), with what the independent reader found in each.
fn levels() -> Vec<(String, serde_json::Value)> {
    let facts = gamedata_testkit::reference("wwd_facts.json");
    let levels: Vec<_> = facts
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, v)| v.get("error").is_none())
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    assert_eq!(levels.len(), 24);
    levels
}

/// Bytes the reference reader wrote as hex.
fn hex(value: &serde_json::Value) -> Vec<u8> {
    let text = value.as_str().unwrap();
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

fn open(file: &str) -> LevelFile {
    LevelFile::open(require_file(&format!("wwd/{file}"))).unwrap()
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn every_level_reads_its_planes_objects_and_tile_properties() {
    for (file, expected) in levels() {
        let owner = open(&file);
        let level = owner.view().unwrap();
        assert_eq!(level.game().name(), expected["game"], "{file}");
        let planes = expected["plane_details"].as_array().unwrap();
        assert_eq!(level.plane_count(), planes.len(), "{file}");
        for (plane, want) in level.planes().zip(planes) {
            let plane = plane.unwrap();
            let at = format!("{file} plane {}", plane.index());
            let number = |key: &str| want[key].as_i64().unwrap();
            assert_eq!(plane.name(), hex(&want["name"]), "{at}");
            assert_eq!(i64::from(plane.flags().bits()), number("flags"), "{at}");
            let tile = number("tile") as i32;
            assert_eq!(plane.tile_size(), (tile, tile), "{at}");
            assert_eq!(
                (i64::from(plane.tiles_wide()), i64::from(plane.tiles_high())),
                (number("wide"), number("high")),
                "{at}"
            );
            assert_eq!(i64::from(plane.z()), number("z"), "{at}");
            let sets: Vec<&[u8]> = plane.image_sets().map(Result::unwrap).collect();
            let want_sets: Vec<Vec<u8>> = want["image_sets"]
                .as_array()
                .unwrap()
                .iter()
                .map(hex)
                .collect();
            assert_eq!(sets, want_sets, "{at}");
            assert_eq!(
                plane.objects().map(Result::unwrap).count() as i64,
                number("objects"),
                "{at}"
            );
            let (invisible, filled) = plane.special_tile_counts();
            assert_eq!(
                (invisible as i64, filled as i64),
                (number("invisible"), number("filled")),
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
        let want: Vec<usize> = expected["tile_properties"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(counts[..], want[..], "{file}");
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
    for (file, _) in levels() {
        let owner = open(&file);
        let data = LevelData::from_level(&owner.view().unwrap()).unwrap();
        let block = data.main_block().unwrap();
        assert!(
            block == owner.main_block(),
            "{file}: the main block differs"
        );
        // Parse, write (compressed and not), parse: the same level, the base checksum.
        for compress in [true, false] {
            let written = data.to_file(compress).unwrap();
            let again = LevelFile::from_data(written, &LevelOptions::default()).unwrap();
            assert_eq!(again.compressed(), compress, "{file}");
            assert_eq!(
                again.checksum_class(),
                wap_core::ChecksumClass::Exact,
                "{file}"
            );
            assert!(again.main_block() == owner.main_block(), "{file}");
            let reparsed = LevelData::from_level(&again.view().unwrap()).unwrap();
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
        let a = LevelData::from_level(&packed.view().unwrap()).unwrap();
        let b = LevelData::from_level(&plain.view().unwrap()).unwrap();
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
        let level = owner.view().unwrap();
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
    let level = owner.view().unwrap();
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
    let plane = bushy.view().unwrap().plane(0).unwrap().unwrap();
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
