//! One owner for every format: a format says once how its bytes are checked and viewed
//! ([`Format`], or [`FileSet`] for a format made of several files), and [`Owned`] (or
//! [`OwnedSet`]) gives it the five ways to open them: `open`, `open_with`, `map`,
//! `map_with` and `from_data`, each written here once. The idea is gimli-rs/object's: one
//! `parse` per format over bytes the caller owns, the owning kept apart.

use std::fmt;
use std::ops::Deref;
use std::path::Path;

use crate::error::{DataError, FormatError};
use crate::file::{FileData, FileError, MapOptions};
use crate::limits::Limits;

/// The part every format's options share: the caps on what a file may make us decode
/// ([`Limits`]) and how a file is mapped ([`MapOptions`]). [`Owned`] and [`OwnedSet`] read
/// a path within `limits()` and map it with `mapping()`.
pub trait FormatOptions {
    /// Caps on what opening and the views decode, and on the bytes read from a path that
    /// is not a regular file ([`Limits::max_stream_bytes`]).
    fn limits(&self) -> &Limits;
    /// How `map` and `map_with` map the files: pre-faulting and access advice.
    fn mapping(&self) -> MapOptions;
}

/// The options of a format that needs no more than the shared part: a REZ archive, a WWD
/// level, a group file pair, Ultima Online's single files. `FileOptions::default()` is what
/// `open` and `map` use.
///
/// The struct is `#[non_exhaustive]`: build it from `Default` and set fields, or with the
/// `with_` methods, so that a new field is not a breaking change.
///
/// ```
/// use gamedata_io::{FileOptions, Limits};
///
/// // A level whose main block decompresses past 64 MiB is refused before any allocation.
/// let mut options = FileOptions::default();
/// options.limits.max_decoded_bytes = 64 << 20;
/// // The same with the builder methods.
/// let built = FileOptions::new().with_limits(Limits::new().with_max_decoded_bytes(64 << 20));
/// assert_eq!(options, built);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct FileOptions {
    /// Caps on what the file may make us decode, and on the bytes read from a path that is
    /// not a regular file.
    pub limits: Limits,
    /// How `map` and `map_with` map the file.
    pub mapping: MapOptions,
}

impl FileOptions {
    /// The default limits, lazy mapping with no advice.
    pub const fn new() -> Self {
        FileOptions {
            limits: Limits::new(),
            mapping: MapOptions::new(),
        }
    }

    /// Sets [`FileOptions::limits`].
    #[must_use]
    pub const fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Sets [`FileOptions::mapping`].
    #[must_use]
    pub const fn with_mapping(mut self, mapping: MapOptions) -> Self {
        self.mapping = mapping;
        self
    }
}

impl FormatOptions for FileOptions {
    fn limits(&self) -> &Limits {
        &self.limits
    }

    fn mapping(&self) -> MapOptions {
        self.mapping
    }
}

/// A format read from one file: how its bytes are checked when opened, and how they are
/// viewed after. Implemented once per format; [`Owned`] gives it its constructors.
///
/// The implementing type holds the file's bytes ([`FileData`]) and whatever checking learnt
/// (a level's decompressed main block, a copy of a header), so that it can answer its own
/// questions; [`Owned`] dereferences to it.
pub trait Format: Sized {
    /// What the format's opening takes: the shared part ([`FormatOptions`]) and anything
    /// of the format's own.
    type Options: FormatOptions + Default;
    /// What is wrong in the bytes: the format crate's error kind.
    type Kind;
    /// The view of the bytes, borrowed from the owner.
    type View<'data>
    where
        Self: 'data;

    /// Checks `data` (a file read, mapped or handed over) within `options` and keeps it.
    ///
    /// Returns `Err` when the bytes are not the format's, naming no file (the caller adds
    /// the file's name).
    fn from_file(data: FileData, options: &Self::Options) -> Result<Self, DataError<Self::Kind>>;

    /// The view of the checked bytes.
    ///
    /// Returns `Err` as the format's parse does (for most formats only what opening
    /// already checked, so it fails only as opening did).
    fn view(&self) -> Result<Self::View<'_>, DataError<Self::Kind>>;
}

/// A file of format `F`, owned: its bytes read into memory, mapped, or handed over, checked
/// once, then viewed as often as wanted ([`Owned::view`]). It dereferences to `F`, whose
/// methods answer the format's own questions.
///
/// Every format crate names its owners: `wap_core::LevelFile` is `Owned<LevelContents>`,
/// `mul_core::TileDataFile` is `Owned<TileDataContents>`, and so on (`F` is the file's
/// checked contents, `<View>Contents`).
pub struct Owned<F>(F);

impl<F: fmt::Debug> fmt::Debug for Owned<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<F> Deref for Owned<F> {
    type Target = F;

    fn deref(&self) -> &F {
        &self.0
    }
}

impl<F: Format> Owned<F> {
    /// Reads the file at `path` into memory and checks it, with the format's default
    /// options.
    ///
    /// Returns `Err` ([`FormatError::File`]) if the file cannot be read, or
    /// ([`FormatError::Data`], naming the file) if its bytes are not the format's.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, FormatError<F::Kind>> {
        Self::open_with(path, &F::Options::default())
    }

    /// Reads the file at `path` into memory (a stream within
    /// [`Limits::max_stream_bytes`]) and checks it within `options`.
    ///
    /// Returns `Err` as [`Owned::open`].
    pub fn open_with(
        path: impl AsRef<Path>,
        options: &F::Options,
    ) -> Result<Self, FormatError<F::Kind>> {
        let path = path.as_ref();
        let data = FileData::read_with(path, options.limits())?;
        Ok(Self::from_data(data, options).map_err(DataError::in_file(path))?)
    }

    /// Memory-maps the file at `path` and checks it, with the format's default options:
    /// bytes are then read in place from the page cache, never copied.
    ///
    /// Returns `Err` as [`Owned::open`].
    ///
    /// # Safety
    ///
    /// As [`FileData::map`]: no process may modify or truncate the file while the mapping
    /// lives (truncation makes a later access raise SIGBUS).
    #[allow(unsafe_code)]
    pub unsafe fn map(path: impl AsRef<Path>) -> Result<Self, FormatError<F::Kind>> {
        // SAFETY: the caller upholds this function's contract, which is map_with's.
        unsafe { Self::map_with(path, &F::Options::default()) }
    }

    /// Memory-maps the file at `path` as `options.mapping()` says and checks it within
    /// `options`.
    ///
    /// Returns `Err` as [`Owned::open`].
    ///
    /// # Safety
    ///
    /// As [`Owned::map`].
    #[allow(unsafe_code)]
    pub unsafe fn map_with(
        path: impl AsRef<Path>,
        options: &F::Options,
    ) -> Result<Self, FormatError<F::Kind>> {
        let path = path.as_ref();
        // SAFETY: the caller upholds FileData::map_with's contract, which is this one's.
        let cap = options.limits().max_stream_bytes;
        let data = unsafe { FileData::map_capped(path, options.mapping(), cap) }?;
        Ok(Self::from_data(data, options).map_err(DataError::in_file(path))?)
    }

    /// Checks bytes the caller owns (a `Vec<u8>`, an `Arc<[u8]>`, a `&'static [u8]`, a
    /// [`FileData`]) within `options`, without a copy.
    ///
    /// Returns `Err` if the bytes are not the format's ([`Format::from_file`]).
    pub fn from_data(
        data: impl Into<FileData>,
        options: &F::Options,
    ) -> Result<Self, DataError<F::Kind>> {
        F::from_file(data.into(), options).map(Owned)
    }

    /// The view of the bytes ([`Format::view`]).
    ///
    /// Returns `Err` as [`Format::view`].
    pub fn view(&self) -> Result<F::View<'_>, DataError<F::Kind>> {
        self.0.view()
    }

    /// The format's own value, out of the owner.
    pub fn into_inner(self) -> F {
        self.0
    }
}

/// A format made of several files found together in a folder (a facet's map, statics and
/// index; an episode's two group files): how they are found, loaded, checked and viewed.
/// Implemented once per format; [`OwnedSet`] gives it its constructors.
pub trait FileSet: Sized {
    /// What opening takes: the shared part ([`FormatOptions`]) and the format's own.
    type Options: FormatOptions + Default;
    /// What is wrong in the bytes: the format crate's error kind.
    type Kind;
    /// Which set in a folder (a facet's or an episode's number; `()` when a folder holds
    /// one).
    type Id: Copy;
    /// Where the files are.
    type Paths;
    /// The files' bytes, each a [`FileData`].
    type Files;
    /// The view of the files, borrowed from the owner.
    type View<'data>
    where
        Self: 'data;

    /// Finds set `id`'s files in `dir`, in any letter case.
    ///
    /// Returns `Err` ([`FormatError::File`]) if a required file is missing or the folder
    /// cannot be listed.
    fn find(
        dir: &Path,
        id: Self::Id,
        options: &Self::Options,
    ) -> Result<Self::Paths, FormatError<Self::Kind>>;

    /// Loads every file `paths` names with `load` (a read or a map).
    ///
    /// Returns `Err` as the first `load` that fails.
    fn load(
        paths: &Self::Paths,
        load: &mut dyn FnMut(&Path) -> Result<FileData, FileError>,
    ) -> Result<Self::Files, FileError>;

    /// Checks the files' bytes within `options` and keeps them, with the paths they came
    /// from (for messages).
    ///
    /// Returns `Err` when the bytes are not the format's, naming the file.
    fn from_files(
        paths: Self::Paths,
        files: Self::Files,
        options: &Self::Options,
    ) -> Result<Self, DataError<Self::Kind>>;

    /// The view of the checked files.
    ///
    /// Returns `Err` as the format's parse does.
    fn view(&self) -> Result<Self::View<'_>, DataError<Self::Kind>>;
}

/// A set of files of format `S`, owned: found in a folder, read or mapped (or handed over),
/// checked once, then viewed as often as wanted ([`OwnedSet::view`]). It dereferences to `S`.
///
/// `mul_core::FacetFiles` is `OwnedSet<FacetSet>`, `mni_core::EpisodeFiles` is
/// `OwnedSet<EpisodeSet>`.
pub struct OwnedSet<S>(S);

impl<S: fmt::Debug> fmt::Debug for OwnedSet<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<S> Deref for OwnedSet<S> {
    type Target = S;

    fn deref(&self) -> &S {
        &self.0
    }
}

impl<S: FileSet> OwnedSet<S> {
    /// Finds set `id`'s files in `dir`, reads them into memory and checks them, with the
    /// format's default options.
    ///
    /// Returns `Err` ([`FormatError::File`]) if a required file is missing or cannot be
    /// read, or ([`FormatError::Data`], naming the file) if the bytes are not the format's.
    pub fn open(dir: impl AsRef<Path>, id: S::Id) -> Result<Self, FormatError<S::Kind>> {
        Self::open_with(dir, id, &S::Options::default())
    }

    /// [`OwnedSet::open`] with `options`.
    ///
    /// Returns `Err` as [`OwnedSet::open`].
    pub fn open_with(
        dir: impl AsRef<Path>,
        id: S::Id,
        options: &S::Options,
    ) -> Result<Self, FormatError<S::Kind>> {
        let paths = S::find(dir.as_ref(), id, options)?;
        let limits = options.limits();
        let files = S::load(&paths, &mut |p| FileData::read_with(p, limits))?;
        Ok(Self::from_data(paths, files, options)?)
    }

    /// Finds set `id`'s files in `dir` and memory-maps them, with the format's default
    /// options: opening costs microseconds whatever the files' sizes.
    ///
    /// Returns `Err` as [`OwnedSet::open`].
    ///
    /// # Safety
    ///
    /// As [`FileData::map`]: no process may modify or truncate the files while the
    /// mappings live (truncation makes a later access raise SIGBUS).
    #[allow(unsafe_code)]
    pub unsafe fn map(dir: impl AsRef<Path>, id: S::Id) -> Result<Self, FormatError<S::Kind>> {
        // SAFETY: the caller upholds this function's contract, which is map_with's.
        unsafe { Self::map_with(dir, id, &S::Options::default()) }
    }

    /// [`OwnedSet::map`] with `options` (their `mapping()` for every file).
    ///
    /// Returns `Err` as [`OwnedSet::open`].
    ///
    /// # Safety
    ///
    /// As [`OwnedSet::map`].
    #[allow(unsafe_code)]
    pub unsafe fn map_with(
        dir: impl AsRef<Path>,
        id: S::Id,
        options: &S::Options,
    ) -> Result<Self, FormatError<S::Kind>> {
        let paths = S::find(dir.as_ref(), id, options)?;
        let (mapping, cap) = (options.mapping(), options.limits().max_stream_bytes);
        // SAFETY: the caller upholds FileData::map_with's contract, which is this one's.
        let files = S::load(&paths, &mut |p| unsafe {
            FileData::map_capped(p, mapping, cap)
        })?;
        Ok(Self::from_data(paths, files, options)?)
    }

    /// Checks files' bytes the caller owns, with the paths they came from (used in
    /// messages), within `options`.
    ///
    /// Returns `Err` as [`FileSet::from_files`].
    pub fn from_data(
        paths: S::Paths,
        files: S::Files,
        options: &S::Options,
    ) -> Result<Self, DataError<S::Kind>> {
        S::from_files(paths, files, options).map(OwnedSet)
    }

    /// The view of the files ([`FileSet::view`]).
    ///
    /// Returns `Err` as [`FileSet::view`].
    pub fn view(&self) -> Result<S::View<'_>, DataError<S::Kind>> {
        self.0.view()
    }

    /// The format's own value, out of the owner.
    pub fn into_inner(self) -> S {
        self.0
    }
}
