//! The gamedata readers and renderers in a web page, compiled to WebAssembly: a page hands
//! over a user's own files (a folder chosen or dropped, or single files), and this crate
//! says which games it found, lists the maps it can show and draws any tile of them, with
//! the same library code and the same pixels as the command line's `tiles` commands.
//! Nothing leaves the machine.
//!
//! - **Files in**: [`Gamedata::add_lazy_file`] takes a file's path (relative to the folder
//!   chosen: `uo/map0.mul`; a bare name for a single file), its size and a function that
//!   reads a range of it (the page's `Blob.slice`); a reader reads a file whole only where
//!   it needs it whole (a facet's map and statics, a level), and otherwise indexes and
//!   tables by ranges and each entry when shown: art, gumps, texture maps and animations
//!   (MUL and UOP), and REZ archives (`wap_core::RezFetch`), so a 1 GB animation file or a
//!   300 MB UOP or archive is never read whole. [`Gamedata::add_file`] takes bytes held
//!   whole. [`Gamedata::scan`] then finds the games as the command line finds files in a
//!   folder (any letter case, the exact name first):
//!   - Ultima Online: per folder, each facet N with map{N}.mul (else map{N}LegacyMUL.uop),
//!     staidx{N}.mul and statics{N}.mul; tiledata.mul, radarcol.mul and hues.mul for the
//!     radar styles; art (artidx.mul with art.mul, or artLegacyMUL.uop), texidx.mul with
//!     texmaps.mul and verdata.mul for the world style.
//!   - Claw and Gruntz: every .WWD file, drawn by the engine's rules with the first .REZ
//!     archive among the files, else as its collision map; the archive's tree, and PID
//!     and PAL files given alone.
//!   - Cosmo: per folder, each episode n with COSMO{n}.STN and COSMO{n}.VOL.
//! - **Map ids** ([`Gamedata::maps`]): `uo/0/flat`, `uo/0/client`, `uo/0/world`,
//!   `wwd/RETAIL01`, `cosmo/A1`; options after `?` as the command line's flags, comma
//!   separated (`cosmo/A1?actors,backdrop`, `wwd/RETAIL01?plane=Front`,
//!   `uo/0/flat?hillshade`, `max-zoom=N` for every map); an id without options is the
//!   command line's defaults. A UO map whose length proves no known size but whose blocks
//!   make a square is listed with its size as options (`uo/0/flat?width=64,height=64`,
//!   the command line's `--width 64 --height 64`).
//! - **Tiles** ([`Gamedata::tile`]): the RGBA pixels of tile (z, x, y), 256 x 256, equal to
//!   the `{z}/{x}/{y}.png` that `uo tiles` / `wwd tiles` / `cosmo tiles` write for the same
//!   files and options ([`gamedata_render::tiles::pyramid_tile`]).
//! - **Errors**: a file that fails lands in [`Gamedata::errors`] as the reader's sentence
//!   (what, where, found, expected), and the rest stays usable; a failing call throws a
//!   JavaScript `Error` with the sentence. The limits are the command line's
//!   ([`gamedata_io::Limits::default`]).
//!
//! Drawing runs on the caller's thread (the page's main thread in this part; a Web Worker
//! is a later part). `web/build.sh` builds the page around it; `docs/web.md` describes the
//! page's `window.gamedata`.

use std::collections::BTreeMap;

use anyhow::{Context, Result, bail};
use gamedata_render::RgbaImage;
use gamedata_render::tiles::{Levels, TileCache, pyramid_tile_cached};

mod anim;
mod art;
mod cosmo;
mod files;
mod gump;
mod id;
mod js;
mod rez;
mod texmap;
mod uo;
mod wwd;

pub use anim::{AnimFramePicture, FRAME_MS};
pub use art::{ArtKind, TileRecord};
use files::Files;
pub use files::ReadAt;
use id::MapId;
pub use js::{Gamedata, MapLevels, Picture};
pub use rez::{AniFrameInfo, AniInfo, RezItem};
pub use uo::{LandAt, StaticAt, TileAt, TileNames};
pub use wwd::{LevelInfo, ObjectInfo};

/// What a map id names, found by [`Library::scan`].
enum Target {
    /// A facet (the index in `Library::facets`) in a style.
    Uo(usize, &'static str),
    /// A level (the index in `Library::levels`).
    Wwd(usize),
    /// A map of an episode (the index in `Library::episodes`) by name.
    Cosmo(usize, String),
}

/// The files given, the games found in them and their maps: what [`Gamedata`] wraps,
/// usable natively (the tests).
#[derive(Default)]
pub struct Library {
    files: Files,
    facets: Vec<uo::Facet>,
    /// The art of the first folder that has some.
    art: Option<art::ArtCatalog>,
    /// The animations of the first folder that has anim.idx with anim.mul.
    anims: Option<anim::AnimCatalog>,
    /// The texture maps of the first folder that has texidx.mul with texmaps.mul.
    texmaps: Option<texmap::TexmapCatalog>,
    /// The gumps of the first folder that has some.
    gumps: Option<gump::GumpCatalog>,
    levels: Vec<wwd::LevelEntry>,
    rez: Option<rez::Archive>,
    /// PID images and PAL palettes given as files of their own (not in an archive).
    loose: Vec<files::File>,
    episodes: Vec<cosmo::Episode>,
    /// Map ids (without options) to what they name.
    targets: BTreeMap<String, Target>,
    /// The ids listed, in order, with the options they need.
    listed: Vec<String>,
    errors: Vec<String>,
    found: Vec<String>,
    /// The last Cosmo map drawn (the whole map is one picture): its id and pixels.
    cosmo_picture: Option<(String, RgbaImage)>,
    /// The tiles made of the last map asked for (its id, options included).
    tiles: (String, TileCache),
}

/// The bytes of tiles kept for the map shown (128 tiles of 256 KiB): zooming out over
/// tiles seen, or back, draws nothing again.
pub const TILE_CACHE_BYTES: usize = 32 << 20;

impl Library {
    /// An empty library.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the file at `path` (relative to the folder chosen, `/`-separated) with its
    /// bytes; [`Library::scan`] then finds what the files hold.
    pub fn add_file(&mut self, path: &str, bytes: Vec<u8>) {
        self.files.add(path, bytes);
    }

    /// Adds the file at `path` of `size` bytes, read by `read(offset, length)` only when a
    /// reader needs it: whole for a map or an archive, by entries for an art thumbnail.
    pub fn add_lazy_file(&mut self, path: &str, size: u64, read: Box<ReadAt>) {
        self.files.add_lazy(path, size, read);
    }

    /// The bytes of the files read whole so far: what the files cost in memory.
    pub fn loaded_bytes(&self) -> u64 {
        self.files.loaded_bytes()
    }

    /// Finds the games in the files given so far, lists their maps and keeps the sentence
    /// of each file that fails.
    pub fn scan(&mut self) {
        self.facets.clear();
        self.art = None;
        self.anims = None;
        self.texmaps = None;
        self.gumps = None;
        self.levels.clear();
        self.episodes.clear();
        self.targets.clear();
        self.listed.clear();
        self.errors.clear();
        self.found.clear();
        self.cosmo_picture = None;
        self.tiles.1.clear();
        self.rez = None;
        self.loose.clear();
        self.scan_uo();
        self.scan_art();
        self.scan_wwd();
        self.scan_cosmo();
        if self.found.is_empty() {
            self.found.push(
                "no game found: give an Ultima Online client folder, Claw or Gruntz levels \
                 (.WWD) or Cosmo's COSMO1.STN with COSMO1.VOL"
                    .to_owned(),
            );
        }
    }

    fn scan_uo(&mut self) {
        for folder in self.files.folders() {
            for facet in uo::Facet::find(folder) {
                let facet = match facet.and_then(|f| f.listing().map(|l| (f, l))) {
                    Ok(found) => found,
                    Err(e) => {
                        self.errors.push(format!("{e:#}"));
                        continue;
                    }
                };
                let (facet, (styles, size)) = facet;
                let place = if facet.dir.is_empty() {
                    "the files given".to_owned()
                } else {
                    facet.dir.clone()
                };
                if styles.is_empty() {
                    self.errors.push(format!(
                        "facet {} in {place}: no radarcol.mul to draw a radar map with, and \
                         no tiledata.mul, hues.mul and art for the world",
                        facet.number
                    ));
                }
                let index = self.facets.len();
                let mut shown = Vec::new();
                for style in styles {
                    let path = format!("uo/{}/{style}", facet.number);
                    if self.targets.contains_key(&path) {
                        self.errors.push(format!(
                            "{path} is also in {place}: shown from the first folder"
                        ));
                        continue;
                    }
                    self.targets.insert(path.clone(), Target::Uo(index, style));
                    self.listed.push(format!("{path}{size}"));
                    shown.push(style);
                }
                if !shown.is_empty() {
                    self.found.push(format!(
                        "Ultima Online: facet {} in {place} ({})",
                        facet.number,
                        shown.join(", ")
                    ));
                }
                self.facets.push(facet);
            }
        }
    }

    fn scan_art(&mut self) {
        self.art = self.files.folders().find_map(art::ArtCatalog::find);
        if let Some(art) = &self.art {
            self.found.push(art.describe());
        }
        self.gumps = self.files.folders().find_map(gump::GumpCatalog::find);
        if self.gumps.is_some() {
            self.found.push("Ultima Online gumps".to_owned());
        }
        self.texmaps = self.files.folders().find_map(texmap::TexmapCatalog::find);
        if self.texmaps.is_some() {
            self.found
                .push("Ultima Online texture maps: texmaps.mul".to_owned());
        }
        self.anims = self.files.folders().find_map(anim::AnimCatalog::find);
        if self.anims.is_some() {
            self.found
                .push("Ultima Online animations: anim.mul".to_owned());
        }
    }

    /// The ids of art of `kind` (`land` or `item`) that have a picture, rising; with
    /// `search`, those whose id it is (decimal or 0x hex) or whose tiledata name holds it.
    ///
    /// Returns `Err` (a sentence) when no art was given or its index cannot be read.
    pub fn art_ids(&self, kind: ArtKind, search: &str) -> Result<Vec<u32>> {
        self.art_catalog()?.ids(kind, search)
    }

    /// The picture of art `id` of `kind` with `hue` (0 for none; 0x8000 partial), the
    /// pixels `gamedata uo art` writes; `None` for an empty entry or picture. Reads the
    /// entry alone from art.mul.
    ///
    /// Returns `Err` (a sentence naming the entry) when it cannot be read or drawn.
    pub fn art_picture(&self, kind: ArtKind, id: u32, hue: u16) -> Result<Option<RgbaImage>> {
        self.art_catalog()?.picture(kind, id, hue)
    }

    /// The planes of level `id` (`wwd/NAME`) and the objects of the plane it shows.
    ///
    /// Returns `Err` (a sentence) for an id that is no level listed.
    pub fn level_info(&self, id: &str) -> Result<wwd::LevelInfo> {
        let (target, parsed) = self.target(id)?;
        let Target::Wwd(index) = target else {
            bail!("{id} is no level: its planes and objects are a level's");
        };
        let mut info = self
            .levels
            .get(*index)
            .context("a level listed")?
            .info(&parsed)?;
        info.archive = self.rez.as_ref().map(|r| r.file.path.clone());
        Ok(info)
    }

    /// What is at the tile under pixel (`px`, `py`) of UO map `id` at its native zoom (the
    /// land, the statics, the top surface, as `gamedata uo tile --json` says, and tiledata's
    /// names); `None` past the map. For the world style, the tile whose diamond at height 0
    /// holds the pixel.
    ///
    /// Returns `Err` (a sentence) for an id that is no UO map listed, or files that cannot
    /// be read.
    pub fn uo_tile_at(&self, id: &str, px: u32, py: u32) -> Result<Option<uo::TileAt>> {
        let (target, parsed) = self.target(id)?;
        let Target::Uo(index, style) = target else {
            bail!("{id} is no Ultima Online map: tiles are told on a facet");
        };
        let facet = self.facets.get(*index).context("a facet listed")?;
        match facet.tile_under(style, &parsed, id, (px, py))? {
            Some(tile) => Ok(Some(facet.tile_at(&parsed, id, tile)?)),
            None => Ok(None),
        }
    }

    /// The tiledata record of art `id` of `kind` (`uo tiledata --json`'s keys); `None`
    /// without tiledata.mul or past its tiles.
    ///
    /// Returns `Err` (a sentence) when no art was given or tiledata.mul cannot be read.
    pub fn art_tiledata(&self, kind: ArtKind, id: u32) -> Result<Option<art::TileRecord>> {
        self.art_catalog()?.tiledata(kind, id)
    }

    /// The ids of the texture maps with a picture (TexTerr.def's redirections followed),
    /// rising; with `search`, the one it names.
    ///
    /// Returns `Err` (a sentence) when no texture maps were given or texidx.mul cannot be
    /// read.
    pub fn texmap_ids(&self, search: &str) -> Result<Vec<u32>> {
        self.texmap_catalog()?.ids(search)
    }

    /// Texture map `id` as `gamedata uo texmap` draws it; `None` for an empty entry.
    /// Reads the entry alone from texmaps.mul.
    ///
    /// Returns `Err` (a sentence naming the entry) when it cannot be read or drawn.
    pub fn texmap_picture(&self, id: u32) -> Result<Option<RgbaImage>> {
        self.texmap_catalog()?.picture(id)
    }

    /// The gump ids with a picture (their own, a verdata patch, or gump.def's borrowing),
    /// rising; with `search`, the one it names.
    ///
    /// Returns `Err` (a sentence) when no gumps were given or their index cannot be read.
    pub fn gump_ids(&self, search: &str) -> Result<Vec<u32>> {
        self.gump_catalog()?.ids(search)
    }

    /// Gump `id` with `hue` as `gamedata uo gump` draws it; `None` for an empty entry.
    /// Reads the entry alone from gumpart.mul.
    ///
    /// Returns `Err` (a sentence naming the gump) when it cannot be read or drawn.
    pub fn gump_picture(&self, id: u32, hue: u16) -> Result<Option<RgbaImage>> {
        self.gump_catalog()?.picture(id, hue)
    }

    fn gump_catalog(&self) -> Result<&gump::GumpCatalog> {
        self.gumps.as_ref().context(
            "no Ultima Online gumps among the files given (gumpidx.mul with gumpart.mul, or \
             gumpartLegacyMUL.uop)",
        )
    }

    fn texmap_catalog(&self) -> Result<&texmap::TexmapCatalog> {
        self.texmaps.as_ref().context(
            "no Ultima Online texture maps among the files given (texidx.mul with texmaps.mul)",
        )
    }

    /// The bodies with animations in anim.mul (and AnimationFrame*.uop) and, for each, its
    /// actions with frames.
    ///
    /// Returns `Err` (a sentence) when no animations were given or anim.idx cannot be read.
    pub fn anim_bodies(&self) -> Result<Vec<(u16, Vec<u16>)>> {
        self.anim_catalog()?.bodies(mul_core::AnimFileId::Anim)
    }

    /// The animation files given of anim.mul's form: `anim`, `anim2` ... `anim5`, those
    /// whose index and data are both there (empty without animations).
    pub fn anim_files(&self) -> Vec<&'static str> {
        self.anims
            .as_ref()
            .map(anim::AnimCatalog::files)
            .unwrap_or_default()
    }

    /// [`Library::anim_bodies`] with `file` (`anim` ... `anim5`) as the MUL file, as `uo
    /// anim --file` reads it.
    ///
    /// Returns `Err` (a sentence) for another name, or as [`Library::anim_bodies`].
    pub fn anim_bodies_in(&self, file: &str) -> Result<Vec<(u16, Vec<u16>)>> {
        self.anim_catalog()?.bodies(anim::file_id(file)?)
    }

    /// [`Library::anim_frames`] with `file` (`anim` ... `anim5`) as the MUL file, as `uo
    /// anim --file` reads it.
    ///
    /// Returns `Err` (a sentence) for another name, or as [`Library::anim_frames`].
    pub fn anim_frames_in(
        &self,
        file: &str,
        body: u16,
        action: u16,
        direction: u8,
        hue: u16,
    ) -> Result<Vec<AnimFramePicture>> {
        self.anim_catalog()?
            .frames(anim::file_id(file)?, body, action, direction, hue)
    }

    /// Body `body`'s action `action` in direction `direction` (0 to 7; 5 to 7 mirrored)
    /// with `hue`: each frame as `gamedata uo anim` draws it, played [`FRAME_MS`] apart.
    ///
    /// Returns `Err` (a sentence naming the body, action and direction) when they cannot be
    /// read or drawn.
    pub fn anim_frames(
        &self,
        body: u16,
        action: u16,
        direction: u8,
        hue: u16,
    ) -> Result<Vec<AnimFramePicture>> {
        self.anim_frames_in("anim", body, action, direction, hue)
    }

    fn anim_catalog(&self) -> Result<&anim::AnimCatalog> {
        self.anims
            .as_ref()
            .context("no Ultima Online animations among the files given (anim.idx with anim.mul)")
    }

    /// The entries of directory `dir` (`""` for the root) of the REZ archive given (the
    /// first, as the levels use it); at the root, after them, the PID and PAL files given
    /// of their own, by the paths the page gave them.
    ///
    /// Returns `Err` (a sentence) without an archive or such files, for a path that is no
    /// directory, or an entry that cannot be read.
    pub fn rez_list(&self, dir: &str) -> Result<Vec<RezItem>> {
        let mut items = match (&self.rez, dir.is_empty() && !self.loose.is_empty()) {
            (None, true) => Vec::new(),
            _ => rez::list(self.archive()?, dir)?,
        };
        if dir.is_empty() {
            items.extend(self.loose.iter().map(|f| RezItem {
                name: f.name().to_owned(),
                path: f.path.clone(),
                dir: false,
                size: f.size,
            }));
        }
        Ok(items)
    }

    /// The PID at `path`, as `gamedata rez pid` draws it: a PID file given of its own
    /// (`rez pid FILE.PID`) by its path, else the archive's (`rez pid ARCHIVE PATH`); with
    /// the palette `palette` (a PAL file given of its own, else the archive's) when given
    /// (`--palette`); `None` for an image without a palette of its own when none is given.
    ///
    /// Returns `Err` (a sentence) as [`Library::rez_list`], or for an image or palette that
    /// cannot be read.
    pub fn rez_pid(&self, path: &str, palette: Option<&str>) -> Result<Option<RgbaImage>> {
        // A file given alone by its path, else the archive's.
        let read = |p: &str, what: &str| -> Result<Vec<u8>> {
            match self.loose.iter().find(|f| f.path == p) {
                Some(file) => Ok(file.bytes()?.to_vec()),
                None => rez::file_bytes(self.archive()?, p, what),
            }
        };
        let palette_bytes = palette.map(|p| read(p, "palette")).transpose()?;
        let bytes = read(path, "")?;
        rez::pid_picture_of(&bytes, path, palette_bytes.as_deref())
    }

    /// The ANI at `path` of the archive, as `gamedata rez ani --json` lists it, with the
    /// PID each frame shows.
    ///
    /// Returns `Err` (a sentence) as [`Library::rez_list`], or for an animation that
    /// cannot be read.
    pub fn rez_ani(&self, path: &str) -> Result<AniInfo> {
        rez::ani(self.archive()?, path)
    }

    fn archive(&self) -> Result<&rez::Archive> {
        self.rez
            .as_ref()
            .context("no REZ archive among the files given")
    }

    /// The PID and PAL files given of their own.
    fn scan_loose(&mut self) {
        self.loose = self
            .files
            .with_extension(".pid")
            .chain(self.files.with_extension(".pal"))
            .cloned()
            .collect();
        let images = self
            .loose
            .iter()
            .filter(|f| f.name().to_ascii_lowercase().ends_with(".pid"))
            .count();
        if images > 0 {
            self.found.push(format!(
                "PID images: {images} (under #rez, as rez pid draws them)"
            ));
        }
    }

    fn art_catalog(&self) -> Result<&art::ArtCatalog> {
        self.art.as_ref().context(
            "no Ultima Online art among the files given (artidx.mul with art.mul, or \
             artLegacyMUL.uop)",
        )
    }

    fn scan_wwd(&mut self) {
        self.rez = self
            .files
            .with_extension(".rez")
            .next()
            .cloned()
            .map(rez::Archive::new);
        let mut opened = 0;
        for file in self.files.with_extension(".wwd") {
            let stem = file.name().get(..file.name().len() - 4).unwrap_or_default();
            let path = format!("wwd/{stem}");
            match wwd::LevelEntry::open(file) {
                Ok(level) if !self.targets.contains_key(&path) => {
                    self.targets
                        .insert(path.clone(), Target::Wwd(self.levels.len()));
                    self.listed.push(path);
                    self.levels.push(level);
                    opened += 1;
                }
                Ok(_) => self.errors.push(format!(
                    "{path} is also {}: shown from the first",
                    file.path
                )),
                Err(e) => self.errors.push(format!("{e:#}")),
            }
        }
        if let Some(rez) = &self.rez {
            self.found.push(format!(
                "REZ archive: {} (its tree under #rez)",
                rez.file.path
            ));
        }
        self.scan_loose();
        if opened > 0 {
            let how = match &self.rez {
                Some(rez) => format!("drawn with {}", rez.file.path),
                None => "as collision maps (no .REZ archive given)".to_owned(),
            };
            self.found
                .push(format!("Claw or Gruntz: {opened} levels, {how}"));
        }
    }

    fn scan_cosmo(&mut self) {
        for folder in self.files.folders() {
            for episode in cosmo::Episode::find(folder) {
                let names = match episode.map_names() {
                    Ok(names) => names,
                    Err(e) => {
                        self.errors.push(format!("{e:#}"));
                        continue;
                    }
                };
                let index = self.episodes.len();
                let suffix = match episode.number {
                    1 => String::new(),
                    n => format!("?episode={n}"),
                };
                for name in &names {
                    let path = format!("cosmo/{name}");
                    let key = format!("{path}{suffix}");
                    self.targets
                        .insert(key.clone(), Target::Cosmo(index, name.clone()));
                    self.listed.push(key);
                }
                self.found.push(format!(
                    "Cosmo's Cosmic Adventure: episode {}, {} maps",
                    episode.number,
                    names.len()
                ));
                self.episodes.push(episode);
            }
        }
    }

    /// The map ids, in the order found (Ultima Online, levels, Cosmo).
    pub fn maps(&self) -> &[String] {
        &self.listed
    }

    /// The sentences of the files that failed.
    pub fn errors(&self) -> &[String] {
        &self.errors
    }

    /// A sentence for each game found, saying what it can show.
    pub fn found(&self) -> &[String] {
        &self.found
    }

    /// The target of `id` and the id parsed.
    fn target(&self, id: &str) -> Result<(&Target, MapId)> {
        let parsed = MapId::parse(id);
        let path = parsed.path();
        let key = match parsed.parts.first().map(String::as_str) {
            // An episode's maps are told apart by their episode option.
            Some("cosmo") => match parsed.value("episode") {
                Some("1") | None => path.clone(),
                Some(n) => format!("{path}?episode={n}"),
            },
            _ => path.clone(),
        };
        let known = match parsed.parts.first().map(String::as_str) {
            Some("uo") => uo::OPTIONS,
            Some("wwd") => wwd::OPTIONS,
            Some("cosmo") => cosmo::OPTIONS,
            _ => bail!("{id:?} is not a map id: they start with uo/, wwd/ or cosmo/"),
        };
        let Some(target) = self.targets.get(&key) else {
            bail!(
                "no map {path} among the files given; the maps are: {}",
                self.listed.join(", ")
            );
        };
        parsed.check(id, known)?;
        Ok((target, parsed))
    }

    /// The size of map `id`'s picture in pixels at its native zoom, and its zoom levels.
    ///
    /// Returns `Err` (a sentence) for an id not listed or a map that cannot be drawn.
    pub fn levels(&mut self, id: &str) -> Result<Levels> {
        self.with_source(id, |source, max_zoom| {
            let (w, h) = source.size();
            Ok(Levels::new(w, h, max_zoom)?)
        })
    }

    /// Tile (`x`, `y`) of zoom `z` of map `id`: 256 x 256 RGBA pixels, or `None` where the
    /// `tiles` command writes no file (outside the picture, past its zoom levels, or a
    /// tile of nothing).
    ///
    /// Returns `Err` (a sentence) for an id not listed or a map that cannot be drawn.
    pub fn tile(&mut self, id: &str, z: u8, x: u32, y: u32) -> Result<Option<RgbaImage>> {
        // The tiles kept are those of one map: another id starts afresh.
        let (kept_for, mut cache) = std::mem::take(&mut self.tiles);
        if kept_for != id {
            cache = TileCache::new(TILE_CACHE_BYTES);
        }
        let tile = self.with_source(id, |source, max_zoom| {
            let (w, h) = source.size();
            let levels = Levels::new(w, h, max_zoom)?;
            Ok(pyramid_tile_cached(
                source,
                &levels,
                z,
                u64::from(x),
                u64::from(y),
                &mut cache,
            )?)
        });
        self.tiles = (id.to_owned(), cache);
        tile.with_context(|| format!("drawing tile {z}/{x}/{y} of {id}"))
    }

    /// `f` run on map `id`'s picture and the deepest zoom it asks for.
    fn with_source<T>(
        &mut self,
        id: &str,
        f: impl FnOnce(&dyn gamedata_render::TileSource, Option<u8>) -> Result<T>,
    ) -> Result<T> {
        let (target, parsed) = self.target(id)?;
        let max_zoom: Option<u8> = parsed.number(id, "max-zoom")?;
        match target {
            Target::Uo(index, style) => {
                let facet = self.facets.get(*index).context("a facet listed")?;
                facet.with_source(style, &parsed, id, |s| f(s, max_zoom))
            }
            Target::Wwd(index) => {
                let level = self.levels.get(*index).context("a level listed")?;
                level.with_source(&parsed, id, self.rez.as_ref(), |s| f(s, max_zoom))
            }
            Target::Cosmo(index, name) => {
                let key = format!(
                    "{}?{}{}{}",
                    parsed.path(),
                    parsed.flag("actors"),
                    parsed.flag("backdrop"),
                    parsed.flag("attributes")
                );
                let cached = matches!(&self.cosmo_picture, Some((k, _)) if *k == key);
                if !cached {
                    let episode = self.episodes.get(*index).context("an episode listed")?;
                    let picture = episode.draw(name, &parsed)?;
                    self.cosmo_picture = Some((key, picture));
                }
                let (_, picture) = self.cosmo_picture.as_ref().context("the picture drawn")?;
                f(picture, max_zoom)
            }
        }
    }
}
