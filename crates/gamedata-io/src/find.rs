//! Finding a file in a folder whatever the letter case of its name.
//!
//! Game files come in every case: Ultima Online clients ship `MAP0.MUL` beside
//! `tiledata.mul`, Claw levels come as `.WWD` and `.wwd`, Cosmo's group files as
//! `COSMO1.STN` or `cosmo1.stn` depending on the archive they came from.

use std::path::{Path, PathBuf};

use crate::file::FileError;

/// The path of the regular file named `name` in `dir`, comparing names with ASCII case
/// ignored. An exact match is preferred; otherwise the first match in directory order (two
/// files whose names differ only in case are a broken game folder).
///
/// Returns `Err` ([`FileError::NotFolder`]) if `dir` is a file, ([`FileError::Io`]) if the
/// folder cannot be listed, ([`FileError::NotRegular`]) if what has that name is a FIFO, a
/// socket or a device, or ([`FileError::Missing`]) if nothing there has that name.
pub fn find_file_ignoring_case(dir: impl AsRef<Path>, name: &str) -> Result<PathBuf, FileError> {
    let dir = dir.as_ref();
    if dir.is_file() {
        return Err(FileError::NotFolder {
            path: dir.to_owned(),
        });
    }
    let exact = dir.join(name);
    if exact.is_file() {
        return Ok(exact);
    }
    let io = |e| FileError::io(dir, e);
    // A FIFO, socket or device of the name is reported as what it is, not as missing.
    let mut other = None;
    for item in std::fs::read_dir(dir).map_err(io)? {
        let item = item.map_err(io)?;
        let matches = item
            .file_name()
            .as_encoded_bytes()
            .eq_ignore_ascii_case(name.as_bytes());
        if !matches {
            continue;
        }
        let path = item.path();
        match std::fs::metadata(&path) {
            Ok(m) if m.is_file() => return Ok(path),
            Ok(m) if !m.is_dir() && other.is_none() => other = Some((path, kind_of(&m))),
            _ => {}
        }
    }
    if let Some((path, kind)) = other {
        return Err(FileError::NotRegular { path, kind });
    }
    Err(FileError::Missing {
        dir: dir.to_owned(),
        name: name.to_owned(),
    })
}

/// The length in bytes of the regular file at `path` (links followed), without opening it
/// for reading: what a reader that must not block on a pipe, nor read a device without
/// end, checks first.
///
/// Returns `Err` ([`FileError::IsFolder`]) for a folder, ([`FileError::NotRegular`]) for a
/// FIFO, a socket or a device, and ([`FileError::Io`]) when its metadata cannot be read.
pub fn regular_file_len(path: impl AsRef<Path>) -> Result<u64, FileError> {
    let path = path.as_ref();
    let metadata = std::fs::metadata(path).map_err(|e| FileError::io(path, e))?;
    if metadata.is_dir() {
        return Err(FileError::IsFolder {
            path: path.to_owned(),
        });
    }
    if !metadata.is_file() {
        return Err(FileError::NotRegular {
            path: path.to_owned(),
            kind: kind_of(&metadata),
        });
    }
    Ok(metadata.len())
}

/// What a path that is neither a regular file nor a folder is, for messages.
fn kind_of(metadata: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = metadata.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
    }
    let _ = metadata;
    "not a regular file"
}

/// [`find_file_ignoring_case`] for a file a folder may lack: `Ok(None)` when no file there
/// has the name.
///
/// Returns `Err` ([`FileError::Io`]) if the folder cannot be listed.
pub fn find_optional(dir: impl AsRef<Path>, name: &str) -> Result<Option<PathBuf>, FileError> {
    match find_file_ignoring_case(dir, name) {
        Ok(path) => Ok(Some(path)),
        Err(FileError::Missing { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The last part of `path` for messages ("MAP0.MUL"), or the whole path if it has none
/// (`..`, `/`).
pub fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |name| name.to_string_lossy().into_owned(),
    )
}
