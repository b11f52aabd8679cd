//! REZ archives, the WAP32 games' resource files (CLAW.REZ; GRUNTZ.REZ, .ZZZ, .VRZ): a
//! 168-byte header, then a tree of directories whose entries point at files anywhere in
//! the archive. [`RezArchive`] owns an archive (read or mapped); [`Rez`] views one in
//! place: entries by path in any letter case with `\` or `/`, a directory's entries, and a
//! depth-first walk of every file, each file's bytes a slice of the archive.
//!
//! Everything read is checked: a directory or file past the archive's end, an entry cut by
//! its directory's end (a name without its NUL), a name that is empty or holds `/` or `\`
//! (paths would be ambiguous), a kind other than file or directory, a
//! directory whose entries overlap another's (a tree pointing into itself) and nesting past
//! [`MAX_DEPTH`] are errors naming the offset, and in a walk the directory's path. The walk
//! reads each directory's bytes at most once, so listing an archive of n bytes is O(n).
//! Format facts and sources: `docs/formats/wap32.md`, "REZ archives".

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::collections::hash_map::RandomState;
use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::path::Path;

use gamedata_io::{Bytes, FileData, Limits};
use zerocopy::FromBytes;
use zerocopy::little_endian::U32;

use crate::error::{DataError, ErrorKind, Result, RezProblem};
use crate::level_file::LevelOptions;
use crate::raw::{REZ_HEADER_LEN, RezEntryHead, RezFileHead, RezHeader};

/// The deepest a directory may nest (the root's entries are at depth 1); the real archives
/// nest 7 deep at most.
pub const MAX_DEPTH: usize = 32;

/// A REZ archive, owned: its bytes read or mapped ([`FileData`]).
pub struct RezArchive {
    data: FileData,
}

impl fmt::Debug for RezArchive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RezArchive")
            .field("len", &self.data.len())
            .field("mapped", &self.data.is_mapped())
            .finish()
    }
}

impl RezArchive {
    /// Reads the archive at `path` into memory (see [`RezArchive::from_data`]).
    ///
    /// Returns `Err` ([`Error::File`](crate::Error::File)) if the file cannot be read, or as
    /// [`Rez::parse`], naming the file.
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        Self::open_with(path, &LevelOptions::default())
    }

    /// Reads the archive at `path` with `options` (their [`Limits::max_stream_bytes`]
    /// caps a path that is not a regular file).
    ///
    /// Returns `Err` as [`RezArchive::open`].
    ///
    /// [`Limits::max_stream_bytes`]: gamedata_io::Limits::max_stream_bytes
    pub fn open_with(path: impl AsRef<Path>, options: &LevelOptions) -> Result<Self> {
        let path = path.as_ref();
        let data = FileData::read_with(path, &options.limits)?;
        Ok(Self::from_data(data).map_err(DataError::in_file(path))?)
    }

    /// Memory-maps the archive at `path`: entries are then read in place from the page
    /// cache, never copied (archives are tens of megabytes).
    ///
    /// Returns `Err` ([`Error::File`](crate::Error::File)) if the file cannot be mapped, or
    /// as [`Rez::parse`], naming the file.
    ///
    /// # Safety
    ///
    /// As [`FileData::map`]: no process may modify or truncate the file while the mapping
    /// lives (truncation makes a later access raise SIGBUS).
    #[allow(unsafe_code)]
    pub unsafe fn map(path: impl AsRef<Path>) -> Result<Self> {
        // SAFETY: the caller upholds this function's contract, which is map_with's.
        unsafe { Self::map_with(path, &LevelOptions::default()) }
    }

    /// [`RezArchive::map`] with `options` (nothing in them applies to a mapping today; the
    /// form is the crate's).
    ///
    /// Returns `Err` as [`RezArchive::map`].
    ///
    /// # Safety
    ///
    /// As [`RezArchive::map`].
    #[allow(unsafe_code)]
    pub unsafe fn map_with(path: impl AsRef<Path>, options: &LevelOptions) -> Result<Self> {
        let _ = options;
        let path = path.as_ref();
        // SAFETY: the caller upholds FileData::map's contract, which is this function's.
        let data = unsafe { FileData::map(path) }?;
        Ok(Self::from_data(data).map_err(DataError::in_file(path))?)
    }

    /// An archive's bytes that the caller owns (a `Vec<u8>`, an `Arc<[u8]>`, a map),
    /// zero-copy; the header is checked.
    ///
    /// Returns `Err` as [`Rez::parse`].
    pub fn from_data(data: impl Into<FileData>) -> Result<Self, DataError> {
        let data = data.into();
        Rez::parse(&data)?;
        Ok(RezArchive { data })
    }

    /// The view of the archive.
    pub fn rez(&self) -> Rez<'_> {
        // Checked when the archive was made: parse cannot fail here.
        Rez::parse(&self.data).unwrap_or(Rez {
            data: &[],
            header: &EMPTY_HEADER,
        })
    }

    /// The archive's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.data
    }
}

/// A placeholder header that no view ever shows (see [`RezArchive::rez`]).
static EMPTY_HEADER: RezHeader = RezHeader {
    text: [0; 127],
    version: U32::ZERO,
    root_offset: U32::ZERO,
    root_size: U32::ZERO,
    root_time: U32::ZERO,
    next_write: U32::ZERO,
    time: U32::ZERO,
    largest_keys: U32::ZERO,
    largest_dir_name: U32::ZERO,
    largest_file_name: U32::ZERO,
    largest_comment: U32::ZERO,
    sorted: 0,
};

/// A REZ archive viewed in place.
#[derive(Clone, Copy)]
pub struct Rez<'data> {
    data: &'data [u8],
    header: &'data RezHeader,
}

impl fmt::Debug for Rez<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rez")
            .field("len", &self.data.len())
            .field("root_offset", &self.header.root_offset.get())
            .field("root_size", &self.header.root_size.get())
            .finish()
    }
}

/// A directory of an archive: where its entries lie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RezDir<'data> {
    /// Its name as stored (empty for the root).
    pub name: &'data [u8],
    /// Absolute offset of its entries.
    pub offset: u32,
    /// Bytes of its entries.
    pub size: u32,
    /// Time (seconds since 1970).
    pub time: u32,
    /// Absolute offset of its entry in its parent (0 for the root).
    pub at: usize,
}

impl<'data> RezDir<'data> {
    /// The name as text, bytes above 0x7F as Latin-1.
    pub fn name_lossy(&self) -> std::borrow::Cow<'data, str> {
        gamedata_io::latin1(self.name)
    }
}

/// A file of an archive, its bytes borrowed from the archive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RezFile<'data> {
    /// Its name as stored, without the extension.
    pub name: &'data [u8],
    /// Its bytes.
    pub bytes: &'data [u8],
    /// Absolute offset of its bytes.
    pub offset: u32,
    /// Time (seconds since 1970).
    pub time: u32,
    /// Resource id.
    pub id: u32,
    /// Its comment as stored (empty in the real archives).
    pub comment: &'data [u8],
    /// Its keys (none in the real archives).
    pub keys: &'data [U32],
    /// Absolute offset of its entry.
    pub at: usize,
    extension: [u8; 4],
}

impl<'data> RezFile<'data> {
    /// The extension as the game names it (`PID`, `PAL`, `ANI`): the stored letters
    /// (`DIP`) reversed, up to the first NUL.
    pub fn extension(&self) -> &[u8] {
        let len = self
            .extension
            .iter()
            .position(|&b| b == 0)
            .unwrap_or(self.extension.len());
        self.extension.get(..len).unwrap_or_default()
    }

    /// `NAME.EXT` (or `NAME` without an extension), bytes above 0x7F as Latin-1.
    pub fn file_name(&self) -> String {
        let mut name = gamedata_io::latin1(self.name).into_owned();
        if !self.extension().is_empty() {
            name.push('.');
            name.push_str(&gamedata_io::latin1(self.extension()));
        }
        name
    }

    /// Whether `name` (`012.PID`, any letter case) is this file's name.
    pub fn is_named(&self, name: &[u8]) -> bool {
        let ext = self.extension();
        match name.len().checked_sub(self.name.len()) {
            Some(0) => ext.is_empty() && name.eq_ignore_ascii_case(self.name),
            Some(rest) => {
                let (stem, tail) = name.split_at(self.name.len());
                rest == ext.len().saturating_add(1)
                    && stem.eq_ignore_ascii_case(self.name)
                    && tail.first() == Some(&b'.')
                    && tail.get(1..).is_some_and(|e| e.eq_ignore_ascii_case(ext))
            }
            None => false,
        }
    }
}

/// An entry of a directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RezEntry<'data> {
    /// A directory.
    Dir(RezDir<'data>),
    /// A file.
    File(RezFile<'data>),
}

impl<'data> Rez<'data> {
    /// Views an archive: checks the header (its length and version 1) and that the root
    /// directory lies inside the archive.
    ///
    /// Returns `Err` ([`RezProblem::TooShort`], [`RezProblem::Version`],
    /// [`RezProblem::DirectoryOutside`]).
    pub fn parse(data: &'data [u8]) -> Result<Self, DataError> {
        let rez = |p| DataError::from(ErrorKind::Rez(p));
        let header = data
            .get(..REZ_HEADER_LEN)
            .and_then(|b| RezHeader::ref_from_bytes(b).ok())
            .ok_or(rez(RezProblem::TooShort { found: data.len() }))?;
        if header.version.get() != 1 {
            return Err(rez(RezProblem::Version {
                found: header.version.get(),
            }));
        }
        let view = Rez { data, header };
        view.range(header.root_offset.get(), header.root_size.get())
            .ok_or(rez(RezProblem::DirectoryOutside {
                offset: header.root_offset.get(),
                size: header.root_size.get(),
                len: data.len(),
            }))?;
        Ok(view)
    }

    /// The header.
    pub fn header(&self) -> &'data RezHeader {
        self.header
    }

    /// The archive's bytes.
    pub fn bytes(&self) -> &'data [u8] {
        self.data
    }

    /// The root directory.
    pub fn root(&self) -> RezDir<'data> {
        RezDir {
            name: &[],
            offset: self.header.root_offset.get(),
            size: self.header.root_size.get(),
            time: self.header.root_time.get(),
            at: 0,
        }
    }

    /// `offset..offset + size` when inside the archive.
    fn range(&self, offset: u32, size: u32) -> Option<std::ops::Range<usize>> {
        let start = usize::try_from(offset).ok()?;
        let end = start.checked_add(usize::try_from(size).ok()?)?;
        (end <= self.data.len()).then_some(start..end)
    }

    /// The entries of `dir`, in stored order. An entry that cannot be read is an error,
    /// and the entries after it are not read (an entry's length is known only by reading
    /// it).
    pub fn entries(&self, dir: &RezDir<'data>) -> Entries<'data> {
        let (pos, end, bad) = match self.range(dir.offset, dir.size) {
            Some(r) => (r.start, r.end, None),
            None => (
                0,
                0,
                Some(RezProblem::DirectoryOutside {
                    offset: dir.offset,
                    size: dir.size,
                    len: self.data.len(),
                }),
            ),
        };
        Entries {
            rez: *self,
            pos,
            end,
            bad,
        }
    }

    /// The entry of `dir` that starts at byte `at` of the archive (as [`RezFile::at`] and
    /// [`RezDir::at`] give), or `None` when none can be read there.
    pub fn entry_at(&self, dir: &RezDir<'data>, at: usize) -> Option<RezEntry<'data>> {
        let entries = self.entries(dir);
        if entries.bad.is_some() || at < entries.pos || at >= entries.end {
            return None;
        }
        entries.read(at).ok().map(|(entry, _)| entry)
    }

    /// The entry at `path` (`LEVEL1/TILES/ACTION/012.PID` or with `\`, in any letter case;
    /// empty components are ignored, so the empty path is the root), or `None`. Of two
    /// entries of one name the first is found. A path that enters a directory whose entries
    /// overlap those of a directory entered before on it (a tree pointing into itself) finds
    /// nothing, so a lookup reads each byte of the archive at most once.
    ///
    /// Returns `Err` when a directory on the way cannot be read before the entry is found.
    pub fn find(&self, path: &str) -> Result<Option<RezEntry<'data>>, DataError> {
        Ok(self.find_all(path)?.map(|entries| {
            entries
                .last()
                .copied()
                .unwrap_or(RezEntry::Dir(self.root()))
        }))
    }

    /// The entries along `path` (see [`Rez::find`]), one a component (empty for the root),
    /// or `None`: the stored names of a path given in another case, in one lookup.
    ///
    /// Returns `Err` as [`Rez::find`].
    pub fn find_all(&self, path: &str) -> Result<Option<Vec<RezEntry<'data>>>, DataError> {
        let parts: Vec<&str> = path.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
        let mut found: Vec<RezEntry<'data>> = Vec::new();
        let mut dir = self.root();
        // The tables read so far: a path that comes back into one loops.
        let mut entered: Vec<(u32, u32)> = Vec::new();
        for (depth, &part) in parts.iter().enumerate() {
            // Before the last part only a directory will do (a file may share its name).
            let last = depth.saturating_add(1) == parts.len();
            let end = dir.offset.saturating_add(dir.size);
            if depth >= MAX_DEPTH || entered.iter().any(|&(s, e)| dir.offset < e && s < end) {
                return Ok(None);
            }
            if dir.size > 0 {
                entered.push((dir.offset, end));
            }
            let mut hit = None;
            for e in self.entries(&dir) {
                let e = e?;
                // Names are Latin-1: a part with other characters than ASCII is compared
                // with the names as text.
                let named = (last || matches!(e, RezEntry::Dir(_)))
                    && match (&e, part.is_ascii()) {
                        (RezEntry::Dir(d), true) => d.name.eq_ignore_ascii_case(part.as_bytes()),
                        (RezEntry::File(f), true) => f.is_named(part.as_bytes()),
                        // Decoded only when it can match: Latin-1 text is never shorter.
                        (RezEntry::Dir(d), false) => {
                            d.name.len() <= part.len() && d.name_lossy().eq_ignore_ascii_case(part)
                        }
                        (RezEntry::File(f), false) => {
                            f.name.len() < part.len() && f.file_name().eq_ignore_ascii_case(part)
                        }
                    };
                if named {
                    hit = Some(e);
                    break;
                }
            }
            match hit {
                Some(e) => {
                    if let RezEntry::Dir(d) = e {
                        dir = d;
                    }
                    found.push(e);
                }
                None => return Ok(None),
            }
        }
        Ok(Some(found))
    }

    /// The file at `path` (see [`Rez::find`]), or `None` when there is none or it is a
    /// directory.
    ///
    /// Returns `Err` as [`Rez::find`].
    pub fn file(&self, path: &str) -> Result<Option<RezFile<'data>>, DataError> {
        Ok(match self.find(path)? {
            Some(RezEntry::File(f)) => Some(f),
            _ => None,
        })
    }

    /// Every file under `dir`, depth first in stored order, with its path from `dir`
    /// (`/`-separated, `NAME.EXT`), within the default [`Limits`] (see [`Rez::walk_with`]).
    pub fn walk(&self, dir: &RezDir<'data>) -> Walk<'data> {
        self.walk_with(dir, &Limits::default())
    }

    /// Every file under `dir` as [`Rez::walk`] gives them ([`Walk::next_entry`] also gives
    /// the directories). A directory that cannot be read, loops (its entries overlap those
    /// of a directory read before), nests past [`MAX_DEPTH`] or whose path passes
    /// `limits.max_path_bytes` is an error item naming the directory it is in, and is not
    /// entered; a file whose path passes the cap is an error item too; the walk then goes
    /// on with the others. So a walk reads each directory's bytes once, whatever the
    /// entries that point at them, and holds one path.
    pub fn walk_with(&self, dir: &RezDir<'data>, limits: &Limits) -> Walk<'data> {
        let max_path = usize::try_from(limits.max_path_bytes).unwrap_or(usize::MAX);
        let mut walk = Walk {
            rez: *self,
            stack: Vec::new(),
            path: String::new(),
            max_path,
            seen: BTreeMap::from([(dir.offset, dir.offset.saturating_add(dir.size))]),
            hasher: RandomState::new(),
        };
        let repeats = walk.repeats(dir);
        walk.stack.push(Open {
            entries: self.entries(dir),
            path_len: 0,
            depth: 1,
            repeats,
        });
        walk
    }
}

/// The entries of a directory (see [`Rez::entries`]).
#[derive(Clone, Debug)]
pub struct Entries<'data> {
    rez: Rez<'data>,
    pos: usize,
    end: usize,
    bad: Option<RezProblem>,
}

impl<'data> Iterator for Entries<'data> {
    type Item = Result<RezEntry<'data>, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(problem) = self.bad.take() {
            self.pos = self.end;
            return Some(Err(ErrorKind::Rez(problem).into()));
        }
        if self.pos >= self.end {
            return None;
        }
        let at = self.pos;
        match self.read(at) {
            Ok((entry, next)) => {
                self.pos = next;
                Some(Ok(entry))
            }
            Err(problem) => {
                self.pos = self.end;
                Some(Err(ErrorKind::Rez(problem).into()))
            }
        }
    }
}

impl<'data> Entries<'data> {
    /// The entry at `at` and the offset after it.
    fn read(&self, at: usize) -> Result<(RezEntry<'data>, usize), RezProblem> {
        let data = self.rez.data;
        let end = self.end;
        let cut = RezProblem::EntryCut { at, end };
        let dir = Bytes::new(data.get(..end).unwrap_or_default());
        let head: &RezEntryHead = dir.read_at(at).map_err(|_| cut)?;
        let after_head = at.saturating_add(16);
        let (offset, size, time) = (head.offset.get(), head.size.get(), head.time.get());
        match head.kind.get() {
            1 => {
                let (name, next) = text(data, after_head, end).ok_or(cut)?;
                check_name(name, at)?;
                let dir = RezDir {
                    name,
                    offset,
                    size,
                    time,
                    at,
                };
                Ok((RezEntry::Dir(dir), next))
            }
            0 => {
                let file: &RezFileHead = dir.read_at(after_head).map_err(|_| cut)?;
                let (name, next) = text(data, after_head.saturating_add(12), end).ok_or(cut)?;
                check_name(name, at)?;
                let (comment, next) = text(data, next, end).ok_or(cut)?;
                let keys = usize::try_from(file.keys.get()).unwrap_or(usize::MAX);
                let key_bytes = keys.checked_mul(4).ok_or(cut)?;
                let keys_end = next
                    .checked_add(key_bytes)
                    .filter(|&e| e <= end)
                    .ok_or(cut)?;
                let keys = <[U32]>::ref_from_bytes(data.get(next..keys_end).unwrap_or_default())
                    .map_err(|_| cut)?;
                let bytes = if size == 0 {
                    &[][..]
                } else {
                    self.rez
                        .range(offset, size)
                        .and_then(|r| data.get(r))
                        .ok_or(RezProblem::FileOutside {
                            at,
                            offset,
                            size,
                            len: data.len(),
                        })?
                };
                let mut extension = file.extension;
                let len = extension.iter().position(|&b| b == 0).unwrap_or(4);
                extension.get_mut(..len).unwrap_or_default().reverse();
                if extension.iter().any(|&b| b == b'/' || b == b'\\') {
                    return Err(RezProblem::Name { at });
                }
                let file = RezFile {
                    name,
                    bytes,
                    offset,
                    time,
                    id: file.id.get(),
                    comment,
                    keys,
                    at,
                    extension,
                };
                Ok((RezEntry::File(file), keys_end))
            }
            found => Err(RezProblem::EntryKind { at, found }),
        }
    }
}

/// Refuses a name that would make paths ambiguous: empty, or holding `/` or `\`.
fn check_name(name: &[u8], at: usize) -> Result<(), RezProblem> {
    if name.is_empty() || name.iter().any(|&b| b == b'/' || b == b'\\') {
        return Err(RezProblem::Name { at });
    }
    Ok(())
}

/// The position of the first NUL of `bytes`, looked for 32 bytes at a time (a test over a
/// whole block compiles to vector instructions; names run to hundreds of bytes).
fn nul(bytes: &[u8]) -> Option<usize> {
    let mut at = 0usize;
    for block in bytes.chunks(32) {
        if block.iter().fold(false, |any, &b| any | (b == 0)) {
            return block
                .iter()
                .position(|&b| b == 0)
                .map(|i| at.saturating_add(i));
        }
        at = at.saturating_add(block.len());
    }
    None
}

/// The NUL-terminated text at `at`, ending before `end`, and the offset after its NUL.
fn text(data: &[u8], at: usize, end: usize) -> Option<(&[u8], usize)> {
    let room = data.get(at..end)?;
    let len = nul(room)?;
    Some((room.get(..len)?, at.checked_add(len)?.checked_add(1)?))
}

/// One entry met by a walk ([`Walk::next_entry`]): a directory before its entries, or a
/// file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WalkEntry<'w, 'data> {
    /// Its path from the walked directory, `/`-separated, the directories' names as stored
    /// and the file's as [`RezFile::file_name`] gives it (`TILES/ACTION/012.PID`); at most
    /// [`Limits::max_path_bytes`] bytes.
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

/// The low 32 bits of a hash.
fn low_bits(hash: u64) -> u32 {
    let [.., e, f, g, h] = hash.to_be_bytes();
    u32::from_be_bytes([e, f, g, h])
}

/// Names of a directory that may repeat: the low 32 bits that their hashes share with
/// another's (sorted), and for each the whole hash of the first name met with them (0:
/// none yet): 12 bytes a candidate.
#[derive(Default)]
struct Repeats {
    candidates: Vec<u32>,
    met: Vec<u64>,
    /// Where each top-16-bit value's candidates start (65,537 of them, when there are many
    /// candidates), so that a lookup searches a few neighbours, not the whole list.
    starts: Vec<u32>,
}

impl Repeats {
    /// Whether a name of hash `hash` was met before in the directory (and notes it). Of
    /// two different names whose hashes share their low 32 bits (one pair in 4 billion),
    /// the second is not told apart from a third of its own name.
    fn met_again(&mut self, hash: u64) -> bool {
        let low = low_bits(hash);
        let top = (low >> 16) as usize;
        let (from, to) = match (self.starts.get(top), self.starts.get(top.saturating_add(1))) {
            (Some(&a), Some(&b)) => (a as usize, b as usize),
            _ => (0, self.candidates.len()),
        };
        let Some(Ok(k)) = self
            .candidates
            .get(from..to)
            .map(|near| near.binary_search(&low).map(|k| k.saturating_add(from)))
        else {
            return false;
        };
        let hash = hash.max(1);
        match self.met.get_mut(k) {
            Some(first) if *first == 0 => {
                *first = hash;
                false
            }
            Some(first) => *first == hash,
            None => false,
        }
    }
}

/// A depth-first walk of an archive (see [`Rez::walk`]). It holds one path buffer (at most
/// [`Limits::max_path_bytes`] long), the directories being read (at most [`MAX_DEPTH`])
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
    /// entries are walked: the entries counted, the low 32 bits of their names' hashes
    /// sorted in a buffer of exactly that length (4 bytes an entry, freed here), and those
    /// that come twice kept as candidates; a walk then tells the repeats among them by the
    /// whole 64-bit hash.
    fn repeats(&self, dir: &RezDir<'data>) -> Repeats {
        let count = self.rez.entries(dir).map_while(Result::ok).count();
        let mut low: Vec<u32> = Vec::with_capacity(count);
        low.extend(
            self.rez
                .entries(dir)
                .map_while(Result::ok)
                .map(|e| low_bits(self.name_hash(&e))),
        );
        low.sort_unstable();
        let mut candidates: Vec<u32> = low
            .windows(2)
            .filter_map(|pair| match pair {
                [a, b] if a == b => Some(*a),
                _ => None,
            })
            .collect();
        drop(low);
        candidates.dedup();
        candidates.shrink_to_fit();
        let met = vec![0; candidates.len()];
        // With many candidates, where each top-16-bit value starts (256 KiB).
        let starts = if candidates.len() > 4096 {
            (0..=1u32 << 16)
                .map(|top| {
                    let first = candidates.partition_point(|&c| (c >> 16) < top);
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

    /// The next directory or file, depth first in stored order (a directory comes before
    /// its entries); `None` at the end. A directory that cannot be read, loops, nests past
    /// [`MAX_DEPTH`] or whose path passes [`Limits::max_path_bytes`] (a file's too) is an
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
                Err(e) => {
                    let file = Some(place());
                    return Some(Err(DataError { file, ..e }));
                }
            };
            let fail = |problem| {
                Some(Err(DataError {
                    kind: ErrorKind::Rez(problem),
                    file: Some(place()),
                }))
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
    type Item = Result<(String, RezFile<'data>), DataError>;

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
