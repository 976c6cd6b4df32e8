//! Merging two adjacent views of a stack into one.
//!
//! The upper view produces row-major indices into the lower view's shape. When
//! both views are plain over their leaves (no window, box constraints), the
//! closed-form decision of [`crate::merge`] answers "one flat view?" exactly at
//! any size. Otherwise, and for validity beyond boxes, the composition is
//! evaluated (below). Read
//! over the upper view's leaves, the composed map is a flat view with a box mask
//! exactly when the fit below finds one; the result is regrouped into the upper
//! view's dimensions. The fit is exact by construction: it evaluates the
//! composed map, takes the valid set's bounding box as the only candidate mask
//! and the differences along each axis as the only candidate strides, and
//! verifies every element. Cost O(size(upper) · rank), so it runs only for upper
//! views of at most [`MAX_EVALUATED_MERGE`] elements.

use smallvec::SmallVec;

use super::{unravel, Builder, View};
use crate::error::Result;
use crate::flat_view::FlatView;

/// Largest upper view (in elements) merged by evaluation.
pub(crate) const MAX_EVALUATED_MERGE: i64 = 1 << 16;

/// `lower ∘ upper` as one view over the upper view's leaves, when one with
/// per-leaf boxes exists (exact); `None` also when the upper view is windowed
/// or larger than [`MAX_EVALUATED_MERGE`].
pub(crate) fn merge_pair(lower: &View, upper: &View) -> Result<Option<View>> {
    if let (Some(first), Some(second)) = (leaf_view(lower), leaf_view(upper)) {
        // Both are plain over their leaves: the closed-form decision is exact
        // for "one flat view"; only an affine validity could still do better.
        if let Ok(Some(m)) = crate::merge::merge(&first, &second) {
            return regroup_like(upper, &m).map(Some);
        }
        if upper.has_windows() || upper.size() > MAX_EVALUATED_MERGE {
            return Ok(None);
        }
        return merge_affine(lower, upper);
    }
    if upper.has_windows() || upper.size() > MAX_EVALUATED_MERGE {
        return Ok(None);
    }
    if let Some(v) = merge_affine(lower, upper)? {
        return Ok(Some(v));
    }
    let below = lower.shape();
    let below_size: i64 = below.iter().product();
    let composed = |x: &[i64]| -> Result<Option<i64>> {
        let Some(idx) = upper.eval_leaves(x) else {
            return Ok(None);
        };
        if !(0..below_size).contains(&idx) {
            return Ok(None);
        }
        lower.eval(&unravel(idx, &below))
    };
    let Some(merged) = fit_flat(&upper.ext, composed)? else {
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

/// The lower view's coordinates reached by index `idx`: each windowed
/// dimension's read position, then every leaf digit. `None` outside its shape.
fn lower_coords(lower: &View, idx: i64) -> Option<Vec<i64>> {
    let shape = lower.shape();
    if !(0..shape.iter().product()).contains(&idx) {
        return None;
    }
    let t = unravel(idx, &shape);
    let mut reads = Vec::new();
    let mut digits = Vec::new();
    for (d, (r, &tj)) in lower.dim_ranges().zip(&t).enumerate() {
        let mut x = tj;
        if let Some(w) = lower.window(d) {
            x += w.start;
            reads.push(x);
            if !(0..lower.radix(d)).contains(&x) {
                return None;
            }
        }
        let start = digits.len();
        for k in r.rev() {
            digits.push(x % lower.ext[k]);
            x /= lower.ext[k];
        }
        digits[start..].reverse();
    }
    reads.extend(digits);
    Some(reads)
}

/// An affine form over the upper view's leaves: `constant + Σ coeffs[ℓ]·y_ℓ`.
struct Affine {
    constant: i64,
    coeffs: SmallVec<[i64; 2]>,
}

/// `lower ∘ upper` when every coordinate of `lower` is an affine function of
/// `upper`'s leaf coordinates (no carry anywhere in the upper box): offsets,
/// `lower`'s constraints and its windows' valid ranges then all compose into
/// one view with affine constraints. The candidate comes from finite
/// differences at the origin and is verified at every element, so it is exact.
/// O(size(upper) · (leaves + constraints)).
fn merge_affine(lower: &View, upper: &View) -> Result<Option<View>> {
    let Some(candidate) = affine_candidate(lower, upper) else {
        return Ok(None);
    };
    if !agrees_everywhere(lower, upper, &candidate)? {
        return Ok(None);
    }
    let mut candidate = candidate;
    candidate.tidy()?;
    Ok(Some(candidate))
}

/// The composition assuming `lower`'s coordinates are affine in `upper`'s leaves.
fn affine_candidate(lower: &View, upper: &View) -> Option<View> {
    let z0 = lower_coords(lower, upper.offset)?;
    let mut deltas: Vec<Vec<i64>> = Vec::new();
    for (&e, &s) in upper.ext.iter().zip(&upper.stride) {
        if e == 1 {
            deltas.push(vec![0; z0.len()]);
        } else {
            let z = lower_coords(lower, upper.offset + s)?;
            deltas.push(z.iter().zip(&z0).map(|(a, b)| a - b).collect());
        }
    }
    // Lower coordinate k: z0[k] + Σ_ℓ deltas[ℓ][k]·y_ℓ; a form weighs the coordinates.
    let form = |weight: &dyn Fn(usize) -> i64| Affine {
        constant: z0.iter().enumerate().map(|(k, z)| weight(k) * z).sum(),
        coeffs: deltas
            .iter()
            .map(|d| d.iter().enumerate().map(|(k, z)| weight(k) * z).sum())
            .collect(),
    };
    let windows: Vec<_> = lower.windows.iter().map(|&(_, w)| w).collect();
    let w = windows.len();
    let offset = form(&|k| if k < w { 0 } else { lower.stride[k - w] });
    let mut rows: Vec<(Affine, (i64, i64))> = (0..lower.bounds.len())
        .map(|c| {
            (
                form(&|k| {
                    if k < w {
                        0
                    } else {
                        lower.leaf_coeffs(k - w)[c]
                    }
                }),
                lower.bounds[c],
            )
        })
        .collect();
    rows.extend(
        windows
            .iter()
            .enumerate()
            .map(|(j, win)| (form(&|k| i64::from(k == j)), (win.lo, win.hi))),
    );
    // Over the upper's leaves: its own constraints, then the composed ones.
    let mut bounds = upper.bounds.clone();
    bounds.extend(
        rows.iter()
            .map(|(f, (lo, hi))| (lo - f.constant, hi - f.constant)),
    );
    let mut b = Builder::new(bounds, lower.offset + offset.constant);
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

/// Whether `candidate` (over `upper`'s leaves) equals `lower ∘ upper` at every element.
fn agrees_everywhere(lower: &View, upper: &View, candidate: &View) -> Result<bool> {
    let extents = &upper.ext;
    let below = lower.shape();
    let below_size: i64 = below.iter().product();
    let mut y = vec![0i64; extents.len()];
    for _ in 0..extents.iter().product::<i64>() {
        let truth = match upper.eval_leaves(&y) {
            Some(idx) if (0..below_size).contains(&idx) => lower.eval(&unravel(idx, &below))?,
            _ => None,
        };
        if candidate.eval_leaves(&y) != truth {
            return Ok(false);
        }
        step(&mut y, extents);
    }
    Ok(true)
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

/// The one flat view (box mask) over `shape` equal to `f`, if any, found by
/// evaluation: the valid set's bounding box is the only candidate mask, the
/// differences along each axis from its corner the only candidate strides, and
/// every element is verified. O(size · rank) evaluations of `f`.
pub(crate) fn fit_flat(
    shape: &[i64],
    f: impl Fn(&[i64]) -> Result<Option<i64>>,
) -> Result<Option<FlatView>> {
    let shape = shape.to_vec();
    let n: i64 = shape.iter().product();
    let rank = shape.len();
    // Pass 1: the valid set's bounding box and count.
    let (mut lo, mut hi) = (shape.clone(), vec![-1; rank]);
    let mut count = 0i64;
    let mut c = vec![0i64; rank];
    for _ in 0..n {
        if f(&c)?.is_some() {
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
        return Ok(Some(FlatView::from_trusted(
            shape,
            zeros,
            0,
            Some(vec![(0, 0); rank]),
        )));
    }
    let volume: i64 = lo.iter().zip(&hi).map(|(l, h)| h - l + 1).product();
    if volume != count {
        return Ok(None);
    }
    // Candidate strides from the box's corner; verify every valid element.
    let base = f(&lo)?.unwrap_or(0);
    let mut strides = vec![0i64; rank];
    for d in 0..rank {
        if hi[d] > lo[d] {
            let mut e = lo.clone();
            e[d] += 1;
            strides[d] = f(&e)?.unwrap_or(0) - base;
        }
    }
    let offset = base - lo.iter().zip(&strides).map(|(l, s)| l * s).sum::<i64>();
    c.iter_mut().for_each(|x| *x = 0);
    for _ in 0..n {
        if let Some(o) = f(&c)? {
            if offset + c.iter().zip(&strides).map(|(x, s)| x * s).sum::<i64>() != o {
                return Ok(None);
            }
        }
        step(&mut c, &shape);
    }
    let full = lo.iter().all(|&l| l == 0) && hi.iter().zip(&shape).all(|(&h, &s)| h == s - 1);
    let mask = (!full).then(|| lo.iter().zip(&hi).map(|(&l, &h)| (l, h + 1)).collect());
    Ok(Some(FlatView::from_trusted(shape, strides, offset, mask)))
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
    //! The views' evaluated flat fit and the closed-form merge decision are two
    //! exact answers to one question on plain views: they must agree.
    #![allow(clippy::unwrap_used)]

    use proptest::prelude::*;

    use super::*;

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

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn evaluated_fit_agrees_with_merge_decision(first in flat(3), second in flat(3)) {
            let (lower, upper) = (View::from_flat(&first).unwrap(), View::from_flat(&second).unwrap());
            let below = lower.shape();
            let below_size: i64 = below.iter().product();
            let composed = |x: &[i64]| -> Result<Option<i64>> {
                match upper.eval_leaves(x) {
                    Some(i) if (0..below_size).contains(&i) => lower.eval(&unravel(i, &below)),
                    _ => Ok(None),
                }
            };
            let fit = fit_flat(&upper.ext, composed).unwrap();
            let decided = crate::merge::merge(&first, &second).unwrap();
            prop_assert_eq!(fit.is_some(), decided.is_some(), "first {:?} second {:?}", first, second);
            if let (Some(a), Some(b)) = (fit, decided) {
                let all = |v: &FlatView| -> Vec<Option<i64>> {
                    (0..v.size().unwrap()).map(|i| v.eval(&unravel(i, v.shape())).unwrap()).collect()
                };
                prop_assert_eq!(all(&a), all(&b));
            }
        }
    }
}
