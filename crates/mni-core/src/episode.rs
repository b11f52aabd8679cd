//! An episode's two group files, looked up as the game does: the STN first, then the VOL.
//!
//! Episode `n` of Cosmo's Cosmic Adventure is `COSMOn.STN` (tiles, tile attributes, actors,
//! sounds) and `COSMOn.VOL` (maps, backdrops, music). Names are compared case-insensitively,
//! both for the files in a folder and for entries. Source: `../shared/docs/formats.md`
//! section 3.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::group::{Entry, GroupFile};
use crate::map::Map;
use crate::mmap::FileData;
use crate::tileattr::TileAttrTable;
use crate::tiles::{MaskedTiles, SolidTiles, TileImages};

/// Which of an episode's group files an entry came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GroupKind {
    /// COSMOn.STN.
    Stn,
    /// COSMOn.VOL.
    Vol,
}

/// The paths of an episode's group files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpisodePaths {
    /// COSMOn.STN as found (any case).
    pub stn: PathBuf,
    /// COSMOn.VOL as found (any case).
    pub vol: PathBuf,
}

impl EpisodePaths {
    /// Finds `COSMO{episode}.STN` and `COSMO{episode}.VOL` in `dir`, in any letter case
    /// (an exact match is preferred).
    ///
    /// Returns `Err` ([`Error::Io`]) if the folder cannot be listed, or
    /// ([`Error::MissingFile`]) if either file is not there.
    pub fn find(dir: &Path, episode: u8) -> Result<Self> {
        Ok(EpisodePaths {
            stn: find_file(dir, &format!("COSMO{episode}.STN"))?,
            vol: find_file(dir, &format!("COSMO{episode}.VOL"))?,
        })
    }
}

/// The path of the file named `name` (ASCII case ignored) in `dir`.
fn find_file(dir: &Path, name: &str) -> Result<PathBuf> {
    let exact = dir.join(name);
    if exact.is_file() {
        return Ok(exact);
    }
    let io = |source| Error::Io {
        path: dir.to_owned(),
        source,
    };
    for item in std::fs::read_dir(dir).map_err(io)? {
        let item = item.map_err(io)?;
        if item
            .file_name()
            .as_encoded_bytes()
            .eq_ignore_ascii_case(name.as_bytes())
            && item.path().is_file()
        {
            return Ok(item.path());
        }
    }
    Err(Error::MissingFile {
        dir: dir.to_owned(),
        name: name.to_owned(),
    })
}

/// An episode's two group files, owned (read into memory).
#[derive(Debug)]
pub struct EpisodeFiles {
    /// Where the files were found.
    pub paths: EpisodePaths,
    /// COSMOn.STN's bytes.
    pub stn: FileData,
    /// COSMOn.VOL's bytes.
    pub vol: FileData,
}

impl EpisodeFiles {
    /// Finds and reads episode `episode`'s group files in `dir` (see [`EpisodePaths::find`]).
    pub fn open(dir: &Path, episode: u8) -> Result<Self> {
        let paths = EpisodePaths::find(dir, episode)?;
        Ok(EpisodeFiles {
            stn: FileData::read(&paths.stn)?,
            vol: FileData::read(&paths.vol)?,
            paths,
        })
    }

    /// Parses both directories.
    pub fn episode(&self) -> Result<Episode<'_>> {
        Episode::parse(&self.stn, &self.vol)
    }
}

/// An episode's two parsed group files.
#[derive(Clone, Copy, Debug)]
pub struct Episode<'data> {
    /// COSMOn.STN.
    pub stn: GroupFile<'data>,
    /// COSMOn.VOL.
    pub vol: GroupFile<'data>,
}

impl<'data> Episode<'data> {
    /// Parses the directories of the STN and VOL files' bytes.
    ///
    /// Returns `Err` if either is shorter than its 4,000-byte directory.
    pub fn parse(stn: &'data [u8], vol: &'data [u8]) -> Result<Self> {
        Ok(Episode {
            stn: GroupFile::parse(stn)?,
            vol: GroupFile::parse(vol)?,
        })
    }

    /// The entry named `name` (ASCII case ignored), from the STN if it has one, else the VOL.
    pub fn find(&self, name: &str) -> Option<(GroupKind, Entry<'data>)> {
        self.stn
            .find(name)
            .map(|e| (GroupKind::Stn, e))
            .or_else(|| self.vol.find(name).map(|e| (GroupKind::Vol, e)))
    }

    /// The bytes of the entry named `name`, STN first, then VOL.
    ///
    /// Returns `Err` ([`Error::EntryNotFound`]) if neither file has it, or
    /// ([`Error::EntryOutOfBounds`]) if the entry's range is bad.
    pub fn get(&self, name: &str) -> Result<&'data [u8]> {
        let (_, entry) = self.find(name).ok_or_else(|| Error::EntryNotFound {
            name: name.to_owned(),
            place: "the episode's STN or VOL".to_owned(),
        })?;
        entry.data()
    }

    /// TILEATTR.MNI, parsed.
    pub fn tile_attributes(&self) -> Result<TileAttrTable<'data>> {
        TileAttrTable::parse(self.get("TILEATTR.MNI")?)
    }

    /// TILES.MNI and MASKTILE.MNI, parsed.
    pub fn tile_images(&self) -> Result<TileImages<'data>> {
        Ok(TileImages {
            solid: SolidTiles::parse(self.get("TILES.MNI")?)?,
            masked: MaskedTiles::parse(self.get("MASKTILE.MNI")?)?,
        })
    }

    /// The map entry `name` (for example "A1.MNI"), parsed.
    pub fn map(&self, name: &str) -> Result<Map<'data>> {
        Map::parse(self.get(name)?)
    }

    /// The names of the entries of both files that parse as maps, in directory order (STN
    /// then VOL). Cheap: a map is recognised by its header and length only.
    pub fn map_names(&self) -> Vec<String> {
        self.stn
            .entries()
            .chain(self.vol.entries())
            .filter(|e| e.data().is_ok_and(|d| Map::parse(d).is_ok()))
            .map(|e| e.name_lossy().into_owned())
            .collect()
    }
}
