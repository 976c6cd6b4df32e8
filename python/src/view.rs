//! `hlayout.View`, `hlayout.ViewStack` and `hlayout.merge`: wrappers over the
//! crate's hierarchical views, movement-op stacks and the exact pair merge.
//! Movement ops return a new stack (the crate edits in place; the wrapper clones
//! first, so Python values stay immutable like tinygrad's ShapeTracker).

use hlayout::{FlatView, View, ViewStack};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::convert::offsets_to_py;
use crate::errors::{view_flatten_error, IntoPy};
use crate::layout::{PyFlatView, PyLayout};

/// One hierarchical view: a tensor coordinate to a buffer offset, with validity
/// as affine constraints.
///
/// >>> v = ViewStack([3]).pad([(1, 1)]).views[0]
/// >>> v(0) is None, v(1), v.constraints
/// (True, 0, [([1], 1, 4)])
#[pyclass(name = "View", module = "hlayout", frozen, eq)]
#[derive(Clone, PartialEq)]
pub(crate) struct PyView {
    pub(crate) inner: View,
}

#[pymethods]
impl PyView {
    /// The contiguous row-major view of `shape`.
    #[staticmethod]
    fn contiguous(shape: Vec<i64>) -> PyResult<PyView> {
        Ok(PyView {
            inner: View::contiguous(&shape).py()?,
        })
    }

    /// The view of a layout plus `offset` (each top-level mode a dimension).
    #[staticmethod]
    #[pyo3(signature = (layout, offset=0))]
    fn from_layout(layout: &PyLayout, offset: i64) -> PyView {
        PyView {
            inner: View::from_layout(&layout.inner, offset),
        }
    }

    /// The view equal to a tinygrad-form `FlatView`.
    #[staticmethod]
    fn from_flat(flat: &PyFlatView) -> PyResult<PyView> {
        Ok(PyView {
            inner: View::from_flat(&flat.inner).py()?,
        })
    }

    /// The tensor shape (one extent per dimension).
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.shape())
    }

    /// Number of elements.
    #[getter]
    fn size(&self) -> i64 {
        self.inner.size()
    }

    /// Number of dimensions.
    #[getter]
    fn rank(&self) -> usize {
        self.inner.rank()
    }

    /// Buffer offset of the origin.
    #[getter]
    fn offset(&self) -> i64 {
        self.inner.offset()
    }

    /// The view's layout (validity and offset aside).
    #[getter]
    fn layout(&self) -> PyLayout {
        PyLayout::wrap(self.inner.layout())
    }

    /// Validity constraints `lo <= Σ coeffs·x < hi` over the leaf coordinates,
    /// as `(coeffs, lo, hi)` triples.
    #[getter]
    fn constraints(&self) -> Vec<(Vec<i64>, i64, i64)> {
        self.inner
            .constraints()
            .iter()
            .map(|c| (c.coeffs().to_vec(), c.lo(), c.hi()))
            .collect()
    }

    /// Whether the view is the contiguous view of its shape.
    #[getter]
    fn is_contiguous(&self) -> bool {
        self.inner.is_contiguous()
    }

    /// The offset at a coordinate, `None` where the element is invalid.
    #[pyo3(signature = (*coord))]
    fn __call__(&self, coord: Vec<i64>) -> PyResult<Option<i64>> {
        self.inner.eval(&coord).py()
    }

    /// Every element's offset in row-major order (`invalid` where masked): a
    /// NumPy array, or a list without NumPy.
    #[pyo3(signature = (invalid=-1))]
    fn offsets<'py>(&self, py: Python<'py>, invalid: i64) -> PyResult<Bound<'py, PyAny>> {
        let all = self.inner.offsets().map(|o| o.unwrap_or(invalid)).collect();
        offsets_to_py(py, all)
    }

    /// The equal tinygrad-form view, or `FlattenError` whose `reasons` name each
    /// obstruction (a dimension needing div/mod, a window, a non-box constraint).
    fn flatten(&self) -> PyResult<PyFlatView> {
        self.inner
            .flatten()
            .map(|inner| PyFlatView { inner })
            .map_err(|r| {
                let reasons: Vec<String> = r.obstructions().iter().map(|o| o.to_string()).collect();
                view_flatten_error(r.to_string(), &reasons)
            })
    }

    /// An SVG picture of the offsets grid, padding in grey (for Jupyter).
    fn _repr_svg_(&self) -> String {
        hlayout::draw::view_svg(&self.inner)
    }

    /// The offsets grid as a standalone LaTeX document (TikZ).
    fn latex(&self) -> String {
        hlayout::draw::view_latex(&self.inner)
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("<hlayout.View {}>", self.inner)
    }
}

/// The result of a chain of movement ops (tinygrad 0.10.3 semantics): one view
/// whenever one exists, a stack (bottom view first) otherwise.
///
/// >>> s = ViewStack([10, 10]).permute([1, 0]).reshape([100])
/// >>> str(s), len(s)
/// ('((10,10)):((1,10))', 1)
/// >>> len(s.reshape([4, 25]))
/// 2
#[pyclass(name = "ViewStack", module = "hlayout", frozen, eq)]
#[derive(Clone, PartialEq)]
pub(crate) struct PyViewStack {
    inner: ViewStack,
}

impl PyViewStack {
    fn then(
        &self,
        op: impl FnOnce(ViewStack) -> hlayout::Result<ViewStack>,
    ) -> PyResult<PyViewStack> {
        Ok(PyViewStack {
            inner: op(self.inner.clone()).py()?,
        })
    }
}

#[pymethods]
impl PyViewStack {
    /// The contiguous tensor of `shape`.
    #[new]
    fn new(shape: Vec<i64>) -> PyResult<PyViewStack> {
        Ok(PyViewStack {
            inner: ViewStack::new(&shape).py()?,
        })
    }

    /// The one-view stack of a layout.
    #[staticmethod]
    fn from_layout(layout: &PyLayout) -> PyViewStack {
        PyViewStack {
            inner: ViewStack::from_layout(&layout.inner),
        }
    }

    /// Reshape to `shape` (same number of elements).
    fn reshape(&self, shape: Vec<i64>) -> PyResult<PyViewStack> {
        self.then(|s| s.reshape(&shape))
    }

    /// Reorder the dimensions: new dimension `k` is old dimension `order[k]`.
    fn permute(&self, order: Vec<usize>) -> PyResult<PyViewStack> {
        self.then(|s| s.permute(&order))
    }

    /// Broadcast extent-1 dimensions to `shape`.
    fn expand(&self, shape: Vec<i64>) -> PyResult<PyViewStack> {
        self.then(|s| s.expand(&shape))
    }

    /// Pad each dimension by `(before, after)` invalid elements.
    fn pad(&self, arg: Vec<(i64, i64)>) -> PyResult<PyViewStack> {
        self.then(|s| s.pad(&arg))
    }

    /// Keep `[begin, end)` of each dimension.
    fn shrink(&self, arg: Vec<(i64, i64)>) -> PyResult<PyViewStack> {
        self.then(|s| s.shrink(&arg))
    }

    /// Reverse the dimensions whose flag is true.
    fn flip(&self, flags: Vec<bool>) -> PyResult<PyViewStack> {
        self.then(|s| s.flip(&flags))
    }

    /// Take every `steps[k]`-th element of dimension `k` (negative: from the end).
    fn stride(&self, steps: Vec<i64>) -> PyResult<PyViewStack> {
        self.then(|s| s.stride(&steps))
    }

    /// The views, bottom (reading the buffer) first.
    #[getter]
    fn views(&self) -> Vec<PyView> {
        self.inner
            .views()
            .iter()
            .map(|v| PyView { inner: v.clone() })
            .collect()
    }

    /// The tensor shape.
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.shape())
    }

    /// Whether the stack is the contiguous view of its shape.
    #[getter]
    fn is_contiguous(&self) -> bool {
        self.inner.is_contiguous()
    }

    /// Number of views.
    fn __len__(&self) -> usize {
        self.inner.views().len()
    }

    /// The offset at a coordinate, `None` where the element is invalid.
    #[pyo3(signature = (*coord))]
    fn __call__(&self, coord: Vec<i64>) -> PyResult<Option<i64>> {
        self.inner.eval(&coord).py()
    }

    /// Every element's offset in row-major order (`invalid` where masked): a
    /// NumPy array, or a list without NumPy.
    #[pyo3(signature = (invalid=-1))]
    fn offsets<'py>(&self, py: Python<'py>, invalid: i64) -> PyResult<Bound<'py, PyAny>> {
        let all = self.inner.offsets().map(|o| o.unwrap_or(invalid)).collect();
        offsets_to_py(py, all)
    }

    /// An SVG picture of the top view's offsets grid (for Jupyter).
    fn _repr_svg_(&self) -> String {
        let views = self.inner.views();
        views
            .last()
            .map(hlayout::draw::view_svg)
            .unwrap_or_default()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("<hlayout.ViewStack {}>", self.inner)
    }
}

/// The single `FlatView` equal to `second` read through `first`, or `None`
/// when no single view (with a per-dimension box mask) is. Exact.
///
/// >>> merge(FlatView((5, 4), (9, 1)), FlatView((3,), (3,), offset=3))
/// FlatView((3,), (8,), offset=3, mask=None)
#[pyfunction]
pub(crate) fn merge(first: &PyFlatView, second: &PyFlatView) -> PyResult<Option<PyFlatView>> {
    let merged: Option<FlatView> = hlayout::merge(&first.inner, &second.inner).py()?;
    Ok(merged.map(|inner| PyFlatView { inner }))
}

/// The view `first` reshaped to `shape`, as one
/// `FlatView`, or `None` when no single flat view is (exact): the merge of
/// `first` with the contiguous view of `shape`.
#[pyfunction]
pub(crate) fn reshape_flat(first: &PyFlatView, shape: Vec<i64>) -> PyResult<Option<PyFlatView>> {
    let second = FlatView::contiguous(shape).py()?;
    let size = first.inner.size();
    let new_size = second.size();
    if size != new_size {
        return Err(crate::errors::to_py(hlayout::Error::SizeMismatch {
            what: "reshape",
            left: size,
            right: new_size,
        }));
    }
    let merged = hlayout::merge(&first.inner, &second).py()?;
    Ok(merged.map(|inner| PyFlatView { inner }))
}
