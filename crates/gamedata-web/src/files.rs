//! The files a page was given, by folder: each a name (a path relative to the folder
//! chosen, `uo/map0.mul`, or a bare name) and its bytes, found by name in any letter case
//! as the command line finds files in a folder. A file is given either with its bytes or
//! with its size and a way to read any range of it (the page's `Blob.slice`): such a file
//! is read whole only when a reader needs it whole, and by ranges where entries are
//! enough (an art thumbnail reads its entry alone).

use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

use anyhow::{Result, bail};
use gamedata_io::FileData;
use mul_core::raw::UopEntryRaw;

/// Reads `length` bytes at `offset` of a file (a page's `Blob.slice` read).
pub type ReadAt = dyn Fn(u64, u32) -> Result<Vec<u8>>;

/// Largest range read at once by [`File::read_at`] (an art entry, a table): 64 MiB.
const MAX_RANGE: u32 = 64 << 20;

/// Largest file read whole: 1 GiB. A page's WebAssembly memory ends at 4 GiB, and a failed
/// allocation there stops the readers; a larger file is an error that says so.
pub(crate) const MAX_WHOLE: u64 = 1 << 30;

/// Whether a file of this path is one the readers may use (a facet's files and tables,
/// art, texture maps, verdata, diffs, anim.idx with anim.mul and anim2 to anim5,
/// AnimationFrame*.uop with AnimationSequence.uop and mobtypes.txt; levels, archives, PID
/// images and PAL palettes; Cosmo's group files): a page hands only those to the readers, each read when needed
/// (anim.mul by its frame groups alone).
pub(crate) fn wanted(path: &str) -> bool {
    let name = path
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(path)
        .to_ascii_lowercase();
    let numbered = |prefix: &str, suffix: &str| {
        name.strip_prefix(prefix)
            .and_then(|rest| rest.strip_suffix(suffix))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    const TABLES: [&str; 18] = [
        "gumpidx.mul",
        "gumpart.mul",
        "gumpartlegacymul.uop",
        "gump.def",
        "texterr.def",
        "anim.idx",
        "anim.mul",
        "mobtypes.txt",
        "animationsequence.uop",
        "tiledata.mul",
        "radarcol.mul",
        "hues.mul",
        "artidx.mul",
        "art.mul",
        "artlegacymul.uop",
        "texidx.mul",
        "texmaps.mul",
        "verdata.mul",
    ];
    TABLES.contains(&name.as_str())
        || [
            "map", "staidx", "statics", "mapdifl", "mapdif", "stadifl", "stadifi", "stadif",
        ]
        .iter()
        .any(|p| numbered(p, ".mul"))
        || numbered("map", "legacymul.uop")
        || numbered("map", "xlegacymul.uop")
        || numbered("animationframe", ".uop")
        || numbered("anim", ".idx")
        || numbered("anim", ".mul")
        || numbered("cosmo", ".stn")
        || numbered("cosmo", ".vol")
        || name.ends_with(".wwd")
        || name.ends_with(".rez")
        || name.ends_with(".pid")
        || name.ends_with(".pal")
}

/// One file: its name as given, its size and its bytes (given, or read when first needed),
/// shared by every owner that reads it.
#[derive(Clone)]
pub(crate) struct File {
    /// The path as the page gave it (`uo/map0.mul`), used in messages.
    pub(crate) path: String,
    /// Its length in bytes.
    pub(crate) size: u64,
    content: Rc<Content>,
}

/// A file's bytes: whole once read, and the way to read them when given by size.
struct Content {
    whole: OnceCell<Arc<[u8]>>,
    read: Option<Box<ReadAt>>,
}

impl File {
    /// The whole bytes, read now if the file was given by size (then kept).
    ///
    /// Returns `Err` if the page's read fails or gives another length than the file's.
    pub(crate) fn bytes(&self) -> Result<Arc<[u8]>> {
        if let Some(whole) = self.content.whole.get() {
            return Ok(Arc::clone(whole));
        }
        let length = match u32::try_from(self.size) {
            Ok(length) if self.size <= MAX_WHOLE => length,
            _ => bail!(
                "reading {}: {} bytes, more than the page reads whole ({MAX_WHOLE} bytes)",
                self.path,
                self.size
            ),
        };
        let bytes: Arc<[u8]> = self.read_given(0, length)?.into();
        Ok(Arc::clone(self.content.whole.get_or_init(|| bytes)))
    }

    /// The bytes as a reader's owner, without a copy (read whole first if need be).
    ///
    /// Returns `Err` as [`File::bytes`].
    pub(crate) fn data(&self) -> Result<FileData> {
        Ok(FileData::from_owner(self.bytes()?))
    }

    /// `length` bytes at `offset`: from the whole bytes when they are here, else read from
    /// the page alone.
    ///
    /// Returns `Err` for a range past the file's end or longer than 64 MiB, or as the
    /// page's read.
    pub(crate) fn read_at(&self, offset: u64, length: u32) -> Result<Vec<u8>> {
        let end = offset.checked_add(u64::from(length));
        if end.is_none_or(|end| end > self.size) || length > MAX_RANGE {
            bail!(
                "reading {}: {length} bytes at offset {offset} are past its {} bytes \
                 (or more than {MAX_RANGE} at once)",
                self.path,
                self.size
            );
        }
        match self.content.whole.get() {
            Some(whole) => {
                // Inside the file's length, which the bytes here have: the range fits usize.
                let at = usize::try_from(offset).unwrap_or(usize::MAX);
                let end = at.saturating_add(length as usize);
                Ok(whole.get(at..end).unwrap_or_default().to_vec())
            }
            None => self.read_given(offset, length),
        }
    }

    /// A UOP entry's stored bytes: `compressed_len` bytes after its header (at `offset`
    /// plus `header_len`), read as [`File::read_at`] reads (Mythic's container, see
    /// `docs/formats/uo.md`).
    ///
    /// Returns `Err` as [`File::read_at`], naming the file.
    pub(crate) fn read_stored(&self, raw: &UopEntryRaw) -> Result<Vec<u8>> {
        let start = raw
            .offset
            .get()
            .saturating_add(u64::from(raw.header_len.get()));
        self.read_at(start, raw.compressed_len.get())
    }

    /// True when the whole bytes are here (given, or read once).
    pub(crate) fn is_loaded(&self) -> bool {
        self.content.whole.get().is_some()
    }

    /// A range read through the page, checked to be as long as asked.
    fn read_given(&self, offset: u64, length: u32) -> Result<Vec<u8>> {
        let Some(read) = &self.content.read else {
            bail!("reading {}: its bytes were not given", self.path);
        };
        let bytes =
            read(offset, length).map_err(|e| e.context(format!("reading {}", self.path)))?;
        if bytes.len() != length as usize {
            bail!(
                "reading {}: {} bytes came at offset {offset}, {length} were asked",
                self.path,
                bytes.len()
            );
        }
        Ok(bytes)
    }

    /// The path, as the readers name files in messages.
    pub(crate) fn path_buf(&self) -> PathBuf {
        PathBuf::from(&self.path)
    }

    /// The name after the last `/`.
    pub(crate) fn name(&self) -> &str {
        self.path.rsplit('/').next().unwrap_or(&self.path)
    }
}

/// A picture set's files in one folder: an index with its data file (read by entries), or
/// a UOP container (its table read by ranges, then read by entries).
pub(crate) enum PictureFiles {
    /// The index (artidx.mul, gumpidx.mul) and the data file.
    Mul { idx: File, mul: File },
    /// The container (artLegacyMUL.uop, gumpartLegacyMUL.uop), and its table once read
    /// (read once for every picture asked for, not once a picture).
    Uop(File, OnceCell<UopRead>),
}

impl PictureFiles {
    /// The set in `folder`: `idx` with `mul` when it has both (as the command chooses),
    /// else `uop`.
    pub(crate) fn find(folder: &Folder, idx: &str, mul: &str, uop: &str) -> Option<Self> {
        Some(match (folder.find(idx), folder.find(mul)) {
            (Some(idx), Some(mul)) => PictureFiles::Mul {
                idx: idx.clone(),
                mul: mul.clone(),
            },
            _ => PictureFiles::Uop(folder.find(uop)?.clone(), OnceCell::new()),
        })
    }

    /// The file whose entries are read alone, by their records' ranges (the data file, or
    /// a UOP whose table was read by ranges), and the UOP's table when read.
    pub(crate) fn ranged(&self) -> (Option<&File>, Option<&UopRead>) {
        match self {
            PictureFiles::Mul { mul, .. } => (Some(mul), None),
            PictureFiles::Uop(uop, read) => {
                let read = read.get();
                let by_ranges = read.is_some_and(|r| r.data().is_empty());
                (by_ranges.then_some(uop), read)
            }
        }
    }
}

/// A picture UOP's slots, and what they were read from.
pub(crate) struct UopRead {
    /// The slots as MUL index records, offsets into the container.
    pub(crate) index: mul_core::UopIndex,
    /// The table read by ranges (each picture then read by its record's range), or the
    /// whole container, for a table too scattered to read by ranges.
    pub(crate) from: UopFrom,
}

/// What a picture UOP's slots were read from.
pub(crate) enum UopFrom {
    /// The header, table blocks and gumps' sizes, read by ranges.
    Tables(mul_core::uop::UopTables),
    /// The whole container.
    Whole(Arc<[u8]>),
}

impl UopRead {
    /// The container's bytes when read whole, else none (the pictures are then read by
    /// their records' ranges).
    pub(crate) fn data(&self) -> &[u8] {
        match &self.from {
            UopFrom::Tables(_) => &[],
            UopFrom::Whole(data) => data,
        }
    }

    /// Why slot `slot`'s entry could not be taken, if it could not.
    pub(crate) fn problem(&self, slot: usize) -> Option<mul_core::DataError> {
        match &self.from {
            UopFrom::Tables(tables) => self.index.problem_in(tables, slot),
            UopFrom::Whole(data) => self.index.problem(data, slot),
        }
    }
}

/// A picture UOP's slots for `pictures`, read on first use and kept in `read`: its table
/// by ranges (`mul_core::uop::UopFetch`), or the whole container when the table is too
/// scattered for that (only a hostile file's is).
///
/// Returns `Err` (a sentence naming the file) when the container cannot be read.
pub(crate) fn uop_index<'a>(
    file: &File,
    read: &'a OnceCell<UopRead>,
    pictures: mul_core::UopPictures,
) -> Result<&'a UopRead> {
    if let Some(done) = read.get() {
        return Ok(done);
    }
    let limits = gamedata_io::Limits::default();
    let in_file =
        |e: mul_core::DataError| anyhow::Error::from(e).context(format!("reading {}", file.path));
    let mut fetch = mul_core::uop::UopFetch::new(file.size, &limits);
    if pictures == mul_core::UopPictures::Gumps {
        fetch = fetch.with_gump_sizes();
    }
    while let Some((offset, length)) = fetch.wanted() {
        let length = u32::try_from(length).unwrap_or(u32::MAX);
        fetch.give(file.read_at(offset, length)?);
    }
    let done = match fetch.finish() {
        Some(tables) => UopRead {
            index: mul_core::UopIndex::from_tables(&tables, &limits, pictures).map_err(in_file)?,
            from: UopFrom::Tables(tables),
        },
        None => {
            let data = file.bytes()?;
            UopRead {
                index: mul_core::UopIndex::build(&data, &limits, pictures).map_err(in_file)?,
                from: UopFrom::Whole(data),
            }
        }
    };
    Ok(read.get_or_init(|| done))
}

/// The files of one folder.
#[derive(Default)]
pub(crate) struct Folder {
    /// The folder's path (`""` for files given alone).
    pub(crate) path: String,
    /// Its files by name as given.
    pub(crate) files: BTreeMap<String, File>,
}

impl Folder {
    /// The file named `name`: the exact name if the folder has it, else one whose name
    /// differs only in ASCII letter case (as `gamedata_io::find_file_ignoring_case`).
    pub(crate) fn find(&self, name: &str) -> Option<&File> {
        self.files.get(name).or_else(|| {
            self.files
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, f)| f)
        })
    }
}

/// Every file given, by folder.
#[derive(Default)]
pub(crate) struct Files {
    folders: BTreeMap<String, Folder>,
}

impl Files {
    /// Adds `bytes` as `path` (a later file of the same path replaces the first). A leading
    /// `/` or `./` is dropped; `\\` counts as `/`.
    pub(crate) fn add(&mut self, path: &str, bytes: Vec<u8>) {
        let whole = OnceCell::new();
        let size = bytes.len() as u64;
        let _ = whole.set(Arc::from(bytes));
        self.insert(path, size, Content { whole, read: None });
    }

    /// Adds a file of `size` bytes as `path`, read by `read` when needed (whole or by
    /// ranges), as [`Files::add`] names it.
    pub(crate) fn add_lazy(&mut self, path: &str, size: u64, read: Box<ReadAt>) {
        let content = Content {
            whole: OnceCell::new(),
            read: Some(read),
        };
        self.insert(path, size, content);
    }

    fn insert(&mut self, path: &str, size: u64, content: Content) {
        let path = path.replace('\\', "/");
        let path = path.trim_start_matches("./").trim_start_matches('/');
        let (dir, name) = match path.rsplit_once('/') {
            Some((dir, name)) => (dir, name),
            None => ("", path),
        };
        let folder = self
            .folders
            .entry(dir.to_owned())
            .or_insert_with(|| Folder {
                path: dir.to_owned(),
                files: BTreeMap::new(),
            });
        folder.files.insert(
            name.to_owned(),
            File {
                path: path.to_owned(),
                size,
                content: Rc::new(content),
            },
        );
    }

    /// The bytes of the files read whole so far (given with their bytes, or read since).
    pub(crate) fn loaded_bytes(&self) -> u64 {
        self.folders
            .values()
            .flat_map(|f| f.files.values())
            .filter(|f| f.is_loaded())
            .map(|f| f.size)
            .sum()
    }

    /// The folders, by path.
    pub(crate) fn folders(&self) -> impl Iterator<Item = &Folder> {
        self.folders.values()
    }

    /// Every file whose name ends with `extension` (`.wwd`; any letter case).
    pub(crate) fn with_extension<'a>(
        &'a self,
        extension: &'a str,
    ) -> impl Iterator<Item = &'a File> {
        self.folders
            .values()
            .flat_map(|f| f.files.values())
            .filter(move |f| {
                let name = f.name();
                name.len() > extension.len()
                    && name
                        .get(name.len() - extension.len()..)
                        .is_some_and(|end| end.eq_ignore_ascii_case(extension))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_in_any_case_the_exact_one_first() {
        let mut files = Files::default();
        files.add("game/MAP0.MUL", vec![1]);
        files.add("game/map0.mul", vec![2]);
        files.add("game/StaIdx0.mul", vec![3]);
        files.add("single.wwd", vec![4]);
        let folders: Vec<&Folder> = files.folders().collect();
        assert_eq!(folders.len(), 2);
        let game = folders
            .iter()
            .find(|f| f.path == "game")
            .expect("the folder");
        assert_eq!(
            game.find("map0.mul").map(|f| f.bytes().unwrap().to_vec()),
            Some(vec![2u8])
        );
        assert_eq!(
            game.find("MAP0.MUL").map(|f| f.bytes().unwrap().to_vec()),
            Some(vec![1u8])
        );
        assert_eq!(
            game.find("staidx0.MUL")
                .map(|f| f.bytes().unwrap().to_vec()),
            Some(vec![3u8])
        );
        assert!(game.find("statics0.mul").is_none());
        let wwd: Vec<&str> = files
            .with_extension(".WWD")
            .map(|f| f.path.as_str())
            .collect();
        assert_eq!(wwd, ["single.wwd"]);
        assert_eq!(
            files.with_extension(".wwd").next().map(File::name),
            Some("single.wwd")
        );
    }

    #[test]
    fn a_file_given_by_size_is_read_when_needed_and_checked() {
        use std::cell::Cell;
        use std::rc::Rc;
        let mut files = Files::default();
        let asked = Rc::new(Cell::new(0u32));
        let seen = Rc::clone(&asked);
        files.add_lazy(
            "a/b.mul",
            10,
            Box::new(move |offset, length| {
                seen.set(seen.get() + 1);
                Ok((offset..offset + u64::from(length))
                    .map(|i| i.to_le_bytes()[0])
                    .collect())
            }),
        );
        // A reader that gives fewer bytes than asked.
        files.add_lazy("a/short.mul", 10, Box::new(|_, _| Ok(vec![1, 2])));
        // A file past what the page reads whole.
        files.add_lazy("a/huge.mul", MAX_WHOLE + 1, Box::new(|_, _| Ok(Vec::new())));
        let folder = files.folders().next().expect("the folder");
        let b = folder.find("B.MUL").expect("found in any case");
        assert!(!b.is_loaded());
        assert_eq!(b.read_at(3, 4).unwrap(), [3, 4, 5, 6]);
        assert!(b.read_at(8, 3).is_err(), "past the end");
        assert!(b.read_at(u64::MAX, 1).is_err(), "overflow");
        assert_eq!(asked.get(), 1, "the range alone");
        assert_eq!(&*b.bytes().unwrap(), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        assert!(b.is_loaded());
        assert_eq!(b.read_at(2, 2).unwrap(), [2, 3]);
        let _ = b.bytes().unwrap();
        assert_eq!(asked.get(), 2, "read whole once, ranges then from memory");
        assert_eq!(files.loaded_bytes(), 10);
        let e = folder.find("short.mul").unwrap().bytes().unwrap_err();
        assert!(
            format!("{e:#}").contains("2 bytes came at offset 0, 10 were asked"),
            "{e:#}"
        );
        let e = folder.find("huge.mul").unwrap().bytes().unwrap_err();
        assert!(
            format!("{e:#}").contains("more than the page reads whole"),
            "{e:#}"
        );
    }

    #[test]
    fn only_the_files_the_readers_use_are_wanted() {
        for yes in [
            "uo/MAP0.MUL",
            "uo/map12LegacyMUL.uop",
            "uo/map1xLegacyMUL.uop",
            "StaIdx3.mul",
            "statics0.mul",
            "a/b/tiledata.mul",
            "art.mul",
            "artLegacyMUL.uop",
            "anim.mul",
            "anim.idx",
            "mobtypes.txt",
            "stadifl0.mul",
            "wwd/RETAIL01.WWD",
            "CLAW.REZ",
            "COSMO1.STN",
            "cosmo/cosmo2.vol",
        ] {
            assert!(wanted(yes), "{yes}");
        }
        for no in ["map.mul", "mapx.mul", "file_id.diz", "COSMO.STN", "wwd"] {
            assert!(!wanted(no), "{no}");
        }
    }
}
