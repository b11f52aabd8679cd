//! The lines of the client's .def text files (gump.def, TexTerr.def) as its `DefReader`
//! reads them: lines kept, split into words, numbers and groups read. The rules are in
//! [`gump::def`](crate::gump::def)'s documentation; [`GumpDef`](crate::GumpDef) and
//! [`TexTerrDef`](crate::TexTerrDef) read their files through them.
//!
//! Public for the fuzz properties (gamedata-exercise) and tests, hidden from the
//! documentation.

/// The lines of a .def text as the client keeps them, each split into its words (see
/// [`gump::def`](crate::gump::def)); lines of fewer than `min_words` words are skipped.
pub fn def_lines(text: &str, min_words: usize) -> impl Iterator<Item = Vec<&str>> {
    // The client reads lines ending in \n, \r or \r\n; empty lines are skipped anyway.
    text.split(['\n', '\r']).filter_map(move |line| {
        let line = line.trim();
        let first = line.chars().next()?;
        if first == '#' || !first.is_numeric() {
            return None;
        }
        let line = line.split_once('#').map_or(line, |(kept, _)| kept);
        let words = match (line.find('{'), line.find('}')) {
            (Some(open), Some(close)) if open <= close => {
                let mut words = split(line.get(..open)?);
                words.push(line.get(open..=close)?);
                words.extend(split(line.get(close.saturating_add(1)..)?));
                words
            }
            // A `}` before the first `{`: the client's loader fails on such a line (a
            // negative length); it is skipped here.
            (Some(_), Some(_)) => return None,
            _ => split(line),
        };
        (words.len() >= min_words).then_some(words)
    })
}

/// `s`'s words, split at spaces and tabs.
fn split(s: &str) -> Vec<&str> {
    s.split([' ', '\t']).filter(|w| !w.is_empty()).collect()
}

/// A number word as the client reads it (see [`gump::def`](crate::gump::def)): -1 when it
/// cannot be read.
pub fn read_int(word: &str) -> i32 {
    let end = word
        .char_indices()
        .find(|&(_, c)| !(c.is_numeric() || c == '-' || c == '+'))
        .map_or(word.len(), |(i, _)| i);
    word.get(..end)
        .and_then(|kept| kept.parse::<i32>().ok())
        .unwrap_or(-1)
}

/// The members of a group word (`{1, 2 3}`), or `None` when the word is not a group (it
/// must start with `{` and end with `}`).
pub fn read_group(word: &str) -> Option<impl Iterator<Item = i32> + '_> {
    let inner = word.strip_prefix('{')?.strip_suffix('}')?;
    Some(inner.split([',', ' ', '{', '}']).filter_map(|member| {
        if !member.starts_with(|c: char| c.is_ascii_digit()) {
            return None;
        }
        // A trailing sign is allowed; a leading one cannot follow the digit.
        match member.strip_suffix('-') {
            Some(digits) => digits.parse::<i32>().ok()?.checked_neg(),
            None => member.strip_suffix('+').unwrap_or(member).parse().ok(),
        }
    }))
}
