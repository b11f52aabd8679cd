//! mobtypes.txt: each listed body's type and flags, as the client reads the file; flag
//! 0x10000 sends a body's animations to AnimationFrame*.uop.
//!
//! Source: `docs/formats/uo.md`, "Animations", "Which form: MUL or UOP" (ClassicUO's
//! `src/ClassicUO.Assets/AnimationsLoader.cs`, `AnimationsLoader.Load` and `GetIndices`).

use std::collections::HashMap;

use super::BodyType;

/// mobtypes.txt flag: the body's animations are read from AnimationFrame*.uop, never from
/// anim*.mul (the client's `UseUopAnimation`).
pub const FLAG_USE_UOP: u32 = 0x10000;

/// The longest mobtypes.txt the project's readers take whole, in bytes: 16 MiB, the cap of
/// the .def files (real ones are a few kilobytes). [`MobTypes::parse`] takes any length;
/// the callers that read the file (the `gamedata` command, the Python package) refuse a
/// longer one.
pub const MAX_MOBTYPES_LEN: u64 = 16 << 20;

/// A body's line of mobtypes.txt: its type and its flags (hex in the file).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MobType {
    /// `monster`, `sea_monster`, `animal`, `human` or `equipment`.
    pub body_type: BodyType,
    /// The flags as written (the client also sets bit 31, "found", which is left out here).
    pub flags: u32,
}

impl MobType {
    /// True if the flags have [`FLAG_USE_UOP`].
    pub const fn uses_uop(self) -> bool {
        self.flags & FLAG_USE_UOP != 0
    }
}

/// mobtypes.txt read as the client reads it: body number to type and flags.
///
/// The client's reading, line by line: surrounding white space trimmed; a line that is
/// empty, or whose first character is not a digit (`#` comments included), is skipped;
/// the rest split at spaces and tabs (runs of them one split); fewer than 3 fields
/// skipped; field 1 the body (decimal), field 2 the type (any case; an unknown type is
/// skipped), field 3 the flags in hex. A `#` inside field 3 cuts it before the character
/// ahead of the `#` (the client's `Substring(0, index - 1)`: `10000#` reads `1000`); a
/// field 3 that starts with `#` skips the line. A later line for a body replaces an earlier
/// one. Where the client would stop with an exception (a body or flags that do not parse,
/// such as `1#`, which leaves nothing), the line is skipped here. Memory: one map entry a
/// line kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MobTypes {
    types: HashMap<u16, MobType>,
}

impl MobTypes {
    /// Reads mobtypes.txt's bytes (UTF-8, as the client reads them). Never fails: a line the
    /// client could not use is skipped. The bytes are read in place, line by line (split
    /// at `\n`), with no copy of the text: a field the client can use is ASCII, so a byte
    /// that is not ASCII only ever makes a field unreadable, and white space at a line's
    /// ends is trimmed by the characters the bytes encode (a byte sequence that is not
    /// UTF-8 is no white space, as U+FFFD is none). Work: each byte a bounded number of
    /// times; memory: the map, at most 65,536 bodies.
    pub fn parse(text: &[u8]) -> Self {
        let mut types = HashMap::new();
        for line in text.split(|&b| b == b'\n') {
            if let Some((body, mob)) = parse_line(line) {
                types.insert(body, mob);
            }
        }
        MobTypes { types }
    }

    /// Body `body`'s line, if the file lists it.
    pub fn get(&self, body: u16) -> Option<MobType> {
        self.types.get(&body).copied()
    }

    /// True if the file lists body `body` with [`FLAG_USE_UOP`]: the client reads its
    /// animations from AnimationFrame*.uop only.
    pub fn uses_uop(&self, body: u16) -> bool {
        self.get(body).is_some_and(MobType::uses_uop)
    }

    /// Bodies listed.
    pub fn len(&self) -> usize {
        self.types.len()
    }

    /// True if no body is listed.
    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    /// The listed bodies and their lines, in no order.
    pub fn iter(&self) -> impl Iterator<Item = (u16, MobType)> + '_ {
        self.types.iter().map(|(&b, &m)| (b, m))
    }
}

/// One line as the client reads it; `None` for a line it skips (or would fail on).
fn parse_line(line: &[u8]) -> Option<(u16, MobType)> {
    let line = trim_white_space(line);
    if !line.first()?.is_ascii_digit() {
        return None;
    }
    let mut parts = line
        .split(|&b| b == b' ' || b == b'\t')
        .filter(|p| !p.is_empty());
    let (body, kind, flags) = (parts.next()?, parts.next()?, parts.next()?);
    let flags = match flags.iter().position(|&b| b == b'#') {
        Some(0) => return None,
        // The client keeps the characters before the one ahead of the '#'; one that is not
        // ASCII leaves a field no parse takes (as the characters the client would keep).
        Some(at) => {
            let before = at.checked_sub(1)?;
            if !flags.get(before)?.is_ascii() {
                return None;
            }
            flags.get(..before)?
        }
        None => flags,
    };
    let body = std::str::from_utf8(body).ok()?.parse::<i32>().ok()?;
    // Hex digits only (no sign, no 0x), as the client's parse takes them.
    if !flags.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    let flags = u32::from_str_radix(std::str::from_utf8(flags).ok()?, 16).ok()?;
    let body_type = [
        (&b"monster"[..], BodyType::Monster),
        (b"sea_monster", BodyType::SeaMonster),
        (b"animal", BodyType::Animal),
        (b"human", BodyType::Human),
        (b"equipment", BodyType::Equipment),
    ]
    .into_iter()
    .find(|(name, _)| kind.eq_ignore_ascii_case(name))?
    .1;
    // A body outside 0 to 65,535 is never looked up.
    let body = u16::try_from(body).ok()?;
    Some((body, MobType { body_type, flags }))
}

/// `line` without the white space (Unicode's, as `str::trim` and the client's `Trim` take
/// it) at its ends, read from the bytes in place: a sequence that is not UTF-8 ends the
/// trimming, as the U+FFFD it would read as is no white space.
fn trim_white_space(mut line: &[u8]) -> &[u8] {
    while let Some((c, len)) = first_char(line) {
        if !c.is_whitespace() {
            break;
        }
        line = line.get(len..).unwrap_or_default();
    }
    while let Some((c, len)) = last_char(line) {
        if !c.is_whitespace() {
            break;
        }
        line = line
            .get(..line.len().saturating_sub(len))
            .unwrap_or_default();
    }
    line
}

/// The character `bytes` start with and its length, if they start with one (UTF-8).
fn first_char(bytes: &[u8]) -> Option<(char, usize)> {
    let len = match *bytes.first()? {
        b if b < 0x80 => 1,
        b if b >= 0xF0 => 4,
        b if b >= 0xE0 => 3,
        _ => 2,
    };
    let c = std::str::from_utf8(bytes.get(..len)?)
        .ok()?
        .chars()
        .next()?;
    Some((c, len))
}

/// The character `bytes` end with and its length, if they end with one (UTF-8): its lead
/// byte at most 3 continuation bytes back.
fn last_char(bytes: &[u8]) -> Option<(char, usize)> {
    let end = bytes.len();
    (1..=4).find_map(|len| {
        let start = end.checked_sub(len)?;
        let lead = *bytes.get(start)?;
        // A continuation byte (10xxxxxx) is no character's start.
        if lead & 0xC0 == 0x80 {
            return None;
        }
        let c = std::str::from_utf8(bytes.get(start..)?)
            .ok()?
            .chars()
            .next()?;
        Some((c, len))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_as_the_client_reads_them() {
        let text = b"# a comment\n\
            400\tHUMAN\t0\n\
            1 monster 10000   # uop\n\
            2 animal 10020#\n\
            3 equipment #5\n\
            4 dragon 10000\n\
            5 monster\n\
            x6 monster 1\n\
            7 sea_monster 1#\n\
            8 monster zz\n\
            400 human 10400\n";
        let types = MobTypes::parse(text);
        assert_eq!(
            types.get(400),
            Some(MobType {
                body_type: BodyType::Human,
                flags: 0x10400
            })
        );
        assert!(types.uses_uop(1));
        // "10020#": the character ahead of the '#' is cut too.
        assert_eq!(types.get(2).map(|m| m.flags), Some(0x1002));
        assert!(!types.uses_uop(2));
        for skipped in [3, 4, 5, 6, 7, 8] {
            assert_eq!(types.get(skipped), None, "{skipped}");
        }
        assert_eq!(types.len(), 3);
    }

    /// White space at a line's ends is Unicode's, as the client's `Trim` takes it: one,
    /// two and three bytes long (space, NBSP U+00A0, ideographic space U+3000), trimmed
    /// whole and no further (the digit after each is kept).
    #[test]
    fn a_line_s_ends_are_trimmed_of_unicode_white_space() {
        let text = " \u{a0}401 monster 1\u{a0}\n\u{3000}402 animal 2\u{3000}\n\u{a0}\u{3000} 403 human 3 \n"
            .as_bytes();
        let types = MobTypes::parse(text);
        let mut got: Vec<(u16, u32)> = types.iter().map(|(b, m)| (b, m.flags)).collect();
        got.sort_unstable();
        assert_eq!(got, [(401, 1), (402, 2), (403, 3)]);
        // A 4-byte character is no white space: the line does not start with a digit.
        assert!(MobTypes::parse("\u{1f600}404 monster 4\n".as_bytes()).is_empty());
    }

    #[test]
    fn every_type_name_is_read_in_any_case_and_listed() {
        let text =
            b"1 MONSTER 0\n2 sea_monster 10000\n3 Animal 20\n4 human 0\n5 EQUIPMENT 0\n6 dragon 0\n";
        let types = MobTypes::parse(text);
        assert_eq!(types.len(), 5);
        assert!(!types.is_empty());
        let mut listed: Vec<(u16, BodyType, u32)> = types
            .iter()
            .map(|(b, m)| (b, m.body_type, m.flags))
            .collect();
        listed.sort_by_key(|&(b, _, _)| b);
        assert_eq!(
            listed,
            [
                (1, BodyType::Monster, 0),
                (2, BodyType::SeaMonster, 0x10000),
                (3, BodyType::Animal, 0x20),
                (4, BodyType::Human, 0),
                (5, BodyType::Equipment, 0),
            ]
        );
        let none = MobTypes::parse(b"# nothing\n");
        assert!(none.is_empty());
        assert_eq!(none.iter().count(), 0);
    }

    /// The bytes read in place give what the text read through U+FFFD gave: white space
    /// at the ends by its characters (U+3000, U+00A0), a byte that is not UTF-8 no white
    /// space and no field, a character that is not ASCII ahead of a '#' no flags.
    #[test]
    fn bytes_that_are_not_ascii_read_as_the_text_would() {
        let text = "\u{3000}400 human 10000\u{a0}\n\
            5 animal 20 \u{2003}\n\
            2 monster 1\u{e9}#\n"
            .as_bytes()
            .iter()
            .copied()
            .chain(*b"1 monster 1\xFF#\n\xFF3 monster 0\n4 monster 0\xFF\n6 human 7\xC3")
            .collect::<Vec<u8>>();
        let types = MobTypes::parse(&text);
        assert_eq!(types.get(400).map(|m| m.flags), Some(0x10000));
        assert_eq!(types.get(5).map(|m| m.flags), Some(0x20));
        for skipped in [1, 2, 3, 4, 6] {
            assert_eq!(types.get(skipped), None, "{skipped}");
        }
        assert_eq!(types.len(), 2);
    }
}
