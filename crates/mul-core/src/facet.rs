//! A client folder's files for one facet, found whatever the case of their names, and the
//! views over them.

use std::fmt;
use std::path::{Path, PathBuf};

use gamedata_io::{FileData, FileError, find_file_ignoring_case};

use crate::colours::{Hues, RadarColours};
use crate::error::{Error, Result};
use crate::map::{Map, MapSize};
use crate::raw::StaticRecord;
use crate::statics::{StaticFormat, StaticSlice, Statics};
use crate::tiledata::{TileData, TileFlags};

/// How big a facet's map is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FacetSize {
    /// The preset of facet 0 to 5 ([`MapSize::preset`]); facets 0 and 1 take their width from
    /// the map file's length.
    Preset(u8),
    /// Explicit dimensions (custom shards, the 1024 x 1024-tile pre-alpha map).
    Explicit(MapSize),
}

/// Where a facet's files are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FacetPaths {
    /// The facet number in the file names (map{N}.mul ...).
    pub facet: u8,
    /// map{N}.mul.
    pub map: PathBuf,
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
}

impl FacetPaths {
    /// Finds facet `facet`'s files in `dir`, in any letter case: map{N}.mul, staidx{N}.mul
    /// and statics{N}.mul are required; tiledata.mul, radarcol.mul and hues.mul are taken
    /// when present.
    ///
    /// Returns `Err` ([`Error::File`]) if the folder cannot be listed or a required file is
    /// missing.
    pub fn find(dir: &Path, facet: u8) -> Result<Self> {
        let optional = |name: &str| match find_file_ignoring_case(dir, name) {
            Ok(path) => Ok(Some(path)),
            Err(FileError::Missing { .. }) => Ok(None),
            Err(e) => Err(Error::File(e)),
        };
        Ok(FacetPaths {
            facet,
            map: find_file_ignoring_case(dir, &format!("map{facet}.mul"))?,
            staidx: find_file_ignoring_case(dir, &format!("staidx{facet}.mul"))?,
            statics: find_file_ignoring_case(dir, &format!("statics{facet}.mul"))?,
            tiledata: optional("tiledata.mul")?,
            radarcol: optional("radarcol.mul")?,
            hues: optional("hues.mul")?,
        })
    }
}

/// A facet's files, owned: read into memory or mapped.
pub struct FacetFiles {
    /// Where they are.
    pub paths: FacetPaths,
    /// map{N}.mul.
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
    /// Returns `Err` ([`Error::File`]) with the first error `load` gives.
    pub fn load(
        paths: FacetPaths,
        mut load: impl FnMut(&Path) -> Result<FileData, FileError>,
    ) -> Result<Self> {
        let mut optional = |p: &Option<PathBuf>| p.as_deref().map(&mut load).transpose();
        let tiledata = optional(&paths.tiledata)?;
        let radarcol = optional(&paths.radarcol)?;
        let hues = optional(&paths.hues)?;
        Ok(FacetFiles {
            map: load(&paths.map)?,
            staidx: load(&paths.staidx)?,
            statics: load(&paths.statics)?,
            tiledata,
            radarcol,
            hues,
            paths,
        })
    }

    /// The views over the files. `format` `None` detects the static record size.
    ///
    /// Returns `Err` ([`Error::InFile`], naming the file) if the map's length does not fit
    /// `size`, or the index, tiledata, radarcol or hues file is malformed.
    pub fn facet(&self, size: FacetSize, format: Option<StaticFormat>) -> Result<Facet<'_>> {
        let p = &self.paths;
        let size = match size {
            FacetSize::Preset(n) => MapSize::preset(n, self.map.len() as u64),
            FacetSize::Explicit(size) => Ok(size),
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
            map: Map::parse(&self.map, size).map_err(Error::in_file(&p.map))?,
            statics: Statics::parse(&self.staidx, &self.statics, format)
                .map_err(Error::in_file(&p.staidx))?,
            tiledata,
            radar,
            hues,
        })
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
