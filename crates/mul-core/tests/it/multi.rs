use mul_core::{ErrorKind, IndexProblem, MultiFormat, MultiSlice, Multis};

use crate::index_record;

use crate::kind;

/// A component: id, x, y, z (signed), flags, and in the long form one more word.
fn component(id: u16, x: i16, y: i16, z: i16, flags: u32, long: bool) -> Vec<u8> {
    let mut c = id.to_le_bytes().to_vec();
    for v in [x, y, z] {
        c.extend_from_slice(&v.to_le_bytes());
    }
    c.extend_from_slice(&flags.to_le_bytes());
    if long {
        c.extend_from_slice(&0xCAFEu32.to_le_bytes());
    }
    c
}

#[test]
fn sixteen_byte_components_with_signed_offsets() {
    let data = [
        component(0x3FFF, -2, -5, 0, 1, true),
        component(0x0001, 3, 4, -7, 0, true),
        component(0x0002, 0, 0, 20, 1, true),
    ]
    .concat();
    let index = [
        index_record(0, 32),
        index_record(0xFFFF_FFFF, 0),
        index_record(32, 16),
        index_record(0xFF04_0C38, 0xFFFF_FFFF), // garbage seen in real files: empty by length
        index_record(40, 16),                   // runs past the end
    ]
    .concat();
    let m = Multis::parse(&index, &data, None).unwrap();
    assert_eq!(m.format(), MultiFormat::Long);
    let first = m.get(0).unwrap().unwrap();
    assert!(matches!(first, MultiSlice::Long(c) if c[0].extra.get() == 0xCAFE));
    let c: Vec<(i16, i16, i16)> = first
        .iter()
        .map(|c| (c.x.get(), c.y.get(), c.z.get()))
        .collect();
    assert_eq!(c, [(-2, -5, 0), (3, 4, -7)]);
    assert!(m.get(1).unwrap().is_none());
    assert!(m.get(3).unwrap().is_none());
    assert!(matches!(
        kind(m.get(4)),
        Some(ErrorKind::IndexEntry {
            entry: 4,
            problem: IndexProblem::PastEnd,
            ..
        })
    ));
    assert!(matches!(
        kind(m.get(5)),
        Some(ErrorKind::MissingIndexEntry { .. })
    ));
    assert_eq!(m.ids().collect::<Vec<_>>(), [0, 2]);
    assert_eq!(m.validate().total(), 1);
    assert_eq!(m.validate().kept().len(), 1);
}

#[test]
fn twelve_byte_components_are_detected() {
    let data = [
        component(7, 1, 1, 1, 0, false),
        component(8, -1, 0, 0, 0, false),
    ]
    .concat();
    let index = [index_record(0, 12), index_record(12, 12)].concat();
    let m = Multis::parse(&index, &data, None).unwrap();
    assert_eq!(m.format(), MultiFormat::Short);
    assert_eq!(m.get(1).unwrap().unwrap().get(0).unwrap().x.get(), -1);
    // Forced long, 12 bytes are not a whole component.
    let long = Multis::parse(&index, &data, Some(MultiFormat::Long)).unwrap();
    assert!(matches!(
        kind(long.get(0)),
        Some(ErrorKind::IndexEntry {
            problem: IndexProblem::NotWholeRecords { record: 16 },
            ..
        })
    ));
}

#[test]
fn formats_lengths_and_the_views_debug() {
    assert_eq!(
        (
            MultiFormat::Short.record_len(),
            MultiFormat::Long.record_len()
        ),
        (12, 16)
    );
    let data = [
        component(0x3FFF, -2, -5, 0, 1, true),
        component(0x0001, 3, 4, -7, 0, true),
    ]
    .concat();
    let index = [index_record(0, 32), index_record(0xFFFF_FFFF, 0)].concat();
    let m = Multis::parse(&index, &data, None).unwrap();
    assert_eq!((m.len(), m.is_empty(), m.index().len()), (2, false, 2));
    let none = Multis::parse(&[], &[], None).unwrap();
    assert_eq!((none.len(), none.is_empty()), (0, true));
    let debug = format!("{m:?}");
    assert!(
        debug.starts_with("Multis {") && debug.contains("Long"),
        "{debug}"
    );
    let slice = m.get(0).unwrap();
    let debug = format!("{slice:?}");
    assert!(debug.len() < 1024 && debug.contains('2'), "{debug}");
}
