//! `hlayout.SymLayout`: a layout whose extents and strides are polynomials
//! over named symbols, with each symbol's assumptions (the crate's
//! [`hlayout::symbolic`]).
//!
//! A separate class from `Layout`, so the concrete class and its fast paths
//! are untouched and a symbolic layout never answers a concrete question
//! (its offsets, its size as an int) by accident: `bind(N=3)` gives the
//! concrete `Layout`. Each object owns its symbol table; an operation on two
//! objects merges the tables (a symbol assumed differently on the two sides
//! is an error). A refusal for want of a fact raises `NeedsFactsError`,
//! whose `needs` lists the facts.

use hlayout::symbolic::{Poly, SymLayout, Symbols};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

use crate::convert::arg_error;
use crate::errors::IntoPy;
use crate::layout::PyLayout;

/// A layout over symbols, exact for every value the assumptions allow.
///
/// `SymLayout(text, assume=None)`: layout text whose leaves may be
/// polynomials (`"(N,(4,8)):(32,(8,1))"`); `assume` maps each symbol to a
/// dict with `min`, `max`, `divisible_by` (each optional: 1, 2**31-1, 1),
/// or is a list of tinygrad `Variable`s (name, min and max).
///
/// >>> l = SymLayout("(N,(4,8)):(32,(8,1))", assume={"N": {"max": 4096}})
/// >>> l.coalesce()
/// SymLayout('32*N:1', assume={'N': {'min': 1, 'max': 4096, 'divisible_by': 1}})
/// >>> l.size
/// '32*N'
/// >>> l.bind(N=2)
/// Layout('(2,(4,8)):(32,(8,1))')
#[pyclass(name = "SymLayout", module = "hlayout", frozen)]
#[derive(Clone)]
pub(crate) struct PySymLayout {
    syms: Symbols,
    inner: SymLayout,
}

impl PySymLayout {
    /// A layout and its table.
    pub(crate) fn from_parts(syms: Symbols, inner: SymLayout) -> PySymLayout {
        PySymLayout { syms, inner }
    }

    fn text(&self) -> String {
        self.inner.show(&self.syms).to_string()
    }

    fn wrap(&self, syms: Symbols, inner: SymLayout) -> PySymLayout {
        PySymLayout { syms, inner }
    }

    /// This layout's table with `other`'s symbols added, and `other`
    /// re-read in it.
    fn joined(&self, other: &Bound<'_, PyAny>, name: &str) -> PyResult<(Symbols, SymLayout)> {
        let mut syms = self.syms.clone();
        let b = join(&mut syms, other, name)?;
        Ok((syms, b))
    }

    /// A tiler (one layout, or one per trailing mode) in a table joined
    /// with this layout's.
    fn tiler(&self, obj: &Bound<'_, PyAny>) -> PyResult<(Symbols, Tiler)> {
        let mut syms = self.syms.clone();
        if obj.downcast::<PySymLayout>().is_ok() || obj.downcast::<PyLayout>().is_ok() {
            let b = join(&mut syms, obj, "tiler")?;
            return Ok((syms, Tiler::One(b)));
        }
        let refused = || arg_error("tiler", TILER, obj);
        if obj.is_instance_of::<PyString>() {
            return Err(refused());
        }
        let items = obj.try_iter().map_err(|_| refused())?;
        let modes = items
            .map(|t| join(&mut syms, &t?, "tiler"))
            .collect::<PyResult<Vec<_>>>()?;
        Ok((syms, Tiler::Modes(modes)))
    }

    /// A divide by `tiler`: one layout, the logical divide (as for a
    /// concrete layout tiler); one per trailing mode, `by_mode`.
    fn divide(
        &self,
        tiler: &Bound<'_, PyAny>,
        one: fn(&SymLayout, &SymLayout, &Symbols) -> hlayout::Result<SymLayout>,
        by_mode: fn(&SymLayout, &[SymLayout], &Symbols) -> hlayout::Result<SymLayout>,
    ) -> PyResult<PySymLayout> {
        let (syms, t) = self.tiler(tiler)?;
        let r = match t {
            Tiler::One(b) => one(&self.inner, &b, &syms),
            Tiler::Modes(m) => by_mode(&self.inner, &m, &syms),
        };
        Ok(self.wrap(syms, r.py()?))
    }
}

/// What a tiler argument accepts.
const TILER: &str = "a SymLayout or Layout, or a list or tuple of them (one per trailing mode)";

/// A tiler: one layout, or one per trailing mode.
enum Tiler {
    One(SymLayout),
    Modes(Vec<SymLayout>),
}

/// `other` (a `SymLayout` or a `Layout`) re-read in `syms`, its symbols
/// added; a symbol assumed differently in the two tables is an error.
fn join(syms: &mut Symbols, other: &Bound<'_, PyAny>, name: &str) -> PyResult<SymLayout> {
    if let Ok(l) = other.downcast::<PyLayout>() {
        return Ok(SymLayout::from_layout(&l.get().inner));
    }
    let o = other
        .downcast::<PySymLayout>()
        .map_err(|_| arg_error(name, "a SymLayout or a Layout", other))?
        .get();
    for id in 0..o.syms.len() as u8 {
        let (n, a) = (o.syms.name(id), o.syms.assumption(id));
        match syms.id(n) {
            Some(mine) if syms.assumption(mine) != a => {
                return Err(PyValueError::new_err(format!(
                    "symbol {n} is assumed differently by the two layouts ({} and {})",
                    crate::assume::show_assume(&syms.assumption(mine)),
                    crate::assume::show_assume(&a)
                )))
            }
            Some(_) => {}
            None => {
                syms.assume(n, a).py()?;
            }
        }
    }
    SymLayout::parse(&o.text(), syms).py()
}

/// What `__reduce__` returns: the class and its arguments.
type Reduced<'py> = (Bound<'py, PyAny>, (String, Bound<'py, PyDict>));

/// A polynomial as Python: an int when constant, else its text.
pub(crate) fn poly_to_py<'py>(
    py: Python<'py>,
    syms: &Symbols,
    p: &Poly,
) -> PyResult<Bound<'py, PyAny>> {
    Ok(match p.as_const() {
        Some(c) => c.into_pyobject(py)?.into_any(),
        None => PyString::new(py, &syms.show(p).to_string()).into_any(),
    })
}

#[pymethods]
impl PySymLayout {
    #[new]
    #[pyo3(signature = (text, assume=None))]
    fn new(text: &Bound<'_, PyAny>, assume: Option<&Bound<'_, PyAny>>) -> PyResult<PySymLayout> {
        let text: String = text
            .extract()
            .map_err(|_| arg_error("text", "layout text (a str)", text))?;
        let mut syms = crate::assume::table(assume)?;
        let inner = SymLayout::parse(&text, &mut syms).py()?;
        Ok(PySymLayout { syms, inner })
    }

    /// The kernel expressions of this layout (the crate's code generator
    /// over symbols): over its row-major rank `i` (`input="linear"`, the
    /// default) or its top-level coordinates `i0, i1, …` (`input="coords"`),
    /// then its symbols as variables; exact at every allowed binding. Call
    /// it with the inputs' values, then the symbols'. Raises
    /// `NeedsFactsError` when an assumption is missing (e.g. a bound that
    /// keeps every node within 64 bits).
    ///
    /// >>> k = SymLayout("(4,N):(1,4)", assume={"N": {"max": 4096}}).kernel()
    /// >>> k.render("python"), k(5, 3)
    /// (('i * 4 - i // N * (4 * N - 1)', 'True'), (9, True))
    /// >>> k(5, 3) == (SymLayout("(4,N):(1,4)").bind(N=3)(5), True)
    /// True
    ///
    /// With `versions=True`, the versioned kernel (`G ? special : … :
    /// generic`, each guard a test of the symbols alone): at each binding
    /// the version taken has no more `/` and `%` than the single text.
    ///
    /// >>> v = SymLayout("(4,N):(1,4)", assume={"N": {"max": 64}}).kernel(versions=True)
    /// >>> v.render("c")[0]
    /// 'N == 1 ? i : i * 4 - i / N * (4 * N - 1)'
    /// >>> v(3, 1), v(5, 3)
    /// ((3, True), (9, True))
    #[pyo3(signature = (input="linear", versions=false))]
    fn kernel(&self, input: &str, versions: bool) -> PyResult<crate::kernel::PyKernel> {
        crate::sym_kernel::kernel(&self.syms, self.__repr__(), input, versions, |i| {
            layout_kernel(&self.inner, &self.syms, i, versions)
        })
    }

    /// `(index, valid)` of `kernel(input)` as text in `lang` (`"c"`,
    /// `"cuda"`, `"rust"` or `"python"`).
    ///
    /// >>> SymLayout("(4,N):(1,4)", assume={"N": {"max": 4096}}).expr()
    /// ('i * 4 - i / N * (4 * N - 1)', '1')
    /// >>> SymLayout("(N,4):(1,N)", assume={"N": {"max": 64}}).expr("python", "coords")
    /// ('i0 + i1 * N', 'True')
    /// >>> SymLayout("(4,N):(1,4)", assume={"N": {"max": 64}}).expr("python", versions=True)
    /// ('i if N == 1 else i * 4 - i // N * (4 * N - 1)', 'True')
    #[pyo3(signature = (lang="c", input="linear", versions=false))]
    fn expr(&self, lang: &str, input: &str, versions: bool) -> PyResult<(String, String)> {
        crate::sym_kernel::expr(lang, input, |i| {
            layout_kernel(&self.inner, &self.syms, i, versions)
        })
    }

    fn __str__(&self) -> String {
        self.text()
    }

    fn __repr__(&self) -> String {
        format!(
            "SymLayout('{}', assume={})",
            self.text(),
            crate::assume::repr(&self.syms)
        )
    }

    /// Equal text and equal assumptions.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.downcast::<PySymLayout>().is_ok_and(|o| {
            let o = o.get();
            o.__repr__() == self.__repr__()
        })
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.__repr__().hash(&mut h);
        h.finish()
    }

    /// Pickles as `SymLayout(text, assume=assumptions)`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let cls = py.get_type::<PySymLayout>().into_any();
        Ok((cls, (self.text(), self.assumptions(py)?)))
    }

    /// The symbols' names, in order of first appearance.
    #[getter]
    fn symbols(&self) -> Vec<String> {
        crate::assume::names(&self.syms)
    }

    /// Each symbol's assumptions: `{name: {'min', 'max', 'divisible_by'}}`.
    #[getter]
    fn assumptions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        crate::assume::assumptions(py, &self.syms)
    }

    /// The extents, row-major, flat: ints, or polynomial text.
    #[getter]
    fn shape_leaves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let items = self
            .inner
            .shape_leaves()
            .iter()
            .map(|p| poly_to_py(py, &self.syms, p))
            .collect::<PyResult<Vec<_>>>()?;
        PyTuple::new(py, items)
    }

    /// The strides, row-major, flat: ints, or polynomial text.
    #[getter]
    fn stride_leaves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let items = self
            .inner
            .stride_leaves()
            .iter()
            .map(|p| poly_to_py(py, &self.syms, p))
            .collect::<PyResult<Vec<_>>>()?;
        PyTuple::new(py, items)
    }

    /// The size (product of the extents): an int, or polynomial text.
    #[getter]
    fn size<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        poly_to_py(py, &self.syms, &self.inner.size().py()?)
    }

    /// `True` when no leaf uses a symbol.
    #[getter]
    fn is_concrete(&self) -> bool {
        self.inner.to_layout().is_some()
    }

    /// The same function with the fewest leaves the assumptions prove.
    fn coalesce(&self) -> PyResult<PySymLayout> {
        let r = self.inner.coalesce(&self.syms).py()?;
        Ok(self.wrap(self.syms.clone(), r))
    }

    /// `self ∘ other` (a `SymLayout` or a `Layout`); `NeedsFactsError`
    /// when the structure is not proved for every allowed value.
    fn compose(&self, other: &Bound<'_, PyAny>) -> PyResult<PySymLayout> {
        let (syms, b) = self.joined(other, "other")?;
        let r = self.inner.compose(&b, &syms).py()?;
        Ok(self.wrap(syms, r))
    }

    /// The complement up to `cotarget` (an int or polynomial text; default
    /// the cosize of `|self|`).
    #[pyo3(signature = (cotarget=None))]
    fn complement(&self, cotarget: Option<&Bound<'_, PyAny>>) -> PyResult<PySymLayout> {
        let mut syms = self.syms.clone();
        let m = match cotarget.filter(|c| !c.is_none()) {
            None => cosize(&self.inner, &syms)?,
            Some(c) => {
                if let Ok(v) = c.extract::<i64>() {
                    Poly::constant(v)
                } else if let Ok(t) = c.extract::<String>() {
                    syms.parse(&t).py()?
                } else {
                    return Err(arg_error(
                        "cotarget",
                        "an int or polynomial text (a str)",
                        c,
                    ));
                }
            }
        };
        let r = self.inner.complement(&m, &syms).py()?;
        Ok(self.wrap(syms, r))
    }

    /// `(Rest, Tile)`: `self ∘ (complement(tiler, size), tiler)`; with one
    /// tiler per trailing mode, each mode divided (`(kept…, (Restᵢ, Tileᵢ)…)`).
    fn logical_divide(&self, tiler: &Bound<'_, PyAny>) -> PyResult<PySymLayout> {
        self.divide(
            tiler,
            SymLayout::logical_divide,
            SymLayout::logical_divide_by,
        )
    }

    /// `((kept…, Rests…), (Tiles…))` (one layout: the logical divide).
    fn zipped_divide(&self, tiler: &Bound<'_, PyAny>) -> PyResult<PySymLayout> {
        self.divide(tiler, SymLayout::zipped_divide, SymLayout::zipped_divide_by)
    }

    /// `(kept…, Rests…, (Tiles…))` (one layout: `(Rest's modes…, Tile)`).
    fn tiled_divide(&self, tiler: &Bound<'_, PyAny>) -> PyResult<PySymLayout> {
        self.divide(tiler, SymLayout::tiled_divide, SymLayout::tiled_divide_by)
    }

    /// `(kept…, Rests…, Tiles…)` (one layout: `(Rest's modes…, Tile's modes…)`).
    fn flat_divide(&self, tiler: &Bound<'_, PyAny>) -> PyResult<PySymLayout> {
        self.divide(tiler, SymLayout::flat_divide, SymLayout::flat_divide_by)
    }

    /// `(complement(self, size·cosize(tiler)) ∘ tiler, self)`; with one
    /// tiler per trailing mode, each mode's product.
    fn logical_product(&self, tiler: &Bound<'_, PyAny>) -> PyResult<PySymLayout> {
        let (syms, t) = self.tiler(tiler)?;
        let r = match t {
            Tiler::One(b) => self.inner.logical_product(&b, &syms),
            Tiler::Modes(m) => self.inner.logical_product_by(&m, &syms),
        };
        Ok(self.wrap(syms, r.py()?))
    }

    /// The flat view equal to this layout at every allowed binding;
    /// `FlattenError` when it is one at none, `NeedsFactsError` when that
    /// depends on the binding.
    ///
    /// >>> print(SymLayout("(N,(4,8)):(32,(8,1))").flatten())
    /// View(shape=(N, 32), strides=(32, 1), offset=0, mask=None)
    fn flatten(&self) -> PyResult<crate::sym_flat::PySymFlatView> {
        crate::sym_flat::flatten(&self.syms, &self.inner)
    }

    /// CuTe's right inverse: `self(R(i)) == i` for `i < size(R)` at every
    /// allowed binding, the concrete `right_inverse` there.
    fn right_inverse(&self) -> PyResult<PySymLayout> {
        let r = self.inner.right_inverse(&self.syms).py()?;
        Ok(self.wrap(self.syms.clone(), r))
    }

    /// A left inverse where the leaves tile a mixed radix: `R(self(i)) == i`
    /// at every allowed binding.
    fn left_inverse(&self) -> PyResult<PySymLayout> {
        let r = self.inner.left_inverse(&self.syms).py()?;
        Ok(self.wrap(self.syms.clone(), r))
    }

    /// The blocked product: mode i is `(placementᵢ, selfᵢ)`.
    fn blocked_product(&self, other: &Bound<'_, PyAny>) -> PyResult<PySymLayout> {
        let (syms, b) = self.joined(other, "other")?;
        let r = self.inner.blocked_product(&b, &syms).py()?;
        Ok(self.wrap(syms, r))
    }

    /// The raked product: mode i is `(selfᵢ, placementᵢ)`.
    fn raked_product(&self, other: &Bound<'_, PyAny>) -> PyResult<PySymLayout> {
        let (syms, b) = self.joined(other, "other")?;
        let r = self.inner.raked_product(&b, &syms).py()?;
        Ok(self.wrap(syms, r))
    }

    /// The zipped product by one layout: the logical product.
    fn zipped_product(&self, other: &Bound<'_, PyAny>) -> PyResult<PySymLayout> {
        let (syms, b) = self.joined(other, "other")?;
        let r = self.inner.zipped_product(&b, &syms).py()?;
        Ok(self.wrap(syms, r))
    }

    /// The tiled product by one layout: `(placement's modes…, self)`.
    fn tiled_product(&self, other: &Bound<'_, PyAny>) -> PyResult<PySymLayout> {
        let (syms, b) = self.joined(other, "other")?;
        let r = self.inner.tiled_product(&b, &syms).py()?;
        Ok(self.wrap(syms, r))
    }

    /// The divide by a tile that need not divide the extent, over the
    /// rounded-up tile count, with its validity (`SymPredicated`); `form`
    /// is 'logical', 'zipped', 'tiled' or 'flat'. `NeedsFactsError` when
    /// the tile count is no polynomial (`N` by 64).
    #[pyo3(signature = (tiler, form="logical"))]
    fn predicated_divide(
        &self,
        tiler: &Bound<'_, PyAny>,
        form: &str,
    ) -> PyResult<crate::symtiles::PySymPredicated> {
        let how = crate::symtiles::form(form)?;
        let (syms, t) = self.tiler(tiler)?;
        let r = match t {
            Tiler::One(b) => self.inner.predicated_divide(&b, how, &syms),
            Tiler::Modes(m) => self.inner.predicated_divide_by(&m, how, &syms),
        }
        .py()?;
        let recipe = format!(
            "{}.predicated_divide({}, '{form}')",
            self.__repr__(),
            tiler.repr()?
        );
        Ok(crate::symtiles::PySymPredicated::new(syms, r, recipe))
    }

    /// The concrete `Layout` at the given values (`N=3`), each within its
    /// assumptions; every symbol needs a value.
    #[pyo3(signature = (**values))]
    fn bind(&self, values: Option<&Bound<'_, PyDict>>) -> PyResult<PyLayout> {
        let mut pairs = crate::assume::bind_pairs(values)?;
        // A symbol only `assume` names (no leaf uses it) takes its least value.
        let used: Vec<u8> = self
            .inner
            .shape_leaves()
            .iter()
            .chain(self.inner.stride_leaves())
            .flat_map(Poly::symbols)
            .collect();
        for id in 0..self.syms.len() as u8 {
            let name = self.syms.name(id);
            if !used.contains(&id) && !pairs.iter().any(|(n, _)| n == name) {
                pairs.push((name.to_string(), self.syms.range(id).0));
            }
        }
        let ids = crate::assume::binding(&self.syms, &pairs)?;
        Ok(PyLayout::wrap(self.inner.bind(&self.syms, &ids).py()?))
    }
}

/// `1 + Σ (s−1)·|d|`, each stride's sign proved (validation proved it).
fn cosize(l: &SymLayout, syms: &Symbols) -> PyResult<Poly> {
    use hlayout::symbolic::{Fact, Truth};
    let mut c = Poly::constant(1);
    for (s, d) in l.shape_leaves().iter().zip(l.stride_leaves()) {
        let reach = s.sub(&Poly::constant(1)).py()?.mul(d).py()?;
        let sign = syms.prove(&Fact::ge(d, &Poly::zero()).py()?);
        c = match sign {
            Truth::Proved => c.add(&reach),
            Truth::Refuted => c.sub(&reach),
            Truth::Unknown => Err(hlayout::Error::NeedsFacts {
                op: "complement",
                why: format!("the sign of the stride {} is not proved", syms.show(d)),
                needs: vec![format!("{} >= 0", syms.show(d))],
            }),
        }
        .py()?;
    }
    Ok(c)
}

/// The single-text or the versioned kernel of `l` (`codegen::sym_layout`,
/// `codegen::sym_layout_versions`).
fn layout_kernel(
    l: &hlayout::symbolic::SymLayout,
    syms: &Symbols,
    input: hlayout::codegen::Input,
    versions: bool,
) -> hlayout::Result<hlayout::codegen::SymKernel> {
    if versions {
        hlayout::codegen::sym_layout_versions(l, syms, input).map(|kv| kv.kernel().clone())
    } else {
        hlayout::codegen::sym_layout(l, syms, input)
    }
}
