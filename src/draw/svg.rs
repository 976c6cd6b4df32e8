//! SVG drawings of a [`Grid`]: one `<rect>` and `<text>` per cell, index labels,
//! and the nested-mode boundary lines. O(cells); plain SVG 1.1, no scripts.

use std::fmt::Write;

use super::grid::{Grid, Mark};
use crate::algebra::ComposedLayout;
use crate::layout::Layout;
use crate::view::{View, ViewStack};

/// Cell height and the margins, in pixels.
const CELL_H: usize = 24;
const LEFT: usize = 36;
const TOP: usize = 48;
/// Pixels per character of the 12px monospace font, rounded up.
pub(super) const CHAR_W: usize = 8;
/// The picture's background fill.
pub(super) const BACKGROUND: &str = "#ffffff";

/// The SVG picture of a layout's offsets (see the [module docs](super)).
///
/// ```
/// let svg = hlayout::draw::layout_svg(&"(2,3):(1,2)".parse()?);
/// assert!(svg.contains("<title>layout (2,3):(1,2)</title>"));
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn layout_svg(l: &Layout) -> String {
    render(&Grid::of_layout(l), "layout")
}

/// The SVG picture of a view's offsets, padding in grey.
///
/// ```
/// let s = hlayout::ViewStack::new(&[3])?.pad(&[(1, 1)])?;
/// let svg = hlayout::draw::view_svg(&s.views()[0]);
/// assert!(svg.contains("fill=\"#d9d9d9\""));
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn view_svg(v: &View) -> String {
    render(&Grid::of_view(v), "view")
}

/// The SVG picture of a composed layout `Sw<B,M,S> o O o L`: L's grid, each
/// cell `Sw(O + L(i))`.
///
/// ```
/// let c = "Sw<1,0,1> o 0 o (2,2):(2,1)".parse()?;
/// let svg = hlayout::draw::composed_svg(&c);
/// assert!(svg.contains("<title>composed Sw&lt;1,0,1&gt; o 0 o (2,2):(2,1)</title>"));
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn composed_svg(c: &ComposedLayout) -> String {
    render(&Grid::of_composed(c), "composed")
}

/// The SVG picture of a movement-op stack (any number of views): the top
/// view's grid, each cell the offset through every view, padding in grey.
///
/// ```
/// let s = hlayout::ViewStack::new(&[10, 10])?.permute(&[1, 0])?.reshape(&[100])?.reshape(&[4, 25])?;
/// assert!(hlayout::draw::stack_svg(&s).contains(">52</text>"));
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn stack_svg(s: &ViewStack) -> String {
    render(&Grid::of_stack(s), "stack")
}

/// The fill colour of `offset` in `[lo, hi]`: hue from blue (lo) to red (hi).
pub(super) fn colour(offset: i64, (lo, hi): (i64, i64)) -> (u8, u8, u8) {
    let span = (hi as f64 - lo as f64).max(1.0);
    let t = ((offset as f64 - lo as f64) / span).clamp(0.0, 1.0);
    hsl_to_rgb(240.0 * (1.0 - t), 0.65, 0.82)
}

/// HSL (hue in degrees, saturation and lightness in [0, 1]) to 8-bit RGB.
pub(super) fn hsl_to_rgb(h: f64, s: f64, l: f64) -> (u8, u8, u8) {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let hp = h / 60.0;
    let x = c * (1.0 - (hp % 2.0 - 1.0).abs());
    let (r, g, b) = match hp as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let byte = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    (byte(r), byte(g), byte(b))
}

/// `text` with XML's special characters escaped.
pub(super) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Cell width: room for the widest offset or index.
pub(super) fn digits(g: &Grid) -> usize {
    let (lo, hi) = g.range();
    [
        lo.to_string().len(),
        hi.to_string().len(),
        g.cols().to_string().len(),
    ]
    .into_iter()
    .max()
    .unwrap_or(1)
}

/// Width in pixels that `text` needs in the 12px monospace font (at most
/// 0.6em = 7.2px per character, rounded up to 8), from x = 4 plus a margin.
///
/// ```
/// assert_eq!(hlayout::draw::text_width("(2,3):(1,2)"), 4 + 8 * 11 + 8);
/// ```
pub fn text_width(text: &str) -> usize {
    4 + CHAR_W * text.chars().count() + 8
}

/// The `<svg>` element's opening: size, `<title>`, a white background (so
/// the picture reads on dark notebook themes too) and the bold heading.
pub(super) fn open(s: &mut String, (w, h): (usize, usize), kind: &str, title: &str) {
    let title = escape(title);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="monospace" font-size="12">"#
    );
    let _ = writeln!(s, "<title>{kind} {title}</title>");
    let _ = writeln!(
        s,
        r#"<rect x="0" y="0" width="{w}" height="{h}" fill="{BACKGROUND}"/>"#
    );
    let _ = writeln!(s, r#"<text x="4" y="16" font-weight="bold">{title}</text>"#);
}

/// The picture of any [`Grid`] (its title as the heading).
///
/// ```
/// let g = hlayout::draw::Grid::from_fn("squares".into(), &[vec![2], vec![3]], |i| Some(i * i));
/// assert!(hlayout::draw::grid_svg(&g).contains(">25</text>"));
/// ```
pub fn grid_svg(g: &Grid) -> String {
    render(g, "grid")
}

fn render(g: &Grid, kind: &str) -> String {
    let cw = 12 + 8 * digits(g);
    let (rows_cut, cols_cut) = g.cut();
    let note = format!("... {rows_cut} more rows, {cols_cut} more columns");
    let mut w = (LEFT + cw * g.cols() + 8).max(text_width(&g.title));
    if rows_cut > 0 || cols_cut > 0 {
        w = w.max(text_width(&note));
    }
    let h = TOP + CELL_H * g.rows() + 24;
    let mut s = String::new();
    open(&mut s, (w, h), kind, &g.title);
    let range = g.range();
    s.push_str("<g stroke=\"#ffffff\" text-anchor=\"middle\">\n");
    for r in 0..g.rows() {
        for c in 0..g.cols() {
            let (x, y) = (LEFT + c * cw, TOP + r * CELL_H);
            let (fill, label) = match g.cell(r, c) {
                Some(o) => {
                    let (cr, cg, cb) = colour(o, range);
                    (format!("#{cr:02x}{cg:02x}{cb:02x}"), o.to_string())
                }
                None => ("#d9d9d9".to_string(), String::new()),
            };
            let _ = writeln!(
                s,
                r#"<rect x="{x}" y="{y}" width="{cw}" height="{CELL_H}" fill="{fill}"/>"#
            );
            if !label.is_empty() {
                let _ = writeln!(
                    s,
                    r#"<text x="{}" y="{}" stroke="none">{label}</text>"#,
                    x + cw / 2,
                    y + 16
                );
            }
        }
    }
    s.push_str("</g>\n<g fill=\"#666666\" text-anchor=\"middle\">\n");
    for c in 0..g.cols() {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}">{c}</text>"#,
            LEFT + c * cw + cw / 2,
            TOP - 6
        );
    }
    for r in 0..g.rows() {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}">{r}</text>"#,
            LEFT / 2,
            TOP + r * CELL_H + 16
        );
    }
    s.push_str("</g>\n");
    boundaries(&mut s, g, (LEFT, TOP), (cw, CELL_H));
    if rows_cut > 0 || cols_cut > 0 {
        let _ = writeln!(s, r#"<text x="4" y="{}">{note}</text>"#, h - 6);
    }
    s.push_str("</svg>\n");
    s
}

/// The nested-mode and top-level-mode boundary lines of `g` and its frame,
/// for cells of `(cw, ch)` pixels from `(left, top)`.
pub(super) fn boundaries(
    s: &mut String,
    g: &Grid,
    (left, top): (usize, usize),
    (cw, ch): (usize, usize),
) {
    s.push_str("<g stroke=\"#000000\">\n");
    let (x1, y1) = (left + cw * g.cols(), top + ch * g.rows());
    for c in 1..g.cols() {
        if let Some(m) = g.col_mark(c) {
            let x = left + c * cw;
            let _ = writeln!(
                s,
                r#"<line x1="{x}" y1="{top}" x2="{x}" y2="{y1}"{}/>"#,
                style(m)
            );
        }
    }
    for r in 1..g.rows() {
        if let Some(m) = g.row_mark(r) {
            let y = top + r * ch;
            let _ = writeln!(
                s,
                r#"<line x1="{left}" y1="{y}" x2="{x1}" y2="{y}"{}/>"#,
                style(m)
            );
        }
    }
    let _ = writeln!(
        s,
        r#"<rect x="{left}" y="{top}" width="{}" height="{}" fill="none" stroke-width="2"/>"#,
        cw * g.cols(),
        ch * g.rows()
    );
    s.push_str("</g>\n");
}

/// The line style of a mark.
fn style(m: Mark) -> &'static str {
    match m {
        Mark::Nested => r#" stroke-width="1.5" stroke-dasharray="4 3""#,
        Mark::Mode => r#" stroke-width="2.5""#,
    }
}
