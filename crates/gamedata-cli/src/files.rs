//! Files the command writes: whole or not at all, and never over one of its inputs.
//!
//! The bytes go to a temporary file in the target's folder, which is renamed over the target
//! once complete (`tempfile`), so a failed or interrupted write leaves the old file as it
//! was. A target that is one of the command's inputs (the same file after resolving links)
//! is refused before anything is written.

use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{Context, Result, bail};

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
    refuse_inputs(path, inputs, std::fs::metadata(path).is_ok())?;
    Ok(folder_of(path))
}

/// Refuses a `path` that is one of `inputs`; `exists` says whether it names a file at all
/// (when not, it is none of them).
fn refuse_inputs(path: &Path, inputs: &[&Path], exists: bool) -> Result<()> {
    if let Some(input) = inputs.iter().find(|input| exists && same_file(path, input)) {
        bail!(
            "{} is one of this command's inputs ({}): choose another output",
            path.display(),
            input.display()
        );
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

/// Writes `bytes` to `path` as [`write_file`] does.
pub(crate) fn write_bytes(path: &Path, inputs: &[&Path], bytes: &[u8]) -> Result<()> {
    write_file(path, inputs, |w| Ok(w.write_all(bytes)?))
}

/// True if both paths name one existing file (after resolving links): on Unix the same
/// device and inode, elsewhere the same canonical path.
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

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

    #[cfg(unix)]
    #[test]
    fn an_input_under_another_name_is_never_the_output() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let input = dir.path().join("map0.mul");
        std::fs::write(&input, b"map").expect("the input");
        // A hard link and a symbolic link: other names of the same file.
        let hard = dir.path().join("hard.png");
        std::fs::hard_link(&input, &hard).expect("a hard link");
        let soft = dir.path().join("soft.png");
        std::os::unix::fs::symlink(&input, &soft).expect("a symbolic link");
        for path in [&hard, &soft] {
            let err = write_small(path, &[&input], b"tile").expect_err("refused");
            assert!(err.to_string().contains("inputs"), "{err}");
        }
        assert_eq!(std::fs::read(&input).expect("untouched"), b"map");
        // A new name is written.
        write_small(&dir.path().join("new.png"), &[&input], b"tile").expect("written");
    }

    /// What may lie at a tile's path already: a dangling symbolic link (replaced by the
    /// tile, never followed: its target is not made), a folder (an error, the folder
    /// kept), and a symbolic link to a file that is no input (replaced, the file kept).
    #[cfg(unix)]
    #[test]
    fn what_lies_at_a_small_file_s_path_is_replaced_or_refused_never_followed() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let dangling = dir.path().join("0.png");
        let target = dir.path().join("elsewhere.png");
        std::os::unix::fs::symlink(&target, &dangling).expect("a symbolic link");
        write_small(&dangling, &[], b"tile").expect("written");
        assert!(!target.exists(), "the link was not followed");
        assert!(
            !std::fs::symlink_metadata(&dangling)
                .expect("there")
                .is_symlink()
        );
        assert_eq!(std::fs::read(&dangling).expect("there"), b"tile");
        let folder = dir.path().join("1.png");
        std::fs::create_dir(&folder).expect("a folder");
        assert!(write_small(&folder, &[], b"tile").is_err());
        assert!(folder.is_dir());
        let other = dir.path().join("other.bin");
        std::fs::write(&other, b"keep").expect("written");
        let link = dir.path().join("2.png");
        std::os::unix::fs::symlink(&other, &link).expect("a symbolic link");
        write_small(&link, &[], b"tile").expect("written");
        assert_eq!(std::fs::read(&other).expect("there"), b"keep");
        assert_eq!(std::fs::read(&link).expect("there"), b"tile");
        // Nothing left behind: the three names, the folder and the other file.
        assert_eq!(std::fs::read_dir(dir.path()).expect("listed").count(), 4);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_new_small_file_is_linked_whole_never_over_another() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("a temporary folder");
        let tile = dir.path().join("0.png");
        assert!(link_whole(dir.path(), &tile, b"tile").expect("written"));
        assert_eq!(std::fs::read(&tile).expect("there"), b"tile");
        // As any new file: 0666 less the umask.
        let plain = dir.path().join("plain");
        std::fs::write(&plain, b"").expect("written");
        let mode = |p: &Path| std::fs::metadata(p).expect("there").permissions().mode();
        assert_eq!(mode(&tile), mode(&plain));
        // A name taken is left as it is, for the caller's rename.
        assert!(!link_whole(dir.path(), &tile, b"other").expect("not linked"));
        assert_eq!(std::fs::read(&tile).expect("there"), b"tile");
        // Nothing else left in the folder.
        let mut names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("listed")
            .map(|e| e.expect("an entry").file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["0.png", "plain"]);
        // write_small goes on by the rename there.
        write_small(&tile, &[], b"other").expect("written");
        assert_eq!(std::fs::read(&tile).expect("there"), b"other");
    }

    #[test]
    fn a_small_file_holding_the_bytes_already_is_left_as_it_is() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let tile = dir.path().join("0.png");
        write_small(&tile, &[], b"tile").expect("written");
        let old = std::fs::metadata(&tile)
            .expect("there")
            .modified()
            .expect("a time");
        std::thread::sleep(std::time::Duration::from_millis(20));
        write_small(&tile, &[], b"tile").expect("the same bytes");
        let kept = std::fs::metadata(&tile)
            .expect("there")
            .modified()
            .expect("a time");
        assert_eq!(kept, old, "not written again");
        // Other bytes of the same length, and another length, are written.
        write_small(&tile, &[], b"TILE").expect("written");
        assert_eq!(std::fs::read(&tile).expect("there"), b"TILE");
        write_small(&tile, &[], b"tiles").expect("written");
        assert_eq!(std::fs::read(&tile).expect("there"), b"tiles");
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
/// without waiting for the disk: for the many small files of a tile pyramid or an export,
/// where a sync each would cost more than the files.
///
/// A new file is written, on Linux, into an unnamed file of its folder (`O_TMPFILE`) and
/// linked under its name once whole: one name made in the folder, where a temporary file
/// takes two (its own, then the rename). Elsewhere, where the folder's file system has no
/// unnamed files, and over a file there already, a temporary file beside it is renamed.
/// A file that already holds exactly `bytes` is left as it is (a pyramid made again
/// rewrites only the tiles that changed: replacing a file costs the file system more than
/// writing a new one, and a copy by size and time sends only those).
pub(crate) fn write_small(path: &Path, inputs: &[&Path], bytes: &[u8]) -> Result<()> {
    let existing = std::fs::metadata(path).ok();
    refuse_inputs(path, inputs, existing.is_some())?;
    let folder = folder_of(path);
    if let Some(old) = existing {
        let same_length =
            old.is_file() && old.len() == u64::try_from(bytes.len()).unwrap_or(u64::MAX);
        if same_length && std::fs::read(path).is_ok_and(|old| old == bytes) {
            return Ok(());
        }
    } else {
        #[cfg(target_os = "linux")]
        if link_whole(folder, path, bytes)
            .with_context(|| format!("cannot write {}", path.display()))?
        {
            return Ok(());
        }
    }
    let mut temp = temp_builder()
        .tempfile_in(folder)
        .with_context(|| format!("cannot create a file in {}", folder.display()))?;
    temp.write_all(bytes)
        .with_context(|| format!("cannot write {}", path.display()))?;
    temp.persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("cannot write {}", path.display()))?;
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
