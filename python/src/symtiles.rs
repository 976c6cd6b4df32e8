//! Predicated divides in Python: `Layout.predicated_divide` (a `View` over
//! the rounded-up tile count, valid where the tile reads the layout) and
//! `SymLayout.predicated_divide` (a `SymPredicated`: the divided layout over
//! symbols with its constraints, `bind(N=..)` giving the concrete `View`).
//! The algorithms are the crate's (`hlayout::algebra::DivideForm`,
//! `hlayout::symbolic::SymPredicated`); this file converts arguments.

use hlayout::algebra::DivideForm;
use hlayout::symbolic::{SymPredicated, Symbols};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::errors::IntoPy;
use crate::symbolic::{poly_to_py, PySymLayout};
use crate::view::PyView;

/// The forms a predicated divide gathers its pieces in.
pub(crate) const FORMS: &str = "'logical', 'zipped', 'tiled' or 'flat'";

/// `form` as a [`DivideForm`].
pub(crate) fn form(form: &str) -> PyResult<DivideForm> {
    match form {
        "logical" => Ok(DivideForm::Logical),
        "zipped" => Ok(DivideForm::Zipped),
        "tiled" => Ok(DivideForm::Tiled),
        "flat" => Ok(DivideForm::Flat),
        _ => Err(PyValueError::new_err(format!(
            "argument 'form': expected {FORMS}, got {:?}",
            form.chars().take(64).collect::<String>()
        ))),
    }
}

/// A divide over symbols with its validity constraints
/// `0 <= Σ coeffs·x < hi` over the layout's leaf coordinates.
///
/// >>> p = SymLayout("64*K+10:1").predicated_divide(Layout("64:1"))
/// >>> str(p)
/// '(K+1,64):(64,1) if 0<=64*x0+x1<64*K+10'
/// >>> p.constraints
/// [((64, 1), '64*K+10')]
/// >>> v = p.bind(K=1)
/// >>> v(1, 9), v(1, 10)
/// (73, None)
#[pyclass(name = "SymPredicated", module = "hlayout", frozen)]
pub(crate) struct PySymPredicated {
    syms: Symbols,
    inner: SymPredicated,
    /// The Python expression that builds it.
    recipe: String,
}

impl PySymPredicated {
    pub(crate) fn new(syms: Symbols, inner: SymPredicated, recipe: String) -> PySymPredicated {
        PySymPredicated {
            syms,
            inner,
            recipe,
        }
    }
}

impl PySymPredicated {
    /// What equality compares: the text and each symbol's assumptions.
    fn key(&self) -> String {
        let syms: Vec<String> = (0..self.syms.len() as u8)
            .map(|id| format!("{}={:?}", self.syms.name(id), self.syms.assumption(id)))
            .collect();
        format!("{} {}", self.inner.show(&self.syms), syms.join(","))
    }
}

/// The values of a `bind(**values)` call, one per symbol of `syms`.
fn bind_values(syms: &Symbols, values: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<i64>> {
    crate::assume::binding(syms, &crate::assume::bind_pairs(values)?)
}

#[pymethods]
impl PySymPredicated {
    fn __str__(&self) -> String {
        self.inner.show(&self.syms).to_string()
    }

    /// The expression that builds it.
    fn __repr__(&self) -> String {
        self.recipe.clone()
    }

    /// Equal layouts, constraints and assumptions.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .downcast::<PySymPredicated>()
            .is_ok_and(|o| o.get().key() == self.key())
    }

    /// The divided layout (also at the invalid elements).
    #[getter]
    fn layout(&self) -> PySymLayout {
        PySymLayout::from_parts(self.syms.clone(), self.inner.layout().clone())
    }

    /// The constraints as `(coeffs, hi)`: `0 <= Σ coeffs[k]·x_k < hi`, each
    /// an int or polynomial text.
    #[getter]
    fn constraints<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Vec<(Bound<'py, PyTuple>, Bound<'py, PyAny>)>> {
        self.inner
            .constraints()
            .iter()
            .map(|(c, hi)| {
                let coeffs = c
                    .iter()
                    .map(|p| poly_to_py(py, &self.syms, p))
                    .collect::<PyResult<Vec<_>>>()?;
                Ok((PyTuple::new(py, coeffs)?, poly_to_py(py, &self.syms, hi)?))
            })
            .collect()
    }

    /// The concrete `View` at the given values (`K=3`).
    #[pyo3(signature = (**values))]
    fn bind(&self, values: Option<&Bound<'_, PyDict>>) -> PyResult<PyView> {
        let v = bind_values(&self.syms, values)?;
        let view = self.inner.bind(&self.syms, &v).py()?;
        let args: Vec<String> = (0..self.syms.len())
            .map(|id| format!("{}={}", self.syms.name(id as u8), v[id]))
            .collect();
        Ok(PyView::new(
            view,
            format!("{}.bind({})", self.recipe, args.join(", ")),
        ))
    }
}
