//! TikZ of a [`TvPicture`], as CuTe's `print_latex_tv` draws an access: one
//! node per cell, filled with its thread's colour (defined once per thread
//! with `\definecolor`) and labelled `T<t>V<v>`; with [`Banks`] the shown
//! warp's cells also carry their bank, the others are faded, and the bank
//! panel (one row per value, one column per bank) follows below the grid.
//! O(cells + 32·V).
//!
//! [`Banks`]: super::Banks

use std::fmt::Write;

use super::tv::{TvPicture, BANKS};
use super::tv_svg::thread_colour;

/// A standalone LaTeX document drawing a thread/value access.
///
/// ```
/// use hlayout::draw::{tv_latex, TvPicture};
/// let p = TvPicture::of_layout(&"(4,2):(2,1)".parse()?, &"(2,4):(1,2)".parse()?, None)?;
/// let tex = tv_latex(&p);
/// assert!(tex.contains("\\node[fill=t1] at (3,1) {T1V3};"));
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn tv_latex(p: &TvPicture) -> String {
    let g = &p.grid;
    let mut s = String::new();
    s.push_str("\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\\begin{document}\n");
    let _ = writeln!(s, "% {}", p.title);
    let mut used = vec![false; usize::try_from(p.threads()).unwrap_or(0)];
    for r in 0..g.rows() {
        for c in 0..g.cols() {
            if let Some((t, _)) = p.thread_value(r, c) {
                used[t as usize] = true;
            }
        }
    }
    for (t, _) in used.iter().enumerate().filter(|(_, &u)| u) {
        let (r, g, b) = thread_colour(t as i64);
        let _ = writeln!(s, "\\definecolor{{t{t}}}{{RGB}}{{{r},{g},{b}}}");
    }
    s.push_str("\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1.6cm,0cm)},every node/.style={minimum width=1.6cm, minimum height=1cm, outer sep=0pt, font=\\scriptsize}]\n");
    for r in 0..g.rows() {
        for c in 0..g.cols() {
            cell(&mut s, p, r, c);
        }
    }
    let (rows, cols) = (g.rows(), g.cols());
    let _ = writeln!(
        s,
        "\\draw[color=black,thin,shift={{(-0.5,-0.5)}}] (0,0) grid ({rows},{cols});"
    );
    for r in 0..rows {
        let _ = writeln!(s, "\\node at ({r},-1) {{\\texttt{{{r}}}}};");
    }
    for c in 0..cols {
        let _ = writeln!(s, "\\node at (-1,{c}) {{\\texttt{{{c}}}}};");
    }
    if let Some(b) = &p.panel {
        let top = rows + 2;
        let _ = writeln!(
            s,
            "\\node[anchor=west] at ({},-1) {{distinct words per bank, warp {}, {}-byte elements}};",
            top - 1,
            b.banks.warp,
            b.banks.element_bytes
        );
        for k in 0..BANKS {
            let _ = writeln!(
                s,
                "\\node[minimum width=0.5cm] at ({top},{}) {{{k}}};",
                k as f64 * 0.5
            );
        }
        for (v, words) in b.words.iter().enumerate() {
            let x = top + 1 + v;
            let _ = writeln!(s, "\\node at ({x},-1) {{v{v}}};");
            for (k, &n) in words.iter().enumerate() {
                let fill = match n {
                    0 => "white",
                    1 => "green!25",
                    _ => "red!40",
                };
                let _ = writeln!(
                    s,
                    "\\node[draw=white,fill={fill},minimum width=0.8cm] at ({x},{}) {{{n}}};",
                    k as f64 * 0.5
                );
            }
            let _ = writeln!(
                s,
                "\\node[anchor=west] at ({x},{}) {{{} ({})}};",
                BANKS as f64 * 0.5,
                b.wavefronts(v),
                b.ideal(v)
            );
        }
    }
    s.push_str("\\end{tikzpicture}\n\\end{document}\n");
    s
}

/// One cell's node: its thread's fill, `T<t>V<v>` (and `+k` for k more
/// readers), with banks the bank of the warp's cells and fading elsewhere.
fn cell(s: &mut String, p: &TvPicture, r: usize, c: usize) {
    let Some((t, v)) = p.thread_value(r, c) else {
        let _ = writeln!(s, "\\node[fill=white] at ({r},{c}) {{}};");
        return;
    };
    let more = match p.readers(r, c) {
        1 => String::new(),
        n => format!("+{}", n - 1),
    };
    let faded = if p.panel.is_some() && !p.in_warp(r, c) {
        ",fill opacity=0.3,text opacity=1"
    } else {
        ""
    };
    match (p.in_warp(r, c), p.bank(r, c)) {
        (true, Some(b)) => {
            let _ = writeln!(
                s,
                "\\node[fill=t{t}{faded},align=center] at ({r},{c}) {{T{t}V{v}{more}\\\\\\textbf{{b{b}}}}};"
            );
        }
        _ => {
            let _ = writeln!(
                s,
                "\\node[fill=t{t}{faded}] at ({r},{c}) {{T{t}V{v}{more}}};"
            );
        }
    }
}
