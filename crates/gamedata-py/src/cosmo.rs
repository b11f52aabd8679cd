//! `gamedata.cosmo`: mni-core's episode reader. An [`Episode`] owns an episode's two group
//! files (read or mapped) and hands out numpy views of its levels' cells and actors.

use std::path::PathBuf;

use gamedata_render::cosmo::{LayerOptions, draw_level};
use mni_core::{EpisodeFiles, EpisodeOptions};
use pyo3::prelude::*;
use zerocopy::IntoBytes;

use crate::arrays;
use crate::errors::{data_error, reader_error, render_error};

/// One episode of Cosmo's Cosmic Adventure: its group files COSMOn.STN and COSMOn.VOL,
/// read into memory (`open`) or memory-mapped (`map`). Source: docs/formats/cosmo.md.
#[pyclass(frozen, module = "gamedata.cosmo", name = "Episode")]
pub struct Episode {
    files: EpisodeFiles,
}

impl Episode {
    fn view(&self) -> PyResult<mni_core::Episode<'_>> {
        self.files.view().map_err(|e| data_error(&e))
    }

    fn map_of(&self, name: &str) -> PyResult<mni_core::Map<'_>> {
        let episode = self.view()?;
        episode
            .level(name)
            .and_then(|m| m.ok_or_else(|| episode.missing(name)))
            .map_err(|e| data_error(&e))
    }

    fn checked(files: EpisodeFiles) -> PyResult<Self> {
        let episode = Episode { files };
        episode.view()?;
        Ok(episode)
    }
}

#[pymethods]
impl Episode {
    /// Reads episode `episode` (1 to 3) of the game folder `dir` into memory. Raises
    /// `FileNotFoundError` for a missing group file, `gamedata.FormatError` for a malformed
    /// one.
    #[staticmethod]
    #[pyo3(signature = (dir, episode=1))]
    fn open(py: Python<'_>, dir: PathBuf, episode: u8) -> PyResult<Self> {
        let files = py
            .detach(|| EpisodeFiles::open_with(&dir, episode, &EpisodeOptions::default()))
            .map_err(reader_error)?;
        Self::checked(files)
    }

    /// As `open`, but memory-maps the group files. They must not be changed or truncated
    /// while mapped.
    #[staticmethod]
    #[pyo3(signature = (dir, episode=1))]
    fn map(dir: PathBuf, episode: u8) -> PyResult<Self> {
        #[allow(unsafe_code)]
        // SAFETY: mni-core's mapping entry point asks that nothing modify or truncate the
        // files while they are mapped; this method's docstring and the package's README
        // pass that contract on to the Python caller, as the command line does to its user.
        let files = unsafe { EpisodeFiles::map_with(&dir, episode, &EpisodeOptions::default()) };
        Self::checked(files.map_err(reader_error)?)
    }

    /// The names of the episode's levels ("A1.MNI" ...), in the group files' order.
    #[getter]
    fn level_names(&self) -> PyResult<Vec<String>> {
        Ok(self
            .view()?
            .level_names()
            .map(|e| e.name_lossy().into_owned())
            .collect())
    }

    /// The level `name` ("A1.MNI", any case). Raises `gamedata.FormatError` (kind
    /// "EntryNotFound") when the episode has none of that name, or when it is malformed.
    fn level(slf: &Bound<'_, Self>, name: &str) -> PyResult<Level> {
        slf.get().map_of(name)?;
        Ok(Level {
            episode: slf.clone().unbind(),
            name: name.to_owned(),
        })
    }

    /// TILEATTR.MNI's bytes, a read-only `uint8` view (no copy): the attribute bits of every
    /// tile (docs/formats/cosmo.md, "Tile attributes").
    #[getter]
    fn tile_attributes<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let table = slf
            .get()
            .view()?
            .tile_attributes()
            .map_err(|e| data_error(&e))?;
        let bytes: &[u8] = table.bytes();
        let dtype = slf.py().import("numpy")?.getattr("dtype")?.call1(("u1",))?;
        arrays::borrowed(slf.as_any(), bytes, &dtype, &[bytes.len()])
    }

    /// Level `name` drawn as the game shows it at level start: an `(h, w, 4)` `uint8` RGBA
    /// array, 8 pixels a cell (`width * 8` x `height * 8`), with the backdrop behind and the
    /// actors in front when asked (as `gamedata cosmo render`). Drawn with the GIL released.
    #[pyo3(signature = (name, actors=true, backdrop=true))]
    fn render<'py>(
        &self,
        py: Python<'py>,
        name: &str,
        actors: bool,
        backdrop: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let episode = self.view()?;
        let map = self.map_of(name)?;
        let options = LayerOptions {
            backdrop,
            actors,
            attributes: false,
        };
        let picture = py
            .detach(|| draw_level(&episode, &map, &options))
            .map_err(render_error)?;
        let (w, h) = (
            picture.image.width() as usize,
            picture.image.height() as usize,
        );
        arrays::numbers(py, picture.image.into_pixels(), &[h, w, 4])
    }

    /// `(address, length)` of group file "stn" or "vol" in memory, for tests that check a
    /// view lies inside it.
    fn _span(&self, name: &str) -> PyResult<(usize, usize)> {
        match name {
            "stn" => Ok(arrays::span(&self.files.stn)),
            "vol" => Ok(arrays::span(&self.files.vol)),
            _ => Err(pyo3::exceptions::PyValueError::new_err(format!(
                "no file {name:?}"
            ))),
        }
    }
}

/// One level (map) of an [`Episode`]; it keeps its episode alive.
#[pyclass(frozen, module = "gamedata.cosmo", name = "Level")]
pub struct Level {
    episode: Py<Episode>,
    name: String,
}

impl Level {
    fn with<'py, T>(
        &self,
        py: Python<'py>,
        f: impl FnOnce(&Bound<'py, Episode>, mni_core::Map<'_>) -> PyResult<T>,
    ) -> PyResult<T> {
        let episode = self.episode.bind(py);
        f(episode, episode.get().map_of(&self.name)?)
    }
}

#[pymethods]
impl Level {
    /// The level's entry name as asked for.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The episode it belongs to.
    #[getter]
    fn episode(&self, py: Python<'_>) -> Py<Episode> {
        self.episode.clone_ref(py)
    }

    /// Width in cells (a power of two from 32 to 2048).
    #[getter]
    fn width(&self, py: Python<'_>) -> PyResult<u16> {
        self.with(py, |_, map| Ok(map.width()))
    }

    /// Height in cells: 32,768 / width.
    #[getter]
    fn height(&self, py: Python<'_>) -> PyResult<u16> {
        self.with(py, |_, map| Ok(map.height()))
    }

    /// The number of the backdrop the map header names (flags bits 0-4).
    #[getter]
    fn backdrop(&self, py: Python<'_>) -> PyResult<u8> {
        self.with(py, |_, map| Ok(map.flags().backdrop))
    }

    /// The 32,764 stored cells, row-major, a read-only `uint16` view of the group file (no
    /// copy): a map stores 4 fewer cells than its grid.
    #[getter]
    fn cells_raw<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.with(py, |episode, map| {
            let cells = map.tile_values();
            let dtype = py.import("numpy")?.getattr("dtype")?.call1(("<u2",))?;
            arrays::borrowed(episode.as_any(), cells.as_bytes(), &dtype, &[cells.len()])
        })
    }

    /// The `(height, width)` grid of cells, `uint16`: a copy of `cells_raw` with the 4
    /// cells the file does not store (the grid's last four) set to 0.
    #[getter]
    fn cells<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.with(py, |_, map| {
            let (w, h) = (usize::from(map.width()), usize::from(map.height()));
            let mut grid = vec![0u16; w.saturating_mul(h)];
            for (cell, value) in grid.iter_mut().zip(map.tile_values()) {
                *cell = value.get();
            }
            arrays::numbers(py, grid, &[h, w])
        })
    }

    /// The actor records, a read-only structured view of the group file (no copy), dtype
    /// `ACTOR` `{type: <u2, x: <u2, y: <u2}` (x, y in cells).
    #[getter]
    fn actors<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.with(py, |episode, map| {
            let records = map.actor_records();
            let dtype = arrays::dtype(py, "ACTOR")?;
            arrays::borrowed(
                episode.as_any(),
                records.as_bytes(),
                &dtype,
                &[records.len()],
            )
        })
    }

    /// The level drawn: `episode.render(name, actors, backdrop)`.
    #[pyo3(signature = (actors=true, backdrop=true))]
    fn render<'py>(
        &self,
        py: Python<'py>,
        actors: bool,
        backdrop: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.episode
            .bind(py)
            .get()
            .render(py, &self.name, actors, backdrop)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        self.with(py, |_, map| {
            Ok(format!(
                "<gamedata.cosmo.Level {} of {} x {} cells, {} actors>",
                self.name,
                map.width(),
                map.height(),
                map.actor_records().len()
            ))
        })
    }
}

/// `gamedata.cosmo`'s classes.
pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Episode>()?;
    module.add_class::<Level>()?;
    Ok(())
}
