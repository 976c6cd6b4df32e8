//! Conversions between Python values and the crate's types, in one place so
//! that every entry point accepts the same forms and refuses the others with
//! the same kind of message: a `TypeError` that names the argument, shows
//! what was given (its `repr` and type) and says what is accepted, e.g.
//! `argument 'shape': expected a list or tuple of ints such as [2, 3], got
//! 'abc' (str)`.
//!
//! Typed arguments (`Int`, `Ints`, `Axes`, `Pairs`, `Flags`) are extracted by
//! PyO3, which prefixes `argument '<name>': ` to the `TypeError` they raise;
//! arguments a method inspects itself (text or tuple, a layout or layouts)
//! go through [`int_tuple`] and [`arg_error`], which name the argument the
//! same way. Integers are 64-bit (`-2**63 <= n < 2**63`); a bool is not an
//! int here (`True` in a shape is a mistake, not a 1). Offsets go back as a
//! NumPy array (when NumPy imports) or a list.

use hlayout::{IntTuple, TupleRef};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyInt, PyList, PyString, PyTuple};

use crate::errors::IntoPy;

/// The accepted range of every integer, as messages write it.
const RANGE: &str = "-2**63 <= n < 2**63";

/// What a message says was given: `repr` (at most 80 characters) and type.
pub(crate) fn given(obj: &Bound<'_, PyAny>) -> String {
    let repr = obj
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "<unprintable>".into());
    let repr = match repr.char_indices().nth(80) {
        Some((at, _)) => format!("{}...", &repr[..at]),
        None => repr,
    };
    let ty = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    format!("{repr} ({ty})")
}

/// `expected {accepted}, got {given}{detail}` as a `TypeError` (PyO3 adds
/// the argument's name when this is raised while extracting one).
fn expected(accepted: &str, obj: &Bound<'_, PyAny>, detail: &str) -> PyErr {
    PyTypeError::new_err(format!("expected {accepted}, got {}{detail}", given(obj)))
}

/// The `TypeError` for argument `name`, converted in a method's body:
/// `argument '{name}': expected {accepted}, got {given}`.
pub(crate) fn arg_error(name: &str, accepted: &str, obj: &Bound<'_, PyAny>) -> PyErr {
    PyTypeError::new_err(format!(
        "argument '{name}': expected {accepted}, got {}",
        given(obj)
    ))
}

/// Why `obj` is not a 64-bit int, or its value.
fn leaf(obj: &Bound<'_, PyAny>) -> Result<i64, String> {
    if obj.is_instance_of::<PyBool>() {
        return Err(format!("{} is a bool, not an int", given(obj)));
    }
    match obj.extract::<i64>() {
        Ok(v) => Ok(v),
        Err(_) if obj.is_instance_of::<PyInt>() || obj.hasattr("__index__").unwrap_or(false) => {
            Err(format!("{} is outside {RANGE}", given(obj)))
        }
        Err(_) => Err(format!("{} is not an int", given(obj))),
    }
}

/// The items of a list, a tuple or another iterable (not text), or why not.
fn items<'py>(obj: &Bound<'py, PyAny>) -> Option<Vec<Bound<'py, PyAny>>> {
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return None;
    }
    obj.try_iter().ok()?.collect::<PyResult<Vec<_>>>().ok()
}

/// Each item of a sequence converted by `item`, or the error naming the
/// first that fails (`accepted` describes the whole argument).
fn each<'py, T>(
    obj: &Bound<'py, PyAny>,
    accepted: &str,
    item: impl Fn(&Bound<'py, PyAny>) -> Result<T, String>,
) -> PyResult<Vec<T>> {
    let Some(all) = items(obj) else {
        return Err(expected(accepted, obj, ""));
    };
    all.iter()
        .enumerate()
        .map(|(k, x)| item(x).map_err(|why| expected(accepted, obj, &format!(": item {k}, {why}"))))
        .collect()
}

/// An int in the 64-bit range (an argument such as `offset` or `idx`).
pub(crate) struct Int(pub(crate) i64);

impl<'py> FromPyObject<'py> for Int {
    fn extract_bound(obj: &Bound<'py, PyAny>) -> PyResult<Int> {
        leaf(obj)
            .map(Int)
            .map_err(|_| expected(&format!("an int ({RANGE})"), obj, ""))
    }
}

/// A list or tuple of ints (a shape, strides, a coordinate).
pub(crate) struct Ints(pub(crate) Vec<i64>);

impl<'py> FromPyObject<'py> for Ints {
    fn extract_bound(obj: &Bound<'py, PyAny>) -> PyResult<Ints> {
        each(obj, "a list or tuple of ints such as [2, 3]", leaf).map(Ints)
    }
}

/// A list or tuple of axes, ints >= 0 (a permutation).
pub(crate) struct Axes(pub(crate) Vec<usize>);

impl<'py> FromPyObject<'py> for Axes {
    fn extract_bound(obj: &Bound<'py, PyAny>) -> PyResult<Axes> {
        each(
            obj,
            "a list or tuple of axes (ints >= 0) such as [1, 0]",
            |x| {
                let v = leaf(x)?;
                usize::try_from(v).map_err(|_| format!("{}, is negative", given(x)))
            },
        )
        .map(Axes)
    }
}

/// A list or tuple of `(int, int)` pairs (pad and shrink arguments, masks).
pub(crate) struct Pairs(pub(crate) Vec<(i64, i64)>);

impl<'py> FromPyObject<'py> for Pairs {
    fn extract_bound(obj: &Bound<'py, PyAny>) -> PyResult<Pairs> {
        each(
            obj,
            "a list or tuple of (int, int) pairs such as [(1, 1), (0, 2)]",
            |x| match items(x).as_deref() {
                Some([a, b]) => Ok((leaf(a)?, leaf(b)?)),
                _ => Err(format!("{}, is not a pair", given(x))),
            },
        )
        .map(Pairs)
    }
}

/// A list or tuple of bools (flip flags).
pub(crate) struct Flags(pub(crate) Vec<bool>);

impl<'py> FromPyObject<'py> for Flags {
    fn extract_bound(obj: &Bound<'py, PyAny>) -> PyResult<Flags> {
        each(obj, "a list or tuple of bools such as [True, False]", |x| {
            x.extract::<bool>()
                .map_err(|_| format!("{} is not a bool", given(x)))
        })
        .map(Flags)
    }
}

/// What [`int_tuple`] accepts.
const TUPLE: &str = "an int, a (nested) tuple or list of ints, or tuple text such as \"(2,(3,4))\"";

/// Argument `name` as an [`IntTuple`]: an int, a (nested) tuple or list of
/// them, or tuple text (`"(2,(3,4))"`, parsed).
pub(crate) fn int_tuple(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<IntTuple> {
    if let Ok(s) = obj.downcast::<PyString>() {
        return s.to_cow()?.parse::<IntTuple>().py();
    }
    tuple_of(obj).map_err(|why| {
        let detail = match why {
            Some(why) => format!(": {why}"),
            None => String::new(),
        };
        PyTypeError::new_err(format!(
            "argument '{name}': expected {TUPLE}, got {}{detail}",
            given(obj)
        ))
    })
}

/// `obj` as a tuple, or what inside it is wrong (`None`: `obj` itself).
fn tuple_of(obj: &Bound<'_, PyAny>) -> Result<IntTuple, Option<String>> {
    if obj.is_instance_of::<PyTuple>() || obj.is_instance_of::<PyList>() {
        let children = items(obj)
            .ok_or(None)?
            .iter()
            .map(|c| tuple_of(c).map_err(|w| Some(w.unwrap_or_else(|| leaf_error(c)))))
            .collect::<Result<Vec<_>, _>>()?;
        return IntTuple::tuple(children).map_err(|e| Some(e.to_string()));
    }
    match leaf(obj) {
        Ok(v) => Ok(IntTuple::int(v)),
        Err(why) if obj.is_instance_of::<PyInt>() => Err(Some(why)),
        Err(_) => Err(None),
    }
}

/// Why a leaf of a tuple is refused.
fn leaf_error(obj: &Bound<'_, PyAny>) -> String {
    leaf(obj)
        .err()
        .unwrap_or_else(|| format!("{} is not an int", given(obj)))
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
