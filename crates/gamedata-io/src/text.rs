//! Text fields of fixed size: trimmed at their first NUL, decoded as Latin-1 or a Windows
//! code page.
//!
//! Game files store names in fixed-size byte fields padded with NULs (a tiledata name is 20
//! bytes, a group file entry name 12, a WWD level name 64). The bytes are never UTF-8:
//! Ultima Online's names are Latin-1, WWD levels are in the code page of the editor's
//! machine.

use std::borrow::Cow;

/// The bytes of a fixed-size text field before its first NUL (the whole field if it has
/// none).
///
/// ```
/// assert_eq!(gamedata_io::field_text(b"grass\0\0\0"), b"grass");
/// assert_eq!(gamedata_io::field_text(b"full"), b"full");
/// ```
#[inline]
pub fn field_text(field: &[u8]) -> &[u8] {
    match field.iter().position(|&b| b == 0) {
        Some(len) => field.split_at(len).0,
        None => field,
    }
}

/// Bytes as Latin-1 (ISO 8859-1: byte `b` is the character U+00`b`); never fails. Borrowed
/// when the bytes are ASCII.
///
/// ```
/// assert_eq!(gamedata_io::latin1(b"ankh"), "ankh");
/// assert_eq!(gamedata_io::latin1(b"caf\xe9"), "café");
/// ```
pub fn latin1(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) if bytes.is_ascii() => Cow::Borrowed(text),
        _ => Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}

/// A Windows code page for text fields. Levels are saved as the editor's machine had it:
/// cp1252 (Western) in most, cp1250 (Central European) in Polish levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum CodePage {
    /// Windows-1252.
    #[default]
    Cp1252,
    /// Windows-1250.
    Cp1250,
}

/// Decodes bytes in `page`; never fails (bytes with no character become U+FFFD).
///
/// ```
/// use gamedata_io::{CodePage, decode};
/// assert_eq!(decode(b"\x9c", CodePage::Cp1252), "œ");
/// assert_eq!(decode(b"\x9c", CodePage::Cp1250), "ś");
/// ```
pub fn decode(bytes: &[u8], page: CodePage) -> Cow<'_, str> {
    let encoding = match page {
        CodePage::Cp1252 => encoding_rs::WINDOWS_1252,
        CodePage::Cp1250 => encoding_rs::WINDOWS_1250,
    };
    encoding.decode_without_bom_handling(bytes).0
}

/// `text` as it may be printed: every control character escaped, so that text read from
/// a file (a name, a value quoted in an error) prints on one line and sends a terminal
/// nothing but characters. Borrowed when there is nothing to escape.
///
/// The control characters are Unicode's (`char::is_control`): C0 (U+0000 to U+001F), DEL
/// (U+007F) and C1 (U+0080 to U+009F), which terminals take as commands (ESC starts an
/// escape sequence, U+009B is CSI). Line feed, tab and carriage return become `\n`, `\t`
/// and `\r`; the other C0 characters and DEL `\x` and two hex digits; C1 `\u{` two hex
/// digits `}`. Nothing else changes, a backslash included, so escaping twice gives what
/// escaping once gives. Every command of `gamedata` prints file text through it.
///
/// ```
/// use gamedata_io::printable;
/// assert_eq!(printable("ankh"), "ankh");
/// assert_eq!(printable("a\x1b]0;owned\x07b"), "a\\x1b]0;owned\\x07b");
/// assert_eq!(printable("two\nlines\u{9b}"), "two\\nlines\\u{9b}");
/// assert_eq!(printable(&printable("\x1b")), "\\x1b");
/// ```
pub fn printable(text: &str) -> Cow<'_, str> {
    escape_controls(text, false)
}

/// [`printable`], keeping line feeds: for text of several lines that the program itself
/// laid out (a report, an error and its causes), whose parts were escaped already.
///
/// ```
/// use gamedata_io::printable_lines;
/// assert_eq!(printable_lines("one\ntwo\x1b[2J"), "one\ntwo\\x1b[2J");
/// ```
pub fn printable_lines(text: &str) -> Cow<'_, str> {
    escape_controls(text, true)
}

fn escape_controls(text: &str, keep_lines: bool) -> Cow<'_, str> {
    let escape = |c: char| c.is_control() && !(keep_lines && c == '\n');
    // Control characters are bytes below 0x20, 0x7F, or (C1) led by 0xC2: a byte scan
    // finds text with none, the common case, without decoding it.
    let suspect = |b: u8| (b < 0x20 && !(keep_lines && b == b'\n')) || b == 0x7f || b == 0xc2;
    if !text.bytes().any(suspect) || !text.chars().any(escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len().saturating_add(8));
    for c in text.chars() {
        if escape(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Control character `c` escaped onto `out` (see [`printable`]).
fn push_escaped(out: &mut String, c: char) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let hex = |v: u32| char::from(HEX.get((v & 15) as usize).copied().unwrap_or(b'0'));
    match c {
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        '\r' => out.push_str("\\r"),
        c => {
            let v = u32::from(c);
            out.push_str(if v < 0x80 { "\\x" } else { "\\u{" });
            out.push(hex(v >> 4));
            out.push(hex(v));
            if v >= 0x80 {
                out.push('}');
            }
        }
    }
}
