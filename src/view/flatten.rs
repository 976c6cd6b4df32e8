//! Flattening a view to tinygrad's form (flat strides, per-dimension box mask).
//!
//! A dimension flattens when its leaves coalesce on strides alone to one leaf.
//! A constraint becomes a box when it involves one leaf with coefficient 1 and
//! that leaf is its dimension's slowest: `lo <= x_0 < hi` is then
//! `lo·P <= i < hi·P` on the dimension's index `i`, with `P` the product of the
//! faster leaves. Anything else is reported, naming the dimension or constraint.
//! O(leaves · constraints).

use std::fmt;

use super::View;
use crate::algebra::coalesce_leaves;
use crate::layout::FlatView;

/// Why a view is not one tinygrad-form view.
///
/// ```
/// let s = hlayout::ViewStack::new(&[10, 10]).unwrap().permute(&[1, 0]).unwrap().reshape(&[100]).unwrap();
/// let report = s.views()[0].flatten().unwrap_err();
/// assert_eq!(report.to_string(), "dim 0 (10,10):(1,10) is not one stride");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewFlattenReport {
    reasons: Vec<String>,
}

impl ViewFlattenReport {
    /// One line per obstruction.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[4, 4]).unwrap().permute(&[1, 0]).unwrap().reshape(&[16]).unwrap();
    /// assert_eq!(s.views()[0].flatten().unwrap_err().reasons().len(), 1);
    /// ```
    pub fn reasons(&self) -> &[String] {
        &self.reasons
    }
}

impl fmt::Display for ViewFlattenReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reasons.join("; "))
    }
}

impl std::error::Error for ViewFlattenReport {}

impl View {
    /// The equal tinygrad-form view, or a report of why none has this shape.
    ///
    /// # Errors
    /// [`ViewFlattenReport`] naming each dimension that needs div/mod and each
    /// constraint that is not a per-dimension box.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[4, 6]).unwrap().pad(&[(1, 0), (0, 2)]).unwrap();
    /// let v = s.views()[0].flatten().unwrap();
    /// assert_eq!(v.mask(), Some(&[(1, 5), (0, 6)][..]));
    /// assert_eq!((v.strides(), v.offset()), (&[6, 1][..], -6));
    /// ```
    pub fn flatten(&self) -> Result<FlatView, ViewFlattenReport> {
        let mut reasons = Vec::new();
        let mut strides = Vec::with_capacity(self.rank());
        for (d, r) in self.dim_ranges().enumerate() {
            let layout = self.dim_layout(r.clone());
            if let Some(w) = self.window(d) {
                let (a, b) = (w.start, w.start + w.extent);
                reasons.push(format!(
                    "dim {d} reads the window [{a},{b}) of {layout} (valid in [{},{})), which needs div/mod",
                    w.lo, w.hi
                ));
                continue;
            }
            let (s, st) = coalesce_leaves(&self.ext[r.clone()], &self.stride[r]);
            match (&s[..], &st[..]) {
                (&[_], &[one]) => strides.push(one),
                _ => reasons.push(format!("dim {d} {layout} is not one stride")),
            }
        }
        let shape = self.shape();
        let mut mask: Vec<(i64, i64)> = shape.iter().map(|&n| (0, n)).collect();
        if self.is_empty() {
            mask.iter_mut().for_each(|m| *m = (0, 0));
        } else {
            for con in self.constraints() {
                match self.box_of(con.coeffs()) {
                    Some((d, unit)) => {
                        let m = &mut mask[d];
                        *m = (m.0.max(con.lo() * unit), m.1.min(con.hi() * unit));
                    }
                    None => reasons.push(format!("constraint {con} is not a per-dimension box")),
                }
            }
        }
        if !reasons.is_empty() {
            return Err(ViewFlattenReport { reasons });
        }
        let full = mask
            .iter()
            .zip(&shape)
            .all(|(&(b, e), &n)| b == 0 && e == n);
        Ok(FlatView::from_trusted(
            shape,
            strides,
            self.offset,
            (!full).then_some(mask),
        ))
    }

    /// `(dim, P)` when `coeffs` is one unit coefficient on a dimension's slowest leaf.
    fn box_of(&self, coeffs: &[i64]) -> Option<(usize, i64)> {
        let mut nonzero = coeffs.iter().enumerate().filter(|(_, a)| **a != 0);
        let (Some((k, &1)), None) = (nonzero.next(), nonzero.next()) else {
            return None;
        };
        let (d, r) = self
            .dim_ranges()
            .enumerate()
            .find(|(_, r)| r.contains(&k))?;
        (k == r.start).then(|| (d, self.ext[r.start + 1..r.end].iter().product()))
    }

    /// `(extents):(strides)` of the leaves in `r`.
    pub(crate) fn dim_layout(&self, r: std::ops::Range<usize>) -> String {
        let text = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
        format!(
            "({}):({})",
            text(&self.ext[r.clone()]),
            text(&self.stride[r])
        )
    }
}
