//! A folder's UOP animation files (AnimationFrame1.uop … and AnimationSequence.uop): the
//! owner and its view.

use std::fmt;
use std::path::{Path, PathBuf};

use gamedata_io::{
    FileData, FileError, FileOptions, FileSet, Limits, OwnedSet, find_file_ignoring_case,
    find_optional,
};

use crate::error::{DataError, Error, ErrorKind, Result};

use super::uop_lookup::{UOP_ANIM_FILES, UopAnimations};
use super::uop_sequence::{UOP_SEQUENCE_FILE, UopSequences};

/// A folder's UOP animation files, owned ([`OwnedSet`] of [`UopAnimationSet`]; view:
/// [`UopAnimationBytes`]). A folder holds one set: its id is `()`.
pub type UopAnimationFiles = OwnedSet<UopAnimationSet>;

/// Where a folder's UOP animation files are: AnimationFrame1.uop to AnimationFrame10.uop
/// (each when there), then AnimationSequence.uop (when there).
pub type UopAnimPaths = [Option<PathBuf>; 11];

/// The bytes of a folder's UOP animation files, in the order of [`UopAnimPaths`].
pub type UopAnimFileData = [Option<FileData>; 11];

/// A folder's UOP animation files, checked: each a UOP container whose table reads within
/// the options' limits. Each view reads the tables again (a hash map of each file's
/// entries, 16 bytes and a map slot an entry).
pub struct UopAnimationSet {
    /// Where they are (`None` for bytes handed over without paths).
    pub paths: Option<UopAnimPaths>,
    files: UopAnimFileData,
    limits: Limits,
}

impl fmt::Debug for UopAnimationSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = f.debug_struct("UopAnimationFiles");
        out.field("paths", &self.paths);
        for (name, held) in UOP_ANIM_FILES
            .iter()
            .chain([&UOP_SEQUENCE_FILE])
            .zip(&self.files)
        {
            if let Some(data) = held {
                out.field(name, data);
            }
        }
        out.finish()
    }
}

impl UopAnimationSet {
    /// The paths of every file read, for callers that must not write over an input.
    pub fn input_paths(&self) -> impl Iterator<Item = &Path> + '_ {
        self.paths.iter().flatten().flatten().map(PathBuf::as_path)
    }
}

/// The file name of slot `i` of [`UopAnimPaths`].
fn slot_name(i: usize) -> &'static str {
    UOP_ANIM_FILES.get(i).copied().unwrap_or(UOP_SEQUENCE_FILE)
}

impl FileSet for UopAnimationSet {
    type Options = FileOptions;
    type Kind = ErrorKind;
    type Id = ();
    type Paths = Option<UopAnimPaths>;
    type Files = UopAnimFileData;
    type View<'data> = UopAnimationBytes<'data>;

    /// AnimationFrame1.uop in `dir` (any letter case; required), and each of
    /// AnimationFrame2.uop to AnimationFrame10.uop and AnimationSequence.uop that is there.
    fn find(dir: &Path, _id: (), _options: &FileOptions) -> Result<Self::Paths, Error> {
        let mut paths: UopAnimPaths = Default::default();
        for (i, slot) in paths.iter_mut().enumerate() {
            let name = slot_name(i);
            *slot = if i == 0 {
                Some(find_file_ignoring_case(dir, name)?)
            } else {
                find_optional(dir, name)?
            };
        }
        Ok(Some(paths))
    }

    fn load(
        paths: &Self::Paths,
        load: &mut dyn FnMut(&Path) -> Result<FileData, FileError>,
    ) -> Result<UopAnimFileData, FileError> {
        let mut files: UopAnimFileData = Default::default();
        if let Some(paths) = paths {
            for (slot, path) in files.iter_mut().zip(paths) {
                if let Some(path) = path {
                    *slot = Some(load(path)?);
                }
            }
        }
        Ok(files)
    }

    /// Reads each file's table once (see [`UopAnimations::parse`]), naming the file in
    /// errors.
    fn from_files(
        paths: Self::Paths,
        files: UopAnimFileData,
        options: &FileOptions,
    ) -> Result<Self, DataError> {
        let set = UopAnimationSet {
            paths,
            files,
            limits: options.limits,
        };
        set.view()?;
        Ok(set)
    }

    fn view(&self) -> Result<UopAnimationBytes<'_>, DataError> {
        let frames = self.files.iter().take(UOP_ANIM_FILES.len()).enumerate();
        let animations = UopAnimations::parse(
            frames.filter_map(|(i, data)| {
                let number = u8::try_from(i.checked_add(1)?).ok()?;
                Some((number, &data.as_ref()?[..]))
            }),
            &self.limits,
        )?;
        let sequences = match self
            .files
            .get(UOP_ANIM_FILES.len())
            .and_then(Option::as_ref)
        {
            Some(data) => Some(UopSequences::parse(data, &self.limits)?),
            None => None,
        };
        Ok(UopAnimationBytes {
            animations,
            sequences,
        })
    }
}

/// The UOP animation files of a folder ([`UopAnimationFiles::view`]).
#[derive(Debug)]
pub struct UopAnimationBytes<'data> {
    /// AnimationFrame1.uop … in the client's order.
    pub animations: UopAnimations<'data>,
    /// AnimationSequence.uop, when the folder has it.
    pub sequences: Option<UopSequences<'data>>,
}
