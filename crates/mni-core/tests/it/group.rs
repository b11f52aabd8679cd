//! Group file directory: parsing, lookup, error paths and the writer.

use mni_core::{ErrorKind, Group, write_group};

use crate::kind;

/// One 20-byte directory slot: name (12 bytes, NUL-padded), u32 offset, u32 size.
fn slot(name: &[u8], offset: u32, size: u32) -> Vec<u8> {
    let mut s = name.to_vec();
    s.resize(12, 0);
    s.extend_from_slice(&offset.to_le_bytes());
    s.extend_from_slice(&size.to_le_bytes());
    s
}

/// A group file from raw slots followed by `data` at byte 4,000.
fn group(slots: &[Vec<u8>], data: &[u8]) -> Vec<u8> {
    let mut bytes: Vec<u8> = slots.concat();
    bytes.resize(4000, 0);
    bytes.extend_from_slice(data);
    bytes
}

#[test]
fn reads_directory_entries_and_count_slot() {
    let bytes = group(
        &[
            slot(b"TILES.MNI", 4000, 3),    // bytes 4000..4003
            slot(b"ABCDEFGH.MNI", 4003, 2), // a full 12-byte name, no NUL
            slot(b"2", 0, 0),               // the ASCII count slot ends the list
            slot(b"GHOST.MNI", 4000, 1),    // after the end: not an entry
        ],
        b"abcde",
    );
    let g = Group::parse(&bytes).unwrap();
    assert_eq!(g.len(), 2);
    assert_eq!(g.declared_count(), Some(2));
    let e: Vec<_> = g.entries().collect();
    assert_eq!(e[0].name(), b"TILES.MNI");
    assert_eq!((e[0].offset(), e[0].size()), (4000, 3));
    assert_eq!(e[0].data().unwrap(), b"abc");
    assert_eq!(e[1].name(), b"ABCDEFGH.MNI");
    assert_eq!(e[1].data().unwrap(), b"de");
    assert!(g.find("ghost.mni").is_none());
}

#[test]
fn lookup_ignores_ascii_case() {
    let bytes = group(&[slot(b"A1.MNI", 4000, 1)], b"x");
    let g = Group::parse(&bytes).unwrap();
    assert_eq!(g.get("a1.mni").unwrap().unwrap(), b"x");
    assert_eq!(g.get("A1.mni").unwrap().unwrap(), b"x");
    assert_eq!(g.get("A2.MNI").unwrap(), None);
    assert_eq!(g.missing("A2.MNI").kind(), ErrorKind::EntryNotFound);
}

#[test]
fn empty_name_ends_the_directory() {
    let bytes = group(&[slot(b"ONE", 4000, 1), slot(b"", 4001, 1)], b"xy");
    let g = Group::parse(&bytes).unwrap();
    assert_eq!(g.len(), 1);
    assert_eq!(g.declared_count(), None);
}

#[test]
fn two_hundred_entries_have_no_terminator() {
    let slots: Vec<_> = (0..200)
        .map(|i| slot(format!("E{i}").as_bytes(), 4000, 0))
        .collect();
    let bytes = group(&slots, b"");
    let g = Group::parse(&bytes).unwrap();
    assert_eq!(g.len(), 200);
    assert!(g.terminator().is_none());
    assert_eq!(g.entry(199).unwrap().name(), b"E199");
    assert!(g.entry(200).is_none());
}

#[test]
fn shorter_than_directory_is_an_error() {
    let err = Group::parse(&[0u8; 3999]).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::TooShort {
                found: 3999,
                expected: 4000,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn bad_entries_are_errors_and_the_others_stay_readable() {
    let bytes = group(
        &[
            slot(b"GOOD1", 4000, 2),
            slot(b"PASTEND", 4001, 100), // ends at 4101, file is 4004 bytes
            slot(b"INDIR", 10, 5),       // inside the directory
            slot(b"WRAPS", 0xFFFF_FFF0, 0x20), // offset + size overflows u32
            slot(b"GOOD2", 4002, 2),
            slot(b"MAXED", u32::MAX, u32::MAX), // both words at their largest
        ],
        b"wxyz",
    );
    let g = Group::parse(&bytes).unwrap();
    assert_eq!(g.len(), 6);
    assert_eq!(g.get("GOOD1").unwrap().unwrap(), b"wx");
    assert_eq!(g.get("GOOD2").unwrap().unwrap(), b"yz");
    let err = g.get("PASTEND").unwrap_err();
    match err.kind() {
        ErrorKind::EntryOutOfBounds {
            name,
            slot,
            offset,
            end,
            file_len,
            ..
        } => {
            assert_eq!(
                (gamedata_io::field_text(&name), slot, offset, end, file_len),
                (&b"PASTEND"[..], 1, 4001, 4101, 4004)
            );
        }
        other => panic!("unexpected {other:?}"),
    }
    let msg = err.to_string();
    assert!(
        msg.contains("PASTEND") && msg.contains("4101") && msg.contains("4004"),
        "{msg}"
    );
    assert!(matches!(
        kind(g.get("INDIR")),
        Some(ErrorKind::EntryOutOfBounds { offset: 10, .. })
    ));
    assert!(matches!(
        kind(g.get("WRAPS")),
        Some(ErrorKind::EntryOutOfBounds {
            end: 0x1_0000_0010,
            ..
        })
    ));
    assert!(matches!(
        kind(g.get("MAXED")),
        Some(ErrorKind::EntryOutOfBounds {
            offset: u32::MAX,
            end: 0x1_FFFF_FFFE,
            ..
        })
    ));
}

#[test]
fn writer_round_trips() {
    let bytes = write_group([
        ("TILEATTR.MNI", &b"abc"[..]),
        ("A1.MNI", &b""[..]),
        ("x", &b"zz"[..]),
    ])
    .unwrap();
    assert_eq!(bytes.len(), 4000 + 5);
    // Hand-check the first slot and the count slot.
    assert_eq!(&bytes[..12], b"TILEATTR.MNI");
    assert_eq!(&bytes[12..20], &[0xA0, 0x0F, 0, 0, 3, 0, 0, 0]); // offset 4000, size 3
    assert_eq!(&bytes[60..72], b"3\0\0\0\0\0\0\0\0\0\0\0");
    let g = Group::parse(&bytes).unwrap();
    assert_eq!(g.len(), 3);
    assert_eq!(g.declared_count(), Some(3));
    assert_eq!(g.get("tileattr.mni").unwrap().unwrap(), b"abc");
    assert_eq!(g.get("A1.MNI").unwrap().unwrap(), b"");
    assert_eq!(g.get("X").unwrap().unwrap(), b"zz");
}

#[test]
fn writer_refuses_what_the_format_cannot_hold() {
    for name in ["", "THIRTEEN.CHAR", "NUL\0", "ÉCRAN"] {
        assert!(
            matches!(
                kind(write_group([(name, &b""[..])])),
                Some(ErrorKind::Write(_))
            ),
            "{name:?}"
        );
    }
    let names: Vec<String> = (0..201).map(|i| format!("E{i}")).collect();
    let too_many = write_group(names.iter().map(|n| (n.as_str(), &b""[..])));
    assert!(matches!(kind(too_many), Some(ErrorKind::Write(_))));
    let exactly_200 = write_group(names.iter().take(200).map(|n| (n.as_str(), &b""[..]))).unwrap();
    assert_eq!(Group::parse(&exactly_200).unwrap().len(), 200);
}

#[test]
fn entries_over_another_entrys_bytes_are_left_out() {
    let bytes = group(
        &[
            slot(b"A1.MNI", 4002, 4),    // 4002..4006: overlaps B's start, read second
            slot(b"B.MNI", 4000, 4),     // 4000..4004: starts first, read
            slot(b"C.MNI", 4006, 2),     // after A1: A1 is left out, so C overlaps nothing read
            slot(b"D.MNI", 4000, 4),     // B's bytes again: left out
            slot(b"EMPTY.MNI", 4001, 0), // empty entries never overlap
        ],
        b"abcdefgh",
    );
    let g = Group::parse(&bytes).unwrap();
    assert_eq!(g.get("B.MNI").unwrap().unwrap(), b"abcd");
    assert_eq!(g.get("C.MNI").unwrap().unwrap(), b"gh");
    assert_eq!(g.get("EMPTY.MNI").unwrap().unwrap(), b"");
    for (name, slot_no) in [("A1.MNI", 0), ("D.MNI", 3)] {
        let err = g.get(name).unwrap_err();
        assert_eq!(
            err.kind(),
            ErrorKind::EntryOverlap {
                name: g.entry(slot_no).unwrap().raw().name,
                slot: slot_no,
                other: 1,
            }
        );
        assert!(
            err.to_string()
                .contains("its bytes overlap slot 1's, which is read instead")
        );
    }
    // Every entry is still listed.
    assert_eq!(g.entries().count(), 5);
}

#[test]
fn a_left_out_entry_names_the_first_read_entry_it_overlaps() {
    // 0: empty, inside Z's bytes (empty entries overlap nothing); 1: P right after Z;
    // 2: L over the end of K (left out, K starts first); 3: K, read; 4: Z over K's last
    // byte and L's bytes (left out: only K, the read entry, is named).
    let bytes = group(
        &[
            slot(b"EMPTY", 4070, 0),
            slot(b"P", 4075, 5),
            slot(b"L", 4060, 12),
            slot(b"K", 4000, 70),
            slot(b"Z", 4069, 6),
        ],
        &[7u8; 80],
    );
    let g = Group::parse(&bytes).unwrap();
    let other = |name: &str| match g.get(name).unwrap_err().kind() {
        ErrorKind::EntryOverlap { other, .. } => other,
        k => panic!("{name}: {k:?}"),
    };
    assert_eq!((other("L"), other("Z")), (3, 3));
    assert!(g.get("P").is_ok() && g.get("EMPTY").is_ok());
    // An entry read that ends where a left-out one starts is not named: here C (0) ends
    // at 4068, where K2 (1) and Z (2, left out: K2 comes first) start.
    let bytes = group(
        &[
            slot(b"C", 4060, 8),
            slot(b"K2", 4068, 12),
            slot(b"Z", 4068, 2),
        ],
        &[7u8; 80],
    );
    let g = Group::parse(&bytes).unwrap();
    assert!(matches!(
        g.get("Z").unwrap_err().kind(),
        ErrorKind::EntryOverlap { other: 1, .. }
    ));
}

#[test]
fn the_file_s_bytes_emptiness_terminator_and_debug() {
    let bytes = group(&[slot(b"A.MNI", 4000, 2), slot(b"1", 0, 0)], b"xy");
    let g = Group::parse(&bytes).unwrap();
    assert_eq!(g.bytes(), &bytes[..]);
    assert!(!g.is_empty());
    // No entry has an empty name or one of more than 12 bytes.
    assert!(g.find("").is_none() && g.find("A.MNI\0\0\0\0\0\0\0\0").is_none());
    assert_eq!(g.find("a.mni").unwrap().slot(), 0);
    let terminator = g.terminator().unwrap();
    assert_eq!(&terminator.name[..2], b"1\0");
    let empty_bytes = write_group(std::iter::empty()).unwrap();
    let empty = Group::parse(&empty_bytes).unwrap();
    assert!(empty.is_empty());
    let debug = format!("{g:?}");
    assert!(
        debug.starts_with("Group {") && debug.len() < 1024,
        "{debug}"
    );
    let debug = format!("{:?}", g.entry(0).unwrap());
    assert!(
        debug.starts_with("Entry {") && debug.contains("A.MNI"),
        "{debug}"
    );
}
