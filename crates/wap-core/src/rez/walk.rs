//! Walking a REZ directory tree ([`Walk`]): depth first in stored order, one path buffer
//! capped by `RezOptions::max_path_bytes`, loops and repeated names found as the parent
//! module describes (`docs/formats/wap32.md`, "REZ archives").

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::collections::hash_map::RandomState;
use std::fmt;
use std::hash::{BuildHasher, Hasher};

use super::archive::{MAX_DEPTH, Rez, RezDir, RezEntry, RezFileEntry, RezOptions};
use super::entries::Entries;
use crate::error::{DataError, ErrorKind, RezProblem};

/// One entry met by a walk ([`Walk::next_entry`]): a directory before its entries, or a
/// file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WalkEntry<'w, 'data> {
    /// Its path from the walked directory, `/`-separated, the directories' names as stored
    /// and the file's as [`RezFileEntry::file_name`] gives it (`TILES/ACTION/012.PID`); at most
    /// [`RezOptions::max_path_bytes`] bytes.
    pub path: &'w str,
    /// The entry.
    pub entry: RezEntry<'data>,
    /// 1 for the walked directory's own entries, 2 for theirs, ...
    pub depth: usize,
    /// Whether an earlier entry of the same directory has the same kind and name in any
    /// letter case (the real GRUNTZ.REZ stores 7 level files twice). A lookup by path finds
    /// the first; names are compared through a 64-bit keyed hash.
    pub repeated: bool,
}

impl WalkEntry<'_, '_> {
    /// [`WalkEntry::path`] as a relative path that cannot leave the folder it is joined to
    /// (`TILES/ACTION/012.PID`), or `None` when a part of it could (`..`) or is no name on
    /// disk (`:`, a control character): see [`enclosed_name`](super::enclosed::enclosed_name). What
    /// `gamedata rez extract` writes each file to.
    pub fn enclosed_name(&self) -> Option<std::path::PathBuf> {
        super::enclosed::enclosed_name(self.path)
    }
}

impl<'data> Rez<'data> {
    /// Every file under `dir`, depth first in stored order, with its path from `dir`
    /// (`/`-separated, `NAME.EXT`), paths within the [`RezOptions::max_path_bytes`] the
    /// archive was opened with (the default for [`Rez::parse`]; see [`Rez::walk_with`]).
    pub fn walk(&self, dir: &RezDir<'data>) -> Walk<'data> {
        Walk::new(*self, dir, self.max_path_bytes)
    }

    /// Every file under `dir` as [`Rez::walk`] gives them ([`Walk::next_entry`] also gives
    /// the directories). A directory that cannot be read, loops (its entries overlap those
    /// of a directory read before), nests past [`MAX_DEPTH`] or whose path passes
    /// `options.max_path_bytes` is an error item naming the directory it is in, and is not
    /// entered; a file whose path passes the cap is an error item too; the walk then goes
    /// on with the others. So a walk reads each directory's bytes once, whatever the
    /// entries that point at them, and holds one path.
    pub fn walk_with(&self, dir: &RezDir<'data>, options: &RezOptions) -> Walk<'data> {
        Walk::new(*self, dir, options.max_path_bytes)
    }
}

/// A directory being read by a walk.
struct Open<'data> {
    entries: Entries<'data>,
    /// Length of the walk's path buffer at this directory (its own path).
    path_len: usize,
    /// Depth of its entries.
    depth: usize,
    /// The names (with their kind) that may come more than once among its entries.
    repeats: Repeats,
}

/// The bytes of the shortest entry: a directory with a one-letter name (16 + 2).
pub const MIN_ENTRY: u32 = 18;

/// Feeds `bytes` in upper case to `h`, a block at a time.
fn write_upper(h: &mut impl Hasher, bytes: &[u8]) {
    let mut block = [0u8; 64];
    for chunk in bytes.chunks(64) {
        let upper = block.get_mut(..chunk.len()).unwrap_or_default();
        for (u, b) in upper.iter_mut().zip(chunk) {
            *u = b.to_ascii_uppercase();
        }
        h.write(upper);
    }
}

/// The top 16 bits of a hash: where its candidates start in [`Repeats::starts`].
fn top_bits(hash: u64) -> usize {
    let [a, b, ..] = hash.to_be_bytes();
    usize::from(u16::from_be_bytes([a, b]))
}

/// Names of a directory that may repeat: the 64-bit hashes that two or more of its
/// entries' names share (sorted), and for each whether a name of it was met yet: 9 bytes a
/// candidate.
#[derive(Default)]
struct Repeats {
    candidates: Vec<u64>,
    met: Vec<bool>,
    /// Where each top-16-bit value's candidates start (65,537 of them, when there are many
    /// candidates), so that a lookup searches a few neighbours, not the whole list.
    starts: Vec<u32>,
}

impl Repeats {
    /// The repeats of `candidates` (sorted, each once), none met yet.
    fn new(candidates: Vec<u64>) -> Self {
        let met = vec![false; candidates.len()];
        // With many candidates, where each top-16-bit value starts (256 KiB).
        let starts = if candidates.len() > 4096 {
            (0..=1usize << 16)
                .map(|top| {
                    let first = candidates.partition_point(|&c| top_bits(c) < top);
                    u32::try_from(first).unwrap_or(u32::MAX)
                })
                .collect()
        } else {
            Vec::new()
        };
        Repeats {
            candidates,
            met,
            starts,
        }
    }

    /// Whether a name of hash `hash` was met before in the directory (and notes it). Two
    /// different names are told apart unless their 64-bit hashes are equal (one pair in
    /// 2^64; the hasher's keys are drawn afresh for each walk).
    fn met_again(&mut self, hash: u64) -> bool {
        let top = top_bits(hash);
        let (from, to) = match (self.starts.get(top), self.starts.get(top.saturating_add(1))) {
            (Some(&a), Some(&b)) => (a as usize, b as usize),
            _ => (0, self.candidates.len()),
        };
        let Some(Ok(k)) = self
            .candidates
            .get(from..to)
            .map(|near| near.binary_search(&hash).map(|k| k.saturating_add(from)))
        else {
            return false;
        };
        match self.met.get_mut(k) {
            Some(met) => std::mem::replace(met, true),
            None => false,
        }
    }
}

/// A depth-first walk of an archive (see [`Rez::walk`]). It holds one path buffer (at most
/// [`RezOptions::max_path_bytes`] long), the directories being read (at most [`MAX_DEPTH`])
/// with the names that repeat among their entries, and the byte range of each directory
/// read. Each directory's entries are read three times: counted, hashed for repeats,
/// walked.
pub struct Walk<'data> {
    rez: Rez<'data>,
    stack: Vec<Open<'data>>,
    path: String,
    max_path: usize,
    /// The byte ranges of the directories read so far, by start.
    seen: BTreeMap<u32, u32>,
    hasher: RandomState,
}

impl fmt::Debug for Walk<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Walk")
            .field("depth", &self.stack.len())
            .field("directories_read", &self.seen.len())
            .finish()
    }
}

impl<'data> Walk<'data> {
    /// A walk of `dir` of `rez`, paths at most `max_path_bytes` long (see [`Rez::walk_with`]).
    pub(super) fn new(rez: Rez<'data>, dir: &RezDir<'data>, max_path_bytes: u64) -> Self {
        let max_path = usize::try_from(max_path_bytes).unwrap_or(usize::MAX);
        let mut walk = Walk {
            rez,
            stack: Vec::new(),
            path: String::new(),
            max_path,
            seen: BTreeMap::from([(dir.offset, dir.offset.saturating_add(dir.size))]),
            hasher: RandomState::new(),
        };
        let repeats = walk.repeats(dir);
        walk.stack.push(Open {
            entries: rez.entries(dir),
            path_len: 0,
            depth: 1,
            repeats,
        });
        walk
    }

    /// Whether `start..end` overlaps a directory read before (an empty range never does).
    fn overlaps(&self, start: u32, end: u32) -> bool {
        if start >= end {
            return false;
        }
        let before = self.seen.range(..=start).next_back();
        let after = self.seen.range(start..).next();
        before.is_some_and(|(_, &e)| e > start) || after.is_some_and(|(&s, _)| s < end)
    }

    /// The hash of an entry's kind and name in upper case.
    fn name_hash(&self, entry: &RezEntry<'_>) -> u64 {
        let mut h = self.hasher.build_hasher();
        match entry {
            RezEntry::Dir(d) => {
                h.write_u8(1);
                write_upper(&mut h, d.name);
            }
            RezEntry::File(f) => {
                h.write_u8(0);
                write_upper(&mut h, f.name);
                h.write_u8(0);
                write_upper(&mut h, f.extension());
            }
        }
        h.finish()
    }

    /// The names that may come more than once among `dir`'s entries, found before its
    /// entries are walked: the entries counted, their names' 64-bit hashes sorted in a
    /// buffer of exactly that length (8 bytes an entry, freed here), and those that come
    /// twice or more kept as candidates.
    fn repeats(&self, dir: &RezDir<'data>) -> Repeats {
        let count = self.rez.entries(dir).map_while(Result::ok).count();
        let mut hashes: Vec<u64> = Vec::with_capacity(count);
        hashes.extend(
            self.rez
                .entries(dir)
                .map_while(Result::ok)
                .map(|e| self.name_hash(&e)),
        );
        hashes.sort_unstable();
        let mut candidates: Vec<u64> = hashes
            .windows(2)
            .filter_map(|pair| match pair {
                [a, b] if a == b => Some(*a),
                _ => None,
            })
            .collect();
        drop(hashes);
        candidates.dedup();
        candidates.shrink_to_fit();
        Repeats::new(candidates)
    }

    /// The next directory or file, depth first in stored order (a directory comes before
    /// its entries); `None` at the end. A directory that cannot be read, loops, nests past
    /// [`MAX_DEPTH`] or whose path passes [`RezOptions::max_path_bytes`] (a file's too) is an
    /// error naming the directory it is in; the walk then goes on with the others.
    pub fn next_entry(&mut self) -> Option<Result<WalkEntry<'_, 'data>, DataError>> {
        loop {
            let open = self.stack.last_mut()?;
            let (depth, path_len) = (open.depth, open.path_len);
            let Some(item) = open.entries.next() else {
                self.stack.pop();
                continue;
            };
            self.path.truncate(path_len);
            let place = || -> Box<str> {
                match self.path.get(..path_len) {
                    Some("") | None => "/".into(),
                    Some(p) => p.into(),
                }
            };
            let entry = match item {
                Ok(entry) => entry,
                Err(mut e) => {
                    e.file = Some(place());
                    return Some(Err(e));
                }
            };
            let fail = |problem| {
                let mut e = DataError::new(ErrorKind::Rez(problem));
                e.file = Some(place());
                Some(Err(e))
            };
            // The name's stored bytes first: its text is at least as long (a byte above
            // 0x7F takes two), so a name past the cap is refused before it is decoded.
            let (stored, at) = match &entry {
                RezEntry::Dir(d) => (d.name.len(), d.at),
                RezEntry::File(f) => {
                    let ext = f.extension().len();
                    (
                        f.name
                            .len()
                            .saturating_add(ext)
                            .saturating_add(usize::from(ext > 0)),
                        f.at,
                    )
                }
            };
            let sep = usize::from(path_len > 0);
            let least = path_len.saturating_add(sep).saturating_add(stored);
            if least > self.max_path {
                return fail(RezProblem::PathTooLong {
                    at,
                    len: least as u64,
                    max: self.max_path as u64,
                });
            }
            let name = match &entry {
                RezEntry::Dir(d) => d.name_lossy(),
                RezEntry::File(f) => Cow::Owned(f.file_name()),
            };
            let len = path_len.saturating_add(sep).saturating_add(name.len());
            if len > self.max_path {
                return fail(RezProblem::PathTooLong {
                    at,
                    len: len as u64,
                    max: self.max_path as u64,
                });
            }
            let hash = self.name_hash(&entry);
            // Met before when its hash repeats in the directory and was met already.
            let repeated = self
                .stack
                .last_mut()
                .is_some_and(|open| open.repeats.met_again(hash));
            if let RezEntry::Dir(dir) = &entry {
                let end = dir.offset.saturating_add(dir.size);
                if depth >= MAX_DEPTH {
                    return fail(RezProblem::Depth {
                        at: dir.at,
                        depth: depth.saturating_add(1),
                        max: MAX_DEPTH,
                    });
                }
                // A table too short for one entry is read at once (an error): it can hold
                // no directory to loop through, so it is neither checked nor kept.
                let holds_entries = dir.size >= MIN_ENTRY;
                if holds_entries && self.overlaps(dir.offset, end) {
                    return fail(RezProblem::Loop {
                        at: dir.at,
                        offset: dir.offset,
                    });
                }
                if holds_entries {
                    self.seen.insert(dir.offset, end);
                }
            }
            if path_len > 0 {
                self.path.push('/');
            }
            self.path.push_str(&name);
            if let RezEntry::Dir(dir) = &entry {
                let repeats = self.repeats(dir);
                self.stack.push(Open {
                    entries: self.rez.entries(dir),
                    path_len: self.path.len(),
                    depth: depth.saturating_add(1),
                    repeats,
                });
            }
            return Some(Ok(WalkEntry {
                path: &self.path,
                entry,
                depth,
                repeated,
            }));
        }
    }
}

impl<'data> Iterator for Walk<'data> {
    type Item = Result<(String, RezFileEntry<'data>), DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            match self.next_entry()? {
                Err(e) => return Some(Err(e)),
                Ok(WalkEntry {
                    path,
                    entry: RezEntry::File(file),
                    ..
                }) => return Some(Ok((path.to_owned(), file))),
                Ok(_) => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Repeats of hashes that share their low 32 bits, or their top 16 bits, are each told
    /// by the whole hash: the second name of each pair is flagged, the first never (a
    /// lookup by the low bits alone flagged a repeat of the second name of such a pair as
    /// new, about once in 240 walks of 6,000 names repeated).
    #[test]
    fn repeats_are_told_by_the_whole_hash() {
        let same_low = [0x0000_0001_dead_beef_u64, 0x0000_0002_dead_beef];
        let same_top = [0xabcd_0000_0000_0001_u64, 0xabcd_ffff_0000_0001];
        for many in [false, true] {
            let mut candidates: Vec<u64> = same_low.iter().chain(&same_top).copied().collect();
            // With many candidates the lookup goes through `starts`.
            if many {
                candidates.extend((0..5000u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)));
            }
            candidates.sort_unstable();
            candidates.dedup();
            let mut r = Repeats::new(candidates);
            assert_eq!(r.starts.len(), if many { 65_537 } else { 0 });
            for h in same_low.iter().chain(&same_top) {
                assert!(!r.met_again(*h), "{h:x} first");
            }
            for h in same_low.iter().chain(&same_top) {
                assert!(r.met_again(*h), "{h:x} again");
            }
            // A hash that is no candidate is never flagged.
            assert!(!r.met_again(0x0000_0003_dead_beef));
        }
    }
}
