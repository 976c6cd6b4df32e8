//! `hlayout.Layout` and `hlayout.FlatView`: thin wrappers over the crate's
//! [`Layout`] and [`FlatView`]; every method converts its arguments, calls the
//! crate, and converts the answer back.

use hlayout::algebra::Tiler;
use hlayout::{FlatView, Layout};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use crate::composed::PyComposedLayout;
use crate::convert::{
    arg_error, int_tuple, offsets_buffer, offsets_to_py, tuple_to_py, Int, Ints, Pairs,
};
use crate::errors::{flatten_error, mode_out_of_range, IntoPy};
use crate::kernel::{self, PyKernel};

/// A hierarchical layout `SHAPE:STRIDE`, row-major (last leaf fastest).
///
/// `Layout("(2,(2,2)):(2,(1,4))")` parses text; `Layout(shape, stride=None)`
/// takes nested tuples of ints (row-major strides when `stride` is omitted).
///
/// >>> l = Layout("(2,(2,2)):(2,(1,4))")
/// >>> l(6), l((1, 2)), l.size, l.cosize
/// (3, 3, 8, 8)
/// >>> Layout((2, 3))
/// Layout('(2,3):(3,1)')
/// >>> Layout("(10,10):(1,10)").reshape((5, 2, 5, 2))
/// Layout('(5,2,5,2):(2,1,20,10)')
#[pyclass(name = "Layout", module = "hlayout", frozen, eq)]
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct PyLayout {
    pub(crate) inner: Layout,
}

impl PyLayout {
    pub(crate) fn wrap(inner: Layout) -> PyLayout {
        PyLayout { inner }
    }

    /// `Layout('SHAPE:STRIDE')`, the expression that rebuilds the layout.
    pub(crate) fn repr(&self) -> String {
        format!("Layout('{}')", self.inner)
    }
}

/// Argument `name`, a layout or a sequence of layouts (one per trailing
/// mode), as a tiler.
pub(crate) fn tiler(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Tiler> {
    if let Ok(l) = obj.downcast::<PyLayout>() {
        return Ok(Tiler::Layout(l.get().inner.clone()));
    }
    Ok(Tiler::Modes(layouts(obj, name)?))
}

/// `k` as a mode index of a rank-`rank` layout, negative counting from the
/// end; `ModeOutOfRangeError` outside.
pub(crate) fn mode_index(k: isize, rank: usize) -> PyResult<usize> {
    let i = if k < 0 {
        rank.checked_sub(k.unsigned_abs())
    } else {
        Some(k.unsigned_abs())
    };
    match i {
        Some(i) if i < rank => Ok(i),
        _ => Err(Python::with_gil(|py| {
            mode_out_of_range(py, i64::try_from(k).unwrap_or(i64::MAX), rank)
        })),
    }
}

/// What a layout argument accepts besides a single `Layout`.
const LAYOUTS: &str = "a Layout or a list or tuple of Layouts (one per trailing mode)";

/// Argument `name`, a sequence of layouts.
fn layouts(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<Layout>> {
    let refused = || arg_error(name, LAYOUTS, obj);
    if obj.is_instance_of::<PyString>() {
        return Err(refused());
    }
    let items = obj.try_iter().map_err(|_| refused())?;
    items
        .map(|l| {
            let l = l?;
            let l = l.downcast::<PyLayout>().map_err(|_| refused())?;
            Ok(l.get().inner.clone())
        })
        .collect()
}

#[pymethods]
impl PyLayout {
    #[new]
    #[pyo3(signature = (shape, stride=None))]
    fn new(shape: &Bound<'_, PyAny>, stride: Option<&Bound<'_, PyAny>>) -> PyResult<PyLayout> {
        if let (Ok(text), None) = (shape.downcast::<PyString>(), stride) {
            return Ok(PyLayout::wrap(text.to_cow()?.parse::<Layout>().py()?));
        }
        let shape = int_tuple(shape, "shape")?;
        let inner = match stride {
            None => Layout::row_major(shape).py()?,
            Some(s) => Layout::new(shape, int_tuple(s, "stride")?).py()?,
        };
        Ok(PyLayout::wrap(inner))
    }

    /// Parses `SHAPE:STRIDE` text.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<PyLayout> {
        Ok(PyLayout::wrap(text.parse::<Layout>().py()?))
    }

    /// A layout from CuTe's (colexicographic) text, mirrored into row-major order.
    #[staticmethod]
    fn from_cute(text: &str) -> PyResult<PyLayout> {
        Ok(PyLayout::wrap(Layout::from_cute(text).py()?))
    }

    /// The row-major (contiguous) layout of `shape`.
    #[staticmethod]
    fn row_major(shape: &Bound<'_, PyAny>) -> PyResult<PyLayout> {
        Ok(PyLayout::wrap(
            Layout::row_major(int_tuple(shape, "shape")?).py()?,
        ))
    }

    /// The compact layout of `shape` whose leaves are laid out by increasing `order`.
    #[staticmethod]
    fn ordered(shape: &Bound<'_, PyAny>, order: &Bound<'_, PyAny>) -> PyResult<PyLayout> {
        let l =
            Layout::make_ordered_layout(&int_tuple(shape, "shape")?, &int_tuple(order, "order")?)
                .py()?;
        Ok(PyLayout::wrap(l))
    }

    /// This layout in CuTe's colexicographic text.
    fn to_cute(&self) -> String {
        self.inner.to_cute()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        self.repr()
    }

    /// The shape as an int or nested tuple.
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        tuple_to_py(py, self.inner.shape())
    }

    /// The stride as an int or nested tuple.
    #[getter]
    fn stride<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        tuple_to_py(py, self.inner.stride())
    }

    /// Number of indices (product of the extents).
    #[getter]
    fn size(&self) -> i64 {
        self.inner.size()
    }

    /// Length of the smallest interval holding every offset: `max - min + 1`.
    #[getter]
    fn cosize(&self) -> i64 {
        self.inner.cosize()
    }

    /// Number of top-level modes.
    #[getter]
    fn rank(&self) -> usize {
        self.inner.rank()
    }

    /// Nesting depth (0 for a single integer mode).
    #[getter]
    fn depth(&self) -> usize {
        self.inner.depth()
    }

    fn __len__(&self) -> usize {
        self.inner.rank()
    }

    /// Mode `k` (negative counts from the end); `ModeOutOfRangeError` (an
    /// `IndexError`) past the rank.
    fn __getitem__(&self, k: isize) -> PyResult<PyLayout> {
        let k = mode_index(k, self.inner.rank())?;
        Ok(PyLayout::wrap(self.inner.mode(k).py()?))
    }

    /// `L(i)`: the offset of index `i`; `L((c0, c1))` or `L(c0, c1)`: the offset
    /// of a coordinate (any member of the coordinate family).
    #[pyo3(signature = (*args))]
    fn __call__(&self, args: &Bound<'_, PyTuple>) -> PyResult<i64> {
        if args.len() == 1 {
            let a = args.get_item(0)?;
            if let Ok(i) = a.extract::<i64>() {
                return self.inner.eval(i).py();
            }
            return self.inner.eval_crd(&int_tuple(&a, "args")?).py();
        }
        self.inner.eval_crd(&int_tuple(args.as_any(), "args")?).py()
    }

    /// Every index's offset, in index order: a NumPy array, or a list without NumPy.
    fn offsets<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut all = offsets_buffer(self.inner.size())?;
        all.extend(self.inner.offsets());
        offsets_to_py(py, all)
    }

    /// The fewest modes with the same function; with `profile`, mode by mode.
    #[pyo3(signature = (profile=None))]
    fn coalesce(&self, profile: Option<&Bound<'_, PyAny>>) -> PyResult<PyLayout> {
        Ok(PyLayout::wrap(match profile {
            None => self.inner.coalesce(),
            Some(p) => self.inner.coalesce_by(&int_tuple(p, "profile")?).py()?,
        }))
    }

    /// Drops stride-0 and extent-1 leaves, then coalesces.
    fn filter(&self) -> PyLayout {
        PyLayout::wrap(self.inner.filter())
    }

    /// Drops the nesting: one top-level mode per leaf.
    fn unnest(&self) -> PyLayout {
        PyLayout::wrap(self.inner.unnest())
    }

    /// `self ∘ b` (exact: raises `NoCompositionError` when no layout is the
    /// composition); a sequence of layouts composes mode by mode. With a
    /// `ComposedLayout` `b`, the composed layout `b.left_compose(self)`.
    ///
    /// >>> Layout("(4,3,2):(6,48,1)").compose(Layout("(2,6,2):(12,2,1)"))
    /// Layout('(2,(2,3),2):(12,(6,48),1)')
    fn compose<'py>(&self, b: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = b.py();
        if let Ok(l) = b.downcast::<PyLayout>() {
            let r = PyLayout::wrap(self.inner.compose(&l.get().inner).py()?);
            return Ok(Bound::new(py, r)?.into_any());
        }
        if let Ok(c) = b.downcast::<PyComposedLayout>() {
            let r = PyComposedLayout::wrap(c.get().inner.left_compose(&self.inner).py()?);
            return Ok(Bound::new(py, r)?.into_any());
        }
        let modes = layouts(b, "b").map_err(|_| {
            arg_error(
                "b",
                "a Layout, a ComposedLayout, or a list or tuple of Layouts (one per trailing mode)",
                b,
            )
        })?;
        let r = PyLayout::wrap(self.inner.compose_by(&modes).py()?);
        Ok(Bound::new(py, r)?.into_any())
    }

    /// Composition with the row-major layout of `shape`.
    fn reshape(&self, shape: &Bound<'_, PyAny>) -> PyResult<PyLayout> {
        Ok(PyLayout::wrap(
            self.inner.reshape(&int_tuple(shape, "shape")?).py()?,
        ))
    }

    /// The complement up to `cotarget` (default: the cosize).
    ///
    /// >>> Layout("(4,2):(4,1)").complement(32)
    /// Layout('(2,2):(16,2)')
    #[pyo3(signature = (cotarget=None))]
    fn complement(&self, cotarget: Option<Int>) -> PyResult<PyLayout> {
        let cotarget = cotarget.map(|c| c.0);
        let c = cotarget.unwrap_or_else(|| self.inner.cosize());
        Ok(PyLayout::wrap(self.inner.complement(c).py()?))
    }

    /// The largest `R` with `self(R(i)) == i` on a prefix of offsets.
    fn right_inverse(&self) -> PyLayout {
        PyLayout::wrap(self.inner.right_inverse())
    }

    /// `R` with `R(self(i)) == i` for every index.
    fn left_inverse(&self) -> PyResult<PyLayout> {
        Ok(PyLayout::wrap(self.inner.left_inverse().py()?))
    }

    /// The indices mapped to offset 0, as a layout.
    fn nullspace(&self) -> PyLayout {
        PyLayout::wrap(self.inner.nullspace())
    }

    /// The largest common contiguous sub-layout of `self` and `b`.
    fn max_common_layout(&self, b: &PyLayout) -> PyLayout {
        PyLayout::wrap(self.inner.max_common_layout(&b.inner))
    }

    /// The size of the largest common contiguous vector of `self` and `b`.
    fn max_common_vector(&self, b: &PyLayout) -> i64 {
        self.inner.max_common_vector(&b.inner)
    }

    /// Splits `self` by `tiler` (a layout or one layout per trailing mode).
    fn logical_divide(&self, tiler: &Bound<'_, PyAny>) -> PyResult<PyLayout> {
        if let Ok(l) = tiler.downcast::<PyLayout>() {
            return Ok(PyLayout::wrap(
                self.inner.logical_divide(&l.get().inner).py()?,
            ));
        }
        Ok(PyLayout::wrap(
            self.inner
                .logical_divide_by(&layouts(tiler, "tiler")?)
                .py()?,
        ))
    }

    /// Logical divide with the tiles gathered into one mode and the rest into another.
    fn zipped_divide(&self, tiler: &Bound<'_, PyAny>) -> PyResult<PyLayout> {
        Ok(PyLayout::wrap(
            self.inner
                .zipped_divide(&self::tiler(tiler, "tiler")?)
                .py()?,
        ))
    }

    /// Zipped divide with the rest unpacked into top-level modes.
    fn tiled_divide(&self, tiler: &Bound<'_, PyAny>) -> PyResult<PyLayout> {
        Ok(PyLayout::wrap(
            self.inner
                .tiled_divide(&self::tiler(tiler, "tiler")?)
                .py()?,
        ))
    }

    /// Zipped divide with every mode unpacked.
    fn flat_divide(&self, tiler: &Bound<'_, PyAny>) -> PyResult<PyLayout> {
        Ok(PyLayout::wrap(
            self.inner.flat_divide(&self::tiler(tiler, "tiler")?).py()?,
        ))
    }

    /// Reproduces `self` over `tiler` (a layout or one layout per trailing mode).
    fn logical_product(&self, tiler: &Bound<'_, PyAny>) -> PyResult<PyLayout> {
        if let Ok(l) = tiler.downcast::<PyLayout>() {
            return Ok(PyLayout::wrap(
                self.inner.logical_product(&l.get().inner).py()?,
            ));
        }
        Ok(PyLayout::wrap(
            self.inner
                .logical_product_by(&layouts(tiler, "tiler")?)
                .py()?,
        ))
    }

    /// Logical product with the modes gathered in two.
    fn zipped_product(&self, tiler: &Bound<'_, PyAny>) -> PyResult<PyLayout> {
        Ok(PyLayout::wrap(
            self.inner
                .zipped_product(&self::tiler(tiler, "tiler")?)
                .py()?,
        ))
    }

    /// Zipped product with the rest unpacked into top-level modes.
    fn tiled_product(&self, tiler: &Bound<'_, PyAny>) -> PyResult<PyLayout> {
        Ok(PyLayout::wrap(
            self.inner
                .tiled_product(&self::tiler(tiler, "tiler")?)
                .py()?,
        ))
    }

    /// The divide by `tiler` (a layout or one per trailing mode) over the
    /// rounded-up tile count, as a `View` valid where the tile reads `self`;
    /// `form` is 'logical', 'zipped', 'tiled' or 'flat'.
    #[pyo3(signature = (tiler, form="logical"))]
    fn predicated_divide(
        &self,
        tiler: &Bound<'_, PyAny>,
        form: &str,
    ) -> PyResult<crate::view::PyView> {
        let how = crate::symtiles::form(form)?;
        let v = self
            .inner
            .predicated_divide(&self::tiler(tiler, "tiler")?, how)
            .py()?;
        let recipe = format!(
            "{}.predicated_divide({}, '{form}')",
            self.repr(),
            tiler.repr()?
        );
        Ok(crate::view::PyView::new(v, recipe))
    }

    /// The blocked product (each mode of `self` is the inner block).
    fn blocked_product(&self, b: &PyLayout) -> PyResult<PyLayout> {
        Ok(PyLayout::wrap(self.inner.blocked_product(&b.inner).py()?))
    }

    /// The raked product (each mode of `self` is interleaved).
    fn raked_product(&self, b: &PyLayout) -> PyResult<PyLayout> {
        Ok(PyLayout::wrap(self.inner.raked_product(&b.inner).py()?))
    }

    /// The plain strided view (one stride per top-level mode), or `FlattenError`
    /// whose `modes` name each mode that needs a div/mod and its index expressions.
    ///
    /// >>> Layout("((2,5),3):((15,3),1)").flatten()
    /// FlatView((10, 3), (3, 1), offset=0, mask=None)
    fn flatten(&self) -> PyResult<PyFlatView> {
        self.inner
            .flatten()
            .map(|inner| PyFlatView { inner })
            .map_err(|r| flatten_error(&r))
    }

    /// An SVG picture of the offsets grid (Jupyter shows it for a bare `Layout`).
    fn _repr_svg_(&self) -> String {
        hlayout::draw::layout_svg(&self.inner)
    }

    /// The offsets grid as a standalone LaTeX document (TikZ, as CuTe's `print_latex`).
    fn latex(&self) -> String {
        hlayout::draw::layout_latex(&self.inner)
    }

    /// The thread/value picture of `access` (a `Layout` or its text, threads
    /// by values) reading this layout as a shared-memory tile: see
    /// `TvPicture`. With `element_bytes` (1, 2 or 4), also the banks warp
    /// `warp` hits.
    ///
    /// >>> p = Layout("(4,8):(8,1)").draw_tv("(8,4):(4,1)")
    /// >>> p.thread_value(1, 5), p.threads_values
    /// ((3, 1), (8, 4))
    #[pyo3(signature = (access, element_bytes=None, warp=0))]
    fn draw_tv(
        &self,
        access: &Bound<'_, PyAny>,
        element_bytes: Option<i64>,
        warp: i64,
    ) -> PyResult<crate::draw::PyTvPicture> {
        let a = crate::draw::access_of(access)?;
        crate::draw::tv_of_layout(&self.inner, &a, element_bytes, warp)
    }

    /// The kernel expressions of this layout (the crate's code generator):
    /// over its row-major rank `i` (`input="linear"`, the default: a layout is
    /// a function of its index) or over its top-level coordinates
    /// `i0, i1, …` (`input="coords"`). Always valid.
    ///
    /// >>> Layout("(2,(2,2)):(2,(1,4))").kernel("coords").render("python")
    /// ('i0 * 2 + i1 * 4 - i1 // 2 * 7', 'True')
    #[pyo3(signature = (input="linear"))]
    fn kernel(&self, input: &str) -> PyResult<PyKernel> {
        kernel::build(self.repr(), input, |i| {
            hlayout::codegen::layout(&self.inner, i)
        })
    }

    /// `(index, valid)` of `kernel(input)` as text in `lang`
    /// (`"c"`, `"cuda"`, `"rust"` or `"python"`).
    ///
    /// >>> Layout("(4,6):(1,4)").expr()
    /// ('i * 4 - i / 6 * 23', '1')
    #[pyo3(signature = (lang="c", input="linear"))]
    fn expr(&self, lang: &str, input: &str) -> PyResult<(String, String)> {
        let lang = kernel::lang(lang)?;
        let k = hlayout::codegen::layout(&self.inner, kernel::input(input)?).py()?;
        kernel::text(&k, lang)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.inner.to_string().hash(&mut h);
        h.finish()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((
            py.get_type::<PyLayout>().into_any(),
            (self.inner.to_string(),),
        ))
    }
}

/// A plain strided view, tinygrad's form: `shape`, `strides`, `offset` and an
/// optional per-dimension `mask` of half-open `(begin, end)` intervals.
///
/// >>> v = FlatView((4, 3), (3, 1), offset=-3, mask=[(1, 4), (0, 3)])
/// >>> v(0, 2) is None, v(1, 2)
/// (True, 2)
#[pyclass(name = "FlatView", module = "hlayout", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct PyFlatView {
    pub(crate) inner: FlatView,
}

#[pymethods]
impl PyFlatView {
    #[new]
    #[pyo3(
        signature = (shape, strides, offset=Int(0), mask=None),
        text_signature = "(shape, strides, offset=0, mask=None)"
    )]
    fn new(shape: Ints, strides: Ints, offset: Int, mask: Option<Pairs>) -> PyResult<PyFlatView> {
        let inner = FlatView::new(shape.0, strides.0, offset.0, mask.map(|m| m.0)).py()?;
        Ok(PyFlatView { inner })
    }

    /// The contiguous view of `shape`.
    #[staticmethod]
    fn contiguous(shape: Ints) -> PyResult<PyFlatView> {
        let inner = FlatView::contiguous(shape.0).py()?;
        Ok(PyFlatView { inner })
    }

    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.shape())
    }

    #[getter]
    fn strides<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.strides())
    }

    #[getter]
    fn offset(&self) -> i64 {
        self.inner.offset()
    }

    /// The mask as a tuple of `(begin, end)` pairs, or `None`.
    #[getter]
    fn mask(&self) -> Option<Vec<(i64, i64)>> {
        self.inner.mask().map(<[_]>::to_vec)
    }

    /// Number of elements.
    #[getter]
    fn size(&self) -> i64 {
        self.inner.size()
    }

    /// The offset at `coord`, `None` where the mask excludes it.
    #[pyo3(signature = (*coord))]
    fn __call__(&self, coord: Ints) -> PyResult<Option<i64>> {
        self.inner.eval(&coord.0).py()
    }

    fn __repr__(&self) -> String {
        self.repr()
    }

    /// An SVG picture of the offsets grid, masked elements in grey (for Jupyter).
    fn _repr_svg_(&self) -> String {
        crate::draw::flat_view_svg(&self.inner, self.repr())
    }
}

impl PyFlatView {
    /// `FlatView(shape, strides, offset=…, mask=…)`, the expression that
    /// rebuilds the view.
    pub(crate) fn repr(&self) -> String {
        let t = |v: &[i64]| {
            let s: Vec<String> = v.iter().map(i64::to_string).collect();
            if v.len() == 1 {
                format!("({},)", s[0])
            } else {
                format!("({})", s.join(", "))
            }
        };
        let mask = match self.inner.mask() {
            None => "None".to_string(),
            Some(m) => {
                let s: Vec<String> = m.iter().map(|(a, b)| format!("({a}, {b})")).collect();
                format!("[{}]", s.join(", "))
            }
        };
        format!(
            "FlatView({}, {}, offset={}, mask={mask})",
            t(self.inner.shape()),
            t(self.inner.strides()),
            self.inner.offset()
        )
    }
}
