//! `complement`: the ordered layout that fills the gaps of an injective one.
//!
//! CuTe's complement, mirrored into row-major order. The leaves of `L` with
//! extent > 1 and stride ≠ 0 are sorted by stride (then extent); walking them
//! from the smallest stride with `c` = span covered so far (`c₀ = 1`), each
//! leaf `s:d` contributes the gap leaf `⌊d/c⌋ : c` and sets `c = s·d`; a last
//! leaf `⌈cotarget/c⌉ : c` reaches the cotarget. The gap leaves are placed
//! fastest-last (row-major: the smallest stride is the last leaf) and coalesced.
//!
//! Postconditions (proof in `docs/algebra.md`): `(R, L)` is injective; R is
//! *ordered* (its offsets increase with the index: strides grow towards the
//! slowest leaf); and when every stride is a multiple of the span below it,
//! `(R, L)` covers `[0, n)` exactly for some `n ≥ cotarget`. Each gap leaf
//! uses `⌊d/c⌋`, as pycute does, so a stride that is not such a multiple leaves
//! holes but never overlaps. O(n log n) in the leaves, no allocation for ≤ 8.

use smallvec::SmallVec;

use crate::error::{self, Error, Result};
use crate::int_tuple::Profile;
use crate::layout::{Layout, Leaves};

impl Layout {
    /// The complement of `self` up to `cotarget`: the ordered layout `R` filling
    /// the gaps of `self` so that `(R, self)` is injective, and covers an interval
    /// of at least `cotarget` offsets when each stride is a multiple of the span
    /// below it (definition and proof: `docs/algebra.md`). O(n log n) in the leaves.
    ///
    /// # Errors
    /// [`Error::Precondition`] when a stride is negative or a leaf starts inside
    /// the span of the smaller-stride leaves (CuTe's construction needs each
    /// leaf to start past them); [`Error::Overflow`].
    ///
    /// ```
    /// use hlayout::Layout;
    /// let l: Layout = "(4,2):(4,1)".parse().unwrap();
    /// assert_eq!(l.complement(1).unwrap().to_string(), "2:2");
    /// assert_eq!(l.complement(32).unwrap().to_string(), "(2,2):(16,2)");
    /// assert!("(2,2):(1,1)".parse::<Layout>().unwrap().complement(4).is_err());
    /// ```
    pub fn complement(&self, cotarget: i64) -> Result<Layout> {
        complement_layout(self, cotarget, false)
    }
}

/// The complement, coalesced. With `exact`, a stride that is not a multiple of
/// the covered span is refused (the pair would have gaps).
pub(crate) fn complement_layout(l: &Layout, cotarget: i64, exact: bool) -> Result<Layout> {
    let (ls, ld) = (l.shape_leaves(), l.stride_leaves());
    let mut sorted: SmallVec<[(i64, i64); 8]> = SmallVec::new();
    for (&s, &d) in ls.iter().zip(ld) {
        if s > 1 && d != 0 {
            sorted.push((d, s));
        }
    }
    sorted.sort_unstable();
    let refuse = |rule: String| Error::Precondition {
        op: "complement",
        layout: l.to_string(),
        rule,
    };
    // Gap leaves fastest first, coalesced as they come.
    let mut gaps: SmallVec<[(i64, i64); 9]> = SmallVec::new();
    let mut covered = 1i64;
    for &(d, s) in &sorted {
        if d < 0 {
            return Err(refuse(format!("stride {d} is negative")));
        }
        let gap = if covered == 1 { d } else { d / covered };
        if gap == 0 || (exact && gap * covered != d) {
            return Err(refuse(format!(
                "leaf {s}:{d} starts inside the span {covered} of the smaller-stride leaves"
            )));
        }
        push_coalesced(&mut gaps, gap, covered);
        covered = error::mul(s, d, "span of complement")?;
    }
    let last = num_integer::Integer::div_ceil(&cotarget, &covered).max(1);
    push_coalesced(&mut gaps, last, covered);
    if gaps.is_empty() {
        gaps.push((1, 0));
    }
    let (mut shape, mut stride) = (Leaves::new(), Leaves::new());
    for &(e, c) in gaps.iter().rev() {
        shape.push(e);
        stride.push(c);
    }
    let profile = if shape.len() == 1 {
        Profile::leaf()
    } else {
        Profile::flat(shape.len())
    };
    Layout::from_leaves(profile, shape, stride)
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
pub(crate) fn flat_layout(shape: Leaves, stride: Leaves) -> Layout {
    let profile = if shape.len() == 1 {
        Profile::leaf()
    } else {
        Profile::flat(shape.len())
    };
    Layout::from_trusted(profile, shape, stride)
}
