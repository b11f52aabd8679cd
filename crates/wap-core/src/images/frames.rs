//! A folder's images by frame number ([`Frames`]), read through an [`ImageIndex`].

use std::borrow::Cow;
use std::fs;
use std::path::{Path, PathBuf};

use gamedata_io::{FileData, FileError};

use super::{FolderId, ImageIndex, ImageSource};
use crate::error::Result;
use crate::rez::archive::{RezDir, RezEntry, RezFileEntry};

/// One image of a folder: its frame number and where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FrameFile {
    number: Option<u32>,
    /// The entry's offset in the archive, or the name's range in [`Frames::names`].
    at: u32,
    len: u32,
}

/// The `.PID` images of one folder, by frame number, as the WAP32 engine numbers them
/// (`docs/formats/wap32.md`, "Levels"; sushi-shi/gruntz-decomp
/// `src/Wwd/WwdGameObject.cpp`, `CDDrawWorker::BuildFramesFromSymTab` and `InsertFrame`):
/// each image is the frame of the number its name holds ([`frame_number`]: `FRAME007.PID`
/// and `007.PID` are frame 7, a name without digits frame 0); of two images of one number
/// the first in the folder's order is the frame, and when it cannot be loaded the next
/// (the caller tries [`Frames::candidates`] in order); frame -1 is the lowest number loaded
/// (`CWwdGameObjectA::ApplyName`). The folder's order is an archive's stored order, a disk
/// folder's name order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Frames {
    folder: Option<FolderId>,
    /// The folder's table, for an archive.
    table: (u32, u32),
    files: Vec<FrameFile>,
    /// (number, position in `files`) of every numbered image, sorted: by number, then in
    /// the folder's order.
    by_number: Vec<(u32, u32)>,
    /// A disk folder's file names, one after another.
    names: String,
}

impl Frames {
    /// Images in the folder.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// True when the folder holds no image.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The image that frame `i` draws when every image loads: the first numbered `i` in the
    /// folder's order, or for -1 the first of the lowest number; its position in the
    /// folder's images. `None` for a number no image holds (the engine draws nothing).
    pub fn get(&self, i: i64) -> Option<usize> {
        self.candidates(i).next()
    }

    /// The images frame `i` may draw, in the order the engine tries them: those numbered
    /// `i` in the folder's order; for -1 every numbered image, by number and then in the
    /// folder's order (the lowest number that loads is frame -1). The first that loads is
    /// the frame.
    pub fn candidates(&self, i: i64) -> impl Iterator<Item = usize> + '_ {
        let range = if i == -1 {
            0..self.by_number.len()
        } else {
            match u32::try_from(i) {
                Ok(n) => {
                    let start = self.by_number.partition_point(|(m, _)| *m < n);
                    let end = self.by_number.partition_point(|(m, _)| *m <= n);
                    start..end
                }
                Err(_) => 0..0,
            }
        };
        self.by_number
            .get(range)
            .unwrap_or_default()
            .iter()
            .map(|(_, p)| *p as usize)
    }

    /// Frames numbered `numbers`, in that order, with no folder behind them: the set an
    /// animation plays on ([`crate::Ani::play`]) when the caller knows its numbers; no
    /// image is found through it.
    pub fn numbered(numbers: &[u32]) -> Frames {
        let mut by_number: Vec<(u32, u32)> = (0u32..).zip(numbers).map(|(i, n)| (*n, i)).collect();
        by_number.sort_unstable();
        Frames {
            by_number,
            ..Frames::default()
        }
    }

    /// The lowest frame number an image holds (`None` for a folder without one).
    pub fn lowest(&self) -> Option<u32> {
        self.by_number.first().map(|(n, _)| *n)
    }

    /// The highest frame number an image holds (`None` for a folder without one).
    pub fn highest(&self) -> Option<u32> {
        self.by_number.last().map(|(n, _)| *n)
    }

    /// The frame number of image `i` (`None` for a name whose number is past 2^31 - 1).
    pub fn number(&self, i: usize) -> Option<u32> {
        self.files.get(i)?.number
    }
}

/// The frame number of an image file's name, as the engine reads it (`atoi` from the
/// first ASCII digit on; gruntz-decomp `src/Wwd/WwdGameObject.cpp`,
/// `BuildFramesFromSymTab`): the first run of digits, 0 for a name without digits.
/// `None` for a number past 2^31 - 1, which C's `atoi` leaves undefined (no game file has
/// one).
pub fn frame_number(name: &str) -> Option<u32> {
    let Some(start) = name.find(|c: char| c.is_ascii_digit()) else {
        return Some(0);
    };
    let digits: &str = name.get(start..)?;
    let end = digits
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(digits.len());
    let mut n: u32 = 0;
    for d in digits.get(..end)?.bytes() {
        n = n.checked_mul(10)?.checked_add(u32::from(d & 0x0f))?;
    }
    (n <= i32::MAX.unsigned_abs()).then_some(n)
}

/// The directory whose table is `table` (offset, size), for reading its entries.
fn table_dir(table: (u32, u32)) -> RezDir<'static> {
    RezDir {
        name: &[],
        offset: table.0,
        size: table.1,
        time: 0,
        at: 0,
    }
}

/// The device and inode of the file at `path` (after links), on Unix.
#[cfg(unix)]
fn identity(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

/// Files have no identity but their path elsewhere.
#[cfg(not(unix))]
fn identity(_: &Path) -> Option<(u64, u64)> {
    None
}

/// Whether `name` ends in `.PID` in any letter case.
fn is_pid(name: &str) -> bool {
    name.rsplit_once('.')
        .is_some_and(|(_, e)| e.eq_ignore_ascii_case("PID"))
}

impl<'s> ImageIndex<'s> {
    /// The `.PID` images of `folder` by frame number, its listing read once (the caller
    /// keeps it: [`Frames`] holds 16 bytes an image, and a disk folder's names).
    ///
    /// Returns `Err` when the folder cannot be read; entries of an archive directory after
    /// one that cannot be read are not listed.
    pub fn frames(&self, folder: FolderId) -> Result<Frames> {
        self.listing(folder, is_pid)
    }

    /// The files of `folder` whose names `wanted` takes, as [`ImageIndex::frames`] lists
    /// images.
    pub(super) fn listing(&self, folder: FolderId, wanted: fn(&str) -> bool) -> Result<Frames> {
        let mut frames = Frames {
            folder: Some(folder),
            ..Frames::default()
        };
        if self.folders.get(folder.0 as usize).is_none() {
            return Ok(frames);
        }
        match self.source {
            ImageSource::Archive(_) | ImageSource::Tables(_) => {
                let Some(rez) = self.rez() else {
                    return Ok(frames);
                };
                frames.table = self.table(folder.0);
                let max = usize::try_from(self.max_path_bytes).unwrap_or(usize::MAX);
                for entry in rez.entries(&table_dir(frames.table)) {
                    if let RezEntry::File(f) = entry? {
                        // A name past the path cap is no image a path can name.
                        if f.name.len() > max {
                            continue;
                        }
                        let name = f.file_name();
                        if wanted(&name) {
                            frames.files.push(FrameFile {
                                number: frame_number(&name),
                                at: u32::try_from(f.at).unwrap_or(u32::MAX),
                                len: 0,
                            });
                        }
                    }
                }
            }
            ImageSource::Folder(root) => {
                let dir = self.disk_path(root, folder);
                let listing = fs::read_dir(&dir).map_err(|e| FileError::io(&dir, e))?;
                let mut names = Vec::new();
                for entry in listing {
                    let entry = entry.map_err(|e| FileError::io(&dir, e))?;
                    let name = entry.file_name().to_string_lossy().into_owned();
                    if wanted(&name) && entry.path().is_file() {
                        names.push(name);
                    }
                }
                names.sort();
                for name in names {
                    let at = u32::try_from(frames.names.len()).unwrap_or(u32::MAX);
                    frames.names.push_str(&name);
                    frames.files.push(FrameFile {
                        number: frame_number(&name),
                        at,
                        len: u32::try_from(name.len()).unwrap_or(0),
                    });
                }
            }
        }
        let mut by_number: Vec<(u32, u32)> = frames
            .files
            .iter()
            .enumerate()
            .filter_map(|(i, f)| Some((f.number?, u32::try_from(i).ok()?)))
            .collect();
        by_number.sort_unstable();
        frames.by_number = by_number;
        Ok(frames)
    }

    /// The disk path of `folder` under `root`.
    fn disk_path(&self, root: &Path, folder: FolderId) -> PathBuf {
        self.chain(folder.0)
            .iter()
            .fold(root.to_path_buf(), |p, name| p.join(name.as_ref()))
    }

    /// The path of image `i` of `frames` (`LEVEL1/TILES/ACTION/012.PID`), for reports.
    pub fn image_path(&self, frames: &Frames, i: usize) -> Option<String> {
        let file = frames.files.get(i)?;
        let folder = frames.folder.map(|f| self.path(f)).unwrap_or_default();
        let name = match self.source {
            ImageSource::Archive(_) | ImageSource::Tables(_) => {
                self.archive_file(frames, file)?.file_name()
            }
            ImageSource::Folder(_) => {
                let range = file.at as usize..(file.at as usize).saturating_add(file.len as usize);
                frames.names.get(range)?.to_owned()
            }
        };
        Some(if folder.is_empty() {
            name
        } else {
            format!("{folder}/{name}")
        })
    }

    /// The archive entry of `file`.
    fn archive_file(&self, frames: &Frames, file: &FrameFile) -> Option<RezFileEntry<'s>> {
        match self
            .rez()?
            .entry_at(&table_dir(frames.table), file.at as usize)
        {
            Ok(Some(RezEntry::File(f))) => Some(f),
            _ => None,
        }
    }

    /// What makes image `i` of `frames` the same file as another: its device and inode
    /// for a disk folder's file (links and hard links of one file are one image; on Unix),
    /// `None` for an archive's (their bytes' place tells) or elsewhere.
    pub fn image_identity(&self, frames: &Frames, i: usize) -> Option<(u64, u64)> {
        let ImageSource::Folder(root) = self.source else {
            return None;
        };
        let file = frames.files.get(i)?;
        let start = file.at as usize;
        let name = frames
            .names
            .get(start..start.saturating_add(file.len as usize))?;
        let path = self.disk_path(root, frames.folder?).join(name);
        identity(&path)
    }

    /// The bytes of image `i` of `frames`: borrowed from an archive held whole, read by
    /// its range from an archive's tables ([`RangedArchive::read`](super::RangedArchive::read),
    /// within the index's [`Limits::max_stream_bytes`](gamedata_io::Limits::max_stream_bytes)),
    /// read from a disk folder (a file that is not a regular one up to the same cap);
    /// `None` when there is no such image.
    ///
    /// Returns `Err` when a range or a disk file cannot be read.
    pub fn image(&self, frames: &Frames, i: usize) -> Result<Option<Cow<'s, [u8]>>> {
        let Some(file) = frames.files.get(i) else {
            return Ok(None);
        };
        match self.source {
            ImageSource::Archive(_) => Ok(self
                .archive_file(frames, file)
                .map(|f| Cow::Borrowed(f.bytes))),
            ImageSource::Tables(ranged) => match self.archive_file(frames, file) {
                Some(f) => Ok(Some(Cow::Owned(ranged.read(&f, &self.limits)?))),
                None => Ok(None),
            },
            ImageSource::Folder(root) => {
                let Some(folder) = frames.folder else {
                    return Ok(None);
                };
                let range = file.at as usize..(file.at as usize).saturating_add(file.len as usize);
                let Some(name) = frames.names.get(range) else {
                    return Ok(None);
                };
                let path = self.disk_path(root, folder).join(name);
                let data = FileData::read_with(&path, &self.limits)?;
                Ok(Some(Cow::Owned(data.into_vec())))
            }
        }
    }
}
