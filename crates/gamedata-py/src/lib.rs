//! The gamedata readers in Python: the extension module `gamedata._gamedata` behind the
//! package `gamedata`, with `gamedata.uo` (mul-core: Ultima Online facets), `gamedata.wwd`
//! (wap-core: Claw and Gruntz levels) and `gamedata.cosmo` (mni-core: Cosmo's Cosmic
//! Adventure episodes).
//!
//! Each class owns its files through the readers' owners (`FacetFiles`, `LevelFile`,
//! `EpisodeFiles`: read or memory-mapped) and hands out read-only numpy arrays over their
//! bytes whose `base` is the owning object, so an array keeps its files alive. Scans,
//! queries and renders release the GIL. Build it with maturin (`pip install
//! ./crates/gamedata-py`); the package's README section in the repository says more.

mod arrays;
mod cosmo;
mod errors;
mod png;
mod tiledata;
mod uo;
mod wwd;

use pyo3::prelude::*;

/// The extension module: `FormatError`, `write_png` and the submodules `uo`, `wwd`, `cosmo`, which
/// `gamedata/__init__.py` re-exports.
#[pymodule]
fn _gamedata(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add("FormatError", py.get_type::<errors::FormatError>())?;
    module.add_function(wrap_pyfunction!(png::write_png, module)?)?;
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
