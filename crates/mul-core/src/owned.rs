//! Single files owned, as [`FacetFiles`](crate::FacetFiles) owns a facet's: tiledata.mul,
//! radarcol.mul, hues.mul, any UOP container, and multi.idx with multi.mul. Each is one
//! implementation of [`Format`] (or [`FileSet`]); [`Owned`] and [`OwnedSet`] read, map or
//! wrap them (`OwnedTileData::open`, `OwnedTileData::map`, `from_data`), check them once at
//! opening, then view them as often as wanted (`view`).

use std::fmt;
use std::path::{Path, PathBuf};

use gamedata_io::{
    FileData, FileError, FileOptions, FileSet, Format, Owned, OwnedSet, find_file_ignoring_case,
};

use crate::art::{Art, SharedOverlaps};
use crate::colours::{Hues, RadarColours};
use crate::error::{DataError, Error, ErrorKind};
use crate::multi::Multis;
use crate::texmap::Texmaps;
use crate::tiledata::TileData;
use crate::uop::UopFile;

/// tiledata.mul, owned ([`Owned`] of [`TileDataBytes`]; view: [`TileData`]).
pub type OwnedTileData = Owned<TileDataBytes>;

/// radarcol.mul, owned ([`Owned`] of [`RadarColoursBytes`]; view: [`RadarColours`]).
pub type OwnedRadarColours = Owned<RadarColoursBytes>;

/// hues.mul, owned ([`Owned`] of [`HuesBytes`]; view: [`Hues`]).
pub type OwnedHues = Owned<HuesBytes>;

/// A UOP container, owned ([`Owned`] of [`UopBytes`]; view: [`UopFile`]). Its table is read
/// at opening and again by each `view` (linear in the file's length).
pub type OwnedUopFile = Owned<UopBytes>;

/// multi.idx and multi.mul, owned ([`OwnedSet`] of [`MultiSet`]; view: [`Multis`]). A folder
/// holds one pair: its id is `()` (`OwnedMultis::open(dir, ())`).
pub type OwnedMultis = OwnedSet<MultiSet>;

/// tiledata.mul's bytes, checked ([`TileData::parse`]).
#[derive(Debug)]
pub struct TileDataBytes {
    data: FileData,
}

impl Format for TileDataBytes {
    type Options = FileOptions;
    type Kind = ErrorKind;
    type View<'data> = TileData<'data>;

    fn from_file(data: FileData, _options: &FileOptions) -> Result<Self, DataError> {
        TileData::parse(&data)?;
        Ok(TileDataBytes { data })
    }

    fn view(&self) -> Result<TileData<'_>, DataError> {
        TileData::parse(&self.data)
    }
}

impl TileDataBytes {
    /// The bytes.
    pub fn data(&self) -> &FileData {
        &self.data
    }
}

/// radarcol.mul's bytes, checked ([`RadarColours::parse`]).
#[derive(Debug)]
pub struct RadarColoursBytes {
    data: FileData,
}

impl Format for RadarColoursBytes {
    type Options = FileOptions;
    type Kind = ErrorKind;
    type View<'data> = RadarColours<'data>;

    fn from_file(data: FileData, _options: &FileOptions) -> Result<Self, DataError> {
        RadarColours::parse(&data)?;
        Ok(RadarColoursBytes { data })
    }

    fn view(&self) -> Result<RadarColours<'_>, DataError> {
        RadarColours::parse(&self.data)
    }
}

impl RadarColoursBytes {
    /// The bytes.
    pub fn data(&self) -> &FileData {
        &self.data
    }
}

/// hues.mul's bytes, checked ([`Hues::parse`]).
#[derive(Debug)]
pub struct HuesBytes {
    data: FileData,
}

impl Format for HuesBytes {
    type Options = FileOptions;
    type Kind = ErrorKind;
    type View<'data> = Hues<'data>;

    fn from_file(data: FileData, _options: &FileOptions) -> Result<Self, DataError> {
        Hues::parse(&data)?;
        Ok(HuesBytes { data })
    }

    fn view(&self) -> Result<Hues<'_>, DataError> {
        Hues::parse(&self.data)
    }
}

impl HuesBytes {
    /// The bytes.
    pub fn data(&self) -> &FileData {
        &self.data
    }
}

/// A UOP container's bytes, checked within the options' limits ([`UopFile::parse`]).
#[derive(Debug)]
pub struct UopBytes {
    data: FileData,
    options: FileOptions,
}

impl Format for UopBytes {
    type Options = FileOptions;
    type Kind = ErrorKind;
    type View<'data> = UopFile<'data>;

    fn from_file(data: FileData, options: &FileOptions) -> Result<Self, DataError> {
        UopFile::parse(&data, &options.limits)?;
        Ok(UopBytes {
            data,
            options: *options,
        })
    }

    fn view(&self) -> Result<UopFile<'_>, DataError> {
        UopFile::parse(&self.data, &self.options.limits)
    }
}

impl UopBytes {
    /// The bytes.
    pub fn data(&self) -> &FileData {
        &self.data
    }
}

/// An index file and its data file found together in a folder (multi.idx and multi.mul,
/// artidx.mul and art.mul): their bytes, the sets' shared part.
struct IndexedPair {
    index: FileData,
    data: FileData,
}

impl IndexedPair {
    /// The pair named `names` (index, data) in `dir`, any letter case.
    fn find(dir: &Path, [index, data]: [&str; 2]) -> Result<Option<[PathBuf; 2]>, Error> {
        let index = find_file_ignoring_case(dir, index)?;
        let data = find_file_ignoring_case(dir, data)?;
        Ok(Some([index, data]))
    }

    /// Loads both files (nothing for bytes handed over).
    fn load(
        paths: &Option<[PathBuf; 2]>,
        load: &mut dyn FnMut(&Path) -> Result<FileData, FileError>,
    ) -> Result<[FileData; 2], FileError> {
        match paths {
            Some([index, data]) => Ok([load(index)?, load(data)?]),
            None => Ok([FileData::from(&[][..]), FileData::from(&[][..])]),
        }
    }

    /// The pair, once `check` (the view's parse) took its bytes; its error names the index
    /// found at `paths`.
    fn checked(
        paths: Option<&[PathBuf; 2]>,
        [index, data]: [FileData; 2],
        check: impl FnOnce(&[u8], &[u8]) -> Result<(), DataError>,
    ) -> Result<Self, DataError> {
        check(&index, &data).map_err(|e| match paths {
            Some([index, _]) => DataError::in_file(index)(e),
            None => e,
        })?;
        Ok(IndexedPair { index, data })
    }

    fn debug(
        &self,
        f: &mut fmt::Formatter<'_>,
        name: &str,
        paths: &Option<[PathBuf; 2]>,
    ) -> fmt::Result {
        f.debug_struct(name)
            .field("paths", paths)
            .field("index", &self.index)
            .field("data", &self.data)
            .finish()
    }
}

/// multi.idx's and multi.mul's bytes, checked ([`Multis::parse`], the format detected).
pub struct MultiSet {
    /// Where they are: multi.idx, multi.mul (`None` for bytes handed over without paths).
    pub paths: Option<[PathBuf; 2]>,
    pair: IndexedPair,
}

impl fmt::Debug for MultiSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.pair.debug(f, "OwnedMultis", &self.paths)
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

/// art.mul and artidx.mul, owned ([`OwnedSet`] of [`ArtSet`]; view: [`Art`]). A folder
/// holds one pair: its id is `()` (`OwnedArt::open(dir, ())`).
pub type OwnedArt = OwnedSet<ArtSet>;

/// art.mul and artidx.mul's bytes, artidx.mul checked to be whole records; the entries'
/// overlaps, found when the first entry is read, are kept for every later view.
pub struct ArtSet {
    /// Where they are: artidx.mul, art.mul (`None` for bytes handed over without paths).
    pub paths: Option<[PathBuf; 2]>,
    pair: IndexedPair,
    overlaps: SharedOverlaps,
}

impl fmt::Debug for ArtSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.pair.debug(f, "OwnedArt", &self.paths)
    }
}

impl FileSet for ArtSet {
    type Options = FileOptions;
    type Kind = ErrorKind;
    type Id = ();
    type Paths = Option<[PathBuf; 2]>;
    /// artidx.mul's bytes, then art.mul's.
    type Files = [FileData; 2];
    type View<'data> = Art<'data>;

    /// artidx.mul and art.mul in `dir`, any letter case.
    fn find(dir: &Path, _id: (), _options: &FileOptions) -> Result<Self::Paths, Error> {
        IndexedPair::find(dir, ["artidx.mul", "art.mul"])
    }

    fn load(
        paths: &Self::Paths,
        load: &mut dyn FnMut(&Path) -> Result<FileData, FileError>,
    ) -> Result<[FileData; 2], FileError> {
        IndexedPair::load(paths, load)
    }

    /// Checks artidx.mul (a whole number of 12-byte records), naming it in errors.
    fn from_files(
        paths: Self::Paths,
        files: [FileData; 2],
        _options: &FileOptions,
    ) -> Result<Self, DataError> {
        let pair = IndexedPair::checked(paths.as_ref(), files, |i, d| Art::parse(i, d).map(drop))?;
        Ok(ArtSet {
            paths,
            pair,
            overlaps: SharedOverlaps::default(),
        })
    }

    fn view(&self) -> Result<Art<'_>, DataError> {
        Art::parse_shared(&self.pair.index, &self.pair.data, self.overlaps.clone())
    }
}

/// texmaps.mul and texidx.mul, owned ([`OwnedSet`] of [`TexmapSet`]; view: [`Texmaps`]). A
/// folder holds one pair: its id is `()` (`OwnedTexmaps::open(dir, ())`).
pub type OwnedTexmaps = OwnedSet<TexmapSet>;

/// texmaps.mul and texidx.mul's bytes, texidx.mul checked to be whole records; the entries'
/// overlaps, found when the first entry is read, are kept for every later view.
pub struct TexmapSet {
    /// Where they are: texidx.mul, texmaps.mul (`None` for bytes handed over without paths).
    pub paths: Option<[PathBuf; 2]>,
    pair: IndexedPair,
    overlaps: SharedOverlaps,
}

impl fmt::Debug for TexmapSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.pair.debug(f, "OwnedTexmaps", &self.paths)
    }
}

impl FileSet for TexmapSet {
    type Options = FileOptions;
    type Kind = ErrorKind;
    type Id = ();
    type Paths = Option<[PathBuf; 2]>;
    /// texidx.mul's bytes, then texmaps.mul's.
    type Files = [FileData; 2];
    type View<'data> = Texmaps<'data>;

    /// texidx.mul and texmaps.mul in `dir`, any letter case.
    fn find(dir: &Path, _id: (), _options: &FileOptions) -> Result<Self::Paths, Error> {
        IndexedPair::find(dir, ["texidx.mul", "texmaps.mul"])
    }

    fn load(
        paths: &Self::Paths,
        load: &mut dyn FnMut(&Path) -> Result<FileData, FileError>,
    ) -> Result<[FileData; 2], FileError> {
        IndexedPair::load(paths, load)
    }

    /// Checks texidx.mul (a whole number of 12-byte records), naming it in errors.
    fn from_files(
        paths: Self::Paths,
        files: [FileData; 2],
        _options: &FileOptions,
    ) -> Result<Self, DataError> {
        let pair =
            IndexedPair::checked(paths.as_ref(), files, |i, d| Texmaps::parse(i, d).map(drop))?;
        Ok(TexmapSet {
            paths,
            pair,
            overlaps: SharedOverlaps::default(),
        })
    }

    fn view(&self) -> Result<Texmaps<'_>, DataError> {
        Texmaps::parse_shared(&self.pair.index, &self.pair.data, self.overlaps.clone())
    }
}
