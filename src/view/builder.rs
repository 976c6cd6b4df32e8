//! [`Builder`]: builds a [`View`] dimension by dimension, leaf by leaf. The
//! ops that rebuild a view (expand, reshape with windows, pair merges) write
//! through it, so the layout of the flat storage is known in one place.

use smallvec::SmallVec;

use super::{View, Window};
use crate::num::Ints;

/// Builds a view dimension by dimension, leaf by leaf.
pub(crate) struct Builder {
    view: View,
    open: u32,
}

impl Builder {
    /// An empty view with these constraint bounds and offset.
    #[inline]
    pub(crate) fn new(bounds: SmallVec<[(i64, i64); 2]>, offset: i64) -> Builder {
        Builder {
            view: View {
                ext: Ints::new(),
                stride: Ints::new(),
                dim_len: SmallVec::new(),
                windows: SmallVec::new(),
                coeffs: Ints::new(),
                bounds,
                offset,
            },
            open: 0,
        }
    }

    /// Appends a leaf to the current dimension; `coeffs` yields one value per constraint.
    #[inline]
    pub(crate) fn leaf(&mut self, extent: i64, stride: i64, coeffs: impl IntoIterator<Item = i64>) {
        self.view.ext.push(extent);
        self.view.stride.push(stride);
        if !self.view.bounds.is_empty() {
            let before = self.view.coeffs.len();
            self.view.coeffs.extend(coeffs);
            debug_assert_eq!(self.view.coeffs.len() - before, self.view.bounds.len());
        }
        self.open += 1;
    }

    /// Appends a copy of `src`'s leaf `k`.
    #[inline]
    pub(crate) fn copy_leaf(&mut self, src: &View, k: usize) {
        self.leaf(
            src.ext[k],
            src.stride[k],
            src.leaf_coeffs(k).iter().copied(),
        );
    }

    /// Closes the current dimension (an extent-1 leaf if it has none).
    #[inline]
    pub(crate) fn end_dim(&mut self, window: Option<Window>) {
        if self.open == 0 {
            let c = self.view.bounds.len();
            self.leaf(1, 0, std::iter::repeat_n(0, c));
        }
        if let Some(w) = window {
            self.view.windows.push((self.view.dim_len.len(), w));
        }
        self.view.dim_len.push(self.open);
        self.open = 0;
    }

    #[inline]
    pub(crate) fn finish(self) -> View {
        debug_assert_eq!(self.open, 0);
        self.view
    }

    /// Moves the built view into `target` field by field (cheaper than moving
    /// a whole `View` through a return value).
    #[inline]
    pub(crate) fn finish_into(self, target: &mut View) {
        debug_assert_eq!(self.open, 0);
        let v = self.view;
        target.ext = v.ext;
        target.stride = v.stride;
        target.dim_len = v.dim_len;
        target.windows = v.windows;
        target.coeffs = v.coeffs;
        target.bounds = v.bounds;
        target.offset = v.offset;
    }
}
