//! Where a level's pictures come from: a REZ archive (held whole, or its tables alone with
//! each file read by its range, [`RangedArchive`]), or a folder of files extracted from
//! one (`LEVEL1/TILES/ACTION/012.PID`, any letter case), as modders keep custom tiles. All
//! answer the same paths ([`ImageSource::file`]); [`ImageIndex`] finds a source's folders
//! by path and by image-set key and lists a folder's images by frame number
//! ([`ImageIndex::frames`]); [`ImageNames`] says which folder a plane's tile set or an
//! object's image set is (`docs/formats/wap32.md`, "Levels").
//!
//! Names are resolved once: [`ImageSource::index`] walks the source's folders a single time
//! (each archive directory's table, each disk folder after resolving links, read once) and
//! keeps a 64-bit keyed hash of every folder's path and image-set key, so that each lookup
//! costs one hash of the name asked for and a check of the one folder found, whatever the
//! number of folders, of sets looked up, or of ways to cut a key at `_`.

use std::borrow::Cow;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use gamedata_io::{FileData, FileError, Limits};

use crate::error::Result;
use crate::rez::archive::{RezFile, RezFileEntry};
use crate::rez::ranged::RezTables;
use crate::wwd::header::Header;

mod anis;
mod frames;
mod index;

pub use anis::{AniId, Animations};
pub use frames::{Frames, frame_number};
pub use index::{FolderId, ImageIndex};

/// A REZ archive or a folder of extracted files.
#[derive(Debug)]
pub enum ImageSource {
    /// An archive, read or mapped.
    Archive(RezFile),
    /// An archive whose header and directory tables alone are held, each file read by
    /// its range when wanted (a web page's archive, never read whole).
    Tables(RangedArchive),
    /// A folder whose tree mirrors an archive's.
    Folder(PathBuf),
}

/// Reads ranges of a file that is not held whole: a web page's `Blob.slice`, a remote
/// file. Shared by the threads that draw, so `Send + Sync`.
pub trait ReadRange: Send + Sync {
    /// `length` bytes at `offset`.
    ///
    /// Returns `Err` when they cannot be read (past the file's end, or the reader fails).
    fn read_range(&self, offset: u64, length: u32) -> std::result::Result<Vec<u8>, FileError>;
}

/// An archive's tables ([`RezTables`], read by ranges with
/// [`RezFetch`](crate::RezFetch)) and the reader of its files' ranges.
pub struct RangedArchive {
    tables: Arc<RezTables>,
    read: Box<dyn ReadRange>,
}

impl std::fmt::Debug for RangedArchive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RangedArchive")
            .field("len", &self.tables.len())
            .field("tables", &self.tables.table_count())
            .finish()
    }
}

impl RangedArchive {
    /// The archive whose tables are `tables`, its files read by `read`.
    pub fn new(tables: Arc<RezTables>, read: Box<dyn ReadRange>) -> Self {
        RangedArchive { tables, read }
    }

    /// The tables.
    pub fn tables(&self) -> &RezTables {
        &self.tables
    }

    /// The bytes of `file`, an entry of the tables' view, read by its range (at most
    /// `limits.max_stream_bytes`, as a folder's file that is not a regular one).
    ///
    /// Returns `Err` ([`FileError::Io`], naming the file and both lengths) past that, or
    /// as the reader.
    pub fn read(&self, file: &RezFileEntry<'_>, limits: &Limits) -> Result<Vec<u8>> {
        if u64::from(file.size) > limits.max_stream_bytes {
            let why = format!(
                "{} bytes at offset {}, more than Limits::max_stream_bytes ({})",
                file.size, file.offset, limits.max_stream_bytes
            );
            return Err(FileError::io(file.file_name(), std::io::Error::other(why)).into());
        }
        Ok(self.read.read_range(u64::from(file.offset), file.size)?)
    }
}

impl ImageSource {
    /// The folder at `path`, or the archive there opened by `archive`: read
    /// (`|p| RezFile::open(p)`) or mapped (`|p| unsafe { RezFile::map(p) }`, under
    /// [`RezFile::map`]'s contract).
    ///
    /// ```no_run
    /// use wap_core::{ImageSource, RezFile};
    ///
    /// let source = ImageSource::at("CLAW.REZ", |p| RezFile::open(p))?;
    /// # Ok::<(), wap_core::Error>(())
    /// ```
    ///
    /// Returns `Err` as `archive` does for a file.
    pub fn at(
        path: impl AsRef<Path>,
        archive: impl FnOnce(&Path) -> Result<RezFile>,
    ) -> Result<Self> {
        let path = path.as_ref();
        if path.is_dir() {
            return Ok(ImageSource::Folder(path.to_path_buf()));
        }
        Ok(ImageSource::Archive(archive(path)?))
    }

    /// The bytes of the file at `path` (`/` or `\` separated, any letter case): borrowed
    /// from an archive held whole, read by its range from an archive's tables
    /// ([`RangedArchive::read`]), read from a folder (only a regular file, links followed:
    /// a pipe or a device inside a folder of game files is an error, never waited on);
    /// `None` when there is no such file.
    ///
    /// Returns `Err` when a directory of the archive on the way cannot be read, the range
    /// cannot be read, or the folder's file is not a regular one or cannot be read.
    pub fn file(&self, path: &str) -> Result<Option<Cow<'_, [u8]>>> {
        match self {
            ImageSource::Archive(archive) => {
                Ok(archive.rez().file(path)?.map(|f| Cow::Borrowed(f.bytes)))
            }
            ImageSource::Tables(ranged) => match ranged.tables.view().file(path)? {
                Some(file) => Ok(Some(Cow::Owned(ranged.read(&file, &Limits::default())?))),
                None => Ok(None),
            },
            ImageSource::Folder(root) => {
                let Some(found) = find_path(root, path)? else {
                    return Ok(None);
                };
                gamedata_io::regular_file_len(&found)?;
                let data = FileData::read_with(&found, &Limits::default())?;
                Ok(Some(Cow::Owned(data.into_vec())))
            }
        }
    }

    /// The length in bytes of the file at `path` (as [`ImageSource::file`] finds it),
    /// without reading it; `None` when there is no such file.
    ///
    /// Returns `Err` as [`ImageSource::file`].
    pub fn file_len(&self, path: &str) -> Result<Option<u64>> {
        match self {
            ImageSource::Archive(archive) => {
                Ok(archive.rez().file(path)?.map(|f| u64::from(f.size)))
            }
            ImageSource::Tables(ranged) => {
                Ok(ranged.tables.view().file(path)?.map(|f| u64::from(f.size)))
            }
            ImageSource::Folder(root) => match find_path(root, path)? {
                Some(found) => Ok(Some(gamedata_io::regular_file_len(&found)?)),
                None => Ok(None),
            },
        }
    }
}

/// How a level names its pictures, from its header: the tile sets' folder, the palette and
/// the image-set prefixes (`docs/formats/wap32.md`, "Levels"; libwap32's `wwd2html`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageNames {
    /// The planes' tile sets' folder, `/`-separated, without a leading slash
    /// (`LEVEL1/TILES`).
    pub tiles: String,
    /// The palette's path (`LEVEL1/PALETTES/MAIN.PAL`).
    pub palette: String,
    /// Prefix and the folder key it stands for, `_`-joined (`LEVEL`, `LEVEL1_IMAGES`).
    pub prefixes: Vec<(String, String)>,
}

/// A stored path as `/`-separated text without leading or trailing slashes.
fn clean_path(bytes: &[u8]) -> String {
    let text = gamedata_io::latin1(bytes);
    let parts: Vec<&str> = text.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
    parts.join("/")
}

impl ImageNames {
    /// The names `header` gives.
    pub fn of(header: &Header<'_>) -> Self {
        let prefixes = header
            .image_set_prefixes()
            .into_iter()
            .filter(|(p, s)| !p.is_empty() && !s.is_empty())
            .map(|(p, s)| {
                let prefix = gamedata_io::latin1(p).into_owned();
                (prefix, clean_path(s).replace('/', "_"))
            })
            .collect();
        ImageNames {
            tiles: clean_path(header.image_dir()),
            palette: clean_path(header.palette_path()),
            prefixes,
        }
    }

    /// The folder of a plane's tile set named `set` (`ACTION` gives `LEVEL1/TILES/ACTION`).
    pub fn tile_folder(&self, set: &[u8]) -> String {
        let set = clean_path(set);
        if self.tiles.is_empty() {
            set
        } else {
            format!("{}/{set}", self.tiles)
        }
    }

    /// The image-set key of an object's image set (`LEVEL_OFFICER` gives
    /// `LEVEL1_IMAGES_OFFICER`): the first prefix it starts with replaced by the folder it
    /// stands for, else the tile sets' folder in front ([`ImageIndex::find_set`] finds
    /// the folder).
    pub fn object_set(&self, image_set: &[u8]) -> String {
        let set = gamedata_io::latin1(image_set);
        for (prefix, folder) in &self.prefixes {
            if let Some(rest) = set.strip_prefix(prefix.as_str()) {
                return format!("{folder}{rest}");
            }
        }
        format!("{}_{set}", self.tiles.replace('/', "_"))
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
        // A folder on the way that is not there, or is a file: the path names nothing.
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            return Ok(None);
        }
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

/// The file at `path` under `root`: each component matched in any letter case; `None` when
/// there is none, or a component is `.` or `..` (nothing outside `root` is read). A path
/// that is not a folder on the way, or not a file (a folder) at the end, is `None`; a
/// FIFO or device at the end is read as a stream.
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
    Ok((at.exists() && !at.is_dir()).then_some(at))
}
