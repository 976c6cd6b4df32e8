//! `hlayout.loop_nest`: the loop-nest hint of the crate's code generator
//! ([`hlayout::codegen::loop_nest`]), the refinement of a kernel's output
//! loops in which every view it reads is affine. The binding only converts.

use hlayout::codegen::LoopNest;
use pyo3::prelude::*;

use crate::errors::IntoPy;
use crate::view::PyView;

/// A refinement of the output loops in which every view read is affine:
/// `loops` as `(dim, extent, weight)` outermost first (dimension `dim`'s
/// coordinate is `Σ weight·v` over its loops), and per view an affine
/// `access(k)`: `(strides, offset, constraints)`, the index `offset + Σ
/// strides·v`, valid where `lo <= Σ coeffs·v < hi` for each
/// `(coeffs, lo, hi)`.
///
/// >>> s = ViewStack([4, 6]).permute([1, 0]).reshape([24])
/// >>> n = loop_nest([s.views[0]])
/// >>> n.loops, n.access(0)
/// ([(0, 6, 4), (0, 4, 1)], ([1, 6], 0, []))
/// >>> n.coords(5, 3), n(0, 5, 3), s(23)
/// ([23], 23, 23)
#[pyclass(name = "LoopNest", module = "hlayout", frozen)]
pub(crate) struct PyLoopNest {
    inner: LoopNest,
    /// The Python expression that rebuilds the nest: `loop_nest([...])`.
    recipe: String,
}

#[pymethods]
impl PyLoopNest {
    /// The loops, outermost first, as `(dim, extent, weight)`.
    #[getter]
    fn loops(&self) -> Vec<(usize, i64, i64)> {
        self.inner
            .loops()
            .iter()
            .map(|l| (l.dim, l.extent, l.weight))
            .collect()
    }

    /// The output shape the nest enumerates.
    #[getter]
    fn shape(&self) -> Vec<i64> {
        self.inner.shape().to_vec()
    }

    /// View `k`'s access `(strides, offset, constraints)`.
    #[allow(clippy::type_complexity)]
    fn access(&self, k: usize) -> PyResult<(Vec<i64>, i64, Vec<(Vec<i64>, i64, i64)>)> {
        let a = self.inner.accesses().get(k).ok_or_else(|| {
            pyo3::exceptions::PyIndexError::new_err(format!("no view {k} in the nest"))
        })?;
        Ok((a.strides().to_vec(), a.offset(), a.constraints().to_vec()))
    }

    /// The output coordinate of a loop point.
    #[pyo3(signature = (*at))]
    fn coords(&self, at: Vec<i64>) -> PyResult<Vec<i64>> {
        self.check(&at)?;
        Ok(self.inner.coords(&at))
    }

    /// View `k`'s offset at a loop point, `None` where it is invalid.
    #[pyo3(signature = (k, *at))]
    fn __call__(&self, k: usize, at: Vec<i64>) -> PyResult<Option<i64>> {
        self.check(&at)?;
        self.inner.accesses().get(k).ok_or_else(|| {
            pyo3::exceptions::PyIndexError::new_err(format!("no view {k} in the nest"))
        })?;
        Ok(self.inner.eval(k, &at))
    }

    /// `loop_nest([...])` over the views' own reprs, so `eval(repr(n))`
    /// rebuilds an equal nest.
    fn __repr__(&self) -> String {
        self.recipe.clone()
    }

    /// An SVG picture of view 0's offsets over the loop points (outermost
    /// loop the rows), grey where it is invalid (for Jupyter).
    fn _repr_svg_(&self) -> String {
        crate::draw::loop_nest_svg(&self.inner, self.recipe.clone())
    }

    /// Nests are equal when their loops and every view's access are.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .downcast::<PyLoopNest>()
            .is_ok_and(|o| o.get().inner == self.inner)
    }
}

impl PyLoopNest {
    fn check(&self, at: &[i64]) -> PyResult<()> {
        let ext = self.inner.extents();
        if at.len() != ext.len() || at.iter().zip(&ext).any(|(v, e)| !(0..*e).contains(v)) {
            return Err(crate::errors::to_py(hlayout::Error::OutOfDomain {
                what: format!("loop point {at:?} in loop extents {ext:?}"),
            }));
        }
        Ok(())
    }
}

/// The loop nest in which every view of `views` (all of one shape) is affine
/// (see `LoopNest`). Raises `PreconditionError` when there is none (a pad
/// that cuts a nested dimension, or two views splitting a dimension at
/// weights that do not divide each other).
#[pyfunction]
pub(crate) fn loop_nest(views: Vec<PyRef<'_, PyView>>) -> PyResult<PyLoopNest> {
    let refs: Vec<&hlayout::View> = views.iter().map(|v| &v.inner).collect();
    let inner = hlayout::codegen::loop_nest(&refs).py()?;
    let reprs: Vec<String> = views.iter().map(|v| v.recipe().to_owned()).collect();
    Ok(PyLoopNest {
        inner,
        recipe: format!("loop_nest([{}])", reprs.join(", ")),
    })
}
