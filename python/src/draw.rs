//! Pictures for Jupyter: `hlayout.TvPicture` (a thread/value access on a
//! shared-memory tile, the crate's [`hlayout::draw::TvPicture`]) and the grids
//! of the classes the crate has no drawing of its own for (`FlatView`,
//! `Kernel`, `Swizzle`), built with [`Grid::from_fn`] and drawn by the crate.

use hlayout::algebra::{ComposedLayout, Swizzle};
use hlayout::codegen::Kernel;
use hlayout::draw::{self, Banks, Grid};
use hlayout::{FlatView, Layout};
use pyo3::prelude::*;

use crate::errors::IntoPy;
use crate::layout::PyLayout;

/// An access given as a `Layout` or as layout text.
pub(crate) fn access_of(obj: &Bound<'_, PyAny>) -> PyResult<Layout> {
    if let Ok(l) = obj.downcast::<PyLayout>() {
        return Ok(l.get().inner.clone());
    }
    let text: String = obj.extract()?;
    text.parse().py()
}

/// Which warp's banks to show, when `element_bytes` is given.
fn banks(element_bytes: Option<i64>, warp: i64) -> Option<Banks> {
    element_bytes.map(|element_bytes| Banks {
        element_bytes,
        warp,
    })
}

/// The expression that rebuilds a picture: `{source}.draw_tv(…)`.
fn recipe(source: String, access: &Layout, element_bytes: Option<i64>, warp: i64) -> String {
    let bytes = element_bytes.map_or("None".to_string(), |b| b.to_string());
    format!("{source}.draw_tv('{access}', element_bytes={bytes}, warp={warp})")
}

/// The picture of `access` on the plain tile layout `l`.
pub(crate) fn tv_of_layout(
    l: &Layout,
    access: &Layout,
    element_bytes: Option<i64>,
    warp: i64,
) -> PyResult<PyTvPicture> {
    let inner = draw::TvPicture::of_layout(l, access, banks(element_bytes, warp)).py()?;
    let recipe = recipe(format!("Layout('{l}')"), access, element_bytes, warp);
    Ok(PyTvPicture { inner, recipe })
}

/// The picture of `access` on the composed tile layout `c`.
pub(crate) fn tv_of_composed(
    c: &ComposedLayout,
    access: &Layout,
    element_bytes: Option<i64>,
    warp: i64,
) -> PyResult<PyTvPicture> {
    let inner = draw::TvPicture::of_composed(c, access, banks(element_bytes, warp)).py()?;
    let recipe = recipe(
        format!("ComposedLayout('{c}')"),
        access,
        element_bytes,
        warp,
    );
    Ok(PyTvPicture { inner, recipe })
}

/// The row-major coordinate of index `i` in `shape`.
fn unravel(mut i: i64, shape: &[i64]) -> Vec<i64> {
    let mut coord = vec![0; shape.len()];
    for (c, &n) in coord.iter_mut().zip(shape).rev() {
        *c = i % n.max(1);
        i /= n.max(1);
    }
    coord
}

/// The grid of a flat view: dimension 0 the rows, masked elements grey.
pub(crate) fn flat_view_svg(v: &FlatView, title: String) -> String {
    let shape = v.shape().to_vec();
    let modes: Vec<Vec<i64>> = shape.iter().map(|&d| vec![d]).collect();
    let g = Grid::from_fn(title, &modes, |i| {
        v.eval(&unravel(i, &shape)).ok().flatten()
    });
    draw::grid_svg(&g)
}

/// The grid of a kernel over its variables (the first one the rows): the
/// index where the validity holds, grey elsewhere.
pub(crate) fn kernel_svg(k: &Kernel, title: String) -> String {
    let extents: Vec<i64> = k.vars().iter().map(|v| v.extent).collect();
    let modes: Vec<Vec<i64>> = extents.iter().map(|&e| vec![e]).collect();
    let g = Grid::from_fn(title, &modes, |i| match k.eval(&unravel(i, &extents)) {
        Ok((index, true)) => Some(index),
        _ => None,
    });
    draw::grid_svg(&g)
}

/// A swizzle drawn on one period `2^(B+M+|S|)`: row `y` (the high `B` bits)
/// shows where `Sw` sends the offsets `y·2^(M+|S|) + c`. `None` when the
/// period has more than 2^20 offsets.
pub(crate) fn swizzle_svg(sw: &Swizzle) -> Option<String> {
    let low = sw.base() + sw.shift().abs();
    if sw.bits() + low > 20 {
        return None;
    }
    let (rows, cols) = (1i64 << sw.bits(), 1i64 << low);
    let l: Layout = format!("({rows},{cols}):({cols},1)").parse().ok()?;
    let c = ComposedLayout::new(*sw, 0, l).ok()?;
    Some(draw::composed_svg(&c))
}

/// A thread/value access on a shared-memory tile, as CuTe's
/// `print_latex_tv` draws it: each element of the tile (drawn as the tile
/// layout's grid, mode 0 the rows) coloured by the thread that reads it and
/// labelled `T<t>V<v>`. Thread `t` reads element `access(t·V + v)` as its
/// value `v` (`access` has top-level rank 2: threads by values). Given
/// `element_bytes`, it also shows the banks that warp `warp` hits and the
/// distinct 4-byte words per bank for each value (32 banks; wavefronts =
/// the most words in one bank). Jupyter shows the SVG.
///
/// >>> p = Layout("(32,32):(32,1)").draw_tv(Layout("(32,32):(32,1)"), element_bytes=4)
/// >>> p.thread_value(3, 5), p.readers(3, 5), p.bank(3, 5)
/// ((3, 5), 1, 5)
/// >>> p.wavefronts[:2], p.ideal[:2]
/// ([32, 32], [1, 1])
/// >>> p._repr_svg_().startswith("<svg")
/// True
/// >>> p
/// Layout('(32,32):(32,1)').draw_tv('(32,32):(32,1)', element_bytes=4, warp=0)
#[pyclass(name = "TvPicture", module = "hlayout", frozen)]
pub(crate) struct PyTvPicture {
    inner: draw::TvPicture,
    recipe: String,
}

#[pymethods]
impl PyTvPicture {
    /// `(rows, columns)` of the tile's grid.
    #[getter]
    fn shape(&self) -> (usize, usize) {
        (self.inner.grid.rows(), self.inner.grid.cols())
    }

    /// Threads `T` and values per thread `V` of the access.
    #[getter]
    fn threads_values(&self) -> (i64, i64) {
        (self.inner.threads(), self.inner.values())
    }

    /// The first `(t, v)` reading the element at `(row, col)`, `None` if no
    /// thread reads it.
    fn thread_value(&self, row: usize, col: usize) -> Option<(i64, i64)> {
        self.inner.thread_value(row, col)
    }

    /// How many `(t, v)` read the element at `(row, col)`.
    fn readers(&self, row: usize, col: usize) -> u32 {
        self.inner.readers(row, col)
    }

    /// The bank of the element at `(row, col)` (`None` without `element_bytes`).
    fn bank(&self, row: usize, col: usize) -> Option<u8> {
        self.inner.bank(row, col)
    }

    /// For each value `v`: the wavefronts the shown warp needs (empty
    /// without `element_bytes`).
    #[getter]
    fn wavefronts(&self) -> Vec<u32> {
        self.inner.panel.as_ref().map_or(Vec::new(), |p| {
            (0..p.words.len()).map(|v| p.wavefronts(v)).collect()
        })
    }

    /// For each value `v`: the ideal wavefronts, `ceil(distinct words / 32)`.
    #[getter]
    fn ideal(&self) -> Vec<u32> {
        self.inner.panel.as_ref().map_or(Vec::new(), |p| {
            (0..p.words.len()).map(|v| p.ideal(v)).collect()
        })
    }

    /// For each value `v`: distinct words per bank (32 counts).
    #[getter]
    fn words_per_bank(&self) -> Vec<Vec<u32>> {
        self.inner
            .panel
            .as_ref()
            .map_or(Vec::new(), |p| p.words.iter().map(|w| w.to_vec()).collect())
    }

    /// The SVG picture (Jupyter shows it).
    fn _repr_svg_(&self) -> String {
        draw::tv_svg(&self.inner)
    }

    /// The picture as a standalone LaTeX document (TikZ).
    fn latex(&self) -> String {
        draw::tv_latex(&self.inner)
    }

    /// The expression that rebuilds the picture from its tile and access.
    fn __repr__(&self) -> String {
        self.recipe.clone()
    }

    /// Pictures are equal when every cell, count and bank is.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .downcast::<PyTvPicture>()
            .is_ok_and(|o| o.get().inner == self.inner)
    }
}
