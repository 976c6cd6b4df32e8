//! The drawn grid: cells (offset or padding), its size, and where nested
//! modes put their boundaries. O(cells) to build, evaluating each cell once.

use crate::layout::Layout;
use crate::view::View;

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
        let (row_leaves, col_leaves) = split(&modes);
        Grid::build(l.to_string(), &row_leaves, &col_leaves, |i| l.eval(i).ok())
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
        let shape = v.shape();
        let modes: Vec<Vec<i64>> = (0..v.rank())
            .map(|d| {
                let leaves = &v.leaf_extents()[v.dim_leaves(d)];
                if v.window(d).is_none() && extent(leaves.iter().copied()) == shape[d] {
                    leaves.to_vec()
                } else {
                    vec![shape[d]]
                }
            })
            .collect();
        let (row_leaves, col_leaves) = split(&modes);
        let cols_full: i64 = extent(col_leaves.iter().map(|l| l.0)).max(1);
        let col_dims = if shape.len() >= 2 {
            &shape[1..]
        } else {
            &shape[..]
        };
        Grid::build(v.to_string(), &row_leaves, &col_leaves, |i| {
            let mut coord = Vec::with_capacity(shape.len());
            if shape.len() >= 2 {
                coord.push(i / cols_full);
            }
            let mut rest = i % cols_full;
            let start = coord.len();
            for &n in col_dims.iter().rev() {
                coord.insert(start, rest % n.max(1));
                rest /= n.max(1);
            }
            v.eval(&coord).ok().flatten()
        })
    }

    fn build(
        title: String,
        row_leaves: &Leaves,
        col_leaves: &Leaves,
        eval: impl Fn(i64) -> Option<i64>,
    ) -> Grid {
        let rows_full: i64 = extent(row_leaves.iter().map(|l| l.0));
        let cols_full: i64 = extent(col_leaves.iter().map(|l| l.0));
        let cols = cols_full.clamp(0, MAX_CELLS);
        let rows = rows_full.clamp(0, (MAX_CELLS / cols.max(1)).max(1));
        let mut cells = Vec::with_capacity(usize::try_from(rows * cols).unwrap_or(0));
        for r in 0..rows {
            for c in 0..cols {
                cells.push(eval(r.saturating_mul(cols_full).saturating_add(c)));
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

/// The product of extents, saturating at `i64::MAX`: only an empty view (a 0
/// extent elsewhere) has extents whose product leaves `i64`, and its grid is
/// cut to [`MAX_CELLS`] anyway.
fn extent(extents: impl Iterator<Item = i64>) -> i64 {
    extents.fold(1i64, i64::saturating_mul)
}
