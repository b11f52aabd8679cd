//! The side files a client folder may hold beside a picture set: verdata.mul's patches,
//! hues.mul and the `.def` redirect lists (gump.def, TexTerr.def), each found in any
//! letter case.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use mul_core::{HuesFile, VerdataContents, VerdataFile};

use super::map_single;

/// verdata.mul in `dir` (any letter case), mapped, unless `skip`: its path and the owner;
/// `None` when the folder has none.
pub(super) fn folder_verdata(dir: &Path, skip: bool) -> Result<Option<(PathBuf, VerdataFile)>> {
    if skip {
        return Ok(None);
    }
    let Ok(path) = gamedata_io::find_file_ignoring_case(dir, "verdata.mul") else {
        return Ok(None);
    };
    let owned = map_single::<VerdataContents>(&path)?;
    Ok(Some((path, owned)))
}

/// hues.mul in `dir`, mapped, when `hue` asks for one: its path and the owner.
pub(super) fn folder_hues(
    dir: &Path,
    hue: Option<u16>,
) -> Result<(Option<PathBuf>, Option<HuesFile>)> {
    let Some(_) = hue else {
        return Ok((None, None));
    };
    let path = gamedata_io::find_file_ignoring_case(dir, "hues.mul")
        .context("--hue needs hues.mul in the folder")?;
    let owned = map_single::<mul_core::HuesContents>(&path)?;
    Ok((Some(path), Some(owned)))
}

/// The largest side file read whole: a .def file, mobtypes.txt (real ones are a few
/// kilobytes); mul-core's [`mul_core::anim::MAX_MOBTYPES_LEN`].
pub(super) const MAX_DEF_BYTES: u64 = mul_core::anim::MAX_MOBTYPES_LEN;

/// The .def file `name` (gump.def, TexTerr.def) in `dir` in any letter case, read whole,
/// unless `skip`: its path and bytes; `None` when the folder has none. A file longer than
/// 16 MiB is an error ([`read_side_file`]).
pub(super) fn folder_def(dir: &Path, name: &str, skip: bool) -> Result<Option<(PathBuf, Vec<u8>)>> {
    if skip {
        return Ok(None);
    }
    let Ok(path) = gamedata_io::find_file_ignoring_case(dir, name) else {
        return Ok(None);
    };
    let bytes = read_side_file(&path, name)?;
    Ok(Some((path, bytes)))
}

/// The side file at `path` (named `name` in the error), read whole within
/// [`MAX_DEF_BYTES`]: a longer one is an error; the bound holds on the read itself, so a
/// file that grows while it is read cannot pass it.
pub(super) fn read_side_file(path: &Path, name: &str) -> Result<Vec<u8>> {
    let reading = || format!("reading {}", path.display());
    let file = std::fs::File::open(path).with_context(reading)?;
    let mut bytes = Vec::new();
    file.take(MAX_DEF_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(reading)?;
    if bytes.len() as u64 > MAX_DEF_BYTES {
        bail!(
            "{}: more than the {MAX_DEF_BYTES} bytes a {name} may hold here",
            path.display()
        );
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_def_file_is_found_in_any_case_skipped_on_request_and_bounded() {
        let dir = tempfile::tempdir().unwrap();
        assert!(folder_def(dir.path(), "gump.def", false).unwrap().is_none());
        std::fs::write(dir.path().join("GUMP.DEF"), b"1 {2} 0\n").unwrap();
        let (path, bytes) = folder_def(dir.path(), "gump.def", false).unwrap().unwrap();
        assert_eq!(path, dir.path().join("GUMP.DEF"));
        assert_eq!(bytes, b"1 {2} 0\n");
        assert!(folder_def(dir.path(), "gump.def", true).unwrap().is_none());

        // Exactly the bound is read; one byte more is refused (a sparse file).
        let at = dir.path().join("TexTerr.def");
        let file = std::fs::File::create(&at).unwrap();
        file.set_len(MAX_DEF_BYTES).unwrap();
        let (_, bytes) = folder_def(dir.path(), "texterr.def", false)
            .unwrap()
            .unwrap();
        assert_eq!(bytes.len() as u64, MAX_DEF_BYTES);
        file.set_len(MAX_DEF_BYTES + 1).unwrap();
        let error = folder_def(dir.path(), "texterr.def", false).unwrap_err();
        assert!(format!("{error:#}").contains("more than the 16777216 bytes a texterr.def"));
    }
}
