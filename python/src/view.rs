//! `hlayout.View`, `hlayout.ViewStack` and `hlayout.merge`: wrappers over the
//! crate's hierarchical views, movement-op stacks and the exact pair merge.
//! Movement ops return a new stack (the crate edits in place; the wrapper clones
//! first, so Python values stay immutable like tinygrad's ShapeTracker).
//!
//! A view's value has no text form the crate parses back, so each wrapper also
//! keeps its *recipe*, the constructor and movement ops that made it, and
//! `repr` prints the recipe as a Python expression that rebuilds an equal
//! value (`str` prints the value).

use std::sync::Arc;

use hlayout::{FlatView, Movement, View, ViewStack};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::convert::{filled_offsets, offsets_to_py, Axes, Flags, Int, Ints, Pairs};
use crate::errors::{view_flatten_error, IntoPy};
use crate::kernel::{self, PyKernel};
use crate::layout::{PyFlatView, PyLayout};

/// Python list text of `items`, each written by `f`.
fn list<T>(items: &[T], f: impl Fn(&T) -> String) -> String {
    let parts: Vec<String> = items.iter().map(f).collect();
    format!("[{}]", parts.join(", "))
}

fn ints(v: &[i64]) -> String {
    list(v, i64::to_string)
}

/// `.name(arg)`: the Python call that applies `m` to a `ViewStack`.
fn call(m: &Movement) -> String {
    let arg = match m {
        Movement::Reshape(s) | Movement::Expand(s) => ints(s),
        Movement::Permute(p) => list(p, usize::to_string),
        Movement::Pad(a) | Movement::Shrink(a) => list(a, |(x, y)| format!("({x}, {y})")),
        Movement::Flip(f) => list(f, |&b| (if b { "True" } else { "False" }).to_string()),
    };
    format!(".{}({arg})", m.kind())
}

/// How a stack was made: a constructor, then ops (each node points at the
/// stack it was applied to, so a chain shares its prefix).
enum Recipe {
    New(Vec<i64>),
    FromLayout(String),
    /// Any expression that rebuilds the stack (`SymViewStack(…).bind(N=3)`).
    Text(String),
    Then(Arc<Recipe>, Movement),
}

impl Recipe {
    /// The Python expression that replays the recipe.
    fn text(&self) -> String {
        let mut calls = Vec::new();
        let mut at = self;
        loop {
            match at {
                Recipe::Then(parent, op) => {
                    calls.push(call(op));
                    at = parent;
                }
                Recipe::New(shape) => {
                    calls.push(format!("ViewStack({})", ints(shape)));
                    break;
                }
                Recipe::FromLayout(layout) => {
                    calls.push(format!("ViewStack.from_layout({layout})"));
                    break;
                }
                Recipe::Text(text) => {
                    calls.push(text.clone());
                    break;
                }
            }
        }
        calls.reverse();
        calls.concat()
    }
}

impl Drop for Recipe {
    /// Unlinks a long chain iteratively (the default drop would recurse once
    /// per op).
    fn drop(&mut self) {
        let Recipe::Then(parent, _) = self else {
            return;
        };
        let mut next = std::mem::replace(parent, Arc::new(Recipe::New(Vec::new())));
        while let Ok(mut owned) = Arc::try_unwrap(next) {
            match &mut owned {
                Recipe::Then(p, _) => {
                    next = std::mem::replace(p, Arc::new(Recipe::New(Vec::new())));
                }
                _ => return,
            }
        }
    }
}

/// One hierarchical view: a tensor coordinate to a buffer offset, with validity
/// as affine constraints.
///
/// >>> v = ViewStack([3]).pad([(1, 1)]).views[0]
/// >>> v(0) is None, v(1), v.constraints
/// (True, 0, [([1], 1, 4)])
#[pyclass(name = "View", module = "hlayout", frozen, eq, hash)]
#[derive(Clone)]
pub(crate) struct PyView {
    pub(crate) inner: View,
    /// The Python expression that rebuilds the view.
    recipe: Arc<str>,
}

impl PartialEq for PyView {
    /// Views are equal when their values are (the recipes do not count).
    fn eq(&self, other: &PyView) -> bool {
        self.inner == other.inner
    }
}

impl Eq for PyView {}

impl std::hash::Hash for PyView {
    /// The value's hash, as equality (the recipe does not count).
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.inner.hash(state);
    }
}

impl PyView {
    /// A view and the Python expression that rebuilds it.
    pub(crate) fn new(inner: View, recipe: String) -> PyView {
        PyView {
            inner,
            recipe: recipe.into(),
        }
    }

    /// The Python expression that rebuilds the view (its `repr`).
    pub(crate) fn recipe(&self) -> &str {
        &self.recipe
    }
}

#[pymethods]
impl PyView {
    /// The contiguous row-major view of `shape`.
    #[staticmethod]
    fn contiguous(shape: Ints) -> PyResult<PyView> {
        Ok(PyView {
            inner: View::contiguous(&shape.0).py()?,
            recipe: format!("View.contiguous({})", ints(&shape.0)).into(),
        })
    }

    /// The view of a layout plus `offset` (each top-level mode a dimension);
    /// `IntegerOverflowError` when an offset would leave i64.
    #[staticmethod]
    #[pyo3(signature = (layout, offset=Int(0)), text_signature = "(layout, offset=0)")]
    fn from_layout(layout: &PyLayout, offset: Int) -> PyResult<PyView> {
        let Int(offset) = offset;
        Ok(PyView {
            inner: View::from_layout(&layout.inner, offset).py()?,
            recipe: format!("View.from_layout({}, {offset})", layout.repr()).into(),
        })
    }

    /// The view equal to a tinygrad-form `FlatView`.
    #[staticmethod]
    fn from_flat(flat: &PyFlatView) -> PyResult<PyView> {
        Ok(PyView {
            inner: View::from_flat(&flat.inner).py()?,
            recipe: format!("View.from_flat({})", flat.repr()).into(),
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
    fn __call__(&self, coord: Ints) -> PyResult<Option<i64>> {
        self.inner.eval(&coord.0).py()
    }

    /// Every element's offset in row-major order (`invalid` where masked): a
    /// NumPy array, or a list without NumPy.
    #[pyo3(signature = (invalid=Int(-1)), text_signature = "($self, invalid=-1)")]
    fn offsets<'py>(&self, py: Python<'py>, invalid: Int) -> PyResult<Bound<'py, PyAny>> {
        let Int(invalid) = invalid;
        let all = filled_offsets(self.inner.size(), |buf| {
            self.inner.fill_offsets(buf, invalid)
        })?;
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
                view_flatten_error(r.to_string(), reasons)
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

    /// The kernel expressions of this view (the crate's code generator): over
    /// its coordinates `i0, i1, …` (`input="coords"`, the default: a view is a
    /// function of a tensor coordinate) or its row-major rank `i`
    /// (`input="linear"`), with the validity of padding.
    ///
    /// >>> ViewStack([4, 4]).pad([(1, 1), (0, 0)]).views[0].kernel().render("python")
    /// ('i0 * 4 + i1 - 4', 'i0 >= 1 and i0 < 5')
    #[pyo3(signature = (input="coords"))]
    fn kernel(&self, input: &str) -> PyResult<PyKernel> {
        kernel::build(self.recipe.to_string(), input, |i| {
            hlayout::codegen::view(&self.inner, i)
        })
    }

    /// `(index, valid)` of `kernel(input)` as text in `lang` (`"c"`,
    /// `"cuda"`, `"rust"` or `"python"`).
    #[pyo3(signature = (lang="c", input="coords"))]
    fn expr(&self, lang: &str, input: &str) -> PyResult<(String, String)> {
        let lang = kernel::lang(lang)?;
        let k = hlayout::codegen::view(&self.inner, kernel::input(input)?).py()?;
        kernel::text(&k, lang)
    }

    /// The view's value: layout, `+offset`, windows, `if` constraints.
    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    /// The Python expression that rebuilds the view (its recipe).
    fn __repr__(&self) -> String {
        self.recipe.to_string()
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
pub(crate) struct PyViewStack {
    inner: ViewStack,
    recipe: Arc<Recipe>,
}

impl PartialEq for PyViewStack {
    /// Stacks are equal when their views are (the recipes do not count).
    fn eq(&self, other: &PyViewStack) -> bool {
        self.inner == other.inner
    }
}

impl PyViewStack {
    /// A stack whose `repr` is `text`, a Python expression that rebuilds it.
    pub(crate) fn with_recipe(inner: ViewStack, text: String) -> PyViewStack {
        PyViewStack {
            inner,
            recipe: Arc::new(Recipe::Text(text)),
        }
    }

    /// The stack after `op` (on a copy), recorded in the recipe.
    fn then(&self, op: Movement) -> PyResult<PyViewStack> {
        Ok(PyViewStack {
            inner: self.inner.clone().apply(&op).py()?,
            recipe: Arc::new(Recipe::Then(self.recipe.clone(), op)),
        })
    }
}

#[pymethods]
impl PyViewStack {
    /// The contiguous tensor of `shape`.
    #[new]
    fn new(shape: Ints) -> PyResult<PyViewStack> {
        Ok(PyViewStack {
            inner: ViewStack::new(&shape.0).py()?,
            recipe: Arc::new(Recipe::New(shape.0)),
        })
    }

    /// The one-view stack of a layout.
    #[staticmethod]
    fn from_layout(layout: &PyLayout) -> PyViewStack {
        PyViewStack {
            inner: ViewStack::from_layout(&layout.inner),
            recipe: Arc::new(Recipe::FromLayout(layout.repr())),
        }
    }

    /// Reshape to `shape` (same number of elements).
    fn reshape(&self, shape: Ints) -> PyResult<PyViewStack> {
        self.then(Movement::Reshape(shape.0))
    }

    /// Reorder the dimensions: new dimension `k` is old dimension `order[k]`.
    fn permute(&self, order: Axes) -> PyResult<PyViewStack> {
        self.then(Movement::Permute(order.0))
    }

    /// Broadcast extent-1 dimensions to `shape`.
    fn expand(&self, shape: Ints) -> PyResult<PyViewStack> {
        self.then(Movement::Expand(shape.0))
    }

    /// Pad each dimension by `(before, after)` invalid elements.
    fn pad(&self, arg: Pairs) -> PyResult<PyViewStack> {
        self.then(Movement::Pad(arg.0))
    }

    /// Keep `[begin, end)` of each dimension.
    fn shrink(&self, arg: Pairs) -> PyResult<PyViewStack> {
        self.then(Movement::Shrink(arg.0))
    }

    /// Reverse the dimensions whose flag is true.
    fn flip(&self, flags: Flags) -> PyResult<PyViewStack> {
        self.then(Movement::Flip(flags.0))
    }

    /// Applies one movement op given as the batch protocol writes it,
    /// `["name", argument]` as JSON text (`'["pad", [[1, 1]]]'`): the op
    /// names are tinygrad's, the same on every interface.
    ///
    /// >>> ViewStack([4]).apply('["pad", [[1, 0]]]')
    /// ViewStack([4]).pad([(1, 0)])
    fn apply(&self, op: &str) -> PyResult<PyViewStack> {
        self.then(op.parse::<Movement>().py()?)
    }

    /// The views, bottom (reading the buffer) first.
    #[getter]
    fn views(&self) -> Vec<PyView> {
        let stack = self.recipe.text();
        self.inner
            .views()
            .iter()
            .enumerate()
            .map(|(k, v)| PyView {
                inner: v.clone(),
                recipe: format!("{stack}.views[{k}]").into(),
            })
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
    fn __call__(&self, coord: Ints) -> PyResult<Option<i64>> {
        self.inner.eval(&coord.0).py()
    }

    /// Every element's offset in row-major order (`invalid` where masked): a
    /// NumPy array, or a list without NumPy.
    #[pyo3(signature = (invalid=Int(-1)), text_signature = "($self, invalid=-1)")]
    fn offsets<'py>(&self, py: Python<'py>, invalid: Int) -> PyResult<Bound<'py, PyAny>> {
        let Int(invalid) = invalid;
        let all = filled_offsets(self.inner.size(), |buf| {
            self.inner.fill_offsets(buf, invalid)
        })?;
        offsets_to_py(py, all)
    }

    /// An SVG picture of the offsets grid (for Jupyter): the top view's
    /// dimensions, each element's offset through every view, invalid
    /// elements in grey. A one-view stack draws as its view.
    fn _repr_svg_(&self) -> String {
        match self.inner.views() {
            [v] => hlayout::draw::view_svg(v),
            _ => hlayout::draw::stack_svg(&self.inner),
        }
    }

    /// The offsets grid through every view as a standalone LaTeX document (TikZ).
    fn latex(&self) -> String {
        match self.inner.views() {
            [v] => hlayout::draw::view_latex(v),
            _ => hlayout::draw::stack_latex(&self.inner),
        }
    }

    /// The kernel expressions of the whole stack (the crate's code
    /// generator): the top view at the input, each view below at the index
    /// of the view above, every view's validity combined. Over the
    /// coordinates `i0, i1, …` (`input="coords"`, the default) or the
    /// row-major rank `i` (`input="linear"`).
    ///
    /// >>> k = ViewStack([4, 6]).permute([1, 0]).reshape([24]).kernel()
    /// >>> k.render("c"), k.div_mod_count
    /// (('i0 * 6 - i0 / 4 * 23', '1'), 1)
    #[pyo3(signature = (input="coords"))]
    fn kernel(&self, input: &str) -> PyResult<PyKernel> {
        kernel::build(self.recipe.text(), input, |i| {
            hlayout::codegen::stack(&self.inner, i)
        })
    }

    /// `(index, valid)` of `kernel(input)` as text in `lang` (`"c"`,
    /// `"cuda"`, `"rust"` or `"python"`).
    #[pyo3(signature = (lang="c", input="coords"))]
    fn expr(&self, lang: &str, input: &str) -> PyResult<(String, String)> {
        let lang = kernel::lang(lang)?;
        let k = hlayout::codegen::stack(&self.inner, kernel::input(input)?).py()?;
        kernel::text(&k, lang)
    }

    /// The views' values, bottom first, separated by ` | `.
    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    /// The Python expression that rebuilds the stack (its recipe).
    ///
    /// >>> ViewStack([10, 10]).permute([1, 0]).reshape([100])
    /// ViewStack([10, 10]).permute([1, 0]).reshape([100])
    fn __repr__(&self) -> String {
        self.recipe.text()
    }
}

/// The single `FlatView` equal to `second` read through `first`, or `None`
/// when no single view (with a per-dimension box mask) is. Exact. With a
/// `SymFlatView` operand (or `assume`), the `SymFlatView` right for every
/// allowed binding, `None` when none exists at any, or `NeedsFactsError`.
///
/// >>> merge(FlatView((5, 4), (9, 1)), FlatView((3,), (3,), offset=3))
/// FlatView((3,), (8,), offset=3, mask=None)
#[pyfunction]
#[pyo3(signature = (first, second, assume=None))]
pub(crate) fn merge<'py>(
    py: Python<'py>,
    first: &Bound<'py, PyAny>,
    second: &Bound<'py, PyAny>,
    assume: Option<&Bound<'py, PyAny>>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    if assume.is_none_or(|a| a.is_none()) {
        if let (Ok(a), Ok(b)) = (
            first.downcast::<PyFlatView>(),
            second.downcast::<PyFlatView>(),
        ) {
            let merged: Option<FlatView> = hlayout::merge(&a.get().inner, &b.get().inner).py()?;
            return merged
                .map(|inner| Ok(Bound::new(py, PyFlatView { inner })?.into_any()))
                .transpose();
        }
    }
    let merged = crate::sym_flat::merge(first, second, assume)?;
    merged
        .map(|v| Ok(Bound::new(py, v)?.into_any()))
        .transpose()
}

/// The view `first` reshaped to `shape`, as one
/// `FlatView`, or `None` when no single flat view is (exact): the merge of
/// `first` with the contiguous view of `shape`.
#[pyfunction]
pub(crate) fn reshape_flat(first: &PyFlatView, shape: Ints) -> PyResult<Option<PyFlatView>> {
    let second = FlatView::contiguous(shape.0).py()?;
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
