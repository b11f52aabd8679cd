//! Single files owned, as [`FacetFiles`](crate::FacetFiles) owns a facet's: tiledata.mul,
//! radarcol.mul, hues.mul, animdata.mul, any UOP container, and multi.idx with multi.mul. Each is one
//! implementation of [`Format`] (or [`FileSet`]); [`Owned`] and [`OwnedSet`] read, map or
//! wrap them (`TileDataFile::open`, `TileDataFile::map`, `from_data`), check them once at
//! opening, then view them as often as wanted (`view`).

use std::fmt;
use std::path::{Path, PathBuf};

use gamedata_io::{FileData, FileError, FileOptions, FileSet, Owned, OwnedSet};

use crate::colours::{Hues, RadarColours};
use crate::error::{DataError, Error, ErrorKind};
use crate::index::IndexedPair;
use crate::multi::Multis;
use crate::tiledata::TileData;
use crate::verdata::Verdata;

/// tiledata.mul, owned ([`Owned`] of [`TileDataContents`]; view: [`TileData`]).
pub type TileDataFile = Owned<TileDataContents>;

/// radarcol.mul, owned ([`Owned`] of [`RadarColoursContents`]; view: [`RadarColours`]).
pub type RadarColoursFile = Owned<RadarColoursContents>;

/// hues.mul, owned ([`Owned`] of [`HuesContents`]; view: [`Hues`]).
pub type HuesFile = Owned<HuesContents>;

/// verdata.mul, owned ([`Owned`] of [`VerdataContents`]; view: [`Verdata`]).
pub type VerdataFile = Owned<VerdataContents>;

/// multi.idx and multi.mul, owned ([`OwnedSet`] of [`MultiSet`]; view: [`Multis`]). A folder
/// holds one pair: its id is `()` (`MultiFiles::open(dir, ())`).
pub type MultiFiles = OwnedSet<MultiSet>;

single_file! {
    /// tiledata.mul's bytes, checked ([`TileData::parse`]).
    TileDataContents => TileData
}

single_file! {
    /// radarcol.mul's bytes, checked ([`RadarColours::parse`]).
    RadarColoursContents => RadarColours
}

single_file! {
    /// hues.mul's bytes, checked ([`Hues::parse`]).
    HuesContents => Hues
}

single_file! {
    /// verdata.mul's bytes ([`Verdata::parse`]: every length is taken).
    VerdataContents => Verdata
}

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
