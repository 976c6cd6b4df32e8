//! The integer solutions of the stride equations: a coset `p + K·ℤᵈ`
//! (`docs/algebra.md` §7.1, Lemma 6), one extended-gcd elimination per
//! equation, every product checked in `i128`.

use smallvec::SmallVec;

use crate::error::{Error, Result};

/// One vector of the lattice (inline up to 16 unknowns).
type Row = SmallVec<[i128; 16]>;

/// The integer solutions `particular + kernel·ℤᵈ` of the equations so far.
#[derive(Clone, Default)]
pub(super) struct Solutions {
    pub(super) particular: Vec<i128>,
    kernel: Vec<Row>,
    /// The largest non-negative point `(offset, index)` any equation came
    /// from (a refutation of these equations uses no point above it).
    pub(super) high: Option<(i64, i64)>,
}

impl Solutions {
    /// A new unknown, unconstrained.
    pub(super) fn add_unknown(&mut self) {
        self.particular.push(0);
        for v in &mut self.kernel {
            v.push(0);
        }
        let mut unit: Row = SmallVec::from_elem(0, self.particular.len());
        unit[self.particular.len() - 1] = 1;
        self.kernel.push(unit);
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

    /// Keeps the solutions with `Σ coeffs[k]·r_k = target`; false when none is left.
    pub(super) fn constrain(&mut self, coeffs: &[i64], target: i64) -> Result<bool> {
        let residual = checked(i128::from(target).checked_sub(dot(coeffs, &self.particular)?))?;
        if self.kernel.is_empty() {
            return Ok(residual == 0);
        }
        let mut c: Row = SmallVec::with_capacity(self.kernel.len());
        for v in &self.kernel {
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
            let (vp, vj) = (&self.kernel[p], &self.kernel[j]);
            let mut np: Row = SmallVec::with_capacity(vp.len());
            let mut nj: Row = SmallVec::with_capacity(vp.len());
            for (&u, &w) in vp.iter().zip(vj) {
                np.push(checked(mul(x, u)?.checked_add(mul(y, w)?))?);
                nj.push(checked(mul(a, u)?.checked_sub(mul(b, w)?))?);
            }
            (self.kernel[p], self.kernel[j], c[p], c[j]) = (np, nj, g, 0);
        }
        let Some(p) = pivot else {
            return Ok(residual == 0);
        };
        if checked(residual.checked_rem(c[p]))? != 0 {
            return Ok(false);
        }
        let q = residual / c[p];
        let v = self.kernel.swap_remove(p);
        for (r, w) in self.particular.iter_mut().zip(v) {
            *r = checked(r.checked_add(mul(q, w)?))?;
        }
        Ok(true)
    }
}

/// `Σ a_k·v_k`, checked.
fn dot(a: &[i64], v: &[i128]) -> Result<i128> {
    a.iter().zip(v).try_fold(0i128, |acc, (&x, &y)| {
        checked(acc.checked_add(mul(i128::from(x), y)?))
    })
}

fn mul(a: i128, b: i128) -> Result<i128> {
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
    let (mut r0, mut r1, mut x0, mut x1, mut y0, mut y1) = (a, b, 1i128, 0i128, 0i128, 1i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, checked(r0.checked_sub(mul(q, r1)?))?);
        (x0, x1) = (x1, checked(x0.checked_sub(mul(q, x1)?))?);
        (y0, y1) = (y1, checked(y0.checked_sub(mul(q, y1)?))?);
    }
    Ok((r0, x0, y0))
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
    }
}
