//! `hlayout.SymFlatView` (a flat view whose numbers may be polynomials over
//! symbols), the symbolic form of `hlayout.merge`, and `SymLayout.flatten`:
//! wrappers over the crate's [`hlayout::symbolic::SymFlatView`],
//! [`hlayout::symbolic::merge`] and [`SymLayout::flatten`].
//!
//! Each object owns its symbol table, as `SymLayout` does; a merge joins the
//! two tables and the `assume` argument (a symbol assumed differently is an
//! error). An answer that depends on the binding raises `NeedsFactsError`.

use hlayout::symbolic::{Poly, SymFlatView, SymLayout, Symbols};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

use crate::assume::{read_assume, show_assume};
use crate::convert::arg_error;
use crate::errors::{raise, Field, FlattenError, IntoPy};
use crate::layout::PyFlatView;
use crate::symbolic::poly_to_py;

/// A flat view (tinygrad's form) whose numbers are ints or polynomial text
/// over symbols, exact for every value the assumptions allow.
///
/// `SymFlatView(shape, strides, offset=0, mask=None, assume=None)`; `assume`
/// as for `SymLayout`.
///
/// >>> v = SymFlatView((3, "sp+1"), ("sp+1", 1), assume={"sp": {"max": 127}})
/// >>> v.shape, v.strides, v.offset, v.mask
/// ((3, 'sp+1'), ('sp+1', 1), 0, None)
/// >>> v.bind(sp=3)
/// FlatView((3, 4), (4, 1), offset=0, mask=None)
/// >>> print(v)
/// View(shape=(3, sp+1), strides=(sp+1, 1), offset=0, mask=None)
#[pyclass(name = "SymFlatView", module = "hlayout", frozen)]
#[derive(Clone)]
pub(crate) struct PySymFlatView {
    syms: Symbols,
    inner: SymFlatView,
}

/// What a number accepts.
const NUMBER: &str = "an int or polynomial text (a str)";

/// An int or polynomial text, read in `syms`.
pub(crate) fn number(obj: &Bound<'_, PyAny>, name: &str, syms: &mut Symbols) -> PyResult<Poly> {
    if let Ok(v) = obj.extract::<i64>() {
        return Ok(Poly::constant(v));
    }
    if let Ok(t) = obj.downcast::<PyString>() {
        return syms.parse(&t.to_cow()?).py();
    }
    Err(arg_error(name, NUMBER, obj))
}

/// A sequence of numbers (not a str).
pub(crate) fn numbers(
    obj: &Bound<'_, PyAny>,
    name: &str,
    syms: &mut Symbols,
) -> PyResult<Vec<Poly>> {
    if obj.is_instance_of::<PyString>() {
        return Err(arg_error(
            name,
            "a sequence of ints or polynomial strs",
            obj,
        ));
    }
    let items = obj
        .try_iter()
        .map_err(|_| arg_error(name, "a sequence of ints or polynomial strs", obj))?;
    items.map(|x| number(&x?, name, syms)).collect()
}

/// A sequence of `(begin, end)` pairs of numbers.
fn intervals(obj: &Bound<'_, PyAny>, syms: &mut Symbols) -> PyResult<Vec<(Poly, Poly)>> {
    let bad = || arg_error("mask", "a sequence of (begin, end) pairs", obj);
    let items = obj.try_iter().map_err(|_| bad())?;
    items
        .map(|p| {
            let p = numbers(&p?, "mask", syms)?;
            match <[Poly; 2]>::try_from(p) {
                Ok([b, e]) => Ok((b, e)),
                Err(_) => Err(bad()),
            }
        })
        .collect()
}

/// `other`'s symbols added to `syms` (the same assumptions, or an error);
/// the symbols `fixed` names keep their assumptions in `syms` (the merge's
/// `assume` argument overrides the operands').
fn join(syms: &mut Symbols, other: &Symbols, fixed: &[String]) -> PyResult<()> {
    for id in 0..other.len() as u8 {
        let (n, a) = (other.name(id), other.assumption(id));
        if fixed.iter().any(|f| f == n) {
            continue;
        }
        match syms.id(n) {
            Some(mine) if syms.assumption(mine) != a => {
                return Err(PyValueError::new_err(format!(
                    "symbol {n} is assumed differently by the two views ({} and {})",
                    show_assume(&syms.assumption(mine)),
                    show_assume(&a)
                )))
            }
            Some(_) => {}
            None => {
                syms.assume(n, a).py()?;
            }
        }
    }
    Ok(())
}

/// A merge operand (`SymFlatView` or `FlatView`) re-read in `syms`.
fn operand(
    obj: &Bound<'_, PyAny>,
    name: &str,
    syms: &mut Symbols,
    fixed: &[String],
) -> PyResult<SymFlatView> {
    if let Ok(v) = obj.downcast::<PyFlatView>() {
        return Ok(SymFlatView::from_flat(&v.get().inner));
    }
    let v = obj
        .downcast::<PySymFlatView>()
        .map_err(|_| arg_error(name, "a SymFlatView or a FlatView", obj))?
        .get();
    join(syms, &v.syms, fixed)?;
    let text = |p: &Poly| v.syms.show(p).to_string();
    let all = |ps: &[Poly], syms: &mut Symbols| -> PyResult<Vec<Poly>> {
        ps.iter().map(|p| syms.parse(&text(p)).py()).collect()
    };
    let shape = all(v.inner.shape(), syms)?;
    let strides = all(v.inner.strides(), syms)?;
    let offset = syms.parse(&text(v.inner.offset())).py()?;
    let mask = match v.inner.mask() {
        None => None,
        Some(m) => Some(
            m.iter()
                .map(|(b, e)| Ok((syms.parse(&text(b)).py()?, syms.parse(&text(e)).py()?)))
                .collect::<PyResult<Vec<_>>>()?,
        ),
    };
    SymFlatView::new(shape, strides, offset, mask, syms).py()
}

/// `hlayout.merge` when an operand is a `SymFlatView` or `assume` is given;
/// `assume` overrides the operands' assumptions for the symbols it names.
pub(crate) fn merge(
    first: &Bound<'_, PyAny>,
    second: &Bound<'_, PyAny>,
    assume: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<PySymFlatView>> {
    let mut syms = Symbols::new();
    if let Some(a) = assume.filter(|a| !a.is_none()) {
        read_assume(a, &mut syms)?;
    }
    let fixed: Vec<String> = (0..syms.len() as u8)
        .map(|id| syms.name(id).to_string())
        .collect();
    let a = operand(first, "first", &mut syms, &fixed)?;
    let b = operand(second, "second", &mut syms, &fixed)?;
    let merged = hlayout::symbolic::merge(&a, &b, &syms).py()?;
    Ok(merged.map(|inner| PySymFlatView { syms, inner }))
}

/// `SymLayout.flatten`: the view, or `FlattenError` (not ordinary at any
/// binding), or `NeedsFactsError` (it depends on the binding).
pub(crate) fn flatten(syms: &Symbols, l: &SymLayout) -> PyResult<PySymFlatView> {
    match l.flatten(syms).py()? {
        Ok(inner) => Ok(PySymFlatView {
            syms: syms.clone(),
            inner,
        }),
        Err(report) => {
            let message = report.show(syms).to_string();
            let reasons = message.split("; ").map(str::to_string).collect();
            Err(Python::with_gil(|py| {
                raise::<FlattenError>(
                    py,
                    message,
                    "Flatten",
                    vec![
                        ("modes", Field::List(Vec::new())),
                        ("reasons", Field::Strs(reasons)),
                    ],
                )
            }))
        }
    }
}

impl PySymFlatView {
    fn text(&self) -> String {
        self.inner.show(&self.syms).to_string()
    }

    fn tuple<'py>(&self, py: Python<'py>, ps: &[Poly]) -> PyResult<Bound<'py, PyTuple>> {
        let items = ps
            .iter()
            .map(|p| poly_to_py(py, &self.syms, p))
            .collect::<PyResult<Vec<_>>>()?;
        PyTuple::new(py, items)
    }
}

#[pymethods]
impl PySymFlatView {
    #[new]
    #[pyo3(signature = (shape, strides, offset=None, mask=None, assume=None))]
    fn new(
        shape: &Bound<'_, PyAny>,
        strides: &Bound<'_, PyAny>,
        offset: Option<&Bound<'_, PyAny>>,
        mask: Option<&Bound<'_, PyAny>>,
        assume: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PySymFlatView> {
        let mut syms = Symbols::new();
        if let Some(a) = assume.filter(|a| !a.is_none()) {
            read_assume(a, &mut syms)?;
        }
        let shape = numbers(shape, "shape", &mut syms)?;
        let strides = numbers(strides, "strides", &mut syms)?;
        let offset = match offset.filter(|o| !o.is_none()) {
            None => Poly::zero(),
            Some(o) => number(o, "offset", &mut syms)?,
        };
        let mask = match mask.filter(|m| !m.is_none()) {
            None => None,
            Some(m) => Some(intervals(m, &mut syms)?),
        };
        let inner = SymFlatView::new(shape, strides, offset, mask, &syms).py()?;
        Ok(PySymFlatView { syms, inner })
    }

    /// The extents: ints, or polynomial text.
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.tuple(py, self.inner.shape())
    }

    /// The strides: ints, or polynomial text.
    #[getter]
    fn strides<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.tuple(py, self.inner.strides())
    }

    /// The offset: an int, or polynomial text.
    #[getter]
    fn offset<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        poly_to_py(py, &self.syms, self.inner.offset())
    }

    /// The mask `[(begin, end), …]`, or None.
    #[getter]
    fn mask<'py>(&self, py: Python<'py>) -> PyResult<Option<Vec<Bound<'py, PyTuple>>>> {
        let Some(m) = self.inner.mask() else {
            return Ok(None);
        };
        m.iter()
            .map(|(b, e)| self.tuple(py, &[b.clone(), e.clone()]))
            .collect::<PyResult<Vec<_>>>()
            .map(Some)
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

    /// The concrete `FlatView` at the given values (`sp=3`), each within its
    /// assumptions; every symbol needs a value.
    #[pyo3(signature = (**values))]
    fn bind(&self, values: Option<&Bound<'_, PyDict>>) -> PyResult<PyFlatView> {
        let pairs = crate::assume::bind_pairs(values)?;
        let ids = crate::assume::binding(&self.syms, &pairs)?;
        Ok(PyFlatView {
            inner: self.inner.bind(&ids).py()?,
        })
    }

    /// tinygrad's `View(...)` text with polynomial numbers.
    fn __str__(&self) -> String {
        self.text()
    }

    /// The Python expression that rebuilds the view.
    ///
    /// >>> SymFlatView(("N", 4), (4, 1), mask=[(0, "N"), (1, 4)], assume={"N": {"max": 8}})
    /// SymFlatView(('N', 4), (4, 1), offset=0, mask=[(0, 'N'), (1, 4)], assume={'N': {'min': 1, 'max': 8, 'divisible_by': 1}})
    fn __repr__(&self) -> String {
        let lit = |p: &Poly| match p.as_const() {
            Some(c) => c.to_string(),
            None => format!("'{}'", self.syms.show(p)),
        };
        let tuple = |ps: &[Poly]| {
            let items: Vec<String> = ps.iter().map(lit).collect();
            match items.len() {
                1 => format!("({},)", items[0]),
                _ => format!("({})", items.join(", ")),
            }
        };
        let mask = match self.inner.mask() {
            None => "None".to_string(),
            Some(m) => {
                let items: Vec<String> = m
                    .iter()
                    .map(|(b, e)| format!("({}, {})", lit(b), lit(e)))
                    .collect();
                format!("[{}]", items.join(", "))
            }
        };
        format!(
            "SymFlatView({}, {}, offset={}, mask={mask}, assume={})",
            tuple(self.inner.shape()),
            tuple(self.inner.strides()),
            lit(self.inner.offset()),
            crate::assume::repr(&self.syms)
        )
    }

    /// Pickles as `SymFlatView(shape, strides, offset, mask, assume)`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let cls = py.get_type::<PySymFlatView>().into_any();
        let args = (
            self.shape(py)?,
            self.strides(py)?,
            self.offset(py)?,
            self.mask(py)?,
            self.assumptions(py)?,
        );
        PyTuple::new(py, [cls, args.into_pyobject(py)?.into_any()])
    }

    /// Equal views and equal assumptions.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .downcast::<PySymFlatView>()
            .is_ok_and(|o| o.get().__repr__() == self.__repr__())
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.__repr__().hash(&mut h);
        h.finish()
    }
}
