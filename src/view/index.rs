//! [`IndexEvaluator`]: a view compiled for evaluation at many row-major indices.
//!
//! [`View::eval_index`] divides once per dimension and leaf, and a 64-bit
//! division costs tens of cycles. Here each division is a multiply-high by a
//! precomputed reciprocal ([`Divisor`], exact for numerators below 2^32), so
//! it applies when the view's size and every windowed dimension's radix are at
//! most 2^32: then every numerator (the index, its quotients, a window's read
//! position) is below 2^32. Building costs one 64-bit division per leaf.

use std::ops::Range;

use smallvec::SmallVec;

use super::{View, Window};
use crate::num::Divisor;

/// Sizes and radices must stay below this for the reciprocals to be exact.
const LIMIT: i64 = 1 << 32;

/// Most constraints summed inline (views with more use `View::eval_index`).
const MAX_CONSTRAINTS: usize = 4;

/// A divisor, `None` for 1 (no reciprocal exists for it).
type Reciprocal = Option<Divisor>;

/// `(n / d, n % d)` for `n < 2^32`.
#[inline]
fn div_rem(d: Reciprocal, n: u64) -> (u64, u64) {
    d.map_or((n, 0), |d| d.div_rem(n))
}

/// One leaf's decoding: its extent's reciprocal, stride and coefficient in
/// each constraint (zero past the view's constraints).
#[derive(Clone, Copy)]
struct LeafStep {
    radix: Reciprocal,
    stride: i64,
    coeffs: [i64; MAX_CONSTRAINTS],
}

/// One dimension's decoding: its window (with the extent's reciprocal), if
/// any, then its leaves (a range of [`IndexEvaluator::leaves`]).
struct DimSteps {
    window: Option<(Reciprocal, Window)>,
    leaves: Range<usize>,
}

/// A view prepared for evaluation at many row-major indices (see the module
/// documentation). Same answers as [`View::eval_index`].
pub(crate) struct IndexEvaluator {
    offset: i64,
    /// Fastest dimension first.
    dims: SmallVec<[DimSteps; 8]>,
    /// Fastest leaf first.
    leaves: SmallVec<[LeafStep; 8]>,
    /// Each constraint's `[lo, hi)`; `(i64::MIN, i64::MAX)` past the view's
    /// constraints (their value stays 0).
    bounds: [(i64, i64); MAX_CONSTRAINTS],
}

/// The reciprocal of `d` (`1 <= d < 2^32`).
fn radix(d: i64) -> Reciprocal {
    (d > 1).then(|| Divisor::new(d.unsigned_abs()))
}

impl IndexEvaluator {
    /// `None` when the view's size or a windowed dimension's radix is 2^32
    /// or more, or it has more than [`MAX_CONSTRAINTS`] constraints.
    /// O(rank · leaves).
    pub(crate) fn new(view: &View) -> Option<IndexEvaluator> {
        let too_large = view.size() >= LIMIT || view.ext.iter().any(|&e| e >= LIMIT);
        if too_large || view.cons() > MAX_CONSTRAINTS {
            return None;
        }
        let mut bounds = [(i64::MIN, i64::MAX); MAX_CONSTRAINTS];
        bounds[..view.cons()].copy_from_slice(&view.bounds);
        let (mut dims, mut leaves) = (SmallVec::new(), SmallVec::new());
        for d in (0..view.rank()).rev() {
            let window = match view.window(d) {
                Some(w) if view.radix(d) >= LIMIT || w.extent >= LIMIT => return None,
                Some(w) => Some((radix(w.extent), w)),
                None => None,
            };
            let first = leaves.len();
            for k in view.dim_range(d).rev() {
                let mut coeffs = [0; MAX_CONSTRAINTS];
                coeffs[..view.cons()].copy_from_slice(view.leaf_coeffs(k));
                let (radix, stride) = (radix(view.ext[k]), view.stride[k]);
                leaves.push(LeafStep {
                    radix,
                    stride,
                    coeffs,
                });
            }
            dims.push(DimSteps {
                window,
                leaves: first..leaves.len(),
            });
        }
        Some(IndexEvaluator {
            offset: view.offset,
            dims,
            leaves,
            bounds,
        })
    }

    /// The view at row-major index `idx` (`0 <= idx < size`), `None` where
    /// invalid. The offset and each constraint's value are summed as the
    /// digits come out. O(leaves · (1 + constraints)), no division, no heap.
    pub(crate) fn eval(&self, idx: i64) -> Option<i64> {
        let leaves = &self.leaves[..];
        let mut values = [0i64; MAX_CONSTRAINTS];
        let mut offset = self.offset;
        let mut rest = idx.unsigned_abs();
        for dim in &self.dims {
            let mut x = rest;
            if let Some((extent, w)) = dim.window {
                let (q, t) = div_rem(extent, rest);
                rest = q;
                // t < extent < 2^32; the read is checked against [lo, hi) ⊆ [0, R).
                let read = t as i64 + w.start;
                if !(w.lo..w.hi).contains(&read) {
                    return None;
                }
                x = read.unsigned_abs();
            }
            for leaf in &leaves[dim.leaves.clone()] {
                let (q, r) = div_rem(leaf.radix, x);
                x = q;
                // An in-range digit: the view's span and its canonical
                // constraints' reach keep these sums inside i64.
                let r = r as i64;
                offset += r * leaf.stride;
                for (value, &a) in values.iter_mut().zip(&leaf.coeffs) {
                    *value += r * a;
                }
            }
            if dim.window.is_none() {
                rest = x;
            }
        }
        let valid = values
            .iter()
            .zip(&self.bounds)
            .all(|(value, &(lo, hi))| (lo..hi).contains(value));
        valid.then_some(offset)
    }
}
