//! animdata.mul: records placed as `docs/formats/uo.md` ("animdata.mul") gives them, built
//! here byte by byte; the pre-alpha file's shape (153 groups and 124 bytes); the writer's
//! output read back.

use mul_core::animdata::write::{AnimDataItem, synthetic_animdata, write_animdata};
use mul_core::{AnimData, AnimDataFile};

/// A file of `groups` whole groups and `tail` more bytes, every record's first offset its
/// item number's low byte, its count 1 and interval 3, each group's header its number.
fn file(groups: usize, tail: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for g in 0..groups {
        out.extend((g as u32 + 0xA000).to_le_bytes());
        for k in 0..8 {
            let item = g * 8 + k;
            let mut record = [0u8; 68];
            record[0] = item as u8;
            record[65] = 1;
            record[66] = 3;
            record[67] = 9;
            out.extend(record);
        }
    }
    out.extend(std::iter::repeat_n(0xEE, tail));
    out
}

#[test]
fn records_lie_at_68_i_plus_4_each_group() {
    let data = file(3, 0);
    let animdata = AnimData::parse(&data).unwrap();
    assert_eq!(animdata.len(), 24);
    assert!(!animdata.is_empty());
    for item in 0..24u16 {
        let record = animdata.get(item).unwrap();
        // 68 * i + 4 * (i / 8 + 1): the record's first byte.
        let at = usize::from(item);
        assert_eq!(data[68 * at + 4 * (at / 8 + 1)], item as u8);
        assert_eq!(record.frames[0], item as i8);
        assert_eq!(record.offsets(), &[item as i8][..]);
        assert_eq!((record.frame_interval, record.frame_start), (3, 9));
        assert_eq!(record.frame_ms(), 301);
    }
    assert!(animdata.get(24).is_none());
    assert_eq!(animdata.group_header(2), Some(0xA002));
    assert_eq!(animdata.group_header(3), None);
}

/// The pre-alpha ANIMDATA.MUL is 83,968 bytes: 153 groups of 548 and 124 bytes, whose first
/// record (4 + 68 = 72 bytes) ends inside the file and whose second does not.
#[test]
fn a_partial_last_group_keeps_the_records_that_end_inside_it() {
    assert_eq!(153 * 548 + 124, 83_968);
    let data = file(153, 124);
    let animdata = AnimData::parse(&data).unwrap();
    assert_eq!(animdata.len(), 153 * 8 + 1);
    assert!(animdata.get(153 * 8).is_some());
    assert!(animdata.get(153 * 8 + 1).is_none());
    assert!(animdata.get(u16::MAX).is_none());
    // A file shorter than a group's first record has none.
    for len in [0, 4, 71] {
        let short = vec![0u8; len];
        let animdata = AnimData::parse(&short).unwrap();
        assert!(animdata.is_empty() && animdata.get(0).is_none(), "{len}");
    }
    let one = vec![0u8; 72];
    assert_eq!(AnimData::parse(&one).unwrap().len(), 1);
}

#[test]
fn frames_name_items_by_offset_and_stop_at_64() {
    let mut data = file(1, 0);
    // Item 2: offsets -3, 0, 5; item 5: a count of 200.
    let at = 68 * 2 + 4;
    data[at..at + 3].copy_from_slice(&[0xFD, 0, 5]);
    data[at + 65] = 3;
    data[at + 66] = 0;
    let at5 = 68 * 5 + 4;
    data[at5 + 65] = 200;
    let animdata = AnimData::parse(&data).unwrap();
    let two = animdata.get(2).unwrap();
    assert_eq!(two.frame_ms(), 100);
    let items: Vec<Option<u16>> = two.frame_items(2).collect();
    assert_eq!(items, [None, Some(2), Some(7)]);
    let items: Vec<Option<u16>> = two.frame_items(0xFFFE).collect();
    assert_eq!(items, [Some(0xFFFB), Some(0xFFFE), None]);
    assert_eq!(animdata.get(5).unwrap().offsets().len(), 64);
}

#[test]
fn the_writer_places_records_as_the_reader_reads_them() {
    let items = [
        None,
        Some(AnimDataItem {
            offsets: &[1, -1],
            interval: 4,
            start: 2,
        }),
    ];
    let data = write_animdata(&items).unwrap();
    assert_eq!(data.len(), 548);
    let animdata = AnimData::parse(&data).unwrap();
    let one = animdata.get(1).unwrap();
    assert_eq!(
        (one.offsets(), one.frame_interval, one.frame_start),
        (&[1i8, -1][..], 4, 2)
    );
    assert!(animdata.get(0).unwrap().offsets().is_empty());
    // More than 64 offsets is refused, naming the item (13: group 1's sixth record).
    let frames = |offsets| {
        Some(AnimDataItem {
            offsets,
            interval: 0,
            start: 0,
        })
    };
    let mut too_many = vec![None; 14];
    too_many[13] = frames(&[0; 65]);
    assert_eq!(
        write_animdata(&too_many).unwrap_err().kind,
        mul_core::ErrorKind::Write(mul_core::WriteProblem::Picture { number: 13 })
    );
    too_many[13] = frames(&[0; 64]);
    assert_eq!(write_animdata(&too_many).unwrap().len(), 2 * 548);
    // The synthetic file: item 3 cycles 3, 4, 5; item 17 has 64 frames.
    let synthetic = synthetic_animdata();
    let animdata = AnimData::parse(&synthetic).unwrap();
    assert_eq!(animdata.len(), 24);
    let three: Vec<_> = animdata.get(3).unwrap().frame_items(3).collect();
    assert_eq!(three, [Some(3), Some(4), Some(5)]);
    assert_eq!(animdata.get(3).unwrap().frame_ms(), 201);
    // Item 10 cycles 10, 8, 12, 10 at 100 ms a frame.
    let ten: Vec<_> = animdata.get(10).unwrap().frame_items(10).collect();
    assert_eq!(ten, [Some(10), Some(8), Some(12), Some(10)]);
    assert_eq!(animdata.get(10).unwrap().frame_ms(), 100);
    let cycle: Vec<i8> = (0..64).collect();
    assert_eq!(animdata.get(17).unwrap().offsets(), cycle);
    // The rest have no frames.
    for item in (0..24).filter(|i| ![3, 10, 17].contains(i)) {
        assert!(animdata.get(item).unwrap().offsets().is_empty(), "{item}");
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ANIMDATA.MUL"), &synthetic).unwrap();
    let owned = AnimDataFile::open(dir.path().join("ANIMDATA.MUL")).unwrap();
    assert_eq!(owned.view().unwrap().len(), 24);
    assert!(format!("{:?}", owned.view().unwrap()).contains("items: 24"));
}
