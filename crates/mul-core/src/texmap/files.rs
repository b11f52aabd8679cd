//! The owner of a folder's texture maps ([`TexmapFiles`]): texmaps.mul with texidx.mul,
//! checked once at opening.

use std::fmt;
use std::path::{Path, PathBuf};

use gamedata_io::{FileData, FileError, FileOptions, FileSet, OwnedSet};

use crate::error::{DataError, Error, ErrorKind};
use crate::index::IndexedPair;
use crate::picture::SharedOverlaps;

use super::Texmaps;

/// texmaps.mul and texidx.mul, owned ([`OwnedSet`] of [`TexmapSet`]; view: [`Texmaps`]). A
/// folder holds one pair: its id is `()` (`TexmapFiles::open(dir, ())`).
pub type TexmapFiles = OwnedSet<TexmapSet>;

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
        self.pair.debug(f, "TexmapFiles", &self.paths)
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
