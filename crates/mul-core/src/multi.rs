//! Multis: multi.idx (12-byte index records) and multi.mul (components).
//!
//! A multi (a house, a ship, a camp) is a list of item tiles placed relative to its centre.
//! Components are 12 bytes {id, x, y, z, flags} before High Seas and 16 bytes (one more
//! word) after; x, y and z are signed (the original format text says unsigned: wrong). Real
//! index files hold garbage entries, so each entry is checked and a bad one is reported,
//! never followed. Source: `docs/formats/uo.md`, "Multi".
//!
//! [`Multis`] is the view, [`MultiFiles`] the owner of a folder's multi.idx and multi.mul.

use std::fmt;
use std::path::{Path, PathBuf};

use gamedata_io::{FileData, FileError, FileOptions, FileSet, OwnedSet, PreviewTable, Problems};

use crate::error::{DataError, Error, ErrorKind, Result};
use crate::index::IndexedPair;
use crate::index::{
    LazyOverlaps, check_overlap, detect_record_size, entry_records, is_empty, parse_index,
};
use crate::raw::{IndexRecord, MultiComponent12, MultiComponent16};

/// The size of a multi component.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MultiFormat {
    /// 12 bytes: before High Seas.
    Short,
    /// 16 bytes: High Seas and later.
    Long,
}

impl MultiFormat {
    /// Bytes a component.
    pub const fn record_len(self) -> usize {
        match self {
            MultiFormat::Short => 12,
            MultiFormat::Long => 16,
        }
    }

    /// The format whose size divides every non-empty in-bounds index length (among up to
    /// 256 records spread over the index): 16 first, then 12 (a length divisible by both,
    /// 48 bytes, is rare; real files have hundreds of entries, which settles it); 16 when
    /// neither divides them all.
    pub fn detect(index: &[IndexRecord], data_len: usize) -> Self {
        match detect_record_size(index, data_len, &[16, 12]) {
            12 => MultiFormat::Short,
            _ => MultiFormat::Long,
        }
    }
}

/// The components of one multi, cast in place.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum MultiSlice<'data> {
    /// 12-byte components.
    Short(&'data [MultiComponent12]),
    /// 16-byte components.
    Long(&'data [MultiComponent16]),
}

impl fmt::Debug for MultiSlice<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MultiSlice::Short(s) => f.debug_tuple("Short").field(&PreviewTable(s)).finish(),
            MultiSlice::Long(s) => f.debug_tuple("Long").field(&PreviewTable(s)).finish(),
        }
    }
}

impl<'data> MultiSlice<'data> {
    /// Number of components.
    pub fn len(&self) -> usize {
        match self {
            MultiSlice::Short(s) => s.len(),
            MultiSlice::Long(s) => s.len(),
        }
    }

    /// True if there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Component `i` (its 12-byte fields), or `None` past the end.
    pub fn get(&self, i: usize) -> Option<&'data MultiComponent12> {
        match self {
            MultiSlice::Short(s) => s.get(i),
            MultiSlice::Long(s) => s.get(i).map(|c| &c.component),
        }
    }

    /// The components in file order (their 12-byte fields).
    pub fn iter(&self) -> impl Iterator<Item = &'data MultiComponent12> + 'data {
        let slice = *self;
        (0..slice.len()).filter_map(move |i| slice.get(i))
    }
}

/// multi.idx over multi.mul, borrowed.
///
/// Entries whose bytes overlap another entry's are bad
/// ([`IndexProblem::Overlap`](crate::IndexProblem::Overlap)), as for statics
/// ([`crate::Statics`]): a scan of every multi reads each byte of multi.mul at most once.
#[derive(Clone)]
pub struct Multis<'data> {
    index: &'data [IndexRecord],
    data: &'data [u8],
    format: MultiFormat,
    overlaps: LazyOverlaps,
}

impl fmt::Debug for Multis<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Multis")
            .field("entries", &self.index.len())
            .field("format", &self.format)
            .finish()
    }
}

impl<'data> Multis<'data> {
    /// Casts multi.idx in place over multi.mul; `format` `None` detects it
    /// ([`MultiFormat::detect`]).
    ///
    /// Returns `Err` ([`ErrorKind::RecordMultiple`]) if the index is not a whole number of 12-byte
    /// records.
    pub fn parse(
        index: &'data [u8],
        data: &'data [u8],
        format: Option<MultiFormat>,
    ) -> Result<Self, DataError> {
        let index = parse_index(index, "multi.idx")?;
        let format = format.unwrap_or_else(|| MultiFormat::detect(index, data.len()));
        Ok(Multis {
            index,
            data,
            format,
            overlaps: LazyOverlaps::default(),
        })
    }

    /// The component format in use.
    pub fn format(&self) -> MultiFormat {
        self.format
    }

    /// Number of index entries (multi ids).
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// True if the index has no entry.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The raw index records.
    pub fn index(&self) -> &'data [IndexRecord] {
        self.index
    }

    /// The components of multi `id`, cast in place; `None` for an empty entry.
    ///
    /// Returns `Err` ([`ErrorKind::MissingIndexEntry`]) past the end of the index, or
    /// ([`ErrorKind::IndexEntry`]) if the entry points outside multi.mul, does not hold whole
    /// components or overlaps another entry's bytes.
    pub fn get(&self, id: u32) -> Result<Option<MultiSlice<'data>>, DataError> {
        self.get_at(id as usize)
    }

    /// [`Multis::get`] of entry `id`, which [`Multis::validate`] takes to the end of any index.
    fn get_at(&self, id: usize) -> Result<Option<MultiSlice<'data>>, DataError> {
        let record = self.index.get(id).ok_or(ErrorKind::MissingIndexEntry {
            file: "multi.idx",
            entry: id,
            records: self.index.len(),
        })?;
        if is_empty(record) {
            return Ok(None);
        }
        let overlaps = self
            .overlaps
            .get(self.index, self.data.len(), self.format.record_len());
        check_overlap(overlaps, record, self.data, "multi.idx", id)?;
        Ok(Some(match self.format {
            MultiFormat::Short => {
                MultiSlice::Short(entry_records(record, self.data, "multi.idx", id)?)
            }
            MultiFormat::Long => {
                MultiSlice::Long(entry_records(record, self.data, "multi.idx", id)?)
            }
        }))
    }

    /// Ids of the non-empty entries whose data is readable.
    pub fn ids(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.index.len())
            .map_while(|id| u32::try_from(id).ok())
            .filter(|&id| self.get(id).is_ok_and(|m| m.is_some_and(|m| !m.is_empty())))
    }

    /// The bad entries in id order, the first [`Problems::KEEP`] kept and all counted; the
    /// good ones stay readable whatever this finds.
    pub fn validate(&self) -> Problems<ErrorKind> {
        let mut problems = Problems::new();
        for id in 0..self.index.len() {
            if let Err(e) = self.get_at(id) {
                problems.push(e.kind);
            }
        }
        problems
    }
}

/// multi.idx and multi.mul, owned ([`OwnedSet`] of [`MultiSet`]; view: [`Multis`]). A folder
/// holds one pair: its id is `()` (`MultiFiles::open(dir, ())`).
pub type MultiFiles = OwnedSet<MultiSet>;

/// multi.idx's and multi.mul's bytes, checked ([`Multis::parse`], the format detected).
pub struct MultiSet {
    /// Where they are: multi.idx, multi.mul (`None` for bytes handed over without paths).
    pub paths: Option<[PathBuf; 2]>,
    pair: IndexedPair,
}

impl fmt::Debug for MultiSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.pair.debug(f, "MultiFiles", &self.paths)
    }
}

impl FileSet for MultiSet {
    type Options = FileOptions;
    type Kind = ErrorKind;
    type Id = ();
    type Paths = Option<[PathBuf; 2]>;
    /// multi.idx's bytes, then multi.mul's.
    type Files = [FileData; 2];
    type View<'data> = Multis<'data>;

    /// multi.idx and multi.mul in `dir`, any letter case.
    fn find(dir: &Path, _id: (), _options: &FileOptions) -> Result<Self::Paths, Error> {
        IndexedPair::find(dir, ["multi.idx", "multi.mul"])
    }

    fn load(
        paths: &Self::Paths,
        load: &mut dyn FnMut(&Path) -> Result<FileData, FileError>,
    ) -> Result<[FileData; 2], FileError> {
        IndexedPair::load(paths, load)
    }

    /// Checks multi.idx (a whole number of 12-byte records), naming it in errors.
    fn from_files(
        paths: Self::Paths,
        files: [FileData; 2],
        _options: &FileOptions,
    ) -> Result<Self, DataError> {
        let pair = IndexedPair::checked(paths.as_ref(), files, |i, d| {
            Multis::parse(i, d, None).map(drop)
        })?;
        Ok(MultiSet { paths, pair })
    }

    fn view(&self) -> Result<Multis<'_>, DataError> {
        Multis::parse(&self.pair.index, &self.pair.data, None)
    }
}
