//! The integer solutions of the stride equations: a coset `p + K·ℤᵈ`
//! (`docs/algebra.md` §7.1, Lemma 6), one extended-gcd elimination per
//! equation, every product checked in `i128`.

use smallvec::SmallVec;

use crate::error::{Error, Result};

/// The integer solutions `particular + kernel·ℤᵈ` of the equations so far.
///
/// The kernel's basis vectors are the rows of one flat row-major buffer
/// (`rows × particular.len()`), so a node's copy of the state is one
/// allocation and one `memcpy`, and an elimination step rewrites two rows in
/// place.
#[derive(Clone, Default)]
pub(super) struct Solutions {
    pub(super) particular: Vec<i128>,
    kernel: Vec<i128>,
    /// The largest non-negative point `(offset, index)` any equation came
    /// from (a refutation of these equations uses no point above it).
    pub(super) high: Option<(i64, i64)>,
}

impl Solutions {
    /// `n` unknowns, unconstrained (the kernel is the identity): one
    /// allocation each for the particular solution and the kernel. O(n²).
    pub(super) fn unconstrained(n: usize) -> Solutions {
        let mut kernel = vec![0i128; n * n];
        for k in 0..n {
            kernel[k * n + k] = 1;
        }
        Solutions {
            particular: vec![0; n],
            kernel,
            high: None,
        }
    }

    /// A new unknown, unconstrained. O(rows · unknowns).
    pub(super) fn add_unknown(&mut self) {
        let n = self.particular.len();
        let rows = self.rows();
        let mut kernel = Vec::with_capacity((rows + 1) * (n + 1));
        for row in self.kernel.chunks_exact(n.max(1)).take(rows) {
            kernel.extend_from_slice(row);
            kernel.push(0);
        }
        kernel.extend(std::iter::repeat_n(0, n));
        kernel.push(1);
        self.kernel = kernel;
        self.particular.push(0);
    }

    /// The number of basis vectors of the kernel.
    fn rows(&self) -> usize {
        match self.particular.len() {
            0 => 0,
            n => self.kernel.len() / n,
        }
    }

    /// Whether exactly one solution is left (the kernel is trivial).
    pub(super) fn is_determined(&self) -> bool {
        self.kernel.is_empty()
    }

    /// Records that an equation came from the point `(x, i)`.
    pub(super) fn note(&mut self, x: i64, i: i64) {
        if x >= 0 && self.high.is_none_or(|(y, _)| x > y) {
            self.high = Some((x, i));
        }
    }

    /// Keeps the solutions with `Σ coeffs[k]·r_k = target`; false when none
    /// is left. O(rows · unknowns) products, plus one extended gcd per
    /// basis vector the equation reads.
    pub(super) fn constrain(&mut self, coeffs: &[i64], target: i64) -> Result<bool> {
        let residual = checked(i128::from(target).checked_sub(dot(coeffs, &self.particular)?))?;
        if self.kernel.is_empty() {
            return Ok(residual == 0);
        }
        let n = self.particular.len();
        let mut c: SmallVec<[i128; 64]> = SmallVec::new();
        for v in self.kernel.chunks_exact(n) {
            c.push(dot(coeffs, v)?);
        }
        let mut pivot: Option<usize> = None;
        for j in 0..c.len() {
            if c[j] == 0 {
                continue;
            }
            let Some(p) = pivot else {
                pivot = Some(j);
                continue;
            };
            // Unimodular column step: column p gets gcd(c_p, c_j), column j gets 0.
            let (g, x, y) = ext_gcd(c[p], c[j])?;
            let (a, b) = (c[j] / g, c[p] / g);
            for col in 0..n {
                let (u, w) = (self.kernel[p * n + col], self.kernel[j * n + col]);
                self.kernel[p * n + col] = checked(mul(x, u)?.checked_add(mul(y, w)?))?;
                self.kernel[j * n + col] = checked(mul(a, u)?.checked_sub(mul(b, w)?))?;
            }
            (c[p], c[j]) = (g, 0);
        }
        let Some(p) = pivot else {
            return Ok(residual == 0);
        };
        if checked(residual.checked_rem(c[p]))? != 0 {
            return Ok(false);
        }
        let q = residual / c[p];
        for col in 0..n {
            let w = self.kernel[p * n + col];
            self.particular[col] = checked(self.particular[col].checked_add(mul(q, w)?))?;
        }
        // Drop row p: the last row takes its place.
        let last = c.len() - 1;
        if p != last {
            self.kernel.copy_within(last * n..(last + 1) * n, p * n);
        }
        self.kernel.truncate(last * n);
        Ok(true)
    }
}

/// `Σ a_k·v_k`, checked.
fn dot(a: &[i64], v: &[i128]) -> Result<i128> {
    a.iter().zip(v).try_fold(0i128, |acc, (&x, &y)| {
        checked(acc.checked_add(mul(i128::from(x), y)?))
    })
}

/// `a·b`, checked; two factors within `i64` take one widening multiply
/// (their product always fits), the rest the checked `i128` product.
#[inline]
fn mul(a: i128, b: i128) -> Result<i128> {
    if let (Ok(a), Ok(b)) = (i64::try_from(a), i64::try_from(b)) {
        return Ok(i128::from(a) * i128::from(b));
    }
    checked(a.checked_mul(b))
}

/// `v`, or the overflow error. The error is built only when `v` is `None`:
/// `ok_or` built one and dropped it (a call into the error's drop glue) per
/// arithmetic step, 12% of a search's instructions under callgrind.
#[inline]
fn checked(v: Option<i128>) -> Result<i128> {
    match v {
        Some(v) => Ok(v),
        None => Err(Error::Overflow {
            what: "left_inverse's exact search",
        }),
    }
}

/// `(g, x, y)` with `g = x·a + y·b = ±gcd(a, b) ≠ 0`, for `b ≠ 0`.
fn ext_gcd(a: i128, b: i128) -> Result<(i128, i128, i128)> {
    // Below 2^62 in magnitude nothing overflows i64 (see ext_gcd_small).
    const SMALL: u128 = 1 << 62;
    if a.unsigned_abs() < SMALL && b.unsigned_abs() < SMALL {
        let (g, x, y) = ext_gcd_small(a as i64, b as i64);
        return Ok((g.into(), x.into(), y.into()));
    }
    let (mut r0, mut r1, mut x0, mut x1, mut y0, mut y1) = (a, b, 1i128, 0i128, 0i128, 1i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, checked(r0.checked_sub(mul(q, r1)?))?);
        (x0, x1) = (x1, checked(x0.checked_sub(mul(q, x1)?))?);
        (y0, y1) = (y1, checked(y0.checked_sub(mul(q, y1)?))?);
    }
    Ok((r0, x0, y0))
}

/// [`ext_gcd`] on operands below 2^62 in magnitude, in `i64`: every
/// remainder is at most `max(|a|, |b|)`, every Bézout coefficient at most
/// `max(|a|, |b|)/g`, and each product `q·r`, `q·x`, `q·y` is at most the
/// sum of two of those, so below 2^63.
fn ext_gcd_small(a: i64, b: i64) -> (i64, i64, i64) {
    let (mut r0, mut r1, mut x0, mut x1, mut y0, mut y1) = (a, b, 1i64, 0i64, 0i64, 1i64);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (x0, x1) = (x1, x0 - q * x1);
        (y0, y1) = (y1, y0 - q * y1);
    }
    (r0, x0, y0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lattice_tracks_integer_solutions() {
        // Invariant: constrain keeps exactly the integer solutions / Witness: 2a + 4b = 6 then a = 1 forces b = 1; 2a = 3 has none.
        let mut s = Solutions::default();
        s.add_unknown();
        s.add_unknown();
        assert!(s.constrain(&[2, 4], 6).expect("small"));
        assert!(!s.is_determined());
        assert!(s.constrain(&[1, 0], 1).expect("small"));
        assert!(s.is_determined());
        assert_eq!(s.particular, [1, 1]);
        assert!(!s.constrain(&[1, 1], 3).expect("small"));
        let mut t = Solutions::default();
        t.add_unknown();
        assert!(!t.constrain(&[2], 3).expect("small"));
        // Three unknowns at once are three added one by one.
        let mut one_by_one = Solutions::default();
        (0..3).for_each(|_| one_by_one.add_unknown());
        let at_once = Solutions::unconstrained(3);
        assert_eq!(
            (&at_once.particular, &at_once.kernel),
            (&one_by_one.particular, &one_by_one.kernel)
        );
    }

    #[test]
    fn extended_gcd_is_bezout_on_both_paths() {
        // Invariant: ext_gcd(a, b) = (g, x, y) with g = x·a + y·b and |g| = gcd(a, b), on the i64 path and the i128 path / Witness: products of small numbers with 1, 2^40 and 2^70 (the last past the i64 path), signs mixed.
        assert_eq!(
            ext_gcd(i128::MIN, 2).map(|(g, ..)| g.abs()).ok(),
            Some(2),
            "i128::MIN takes the wide path"
        );
        let scales = [1i128, 1 << 40, 1 << 70];
        for a0 in -12i128..=12 {
            for b0 in (-12i128..=12).filter(|&b| b != 0) {
                for &sa in &scales {
                    for &sb in &scales {
                        let (a, b) = (a0 * sa, b0 * sb);
                        let (g, x, y) = ext_gcd(a, b).expect("no overflow");
                        let want = num_integer::Integer::gcd(&a, &b);
                        assert_eq!(g.abs(), want, "a={a} b={b}");
                        assert_eq!(x * a + y * b, g, "a={a} b={b}");
                    }
                }
            }
        }
    }
}
