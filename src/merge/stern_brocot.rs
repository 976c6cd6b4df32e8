//! One effective mode: deciding `G(m) = Σ_g W_g·⌊α_g·m⌋ ≡ 0` on `[0, T]` in
//! O(g·log Q) by a Stern–Brocot descent.
//!
//! Applies when every bent group has offset residue `w = 0` and moves with one
//! grid coordinate only (its `ρ` has one non-zero entry): then `G` splits into a
//! sum of one-dimensional functions, one per coordinate, each zero at 0, so `G ≡ 0`
//! iff each of them is. For one coordinate with `α_g = ρ_g/Q_g ∈ (0, 1)`:
//!
//! ```text
//! ⌊α·m⌋ = #{n >= 1 : n/m <= α}   so   G(m) = Σ_{n>=1} Φ(n/m),   Φ(y) = Σ_{α_g >= y} W_g
//! ```
//!
//! `Φ` is constant on each interval `(α_(p−1), α_(p)]` of the sorted slopes. Let
//! `m*` be the smallest denominator of a fraction lying in an interval where
//! `Φ != 0`. Every fraction with a smaller denominator lies where `Φ = 0`, so
//! `G(m) = 0` for `m < m*`; and `G(m*)` is the sum of `Φ` over the intervals whose
//! simplest fraction has denominator `m*` (an interval holds at most one fraction
//! of its smallest denominator, and non-reduced fractions `n/m*` reduce to smaller
//! denominators). So: `m* > T` means `G ≡ 0`; `G(m*) != 0` means not affine; the
//! rare `G(m*) = 0` (cancellation across intervals) falls back to evaluating `G`
//! on one period, `m <= min(T, L)` with `L` the lcm of the slopes' denominators
//! ([`Outcome::Scanned`]): `G(m + L) = G(m) + G(L)`, so one period decides.

use num_integer::Integer;

use super::crossing::Group;
use super::grid::Grid;
use crate::num::floor::ceil_div;

/// What the one-mode decision found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Decided from the simplest fractions alone.
    Decided(bool),
    /// Decided after scanning one period of a coordinate (the cancellation case).
    Scanned(bool),
}

/// The one-mode decision, or `None` when some group has `w != 0` or moves with
/// two coordinates.
pub(crate) fn decide(groups: &[Group], grid: &Grid) -> Option<Outcome> {
    let mut per_coord: Vec<Vec<(i128, i128, i128)>> = vec![Vec::new(); grid.rank()];
    for g in groups {
        let mut moving = g.wrap.rot.iter().enumerate().filter(|(_, &r)| r != 0);
        let (q, &rho) = moving.next()?;
        let rho = i128::from(rho);
        if g.wrap.rem != 0 || moving.next().is_some() {
            return None;
        }
        // rem = 0 makes rot the plain residue, so 0 < rho < Q.
        let d = rho.gcd(&g.wrap.modulus);
        per_coord[q].push((rho / d, g.wrap.modulus / d, g.weight));
    }
    let mut scanned = false;
    for (slopes, &ext) in per_coord.iter_mut().zip(&grid.ext) {
        if slopes.is_empty() {
            continue;
        }
        match one_coordinate(slopes, i128::from(ext - 1)) {
            Outcome::Decided(true) => {}
            Outcome::Scanned(true) => scanned = true,
            Outcome::Decided(false) => return Some(Outcome::Decided(false)),
            Outcome::Scanned(false) => return Some(Outcome::Scanned(false)),
        }
    }
    Some(if scanned {
        Outcome::Scanned(true)
    } else {
        Outcome::Decided(true)
    })
}

/// `G(m) = Σ W·⌊(n/d)·m⌋ ≡ 0` on `[0, t]`? `slopes` holds `(n, d, W)` with
/// `0 < n/d < 1`, distinct, `W != 0`.
fn one_coordinate(slopes: &mut [(i128, i128, i128)], t: i128) -> Outcome {
    slopes.sort_by(|a, b| (a.0 * b.1).cmp(&(b.0 * a.1)));
    let mut phi: i128 = slopes.iter().map(|s| s.2).sum();
    let (mut best, mut at_best) = (i128::MAX, 0i128);
    let mut prev = (0i128, 1i128);
    for &(n, d, w) in slopes.iter() {
        if phi != 0 {
            let m = simplest_denominator(prev, (n, d));
            if m < best {
                (best, at_best) = (m, phi);
            } else if m == best {
                at_best += phi;
            }
        }
        phi -= w;
        prev = (n, d);
    }
    if best > t {
        return Outcome::Decided(true);
    }
    if at_best != 0 {
        return Outcome::Decided(false);
    }
    // Every denominator divides the largest modulus, so their lcm does not overflow.
    let period = slopes.iter().fold(1i128, |l, s| l.lcm(&s.1));
    let zero = (1..=t.min(period)).all(|m| {
        slopes
            .iter()
            .map(|&(n, d, w)| w * (n * m).div_euclid(d))
            .sum::<i128>()
            == 0
    });
    Outcome::Scanned(zero)
}

/// The smallest `q >= 1` such that some `p/q` lies in `(a/b, c/d]`, for
/// `0 <= a/b < c/d` (positive denominators). O(log max(b, d)).
pub(crate) fn simplest_denominator(lo: (i128, i128), hi: (i128, i128)) -> i128 {
    simplest(lo, true, hi, false).1
}

/// The simplest fraction (smallest denominator, then numerator) in the interval
/// from `lo` to `hi`, each end open or closed; `hi.1 == 0` means `+∞`. Requires
/// `0 <= lo <= hi` and a non-empty interval. Continued-fraction recursion: if an
/// integer fits, the smallest one is the answer; otherwise both ends share the
/// integer part `n`, and `x ↦ 1/(x − n)` maps the interval to one whose simplest
/// fraction `p'/q'` gives `n + q'/p'`, the denominator becoming the numerator.
fn simplest(lo: (i128, i128), lo_open: bool, hi: (i128, i128), hi_open: bool) -> (i128, i128) {
    let (a, b) = lo;
    let (c, d) = hi;
    let n = if lo_open {
        a.div_euclid(b) + 1
    } else {
        ceil_div(a, b)
    };
    let fits = d == 0 || n * d < c || (n * d == c && !hi_open);
    if fits {
        return (n, 1);
    }
    let n0 = a.div_euclid(b);
    // x − n0 lies in (a − n0·b)/b .. (c − n0·d)/d; invert (ends swap, so do the openness flags).
    let (p, q) = simplest((d, c - n0 * d), hi_open, (b, a - n0 * b), lo_open);
    (n0 * p + q, p)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing test may panic
mod tests {
    use super::*;

    fn brute_denominator(lo: (i128, i128), hi: (i128, i128)) -> i128 {
        (1..)
            .find(|&q| {
                // some p with a/b < p/q <= c/d
                let p = (lo.0 * q).div_euclid(lo.1) + 1;
                p * hi.1 <= hi.0 * q
            })
            .unwrap_or(0)
    }

    // Invariant: the descent finds the smallest denominator in (a/b, c/d].
    #[test]
    fn simplest_denominator_matches_brute_force() {
        for b in 1..=13 {
            for a in 0..b {
                for d in 1..=13 {
                    for c in 1..=d {
                        if a * d < c * b {
                            assert_eq!(
                                simplest_denominator((a, b), (c, d)),
                                brute_denominator((a, b), (c, d)),
                                "({a}/{b}, {c}/{d}]"
                            );
                        }
                    }
                }
            }
        }
        assert_eq!(simplest_denominator((1, 3), (1, 2)), 2);
        assert_eq!(simplest_denominator((333, 1000), (334, 1000)), 3);
    }

    // Invariant: the one-coordinate decision agrees with evaluating G on [0, t].
    #[test]
    fn one_coordinate_matches_evaluation() {
        let slopes_pool = [
            (1, 2),
            (1, 3),
            (2, 3),
            (1, 4),
            (3, 4),
            (2, 5),
            (3, 7),
            (5, 8),
        ];
        for mask in 1u32..(1 << slopes_pool.len()) {
            for weights in [[1, -1, 2, -2, 1, -1, 3, -3], [2, -1, -1, 1, 1, -2, 1, -1]] {
                let chosen: Vec<(i128, i128, i128)> = slopes_pool
                    .iter()
                    .zip(weights)
                    .enumerate()
                    .filter(|(k, _)| mask >> k & 1 == 1)
                    .map(|(_, (&(n, d), w))| (n, d, w))
                    .collect();
                for t in [1, 2, 3, 5, 8, 20] {
                    let want = (0..=t).all(|m| {
                        chosen
                            .iter()
                            .map(|&(n, d, w)| w * (n * m / d))
                            .sum::<i128>()
                            == 0
                    });
                    let got = match one_coordinate(&mut chosen.clone(), t) {
                        Outcome::Decided(z) | Outcome::Scanned(z) => z,
                    };
                    assert_eq!(got, want, "{chosen:?} t={t}");
                }
            }
        }
    }
}
