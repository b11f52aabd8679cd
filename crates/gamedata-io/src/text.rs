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
