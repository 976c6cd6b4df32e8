//! `hlayout show LAYOUT --divide TILE [--divide TILE …] [--form F]`: the
//! predicated divide of a layout by a tile that need not divide it
//! (`Layout::predicated_divide`), printed as its view and a grid of offsets
//! with `.` where an element is past the layout's end. One `--divide` is a
//! tiler layout; several are one per trailing mode.
//!
//! ```
//! let l: hlayout::Layout = "10:1".parse().unwrap();
//! let text = hlayout_cli::show_tiles::report(&l, &["4:1"], "logical").unwrap();
//! assert!(text.contains("view     (3,4):(4,1) if 0<=4*x0+x1<10\n"), "{text}");
//! assert!(text.ends_with("2 | 8 9 . .\n"), "{text}");
//! ```

use std::fmt::Write;

use hlayout::algebra::{DivideForm, Tiler};
use hlayout::{Layout, View};

/// The forms `--form` accepts.
pub const FORMS: [&str; 4] = ["logical", "zipped", "tiled", "flat"];

/// The predicated divide of `l` by `tiles` in `form`: the layout, the view
/// and its grid (rows: dimension 0; columns: the others, row-major).
///
/// # Errors
/// A tile that is not layout text, an unknown form, or the divide's error.
///
/// ```
/// let l: hlayout::Layout = "(5,3):(3,1)".parse().unwrap();
/// let text = hlayout_cli::show_tiles::report(&l, &["2:1", "2:1"], "zipped").unwrap();
/// assert!(text.contains("view     ((3,2),(2,2)):((6,2),(3,1))"), "{text}");
/// assert!(hlayout_cli::show_tiles::report(&l, &["2:1"], "diagonal").is_err());
/// ```
pub fn report(l: &Layout, tiles: &[&str], form: &str) -> Result<String, String> {
    let how = match form {
        "logical" => DivideForm::Logical,
        "zipped" => DivideForm::Zipped,
        "tiled" => DivideForm::Tiled,
        "flat" => DivideForm::Flat,
        _ => return Err(format!("--form: expected one of {FORMS:?}, got {form:?}")),
    };
    let layouts = tiles
        .iter()
        .map(|t| {
            t.parse::<Layout>()
                .map_err(|e| format!("--divide {t}: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let tiler = match <[Layout; 1]>::try_from(layouts) {
        Ok([one]) => Tiler::Layout(one),
        Err(many) => Tiler::Modes(many),
    };
    let v = l
        .predicated_divide(&tiler, how)
        .map_err(|e| format!("predicated divide: {e}"))?;
    let mut out = String::new();
    let _ = writeln!(out, "layout   {l}");
    let _ = writeln!(out, "divide   {form} by {}", tiles.join(" "));
    let _ = writeln!(out, "view     {v}");
    out.push_str(&grid(&v));
    Ok(out)
}

/// The view's offsets as a grid, `.` where invalid.
fn grid(v: &View) -> String {
    let shape = v.shape();
    let rows = if shape.len() >= 2 { shape[0] } else { 1 };
    crate::show::grid_of_valid(rows, v.size(), |i| {
        v.eval(&digits(i, &shape)).ok().flatten()
    })
}

/// Row-major digits of `0 <= i < Π shape`.
fn digits(mut i: i64, shape: &[i64]) -> Vec<i64> {
    let mut out = vec![0; shape.len()];
    for (d, &n) in out.iter_mut().zip(shape).rev() {
        *d = i % n.max(1);
        i /= n.max(1);
    }
    out
}
