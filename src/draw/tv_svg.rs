//! SVG of a [`TvPicture`]: `L`'s grid with each cell filled with the colour
//! of the thread that reads it and labelled `T<t>V<v>` (`+k` when k more
//! `(t, v)` read it too; white when no thread does), and with [`Banks`] the
//! shown warp's cells labelled with their bank (the other cells faded) and a
//! second panel: one row per value `v`, one column per bank, each cell the
//! number of distinct words the warp reads in that bank, with the row's
//! wavefronts and ideal.
//!
//! Large tiles stay small: thread colours are CSS classes, cells of one
//! thread that follow each other along a row (or along a column, when that
//! takes fewer) are one `<rect>` (a colour run), and above [`LABEL_MAX_CELLS`] cells the labels give way to 8-pixel cells
//! and a legend of thread colours. O(cells + 32·V) time and output.
//!
//! [`Banks`]: super::Banks

use std::fmt::Write;

use super::svg::{boundaries, escape, hsl_to_rgb, open, text_width, CHAR_W};
use super::tv::{BankPanel, TvPicture, BANKS};

/// Most cells labelled `T<t>V<v>`; bigger tiles get small unlabelled cells
/// and a colour legend.
pub const LABEL_MAX_CELLS: usize = 1 << 14;
/// Threads shown in the legend of an unlabelled picture.
const LEGEND_MAX: i64 = 256;
/// Bank panel: cell width and height, gap above it.
const BANK_W: usize = 28;
const BANK_H: usize = 20;
const GAP: usize = 40;

/// The fill colour of thread `t`: hues spread by the golden angle, so
/// neighbouring threads differ; light enough for black labels.
///
/// ```
/// assert_ne!(hlayout::draw::thread_colour(0), hlayout::draw::thread_colour(1));
/// ```
pub fn thread_colour(t: i64) -> (u8, u8, u8) {
    let hue = (t.rem_euclid(360) as f64 * 137.507_764) % 360.0;
    hsl_to_rgb(hue, 0.62, 0.8)
}

/// The colour of a bank-panel cell holding `n` distinct words: none, one
/// (green) or a conflict (orange to red as `n` grows).
fn bank_fill(n: u32) -> String {
    match n {
        0 => "#f4f4f4".into(),
        1 => "#b9e4b0".into(),
        _ => {
            let t = (f64::from(n - 2) / 6.0).min(1.0);
            let (r, g, b) = hsl_to_rgb(35.0 * (1.0 - t), 0.85, 0.72);
            format!("#{r:02x}{g:02x}{b:02x}")
        }
    }
}

/// The SVG picture of a thread/value access: each cell filled with the
/// colour of the thread that reads it ([`thread_colour`]) and labelled
/// `T<t>V<v>` (`+k` for k more readers, white when unread); with banks, the
/// warp's cells labelled `b<bank>` (the others faded) and a panel of distinct
/// words per bank, one row per value, with its wavefronts and ideal. Thread
/// colours are CSS classes and a thread's neighbouring cells along a row (or
/// a column, whichever takes fewer) are one `<rect>`; past [`LABEL_MAX_CELLS`] cells the labels give way to
/// 8-pixel cells and a colour legend. O(cells + 32·V).
///
/// ```
/// use hlayout::draw::{tv_svg, TvPicture};
/// let p = TvPicture::of_layout(&"(4,2):(2,1)".parse()?, &"(2,4):(1,2)".parse()?, None)?;
/// let svg = tv_svg(&p);
/// assert!(svg.contains(">T1V3</text>"));
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn tv_svg(p: &TvPicture) -> String {
    let g = &p.grid;
    let labelled = g.rows() * g.cols() <= LABEL_MAX_CELLS;
    let banks = p.panel.is_some();
    let label_len = (0..g.rows())
        .flat_map(|r| (0..g.cols()).map(move |c| (r, c)))
        .map(|(r, c)| label(p, r, c).len())
        .max()
        .unwrap_or(1);
    let (cw, ch) = if labelled {
        let w = CHAR_W * label_len.max(g.cols().to_string().len()) + 10;
        (w, if banks { 36 } else { 24 })
    } else {
        (8, 8)
    };
    let left = CHAR_W * g.rows().to_string().len() + 16;
    let top = if banks { 64 } else { 48 };
    let grid_w = left + cw * g.cols() + 8;
    let grid_bottom = top + ch * g.rows();
    let panel_h = p
        .panel
        .as_ref()
        .map_or(0, |b| GAP + 20 + BANK_H * b.words.len());
    let summary = p.panel.as_ref().map(summary);
    let legend_w = grid_w.max(text_width(&p.title)).max(600);
    let legend = (!labelled).then(|| legend(p, legend_w));
    let legend_h = legend.as_ref().map_or(0, |(_, h)| *h);
    let panel_w = p.panel.as_ref().map_or(0, panel_width);
    let w = grid_w
        .max(text_width(&p.title))
        .max(summary.as_deref().map_or(0, text_width))
        .max(panel_w)
        .max(if labelled { 0 } else { legend_w });
    let h = grid_bottom + panel_h + legend_h + 16;
    let mut s = String::new();
    open(&mut s, (w, h), "tv", &p.title);
    style(&mut s, p);
    if let Some(text) = &summary {
        let _ = writeln!(s, r#"<text x="4" y="34">{}</text>"#, escape(text));
    }
    cells(&mut s, p, (left, top), (cw, ch));
    if labelled {
        labels(&mut s, p, (left, top), (cw, ch));
    }
    indices(
        &mut s,
        p,
        (left, top),
        (cw, ch),
        if labelled { 1 } else { 16 },
    );
    boundaries(&mut s, g, (left, top), (cw, ch));
    if let Some(b) = &p.panel {
        panel(&mut s, b, grid_bottom + GAP);
    }
    if let Some((text, _)) = legend {
        let _ = write!(
            s,
            "<g transform=\"translate(0,{})\">\n{text}</g>\n",
            grid_bottom + panel_h
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The cell's label: `T<t>V<v>`, `+k` for k more readers; empty when unread.
fn label(p: &TvPicture, r: usize, c: usize) -> String {
    match p.thread_value(r, c) {
        None => String::new(),
        Some((t, v)) => match p.readers(r, c) {
            1 => format!("T{t}V{v}"),
            n => format!("T{t}V{v}+{}", n - 1),
        },
    }
}

/// One CSS class per thread drawn (`.hl-t<t>`), unread cells (`.hl-u`) and
/// the faded cells outside the shown warp (`.hl-f`). Prefixed: a notebook
/// applies an inline SVG's style sheet to the whole page.
fn style(s: &mut String, p: &TvPicture) {
    let g = &p.grid;
    let mut used = vec![false; usize::try_from(p.threads()).unwrap_or(0)];
    for r in 0..g.rows() {
        for c in 0..g.cols() {
            if let Some((t, _)) = p.thread_value(r, c) {
                used[t as usize] = true;
            }
        }
    }
    s.push_str("<style>\n.hl-u{fill:#ffffff}.hl-f{fill-opacity:0.3}\n");
    for (t, _) in used.iter().enumerate().filter(|(_, &u)| u) {
        let (r, g, b) = thread_colour(t as i64);
        let _ = write!(s, ".hl-t{t}{{fill:#{r:02x}{g:02x}{b:02x}}}");
        if t % 8 == 7 {
            s.push('\n');
        }
    }
    s.push_str("\n</style>\n");
}

/// The cells, as runs of one class along each row or along each column
/// (whichever needs fewer rectangles), with white separators between cells
/// when they are labelled.
fn cells(s: &mut String, p: &TvPicture, (left, top): (usize, usize), (cw, ch): (usize, usize)) {
    let g = &p.grid;
    // A cell's class: its thread (None: unread) and whether it is faded.
    let class = |r: usize, c: usize| -> (Option<i64>, bool) {
        let t = p.thread_value(r, c).map(|(t, _)| t);
        (t, p.panel.is_some() && !p.in_warp(r, c) && t.is_some())
    };
    // Runs along rows (`by_rows`) or columns: (line, start, end) in cells.
    let runs = |by_rows: bool, mut emit: Box<dyn FnMut(usize, usize, usize) + '_>| {
        let (lines, len) = if by_rows {
            (g.rows(), g.cols())
        } else {
            (g.cols(), g.rows())
        };
        let at = |line: usize, k: usize| {
            if by_rows {
                class(line, k)
            } else {
                class(k, line)
            }
        };
        for line in 0..lines {
            let mut k = 0;
            while k < len {
                let key = at(line, k);
                let mut end = k + 1;
                while end < len && at(line, end) == key {
                    end += 1;
                }
                emit(line, k, end);
                k = end;
            }
        }
    };
    let (mut along_rows, mut along_cols) = (0usize, 0usize);
    runs(true, Box::new(|_, _, _| along_rows += 1));
    runs(false, Box::new(|_, _, _| along_cols += 1));
    let by_rows = along_rows <= along_cols;
    s.push_str("<g>\n");
    runs(
        by_rows,
        Box::new(|line, k, end| {
            let (r, c) = if by_rows { (line, k) } else { (k, line) };
            let (w, h) = if by_rows {
                ((end - k) * cw, ch)
            } else {
                (cw, (end - k) * ch)
            };
            let _ = write!(
                s,
                r#"<rect x="{}" y="{}" width="{w}" height="{h}" class=""#,
                left + c * cw,
                top + r * ch
            );
            match class(r, c) {
                (Some(t), faded) => {
                    let _ = write!(s, "hl-t{t}{}", if faded { " hl-f" } else { "" });
                }
                (None, _) => s.push_str("hl-u"),
            }
            s.push_str("\"/>\n");
        }),
    );
    s.push_str("</g>\n");
    if cw >= 16 {
        let mut d = String::new();
        let (x1, y1) = (left + cw * g.cols(), top + ch * g.rows());
        for c in 1..g.cols() {
            let _ = write!(d, "M{} {top}V{y1}", left + c * cw);
        }
        for r in 1..g.rows() {
            let _ = write!(d, "M{left} {}H{x1}", top + r * ch);
        }
        if !d.is_empty() {
            let _ = writeln!(s, r##"<path d="{d}" stroke="#ffffff" fill="none"/>"##);
        }
    }
}

/// The `T<t>V<v>` labels, and with banks the bank (`b<k>`) of the warp's cells.
fn labels(s: &mut String, p: &TvPicture, (left, top): (usize, usize), (cw, ch): (usize, usize)) {
    let g = &p.grid;
    s.push_str("<g text-anchor=\"middle\">\n");
    for r in 0..g.rows() {
        for c in 0..g.cols() {
            let text = label(p, r, c);
            let (x, y) = (left + c * cw + cw / 2, top + r * ch);
            if !text.is_empty() {
                let _ = writeln!(s, r#"<text x="{x}" y="{}">{text}</text>"#, y + 16);
            }
            if let (true, Some(b)) = (p.in_warp(r, c), p.bank(r, c)) {
                let _ = writeln!(
                    s,
                    r#"<text x="{x}" y="{}" font-weight="bold">b{b}</text>"#,
                    y + 31
                );
            }
        }
    }
    s.push_str("</g>\n");
}

/// Row and column indices (every `step`-th).
fn indices(
    s: &mut String,
    p: &TvPicture,
    (left, top): (usize, usize),
    (cw, ch): (usize, usize),
    step: usize,
) {
    let g = &p.grid;
    s.push_str("<g fill=\"#666666\" text-anchor=\"middle\">\n");
    for c in (0..g.cols()).step_by(step) {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}">{c}</text>"#,
            left + c * cw + cw / 2,
            top - 6
        );
    }
    s.push_str("</g>\n<g fill=\"#666666\" text-anchor=\"end\">\n");
    for r in (0..g.rows()).step_by(step) {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}">{r}</text>"#,
            left - 6,
            top + r * ch + ch.min(24) / 2 + 4
        );
    }
    s.push_str("</g>\n");
}

/// The summary line of the bank panel.
fn summary(b: &BankPanel) -> String {
    let (w, i): (u32, u32) =
        (0..b.words.len()).fold((0, 0), |(w, i), v| (w + b.wavefronts(v), i + b.ideal(v)));
    format!(
        "warp {} ({}-byte elements): {w} wavefronts, ideal {i}, over {} values",
        b.banks.warp,
        b.banks.element_bytes,
        b.words.len()
    )
}

/// Left margin of the bank panel (room for `v<V-1>`).
fn panel_left(b: &BankPanel) -> usize {
    CHAR_W * (b.words.len().saturating_sub(1).to_string().len() + 1) + 16
}

fn panel_width(b: &BankPanel) -> usize {
    panel_left(b) + BANK_W * BANKS + CHAR_W * 20
}

/// The bank panel from `y0`: a heading, the bank numbers, one row per value.
fn panel(s: &mut String, b: &BankPanel, y0: usize) {
    let left = panel_left(b);
    let _ = writeln!(
        s,
        r#"<text x="4" y="{}" font-weight="bold">distinct words per bank, warp {}, one row per value v</text>"#,
        y0 - 10,
        b.banks.warp
    );
    let top = y0 + 20;
    s.push_str("<g fill=\"#666666\" text-anchor=\"middle\">\n");
    for k in 0..BANKS {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}">{k}</text>"#,
            left + k * BANK_W + BANK_W / 2,
            top - 6
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}">wavefronts (ideal)</text>"#,
        left + BANKS * BANK_W + CHAR_W * 9,
        top - 6
    );
    s.push_str("</g>\n<g stroke=\"#ffffff\" text-anchor=\"middle\">\n");
    for (v, row) in b.words.iter().enumerate() {
        let y = top + v * BANK_H;
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" stroke="none" fill="#666666" text-anchor="end">v{v}</text>"##,
            left - 6,
            y + 14
        );
        for (k, &n) in row.iter().enumerate() {
            let x = left + k * BANK_W;
            let _ = writeln!(
                s,
                r#"<rect x="{x}" y="{y}" width="{BANK_W}" height="{BANK_H}" fill="{}"/>"#,
                bank_fill(n)
            );
            if n > 0 {
                let _ = writeln!(
                    s,
                    r#"<text x="{}" y="{}" stroke="none">{n}</text>"#,
                    x + BANK_W / 2,
                    y + 14
                );
            }
        }
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" stroke="none">{} ({})</text>"#,
            left + BANKS * BANK_W + CHAR_W * 9,
            y + 14,
            b.wavefronts(v),
            b.ideal(v)
        );
    }
    s.push_str("</g>\n");
}

/// A legend of thread colours (the first [`LEGEND_MAX`] threads), wrapped
/// to `width`; returns the markup and its height.
fn legend(p: &TvPicture, width: usize) -> (String, usize) {
    let mut s = String::new();
    let n = p.threads().min(LEGEND_MAX);
    let entry = CHAR_W * (n.saturating_sub(1).to_string().len() + 1) + 24;
    let per_row = ((width - 8) / entry).max(1);
    let _ = writeln!(
        s,
        r#"<text x="4" y="20">labels omitted above {LABEL_MAX_CELLS} cells; colour = thread{}:</text>"#,
        if p.threads() > n {
            format!(" (first {n} shown)")
        } else {
            String::new()
        }
    );
    for t in 0..n {
        let k = t as usize;
        let (x, y) = (4 + (k % per_row) * entry, 28 + (k / per_row) * 18);
        let (r, g, b) = thread_colour(t);
        let _ = writeln!(
            s,
            r##"<rect x="{x}" y="{y}" width="14" height="14" fill="#{r:02x}{g:02x}{b:02x}"/><text x="{}" y="{}">T{t}</text>"##,
            x + 18,
            y + 12
        );
    }
    let rows = (n as usize).div_ceil(per_row);
    (s, 28 + rows * 18 + 8)
}
