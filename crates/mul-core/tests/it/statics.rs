use mul_core::{ErrorKind, IndexProblem, StaticFormat, StaticSlice, Statics};

use crate::{index_record, static7};

use crate::kind;

/// Four blocks: 0 empty (offset FFFFFFFF), 1 at offset 0 with two statics, 2 empty by
/// length 0, 3 empty by length FFFFFFFF; then 4 with one static at offset 14.
fn files() -> (Vec<u8>, Vec<u8>) {
    let mut data = static7(0x0EED, 1, 2, -3, 0x21);
    data.extend(static7(0x0CCA, 7, 7, 10, 0));
    data.extend(static7(0x0006, 0, 0, 0, 0));
    let index = [
        index_record(0xFFFF_FFFF, 0),
        index_record(0, 14),
        index_record(7, 0),
        index_record(7, 0xFFFF_FFFF),
        index_record(14, 7),
    ]
    .concat();
    (index, data)
}

#[test]
fn empty_entries_offset_zero_and_records_in_place() {
    let (index, data) = files();
    let s = Statics::parse(&index, &data, None).unwrap();
    assert_eq!(s.format(), StaticFormat::Standard);
    for empty in [0, 2, 3] {
        assert_eq!(s.block(empty).unwrap(), StaticSlice::EMPTY, "block {empty}");
    }
    let b1 = s.block(1).unwrap();
    assert_eq!(b1.len(), 2);
    let first = b1.get(0).unwrap();
    assert_eq!(
        (first.id.get(), first.x, first.y, first.z, first.hue.get()),
        (0x0EED, 1, 2, -3, 0x21)
    );
    assert_eq!(b1.iter().nth(1).unwrap().id.get(), 0x0CCA);
    assert_eq!(s.block(4).unwrap().get(0).unwrap().id.get(), 6);
    assert!(s.validate(5).is_empty());
}

#[test]
fn bad_entries_name_the_block_and_leave_the_others_readable() {
    let (mut index, data) = files();
    index.extend(index_record(20, 7)); // block 5: runs to 27, data is 21 bytes
    index.extend(index_record(0, 8)); // block 6: not whole 7-byte records
    index.extend(index_record(0xFFFF_FFF0, 0x20)); // block 7: offset + length overflows u32
    let s = Statics::parse(&index, &data, Some(StaticFormat::Standard)).unwrap();
    let err = s.block(5).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::IndexEntry {
                entry: 5,
                offset: 20,
                length: 7,
                data_len: 21,
                problem: IndexProblem::PastEnd,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "staidx entry 5: offset 20, length 7: it runs past the end of the data (the data file is 21 bytes)"
    );
    assert!(matches!(
        kind(s.block(6)),
        Some(ErrorKind::IndexEntry {
            problem: IndexProblem::NotWholeRecords { record: 7 },
            ..
        })
    ));
    assert!(s.block(7).is_err());
    assert!(matches!(
        kind(s.block(8)),
        Some(ErrorKind::MissingIndexEntry {
            entry: 8,
            records: 8,
            ..
        })
    ));
    // The good blocks still read.
    assert_eq!(s.block(1).unwrap().len(), 2);
    let problems = s.validate(10);
    let blocks: Vec<String> = problems.kept().iter().map(ToString::to_string).collect();
    assert_eq!(problems.total(), 4, "{blocks:#?}");
    assert!(
        blocks[3].contains("8 entries, so entry 8 is missing"),
        "{blocks:#?}"
    );
}

#[test]
fn problem_lists_keep_the_first_hundred_and_count_the_rest() {
    // 1,000 index entries, each one 7-byte record past the 7-byte data file but the first.
    let index: Vec<u8> = (0..1000u32).flat_map(|i| index_record(i * 7, 7)).collect();
    let data = static7(1, 0, 0, 0, 0);
    let s = Statics::parse(&index, &data, None).unwrap();
    let problems = s.validate(1000);
    assert_eq!(problems.total(), 999);
    assert_eq!(problems.kept().len(), 100);
    assert_eq!(problems.left_out(), 899);
    assert!(matches!(
        problems.kept().first(),
        Some(ErrorKind::IndexEntry { entry: 1, .. })
    ));
    assert!(matches!(
        problems.kept().last(),
        Some(ErrorKind::IndexEntry { entry: 100, .. })
    ));
    // The good block still reads.
    assert_eq!(s.block(0).unwrap().len(), 1);
}

#[test]
fn statics_outside_their_block_are_reported() {
    let data = [static7(1, 3, 3, 0, 0), static7(2, 8, 0, 0, 0)].concat();
    let index = index_record(0, 14);
    let s = Statics::parse(&index, &data, None).unwrap();
    let problems = s.validate(1);
    assert!(
        matches!(
            problems.kept(),
            [ErrorKind::StaticPosition {
                block: 0,
                index: 1,
                x: 8,
                y: 0
            }]
        ),
        "{problems:?}"
    );
}

#[test]
fn eleven_byte_records_are_detected_and_read() {
    // Two pre-alpha statics: serial, then the 7 standard bytes.
    let mut data = 0xAABB_CCDDu32.to_le_bytes().to_vec();
    data.extend(static7(0x03EC, 5, 5, 0, 0));
    data.extend(7u32.to_le_bytes());
    data.extend(static7(0x0001, 1, 6, -2, 3));
    data.extend(9u32.to_le_bytes());
    data.extend(static7(0x0002, 0, 0, -2, 3));
    // Block 2 points inside block 0's bytes: left out, block 0 is read.
    let index = [
        index_record(0, 22),
        index_record(22, 11),
        index_record(11, 11),
    ]
    .concat();
    let s = Statics::parse(&index, &data, None).unwrap();
    assert_eq!(s.format(), StaticFormat::PreAlpha);
    let b0 = s.block(0).unwrap();
    assert!(matches!(b0, StaticSlice::PreAlpha(r) if r[0].serial.get() == 0xAABB_CCDD));
    let ids: Vec<u16> = b0.iter().map(|r| r.id.get()).collect();
    assert_eq!(ids, [0x03EC, 1]);
    assert_eq!(s.block(1).unwrap().get(0).unwrap().z, -2);
    assert!(matches!(
        kind(s.block(2)),
        Some(ErrorKind::IndexEntry {
            entry: 2,
            problem: IndexProblem::Overlap { other: 0 },
            ..
        })
    ));
    assert_eq!(
        s.block(2).unwrap_err().to_string(),
        "staidx entry 2: offset 11, length 11: its bytes overlap entry 0's, which is read instead \
         (the data file is 33 bytes)"
    );
    // Forced to 7 bytes, the 22-byte entry is not whole records.
    let forced = Statics::parse(&index, &data, Some(StaticFormat::Standard)).unwrap();
    assert!(forced.block(0).is_err());
}

#[test]
fn a_partial_index_record_is_a_file_size_error() {
    let (mut index, data) = files();
    index.push(0);
    assert!(matches!(
        kind(Statics::parse(&index, &data, None)),
        Some(ErrorKind::RecordMultiple {
            what: "staidx",
            found: 61,
            record: 12
        })
    ));
}

#[test]
fn slices_iterators_and_the_view_s_accessors() {
    let (index, data) = files();
    let s = Statics::parse(&index, &data, None).unwrap();
    assert_eq!(s.data(), &data[..]);
    assert_eq!(s.index().len(), 5);
    assert!(s.patch().is_none());
    let (empty, two) = (s.block(0).unwrap(), s.block(1).unwrap());
    assert!(empty.is_empty() && !two.is_empty());
    let mut it = two.iter();
    assert_eq!(it.size_hint(), (2, Some(2)));
    it.next();
    assert_eq!(it.size_hint(), (1, Some(1)));
    it.next();
    assert_eq!(it.size_hint(), (0, Some(0)));
    let debug = format!("{two:?}");
    assert!(
        debug.starts_with("Standard(") && debug.len() < 1024,
        "{debug}"
    );
    let debug = format!("{s:?}");
    assert!(
        debug.starts_with("Statics {") && debug.contains("Standard"),
        "{debug}"
    );
}
