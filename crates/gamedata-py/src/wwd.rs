//! `gamedata.wwd`: wap-core's level reader. A [`Level`] owns a WWD file (read or mapped, its
//! main block decompressed once) and hands out numpy views of its planes' tiles.

use std::path::PathBuf;

use gamedata_render::wwd::{Scene, SceneOptions, View, collision, default_tile_px};
use gamedata_render::{Region, RgbaImage};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use wap_core::{CodePage, ImageSource, LevelFile, LevelOptions, Limits, Tile, decode};
use zerocopy::IntoBytes;

use crate::arrays;
use crate::errors::{data_error, reader_error, render_error};

/// A WWD level of Claw or Gruntz: its header, planes (tiles and objects) and tile
/// properties, with the main block decompressed once at opening. `code_page` ("cp1252",
/// the default, or "cp1250" for Polish levels) decodes the text fields. Source:
/// docs/formats/wwd.md.
#[pyclass(frozen, module = "gamedata.wwd", name = "Level")]
pub struct Level {
    file: LevelFile,
    page: CodePage,
}

fn code_page(name: &str) -> PyResult<CodePage> {
    match name.to_ascii_lowercase().as_str() {
        "cp1252" | "windows-1252" => Ok(CodePage::Cp1252),
        "cp1250" | "windows-1250" => Ok(CodePage::Cp1250),
        _ => Err(PyValueError::new_err(format!(
            "no code page {name:?}: give \"cp1252\" or \"cp1250\""
        ))),
    }
}

impl Level {
    fn view(&self) -> PyResult<wap_core::Level<'_>> {
        self.file.view().map_err(|e| data_error(&e))
    }

    fn checked(file: LevelFile, page: CodePage) -> PyResult<Self> {
        let level = Level { file, page };
        level.view()?;
        Ok(level)
    }

    fn text(&self, bytes: &[u8]) -> String {
        decode(wap_core::field_text(bytes), self.page).into_owned()
    }

    fn main_plane(&self) -> PyResult<wap_core::Plane<'_>> {
        self.view()?
            .main_plane()
            .map_err(|e| data_error(&e))?
            .ok_or_else(|| PyValueError::new_err("the level has no main plane"))
    }
}

#[pymethods]
impl Level {
    /// Reads the level at `path` into memory and decompresses its main block. Raises
    /// `FileNotFoundError` for a missing file, `gamedata.FormatError` for a malformed one.
    #[staticmethod]
    #[pyo3(signature = (path, code_page="cp1252"))]
    fn open(py: Python<'_>, path: PathBuf, code_page: &str) -> PyResult<Self> {
        let page = self::code_page(code_page)?;
        let file = py
            .detach(|| LevelFile::open_with(&path, &LevelOptions::default()))
            .map_err(reader_error)?;
        Self::checked(file, page)
    }

    /// As `open`, but memory-maps the file (a compressed level's main block is still
    /// decompressed into memory). The file must not be changed or truncated while mapped.
    #[staticmethod]
    #[pyo3(signature = (path, code_page="cp1252"))]
    fn map(path: PathBuf, code_page: &str) -> PyResult<Self> {
        let page = self::code_page(code_page)?;
        #[allow(unsafe_code)]
        // SAFETY: wap-core's mapping entry point asks that nothing modify or truncate the
        // file while it is mapped; this method's docstring and the package's README pass
        // that contract on to the Python caller, as the command line does to its user.
        let file = unsafe { LevelFile::map_with(&path, &LevelOptions::default()) };
        Self::checked(file.map_err(reader_error)?, page)
    }

    /// The level's name (header text field, decoded).
    #[getter]
    fn name(&self) -> PyResult<String> {
        Ok(self.text(self.view()?.header().name()))
    }

    /// The header's fields: `{name, author, birth, rez_file, image_dir, palette, start_x,
    /// start_y, flags, compressed, plane_count, main_block_size, checksum, prefixes:
    /// [[prefix, image set], ...]}` (text decoded with the level's code page; the start in
    /// pixels; `main_block_size` the main block's size in bytes as decompressed, as `gamedata
    /// wwd info` gives it, whatever the header stores).
    #[getter]
    fn header<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let header = self.view()?.header();
        let d = PyDict::new(py);
        d.set_item("name", self.text(header.name()))?;
        d.set_item("author", self.text(header.author()))?;
        d.set_item("birth", self.text(header.birth()))?;
        d.set_item("rez_file", self.text(header.rez_path()))?;
        d.set_item("image_dir", self.text(header.image_dir()))?;
        d.set_item("palette", self.text(header.palette_path()))?;
        let (sx, sy) = header.start();
        d.set_item("start_x", sx)?;
        d.set_item("start_y", sy)?;
        d.set_item("flags", header.flags())?;
        d.set_item("compressed", self.file.compressed())?;
        d.set_item("plane_count", header.plane_count())?;
        d.set_item("main_block_size", self.file.main_block().len())?;
        d.set_item("checksum", header.checksum())?;
        let prefixes = PyList::empty(py);
        for (prefix, set) in header.image_set_prefixes() {
            prefixes.append((self.text(prefix), self.text(set)))?;
        }
        d.set_item("prefixes", prefixes)?;
        Ok(d)
    }

    /// The planes, back to front as stored (the main plane among them).
    #[getter]
    fn planes<'py>(slf: &Bound<'py, Self>) -> PyResult<Vec<Plane>> {
        let level = slf.get().view()?;
        let owner: Py<Level> = slf.clone().unbind();
        (0..level.plane_count())
            .map(|index| {
                Ok(Plane {
                    level: owner.clone_ref(slf.py()),
                    index,
                })
            })
            .collect()
    }

    /// The attribute value at pixel (x, y) of the main plane (0 clear, 1 solid, 2 ground,
    /// 3 climb, 4 death; other values as stored), from the tile there and its tile property
    /// record; 0 for an empty or filled tile or an id without a record. Raises `IndexError`
    /// outside the plane.
    fn attribute_at(&self, x: i64, y: i64) -> PyResult<i32> {
        let level = self.view()?;
        let plane = self.main_plane()?;
        let (tw, th) = plane.tile_size();
        let (tw, th) = (i64::from(tw.max(1)), i64::from(th.max(1)));
        let (tx, ty) = (x.div_euclid(tw), y.div_euclid(th));
        let tile = match (u32::try_from(tx), u32::try_from(ty)) {
            (Ok(tx), Ok(ty)) => plane.tile(tx, ty),
            _ => None,
        };
        let Some(tile) = tile.filter(|_| x >= 0 && y >= 0) else {
            return Err(PyIndexError::new_err(format!(
                "pixel ({x}, {y}) is outside the main plane of {} x {} tiles of {tw} x {th} pixels",
                plane.tiles_wide(),
                plane.tiles_high()
            )));
        };
        let Tile::Image { id, .. } = tile else {
            return Ok(0);
        };
        let index = level
            .tile_properties()
            .and_then(|t| t.collect())
            .map_err(|e| data_error(&e))?;
        let (sx, sy) = (x.rem_euclid(tw), y.rem_euclid(th));
        Ok(index
            .attribute_at(
                id,
                i32::try_from(sx).unwrap_or(0),
                i32::try_from(sy).unwrap_or(0),
            )
            .unwrap_or(0))
    }

    /// The main plane's collision map (tile attributes pixel by pixel, objects marked), as
    /// `gamedata wwd render` draws it: an `(h, w, 4)` `uint8` RGBA array, `tile_px` pixels a
    /// tile side (1 to 256; default the largest that keeps both sides within 16,384).
    /// Drawn with the GIL released. Raises `ValueError` for a `tile_px` out of range.
    #[pyo3(signature = (tile_px=None))]
    fn collision<'py>(&self, py: Python<'py>, tile_px: Option<u32>) -> PyResult<Bound<'py, PyAny>> {
        let level = self.view()?;
        let plane = self.main_plane()?;
        let index = level
            .tile_properties()
            .and_then(|t| t.collect())
            .map_err(|e| data_error(&e))?;
        let tile_px = tile_px.unwrap_or_else(|| default_tile_px(&plane));
        let drawn = py
            .detach(|| collision(&plane, &index, tile_px))
            .map_err(render_error)?;
        let (w, h) = (drawn.image.width() as usize, drawn.image.height() as usize);
        arrays::numbers(py, drawn.image.into_pixels(), &[h, w, 4])
    }

    /// The level as the game draws it, from `rez` (a REZ archive, read into memory, or a
    /// folder of extracted files), by the engine's rules (docs/formats/wap32.md, "Levels:
    /// how the engine draws them"), as `gamedata wwd render --rez`: an `(h, w, 4)` `uint8`
    /// RGBA array. With `view=(x, y)` the screen a player sees with the camera's top-left
    /// at main-plane pixel (x, y), `size=(w, h)` pixels (640 x 480 by default), one pixel a
    /// game pixel; else the whole main plane at `tile_px` pixels a tile side (1 to 256;
    /// default the largest that keeps both sides within 4,096). `markers=True` draws a
    /// magenta marker where an image is missing (the game draws nothing); `time=MS` draws
    /// each object whose animation names an ANI file at the frame it shows MS milliseconds
    /// after the level starts (as `--time`). Drawn with the
    /// GIL released. Raises `ValueError` for a `tile_px` or size out of range or both
    /// `view` and `tile_px`, `OSError` when `rez` cannot be read and `gamedata.FormatError` when it is
    /// no archive.
    #[pyo3(signature = (rez, view=None, size=None, tile_px=None, markers=false, time=None))]
    // Python's keyword arguments, one parameter each.
    #[allow(clippy::too_many_arguments)]
    fn render<'py>(
        &self,
        py: Python<'py>,
        rez: PathBuf,
        view: Option<(i32, i32)>,
        size: Option<(u32, u32)>,
        tile_px: Option<u32>,
        markers: bool,
        time: Option<u64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let level = self.view()?;
        let plane = self.main_plane()?;
        if view.is_some() && tile_px.is_some() {
            return Err(PyValueError::new_err(
                "a view is drawn a game pixel a pixel: give view or tile_px, not both",
            ));
        }
        if size.is_some() && view.is_none() {
            return Err(PyValueError::new_err("size is the view's: give view too"));
        }
        let view = view.map(|(x, y)| {
            let (width, height) = size.unwrap_or(View::SCREEN);
            View {
                x,
                y,
                width,
                height,
            }
        });
        let options = SceneOptions {
            tile_px: match view {
                Some(_) => None,
                None => Some(tile_px.unwrap_or_else(|| default_tile_px(&plane))),
            },
            markers,
            view,
            time,
            ..SceneOptions::default()
        };
        let picture = py.detach(|| -> PyResult<RgbaImage> {
            let source =
                ImageSource::at(&rez, |p| wap_core::RezFile::open(p)).map_err(reader_error)?;
            let scene =
                Scene::new(&level, &source, &options, &Limits::default()).map_err(render_error)?;
            scene
                .rect(Region::new(0, 0, scene.width(), scene.height()))
                .map_err(render_error)
        })?;
        let (w, h) = (picture.width() as usize, picture.height() as usize);
        arrays::numbers(py, picture.into_pixels(), &[h, w, 4])
    }

    /// Exports the level to a Tiled map at `path` (TMX, or TMJ, Tiled's JSON, for a name
    /// ending in `.tmj` or `.json`) with its tileset and object images in the folder
    /// `NAME_images` beside it, laid out so that Tiled draws it where the game draws it, as
    /// `gamedata wwd tmx` (docs/formats/tiled.md). The images come from `rez` (a REZ
    /// archive) or `images` (a folder of extracted files): give one. Returns `{tmx,
    /// format, width, height, layers, objects, objects_drawn, tilesets, images,
    /// missing_images}`. Exported with the GIL released. Raises `ValueError` for neither or
    /// both of `rez` and `images` or a level Tiled cannot hold (no main plane, planes of
    /// other tile sizes, past the limits), `OSError` when a file cannot be read or
    /// written, `gamedata.FormatError` when the archive or level cannot be read.
    #[pyo3(signature = (path, rez=None, images=None))]
    fn to_tmx<'py>(
        &self,
        py: Python<'py>,
        path: PathBuf,
        rez: Option<PathBuf>,
        images: Option<PathBuf>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let level = self.view()?;
        let source_path = match (rez, images) {
            (Some(p), None) | (None, Some(p)) => p,
            _ => {
                return Err(PyValueError::new_err(
                    "the images come from rez= (an archive) or images= (a folder): give one",
                ));
            }
        };
        let json = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("tmj") || e.eq_ignore_ascii_case("json"));
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .ok_or_else(|| PyValueError::new_err("the map's file name is not text"))?;
        let images_dir = format!("{stem}_images");
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let export = py.detach(|| -> PyResult<gamedata_tiled::wwd::Export> {
            let source = ImageSource::at(&source_path, |p| wap_core::RezFile::open(p))
                .map_err(reader_error)?;
            let options =
                gamedata_tiled::wwd::ExportOptions::default().with_images_dir(images_dir.clone());
            let export = gamedata_tiled::wwd::export(&level, &source, &options, &Limits::default())
                .map_err(tiled_error)?;
            for image in &export.images {
                let file = folder.join(&image.path);
                if let Some(parent) = file.parent() {
                    std::fs::create_dir_all(parent)?;
                }
                let out = std::io::BufWriter::new(std::fs::File::create(&file)?);
                let pixels = gamedata_render::PngPixels::Image(&image.image);
                gamedata_render::write_png(out, pixels, &Default::default())
                    .map_err(render_error)?;
            }
            let out = std::io::BufWriter::new(std::fs::File::create(&path)?);
            if json {
                gamedata_tiled::tmj::write_tmj(&export.map, out)?;
            } else {
                gamedata_tiled::tmx::write_tmx(&export.map, out)?;
            }
            Ok(export)
        })?;
        let map = &export.map;
        let d = PyDict::new(py);
        d.set_item("tmx", path.display().to_string())?;
        d.set_item("format", if json { "tmj" } else { "tmx" })?;
        d.set_item("width", map.width)?;
        d.set_item("height", map.height)?;
        d.set_item("layers", map.layers.len())?;
        d.set_item("objects", map.objects().count())?;
        d.set_item("objects_drawn", export.report.objects_drawn)?;
        d.set_item("tilesets", map.tilesets.len())?;
        d.set_item("images", export.images.len())?;
        d.set_item("missing_images", export.report.missing_images)?;
        Ok(d)
    }

    /// `(address, length)` of the level's decompressed bytes in memory, for tests that
    /// check a view lies inside them.
    fn _span(&self) -> (usize, usize) {
        arrays::span(self.file.image())
    }

    fn __repr__(&self) -> PyResult<String> {
        let level = self.view()?;
        Ok(format!(
            "<gamedata.wwd.Level {:?}, {} planes>",
            self.text(level.header().name()),
            level.plane_count()
        ))
    }
}

/// What cannot be exported to Tiled: the level's and the images' errors as theirs, the
/// others (no main plane, tile sizes, limits) as `ValueError`.
fn tiled_error(error: gamedata_tiled::TiledError) -> PyErr {
    match error {
        gamedata_tiled::TiledError::Level(e) => data_error(&e),
        gamedata_tiled::TiledError::Render(e) => render_error(e),
        other => PyValueError::new_err(other.to_string()),
    }
}

/// One plane of a [`Level`]; it keeps its level alive.
#[pyclass(frozen, module = "gamedata.wwd", name = "Plane")]
pub struct Plane {
    level: Py<Level>,
    index: usize,
}

impl Plane {
    fn with<T>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&Level, wap_core::Plane<'_>) -> PyResult<T>,
    ) -> PyResult<T> {
        let level = self.level.bind(py).get();
        let plane = level
            .view()?
            .plane(self.index)
            .map_err(|e| data_error(&e))?
            .ok_or_else(|| PyIndexError::new_err("no such plane"))?;
        f(level, plane)
    }
}

#[pymethods]
impl Plane {
    /// The level this plane belongs to.
    #[getter]
    fn level(&self, py: Python<'_>) -> Py<Level> {
        self.level.clone_ref(py)
    }

    /// Its position among the level's planes.
    #[getter]
    fn index(&self) -> usize {
        self.index
    }

    /// Its name ("Background", "Action", "Front" ...).
    #[getter]
    fn name(&self, py: Python<'_>) -> PyResult<String> {
        self.with(py, |level, plane| Ok(level.text(plane.name())))
    }

    /// Whether it is the main plane (the one the player moves in).
    #[getter]
    fn is_main(&self, py: Python<'_>) -> PyResult<bool> {
        self.with(py, |_, plane| Ok(plane.is_main()))
    }

    /// Its draw order (higher in front).
    #[getter]
    fn z(&self, py: Python<'_>) -> PyResult<i32> {
        self.with(py, |_, plane| Ok(plane.z()))
    }

    /// `(width, height)` of a tile in pixels.
    #[getter]
    fn tile_size(&self, py: Python<'_>) -> PyResult<(i32, i32)> {
        self.with(py, |_, plane| Ok(plane.tile_size()))
    }

    /// The tile grid, a read-only `(height, width)` `uint32` view (in tiles) of the level's
    /// decompressed main block, no copy: a value is a tile id (the index of its tile
    /// property record, in the low 16 bits), 0xFFFFFFFF empty, 0xEEEEEEEE filled with the
    /// plane's fill colour.
    #[getter]
    fn tiles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let owner = self.level.bind(py).clone().into_any();
        self.with(py, |_, plane| {
            let dtype = py.import("numpy")?.getattr("dtype")?.call1(("<u4",))?;
            let shape = [plane.tiles_high() as usize, plane.tiles_wide() as usize];
            arrays::borrowed(&owner, plane.tiles().as_bytes(), &dtype, &shape)
        })
    }

    /// The objects' fixed parts, a structured array of dtype `OBJECT` (one row an object,
    /// in file order): a copy, as the records lie between their names in the file.
    #[getter]
    fn objects<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.with(py, |_, plane| {
            let mut bytes = Vec::new();
            for object in plane.objects() {
                let object = object.map_err(|e| data_error(&e))?;
                bytes.extend_from_slice(object.raw().as_bytes());
            }
            let count = bytes.len() / wap_core::raw::OBJECT_FIXED_LEN;
            let dtype = arrays::dtype(py, "OBJECT")?;
            arrays::owned(py, bytes, &dtype, &[count])
        })
    }

    /// The objects' four names as stored: `{name, logic, image_set, animation}`, each a
    /// list of `bytes` in the order of `objects`.
    #[getter]
    fn names<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.names_as(py, |_, b| PyBytes::new(py, b).into_any())
    }

    /// The objects' four names decoded with the level's code page: `{name, logic,
    /// image_set, animation}`, each a list of `str` in the order of `objects`.
    #[getter]
    fn text<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.names_as(py, |level, b| {
            pyo3::types::PyString::new(py, &level.text(b)).into_any()
        })
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        self.with(py, |level, plane| {
            Ok(format!(
                "<gamedata.wwd.Plane {:?}, {} x {} tiles, {} objects>",
                level.text(plane.name()),
                plane.tiles_wide(),
                plane.tiles_high(),
                plane.object_count()
            ))
        })
    }
}

impl Plane {
    fn names_as<'py>(
        &self,
        py: Python<'py>,
        item: impl Fn(&Level, &[u8]) -> Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        self.with(py, |level, plane| {
            let lists = [
                PyList::empty(py),
                PyList::empty(py),
                PyList::empty(py),
                PyList::empty(py),
            ];
            for object in plane.objects() {
                let object = object.map_err(|e| data_error(&e))?;
                let fields = [
                    object.name(),
                    object.logic(),
                    object.image_set(),
                    object.animation(),
                ];
                for (list, field) in lists.iter().zip(fields) {
                    list.append(item(level, field))?;
                }
            }
            let d = PyDict::new(py);
            for (key, list) in ["name", "logic", "image_set", "animation"]
                .into_iter()
                .zip(lists)
            {
                d.set_item(key, list)?;
            }
            Ok(d)
        })
    }
}

/// `gamedata.wwd`'s classes.
pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Level>()?;
    module.add_class::<Plane>()?;
    Ok(())
}
