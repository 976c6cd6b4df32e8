//! Zero-extent tensors, with tinygrad 0.10.3's semantics.
//!
//! A shape holding a 0 has no elements. Its one view is canonical, as
//! tinygrad's `View.create` makes it: one leaf per dimension with the
//! dimension's extent, every stride 0, offset 0, no constraint and no window.
//! Only such views have a leaf of extent 0 (every other view's leaves are
//! `>= 1`), so [`View::is_zero`] is a scan of the leaf extents.
//!
//! Every movement op checks its precondition as tinygrad does and then maps a
//! zero view to the canonical view of the new shape; `shrink` to an empty
//! range and `expand` of an extent 1 to 0 turn any view into one. The only op
//! that leaves the zero world is a `pad` that makes every extent positive: the
//! result has elements, none of them valid (tinygrad's mask `(0,0)` in every
//! dimension). [`ViewStack`](super::ViewStack) collapses to the one zero view
//! whenever its top view becomes one, so an empty tensor always has one view
//! and an empty offset list.
//!
//! ```
//! use hlayout::ViewStack;
//! let s = ViewStack::new(&[4, 6])?.shrink(&[(1, 1), (0, 6)])?;
//! assert_eq!((s.shape(), s.views().len()), (vec![0, 6], 1));
//! assert_eq!(s.to_string(), "(0,6):(0,0)");
//! assert_eq!(s.offsets().count(), 0);
//! let p = s.pad(&[(1, 0), (0, 0)])?; // 1 x 6 elements, none valid
//! assert!(p.offsets().all(|o| o.is_none()));
//! # Ok::<(), hlayout::Error>(())
//! ```

use smallvec::SmallVec;

use super::View;
use crate::error::{self, Result};
use crate::num::Ints;

/// The number of elements of `shape` (extents >= 0): 0 when an extent is 0,
/// whatever the product of the others (tinygrad's shapes are unbounded).
/// O(rank).
///
/// # Errors
/// [`Error::Overflow`](crate::Error::Overflow) when the size leaves i64.
pub(crate) fn checked_size(shape: &[i64]) -> Result<i64> {
    if shape.contains(&0) {
        return Ok(0);
    }
    shape
        .iter()
        .try_fold(1i64, |a, &s| error::mul(a, s, "view size"))
}

impl View {
    /// The canonical view of `shape`, which holds a 0 (all extents `>= 0`).
    /// O(rank).
    pub(crate) fn zero(shape: &[i64]) -> View {
        debug_assert!(shape.contains(&0));
        View::unit_leaves(shape)
    }

    /// One leaf per dimension, every stride 0, offset 0, always valid.
    fn unit_leaves(shape: &[i64]) -> View {
        debug_assert!(shape.iter().all(|&s| s >= 0));
        View {
            ext: SmallVec::from_slice(shape),
            stride: SmallVec::from_elem(0, shape.len()),
            dim_len: SmallVec::from_elem(1, shape.len()),
            windows: SmallVec::new(),
            coeffs: Ints::new(),
            bounds: SmallVec::new(),
            offset: 0,
        }
    }

    /// Whether the view has no elements (some extent is 0). O(leaves).
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[3, 0])?;
    /// assert!(s.views()[0].is_zero());
    /// assert!(!hlayout::View::contiguous(&[3])?.is_zero());
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn is_zero(&self) -> bool {
        self.ext.contains(&0)
    }

    /// Replaces this view by the result of an op whose result shape is
    /// `shape`, when that result has no elements or this view has none:
    /// the canonical zero view, or (a pad of a zero view to positive extents)
    /// a view of `shape` with no valid element. `Ok(false)` (nothing done)
    /// when neither view is a zero view. O(rank).
    #[inline]
    pub(crate) fn become_zero(&mut self, shape: &[i64]) -> Result<bool> {
        if !shape.contains(&0) && !self.is_zero() {
            return Ok(false); // the common case, inline
        }
        self.become_zero_cold(shape)
    }

    /// [`View::become_zero`] when `shape` or this view holds a 0.
    #[cold]
    fn become_zero_cold(&mut self, shape: &[i64]) -> Result<bool> {
        if shape.contains(&0) {
            *self = View::zero(shape);
            return Ok(true);
        }
        checked_size(shape)?;
        let mut v = View::unit_leaves(shape);
        v.make_empty();
        v.tidy()?;
        *self = v;
        Ok(true)
    }
}
