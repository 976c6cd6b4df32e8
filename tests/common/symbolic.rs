//! Shared helpers of the tests over symbols: symbol tables from a list of
//! assumptions, every combination of some values, and flat layout text with
//! one leaf written as the symbol `N`.

use hlayout::symbolic::{Assume, Symbols};

/// A symbol table from `(name, min, max, divisible_by)` tuples.
pub fn syms(assume: &[(&str, i64, i64, i64)]) -> Symbols {
    let mut s = Symbols::new();
    for &(n, min, max, divisible_by) in assume {
        let a = Assume {
            min,
            max,
            divisible_by,
        };
        s.assume(n, a).unwrap();
    }
    s
}

/// Every combination of one value from each list, the first list slowest
/// (one list per symbol gives every binding; one range per input every
/// point).
pub fn product<I: IntoIterator<Item = i64>>(lists: impl IntoIterator<Item = I>) -> Vec<Vec<i64>> {
    let mut out = vec![vec![]];
    for list in lists {
        let vals: Vec<i64> = list.into_iter().collect();
        out = out
            .into_iter()
            .flat_map(|b: Vec<i64>| vals.iter().map(move |&v| [b.clone(), vec![v]].concat()))
            .collect();
    }
    out
}

/// Flat layout text `(s…):(d…)` with the extent (`is_stride = false`) or the
/// stride of leaf `spot` written as `N`, or as `-N` when `minus` and the
/// value is negative.
pub fn spot_text(
    shape: &[i64],
    stride: &[i64],
    spot: Option<(usize, bool)>,
    minus: bool,
) -> String {
    let leaf = |k: usize, v: i64, is_stride: bool| match spot {
        Some((at, st)) if at == k && st == is_stride && minus && v < 0 => "-N".to_string(),
        Some((at, st)) if at == k && st == is_stride => "N".to_string(),
        _ => v.to_string(),
    };
    let part = |vs: &[i64], is_stride: bool| {
        let ls: Vec<String> = vs
            .iter()
            .enumerate()
            .map(|(k, &v)| leaf(k, v, is_stride))
            .collect();
        ls.join(",")
    };
    format!("({}):({})", part(shape, false), part(stride, true))
}
