//! Merging two adjacent views of a stack into one.
//!
//! The upper view produces row-major indices into the lower view's shape. Read
//! over the upper view's leaves, the composed map is a flat view with a box mask
//! exactly when the fit below finds one; the result is regrouped into the upper
//! view's dimensions. The fit is exact by construction: it evaluates the
//! composed map, takes the valid set's bounding box as the only candidate mask
//! and the differences along each axis as the only candidate strides, and
//! verifies every element. Cost O(size(upper) · rank), so it runs only for upper
//! views of at most [`MAX_EVALUATED_MERGE`] elements.

use smallvec::SmallVec;

use super::{Dim, Leaf, View};
use crate::error::Result;
use crate::flat_view::FlatView;

/// Largest upper view (in elements) merged by evaluation.
pub(crate) const MAX_EVALUATED_MERGE: i64 = 1 << 16;

/// `lower ∘ upper` as one view over the upper view's leaves, when one with
/// per-leaf boxes exists (exact); `None` also when the upper view is windowed
/// or larger than [`MAX_EVALUATED_MERGE`].
pub(crate) fn merge_pair(lower: &View, upper: &View) -> Result<Option<View>> {
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
        let mut coord = vec![0; below.len()];
        let mut rest = idx;
        for (c, &s) in coord.iter_mut().zip(&below).rev() {
            *c = rest % s;
            rest /= s;
        }
        lower.eval(&coord)
    };
    let extents: Vec<i64> = upper.leaves().map(|l| l.extent).collect();
    let Some(merged) = fit_flat(&extents, composed)? else {
        return Ok(None);
    };
    Ok(Some(regroup_like(upper, &merged)?))
}

/// The lower view's coordinates reached by index `idx`: each windowed
/// dimension's read position, then every leaf digit. `None` outside its shape.
fn lower_coords(lower: &View, idx: i64) -> Option<Vec<i64>> {
    let shape = lower.shape();
    if !(0..shape.iter().product()).contains(&idx) {
        return None;
    }
    let mut t = vec![0; shape.len()];
    let mut rest = idx;
    for (x, &s) in t.iter_mut().zip(&shape).rev() {
        *x = rest % s;
        rest /= s;
    }
    let mut reads = Vec::new();
    let mut digits = Vec::new();
    for (dim, &tj) in lower.dims.iter().zip(&t) {
        let mut x = tj;
        if let Some(w) = dim.window {
            x += w.start;
            reads.push(x);
            if !(0..dim.radix()).contains(&x) {
                return None;
            }
        }
        let start = digits.len();
        for l in dim.iter().rev() {
            digits.push(x % l.extent);
            x /= l.extent;
        }
        digits[start..].reverse();
    }
    reads.extend(digits);
    Some(reads)
}

/// `lower ∘ upper` when every coordinate of `lower` is an affine function of
/// `upper`'s leaf coordinates (no carry anywhere in the upper box): offsets,
/// `lower`'s constraints and its windows' valid ranges then all compose into
/// one view with affine constraints. The candidate comes from finite
/// differences at the origin and is verified at every element, so it is exact.
/// O(size(upper) · (leaves + constraints)).
fn merge_affine(lower: &View, upper: &View) -> Result<Option<View>> {
    let n = upper.leaves().count();
    let strides: Vec<i64> = upper.leaves().map(|l| l.stride).collect();
    let Some(z0) = lower_coords(lower, upper.offset) else {
        return Ok(None);
    };
    let mut deltas = Vec::with_capacity(n);
    for (l, &s) in upper.leaves().zip(&strides) {
        if l.extent == 1 {
            deltas.push(vec![0; z0.len()]);
            continue;
        }
        let Some(z) = lower_coords(lower, upper.offset + s) else {
            return Ok(None);
        };
        deltas.push(z.iter().zip(&z0).map(|(a, b)| a - b).collect::<Vec<i64>>());
    }
    let windows: Vec<_> = lower.dims.iter().filter_map(|d| d.window).collect();
    let lower_leaves: Vec<&Leaf> = lower.leaves().collect();
    let w = windows.len();
    // Affine form of lower coordinate k over the upper leaves: z0[k] + Σ deltas[ℓ][k]·y_ℓ.
    let form = |weights: &dyn Fn(usize) -> i64| -> (i64, SmallVec<[i64; 2]>) {
        let constant = (0..z0.len()).map(|k| weights(k) * z0[k]).sum();
        let coeffs = (0..n)
            .map(|l| (0..z0.len()).map(|k| weights(k) * deltas[l][k]).sum())
            .collect();
        (constant, coeffs)
    };
    let (base, up_strides) = form(&|k| if k < w { 0 } else { lower_leaves[k - w].stride });
    let mut rows: Vec<(i64, SmallVec<[i64; 2]>, (i64, i64))> = Vec::new();
    for c in 0..lower.bounds.len() {
        let (constant, coeffs) = form(&|k| {
            if k < w {
                0
            } else {
                lower_leaves[k - w].coeffs[c]
            }
        });
        let (lo, hi) = lower.bounds[c];
        rows.push((constant, coeffs, (lo, hi)));
    }
    for (j, win) in windows.iter().enumerate() {
        let (constant, coeffs) = form(&|k| i64::from(k == j));
        rows.push((constant, coeffs, (win.lo, win.hi)));
    }
    // Assemble over the upper's leaves: its own constraints, then the composed ones.
    let mut bounds = upper.bounds.clone();
    bounds.extend(rows.iter().map(|(c0, _, (lo, hi))| (lo - c0, hi - c0)));
    let mut k = 0;
    let dims = upper
        .dims
        .iter()
        .map(|dim| {
            let leaves = dim
                .iter()
                .map(|l| {
                    let mut coeffs = l.coeffs.clone();
                    coeffs.extend(rows.iter().map(|(_, c, _)| c[k]));
                    let leaf = Leaf {
                        extent: l.extent,
                        stride: up_strides[k],
                        coeffs,
                    };
                    k += 1;
                    leaf
                })
                .collect();
            Dim::plain(leaves)
        })
        .collect();
    let candidate = View {
        dims,
        offset: lower.offset + base,
        bounds,
    };
    // Verify at every element against the true composition.
    let extents: Vec<i64> = upper.leaves().map(|l| l.extent).collect();
    let total: i64 = extents.iter().product();
    let mut y = vec![0i64; n];
    for _ in 0..total {
        let truth = match upper.eval_leaves(&y) {
            None => None,
            Some(idx) => match lower_coords(lower, idx) {
                None => None,
                Some(_) => {
                    let below = lower.shape();
                    let mut c = vec![0; below.len()];
                    let mut rest = idx;
                    for (x, &s) in c.iter_mut().zip(&below).rev() {
                        *x = rest % s;
                        rest /= s;
                    }
                    lower.eval(&c)?
                }
            },
        };
        if candidate.eval_leaves(&y) != truth {
            return Ok(None);
        }
        step(&mut y, &extents);
    }
    candidate.tidy().map(Some)
}

/// The flat view over `upper`'s leaves, regrouped into `upper`'s dimensions.
fn regroup_like(upper: &View, merged: &FlatView) -> Result<View> {
    let mut k = 0;
    let mask = merged.mask().map(<[(i64, i64)]>::to_vec);
    let leaf_count = merged.shape().len();
    let mut bounds: SmallVec<[(i64, i64); 2]> = SmallVec::new();
    if let Some(m) = &mask {
        bounds.extend(m.iter().copied());
    }
    let dims: Vec<Dim> = upper
        .dims
        .iter()
        .map(|dim| {
            let leaves = dim
                .iter()
                .map(|l| {
                    let coeffs = match &mask {
                        Some(_) => (0..leaf_count).map(|j| i64::from(j == k)).collect(),
                        None => SmallVec::new(),
                    };
                    let leaf = Leaf {
                        extent: l.extent,
                        stride: merged.strides()[k],
                        coeffs,
                    };
                    k += 1;
                    leaf
                })
                .collect();
            Dim::plain(leaves)
        })
        .collect();
    View {
        dims,
        offset: merged.offset(),
        bounds,
    }
    .tidy()
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
