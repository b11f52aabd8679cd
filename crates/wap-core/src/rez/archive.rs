//! REZ archives, the WAP32 games' resource files (CLAW.REZ; GRUNTZ.REZ, .ZZZ, .VRZ): a
//! 168-byte header, then a tree of directories whose entries point at files anywhere in
//! the archive. [`RezFile`] owns an archive (read or mapped); [`Rez`] views one in
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

use std::collections::BTreeMap;
use std::fmt;

use gamedata_io::{FileData, Format, FormatOptions, Limits, MapOptions, Owned};
use zerocopy::FromBytes;

use crate::error::{DataError, ErrorKind, RezProblem};
use crate::raw::{REZ_HEADER_LEN, RezHeader};

use super::entries::Entries;
pub use super::entries::{RezDir, RezEntry, RezFileEntry};

/// The deepest a directory may nest (the root's entries are at depth 1); the real archives
/// nest 7 deep at most.
pub const MAX_DEPTH: usize = 32;

/// How a REZ archive is opened and walked: the shared [`Limits`] and [`MapOptions`], and
/// REZ's own cap on a path inside the archive. `RezOptions::default()` is what
/// [`RezFile::open`] and [`RezFile::map`] use; an archive opened with other options walks
/// within them ([`Rez::walk`]).
///
/// The struct is `#[non_exhaustive]`: build it from `Default` and set fields, or with the
/// `with_` methods, so that a new cap is not a breaking change.
///
/// ```
/// use wap_core::RezOptions;
///
/// // Paths inside the archive of at most 100 bytes: a directory past it is reported and
/// // not entered.
/// let mut options = RezOptions::default();
/// options.max_path_bytes = 100;
/// assert_eq!(options, RezOptions::new().with_max_path_bytes(100));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct RezOptions {
    /// Caps on what the archive may make us read: the bytes read from a path that is not a
    /// regular file ([`Limits::max_stream_bytes`]), and for an [`ImageSource`](crate::ImageSource)
    /// index its folders ([`Limits::max_records`]).
    pub limits: Limits,
    /// How [`RezFile::map_with`] maps the archive.
    pub mapping: MapOptions,
    /// Longest full path inside an archive, in bytes of its text
    /// (`LEVEL1/TILES/ACTION/012.PID`): a directory whose path passes it is reported and not
    /// entered, so that a listing prints at most this many bytes of path a file. The games'
    /// own paths fit in 260 bytes (Windows' `MAX_PATH`; the longest in GRUNTZ.REZ is 69).
    /// Default: [`RezOptions::DEFAULT_MAX_PATH_BYTES`].
    pub max_path_bytes: u64,
}

impl RezOptions {
    /// The default cap on a path inside an archive: 260 bytes.
    pub const DEFAULT_MAX_PATH_BYTES: u64 = 260;

    /// The default limits, lazy mapping with no advice, paths up to 260 bytes.
    pub const fn new() -> Self {
        RezOptions {
            limits: Limits::new(),
            mapping: MapOptions::new(),
            max_path_bytes: Self::DEFAULT_MAX_PATH_BYTES,
        }
    }

    /// Sets [`RezOptions::limits`].
    #[must_use]
    pub const fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Sets [`RezOptions::mapping`].
    #[must_use]
    pub const fn with_mapping(mut self, mapping: MapOptions) -> Self {
        self.mapping = mapping;
        self
    }

    /// Sets [`RezOptions::max_path_bytes`].
    #[must_use]
    pub const fn with_max_path_bytes(mut self, bytes: u64) -> Self {
        self.max_path_bytes = bytes;
        self
    }
}

impl Default for RezOptions {
    fn default() -> Self {
        Self::new()
    }
}

impl FormatOptions for RezOptions {
    fn limits(&self) -> &Limits {
        &self.limits
    }

    fn mapping(&self) -> MapOptions {
        self.mapping
    }
}

/// A REZ archive, owned ([`Owned`]): read ([`RezFile::open`]), mapped
/// ([`RezFile::map`]) or handed over ([`RezFile::from_data`]), its header checked
/// once; it dereferences to [`RezContents`]; [`RezFile::view`] views it, walking within
/// the [`RezOptions`] it was opened with.
pub type RezFile = Owned<RezContents>;

/// An archive's bytes, with a copy of their checked header and the options it was opened
/// with: what [`RezFile`] holds; the REZ implementation of [`Format`]. Nothing in an archive
/// is decoded at opening.
pub struct RezContents {
    data: FileData,
    /// A copy of the checked 168-byte header, so that [`RezFile::view`] cannot fail.
    header: RezHeader,
    /// [`RezOptions::max_path_bytes`] of the options it was opened with.
    max_path_bytes: u64,
}

impl fmt::Debug for RezContents {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RezFile")
            .field("len", &self.data.len())
            .field("mapped", &self.data.is_mapped())
            .finish()
    }
}

impl Format for RezContents {
    type Options = RezOptions;
    type Kind = ErrorKind;
    type View<'data> = Rez<'data>;

    /// Checks the archive's header, zero-copy, and keeps `options.max_path_bytes` for the
    /// view's walks.
    ///
    /// Returns `Err` as [`Rez::parse`].
    fn from_file(data: FileData, options: &RezOptions) -> Result<Self, DataError> {
        let header = *Rez::parse(&data)?.header;
        Ok(RezContents {
            data,
            header,
            max_path_bytes: options.max_path_bytes,
        })
    }

    /// The view of the archive; never fails (its header was checked at opening).
    fn view(&self) -> Result<Rez<'_>, DataError> {
        Ok(self.rez())
    }
}

impl RezContents {
    /// The view, infallibly (for the crate's own readers; [`RezFile::view`] is the public
    /// way, which never fails either).
    pub(crate) fn rez(&self) -> Rez<'_> {
        Rez {
            store: Store::Whole(&self.data),
            header: &self.header,
            max_path_bytes: self.max_path_bytes,
        }
    }

    /// The archive's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.data
    }
}

/// A REZ archive viewed in place: held whole, or its directory tables alone
/// ([`RezTables`](super::RezTables)).
#[derive(Clone, Copy)]
pub struct Rez<'data> {
    store: Store<'data>,
    header: &'data RezHeader,
    /// The cap on a path in a walk ([`Rez::walk`]).
    pub(super) max_path_bytes: u64,
}

/// Where a view's bytes are: the whole archive, or its header and directory tables alone,
/// each by its offset and length.
#[derive(Clone, Copy)]
pub(super) enum Store<'data> {
    Whole(&'data [u8]),
    Tables {
        len: usize,
        tables: &'data BTreeMap<(u32, u32), Box<[u8]>>,
    },
}

impl fmt::Debug for Rez<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rez")
            .field("len", &self.len())
            .field("whole", &matches!(self.store, Store::Whole(_)))
            .field("root_offset", &self.header.root_offset.get())
            .field("root_size", &self.header.root_size.get())
            .field("max_path_bytes", &self.max_path_bytes)
            .finish()
    }
}

impl<'data> Rez<'data> {
    /// Views an archive: checks the header (its length and version 1) and that the root
    /// directory lies inside the archive. Its walks keep to the default
    /// [`RezOptions::max_path_bytes`] ([`Rez::walk_with`] takes others; [`RezFile::view`]
    /// keeps the archive's options).
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
        check_root(header, data.len())?;
        Ok(Rez {
            store: Store::Whole(data),
            header,
            max_path_bytes: RezOptions::DEFAULT_MAX_PATH_BYTES,
        })
    }

    /// The header.
    pub fn header(&self) -> &'data RezHeader {
        self.header
    }

    /// The archive's bytes; empty in a view of the tables alone ([`RezTables`](super::RezTables)).
    pub fn bytes(&self) -> &'data [u8] {
        match self.store {
            Store::Whole(data) => data,
            Store::Tables { .. } => &[],
        }
    }

    /// The archive's length in bytes.
    pub fn len(&self) -> usize {
        match self.store {
            Store::Whole(data) => data.len(),
            Store::Tables { len, .. } => len,
        }
    }

    /// True for an archive of no bytes (a view is never one: its header was checked).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True when the archive is held whole: the files' bytes are borrowed from it
    /// ([`RezFileEntry::bytes`]); false for a view of its tables alone ([`RezTables`](super::RezTables)).
    pub fn is_whole(&self) -> bool {
        matches!(self.store, Store::Whole(_))
    }

    /// A view of the header and tables `tables` read from an archive of `len` bytes.
    pub(super) fn of_tables(
        header: &'data RezHeader,
        len: usize,
        tables: &'data BTreeMap<(u32, u32), Box<[u8]>>,
        max_path_bytes: u64,
    ) -> Self {
        Rez {
            store: Store::Tables { len, tables },
            header,
            max_path_bytes,
        }
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

    /// The directory table of `size` bytes at `offset`.
    ///
    /// Returns `Err` ([`RezProblem::DirectoryOutside`]) past the archive's end, or for a
    /// view of the tables alone ([`RezProblem::TableNotRead`]) a table not read: every
    /// table a listed directory leads to is.
    fn table(&self, offset: u32, size: u32) -> Result<&'data [u8], RezProblem> {
        let outside = RezProblem::DirectoryOutside {
            offset,
            size,
            len: self.len(),
        };
        let start = usize::try_from(offset).map_err(|_| outside)?;
        let end = usize::try_from(size)
            .ok()
            .and_then(|size| start.checked_add(size))
            .filter(|&end| end <= self.len())
            .ok_or(outside)?;
        match self.store {
            Store::Whole(data) => data.get(start..end).ok_or(outside),
            Store::Tables { .. } if size == 0 => Ok(&[]),
            Store::Tables { tables, .. } => tables
                .get(&(offset, size))
                .map(|t| &t[..])
                .ok_or(RezProblem::TableNotRead { offset, size }),
        }
    }

    /// The entries of `dir`, in stored order. An entry that cannot be read is an error,
    /// and the entries after it are not read (an entry's length is known only by reading
    /// it).
    pub fn entries(&self, dir: &RezDir<'data>) -> Entries<'data> {
        match self.table(dir.offset, dir.size) {
            Ok(table) => Entries::over(
                match self.store {
                    Store::Whole(data) => Some(data),
                    Store::Tables { .. } => None,
                },
                self.len(),
                table,
                dir.offset as usize,
            ),
            Err(problem) => Entries::failed(problem),
        }
    }

    /// The entry of `dir` that starts at byte `at` of the archive (as [`RezFileEntry::at`]
    /// and [`RezDir::at`] give), or `Ok(None)` when `at` is outside `dir`'s table.
    ///
    /// Returns `Err` ([`RezProblem::DirectoryOutside`]) if `dir`'s table is not inside the
    /// archive (in a view of the tables alone, [`RezProblem::TableNotRead`] if it was not
    /// read), or as [`Rez::entries`] does if no entry can be read at `at` (an offset
    /// inside an entry reads as one that is cut or of an unknown kind).
    pub fn entry_at(
        &self,
        dir: &RezDir<'data>,
        at: usize,
    ) -> Result<Option<RezEntry<'data>>, DataError> {
        let entries = self.entries(dir);
        if let Some(problem) = entries.bad {
            return Err(ErrorKind::Rez(problem).into());
        }
        if at < entries.pos || at >= entries.end {
            return Ok(None);
        }
        entries
            .read(at)
            .map(|(entry, _)| Some(entry))
            .map_err(|problem| ErrorKind::Rez(problem).into())
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
    pub fn file(&self, path: &str) -> Result<Option<RezFileEntry<'data>>, DataError> {
        Ok(match self.find(path)? {
            Some(RezEntry::File(f)) => Some(f),
            _ => None,
        })
    }
}

/// Checks that the root directory's table lies inside an archive of `len` bytes.
///
/// Returns `Err` ([`RezProblem::DirectoryOutside`]) when it does not.
pub(super) fn check_root(header: &RezHeader, len: usize) -> Result<(), DataError> {
    let (offset, size) = (header.root_offset.get(), header.root_size.get());
    let inside = usize::try_from(offset)
        .ok()
        .zip(usize::try_from(size).ok())
        .and_then(|(offset, size)| offset.checked_add(size))
        .is_some_and(|end| end <= len);
    if inside {
        Ok(())
    } else {
        Err(ErrorKind::Rez(RezProblem::DirectoryOutside { offset, size, len }).into())
    }
}
