//! The flat fit: the composed map is one flat view with a box mask exactly
//! when this finds one (its box from the first and last valid elements,
//! corners checked first, then every element).

use smallvec::SmallVec;

use super::evaluated::{flat_index, samples, stream, valid, Composed};
use crate::layout::FlatView;
use crate::num::Ints;

/// A flat view with a box mask over the upper view's leaves, as fitted.
pub(super) struct FlatFit {
    lo: Ints,
    hi: Ints,
    strides: Ints,
    offset: i64,
}

impl FlatFit {
    /// Its value at leaf coordinates `c`: `Some(None)` outside the box,
    /// `None` on overflow.
    pub(super) fn at(&self, c: &[i64]) -> Option<Option<i64>> {
        let inside = c
            .iter()
            .zip(self.lo.iter().zip(&self.hi))
            .all(|(x, (l, h))| l <= x && x <= h);
        if !inside {
            return Some(None);
        }
        let sum = c
            .iter()
            .zip(&self.strides)
            .try_fold(self.offset, |acc, (&x, &s)| {
                acc.checked_add(x.checked_mul(s)?)
            })?;
        Some(Some(sum))
    }
}

impl FlatFit {
    /// The row-major indices (over `shape`) of the box's corners, at most
    /// 2^[`MAX_CORNER_AXES`] of them (the other axes at their low end).
    pub(super) fn corners<'s>(&'s self, shape: &'s [i64]) -> impl Iterator<Item = i64> + 's {
        let axes = self.lo.len().min(MAX_CORNER_AXES);
        (0u32..1 << axes).filter_map(move |mask| {
            let corner: Ints = (0..self.lo.len())
                .map(|d| {
                    let high = d < axes && mask >> d & 1 == 1;
                    if high {
                        self.hi[d]
                    } else {
                        self.lo[d]
                    }
                })
                .collect();
            flat_index(&corner, shape)
        })
    }
}

/// Axes whose both ends [`FlatFit::corners`] visits.
pub(super) const MAX_CORNER_AXES: usize = 8;

/// The one flat view (box mask) over the upper view's leaves equal to
/// `lower ∘ upper`, if any. If the valid set is a box, its corners are the
/// first and last valid elements in row-major order, and the differences along
/// each axis from the first corner are the only candidate strides; the
/// candidate is checked at the box's corners and [`SAMPLES`] pseudo-random
/// elements, then at every
/// element in row-major order (streamed), stopping at the first disagreement.
/// O(size · (leaves(upper) + leaves(lower))) at worst, no heap for ≤ 8 leaves.
pub(super) fn fit_flat(f: &mut Composed) -> Option<FlatView> {
    let upper = f.upper;
    let shape = &upper.ext[..];
    let n = upper.size();
    let Some(first) = upper
        .offsets()
        .position(|idx| f.through_lower(idx).is_some())
    else {
        let rank = shape.len();
        return Some(FlatView::from_trusted(
            shape.to_vec(),
            vec![0; rank],
            0,
            Some(vec![(0, 0); rank]),
        ));
    };
    let first = i64::try_from(first).ok()?;
    let last = (first..n).rev().find(|&i| f.at(i).is_some())?;
    let (lo, hi) = (unravel_leaves(first, shape), unravel_leaves(last, shape));
    if lo.iter().zip(&hi).any(|(l, h)| l > h) {
        return None;
    }
    let base = f.at(first)?;
    let mut strides: Ints = SmallVec::from_elem(0, shape.len());
    let mut place = 1i64;
    for d in (0..shape.len()).rev() {
        if hi[d] > lo[d] {
            strides[d] = f.at(first.checked_add(place)?)?.checked_sub(base)?;
        }
        place = place.checked_mul(shape[d])?;
    }
    let shift = lo
        .iter()
        .zip(&strides)
        .try_fold(0i64, |acc, (&l, &s)| acc.checked_add(l.checked_mul(s)?))?;
    let fit = FlatFit {
        offset: base.checked_sub(shift)?,
        lo,
        hi,
        strides,
    };
    let mut agrees = |i: i64| Some(f.at(i)) == fit.at(&unravel_leaves(i, shape));
    let sampled = fit.corners(shape).all(&mut agrees) && samples(n).all(&mut agrees);
    if !sampled || !fits_everywhere(f, &fit) {
        return None;
    }
    let full =
        fit.lo.iter().all(|&l| l == 0) && fit.hi.iter().zip(shape).all(|(&h, &s)| h == s - 1);
    let mask = (!full).then(|| {
        fit.lo
            .iter()
            .zip(&fit.hi)
            .map(|(&l, &h)| (l, h + 1))
            .collect()
    });
    Some(FlatView::from_trusted(
        shape.to_vec(),
        fit.strides.to_vec(),
        fit.offset,
        mask,
    ))
}

/// Whether `fit` equals the composition at every element (the upper view's
/// indices filled into one buffer, an odometer over its leaves); stops at the
/// first disagreement. O(size · (leaves(upper) + leaves(lower))).
pub(super) fn fits_everywhere(f: &mut Composed, fit: &FlatFit) -> bool {
    let upper = f.upper;
    let Some(indices) = stream(upper) else {
        return false;
    };
    let mut c: Ints = SmallVec::from_elem(0, upper.ext.len());
    for &idx in &indices {
        if Some(f.through_lower(valid(idx))) != fit.at(&c) {
            return false;
        }
        step(&mut c, &upper.ext);
    }
    true
}

/// Row-major digits of `i` over `shape` (`0 <= i < Π shape`), inline.
pub(super) fn unravel_leaves(mut i: i64, shape: &[i64]) -> Ints {
    let mut c: Ints = SmallVec::from_elem(0, shape.len());
    for (x, &s) in c.iter_mut().zip(shape).rev() {
        *x = i % s;
        i /= s;
    }
    c
}

/// Row-major increment of `c` within `shape`.
pub(super) fn step(c: &mut [i64], shape: &[i64]) {
    for d in (0..c.len()).rev() {
        c[d] += 1;
        if c[d] < shape[d] {
            return;
        }
        c[d] = 0;
    }
}
