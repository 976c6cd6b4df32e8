//! `complement`: the ordered layout that fills the gaps of an injective one.
//!
//! CuTe's complement, mirrored into row-major order, extended to negative
//! strides by `complement(L, M) := complement(|L|, M)` (every stride replaced
//! by its absolute value: a leaf `s:d` with `d < 0` has the image
//! `(s−1)·d + {0, |d|, …, (s−1)·|d|}`, so L's image is `|L|`'s shifted by
//! `min L`). The leaves of `|L|` with
//! extent > 1 and stride ≠ 0 are sorted by stride (then extent); walking them
//! from the smallest stride with `c` = span covered so far (`c₀ = 1`), each
//! leaf `s:d` contributes the gap leaf `⌊d/c⌋ : c` and sets `c = s·d`; a last
//! leaf `⌈cotarget/c⌉ : c` reaches the cotarget. The gap leaves are placed
//! fastest-last (row-major: the smallest stride is the last leaf) and coalesced.
//!
//! Postconditions (proof in `docs/algebra.md`): `(R, L)` is injective; R is
//! *ordered* (its offsets increase with the index: strides grow towards the
//! slowest leaf); and when every stride is a multiple of the span below it,
//! `(R, L)` covers `[m, m + n)` exactly for some `n ≥ cotarget`, where
//! `m = min L` (0 when no stride is negative). Each gap leaf
//! uses `⌊d/c⌋`, as pycute does, so a stride that is not such a multiple leaves
//! holes but never overlaps. O(n log n) in the leaves, no allocation for ≤ 8.

use smallvec::SmallVec;

use crate::error::{self, Error, Result};
use crate::layout::Layout;
use crate::num::Ints;
use crate::tuple::Profile;

impl Layout {
    /// The complement of `self` up to `cotarget`: the ordered layout `R` filling
    /// the gaps of `self` so that `(R, self)` is injective, and covers an interval
    /// of at least `cotarget` offsets (from `min self`) when each stride is a
    /// multiple of the span below it. A negative stride counts by its absolute
    /// value: the complement of L is that of `|L|`, whose image is L's shifted
    /// (definition and proof: `docs/algebra.md`). O(n log n) in the leaves.
    ///
    /// # Errors
    /// [`Error::Precondition`] when a leaf starts inside the span of the
    /// smaller-stride leaves (CuTe's construction needs each leaf to start
    /// past them); [`Error::Overflow`].
    ///
    /// ```
    /// use hlayout::Layout;
    /// let l: Layout = "(4,2):(4,1)".parse().unwrap();
    /// assert_eq!(l.complement(1).unwrap().to_string(), "2:2");
    /// assert_eq!(l.complement(32).unwrap().to_string(), "(2,2):(16,2)");
    /// assert!("(2,2):(1,1)".parse::<Layout>().unwrap().complement(4).is_err());
    /// // Offsets 0, -4, …, -12 plus 0, 1: the same gaps as (4,2):(4,1).
    /// let flipped: Layout = "(4,2):(-4,1)".parse().unwrap();
    /// assert_eq!(flipped.complement(32).unwrap().to_string(), "(2,2):(16,2)");
    /// ```
    pub fn complement(&self, cotarget: i64) -> Result<Layout> {
        complement_layout(self, cotarget, false)
    }
}

/// Most leaves handled in stack buffers; longer layouts use the heap.
const INLINE: usize = 8;

/// The complement, coalesced. With `exact`, a stride that is not a multiple of
/// the covered span is refused (the pair would have gaps). O(n log n); for
/// ≤ 8 leaves an insertion sort on the stack and no allocation.
pub(crate) fn complement_layout(l: &Layout, cotarget: i64, exact: bool) -> Result<Layout> {
    let (ls, ld) = (l.shape_leaves(), l.stride_leaves());
    if ls.len() > INLINE {
        return complement_heap(l, cotarget, exact);
    }
    let mut sorted = [(0i64, 0i64); INLINE];
    let mut n = 0;
    for pair in ls.iter().zip(ld).filter_map(nontrivial) {
        (sorted[n], n) = (pair, n + 1);
    }
    insertion_sort(&mut sorted[..n]);
    let mut gaps = [(0i64, 0i64); INLINE + 1];
    let count = gap_leaves(l, &sorted[..n], cotarget, exact, &mut gaps[..=n])?;
    gaps_layout(&gaps[..count])
}

/// [`complement_layout`] for more than 8 leaves, in heap buffers.
#[cold]
fn complement_heap(l: &Layout, cotarget: i64, exact: bool) -> Result<Layout> {
    let (ls, ld) = (l.shape_leaves(), l.stride_leaves());
    let mut sorted: Vec<(i64, i64)> = ls.iter().zip(ld).filter_map(nontrivial).collect();
    sorted.sort_unstable();
    let mut gaps = vec![(0i64, 0i64); sorted.len() + 1];
    let count = gap_leaves(l, &sorted, cotarget, exact, &mut gaps)?;
    gaps_layout(&gaps[..count])
}

/// A leaf that takes part in the complement (extent > 1, stride ≠ 0), as
/// `(|stride|, extent)`. A valid layout's span `|d|·(s−1)` fits `i64`, so
/// `d ≠ i64::MIN` whenever `s > 1` (saturating keeps that total anyway).
fn nontrivial((&s, &d): (&i64, &i64)) -> Option<(i64, i64)> {
    (s > 1 && d != 0).then_some((d.saturating_abs(), s))
}

/// Sorts a few pairs in place. O(n²), for n ≤ 8.
fn insertion_sort(v: &mut [(i64, i64)]) {
    for i in 1..v.len() {
        let x = v[i];
        let mut j = i;
        while j > 0 && v[j - 1] > x {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
    }
}

/// The gap leaves of `(stride, extent)` pairs (strides ≥ 1) sorted by stride, fastest first
/// and coalesced, written to `gaps` (room for `sorted.len() + 1`); their count.
fn gap_leaves(
    l: &Layout,
    sorted: &[(i64, i64)],
    cotarget: i64,
    exact: bool,
    gaps: &mut [(i64, i64)],
) -> Result<usize> {
    let refuse = |rule: String| Error::Precondition {
        op: "complement",
        layout: l.to_string(),
        rule,
    };
    let (mut n, mut covered) = (0usize, 1i64);
    for &(d, s) in sorted {
        let gap = if covered == 1 { d } else { d / covered };
        if gap == 0 || (exact && gap * covered != d) {
            return Err(refuse(format!(
                "leaf {s}:{d} starts inside the span {covered} of the smaller-stride leaves"
            )));
        }
        n = push_gap(gaps, n, gap, covered);
        covered = error::mul(s, d, "span of complement")?;
    }
    let last = num_integer::Integer::div_ceil(&cotarget, &covered).max(1);
    n = push_gap(gaps, n, last, covered);
    if n == 0 {
        (gaps[0], n) = ((1, 0), 1);
    }
    Ok(n)
}

/// [`push_coalesced`] on a buffer holding `n` leaves; the new count.
fn push_gap(gaps: &mut [(i64, i64)], n: usize, e: i64, c: i64) -> usize {
    if e == 1 {
        return n;
    }
    if n > 0 {
        let prev = &mut gaps[n - 1];
        if prev.0.checked_mul(prev.1) == Some(c) && prev.0.checked_mul(e).is_some() {
            prev.0 *= e;
            return n;
        }
    }
    gaps[n] = (e, c); // an overflowing size is reported when the layout is built
    n + 1
}

/// The row-major layout of gap leaves (fastest first, strides ≥ 0), checking
/// that its size and span fit `i64`. O(leaves).
#[inline(always)]
fn gaps_layout(gaps: &[(i64, i64)]) -> Result<Layout> {
    let (mut size, mut span) = (1i64, 0i64);
    for &(e, c) in gaps {
        size = error::mul(size, e, "size of layout")?;
        let reach = error::mul(c, e - 1, "span of layout offsets")?;
        span = error::add(span, reach, "span of layout offsets")?;
    }
    error::add(span, 1, "cosize of layout")?;
    let (shape, stride): (Ints, Ints) = if gaps.len() <= INLINE {
        let (mut sh, mut st) = ([0i64; INLINE], [0i64; INLINE]);
        for (k, &(e, c)) in gaps.iter().rev().enumerate() {
            (sh[k], st[k]) = (e, c);
        }
        (
            SmallVec::from_buf_and_len(sh, gaps.len()),
            SmallVec::from_buf_and_len(st, gaps.len()),
        )
    } else {
        (
            gaps.iter().rev().map(|g| g.0).collect(),
            gaps.iter().rev().map(|g| g.1).collect(),
        )
    };
    let profile = if shape.len() == 1 {
        Profile::leaf()
    } else {
        Profile::flat(shape.len())
    };
    Ok(Layout::from_trusted_sized(profile, shape, stride, size))
}

/// Appends the next slower leaf `e:c`, merging it into the previous one when
/// `c` continues it, and dropping it when `e = 1`.
pub(crate) fn push_coalesced(out: &mut SmallVec<[(i64, i64); 9]>, e: i64, c: i64) {
    if e == 1 {
        return;
    }
    match out.last_mut() {
        Some(prev) if prev.0.checked_mul(prev.1) == Some(c) && prev.0.checked_mul(e).is_some() => {
            prev.0 *= e;
        }
        _ => out.push((e, c)), // an overflowing size is reported when the layout is built
    }
}

/// A flat layout from row-major leaves (an integer layout for one leaf).
pub(crate) fn flat_layout(shape: Ints, stride: Ints) -> Layout {
    let profile = if shape.len() == 1 {
        Profile::leaf()
    } else {
        Profile::flat(shape.len())
    };
    Layout::from_trusted(profile, shape, stride)
}
