//! The gamedata readers in Python: the extension module `gamedata._gamedata` behind the
//! package `gamedata`, with `gamedata.uo` (mul-core: Ultima Online facets), `gamedata.wwd`
//! (wap-core: Claw and Gruntz levels) and `gamedata.cosmo` (mni-core: Cosmo's Cosmic
//! Adventure episodes).
//!
//! Each class owns its files through the readers' owners (`FacetFiles`, `LevelFile`,
//! `EpisodeFiles`: read or memory-mapped) and hands out read-only numpy arrays over their
//! bytes whose `base` is the owning object, so an array keeps its files alive. Scans,
//! queries and renders release the GIL. Build it with maturin (`maturin build --release`,
//! or `pip install ./crates/gamedata-py`); the package's README,
//! `crates/gamedata-py/README.md`, says more.

mod anim;
mod arrays;
mod art;
mod cosmo;
mod errors;
mod gump;
mod png;
mod texmap;
mod tiledata;
mod uo;
mod uop_anim;
mod world;
mod wwd;

use pyo3::prelude::*;

/// The extension module: `FormatError`, `write_png` and the submodules `uo`, `wwd`, `cosmo`, which
/// `gamedata/__init__.py` re-exports.
#[pymodule]
fn _gamedata(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add("FormatError", py.get_type::<errors::FormatError>())?;
    module.add_function(wrap_pyfunction!(png::write_png, module)?)?;
    module.add("RECORD_SIZES", record_sizes(py)?)?;
    for (name, register) in [
        (
            "uo",
            uo::register as fn(&Bound<'_, PyModule>) -> PyResult<()>,
        ),
        ("wwd", wwd::register),
        ("cosmo", cosmo::register),
    ] {
        let sub = PyModule::new(py, name)?;
        register(&sub)?;
        module.add_submodule(&sub)?;
    }
    Ok(())
}

/// The Rust record behind each of `gamedata._dtypes`' dtypes, by the dtype's name, with
/// its size in bytes (`size_of` of the record the readers cast in place): the Python tests
/// check every dtype's `itemsize` against it, so that a dtype cannot drift from the record.
fn record_sizes(py: Python<'_>) -> PyResult<Bound<'_, pyo3::types::PyDict>> {
    use std::mem::size_of;

    use mul_core::raw::{
        IndexRecord, ItemTileNew, ItemTileOld, LandTileNew, LandTileOld, MapBlock, MapCell,
        PreAlphaStaticRecord, StaticRecord,
    };
    /// A tiledata group: a 4-byte header, then 32 records.
    const fn group(record: usize) -> usize {
        4 + 32 * record
    }
    let sizes = [
        ("MAP_CELL", size_of::<MapCell>()),
        ("MAP_BLOCK", size_of::<MapBlock>()),
        ("STATIC7", size_of::<StaticRecord>()),
        ("STATIC11", size_of::<PreAlphaStaticRecord>()),
        ("INDEX", size_of::<IndexRecord>()),
        ("FOUND", uo::FOUND_LEN),
        ("LAND_OLD", size_of::<LandTileOld>()),
        ("LAND_HS", size_of::<LandTileNew>()),
        ("ITEM_OLD", size_of::<ItemTileOld>()),
        ("ITEM_HS", size_of::<ItemTileNew>()),
        ("LAND_GROUP_OLD", group(size_of::<LandTileOld>())),
        ("LAND_GROUP_HS", group(size_of::<LandTileNew>())),
        ("ITEM_GROUP_OLD", group(size_of::<ItemTileOld>())),
        ("ITEM_GROUP_HS", group(size_of::<ItemTileNew>())),
        ("OBJECT", size_of::<wap_core::raw::ObjectFixed>()),
        ("ACTOR", size_of::<mni_core::raw::ActorRecord>()),
    ];
    let dict = pyo3::types::PyDict::new(py);
    for (name, size) in sizes {
        dict.set_item(name, size)?;
    }
    Ok(dict)
}
