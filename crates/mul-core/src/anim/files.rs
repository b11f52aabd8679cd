//! A folder's animation files: the owner and its view.

use std::fmt;
use std::path::{Path, PathBuf};

use gamedata_io::{
    FileData, FileError, FileOptions, FileSet, OwnedSet, find_file_ignoring_case, find_optional,
};

use crate::error::{DataError, Error, ErrorKind, Result};

use super::{AnimFileId, Animations, SharedOverlaps};

/// A folder's animation files, owned ([`OwnedSet`] of [`AnimationSet`]; view:
/// [`AnimationBytes`]): anim.idx with anim.mul, and anim2 to anim5 when the folder has both
/// of a pair. A folder holds one set: its id is `()` (`AnimationFiles::open(dir, ())`).
pub type AnimationFiles = OwnedSet<AnimationSet>;

/// Where a folder's animation files are: for each [`AnimFileId`] (in the client's order),
/// its index file and its data file, when both are there.
pub type AnimPaths = [Option<[PathBuf; 2]>; 5];

/// The bytes of a folder's animation files (what [`AnimationFiles::from_data`] takes):
/// for each [`AnimFileId`], its index file's bytes and its data file's.
pub type AnimFileData = [Option<[FileData; 2]>; 5];

/// A folder's animation files, checked: each index a whole number of 12-byte records; the
/// entries' overlaps, found when a file's first entry is read, kept for every view.
pub struct AnimationSet {
    /// Where they are (`None` for bytes handed over without paths).
    pub paths: Option<AnimPaths>,
    files: [Option<([FileData; 2], SharedOverlaps)>; 5],
}

impl AnimationSet {
    /// The files the set holds, in the client's order.
    pub fn files(&self) -> impl Iterator<Item = AnimFileId> + '_ {
        AnimFileId::ALL
            .into_iter()
            .zip(&self.files)
            .filter_map(|(file, held)| held.as_ref().map(|_| file))
    }

    /// The paths of every file read (index and data files), for callers that must not
    /// write over an input.
    pub fn input_paths(&self) -> impl Iterator<Item = &Path> + '_ {
        self.paths
            .iter()
            .flatten()
            .flatten()
            .flatten()
            .map(PathBuf::as_path)
    }
}

impl fmt::Debug for AnimationSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = f.debug_struct("AnimationFiles");
        out.field("paths", &self.paths);
        for (file, held) in AnimFileId::ALL.iter().zip(&self.files) {
            if let Some(([index, data], _)) = held {
                out.field(file.index_name(), index);
                out.field(file.data_name(), data);
            }
        }
        out.finish()
    }
}

impl FileSet for AnimationSet {
    type Options = FileOptions;
    type Kind = ErrorKind;
    type Id = ();
    type Paths = Option<AnimPaths>;
    type Files = AnimFileData;
    type View<'data> = AnimationBytes<'data>;

    /// anim.idx and anim.mul in `dir` (any letter case; both required), and each of
    /// anim2 to anim5 whose two files are both there.
    fn find(dir: &Path, _id: (), _options: &FileOptions) -> Result<Self::Paths, Error> {
        let mut paths: AnimPaths = Default::default();
        for (file, slot) in AnimFileId::ALL.into_iter().zip(paths.iter_mut()) {
            *slot = if file == AnimFileId::Anim {
                Some([
                    find_file_ignoring_case(dir, file.index_name())?,
                    find_file_ignoring_case(dir, file.data_name())?,
                ])
            } else {
                match (
                    find_optional(dir, file.index_name())?,
                    find_optional(dir, file.data_name())?,
                ) {
                    (Some(index), Some(data)) => Some([index, data]),
                    _ => None,
                }
            };
        }
        Ok(Some(paths))
    }

    fn load(
        paths: &Self::Paths,
        load: &mut dyn FnMut(&Path) -> Result<FileData, FileError>,
    ) -> Result<AnimFileData, FileError> {
        let mut files: AnimFileData = Default::default();
        if let Some(paths) = paths {
            for (slot, pair) in files.iter_mut().zip(paths) {
                if let Some([index, data]) = pair {
                    *slot = Some([load(index)?, load(data)?]);
                }
            }
        }
        Ok(files)
    }

    /// Checks each index (a whole number of 12-byte records), naming it in errors.
    fn from_files(
        paths: Self::Paths,
        files: AnimFileData,
        _options: &FileOptions,
    ) -> Result<Self, DataError> {
        let mut held: [Option<([FileData; 2], SharedOverlaps)>; 5] = Default::default();
        for (i, (slot, pair)) in held.iter_mut().zip(files).enumerate() {
            let Some([index, data]) = pair else {
                continue;
            };
            let file = AnimFileId::from_number(i).unwrap_or(AnimFileId::Anim);
            Animations::parse(file, &index, &data).map_err(|e| {
                match paths
                    .as_ref()
                    .and_then(|p| p.get(i))
                    .and_then(Option::as_ref)
                {
                    Some([index_path, _]) => DataError::in_file(index_path)(e),
                    None => e,
                }
            })?;
            *slot = Some(([index, data], SharedOverlaps::default()));
        }
        Ok(AnimationSet { paths, files: held })
    }

    fn view(&self) -> Result<AnimationBytes<'_>, DataError> {
        let mut views: [Option<Animations<'_>>; 5] = Default::default();
        for (i, (slot, held)) in views.iter_mut().zip(&self.files).enumerate() {
            if let Some(([index, data], overlaps)) = held {
                let file = AnimFileId::from_number(i).unwrap_or(AnimFileId::Anim);
                *slot = Some(Animations::parse_shared(
                    file,
                    index,
                    data,
                    overlaps.clone(),
                )?);
            }
        }
        Ok(AnimationBytes { files: views })
    }
}

/// The animation files of a folder ([`AnimationFiles::view`]): one [`Animations`] for each
/// file the folder holds.
#[derive(Clone, Debug)]
pub struct AnimationBytes<'data> {
    files: [Option<Animations<'data>>; 5],
}

impl<'data> AnimationBytes<'data> {
    /// The views over the files it holds, each as [`Animations::parse`] makes it.
    pub fn new(files: impl IntoIterator<Item = Animations<'data>>) -> Self {
        let mut views: [Option<Animations<'data>>; 5] = Default::default();
        for view in files {
            if let Some(slot) = views.get_mut(view.file().number()) {
                *slot = Some(view);
            }
        }
        AnimationBytes { files: views }
    }

    /// File `file`, if the folder holds it.
    pub fn get(&self, file: AnimFileId) -> Option<&Animations<'data>> {
        self.files.get(file.number()).and_then(Option::as_ref)
    }

    /// The files held, in the client's order.
    pub fn iter(&self) -> impl Iterator<Item = &Animations<'data>> + '_ {
        self.files.iter().flatten()
    }
}
