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

use crate::algebra::coalesce::coalesce_leaves;
use crate::error::{self, Error, Result};
use crate::int_tuple::Profile;
use crate::layout::{Layout, Leaves};

impl Layout {
    /// The complement of `self` up to `cotarget` (see the [module docs](self)).
    ///
    /// # Errors
    /// [`Error::Precondition`] when a stride is negative or a leaf starts inside
    /// the span of the smaller-stride leaves (then no ordered complement makes
    /// the pair injective); [`Error::Overflow`].
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
    let mut sorted: smallvec::SmallVec<[(i64, i64); 8]> = l
        .shape_leaves()
        .iter()
        .zip(l.stride_leaves())
        .filter(|&(&s, &d)| s > 1 && d != 0)
        .map(|(&s, &d)| (d, s))
        .collect();
    sorted.sort_unstable();
    let refuse = |rule: String| Error::Precondition {
        op: "complement",
        layout: l.to_string(),
        rule,
    };
    let (mut shape, mut stride) = (Leaves::new(), Leaves::new());
    let mut covered = 1i64;
    for &(d, s) in &sorted {
        if d < 0 {
            return Err(refuse(format!("stride {d} is negative")));
        }
        if d < covered || (exact && d % covered != 0) {
            return Err(refuse(format!(
                "leaf {s}:{d} starts inside the span {covered} of the smaller-stride leaves"
            )));
        }
        shape.push(d / covered);
        stride.push(covered);
        covered = error::mul(s, d, "span of complement")?;
    }
    shape.push(num_integer::Integer::div_ceil(&cotarget, &covered).max(1));
    stride.push(covered);
    shape.reverse();
    stride.reverse();
    let (shape, stride) = coalesce_leaves(&shape, &stride);
    let profile = if shape.len() == 1 {
        Profile::leaf()
    } else {
        Profile::flat(shape.len())
    };
    Layout::from_leaves(profile, shape, stride)
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
