//! The owner of a folder's art ([`ArtFiles`]): art.mul with artidx.mul, or
//! artLegacyMUL.uop, checked once at opening.

use std::fmt;
use std::path::Path;

use gamedata_io::{FileData, FileError, FileOptions, FileSet, OwnedSet};

use crate::error::{DataError, Error, ErrorKind};
use crate::picture::{
    ArtFormat, PictureData, PicturePaths, PictureStore, StoredPictures, UopPictures,
};

use super::Art;

/// A folder's art, owned ([`OwnedSet`] of [`ArtSet`]; view: [`Art`]): art.mul with
/// artidx.mul, or artLegacyMUL.uop. A folder holds one set: its id is the form to read,
/// `None` for whichever the folder holds (`ArtFiles::open(dir, None)`).
pub type ArtFiles = OwnedSet<ArtSet>;

/// A folder's art, checked: art.mul with artidx.mul (checked to be whole records), or
/// artLegacyMUL.uop (its table read and its slots' index made at opening, within the
/// options' limits).
pub struct ArtSet {
    /// Where it is (`None` for bytes handed over without paths).
    pub paths: Option<PicturePaths>,
    store: PictureStore,
}

impl ArtSet {
    /// The form the art is read from.
    pub fn format(&self) -> ArtFormat {
        self.store.format()
    }
}

impl fmt::Debug for ArtSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.store.debug(f, "ArtFiles", &self.paths)
    }
}

impl FileSet for ArtSet {
    type Options = FileOptions;
    type Kind = ErrorKind;
    /// The form to read; `None`: art.mul with artidx.mul when both are there, else
    /// artLegacyMUL.uop.
    type Id = Option<ArtFormat>;
    type Paths = Option<PicturePaths>;
    type Files = PictureData;
    type View<'data> = Art<'data>;

    /// The art files in `dir`, any letter case (see [`ArtSet::Id`](FileSet::Id)).
    fn find(
        dir: &Path,
        format: Option<ArtFormat>,
        _options: &FileOptions,
    ) -> Result<Self::Paths, Error> {
        PicturePaths::find(dir, format, ["artidx.mul", "art.mul"], UopPictures::Art).map(Some)
    }

    fn load(
        paths: &Self::Paths,
        load: &mut dyn FnMut(&Path) -> Result<FileData, FileError>,
    ) -> Result<PictureData, FileError> {
        PictureStore::load(paths, load)
    }

    /// Checks artidx.mul (a whole number of 12-byte records), or reads artLegacyMUL.uop's
    /// table and makes its index ([`UopIndex::build`](crate::UopIndex::build)), naming the file in errors.
    fn from_files(
        paths: Self::Paths,
        files: PictureData,
        options: &FileOptions,
    ) -> Result<Self, DataError> {
        let store =
            PictureStore::checked(paths.as_ref(), files, options, UopPictures::Art, |i, d| {
                Art::parse(i, d).map(drop)
            })?;
        Ok(ArtSet { paths, store })
    }

    fn view(&self) -> Result<Art<'_>, DataError> {
        let overlaps = self.store.overlaps.clone();
        match &self.store.files {
            StoredPictures::Mul(pair) => Art::parse_shared(&pair.index, &pair.data, overlaps),
            StoredPictures::Uop { data, index } => Ok(Art::from_uop_shared(index, data, overlaps)),
        }
    }
}
