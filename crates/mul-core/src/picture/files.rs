//! Where a folder's art or gumps are ([`PicturePaths`]), their bytes in either form
//! ([`PictureData`]), and the checked store the owners [`ArtSet`](crate::ArtSet) and
//! [`GumpSet`](crate::GumpSet) keep.

use std::fmt;
use std::path::{Path, PathBuf};

use gamedata_io::{FileData, FileError, FileOptions, find_file_ignoring_case};

use crate::error::{DataError, Error};
use crate::index::IndexedPair;
use crate::picture::SharedOverlaps;
use crate::picture::uop::{ArtFormat, UopIndex, UopPictures};

/// Where a folder's art or gumps are (see [`ArtFormat`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PicturePaths {
    /// The index file, then the data file (artidx.mul, art.mul).
    Mul([PathBuf; 2]),
    /// The UOP container (artLegacyMUL.uop).
    Uop(PathBuf),
}

impl PicturePaths {
    /// The form these paths hold.
    pub fn format(&self) -> ArtFormat {
        match self {
            PicturePaths::Mul(_) => ArtFormat::Mul,
            PicturePaths::Uop(_) => ArtFormat::Uop,
        }
    }

    /// The files: the index file and the data file, or the container.
    pub fn files(&self) -> &[PathBuf] {
        match self {
            PicturePaths::Mul(pair) => pair,
            PicturePaths::Uop(uop) => std::slice::from_ref(uop),
        }
    }

    /// The file named in messages about the index: the index file, or the container.
    fn index_file(&self) -> &Path {
        match self {
            PicturePaths::Mul([index, _]) => index,
            PicturePaths::Uop(uop) => uop,
        }
    }

    /// The paths of `pictures` in `dir`, any letter case, in form `format`; `None`: the
    /// MUL pair when both files are there, else the UOP when it is, else an error naming
    /// the MUL index file.
    pub(crate) fn find(
        dir: &Path,
        format: Option<ArtFormat>,
        mul: [&str; 2],
        pictures: UopPictures,
    ) -> Result<Self, Error> {
        let pair = || -> Result<Self, Error> {
            Ok(PicturePaths::Mul([
                find_file_ignoring_case(dir, mul[0])?,
                find_file_ignoring_case(dir, mul[1])?,
            ]))
        };
        let uop = || -> Result<Self, Error> {
            Ok(PicturePaths::Uop(find_file_ignoring_case(
                dir,
                pictures.file_name(),
            )?))
        };
        match format {
            Some(ArtFormat::Mul) => pair(),
            Some(ArtFormat::Uop) => uop(),
            None => pair().or_else(|mul_missing| uop().map_err(|_| mul_missing)),
        }
    }
}

/// The bytes of a folder's art or gumps, in either form (what [`ArtFiles::from_data`](crate::ArtFiles::from_data)
/// takes).
pub enum PictureData {
    /// The index file's bytes, then the data file's.
    Mul([FileData; 2]),
    /// The UOP container's bytes.
    Uop(FileData),
}

/// Art or gumps in either form, checked: the MUL pair, or a UOP with the index its slots
/// make; the entries' overlaps, found when the first entry is read, kept for every view.
pub(crate) struct PictureStore {
    pub(crate) files: StoredPictures,
    pub(crate) overlaps: SharedOverlaps,
}

pub(crate) enum StoredPictures {
    Mul(IndexedPair),
    Uop { data: FileData, index: UopIndex },
}

impl PictureStore {
    pub(crate) fn load(
        paths: &Option<PicturePaths>,
        load: &mut dyn FnMut(&Path) -> Result<FileData, FileError>,
    ) -> Result<PictureData, FileError> {
        match paths {
            Some(PicturePaths::Mul(pair)) => Ok(PictureData::Mul(IndexedPair::load(
                &Some(pair.clone()),
                load,
            )?)),
            Some(PicturePaths::Uop(uop)) => Ok(PictureData::Uop(load(uop)?)),
            None => Ok(PictureData::Mul([
                FileData::from(&[][..]),
                FileData::from(&[][..]),
            ])),
        }
    }

    /// Checks the files: the MUL pair by `check` (the view's parse), the UOP by making its
    /// index within `options`' limits; errors name the index file found at `paths`.
    pub(crate) fn checked(
        paths: Option<&PicturePaths>,
        files: PictureData,
        options: &FileOptions,
        pictures: UopPictures,
        check: impl FnOnce(&[u8], &[u8]) -> Result<(), DataError>,
    ) -> Result<Self, DataError> {
        let name = |e: DataError| match paths {
            Some(paths) => DataError::in_file(paths.index_file())(e),
            None => e,
        };
        let files = match files {
            PictureData::Mul(pair) => {
                let mul_paths = match paths {
                    Some(PicturePaths::Mul(p)) => Some(p),
                    _ => None,
                };
                StoredPictures::Mul(IndexedPair::checked(mul_paths, pair, check)?)
            }
            PictureData::Uop(data) => {
                let index = UopIndex::build(&data, &options.limits, pictures).map_err(name)?;
                StoredPictures::Uop { data, index }
            }
        };
        Ok(PictureStore {
            files,
            overlaps: SharedOverlaps::default(),
        })
    }

    pub(crate) fn format(&self) -> ArtFormat {
        match self.files {
            StoredPictures::Mul(_) => ArtFormat::Mul,
            StoredPictures::Uop { .. } => ArtFormat::Uop,
        }
    }

    pub(crate) fn debug(
        &self,
        f: &mut fmt::Formatter<'_>,
        name: &str,
        paths: &Option<PicturePaths>,
    ) -> fmt::Result {
        let mut out = f.debug_struct(name);
        out.field("paths", paths);
        match &self.files {
            StoredPictures::Mul(pair) => out.field("index", &pair.index).field("data", &pair.data),
            StoredPictures::Uop { data, index } => out
                .field("uop", data)
                .field("slots", &index.records().len()),
        };
        out.finish()
    }
}
