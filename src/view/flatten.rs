//! Flattening a view to tinygrad's form (flat strides, per-dimension box mask).
//!
//! A dimension flattens when its leaves coalesce on strides alone to one leaf.
//! A constraint becomes a box when it involves one leaf with coefficient 1 and
//! that leaf is its dimension's slowest: `lo <= x_0 < hi` is then
//! `lo·P <= i < hi·P` on the dimension's index `i`, with `P` the product of the
//! faster leaves. Anything else is reported, naming the dimension or constraint.
//! O(leaves · constraints).

use std::fmt;

use super::{Constraint, View, Window};
use crate::algebra::coalesce_leaves;
use crate::layout::{FlatView, Layout, ModeObstruction};
use crate::tuple::Profile;

/// Why a view is not one tinygrad-form view: every obstruction, in order
/// (dimensions first, then constraints).
///
/// ```
/// use hlayout::view::ViewObstruction;
/// let s = hlayout::ViewStack::new(&[10, 10]).unwrap().permute(&[1, 0]).unwrap().reshape(&[100]).unwrap();
/// let report = s.views()[0].flatten().unwrap_err();
/// assert_eq!(report.to_string(), "dim 0 (10,10):(1,10) is not one stride: it needs i//10 and i%10");
/// assert!(matches!(&report.obstructions()[0], ViewObstruction::Strides(m) if m.mode == 0));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewFlattenReport {
    obstructions: Vec<ViewObstruction>,
}

/// One reason a view is not a single tinygrad-form view.
///
/// ```
/// use hlayout::view::ViewObstruction;
/// // A flattened transpose padded by one: a window over the nested dimension.
/// let s = hlayout::ViewStack::new(&[4, 4]).unwrap().permute(&[1, 0]).unwrap()
///     .reshape(&[16]).unwrap().pad(&[(1, 0)]).unwrap();
/// let report = s.views()[0].flatten().unwrap_err();
/// assert!(matches!(&report.obstructions()[0], ViewObstruction::Window { dim: 0, .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ViewObstruction {
    /// A dimension whose leaves keep two or more strides after coalescing
    /// (`mode` is the dimension): its index needs div/mod, as
    /// [`ModeObstruction::index_expressions`] spells out.
    Strides(ModeObstruction),
    /// A dimension that reads a window of its leaves' row-major index.
    Window {
        /// The dimension.
        dim: usize,
        /// Its leaves, as a flat layout.
        leaves: Layout,
        /// The window it reads.
        window: Window,
    },
    /// A validity constraint that is not a box on one dimension.
    Constraint(Constraint),
}

impl ViewFlattenReport {
    /// The obstructions, dimensions first, then constraints.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[4, 4]).unwrap().permute(&[1, 0]).unwrap().reshape(&[16]).unwrap();
    /// assert_eq!(s.views()[0].flatten().unwrap_err().obstructions().len(), 1);
    /// ```
    pub fn obstructions(&self) -> &[ViewObstruction] {
        &self.obstructions
    }
}

impl fmt::Display for ViewObstruction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ViewObstruction::Strides(m) => m.describe("dim", f),
            ViewObstruction::Window { dim, leaves, window: w } => write!(
                f,
                "dim {dim} reads the window [{},{}) of {leaves} (valid in [{},{})), which needs div/mod",
                w.start(),
                w.start() + w.extent(),
                w.lo(),
                w.hi()
            ),
            ViewObstruction::Constraint(c) => write!(f, "constraint {c} is not a per-dimension box"),
        }
    }
}

impl fmt::Display for ViewFlattenReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, o) in self.obstructions.iter().enumerate() {
            if k > 0 {
                f.write_str("; ")?;
            }
            o.fmt(f)?;
        }
        Ok(())
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
        let mut obstructions = Vec::new();
        let mut strides = Vec::with_capacity(self.rank());
        for (d, r) in self.dim_ranges().enumerate() {
            let leaves = self.dim_layout(r.clone());
            if let Some(window) = self.window(d) {
                obstructions.push(ViewObstruction::Window {
                    dim: d,
                    leaves,
                    window,
                });
                continue;
            }
            let (s, st) = coalesce_leaves(&self.ext[r.clone()], &self.stride[r]);
            match (&s[..], &st[..]) {
                (&[_], &[one]) => strides.push(one),
                _ => obstructions.push(ViewObstruction::Strides(ModeObstruction {
                    mode: d,
                    layout: leaves,
                    coalesced: flat_layout(s.to_vec(), st.to_vec()),
                })),
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
                    None => obstructions.push(ViewObstruction::Constraint(con)),
                }
            }
        }
        if !obstructions.is_empty() {
            return Err(ViewFlattenReport { obstructions });
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

    /// The leaves in `r` as a flat layout (a valid view's leaves form one).
    pub(crate) fn dim_layout(&self, r: std::ops::Range<usize>) -> Layout {
        flat_layout(self.ext[r.clone()].to_vec(), self.stride[r].to_vec())
    }
}

/// The flat layout of leaves taken from a valid view (or their coalesced
/// form, which has the same span).
fn flat_layout(ext: Vec<i64>, stride: Vec<i64>) -> Layout {
    let profile = if ext.len() == 1 {
        Profile::leaf()
    } else {
        Profile::flat(ext.len())
    };
    Layout::from_trusted(profile, ext.into(), stride.into())
}
