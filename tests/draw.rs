//! Drawings: the SVG and TikZ pictures of a few layouts and views match the
//! committed golden files in `tests/data/draw/` (regenerate them with
//! `HLAYOUT_BLESS=1 cargo test --test main draw` after an intended change and
//! review the diff), every SVG is well-formed XML, and every cell shows the
//! offset the layout or view gives it.

use hlayout::draw::{layout_latex, layout_svg, view_latex, view_svg, Grid, Mark};
use hlayout::{Layout, ViewStack};

/// Compares `text` with the golden file `draw/{name}`, or rewrites it when
/// `HLAYOUT_BLESS` is set.
fn golden(name: &str, text: &str) {
    let path = format!("{}/tests/data/draw/{name}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("HLAYOUT_BLESS").is_some() {
        std::fs::write(&path, text).expect("write golden file");
        return;
    }
    let want = std::fs::read_to_string(&path).expect("golden file (HLAYOUT_BLESS=1 writes it)");
    assert_eq!(text, want, "{name} differs from its golden file");
}

/// A minimal XML well-formedness check: every tag closes in order, attribute
/// values are quoted, text holds no bare `<` or `&`.
pub(crate) fn well_formed(xml: &str) {
    let mut open: Vec<String> = Vec::new();
    let mut rest = xml;
    while let Some(start) = rest.find('<') {
        let text = &rest[..start];
        assert!(!text.contains('>'), "bare > in text {text:?}");
        for (i, _) in text.match_indices('&') {
            let ent = &text[i..];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;"]
                    .iter()
                    .any(|e| ent.starts_with(e)),
                "bare & in {text:?}"
            );
        }
        let end = rest[start..].find('>').expect("unclosed tag") + start;
        let tag = &rest[start + 1..end];
        assert_eq!(
            tag.matches('"').count() % 2,
            0,
            "unbalanced quotes in <{tag}>"
        );
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(open.pop().as_deref(), Some(name), "mismatched </{name}>");
        } else if !tag.ends_with('/') {
            open.push(tag.split_whitespace().next().unwrap_or("").to_string());
        }
        rest = &rest[end + 1..];
    }
    assert!(rest.trim().is_empty(), "text after the root element");
    assert!(open.is_empty(), "unclosed elements {open:?}");
}

#[test]
fn layout_goldens() {
    for (name, text) in [
        ("nested", "(2,(2,2)):(2,(1,4))"),
        ("rank3", "(2,(2,2),3):(1,(12,2),4)"),
        ("rank1", "8:3"),
    ] {
        let l: Layout = text.parse().unwrap();
        let svg = layout_svg(&l);
        well_formed(&svg);
        golden(&format!("layout_{name}.svg"), &svg);
        golden(&format!("layout_{name}.tex"), &layout_latex(&l));
    }
}

#[test]
fn view_goldens() {
    let padded = ViewStack::new(&[3, 4])
        .unwrap()
        .pad(&[(1, 0), (0, 1)])
        .unwrap();
    let merged = ViewStack::new(&[4, 6])
        .unwrap()
        .permute(&[1, 0])
        .unwrap()
        .reshape(&[3, 8])
        .unwrap();
    for (name, s) in [("padded", padded), ("transposed", merged)] {
        let v = &s.views()[0];
        let svg = view_svg(v);
        well_formed(&svg);
        assert!(svg.contains("&lt;") || !v.to_string().contains('<'));
        golden(&format!("view_{name}.svg"), &svg);
        golden(&format!("view_{name}.tex"), &view_latex(v));
    }
}

#[test]
fn cells_are_the_offsets() {
    for text in [
        "(2,(2,2)):(2,(1,4))",
        "(3,4,2):(1,6,3)",
        "6:-1",
        "((2,3)):((1,2))",
    ] {
        let l: Layout = text.parse().unwrap();
        let g = Grid::of_layout(&l);
        assert_eq!(g.rows() * g.cols(), usize::try_from(l.size()).unwrap());
        for r in 0..g.rows() {
            for c in 0..g.cols() {
                let i = i64::try_from(r * g.cols() + c).unwrap();
                assert_eq!(g.cell(r, c), Some(l.eval(i).unwrap()), "{text} at {r},{c}");
            }
        }
    }
    let s = ViewStack::new(&[2, 3])
        .unwrap()
        .pad(&[(0, 1), (1, 1)])
        .unwrap();
    let v = &s.views()[0];
    let g = Grid::of_view(v);
    for r in 0..g.rows() {
        for c in 0..g.cols() {
            let coord = [i64::try_from(r).unwrap(), i64::try_from(c).unwrap()];
            assert_eq!(g.cell(r, c), v.eval(&coord).unwrap());
        }
    }
}

#[test]
fn marks_follow_the_nesting() {
    let g = Grid::of_layout(&"((2,2),(2,3)):((1,4),(12,2))".parse().unwrap());
    assert_eq!((g.rows(), g.cols()), (4, 6));
    assert_eq!(g.row_mark(2), Some(Mark::Nested));
    assert_eq!(g.row_mark(1), None);
    assert_eq!(g.col_mark(3), Some(Mark::Nested));
    assert_eq!(g.col_mark(1), None);
    let g = Grid::of_layout(&"(2,(2,2),3):(1,(12,2),4)".parse().unwrap());
    assert_eq!(g.col_mark(3), Some(Mark::Mode));
    assert_eq!(g.col_mark(6), Some(Mark::Mode)); // both kinds: the stronger
    let big = Grid::of_layout(&"(100,100):(100,1)".parse().unwrap());
    assert_eq!(big.cut(), (60, 0));
    assert!(layout_svg(&"(100,100):(100,1)".parse().unwrap()).contains("60 more rows"));
}
