//! Crossing analysis: which boundaries the second view's grid crosses, and the
//! rules that settle a merge from that alone.
//!
//! For a modulus `Q` and the grid `x(i) = o + Σ c_q·i_q`, write `w = o mod Q` and
//! `ρ_q = c_q − Q·⌊(w + c_q)/Q⌋` (the residue of `c_q` that a single step from the
//! origin actually shows: in `[−w, Q−w)`). Then
//!
//! ```text
//! ⌊x(i)/Q⌋ = ⌊o/Q⌋ + Σ κ_q·i_q + h(i),   h(i) = ⌊(w + ⟨ρ, i⟩)/Q⌋,   h(0) = h(e_q) = 0
//! ```
//!
//! ([`Wrap`]). The boundary is *straight* when `0 <= w + ⟨ρ, i⟩ < Q` on the whole
//! grid (`h ≡ 0`; with offset 0 and `ρ >= 0` this is "not crossed"), otherwise
//! *bent*. The composed map is affine iff `G = Σ_bent D·h` vanishes on the grid
//! (it is 0 at the origin and at every unit step, so affine means zero).
//! Bent boundaries with the same `(w, ρ)/Q` have the same `h`: they form one
//! [`Group`] whose weight is the sum of their defects.

use super::grid::dot;
use super::grid::Grid;
use super::identity::{Boundary, Digits};
use crate::num::floor::{div_floor, mod_floor, narrow};
use crate::num::Ints;

/// `⌊x(i)/Q⌋` minus its affine part: `h(i) = ⌊(rem + ⟨rot, i⟩)/modulus⌋`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Wrap {
    pub(crate) modulus: i128,
    /// `w = o mod Q`.
    pub(crate) rem: i128,
    /// `ρ`, one entry per grid coordinate.
    pub(crate) rot: Ints,
}

impl Wrap {
    /// The wrap of `x(i) = offset + ⟨stride, i⟩` at modulus `q > 0`.
    pub(crate) fn new(q: i128, offset: i128, stride: &[i64]) -> Wrap {
        let rem = mod_floor(offset, q);
        let rot = stride.iter().map(|&c| rotation(q, rem, c)).collect();
        Wrap {
            modulus: q,
            rem,
            rot,
        }
    }

    /// Smallest and largest `rem + ⟨rot, i⟩` for `0 <= i < ext`.
    pub(crate) fn range(&self, ext: &[i64]) -> (i128, i128) {
        span(self.rem, self.rot.iter().copied(), ext)
    }

    /// `h(i)`.
    pub(crate) fn carry(&self, i: &[i64]) -> i128 {
        div_floor(self.rem + dot(&self.rot, i), self.modulus)
    }

    /// Whether `self` and `other` have the same `h`: equal `(rem, rot)/modulus`.
    fn same_carry(&self, other: &Wrap) -> bool {
        let (p, q) = (self.modulus, other.modulus);
        self.rem * q == other.rem * p
            && self
                .rot
                .iter()
                .zip(&other.rot)
                .all(|(&a, &b)| i128::from(a) * q == i128::from(b) * p)
    }

    /// `+1` when every `rot >= 0` (then `h >= 0`), `−1` when every `rot <= 0`
    /// (then `h <= 0`), `0` otherwise.
    fn orientation(&self) -> i128 {
        if self.rot.iter().all(|&r| r >= 0) {
            1
        } else if self.rot.iter().all(|&r| r <= 0) {
            -1
        } else {
            0
        }
    }
}

/// [`Wrap::range`] of `Wrap::new(q, offset, stride)`, without building it.
pub(crate) fn wrap_range(q: i128, offset: i128, stride: &[i64], ext: &[i64]) -> (i128, i128) {
    let rem = mod_floor(offset, q);
    span(rem, stride.iter().map(|&c| rotation(q, rem, c)), ext)
}

/// `ρ = c − Q·⌊(w + c)/Q⌋`, in `[−w, Q − w)` so it fits 64 bits.
fn rotation(q: i128, rem: i128, c: i64) -> i64 {
    let c = i128::from(c);
    narrow(c - q * div_floor(rem + c, q))
}

/// Smallest and largest `base + ⟨rot, i⟩` for `0 <= i < ext`.
fn span(base: i128, rot: impl Iterator<Item = i64>, ext: &[i64]) -> (i128, i128) {
    rot.zip(ext).fold((base, base), |(lo, hi), (r, &e)| {
        let s = i128::from(r) * i128::from(e - 1);
        (lo + s.min(0), hi + s.max(0))
    })
}

/// Bent boundaries sharing one carry function.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    pub(crate) wrap: Wrap,
    /// Sum of the members' defects.
    pub(crate) weight: i128,
    pub(crate) members: Vec<Boundary>,
}

/// What the crossing analysis alone says about the grid.
#[derive(Clone, Debug)]
pub(crate) enum Crossing {
    /// Every active boundary is straight: the map is affine.
    None,
    /// Some boundaries are bent but their groups' weights all cancel: affine.
    Cancelled,
    /// The bent groups with non-zero weight.
    Bent(Vec<Group>),
}

/// Groups the bent active boundaries of `radix` over `grid` (extents >= 2),
/// folded on the interval of indices the grid reaches. O(k²) for the folding,
/// O(k·r) for the wraps plus O(g²·r) for grouping.
pub(crate) fn analyse(radix: &Digits, grid: &Grid) -> Crossing {
    let mut groups: Vec<Group> = Vec::new();
    let mut bent = false;
    for b in radix.boundaries_on(grid.offset, grid.offset + grid.reach()) {
        let (lo, hi) = wrap_range(b.modulus, grid.offset, &grid.stride, &grid.ext);
        if 0 <= lo && hi < b.modulus {
            continue; // straight
        }
        let wrap = Wrap::new(b.modulus, grid.offset, &grid.stride);
        bent = true;
        match groups.iter_mut().find(|g| g.wrap.same_carry(&wrap)) {
            Some(g) => {
                g.weight += b.defect;
                g.members.push(b);
            }
            None => groups.push(Group {
                wrap,
                weight: b.defect,
                members: vec![b],
            }),
        }
    }
    groups.retain(|g| g.weight != 0);
    match (bent, groups.is_empty()) {
        (false, _) => Crossing::None,
        (true, true) => Crossing::Cancelled,
        (true, false) => Crossing::Bent(groups),
    }
}

/// The same-sign rule: when every group is oriented (its `h` has one sign) and
/// `sign(weight)·orientation` is the same for all of them, `G` at the far corner
/// is a sum of non-zero terms of one sign, so the map is not affine. O(g·r).
pub(crate) fn same_sign(groups: &[Group]) -> bool {
    let signs: Vec<i128> = groups
        .iter()
        .map(|g| g.weight.signum() * g.wrap.orientation())
        .collect();
    signs.iter().all(|&s| s != 0 && s == signs[0])
}

/// `G(i) = Σ_g weight_g·h_g(i)`.
pub(crate) fn defect_sum(groups: &[Group], i: &[i64]) -> i128 {
    groups.iter().map(|g| g.weight * g.wrap.carry(i)).sum()
}

/// Probes `G` at a few points where a carry first changes: the far corner, each
/// group's two sign corners, and along each axis the first index where a group
/// wraps and the last index. `G != 0` at any of them proves the map is not
/// affine. O(g·r) points, O(g·r) each.
pub(crate) fn witness(groups: &[Group], grid: &Grid) -> bool {
    let last: Ints = grid.ext.iter().map(|e| e - 1).collect();
    let corner = |pick: &dyn Fn(i64) -> bool, rot: &[i64]| -> Ints {
        rot.iter()
            .zip(&last)
            .map(|(&r, &l)| if pick(r) { l } else { 0 })
            .collect()
    };
    let nonzero = |p: &[i64]| defect_sum(groups, p) != 0;
    if nonzero(&last) {
        return true;
    }
    for g in groups {
        let w = &g.wrap;
        if nonzero(&corner(&|r| r > 0, &w.rot)) || nonzero(&corner(&|r| r < 0, &w.rot)) {
            return true;
        }
        for (q, &r) in w.rot.iter().enumerate() {
            // First m with rem + r·m outside [0, Q): where h first changes along q.
            let r = i128::from(r);
            let first = match r.signum() {
                1 => (w.modulus - w.rem + r - 1) / r,
                -1 => w.rem / -r + 1,
                _ => continue,
            };
            if first <= i128::from(last[q]) {
                let mut p = Ints::from_elem(0, grid.rank());
                p[q] = narrow(first);
                if nonzero(&p) {
                    return true;
                }
            }
            let mut p = Ints::from_elem(0, grid.rank());
            p[q] = last[q];
            if nonzero(&p) {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing test may panic
mod tests {
    use super::*;
    use crate::layout::FlatView;

    fn radix(shape: &[i64], strides: &[i64]) -> Digits {
        Digits::new(&FlatView::new(shape.to_vec(), strides.to_vec(), 0, None).unwrap()).unwrap()
    }

    fn grid(offset: i128, ext: &[i64], stride: &[i64]) -> Grid {
        Grid {
            offset,
            ext: ext.into(),
            stride: stride.into(),
        }
    }

    // Invariant: ⌊x(i)/Q⌋ − h(i) is affine in i, and h vanishes at 0 and the unit steps.
    #[test]
    fn wrap_splits_floor_into_affine_and_carry() {
        let g = grid(13, &[4, 3], &[9, 5]);
        let w = Wrap::new(6, g.offset, &g.stride);
        let base = g.offset.div_euclid(6);
        let kappa: Vec<i128> = (0..2)
            .map(|q| {
                let mut e = vec![0, 0];
                e[q] = 1;
                g.at(&e).div_euclid(6) - base
            })
            .collect();
        g.full().for_each(|i| {
            let affine = base + kappa[0] * i128::from(i[0]) + kappa[1] * i128::from(i[1]);
            assert_eq!(g.at(i).div_euclid(6), affine + w.carry(i));
            true
        });
        assert_eq!(w.carry(&[0, 0]), 0);
        assert_eq!((w.carry(&[1, 0]), w.carry(&[0, 1])), (0, 0));
    }

    // Witness (issue 5): v1 = (5,4):(9,1), v2 = (3):(3) at offset 3 merges (stride 8)
    // although its boundary is crossed: the step always carries, so it is straight.
    #[test]
    fn always_carrying_boundary_is_straight() {
        let r = radix(&[5, 4], &[9, 1]);
        assert!(matches!(analyse(&r, &grid(3, &[3], &[3])), Crossing::None));
        assert!(matches!(
            analyse(&r, &grid(0, &[3], &[3])),
            Crossing::Bent(_)
        ));
    }

    // Witness: the overflow example (Lean formalisation) with s = 6 and σ1 = 2σ2 + 3σ3 but σ1 != 3σ2 (two crossed
    // boundaries of opposite defects) is decided by a probe, not by the sign rule.
    #[test]
    fn overflow_example_mixed_signs() {
        let r = radix(&[10, 3, 3], &[2 * 2 + 3 * 5, 2, 5]);
        let Crossing::Bent(groups) = analyse(&r, &grid(0, &[6], &[4])) else {
            panic!("expected bent boundaries");
        };
        assert!(!same_sign(&groups));
        assert!(witness(&groups, &grid(0, &[6], &[4])));
    }
}
