//! Integer-tuple helpers for Python (the pycute layer's arithmetic): sizes,
//! compact strides, shape division and coordinate maps, all the crate's
//! row-major functions.

use hlayout::tuple;
use pyo3::prelude::*;

use crate::convert::{int_tuple, tuple_to_py, Int};
use crate::errors::IntoPy;

/// Product of all leaves of a (nested) tuple.
#[pyfunction]
pub(crate) fn tuple_size(t: &Bound<'_, PyAny>) -> PyResult<i64> {
    int_tuple(t, "t")?.size().py()
}

/// Exclusive prefix products, recursively (CuTe's colexicographic compact strides).
#[pyfunction]
pub(crate) fn prefix_product<'py>(t: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let r = int_tuple(t, "t")?.prefix_product().py()?;
    tuple_to_py(t.py(), r.as_ref())
}

/// Exclusive suffix products, recursively (row-major compact strides).
#[pyfunction]
pub(crate) fn suffix_product<'py>(t: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let r = int_tuple(t, "t")?.suffix_product().py()?;
    tuple_to_py(t.py(), r.as_ref())
}

/// Shape division, row-major: `t` divided by `d` starting at its last leaf.
#[pyfunction]
pub(crate) fn shape_div<'py>(t: &Bound<'py, PyAny>, d: Int) -> PyResult<Bound<'py, PyAny>> {
    let r = int_tuple(t, "t")?.shape_div(d.0).py()?;
    tuple_to_py(t.py(), r.as_ref())
}

/// The row-major coordinate of index `idx` in `shape`.
#[pyfunction]
pub(crate) fn idx2crd<'py>(idx: Int, shape: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let r = tuple::idx2crd(idx.0, &int_tuple(shape, "shape")?).py()?;
    tuple_to_py(shape.py(), r.as_ref())
}

/// The row-major index of a coordinate (any member of the coordinate family).
#[pyfunction]
pub(crate) fn crd2idx(crd: &Bound<'_, PyAny>, shape: &Bound<'_, PyAny>) -> PyResult<i64> {
    tuple::crd2idx(&int_tuple(crd, "crd")?, &int_tuple(shape, "shape")?).py()
}

/// `crd`, a coordinate of shape `src`, as the natural coordinate of shape
/// `dst` (equal sizes; typically two members of one coordinate family).
///
/// >>> crd2crd((1, 3), (2, 4), (2, (2, 2)))
/// (1, (1, 1))
#[pyfunction]
pub(crate) fn crd2crd<'py>(
    crd: &Bound<'py, PyAny>,
    src: &Bound<'py, PyAny>,
    dst: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let r = tuple::crd2crd(
        &int_tuple(crd, "crd")?,
        &int_tuple(src, "src")?,
        &int_tuple(dst, "dst")?,
    )
    .py()?;
    tuple_to_py(crd.py(), r.as_ref())
}

/// The common refinement of two shapes of equal size: `(ra, rb)`, the same
/// leaves nested so that `a` is a coarsening of `ra` and `b` of `rb`;
/// `NoCommonRefinementError` when extents do not divide each other.
///
/// >>> common_refinement((2, 12), (4, 6))
/// ((2, (2, 6)), ((2, 2), 6))
#[pyfunction]
pub(crate) fn common_refinement<'py>(
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let (ra, rb) = tuple::common_refinement(&int_tuple(a, "a")?, &int_tuple(b, "b")?).py()?;
    Ok((
        tuple_to_py(a.py(), ra.as_ref())?,
        tuple_to_py(a.py(), rb.as_ref())?,
    ))
}
