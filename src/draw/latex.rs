//! TikZ drawings of a [`Grid`], in the manner of CuTe's `print_latex`: a
//! standalone LaTeX document with one filled node per cell, the grid lines,
//! index labels, and the nested-mode boundaries. O(cells).

use std::fmt::Write;

use super::grid::{Grid, Mark};
use super::svg::colour;
use crate::algebra::ComposedLayout;
use crate::layout::Layout;
use crate::view::{View, ViewStack};

/// A standalone LaTeX document drawing a layout's offsets with TikZ.
///
/// ```
/// let tex = hlayout::draw::layout_latex(&"(2,3):(1,2)".parse()?);
/// assert!(tex.starts_with("\\documentclass"));
/// assert!(tex.contains("at (1,2) {5}"));
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn layout_latex(l: &Layout) -> String {
    render(&Grid::of_layout(l))
}

/// A standalone LaTeX document drawing a view's offsets, padding in grey.
///
/// ```
/// let s = hlayout::ViewStack::new(&[2])?.pad(&[(0, 1)])?;
/// assert!(hlayout::draw::view_latex(&s.views()[0]).contains("fill=black!15"));
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn view_latex(v: &View) -> String {
    render(&Grid::of_view(v))
}

/// A standalone LaTeX document drawing a composed layout `Sw<B,M,S> o O o L`.
///
/// ```
/// let c = "Sw<1,0,1> o 0 o (2,2):(2,1)".parse()?;
/// assert!(hlayout::draw::composed_latex(&c).contains("at (1,0) {3}"));
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn composed_latex(c: &ComposedLayout) -> String {
    render(&Grid::of_composed(c))
}

/// A standalone LaTeX document drawing a movement-op stack through all its
/// views, padding in grey.
///
/// ```
/// let s = hlayout::ViewStack::new(&[2])?.pad(&[(1, 0)])?;
/// assert!(hlayout::draw::stack_latex(&s).contains("fill=black!15"));
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn stack_latex(s: &ViewStack) -> String {
    render(&Grid::of_stack(s))
}

/// A standalone LaTeX document drawing any [`Grid`].
///
/// ```
/// let g = hlayout::draw::Grid::from_fn("squares".into(), &[vec![2], vec![3]], |i| Some(i * i));
/// assert!(hlayout::draw::grid_latex(&g).contains("at (1,2) {25}"));
/// ```
pub fn grid_latex(g: &Grid) -> String {
    render(g)
}

fn render(g: &Grid) -> String {
    let mut s = String::new();
    s.push_str("\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\\begin{document}\n");
    let _ = writeln!(s, "% {}", g.title);
    s.push_str("\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n");
    let range = g.range();
    for r in 0..g.rows() {
        for c in 0..g.cols() {
            match g.cell(r, c) {
                Some(o) => {
                    let (cr, cg, cb) = colour(o, range);
                    let _ = writeln!(
                        s,
                        "\\node[fill={{rgb,255:red,{cr};green,{cg};blue,{cb}}}] at ({r},{c}) {{{o}}};"
                    );
                }
                None => {
                    let _ = writeln!(s, "\\node[fill=black!15] at ({r},{c}) {{}};");
                }
            }
        }
    }
    let (rows, cols) = (g.rows(), g.cols());
    let _ = writeln!(
        s,
        "\\draw[color=black,thin,shift={{(-0.5,-0.5)}}] (0,0) grid ({rows},{cols});"
    );
    for c in 1..cols {
        if let Some(m) = g.col_mark(c) {
            let _ = writeln!(
                s,
                "\\draw[{},shift={{(-0.5,-0.5)}}] (0,{c}) -- ({rows},{c});",
                style(m)
            );
        }
    }
    for r in 1..rows {
        if let Some(m) = g.row_mark(r) {
            let _ = writeln!(
                s,
                "\\draw[{},shift={{(-0.5,-0.5)}}] ({r},0) -- ({r},{cols});",
                style(m)
            );
        }
    }
    for r in 0..rows {
        let _ = writeln!(s, "\\node at ({r},-1) {{\\Large{{\\texttt{{{r}}}}}}};");
    }
    for c in 0..cols {
        let _ = writeln!(s, "\\node at (-1,{c}) {{\\Large{{\\texttt{{{c}}}}}}};");
    }
    s.push_str("\\end{tikzpicture}\n\\end{document}\n");
    s
}

/// The TikZ line style of a mark.
fn style(m: Mark) -> &'static str {
    match m {
        Mark::Nested => "very thick,dashed",
        Mark::Mode => "ultra thick",
    }
}
