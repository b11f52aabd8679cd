//! A REZ archive's tree (Claw, Gruntz), its PID images previewed as `gamedata rez pid`
//! draws them and its ANI animations as `gamedata rez ani` lists them, with the images each
//! frame shows (`docs/formats/wap32.md`, "REZ archives", "ANI animations"). When first
//! browsed, the archive's header and directory tables are read by their ranges
//! ([`wap_core::RezFetch`]) and kept; each file is read by its range when shown. An
//! archive whose tables cost more than half its length (only a hostile one's do) is read
//! whole, under the page's cap.

use std::borrow::Cow;
use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use gamedata_render::RgbaImage;
use gamedata_render::wwd::pid_picture;
use wap_core::images::frame_number;
use wap_core::{
    Ani, ImageSource, Limits, Palette, Pid, RangedArchive, ReadRange, Rez, RezEntry, RezFetch,
    RezFile, RezFileEntry, RezOptions, RezTables,
};

use crate::files::File;

/// The page's REZ archive: the file, and its tables once read.
pub(crate) struct Archive {
    pub(crate) file: File,
    read: OnceCell<ArchiveRead>,
    /// Its key among the files a level's drawing reads ([`PageRange`]).
    key: u64,
}

thread_local! {
    /// The archives whose files a level's drawing reads by range, by key. The page's
    /// WebAssembly runs in one thread: a drawing reads in the thread that draws.
    static ARCHIVES: RefCell<(u64, HashMap<u64, File>)> = RefCell::default();
}

/// Reads ranges of a page's archive for a level's drawing (`Send + Sync`, as
/// `wap_core::ImageSource` is: it holds the archive's key, not the file, which is found
/// in this thread's [`ARCHIVES`]).
struct PageRange {
    key: u64,
    path: String,
}

impl ReadRange for PageRange {
    fn read_range(&self, offset: u64, length: u32) -> Result<Vec<u8>, gamedata_io::FileError> {
        let failed =
            |why: String| gamedata_io::FileError::io(&self.path, std::io::Error::other(why));
        let file = ARCHIVES
            .with(|a| a.borrow().1.get(&self.key).cloned())
            .ok_or_else(|| failed("the archive is no longer among the files given".into()))?;
        file.read_at(offset, length)
            .map_err(|e| failed(format!("{e:#}")))
    }
}

impl Drop for Archive {
    fn drop(&mut self) {
        ARCHIVES.with(|a| a.borrow_mut().1.remove(&self.key));
    }
}

/// What an archive was read as.
enum ArchiveRead {
    /// Its header and directory tables, by ranges.
    Tables(Arc<RezTables>),
    /// The whole archive (tables too scattered to read by ranges, or the file read whole
    /// already).
    Whole(RezFile),
}

impl Archive {
    /// The archive `file`, not read yet.
    pub(crate) fn new(file: File) -> Self {
        let key = ARCHIVES.with(|a| {
            let mut a = a.borrow_mut();
            a.0 = a.0.wrapping_add(1);
            let key = a.0;
            a.1.insert(key, file.clone());
            key
        });
        Archive {
            file,
            read: Default::default(),
            key,
        }
    }

    /// The archive as the source of a level's pictures: its tables read by ranges (each
    /// picture read by its range when drawn), else the whole archive.
    ///
    /// Returns `Err` as [`Archive::with_view`].
    pub(crate) fn image_source(&self) -> Result<ImageSource> {
        Ok(match self.read()? {
            ArchiveRead::Tables(tables) => ImageSource::Tables(RangedArchive::new(
                Arc::clone(tables),
                Box::new(PageRange {
                    key: self.key,
                    path: self.file.path.clone(),
                }),
            )),
            ArchiveRead::Whole(_) => ImageSource::Archive(
                RezFile::from_data(self.file.data()?, &RezOptions::default())
                    .with_context(|| format!("reading {}", self.file.path))?,
            ),
        })
    }

    /// The archive's tables, read the first time.
    fn read(&self) -> Result<&ArchiveRead> {
        if let Some(read) = self.read.get() {
            return Ok(read);
        }
        let read = self
            .read_tables()
            .with_context(|| format!("reading {}", self.file.path))?;
        Ok(self.read.get_or_init(|| read))
    }

    /// `f` run on the archive's view: its tables read by ranges the first time (kept), or
    /// the whole archive when it was read whole already or its tables are too scattered.
    ///
    /// Returns `Err` (a sentence naming the file) for an archive that cannot be read, or
    /// as `f`.
    fn with_view<T>(&self, f: impl FnOnce(&Rez<'_>) -> Result<T>) -> Result<T> {
        let doing = || format!("reading {}", self.file.path);
        let view = match self.read()? {
            ArchiveRead::Tables(tables) => tables.view(),
            ArchiveRead::Whole(whole) => whole.view().with_context(doing)?,
        };
        f(&view)
    }

    /// The header and tables read by ranges, or the whole archive.
    fn read_tables(&self) -> Result<ArchiveRead> {
        let options = RezOptions::default();
        if !self.file.is_loaded() {
            let mut fetch = RezFetch::new(self.file.size, &options);
            while let Some((offset, length)) = fetch.wanted() {
                fetch.give(self.file.read_at(offset, length)?);
            }
            if let Some(tables) = fetch.finish()? {
                return Ok(ArchiveRead::Tables(Arc::new(tables)));
            }
        }
        Ok(ArchiveRead::Whole(RezFile::from_data(
            self.file.data()?,
            &options,
        )?))
    }

    /// The bytes of `entry`, a file of `view`: borrowed from the whole archive, else read
    /// by its range.
    ///
    /// Returns `Err` as the page's read (naming the archive).
    fn bytes<'v>(&self, view: &Rez<'v>, entry: &RezFileEntry<'v>) -> Result<Cow<'v, [u8]>> {
        if view.is_whole() {
            return Ok(Cow::Borrowed(entry.bytes));
        }
        Ok(Cow::Owned(
            self.file.read_at(u64::from(entry.offset), entry.size)?,
        ))
    }
}

/// An entry of a directory of the archive.
#[derive(Debug, serde::Serialize)]
pub struct RezItem {
    /// Its name as the game names it (`FRAME001.PID`, `IMAGES`).
    pub name: String,
    /// Its path from the root, `/`-separated (`LEVEL1/IMAGES/OFFICER/FRAME001.PID`).
    pub path: String,
    /// True for a directory.
    pub dir: bool,
    /// A file's length in bytes (0 for a directory).
    pub size: u64,
}

/// An ANI animation as `rez ani --json` reports it, and the PIDs its frames show.
#[derive(Debug, serde::Serialize)]
pub struct AniInfo {
    /// Its path in the archive.
    pub path: String,
    /// The image set it names.
    pub image_set: String,
    /// Its frames.
    pub frame_count: u32,
    /// The sum of the frames' times.
    pub total_ms: u64,
    /// Each frame: the image number, its time and the sound it starts.
    pub frames: Vec<AniFrameInfo>,
    /// The folder the images are taken from: the animation's folder with its `ANIS`
    /// part read as `IMAGES` (`LEVEL1/ANIS/OFFICER` shows `LEVEL1/IMAGES/OFFICER`), when
    /// the archive has it.
    pub images: Option<String>,
    /// For each frame, the PID of that folder it shows: the first in the folder's stored
    /// order whose name holds the frame's number, as the engine numbers frames
    /// ([`wap_core::Frames`]); `None` where none does.
    pub pictures: Vec<Option<String>>,
}

/// One frame of an ANI.
#[derive(Debug, serde::Serialize)]
pub struct AniFrameInfo {
    /// The image number shown, in the image set.
    pub image: u16,
    /// How long it is shown.
    pub duration_ms: u16,
    /// The sound it starts.
    pub sound: Option<String>,
}

/// The entries of directory `dir` (`""` for the root) of the archive, in stored order.
///
/// Returns `Err` (a sentence) for a path that is no directory, or an entry that cannot be
/// read (the entries after it are not read).
pub(crate) fn list(archive: &Archive, dir: &str) -> Result<Vec<RezItem>> {
    let file = &archive.file;
    archive.with_view(|rez| {
        let found = if dir.is_empty() {
            RezEntry::Dir(rez.root())
        } else {
            match rez
                .find(dir)
                .with_context(|| format!("reading {}", file.path))?
            {
                Some(entry) => entry,
                None => bail!("no {dir:?} in {}", file.path),
            }
        };
        let RezEntry::Dir(dir_entry) = found else {
            bail!("{dir:?} in {} is a file, not a directory", file.path);
        };
        let mut items = Vec::new();
        for entry in rez.entries(&dir_entry) {
            let entry = entry.with_context(|| format!("reading {dir:?} in {}", file.path))?;
            let (name, is_dir, size) = match entry {
                RezEntry::Dir(d) => (d.name_lossy().into_owned(), true, 0),
                RezEntry::File(f) => (f.file_name(), false, u64::from(f.size)),
            };
            let path = if dir.is_empty() {
                name.clone()
            } else {
                format!("{dir}/{name}")
            };
            items.push(RezItem {
                name,
                path,
                dir: is_dir,
                size,
            });
        }
        Ok(items)
    })
}

/// The bytes of the file at `path` of the archive (a `what` file: "palette" in messages).
///
/// Returns `Err` (a sentence) for a path that is no file, or a read that fails.
pub(crate) fn file_bytes(archive: &Archive, path: &str, what: &str) -> Result<Vec<u8>> {
    let file = &archive.file;
    let what = if what.is_empty() {
        String::new()
    } else {
        format!("{what} ")
    };
    archive.with_view(|rez| {
        let entry = rez
            .file(path)
            .with_context(|| format!("reading {}", file.path))?
            .with_context(|| format!("no {what}{path:?} in {}", file.path))?;
        Ok(archive.bytes(rez, &entry)?.into_owned())
    })
}

/// The PID `bytes` (named `name` in messages) as `rez pid` draws it, with `palette`'s
/// bytes when given; `None` for an image without a palette of its own when none is given
/// (the command asks for one).
///
/// Returns `Err` (a sentence) for an image or palette that cannot be read, or an image
/// past the limits.
pub(crate) fn pid_picture_of(
    bytes: &[u8],
    name: &str,
    palette: Option<&[u8]>,
) -> Result<Option<RgbaImage>> {
    let image = Pid::parse(bytes).with_context(|| format!("reading {name}"))?;
    let palette = palette
        .map(Palette::parse)
        .transpose()
        .context("reading the palette")?;
    let drawn = pid_picture(&image, palette.as_ref(), &Limits::default())
        .with_context(|| format!("decoding {name}"))?;
    Ok(drawn.map(|(picture, _, _)| picture))
}

/// The ANI at `path`: its frames as `rez ani --json` lists them, and the PIDs they show.
///
/// Returns `Err` (a sentence) for a path that is no file or an animation that cannot be
/// read.
pub(crate) fn ani(archive: &Archive, path: &str) -> Result<AniInfo> {
    let file = &archive.file;
    archive.with_view(|rez| {
        let entry = rez
            .file(path)
            .with_context(|| format!("reading {}", file.path))?
            .with_context(|| format!("no {path:?} in {}", file.path))?;
        let bytes = archive.bytes(rez, &entry)?;
        let ani = Ani::parse(&bytes).with_context(|| format!("reading {path}"))?;
        let frames: Vec<AniFrameInfo> = ani
            .frames()
            .map(|f| AniFrameInfo {
                image: f.image(),
                duration_ms: f.duration_ms(),
                sound: f.sound().map(|s| gamedata_io::latin1(s).into_owned()),
            })
            .collect();
        // The images' folder: ANIS read as IMAGES in the animation's own folder.
        let folder = path.rsplit_once('/').map_or("", |(d, _)| d);
        let parts: Vec<&str> = folder.split('/').collect();
        let images = parts
            .iter()
            .rposition(|p| p.eq_ignore_ascii_case("ANIS"))
            .map(|i| {
                let mut swapped = parts.clone();
                if let Some(p) = swapped.get_mut(i) {
                    *p = "IMAGES";
                }
                swapped.join("/")
            })
            .filter(|candidate| matches!(rez.find(candidate), Ok(Some(RezEntry::Dir(_)))));
        // Each frame number's image: the first in the folder's stored order (one pass over
        // the folder, one lookup a frame, whatever the counts).
        let mut numbered: std::collections::BTreeMap<u32, String> = Default::default();
        if let Some(dir) = &images
            && let Ok(Some(RezEntry::Dir(d))) = rez.find(dir)
        {
            for entry in rez.entries(&d).flatten() {
                if let RezEntry::File(f) = entry
                    && f.extension().eq_ignore_ascii_case(b"PID")
                    && let Some(n) = frame_number(&f.file_name())
                {
                    numbered
                        .entry(n)
                        .or_insert_with(|| format!("{dir}/{}", f.file_name()));
                }
            }
        }
        let pictures = frames
            .iter()
            .map(|f| numbered.get(&u32::from(f.image)).cloned())
            .collect();
        Ok(AniInfo {
            path: path.to_owned(),
            image_set: gamedata_io::latin1(ani.image_set()).into_owned(),
            frame_count: ani.frame_count(),
            total_ms: ani.total_ms(),
            frames,
            images,
            pictures,
        })
    })
}
