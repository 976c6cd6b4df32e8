//! Evaluated checks: `lower ∘ upper` at the upper view's elements without
//! allocating per element (the lower view compiled by [`IndexEvaluator`]), and
//! the comparison of a candidate view with it at sample points or at every
//! element, stopping at the first disagreement.

use smallvec::SmallVec;

use crate::num::Ints;
use crate::view::index::IndexEvaluator;
use crate::view::View;

/// Pseudo-random elements checked before a full evaluated verification.
pub(crate) const SAMPLES: i64 = 32;

/// [`SAMPLES`] indices spread over `[0, n)` by a golden-ratio step.
pub(super) fn samples(n: i64) -> impl Iterator<Item = i64> {
    let step = i128::from(n) * 618_034 / 1_000_000 + 1;
    (0..SAMPLES.min(n)).map(move |k| {
        let i = (i128::from(k) * step) % i128::from(n.max(1));
        i64::try_from(i).unwrap_or(0)
    })
}

/// `lower ∘ upper` evaluated at the upper view's elements, without allocating.
pub(super) struct Composed<'a> {
    lower: &'a View,
    pub(super) upper: &'a View,
    /// The lower view compiled for division-free evaluation, when it fits.
    lower_fast: Option<IndexEvaluator>,
    lower_size: i64,
    lower_digits: Ints,
    upper_digits: Ints,
}

impl<'a> Composed<'a> {
    pub(super) fn new(lower: &'a View, upper: &'a View) -> Composed<'a> {
        Composed {
            lower,
            upper,
            lower_fast: IndexEvaluator::new(lower),
            lower_size: lower.size(),
            lower_digits: SmallVec::from_elem(0, lower.ext.len()),
            upper_digits: SmallVec::from_elem(0, upper.ext.len()),
        }
    }

    /// The lower view at index `idx` of its shape (`None` outside it or
    /// where invalid). O(leaves(lower) · (1 + constraints)).
    pub(super) fn through_lower(&mut self, idx: Option<i64>) -> Option<i64> {
        let idx = idx.filter(|i| (0..self.lower_size).contains(i))?;
        match &self.lower_fast {
            Some(fast) => fast.eval(idx),
            None => self.lower.eval_index(idx, &mut self.lower_digits),
        }
    }

    /// The composition at the upper view's element `i` (row-major).
    pub(super) fn at(&mut self, i: i64) -> Option<i64> {
        let idx = self.upper.eval_index(i, &mut self.upper_digits);
        self.through_lower(idx)
    }

    /// Whether `candidate` (of the upper view's shape) equals the composition
    /// at each of the row-major indices `points`.
    pub(super) fn agrees_at(
        &mut self,
        candidate: &View,
        points: impl Iterator<Item = i64>,
    ) -> bool {
        let mut digits: Ints = SmallVec::from_elem(0, candidate.ext.len());
        let n = self.upper.size();
        points
            .filter(|i| (0..n).contains(i))
            .all(|i| self.at(i) == candidate.eval_index(i, &mut digits))
    }

    /// Whether `candidate` equals the composition at every element: both
    /// offset streams filled ([`View::fill_offsets`]) and compared side by
    /// side, the lower view evaluated at each index; stops at the first
    /// disagreement. O(size(upper) · leaves(lower)); two buffers of
    /// size(upper) entries (at most [`MAX_EVALUATED_MERGE`]).
    pub(super) fn agrees_everywhere(&mut self, candidate: &View) -> bool {
        let (Some(indices), Some(wanted)) = (stream(self.upper), stream(candidate)) else {
            return false;
        };
        indices
            .iter()
            .zip(&wanted)
            .all(|(&idx, &want)| self.through_lower(valid(idx)) == valid(want))
    }
}

/// Marks invalid elements in a filled stream. No offset of a view equals it:
/// the span check keeps every offset's magnitude at most `i64::MAX`.
pub(super) const INVALID: i64 = i64::MIN;

/// Every element's offset in row-major order, [`INVALID`] where invalid;
/// `None` when the size does not fit `usize`. O(size).
pub(super) fn stream(v: &View) -> Option<Vec<i64>> {
    let mut out = vec![0; usize::try_from(v.size()).ok()?];
    v.fill_offsets(&mut out, INVALID);
    Some(out)
}

/// A filled stream's entry as an offset, `None` where invalid.
pub(super) fn valid(x: i64) -> Option<i64> {
    (x != INVALID).then_some(x)
}

/// The row-major index of leaf coordinates `y` over `extents`.
pub(super) fn flat_index(y: &[i64], extents: &[i64]) -> Option<i64> {
    y.iter()
        .zip(extents)
        .try_fold(0i64, |acc, (&c, &e)| acc.checked_mul(e)?.checked_add(c))
}
