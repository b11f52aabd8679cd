//! Crafted levels shaped to multiply the readers' memory or work.

use gamedata_testkit::heap::{self, MIB};
use wap_core::raw::{PLANE_HEADER_LEN, WwdHeader};
use wap_core::{ErrorKind, Level, SectionKind, synth};
use zerocopy::FromBytes;

/// 5,000 plane headers, all copies of the main plane's (512 x 512 tiles, 1 MB), so that every
/// plane's tiles are the same bytes: only the first is read, the 4,999 others are bad, and a
/// walk of every plane reads the tiles once.
#[test]
fn planes_over_the_same_tiles_are_read_once() {
    let serial = heap::serial();
    let mut image = synth::level(5, 512, 512).image().unwrap();
    let table = WwdHeader::ref_from_prefix(&image)
        .unwrap()
        .0
        .planes_offset
        .get() as usize;
    let main = image[table + PLANE_HEADER_LEN..table + 2 * PLANE_HEADER_LEN].to_vec();
    let at = image.len() as u32;
    for _ in 0..5000 {
        image.extend_from_slice(&main);
    }
    let header = WwdHeader::mut_from_prefix(&mut image).unwrap().0;
    header.plane_count.set(5000);
    header.planes_offset.set(at);
    assert!(image.len() > 1_800_000, "{}", image.len());
    let ((unreadable, tiles_read, bad), peak) = heap::peak(&serial, || {
        let level = Level::parse(&image).unwrap();
        let mut tiles_read = 0usize;
        let mut bad = 0usize;
        for plane in level.planes() {
            match plane {
                Ok(p) => tiles_read += p.tiles().len(),
                Err(e) => {
                    assert!(
                        matches!(e.kind(), ErrorKind::PlaneOverlap { other: 0, .. }),
                        "{e}"
                    );
                    bad += 1;
                }
            }
        }
        let layout = level.layout();
        (layout.unreadable.len(), tiles_read, bad)
    });
    // The layout report lists the 4,999 planes left out, and walks no names or objects of
    // theirs.
    assert_eq!(unreadable, 4999);
    assert_eq!(bad, 4999);
    assert_eq!(tiles_read, 512 * 512);
    // The overlap search (8 bytes a plane) and the layout's sections (5,000 tiles sections
    // and the error text of 4,999 planes).
    assert!(peak < 4 * MIB, "peak heap {peak}");
}

/// 5,000 plane headers of no tiles whose image-set names and objects are the main plane's
/// (the same offsets): only the main plane's are walked, the others' are left out, so a walk
/// of every plane's names and objects reads them once (before: 5,001 walks of them).
#[test]
fn planes_over_the_same_names_and_objects_walk_them_once() {
    let serial = heap::serial();
    let mut image = synth::level(7, 4096, 16).image().unwrap();
    let table = WwdHeader::ref_from_prefix(&image)
        .unwrap()
        .0
        .planes_offset
        .get() as usize;
    let main = table + PLANE_HEADER_LEN;
    // The walks of the first two planes (a background plane and the main plane), copied
    // in front of the 5,000 others.
    let (objects, names) = {
        let level = Level::parse(&image).unwrap();
        assert!(level.plane(1).unwrap().unwrap().is_main());
        let planes = || level.planes().take(2).map(Result::unwrap);
        (
            planes()
                .map(|p| p.objects().map(Result::unwrap).count())
                .sum::<usize>(),
            planes()
                .map(|p| p.image_sets().map(Result::unwrap).count())
                .sum::<usize>(),
        )
    };
    assert!(
        objects > 100 && names > 0,
        "{objects} objects, {names} names"
    );
    let mut copy = image[main..main + PLANE_HEADER_LEN].to_vec();
    let raw = wap_core::raw::PlaneHeader::mut_from_bytes(&mut copy).unwrap();
    raw.tiles_wide.set(0);
    raw.tiles_high.set(0);
    raw.flags.set(0);
    let at = image.len() as u32;
    image.extend_from_within(table..main + PLANE_HEADER_LEN);
    for _ in 0..5000 {
        image.extend_from_slice(&copy);
    }
    let header = WwdHeader::mut_from_prefix(&mut image).unwrap().0;
    header.plane_count.set(5002);
    header.planes_offset.set(at);
    assert!(image.len() > 1_000_000, "{}", image.len());
    let ((walked, left_out, canonical), peak) = heap::peak(&serial, || {
        let level = Level::parse(&image).unwrap();
        let (mut walked, mut left_out) = (0usize, 0usize);
        for plane in level.planes() {
            let plane = plane.unwrap();
            for item in plane
                .image_sets()
                .map(|n| n.map(|_| ()))
                .chain(plane.objects().map(|o| o.map(|_| ())))
            {
                match item {
                    Ok(()) => walked += 1,
                    Err(e) => {
                        let kind = e.kind();
                        assert!(
                            matches!(
                                kind,
                                ErrorKind::SectionShared {
                                    other: SectionKind::ImageSets(1) | SectionKind::Objects(1),
                                    ..
                                }
                            ),
                            "{e}"
                        );
                        left_out += 1;
                    }
                }
            }
        }
        (walked, left_out, level.layout().is_canonical())
    });
    assert_eq!(walked, objects + names);
    // Each of the 5,000 copies: its names and its objects, one error each.
    assert_eq!(left_out, 2 * 5000);
    assert!(!canonical);
    // The section starts (8 bytes each, 3 a plane) and the layout's error texts.
    assert!(peak < 4 * MIB, "peak heap {peak}");
}

/// A level whose tile property table is `records` single records (20 bytes each: type 1,
/// 64 x 64, attribute = its index) declaring `count` records, at the image's end.
fn level_with_tile_properties(records: u32, count: u32) -> Vec<u8> {
    let mut image = synth::level(3, 16, 16).image().unwrap();
    let at = image.len() as u32;
    let mut table = vec![0u8; 32];
    table[0..4].copy_from_slice(&32u32.to_le_bytes());
    table[8..12].copy_from_slice(&count.to_le_bytes());
    for i in 0..records {
        for word in [1u32, 0, 64, 64, i] {
            table.extend_from_slice(&word.to_le_bytes());
        }
    }
    image.extend_from_slice(&table);
    let header = WwdHeader::mut_from_prefix(&mut image).unwrap().0;
    header.tile_properties_offset.set(at);
    image
}

/// 100,000 tile property records (2 MB): the walk reads each once, the index holds the
/// 65,536 a tile can name (16-bit ids) and no more: at most 3 MiB, whatever the table's
/// length.
#[test]
fn a_tile_property_table_is_walked_once_and_indexed_up_to_the_tile_ids() {
    let serial = heap::serial();
    let image = level_with_tile_properties(100_000, 100_000);
    assert!(image.len() > 2_000_000, "{}", image.len());
    let ((walked, held, last), peak) = heap::peak(&serial, || {
        let level = Level::parse(&image).unwrap();
        let table = level.tile_properties().unwrap();
        let walked = table.iter().map(Result::unwrap).count();
        let index = table.collect().unwrap();
        let last = index.attribute_at(65_535, 0, 0);
        (walked, index.records().len(), last)
    });
    assert_eq!(walked, 100_000);
    assert_eq!(held, 65_536);
    assert_eq!(last, Some(65_535));
    // 65,536 records of 48 bytes.
    assert!(peak < 4 * MIB, "peak heap {peak}");
}

/// A table that declares 4,294,967,295 records over 100,000: the walk stops at the end of
/// the data with an error naming the record, and nothing is sized by the count.
#[test]
fn a_tile_property_count_past_the_data_ends_the_walk() {
    let serial = heap::serial();
    let image = level_with_tile_properties(100_000, u32::MAX);
    let ((walked, error), peak) = heap::peak(&serial, || {
        let level = Level::parse(&image).unwrap();
        let table = level.tile_properties().unwrap();
        let walked = table.iter().take_while(Result::is_ok).count();
        (walked, table.collect().unwrap_err())
    });
    assert_eq!(walked, 100_000);
    assert!(
        matches!(error.kind(), ErrorKind::TileProperty { index: 100_000, .. }),
        "{error}"
    );
    assert!(peak < 4 * MIB, "peak heap {peak}");
}

/// The lookup index is sized by what the data can hold (a record is at least 20 bytes),
/// never by the count: a table declaring 2^32 - 1 records over 10,000 reserves room for
/// 10,000 records of 48 bytes at most.
#[test]
fn the_tile_property_index_is_sized_by_the_data() {
    let serial = heap::serial();
    let image = level_with_tile_properties(10_000, u32::MAX);
    let (_, peak) = heap::peak(&serial, || {
        let level = Level::parse(&image).unwrap();
        level.tile_properties().unwrap().collect().unwrap_err()
    });
    assert!(peak <= 10_000 * 48 + 64 * 1024, "peak heap {peak}");
}

/// A REZ archive whose root holds 50,000 directory entries all pointing at one directory of
/// 2,000 files (a 1.9 MB table): a walk reads that table once, reports the 49,999 others as
/// loops, and keeps only the directories' ranges.
#[test]
fn directories_over_the_same_entries_are_read_once() {
    use wap_core::{Rez, RezProblem, write_rez};
    let serial = heap::serial();
    let names: Vec<String> = (0..2000).map(|i| format!("D/F{i:05}.PID")).collect();
    let files: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &b"x"[..])).collect();
    let mut archive = write_rez(&files).unwrap();
    // The root's one entry (directory D) copied 50,000 times into a new root.
    let root_at = u32::from_le_bytes(archive[131..135].try_into().unwrap()) as usize;
    let root_len = u32::from_le_bytes(archive[135..139].try_into().unwrap()) as usize;
    let entry = archive[root_at..root_at + root_len].to_vec();
    let new_root = archive.len();
    for _ in 0..50_000 {
        archive.extend_from_slice(&entry);
    }
    let new_len = u32::try_from(entry.len() * 50_000).unwrap();
    archive[131..135].copy_from_slice(&u32::try_from(new_root).unwrap().to_le_bytes());
    archive[135..139].copy_from_slice(&new_len.to_le_bytes());
    let ((files, loops), peak) = heap::peak(&serial, || {
        let rez = Rez::parse(&archive).unwrap();
        let (mut files, mut loops) = (0usize, 0usize);
        for item in rez.walk(&rez.root()) {
            match item {
                Ok(_) => files += 1,
                Err(e) => {
                    assert!(
                        matches!(e.kind, ErrorKind::Rez(RezProblem::Loop { .. })),
                        "{e}"
                    );
                    loops += 1;
                }
            }
        }
        (files, loops)
    });
    assert_eq!((files, loops), (2000, 49_999));
    // The walk's ranges (one directory read) and 50,000 error values, each named "/".
    assert!(peak < 4 * MIB, "peak heap {peak}");
}
