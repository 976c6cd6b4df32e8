//! A human-readable report of a layout, as `hlayout show` prints it.
//!
//! The grid follows CuTe's `print_layout`: top-level mode 0 indexes the rows,
//! the remaining modes together the columns (row-major), and each cell holds the
//! offset. A rank-1 layout prints as one row.
//!
//! ```
//! let l: hlayout::Layout = "(2,(2,2)):(2,(1,4))".parse().unwrap();
//! let text = hlayout_cli::show::report(&l);
//! assert!(text.contains("size 8, cosize 8"));
//! assert!(text.contains("0 | 0 4 1 5"));
//! ```

use std::fmt::Write;

use hlayout::Layout;

/// Most cells printed: bigger grids print their first rows and columns.
pub const MAX_GRID_CELLS: i64 = 4096;

/// Most columns printed: wider grids print their first columns, then an
/// ellipsis column `...`, so no line grows with the layout (a 1024x1024
/// layout prints 32 columns, not 1024).
pub const MAX_GRID_COLS: i64 = 32;

/// The layout, its size and cosize, coalesced form, flatten report and offset grid.
///
/// ```
/// let l: hlayout::Layout = "(2,3):(1,2)".parse().unwrap();
/// let text = hlayout_cli::show::report(&l);
/// assert!(text.starts_with("layout   (2,3):(1,2)\n"));
/// ```
pub fn report(l: &Layout) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "layout   {l}");
    let _ = writeln!(
        out,
        "size {}, cosize {}, rank {}, depth {}",
        l.size(),
        l.cosize(),
        l.rank(),
        l.depth()
    );
    let _ = writeln!(out, "coalesce {}", l.coalesce());
    match l.flatten() {
        Ok(v) => {
            let _ = writeln!(
                out,
                "flatten  ordinary: shape {:?} strides {:?}",
                v.shape(),
                v.strides()
            );
        }
        Err(r) => {
            let _ = writeln!(out, "flatten  not ordinary: {r}");
        }
    }
    out.push_str(&grid(l));
    out
}

/// The offsets as a text grid (rows = top-level mode 0, columns = the rest).
///
/// ```
/// let l: hlayout::Layout = "(2,3):(1,2)".parse().unwrap();
/// assert_eq!(hlayout_cli::show::grid(&l), "    0 1 2\n  +------\n0 | 0 2 4\n1 | 1 3 5\n");
/// ```
pub fn grid(l: &Layout) -> String {
    let rows = if l.rank() >= 2 {
        l.mode(0).map_or(1, |m| m.size())
    } else {
        1
    };
    grid_of(rows, l.size(), |i| l.eval(i).unwrap_or(0))
}

/// The grid of any function on `0..size` (`rows` rows, row-major), as
/// [`grid`] prints a layout's.
///
/// ```
/// assert_eq!(hlayout_cli::show::grid_of(1, 3, |i| 10 * i), "     0  1  2\n  +---------\n0 |  0 10 20\n");
/// // Wider than MAX_GRID_COLS: the first 32 columns, then an ellipsis column.
/// let wide = hlayout_cli::show::grid_of(2, 2 * 40, |i| i % 10);
/// assert!(wide.lines().nth(2).unwrap().ends_with("  0  1 ..."));
/// assert!(wide.ends_with("... (8 more columns)\n"));
/// ```
///
/// At most [`MAX_GRID_COLS`] columns and [`MAX_GRID_CELLS`] cells are
/// printed, so the text is O(min(size, MAX_GRID_CELLS)) whatever the layout.
pub fn grid_of(rows: i64, size: i64, at: impl Fn(i64) -> i64) -> String {
    grid_of_valid(rows, size, |i| Some(at(i)))
}

/// [`grid_of`] of a function that may be undefined: `.` where `at` is `None`.
///
/// ```
/// let g = hlayout_cli::show::grid_of_valid(1, 3, |i| (i < 2).then_some(i));
/// assert_eq!(g, "    0 1 2\n  +------\n0 | 0 1 .\n");
/// ```
pub fn grid_of_valid(rows: i64, size: i64, at: impl Fn(i64) -> Option<i64>) -> String {
    let cols = size / rows;
    // At most MAX_GRID_COLS columns and MAX_GRID_CELLS cells: the first ones.
    let shown_cols = cols.min(MAX_GRID_COLS);
    let shown_rows = rows.min((MAX_GRID_CELLS / shown_cols.max(1)).max(1));
    let cut_cols = shown_cols < cols;
    let cells: Vec<Vec<String>> = (0..shown_rows)
        .map(|r| {
            (0..shown_cols)
                .map(|c| at(r * cols + c).map_or_else(|| ".".to_string(), |v| v.to_string()))
                .collect()
        })
        .collect();
    let width = cells
        .iter()
        .flatten()
        .map(String::len)
        .max()
        .unwrap_or(1)
        .max(shown_cols.to_string().len());
    let label = (rows - 1).to_string().len();
    let mut out = String::new();
    let _ = write!(out, "{:label$}  ", "");
    for c in 0..shown_cols {
        let _ = write!(out, " {c:>width$}");
    }
    if cut_cols {
        out.push_str(" ...");
    }
    let _ = writeln!(out);
    let ruled = usize::try_from(shown_cols).unwrap_or(0) * (width + 1) + 4 * usize::from(cut_cols);
    let _ = writeln!(out, "{:label$} +{}", "", "-".repeat(ruled));
    for (r, row) in cells.iter().enumerate() {
        let _ = write!(out, "{r:>label$} |");
        for v in row {
            let _ = write!(out, " {v:>width$}");
        }
        if cut_cols {
            out.push_str(" ...");
        }
        let _ = writeln!(out);
    }
    match (shown_rows < rows, cut_cols) {
        (true, true) => {
            let _ = writeln!(
                out,
                "... ({} more rows, {} more columns)",
                rows - shown_rows,
                cols - shown_cols
            );
        }
        (true, false) => {
            let _ = writeln!(out, "... ({} more rows)", rows - shown_rows);
        }
        (false, true) => {
            let _ = writeln!(out, "... ({} more columns)", cols - shown_cols);
        }
        (false, false) => {}
    }
    out
}
