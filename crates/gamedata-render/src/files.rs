//! Small files written whole or not at all, never over an input: what the bulk export's
//! folder writer ([`crate::uo::export::FolderWriter`]) and a tile pyramid's writer put on
//! disk.
//!
//! A new file is written, on Linux, into an unnamed file of its folder (`O_TMPFILE`) and
//! linked under its name once whole; elsewhere, and over a file there already, a
//! temporary file beside it is renamed over the target once complete (`tempfile`), so a
//! failed or interrupted write leaves the old file as it was. A target that is one of the
//! inputs (the same file after resolving links) is refused before anything is written.

use std::error::Error;
use std::fmt;
use std::io::Write;
use std::path::Path;

/// Why a file or a picture could not be written: a message and, when there is one, its
/// cause (an I/O error, a sink's own error). Its `Display` is the message alone; the cause
/// is its [`Error::source`].
#[derive(Debug)]
pub struct WriteError {
    message: String,
    source: Option<Box<dyn Error + Send + Sync>>,
}

impl WriteError {
    /// An error saying `message`, of no further cause.
    pub fn new(message: impl Into<String>) -> Self {
        WriteError {
            message: message.into(),
            source: None,
        }
    }

    /// An error saying `message`, caused by `source`.
    pub fn with_source(
        message: impl Into<String>,
        source: impl Into<Box<dyn Error + Send + Sync>>,
    ) -> Self {
        WriteError {
            message: message.into(),
            source: Some(source.into()),
        }
    }
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl Error for WriteError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.source.as_deref().map(|e| e as &(dyn Error + 'static))
    }
}

/// Refuses a `path` that is one of `inputs`; `exists` says whether it names a file at all
/// (when not, it is none of them, and no input is looked up).
///
/// Returns `Err` naming the path and the input when it is one.
pub fn refuse_inputs(path: &Path, inputs: &[&Path], exists: bool) -> Result<(), WriteError> {
    if let Some(input) = inputs.iter().find(|input| exists && same_file(path, input)) {
        return Err(WriteError::new(format!(
            "{} is one of this command's inputs ({}): choose another output",
            path.display(),
            input.display()
        )));
    }
    Ok(())
}

/// The folder `path` names a file in: its parent, or `.`.
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// A temporary file that ends as an ordinary output file: on Unix created with mode 0666
/// less the umask (as any new file), not the 0600 of a private temporary file.
fn temp_builder() -> tempfile::Builder<'static, 'static> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".gamedata-").suffix(".partial");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder
}

/// True if both paths name one existing file (after resolving links): on Unix the same
/// device and inode, elsewhere the same canonical path.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Writes `bytes` to `path` whole or not at all, refusing a `path` that is one of `inputs`,
/// without waiting for the disk: for the many small files of a tile pyramid or an export,
/// where a sync each would cost more than the files (a crash may then lose a file, but
/// never leaves one half written under its name).
///
/// A new file is written, on Linux, into an unnamed file of its folder (`O_TMPFILE`) and
/// linked under its name once whole: one name made in the folder, where a temporary file
/// takes two (its own, then the rename). Elsewhere, where the folder's file system has no
/// unnamed files, and over a file there already, a temporary file beside it is renamed.
/// A file that already holds exactly `bytes` is left as it is (a pyramid made again
/// rewrites only the tiles that changed: replacing a file costs the file system more than
/// writing a new one, and a copy by size and time sends only those).
///
/// Returns `Err` for a `path` that is one of `inputs` ([`refuse_inputs`]), and when the
/// file cannot be made or written (`cannot create a file in FOLDER`, `cannot write PATH`,
/// the I/O error its cause).
pub fn write_small(path: &Path, inputs: &[&Path], bytes: &[u8]) -> Result<(), WriteError> {
    let existing = std::fs::metadata(path).ok();
    refuse_inputs(path, inputs, existing.is_some())?;
    let folder = folder_of(path);
    let cannot_write =
        |e: std::io::Error| WriteError::with_source(format!("cannot write {}", path.display()), e);
    if let Some(old) = existing {
        let same_length =
            old.is_file() && old.len() == u64::try_from(bytes.len()).unwrap_or(u64::MAX);
        if same_length && std::fs::read(path).is_ok_and(|old| old == bytes) {
            return Ok(());
        }
    } else {
        #[cfg(target_os = "linux")]
        if link_whole(folder, path, bytes).map_err(cannot_write)? {
            return Ok(());
        }
    }
    let mut temp = temp_builder().tempfile_in(folder).map_err(|e| {
        WriteError::with_source(format!("cannot create a file in {}", folder.display()), e)
    })?;
    temp.write_all(bytes).map_err(cannot_write)?;
    temp.persist(path).map_err(|e| cannot_write(e.error))?;
    Ok(())
}

/// Writes `bytes` into an unnamed file made in `folder` (`open(2)`'s `O_TMPFILE`, mode
/// 0666 less the umask) and links it as `path` once whole (`linkat(2)` through
/// `/proc/self/fd`, which fails rather than replace a file). `Ok(false)` when that cannot be
/// done here (a file system without unnamed files, no `/proc`, a file of that name made
/// meanwhile): the caller then writes through a named temporary file. A failed write of
/// the bytes is an error; nothing of them is left anywhere.
#[cfg(target_os = "linux")]
fn link_whole(folder: &Path, path: &Path, bytes: &[u8]) -> std::io::Result<bool> {
    use rustix::fs::{AtFlags, CWD, Mode, OFlags};
    use std::os::fd::AsRawFd;
    let flags = OFlags::WRONLY | OFlags::TMPFILE | OFlags::CLOEXEC;
    let Ok(fd) = rustix::fs::open(folder, flags, Mode::from_bits_truncate(0o666)) else {
        return Ok(false);
    };
    let mut file = std::fs::File::from(fd);
    file.write_all(bytes)?;
    let name = format!("/proc/self/fd/{}", file.as_raw_fd());
    Ok(rustix::fs::linkat(CWD, name.as_str(), CWD, path, AtFlags::SYMLINK_FOLLOW).is_ok())
}

/// `error` and its causes, each after a `": "`: how a picture's failure is told in an
/// export's report (as `anyhow`'s `{:#}` tells an error).
pub(crate) fn chain(error: &(dyn Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(e) = cause {
        text.push_str(": ");
        text.push_str(&e.to_string());
        cause = e.source();
    }
    text
}

#[cfg(test)]
mod tests;
