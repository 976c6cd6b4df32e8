//! A candidate R built from its chain and strides, and checked on every
//! index of L at once through the exact composition (`docs/algebra.md` §7.1,
//! *Symbolic check*).

use smallvec::SmallVec;

use crate::algebra::complement::push_coalesced;
use crate::algebra::compose_within;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::num::Ints;
use crate::tuple::Profile;

/// What the symbolic check says about a candidate R.
pub(super) enum Verdict {
    /// `R(L(c)) = index(c)` at every coordinate.
    Holds,
    /// It fails at this point `(L(c), index(c))`.
    Fails(i64, i64),
    /// `R ∘ L` is no layout (so R is no left inverse), or composition gave up.
    Unsettled,
}

/// L's read leaves as one layout, with their index strides.
pub(super) struct Target {
    layout: Layout,
    extents: Ints,
    indices: Ints,
    /// Points checked before any composition: each leaf at 1 and at its
    /// last coordinate alone, and every leaf at its last coordinate.
    pub(super) corners: Vec<(i64, i64)>,
}

impl Target {
    /// The target of the leaves `(extent, stride, index stride)`, in L's order.
    pub(super) fn new(leaves: &[(i64, i64, i64)]) -> Result<Target> {
        let extents: Ints = leaves.iter().map(|l| l.0).collect();
        let strides: Ints = leaves.iter().map(|l| l.1).collect();
        let indices: Ints = leaves.iter().map(|l| l.2).collect();
        let mut corners = Vec::with_capacity(2 * leaves.len() + 1);
        let (mut x, mut i) = (0i64, 0i64);
        for &(s, d, idx) in leaves {
            corners.push((d, idx));
            corners.push(((s - 1) * d, (s - 1) * idx)); // a coordinate of L
            (x, i) = (x + (s - 1) * d, i + (s - 1) * idx); // partial sums of coordinates of L
        }
        corners.push((x, i));
        corners.sort_unstable();
        Ok(Target {
            layout: Layout::flat(&extents, &strides)?,
            extents,
            indices,
            corners,
        })
    }

    /// The index L's left inverse owes at row-major position `j` of the read leaves.
    fn index_at(&self, mut j: i64) -> i64 {
        let mut out = 0i64;
        for (&s, &i) in self.extents.iter().zip(&self.indices).rev() {
            out += (j % s) * i; // < size(L)
            j /= s;
        }
        out
    }

    /// Checks `R(L(c)) = index(c)` for every c by one composition. `Q = R ∘ L`
    /// refines L's shape, so both `Q` and the index are linear in Q's
    /// coordinates: they agree everywhere iff they agree at each unit
    /// coordinate, i.e. at each leaf's index stride, and the first leaf where
    /// they differ names a failing point. O(cost of compose + leaves).
    ///
    /// The composition's value stages spend at most `limit` evaluations;
    /// returns them with the verdict (all of `limit` when it ran out, the
    /// verdict then `Unsettled`), for the search to charge.
    pub(super) fn verify(&self, r: &Layout, limit: i64) -> (Verdict, i64) {
        match compose_within(r, &self.layout, limit) {
            (Ok(q), spent) => (self.compare(&q), spent),
            (Err(Error::BudgetExceeded { .. }), _) => (Verdict::Unsettled, limit),
            (Err(_), spent) => (Verdict::Unsettled, spent),
        }
    }

    /// The verdict on `Q = R ∘ L`: its strides against the index's.
    fn compare(&self, q: &Layout) -> Verdict {
        let (qs, qd) = (q.shape_leaves(), q.stride_leaves());
        let mut unit = 1i64;
        for l in (0..qs.len()).rev() {
            if qs[l] > 1 {
                let want = self.index_at(unit);
                if qd[l] != want {
                    return match self.layout.eval(unit) {
                        Ok(x) => Verdict::Fails(x, want),
                        Err(_) => Verdict::Unsettled,
                    };
                }
            }
            unit *= qs[l]; // ≤ size(L)
        }
        Verdict::Holds
    }
}

/// R from its place values and strides: leaves `E_{k+1}/E_k : r_k` and a head
/// `⌊M/E_m⌋ + 1 : r_m` (so R's domain covers every point), coalesced. With
/// negative offsets the head keeps extent ≥ 2: its stride is read below 0.
pub(super) fn build(chain: &[i64], strides: &[i128], max: i64, negative: bool) -> Result<Layout> {
    let stride = |k: usize| {
        i64::try_from(strides[k]).map_err(|_| Error::Overflow {
            what: "stride of left inverse",
        })
    };
    let mut leaves: SmallVec<[(i64, i64); 9]> = SmallVec::new();
    for (k, w) in chain.windows(2).enumerate() {
        push_coalesced(&mut leaves, w[1] / w[0], stride(k)?);
    }
    let m = chain.len() - 1;
    let head = max.max(0) / chain[m] + 1;
    push_coalesced(
        &mut leaves,
        if negative { head.max(2) } else { head },
        stride(m)?,
    );
    if leaves.is_empty() {
        leaves.push((1, 0));
    }
    let shape: Ints = leaves.iter().rev().map(|t| t.0).collect();
    let stride: Ints = leaves.iter().rev().map(|t| t.1).collect();
    let profile = match shape.len() {
        1 => Profile::leaf(),
        n => Profile::flat(n),
    };
    Layout::from_leaves(profile, shape, stride)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbolic_check_agrees_with_every_index() {
        // Invariant: verify says Holds iff R(L(c)) = index(c) at every c, and Fails names a true failing point / Witness: brute force over random 2-leaf L (extents 2..=6, strides −9..=20 without 0) and R with chains of steps 2..=4, strides −4..=12.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut draw = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n) as i64
        };
        let (mut holds, mut fails) = (0, 0);
        for _ in 0..3000 {
            let leaves: Vec<(i64, i64, i64)> = {
                let (s0, s1) = (2 + draw(5), 2 + draw(5));
                let pick = |v: i64| if v >= 9 { v - 8 } else { v - 9 }; // −9..=−1, 1..=20
                vec![(s0, pick(draw(29)), s1), (s1, pick(draw(29)), 1)]
            };
            let target = Target::new(&leaves).expect("small");
            let l = &target.layout;
            let mut chain = vec![1i64];
            for _ in 0..draw(4) {
                chain.push(chain[chain.len() - 1] * (2 + draw(3)));
            }
            let strides: Vec<i128> = chain.iter().map(|_| i128::from(draw(17) - 4)).collect();
            // Half the time R is L's left inverse (when one exists), so that it holds.
            let r = match l.left_inverse() {
                Ok(r) if draw(2) == 0 => r,
                _ => build(&chain, &strides, 200, true).expect("small"),
            };
            let truth = (0..l.size()).find(|&i| {
                let x = l.eval(i).expect("in domain");
                r.eval(x).expect("defined") != target.index_at(i)
            });
            match target.verify(&r, crate::algebra::COMPOSE_FALLBACK_BUDGET).0 {
                Verdict::Holds => {
                    assert_eq!(truth, None, "{r} on {l}");
                    holds += 1;
                }
                Verdict::Fails(x, i) => {
                    assert_ne!(r.eval(x).expect("defined"), i, "{r} on {l} at {x}");
                    assert!(truth.is_some());
                    fails += 1;
                }
                Verdict::Unsettled => assert!(truth.is_some(), "{r} on {l}"),
            }
        }
        assert!(holds > 0 && fails > 0, "{holds} {fails}");
    }
}
