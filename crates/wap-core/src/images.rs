//! Where a level's pictures come from: a REZ archive, or a folder of files extracted from
//! one (`LEVEL1/TILES/ACTION/012.PID`, any letter case), as modders keep custom tiles. Both
//! answer the same paths ([`ImageSource::file`]).

use std::borrow::Cow;
use std::fs;
use std::path::{Path, PathBuf};

use gamedata_io::FileError;

use crate::error::Result;
use crate::level_file::LevelOptions;
use crate::rez::RezArchive;

/// A REZ archive or a folder of extracted files.
#[derive(Debug)]
pub enum ImageSource {
    /// An archive, read or mapped.
    Archive(RezArchive),
    /// A folder whose tree mirrors an archive's.
    Folder(PathBuf),
}

impl ImageSource {
    /// The folder at `path`, or the archive there read into memory.
    ///
    /// Returns `Err` as [`RezArchive::open`] for a file.
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        if path.is_dir() {
            return Ok(ImageSource::Folder(path.to_path_buf()));
        }
        Ok(ImageSource::Archive(RezArchive::open_with(
            path,
            &LevelOptions::default(),
        )?))
    }

    /// The folder at `path`, or the archive there memory-mapped.
    ///
    /// Returns `Err` as [`RezArchive::map`] for a file.
    ///
    /// # Safety
    ///
    /// As [`RezArchive::map`] when `path` is a file.
    #[allow(unsafe_code)]
    pub unsafe fn map(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        if path.is_dir() {
            return Ok(ImageSource::Folder(path.to_path_buf()));
        }
        // SAFETY: the caller upholds RezArchive::map's contract, which is this function's.
        Ok(ImageSource::Archive(unsafe { RezArchive::map(path) }?))
    }

    /// The bytes of the file at `path` (`/` or `\` separated, any letter case): borrowed
    /// from an archive, read from a folder; `None` when there is no such file.
    ///
    /// Returns `Err` when a directory of the archive on the way cannot be read, or the
    /// folder's file cannot be read.
    pub fn file(&self, path: &str) -> Result<Option<Cow<'_, [u8]>>> {
        match self {
            ImageSource::Archive(archive) => {
                Ok(archive.rez().file(path)?.map(|f| Cow::Borrowed(f.bytes)))
            }
            ImageSource::Folder(root) => {
                let Some(found) = find_path(root, path)? else {
                    return Ok(None);
                };
                let bytes = fs::read(&found).map_err(|e| FileError::io(&found, e))?;
                Ok(Some(Cow::Owned(bytes)))
            }
        }
    }
}

/// The entry of `dir` named `name` in any letter case (an exact match first).
fn entry_ignoring_case(dir: &Path, name: &str) -> Result<Option<PathBuf>> {
    let exact = dir.join(name);
    if exact.exists() {
        return Ok(Some(exact));
    }
    let listing = match fs::read_dir(dir) {
        Ok(listing) => listing,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(FileError::io(dir, e).into()),
    };
    for entry in listing {
        let entry = entry.map_err(|e| FileError::io(dir, e))?;
        if entry
            .file_name()
            .to_string_lossy()
            .eq_ignore_ascii_case(name)
        {
            return Ok(Some(entry.path()));
        }
    }
    Ok(None)
}

/// The file at `path` under `root`, each component matched in any letter case; `None` when
/// there is none, or a component is empty, `.` or `..` (nothing outside `root` is read).
fn find_path(root: &Path, path: &str) -> Result<Option<PathBuf>> {
    let mut at = root.to_path_buf();
    for part in path.split(['/', '\\']).filter(|p| !p.is_empty()) {
        if part == "." || part == ".." || part.contains(':') {
            return Ok(None);
        }
        match entry_ignoring_case(&at, part)? {
            Some(next) => at = next,
            None => return Ok(None),
        }
    }
    Ok(at.is_file().then_some(at))
}
