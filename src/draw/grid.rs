//! The drawn grid: cells (offset or padding), its size, and where nested
//! modes put their boundaries. O(cells) to build, evaluating each cell once.

use crate::algebra::ComposedLayout;
use crate::layout::Layout;
use crate::view::{View, ViewStack};

/// Largest number of cells drawn; bigger grids show their first rows and columns.
pub const MAX_CELLS: i64 = 4096;

/// A boundary line between rows or columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// Between two sub-modes of one nested mode (drawn dashed).
    Nested,
    /// Between top-level modes (drawn solid and thick).
    Mode,
}

/// The grid of a layout or view, ready to draw.
///
/// ```
/// use hlayout::draw::{Grid, Mark};
/// let g = Grid::of_layout(&"(2,(2,2)):(2,(1,4))".parse()?);
/// assert_eq!((g.rows(), g.cols()), (2, 4));
/// assert_eq!(g.cell(0, 1), Some(4));
/// assert_eq!(g.col_mark(2), Some(Mark::Nested));
/// # Ok::<(), hlayout::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// What is drawn, as text (the layout or the view).
    pub title: String,
    rows: usize,
    cols: usize,
    /// Rows and columns of the whole grid (before cutting).
    full: (i64, i64),
    cells: Vec<Option<i64>>,
    row_marks: Vec<Option<Mark>>,
    col_marks: Vec<Option<Mark>>,
}

/// The leaves of the row modes and of the column modes, each leaf with the
/// top-level mode it belongs to.
type Leaves = Vec<(i64, usize)>;

impl Grid {
    /// The grid of a layout: rows = top-level mode 0 (one row for rank 1).
    ///
    /// ```
    /// let g = hlayout::draw::Grid::of_layout(&"(2,3):(1,2)".parse()?);
    /// assert_eq!(g.cell(1, 2), Some(5));
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn of_layout(l: &Layout) -> Grid {
        let modes: Vec<Vec<i64>> = l.modes().map(|m| m.shape_leaves().to_vec()).collect();
        Grid::from_fn(l.to_string(), &modes, |i| l.eval(i).ok())
    }

    /// The grid of a view: rows = dimension 0 (one row for rank 1); padding
    /// cells are `None`.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[2])?.pad(&[(1, 0)])?;
    /// let g = hlayout::draw::Grid::of_view(&s.views()[0]);
    /// assert_eq!((g.cell(0, 0), g.cell(0, 1)), (None, Some(0)));
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn of_view(v: &View) -> Grid {
        Grid::view_shaped(v, v.to_string(), |coord| v.eval(coord).ok().flatten())
    }

    /// The grid of a composed layout `Sw<B,M,S> o O o L`: L's modes as rows
    /// and columns, each cell `Sw(O + L(i))`.
    ///
    /// ```
    /// let c = "Sw<1,0,1> o 0 o (2,2):(2,1)".parse()?;
    /// let g = hlayout::draw::Grid::of_composed(&c);
    /// assert_eq!((g.cell(1, 0), g.cell(1, 1)), (Some(3), Some(2)));
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn of_composed(c: &ComposedLayout) -> Grid {
        let modes: Vec<Vec<i64>> = c
            .layout()
            .modes()
            .map(|m| m.shape_leaves().to_vec())
            .collect();
        Grid::from_fn(c.to_string(), &modes, |i| c.eval(i).ok())
    }

    /// The grid of a movement-op stack: the top view's dimensions as rows
    /// and columns, each cell the offset through every view (`None`, grey,
    /// where any view masks the element).
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[10, 10])?.permute(&[1, 0])?.reshape(&[100])?.reshape(&[4, 25])?;
    /// assert_eq!(s.views().len(), 2);
    /// let g = hlayout::draw::Grid::of_stack(&s);
    /// assert_eq!((g.cell(0, 1), g.cell(1, 0)), (Some(10), Some(52)));
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn of_stack(s: &ViewStack) -> Grid {
        let top = &s.views()[s.views().len() - 1];
        Grid::view_shaped(top, s.to_string(), |coord| s.eval(coord).ok().flatten())
    }

    /// A grid of any function of the row-major index over `modes` (each mode
    /// a list of leaf extents; mode 0 the rows when there are two or more):
    /// `eval(i)` is the cell's value, `None` for grey. At most [`MAX_CELLS`]
    /// cells are evaluated.
    ///
    /// ```
    /// let g = hlayout::draw::Grid::from_fn("squares".into(), &[vec![2], vec![3]], |i| Some(i * i));
    /// assert_eq!(g.cell(1, 2), Some(25));
    /// ```
    pub fn from_fn(
        title: String,
        modes: &[Vec<i64>],
        eval: impl FnMut(i64) -> Option<i64>,
    ) -> Grid {
        Grid::from_fn_capped(title, modes, MAX_CELLS, eval)
    }

    /// [`Grid::from_fn`] with its own cap on the cells drawn.
    pub(super) fn from_fn_capped(
        title: String,
        modes: &[Vec<i64>],
        max_cells: i64,
        eval: impl FnMut(i64) -> Option<i64>,
    ) -> Grid {
        let (row_leaves, col_leaves) = split(modes);
        Grid::build(title, &row_leaves, &col_leaves, max_cells, eval)
    }

    /// A grid over a view's dimensions (nested where a dimension is a plain
    /// product of leaves), `at(coord)` giving each cell.
    fn view_shaped(v: &View, title: String, at: impl Fn(&[i64]) -> Option<i64>) -> Grid {
        let shape = v.shape();
        let modes: Vec<Vec<i64>> = (0..v.rank())
            .map(|d| {
                let leaves = &v.leaf_extents()[v.dim_leaves(d)];
                if v.window(d).is_none() && leaves.iter().product::<i64>() == shape[d] {
                    leaves.to_vec()
                } else {
                    vec![shape[d]]
                }
            })
            .collect();
        let mut coord = vec![0i64; shape.len()];
        Grid::from_fn(title, &modes, |i| {
            let mut rest = i;
            for (c, &n) in coord.iter_mut().zip(&shape).rev() {
                *c = rest % n.max(1);
                rest /= n.max(1);
            }
            at(&coord)
        })
    }

    fn build(
        title: String,
        row_leaves: &Leaves,
        col_leaves: &Leaves,
        max_cells: i64,
        mut eval: impl FnMut(i64) -> Option<i64>,
    ) -> Grid {
        let rows_full: i64 = row_leaves.iter().map(|l| l.0).product();
        let cols_full: i64 = col_leaves.iter().map(|l| l.0).product();
        let cols = cols_full.clamp(0, max_cells);
        let rows = rows_full.clamp(0, (max_cells / cols.max(1)).max(1));
        let mut cells = Vec::with_capacity(usize::try_from(rows * cols).unwrap_or(0));
        for r in 0..rows {
            for c in 0..cols {
                cells.push(eval(r * cols_full + c));
            }
        }
        Grid {
            title,
            rows: usize::try_from(rows).unwrap_or(0),
            cols: usize::try_from(cols).unwrap_or(0),
            full: (rows_full, cols_full),
            cells,
            row_marks: (0..rows).map(|r| mark(row_leaves, r)).collect(),
            col_marks: (0..cols).map(|c| mark(col_leaves, c)).collect(),
        }
    }

    /// Rows drawn.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns drawn.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Rows and columns left out (both 0 when the whole grid is drawn).
    ///
    /// ```
    /// let g = hlayout::draw::Grid::of_layout(&"(100,100):(100,1)".parse()?);
    /// assert_eq!(g.cut(), (60, 0));
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn cut(&self) -> (i64, i64) {
        (
            self.full.0 - self.rows as i64,
            self.full.1 - self.cols as i64,
        )
    }

    /// The offset in a cell, `None` for padding (or outside the grid).
    pub fn cell(&self, row: usize, col: usize) -> Option<i64> {
        (row < self.rows && col < self.cols)
            .then(|| self.cells[row * self.cols + col])
            .flatten()
    }

    /// The line drawn above row `row`, if any.
    pub fn row_mark(&self, row: usize) -> Option<Mark> {
        self.row_marks.get(row).copied().flatten()
    }

    /// The line drawn left of column `col`, if any.
    pub fn col_mark(&self, col: usize) -> Option<Mark> {
        self.col_marks.get(col).copied().flatten()
    }

    /// Smallest and largest offset drawn (`(0, 0)` when every cell is padding).
    pub fn range(&self) -> (i64, i64) {
        let valid = self.cells.iter().flatten();
        let lo = valid.clone().min().copied().unwrap_or(0);
        let hi = valid.max().copied().unwrap_or(0);
        (lo, hi)
    }
}

/// Mode 0's leaves index the rows (when there are two or more modes), the
/// other modes' leaves the columns.
fn split(modes: &[Vec<i64>]) -> (Leaves, Leaves) {
    let tagged = |range: std::ops::Range<usize>| -> Leaves {
        range
            .flat_map(|m| modes[m].iter().map(move |&e| (e, m)))
            .collect()
    };
    let first = usize::from(modes.len() >= 2);
    (tagged(0..first), tagged(first..modes.len()))
}

/// The boundary before position `p` (> 0) along `leaves`: set by the slowest
/// leaves whose digits change there: `Mode` when such a leaf's successor starts
/// another top-level mode, else `Nested` (within a mode); none where only the
/// fastest leaf changes.
fn mark(leaves: &Leaves, p: i64) -> Option<Mark> {
    if p == 0 {
        return None;
    }
    let mut step = 1i64;
    let mut found = None;
    for k in (0..leaves.len()).rev() {
        if k + 1 < leaves.len() && leaves[k].0 > 1 && p % step == 0 {
            let m = if leaves[k].1 == leaves[k + 1].1 {
                Mark::Nested
            } else {
                Mark::Mode
            };
            found = found.max(Some(m));
        }
        step = step.saturating_mul(leaves[k].0.max(1));
    }
    found
}
