//! Shared memory: bank conflicts, the swizzle search, the swizzle between
//! two layouts and F2 linear layouts, over the crate's [`hlayout::smem`].
//! A layout argument is a `Layout`, a `ComposedLayout` or their text.

use hlayout::smem::{self, Access, SmemLayout};
use hlayout::Layout;
use pyo3::create_exception;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::composed::{PyComposedLayout, PySwizzle};
use crate::convert::{arg_error, Int, Ints};
use crate::errors::{raise, Field, HlayoutError, IntoPy};
use crate::layout::PyLayout;

create_exception!(
    hlayout,
    NotLinearError,
    HlayoutError,
    "A layout is not linear over F2: `index`, its `value` and the `expected` XOR of the bases."
);
create_exception!(
    hlayout,
    NoSwizzleError,
    HlayoutError,
    "No swizzle in range maps a layout onto a target: the first `index` none fits, `value`, `target`."
);

/// Adds the functions and exceptions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("NotLinearError", py.get_type::<NotLinearError>())?;
    m.add("NoSwizzleError", py.get_type::<NoSwizzleError>())?;
    m.add_function(wrap_pyfunction!(bank_conflicts, m)?)?;
    m.add_function(wrap_pyfunction!(bank_conflicts_per_request, m)?)?;
    m.add_function(wrap_pyfunction!(swizzle_search, m)?)?;
    m.add_function(wrap_pyfunction!(swizzle_between, m)?)?;
    m.add_function(wrap_pyfunction!(linear_layout, m)?)?;
    m.add_function(wrap_pyfunction!(from_linear, m)?)?;
    Ok(())
}

/// A shared-memory layout argument `name`: `Layout`, `ComposedLayout` or text.
fn smem_layout(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<SmemLayout> {
    if let Ok(l) = obj.downcast::<PyLayout>() {
        return Ok(SmemLayout::Plain(l.get().inner.clone()));
    }
    if let Ok(c) = obj.downcast::<PyComposedLayout>() {
        return Ok(SmemLayout::Swizzled(c.get().inner.clone()));
    }
    if let Ok(text) = obj.downcast::<PyString>() {
        return text.to_cow()?.parse().py();
    }
    Err(arg_error(
        name,
        "a Layout, a ComposedLayout or layout text such as \"(8,8):(8,1)\"",
        obj,
    ))
}

/// An access argument: a `Layout` (or its text) of top-level rank 2.
fn access(obj: &Bound<'_, PyAny>) -> PyResult<Access> {
    let l: Layout = if let Ok(l) = obj.downcast::<PyLayout>() {
        l.get().inner.clone()
    } else if let Ok(text) = obj.downcast::<PyString>() {
        text.to_cow()?.parse().py()?
    } else {
        return Err(arg_error(
            "access",
            "a Layout or layout text such as \"(32,4):(1,32)\"",
            obj,
        ));
    };
    Access::new(l).py()
}

/// `(wavefronts, ideal)`: the exact wavefronts of `access` (threads by
/// values, `A(t*V + v)`) reading `layout` with `element_bytes`-byte elements
/// (1, 2 or 4), summed over warps and values, and the ideal count.
///
/// >>> bank_conflicts("(32,32):(32,1)", "(32,32):(32,1)", 4)   # columns: 32-way
/// (1024, 32)
/// >>> bank_conflicts("Sw<4,0,5> o 0 o (32,32):(32,1)", "(32,32):(32,1)", 4)
/// (64, 32)
#[pyfunction]
pub(crate) fn bank_conflicts(
    layout: &Bound<'_, PyAny>,
    access: &Bound<'_, PyAny>,
    element_bytes: Int,
) -> PyResult<(u64, u64)> {
    let c = smem::bank_conflicts(
        &smem_layout(layout, "layout")?,
        &self::access(access)?,
        element_bytes.0,
    )
    .py()?;
    Ok((c.wavefronts, c.ideal))
}

/// `[(warp, value, wavefronts, ideal), ...]`, warp-major: the count of
/// every request of `bank_conflicts`.
///
/// >>> bank_conflicts_per_request("(8,8):(8,1)", "(8,2):(8,1)", 4)
/// [(0, 0, 2, 1), (0, 1, 2, 1)]
#[pyfunction]
pub(crate) fn bank_conflicts_per_request(
    layout: &Bound<'_, PyAny>,
    access: &Bound<'_, PyAny>,
    element_bytes: Int,
) -> PyResult<Vec<(i64, i64, u32, u32)>> {
    let c = smem::bank_conflicts(
        &smem_layout(layout, "layout")?,
        &self::access(access)?,
        element_bytes.0,
    )
    .py()?;
    Ok(c.groups
        .iter()
        .map(|g| (g.warp, g.value, g.wavefronts, g.ideal))
        .collect())
}

/// `(ComposedLayout, wavefronts)`: the swizzle `Sw<B,M,S>` (0 <= B <= 4,
/// 0 <= M <= 4, B <= S <= 7; ties: smallest B, then M, then S) whose layout
/// `Sw o 0 o layout` takes the fewest wavefronts for `access`, exactly.
///
/// >>> swizzle_search("(32,32):(32,1)", "(32,32):(32,1)", 4)
/// (ComposedLayout('Sw<4,0,5> o 0 o (32,32):(32,1)'), 64)
#[pyfunction]
pub(crate) fn swizzle_search(
    layout: &Bound<'_, PyAny>,
    access: &Bound<'_, PyAny>,
    element_bytes: Int,
) -> PyResult<(PyComposedLayout, u64)> {
    let l = match smem_layout(layout, "layout")? {
        SmemLayout::Plain(l) => l,
        SmemLayout::Swizzled(_) => {
            return Err(arg_error(
                "layout",
                "a plain Layout or its text (swizzle_search chooses the swizzle)",
                layout,
            ))
        }
    };
    let best = smem::swizzle_search(&l, &self::access(access)?, element_bytes.0).py()?;
    Ok((PyComposedLayout::wrap(best.layout), best.wavefronts))
}

/// The swizzle `Sw` (in the search range, the smallest in tie order) with
/// `Sw(layout(i)) == target(i)` at every index (cutlass issue #1038).
/// Raises `NoSwizzleError` with the first index where no swizzle fits.
///
/// >>> swizzle_between("(16,64):(64,1)", "Sw<3,4,3> o 0 o (16,64):(64,1)")
/// Swizzle(3, 4, 3)
/// >>> swizzle_between("8:1", "8:2")
/// Traceback (most recent call last):
/// ...
/// hlayout.NoSwizzleError: no swizzle Sw<B,M,S> (0 <= B <= 4, 0 <= M <= 4, B <= S <= 7) maps the layout onto the target: at index 1 the layout gives 1 and the target 2, which none of the 111 swizzles that fit every index below it maps
#[pyfunction]
pub(crate) fn swizzle_between(
    py: Python<'_>,
    layout: &Bound<'_, PyAny>,
    target: &Bound<'_, PyAny>,
) -> PyResult<PySwizzle> {
    match smem::swizzle_between(
        &smem_layout(layout, "layout")?,
        &smem_layout(target, "target")?,
    )
    .py()?
    {
        Ok(inner) => Ok(PySwizzle { inner }),
        Err(why) => Err(raise::<NoSwizzleError>(
            py,
            why.to_string(),
            "NoSwizzle",
            vec![
                ("index", Field::Int(why.index)),
                ("value", Field::Int(why.from)),
                ("target", Field::Int(why.to)),
            ],
        )),
    }
}

/// Triton-style bases `[L(1), L(2), L(4), ...]` of a layout of size `2**n`
/// that is linear over F2 (`L(i)` is the XOR of the bases at the set bits of
/// `i`); raises `NotLinearError` naming the first index where it is not.
///
/// >>> linear_layout("Sw<3,4,3> o 0 o (8,64):(64,1)")
/// [1, 2, 4, 8, 16, 32, 64, 144, 288]
/// >>> linear_layout("4:3")
/// Traceback (most recent call last):
/// ...
/// hlayout.NotLinearError: not linear over F2: L(3) = 9, but the XOR of the bases at the set bits of 3 is 5
#[pyfunction]
pub(crate) fn linear_layout(py: Python<'_>, layout: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    match smem::to_linear(&smem_layout(layout, "layout")?).py()? {
        Ok(bases) => Ok(bases),
        Err(why) => Err(raise::<NotLinearError>(
            py,
            why.to_string(),
            "NotLinear",
            vec![
                ("index", Field::Int(why.index)),
                ("value", Field::Int(why.value)),
                ("expected", Field::Int(why.expected)),
            ],
        )),
    }
}

/// The layout (a `Layout` when a plain one exists, else a swizzled
/// `ComposedLayout` from the search range) whose map is the XOR of `bases`
/// over the set bits of the index; `PreconditionError` when there is none.
///
/// >>> from_linear([1, 2, 4, 8])
/// Layout('16:1')
/// >>> from_linear([1, 2, 4, 8, 16, 32, 64, 144, 288])
/// ComposedLayout('Sw<2,4,3> o 0 o 512:1')
#[pyfunction]
pub(crate) fn from_linear(py: Python<'_>, bases: Ints) -> PyResult<PyObject> {
    Ok(match smem::from_linear(&bases.0).py()? {
        SmemLayout::Plain(l) => PyLayout::wrap(l).into_pyobject(py)?.into_any().unbind(),
        SmemLayout::Swizzled(c) => PyComposedLayout::wrap(c)
            .into_pyobject(py)?
            .into_any()
            .unbind(),
    })
}
