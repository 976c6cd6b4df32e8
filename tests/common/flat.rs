//! Shared by the merge tests: a brute-force oracle for merging two flat views, and
//! JSON helpers for the reference cases.
#![allow(clippy::unwrap_used)] // a failing test may panic

use hlayout::FlatView;
use serde_json::Value;

/// Every coordinate of `shape`, row-major.
pub(crate) fn coords(shape: &[i64]) -> Vec<Vec<i64>> {
    let mut out = vec![Vec::new()];
    for &s in shape {
        out = out
            .into_iter()
            .flat_map(|c| {
                (0..s).map(move |v| {
                    let mut c = c.clone();
                    c.push(v);
                    c
                })
            })
            .collect();
    }
    out
}

/// `v` at every coordinate, row-major; `None` where masked.
pub(crate) fn eval_all(v: &FlatView) -> Vec<Option<i64>> {
    coords(v.shape())
        .iter()
        .map(|c| v.eval(c).expect("in range"))
        .collect()
}

/// The composed map by definition: second's index, unravelled row-major into
/// first's shape (invalid outside `[0, size)`), read through first.
pub(crate) fn composed(first: &FlatView, second: &FlatView) -> Vec<Option<i64>> {
    let size: i64 = first.shape().iter().product();
    coords(second.shape())
        .iter()
        .map(|c| {
            let x = second.eval(c).expect("in range")?;
            if x < 0 || x >= size {
                return None;
            }
            let mut digits = vec![0; first.shape().len()];
            let mut rest = x;
            for (d, &s) in digits.iter_mut().zip(first.shape()).rev() {
                *d = rest % s;
                rest /= s;
            }
            first.eval(&digits).expect("in range")
        })
        .collect()
}

/// The oracle: the only candidate is the valid set's bounding box with unit-step
/// strides; it merges iff that candidate reproduces `map` at every element.
pub(crate) fn brute_merge(shape: &[i64], map: &[Option<i64>]) -> Option<FlatView> {
    let all = coords(shape);
    let valid: Vec<&Vec<i64>> = all
        .iter()
        .zip(map)
        .filter(|(_, m)| m.is_some())
        .map(|(c, _)| c)
        .collect();
    let n = shape.len();
    if valid.is_empty() {
        let v = FlatView::new(shape.to_vec(), vec![0; n], 0, Some(vec![(0, 0); n])).unwrap();
        return (eval_all(&v) == map).then_some(v); // rank 0 cannot mask its one element
    }
    let lo: Vec<i64> = (0..n)
        .map(|d| valid.iter().map(|c| c[d]).min().unwrap())
        .collect();
    let hi: Vec<i64> = (0..n)
        .map(|d| valid.iter().map(|c| c[d]).max().unwrap() + 1)
        .collect();
    let at = |c: &[i64]| map[c.iter().zip(shape).fold(0, |i, (&c, &s)| i * s + c) as usize];
    let base = at(&lo)?;
    let strides: Vec<i64> = (0..n)
        .map(|d| {
            if hi[d] - lo[d] < 2 {
                return Some(0);
            }
            let mut c = lo.clone();
            c[d] += 1;
            Some(at(&c)? - base)
        })
        .collect::<Option<_>>()?;
    let offset = base - strides.iter().zip(&lo).map(|(s, l)| s * l).sum::<i64>();
    let mask = lo.iter().zip(&hi).map(|(&l, &h)| (l, h)).collect();
    let v = FlatView::new(shape.to_vec(), strides, offset, Some(mask)).unwrap();
    (eval_all(&v) == map).then_some(v)
}

/// A view from the protocol's JSON.
pub(crate) fn view(v: &Value) -> FlatView {
    let ints = |k: &str| -> Vec<i64> {
        v[k].as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_i64().unwrap())
            .collect()
    };
    let mask = v.get("mask").filter(|m| !m.is_null()).map(|m| {
        m.as_array()
            .unwrap()
            .iter()
            .map(|p| (p[0].as_i64().unwrap(), p[1].as_i64().unwrap()))
            .collect()
    });
    FlatView::new(
        ints("shape"),
        ints("strides"),
        v["offset"].as_i64().unwrap_or(0),
        mask,
    )
    .unwrap()
}
