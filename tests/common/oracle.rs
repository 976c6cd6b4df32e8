//! Brute-force definitions results are checked against, written
//! independently of the library's algorithms (only `Layout`'s leaves are
//! read). Cheap on small sizes. Shared by the test suite (`tests/common`)
//! and the fuzz targets (`fuzz/fuzz_targets`, included by path).
#![allow(dead_code)]

use hlayout::Layout;

/// Largest size evaluated element by element.
pub const SMALL: i64 = 4096;

/// Row-major digits of `i` over `shape` (last fastest).
pub fn unravel(i: i64, shape: &[i64]) -> Vec<i64> {
    let mut out = vec![0; shape.len()];
    let mut rest = i;
    for (d, &s) in out.iter_mut().zip(shape).rev() {
        *d = rest % s;
        rest /= s;
    }
    out
}

/// `L(i)` for every `i < size(L)`, by definition: the inner product of i's
/// row-major coordinate over the leaves with the strides.
pub fn values(l: &Layout) -> Vec<i64> {
    let (s, d) = (l.shape_leaves(), l.stride_leaves());
    let size: i64 = s.iter().product();
    (0..size)
        .map(|i| unravel(i, s).iter().zip(d).map(|(c, x)| c * x).sum())
        .collect()
}

/// Whether no value repeats.
pub fn injective(values: &[i64]) -> bool {
    let mut v = values.to_vec();
    v.sort_unstable();
    v.windows(2).all(|w| w[0] != w[1])
}

/// `i` with the coordinates of L's stride-0 leaves set to 0.
pub fn kernel_free(l: &Layout, i: i64) -> i64 {
    let (s, d) = (l.shape_leaves(), l.stride_leaves());
    let (mut rest, mut unit, mut out) = (i, 1i64, 0i64);
    for k in (0..s.len()).rev() {
        if d[k] != 0 {
            out += (rest % s[k]) * unit;
        }
        rest /= s[k];
        unit *= s[k];
    }
    out
}

/// `A(B(i))` for every `i < size(B)` (A's integer extension where `B(i)` is
/// negative or past A's size), or `None` when some value leaves i64.
pub fn composed(a: &Layout, b: &Layout) -> Option<Vec<i64>> {
    values(b).into_iter().map(|x| a.eval(x).ok()).collect()
}

/// Ordered factorizations of `n` into factors >= 2 (`[n]` included; `[1]` for 1).
pub fn factorizations(n: i64) -> Vec<Vec<i64>> {
    if n == 1 {
        return vec![vec![1]];
    }
    let mut out = vec![vec![n]];
    for f in 2..n {
        if n % f == 0 {
            for mut rest in factorizations(n / f) {
                rest.insert(0, f);
                out.push(rest);
            }
        }
    }
    out
}

/// Whether some layout whose shape refines B's leaves takes the values
/// `want` at every index: every refinement is tried, its strides read off
/// the values at unit coordinates, and the candidate checked everywhere.
pub fn composition_exists(b: &Layout, want: &[i64]) -> bool {
    let choices: Vec<Vec<Vec<i64>>> = b
        .shape_leaves()
        .iter()
        .map(|&e| factorizations(e))
        .collect();
    let mut pick = vec![0usize; choices.len()];
    loop {
        let shape: Vec<i64> = pick
            .iter()
            .zip(&choices)
            .flat_map(|(&p, c)| c[p].clone())
            .collect();
        let mut unit = vec![1i64; shape.len()];
        for k in (0..shape.len().saturating_sub(1)).rev() {
            unit[k] = unit[k + 1] * shape[k + 1];
        }
        let stride: Vec<i64> = unit
            .iter()
            .zip(&shape)
            .map(|(&u, &s)| if s > 1 { want[u as usize] } else { 0 })
            .collect();
        if let Ok(r) = Layout::flat(&shape, &stride) {
            if values(&r) == want {
                return true;
            }
        }
        let mut k = pick.len();
        loop {
            if k == 0 {
                return false;
            }
            k -= 1;
            pick[k] += 1;
            if pick[k] < choices[k].len() {
                break;
            }
            pick[k] = 0;
        }
    }
}
