//! Claw and Gruntz levels (.WWD): each drawn as `wwd tiles` draws it, by the engine's rules
//! from the REZ archive among the files when there is one (`--rez`), else as its collision
//! map. The archive's tables are read by ranges and each picture the level uses by its
//! own range (`crate::rez::Archive::image_source`).

use anyhow::{Context, Result, bail};
use gamedata_render::TileSource;
use gamedata_render::wwd::{CollisionMap, Scene, SceneOptions, default_tile_px};
use wap_core::{CodePage, Level, LevelFile, LevelOptions, Limits, decode};

use crate::files::File;
use crate::id::MapId;

/// The options of a level's id: `wwd tiles`' flags, and `collision` for the collision map
/// when an archive is there.
pub(crate) const OPTIONS: &[&str] = &[
    "plane=",
    "no-objects",
    "markers",
    "time=",
    "collision",
    "max-zoom=",
];

/// A level, checked and (when compressed) decompressed once.
pub(crate) struct LevelEntry {
    /// The file's path as given.
    pub(crate) path: String,
    level: LevelFile,
}

impl LevelEntry {
    /// Opens `file` as `wwd` does (the same limits) and checks that its planes can be read.
    pub(crate) fn open(file: &File) -> Result<Self> {
        let doing = || format!("reading {}", file.path);
        let level =
            LevelFile::from_data(file.data()?, &LevelOptions::default()).with_context(doing)?;
        let view = level.view().with_context(doing)?;
        view.main_plane().with_context(doing)?;
        Ok(LevelEntry {
            path: file.path.clone(),
            level,
        })
    }

    /// `f` run on the level's picture that `id` asks for: drawn from `rez` when given
    /// (and `collision` is not asked for), else the collision map.
    pub(crate) fn with_source<T>(
        &self,
        id: &MapId,
        id_text: &str,
        rez: Option<&crate::rez::Archive>,
        f: impl FnOnce(&dyn TileSource) -> Result<T>,
    ) -> Result<T> {
        let doing = || format!("reading {}", self.path);
        let level = self.level.view().with_context(doing)?;
        let plane_name = id.value("plane");
        let plane = chosen_plane(&level, plane_name, &self.path)?;
        // One game pixel a pixel at the native zoom: the plane's tile width a tile.
        let tile = u32::try_from(plane.tile_size().0).ok();
        let Some(rez) = rez.filter(|_| !id.flag("collision")) else {
            if id.flag("no-objects") || id.flag("markers") || id.value("time").is_some() {
                bail!(
                    "the map id {id_text:?} asks for objects, markers or a time: they need the \
                     game's REZ archive among the files"
                );
            }
            let index = level
                .tile_properties()
                .and_then(|t| t.collect())
                .with_context(doing)?;
            let map = CollisionMap::new(&plane, &index, tile.unwrap_or(0))
                .with_context(|| format!("drawing {}", self.path))?;
            return f(&map);
        };
        let images = rez.image_source()?;
        let options = SceneOptions {
            tile_px: tile.or(Some(default_tile_px(&plane))),
            plane: plane_name.map(|_| plane.index()),
            no_objects: id.flag("no-objects"),
            markers: id.flag("markers"),
            time: id.number(id_text, "time")?,
            ..SceneOptions::default()
        };
        // One budget of decoded bytes, as `wwd tiles` has: the level's decoded image first,
        // the pictures' from what is left.
        let defaults = Limits::default();
        let limits = defaults.with_max_decoded_bytes(
            defaults
                .max_decoded_bytes
                .saturating_sub(level.image().len() as u64),
        );
        let scene = Scene::new(&level, &images, &options, &limits)
            .with_context(|| format!("drawing {}", self.path))?;
        f(&scene)
    }
}

/// What the page lists of a level: its planes' names and the objects of the plane shown.
#[derive(Debug, serde::Serialize)]
pub struct LevelInfo {
    /// Every plane's name, in the file's order.
    pub planes: Vec<String>,
    /// The plane shown (`plane=`, else the main plane).
    pub shown: String,
    /// The objects of the plane shown, in stored order: name, logic and position in the
    /// plane's pixels (the picture's pixels at the native zoom).
    pub objects: Vec<ObjectInfo>,
    /// The objects' sentence when they stop early (an object past the file's end).
    pub objects_error: Option<String>,
    /// The archive the level is drawn with (objects, markers and time need one); `None`
    /// for the collision map.
    pub archive: Option<String>,
}

/// One object of a level.
#[derive(Debug, serde::Serialize)]
pub struct ObjectInfo {
    /// Its name field.
    pub name: String,
    /// Its logic (`PowerupGlitter`, `Soldier`).
    pub logic: String,
    /// Its image set (`LEVEL_TORCH`).
    pub image: String,
    /// Its x in pixels.
    pub x: i32,
    /// Its y in pixels.
    pub y: i32,
}

impl LevelEntry {
    /// The level's planes and the objects of the plane `id` shows.
    pub(crate) fn info(&self, id: &MapId) -> Result<LevelInfo> {
        let doing = || format!("reading {}", self.path);
        let level = self.level.view().with_context(doing)?;
        let text = |b: &[u8]| decode(b, CodePage::Cp1252).into_owned();
        let planes = level
            .plane_headers()
            .iter()
            .map(|p| text(wap_core::field_text(&p.name)))
            .collect();
        let plane = chosen_plane(&level, id.value("plane"), &self.path)?;
        let mut objects = Vec::new();
        let mut objects_error = None;
        for object in plane.objects() {
            match object {
                Ok(o) => {
                    let (x, y) = o.position();
                    objects.push(ObjectInfo {
                        name: text(o.name()),
                        logic: text(o.logic()),
                        image: text(o.image_set()),
                        x,
                        y,
                    });
                }
                Err(e) => {
                    objects_error = Some(format!("{:#}", anyhow::Error::from(e).context(doing())));
                    break;
                }
            }
        }
        Ok(LevelInfo {
            planes,
            shown: text(plane.name()),
            objects,
            objects_error,
            archive: None,
        })
    }
}

/// The plane named `name` (case ignored), else the main plane; as `wwd tiles --plane`.
fn chosen_plane<'data>(
    level: &Level<'data>,
    name: Option<&str>,
    path: &str,
) -> Result<wap_core::Plane<'data>> {
    let found = match name {
        Some(name) => level.plane_named(name),
        None => level.main_plane(),
    }
    .with_context(|| format!("reading {path}"))?;
    match (found, name) {
        (Some(plane), _) => Ok(plane),
        (None, Some(name)) => {
            let names: Vec<String> = level
                .plane_headers()
                .iter()
                .map(|p| decode(wap_core::field_text(&p.name), CodePage::Cp1252).into_owned())
                .collect();
            bail!("no plane named {name:?} in {path}; the planes are {names:?}")
        }
        (None, None) => bail!("no plane of {path} has the main flag; name one with plane=NAME"),
    }
}
