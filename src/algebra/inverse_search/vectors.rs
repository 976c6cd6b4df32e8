//! Lemma 7 by difference vectors (rank 2): pairs of points in one block of
//! a node's top, found by their coordinate difference instead of by reading
//! the offsets in order.
//!
//! Two coordinates `(a, b)` and `(a + u, b + v)` of a rank-2 L have offsets
//! `δ = u·d₀ + v·d₁` apart, whatever `(a, b)`. Only pairs with `|δ| < E` can
//! share a block of E, and for each u the v that makes `|δ|` smallest is the
//! best candidate. So the search lists, once, the shortest such vectors,
//! and a node whose scan has read far applies Lemma 7 to a grid of pairs per
//! vector spread over the whole box, including pairs far beyond its scan.
//! Every pair in one block gives a true equation on the strides below the
//! top (Lemma 7), so a contradiction refutes the node and every chain through
//! it; a pair not in one block is skipped. The cut only adds true equations:
//! the search stays exact. Example: in `(667,854):(432,865)` every chain
//! through 432 fits the first 200,000 offsets; the vector `(665, −332)`
//! (`δ = 100`) puts `L(0,432)` and `L(665,100)` in one block of 432 and
//! refutes them all at once.

use smallvec::SmallVec;

use super::{digits_of, Blocks, Search};
use crate::error::Result;

#[cfg(test)]
thread_local! {
    /// Nodes the vector cut refuted on this thread (tests only).
    pub(super) static CUTS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many of the shortest difference vectors a node tries.
const MAX_VECTORS: usize = 12;

/// Sample positions per axis of a vector's box (a grid of this squared).
/// 8 → 4 once the cut runs at a node's second point: four times cheaper per
/// run, and the rank-2 census left 31 layouts undecided instead of 36.
const GRID: i64 = 4;

/// The shortest primitive difference vectors of a rank-2 L, `(u, v, δ)`
/// with `δ > 0` and `gcd(u, v) = 1`, in increasing δ; empty for other ranks.
/// (A multiple `k·(u, v)` has the same ratio of index to offset difference
/// as `(u, v)`, so it rarely contradicts what the shorter one allows.)
pub(super) struct Vectors {
    /// The two leaves `(extent, stride, index stride)`.
    leaves: [(i64, i64, i64); 2],
    pub(super) list: SmallVec<[(i64, i64, i64); MAX_VECTORS]>,
}

impl Vectors {
    /// Lists, for every `|u| < s₀`, the `|v| < s₁` near `−u·d₀/d₁` that make
    /// `|u·d₀ + v·d₁|` nonzero with `gcd(u, v) = 1`, and keeps the
    /// [`MAX_VECTORS`] shortest. O(s₀), no allocation.
    pub(super) fn new(leaves: &[(i64, i64, i64)]) -> Vectors {
        let mut out = Vectors {
            leaves: [(1, 0, 0); 2],
            list: SmallVec::new(),
        };
        let &[l0, l1] = leaves else {
            return out;
        };
        out.leaves = [l0, l1];
        let ((s0, d0, _), (s1, d1, _)) = (l0, l1);
        // Every |u·d₀ + v·d₁| below is at most s₀·|d₀| + s₁·|d₁|; when
        // that leaves i64 the cut is skipped (it only ever adds cuts).
        let span = |s: i64, d: i64| s.checked_mul(d.checked_abs()?);
        if span(s0, d0)
            .zip(span(s1, d1))
            .and_then(|(a, b)| a.checked_add(b))
            .is_none()
        {
            return out;
        }
        // (u, v) and (−u, −v) are one vector: u ≥ 0 covers every one.
        let mut best: SmallVec<[(i64, i64, i64); MAX_VECTORS]> = SmallVec::new();
        // `−u·d₀ = q·|d₁| + r` with `0 <= r < |d₁|`, kept by steps (each
        // step of u moves it by `−d₀`), so no division per u; the nearest
        // v are then about `q·sign(d₁)`.
        let m = d1.abs();
        let (step, step_r) = ((-d0).div_euclid(m), (-d0).rem_euclid(m));
        let (mut q, mut r) = (0i64, 0i64);
        for u in 0..s0 {
            if u > 0 {
                q += step;
                r += step_r;
                if r >= m {
                    r -= m;
                    q += 1;
                }
            }
            let guess = if d1 > 0 { q } else { -q };
            for v in [guess - 1, guess, guess + 1] {
                if v.abs() >= s1 || (u == 0 && v == 0) {
                    continue;
                }
                let raw = u * d0 + v * d1;
                let delta = raw.abs();
                let full = best.len() == MAX_VECTORS;
                if delta == 0 || (full && delta >= best[MAX_VECTORS - 1].0) {
                    continue; // a collision (refused before the search), or too long
                }
                if num_integer::gcd(u, v) != 1 {
                    // A multiple of a shorter vector, with its index ratio.
                    continue;
                }
                let sign = if raw < 0 { -1 } else { 1 };
                let entry = (delta, sign * u, sign * v);
                let at = best.partition_point(|e| *e < entry);
                if best.get(at) != Some(&entry) {
                    best.insert(at, entry);
                    best.truncate(MAX_VECTORS);
                }
            }
        }
        out.list = best
            .into_iter()
            .map(|(delta, u, v)| (u, v, delta))
            .collect();
        out
    }

    /// The coordinates on a `GRID × GRID` spread of the box where both
    /// `(a, b)` and `(a + u, b + v)` are coordinates of L.
    fn grid(&self, u: i64, v: i64) -> SmallVec<[(i64, i64); 16]> {
        let [(s0, ..), (s1, ..)] = self.leaves;
        let axis = |s: i64, w: i64| -> SmallVec<[i64; 8]> {
            let (lo, hi) = ((-w).max(0), s - w.max(0)); // [lo, hi)
            let mut out: SmallVec<[i64; 8]> = SmallVec::new();
            for k in 0..GRID {
                let c = lo + (hi - 1 - lo) * k / (GRID - 1);
                if lo < hi && out.last() != Some(&c) {
                    out.push(c);
                }
            }
            out
        };
        let (xs, ys) = (axis(s0, u), axis(s1, v));
        xs.iter()
            .flat_map(|&a| ys.iter().map(move |&b| (a, b)))
            .collect()
    }
}

impl Search {
    /// Lemma 7 on the vector pairs in one block of the top of `chain`. False
    /// when no strides are left below the top (the node and every chain
    /// through it fail). Each grid position costs a work unit, and each
    /// pair in one block one more per digit.
    pub(super) fn vector_cut(&mut self, chain: &[i64], b: &mut Blocks) -> Result<bool> {
        let top = *chain.last().unwrap_or(&1);
        let k = chain.len() - 1;
        let Some(leaves) = self.rank_two else {
            return Ok(true);
        };
        if self.vectors.is_none() {
            self.spend(2 * leaves[0].0)?;
            self.vectors = Some(Vectors::new(&leaves));
        }
        let Some(vectors) = self.vectors.as_ref() else {
            return Ok(true);
        };
        let list = vectors.list.clone();
        let [(_, d0, i0), (_, d1, i1)] = leaves;
        let mut lower: SmallVec<[i64; 64]> = SmallVec::new();
        let mut diff: SmallVec<[i64; 64]> = SmallVec::new();
        for (u, v, delta) in list {
            if delta >= top {
                break;
            }
            let grid = self
                .vectors
                .as_ref()
                .map(|vs| vs.grid(u, v))
                .unwrap_or_default();
            self.spend(grid.len() as i64)?;
            for (a, c) in grid {
                // |coordinates| < 2^31 and |strides| < 2^31 in the searched
                // family; checked all the same.
                let (Some(x), Some(i)) = (
                    a.checked_mul(d0)
                        .and_then(|p| c.checked_mul(d1)?.checked_add(p)),
                    a.checked_mul(i0)
                        .and_then(|p| c.checked_mul(i1)?.checked_add(p)),
                ) else {
                    continue;
                };
                let (Some(x2), Some(i2)) = (
                    x.checked_add(delta),
                    u.checked_mul(i0)
                        .and_then(|p| v.checked_mul(i1)?.checked_add(p))
                        .and_then(|di| i.checked_add(di)),
                ) else {
                    continue;
                };
                if x < 0 || x.div_euclid(top) != x2.div_euclid(top) {
                    continue;
                }
                self.spend(k as i64 + 1)?;
                digits_of(x, chain, &mut self.digits);
                lower.clear();
                lower.extend_from_slice(&self.digits[..k]);
                digits_of(x2, chain, &mut self.digits);
                diff.clear();
                diff.extend(self.digits[..k].iter().zip(&lower).map(|(p, q)| p - q));
                if !b.sols.constrain(&diff, i2 - i)? {
                    let high = b.sols.high;
                    self.used_both(x2, i2, high);
                    self.used(x, i);
                    #[cfg(test)]
                    CUTS.with(|c| c.set(c.get() + 1));
                    return Ok(false);
                }
                b.sols.note(x2, i2);
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortest_vectors_are_listed_first() {
        // Invariant: every listed (u, v, δ) has δ = u·d₀ + v·d₁ > 0 with |u| < s₀, |v| < s₁, gcd(u, v) = 1, in increasing δ, and the shortest over the box is first (brute force) / Witness: (667,854):(432,865), whose shortest are (−2, 1) with δ = 1 and (665, −332) with δ = 100, and (64,64):(100,3).
        for leaves in [
            [(667, 432, 854), (854, 865, 1)],
            [(64, 100, 64), (64, 3, 1)],
            [(7, -5, 9), (9, 13, 1)],
        ] {
            let vs = Vectors::new(&leaves);
            let [(s0, d0, _), (s1, d1, _)] = leaves;
            let mut best = i64::MAX;
            for u in -(s0 - 1)..s0 {
                for v in -(s1 - 1)..s1 {
                    let d = u * d0 + v * d1;
                    if d > 0 {
                        best = best.min(d);
                    }
                }
            }
            assert_eq!(vs.list[0].2, best, "{leaves:?}");
            for w in vs.list.windows(2) {
                assert!(w[0].2 <= w[1].2);
            }
            for &(u, v, d) in &vs.list {
                assert!(u.abs() < s0 && v.abs() < s1 && d > 0 && u * d0 + v * d1 == d);
                assert_eq!(num_integer::gcd(u, v), 1);
            }
        }
        let vs = Vectors::new(&[(667, 432, 854), (854, 865, 1)]);
        assert_eq!(vs.list[..2], [(-2, 1, 1), (665, -332, 100)]);
    }

    #[test]
    fn grids_stay_in_the_box() {
        // Invariant: every grid coordinate (a, b) and its partner (a+u, b+v) are coordinates of L / Witness: the vectors of (667,854):(432,865) and a box of width 1.
        let vs = Vectors::new(&[(667, 432, 854), (854, 865, 1)]);
        for &(u, v, _) in vs.list.iter().chain([(665, -332, 100), (666, 0, 1)].iter()) {
            for (a, b) in vs.grid(u, v) {
                assert!(
                    (0..667).contains(&a) && (0..667).contains(&(a + u)),
                    "{u} {v}"
                );
                assert!(
                    (0..854).contains(&b) && (0..854).contains(&(b + v)),
                    "{u} {v}"
                );
            }
        }
    }
}
