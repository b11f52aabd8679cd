//! `gamedata.uo`: mul-core's facet reader. A [`Facet`] owns a facet's files (read or mapped)
//! and hands out numpy views of them.

use std::path::PathBuf;
use std::sync::OnceLock;

use gamedata_render::Region;
use gamedata_render::uo::{RadarOptions, RadarStyle, radar};
use mul_core::raw::StaticRecord;
use mul_core::{FacetFiles, FacetOptions, MapSize, Statics, TileFlags, facet::query};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rayon::prelude::*;
use zerocopy::IntoBytes;

use crate::arrays;
use crate::errors::{data_error, outside, reader_error, render_error};
use crate::world::{self, WorldFiles};

/// Bytes of a row of dtype `FOUND`: x, y (u32), z (i8), id, hue (u16).
pub(crate) const FOUND_LEN: usize = 13;

/// One facet of an Ultima Online client folder: the map (MUL or UOP), the statics and their
/// index, and tiledata, radarcol and hues when the folder has them, read into memory
/// (`open`) or memory-mapped (`map`). The arrays it hands out are views of these bytes (or
/// say that they are copies) and keep them alive. Source: docs/formats/uo.md.
#[pyclass(frozen, module = "gamedata.uo", name = "Facet")]
pub struct Facet {
    files: FacetFiles,
    /// The folder the files came from, where `render_world` finds the art.
    dir: PathBuf,
    /// The art and texture maps `render_world` draws with, loaded on its first call.
    world: OnceLock<WorldFiles>,
}

/// `FacetOptions` from the Python arguments.
fn options(size: Option<(u32, u32)>, apply_diffs: bool) -> PyResult<FacetOptions> {
    let size = match size {
        Some((w, h)) => Some(MapSize::from_tiles(w, h).map_err(|e| data_error(&e))?),
        None => None,
    };
    let mut options = FacetOptions::default();
    options.size = size;
    options.apply_diffs = apply_diffs;
    Ok(options)
}

impl Facet {
    fn views(&self) -> PyResult<mul_core::Facet<'_>> {
        self.files.view().map_err(|e| data_error(&e))
    }

    fn checked(files: FacetFiles, dir: PathBuf) -> PyResult<Self> {
        let facet = Facet {
            files,
            dir,
            world: OnceLock::new(),
        };
        facet.views()?;
        Ok(facet)
    }
}

#[pymethods]
impl Facet {
    /// Reads facet `facet`'s files from the client folder `dir` into memory.
    /// `size` is `(width, height)` in tiles (multiples of 8) when the map's length does not
    /// prove it; `apply_diffs` applies the diff files. Raises `FileNotFoundError` for a
    /// missing file, `gamedata.FormatError` for a malformed one.
    #[staticmethod]
    #[pyo3(signature = (dir, facet=0, size=None, apply_diffs=false))]
    fn open(
        py: Python<'_>,
        dir: PathBuf,
        facet: u8,
        size: Option<(u32, u32)>,
        apply_diffs: bool,
    ) -> PyResult<Self> {
        let options = options(size, apply_diffs)?;
        let files = py
            .detach(|| FacetFiles::open_with(&dir, facet, &options))
            .map_err(reader_error)?;
        Self::checked(files, dir)
    }

    /// As `open`, but memory-maps the files: nothing is read until used. The files must not
    /// be changed or truncated while mapped (a truncated file ends the process with SIGBUS).
    #[staticmethod]
    #[pyo3(signature = (dir, facet=0, size=None, apply_diffs=false))]
    fn map(dir: PathBuf, facet: u8, size: Option<(u32, u32)>, apply_diffs: bool) -> PyResult<Self> {
        let options = options(size, apply_diffs)?;
        #[allow(unsafe_code)]
        // SAFETY: mul-core's mapping entry point asks that nothing modify or truncate the
        // files while they are mapped; this method's docstring and the package's README pass
        // that contract on to the Python caller, as the command line does to its user.
        let files = unsafe { FacetFiles::map_with(&dir, facet, &options) };
        Self::checked(files.map_err(reader_error)?, dir)
    }

    /// The map's width in tiles.
    #[getter]
    fn width(&self) -> PyResult<u32> {
        Ok(self.views()?.size().width())
    }

    /// The map's height in tiles.
    #[getter]
    fn height(&self) -> PyResult<u32> {
        Ok(self.views()?.size().height())
    }

    /// Whether the files are memory-mapped (`map`) rather than read (`open`).
    #[getter]
    fn mapped(&self) -> bool {
        self.files.data().map.is_mapped()
    }

    /// The map's blocks, shape `(blocks_x, blocks_y)` (column-major, as stored: block
    /// (bx, by) is `blocks[bx, by]`), dtype `MAP_BLOCK` `{header: <u4, cells: (64,){id: <u2,
    /// z: i1}}` with cell (cx, cy) of a block at `cells[cy * 8 + cx]`. A read-only view of
    /// the map file for a MUL map; a copy for a map UOP or with diffs applied (their blocks
    /// are not one array in a file).
    #[getter]
    fn blocks<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let facet = slf.get().views()?;
        let size = facet.size();
        let shape = [size.width() as usize / 8, size.height() as usize / 8];
        let dtype = arrays::dtype(py, "MAP_BLOCK")?;
        match facet.map.as_slice() {
            Some(blocks) => arrays::borrowed(slf.as_any(), blocks.as_bytes(), &dtype, &shape),
            None => {
                let bytes = py.detach(|| {
                    let mut out = Vec::with_capacity(facet.map.len().saturating_mul(196));
                    for block in facet.map.blocks() {
                        out.extend_from_slice(block.as_bytes());
                    }
                    out
                });
                arrays::owned(py, bytes, &dtype, &shape)
            }
        }
    }

    /// The statics file's records, shape `(n,)`, dtype `STATIC7` (7-byte records) or
    /// `STATIC11` (the pre-alpha client's 11-byte records), as detected; a read-only view of
    /// statics{N}.mul as stored (diffs are not applied to it). A record's block is found
    /// through `index`.
    #[getter]
    fn statics<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let facet = slf.get().views()?;
        let record = facet.statics.format().record_len();
        let data = facet.statics.data();
        let count = data.len() / record;
        let name = if record == 7 { "STATIC7" } else { "STATIC11" };
        let bytes = data.get(..count * record).unwrap_or(&[]);
        let dtype = arrays::dtype(slf.py(), name)?;
        arrays::borrowed(slf.as_any(), bytes, &dtype, &[count])
    }

    /// The statics index, shape `(n,)` (one record a block, column-major), dtype `INDEX`
    /// `{offset: <u4, length: <u4, extra: <u4}` (byte offset and length in the statics
    /// file; offset 0xFFFFFFFF for a block without statics); a read-only view of
    /// staidx{N}.mul.
    #[getter]
    fn index<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let facet = slf.get().views()?;
        let index = facet.statics.index();
        let dtype = arrays::dtype(slf.py(), "INDEX")?;
        arrays::borrowed(slf.as_any(), index.as_bytes(), &dtype, &[index.len()])
    }

    /// The land as two `(height, width)` arrays in tiles, `id` (`uint16`) and `z` (`int8`):
    /// one copy of the map's cells, made in parallel (rayon) with the GIL released.
    fn land<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let facet = self.views()?;
        let size = facet.size();
        let (width, height) = (size.width() as usize, size.height() as usize);
        let (ids, zs) = py.detach(|| {
            let cells = width.saturating_mul(height);
            let (mut ids, mut zs) = (vec![0u16; cells], vec![0i8; cells]);
            let band = width.saturating_mul(8).max(1);
            ids.par_chunks_mut(band)
                .zip(zs.par_chunks_mut(band))
                .enumerate()
                .for_each(|(by, (ids, zs))| {
                    let by = u32::try_from(by).unwrap_or(u32::MAX);
                    for bx in 0..size.width() / 8 {
                        let Some(block) = facet.map.block(bx, by) else {
                            continue;
                        };
                        for (i, cell) in block.cells.iter().enumerate() {
                            let at = (i / 8) * width + bx as usize * 8 + i % 8;
                            if let (Some(id), Some(z)) = (ids.get_mut(at), zs.get_mut(at)) {
                                *id = cell.id.get();
                                *z = cell.z;
                            }
                        }
                    }
                });
            (ids, zs)
        });
        Ok((
            arrays::numbers(py, ids, &[height, width])?,
            arrays::numbers(py, zs, &[height, width])?,
        ))
    }

    /// Tile (x, y): a dict `{x, y, land: {id, z}, statics: [{id, z, hue}, ...], top_z}` (the
    /// land tile, the statics on it in file order, and the top surface's altitude: `None`
    /// without tiledata.mul or a surface), as `gamedata uo tile --json` gives it. Raises
    /// `IndexError` outside the map.
    fn tile<'py>(&self, py: Python<'py>, x: i64, y: i64) -> PyResult<Bound<'py, PyDict>> {
        let facet = self.views()?;
        let size = facet.size();
        let (ux, uy) = match (u32::try_from(x), u32::try_from(y)) {
            (Ok(ux), Ok(uy)) if ux < size.width() && uy < size.height() => (ux, uy),
            _ => return Err(outside("tile", x, y, size.width(), size.height())),
        };
        let cell = facet
            .map
            .cell(ux, uy)
            .ok_or_else(|| outside("tile", x, y, size.width(), size.height()))?;
        let statics = PyList::empty(py);
        for s in facet.statics_at(ux, uy).map_err(|e| data_error(&e))? {
            let d = PyDict::new(py);
            d.set_item("id", s.id.get())?;
            d.set_item("z", s.z)?;
            d.set_item("hue", s.hue.get())?;
            statics.append(d)?;
        }
        let top_z = match facet.tiledata {
            Some(_) => facet.top_surface(ux, uy).map_err(|e| data_error(&e))?,
            None => None,
        };
        let land = PyDict::new(py);
        land.set_item("id", cell.id.get())?;
        land.set_item("z", cell.z)?;
        let d = PyDict::new(py);
        d.set_item("x", ux)?;
        d.set_item("y", uy)?;
        d.set_item("land", land)?;
        d.set_item("statics", statics)?;
        d.set_item("top_z", top_z)?;
        Ok(d)
    }

    /// Whole-facet figures, as `gamedata uo stats --json` gives them (without `elapsed_ms`):
    /// `{width, height, blocks, land: {z_min, z_max, top: [{id, count}]}, statics: {count,
    /// z_min, z_max, top}}`; the ten most common ids. Scanned in parallel, GIL released.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let facet = self.views()?;
        let size = facet.size();
        let (land, st) = py.detach(|| {
            (
                query::land_stats_par(&facet.map),
                query::statics_stats_par(&facet.statics, size.blocks()),
            )
        });
        let top = |list: Vec<(u16, u64)>| -> PyResult<Bound<'py, PyList>> {
            let out = PyList::empty(py);
            for (id, count) in list {
                let d = PyDict::new(py);
                d.set_item("id", id)?;
                d.set_item("count", count)?;
                out.append(d)?;
            }
            Ok(out)
        };
        let land_d = PyDict::new(py);
        land_d.set_item("z_min", (land.cells > 0).then_some(land.z_min))?;
        land_d.set_item("z_max", (land.cells > 0).then_some(land.z_max))?;
        land_d.set_item("top", top(land.top(10))?)?;
        let statics_d = PyDict::new(py);
        statics_d.set_item("count", st.count)?;
        statics_d.set_item("z_min", (st.count > 0).then_some(st.z_min))?;
        statics_d.set_item("z_max", (st.count > 0).then_some(st.z_max))?;
        statics_d.set_item("top", top(st.top(10))?)?;
        let d = PyDict::new(py);
        d.set_item("width", size.width())?;
        d.set_item("height", size.height())?;
        d.set_item("blocks", size.blocks())?;
        d.set_item("land", land_d)?;
        d.set_item("statics", statics_d)?;
        Ok(d)
    }

    /// Every static with item id `id`, or whose tiledata entry has flag `flag` (a name as
    /// `gamedata uo find --flag` takes: "impassable", "surface", "wet" ...; any case), inside
    /// `region` `(x, y, width, height)` in tiles when given: a structured array of dtype
    /// `FOUND` `{x: <u4, y: <u4, z: i1, id: <u2, hue: <u2}`, in block order then file order
    /// (as `gamedata uo find`). Found in parallel, GIL released. Raises `ValueError` for an
    /// unknown flag name, or for neither or both of `id` and `flag`; `FileNotFoundError`
    /// when `flag` needs tiledata.mul and the folder has none.
    #[pyo3(signature = (id=None, flag=None, region=None))]
    fn find<'py>(
        &self,
        py: Python<'py>,
        id: Option<u16>,
        flag: Option<&str>,
        region: Option<(u32, u32, u32, u32)>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let facet = self.views()?;
        let table = match (id, flag) {
            (Some(_), None) => None,
            (None, Some(name)) => {
                let flag = TileFlags::from_name_ignoring_case(name).ok_or_else(|| {
                    let names: Vec<&str> = TileFlags::all().names().collect();
                    PyValueError::new_err(format!(
                        "no tiledata flag named {name:?}; the names are {}",
                        names.join(", ").to_lowercase()
                    ))
                })?;
                let tiledata = facet.tiledata.ok_or_else(|| {
                    pyo3::exceptions::PyFileNotFoundError::new_err(
                        "find(flag=...) needs tiledata.mul in the facet's folder",
                    )
                })?;
                Some((tiledata.item_table(), flag))
            }
            _ => return Err(PyValueError::new_err("give id= or flag=, not both")),
        };
        let wanted = |s: &StaticRecord| match &table {
            None => Some(s.id.get()) == id,
            Some((table, flag)) => table
                .get(usize::from(s.id.get()))
                .is_some_and(|(f, _)| f.intersects(*flag)),
        };
        let size = facet.size();
        let bytes = py.detach(|| find_rows(&facet.statics, size, &wanted, region));
        let count = bytes.len() / FOUND_LEN;
        let dtype = arrays::dtype(py, "FOUND")?;
        arrays::owned(py, bytes, &dtype, &[count])
    }

    /// The radar map, an `(h, w, 4)` `uint8` RGBA array (opaque): `scale` tiles a pixel
    /// along each side (1 to 256), `region` `(x, y, width, height)` in tiles (default all),
    /// `hillshade` shading in the flat style, `style` "flat", "client" or "altitude" (as
    /// `gamedata uo render --style`). The colours come from `radarcol` (a path) or the
    /// folder's radarcol.mul; "client" also needs tiledata.mul and hues.mul. Drawn in
    /// parallel, GIL released. Raises `FileNotFoundError` for a missing table,
    /// `ValueError` for a bad scale, region or style.
    #[pyo3(signature = (scale=1, region=None, hillshade=false, style="flat", radarcol=None))]
    fn radar<'py>(
        &self,
        py: Python<'py>,
        scale: u32,
        region: Option<(u32, u32, u32, u32)>,
        hillshade: bool,
        style: &str,
        radarcol: Option<PathBuf>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let facet = self.views()?;
        let style: RadarStyle = style
            .parse()
            .map_err(|e: gamedata_render::uo::UnknownStyle| PyValueError::new_err(e.to_string()))?;
        let given = match &radarcol {
            Some(path) => Some(mul_core::RadarColoursFile::open(path).map_err(reader_error)?),
            None => None,
        };
        let colours = match &given {
            Some(owned) => owned.view().map_err(|e| data_error(&e))?,
            None => facet.radar.ok_or_else(|| {
                pyo3::exceptions::PyFileNotFoundError::new_err(
                    "radar() needs radarcol.mul: none in the facet's folder (give radarcol=PATH)",
                )
            })?,
        };
        let options = RadarOptions {
            scale,
            region: region.map(|(x, y, w, h)| Region::new(x, y, w, h)),
            hillshade,
            style,
        };
        let image = py
            .detach(|| radar(&facet, &colours, &options))
            .map_err(render_error)?;
        let (w, h) = (image.width() as usize, image.height() as usize);
        arrays::numbers(py, image.into_pixels(), &[h, w, 4])
    }

    /// The world as the client draws it, isometric (as `gamedata uo render --style world`):
    /// an `(h, w, 4)` `uint8` RGBA array, transparent where no land or static reaches.
    /// `view` `(sx, sy, width, height)` is a rectangle of the client's screen pixels (tile
    /// (x, y) at altitude z has its 44 x 44 land picture's top-left at ((x - y) * 22 - 22,
    /// (x + y) * 22 - 4 * z - 22)); without it, the picture frames `region` `(x, y, width,
    /// height)` in tiles, or the whole facet. Needs tiledata.mul and hues.mul (with the
    /// facet) and the art of the facet's folder: art.mul with artidx.mul or
    /// artLegacyMUL.uop, verdata.mul's art patches applied when present, texidx.mul and
    /// texmaps.mul when present (without them no land stretches); the art and texture maps
    /// are read (or mapped, for a mapped facet) on the first call and kept. Drawn in
    /// parallel, GIL released. Raises `FileNotFoundError` for a missing file,
    /// `gamedata.FormatError` for a malformed one, `ValueError` for a view of no pixel or
    /// past the picture cap (1 << 28 pixels), a region outside the facet, or both `view`
    /// and `region`.
    #[pyo3(signature = (view=None, region=None))]
    fn render_world<'py>(
        &self,
        py: Python<'py>,
        view: Option<(i64, i64, u32, u32)>,
        region: Option<(u32, u32, u32, u32)>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let asked = world::ask(view, region)?;
        let facet = self.views()?;
        let files = match self.world.get() {
            Some(files) => files,
            None => {
                let loaded = WorldFiles::load(py, &self.dir, self.mapped())?;
                // Two threads may load at once: the first kept is the one used.
                self.world.get_or_init(|| loaded)
            }
        };
        let (pixels, h, w) = py
            .detach(|| world::draw(&facet, files, asked))
            .map_err(render_error)?;
        arrays::numbers(py, pixels, &[h, w, 4])
    }

    /// `(address, length)` of a file's bytes in memory: "map", "statics" or "staidx"; for
    /// tests that check a view lies inside its file.
    fn _span(&self, name: &str) -> PyResult<(usize, usize)> {
        let data = self.files.data();
        let bytes = match name {
            "map" => &data.map,
            "statics" => &data.statics,
            "staidx" => &data.staidx,
            _ => return Err(PyValueError::new_err(format!("no file {name:?}"))),
        };
        Ok(arrays::span(bytes))
    }

    fn __repr__(&self) -> PyResult<String> {
        let facet = self.views()?;
        Ok(format!(
            "<gamedata.uo.Facet {} of {} x {} tiles, {}-byte statics, {}>",
            self.files.paths.facet,
            facet.size().width(),
            facet.size().height(),
            facet.statics.format().record_len(),
            if self.mapped() { "mapped" } else { "read" }
        ))
    }
}

/// The statics `wanted` picks inside `region` (all when `None`), as packed rows of dtype
/// `FOUND`, in block order then file order (blocks that cannot be read are passed over, as
/// `gamedata uo find` does). Blocks are scanned in parallel, each rayon job writing its rows
/// straight into its own buffer; the buffers are joined in order.
fn find_rows(
    statics: &Statics<'_>,
    size: MapSize,
    wanted: &(dyn Fn(&StaticRecord) -> bool + Sync),
    region: Option<(u32, u32, u32, u32)>,
) -> Vec<u8> {
    let (rx, ry, x1, y1) = match region {
        Some((x, y, w, h)) => (
            x,
            y,
            u64::from(x) + u64::from(w),
            u64::from(y) + u64::from(h),
        ),
        None => (0, 0, u64::MAX, u64::MAX),
    };
    let pieces: Vec<Vec<u8>> = (0..size.blocks())
        .into_par_iter()
        .with_min_len(1024)
        .fold(Vec::new, |mut out, b| {
            let (Ok(list), Some((bx, by))) = (statics.block(b), size.block_coords(b)) else {
                return out;
            };
            list.for_each(|s| {
                // bx, by are inside the map, whose size in tiles fits a u32.
                let x = bx.saturating_mul(8).saturating_add(u32::from(s.x));
                let y = by.saturating_mul(8).saturating_add(u32::from(s.y));
                let inside = x >= rx && y >= ry && u64::from(x) < x1 && u64::from(y) < y1;
                if inside && wanted(s) {
                    let [x0, x1, x2, x3] = x.to_le_bytes();
                    let [y0, y1, y2, y3] = y.to_le_bytes();
                    let [z] = s.z.to_le_bytes();
                    let [i0, i1] = s.id.get().to_le_bytes();
                    let [h0, h1] = s.hue.get().to_le_bytes();
                    let row: [u8; FOUND_LEN] = [x0, x1, x2, x3, y0, y1, y2, y3, z, i0, i1, h0, h1];
                    out.extend_from_slice(&row);
                }
            });
            out
        })
        .collect();
    let mut rows = Vec::with_capacity(pieces.iter().map(Vec::len).sum());
    for piece in pieces {
        rows.extend_from_slice(&piece);
    }
    rows
}

/// `gamedata.uo`'s classes.
pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Facet>()?;
    module.add_class::<crate::tiledata::TileData>()?;
    module.add_class::<crate::art::Art>()?;
    module.add_class::<crate::gump::Gumps>()?;
    module.add_class::<crate::texmap::Texmaps>()?;
    module.add_class::<crate::anim::Animations>()?;
    module.add_class::<crate::uop_anim::UopAnimations>()?;
    Ok(())
}
