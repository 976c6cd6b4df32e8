//! Evaluating a [`View`]: at a coordinate of its shape ([`View::eval`]), at a
//! row-major index ([`View::eval_index`], allocation-free) and at leaf
//! coordinates ([`View::eval_leaves`]). Every other evaluator (the index
//! evaluator, the streams) is checked against these.

use smallvec::SmallVec;

use super::View;
use crate::error::{Error, Result};
use crate::num::Ints;

impl View {
    /// Offset of the element at `coord`, or `None` where it is invalid.
    ///
    /// # Errors
    /// [`Error::OutOfDomain`] for a coordinate of the wrong rank or out of range.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[3]).unwrap().flip(&[true]).unwrap();
    /// assert_eq!(s.views()[0].eval(&[0]).unwrap(), Some(2));
    /// ```
    pub fn eval(&self, coord: &[i64]) -> Result<Option<i64>> {
        let shape = self.extents();
        if coord.len() != shape.len() || coord.iter().zip(&shape).any(|(c, n)| !(0..*n).contains(c))
        {
            return Err(Error::OutOfDomain {
                what: format!("coordinate {coord:?} in view shape {shape:?}"),
            });
        }
        let mut x: Ints = SmallVec::from_elem(0, self.ext.len());
        for (d, (r, &c)) in self.dim_ranges().zip(coord).enumerate() {
            let mut rest = c;
            if let Some(w) = self.window(d) {
                rest += w.start;
                if !(w.lo..w.hi).contains(&rest) {
                    return Ok(None);
                }
            }
            for k in r.rev() {
                x[k] = rest % self.ext[k];
                rest /= self.ext[k];
            }
        }
        Ok(self.eval_leaves(&x))
    }

    /// Offset of element `idx` in row-major order over the shape (`0 <= idx <
    /// size`), or `None` where it is invalid; `digits` (at least one entry per
    /// leaf) is scratch for the leaf coordinates. Allocation-free; O(leaves ·
    /// (1 + constraints)), one division per dimension and per leaf.
    pub(crate) fn eval_index(&self, idx: i64, digits: &mut [i64]) -> Option<i64> {
        debug_assert!((0..self.size()).contains(&idx));
        let digits = &mut digits[..self.ext.len()];
        let (mut rest, mut end) = (idx, self.ext.len());
        for d in (0..self.rank()).rev() {
            let start = end - self.dim_len[d] as usize;
            let window = if self.windows.is_empty() {
                None
            } else {
                self.window(d)
            };
            // Without a window the dimension's index is the row-major index
            // over its leaves: its leaf digits are the next digits of `idx`.
            let mut x = rest;
            if let Some(w) = window {
                x = rest % w.extent + w.start;
                rest /= w.extent;
                if !(w.lo..w.hi).contains(&x) {
                    return None;
                }
            }
            for k in (start..end).rev() {
                digits[k] = x % self.ext[k];
                x /= self.ext[k];
            }
            if window.is_none() {
                rest = x;
            }
            end = start;
        }
        self.eval_leaves(digits)
    }

    /// Offset at leaf coordinates `x`, or `None` where invalid.
    pub(crate) fn eval_leaves(&self, x: &[i64]) -> Option<i64> {
        for (c, &(lo, hi)) in self.bounds.iter().enumerate() {
            let v: i64 = x
                .iter()
                .enumerate()
                .map(|(k, &xi)| self.leaf_coeffs(k)[c] * xi)
                .sum();
            if !(lo..hi).contains(&v) {
                return None;
            }
        }
        Some(
            self.offset
                + x.iter()
                    .zip(&self.stride)
                    .map(|(&xi, &s)| s * xi)
                    .sum::<i64>(),
        )
    }
}
