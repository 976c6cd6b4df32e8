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

use num_integer::Integer;
use smallvec::SmallVec;

use super::index::IndexEvaluator;
use super::{Builder, View};
use crate::error::Result;
use crate::layout::FlatView;
use crate::layout::Leaves;

/// Largest upper view (in elements) whose merge is decided by evaluation
/// (the symbolic no-carry test of the affine composition has no size limit).
pub(crate) const MAX_EVALUATED_MERGE: i64 = 1 << 16;

/// Pseudo-random elements checked before a full evaluated verification.
const SAMPLES: i64 = 32;

/// `lower ∘ upper` as one view over the upper view's leaves, when one with
/// per-leaf boxes or affine constraints exists and is found (exact); `None`
/// also when the upper view is windowed, or when only an evaluated check could
/// decide and the upper view is larger than [`MAX_EVALUATED_MERGE`].
pub(crate) fn merge_pair(lower: &View, upper: &View) -> Result<Option<View>> {
    if let (Some(first), Some(second)) = (leaf_view(lower), leaf_view(upper)) {
        // Both are plain over their leaves: the closed-form decision is exact
        // for "one flat view"; only an affine validity could still do better.
        if let Ok(Some(m)) = crate::merge::merge(&first, &second) {
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

/// The lower view's coordinates: each windowed dimension's read position, then
/// every leaf digit.
type Coords = SmallVec<[i64; 12]>;

/// The lower view's coordinates reached by index `idx` (windowed reads
/// ascending by dimension, then the leaf digits in leaf order). `None` outside
/// its shape or where a read leaves its dimension's leaves. O(leaves), no heap
/// for ≤ 12 coordinates.
fn lower_coords(lower: &View, idx: i64) -> Option<Coords> {
    if !(0..lower.size()).contains(&idx) {
        return None;
    }
    let (n, w) = (lower.ext.len(), lower.windows.len());
    let mut z: Coords = SmallVec::from_elem(0, w + n);
    let (mut rest, mut end, mut read) = (idx, n, w);
    for d in (0..lower.rank()).rev() {
        let start = end - lower.dim_len[d] as usize;
        let mut x = rest;
        let window = lower.window(d);
        if let Some(win) = window {
            x = rest % win.extent + win.start;
            rest /= win.extent;
            if !(0..lower.radix(d)).contains(&x) {
                return None;
            }
            read -= 1;
            z[read] = x;
        }
        for k in (start..end).rev() {
            z[w + k] = x % lower.ext[k];
            x /= lower.ext[k];
        }
        if window.is_none() {
            rest = x;
        }
        end = start;
    }
    Some(z)
}

/// An affine form over the upper view's leaves: `constant + Σ coeffs[ℓ]·y_ℓ`.
struct Affine {
    constant: i64,
    coeffs: SmallVec<[i64; 8]>,
}

/// `Σ_k weight(k)·values[k]`, `None` on overflow.
fn weighted(values: &[i64], weight: &dyn Fn(usize) -> i64) -> Option<i64> {
    values.iter().enumerate().try_fold(0i64, |acc, (k, &z)| {
        acc.checked_add(weight(k).checked_mul(z)?)
    })
}

/// The lower view's coordinates as affine forms in the upper view's leaves,
/// read off finite differences: coordinate `k` is `z0[k] + Σ_ℓ deltas[ℓ][k]·y_ℓ`
/// wherever there is no carry. Exact at the origin and at each unit step.
struct CoordForms {
    z0: Coords,
    deltas: SmallVec<[Coords; 8]>,
}

impl CoordForms {
    /// The forms, `None` when the origin or a unit step leaves the lower view's
    /// shape (or its windows' leaves). O(leaves(upper) · leaves(lower)).
    fn new(lower: &View, upper: &View) -> Option<CoordForms> {
        let z0 = lower_coords(lower, upper.offset)?;
        let mut deltas = SmallVec::new();
        for (&e, &s) in upper.ext.iter().zip(&upper.stride) {
            if e == 1 {
                deltas.push(SmallVec::from_elem(0, z0.len()));
            } else {
                let z = lower_coords(lower, upper.offset.checked_add(s)?)?;
                deltas.push(z.iter().zip(&z0).map(|(a, b)| a - b).collect());
            }
        }
        Some(CoordForms { z0, deltas })
    }

    /// The coordinates weighed by `weight` (one weight per coordinate).
    fn form(&self, weight: &dyn Fn(usize) -> i64) -> Option<Affine> {
        Some(Affine {
            constant: weighted(&self.z0, weight)?,
            coeffs: self
                .deltas
                .iter()
                .map(|d| weighted(d, weight))
                .collect::<Option<_>>()?,
        })
    }

    /// The composition assuming the forms hold everywhere: offsets, `lower`'s
    /// constraints and its windows' valid ranges composed into one view over
    /// `upper`'s leaves. `None` on overflow. O((leaves + constraints)²).
    fn candidate(&self, lower: &View, upper: &View) -> Option<View> {
        let w = lower.windows.len();
        let offset = self.form(&|k| if k < w { 0 } else { lower.stride[k - w] })?;
        let mut rows: SmallVec<[(Affine, (i64, i64)); 4]> = SmallVec::new();
        for c in 0..lower.cons() {
            let f = self.form(&|k| {
                if k < w {
                    0
                } else {
                    lower.leaf_coeffs(k - w)[c]
                }
            })?;
            rows.push((f, lower.bounds[c]));
        }
        for (j, &(_, win)) in lower.windows.iter().enumerate() {
            rows.push((self.form(&|k| i64::from(k == j))?, (win.lo, win.hi)));
        }
        // Over the upper's leaves: its own constraints, then the composed ones.
        let mut bounds = upper.bounds.clone();
        for (f, (lo, hi)) in &rows {
            bounds.push((lo.checked_sub(f.constant)?, hi.checked_sub(f.constant)?));
        }
        let mut b = Builder::new(bounds, lower.offset.checked_add(offset.constant)?);
        for r in upper.dim_ranges() {
            for k in r {
                let own = upper.leaf_coeffs(k).iter().copied();
                b.leaf(
                    upper.ext[k],
                    offset.coeffs[k],
                    own.chain(rows.iter().map(|(f, _)| f.coeffs[k])),
                );
            }
            b.end_dim(None);
        }
        Some(b.finish())
    }

    /// Coordinate `k`'s allowed range (inclusive): a windowed read must stay in
    /// the window's read range, a leaf digit below its leaf's extent.
    fn allowed(lower: &View, k: usize) -> (i64, i64) {
        let w = lower.windows.len();
        if k < w {
            let win = lower.windows[k].1;
            (win.start, win.start + win.extent - 1)
        } else {
            (0, lower.ext[k - w] - 1)
        }
    }

    /// Coordinate `k`'s form's least and greatest value over the leaf ranges
    /// `reach` (inclusive), with the points reaching them; `None` on overflow.
    fn extremes(&self, k: usize, reach: &[(i64, i64)]) -> Option<[(i64, Leaves); 2]> {
        let (mut min, mut max) = (self.z0[k], self.z0[k]);
        let (mut at_min, mut at_max): (Leaves, Leaves) = (Leaves::new(), Leaves::new());
        for (d, &(lo, hi)) in self.deltas.iter().zip(reach) {
            let (a, b) = (d[k].checked_mul(lo)?, d[k].checked_mul(hi)?);
            min = min.checked_add(a.min(b))?;
            max = max.checked_add(a.max(b))?;
            at_min.push(if a <= b { lo } else { hi });
            at_max.push(if a <= b { hi } else { lo });
        }
        Some([(min, at_min), (max, at_max)])
    }

    /// Whether no coordinate carries anywhere in the upper view's box (its
    /// leaves' ranges narrowed by its one-leaf constraints): then the forms are
    /// the true coordinates at every element that can be valid, and the
    /// candidate is exact (`docs/views.md` §5). Also returns the extreme points
    /// of the coordinates that leave their range: the first places to look for
    /// a disagreement. O(coordinates · leaves(upper)).
    fn no_carry(&self, lower: &View, upper: &View) -> (bool, SmallVec<[Leaves; 4]>) {
        let mut suspects = SmallVec::new();
        let Some(reach) = leaf_reach(upper) else {
            return (true, suspects); // no element of the upper view is valid
        };
        let mut exact = true;
        for k in 0..self.z0.len() {
            let (lo, hi) = CoordForms::allowed(lower, k);
            let Some([(min, at_min), (max, at_max)]) = self.extremes(k, &reach) else {
                return (false, suspects);
            };
            if min < lo {
                suspects.push(at_min);
            }
            if max > hi {
                suspects.push(at_max);
            }
            exact &= lo <= min && max <= hi;
        }
        (exact, suspects)
    }
}

/// Each leaf's range (inclusive) over the upper view's box, narrowed by its
/// constraints on that leaf alone; `None` when some range is empty (no element
/// is valid). O(leaves · constraints).
fn leaf_reach(upper: &View) -> Option<SmallVec<[(i64, i64); 8]>> {
    if upper.is_empty() {
        return None;
    }
    let mut reach: Leaves = upper.ext.iter().map(|&e| e - 1).collect();
    let mut low: Leaves = SmallVec::from_elem(0, reach.len());
    for (c, &(lo, hi)) in upper.bounds.iter().enumerate() {
        let coeff = |k: usize| upper.leaf_coeffs(k)[c];
        let mut nonzero = (0..upper.ext.len()).filter(|&k| coeff(k) != 0);
        let (Some(k), None) = (nonzero.next(), nonzero.next()) else {
            continue;
        };
        let a = coeff(k);
        if a > 0 {
            // lo <= a·y < hi  ⇔  ⌈lo/a⌉ <= y <= ⌈hi/a⌉ - 1
            // (⌈hi/a⌉ - 1 only overflows when no y can satisfy it.)
            low[k] = low[k].max(Integer::div_ceil(&lo, &a));
            reach[k] = reach[k].min(Integer::div_ceil(&hi, &a).checked_sub(1)?);
        }
    }
    if low.iter().zip(&reach).any(|(l, h)| l > h) {
        return None;
    }
    Some(low.iter().zip(&reach).map(|(&l, &h)| (l, h)).collect())
}

/// `lower ∘ upper` when every coordinate of `lower` is an affine function of
/// `upper`'s leaf coordinates: offsets, `lower`'s constraints and its windows'
/// valid ranges then all compose into one view with affine constraints.
///
/// The candidate comes from finite differences at the origin. It is accepted
/// when no coordinate carries over the upper box (O(coordinates · leaves), any
/// size); otherwise, for upper views of at most [`MAX_EVALUATED_MERGE`]
/// elements, when it agrees with `lower ∘ upper` at every element: the extreme
/// points of the carrying coordinates and [`SAMPLES`] pseudo-random elements
/// first, then every element in row-major order, stopping at the first
/// disagreement (O(size(upper) · leaves(lower) · (1 + constraints)) at worst,
/// two buffers of size(upper) entries). Exact either way.
fn merge_affine(lower: &View, upper: &View) -> Option<View> {
    let forms = CoordForms::new(lower, upper)?;
    let (exact, suspects) = forms.no_carry(lower, upper);
    if !exact && upper.size() > MAX_EVALUATED_MERGE {
        return None;
    }
    let mut candidate = forms.candidate(lower, upper)?;
    // Canonical form keeps the element map; it also bounds the constraint
    // values and checks the span, so streaming the candidate cannot overflow.
    candidate.tidy().ok()?;
    if exact {
        return Some(candidate);
    }
    let mut composed = Composed::new(lower, upper);
    let points = suspects.iter().filter_map(|y| flat_index(y, &upper.ext));
    let agrees = composed.agrees_at(&candidate, points.chain(samples(upper.size())))
        && composed.agrees_everywhere(&candidate);
    agrees.then_some(candidate)
}

/// The row-major index of leaf coordinates `y` over `extents`.
fn flat_index(y: &[i64], extents: &[i64]) -> Option<i64> {
    y.iter()
        .zip(extents)
        .try_fold(0i64, |acc, (&c, &e)| acc.checked_mul(e)?.checked_add(c))
}

/// [`SAMPLES`] indices spread over `[0, n)` by a golden-ratio step.
fn samples(n: i64) -> impl Iterator<Item = i64> {
    let step = i128::from(n) * 618_034 / 1_000_000 + 1;
    (0..SAMPLES.min(n)).map(move |k| {
        let i = (i128::from(k) * step) % i128::from(n.max(1));
        i64::try_from(i).unwrap_or(0)
    })
}

/// `lower ∘ upper` evaluated at the upper view's elements, without allocating.
struct Composed<'a> {
    lower: &'a View,
    upper: &'a View,
    /// The lower view compiled for division-free evaluation, when it fits.
    lower_fast: Option<IndexEvaluator>,
    lower_size: i64,
    lower_digits: Leaves,
    upper_digits: Leaves,
}

impl<'a> Composed<'a> {
    fn new(lower: &'a View, upper: &'a View) -> Composed<'a> {
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
    fn through_lower(&mut self, idx: Option<i64>) -> Option<i64> {
        let idx = idx.filter(|i| (0..self.lower_size).contains(i))?;
        match &self.lower_fast {
            Some(fast) => fast.eval(idx),
            None => self.lower.eval_index(idx, &mut self.lower_digits),
        }
    }

    /// The composition at the upper view's element `i` (row-major).
    fn at(&mut self, i: i64) -> Option<i64> {
        let idx = self.upper.eval_index(i, &mut self.upper_digits);
        self.through_lower(idx)
    }

    /// Whether `candidate` (of the upper view's shape) equals the composition
    /// at each of the row-major indices `points`.
    fn agrees_at(&mut self, candidate: &View, points: impl Iterator<Item = i64>) -> bool {
        let mut digits: Leaves = SmallVec::from_elem(0, candidate.ext.len());
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
    fn agrees_everywhere(&mut self, candidate: &View) -> bool {
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
const INVALID: i64 = i64::MIN;

/// Every element's offset in row-major order, [`INVALID`] where invalid;
/// `None` when the size does not fit `usize`. O(size).
fn stream(v: &View) -> Option<Vec<i64>> {
    let mut out = vec![0; usize::try_from(v.size()).ok()?];
    v.fill_offsets(&mut out, INVALID);
    Some(out)
}

/// A filled stream's entry as an offset, `None` where invalid.
fn valid(x: i64) -> Option<i64> {
    (x != INVALID).then_some(x)
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

/// A flat view with a box mask over the upper view's leaves, as fitted.
struct FlatFit {
    lo: Leaves,
    hi: Leaves,
    strides: Leaves,
    offset: i64,
}

impl FlatFit {
    /// Its value at leaf coordinates `c`: `Some(None)` outside the box,
    /// `None` on overflow.
    fn at(&self, c: &[i64]) -> Option<Option<i64>> {
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
    fn corners<'s>(&'s self, shape: &'s [i64]) -> impl Iterator<Item = i64> + 's {
        let axes = self.lo.len().min(MAX_CORNER_AXES);
        (0u32..1 << axes).filter_map(move |mask| {
            let corner: Leaves = (0..self.lo.len())
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
const MAX_CORNER_AXES: usize = 8;

/// The one flat view (box mask) over the upper view's leaves equal to
/// `lower ∘ upper`, if any. If the valid set is a box, its corners are the
/// first and last valid elements in row-major order, and the differences along
/// each axis from the first corner are the only candidate strides; the
/// candidate is checked at the box's corners and [`SAMPLES`] pseudo-random
/// elements, then at every
/// element in row-major order (streamed), stopping at the first disagreement.
/// O(size · (leaves(upper) + leaves(lower))) at worst, no heap for ≤ 8 leaves.
fn fit_flat(f: &mut Composed) -> Option<FlatView> {
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
    let mut strides: Leaves = SmallVec::from_elem(0, shape.len());
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
fn fits_everywhere(f: &mut Composed, fit: &FlatFit) -> bool {
    let upper = f.upper;
    let Some(indices) = stream(upper) else {
        return false;
    };
    let mut c: Leaves = SmallVec::from_elem(0, upper.ext.len());
    for &idx in &indices {
        if Some(f.through_lower(valid(idx))) != fit.at(&c) {
            return false;
        }
        step(&mut c, &upper.ext);
    }
    true
}

/// Row-major digits of `i` over `shape` (`0 <= i < Π shape`), inline.
fn unravel_leaves(mut i: i64, shape: &[i64]) -> Leaves {
    let mut c: Leaves = SmallVec::from_elem(0, shape.len());
    for (x, &s) in c.iter_mut().zip(shape).rev() {
        *x = i % s;
        i /= s;
    }
    c
}

/// Row-major increment of `c` within `shape`.
fn step(c: &mut [i64], shape: &[i64]) {
    for d in (0..c.len()).rev() {
        c[d] += 1;
        if c[d] < shape[d] {
            return;
        }
        c[d] = 0;
    }
}

#[cfg(test)]
mod tests {
    //! Two exact answers to one question must agree: the evaluated flat fit
    //! and the closed-form merge decision on plain views; and on random pairs
    //! of views (constraints, windows, flips, broadcasts, pooling windows),
    //! every merge equals the composition at every element and is found
    //! wherever the former element-by-element verifier ([`old`]) found one.
    #![allow(clippy::unwrap_used)]

    use proptest::prelude::*;

    use super::*;
    use crate::view::{unravel, ViewStack};

    fn flat(max_rank: usize) -> impl Strategy<Value = FlatView> {
        prop::collection::vec(
            (1i64..=4, -3i64..=8, any::<bool>(), 0i64..4, 0i64..4),
            1..=max_rank,
        )
        .prop_flat_map(|dims| (Just(dims), -4i64..12, any::<bool>()))
        .prop_map(|(dims, offset, masked)| {
            let shape: Vec<i64> = dims.iter().map(|d| d.0).collect();
            let strides = dims.iter().map(|d| d.1).collect();
            let mask = masked.then(|| {
                dims.iter()
                    .map(|&(s, _, cut, a, b)| {
                        if cut {
                            (a.min(s), (a + b).min(s))
                        } else {
                            (0, s)
                        }
                    })
                    .collect()
            });
            FlatView::new(shape, strides, offset, mask).unwrap()
        })
    }

    /// The merge paths as they were before streaming and the no-carry test:
    /// every element evaluated through `eval`, `unravel` and `eval_leaves`.
    mod old {
        use super::super::*;
        use crate::view::unravel;

        pub(super) fn merge_pair(lower: &View, upper: &View) -> Option<View> {
            if let (Some(first), Some(second)) = (leaf_view(lower), leaf_view(upper)) {
                if let Ok(Some(m)) = crate::merge::merge(&first, &second) {
                    return Some(regroup_like(upper, &m).unwrap());
                }
                if upper.size() > MAX_EVALUATED_MERGE {
                    return None;
                }
                return merge_affine(lower, upper);
            }
            if upper.has_windows() || upper.size() > MAX_EVALUATED_MERGE {
                return None;
            }
            if let Some(v) = merge_affine(lower, upper) {
                return Some(v);
            }
            let below = lower.shape();
            let below_size: i64 = below.iter().product();
            let composed = |x: &[i64]| match upper.eval_leaves(x) {
                Some(i) if (0..below_size).contains(&i) => lower.eval(&unravel(i, &below)).unwrap(),
                _ => None,
            };
            fit_flat(&upper.ext, composed).map(|m| regroup_like(upper, &m).unwrap())
        }

        fn merge_affine(lower: &View, upper: &View) -> Option<View> {
            let forms = CoordForms::new(lower, upper)?;
            let mut candidate = forms.candidate(lower, upper)?;
            let extents = &upper.ext;
            let below = lower.shape();
            let below_size: i64 = below.iter().product();
            let mut y = vec![0i64; extents.len()];
            for _ in 0..extents.iter().product::<i64>() {
                let truth = match upper.eval_leaves(&y) {
                    Some(idx) if (0..below_size).contains(&idx) => {
                        lower.eval(&unravel(idx, &below)).unwrap()
                    }
                    _ => None,
                };
                if candidate.eval_leaves(&y) != truth {
                    return None;
                }
                step(&mut y, extents);
            }
            candidate.tidy().unwrap();
            Some(candidate)
        }

        /// Bounding box of the valid set, strides from its corner, every element verified.
        pub(super) fn fit_flat(
            shape: &[i64],
            f: impl Fn(&[i64]) -> Option<i64>,
        ) -> Option<FlatView> {
            let shape = shape.to_vec();
            let n: i64 = shape.iter().product();
            let rank = shape.len();
            let (mut lo, mut hi) = (shape.clone(), vec![-1; rank]);
            let mut count = 0i64;
            let mut c = vec![0i64; rank];
            for _ in 0..n {
                if f(&c).is_some() {
                    count += 1;
                    for d in 0..rank {
                        lo[d] = lo[d].min(c[d]);
                        hi[d] = hi[d].max(c[d]);
                    }
                }
                step(&mut c, &shape);
            }
            if count == 0 {
                let zeros = vec![0; rank];
                return Some(FlatView::from_trusted(
                    shape,
                    zeros,
                    0,
                    Some(vec![(0, 0); rank]),
                ));
            }
            let volume: i64 = lo.iter().zip(&hi).map(|(l, h)| h - l + 1).product();
            if volume != count {
                return None;
            }
            let base = f(&lo).unwrap_or(0);
            let mut strides = vec![0i64; rank];
            for d in 0..rank {
                if hi[d] > lo[d] {
                    let mut e = lo.clone();
                    e[d] += 1;
                    strides[d] = f(&e).unwrap_or(0) - base;
                }
            }
            let offset = base - lo.iter().zip(&strides).map(|(l, s)| l * s).sum::<i64>();
            c.iter_mut().for_each(|x| *x = 0);
            for _ in 0..n {
                if let Some(o) = f(&c) {
                    if offset + c.iter().zip(&strides).map(|(x, s)| x * s).sum::<i64>() != o {
                        return None;
                    }
                }
                step(&mut c, &shape);
            }
            let full =
                lo.iter().all(|&l| l == 0) && hi.iter().zip(&shape).all(|(&h, &s)| h == s - 1);
            let mask = (!full).then(|| lo.iter().zip(&hi).map(|(&l, &h)| (l, h + 1)).collect());
            Some(FlatView::from_trusted(shape, strides, offset, mask))
        }
    }

    /// `lower ∘ upper` at every element of the upper view, row-major, by the
    /// public evaluation of each view.
    fn composition(lower: &View, upper: &View) -> Vec<Option<i64>> {
        let (below, shape) = (lower.shape(), upper.shape());
        (0..upper.size())
            .map(|i| match upper.eval(&unravel(i, &shape)).unwrap() {
                Some(idx) if (0..lower.size()).contains(&idx) => {
                    lower.eval(&unravel(idx, &below)).unwrap()
                }
                _ => None,
            })
            .collect()
    }

    fn every_element(v: &View) -> Vec<Option<i64>> {
        let shape = v.shape();
        (0..v.size())
            .map(|i| v.eval(&unravel(i, &shape)).unwrap())
            .collect()
    }

    /// One movement op with arguments valid for `shape`, drawn from `words`.
    fn random_op(t: ViewStack, words: &mut impl Iterator<Item = u32>) -> ViewStack {
        let mut below = |n: i64| i64::from(words.next().unwrap_or(0)) % n.max(1);
        let shape = t.shape();
        let size: i64 = shape.iter().product();
        let applied = match below(7) {
            0 => {
                let rank = 1 + below(4) as usize;
                let mut out = vec![1i64; rank];
                let (mut n, mut d) = (size, 2);
                while n > 1 {
                    while n % d == 0 {
                        out[below(rank as i64) as usize] *= d;
                        n /= d;
                    }
                    d += 1;
                }
                t.reshape(&out)
            }
            1 => {
                let mut p: Vec<usize> = (0..shape.len()).collect();
                for k in (1..p.len()).rev() {
                    p.swap(k, below(k as i64 + 1) as usize);
                }
                t.permute(&p)
            }
            2 => {
                let to: Vec<i64> = shape
                    .iter()
                    .map(|&s| if s == 1 { 1 + below(3) } else { s })
                    .collect();
                t.expand(&to)
            }
            3 if size <= 200 => {
                let arg: Vec<_> = shape.iter().map(|_| (below(3), below(3))).collect();
                t.pad(&arg)
            }
            4 => {
                let arg: Vec<_> = shape
                    .iter()
                    .map(|&s| {
                        let b = below(s);
                        (b, b + 1 + below(s - b))
                    })
                    .collect();
                t.shrink(&arg)
            }
            5 => {
                let flags: Vec<bool> = shape.iter().map(|_| below(2) == 1).collect();
                t.flip(&flags)
            }
            _ => {
                let steps: Vec<i64> = shape
                    .iter()
                    .map(|_| [1, 2, 3, -1, -2][below(5) as usize])
                    .collect();
                t.stride(&steps)
            }
        };
        applied.unwrap()
    }

    /// A random view: a chain of `ops` random ops from `shape`, its bottom view.
    fn random_view(shape: &[i64], ops: usize, words: &mut impl Iterator<Item = u32>) -> View {
        let mut t = ViewStack::new(shape).unwrap();
        for _ in 0..ops {
            t = random_op(t, words);
        }
        t.views()[0].clone()
    }

    /// A view with windows, most of the time: the flattened transpose of
    /// `shape` (a nested dimension), shrunk and padded at bounds that cut its
    /// leaves, then `ops` random ops.
    fn windowed_view(shape: &[i64], ops: usize, words: &mut impl Iterator<Item = u32>) -> View {
        let mut below = |n: i64| i64::from(words.next().unwrap_or(0)) % n.max(1);
        let (a, b) = (shape[0] + 1, shape.get(1).map_or(3, |&x| x + 1));
        let n = a * b;
        let start = below(n);
        let end = start + 1 + below(n - start);
        let (before, after) = (below(3), below(3));
        let mut t = ViewStack::new(&[a, b])
            .and_then(|t| t.permute(&[1, 0]))
            .and_then(|t| t.reshape(&[n]))
            .and_then(|t| t.shrink(&[(start, end)]))
            .and_then(|t| t.pad(&[(before, after)]))
            .unwrap();
        for _ in 0..ops {
            t = random_op(t, words);
        }
        t.views()[0].clone()
    }

    /// tinygrad's `_pool` before its last reshape-and-shrink: an `n×n` image
    /// (maybe flipped) padded by `pad`, repeated `k+1` times and flattened,
    /// shrunk to `k·(n+2·pad+dilation)`; and the upper view that splits it.
    fn pool_pair(n: i64, pad: i64, k: i64, extra: i64, flip: bool, cut: bool) -> (View, View) {
        let p = n + 2 * pad;
        let extra = extra.min(p / k); // k·(p + extra) <= (k + 1)·p
        let m = k * (p + extra);
        let lower = ViewStack::new(&[n, n])
            .and_then(|t| t.flip(&[flip, false]))
            .and_then(|t| t.pad(&[(pad, pad), (pad, pad)]))
            .and_then(|t| t.reshape(&[1, p, 1, p]))
            .and_then(|t| t.expand(&[k + 1, p, k + 1, p]))
            .and_then(|t| t.reshape(&[(k + 1) * p, (k + 1) * p]))
            .and_then(|t| t.shrink(&[(0, m), (0, m)]))
            .unwrap();
        let mut upper = ViewStack::new(&[m, m])
            .and_then(|t| t.reshape(&[k, p + extra, k, p + extra]))
            .unwrap();
        if cut {
            let w = (p - k + 1).max(1).min(p + extra);
            upper = upper.shrink(&[(0, k), (0, w), (0, k), (0, w)]).unwrap();
        }
        (lower.views()[0].clone(), upper.views()[0].clone())
    }

    /// The merge of `lower` and `upper`, checked against the composition and the former verifier.
    fn check_merge(lower: &View, upper: &View) -> std::result::Result<(), TestCaseError> {
        let merged = merge_pair(lower, upper).unwrap();
        if let Some(m) = &merged {
            prop_assert_eq!(m.shape(), upper.shape());
            prop_assert_eq!(
                every_element(m),
                composition(lower, upper),
                "{} over {} gave {}",
                upper,
                lower,
                m
            );
        }
        if upper.size() <= MAX_EVALUATED_MERGE {
            let before = old::merge_pair(lower, upper);
            prop_assert_eq!(
                merged.is_some(),
                before.is_some(),
                "{} over {}",
                upper,
                lower
            );
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn evaluated_fit_agrees_with_merge_decision(first in flat(3), second in flat(3)) {
            let (lower, upper) = (View::from_flat(&first).unwrap(), View::from_flat(&second).unwrap());
            let fit = fit_flat(&mut Composed::new(&lower, &upper));
            let decided = crate::merge::merge(&first, &second).unwrap();
            prop_assert_eq!(fit.is_some(), decided.is_some(), "first {:?} second {:?}", first, second);
            if let (Some(a), Some(b)) = (fit, decided) {
                let all = |v: &FlatView| -> Vec<Option<i64>> {
                    (0..v.size().unwrap()).map(|i| v.eval(&unravel(i, v.shape())).unwrap()).collect()
                };
                prop_assert_eq!(all(&a), all(&b));
            }
        }

        /// The division-free evaluator, `eval_index` and `eval` agree at every
        /// element of random views (windows, constraints, broadcasts).
        #[test]
        fn index_evaluator_matches_eval_index(
            shape in prop::collection::vec(1i64..=6, 1..=3),
            ops in 0usize..6,
            nested in any::<bool>(),
            words in prop::collection::vec(any::<u32>(), 64),
        ) {
            let mut words = words.into_iter();
            let v = if nested {
                windowed_view(&shape, ops, &mut words)
            } else {
                random_view(&shape, ops, &mut words)
            };
            // Small views: only more than four constraints refuse the evaluator.
            let fast = IndexEvaluator::new(&v);
            prop_assert_eq!(fast.is_some(), v.cons() <= 4);
            let mut digits = vec![0i64; v.ext.len()];
            let each = every_element(&v);
            for (i, want) in (0..v.size()).zip(each) {
                prop_assert_eq!(v.eval_index(i, &mut digits), want, "{} at {}", v, i);
                if let Some(fast) = &fast {
                    prop_assert_eq!(fast.eval(i), want, "{} at {}", v, i);
                }
            }
        }

        /// Random pairs: the lower view from a random chain (half of them
        /// starting from a windowed nested dimension), the upper view from a
        /// random chain over the lower view's shape.
        #[test]
        fn merge_pair_equals_composition_on_random_pairs(
            shape in prop::collection::vec(1i64..=5, 1..=3),
            lower_ops in 0usize..5,
            upper_ops in 1usize..5,
            nested in any::<bool>(),
            words in prop::collection::vec(any::<u32>(), 96),
        ) {
            let mut words = words.into_iter();
            let lower = if nested {
                windowed_view(&shape, lower_ops, &mut words)
            } else {
                random_view(&shape, lower_ops, &mut words)
            };
            let upper = random_view(&lower.shape(), upper_ops, &mut words);
            check_merge(&lower, &upper)?;
        }

        /// Pooling windows (tinygrad's `_pool`), padded, dilated, flipped, cut or not.
        #[test]
        fn merge_pair_equals_composition_on_pool_windows(
            n in 1i64..=7, pad in 0i64..=2, k in 1i64..=3, extra in 0i64..=2,
            flip in any::<bool>(), cut in any::<bool>(),
        ) {
            let (lower, upper) = pool_pair(n, pad, k, extra, flip, cut);
            check_merge(&lower, &upper)?;
        }
    }
}
