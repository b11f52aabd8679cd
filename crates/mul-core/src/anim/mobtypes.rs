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
    /// Reads mobtypes.txt's bytes (UTF-8; other bytes read as U+FFFD, which no field
    /// needs). Never fails: a line the client could not use is skipped.
    pub fn parse(text: &[u8]) -> Self {
        let text = String::from_utf8_lossy(text);
        let mut types = HashMap::new();
        for line in text.lines() {
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
fn parse_line(line: &str) -> Option<(u16, MobType)> {
    let line = line.trim();
    if !line.chars().next()?.is_ascii_digit() {
        return None;
    }
    let mut parts = line.split([' ', '\t']).filter(|p| !p.is_empty());
    let (body, kind, flags) = (parts.next()?, parts.next()?, parts.next()?);
    let flags = match flags.find('#') {
        Some(0) => return None,
        // The client keeps the characters before the one ahead of the '#'.
        Some(at) => flags.get(..at.checked_sub(1)?)?,
        None => flags,
    };
    let body = body.parse::<i32>().ok()?;
    // Hex digits only (no sign, no 0x), as the client's parse takes them.
    if !flags.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let flags = u32::from_str_radix(flags, 16).ok()?;
    let body_type = match kind.to_ascii_lowercase().as_str() {
        "monster" => BodyType::Monster,
        "sea_monster" => BodyType::SeaMonster,
        "animal" => BodyType::Animal,
        "human" => BodyType::Human,
        "equipment" => BodyType::Equipment,
        _ => return None,
    };
    // A body outside 0 to 65,535 is never looked up.
    let body = u16::try_from(body).ok()?;
    Some((body, MobType { body_type, flags }))
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
}
