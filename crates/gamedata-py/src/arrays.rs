//! Read-only numpy arrays over the bytes a Python object owns, and over vectors made here.
//!
//! The one `unsafe` call of the package is here: rust-numpy's `borrow_from_array`, which
//! makes an array over memory it does not own and sets its `base` to the owner.

use numpy::PyArray1;
use numpy::ndarray::ArrayView1;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

/// The structured dtype `name` of `gamedata._dtypes` (`MAP_BLOCK`, `STATIC7` ...).
pub(crate) fn dtype<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("gamedata._dtypes")?.getattr(name)
}

/// A read-only numpy array of dtype `dtype` and `shape` over `bytes`, which lie inside the
/// files `owner` holds: no copy. The array's `base` chain ends at `owner`, so the array keeps
/// the files alive after every other reference to `owner` is gone.
///
/// `bytes` must be borrowed from memory that `owner` owns and never moves or frees while it
/// lives: a `FileData` (a memory map, or a heap buffer that is never reallocated) held in a
/// frozen `#[pyclass]`. Every caller passes a slice of such a `FileData`, or of a level's
/// decompressed buffer held the same way.
pub(crate) fn borrowed<'py>(
    owner: &Bound<'py, PyAny>,
    bytes: &[u8],
    dtype: &Bound<'py, PyAny>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let raw = ArrayView1::from(bytes);
    #[allow(unsafe_code)]
    // SAFETY: `bytes` lies inside the files `owner` holds (this function's contract: a
    // `FileData` or a level's decompressed buffer inside a frozen pyclass). Frozen pyclasses
    // are never mutated after construction, so those buffers are never reallocated, moved
    // or freed while `owner` lives; `borrow_from_array` sets `owner` as the array's base,
    // which keeps it alive as long as the array (and every view of it) lives. The array is
    // made read-only below, before Python sees it, so mapped pages are never written.
    let array = unsafe { PyArray1::<u8>::borrow_from_array(&raw, owner.clone()) }.into_any();
    read_only(&array)?;
    typed(array, dtype, shape)
}

/// A read-only numpy array of dtype `dtype` and `shape` that owns `bytes` (moved into it).
pub(crate) fn owned<'py>(
    py: Python<'py>,
    bytes: Vec<u8>,
    dtype: &Bound<'py, PyAny>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let array = PyArray1::<u8>::from_vec(py, bytes).into_any();
    read_only(&array)?;
    typed(array, dtype, shape)
}

/// Clears the array's `WRITEABLE` flag.
fn read_only(array: &Bound<'_, PyAny>) -> PyResult<()> {
    let kwargs = PyDict::new(array.py());
    kwargs.set_item("write", false)?;
    array.call_method("setflags", (), Some(&kwargs))?;
    Ok(())
}

/// `bytes.view(dtype).reshape(shape)`: no copy.
fn typed<'py>(
    bytes: Bound<'py, PyAny>,
    dtype: &Bound<'py, PyAny>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    bytes
        .call_method1("view", (dtype,))?
        .call_method1("reshape", (PyTuple::new(bytes.py(), shape)?,))
}

/// The address and length of `bytes`, for tests that check an array lies inside a file.
pub(crate) fn span(bytes: &[u8]) -> (usize, usize) {
    (bytes.as_ptr() as usize, bytes.len())
}

/// `PyArray1::from_vec` of plain numbers reshaped to `shape`, read-only.
pub(crate) fn numbers<'py, T: numpy::Element>(
    py: Python<'py>,
    values: Vec<T>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let array = PyArray1::<T>::from_vec(py, values).into_any();
    read_only(&array)?;
    array.call_method1("reshape", (PyTuple::new(py, shape)?,))
}
