//! Where a level's pictures come from: a REZ archive, or a folder of files extracted from
//! one (`LEVEL1/TILES/ACTION/012.PID`, any letter case), as modders keep custom tiles. Both
//! answer the same paths ([`ImageSource::file`]); [`ImageIndex`] finds a source's folders
//! by path and by image-set key and lists a folder's images by frame number
//! ([`ImageIndex::frames`]); [`ImageNames`] says which folder a plane's tile set or an
//! object's image set is (`docs/formats/wap32.md`, "Levels").
//!
//! Names are resolved once: [`ImageSource::index`] walks the source's folders a single time
//! (each archive directory's table, each disk folder after resolving links, read once) and
//! keeps a 64-bit keyed hash of every folder's path and image-set key, so that each lookup
//! costs one hash of the name asked for and a check of the one folder found, whatever the
//! number of folders, of sets looked up, or of ways to cut a key at `_`.

use std::borrow::Cow;
use std::collections::HashSet;
use std::collections::hash_map::RandomState;
use std::fs;
use std::hash::{BuildHasher, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use gamedata_io::{FileData, FileError, Limits, Problems};

use crate::error::{Error, ErrorKind, Result};
use crate::header::Header;
use crate::level_file::LevelOptions;
use crate::rez::{MAX_DEPTH, Rez, RezArchive, RezDir, RezEntry, RezFile};

/// A REZ archive or a folder of extracted files.
#[derive(Debug)]
pub enum ImageSource {
    /// An archive, read or mapped.
    Archive(RezArchive),
    /// A folder whose tree mirrors an archive's.
    Folder(PathBuf),
}

impl ImageSource {
    /// The folder at `path`, or the archive there read into memory.
    ///
    /// Returns `Err` as [`RezArchive::open`] for a file.
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        if path.is_dir() {
            return Ok(ImageSource::Folder(path.to_path_buf()));
        }
        Ok(ImageSource::Archive(RezArchive::open_with(
            path,
            &LevelOptions::default(),
        )?))
    }

    /// The folder at `path`, or the archive there memory-mapped.
    ///
    /// Returns `Err` as [`RezArchive::map`] for a file.
    ///
    /// # Safety
    ///
    /// As [`RezArchive::map`] when `path` is a file.
    #[allow(unsafe_code)]
    pub unsafe fn map(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        if path.is_dir() {
            return Ok(ImageSource::Folder(path.to_path_buf()));
        }
        // SAFETY: the caller upholds RezArchive::map's contract, which is this function's.
        Ok(ImageSource::Archive(unsafe { RezArchive::map(path) }?))
    }

    /// The bytes of the file at `path` (`/` or `\` separated, any letter case): borrowed
    /// from an archive, read from a folder (a file that is not a regular one up to
    /// [`Limits::max_stream_bytes`]); `None` when there is no such file.
    ///
    /// Returns `Err` when a directory of the archive on the way cannot be read, or the
    /// folder's file cannot be read.
    pub fn file(&self, path: &str) -> Result<Option<Cow<'_, [u8]>>> {
        match self {
            ImageSource::Archive(archive) => {
                Ok(archive.rez().file(path)?.map(|f| Cow::Borrowed(f.bytes)))
            }
            ImageSource::Folder(root) => {
                let Some(found) = find_path(root, path)? else {
                    return Ok(None);
                };
                let data = FileData::read_with(&found, &Limits::default())?;
                Ok(Some(Cow::Owned(data.into_vec())))
            }
        }
    }

    /// The source's folders indexed by path and image-set key (see [`ImageIndex`]), within
    /// `limits`: paths up to [`Limits::max_path_bytes`], at most [`Limits::max_records`]
    /// folders.
    ///
    /// Returns `Err` ([`ErrorKind::Limit`]) when the source has more folders than
    /// `limits.max_records`, or ([`Error::File`]) when a disk folder's root cannot be
    /// listed. A folder that cannot be read, loops, nests past [`MAX_DEPTH`], has too long
    /// a path or repeats an earlier name is left out and kept in
    /// [`ImageIndex::problems`].
    pub fn index(&self, limits: &Limits) -> Result<ImageIndex<'_>> {
        let mut index = ImageIndex {
            source: self,
            folders: vec![Folder {
                parent: 0,
                at: ROOT_AT,
            }],
            names: String::new(),
            by_path: Vec::new(),
            by_key: Vec::new(),
            hasher: RandomState::new(),
            problems: Problems::new(),
            limits: *limits,
            checks: AtomicU64::new(0),
        };
        match self {
            ImageSource::Archive(archive) => index_archive(&mut index, &archive.rez(), limits)?,
            ImageSource::Folder(root) => index_folder(&mut index, root, limits)?,
        }
        index.folders.shrink_to_fit();
        index.names.shrink_to_fit();
        index.hash_all();
        Ok(index)
    }
}

/// A folder of an [`ImageIndex`], by number (0 is the source's root).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FolderId(u32);

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
struct Folder {
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
/// once (at most [`Limits::max_path_bytes`] bytes); an archive directory too short for one
/// entry is not indexed (it holds no image).
#[derive(Debug)]
pub struct ImageIndex<'s> {
    source: &'s ImageSource,
    folders: Vec<Folder>,
    /// Names of a disk folder's folders, each ended by a NUL.
    names: String,
    /// Every folder by the hash of its path, sorted.
    by_path: Vec<Slot>,
    /// By the hash of its key, sorted, the folder each key resolves to.
    by_key: Vec<Slot>,
    hasher: RandomState,
    problems: Problems<Error>,
    limits: Limits,
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

    /// The table (offset, size) of archive folder `i`.
    fn table(&self, i: u32) -> (u32, u32) {
        let ImageSource::Archive(archive) = self.source else {
            return (0, 0);
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
    fn chain(&self, i: u32) -> Vec<Cow<'s, str>> {
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
fn index_archive(index: &mut ImageIndex<'_>, rez: &Rez<'_>, limits: &Limits) -> Result<()> {
    let mut walk = rez.walk_with(&rez.root(), limits);
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
        if dir.size < crate::rez::MIN_ENTRY {
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
                crate::DataError {
                    kind: ErrorKind::Rez(crate::RezProblem::Repeated { at: dir.at }),
                    file: Some(entry.path.into()),
                }
                .into(),
            );
        }
        chain.push(added);
    }
    Ok(())
}

/// Indexes a disk folder's folders, depth first in name order; each folder (after
/// resolving links) is listed once.
fn index_folder(index: &mut ImageIndex<'_>, root: &Path, limits: &Limits) -> Result<()> {
    let max_path = usize::try_from(limits.max_path_bytes).unwrap_or(usize::MAX);
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
                Some("its path is longer than Limits::max_path_bytes")
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

/// One image of a folder: its frame number and where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FrameFile {
    number: Option<u32>,
    /// The entry's offset in the archive, or the name's range in [`Frames::names`].
    at: u32,
    len: u32,
}

/// The `.PID` images of one folder, by frame number: the number in each file's name (the
/// first run of digits: `FRAME007.PID` and `007.PID` are frame 7), the first file in the
/// folder's order for two of one number; and the folder's first image, which frame -1
/// means. The folder's order is an archive's stored order, a disk folder's name order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Frames {
    folder: Option<FolderId>,
    /// The folder's table, for an archive.
    table: (u32, u32),
    files: Vec<FrameFile>,
    /// (number, position in `files`), sorted, the first of each number only.
    by_number: Vec<(u32, u32)>,
    /// A disk folder's file names, one after another.
    names: String,
}

impl Frames {
    /// Images in the folder.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// True when the folder holds no image.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The image that frame `i` draws: the first numbered `i`, or for -1 the first; its
    /// position in the folder's images.
    pub fn get(&self, i: i64) -> Option<usize> {
        if i == -1 {
            return (!self.files.is_empty()).then_some(0);
        }
        let i = u32::try_from(i).ok()?;
        let at = self.by_number.binary_search_by_key(&i, |(n, _)| *n).ok()?;
        self.by_number.get(at).map(|(_, p)| *p as usize)
    }

    /// The frame number of image `i` (`None` for a name without digits).
    pub fn number(&self, i: usize) -> Option<u32> {
        self.files.get(i)?.number
    }
}

/// The number in an image file's name: its first run of ASCII digits (at most 9 of them).
pub fn frame_number(name: &str) -> Option<u32> {
    let start = name.find(|c: char| c.is_ascii_digit())?;
    let digits: &str = name.get(start..)?;
    let end = digits
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(digits.len());
    digits.get(..end.min(9))?.parse().ok()
}

/// The directory whose table is `table` (offset, size), for reading its entries.
fn table_dir(table: (u32, u32)) -> RezDir<'static> {
    RezDir {
        name: &[],
        offset: table.0,
        size: table.1,
        time: 0,
        at: 0,
    }
}

/// The device and inode of the file at `path` (after links), on Unix.
#[cfg(unix)]
fn identity(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

/// Files have no identity but their path elsewhere.
#[cfg(not(unix))]
fn identity(_: &Path) -> Option<(u64, u64)> {
    None
}

/// Whether `name` ends in `.PID` in any letter case.
fn is_pid(name: &str) -> bool {
    name.rsplit_once('.')
        .is_some_and(|(_, e)| e.eq_ignore_ascii_case("PID"))
}

impl<'s> ImageIndex<'s> {
    /// The `.PID` images of `folder` by frame number, its listing read once (the caller
    /// keeps it: [`Frames`] holds 16 bytes an image, and a disk folder's names).
    ///
    /// Returns `Err` when the folder cannot be read; entries of an archive directory after
    /// one that cannot be read are not listed.
    pub fn frames(&self, folder: FolderId) -> Result<Frames> {
        let mut frames = Frames {
            folder: Some(folder),
            ..Frames::default()
        };
        if self.folders.get(folder.0 as usize).is_none() {
            return Ok(frames);
        }
        match self.source {
            ImageSource::Archive(archive) => {
                let rez = archive.rez();
                frames.table = self.table(folder.0);
                let max = usize::try_from(self.limits.max_path_bytes).unwrap_or(usize::MAX);
                for entry in rez.entries(&table_dir(frames.table)) {
                    if let RezEntry::File(f) = entry? {
                        // A name past the path cap is no image a path can name.
                        if f.name.len() > max {
                            continue;
                        }
                        let name = f.file_name();
                        if is_pid(&name) {
                            frames.files.push(FrameFile {
                                number: frame_number(&name),
                                at: u32::try_from(f.at).unwrap_or(u32::MAX),
                                len: 0,
                            });
                        }
                    }
                }
            }
            ImageSource::Folder(root) => {
                let dir = self.disk_path(root, folder);
                let listing = fs::read_dir(&dir).map_err(|e| FileError::io(&dir, e))?;
                let mut names = Vec::new();
                for entry in listing {
                    let entry = entry.map_err(|e| FileError::io(&dir, e))?;
                    let name = entry.file_name().to_string_lossy().into_owned();
                    if is_pid(&name) && entry.path().is_file() {
                        names.push(name);
                    }
                }
                names.sort();
                for name in names {
                    let at = u32::try_from(frames.names.len()).unwrap_or(u32::MAX);
                    frames.names.push_str(&name);
                    frames.files.push(FrameFile {
                        number: frame_number(&name),
                        at,
                        len: u32::try_from(name.len()).unwrap_or(0),
                    });
                }
            }
        }
        let mut by_number: Vec<(u32, u32)> = frames
            .files
            .iter()
            .enumerate()
            .filter_map(|(i, f)| Some((f.number?, u32::try_from(i).ok()?)))
            .collect();
        by_number.sort_unstable();
        by_number.dedup_by_key(|(n, _)| *n);
        frames.by_number = by_number;
        Ok(frames)
    }

    /// The disk path of `folder` under `root`.
    fn disk_path(&self, root: &Path, folder: FolderId) -> PathBuf {
        self.chain(folder.0)
            .iter()
            .fold(root.to_path_buf(), |p, name| p.join(name.as_ref()))
    }

    /// The path of image `i` of `frames` (`LEVEL1/TILES/ACTION/012.PID`), for reports.
    pub fn image_path(&self, frames: &Frames, i: usize) -> Option<String> {
        let file = frames.files.get(i)?;
        let folder = frames.folder.map(|f| self.path(f)).unwrap_or_default();
        let name = match self.source {
            ImageSource::Archive(_) => self.archive_file(frames, file)?.file_name(),
            ImageSource::Folder(_) => {
                let range = file.at as usize..(file.at as usize).saturating_add(file.len as usize);
                frames.names.get(range)?.to_owned()
            }
        };
        Some(if folder.is_empty() {
            name
        } else {
            format!("{folder}/{name}")
        })
    }

    /// The archive entry of `file`.
    fn archive_file(&self, frames: &Frames, file: &FrameFile) -> Option<RezFile<'s>> {
        let ImageSource::Archive(archive) = self.source else {
            return None;
        };
        match archive
            .rez()
            .entry_at(&table_dir(frames.table), file.at as usize)
        {
            Some(RezEntry::File(f)) => Some(f),
            _ => None,
        }
    }

    /// What makes image `i` of `frames` the same file as another: its device and inode
    /// for a disk folder's file (links and hard links of one file are one image; on Unix),
    /// `None` for an archive's (their bytes' place tells) or elsewhere.
    pub fn image_identity(&self, frames: &Frames, i: usize) -> Option<(u64, u64)> {
        let ImageSource::Folder(root) = self.source else {
            return None;
        };
        let file = frames.files.get(i)?;
        let start = file.at as usize;
        let name = frames
            .names
            .get(start..start.saturating_add(file.len as usize))?;
        let path = self.disk_path(root, frames.folder?).join(name);
        identity(&path)
    }

    /// The bytes of image `i` of `frames`: borrowed from an archive, read from a disk
    /// folder (a file that is not a regular one up to [`Limits::max_stream_bytes`]); `None`
    /// when there is no such image.
    ///
    /// Returns `Err` when a disk file cannot be read.
    pub fn image(&self, frames: &Frames, i: usize) -> Result<Option<Cow<'s, [u8]>>> {
        let Some(file) = frames.files.get(i) else {
            return Ok(None);
        };
        match self.source {
            ImageSource::Archive(_) => Ok(self
                .archive_file(frames, file)
                .map(|f| Cow::Borrowed(f.bytes))),
            ImageSource::Folder(root) => {
                let Some(folder) = frames.folder else {
                    return Ok(None);
                };
                let range = file.at as usize..(file.at as usize).saturating_add(file.len as usize);
                let Some(name) = frames.names.get(range) else {
                    return Ok(None);
                };
                let path = self.disk_path(root, folder).join(name);
                let data = FileData::read_with(&path, &self.limits)?;
                Ok(Some(Cow::Owned(data.into_vec())))
            }
        }
    }
}

/// How a level names its pictures, from its header: the tile sets' folder, the palette and
/// the image-set prefixes (`docs/formats/wap32.md`, "Levels"; libwap32's `wwd2html`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageNames {
    /// The planes' tile sets' folder, `/`-separated, without a leading slash
    /// (`LEVEL1/TILES`).
    pub tiles: String,
    /// The palette's path (`LEVEL1/PALETTES/MAIN.PAL`).
    pub palette: String,
    /// Prefix and the folder key it stands for, `_`-joined (`LEVEL`, `LEVEL1_IMAGES`).
    pub prefixes: Vec<(String, String)>,
}

/// A stored path as `/`-separated text without leading or trailing slashes.
fn clean_path(bytes: &[u8]) -> String {
    let text = gamedata_io::latin1(bytes);
    let parts: Vec<&str> = text.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
    parts.join("/")
}

impl ImageNames {
    /// The names `header` gives.
    pub fn of(header: &Header<'_>) -> Self {
        let prefixes = header
            .image_set_prefixes()
            .into_iter()
            .filter(|(p, s)| !p.is_empty() && !s.is_empty())
            .map(|(p, s)| {
                let prefix = gamedata_io::latin1(p).into_owned();
                (prefix, clean_path(s).replace('/', "_"))
            })
            .collect();
        ImageNames {
            tiles: clean_path(header.image_dir()),
            palette: clean_path(header.palette_path()),
            prefixes,
        }
    }

    /// The folder of a plane's tile set named `set` (`ACTION` gives `LEVEL1/TILES/ACTION`).
    pub fn tile_folder(&self, set: &[u8]) -> String {
        let set = clean_path(set);
        if self.tiles.is_empty() {
            set
        } else {
            format!("{}/{set}", self.tiles)
        }
    }

    /// The image-set key of an object's image set (`LEVEL_OFFICER` gives
    /// `LEVEL1_IMAGES_OFFICER`): the first prefix it starts with replaced by the folder it
    /// stands for, else the tile sets' folder in front ([`ImageIndex::find_set`] finds
    /// the folder).
    pub fn object_set(&self, image_set: &[u8]) -> String {
        let set = gamedata_io::latin1(image_set);
        for (prefix, folder) in &self.prefixes {
            if let Some(rest) = set.strip_prefix(prefix.as_str()) {
                return format!("{folder}{rest}");
            }
        }
        format!("{}_{set}", self.tiles.replace('/', "_"))
    }
}

/// The entry of `dir` named `name` in any letter case (an exact match first).
fn entry_ignoring_case(dir: &Path, name: &str) -> Result<Option<PathBuf>> {
    let exact = dir.join(name);
    if exact.exists() {
        return Ok(Some(exact));
    }
    let listing = match fs::read_dir(dir) {
        Ok(listing) => listing,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(FileError::io(dir, e).into()),
    };
    for entry in listing {
        let entry = entry.map_err(|e| FileError::io(dir, e))?;
        if entry
            .file_name()
            .to_string_lossy()
            .eq_ignore_ascii_case(name)
        {
            return Ok(Some(entry.path()));
        }
    }
    Ok(None)
}

/// The file at `path` under `root`: each component matched in any letter case; `None` when
/// there is none, or a component is `.` or `..` (nothing outside `root` is read). A path
/// that is not a folder on the way, or not a file (a folder) at the end, is `None`; a
/// FIFO or device at the end is read as a stream.
fn find_path(root: &Path, path: &str) -> Result<Option<PathBuf>> {
    let mut at = root.to_path_buf();
    for part in path.split(['/', '\\']).filter(|p| !p.is_empty()) {
        if part == "." || part == ".." || part.contains(':') {
            return Ok(None);
        }
        match entry_ignoring_case(&at, part)? {
            Some(next) => at = next,
            None => return Ok(None),
        }
    }
    Ok((at.exists() && !at.is_dir()).then_some(at))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Root, `A`, `A/B`: written by the crate's writer.
    fn source() -> ImageSource {
        let files: [(&str, &[u8]); 2] = [("A/B/1.PID", b"x"), ("A/2.PID", b"y")];
        let bytes = crate::write_rez(&files).unwrap_or_default();
        ImageSource::Archive(RezArchive::from_data(bytes).unwrap_or_else(|e| panic!("{e}")))
    }

    /// Two names whose hashes meet: each lookup checks the folder it finds against the
    /// name asked for, so a hash shared with another name finds nothing.
    #[test]
    fn a_folder_found_by_its_hash_is_checked_against_the_name() {
        let images = source();
        let mut index = images
            .index(&Limits::default())
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
