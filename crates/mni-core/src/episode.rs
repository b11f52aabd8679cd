//! An episode's two group files, looked up as the game does: the STN first, then the VOL.
//!
//! Episode `n` of Cosmo's Cosmic Adventure is `COSMOn.STN` (tiles, tile attributes, actors,
//! sounds) and `COSMOn.VOL` (maps, backdrops, music). Names are compared case-insensitively,
//! both for the files in a folder and for entries. Source: `docs/formats/cosmo.md`, "Group
//! files". Every error met reading an entry names the group file and the entry's slot.

use std::path::{Path, PathBuf};

use gamedata_io::{
    FileData, FileError, FileOptions, FileSet, OwnedSet, file_name, find_file_ignoring_case,
};

use crate::backdrop::{Backdrop, backdrop_name};
use crate::error::ErrorKind;
use crate::error::{DataError, Result};
use crate::group::{Entry, Group};
use crate::map::Map;
use crate::sprites::{ActorSprites, SpriteTable};
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
    /// Returns `Err` ([`Error::File`](crate::Error::File)) if the folder cannot be listed or either file is not
    /// there.
    pub fn find(dir: impl AsRef<Path>, episode: u8) -> Result<Self> {
        let dir = dir.as_ref();
        Ok(EpisodePaths {
            stn: find_file_ignoring_case(dir, &format!("COSMO{episode}.STN"))?,
            vol: find_file_ignoring_case(dir, &format!("COSMO{episode}.VOL"))?,
        })
    }
}

/// How [`EpisodeFiles::open_with`], [`EpisodeFiles::map_with`] and
/// [`EpisodeFiles::from_data`] open an episode: the shared [`FileOptions`] (limits on what a
/// path that is not a regular file may give, and the mapping [`EpisodeFiles::map_with`]
/// uses). The group files hold nothing compressed and nothing of them is collected, and the
/// folder lookup finds regular files only, so no cap changes how a found episode opens;
/// Cosmo has no cap of its own. `EpisodeOptions::default()` is what [`EpisodeFiles::open`]
/// and [`EpisodeFiles::map`] use.
pub type EpisodeOptions = FileOptions;

/// An episode's two group files, owned ([`OwnedSet`] of [`EpisodeSet`]): found in a folder
/// and read ([`EpisodeFiles::open`]) or mapped ([`EpisodeFiles::map`]), or handed over
/// ([`EpisodeFiles::from_data`]); it dereferences to [`EpisodeSet`], whose
/// [`view`](EpisodeFiles::view) parses both directories.
pub type EpisodeFiles = OwnedSet<EpisodeSet>;

/// An episode's two group files' bytes: what [`EpisodeFiles`] holds; the Cosmo
/// implementation of [`FileSet`].
#[derive(Debug)]
pub struct EpisodeSet {
    /// Where the files were found.
    pub paths: EpisodePaths,
    /// COSMOn.STN's bytes.
    pub stn: FileData,
    /// COSMOn.VOL's bytes.
    pub vol: FileData,
    /// The file names, for messages.
    names: [String; 2],
}

impl FileSet for EpisodeSet {
    type Options = EpisodeOptions;
    type Kind = ErrorKind;
    /// The episode number in the file names (COSMO{n}.STN).
    type Id = u8;
    type Paths = EpisodePaths;
    /// COSMOn.STN's bytes, then COSMOn.VOL's.
    type Files = [FileData; 2];
    type View<'data> = Episode<'data>;

    /// [`EpisodePaths::find`].
    fn find(dir: &Path, episode: u8, _options: &EpisodeOptions) -> Result<EpisodePaths> {
        EpisodePaths::find(dir, episode)
    }

    fn load(
        paths: &EpisodePaths,
        load: &mut dyn FnMut(&Path) -> std::result::Result<FileData, FileError>,
    ) -> std::result::Result<[FileData; 2], FileError> {
        Ok([load(&paths.stn)?, load(&paths.vol)?])
    }

    /// Keeps the bytes with the paths they came from (used in messages). Nothing is read
    /// until [`EpisodeFiles::view`], so this never fails.
    fn from_files(
        paths: EpisodePaths,
        [stn, vol]: [FileData; 2],
        _options: &EpisodeOptions,
    ) -> Result<Self, DataError> {
        let names = [file_name(&paths.stn), file_name(&paths.vol)];
        Ok(EpisodeSet {
            paths,
            stn,
            vol,
            names,
        })
    }

    /// Parses both directories.
    ///
    /// Returns `Err` (a [`DataError`] naming the file) if either is shorter than its
    /// 4,000-byte directory.
    fn view(&self) -> Result<Episode<'_>, DataError> {
        let [stn_name, vol_name] = &self.names;
        Episode::parse_named(&self.stn, stn_name, &self.vol, vol_name)
    }
}

/// An entry found by name: the file it is in, the entry and its bytes.
type Found<'data> = (GroupKind, Entry<'data>, &'data [u8]);

/// An episode's two parsed group files.
#[derive(Clone, Copy, Debug)]
pub struct Episode<'data> {
    /// COSMOn.STN.
    pub stn: Group<'data>,
    /// COSMOn.VOL.
    pub vol: Group<'data>,
    /// The two files' names, for messages.
    names: [&'data str; 2],
}

impl<'data> Episode<'data> {
    /// Parses the directories of the STN and VOL files' bytes; errors call them "STN" and
    /// "VOL" (use [`Episode::parse_named`] to give their file names).
    ///
    /// Returns `Err` (a [`DataError`] naming the file) if either is shorter than its 4,000-byte
    /// directory.
    pub fn parse(stn: &'data [u8], vol: &'data [u8]) -> Result<Self, DataError> {
        Self::parse_named(stn, "STN", vol, "VOL")
    }

    /// [`Episode::parse`], with the names errors give the two files ("COSMO1.STN" ...).
    pub fn parse_named(
        stn: &'data [u8],
        stn_name: &'data str,
        vol: &'data [u8],
        vol_name: &'data str,
    ) -> Result<Self, DataError> {
        let parse = |bytes, name: &str| Group::parse(bytes).map_err(|e| e.with_file_name(name));
        Ok(Episode {
            stn: parse(stn, stn_name)?,
            vol: parse(vol, vol_name)?,
            names: [stn_name, vol_name],
        })
    }

    /// The name errors give the group file of `kind`.
    pub fn file_name(&self, kind: GroupKind) -> &'data str {
        let [stn, vol] = self.names;
        match kind {
            GroupKind::Stn => stn,
            GroupKind::Vol => vol,
        }
    }

    /// The entry named `name` (ASCII case ignored), from the STN if it has one, else the VOL.
    pub fn find(&self, name: &str) -> Option<(GroupKind, Entry<'data>)> {
        self.stn
            .find(name)
            .map(|e| (GroupKind::Stn, e))
            .or_else(|| self.vol.find(name).map(|e| (GroupKind::Vol, e)))
    }

    /// The bytes of the entry named `name`, STN first, then VOL; `Ok(None)` if neither
    /// file has it.
    ///
    /// Returns `Err` ([`ErrorKind::EntryOutOfBounds`], [`ErrorKind::EntryOverlap`], naming
    /// the group file) if the entry's bytes cannot be read.
    pub fn get(&self, name: &str) -> Result<Option<&'data [u8]>, DataError> {
        Ok(self.get_entry(name)?.map(|(_, _, bytes)| bytes))
    }

    /// The error saying that neither file has an entry named `name`
    /// ([`ErrorKind::EntryNotFound`], naming the entry and both files), for a caller that
    /// needs the entry ([`Episode::get`], [`Episode::level`] or [`Episode::backdrop`] gave
    /// `Ok(None)`); the entries every episode has ([`Episode::tile_attributes`] ...) give
    /// it themselves.
    pub fn missing(&self, name: &str) -> DataError {
        crate::error::not_found(name, &format!("{} or {}", self.names[0], self.names[1]))
    }

    fn get_entry(&self, name: &str) -> Result<Option<Found<'data>>, DataError> {
        let Some((kind, entry)) = self.find(name) else {
            return Ok(None);
        };
        let bytes = entry
            .data()
            .map_err(|e| e.with_file_name(self.file_name(kind)))?;
        Ok(Some((kind, entry, bytes)))
    }

    /// Looks up the entry `name` and parses its bytes with `parse` (`Ok(None)` if neither
    /// file has it); a parse error is wrapped naming the group file, the entry and its slot.
    fn parse_entry<T>(
        &self,
        name: &str,
        parse: impl FnOnce(&'data [u8]) -> Result<T, DataError>,
    ) -> Result<Option<T>, DataError> {
        let Some((kind, entry, bytes)) = self.get_entry(name)? else {
            return Ok(None);
        };
        parse(bytes)
            .map(Some)
            .map_err(|e| e.in_entry(self.file_name(kind), &entry.name_lossy(), entry.slot()))
    }

    /// [`Episode::parse_entry`] of an entry every episode has: missing, it is an error
    /// ([`Episode::missing`]).
    fn required<T>(
        &self,
        name: &str,
        parse: impl FnOnce(&'data [u8]) -> Result<T, DataError>,
    ) -> Result<T, DataError> {
        self.parse_entry(name, parse)?
            .ok_or_else(|| self.missing(name))
    }

    /// TILEATTR.MNI, parsed.
    ///
    /// Returns `Err` as [`Episode::get`] does, or an error naming the group file, entry and slot if the entry is not a
    /// valid table.
    pub fn tile_attributes(&self) -> Result<TileAttrTable<'data>, DataError> {
        self.required("TILEATTR.MNI", TileAttrTable::parse)
    }

    /// TILES.MNI and MASKTILE.MNI, parsed.
    ///
    /// Returns `Err` as [`Episode::get`] does, or an error naming the group file, entry and slot if either is not a whole
    /// number of tiles.
    pub fn tile_images(&self) -> Result<TileImages<'data>, DataError> {
        Ok(TileImages {
            solid: self.required("TILES.MNI", SolidTiles::parse)?,
            masked: self.required("MASKTILE.MNI", MaskedTiles::parse)?,
        })
    }

    /// ACTRINFO.MNI and ACTORS.MNI, parsed: the actor sprites.
    ///
    /// Returns `Err` as [`Episode::get`] does, or an error naming the group file, entry and
    /// slot if ACTRINFO.MNI is not a valid table. A frame's tiles are checked when
    /// [`ActorSprites::frame`] asks for them.
    pub fn sprites(&self) -> Result<ActorSprites<'data>, DataError> {
        let table = self.required("ACTRINFO.MNI", SpriteTable::parse)?;
        let tiles = self.required("ACTORS.MNI", Ok)?;
        Ok(ActorSprites::new(table, tiles))
    }

    /// Backdrop `number` (a map's [`MapFlags::backdrop`](crate::MapFlags::backdrop)),
    /// found by its name in [`BACKDROP_NAMES`](crate::backdrop::BACKDROP_NAMES) and parsed;
    /// `Ok(None)` if neither file has an entry of that name.
    ///
    /// Returns `Err`: [`ErrorKind::BackdropNumber`] for a number with no name; as
    /// [`Episode::get`] does if the entry's bytes cannot be read; an error naming the group
    /// file, entry and slot if the entry is not 23,040 bytes.
    pub fn backdrop(&self, number: u8) -> Result<Option<Backdrop<'data>>, DataError> {
        self.parse_entry(backdrop_name(number)?, Backdrop::parse)
    }

    /// The level named `name` (its map entry, for example "A1.MNI"), parsed; `Ok(None)` if
    /// neither file has an entry of that name.
    ///
    /// Returns `Err` as [`Episode::get`] does, or an error naming the group file, entry and
    /// slot if the entry is not a valid map.
    pub fn level(&self, name: &str) -> Result<Option<Map<'data>>, DataError> {
        self.parse_entry(name, Map::parse)
    }

    /// The entries of both files that parse as maps, in directory order (STN then VOL).
    /// Cheap: a map is recognised by its header and length only; [`Entry::name`] gives each
    /// name.
    pub fn level_names(&self) -> impl Iterator<Item = Entry<'data>> + 'data {
        self.stn
            .entries()
            .chain(self.vol.entries())
            .filter(|e| e.data().is_ok_and(|d| Map::parse(d).is_ok()))
    }
}
