//! Reshape of a single view: regroup the leaves, splitting where the new shape cuts.
//!
//! The row-major index over a view's shape equals the row-major index over its
//! leaves (a windowed dimension counting as one opaque unit), so a reshape only
//! has to express the new dimensions through the leaves. Steps, each exact:
//!
//! 1. drop extent-1 leaves and coalesce adjacent leaves whose stride *and* every
//!    constraint coefficient scale by the faster leaf's extent (the merged
//!    coordinate `x_k·s_{k+1} + x_{k+1}` then carries the same offset and the same
//!    constraint values);
//! 2. walk the leaves and the new shape from the fastest end, splitting a leaf
//!    `x` of extent `s = p·q` into `x = y·q + z` (strides `d·q`, `d`; coefficients
//!    `a·q`, `a`) wherever a new dimension boundary falls inside it;
//! 3. give each new dimension the pieces it covers, as a nested mode.
//!
//! A windowed dimension can be neither split nor merged: it must become one new
//! dimension of the same extent. Step 2 fails exactly when two remaining
//! extents do not divide each other (no common refinement) or a window would be
//! cut; the caller then pushes a view. Coalescing first can only help (coarser
//! leaves have fewer suffix products, so more shapes refine them).
//! O(leaves + rank).

use smallvec::SmallVec;

use super::ops::mergeable;
use super::{Dim, Dims, Leaf, View};
use crate::error::{Error, Result};

type Units = SmallVec<[Unit; 8]>;

/// A unit of the reshape walk: a leaf, or a windowed dimension kept whole.
enum Unit {
    Leaf(Leaf),
    Window(Box<Dim>),
}

impl View {
    /// Reshapes to `shape` (same number of elements, extents >= 1).
    pub(crate) fn try_reshape(&self, shape: &[i64]) -> Result<Option<View>> {
        let size = self.size();
        let new_size = shape
            .iter()
            .try_fold(1i64, |a, &s| if s < 1 { None } else { a.checked_mul(s) });
        if new_size != Some(size) {
            return Err(Error::BadMovement {
                op: "reshape",
                why: format!(
                    "shape {shape:?} does not have {size} elements of extent >= 1 (from {:?})",
                    self.shape()
                ),
            });
        }
        if self.dims.iter().map(Dim::extent).eq(shape.iter().copied()) {
            return Ok(Some(self.clone()));
        }
        let units = coalesced_units(self);
        let Some(dims) = regroup(units, shape, self.bounds.len()) else {
            return Ok(None);
        };
        View {
            dims,
            offset: self.offset,
            bounds: self.bounds.clone(),
        }
        .tidy()
        .map(Some)
    }
}

/// All units: leaves of plain dimensions (extent-1 dropped, adjacent mergeable
/// ones merged) and windowed dimensions whole.
fn coalesced_units(v: &View) -> Units {
    let mut out = Units::new();
    for dim in &v.dims {
        if dim.window.is_some() {
            if dim.extent() != 1 {
                out.push(Unit::Window(Box::new(dim.clone())));
            }
            continue;
        }
        for l in dim.iter().filter(|l| l.extent != 1) {
            match out.last_mut() {
                Some(Unit::Leaf(prev)) if mergeable(prev, l) => {
                    prev.extent *= l.extent;
                    prev.stride = l.stride;
                    prev.coeffs.clone_from(&l.coeffs);
                }
                _ => out.push(Unit::Leaf(l.clone())),
            }
        }
    }
    out
}

/// Splits `units` along `shape` from the fastest end; `None` without a common
/// refinement or when a window would be cut.
fn regroup(mut units: Units, shape: &[i64], constraints: usize) -> Option<Dims> {
    let mut dims: Dims = (0..shape.len()).map(|_| Dim::default()).collect();
    // The unconsumed fast part of the current leaf: extent `rem`, scale `unit`
    // (its stride and coefficients are the leaf's times `unit`).
    let (mut rem, mut unit) = (1i64, 1i64);
    let mut current: Option<Leaf> = None;
    for (dim, &n) in dims.iter_mut().zip(shape).rev() {
        let mut need = n;
        while need > 1 {
            if rem == 1 {
                match units.pop()? {
                    Unit::Window(w) if w.extent() == need && dim.is_empty() => {
                        *dim = *w;
                        break;
                    }
                    Unit::Window(_) => return None,
                    Unit::Leaf(l) => {
                        (rem, unit) = (l.extent, 1);
                        current = Some(l);
                    }
                }
            }
            let take = if rem % need == 0 {
                need
            } else if need % rem == 0 {
                rem
            } else {
                return None;
            };
            let src = current.as_ref()?;
            dim.push(Leaf {
                extent: take,
                stride: src.stride * unit,
                coeffs: src.coeffs.iter().map(|a| a * unit).collect(),
            });
            unit *= take;
            rem /= take;
            need /= take;
        }
        if dim.window.is_none() {
            dim.reverse();
        }
        if dim.is_empty() {
            dim.push(Leaf {
                extent: 1,
                stride: 0,
                coeffs: SmallVec::from_elem(0, constraints),
            });
        }
    }
    Some(dims)
}
