//! Conversions between Python values and the crate's types: nested tuples of
//! ints <-> [`IntTuple`], and offsets as a NumPy array (when NumPy imports) or
//! a list.

use hlayout::{IntTuple, TupleRef};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};

use crate::errors::IntoPy;

/// An int, or a (nested) tuple or list of them, as an [`IntTuple`]; a string
/// is parsed as tuple text (`"(2,(3,4))"`).
pub(crate) fn int_tuple(obj: &Bound<'_, PyAny>) -> PyResult<IntTuple> {
    if let Ok(s) = obj.downcast::<PyString>() {
        return s.to_cow()?.parse::<IntTuple>().py();
    }
    if let Ok(v) = obj.extract::<i64>() {
        if !obj.is_instance_of::<pyo3::types::PyBool>() {
            return Ok(IntTuple::int(v));
        }
    }
    if obj.is_instance_of::<PyTuple>() || obj.is_instance_of::<PyList>() {
        let children = obj
            .try_iter()?
            .map(|c| int_tuple(&c?))
            .collect::<PyResult<Vec<_>>>()?;
        return IntTuple::tuple(children).py();
    }
    Err(PyTypeError::new_err(format!(
        "expected an int or a (nested) tuple of ints, got {}",
        obj.repr()?
    )))
}

/// A tuple as Python: an int, or a tuple of (nested) tuples.
pub(crate) fn tuple_to_py<'py>(py: Python<'py>, t: TupleRef<'_>) -> PyResult<Bound<'py, PyAny>> {
    if let Some(v) = t.as_int() {
        return Ok(v.into_pyobject(py)?.into_any());
    }
    let children = t
        .modes()
        .map(|m| tuple_to_py(py, m))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyTuple::new(py, children)?.into_any())
}

/// `values` as a 1-D `numpy.int64` array when NumPy is installed, else a list.
pub(crate) fn offsets_to_py<'py>(py: Python<'py>, values: Vec<i64>) -> PyResult<Bound<'py, PyAny>> {
    match py.import("numpy") {
        Ok(np) => {
            let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_ne_bytes()).collect();
            let buf = PyBytes::new(py, &bytes);
            let arr = np.call_method1("frombuffer", (buf, np.getattr("int64")?))?;
            arr.call_method0("copy")
        }
        Err(_) => Ok(PyList::new(py, values)?.into_any()),
    }
}

/// An empty vector with room for `n` offsets, or `MemoryError` when the
/// allocator refuses (a huge layout's offsets must not abort the interpreter).
pub(crate) fn offsets_buffer(n: i64) -> PyResult<Vec<i64>> {
    let n = usize::try_from(n).unwrap_or(0);
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        pyo3::exceptions::PyMemoryError::new_err(format!("cannot allocate {n} offsets of 8 bytes"))
    })?;
    Ok(v)
}

/// Every offset of a view or stack through `fill` (`invalid` where masked).
pub(crate) fn filled_offsets(n: i64, fill: impl FnOnce(&mut [i64]) -> usize) -> PyResult<Vec<i64>> {
    let mut v = offsets_buffer(n)?;
    v.resize(v.capacity().min(usize::try_from(n).unwrap_or(0)), 0);
    let written = fill(&mut v);
    v.truncate(written);
    Ok(v)
}

/// A sequence of ints (list, tuple or any iterable) as a vector.
pub(crate) fn int_list(obj: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    if obj.extract::<i64>().is_ok() {
        return Err(PyTypeError::new_err(
            "expected a sequence of ints, got an int",
        ));
    }
    obj.try_iter()?.map(|v| v?.extract::<i64>()).collect()
}
