//! The index of an image source's folders ([`ImageIndex`]): every folder's path and
//! image-set key hashed once, by one walk of an archive or one listing of each disk folder.

use std::borrow::Cow;
use std::collections::HashSet;
use std::collections::hash_map::RandomState;
use std::fs;
use std::hash::{BuildHasher, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use gamedata_io::{FileError, Limits, Problems};

use super::ImageSource;
use crate::error::{Error, ErrorKind, Result};
use crate::rez::archive::{MAX_DEPTH, Rez, RezDir, RezEntry, RezOptions};

impl ImageSource {
    /// The source's folders indexed by path and image-set key (see [`ImageIndex`]), within
    /// `options`: paths up to [`RezOptions::max_path_bytes`], at most
    /// [`Limits::max_records`] folders, a disk folder's files read within its
    /// [`Limits`].
    ///
    /// Returns `Err` ([`ErrorKind::Limit`]) when the source has more folders than
    /// `options.limits.max_records`, or ([`Error::File`](crate::Error::File)) when a disk folder's root cannot be
    /// listed. A folder that cannot be read, loops, nests past [`MAX_DEPTH`], has too long
    /// a path or repeats an earlier name is left out and kept in
    /// [`ImageIndex::problems`].
    pub fn index(&self, options: &RezOptions) -> Result<ImageIndex<'_>> {
        build(self, options)
    }
}

/// The index of `source` (see [`ImageSource::index`]).
pub(super) fn build<'s>(source: &'s ImageSource, options: &RezOptions) -> Result<ImageIndex<'s>> {
    let mut index = ImageIndex {
        source,
        folders: vec![Folder {
            parent: 0,
            at: ROOT_AT,
        }],
        names: String::new(),
        by_path: Vec::new(),
        by_key: Vec::new(),
        hasher: RandomState::new(),
        problems: Problems::new(),
        limits: options.limits,
        max_path_bytes: options.max_path_bytes,
        checks: AtomicU64::new(0),
    };
    match source {
        ImageSource::Archive(archive) => index_archive(&mut index, &archive.rez(), options)?,
        ImageSource::Tables(ranged) => index_archive(&mut index, &ranged.tables().view(), options)?,
        ImageSource::Folder(root) => index_folder(&mut index, root, options)?,
    }
    index.folders.shrink_to_fit();
    index.names.shrink_to_fit();
    index.hash_all();
    Ok(index)
}

/// A folder of an [`ImageIndex`], by number (0 is the source's root).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FolderId(pub(super) u32);

impl FolderId {
    /// The source's root folder.
    pub const ROOT: FolderId = FolderId(0);
}

/// Where the root's name would be: it has none.
const ROOT_AT: u32 = u32::MAX;

/// A folder indexed: its parent and where its name is: for an archive, the offset of its
/// directory entry (its name and table are read again from there), for a disk folder the
/// start of its name, NUL-ended, in the index's names.
#[derive(Clone, Copy, Debug)]
pub(super) struct Folder {
    parent: u32,
    at: u32,
}

/// A folder under the 64-bit hash of a name, packed in 12 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Slot {
    hash: [u32; 2],
    folder: u32,
}

impl Slot {
    fn new(hash: u64, folder: u32) -> Self {
        let [a, b, c, d, e, f, g, h] = hash.to_be_bytes();
        Slot {
            hash: [
                u32::from_be_bytes([a, b, c, d]),
                u32::from_be_bytes([e, f, g, h]),
            ],
            folder,
        }
    }
}

/// The folders under `hash` in `slots` (sorted).
fn slots_of(slots: &[Slot], hash: u64) -> impl Iterator<Item = u32> + '_ {
    let key = Slot::new(hash, 0).hash;
    let start = slots.partition_point(|s| s.hash < key);
    slots
        .get(start..)
        .unwrap_or_default()
        .iter()
        .take_while(move |s| s.hash == key)
        .map(|s| s.folder)
}

/// A source's folders indexed once ([`ImageSource::index`]): by path in any letter case
/// ([`ImageIndex::folder`]), by image-set key ([`ImageIndex::find_set`]), and each folder's
/// images by frame number ([`ImageIndex::frames`]).
///
/// Memory: 32 bytes a folder (an archive's folder with entries has at least 36 bytes of
/// its own: its entry and its first entry), within [`Limits::max_records`] folders; a disk
/// folder's names are kept too. Building it reads each folder once and hashes each path
/// once (at most [`RezOptions::max_path_bytes`] bytes); an archive directory too short for one
/// entry is not indexed (it holds no image).
#[derive(Debug)]
pub struct ImageIndex<'s> {
    pub(super) source: &'s ImageSource,
    pub(super) folders: Vec<Folder>,
    /// Names of a disk folder's folders, each ended by a NUL.
    pub(super) names: String,
    /// Every folder by the hash of its path, sorted.
    by_path: Vec<Slot>,
    /// By the hash of its key, sorted, the folder each key resolves to.
    by_key: Vec<Slot>,
    hasher: RandomState,
    problems: Problems<Error>,
    pub(super) limits: Limits,
    /// [`RezOptions::max_path_bytes`] of the options it was built with.
    pub(super) max_path_bytes: u64,
    checks: AtomicU64,
}

/// Feeds `text` upper-cased to `h`, with `/` as `sep`.
fn feed(h: &mut impl Hasher, text: &str, sep: u8) {
    for b in text.bytes() {
        h.write_u8(if b == b'/' {
            sep
        } else {
            b.to_ascii_uppercase()
        });
    }
}

impl<'s> ImageIndex<'s> {
    /// The hashes of a `/`-separated path: as a path, and as an image-set key (`_` for `/`).
    fn hashes(&self, path: &str) -> (u64, u64) {
        let mut by_path = self.hasher.build_hasher();
        feed(&mut by_path, path, b'/');
        let mut by_key = self.hasher.build_hasher();
        feed(&mut by_key, path, b'_');
        (by_path.finish(), by_key.finish())
    }

    /// The hash of an image-set key.
    fn key_hash(&self, key: &str) -> u64 {
        let mut h = self.hasher.build_hasher();
        feed(&mut h, key, b'_');
        h.finish()
    }

    /// The name of folder `i` (empty for the root).
    fn name(&self, i: u32) -> Cow<'s, str> {
        let Some(folder) = self.folders.get(i as usize) else {
            return Cow::Borrowed("");
        };
        if folder.at == ROOT_AT {
            return Cow::Borrowed("");
        }
        let at = folder.at as usize;
        match self.source {
            ImageSource::Tables(_) => self
                .archive_dir(i)
                .map_or(Cow::Borrowed(""), |d| d.name_lossy()),
            ImageSource::Archive(archive) => {
                let bytes = archive
                    .bytes()
                    .get(at.saturating_add(16)..)
                    .unwrap_or_default();
                let len = bytes.iter().position(|&b| b == 0).unwrap_or(0);
                gamedata_io::latin1(bytes.get(..len).unwrap_or_default())
            }
            ImageSource::Folder(_) => {
                let rest = self.names.get(at..).unwrap_or_default();
                Cow::Owned(rest.split('\0').next().unwrap_or_default().to_owned())
            }
        }
    }

    /// The archive's view (held whole, or its tables), `None` for a disk folder.
    pub(super) fn rez(&self) -> Option<Rez<'s>> {
        match self.source {
            ImageSource::Archive(archive) => Some(archive.rez()),
            ImageSource::Tables(ranged) => Some(ranged.tables().view()),
            ImageSource::Folder(_) => None,
        }
    }

    /// The directory entry of archive folder `i`, read again from its parent's table,
    /// which is read again from its own parent's, up from the root (at most [`MAX_DEPTH`]
    /// lookups); `None` for the root, a disk folder or an entry that cannot be read.
    fn archive_dir(&self, i: u32) -> Option<RezDir<'s>> {
        let rez = self.rez()?;
        // A parent always comes before its folder, so the chain ends at the root.
        let mut chain = Vec::new();
        let mut at = i;
        while at != 0 && chain.len() <= MAX_DEPTH {
            let folder = self.folders.get(at as usize)?;
            chain.push(folder.at as usize);
            at = folder.parent;
        }
        let mut dir = None;
        for entry_at in chain.into_iter().rev() {
            let parent = dir.unwrap_or_else(|| rez.root());
            match rez.entry_at(&parent, entry_at) {
                Ok(Some(RezEntry::Dir(d))) => dir = Some(d),
                _ => return None,
            }
        }
        dir
    }

    /// The table (offset, size) of archive folder `i`.
    pub(super) fn table(&self, i: u32) -> (u32, u32) {
        let archive = match self.source {
            ImageSource::Archive(archive) => archive,
            ImageSource::Tables(ranged) => {
                let root = ranged.tables().view().root();
                return match self.folders.get(i as usize) {
                    Some(f) if f.at != ROOT_AT => {
                        self.archive_dir(i).map_or((0, 0), |d| (d.offset, d.size))
                    }
                    _ => (root.offset, root.size),
                };
            }
            ImageSource::Folder(_) => return (0, 0),
        };
        let rez = archive.rez();
        match self.folders.get(i as usize) {
            Some(f) if f.at != ROOT_AT => {
                let head: Option<&crate::raw::RezEntryHead> = gamedata_io::Bytes::new(rez.bytes())
                    .read_at(f.at as usize)
                    .ok();
                head.map_or((0, 0), |h| (h.offset.get(), h.size.get()))
            }
            _ => (rez.root().offset, rez.root().size),
        }
    }

    /// The names from the root down to folder `i`.
    pub(super) fn chain(&self, i: u32) -> Vec<Cow<'s, str>> {
        let mut names = Vec::new();
        let mut at = i;
        // A parent always comes before its folder, so the chain ends at the root.
        while at != 0 && names.len() <= MAX_DEPTH {
            names.push(self.name(at));
            at = self.folders.get(at as usize).map_or(0, |f| f.parent);
        }
        names.reverse();
        names
    }

    /// The parent of folder `i` (the root's is the root).
    pub(super) fn parent_of(&self, i: u32) -> u32 {
        self.folders.get(i as usize).map_or(0, |f| f.parent)
    }

    /// The path of `folder`, `/`-separated, its folders' names as stored (`LEVEL1/TILES`).
    pub fn path(&self, folder: FolderId) -> String {
        self.chain(folder.0).join("/")
    }

    /// Whether folder `i`'s names are `parts` in any letter case.
    fn is_path(&self, i: u32, parts: &[&str]) -> bool {
        let chain = self.chain(i);
        chain.len() == parts.len()
            && chain
                .iter()
                .zip(parts)
                .all(|(a, b)| a.eq_ignore_ascii_case(b))
    }

    /// The folder at `path` (`LEVEL1/TILES/ACTION` or with `\`, any letter case; the empty
    /// path is the root), or `None`.
    pub fn folder(&self, path: &str) -> Option<FolderId> {
        let parts: Vec<&str> = path.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
        if parts.is_empty() {
            return Some(FolderId(0));
        }
        let (hash, _) = self.hashes(&parts.join("/"));
        slots_of(&self.by_path, hash)
            .find(|&i| self.check() && self.is_path(i, &parts))
            .map(FolderId)
    }

    /// Counts one folder compared with a name asked for (see [`ImageIndex::checks`]).
    fn check(&self) -> bool {
        self.checks.fetch_add(1, Ordering::Relaxed);
        true
    }

    /// Folders compared with a name by [`ImageIndex::folder`] and
    /// [`ImageIndex::find_set`] so far: one a lookup that finds a folder (more only when
    /// two names' 64-bit hashes meet), whatever the source's size; the measure of a
    /// lookup's work that the resource contract's tests assert.
    pub fn checks(&self) -> u64 {
        self.checks.load(Ordering::Relaxed)
    }

    /// The longest path of a folder it holds, in bytes: [`RezOptions::max_path_bytes`] of
    /// the options it was built with ([`ImageSource::index`]); a longer name can name no
    /// folder of it.
    pub fn max_path_bytes(&self) -> u64 {
        self.max_path_bytes
    }

    /// The folder an image-set key names (`LEVEL1_IMAGES_OFFICER`: folder names joined by
    /// `_`, where a folder's own name may hold `_`, as `ARROWSIGN_DOWN`), or `None`. Of two
    /// folders whose names join to the same key, the one whose first name is shorter wins
    /// (then the second, ...), as trying the cuts of the key shortest first finds it.
    pub fn find_set(&self, key: &str) -> Option<FolderId> {
        slots_of(&self.by_key, self.key_hash(key))
            .find(|&i| self.check() && self.chain(i).join("_").eq_ignore_ascii_case(key))
            .map(FolderId)
    }

    /// Problems met while indexing: folders left out (unreadable, looping, too deep, too
    /// long a path, a name repeated in its folder), the first 100 kept, all counted.
    pub fn problems(&self) -> &Problems<Error> {
        &self.problems
    }

    /// Every folder indexed, the root first, then in the walk's order (a folder before
    /// those inside it).
    pub fn folders(&self) -> impl Iterator<Item = FolderId> + '_ {
        (0..self.folders.len()).filter_map(|i| u32::try_from(i).ok().map(FolderId))
    }

    /// Folders indexed, the root included.
    pub fn len(&self) -> usize {
        self.folders.len()
    }

    /// Always false: the root is indexed.
    pub fn is_empty(&self) -> bool {
        self.folders.is_empty()
    }

    /// The source indexed.
    pub fn source(&self) -> &'s ImageSource {
        self.source
    }

    /// Adds a folder under `parent` whose name is at `at`; returns its number.
    ///
    /// Returns `Err` ([`ErrorKind::Limit`]) past `Limits::max_records` folders.
    fn add(&mut self, parent: u32, at: u32) -> Result<u32> {
        let count = self.folders.len() as u64;
        self.limits
            .check_records("the folders of an image source", count.saturating_add(1))
            .map_err(ErrorKind::Limit)?;
        let id = u32::try_from(count).map_err(|_| {
            ErrorKind::Limit(gamedata_io::LimitError {
                what: "the folders of an image source",
                unit: "records",
                found: count,
                limit: u64::from(u32::MAX),
            })
        })?;
        self.folders.push(Folder { parent, at });
        Ok(id)
    }

    /// Hashes every folder's path and key once, and keeps for each key the folder whose
    /// names' lengths come first in order (what trying the key's cuts shortest first finds).
    fn hash_all(&mut self) {
        let n = self.folders.len();
        let mut by_path = Vec::with_capacity(n.saturating_sub(1));
        let mut by_key = Vec::with_capacity(n.saturating_sub(1));
        for i in 1..n {
            let Ok(id) = u32::try_from(i) else { break };
            let path = self.chain(id).join("/");
            let (p, k) = self.hashes(&path);
            by_path.push(Slot::new(p, id));
            by_key.push(Slot::new(k, id));
        }
        by_path.sort_unstable();
        by_key.sort_unstable();
        // Within each run of one key hash: one folder a distinct key, the winner.
        let mut kept: Vec<Slot> = Vec::with_capacity(by_key.len());
        let mut run_start = 0;
        for slot in &by_key {
            if kept
                .get(run_start)
                .is_some_and(|first| first.hash != slot.hash)
            {
                run_start = kept.len();
            }
            let key = self.chain(slot.folder).join("_");
            let rival = kept
                .get(run_start..)
                .unwrap_or_default()
                .iter()
                .position(|k| self.chain(k.folder).join("_").eq_ignore_ascii_case(&key));
            match rival.and_then(|r| kept.get_mut(run_start.saturating_add(r))) {
                None => kept.push(*slot),
                Some(other) => {
                    let lengths =
                        |f: u32| -> Vec<usize> { self.chain(f).iter().map(|n| n.len()).collect() };
                    if lengths(slot.folder) < lengths(other.folder) {
                        *other = *slot;
                    }
                }
            }
        }
        kept.shrink_to_fit();
        self.by_path = by_path;
        self.by_key = kept;
    }
}

/// Indexes an archive's directories through one walk of its tree.
fn index_archive(index: &mut ImageIndex<'_>, rez: &Rez<'_>, options: &RezOptions) -> Result<()> {
    let mut walk = rez.walk_with(&rez.root(), options);
    // The folder number at each depth (None: left out, and everything under it).
    let mut chain: Vec<Option<u32>> = vec![Some(0)];
    while let Some(item) = walk.next_entry() {
        let entry = match item {
            Ok(entry) => entry,
            Err(e) => {
                index.problems.push(e.into());
                continue;
            }
        };
        let RezEntry::Dir(dir) = entry.entry else {
            continue;
        };
        chain.truncate(entry.depth);
        let parent = chain.last().copied().flatten();
        let Some(parent) = parent else {
            chain.push(None);
            continue;
        };
        // A directory too short for one entry holds no image: not indexed.
        if dir.size < crate::rez::walk::MIN_ENTRY {
            chain.push(None);
            continue;
        }
        let added = if entry.repeated {
            None
        } else {
            Some(index.add(parent, u32::try_from(dir.at).unwrap_or(u32::MAX))?)
        };
        if added.is_none() {
            index.problems.push(
                crate::DataError::new(ErrorKind::Rez(crate::RezProblem::Repeated { at: dir.at }))
                    .with_file_name(entry.path)
                    .into(),
            );
        }
        chain.push(added);
    }
    Ok(())
}

/// Indexes a disk folder's folders, depth first in name order; each folder (after
/// resolving links) is listed once.
fn index_folder(index: &mut ImageIndex<'_>, root: &Path, options: &RezOptions) -> Result<()> {
    let max_path = usize::try_from(options.max_path_bytes).unwrap_or(usize::MAX);
    let mut seen: HashSet<PathBuf> = HashSet::new();
    let real_root = fs::canonicalize(root).ok();
    if let Some(real) = &real_root {
        seen.insert(real.clone());
    }
    // Folders to list: their number, disk path, path text and depth.
    let mut stack: Vec<(u32, PathBuf, String, usize)> =
        vec![(0, root.to_path_buf(), String::new(), 0)];
    while let Some((id, dir, text, depth)) = stack.pop() {
        let listing = match fs::read_dir(&dir) {
            Ok(listing) => listing,
            Err(e) if id == 0 => return Err(FileError::io(&dir, e).into()),
            Err(e) => {
                index.problems.push(FileError::io(&dir, e).into());
                continue;
            }
        };
        let mut subs = Vec::new();
        for item in listing {
            let item = match item {
                Ok(item) => item,
                Err(e) => {
                    index.problems.push(FileError::io(&dir, e).into());
                    break;
                }
            };
            let path = item.path();
            if path.is_dir() {
                subs.push((item.file_name().to_string_lossy().into_owned(), path));
            }
        }
        subs.sort();
        let mut children = Vec::new();
        let mut upper: HashSet<String> = HashSet::new();
        for (name, path) in subs {
            let sub = if text.is_empty() {
                name.clone()
            } else {
                format!("{text}/{name}")
            };
            let why = if depth.saturating_add(1) > MAX_DEPTH {
                Some("it nests deeper than 32 folders")
            } else if sub.len() > max_path {
                Some("its path is longer than RezOptions::max_path_bytes")
            } else if fs::canonicalize(&path)
                .ok()
                .zip(real_root.as_ref())
                .is_some_and(|(real, root)| !real.starts_with(root))
            {
                Some("it is a link to a folder outside the source")
            } else if fs::canonicalize(&path).map_or(true, |real| !seen.insert(real)) {
                Some("it is a folder already listed under another name (a link)")
            } else {
                None
            };
            if let Some(why) = why {
                index.problems.push(FileError::LeftOut { path, why }.into());
                continue;
            }
            if !upper.insert(name.to_ascii_uppercase()) {
                let why = "its name repeats another folder's in another letter case";
                index.problems.push(FileError::LeftOut { path, why }.into());
                continue;
            }
            let start = u32::try_from(index.names.len()).unwrap_or(u32::MAX);
            index.names.push_str(&name);
            index.names.push('\0');
            let child = index.add(id, start)?;
            children.push((child, path, sub, depth.saturating_add(1)));
        }
        // Depth first, in name order.
        stack.extend(children.into_iter().rev());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rez::archive::RezFile;

    /// Root, `A`, `A/B`: written by the crate's writer.
    fn source() -> ImageSource {
        let files: [(&str, &[u8]); 2] = [("A/B/1.PID", b"x"), ("A/2.PID", b"y")];
        let bytes = crate::write_rez(&files).unwrap_or_default();
        ImageSource::Archive(
            RezFile::from_data(bytes, &Default::default()).unwrap_or_else(|e| panic!("{e}")),
        )
    }

    /// Two names whose hashes meet: each lookup checks the folder it finds against the
    /// name asked for, so a hash shared with another name finds nothing.
    #[test]
    fn a_folder_found_by_its_hash_is_checked_against_the_name() {
        let images = source();
        let mut index = images
            .index(&RezOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let a = index.folder("A").map(|f| f.0);
        assert_eq!(a, Some(1));
        assert!(index.is_path(1, &["a"]));
        assert!(!index.is_path(1, &["B"]));
        assert!(!index.is_path(1, &["A", "B"]));
        assert!(!index.is_path(2, &["A", "C"]));
        // Make "X" and "X_Y" hash to folder A's slots.
        let (path_x, _) = index.hashes("X");
        let key_xy = index.key_hash("X_Y");
        index.by_path.push(Slot::new(path_x, 1));
        index.by_path.sort_unstable();
        index.by_key.push(Slot::new(key_xy, 2));
        index.by_key.sort_unstable();
        let before = index.checks();
        assert_eq!(index.folder("X"), None);
        assert_eq!(index.find_set("X_Y"), None);
        assert_eq!(index.checks(), before + 2);
        // The real names still find their folders.
        assert_eq!(index.find_set("a_b").map(|f| f.0), Some(2));
        assert!(!index.is_empty());
    }

    #[test]
    fn slots_keep_a_hash_whole_and_order_by_it() {
        let a = Slot::new(0x0000_0001_ffff_ffff, 7);
        let b = Slot::new(0x0000_0002_0000_0000, 3);
        assert_eq!(a.hash, [1, 0xffff_ffff]);
        assert!(a < b);
        let slots = [a, b, Slot::new(0x0000_0002_0000_0000, 9)];
        assert_eq!(
            slots_of(&slots, 0x0000_0002_0000_0000).collect::<Vec<_>>(),
            [3, 9]
        );
        assert_eq!(
            slots_of(&slots, 0x0000_0001_ffff_ffff).collect::<Vec<_>>(),
            [7]
        );
        assert_eq!(slots_of(&slots, 5).count(), 0);
    }
}
