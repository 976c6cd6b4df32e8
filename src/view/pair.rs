//! Merging two adjacent views of a stack into one.
//!
//! The upper view produces row-major indices into the lower view's shape,
//! which are also row-major indices over the lower view's *leaves*. So both
//! views are read as flat tinygrad-form views over their leaves (possible when
//! every constraint is a box on one leaf), merged as flat views, and the result
//! (a flat view over the upper view's leaves) is regrouped into the upper view's
//! dimensions. The flat merge here is exact by construction: it evaluates the
//! composed map, takes the valid set's bounding box as the only candidate mask
//! and the differences along each axis as the only candidate strides, and
//! verifies every element. Cost O(size(upper) · rank).

use smallvec::SmallVec;

use super::{Dim, Leaf, View};
use crate::error::Result;
use crate::flat_view::FlatView;

/// `lower ∘ upper` as one view, when one with per-leaf boxes exists.
pub(crate) fn merge_pair(lower: &View, upper: &View) -> Result<Option<View>> {
    let (Some(first), Some(second)) = (leaf_view(lower), leaf_view(upper)) else {
        return Ok(None);
    };
    let Some(merged) = merge_flat(&first, &second)? else {
        return Ok(None);
    };
    let mut k = 0;
    let mut bounds: SmallVec<[(i64, i64); 2]> = SmallVec::new();
    let mask = merged.mask().map(<[(i64, i64)]>::to_vec);
    let leaf_count = merged.shape().len();
    if let Some(m) = &mask {
        bounds.extend(m.iter().copied());
    }
    let dims: Vec<Dim> = upper
        .dims
        .iter()
        .map(|dim| {
            dim.iter()
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
                .collect()
        })
        .collect();
    View {
        dims,
        offset: merged.offset(),
        bounds,
    }
    .tidy()
    .map(Some)
}

/// A view as a flat view over its leaves, when every constraint is a one-leaf box.
fn leaf_view(v: &View) -> Option<FlatView> {
    let extents: Vec<i64> = v.leaves().map(|l| l.extent).collect();
    let strides: Vec<i64> = v.leaves().map(|l| l.stride).collect();
    if v.bounds.is_empty() {
        return Some(FlatView::from_trusted(extents, strides, v.offset, None));
    }
    let mut mask: Vec<(i64, i64)> = extents.iter().map(|&n| (0, n)).collect();
    for con in v.constraints() {
        if con.lo() >= con.hi() {
            mask.iter_mut().for_each(|m| *m = (0, 0));
            break;
        }
        let mut nz = con.coeffs().iter().enumerate().filter(|(_, a)| **a != 0);
        match (nz.next(), nz.next()) {
            (Some((k, 1)), None) => mask[k] = (mask[k].0.max(con.lo()), mask[k].1.min(con.hi())),
            _ => return None,
        }
    }
    Some(FlatView::from_trusted(
        extents,
        strides,
        v.offset,
        Some(mask),
    ))
}

/// Exact flat merge by evaluation: `second` indexes `first`'s shape row-major.
///
/// `Some(v)` iff one flat view with a box mask gives the same offset at every
/// valid element and the same validity everywhere.
pub(crate) fn merge_flat(first: &FlatView, second: &FlatView) -> Result<Option<FlatView>> {
    let shape = second.shape().to_vec();
    let n = second.size()?;
    let composed = |c: &[i64]| -> Result<Option<i64>> {
        let Some(idx) = second.eval(c)? else {
            return Ok(None);
        };
        if !(0..first.size()?).contains(&idx) {
            return Ok(None);
        }
        let mut coord = vec![0; first.shape().len()];
        let mut rest = idx;
        for (x, &s) in coord.iter_mut().zip(first.shape()).rev() {
            *x = rest % s;
            rest /= s;
        }
        first.eval(&coord)
    };
    // Pass 1: the valid set's bounding box and count.
    let rank = shape.len();
    let (mut lo, mut hi) = (shape.clone(), vec![-1; rank]);
    let mut count = 0i64;
    let mut c = vec![0i64; rank];
    for _ in 0..n {
        if composed(&c)?.is_some() {
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
    let base = composed(&lo)?.unwrap_or(0);
    let mut strides = vec![0i64; rank];
    for d in 0..rank {
        if hi[d] > lo[d] {
            let mut e = lo.clone();
            e[d] += 1;
            strides[d] = composed(&e)?.unwrap_or(0) - base;
        }
    }
    let offset = base - lo.iter().zip(&strides).map(|(l, s)| l * s).sum::<i64>();
    c.iter_mut().for_each(|x| *x = 0);
    for _ in 0..n {
        if let Some(o) = composed(&c)? {
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
