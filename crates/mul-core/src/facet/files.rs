//! A client folder's files for one facet, found whatever the case of their names, and
//! their owner ([`FacetFiles`]): paths, bytes, options, and the checks made at opening.

use std::fmt;
use std::path::{Path, PathBuf};

use gamedata_io::{
    FileData, FileError, FileSet, FormatOptions, Limits, MapOptions, OwnedSet,
    find_file_ignoring_case,
};

use crate::facet::map_uop;

use crate::colours::{Hues, RadarColours};
use crate::error::{DataError, Error, ErrorKind, Result};
use crate::facet::diff::{self, DiffIndex, MapPatch, StaticsPatch};
use crate::facet::map::{Map, MapSize};
use crate::facet::map_uop::MapChunk;
use crate::facet::statics::{StaticFormat, Statics};
use crate::raw::MAP_BLOCK_LEN;
use crate::tiledata::TileData;
use crate::uop::Uop;

use super::Facet;

/// The form a facet's map is stored in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MapFormat {
    /// `map{N}.mul`: the blocks in one array.
    Mul,
    /// `map{N}LegacyMUL.uop` (or `map{N}xLegacyMUL.uop`): the same blocks in chunks of a UOP
    /// container, as clients since 2010 ship them.
    Uop,
}

impl MapFormat {
    /// The name in reports: `mul`, `uop`.
    pub fn name(self) -> &'static str {
        match self {
            MapFormat::Mul => "mul",
            MapFormat::Uop => "uop",
        }
    }

    /// The map file's usual name for facet `facet` (the UOP's first form).
    pub fn file_name(self, facet: u8) -> String {
        match self {
            MapFormat::Mul => format!("map{facet}.mul"),
            MapFormat::Uop => format!("map{facet}LegacyMUL.uop"),
        }
    }
}

/// Where a facet's files are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FacetPaths {
    /// The facet number in the file names (map{N}.mul ...).
    pub facet: u8,
    /// The map: map{N}.mul, or map{N}LegacyMUL.uop / map{N}xLegacyMUL.uop.
    pub map: PathBuf,
    /// Which of the two forms `map` is.
    pub map_format: MapFormat,
    /// staidx{N}.mul.
    pub staidx: PathBuf,
    /// statics{N}.mul.
    pub statics: PathBuf,
    /// tiledata.mul, if the folder has it.
    pub tiledata: Option<PathBuf>,
    /// radarcol.mul, if the folder has it.
    pub radarcol: Option<PathBuf>,
    /// hues.mul, if the folder has it.
    pub hues: Option<PathBuf>,
    /// The diff files the folder has.
    pub diffs: DiffPaths,
}

/// A facet's diff files, each taken when present: a map patch needs both mapdifl{N}.mul and
/// mapdif{N}.mul, a statics patch stadifl{N}.mul, stadifi{N}.mul and stadif{N}.mul.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DiffPaths {
    /// mapdifl{N}.mul: block numbers.
    pub mapdifl: Option<PathBuf>,
    /// mapdif{N}.mul: the replacing blocks.
    pub mapdif: Option<PathBuf>,
    /// stadifl{N}.mul: block numbers.
    pub stadifl: Option<PathBuf>,
    /// stadifi{N}.mul: the replacing index records.
    pub stadifi: Option<PathBuf>,
    /// stadif{N}.mul: their static records.
    pub stadif: Option<PathBuf>,
}

impl FacetPaths {
    /// Finds facet `facet`'s files in `dir`, in any letter case: the map (map{N}.mul when
    /// present, else map{N}LegacyMUL.uop, else map{N}xLegacyMUL.uop), staidx{N}.mul and
    /// statics{N}.mul are required; tiledata.mul, radarcol.mul and hues.mul are taken when
    /// present.
    ///
    /// Returns `Err` ([`Error::File`]) if the folder cannot be listed or a required file is
    /// missing.
    pub fn find(dir: impl AsRef<Path>, facet: u8) -> Result<Self> {
        Self::find_as(dir, facet, None)
    }

    /// Finds facet `facet`'s map alone, as [`FacetPaths::find_as`] does: its path and form.
    ///
    /// Returns `Err` ([`Error::File`]) if the folder cannot be listed or the file is missing.
    pub fn find_map(
        dir: impl AsRef<Path>,
        facet: u8,
        format: Option<MapFormat>,
    ) -> Result<(PathBuf, MapFormat)> {
        let dir = dir.as_ref();
        let optional = |name: &str| find_optional(dir, name);
        let uop = || -> Result<PathBuf> {
            let plain = MapFormat::Uop.file_name(facet);
            for name in [plain.clone(), format!("map{facet}xLegacyMUL.uop")] {
                if let Some(path) = optional(&name)? {
                    return Ok(path);
                }
            }
            Err(Error::File(FileError::Missing {
                dir: dir.to_path_buf(),
                name: format!("{plain} (or map{facet}xLegacyMUL.uop)"),
            }))
        };
        Ok(match format {
            Some(MapFormat::Mul) => (
                find_file_ignoring_case(dir, &MapFormat::Mul.file_name(facet))?,
                MapFormat::Mul,
            ),
            Some(MapFormat::Uop) => (uop()?, MapFormat::Uop),
            None => match optional(&MapFormat::Mul.file_name(facet))? {
                Some(path) => (path, MapFormat::Mul),
                None => match uop() {
                    Ok(path) => (path, MapFormat::Uop),
                    // Neither: name the MUL file, the usual one.
                    Err(_) => (
                        find_file_ignoring_case(dir, &MapFormat::Mul.file_name(facet))?,
                        MapFormat::Mul,
                    ),
                },
            },
        })
    }

    /// [`FacetPaths::find`] with the map's form chosen: `Some(MapFormat::Mul)` takes only
    /// map{N}.mul, `Some(MapFormat::Uop)` only the UOP files, `None` the MUL when present.
    ///
    /// Returns `Err` as [`FacetPaths::find`], naming the file looked for.
    pub fn find_as(dir: impl AsRef<Path>, facet: u8, format: Option<MapFormat>) -> Result<Self> {
        let dir = dir.as_ref();
        let (map, map_format) = Self::find_map(dir, facet, format)?;
        let optional = |name: &str| find_optional(dir, name);
        Ok(FacetPaths {
            facet,
            map,
            map_format,
            staidx: find_file_ignoring_case(dir, &format!("staidx{facet}.mul"))?,
            statics: find_file_ignoring_case(dir, &format!("statics{facet}.mul"))?,
            tiledata: optional("tiledata.mul")?,
            radarcol: optional("radarcol.mul")?,
            hues: optional("hues.mul")?,
            diffs: DiffPaths {
                mapdifl: optional(&format!("mapdifl{facet}.mul"))?,
                mapdif: optional(&format!("mapdif{facet}.mul"))?,
                stadifl: optional(&format!("stadifl{facet}.mul"))?,
                stadifi: optional(&format!("stadifi{facet}.mul"))?,
                stadif: optional(&format!("stadif{facet}.mul"))?,
            },
        })
    }
}

/// `name` in `dir` in any letter case, or `None` if the folder has no such file.
fn find_optional(dir: &Path, name: &str) -> Result<Option<PathBuf>> {
    Ok(gamedata_io::find_optional(dir, name)?)
}

/// The bytes of a facet's files, owned by the caller: read, mapped, or made in memory.
/// [`FacetFiles::open`] reads the files [`FacetPaths`] names; [`FacetFiles::map_with`]
/// maps them.
#[derive(Debug)]
pub struct FacetData {
    /// The map file, MUL or UOP.
    pub map: FileData,
    /// staidx{N}.mul.
    pub staidx: FileData,
    /// statics{N}.mul.
    pub statics: FileData,
    /// tiledata.mul.
    pub tiledata: Option<FileData>,
    /// radarcol.mul.
    pub radarcol: Option<FileData>,
    /// hues.mul.
    pub hues: Option<FileData>,
    /// The diff files.
    pub diffs: DiffData,
}

/// The bytes of a facet's diff files, each when present (see [`DiffPaths`]).
#[derive(Debug, Default)]
pub struct DiffData {
    /// mapdifl{N}.mul: block numbers.
    pub mapdifl: Option<FileData>,
    /// mapdif{N}.mul: the replacing blocks.
    pub mapdif: Option<FileData>,
    /// stadifl{N}.mul: block numbers.
    pub stadifl: Option<FileData>,
    /// stadifi{N}.mul: the replacing index records.
    pub stadifi: Option<FileData>,
    /// stadif{N}.mul: their static records.
    pub stadif: Option<FileData>,
}

impl FacetData {
    /// Reads every file `paths` names into memory (safe; costs a read of each file), each
    /// within `limits.max_stream_bytes` if it is not a regular file.
    ///
    /// Returns `Err` ([`Error::File`]) if a file cannot be read.
    pub fn read_files(paths: &FacetPaths, limits: &Limits) -> Result<Self> {
        Ok(Self::load(paths, &mut |p| FileData::read_with(p, limits))?)
    }

    /// Loads every file `paths` names with `load` (a read or a map), the optional ones
    /// when their path is there.
    fn load(
        paths: &FacetPaths,
        load: &mut dyn FnMut(&Path) -> std::result::Result<FileData, FileError>,
    ) -> std::result::Result<Self, FileError> {
        let mut optional = |p: &Option<PathBuf>| p.as_deref().map(&mut *load).transpose();
        let d = &paths.diffs;
        let (tiledata, radarcol, hues) = (
            optional(&paths.tiledata)?,
            optional(&paths.radarcol)?,
            optional(&paths.hues)?,
        );
        let diffs = DiffData {
            mapdifl: optional(&d.mapdifl)?,
            mapdif: optional(&d.mapdif)?,
            stadifl: optional(&d.stadifl)?,
            stadifi: optional(&d.stadifi)?,
            stadif: optional(&d.stadif)?,
        };
        Ok(FacetData {
            tiledata,
            radarcol,
            hues,
            diffs,
            map: load(&paths.map)?,
            staidx: load(&paths.staidx)?,
            statics: load(&paths.statics)?,
        })
    }
}

/// How a facet is opened and read: given to [`FacetFiles::open_with`],
/// [`FacetFiles::map_with`] or [`FacetFiles::from_data`], and used by every
/// [`FacetSet::view`] call after. `FacetOptions::default()` (what [`FacetFiles::open`] and
/// [`FacetFiles::map`] use): the map as MUL when the folder has one, else as UOP; the size
/// detected from the map's length; the static record size detected; no diffs; the default
/// [`Limits`]; lazy mapping.
///
/// The struct is `#[non_exhaustive]`: build it from `Default` and set fields, or with the
/// `with_` methods.
///
/// ```
/// # use mul_core::{FacetOptions, MapSize};
/// let mut options = FacetOptions::default();
/// options.size = Some(MapSize::from_tiles(1024, 1024)?);
/// let built = FacetOptions::new().with_size(MapSize::from_tiles(1024, 1024)?);
/// assert_eq!(options, built);
/// # Ok::<(), mul_core::DataError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct FacetOptions {
    /// The map's size; `None` takes the facet's known size that the map's length proves
    /// ([`MapSize::detect`]) and refuses any other length.
    pub size: Option<MapSize>,
    /// The static record size; `None` detects it ([`StaticFormat::detect`]).
    pub statics: Option<StaticFormat>,
    /// Apply the diff files (mapdifl/mapdif, stadifl/stadifi/stadif): their blocks replace
    /// the map's and the statics'. Clients apply them only when their server says so.
    pub apply_diffs: bool,
    /// Caps on what opening and the views decode: a map UOP's table and zlib chunks, any
    /// other UOP container's, and the bytes read from a path that is not a regular file.
    pub limits: Limits,
    /// How [`FacetFiles::map_with`] maps the files (pre-faulting, access advice).
    pub mapping: MapOptions,
    /// Which form of the map to open when a folder holds both: `None` the MUL when present
    /// ([`FacetPaths::find`]), else `Some` that form only ([`FacetPaths::find_as`]).
    pub map_format: Option<MapFormat>,
}

impl FacetOptions {
    /// The defaults (see the type's docs).
    pub const fn new() -> Self {
        FacetOptions {
            size: None,
            statics: None,
            apply_diffs: false,
            limits: Limits::new(),
            mapping: MapOptions::new(),
            map_format: None,
        }
    }

    /// Sets [`FacetOptions::size`].
    #[must_use]
    pub const fn with_size(mut self, size: MapSize) -> Self {
        self.size = Some(size);
        self
    }

    /// Sets [`FacetOptions::statics`].
    #[must_use]
    pub const fn with_statics(mut self, statics: StaticFormat) -> Self {
        self.statics = Some(statics);
        self
    }

    /// Sets [`FacetOptions::apply_diffs`].
    #[must_use]
    pub const fn with_apply_diffs(mut self, apply: bool) -> Self {
        self.apply_diffs = apply;
        self
    }

    /// Sets [`FacetOptions::limits`].
    #[must_use]
    pub const fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Sets [`FacetOptions::mapping`].
    #[must_use]
    pub const fn with_mapping(mut self, mapping: MapOptions) -> Self {
        self.mapping = mapping;
        self
    }

    /// Sets [`FacetOptions::map_format`].
    #[must_use]
    pub const fn with_map_format(mut self, format: MapFormat) -> Self {
        self.map_format = Some(format);
        self
    }
}

impl FormatOptions for FacetOptions {
    fn limits(&self) -> &Limits {
        &self.limits
    }

    fn mapping(&self) -> MapOptions {
        self.mapping
    }
}

/// A facet's files, owned ([`OwnedSet`] of [`FacetSet`]): found in a folder and read
/// ([`FacetFiles::open`]) or mapped ([`FacetFiles::map`]), or handed over
/// ([`FacetFiles::from_data`]). It dereferences to [`FacetSet`], whose
/// [`facet`](FacetSet::view) gives the views.
pub type FacetFiles = OwnedSet<FacetSet>;

/// A facet's files' bytes, with the options they were opened with and what opening learnt
/// of them (a map UOP's chunks, the diff files' patch indexes): what [`FacetFiles`] holds;
/// the facet implementation of [`FileSet`].
pub struct FacetSet {
    /// Where they are.
    pub paths: FacetPaths,
    data: FacetData,
    options: FacetOptions,
    /// For a map UOP: where its chunks are (located once at opening).
    map_chunks: Vec<MapChunk>,
    /// The diff files' patch indexes (built once at opening).
    diff_index: DiffIndex,
}

impl fmt::Debug for FacetSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FacetFiles")
            .field("paths", &self.paths)
            .field("options", &self.options)
            .field("map_len", &self.data.map.len())
            .finish_non_exhaustive()
    }
}

impl FileSet for FacetSet {
    type Options = FacetOptions;
    type Kind = ErrorKind;
    /// The facet number in the file names (map{N}.mul ...).
    type Id = u8;
    type Paths = FacetPaths;
    type Files = FacetData;
    type View<'data> = Facet<'data>;

    /// [`FacetPaths::find_as`] with `options.map_format`.
    fn find(dir: &Path, facet: u8, options: &FacetOptions) -> Result<FacetPaths> {
        FacetPaths::find_as(dir, facet, options.map_format)
    }

    fn load(
        paths: &FacetPaths,
        load: &mut dyn FnMut(&Path) -> std::result::Result<FileData, FileError>,
    ) -> std::result::Result<FacetData, FileError> {
        FacetData::load(paths, load)
    }

    /// Keeps the bytes with the paths they came from (used in messages and for the facet
    /// number) and the options every [`FacetSet::view`] will use. A map UOP's table is
    /// read here, once: its chunks are located, and zlib chunks decompressed within
    /// `options.limits`; the diff files are indexed.
    ///
    /// Returns `Err` (naming the map) if the map UOP's container or chunks are bad or pass
    /// `options.limits`.
    fn from_files(
        paths: FacetPaths,
        data: FacetData,
        options: &FacetOptions,
    ) -> Result<Self, DataError> {
        let limits = &options.limits;
        let map_chunks = match paths.map_format {
            MapFormat::Mul => Vec::new(),
            MapFormat::Uop => Uop::parse(&data.map, limits)
                .and_then(|container| map_uop::map_chunks(&container, paths.facet, limits))
                .map_err(DataError::in_file(&paths.map))?,
        };
        let d = &data.diffs;
        let diff_index = DiffIndex::new(
            d.mapdifl.as_deref().zip(d.mapdif.as_deref()),
            match (
                d.stadifl.as_deref(),
                d.stadifi.as_deref(),
                d.stadif.as_deref(),
            ) {
                (Some(list), Some(records), Some(data)) => Some((list, records, data)),
                _ => None,
            },
        );
        Ok(FacetSet {
            paths,
            data,
            options: *options,
            map_chunks,
            diff_index,
        })
    }

    /// The views over the files as the options given at opening say ([`FacetOptions`]).
    /// With `apply_diffs`, blocks listed in mapdifl take mapdif's, blocks listed in stadifl
    /// take stadifi's records into stadif; list entries past any map, or without a record,
    /// were left out at opening ([`FacetSet::diff_index`]).
    ///
    /// Returns `Err` (naming the file) if the map's length fits neither the size given nor,
    /// without one, a known size of the facet ([`ErrorKind::MapSizeUnknown`]: give the size
    /// in [`FacetOptions::size`]); if a map UOP's decoded chunks pass the limits; or if the
    /// index, tiledata, radarcol or hues file is malformed.
    fn view(&self) -> Result<Facet<'_>, DataError> {
        let options = &self.options;
        let p = &self.paths;
        let in_map = DataError::in_file(&p.map);
        let decoded: u64 = self
            .map_chunks
            .iter()
            .filter(|c| matches!(c, MapChunk::Decoded(_)))
            .map(|c| c.len() as u64)
            .sum::<u64>()
            .saturating_mul(MAP_BLOCK_LEN as u64);
        options
            .limits
            .check_decoded("the map UOP's compressed chunks", decoded)
            .map_err(|e| in_map(e.into()))?;
        let size = match options.size {
            Some(size) => size,
            None => MapSize::detect(p.facet, self.map_len()).map_err(DataError::in_file(&p.map))?,
        };
        let map = match p.map_format {
            MapFormat::Mul => Map::parse(&self.data.map, size),
            MapFormat::Uop => Map::from_chunks(&self.data.map, &self.map_chunks, size),
        }
        .map_err(DataError::in_file(&p.map))?;
        let d = &self.data;
        let tiledata = parse_optional(d.tiledata.as_deref(), &p.tiledata, TileData::parse)?;
        let radar = parse_optional(d.radarcol.as_deref(), &p.radarcol, RadarColours::parse)?;
        let hues = parse_optional(d.hues.as_deref(), &p.hues, Hues::parse)?;
        let mut facet = Facet {
            map,
            statics: Statics::parse(&d.staidx, &d.statics, options.statics)
                .map_err(DataError::in_file(&p.staidx))?,
            tiledata,
            radar,
            hues,
        };
        if options.apply_diffs {
            self.apply_diffs(&mut facet);
        }
        Ok(facet)
    }
}

impl FacetSet {
    /// The files' bytes.
    pub fn data(&self) -> &FacetData {
        &self.data
    }

    /// The options the files were opened with, which [`FacetSet::view`] uses.
    pub fn options(&self) -> &FacetOptions {
        &self.options
    }

    /// Bytes of map blocks the map file holds: its length for a MUL, the sum of its chunks
    /// for a UOP.
    pub fn map_len(&self) -> u64 {
        match self.paths.map_format {
            MapFormat::Mul => self.data.map.len() as u64,
            MapFormat::Uop => self
                .map_chunks
                .iter()
                .map(|c| c.len() as u64)
                .sum::<u64>()
                .saturating_mul(MAP_BLOCK_LEN as u64),
        }
    }

    /// The patch indexes of the diff files (empty when the folder has none), and what in
    /// them could not be used.
    pub fn diff_index(&self) -> &DiffIndex {
        &self.diff_index
    }

    fn apply_diffs<'a>(&'a self, facet: &mut Facet<'a>) {
        let d = &self.data.diffs;
        if let Some(mapdif) = d
            .mapdif
            .as_deref()
            .filter(|_| !self.diff_index.map.is_empty())
        {
            facet.map = facet.map.with_patch(MapPatch {
                index: &self.diff_index.map,
                blocks: diff::map_blocks(mapdif),
            });
        }
        if let (Some(stadifi), Some(stadif)) = (d.stadifi.as_deref(), d.stadif.as_deref())
            && !self.diff_index.statics.is_empty()
        {
            facet.statics = facet.statics.clone().with_patch(StaticsPatch {
                index: &self.diff_index.statics,
                records: diff::index_records(stadifi),
                data: stadif,
            });
        }
    }
}

/// `parse` over an optional file's bytes, naming the file in its error.
fn parse_optional<'a, T>(
    data: Option<&'a [u8]>,
    path: &Option<PathBuf>,
    parse: impl FnOnce(&'a [u8]) -> Result<T, DataError>,
) -> Result<Option<T>, DataError> {
    match (data, path.as_deref()) {
        (Some(data), Some(path)) => parse(data).map(Some).map_err(DataError::in_file(path)),
        (Some(data), None) => parse(data).map(Some),
        _ => Ok(None),
    }
}
