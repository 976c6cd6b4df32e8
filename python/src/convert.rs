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

/// A sequence of ints (list, tuple or any iterable) as a vector.
pub(crate) fn int_list(obj: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    if obj.extract::<i64>().is_ok() {
        return Err(PyTypeError::new_err(
            "expected a sequence of ints, got an int",
        ));
    }
    obj.try_iter()?.map(|v| v?.extract::<i64>()).collect()
}
