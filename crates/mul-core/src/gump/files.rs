//! The owner of a folder's gumps ([`GumpFiles`]): gumpart.mul with gumpidx.mul, or
//! gumpartLegacyMUL.uop, checked once at opening.

use std::fmt;
use std::path::Path;

use gamedata_io::{FileData, FileError, FileOptions, FileSet, OwnedSet};

use crate::error::{DataError, Error, ErrorKind};
use crate::picture::{
    ArtFormat, PictureData, PicturePaths, PictureStore, StoredPictures, UopPictures,
};

use super::Gumps;

/// A folder's gumps, owned ([`OwnedSet`] of [`GumpSet`]; view: [`Gumps`]): gumpart.mul
/// with gumpidx.mul, or gumpartLegacyMUL.uop. Its id is the form to read, `None` for
/// whichever the folder holds (`GumpFiles::open(dir, None)`).
pub type GumpFiles = OwnedSet<GumpSet>;

/// A folder's gumps, checked: gumpart.mul with gumpidx.mul (checked to be whole records),
/// or gumpartLegacyMUL.uop (its table read and its slots' index made at opening, within
/// the options' limits).
pub struct GumpSet {
    /// Where they are (`None` for bytes handed over without paths).
    pub paths: Option<PicturePaths>,
    store: PictureStore,
}

impl GumpSet {
    /// The form the gumps are read from.
    pub fn format(&self) -> ArtFormat {
        self.store.format()
    }
}

impl fmt::Debug for GumpSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.store.debug(f, "GumpFiles", &self.paths)
    }
}

impl FileSet for GumpSet {
    type Options = FileOptions;
    type Kind = ErrorKind;
    /// The form to read; `None`: gumpart.mul with gumpidx.mul when both are there, else
    /// gumpartLegacyMUL.uop.
    type Id = Option<ArtFormat>;
    type Paths = Option<PicturePaths>;
    type Files = PictureData;
    type View<'data> = Gumps<'data>;

    /// The gump files in `dir`, any letter case (see [`GumpSet::Id`](FileSet::Id)).
    fn find(
        dir: &Path,
        format: Option<ArtFormat>,
        _options: &FileOptions,
    ) -> Result<Self::Paths, Error> {
        PicturePaths::find(
            dir,
            format,
            ["gumpidx.mul", "gumpart.mul"],
            UopPictures::Gumps,
        )
        .map(Some)
    }

    fn load(
        paths: &Self::Paths,
        load: &mut dyn FnMut(&Path) -> Result<FileData, FileError>,
    ) -> Result<PictureData, FileError> {
        PictureStore::load(paths, load)
    }

    /// Checks gumpidx.mul (a whole number of 12-byte records), or reads
    /// gumpartLegacyMUL.uop's table and makes its index ([`UopIndex::build`](crate::UopIndex::build)), naming the
    /// file in errors.
    fn from_files(
        paths: Self::Paths,
        files: PictureData,
        options: &FileOptions,
    ) -> Result<Self, DataError> {
        let store = PictureStore::checked(
            paths.as_ref(),
            files,
            options,
            UopPictures::Gumps,
            |i, d| Gumps::parse(i, d).map(drop),
        )?;
        Ok(GumpSet { paths, store })
    }

    fn view(&self) -> Result<Gumps<'_>, DataError> {
        let overlaps = self.store.overlaps.clone();
        match &self.store.files {
            StoredPictures::Mul(pair) => Gumps::parse_shared(&pair.index, &pair.data, overlaps),
            StoredPictures::Uop { data, index } => {
                Ok(Gumps::from_uop_shared(index, data, overlaps))
            }
        }
    }
}
