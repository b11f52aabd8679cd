//! A level opened as every `wwd` command opens it, its path named in the errors.

use std::path::Path;

use anyhow::{Context, Result};
use wap_core::{Level, LevelFile};

/// Reads and opens a level within the default limits.
pub(crate) fn open(path: &Path) -> Result<LevelFile> {
    LevelFile::open(path).with_context(|| format!("reading {}", path.display()))
}

/// The level view, with the file named in the error.
pub(crate) fn view<'a>(file: &'a LevelFile, path: &Path) -> Result<Level<'a>> {
    file.view()
        .with_context(|| format!("reading {}", path.display()))
}
