//! Merging two flat views into one, decided exactly and (almost always) in time
//! that does not grow with the number of elements.
//!
//! [`merge`]`(first, second)` composes the views the way tinygrad's `first + second`
//! does: element `u` of `second` (shape `t`) has flat index
//! `x = second.offset + Σ u_j·second.strides_j`, which is unravelled row-major into
//! `first`'s shape and read through `first`. It is valid when `second`'s mask
//! admits `u`, `0 <= x < N` (`N` = `first`'s size: an index outside `first`'s shape
//! addresses nothing) and `first`'s mask admits the unravelled coordinate. The
//! answer is `Some(v)` iff one view `v` over `t` with a per-dimension box mask has
//! the same validity at every element and the same offset at every valid one;
//! `None` means no such view exists. [`merge_explained`] also names the rule that
//! decided ([`Rule`], [`MaskRule`]). `docs/merging.md` has the mathematics.
//!
//! ```
//! use hlayout::{merge, FlatView};
//! // Issue 5's example: the boundary between (5,4) is crossed at every step, so it
//! // always carries once: stride 8.
//! let v1 = FlatView::new(vec![5, 4], vec![9, 1], 0, None).unwrap();
//! let v2 = FlatView::new(vec![3], vec![3], 3, None).unwrap();
//! let v = merge(&v1, &v2).unwrap().unwrap();
//! assert_eq!((v.strides(), v.offset()), (&[8][..], 3));
//! // The Lean formalisation's overflow example: v1 = (10,3,3):(σ1,σ2,σ3), v2 = (6):(4) needs σ1 = 3σ2 as well.
//! let v1 = FlatView::new(vec![10, 3, 3], vec![2 * 2 + 3 * 5, 2, 5], 0, None).unwrap();
//! let v2 = FlatView::new(vec![6], vec![4], 0, None).unwrap();
//! assert_eq!(merge(&v1, &v2).unwrap(), None);
//! ```
//!
//! The pipeline, one file per step: `grid.rs` reduces `second` to positive
//! strides without mask; `masks.rs` finds the valid set and whether it is a box;
//! on that box `crossing.rs` (with the identity of `identity.rs`) decides most
//! cases in O(k·r), `stern_brocot.rs` decides one effective mode in O(k·log Q),
//! and `residue.rs` is the exact fallback. Operands are bounded by [`MAX_SPAN`]:
//! stored values then fit 64 bits and products and sums, taken in `i128`, cannot
//! overflow.

mod crossing;
mod grid;
mod identity;
mod masks;
mod residue;
mod stern_brocot;

use crate::num::floor::narrow;
use crate::num::Ints;

use crate::error::{Error, Result};
use crate::layout::FlatView;

use crossing::Crossing;
use grid::Reduced;
use identity::Digits;
use masks::Valid;

/// Largest size of `first`, and largest span `|offset| + Σ|stride|·(extent − 1)` of
/// either view, that [`merge`] accepts.
pub const MAX_SPAN: i64 = 1 << 56;

/// Most points the decision's last-resort walks visit (the enumeration of a
/// valid set that no closed-form step settled, and the walk of the residue
/// step when residues would cost more), and most cells its residue sets
/// touch. Past it [`merge`] answers
/// [`Error::BudgetExceeded`]: undecided, not
/// refused. At ~10 ns per point that is about 0.2 s.
pub const MAX_WALKED_POINTS: i64 = 1 << 24;

/// The error for a walk of `points` past the walk budget.
fn walk_too_long(points: i128, budget: i64) -> Error {
    Error::BudgetExceeded {
        what: "the merge decision's walk over the grid",
        needed: i64::try_from(points).unwrap_or(i64::MAX),
        budget,
    }
}

/// The rule that decided a merge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rule {
    /// No element is valid (or `second` has none): a fully masked view (none at
    /// rank 0, where no mask can exclude the single element).
    NoValidElement,
    /// The valid elements do not form a box ([`MaskRule`] says how that was shown).
    MaskNotBox,
    /// No active boundary of `first` is bent by `second`'s grid: O(k·r).
    NoCrossing,
    /// Bent boundaries with the same carry pattern cancel: O(k²·r).
    Cancellation,
    /// Every bent boundary pushes the far corner the same way: O(k·r).
    SameSign,
    /// One effective mode, smallest denominator in a non-zero interval of Φ: O(k·log Q).
    SternBrocot,
    /// The one-mode cancellation case: one period scanned, O(min(extent, Q)·k).
    PeriodScan,
    /// A probe point where the composed map leaves the affine one: O(k²·r²).
    Witness,
    /// Residues of the grid modulo the largest bent modulus Q*: O(r²·Q* + r·k·Q*).
    Residue,
    /// Every element of the valid box: O(numel·k).
    Enumeration,
}

/// How the valid set was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MaskRule {
    /// No mask cuts the grid (or nothing needed looking at).
    Full,
    /// Linear bounds propagation: O(rounds·c·r²).
    Propagation,
    /// One propagation per stripe choice, at most 64 choices.
    Stripes,
    /// Corners and short lines show the valid set is not a box: O(2^r + 64·r) points.
    Probe,
    /// Every point of the candidate region: O(volume·k).
    Enumeration,
}

/// A merge decision and the rules behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The merged view, or `None` when none exists.
    pub merged: Option<FlatView>,
    /// The rule that decided.
    pub rule: Rule,
    /// How the valid set was found.
    pub mask_rule: MaskRule,
}

impl Decision {
    /// Whether deciding needed work that grows with the number of elements or a
    /// modulus (period scan, residues, enumeration of points).
    ///
    /// ```
    /// use hlayout::{merge_explained, FlatView};
    /// let v1 = FlatView::contiguous(vec![4, 6]).unwrap();
    /// let v2 = FlatView::new(vec![6, 4], vec![1, 6], 0, None).unwrap();
    /// let d = merge_explained(&v1, &v2).unwrap();
    /// assert!(d.merged.is_some() && !d.enumerated());
    /// ```
    pub fn enumerated(&self) -> bool {
        matches!(
            self.rule,
            Rule::PeriodScan | Rule::Residue | Rule::Enumeration
        ) || self.mask_rule == MaskRule::Enumeration
    }
}

/// The single view equal to `second` read through `first`, or `None` when no
/// single view (with a per-dimension box mask) is.
///
/// # Errors
/// [`Error::Overflow`] when `first`'s size or either view's span exceeds
/// [`MAX_SPAN`], or the merged view's offset leaves `i64`;
/// [`Error::BudgetExceeded`] (undecided) when only a walk over more than
/// [`MAX_WALKED_POINTS`] points, or residue sets of more than that many
/// cells, could settle it.
///
/// ```
/// use hlayout::{merge, FlatView};
/// // A padded 5×8 buffer read as 2×2 windows: the mask drops out.
/// let first = FlatView::new(vec![5, 8], vec![5, 1], -3, Some(vec![(0, 5), (3, 8)])).unwrap();
/// let second = FlatView::new(vec![2, 2], vec![8, 1], 3, None).unwrap();
/// let v = merge(&first, &second).unwrap().unwrap();
/// assert_eq!((v.strides(), v.offset(), v.mask()), (&[5, 1][..], 0, None));
/// ```
pub fn merge(first: &FlatView, second: &FlatView) -> Result<Option<FlatView>> {
    merge_explained(first, second).map(|d| d.merged)
}

/// [`merge`] with its last-resort walks bounded by `walk_budget` points
/// instead of [`MAX_WALKED_POINTS`]: for callers that try a merge as an
/// optimisation, many times per request (a view stack after each op), and
/// take "undecided" as "keep both views".
pub(crate) fn merge_within(
    first: &FlatView,
    second: &FlatView,
    walk_budget: i64,
) -> Result<Option<FlatView>> {
    decide(first, second, walk_budget).map(|d| d.merged)
}

/// [`merge`], and the rules that decided it.
///
/// # Errors
/// As [`merge`].
///
/// ```
/// use hlayout::{merge_explained, FlatView, Rule};
/// let v1 = FlatView::new(vec![10, 9, 4], vec![140, 11, 13], 0, None).unwrap();
/// let v2 = FlatView::new(vec![6], vec![9], 0, None).unwrap();
/// let d = merge_explained(&v1, &v2).unwrap();
/// assert_eq!(d.merged.unwrap().strides(), &[35]); // an "accidental" merge:
/// assert_eq!(d.rule, Rule::Cancellation); // both carries are ⌊m/4⌋, defects ±41
///
/// // The overflow example (Lean formalisation) with s = 4: the first carry pattern that could tell the defects
/// // apart (slope 2/5 between 1/3 and 4/9) needs 5 steps; v2 has 3.
/// let v1 = FlatView::new(vec![10, 3, 3], vec![2 * 2 + 3 * 5, 2, 5], 0, None).unwrap();
/// let v2 = FlatView::new(vec![4], vec![4], 0, None).unwrap();
/// let d = merge_explained(&v1, &v2).unwrap();
/// assert_eq!((d.merged.unwrap().strides(), d.rule), (&[7][..], Rule::SternBrocot));
/// ```
pub fn merge_explained(first: &FlatView, second: &FlatView) -> Result<Decision> {
    decide(first, second, MAX_WALKED_POINTS)
}

/// [`merge_explained`] with walks of at most `budget` points.
fn decide(first: &FlatView, second: &FlatView, budget: i64) -> Result<Decision> {
    check_span(first, second)?;
    let shape = second.shape();
    let decided = |merged, rule, mask_rule| Decision {
        merged,
        rule,
        mask_rule,
    };
    if shape.contains(&0) {
        let any = FlatView::from_trusted(shape.to_vec(), vec![0; shape.len()], 0, None);
        return Ok(decided(Some(any), Rule::NoValidElement, MaskRule::Full));
    }
    let (Some(radix), Some(reduced)) = (Digits::new(first), Reduced::new(second)) else {
        let none = grid::nothing_valid(shape);
        return Ok(decided(none, Rule::NoValidElement, MaskRule::Full));
    };
    let (valid, mask_rule) = masks::valid_region(&radix, &reduced.grid, budget);
    let region = match valid {
        Valid::Empty => {
            let none = grid::nothing_valid(shape);
            return Ok(decided(none, Rule::NoValidElement, mask_rule));
        }
        Valid::NotBox => return Ok(decided(None, Rule::MaskNotBox, mask_rule)),
        Valid::TooLarge(points) => return Err(walk_too_long(points, budget)),
        Valid::All => None,
        Valid::Box(region) => Some(region),
    };
    let grid = &reduced.grid;
    let restricted = region.as_ref().map(|r| grid.restrict(r));
    let sub = restricted.as_ref().map_or(grid, |(sub, _)| sub);
    let (affine, rule) = decide_values(&radix, sub, budget)?;
    if !affine {
        return Ok(decided(None, rule, mask_rule));
    }
    let base = radix.value(sub.offset);
    let step = |&c: &i64| narrow(radix.value(sub.offset + i128::from(c)) - base);
    let tau: Ints = match &restricted {
        None => grid.stride.iter().map(step).collect(),
        Some((sub, kept)) => {
            let mut tau = Ints::from_elem(0, grid.rank());
            for (&q, c) in kept.iter().zip(&sub.stride) {
                tau[q] = step(c);
            }
            tau
        }
    };
    let merged = reduced.view(shape, region.as_ref(), &tau, base)?;
    Ok(decided(Some(merged), rule, mask_rule))
}

/// Whether `first` read along `grid` (every point valid, extents >= 2) is
/// affine, walking at most `budget` points.
fn decide_values(radix: &Digits, grid: &grid::Grid, budget: i64) -> Result<(bool, Rule)> {
    let groups = match crossing::analyse(radix, grid) {
        Crossing::None => return Ok((true, Rule::NoCrossing)),
        Crossing::Cancelled => return Ok((true, Rule::Cancellation)),
        Crossing::Bent(groups) => groups,
    };
    if crossing::same_sign(&groups) {
        return Ok((false, Rule::SameSign));
    }
    match stern_brocot::decide(&groups, grid) {
        Some(stern_brocot::Outcome::Decided(affine)) => return Ok((affine, Rule::SternBrocot)),
        Some(stern_brocot::Outcome::Scanned(affine)) => return Ok((affine, Rule::PeriodScan)),
        None => {}
    }
    if crossing::witness(&groups, grid) {
        return Ok((false, Rule::Witness));
    }
    match residue::decide(&groups, grid, budget) {
        residue::Outcome::Decided(affine, residue::Method::Residues) => Ok((affine, Rule::Residue)),
        residue::Outcome::Decided(affine, residue::Method::Walk) => Ok((affine, Rule::Enumeration)),
        residue::Outcome::TooLarge(residue::Method::Walk, points) => {
            Err(walk_too_long(points, budget))
        }
        residue::Outcome::TooLarge(residue::Method::Residues, cells) => {
            Err(Error::BudgetExceeded {
                what: "the merge decision's residue sets",
                needed: i64::try_from(cells).unwrap_or(i64::MAX),
                budget,
            })
        }
    }
}

/// Rejects operands beyond [`MAX_SPAN`].
fn check_span(first: &FlatView, second: &FlatView) -> Result<()> {
    let limit = i128::from(MAX_SPAN);
    let span = |v: &FlatView| -> i128 {
        v.shape()
            .iter()
            .zip(v.strides())
            .map(|(&s, &st)| i128::from(st).abs() * i128::from((s - 1).max(0)))
            .fold(i128::from(v.offset()).abs(), i128::saturating_add)
    };
    let size = first
        .shape()
        .iter()
        .try_fold(1i128, |a, &s| a.checked_mul(i128::from(s)))
        .unwrap_or(i128::MAX);
    if size > limit || span(first) > limit || span(second) > limit {
        return Err(Error::Overflow {
            what: "merge operands (size or span beyond MAX_SPAN)",
        });
    }
    Ok(())
}
