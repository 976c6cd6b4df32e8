//! Lowering layouts, views and view stacks to linear forms.
//!
//! A view's dimension `d` with coordinate `t` reads `x = t + start` (a window)
//! or `x = t`; its leaves, after merging adjacent leaves whose stride and
//! constraint coefficients all scale by the inner extent (they act as one
//! leaf), are the mixed-radix digits of `x`: the first `⌊x/P_1⌋`, the others
//! `⌊x/P_k⌋ mod e_k`, with `P_k` the product of the extents after leaf `k`. The
//! first digit takes no modulo: `x < R` wherever the element is valid (and
//! everywhere without a window). The index is `offset + Σ stride·digit`, each
//! constraint `lo <= Σ a·digit < hi`, and a window adds `lo <= x < hi`.
//!
//! From a linear index `i`, the coordinates are the row-major digits of `i`
//! over the shape, the first again without modulo. A stack lowers its top
//! view on the kernel's input and every view below on the index of the view
//! above (a row-major index into its shape wherever the elements above are
//! valid), collecting all views' constraints (the *fused* lowering; the
//! simplifier is greedy, so [`super::stack`] also builds the *split* kernel
//! and keeps the cheaper).
//!
//! Cost: O(leaves · (1 + constraints)) simplifier calls per view.

use super::emit::Cond;
use super::linear::{Builder, Lin};
use crate::error::Result;
use crate::view::{Constraint, View, Window};
use smallvec::SmallVec;
use std::ops::Range;

/// One merged leaf: extent, stride, constraint coefficients.
struct Leaf {
    extent: i64,
    stride: i64,
    coeffs: SmallVec<[i64; 4]>,
}

/// Lowers `v` at its dimensions' coordinates `coords` (one linear form per
/// dimension, over `[0, extent)`): its index, with its constraints appended to
/// `conds`.
pub(crate) fn view_coords(
    b: &mut Builder,
    v: &View,
    coords: &[Lin],
    conds: &mut Vec<Cond>,
) -> Result<Lin> {
    let dims: Vec<_> = (0..v.rank())
        .map(|d| (v.dim_leaves(d), v.window(d)))
        .collect();
    lower_dims(b, v, &dims, coords, conds)
}

/// Lowers `v` over `dims` (leaf ranges covering every leaf in order, each
/// with its window) at their coordinates `coords`.
fn lower_dims(
    b: &mut Builder,
    v: &View,
    dims: &[(Range<usize>, Option<Window>)],
    coords: &[Lin],
    conds: &mut Vec<Cond>,
) -> Result<Lin> {
    let cons = v.constraints();
    let mut index = Lin::constant(v.offset());
    let mut sums = vec![Lin::default(); cons.len()];
    for ((leaves, window), t) in dims.iter().zip(coords) {
        let mut x = t.clone();
        if let Some(w) = window {
            x = x.plus(w.start())?;
            conds.push((x.clone(), i128::from(w.lo()), i128::from(w.hi())));
        }
        let leaves = merged_leaves(v, leaves.clone(), &cons);
        let mut inner = 1i64;
        for (k, leaf) in leaves.iter().enumerate().rev() {
            let q = b.div(&x, inner)?;
            let digit = if k == 0 {
                q
            } else {
                b.modulo(&q, leaf.extent)?
            };
            index = index.add_scaled(&digit, leaf.stride)?;
            for (s, &a) in sums.iter_mut().zip(&leaf.coeffs) {
                *s = s.add_scaled(&digit, a)?;
            }
            inner = inner.saturating_mul(leaf.extent);
        }
    }
    for (s, c) in sums.into_iter().zip(&cons) {
        conds.push((s, i128::from(c.lo()), i128::from(c.hi())));
    }
    Ok(index)
}

/// Lowers `v` at the row-major index `i` over its shape (right wherever `0 <=
/// i < size`): its index, with its constraints appended to `conds`.
pub(crate) fn view_linear(
    b: &mut Builder,
    v: &View,
    i: &Lin,
    conds: &mut Vec<Cond>,
) -> Result<Lin> {
    if v.is_zero() {
        // No element, every stride 0, no constraint: the offset, with no
        // div/mod by a 0 extent.
        return Ok(Lin::constant(v.offset()));
    }
    if (0..v.rank()).all(|d| v.window(d).is_none()) {
        // The index is the row-major rank over all leaves: one dimension.
        let all = [(0..v.leaf_extents().len(), None)];
        return lower_dims(b, v, &all, std::slice::from_ref(i), conds);
    }
    let shape = v.shape();
    let mut coords = vec![Lin::default(); shape.len()];
    let mut inner = 1i64;
    for (d, &n) in shape.iter().enumerate().rev() {
        let q = b.div(i, inner)?;
        coords[d] = if d == 0 { q } else { b.modulo(&q, n)? };
        inner = inner.saturating_mul(n);
    }
    view_coords(b, v, &coords, conds)
}

/// The leaves `leaves`, extent-1 leaves dropped, adjacent leaves merged
/// where stride and every constraint coefficient of the outer one equal the
/// inner one's times the inner extent.
fn merged_leaves(v: &View, leaves: Range<usize>, cons: &[Constraint]) -> SmallVec<[Leaf; 8]> {
    let mut out: SmallVec<[Leaf; 8]> = SmallVec::new();
    for k in leaves {
        let extent = v.leaf_extents()[k];
        if extent == 1 {
            continue;
        }
        let leaf = Leaf {
            extent,
            stride: v.leaf_strides()[k],
            coeffs: cons.iter().map(|c| c.coeffs()[k]).collect(),
        };
        if let Some(last) = out.last_mut() {
            let scales =
                |outer: i64, inner: i64| inner.checked_mul(extent).is_some_and(|x| x == outer);
            if scales(last.stride, leaf.stride)
                && last
                    .coeffs
                    .iter()
                    .zip(&leaf.coeffs)
                    .all(|(&o, &i)| scales(o, i))
            {
                if let Some(e) = last.extent.checked_mul(extent) {
                    *last = Leaf { extent: e, ..leaf };
                    continue;
                }
            }
        }
        out.push(leaf);
    }
    if out.is_empty() {
        out.push(Leaf {
            extent: 1,
            stride: 0,
            coeffs: SmallVec::from_elem(0, cons.len()),
        });
    }
    out
}
