//! The affine composition of two views: when every coordinate of the lower
//! view is an affine function of the upper view's leaves, `lower ∘ upper` is
//! one view with affine constraints. Accepted symbolically when no carry can
//! occur (`docs/views.md` §5), otherwise only after an evaluated check.

use num_integer::Integer;
use smallvec::SmallVec;

use super::evaluated::{flat_index, samples, Composed};
use super::MAX_EVALUATED_MERGE;
use crate::num::Ints;
use crate::view::{Builder, View};

/// The lower view's coordinates: each windowed dimension's read position, then
/// every leaf digit.
pub(super) type Coords = SmallVec<[i64; 12]>;

/// The lower view's coordinates reached by index `idx` (windowed reads
/// ascending by dimension, then the leaf digits in leaf order). `None` outside
/// its shape or where a read leaves its dimension's leaves. O(leaves), no heap
/// for ≤ 12 coordinates.
pub(super) fn lower_coords(lower: &View, idx: i64) -> Option<Coords> {
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
pub(super) struct Affine {
    constant: i64,
    coeffs: SmallVec<[i64; 8]>,
}

/// `Σ_k weight(k)·values[k]`, `None` on overflow.
pub(super) fn weighted(values: &[i64], weight: &dyn Fn(usize) -> i64) -> Option<i64> {
    values.iter().enumerate().try_fold(0i64, |acc, (k, &z)| {
        acc.checked_add(weight(k).checked_mul(z)?)
    })
}

/// The lower view's coordinates as affine forms in the upper view's leaves,
/// read off finite differences: coordinate `k` is `z0[k] + Σ_ℓ deltas[ℓ][k]·y_ℓ`
/// wherever there is no carry. Exact at the origin and at each unit step.
pub(super) struct CoordForms {
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
    fn extremes(&self, k: usize, reach: &[(i64, i64)]) -> Option<[(i64, Ints); 2]> {
        let (mut min, mut max) = (self.z0[k], self.z0[k]);
        let (mut at_min, mut at_max): (Ints, Ints) = (Ints::new(), Ints::new());
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
    fn no_carry(&self, lower: &View, upper: &View) -> (bool, SmallVec<[Ints; 4]>) {
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
pub(super) fn leaf_reach(upper: &View) -> Option<SmallVec<[(i64, i64); 8]>> {
    if upper.is_empty() {
        return None;
    }
    let mut reach: Ints = upper.ext.iter().map(|&e| e - 1).collect();
    let mut low: Ints = SmallVec::from_elem(0, reach.len());
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
pub(super) fn merge_affine(lower: &View, upper: &View) -> Option<View> {
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
