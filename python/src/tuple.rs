//! Integer-tuple helpers for Python (the pycute layer's arithmetic): sizes,
//! compact strides, shape division and coordinate maps, all the crate's
//! row-major functions; plus CuTe's swizzle function on offsets.

use hlayout::tuple;
use pyo3::prelude::*;

use crate::convert::{int_tuple, tuple_to_py};
use crate::errors::IntoPy;

/// Product of all leaves of a (nested) tuple.
#[pyfunction]
pub(crate) fn tuple_size(t: &Bound<'_, PyAny>) -> PyResult<i64> {
    int_tuple(t)?.size().py()
}

/// Exclusive prefix products, recursively (CuTe's colexicographic compact strides).
#[pyfunction]
pub(crate) fn prefix_product<'py>(t: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let r = int_tuple(t)?.prefix_product().py()?;
    tuple_to_py(t.py(), r.as_ref())
}

/// Exclusive suffix products, recursively (row-major compact strides).
#[pyfunction]
pub(crate) fn suffix_product<'py>(t: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let r = int_tuple(t)?.suffix_product().py()?;
    tuple_to_py(t.py(), r.as_ref())
}

/// Shape division, row-major: `t` divided by `d` starting at its last leaf.
#[pyfunction]
pub(crate) fn shape_div<'py>(t: &Bound<'py, PyAny>, d: i64) -> PyResult<Bound<'py, PyAny>> {
    let r = int_tuple(t)?.shape_div(d).py()?;
    tuple_to_py(t.py(), r.as_ref())
}

/// The row-major coordinate of index `idx` in `shape`.
#[pyfunction]
pub(crate) fn idx2crd<'py>(idx: i64, shape: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let r = tuple::idx2crd(idx, &int_tuple(shape)?).py()?;
    tuple_to_py(shape.py(), r.as_ref())
}

/// The row-major index of a coordinate (any member of the coordinate family).
#[pyfunction]
pub(crate) fn crd2idx(crd: &Bound<'_, PyAny>, shape: &Bound<'_, PyAny>) -> PyResult<i64> {
    tuple::crd2idx(&int_tuple(crd)?, &int_tuple(shape)?).py()
}

/// CuTe's `Swizzle<bits, base, shift>` applied to `offset`: the `bits` bits at
/// `base + max(shift, 0)` are xor-ed into those at `base - min(shift, 0)`.
/// O(1). (The crate's own swizzle replaces this once it lands in `src/algebra`.)
#[pyfunction]
pub(crate) fn swizzle(bits: u32, base: u32, shift: i32, offset: i64) -> PyResult<i64> {
    let bad = || {
        pyo3::exceptions::PyValueError::new_err(format!(
            "swizzle<{bits},{base},{shift}> needs bits + base + |shift| <= 62"
        ))
    };
    let reach = bits
        .checked_add(base)
        .and_then(|v| v.checked_add(shift.unsigned_abs()))
        .ok_or_else(bad)?;
    if reach > 62 {
        return Err(bad());
    }
    let mask: i64 = (1i64 << bits) - 1;
    let yyy = mask << (i64::from(base) + i64::from(shift.max(0)));
    let moved = offset & yyy;
    let shifted = if shift >= 0 {
        moved >> shift
    } else {
        moved << shift.unsigned_abs()
    };
    Ok(offset ^ shifted)
}
