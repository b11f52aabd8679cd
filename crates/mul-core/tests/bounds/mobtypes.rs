//! mobtypes.txt (mul-core `MobTypes`): read in place, line by line, at 1x and 10x.

use mul_core::{BodyType, MobTypes};

use super::*;

/// Attack: mobtypes.txt of bytes 0xFF (no line, no UTF-8). Read through
/// `String::from_utf8_lossy`, each byte became U+FFFD, 3 bytes: 200 MB cost 805 MiB. Now the
/// bytes are read in place: nothing is held but the map, empty here.
#[test]
fn mobtypes_of_bytes_that_are_not_utf8_are_read_in_place() {
    let serial = heap::serial();
    for len in [2_000_000usize, 20_000_000] {
        let mut text = vec![0xFFu8; len];
        // One good line at the end, after a line of 0xFF bytes.
        text.extend(b"\n400 human 10000\n");
        let (types, peak) = heap::peak(&serial, || MobTypes::parse(&text));
        assert_eq!(types.len(), 1);
        assert!(types.uses_uop(400));
        assert!(peak < 64 << 10, "peak heap {peak} for {len} bytes");
    }
}

/// Many lines of good fields: the map holds one entry a body (65,536 at most), whatever the
/// lines; the last line for a body wins.
#[test]
fn mobtypes_of_many_lines_hold_one_entry_a_body() {
    let serial = heap::serial();
    for lines in [100_000u32, 1_000_000] {
        let mut text = Vec::new();
        for i in 0..lines {
            text.extend(format!("{} monster {:x}\r\n", i % 1000, i).as_bytes());
        }
        let (types, peak) = heap::peak(&serial, || MobTypes::parse(&text));
        assert_eq!(types.len(), 1000);
        let last = lines - 1000 + 999;
        assert_eq!(
            types.get(999).map(|m| (m.body_type, m.flags)),
            Some((BodyType::Monster, last))
        );
        assert!(peak < MIB, "peak heap {peak} for {lines} lines");
    }
}
