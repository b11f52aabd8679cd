//! Planes, tiles, objects, tile properties, layout and the writer on synthetic levels, and
//! every error path of the sections. Offsets patched below are the format's (see
//! `docs/formats/wwd.md`): header 0x2DC plane count, 0x2E0 plane offset, 0x2E4 tile
//! property offset; plane header +0x60 tiles wide, +0x64 tiles high, +0x84 tiles offset,
//! +0x88 image-set offset, +0x8C object offset.

use wap_core::LevelOptions;
use wap_core::synth::{self, tiles};
use wap_core::{
    AttributesData, ChecksumClass, ErrorKind, Game, Level, LevelData, LevelFile, SectionKind, Tile,
    TileAttributes, WriteProblem,
};

use crate::kind;

const PLANES: usize = 1524;

fn put(image: &mut [u8], at: usize, value: u32) {
    image[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

fn get(image: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(image[at..at + 4].try_into().unwrap())
}

/// The image (uncompressed file) of a small synthetic level.
fn image() -> (LevelData, Vec<u8>) {
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
fn a_bad_header_table_or_plane_is_a_clear_error() {
    let (_, image) = image();
    // Plane count overflow: 2^32 - 1 plane headers do not fit.
    let mut bad = image.clone();
    put(&mut bad, 0x2DC, u32::MAX);
    let err = Level::parse(&bad).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::PlaneTable {
                count: u32::MAX,
                offset: 1524,
                ..
            }
        ),
        "{err}"
    );
    // The plane table past the end.
    let mut bad = image.clone();
    put(&mut bad, 0x2E0, image.len() as u32 - 100);
    assert!(matches!(
        kind(Level::parse(&bad)),
        Some(ErrorKind::PlaneTable { .. })
    ));
    // A truncated header.
    assert!(matches!(
        kind(Level::parse(&image[..1000])),
        Some(ErrorKind::TooShort { found: 1000 })
    ));

    // Plane 0: negative width, then w*h whose bytes overflow, then tiles past the end. The
    // other planes still read.
    let plane0 = PLANES;
    for (wide, high) in [(-1i32, 8i32), (i32::MAX, i32::MAX)] {
        let mut bad = image.clone();
        put(&mut bad, plane0 + 0x60, wide as u32);
        put(&mut bad, plane0 + 0x64, high as u32);
        let level = Level::parse(&bad).unwrap();
        let err = level.plane(0).unwrap_err();
        // A negative size is bad in itself; 2^62 tiles are 2^64 - 2^34 + 4 bytes, which
        // fit a 64-bit size but not the image.
        assert!(
            matches!(err.kind(), ErrorKind::PlaneSize { plane: 0, .. })
                || (wide > 0 && matches!(err.kind(), ErrorKind::PlaneTiles { plane: 0, .. })),
            "{err}"
        );
        assert!(level.plane(1).unwrap().is_some());
        assert!(level.plane(2).unwrap().is_some());
        assert!(level.main_plane().unwrap().is_some());
    }
    let mut bad = image.clone();
    put(&mut bad, plane0 + 0x84, image.len() as u32 - 8);
    let level = Level::parse(&bad).unwrap();
    let err = level.plane(0).unwrap_err();
    assert!(
        err.to_string().starts_with("plane 0 tiles: bytes "),
        "{err}"
    );
    assert_eq!(level.planes().filter(Result::is_ok).count(), 2);
    assert!(!level.layout().is_canonical());
}

#[test]
fn bad_names_objects_and_records_stop_their_iterator_after_the_good_ones() {
    let (data, image) = image();
    // An image-set name with no NUL before the end.
    let mut bad = image.clone();
    put(&mut bad, PLANES + 0x88, image.len() as u32);
    let level = Level::parse(&bad).unwrap();
    let names: Vec<_> = level.plane(0).unwrap().unwrap().image_sets().collect();
    assert_eq!(names.len(), 1);
    assert!(matches!(
        names[0].as_ref().err().map(wap_core::DataError::kind),
        Some(ErrorKind::ImageSetName {
            plane: 0,
            index: 0,
            ..
        })
    ));

    // Object 2's logic string runs past the end: objects 0 and 1 still read.
    let main = PLANES + 160;
    let first = get(&image, main + 0x8C) as usize;
    let level = Level::parse(&image).unwrap();
    let objects: Vec<_> = level
        .plane(1)
        .unwrap()
        .unwrap()
        .objects()
        .map(Result::unwrap)
        .collect();
    let third = objects[2].offset();
    assert_eq!(objects[0].offset(), first);
    let mut bad = image.clone();
    put(&mut bad, third + 8, u32::MAX);
    let level = Level::parse(&bad).unwrap();
    let read: Vec<_> = level.plane(1).unwrap().unwrap().objects().collect();
    assert_eq!(read.len(), 3);
    assert!(read[0].is_ok() && read[1].is_ok());
    let err = read[2].as_ref().unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::Object {
                plane: 1,
                index: 2,
                ..
            }
        ),
        "{err}"
    );
    assert!(data.planes[1].objects.len() > 3);

    // Record 3 of the tile property table gets type 9: records 0 to 2 read, then the error
    // names the record and the type, and nothing after it is guessed.
    let table = get(&image, 0x2E4) as usize;
    let record3 = table + 32 + 20 + 20 + 40;
    assert_eq!(
        get(&image, record3),
        1,
        "record 3 is the ladder's single record"
    );
    let mut bad = image.clone();
    put(&mut bad, record3, 9);
    let level = Level::parse(&bad).unwrap();
    let records: Vec<_> = level.tile_properties().unwrap().iter().collect();
    assert_eq!(records.len(), 4);
    assert!(records[..3].iter().all(Result::is_ok));
    let err = records[3].as_ref().unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "tile property record 3 at byte {record3} has type 9, expected 1 (single), \
             2 (double) or 3 (mask)"
        )
    );
    assert!(level.tile_properties().unwrap().collect().is_err());
    assert_eq!(level.layout().unreadable.len(), 1);

    // A mask whose width x height is larger than the data.
    let mask = table + 32 + 20 + 20 + 40 + 20 + 40;
    assert_eq!(get(&image, mask), 3, "record 5 is the slope's mask");
    let mut bad = image.clone();
    put(&mut bad, mask + 8, u32::MAX);
    put(&mut bad, mask + 12, u32::MAX);
    let level = Level::parse(&bad).unwrap();
    let err = level
        .tile_properties()
        .unwrap()
        .iter()
        .nth(5)
        .unwrap()
        .unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::TileProperty { index: 5, .. }),
        "{err}"
    );

    // The table's header past the end.
    let mut bad = image.clone();
    put(&mut bad, 0x2E4, image.len() as u32 - 4);
    let level = Level::parse(&bad).unwrap();
    let err = level.tile_properties().unwrap_err();
    assert!(
        err.to_string().starts_with("tile property table: bytes"),
        "{err}"
    );
}

#[test]
fn the_layout_report_finds_gaps_overlaps_and_order() {
    let (_, image) = image();
    let layout = Level::parse(&image).unwrap().layout();
    assert!(layout.is_canonical(), "{layout:?}");
    let kinds: Vec<_> = layout.sections.iter().map(|s| s.kind).collect();
    assert_eq!(
        kinds,
        [
            SectionKind::PlaneHeaders,
            SectionKind::Tiles(0),
            SectionKind::Tiles(1),
            SectionKind::Tiles(2),
            SectionKind::ImageSets(0),
            SectionKind::ImageSets(1),
            SectionKind::ImageSets(2),
            SectionKind::Objects(1),
            SectionKind::TileProperties,
        ]
    );
    // Sixteen bytes after the table: a gap at the end.
    let mut padded = image.clone();
    padded.extend_from_slice(&[0; 16]);
    let layout = Level::parse(&padded).unwrap().layout();
    assert_eq!(layout.gaps.len(), 1);
    assert_eq!(layout.gaps[0], image.len()..image.len() + 16);
    assert!(layout.in_usual_order && !layout.is_canonical());
    // Plane 2's tiles moved onto plane 0's: an overlap, out of the usual order, and a gap
    // where plane 2's tiles were. Plane 2 is left out (plane 0's tiles start first), so
    // its image-set names are not walked: a second gap where they are.
    let mut moved = image.clone();
    let plane0_tiles = get(&image, PLANES + 0x84);
    put(&mut moved, PLANES + 320 + 0x84, plane0_tiles);
    let level = Level::parse(&moved).unwrap();
    let layout = level.layout();
    assert!(!layout.in_usual_order);
    assert!(
        layout
            .overlaps
            .contains(&(SectionKind::Tiles(0), SectionKind::Tiles(2)))
    );
    assert_eq!(layout.gaps.len(), 2);
    let err = level.plane(2).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            wap_core::ErrorKind::PlaneOverlap {
                plane: 2,
                other: 0,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(layout.unreadable, [err.to_string()]);
    assert!(level.plane(0).unwrap().is_some() && level.plane(1).unwrap().is_some());
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

#[test]
fn names_and_objects_that_start_where_another_section_does_are_left_out() {
    let (_, image) = image();
    let main = PLANES + 160;
    // Plane 2's image-set names moved to where plane 1's start: plane 1's are read
    // (the editor's order: lower plane first), plane 2's are left out.
    let mut bad = image.clone();
    put(&mut bad, PLANES + 320 + 0x88, get(&image, main + 0x88));
    let level = Level::parse(&bad).unwrap();
    assert!(plane_names(&level, 1).iter().all(Result::is_ok));
    let names: Vec<_> = level.plane(2).unwrap().unwrap().image_sets().collect();
    assert_eq!(names.len(), 1);
    let err = names[0].as_ref().unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::SectionShared {
                section: SectionKind::ImageSets(2),
                other: SectionKind::ImageSets(1),
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("left out"), "{err}");

    // The main plane's objects moved to where its own tiles start: the tiles are read, the
    // objects left out.
    let mut bad = image.clone();
    put(&mut bad, main + 0x8C, get(&image, main + 0x84));
    let level = Level::parse(&bad).unwrap();
    let plane = level.plane(1).unwrap().unwrap();
    assert_eq!(plane.tiles().len(), 40 * 20);
    let objects: Vec<_> = plane.objects().collect();
    assert_eq!(objects.len(), 1);
    assert!(matches!(
        objects[0].as_ref().unwrap_err().kind(),
        ErrorKind::SectionShared {
            section: SectionKind::Objects(1),
            other: SectionKind::Tiles(1),
            ..
        }
    ));

    // Plane 0's names moved to one byte, not a NUL, before plane 1's: its walk stops where
    // plane 1's names start, so its name has no NUL before that byte.
    let mut bad = image.clone();
    let at = get(&image, main + 0x88);
    put(&mut bad, PLANES + 0x88, at - 1);
    bad[at as usize - 1] = b'X';
    let level = Level::parse(&bad).unwrap();
    let names: Vec<_> = level.plane(0).unwrap().unwrap().image_sets().collect();
    assert!(
        matches!(
            names[0].as_ref().unwrap_err().kind(),
            ErrorKind::ImageSetName { plane: 0, index: 0, end, .. } if end == at as usize
        ),
        "{names:?}"
    );
    assert!(plane_names(&level, 1).iter().all(Result::is_ok));
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
fn walks_end_where_the_next_section_starts_and_empty_sections_claim_nothing() {
    let (_, image) = image();
    let main = PLANES + 160;
    let names = get(&image, main + 0x88);
    // Names that start at the plane header table: the table is read, the names left out.
    let mut bad = image.clone();
    put(&mut bad, main + 0x88, PLANES as u32);
    let level = Level::parse(&bad).unwrap();
    let first = plane_names(&level, 1).remove(0);
    assert!(matches!(
        first.unwrap_err().kind(),
        ErrorKind::SectionShared {
            other: SectionKind::PlaneHeaders,
            ..
        }
    ));
    // Plane 0 with no names and no tiles, both at the main plane's names: they claim
    // nothing, and the main plane's names read.
    let mut moved = image.clone();
    put(&mut moved, PLANES + 0x88, names);
    put(&mut moved, PLANES + 0x84, names);
    put(&mut moved, PLANES + 0x60, 0);
    put(&mut moved, PLANES + 0x64, 0);
    put(&mut moved, PLANES + 0x7C, 0); // plane 0's image-set count
    // And its objects (it has none) at the main plane's objects.
    put(&mut moved, PLANES + 0x80, 0);
    put(&mut moved, PLANES + 0x8C, get(&image, main + 0x8C));
    let level = Level::parse(&moved).unwrap();
    assert!(level.plane(0).unwrap().unwrap().tiles().is_empty());
    let plane = level.plane(1).unwrap().unwrap();
    assert!(plane.image_sets().all(|n| n.is_ok()));
    assert!(plane.objects().all(|o| o.is_ok()));
    // Names that start at the tile property table are walked (the table comes last in the
    // editor's order) up to the image's end: its first bytes, 32 then 0, read as " ".
    let mut at_table = image.clone();
    put(&mut at_table, main + 0x88, get(&image, 0x2E4));
    let level = Level::parse(&at_table).unwrap();
    let first = plane_names(&level, 1).remove(0);
    assert_eq!(first.unwrap(), b" ");
    // The last plane's objects, moved to 3 bytes before the tile property table: their
    // walk ends there, so the first object's fixed part does not fit.
    let table = get(&image, 0x2E4);
    let mut near = image.clone();
    put(&mut near, main + 0x8C, table - 3);
    let level = Level::parse(&near).unwrap();
    let object = level.plane(1).unwrap().unwrap().objects().next().unwrap();
    match object.unwrap_err().kind() {
        ErrorKind::Object { read, .. } => assert_eq!(read.len, u64::from(table)),
        other => panic!("{other:?}"),
    }
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

#[test]
fn validate_reads_everything_the_writer_put_and_stops_at_the_first_problem() {
    let (data, image) = image();
    let counts = Level::parse(&image).unwrap().validate().unwrap();
    let planes = &data.planes;
    assert_eq!(counts.planes, planes.len());
    assert_eq!(
        counts.tiles,
        planes.iter().map(|p| p.tiles.len()).sum::<usize>()
    );
    assert_eq!(
        counts.image_sets,
        planes.iter().map(|p| p.image_sets.len()).sum::<usize>()
    );
    assert_eq!(
        counts.objects,
        planes.iter().map(|p| p.objects.len()).sum::<usize>()
    );
    assert!(counts.objects > 0);
    assert_eq!(counts.tile_properties, data.tile_properties.records.len());
    assert!(counts.main_plane);

    // A tile property table cut short: the walk fails on it, after every plane read.
    let mut bad = image.clone();
    let offset = get(&bad, 0x2E4) as usize; // the tile property table's offset
    bad.truncate(offset + 16);
    let err = Level::parse(&bad).unwrap().validate().unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::TilePropertyTable { .. }),
        "{err}"
    );
}

/// The image-set names of plane `index` of `level`, each read or an error.
fn plane_names<'a>(level: &Level<'a>, index: usize) -> Vec<Result<&'a [u8], wap_core::DataError>> {
    level.plane(index).unwrap().unwrap().image_sets().collect()
}
