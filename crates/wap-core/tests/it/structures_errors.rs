//! Every error path of a level's sections on patched synthetic levels: a bad header, table
//! or plane; bad names, objects and records stopping their iterator after the good ones;
//! names and objects starting where another section does left out, and walks ending where
//! the next section starts; the layout report's gaps, overlaps and order; and validation
//! stopping at the first problem. Offsets as in `structures`.

use wap_core::{ErrorKind, Level, SectionKind};

use crate::kind;
use crate::structures::{PLANES, get, image, put};

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
