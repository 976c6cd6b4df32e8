//! `right_inverse`, `left_inverse`, `nullspace`.
//!
//! CuTe's definitions, mirrored into row-major order.
//!
//! - `right_inverse(L)`: first CuTe's, built from L's leaves sorted by stride
//!   whose strides chain contiguously from 1 (`d = 1, s₀·d₀, …`); each such leaf
//!   contributes `s : (its row-major index stride in L)`. Then `L(R(i)) = i` for
//!   every `i < size(R)`. Leaves off the chain (zero or negative strides, a
//!   repeated stride) are skipped, as CuTe skips them: their coordinate stays 0.
//!   `right_inverse_largest(L)`: the largest R, by the search of `right_search.rs`.
//! - `left_inverse(L)`: `R(L(i)) = i₀`, i with its stride-0 coordinates set
//!   to 0 (CuTe's left inverse does not read L's kernel either).
//!   `right_inverse((complement(L), L))` when L is injective off its kernel
//!   and its leaves tile a mixed radix (each stride a multiple of the span below
//!   it); then `(complement, L)` is a bijection onto an interval and
//!   `R(L(i)) = i` for every `i < size(L)`. Otherwise, when L's sorted strides
//!   form a *divisible chain* (each a multiple of the previous stride and at
//!   least the previous leaf's span `dₖ·sₖ`), R reads L's coordinates as the
//!   digits of `x / d₁` in the mixed radix `(d₂/d₁, …, dₙ/dₙ₋₁, ∞)`. Every
//!   other injective layout (negative strides included: R is evaluated on ℤ by
//!   the integer extension) goes to the exact search of `inverse_search.rs`,
//!   so R is returned if and only if one exists.
//! - `nullspace(L)`: the injective layout over L's zero-stride leaves, so that
//!   `L(N(i)) = 0` for every `i`.
//!
//! The closed forms are O(n log n) in the leaves and allocate nothing for ≤ 8
//! leaves; the search is bounded by its budget.

use smallvec::SmallVec;

use crate::algebra::complement::{complement_layout, flat_layout, push_coalesced};
use crate::algebra::inverse_search::{search_left_inverse, Found, LEFT_INVERSE_SEARCH_BUDGET};
use crate::algebra::right_search::largest_right_inverse;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::num::Ints;
use crate::tuple::Profile;

impl Layout {
    /// The right inverse, CuTe's: `L(R(i)) = i` for every `i < size(R)`, R
    /// built from L's leaves whose strides chain contiguously from 1, leaves
    /// off the chain (stride 0, negative, repeated) skipped as CuTe skips them
    /// (`1:0` when L has no stride 1). O(n log n) in the leaves, no allocation
    /// for ≤ 8 leaves. [`Layout::right_inverse_largest`] finds the largest
    /// right inverse, which can be larger.
    ///
    /// ```
    /// use hlayout::Layout;
    /// let l: Layout = "(6,4,2):(8,1,4)".parse().unwrap();
    /// let r = l.right_inverse();
    /// assert_eq!(r.to_string(), "(6,2,4):(8,1,2)");
    /// assert!((0..r.size()).all(|i| l.eval(r.eval(i).unwrap()).unwrap() == i));
    /// // A stride-0 leaf is skipped, not the end of the chain.
    /// let z: Layout = "(6,4,2):(8,0,1)".parse().unwrap();
    /// assert_eq!(z.right_inverse().size(), 2);
    /// ```
    pub fn right_inverse(&self) -> Layout {
        let (s, d) = (self.shape_leaves(), self.stride_leaves());
        if s.len() > 8 {
            let (shape, stride) = right_inverse_leaves(s, d);
            return flat_layout(shape, stride);
        }
        // Written in place: the arrays become the result's inline storage.
        let mut links = [(0i64, 0i64, 0i64); 8];
        let (mut shape, mut stride) = ([0i64; 8], [0i64; 8]);
        let (m, size) = right_inverse_into(s, d, &mut links, &mut shape, &mut stride);
        let profile = if m == 1 {
            Profile::leaf()
        } else {
            Profile::flat(m)
        };
        Layout::from_trusted_sized(
            profile,
            SmallVec::from_buf_and_len(shape, m),
            SmallVec::from_buf_and_len(stride, m),
            size,
        )
    }

    /// The largest right inverse: a layout R with `L(R(i)) = i` for every
    /// `i < size(R)`, R's values in L's domain, of the largest size n for
    /// which one exists, reading only L's leaves off its kernel (stride 0),
    /// as CuTe does.
    ///
    /// CuTe's answer ([`Layout::right_inverse`]) comes first; when it covers
    /// every leaf off the kernel, or L's image misses the value after it, no
    /// larger R exists. Otherwise the exact search of `right_search.rs` runs,
    /// bounded by
    /// [`RIGHT_INVERSE_SEARCH_BUDGET`](crate::algebra::RIGHT_INVERSE_SEARCH_BUDGET)
    /// evaluations on layouts of at most that many elements off the kernel
    /// (past it, the largest found so far; never smaller than CuTe's).
    ///
    /// ```
    /// use hlayout::Layout;
    /// // Offsets 0 1 2 2 3 4: CuTe's chain stops at 3:1; (2,2):(3,1) reaches 4.
    /// let g: Layout = "(2,3):(2,1)".parse().unwrap();
    /// assert_eq!(g.right_inverse().to_string(), "3:1");
    /// assert_eq!(g.right_inverse_largest().to_string(), "(2,2):(3,1)");
    /// ```
    pub fn right_inverse_largest(&self) -> Layout {
        largest_right_inverse(self, self.right_inverse())
    }

    /// The left inverse: a layout R with `R(L(i)) = i₀` for every `i < size(L)`,
    /// where `i₀` is i with the coordinates of L's stride-0 leaves set to 0
    /// (L's kernel is not read, as in CuTe; so `L(R(L(i))) = L(i)`, and
    /// `R(L(i)) = i` when L has no stride-0 leaf), returned if and only if one
    /// exists.
    ///
    /// Five stages, each exact, the first that applies answers:
    /// 1. *Mixed radix* (each sorted stride a multiple of the span below it):
    ///    CuTe's `right_inverse((complement(L, 1), L))`. O(n log n).
    /// 2. *Divisible chain* (`dₖ | dₖ₊₁` and `dₖ₊₁ ≥ dₖ·sₖ`, gaps allowed): R
    ///    reads L's coordinates as the digits of `x / d₁`: a fastest `d₁ : 0`, a
    ///    leaf `dₖ₊₁/dₖ : ιₖ` per leaf of L (`ιₖ` its row-major index
    ///    stride) and a head `sₙ : ιₙ`. O(n log n), no allocation for ≤ 8 leaves.
    /// 3. *Carry-free chain* (every stride positive): a divisor chain whose
    ///    every place value E has `Σ (s−1)·(d mod E) < E`, so that adding L's
    ///    leaves never carries and each digit of `L(c)` is linear in c; R's
    ///    strides then solve one small integer system. The qualifying place
    ///    values form O(Σ √d) intervals; the maximal chains are tried, then
    ///    with one leaf halved (`s:d` as `(⌈s/2⌉, 2):(2d, d)`).
    ///    Microseconds; finds more than half of what the search finds.
    /// 4. *Chain with borrows* (every stride positive, rank ≤ 4): as 3, but a
    ///    place value E may take signed residues `d mod E − E`, when their
    ///    sum stays in `[−E, E)`; then `⌊x/E⌋` is linear less one borrow
    ///    indicator, and R's coefficients on `⌊x/E⌋` must cancel over the
    ///    place values that borrow together. Microseconds to tens of them.
    /// 5. *Search*, for every other injective layout (negative strides too; R
    ///    is read on ℤ by floor digits): a first pass tries only the chains
    ///    whose place values divide one of L's own numbers (`|d|`, `s·|d|`,
    ///    `lcm(|d|, |d'|)`), longest step first, within a small budget of its
    ///    own; then a depth-first search over R's divisor
    ///    chains of prime steps below `M = max L(i)` (below `max(M+1, −min L(i))`
    ///    when some offset is negative), with R's strides solved over the
    ///    integers point by point. It reads L's offsets lazily in increasing
    ///    order (never all of them), drops a chain prefix as soon as the points
    ///    below its top, or two points in one block of its top, admit no
    ///    strides, and checks a determined candidate on every index at once by
    ///    one composition. Its cost depends on how far it reads, not on
    ///    `size(L)`: typically tens to hundreds of microseconds, exponential
    ///    in the worst case, hence bounded by
    ///    [`LEFT_INVERSE_SEARCH_BUDGET`]
    ///    (the first pass by 2^16 units of its own on top). Not a decision
    ///    procedure on every layout: about 0.4% of random rank-2 layouts with
    ///    extents and strides in the hundreds still end `BudgetExceeded`
    ///    ([`Layout::left_inverse_with_budget`] decides them with more units).
    ///
    /// Proofs (why each answer is right and each refusal is final):
    /// `docs/algebra.md`, section 7.
    ///
    /// # Errors
    /// [`Error::Precondition`], exactly when no layout left inverse exists: two
    /// indices without stride-0 coordinates have the same offset (not
    /// injective off the kernel); or no divisor chain with integer strides fits (the rule
    /// names the offset by which every candidate fails).
    /// [`Error::BudgetExceeded`] when the search would pass its budget
    /// (undecided, not refused); [`Error::Overflow`] when R leaves `i64`.
    ///
    /// ```
    /// use hlayout::Layout;
    /// let l: Layout = "(2,4):(16,1)".parse().unwrap();
    /// let r = l.left_inverse().unwrap();
    /// assert!((0..l.size()).all(|i| r.eval(l.eval(i).unwrap()).unwrap() == i));
    /// // Offsets 0, 1, 3, 4: no mixed radix, but a divisible chain.
    /// let g: Layout = "(2,2):(3,1)".parse().unwrap();
    /// assert_eq!(g.left_inverse().unwrap().to_string(), "(2,3):(2,1)");
    /// // Offsets 0, 2, 3, 5: neither, but a carry-free chain 1 | 2.
    /// let h: Layout = "(2,2):(3,2)".parse().unwrap();
    /// let r = h.left_inverse().unwrap();
    /// assert_eq!(r.to_string(), "(3,2):(1,1)"); // x mod 2 + ⌊x/2⌋
    /// assert_eq!([0, 2, 3, 5].map(|x| r.eval(x).unwrap()), [0, 1, 2, 3]);
    /// // x = 410·(a + b) − b: b borrows from 205 and 410 at once, and
    /// // R = 188·x − 76891·⌊x/205⌋ + 76891·⌊x/410⌋ cancels the borrows.
    /// let w: Layout = "(1011,189):(410,409)".parse().unwrap();
    /// let r = w.left_inverse().unwrap();
    /// assert_eq!(r.to_string(), "(1198,2,205):(189,-38351,188)");
    /// assert!((0..w.size()).all(|i| r.eval(w.eval(i).unwrap()).unwrap() == i));
    /// // Negative strides: offsets below 0 are read by the integer extension.
    /// let n: Layout = "4:-1".parse().unwrap();
    /// let r = n.left_inverse().unwrap();
    /// assert_eq!([0, -1, -2, -3].map(|x| r.eval(x).unwrap()), [0, 1, 2, 3]);
    /// // Stride-0 leaves are L's kernel: R gives their coordinates back as 0.
    /// let z: Layout = "(2,2):(0,1)".parse().unwrap();
    /// let r = z.left_inverse().unwrap();
    /// assert_eq!([0, 1].map(|x| r.eval(x).unwrap()), [0, 1]);
    /// // Refused: not injective off the kernel; and no layout fits at all.
    /// assert!("(2,2):(1,1)".parse::<Layout>().unwrap().left_inverse().is_err());
    /// assert!("(3,3):(2,3)".parse::<Layout>().unwrap().left_inverse().is_err());
    /// ```
    pub fn left_inverse(&self) -> Result<Layout> {
        self.left_inverse_with_budget(LEFT_INVERSE_SEARCH_BUDGET)
    }

    /// [`Layout::left_inverse`] with the exact search bounded by `units`
    /// work units instead of
    /// [`LEFT_INVERSE_SEARCH_BUDGET`]
    /// (the search's first pass keeps its own 2^16 on top; `units ≤ 0` leaves
    /// only the closed forms and that pass). The answer never depends on the
    /// budget, only whether there is one: a larger budget turns some
    /// [`Error::BudgetExceeded`] into a layout or a refusal, at a cost
    /// roughly linear in the units spent (1–4 ms per 2^18 units in a
    /// release build). On random rank-2 layouts with extents and strides in
    /// the hundreds, 2^26 units decided every one of 3,900 drawn
    /// (`docs/algebra.md` §7.1, *A budget chosen by the caller*).
    ///
    /// # Errors
    /// As [`Layout::left_inverse`], `BudgetExceeded` naming `units`.
    ///
    /// ```
    /// use hlayout::{Error, Layout};
    /// let l: Layout = "(64,35):(100,3)".parse().unwrap();
    /// // Too few units to decide, then enough to refuse.
    /// let err = l.left_inverse_with_budget(100).unwrap_err();
    /// assert!(matches!(err, Error::BudgetExceeded { budget: 100, .. }));
    /// assert!(matches!(l.left_inverse_with_budget(1 << 20), Err(Error::Precondition { .. })));
    /// // The closed forms need no budget.
    /// let g: Layout = "(2,2):(3,1)".parse().unwrap();
    /// assert_eq!(g.left_inverse_with_budget(0).unwrap().to_string(), "(2,3):(2,1)");
    /// ```
    pub fn left_inverse_with_budget(&self, units: i64) -> Result<Layout> {
        let (s, d) = (self.shape_leaves(), self.stride_leaves());
        let refuse = |rule: String| Error::Precondition {
            op: "left_inverse",
            layout: self.to_string(),
            rule,
        };
        if tiles_mixed_radix(s, d) {
            if let Some(r) = self.mixed_radix_left_inverse()? {
                return Ok(r);
            }
        }
        if let Some(r) = chain_left_inverse(s, d)? {
            return Ok(r);
        }
        match search_left_inverse(s, d, &index_strides(s), units)? {
            Found::Inverse(r) => Ok(r),
            Found::Refuted(rule) => Err(refuse(rule)),
        }
    }

    /// `right_inverse((complement(L), L))`, or `None` when that layout's size
    /// or span leaves `i64` (the pair spans more than L: a smaller left
    /// inverse may still exist, which the other constructions look for).
    fn mixed_radix_left_inverse(&self) -> Result<Option<Layout>> {
        let c = complement_layout(self, 1, true)?;
        let mut shape = Ints::from_slice(c.shape_leaves());
        let mut stride = Ints::from_slice(c.stride_leaves());
        shape.extend_from_slice(self.shape_leaves());
        stride.extend_from_slice(self.stride_leaves());
        let (rs, rd) = right_inverse_leaves(&shape, &stride);
        let profile = match rs.len() {
            1 => Profile::leaf(),
            n => Profile::flat(n),
        };
        match Layout::from_leaves(profile, rs, rd) {
            Ok(r) => Ok(Some(r)),
            Err(Error::Overflow { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The nullspace: an injective layout `N` over L's zero-stride leaves with
    /// `L(N(i)) = 0` for every `i < size(N)` (`1:0` when there are none).
    ///
    /// ```
    /// use hlayout::Layout;
    /// let l: Layout = "(3,4,2):(0,1,0)".parse().unwrap();
    /// let n = l.nullspace();
    /// assert_eq!(n.to_string(), "(3,2):(8,1)");
    /// assert!((0..n.size()).all(|i| l.eval(n.eval(i).unwrap()).unwrap() == 0));
    /// ```
    pub fn nullspace(&self) -> Layout {
        let (s, d) = (self.shape_leaves(), self.stride_leaves());
        let index = index_strides(s);
        let (mut shape, mut stride) = (Ints::new(), Ints::new());
        for k in (0..s.len()).filter(|&k| s[k] > 1 && d[k] == 0) {
            shape.push(s[k]);
            stride.push(index[k]);
        }
        if shape.is_empty() {
            return flat_layout(SmallVec::from_slice(&[1]), SmallVec::from_slice(&[0]));
        }
        flat_layout(shape, stride)
    }
}

/// Row-major index strides (suffix products) of flat extents.
pub(super) fn index_strides(shape: &[i64]) -> Ints {
    let mut out: Ints = SmallVec::from_elem(1, shape.len());
    for k in (0..shape.len().saturating_sub(1)).rev() {
        out[k] = out[k + 1] * shape[k + 1]; // ≤ size
    }
    out
}

/// Whether the nontrivial leaves (strides ≥ 1), sorted by stride, tile a mixed
/// radix: each stride a multiple of the span `s·d` covered below it (the
/// condition of the exact complement, checked without building its error).
/// O(n log n), no allocation for ≤ 8 leaves.
fn tiles_mixed_radix(s: &[i64], d: &[i64]) -> bool {
    let mut sorted: SmallVec<[(i64, i64); 8]> = (0..s.len())
        .filter(|&k| s[k] > 1 && d[k] != 0)
        .map(|k| (d[k], s[k]))
        .collect();
    sorted.sort_unstable();
    let mut covered = 1i64;
    for (dk, sk) in sorted {
        if dk < covered || dk % covered != 0 {
            return false;
        }
        let Some(next) = sk.checked_mul(dk) else {
            return false;
        };
        covered = next;
    }
    true
}

/// The left inverse of flat leaves whose nontrivial leaves, sorted by stride
/// `d₁ < … < dₙ`, satisfy `d₁ ≥ 1`, `dₖ | dₖ₊₁` and `dₖ₊₁ ≥ dₖ·sₖ`; `None`
/// otherwise. Fastest first, R has the leaves `d₁ : 0`, `dₖ₊₁/dₖ : ιₖ` and
/// the head `sₙ : ιₙ` (coalesced), so digit k of `x / d₁` is L's coordinate
/// `cₖ` whenever `x = Σ cₖ·dₖ`. O(n log n).
fn chain_left_inverse(s: &[i64], d: &[i64]) -> Result<Option<Layout>> {
    let index = index_strides(s);
    let mut sorted: SmallVec<[(i64, i64, i64); 8]> = (0..s.len())
        .filter(|&k| s[k] > 1 && d[k] != 0)
        .map(|k| (d[k], s[k], index[k]))
        .collect();
    sorted.sort_unstable();
    let (Some(&(d1, ..)), Some(&(_, sn, i_n))) = (sorted.first(), sorted.last()) else {
        return Ok(None);
    };
    if d1 < 1 {
        return Ok(None);
    }
    let mut leaves: SmallVec<[(i64, i64); 9]> = SmallVec::new();
    push_coalesced(&mut leaves, d1, 0);
    for w in sorted.windows(2) {
        let ((dk, sk, ik), (dn, ..)) = (w[0], w[1]);
        if dn % dk != 0 || dn / dk < sk {
            return Ok(None);
        }
        push_coalesced(&mut leaves, dn / dk, ik);
    }
    push_coalesced(&mut leaves, sn, i_n);
    let shape: Ints = leaves.iter().rev().map(|t| t.0).collect();
    let stride: Ints = leaves.iter().rev().map(|t| t.1).collect();
    let profile = match shape.len() {
        1 => Profile::leaf(),
        n => Profile::flat(n),
    };
    Layout::from_leaves(profile, shape, stride).map(Some)
}

/// Right-inverse leaves (row-major, coalesced) of flat leaves. Extent-1
/// leaves are dropped first (they never take part in the chain). No
/// allocation for ≤ 8 leaves.
fn right_inverse_leaves(shape: &[i64], stride: &[i64]) -> (Ints, Ints) {
    let n = shape.len();
    let mut links: SmallVec<[(i64, i64, i64); 8]> = SmallVec::from_elem((0, 0, 0), n);
    let (mut s, mut d): (Ints, Ints) = (
        SmallVec::from_elem(0, n.max(1)),
        SmallVec::from_elem(0, n.max(1)),
    );
    let (m, _) = right_inverse_into(shape, stride, &mut links, &mut s, &mut d);
    s.truncate(m);
    d.truncate(m);
    (s, d)
}

/// CuTe's right inverse of flat leaves: its leaves (row-major, coalesced;
/// `1:0` when L has no stride 1) written to the front of `out_s`/`out_d`
/// (room for `max(1, leaves)`), with their count and R's size. `links` is
/// scratch for the leaves of extent > 1 as (stride, extent, index stride),
/// sorted (by insertion up to 8 of them, cheaper than the library sort's
/// set-up; the order is total, so any sort gives CuTe's). The chain starts at `next = 1`; each link is the first leaf of
/// stride `next`, and the next link is `extent·stride`. Leaves off the chain
/// (stride 0, negative, or a repeat) are skipped, as CuTe does: their
/// coordinate stays 0; strides only grow along the sorted order, so once one
/// passes `next` no later leaf joins. R's size is the last link: the product
/// of the extents taken, a product of some of L's. O(n log n).
fn right_inverse_into(
    shape: &[i64],
    stride: &[i64],
    links: &mut [(i64, i64, i64)],
    out_s: &mut [i64],
    out_d: &mut [i64],
) -> (usize, i64) {
    let (mut k, mut index) = (0usize, 1i64);
    for (&s, &d) in shape.iter().zip(stride).rev() {
        if s > 1 {
            links[k] = (d, s, index);
            k += 1;
        }
        // At most the size for a valid layout; past i64 only for the pair of
        // mixed_radix_left_inverse, whose R then fails validation.
        index = index.saturating_mul(s);
    }
    let links = &mut links[..k];
    if k > 8 {
        links.sort_unstable();
    } else {
        for i in 1..k {
            let mut j = i;
            while j > 0 && links[j - 1] > links[j] {
                links.swap(j - 1, j);
                j -= 1;
            }
        }
    }
    // R's leaves fastest first, coalesced as they come (`push_coalesced`).
    let (mut m, mut next) = (0usize, 1i64);
    for &(d, s, i) in links.iter() {
        if d > next {
            break;
        }
        if d != next {
            continue;
        }
        let merges = m > 0
            && out_s[m - 1].checked_mul(out_d[m - 1]) == Some(i)
            && out_s[m - 1].checked_mul(s).is_some();
        if merges {
            out_s[m - 1] *= s;
        } else {
            (out_s[m], out_d[m]) = (s, i);
            m += 1;
        }
        next = s.saturating_mul(d);
    }
    if m == 0 {
        (out_s[0], out_d[0]) = (1, 0);
        return (1, 1);
    }
    out_s[..m].reverse();
    out_d[..m].reverse();
    (m, next)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// The chain as first written: a library sort, then the walk, pushing
    /// through `push_coalesced` (the reference for the in-place version).
    fn reference(shape: &[i64], stride: &[i64]) -> (Vec<i64>, Vec<i64>) {
        let mut sorted = Vec::new();
        let mut index = 1i64;
        for (&s, &d) in shape.iter().zip(stride).rev() {
            if s > 1 {
                sorted.push((d, s, index));
            }
            index *= s;
        }
        sorted.sort_unstable();
        let mut taken: SmallVec<[(i64, i64); 9]> = SmallVec::new();
        let mut next = 1i64;
        for &(d, s, i) in &sorted {
            if d > next {
                break;
            }
            if d == next {
                push_coalesced(&mut taken, s, i);
                next = s.saturating_mul(d);
            }
        }
        if taken.is_empty() {
            return (vec![1], vec![0]);
        }
        (
            taken.iter().rev().map(|t| t.0).collect(),
            taken.iter().rev().map(|t| t.1).collect(),
        )
    }

    proptest! {
        /// Invariant: the in-place chain equals the reference, leaves and
        /// size / Witness: up to 12 leaves (the sorted path past 8), strides
        /// drawn from a small set so that chains, repeats and gaps all occur.
        #[test]
        fn right_inverse_matches_reference(
            leaves in prop::collection::vec((1i64..=4, prop::sample::select(vec![-2i64, 0, 1, 2, 3, 4, 6, 8, 12, 16, 24])), 0..=12),
        ) {
            let (s, d): (Vec<i64>, Vec<i64>) = leaves.into_iter().unzip();
            let (want_s, want_d) = reference(&s, &d);
            let (got_s, got_d) = right_inverse_leaves(&s, &d);
            prop_assert_eq!((&got_s[..], &got_d[..]), (&want_s[..], &want_d[..]));
            if let Ok(l) = Layout::flat(&s, &d) {
                let r = l.right_inverse();
                prop_assert_eq!((r.shape_leaves(), r.stride_leaves()), (&want_s[..], &want_d[..]));
                prop_assert_eq!(r.size(), want_s.iter().product::<i64>());
            }
        }
    }
}
