//! SVG drawings of a [`Grid`]: one `<rect>` and `<text>` per cell, index labels,
//! and the nested-mode boundary lines. O(cells); plain SVG 1.1, no scripts.

use std::fmt::Write;

use super::grid::{Grid, Mark};
use crate::layout::Layout;
use crate::view::View;

/// Cell height and the margins, in pixels.
const CELL_H: usize = 24;
const LEFT: usize = 36;
const TOP: usize = 48;

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

/// The fill colour of `offset` in `[lo, hi]`: hue from blue (lo) to red (hi).
pub(super) fn colour(offset: i64, (lo, hi): (i64, i64)) -> (u8, u8, u8) {
    let span = (hi as f64 - lo as f64).max(1.0);
    let t = ((offset as f64 - lo as f64) / span).clamp(0.0, 1.0);
    hsl_to_rgb(240.0 * (1.0 - t), 0.65, 0.82)
}

/// HSL (hue in degrees, saturation and lightness in [0, 1]) to 8-bit RGB.
fn hsl_to_rgb(h: f64, s: f64, l: f64) -> (u8, u8, u8) {
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
fn escape(text: &str) -> String {
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

fn render(g: &Grid, kind: &str) -> String {
    let cw = 12 + 8 * digits(g);
    let (w, h) = (LEFT + cw * g.cols() + 8, TOP + CELL_H * g.rows() + 24);
    let title = escape(&g.title);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="monospace" font-size="12">"#
    );
    let _ = writeln!(s, "<title>{kind} {title}</title>");
    let _ = writeln!(s, r#"<text x="4" y="16" font-weight="bold">{title}</text>"#);
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
    s.push_str("</g>\n<g stroke=\"#000000\">\n");
    let (x1, y1) = (LEFT + cw * g.cols(), TOP + CELL_H * g.rows());
    for c in 1..g.cols() {
        if let Some(m) = g.col_mark(c) {
            let x = LEFT + c * cw;
            let _ = writeln!(
                s,
                r#"<line x1="{x}" y1="{TOP}" x2="{x}" y2="{y1}"{}/>"#,
                style(m)
            );
        }
    }
    for r in 1..g.rows() {
        if let Some(m) = g.row_mark(r) {
            let y = TOP + r * CELL_H;
            let _ = writeln!(
                s,
                r#"<line x1="{LEFT}" y1="{y}" x2="{x1}" y2="{y}"{}/>"#,
                style(m)
            );
        }
    }
    let _ = writeln!(
        s,
        r#"<rect x="{LEFT}" y="{TOP}" width="{}" height="{}" fill="none" stroke-width="2"/>"#,
        cw * g.cols(),
        CELL_H * g.rows()
    );
    s.push_str("</g>\n");
    let (rows_cut, cols_cut) = g.cut();
    if rows_cut > 0 || cols_cut > 0 {
        let _ = writeln!(
            s,
            r#"<text x="4" y="{}">... {rows_cut} more rows, {cols_cut} more columns</text>"#,
            h - 6
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The line style of a mark.
fn style(m: Mark) -> &'static str {
    match m {
        Mark::Nested => r#" stroke-width="1.5" stroke-dasharray="4 3""#,
        Mark::Mode => r#" stroke-width="2.5""#,
    }
}
