//! A client folder's files for one facet, found whatever the case of their names, and the
//! views over them.

use std::fmt;
use std::path::{Path, PathBuf};

use gamedata_io::{FileData, FileError, Limits, find_file_ignoring_case};

use crate::colours::{Hues, RadarColours};
use crate::diff::{self, DiffIndex, MapPatch, StaticsPatch};
use crate::error::{Error, Result};
use crate::map::{Map, MapSize};
use crate::raw::{MAP_BLOCK_LEN, StaticRecord};
use crate::statics::{StaticFormat, StaticSlice, Statics};
use crate::tiledata::{TileData, TileFlags};
use crate::uop::{self, MapChunk, UopFile};

/// How big a facet's map is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FacetSize {
    /// The preset of facet 0 to 5 ([`MapSize::preset`]); facets 0 and 1 take their width from
    /// the map file's length.
    Preset(u8),
    /// Explicit dimensions (custom shards, the 1024 x 1024-tile pre-alpha map).
    Explicit(MapSize),
}

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
    pub fn find(dir: &Path, facet: u8) -> Result<Self> {
        Self::find_as(dir, facet, None)
    }

    /// Finds facet `facet`'s map alone, as [`FacetPaths::find_as`] does: its path and form.
    ///
    /// Returns `Err` ([`Error::File`]) if the folder cannot be listed or the file is missing.
    pub fn find_map(
        dir: &Path,
        facet: u8,
        format: Option<MapFormat>,
    ) -> Result<(PathBuf, MapFormat)> {
        let optional = |name: &str| match find_file_ignoring_case(dir, name) {
            Ok(path) => Ok(Some(path)),
            Err(FileError::Missing { .. }) => Ok(None),
            Err(e) => Err(Error::File(e)),
        };
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
    pub fn find_as(dir: &Path, facet: u8, format: Option<MapFormat>) -> Result<Self> {
        let (map, map_format) = Self::find_map(dir, facet, format)?;
        let optional = |name: &str| match find_file_ignoring_case(dir, name) {
            Ok(path) => Ok(Some(path)),
            Err(FileError::Missing { .. }) => Ok(None),
            Err(e) => Err(Error::File(e)),
        };
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

/// A facet's files, owned: read into memory or mapped.
pub struct FacetFiles {
    /// Where they are.
    pub paths: FacetPaths,
    /// The map file, MUL or UOP (see `paths.map_format`).
    pub map: FileData,
    /// For a map UOP: where its chunks are (located once at load).
    map_chunks: Vec<MapChunk>,
    /// mapdifl, mapdif, stadifl, stadifi, stadif, as present.
    diff_files: [Option<FileData>; 5],
    /// The diff files' patch indexes (built once at load).
    diff_index: DiffIndex,
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
}

impl fmt::Debug for FacetFiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FacetFiles")
            .field("paths", &self.paths)
            .field("map_len", &self.map.len())
            .finish_non_exhaustive()
    }
}

impl FacetFiles {
    /// Reads every file into memory (safe; costs a read of each file).
    ///
    /// Returns `Err` ([`Error::File`]) if a file cannot be read.
    pub fn read(paths: FacetPaths) -> Result<Self> {
        Self::load(paths, FileData::read)
    }

    /// Loads every file with `load`. Pass a closure that maps them with [`FileData::map`] (an
    /// `unsafe` call whose contract the caller takes on) to open a whole facet in
    /// microseconds, whatever its size.
    ///
    /// A map UOP's table is read here, once: its chunks are located, and zlib chunks
    /// decompressed within the default [`Limits`].
    ///
    /// Returns `Err` ([`Error::File`]) with the first error `load` gives, or the map UOP's
    /// error ([`Error::InFile`] naming it) if its container or chunks are bad.
    pub fn load(
        paths: FacetPaths,
        mut load: impl FnMut(&Path) -> Result<FileData, FileError>,
    ) -> Result<Self> {
        let mut optional = |p: &Option<PathBuf>| p.as_deref().map(&mut load).transpose();
        let tiledata = optional(&paths.tiledata)?;
        let radarcol = optional(&paths.radarcol)?;
        let hues = optional(&paths.hues)?;
        let d = &paths.diffs;
        let mut diff_files: [Option<FileData>; 5] = Default::default();
        for (slot, path) in diff_files
            .iter_mut()
            .zip([&d.mapdifl, &d.mapdif, &d.stadifl, &d.stadifi, &d.stadif])
        {
            *slot = optional(path)?;
        }
        let map = load(&paths.map)?;
        let map_chunks = match paths.map_format {
            MapFormat::Mul => Vec::new(),
            MapFormat::Uop => {
                let limits = Limits::default();
                UopFile::parse(&map, &limits)
                    .and_then(|container| uop::map_chunks(&container, paths.facet, &limits))
                    .map_err(Error::in_file(&paths.map))?
            }
        };
        let bytes = |i: usize| diff_files.get(i).and_then(Option::as_deref);
        let diff_index = DiffIndex::new(
            bytes(0).zip(bytes(1)),
            bytes(2).zip(bytes(3)).filter(|_| bytes(4).is_some()),
        );
        Ok(FacetFiles {
            map,
            map_chunks,
            diff_files,
            diff_index,
            staidx: load(&paths.staidx)?,
            statics: load(&paths.statics)?,
            tiledata,
            radarcol,
            hues,
            paths,
        })
    }

    /// Bytes of map blocks the map file holds: its length for a MUL, the sum of its chunks
    /// for a UOP.
    pub fn map_len(&self) -> u64 {
        match self.paths.map_format {
            MapFormat::Mul => self.map.len() as u64,
            MapFormat::Uop => {
                self.map_chunks.iter().map(|c| c.len() as u64).sum::<u64>() * MAP_BLOCK_LEN as u64
            }
        }
    }

    /// The views over the files. `format` `None` detects the static record size.
    ///
    /// Returns `Err` ([`Error::InFile`], naming the file) if the map's length does not fit
    /// `size`, or the index, tiledata, radarcol or hues file is malformed.
    pub fn facet(&self, size: FacetSize, format: Option<StaticFormat>) -> Result<Facet<'_>> {
        let p = &self.paths;
        let size = match size {
            FacetSize::Preset(n) => MapSize::preset(n, self.map_len()),
            FacetSize::Explicit(size) => Ok(size),
        }
        .map_err(Error::in_file(&p.map))?;
        let map = match p.map_format {
            MapFormat::Mul => Map::parse(&self.map, size),
            MapFormat::Uop => Map::from_chunks(&self.map, &self.map_chunks, size),
        }
        .map_err(Error::in_file(&p.map))?;
        let tiledata = match (self.tiledata.as_deref(), p.tiledata.as_deref()) {
            (Some(data), Some(path)) => Some(TileData::parse(data).map_err(Error::in_file(path))?),
            _ => None,
        };
        let radar = match (self.radarcol.as_deref(), p.radarcol.as_deref()) {
            (Some(data), Some(path)) => {
                Some(RadarColours::parse(data).map_err(Error::in_file(path))?)
            }
            _ => None,
        };
        let hues = match (self.hues.as_deref(), p.hues.as_deref()) {
            (Some(data), Some(path)) => Some(Hues::parse(data).map_err(Error::in_file(path))?),
            _ => None,
        };
        Ok(Facet {
            map,
            statics: Statics::parse(&self.staidx, &self.statics, format)
                .map_err(Error::in_file(&p.staidx))?,
            tiledata,
            radar,
            hues,
        })
    }
}

impl FacetFiles {
    /// The patch indexes of the diff files (empty when the folder has none), and what in
    /// them could not be used.
    pub fn diff_index(&self) -> &DiffIndex {
        &self.diff_index
    }

    /// [`FacetFiles::facet`] with the diff files applied: blocks listed in mapdifl take
    /// mapdif's, blocks listed in stadifl take stadifi's records into stadif. Block numbers
    /// past the map are never asked for; those past any map, or without a record, were left
    /// out at load ([`FacetFiles::diff_index`]).
    ///
    /// Returns `Err` as [`FacetFiles::facet`].
    pub fn facet_with_diffs(
        &self,
        size: FacetSize,
        format: Option<StaticFormat>,
    ) -> Result<Facet<'_>> {
        let mut facet = self.facet(size, format)?;
        let bytes = |i: usize| self.diff_files.get(i).and_then(Option::as_deref);
        if let Some(mapdif) = bytes(1).filter(|_| !self.diff_index.map.is_empty()) {
            facet.map = facet.map.with_patch(MapPatch {
                index: &self.diff_index.map,
                blocks: diff::map_blocks(mapdif),
            });
        }
        if let (Some(stadifi), Some(stadif)) = (bytes(3), bytes(4))
            && !self.diff_index.statics.is_empty()
        {
            facet.statics = facet.statics.with_patch(StaticsPatch {
                index: &self.diff_index.statics,
                records: diff::index_records(stadifi),
                data: stadif,
            });
        }
        Ok(facet)
    }
}

/// The views over one facet's files.
#[derive(Clone, Copy, Debug)]
pub struct Facet<'data> {
    /// The map.
    pub map: Map<'data>,
    /// The statics.
    pub statics: Statics<'data>,
    /// tiledata.mul, if present.
    pub tiledata: Option<TileData<'data>>,
    /// radarcol.mul, if present.
    pub radar: Option<RadarColours<'data>>,
    /// hues.mul, if present.
    pub hues: Option<Hues<'data>>,
}

impl<'data> Facet<'data> {
    /// Views over bytes: a map of `size`, a statics index and data (`format` `None`
    /// detects the record size); no tiledata, radar colours or hues.
    ///
    /// Returns `Err` as [`Map::parse`] and [`Statics::parse`] do.
    pub fn parse(
        map: &'data [u8],
        size: MapSize,
        staidx: &'data [u8],
        statics: &'data [u8],
        format: Option<StaticFormat>,
    ) -> Result<Self> {
        Ok(Facet {
            map: Map::parse(map, size)?,
            statics: Statics::parse(staidx, statics, format)?,
            tiledata: None,
            radar: None,
            hues: None,
        })
    }

    /// The map's size.
    pub fn size(&self) -> MapSize {
        self.map.size()
    }

    /// The statics of block (`bx`, `by`).
    ///
    /// Returns `Err` if the block is outside the map ([`Error::OutsideMap`]), the index has
    /// no entry for it ([`Error::MissingIndexEntry`]) or its entry is bad
    /// ([`Error::IndexEntry`]).
    pub fn block_statics(&self, bx: u32, by: u32) -> Result<StaticSlice<'data>> {
        let size = self.size();
        let block = size.block_index(bx, by).ok_or(Error::OutsideMap {
            bx,
            by,
            width_blocks: size.width_blocks(),
            height_blocks: size.height_blocks(),
        })?;
        self.statics.block(block)
    }

    /// The statics standing on tile (`x`, `y`), in file order.
    ///
    /// Returns `Err` as [`Facet::block_statics`] does.
    pub fn statics_at(
        &self,
        x: u32,
        y: u32,
    ) -> Result<impl Iterator<Item = &'data StaticRecord> + 'data> {
        let statics = self.block_statics(x / 8, y / 8)?;
        let in_block = |v: u32| u8::try_from(v % 8).unwrap_or(u8::MAX);
        let (cx, cy) = (in_block(x), in_block(y));
        Ok(statics.into_iter().filter(move |s| s.x == cx && s.y == cy))
    }

    /// The top surface at tile (`x`, `y`): the highest of the land's z and, for each static
    /// there, its z plus its tiledata height. Without tiledata, statics count with height 0.
    ///
    /// Returns `Ok(None)` outside the map, and `Err` as [`Facet::block_statics`] does.
    pub fn top_surface(&self, x: u32, y: u32) -> Result<Option<i16>> {
        let Some(cell) = self.map.cell(x, y) else {
            return Ok(None);
        };
        let mut top = i16::from(cell.z);
        for s in self.statics_at(x, y)? {
            let height = self
                .tiledata
                .and_then(|t| t.item(s.id.get()))
                .map_or(0, |t| t.height());
            top = top.max(i16::from(s.z) + i16::from(height));
        }
        Ok(Some(top))
    }

    /// True if the static's item tile has any of `flags` (false without tiledata).
    pub fn has_flags(&self, s: &StaticRecord, flags: TileFlags) -> bool {
        self.tiledata
            .and_then(|t| t.item(s.id.get()))
            .is_some_and(|t| t.flags().intersects(flags))
    }
}
