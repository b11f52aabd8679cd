//! `printable`: what a command prints of a file's text.

use gamedata_io::{printable, printable_lines};

/// Every character below U+0200 and a sample above, each alone and between letters.
fn characters() -> impl Iterator<Item = char> {
    (0u32..0x200)
        .chain([0x2028, 0x202e, 0xfeff, 0xfffd, 0x1_f600, 0x10_ffff])
        .filter_map(char::from_u32)
}

#[test]
fn no_control_character_is_left_and_nothing_else_changes() {
    for c in characters() {
        let text = format!("a{c}b");
        let out = printable(&text);
        assert!(!out.chars().any(char::is_control), "{c:?} -> {out:?}");
        if c.is_control() {
            assert_ne!(out, text, "{c:?} kept");
            assert!(
                out.starts_with("a\\") && out.ends_with('b'),
                "{c:?} -> {out:?}"
            );
        } else {
            assert_eq!(out, text, "{c:?} changed");
        }
        // Escaping again changes nothing: a backslash is text.
        assert_eq!(printable(&out), out);
    }
}

#[test]
fn the_escapes_name_the_character() {
    assert_eq!(printable("\0\x01\x1f\x7f"), "\\x00\\x01\\x1f\\x7f");
    assert_eq!(printable("\n\t\r"), "\\n\\t\\r");
    assert_eq!(printable("\u{80}\u{9f}"), "\\u{80}\\u{9f}");
    // U+00A0 to U+00FF (also led by 0xC2 or 0xC3 in UTF-8) are text.
    assert_eq!(printable("\u{a0}é"), "\u{a0}é");
}

#[test]
fn lines_keep_their_line_feeds_only() {
    for c in characters() {
        let text = format!("a{c}\nb");
        let out = printable_lines(&text);
        assert!(
            !out.chars().any(|o| o.is_control() && o != '\n'),
            "{c:?} -> {out:?}"
        );
        let expected = if c == '\n' {
            "a\n\nb".to_owned()
        } else {
            format!("{}\nb", printable(&format!("a{c}")))
        };
        assert_eq!(out, expected);
    }
}

#[test]
fn lines_without_a_line_feed_are_escaped_too() {
    for c in characters().filter(|&c| c.is_control() && c != '\n') {
        let text = format!("a{c}");
        assert_eq!(printable_lines(&text), printable(&text), "{c:?}");
    }
}

#[test]
fn text_with_nothing_to_escape_is_borrowed() {
    assert!(matches!(printable("ankh é"), std::borrow::Cow::Borrowed(_)));
    assert!(matches!(
        printable_lines("two\nlines"),
        std::borrow::Cow::Borrowed(_)
    ));
}
