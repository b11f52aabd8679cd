//! Where a level's pictures come from: a REZ archive, or a folder of files extracted from
//! one (`LEVEL1/TILES/ACTION/012.PID`, any letter case), as modders keep custom tiles. Both
//! answer the same paths ([`ImageSource::file`]) and list a folder's images by frame
//! number ([`ImageSource::frames`]); [`ImageNames`] says which folder a plane's tile set or
//! an object's image set is (`docs/formats/wap32.md`, "Levels").

use std::borrow::Cow;
use std::fs;
use std::path::{Path, PathBuf};

use gamedata_io::FileError;

use crate::error::Result;
use crate::header::Header;
use crate::level_file::LevelOptions;
use crate::rez::{RezArchive, RezEntry};

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

/// The images of a folder, by frame number: the number in each file's name (the first run
/// of digits: `FRAME007.PID` and `007.PID` are frame 7), the first file in the folder's
/// order for two of one number; and the folder's first image, which frame -1 means.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Frames {
    /// Frame number and the file's path, in the folder's order (an archive's stored order,
    /// a folder's sorted by name); files without a number have none.
    pub files: Vec<(Option<u32>, String)>,
}

impl Frames {
    /// The path of frame `i`: the first file numbered `i`, or for -1 the first file.
    pub fn get(&self, i: i64) -> Option<&str> {
        if i == -1 {
            return self.files.first().map(|(_, p)| p.as_str());
        }
        let i = u32::try_from(i).ok()?;
        self.files
            .iter()
            .find(|(n, _)| *n == Some(i))
            .map(|(_, p)| p.as_str())
    }
}

/// The number in an image file's name: its first run of ASCII digits (at most 9 of them).
pub fn frame_number(name: &str) -> Option<u32> {
    let start = name.find(|c: char| c.is_ascii_digit())?;
    let digits: &str = name.get(start..)?;
    let end = digits
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(digits.len());
    digits.get(..end.min(9))?.parse().ok()
}

impl ImageSource {
    /// The `.PID` images of the folder at `path` (any case; `None` when there is no such
    /// folder), by frame number.
    ///
    /// Returns `Err` as [`ImageSource::file`].
    pub fn frames(&self, path: &str) -> Result<Option<Frames>> {
        let is_pid = |name: &str| {
            name.rsplit_once('.')
                .is_some_and(|(_, e)| e.eq_ignore_ascii_case("PID"))
        };
        let mut files = Vec::new();
        match self {
            ImageSource::Archive(archive) => {
                let rez = archive.rez();
                let Some(RezEntry::Dir(dir)) = rez.find(path)? else {
                    return Ok(None);
                };
                for entry in rez.entries(&dir) {
                    if let RezEntry::File(f) = entry? {
                        let name = f.file_name();
                        if is_pid(&name) {
                            files.push((frame_number(&name), format!("{path}/{name}")));
                        }
                    }
                }
            }
            ImageSource::Folder(root) => {
                let Some(dir) = find_path_kind(root, path, false)? else {
                    return Ok(None);
                };
                let listing = fs::read_dir(&dir).map_err(|e| FileError::io(&dir, e))?;
                let mut names = Vec::new();
                for entry in listing {
                    let entry = entry.map_err(|e| FileError::io(&dir, e))?;
                    let name = entry.file_name().to_string_lossy().into_owned();
                    if is_pid(&name) && entry.path().is_file() {
                        names.push(name);
                    }
                }
                names.sort();
                files = names
                    .into_iter()
                    .map(|n| (frame_number(&n), format!("{path}/{n}")))
                    .collect();
            }
        }
        Ok(Some(Frames { files }))
    }

    /// The folder an image-set key names (`LEVEL1_IMAGES_OFFICER`: folder names joined by
    /// `_`, where a folder's own name may hold `_`, as `ARROWSIGN_DOWN`), found by trying
    /// the folders of the source; its path with `/`, or `None`.
    ///
    /// Returns `Err` when a directory of an archive cannot be read.
    pub fn find_set(&self, key: &str) -> Result<Option<String>> {
        let parts: Vec<&str> = key.split('_').collect();
        self.find_set_from(String::new(), &parts, 0)
    }

    /// [`ImageSource::find_set`] from folder `at`, `parts` still to match; depth-bounded by
    /// the parts.
    fn find_set_from(&self, at: String, parts: &[&str], depth: usize) -> Result<Option<String>> {
        if parts.is_empty() {
            return Ok(Some(at));
        }
        if depth > 32 {
            return Ok(None);
        }
        for take in 1..=parts.len() {
            let name = parts.get(..take).unwrap_or_default().join("_");
            let candidate = if at.is_empty() {
                name
            } else {
                format!("{at}/{name}")
            };
            if self.is_folder(&candidate)? {
                let rest = parts.get(take..).unwrap_or_default();
                if let Some(found) = self.find_set_from(candidate, rest, depth.saturating_add(1))? {
                    return Ok(Some(found));
                }
            }
        }
        Ok(None)
    }

    /// Whether `path` is a folder of the source.
    fn is_folder(&self, path: &str) -> Result<bool> {
        Ok(match self {
            ImageSource::Archive(archive) => {
                matches!(archive.rez().find(path)?, Some(RezEntry::Dir(_)))
            }
            ImageSource::Folder(root) => find_path_kind(root, path, false)?.is_some(),
        })
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
    /// stands for, else the tile sets' folder in front ([`ImageSource::find_set`] finds
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

/// The file at `path` under `root` (see [`find_path_kind`]).
fn find_path(root: &Path, path: &str) -> Result<Option<PathBuf>> {
    find_path_kind(root, path, true)
}

/// The file (`file`) or folder at `path` under `root`, each component matched in any
/// letter case; `None` when there is none, or a component is `.` or `..` (nothing outside
/// `root` is read).
fn find_path_kind(root: &Path, path: &str, file: bool) -> Result<Option<PathBuf>> {
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
    let kind = if file { at.is_file() } else { at.is_dir() };
    Ok(kind.then_some(at))
}
