//! Planes, tiles, objects, tile properties, the game and the writer on synthetic levels:
//! every field written read back, with the debug forms. Offsets patched below are the
//! format's (see `docs/formats/wwd.md`): header 0x2DC plane count, 0x2E0 plane offset,
//! 0x2E4 tile property offset; plane header +0x60 tiles wide, +0x64 tiles high, +0x84 tiles
//! offset, +0x88 image-set offset, +0x8C object offset. The level patchers the
//! `structures_*` modules share.

use wap_core::LevelOptions;
use wap_core::synth::{self, tiles};
use wap_core::{
    AttributesData, ChecksumClass, ErrorKind, Game, Level, LevelData, LevelFile, SectionKind, Tile,
    TileAttributes, WriteProblem,
};

pub(crate) const PLANES: usize = 1524;

pub(crate) fn put(image: &mut [u8], at: usize, value: u32) {
    image[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

pub(crate) fn get(image: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(image[at..at + 4].try_into().unwrap())
}

/// The image (uncompressed file) of a small synthetic level.
pub(crate) fn image() -> (LevelData, Vec<u8>) {
    let data = synth::level(7, 40, 20);
    let image = data.image().unwrap();
    (data, image)
}

#[test]
fn a_written_level_reads_back_as_written() {
    let data = synth::level(7, 40, 20);
    for compress in [false, true] {
        let file = data.to_file(compress).unwrap();
        let owner = LevelFile::from_data(file, &LevelOptions::default()).unwrap();
        assert_eq!(owner.compressed(), compress);
        assert_eq!(owner.checksum_class(), ChecksumClass::Exact);
        let level = owner.view().unwrap();
        assert_eq!(level.game(), Game::Claw);
        assert_eq!(level.plane_count(), 3);
        let main = level.main_plane().unwrap().unwrap();
        assert_eq!(main.index(), 1);
        assert_eq!(main.name(), b"Action");
        assert_eq!((main.tiles_wide(), main.tiles_high()), (40, 20));
        assert_eq!(main.size_px(), (40 * 64, 20 * 64));
        assert_eq!(main.movement_percent(), (100, 100));
        assert_eq!(main.fill_color(), 50);
        assert_eq!(main.scroll_words(), (0, 0));
        assert_eq!(main.image_set_count(), 1);
        // Every tile as the generator placed it, through `tile` and `row`.
        let want = &data.planes[1].tiles;
        for y in 0..20 {
            let row = main.row(y).unwrap();
            for x in 0..40 {
                let raw = want[(y * 40 + x) as usize];
                assert_eq!(main.tile_raw(x, y), Some(raw));
                assert_eq!(row[x as usize].get(), raw);
                assert_eq!(main.tile(x, y).map(Tile::raw), Some(raw));
            }
        }
        assert_eq!(main.tile(40, 0), None);
        assert_eq!(main.tile(0, 20), None);
        assert_eq!(main.row(20), None);
        // Objects: count, strings, order.
        let objects: Vec<_> = main.objects().map(Result::unwrap).collect();
        assert_eq!(objects.len(), data.planes[1].objects.len());
        for (got, want) in objects.iter().zip(&data.planes[1].objects) {
            assert_eq!(got.logic(), &want.logic[..]);
            assert_eq!(got.image_set(), &want.image_set[..]);
            assert_eq!(got.position(), (want.fixed.x.get(), want.fixed.y.get()));
        }
        assert_eq!(
            objects.last().unwrap().logic(),
            b"EndOfLevelPowerup",
            "the generator ends with the map piece"
        );
        let back = level.plane(0).unwrap().unwrap();
        assert_eq!(back.objects().count(), 0);
        assert_eq!(back.raw().objects_offset.get(), 0);
        // The sky's filled tiles, as the generator placed them.
        let filled = data.planes[0]
            .tiles
            .iter()
            .filter(|&&t| t == 0xEEEE_EEEE)
            .count();
        assert!(filled > 0);
        assert_eq!(back.special_tile_counts(), (0, filled));
        assert_eq!(back.fill_color(), i32::from(synth::colour::SKY));
        let sets: Vec<_> = back.image_sets().map(Result::unwrap).collect();
        assert_eq!(sets, [b"BACK"]);
        assert!(level.layout().is_canonical());
        // Parse, write, parse gives the same level.
        // (The header differs only in flag 0x2, the main block size and the checksum.)
        let (again, want) = (
            LevelData::from_level(&level).unwrap(),
            data_with_counts(&data),
        );
        assert!(again.planes == want.planes && again.tile_properties == want.tile_properties);
        assert_eq!(again.header.name, want.header.name);
    }
}

/// `data` as the writer stores it: counts and offsets filled in.
fn data_with_counts(data: &LevelData) -> LevelData {
    let file = data.image().unwrap();
    LevelData::from_level(&Level::parse(&file).unwrap()).unwrap()
}

#[test]
fn tiles_decode_their_special_values() {
    assert_eq!(Tile::from_raw(0xFFFF_FFFF), Tile::Invisible);
    assert_eq!(Tile::from_raw(0xEEEE_EEEE), Tile::Filled);
    assert_eq!(Tile::from_raw(0x0001_0005), Tile::Image { set: 1, id: 5 });
    // A garbage value measured in real levels stays an image tile with its bits.
    let garbage = Tile::from_raw(0xEEEE_EE00);
    assert_eq!(
        garbage,
        Tile::Image {
            set: 0xEEEE,
            id: 0xEE00
        }
    );
    for raw in [0xFFFF_FFFF, 0xEEEE_EEEE, 0x0001_0005, 0xEEEE_EE00, 0] {
        assert_eq!(Tile::from_raw(raw).raw(), raw);
    }
}

#[test]
fn tile_properties_give_the_attribute_of_each_pixel() {
    let (_, image) = image();
    let level = Level::parse(&image).unwrap();
    let table = level.tile_properties().unwrap();
    assert_eq!(table.count() as usize, tiles::COUNT);
    let index = table.collect().unwrap();
    let at = |id: u16, x, y| index.attribute_at(id, x, y).unwrap();
    assert_eq!(at(tiles::ROCK, 30, 30), 1);
    // Grass: ground in rows 0..=7, clear below.
    assert_eq!(at(tiles::GRASS, 10, 7), 2);
    assert_eq!(at(tiles::GRASS, 10, 8), 0);
    // Spikes: death in rows 32..=63.
    assert_eq!(at(tiles::SPIKES, 0, 31), 0);
    assert_eq!(at(tiles::SPIKES, 63, 63), 4);
    // Slope mask: solid where x + y >= 63.
    assert_eq!(at(tiles::SLOPE, 0, 62), 0);
    assert_eq!(at(tiles::SLOPE, 0, 63), 1);
    assert_eq!(at(tiles::SLOPE, 63, 0), 1);
    assert_eq!(at(tiles::SLOPE, 31, 31), 0);
    assert_eq!(at(tiles::SLOPE, 32, 31), 1);
    // Outside the mask's area: clear.
    assert_eq!(at(tiles::SLOPE, 64, 63), 0);
    assert_eq!(at(tiles::SLOPE, -1, 63), 0);
    // Half wall: solid in columns 0..=31.
    assert_eq!(at(tiles::HALF_WALL, 31, 5), 1);
    assert_eq!(at(tiles::HALF_WALL, 32, 5), 0);
    assert_eq!(index.get(u16::try_from(tiles::COUNT).unwrap()), None);
    let kinds: Vec<_> = index
        .records()
        .iter()
        .map(|r| match r.attributes() {
            TileAttributes::Single(_) => 1,
            TileAttributes::Double(_) => 2,
            TileAttributes::Mask(m) => {
                assert_eq!(m.len(), 64 * 64);
                3
            }
        })
        .collect();
    // Ledge: ground in rows 0..=7, clear below, as grass.
    assert_eq!(at(tiles::LEDGE, 0, 0), 2);
    assert_eq!(at(tiles::LEDGE, 63, 7), 2);
    assert_eq!(at(tiles::LEDGE, 63, 8), 0);
    assert_eq!(kinds, [1, 1, 2, 1, 2, 3, 2, 2]);
    // The table ends the image, as in every real level.
    let mut records = table.iter();
    assert_eq!(records.by_ref().count(), tiles::COUNT);
    assert_eq!(records.offset(), image.len());
}

#[test]
fn the_writer_refuses_inconsistent_data() {
    let mut data = synth::level(1, 16, 16);
    data.planes[0].tiles.pop();
    let err = data.main_block().unwrap_err();
    assert_eq!(
        err.to_string(),
        // The background is 16 tiles wide and as high as the main plane.
        "cannot write the level: plane 0 has 255 tiles, expected 256 (its width times its height)"
    );
    let mut data = synth::level(1, 16, 16);
    let AttributesData::Mask(mask) = &mut data.tile_properties.records[5].attributes else {
        panic!("record 5 is the mask");
    };
    mask.push(0);
    let err = data.to_file(true).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::Write(WriteProblem::MaskLength {
                record: 5,
                found: 4097,
                expected: 4096,
            })
        ),
        "{err}"
    );
}

#[test]
fn the_generator_is_deterministic() {
    assert!(synth::level(3, 64, 24) == synth::level(3, 64, 24));
    assert!(synth::level(3, 64, 24).planes[1].tiles != synth::level(4, 64, 24).planes[1].tiles);
}

/// The synthetic level's image with its header's text fields replaced (`image_dir`,
/// `rez_file`, `launch_app`; empty strings clear them) and its main plane's tile size.
fn game_of(image_dir: &str, rez: &str, launch: &str, tile: i32) -> Game {
    use zerocopy::FromBytes;
    let (_, mut image) = image();
    let header = wap_core::raw::WwdHeader::mut_from_prefix(&mut image)
        .unwrap()
        .0;
    let put = |field: &mut [u8], text: &str| {
        field.fill(0);
        field[..text.len()].copy_from_slice(text.as_bytes());
    };
    put(&mut header.image_dir, image_dir);
    put(&mut header.rez_file, rez);
    put(&mut header.launch_app, launch);
    let main = PLANES + 160;
    let plane = wap_core::raw::PlaneHeader::mut_from_bytes(&mut image[main..main + 160]).unwrap();
    plane.tile_width.set(tile);
    plane.tile_height.set(tile);
    let level = Level::parse(&image).unwrap();
    level.game()
}

#[test]
fn the_game_is_told_by_folder_then_paths_then_tile_size() {
    assert_eq!(Game::Claw.name(), "claw");
    assert_eq!(Game::Gruntz.name(), "gruntz");
    assert_eq!(Game::Unknown.name(), "unknown");
    // The tile folder first, whatever the rest says.
    assert_eq!(game_of("\\AREA1\\TILEZ", "CLAW.REZ", "", 64), Game::Gruntz);
    assert_eq!(game_of("\\level1\\tiles", "GRUNTZ.REZ", "", 32), Game::Claw);
    // Then the REZ path, then the launch path.
    assert_eq!(
        game_of("\\X", "C:\\gruntz\\gruntz.rez", "", 64),
        Game::Gruntz
    );
    assert_eq!(game_of("", "..\\claw.rez", "", 32), Game::Claw);
    assert_eq!(game_of("", "", "GRUNTZ.EXE", 64), Game::Gruntz);
    assert_eq!(game_of("", "", "..\\Claw.exe", 32), Game::Claw);
    // Paths that name neither game leave it to the tile size.
    assert_eq!(game_of("", "DATA.REZ", "RUN.EXE", 32), Game::Gruntz);
    // Then the main plane's tile size.
    assert_eq!(game_of("", "", "", 64), Game::Claw);
    assert_eq!(game_of("", "", "", 32), Game::Gruntz);
    assert_eq!(game_of("", "", "", 16), Game::Unknown);
}

#[test]
fn planes_by_name_and_the_level_s_debug() {
    let (_, image) = image();
    let level = Level::parse(&image).unwrap();
    let action = level.plane_named("ACTION").unwrap().unwrap();
    assert_eq!((action.index(), action.name()), (1, &b"Action"[..]));
    assert!(level.plane_named("nowhere").unwrap().is_none());
    let debug = format!("{level:?}");
    assert!(
        debug.starts_with("Level {") && debug.contains(&format!("image_len: {}", image.len())),
        "{debug}"
    );
}

#[test]
fn attribute_names_section_names_and_the_layout_s_debug() {
    use wap_core::Attribute;
    let names: Vec<_> = [0, 1, 2, 3, 4, 0x9A]
        .map(|v| Attribute::from_raw(v).name())
        .into();
    assert_eq!(
        names,
        ["clear", "solid", "ground", "climb", "death", "other"]
    );
    let kinds = [
        SectionKind::PlaneHeaders,
        SectionKind::Tiles(3),
        SectionKind::ImageSets(4),
        SectionKind::Objects(5),
        SectionKind::TileProperties,
    ]
    .map(|k| k.to_string());
    assert_eq!(
        kinds,
        [
            "plane headers",
            "plane 3 tiles",
            "plane 4 image sets",
            "plane 5 objects",
            "tile property table"
        ]
    );
    let (_, image) = image();
    let layout = Level::parse(&image).unwrap().layout();
    let debug = format!("{layout:?}");
    assert!(
        debug.starts_with("Layout {") && debug.contains("in_usual_order: true"),
        "{debug}"
    );
}

#[test]
fn tile_property_records_their_offsets_mask_bounds_size_hints_and_debug() {
    use wap_core::TileAttributes;
    let (_, image) = image();
    let level = Level::parse(&image).unwrap();
    let table = level.tile_properties().unwrap();
    let t = get(&image, 0x2E4) as usize;
    // The synthetic table: single, single, double, single, double, mask (64 x 64), double:
    // records of 20, 20, 40, 20, 40 and 16 + 4,096 bytes after the 32-byte header.
    let offsets: Vec<_> = table.iter().take(7).map(|r| r.unwrap().offset()).collect();
    assert_eq!(
        offsets,
        [
            t + 32,
            t + 52,
            t + 72,
            t + 112,
            t + 132,
            t + 172,
            t + 172 + 16 + 4096
        ]
    );
    let count = table.count() as usize;
    let mut records = table.iter();
    assert_eq!(records.size_hint(), (0, Some(count)));
    records.next();
    assert_eq!(records.size_hint(), (0, Some(count - 1)));
    // The mask (x + y >= 63 is 1): outside its 64 x 64 pixels, 0, even where the row-major
    // index would land on a 1 (x = 64 of row 62 is the index of x = 0 of row 63).
    let mask = table.iter().nth(5).unwrap().unwrap();
    assert!(matches!(mask.attributes(), TileAttributes::Mask(_)));
    assert_eq!(mask.attribute_at(0, 63), 1);
    assert_eq!(mask.attribute_at(63, 0), 1);
    assert_eq!(mask.attribute_at(0, 0), 0);
    assert_eq!(mask.attribute_at(64, 62), 0);
    assert_eq!(mask.attribute_at(-1, 63), 0);
    // Debug: kinds by name, the mask's bytes previewed, the table's and index's fields.
    let debugs: Vec<String> = table
        .iter()
        .take(6)
        .map(|r| format!("{:?}", r.unwrap().attributes()))
        .collect();
    assert_eq!(debugs[0], "Single(0)");
    assert!(debugs[2].starts_with("Double(") && debugs[2].contains("inside"));
    assert!(
        debugs[5].starts_with("Mask(") && debugs[5].len() < 200,
        "{}",
        debugs[5]
    );
    let debug = format!("{table:?}");
    assert!(
        debug.starts_with("TileProperties {") && debug.contains(&format!("offset: {t}")),
        "{debug}"
    );
    let index = table.collect().unwrap();
    let debug = format!("{index:?}");
    assert!(debug.starts_with("TilePropertyIndex {"), "{debug}");
    // After a record of unknown type: the error, then nothing.
    let mut bad = image.clone();
    put(&mut bad, t + 52, 9);
    let level = Level::parse(&bad).unwrap();
    let table = level.tile_properties().unwrap();
    let mut records = table.iter();
    assert!(records.next().unwrap().is_ok());
    assert!(records.next().unwrap().is_err());
    assert_eq!(records.size_hint(), (0, Some(0)));
    assert!(records.next().is_none());
}

#[test]
fn planes_and_objects_give_every_field_written() {
    use wap_core::ObjectType;
    let mut data = synth::level(7, 40, 20);
    // Fields the generator leaves at zero, given values.
    let main = &mut data.planes[1];
    main.header.z.set(5);
    main.header.reserved3.set(11);
    main.header.reserved4.set(12);
    let object = &mut main.objects[0];
    object.fixed.id.set(1234);
    object.fixed.z.set(-7);
    object.fixed.user_flags.set(0b101);
    object.name = b"Nm".to_vec();
    object.animation = b"ANI".to_vec();
    data.planes[0].tiles[0] = 0xEEEE_EEEE; // a filled tile
    data.planes[1].image_sets.push(b"SECOND".to_vec());
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let plane = level.plane(1).unwrap().unwrap();
    assert!(plane.is_main() && !level.plane(0).unwrap().unwrap().is_main());
    assert_eq!((plane.z(), plane.scroll_words()), (5, (11, 12)));
    assert_eq!(
        plane.image_set_count() as usize,
        data.planes[1].image_sets.len()
    );
    let debug = format!("{plane:?}");
    assert!(
        debug.starts_with("Plane {") && debug.contains("Action"),
        "{debug}"
    );
    let debug = format!("{:?}", plane.image_sets());
    assert!(
        debug.starts_with("ImageSets {") && debug.contains("plane: 1"),
        "{debug}"
    );
    // Invisible and filled tiles, counted here from the tiles written.
    for (p, want) in data.planes.iter().enumerate() {
        let count = |v: u32| want.tiles.iter().filter(|&&t| t == v).count();
        let plane = level.plane(p).unwrap().unwrap();
        assert_eq!(
            plane.special_tile_counts(),
            (count(0xFFFF_FFFF), count(0xEEEE_EEEE)),
            "plane {p}"
        );
    }
    assert!(data.planes[1].tiles.contains(&0xFFFF_FFFF));
    assert!(level.plane(0).unwrap().unwrap().special_tile_counts().1 > 0);
    let mut objects = plane.objects();
    let count = data.planes[1].objects.len();
    assert_eq!(objects.size_hint(), (0, Some(count)));
    let first = objects.next().unwrap().unwrap();
    assert_eq!(objects.size_hint(), (0, Some(count - 1)));
    assert_eq!(
        (first.id(), first.z(), first.user_flags()),
        (1234, -7, 0b101)
    );
    assert_eq!((first.name(), first.animation()), (&b"Nm"[..], &b"ANI"[..]));
    let flags: Vec<bool> = (0..=13).map(|n| first.user_flag(n)).collect();
    let mut want = vec![false; 14];
    want[1] = true;
    want[3] = true;
    assert_eq!(flags, want);
    let debug = format!("{first:?}");
    assert!(
        debug.starts_with("Object {") && debug.contains("1234"),
        "{debug}"
    );
    let names: Vec<_> = [
        0x001, 0x002, 0x004, 0x008, 0x010, 0x020, 0x040, 0x080, 0x100, 0x200, 0x300, 0x400, 0x2000,
    ]
    .map(|v| ObjectType(v).name())
    .into();
    let want = [
        "generic", "player", "enemy", "powerup", "shot", "pshot", "eshot", "special", "user1",
        "user2", "user3", "user4",
    ];
    assert_eq!(names[..12], want.map(Some));
    assert_eq!(names[12], None);
}
