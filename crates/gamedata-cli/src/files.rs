//! Files the command writes: whole or not at all, and never over one of its inputs.
//!
//! The bytes go to a temporary file in the target's folder, which is renamed over the target
//! once complete (`tempfile`), so a failed or interrupted write leaves the old file as it
//! was. A target that is one of the command's inputs (the same file after resolving links)
//! is refused before anything is written.

use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{Context, Result};

/// Writes `path` with what `fill` writes, atomically, the bytes flushed to the disk before
/// the rename; refuses a `path` that is one of `inputs`. (Bulk outputs of many small files,
/// tiles and exports, go through [`write_small`], which leaves the flush to the system: a
/// crash may then lose a file, but never leaves one half written under its name.)
pub(crate) fn write_file(
    path: &Path,
    inputs: &[&Path],
    fill: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    write_seekable(path, inputs, |w| fill(w))
}

/// A file being written by [`write_seekable`]: buffered, and seekable (a writer that puts a
/// header in front last, as the level writer does).
pub(crate) type Partial = BufWriter<tempfile::NamedTempFile>;

/// [`write_file`], the writer given seekable.
pub(crate) fn write_seekable(
    path: &Path,
    inputs: &[&Path],
    fill: impl FnOnce(&mut Partial) -> Result<()>,
) -> Result<()> {
    let folder = output_folder(path, inputs)?;
    let temp = temp_builder()
        .tempfile_in(folder)
        .with_context(|| format!("cannot create a file in {}", folder.display()))?;
    let mut writer = BufWriter::new(temp);
    fill(&mut writer).with_context(|| format!("writing {}", path.display()))?;
    let temp = writer
        .into_inner()
        .map_err(|e| e.into_error())
        .with_context(|| format!("cannot write {}", path.display()))?;
    temp.as_file()
        .sync_all()
        .with_context(|| format!("cannot write {}", path.display()))?;
    temp.persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// The folder `path` goes into (its temporary file is made there); refuses a `path` that
/// is one of `inputs`.
fn output_folder<'p>(path: &'p Path, inputs: &[&Path]) -> Result<&'p Path> {
    // A path that names no file yet is no input: one lookup, not one an input (a tile
    // pyramid asks this for every tile).
    gamedata_render::files::refuse_inputs(path, inputs, std::fs::metadata(path).is_ok())?;
    Ok(folder_of(path))
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

/// Writes `bytes` to `path` as [`write_file`] does.
pub(crate) fn write_bytes(path: &Path, inputs: &[&Path], bytes: &[u8]) -> Result<()> {
    write_file(path, inputs, |w| Ok(w.write_all(bytes)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::bail;

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary_file() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let target = dir.path().join("out.png");
        std::fs::write(&target, b"old").expect("the old file");
        let result = write_file(&target, &[], |w| {
            w.write_all(b"half of the new")?;
            bail!("the encoder failed")
        });
        assert!(result.is_err());
        assert_eq!(std::fs::read(&target).expect("still there"), b"old");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("the folder")
            .map(|e| e.expect("an entry").file_name())
            .collect();
        assert_eq!(names, ["out.png"]);
    }

    #[cfg(unix)]
    #[test]
    fn written_files_have_an_ordinary_mode_not_a_private_one() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("a temporary folder");
        let target = dir.path().join("out.bin");
        write_bytes(&target, &[], b"data").expect("written");
        let mode = |p: &Path| std::fs::metadata(p).expect("there").permissions().mode() & 0o777;
        // 0666 less the umask, as a file made by std::fs::write.
        let plain = dir.path().join("plain.bin");
        std::fs::write(&plain, b"data").expect("written");
        assert_eq!(mode(&target), mode(&plain));

        write_bytes(&target, &[], b"new").expect("a whole write");
        assert_eq!(std::fs::read(&target).expect("written"), b"new");
    }

    #[test]
    fn an_input_is_never_the_output() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let input = dir.path().join("LEVEL.WWD");
        std::fs::write(&input, b"level").expect("the input");
        let same = dir.path().join(".").join("LEVEL.WWD");
        let err = write_bytes(&same, &[&input], b"other").expect_err("refused");
        assert!(
            err.to_string().contains("is one of this command's inputs"),
            "{err}"
        );
        assert_eq!(std::fs::read(&input).expect("untouched"), b"level");
    }
}

/// A file a command wrote, as its `--json` report gives it.
#[derive(serde::Serialize, Debug, Clone)]
pub(crate) struct Written {
    /// The path as given (or made from the given folder).
    pub(crate) path: String,
    /// Its length in bytes, read back from the file system.
    pub(crate) bytes: u64,
}

impl Written {
    /// `path`, just written, with its length.
    pub(crate) fn of(path: &Path) -> Result<Self> {
        let bytes = std::fs::metadata(path)
            .with_context(|| format!("cannot read the length of {}", path.display()))?
            .len();
        Ok(Written {
            path: path.display().to_string(),
            bytes,
        })
    }
}

/// Milliseconds since `start`, for the `elapsed_ms` of the reports.
pub(crate) fn elapsed_ms(start: std::time::Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1000.0
}

/// Writes `bytes` to `path` whole or not at all, refusing a `path` that is one of `inputs`,
/// without waiting for the disk ([`gamedata_render::files::write_small`]): for the many
/// small files of a tile pyramid or an export.
pub(crate) fn write_small(path: &Path, inputs: &[&Path], bytes: &[u8]) -> Result<()> {
    Ok(gamedata_render::files::write_small(path, inputs, bytes)?)
}
