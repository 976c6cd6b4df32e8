//! Pictures of layouts and views: the grid of offsets as SVG (for notebooks and
//! documents) or as a TikZ picture (LaTeX, as CuTe's `print_latex` draws).
//!
//! Both drawings share one [`Grid`]: top-level mode (or dimension) 0 indexes
//! the rows, the remaining modes together the columns (row-major), as `hlayout
//! show` prints them. Each cell shows its offset, coloured by offset (blue for
//! the smallest, red for the largest); invalid elements of a view (padding)
//! are grey. Row and column indices label the edges; inside a nested mode the
//! boundaries between its sub-modes are dashed, boundaries between top-level
//! modes solid. Grids over [`MAX_CELLS`] cells are cut to their first rows and
//! columns, with a note.
//!
//! [`TvPicture`] draws a shared-memory access instead (CuTe's
//! `print_latex_tv`): the cells of a tile layout coloured by the thread that
//! reads them, labelled `T<t>V<v>`, optionally with the banks one warp hits
//! ([`tv_svg`], [`tv_latex`]). `docs/drawing.md` shows examples.
//!
//! This layer sits above `view`: it reads layouts and views, and nothing below
//! depends on it.
//!
//! ```
//! let l: hlayout::Layout = "(2,(2,2)):(2,(1,4))".parse()?;
//! let svg = hlayout::draw::layout_svg(&l);
//! assert!(svg.starts_with("<svg") && svg.contains(">5</text>"));
//! let tex = hlayout::draw::layout_latex(&l);
//! assert!(tex.contains("\\begin{tikzpicture}"));
//! # Ok::<(), hlayout::Error>(())
//! ```

mod grid;
mod latex;
mod svg;
mod tv;
mod tv_latex;
mod tv_svg;

pub use grid::{Grid, Mark, MAX_CELLS};
pub use latex::{composed_latex, grid_latex, layout_latex, stack_latex, view_latex};
pub use svg::{composed_svg, grid_svg, layout_svg, stack_svg, text_width, view_svg};
pub use tv::{BankPanel, Banks, TvPicture, BANKS, MAX_TV_CELLS, MAX_TV_READS, WARP};
pub use tv_latex::tv_latex;
pub use tv_svg::{thread_colour, tv_svg, LABEL_MAX_CELLS};

/// `docs/drawing.md`, whose Rust examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/drawing.md")]
pub struct DrawingDoc;
