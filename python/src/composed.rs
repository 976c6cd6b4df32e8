//! `hlayout.Swizzle` and `hlayout.ComposedLayout`: thin wrappers over the
//! crate's [`Swizzle`] (CuTe's `Swizzle<B,M,S>`) and [`ComposedLayout`]
//! (`Sw ∘ O ∘ L`, every swizzled shared-memory tile of CuTe).

use hlayout::algebra::{ComposedLayout, Swizzle};
use hlayout::tuple;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use crate::convert::{int_tuple, offsets_buffer, offsets_to_py, Int};
use crate::errors::IntoPy;
use crate::kernel::{self, PyKernel};
use crate::layout::{tiler, PyLayout};

/// CuTe's `Swizzle<B,M,S>` on offsets: the `B` bits starting at bit
/// `M + max(S, 0)` are xor-ed into the bits `S` places lower (higher for
/// `S < 0`). Needs `B, M >= 0`, `|S| >= B` and `M + |S| + B <= 63`.
///
/// >>> sw = Swizzle(3, 4, 3)          # or Swizzle("Sw<3,4,3>")
/// >>> sw(0b1000_0000), sw(sw(1234)), str(sw)
/// (144, 1234, 'Sw<3,4,3>')
/// >>> sw
/// Swizzle(3, 4, 3)
#[pyclass(name = "Swizzle", module = "hlayout", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct PySwizzle {
    pub(crate) inner: Swizzle,
}

#[pymethods]
impl PySwizzle {
    #[new]
    #[pyo3(signature = (bits, base=None, shift=None))]
    fn new(bits: &Bound<'_, PyAny>, base: Option<Int>, shift: Option<Int>) -> PyResult<PySwizzle> {
        let (base, shift) = (base.map(|b| b.0), shift.map(|s| s.0));
        if let (Ok(text), None, None) = (bits.downcast::<PyString>(), base, shift) {
            return Self::parse(&text.to_cow()?);
        }
        let (Some(base), Some(shift)) = (base, shift) else {
            return Err(PyTypeError::new_err(
                "Swizzle(bits, base, shift) or Swizzle('Sw<B,M,S>')",
            ));
        };
        let Int(bits) = bits.extract().map_err(|e: PyErr| {
            PyTypeError::new_err(format!("argument 'bits': {}", e.value(bits.py())))
        })?;
        let inner = Swizzle::new(bits, base, shift).py()?;
        Ok(PySwizzle { inner })
    }

    /// Parses `Sw<B,M,S>`.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<PySwizzle> {
        Ok(PySwizzle {
            inner: text.parse().py()?,
        })
    }

    /// `B`, the number of bits mixed.
    #[getter]
    fn bits(&self) -> i64 {
        self.inner.bits()
    }

    /// `M`, the lowest bit written (for `S >= 0`).
    #[getter]
    fn base(&self) -> i64 {
        self.inner.base()
    }

    /// `S`, how far the bits read lie above the bits written.
    #[getter]
    fn shift(&self) -> i64 {
        self.inner.shift()
    }

    /// The mask of the bits read.
    #[getter]
    fn mask(&self) -> i64 {
        self.inner.mask()
    }

    /// Whether the swizzle is the identity (`B = 0`).
    #[getter]
    fn is_identity(&self) -> bool {
        self.inner.is_identity()
    }

    /// `Sw(x)`, for every `x` (an involution, keeping the sign).
    fn __call__(&self, x: Int) -> i64 {
        self.inner.apply(x.0)
    }

    /// The swizzle of `2**t * x` equal to `2**t * Sw(x)`: `Sw<B, M+t, S>`.
    fn scaled(&self, t: u32) -> PyResult<PySwizzle> {
        Ok(PySwizzle {
            inner: self.inner.scaled(t).py()?,
        })
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        let s = &self.inner;
        format!("Swizzle({}, {}, {})", s.bits(), s.base(), s.shift())
    }

    /// An SVG picture of one period of the swizzle (for Jupyter): row `y`
    /// holds `Sw(y·2^(M+|S|) + c)` for each column `c`, so each row shows
    /// how its `B` high bits permute the columns. `None` past 2^20 offsets.
    fn _repr_svg_(&self) -> Option<String> {
        crate::draw::swizzle_svg(&self.inner)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((
            py.get_type::<PySwizzle>().into_any(),
            (self.inner.to_string(),),
        ))
    }
}

/// CuTe's `ComposedLayout<Swizzle, O, Layout>`: index `i` goes to
/// `Sw(O + L(i))`, with `L` row-major. Text `Sw<B,M,S> o O o L`.
///
/// Everything that acts on the domain acts on `L` and keeps the swizzle and
/// the offset (composition with a layout on the right, divides, products,
/// coalesce); a layout after it (`left_compose`) is a composed layout only
/// when that layout is a power-of-two scaling (or zero), and is refused
/// otherwise.
///
/// >>> c = ComposedLayout("Sw<1,0,2> o 0 o (4,4):(4,1)")
/// >>> c.offsets().tolist()[:6], c(4), c.size
/// ([0, 1, 2, 3, 5, 4], 5, 16)
/// >>> c.compose(Layout("(2,4):(4,1)"))
/// ComposedLayout('Sw<1,0,2> o 0 o (2,4):(4,1)')
/// >>> ComposedLayout(Swizzle(1, 0, 2), 0, Layout("8:1")).left_compose(Layout("64:4"))
/// ComposedLayout('Sw<1,2,2> o 0 o 8:4')
#[pyclass(name = "ComposedLayout", module = "hlayout", frozen, eq)]
#[derive(Clone, PartialEq)]
pub(crate) struct PyComposedLayout {
    pub(crate) inner: ComposedLayout,
}

impl PyComposedLayout {
    pub(crate) fn wrap(inner: ComposedLayout) -> PyComposedLayout {
        PyComposedLayout { inner }
    }
}

#[pymethods]
impl PyComposedLayout {
    /// `ComposedLayout("Sw<B,M,S> o O o L")` or
    /// `ComposedLayout(swizzle, offset, layout)`.
    #[new]
    #[pyo3(signature = (swizzle, offset=None, layout=None))]
    fn new(
        swizzle: &Bound<'_, PyAny>,
        offset: Option<Int>,
        layout: Option<PyRef<'_, PyLayout>>,
    ) -> PyResult<PyComposedLayout> {
        let offset = offset.map(|o| o.0);
        if let (Ok(text), None, None) = (swizzle.downcast::<PyString>(), offset, &layout) {
            return Self::parse(&text.to_cow()?);
        }
        let (Ok(sw), Some(offset), Some(layout)) =
            (swizzle.downcast::<PySwizzle>(), offset, layout)
        else {
            return Err(PyTypeError::new_err(
                "ComposedLayout(swizzle, offset, layout) or ComposedLayout('Sw<B,M,S> o O o L')",
            ));
        };
        let inner = ComposedLayout::new(sw.get().inner, offset, layout.inner.clone()).py()?;
        Ok(PyComposedLayout { inner })
    }

    /// Parses `Sw<B,M,S> o O o L` (L row-major).
    #[staticmethod]
    fn parse(text: &str) -> PyResult<PyComposedLayout> {
        Ok(PyComposedLayout::wrap(text.parse().py()?))
    }

    /// Parses CuTe's `Sw<B,M,S> o O o L` with L colexicographic.
    #[staticmethod]
    fn from_cute(text: &str) -> PyResult<PyComposedLayout> {
        Ok(PyComposedLayout::wrap(
            ComposedLayout::from_cute(text).py()?,
        ))
    }

    /// CuTe's text: the inner layout colexicographic.
    fn to_cute(&self) -> String {
        let c = &self.inner;
        format!(
            "{} o {} o {}",
            c.swizzle(),
            c.offset(),
            c.layout().to_cute()
        )
    }

    /// The swizzle `Sw`.
    #[getter]
    fn swizzle(&self) -> PySwizzle {
        PySwizzle {
            inner: self.inner.swizzle(),
        }
    }

    /// The offset `O`.
    #[getter]
    fn offset(&self) -> i64 {
        self.inner.offset()
    }

    /// The inner layout `L`.
    #[getter]
    fn layout(&self) -> PyLayout {
        PyLayout::wrap(self.inner.layout().clone())
    }

    /// Number of indices, `size(L)`.
    #[getter]
    fn size(&self) -> i64 {
        self.inner.size()
    }

    /// Number of top-level modes of `L`.
    fn __len__(&self) -> usize {
        self.inner.layout().rank()
    }

    /// `Sw ∘ O ∘ L[k]`: mode `k` (negative counts from the end).
    fn __getitem__(&self, k: isize) -> PyResult<PyComposedLayout> {
        let rank = self.inner.layout().rank();
        let k = crate::layout::mode_index(k, rank)?;
        Ok(PyComposedLayout::wrap(
            self.inner.map_layout(|l| l.mode(k)).py()?,
        ))
    }

    /// `Sw(O + L(i))` for an index `i` (every integer, `L` extended past its
    /// size), or for a coordinate of `L` (`c((1, 2))` or `c(1, 2)`).
    #[pyo3(signature = (*args))]
    fn __call__(&self, args: &Bound<'_, PyTuple>) -> PyResult<i64> {
        let index = if args.len() == 1 {
            let a = args.get_item(0)?;
            match a.extract::<i64>() {
                Ok(i) => i,
                Err(_) => tuple::crd2idx(
                    &int_tuple(&a, "args")?,
                    &self.inner.layout().shape().to_owned(),
                )
                .py()?,
            }
        } else {
            tuple::crd2idx(
                &int_tuple(args.as_any(), "args")?,
                &self.inner.layout().shape().to_owned(),
            )
            .py()?
        };
        self.inner.eval(index).py()
    }

    /// Every index's offset, in index order: a NumPy array, or a list without NumPy.
    fn offsets<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut all = offsets_buffer(self.inner.size())?;
        all.extend(self.inner.offsets());
        offsets_to_py(py, all)
    }

    /// `self ∘ b = Sw ∘ O ∘ (L ∘ b)`: exists exactly when `L ∘ b` does.
    fn compose(&self, b: &PyLayout) -> PyResult<PyComposedLayout> {
        Ok(PyComposedLayout::wrap(self.inner.compose(&b.inner).py()?))
    }

    /// `a ∘ self`, when `a` is `x ↦ 2**t * x` or `x ↦ 0` on every integer
    /// (`PreconditionError` otherwise: a layout after a swizzle is no
    /// swizzle of a layout in general).
    fn left_compose(&self, a: &PyLayout) -> PyResult<PyComposedLayout> {
        Ok(PyComposedLayout::wrap(
            self.inner.left_compose(&a.inner).py()?,
        ))
    }

    /// `Sw ∘ O ∘ coalesce(L)`.
    fn coalesce(&self) -> PyComposedLayout {
        PyComposedLayout::wrap(self.inner.coalesce())
    }

    /// The complement of `L` up to `cotarget` (default: the cosize of `L`).
    #[pyo3(signature = (cotarget=None))]
    fn complement(&self, cotarget: Option<Int>) -> PyResult<PyLayout> {
        let cotarget = cotarget.map(|c| c.0);
        let c = cotarget.unwrap_or_else(|| self.inner.layout().cosize());
        Ok(PyLayout::wrap(self.inner.complement(c).py()?))
    }

    /// `Sw ∘ O ∘ logical_divide(L, b)`.
    fn logical_divide(&self, b: &PyLayout) -> PyResult<PyComposedLayout> {
        Ok(PyComposedLayout::wrap(
            self.inner.logical_divide(&b.inner).py()?,
        ))
    }

    /// `Sw ∘ O ∘ zipped_divide(L, tiler)` (a layout or one layout per trailing mode).
    fn zipped_divide(&self, tiler: &Bound<'_, PyAny>) -> PyResult<PyComposedLayout> {
        Ok(PyComposedLayout::wrap(
            self.inner
                .zipped_divide(&self::tiler(tiler, "tiler")?)
                .py()?,
        ))
    }

    /// `Sw ∘ O ∘ logical_product(L, b)`: the swizzled tile repeated over `b`.
    fn logical_product(&self, b: &PyLayout) -> PyResult<PyComposedLayout> {
        Ok(PyComposedLayout::wrap(
            self.inner.logical_product(&b.inner).py()?,
        ))
    }

    /// `Sw ∘ O ∘ blocked_product(L, b)`.
    fn blocked_product(&self, b: &PyLayout) -> PyResult<PyComposedLayout> {
        Ok(PyComposedLayout::wrap(
            self.inner.blocked_product(&b.inner).py()?,
        ))
    }

    /// `Sw ∘ O ∘ raked_product(L, b)`.
    fn raked_product(&self, b: &PyLayout) -> PyResult<PyComposedLayout> {
        Ok(PyComposedLayout::wrap(
            self.inner.raked_product(&b.inner).py()?,
        ))
    }

    /// The kernel expressions of `Sw(O + L(i))` (the crate's code generator;
    /// the swizzle is written with `/`, `%` and comparisons only): over the
    /// row-major rank `i` (`input="linear"`, the default) or over the top-level
    /// coordinates of `L` (`input="coords"`). Always valid.
    ///
    /// >>> k = ComposedLayout("Sw<1,0,1> o 0 o 4:1").kernel()
    /// >>> [k(i)[0] for i in range(4)], k.div_mod_count
    /// ([0, 1, 3, 2], 1)
    #[pyo3(signature = (input="linear"))]
    fn kernel(&self, input: &str) -> PyResult<PyKernel> {
        kernel::build(self.__repr__(), input, |i| {
            hlayout::codegen::composed(&self.inner, i)
        })
    }

    /// `(index, valid)` of `kernel(input)` as text in `lang`
    /// (`"c"`, `"cuda"`, `"rust"` or `"python"`).
    ///
    /// >>> ComposedLayout("Sw<1,0,1> o 0 o 4:1").expr("python")[1]
    /// 'True'
    #[pyo3(signature = (lang="c", input="linear"))]
    fn expr(&self, lang: &str, input: &str) -> PyResult<(String, String)> {
        let lang = kernel::lang(lang)?;
        let k = hlayout::codegen::composed(&self.inner, kernel::input(input)?).py()?;
        kernel::text(&k, lang)
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("ComposedLayout('{}')", self.inner)
    }

    /// An SVG picture (for Jupyter): L's grid, each cell `Sw(O + L(i))`.
    fn _repr_svg_(&self) -> String {
        hlayout::draw::composed_svg(&self.inner)
    }

    /// The same grid as a standalone LaTeX document (TikZ).
    fn latex(&self) -> String {
        hlayout::draw::composed_latex(&self.inner)
    }

    /// The thread/value picture of `access` (a `Layout` or its text) reading
    /// this swizzled tile, as `Layout.draw_tv` (see `TvPicture`).
    ///
    /// >>> c = ComposedLayout("Sw<5,0,5> o 0 o (32,32):(32,1)")
    /// >>> c.draw_tv("(32,32):(32,1)", element_bytes=4).wavefronts[:3]
    /// [1, 1, 1]
    #[pyo3(signature = (access, element_bytes=None, warp=0))]
    fn draw_tv(
        &self,
        access: &Bound<'_, PyAny>,
        element_bytes: Option<i64>,
        warp: i64,
    ) -> PyResult<crate::draw::PyTvPicture> {
        let a = crate::draw::access_of(access)?;
        crate::draw::tv_of_composed(&self.inner, &a, element_bytes, warp)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.inner.to_string().hash(&mut h);
        h.finish()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((
            py.get_type::<PyComposedLayout>().into_any(),
            (self.inner.to_string(),),
        ))
    }
}
