//! The library's JavaScript face (wasm-bindgen): [`Gamedata`] wraps a [`Library`], takes
//! files (whole, or by size and a read function), and gives map ids, tiles, art,
//! animations, a REZ archive's entries and a level's objects; an error is thrown as a
//! JavaScript `Error` carrying the sentence. Lists and records cross as JSON strings,
//! pictures as [`Picture`]s.

use anyhow::{Result, bail};
use gamedata_render::RgbaImage;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use crate::{ArtKind, FRAME_MS, Library, files};

/// The library as JavaScript sees it (`new Gamedata()`): files in, map ids and tiles out;
/// errors thrown as `Error`s carrying the sentence.
#[wasm_bindgen]
pub struct Gamedata(Library);

/// A map's size and zoom levels, for a deep-zoom viewer.
#[wasm_bindgen]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapLevels {
    /// The picture's width in pixels at the native zoom.
    pub width: u32,
    /// The picture's height in pixels at the native zoom.
    pub height: u32,
    /// The zoom where a pixel is a pixel of the picture.
    pub native_zoom: u8,
    /// The deepest zoom with tiles (`max-zoom=` in the id; else the native one).
    pub max_zoom: u8,
}

/// A picture: its size and RGBA pixels, row by row.
#[wasm_bindgen]
pub struct Picture {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// An animation frame's centre x in the picture (0 for art).
    pub centre_x: i32,
    /// An animation frame's centre y (0 for art).
    pub centre_y: i32,
    rgba: Vec<u8>,
}

impl Picture {
    /// `image` with a centre (0, 0 for art and PIDs).
    fn of(image: RgbaImage, centre_x: i32, centre_y: i32) -> Self {
        Picture {
            width: image.width(),
            height: image.height(),
            centre_x,
            centre_y,
            rgba: image.into_pixels(),
        }
    }
}

/// A value as JSON for the page; an error (none for these types) as the sentence.
fn json<T: serde::Serialize>(value: &T) -> Result<String, JsError> {
    serde_json::to_string(value).map_err(|e| JsError::new(&e.to_string()))
}

#[wasm_bindgen]
impl Picture {
    /// The pixels: `width * height * 4` bytes, RGBA, row by row (a copy).
    #[wasm_bindgen(getter)]
    pub fn rgba(&self) -> Vec<u8> {
        self.rgba.clone()
    }
}

/// An error as JavaScript gets it: the sentence with its causes (`reading X: ...`).
fn js_error(e: &anyhow::Error) -> JsError {
    JsError::new(&format!("{e:#}"))
}

#[wasm_bindgen]
impl Gamedata {
    /// An empty library.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Gamedata {
        Gamedata(Library::new())
    }

    /// Adds a file: its path relative to the folder chosen (`webkitRelativePath`, or the
    /// bare name) and its bytes, whole.
    #[wasm_bindgen(js_name = addFile)]
    pub fn add_file(&mut self, path: &str, bytes: Vec<u8>) {
        self.0.add_file(path, bytes);
    }

    /// Adds a file by its size and a function `read(offset, length)` that returns its
    /// bytes there as a `Uint8Array` (the page's `Blob.slice` read, synchronous in a
    /// worker): the file is read whole only when a reader needs it, else by entries.
    #[wasm_bindgen(js_name = addLazyFile)]
    pub fn add_lazy_file(&mut self, path: &str, size: f64, read: js_sys::Function) {
        let reader = move |offset: u64, length: u32| -> Result<Vec<u8>> {
            let got = read
                .call2(
                    &JsValue::NULL,
                    &JsValue::from_f64(offset as f64),
                    &JsValue::from_f64(f64::from(length)),
                )
                .map_err(|e| anyhow::anyhow!("the page's read failed: {e:?}"))?;
            if !got.is_instance_of::<js_sys::Uint8Array>() {
                bail!("the page's read gave no Uint8Array");
            }
            Ok(js_sys::Uint8Array::from(got).to_vec())
        };
        // A Blob's size is a whole number below 2^53; anything else counts as empty.
        let size = if (0.0..9_007_199_254_740_992.0).contains(&size) {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let whole = size as u64;
            whole
        } else {
            0
        };
        self.0.add_lazy_file(path, size, Box::new(reader));
    }

    /// The ids of art of `kind` (`"land"`, `"item"`, `"gump"`, or `"texmap"` for texture maps) with a
    /// picture, matching
    /// `search` (an id, or text in the tiledata name; `""` for all).
    #[wasm_bindgen(js_name = artIds)]
    pub fn art_ids(&self, kind: &str, search: &str) -> Result<Vec<u32>, JsError> {
        match kind {
            "texmap" => return self.0.texmap_ids(search).map_err(|e| js_error(&e)),
            "gump" => return self.0.gump_ids(search).map_err(|e| js_error(&e)),
            _ => {}
        }
        let kind = ArtKind::parse(kind).map_err(|e| js_error(&e))?;
        self.0.art_ids(kind, search).map_err(|e| js_error(&e))
    }

    /// Art `id` of `kind` with `hue`, as `gamedata uo art` draws it; `undefined` for an
    /// empty entry or picture; throws the sentence when it cannot be read or drawn.
    #[wasm_bindgen(js_name = artPicture)]
    pub fn art_picture(&self, kind: &str, id: u32, hue: u16) -> Result<Option<Picture>, JsError> {
        let other = match kind {
            "texmap" => Some(self.0.texmap_picture(id)),
            "gump" => Some(self.0.gump_picture(id, hue)),
            _ => None,
        };
        if let Some(picture) = other {
            let picture = picture.map_err(|e| js_error(&e))?;
            return Ok(picture.map(|p| Picture::of(p, 0, 0)));
        }
        let kind = ArtKind::parse(kind).map_err(|e| js_error(&e))?;
        let picture = self
            .0
            .art_picture(kind, id, hue)
            .map_err(|e| js_error(&e))?;
        Ok(picture.map(|p| Picture::of(p, 0, 0)))
    }

    /// Level `id`'s planes and the objects of the plane it shows, as JSON: `{planes,
    /// shown, objects: [{name, logic, image, x, y}], objects_error}`.
    #[wasm_bindgen(js_name = levelInfo)]
    pub fn level_info(&self, id: &str) -> Result<String, JsError> {
        let info = self.0.level_info(id).map_err(|e| js_error(&e))?;
        json(&info)
    }

    /// What is at the tile under pixel (`px`, `py`) of UO map `id` (native zoom), as JSON:
    /// `gamedata uo tile --json`'s keys (`x`, `y`, `land`, `statics`, `top_z`) and `names`;
    /// `undefined` past the map.
    #[wasm_bindgen(js_name = uoTileAt)]
    pub fn uo_tile_at(&self, id: &str, px: u32, py: u32) -> Result<Option<String>, JsError> {
        let tile = self.0.uo_tile_at(id, px, py).map_err(|e| js_error(&e))?;
        tile.map(|t| json(&t)).transpose()
    }

    /// Art `id`'s tiledata record as JSON (`uo tiledata --json`'s keys: `id`, `name`,
    /// `flags`, `height`, `weight`); `undefined` without one.
    #[wasm_bindgen(js_name = artTiledata)]
    pub fn art_tiledata(&self, kind: &str, id: u32) -> Result<Option<String>, JsError> {
        let kind = ArtKind::parse(kind).map_err(|e| js_error(&e))?;
        let record = self.0.art_tiledata(kind, id).map_err(|e| js_error(&e))?;
        record.map(|r| json(&r)).transpose()
    }

    /// The entries of directory `dir` of the REZ archive, as JSON: `[{name, path, dir,
    /// size}]`.
    #[wasm_bindgen(js_name = rezList)]
    pub fn rez_list(&self, dir: &str) -> Result<String, JsError> {
        let items = self.0.rez_list(dir).map_err(|e| js_error(&e))?;
        json(&items)
    }

    /// The PID at `path` (with the palette at `palette` in the archive, or `""` for its
    /// own); `undefined` when it has no palette and none is given.
    #[wasm_bindgen(js_name = rezPid)]
    pub fn rez_pid(&self, path: &str, palette: &str) -> Result<Option<Picture>, JsError> {
        let palette = (!palette.is_empty()).then_some(palette);
        let picture = self.0.rez_pid(path, palette).map_err(|e| js_error(&e))?;
        Ok(picture.map(|p| Picture::of(p, 0, 0)))
    }

    /// The ANI at `path` as JSON: `rez ani --json`'s keys and `images`, `pictures`.
    #[wasm_bindgen(js_name = rezAni)]
    pub fn rez_ani(&self, path: &str) -> Result<String, JsError> {
        let info = self.0.rez_ani(path).map_err(|e| js_error(&e))?;
        json(&info)
    }

    /// The animation files of anim.mul's form given, as JSON: `["anim", "anim2", ...]`.
    #[wasm_bindgen(js_name = animFiles)]
    pub fn anim_files(&self) -> Result<String, JsError> {
        json(&self.0.anim_files())
    }

    /// The bodies with animations in `file` (`anim` when not given, ... `anim5`; with
    /// AnimationFrame*.uop's), as JSON: `[[body, [action, ...]], ...]`.
    #[wasm_bindgen(js_name = animBodies)]
    pub fn anim_bodies(&self, file: Option<String>) -> Result<String, JsError> {
        let file = file.as_deref().unwrap_or("anim");
        let bodies = self.0.anim_bodies_in(file).map_err(|e| js_error(&e))?;
        json(&bodies)
    }

    /// The frames of body `body`'s action in `direction` with `hue`, from `file` (`anim`
    /// when not given, ... `anim5`) or AnimationFrame*.uop as the command chooses:
    /// pictures with their centres (`centre_x`, `centre_y` as properties of each
    /// [`Picture`]).
    #[wasm_bindgen(js_name = animFrames)]
    pub fn anim_frames(
        &self,
        body: u16,
        action: u16,
        direction: u8,
        hue: u16,
        file: Option<String>,
    ) -> Result<Vec<Picture>, JsError> {
        let file = file.as_deref().unwrap_or("anim");
        let frames = self
            .0
            .anim_frames_in(file, body, action, direction, hue)
            .map_err(|e| js_error(&e))?;
        Ok(frames
            .into_iter()
            .map(|f| Picture::of(f.picture, f.centre_x, f.centre_y))
            .collect())
    }

    /// The client's time a frame of an animation stays shown, in milliseconds.
    #[wasm_bindgen(js_name = frameMs)]
    pub fn frame_ms() -> u32 {
        FRAME_MS
    }

    /// The bytes of the files read whole so far.
    #[wasm_bindgen(js_name = loadedBytes)]
    pub fn loaded_bytes(&self) -> f64 {
        self.0.loaded_bytes() as f64
    }

    /// The WebAssembly memory's size in bytes (what the page's readers hold at most).
    #[wasm_bindgen(js_name = memoryBytes)]
    pub fn memory_bytes() -> f64 {
        #[cfg(target_arch = "wasm32")]
        let pages = core::arch::wasm32::memory_size(0);
        #[cfg(not(target_arch = "wasm32"))]
        let pages = 0usize;
        pages as f64 * 65_536.0
    }

    /// Whether the readers may use a file of this path (a page reads only those: not a
    /// client's animations).
    pub fn wants(path: &str) -> bool {
        files::wanted(path)
    }

    /// Finds the games in the files added so far.
    pub fn scan(&mut self) {
        self.0.scan();
    }

    /// The map ids.
    pub fn maps(&self) -> Vec<String> {
        self.0.maps().to_vec()
    }

    /// The sentences of the files that failed.
    pub fn errors(&self) -> Vec<String> {
        self.0.errors().to_vec()
    }

    /// A sentence for each game found.
    pub fn found(&self) -> Vec<String> {
        self.0.found().to_vec()
    }

    /// Map `id`'s size and zoom levels; throws the sentence if it cannot be drawn.
    pub fn levels(&mut self, id: &str) -> Result<MapLevels, JsError> {
        let l = self.0.levels(id).map_err(|e| js_error(&e))?;
        Ok(MapLevels {
            width: l.width,
            height: l.height,
            native_zoom: l.native,
            max_zoom: l.max,
        })
    }

    /// Tile (`x`, `y`) of zoom `z` of map `id`: 256 x 256 x 4 RGBA bytes, or `undefined`
    /// where the `tiles` command writes no file; throws the sentence on an error.
    pub fn tile(&mut self, id: &str, z: u8, x: u32, y: u32) -> Result<Option<Vec<u8>>, JsError> {
        let tile = self.0.tile(id, z, x, y).map_err(|e| js_error(&e))?;
        Ok(tile.map(RgbaImage::into_pixels))
    }
}

impl Default for Gamedata {
    fn default() -> Self {
        Self::new()
    }
}
