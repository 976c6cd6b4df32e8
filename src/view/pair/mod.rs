//! Merging two adjacent views of a stack into one.
//!
//! The upper view produces row-major indices into the lower view's shape. When
//! both views are plain over their leaves (no window, box constraints), the
//! closed-form decision of [`crate::merge`] answers "one flat view?" exactly at
//! any size. Otherwise two exact means remain, both over the upper view's leaves:
//!
//! - **Affine composition** ([`merge_affine`]): when every coordinate of the
//!   lower view is an affine function of the upper view's leaves, the
//!   composition is one view with affine constraints. The candidate is read off
//!   finite differences; it is accepted at any size when the coordinates'
//!   ranges over the upper box stay inside their radices (no carry: decided
//!   symbolically, `docs/views.md` §5 proves it), and otherwise only after it
//!   is checked at every element (extreme points and pseudo-random samples
//!   first, then the offset streams, stopping at the first disagreement).
//! - **Flat fit** ([`fit_flat`]): the composed map is one flat view with a box
//!   mask exactly when the fit finds one; the result is regrouped into the
//!   upper view's dimensions.
//!
//! Evaluated checks fill the upper view's indices and the candidate's offsets
//! ([`View::fill_offsets`]) and evaluate the lower view at each index with no
//! division ([`IndexEvaluator`], or [`View::eval_index`] past its limits):
//! O(size(upper) · leaves(lower) · (1 + constraints)), about 35 ns per
//! element, so they run only for upper views of at most
//! [`MAX_EVALUATED_MERGE`] elements (about 2.3 ms at worst).

mod affine;
mod evaluated;
mod flat_fit;
#[cfg(test)]
pub(in crate::view) mod tests;

use smallvec::SmallVec;

use super::{Builder, View};
use crate::error::Result;
use crate::layout::FlatView;
use affine::merge_affine;
use evaluated::Composed;
use flat_fit::fit_flat;

/// Largest upper view (in elements) whose merge is decided by evaluation
/// (the symbolic no-carry test of the affine composition has no size limit).
pub(crate) const MAX_EVALUATED_MERGE: i64 = 1 << 16;

/// `lower ∘ upper` as one view over the upper view's leaves, when one with
/// per-leaf boxes or affine constraints exists and is found (exact); `None`
/// also when the upper view is windowed, or when only an evaluated check could
/// decide and the upper view is larger than [`MAX_EVALUATED_MERGE`].
pub(crate) fn merge_pair(lower: &View, upper: &View) -> Result<Option<View>> {
    if let (Some(first), Some(second)) = (leaf_view(lower), leaf_view(upper)) {
        // Both are plain over their leaves: the closed-form decision is exact
        // for "one flat view"; only an affine validity could still do better.
        // Walks as bounded as the evaluated checks below: this runs after
        // every op of a stack, and "undecided" only keeps both views.
        if let Ok(Some(m)) = crate::merge::merge_within(&first, &second, MAX_EVALUATED_MERGE) {
            return regroup_like(upper, &m).map(Some);
        }
        return Ok(merge_affine(lower, upper));
    }
    if upper.has_windows() {
        return Ok(None);
    }
    if let Some(v) = merge_affine(lower, upper) {
        return Ok(Some(v));
    }
    if upper.size() > MAX_EVALUATED_MERGE {
        return Ok(None);
    }
    let Some(merged) = fit_flat(&mut Composed::new(lower, upper)) else {
        return Ok(None);
    };
    Ok(Some(regroup_like(upper, &merged)?))
}

/// A view as a flat view over its leaves, when it has no window and every
/// constraint is a box on one leaf.
fn leaf_view(v: &View) -> Option<FlatView> {
    if v.has_windows() {
        return None;
    }
    let (ext, stride) = (v.ext.to_vec(), v.stride.to_vec());
    if v.bounds.is_empty() {
        return Some(FlatView::from_trusted(ext, stride, v.offset, None));
    }
    let mut mask: Vec<(i64, i64)> = ext.iter().map(|&n| (0, n)).collect();
    if v.is_empty() {
        mask.iter_mut().for_each(|m| *m = (0, 0));
        return Some(FlatView::from_trusted(ext, stride, v.offset, Some(mask)));
    }
    for con in v.constraints() {
        let mut nonzero = con.coeffs().iter().enumerate().filter(|(_, a)| **a != 0);
        let (Some((k, 1)), None) = (nonzero.next(), nonzero.next()) else {
            return None;
        };
        mask[k] = (mask[k].0.max(con.lo()), mask[k].1.min(con.hi()));
    }
    Some(FlatView::from_trusted(ext, stride, v.offset, Some(mask)))
}

/// The flat view over `upper`'s leaves, regrouped into `upper`'s dimensions.
fn regroup_like(upper: &View, merged: &FlatView) -> Result<View> {
    let n = upper.ext.len();
    let bounds = merged
        .mask()
        .map_or_else(SmallVec::new, SmallVec::from_slice);
    let masked = merged.mask().is_some();
    let mut b = Builder::new(bounds, merged.offset());
    for r in upper.dim_ranges() {
        for k in r {
            let unit = (0..n).map(move |j| i64::from(j == k)).filter(|_| masked);
            b.leaf(upper.ext[k], merged.strides()[k], unit);
        }
        b.end_dim(None);
    }
    let mut out = b.finish();
    out.tidy()?;
    Ok(out)
}
