//! gump.def resolved as the client's loader resolves it (`docs/formats/uo.md`, "Gumps",
//! "gump.def"): the expected borrowings below are worked out by hand from the lines, in
//! the file's order.

use mul_core::def::{read_group, read_int};
use mul_core::gump::write::{GumpPicture, write_gumps};
use mul_core::{GumpBorrow, GumpDef, Gumps};

/// Gumps 0 to 7: 0 and 2 have pictures, the rest are empty.
fn gumps() -> (Vec<u8>, Vec<u8>) {
    let pixels = [0x7C00u16; 4];
    let picture = GumpPicture::Picture {
        width: 2,
        height: 2,
        pixels: &pixels,
    };
    let mut list = vec![GumpPicture::Empty; 8];
    list[0] = picture;
    list[2] = picture;
    write_gumps(&list).unwrap()
}

fn borrow(id: u32, source: u32, hue: u16) -> GumpBorrow {
    GumpBorrow { id, source, hue }
}

#[test]
fn number_words_are_read_as_the_client_reads_them() {
    // Cut before the first character that is not a number or a sign, then read whole.
    assert_eq!(read_int("12abc"), 12);
    assert_eq!(read_int("+7"), 7);
    assert_eq!(read_int("-40"), -40);
    // "0x10" is cut to "0".
    assert_eq!(read_int("0x10"), 0);
    // Nothing left, a sign alone, a sign inside, past 32 bits, a digit of another script:
    // not a number, read as -1.
    for word in ["abc", "-", "1-2", "99999999999", "\u{663}"] {
        assert_eq!(read_int(word), -1, "{word:?}");
    }
    let group = |w: &str| read_group(w).map(|g| g.collect::<Vec<_>>());
    assert_eq!(group("{1,2 3}"), Some(vec![1, 2, 3]));
    assert_eq!(group("{ 9,0 }"), Some(vec![9, 0]));
    // A trailing sign; members not starting with a digit or not read whole are skipped.
    assert_eq!(group("{5-,6+}"), Some(vec![-5, 6]));
    assert_eq!(group("{-3, 0x2, 4x, 0}"), Some(vec![0]));
    assert_eq!(group("{}"), Some(vec![]));
    assert_eq!(group("1,2"), None);
    assert_eq!(group("{1"), None);
}

#[test]
fn lines_are_resolved_in_order_against_the_index() {
    let (index, data) = gumps();
    let gumps = Gumps::parse(&index, &data).unwrap();
    let text = "# gump.def\r\n\
        1 {3, 2} 5\r\n\
        3 {1} 0x10\n\
        \t 4 {0} 7 # a comment\n\
        2 {0} 9\n\
        1 {0} 3\n\
        6\t{ 9,0 }\t4\n\
        abc 1 {0} 2\n\
        -1 {0} 1\n\
        7 {0}\n\
        7 0 {0} 1\n\
        5 {0} -1\r\
        7 {-3, 0x2, 4x, 0} 2\n\
        8 {0} 1\n";
    let def = GumpDef::resolve(text.as_bytes(), &gumps);
    let want = [
        // 3 is empty, 2 has an entry.
        borrow(1, 2, 5),
        // 1 was filled by the line before: 3 takes what 1 borrowed; "0x10" reads 0.
        borrow(3, 2, 0),
        borrow(4, 0, 7),
        // -1 as 16 bits.
        borrow(5, 0, 0xFFFF),
        // 9 is past the index; 0 lends.
        borrow(6, 0, 4),
        // The last line of 7 with a group at its second word.
        borrow(7, 0, 2),
    ];
    assert_eq!(def.borrows(), &want);
    // Lines of 3 words or more starting with a digit: all but the comment, "abc", "-1"
    // and "7 {0}".
    assert_eq!(def.lines(), 10);
    assert_eq!(def.get(3), Some(borrow(3, 2, 0)));
    assert_eq!(def.get(2), None);
    assert_eq!(def.get(8), None);
}

#[test]
fn ids_from_0x10000_are_never_borrowed_or_lent() {
    let pixels = [0x001Fu16; 1];
    let picture = GumpPicture::Picture {
        width: 1,
        height: 1,
        pixels: &pixels,
    };
    let mut list = vec![GumpPicture::Empty; 0x1_0002];
    list[0] = picture;
    list[0x1_0000] = picture;
    let (index, data) = write_gumps(&list).unwrap();
    let gumps = Gumps::parse(&index, &data).unwrap();
    let text = "65537 {0} 1\n1 {65536} 2\n2 {65536, 0} 3\n";
    let def = GumpDef::resolve(text.as_bytes(), &gumps);
    assert_eq!(def.borrows(), &[borrow(2, 0, 3)]);
}

/// Many lines naming the same ids cost one pass: 200,000 lines over 8 ids resolve to the
/// first line's borrowing of each.
#[test]
fn repeated_lines_keep_the_first() {
    let (index, data) = gumps();
    let gumps = Gumps::parse(&index, &data).unwrap();
    let mut text = String::new();
    for k in 0..200_000u32 {
        text.push_str(&format!("{} {{0, 2}} {}\n", 1 + k % 7, k));
    }
    let def = GumpDef::resolve(text.as_bytes(), &gumps);
    // Ids 1 and 3 to 7 borrow 0 with the hue of their first line (k = id - 1); 2 has its own.
    let want: Vec<GumpBorrow> = [1u32, 3, 4, 5, 6, 7]
        .iter()
        .map(|&id| borrow(id, 0, (id - 1) as u16))
        .collect();
    assert_eq!(def.borrows(), &want[..]);
    assert_eq!(def.lines(), 200_000);
}

/// A `}` before the first `{` makes the line one the client's loader fails on: skipped,
/// even when the two are side by side (the range between them is then empty, not
/// reversed); a group in order is one word.
#[test]
fn a_line_closing_its_group_before_opening_it_is_skipped() {
    use mul_core::def::def_lines;
    let text = "5 }{ 0 1\n6 } { 0 1\n7 {0 1} 2\n";
    let lines: Vec<Vec<&str>> = def_lines(text, 3).collect();
    assert_eq!(lines, [vec!["7", "{0 1}", "2"]]);
}

/// The client's test of an empty record is its length as a signed number not above 0: a
/// record of length 0 at offset 0 is empty, so gump.def fills it.
#[test]
fn a_record_of_length_0_is_empty() {
    let (mut index, data) = gumps();
    // Gump 1: offset 0, length 0 (bytes 12 to 24 of the 12-byte records).
    index[12..20].copy_from_slice(&[0; 8]);
    let gumps = Gumps::parse(&index, &data).unwrap();
    let def = GumpDef::resolve(b"1 {0} 5\n", &gumps);
    assert_eq!(def.borrows(), &[borrow(1, 0, 5)]);
}
