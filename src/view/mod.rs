//! Views and movement ops: one hierarchical view per op chain, a stack only
//! when no single view exists.
//!
//! A [`View`] is a hierarchical row-major layout (each tensor dimension is a
//! tuple of *leaves*), an offset, and a validity predicate: a conjunction of
//! interval constraints `lo <= Σ a_k·x_k < hi` on the leaf coordinates `x_k`
//! (see [`constraint`]). A [`ViewStack`] is a sequence of views where each view
//! above the bottom one produces row-major indices into the shape of the view
//! below it, as tinygrad's `ShapeTracker` does.
//!
//! Movement ops (`reshape`, `permute`, `expand`, `pad`, `shrink`, `flip`,
//! `stride`) follow tinygrad 0.10.3's semantics and preconditions. Each one is
//! the composition of the current view with an elementary view, computed
//! exactly on leaves: permute reorders dimensions, expand turns an extent-1 leaf
//! into a stride-0 leaf, flip reverses every leaf of a dimension, shrink/pad
//! shift a leaf and add a constraint, and reshape regroups the (coalesced)
//! leaves and splits them where the new shape cuts them. When an op cannot be
//! expressed on the current view, the stack grows by one contiguous view and
//! the op applies to it; afterwards every adjacent pair that merges is merged
//! ([`ViewStack`] documents the rules). `docs/views.md` has the mathematics.
//!
//! ```
//! use hlayout::ViewStack;
//! let t = ViewStack::new(&[10, 10])?.permute(&[1, 0])?.reshape(&[100])?;
//! assert_eq!(t.views().len(), 1); // tinygrad needs two views here
//! assert_eq!(t.to_string(), "((10,10)):((1,10))");
//! assert_eq!(t.eval(&[1])?, Some(10));
//! let u = t.reshape(&[4, 25])?;   // sizes cut the nested mode: no single view
//! assert_eq!(u.views().len(), 2);
//! # Ok::<(), hlayout::Error>(())
//! ```

pub mod constraint;
mod flatten;
mod ops;
mod pair;
mod reshape;
mod stack;
mod stream;

use std::fmt;

use smallvec::SmallVec;

use crate::error::{self, Error, Result};
use crate::int_tuple::Profile;
use crate::layout::{Layout, Leaves};
pub use constraint::Constraint;
pub use flatten::ViewFlattenReport;
pub use stack::ViewStack;
pub use stream::ViewOffsets;

/// One leaf of a view: an extent, a stride, and its coefficient in each constraint.
#[derive(Debug, PartialEq, Eq, Hash)]
pub(crate) struct Leaf {
    pub(crate) extent: i64,
    pub(crate) stride: i64,
    pub(crate) coeffs: SmallVec<[i64; 2]>,
}

impl Clone for Leaf {
    /// A slice copy of the coefficients (SmallVec's own clone goes element by element).
    fn clone(&self) -> Leaf {
        Leaf {
            extent: self.extent,
            stride: self.stride,
            coeffs: SmallVec::from_slice(&self.coeffs),
        }
    }
}

/// One tensor dimension: its leaves (slowest first) and, rarely, a window.
///
/// Without a window, the dimension's index `t` *is* the row-major index over its
/// leaves. With a window `(extent E, start o, valid [lo, hi))`, index
/// `t ∈ [0, E)` reads `x = t + o` over the leaves, and is invalid where `x`
/// falls outside `[lo, hi) ⊆ [0, R)`, `R` the product of the leaf extents. Windows express shrinks and
/// pads of a nested dimension at bounds that cut its leaves (the flattened
/// transpose sliced to `[3, 57)`, or padded by one), which no leaf-wise
/// substitution can. Derefs to its leaves.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Dim {
    pub(crate) leaves: SmallVec<[Leaf; 2]>,
    pub(crate) window: Option<Window>,
}

/// The dimensions of a view (inline up to rank 4).
pub(crate) type Dims = SmallVec<[Dim; 4]>;

/// A dimension reading `[start, start + extent)` of its leaves' row-major
/// index, valid where that index lies in `[lo, hi)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Window {
    pub(crate) extent: i64,
    pub(crate) start: i64,
    pub(crate) lo: i64,
    pub(crate) hi: i64,
}

impl Window {
    /// The whole range of a dimension with radix `r`.
    pub(crate) fn full(r: i64) -> Window {
        Window {
            extent: r,
            start: 0,
            lo: 0,
            hi: r,
        }
    }
}

impl Dim {
    pub(crate) fn plain(leaves: SmallVec<[Leaf; 2]>) -> Dim {
        Dim {
            leaves,
            window: None,
        }
    }

    /// Product of the leaf extents (the radix range the window reads from).
    pub(crate) fn radix(&self) -> i64 {
        self.leaves.iter().map(|l| l.extent).product()
    }

    /// The dimension's extent.
    pub(crate) fn extent(&self) -> i64 {
        self.window.map_or_else(|| self.radix(), |w| w.extent)
    }
}

impl std::ops::Deref for Dim {
    type Target = SmallVec<[Leaf; 2]>;

    fn deref(&self) -> &Self::Target {
        &self.leaves
    }
}

impl std::ops::DerefMut for Dim {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.leaves
    }
}

/// A single hierarchical view with affine validity constraints.
///
/// See the [module documentation](self).
///
/// ```
/// use hlayout::ViewStack;
/// let s = ViewStack::new(&[4, 6])?.pad(&[(1, 1), (0, 0)])?;
/// let v = &s.views()[0];
/// assert_eq!(v.shape(), vec![6, 6]);
/// assert_eq!(v.eval(&[0, 0])?, None);      // padding
/// assert_eq!(v.eval(&[1, 2])?, Some(2));
/// # Ok::<(), hlayout::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct View {
    pub(crate) dims: Dims,
    pub(crate) offset: i64,
    /// `[lo, hi)` of each constraint; coefficients live in the leaves.
    pub(crate) bounds: SmallVec<[(i64, i64); 2]>,
}

impl View {
    /// The contiguous row-major view of `shape` (extents >= 1).
    ///
    /// # Errors
    /// [`Error::BadMovement`] for an extent below 1; [`Error::Overflow`] when the
    /// size leaves `i64`.
    ///
    /// ```
    /// let v = hlayout::View::contiguous(&[2, 3])?;
    /// assert_eq!(v.layout().to_string(), "(2,3):(3,1)");
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn contiguous(shape: &[i64]) -> Result<View> {
        if let Some(&s) = shape.iter().find(|&&s| s < 1) {
            return Err(Error::BadMovement {
                op: "view",
                why: format!("extent {s} in shape {shape:?} (views need extents >= 1)"),
            });
        }
        let mut acc = 1i64;
        let mut dims: Dims = smallvec::smallvec![Dim::default(); shape.len()];
        for (dim, &s) in dims.iter_mut().zip(shape).rev() {
            dim.push(Leaf {
                extent: s,
                stride: if s == 1 { 0 } else { acc },
                coeffs: SmallVec::new(),
            });
            acc = error::mul(acc, s, "size of view")?;
        }
        Ok(View {
            dims,
            offset: 0,
            bounds: SmallVec::new(),
        })
    }

    /// A view of a layout: each top-level mode is a dimension, its leaves the
    /// mode's leaves; always valid.
    ///
    /// ```
    /// let l: hlayout::Layout = "(2,(2,2)):(2,(1,4))".parse().unwrap();
    /// let v = hlayout::View::from_layout(&l, 5);
    /// assert_eq!(v.eval(&[1, 3]).unwrap(), Some(12));
    /// ```
    pub fn from_layout(layout: &Layout, offset: i64) -> View {
        let dims = layout
            .modes()
            .map(|m| {
                Dim::plain(
                    m.shape_leaves()
                        .iter()
                        .zip(m.stride_leaves())
                        .map(|(&extent, &stride)| Leaf {
                            extent,
                            stride,
                            coeffs: SmallVec::new(),
                        })
                        .collect(),
                )
            })
            .collect();
        View {
            dims,
            offset,
            bounds: SmallVec::new(),
        }
    }

    /// The tensor shape: one extent per dimension.
    ///
    /// ```
    /// assert_eq!(hlayout::View::contiguous(&[2, 3]).unwrap().shape(), vec![2, 3]);
    /// ```
    pub fn shape(&self) -> Vec<i64> {
        self.dims.iter().map(Dim::extent).collect()
    }

    /// Number of elements.
    ///
    /// ```
    /// assert_eq!(hlayout::View::contiguous(&[2, 3]).unwrap().size(), 6);
    /// ```
    pub fn size(&self) -> i64 {
        self.dims.iter().map(Dim::extent).product()
    }

    /// The offset of coordinate zero (before validity).
    ///
    /// ```
    /// assert_eq!(hlayout::View::contiguous(&[2]).unwrap().offset(), 0);
    /// ```
    pub fn offset(&self) -> i64 {
        self.offset
    }

    /// The hierarchical layout (without offset, validity and windows).
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[10, 10]).unwrap().permute(&[1, 0]).unwrap();
    /// assert_eq!(s.views()[0].layout().to_string(), "(10,10):(1,10)");
    /// ```
    pub fn layout(&self) -> Layout {
        let mut toks = crate::int_tuple::Builder::default();
        let mut stride = Leaves::new();
        toks.open();
        for dim in &self.dims {
            if dim.len() > 1 {
                toks.open();
            }
            for l in dim.iter() {
                toks.leaf(l.extent);
                stride.push(l.stride);
            }
            if dim.len() > 1 {
                toks.close();
            }
        }
        toks.close();
        let shape = toks.finish();
        let leaves: Leaves = shape.leaves().into();
        if self.dims.len() == 1 && self.dims[0].len() == 1 {
            return Layout::from_trusted(Profile::leaf(), leaves, stride);
        }
        Layout::from_trusted(shape.profile().clone(), leaves, stride)
    }

    /// The validity constraints, canonical (empty when every element is valid).
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[4]).unwrap().pad(&[(1, 0)]).unwrap();
    /// let c = &s.views()[0].constraints()[0];
    /// assert_eq!((c.coeffs(), c.lo(), c.hi()), (&[1][..], 1, 5));
    /// ```
    pub fn constraints(&self) -> Vec<Constraint> {
        (0..self.bounds.len()).map(|c| self.constraint(c)).collect()
    }

    pub(crate) fn constraint(&self, c: usize) -> Constraint {
        let (lo, hi) = self.bounds[c];
        Constraint {
            coeffs: self.leaves().map(|l| l.coeffs[c]).collect(),
            lo,
            hi,
        }
    }

    /// Whether this view is the contiguous row-major view of its shape with
    /// offset 0 and no invalid element.
    ///
    /// ```
    /// use hlayout::ViewStack;
    /// assert!(ViewStack::new(&[4, 6]).unwrap().reshape(&[2, 12]).unwrap().is_contiguous());
    /// assert!(!ViewStack::new(&[4, 6]).unwrap().permute(&[1, 0]).unwrap().is_contiguous());
    /// ```
    pub fn is_contiguous(&self) -> bool {
        if self.offset != 0 || !self.bounds.is_empty() || self.has_windows() {
            return false;
        }
        let mut acc = 1i64;
        for l in self.leaves().collect::<Vec<_>>().into_iter().rev() {
            if l.extent != 1 && l.stride != acc {
                return false;
            }
            acc *= l.extent;
        }
        true
    }

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
        let shape = self.shape();
        if coord.len() != shape.len() || coord.iter().zip(&shape).any(|(c, n)| !(0..*n).contains(c))
        {
            return Err(Error::OutOfDomain {
                what: format!("coordinate {coord:?} in view shape {shape:?}"),
            });
        }
        let mut x: SmallVec<[i64; 8]> = SmallVec::new();
        for (dim, &c) in self.dims.iter().zip(coord) {
            let start = x.len();
            let mut rest = c;
            if let Some(w) = dim.window {
                rest += w.start;
                if !(w.lo..w.hi).contains(&rest) {
                    return Ok(None);
                }
            }
            for l in dim.iter().rev() {
                x.push(rest % l.extent);
                rest /= l.extent;
            }
            x[start..].reverse();
        }
        Ok(self.eval_leaves(&x))
    }

    /// Offset at leaf coordinates `x`, or `None` where invalid.
    pub(crate) fn eval_leaves(&self, x: &[i64]) -> Option<i64> {
        for (c, &(lo, hi)) in self.bounds.iter().enumerate() {
            let v: i64 = self.leaves().zip(x).map(|(l, &xi)| l.coeffs[c] * xi).sum();
            if !(lo..hi).contains(&v) {
                return None;
            }
        }
        Some(
            self.offset
                + self
                    .leaves()
                    .zip(x)
                    .map(|(l, &xi)| l.stride * xi)
                    .sum::<i64>(),
        )
    }

    pub(crate) fn leaves(&self) -> impl Iterator<Item = &Leaf> + Clone + '_ {
        self.dims.iter().flat_map(|d| d.leaves.iter())
    }

    pub(crate) fn has_windows(&self) -> bool {
        self.dims.iter().any(|d| d.window.is_some())
    }

    pub(crate) fn leaf_extents(&self) -> SmallVec<[i64; 8]> {
        self.leaves().map(|l| l.extent).collect()
    }

    /// Whether no element is valid.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[4]).unwrap().pad(&[(0, 3)]).unwrap().shrink(&[(5, 7)]).unwrap();
    /// assert!(s.views()[0].is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.bounds.len() == 1 && self.leaves().all(|l| l.coeffs[0] == 0) && {
            let (lo, hi) = self.bounds[0];
            lo >= hi
        }
    }

    /// Re-establishes the invariants after an op: canonical constraints, and the
    /// offset plus the span of leaf offsets fits `i64` (so evaluation cannot overflow).
    pub(crate) fn normalize(mut self) -> Result<View> {
        if !self.bounds.is_empty() {
            self.canonicalize_constraints()?;
        }
        let mut span = self
            .offset
            .checked_abs()
            .ok_or_else(|| error::overflow("view offset"))?;
        for l in self.leaves() {
            let stride = l
                .stride
                .checked_abs()
                .ok_or_else(|| error::overflow("view stride"))?;
            let reach = error::mul(stride, l.extent - 1, "view span")?;
            span = error::add(span, reach, "view span")?;
        }
        Ok(self)
    }

    fn canonicalize_constraints(&mut self) -> Result<()> {
        let extents = self.leaf_extents();
        let rows = (0..self.bounds.len())
            .map(|c| self.constraint(c))
            .collect::<Vec<_>>();
        let canon = constraint::canonicalize(rows, &extents)?;
        let mut k = 0;
        for dim in &mut self.dims {
            for l in dim.iter_mut() {
                l.coeffs = canon.iter().map(|c| c.coeffs[k]).collect();
                k += 1;
            }
        }
        self.bounds = canon.iter().map(|c| (c.lo, c.hi)).collect();
        Ok(())
    }
}

/// Row-major digits of `i` over `shape` (`0 <= i < Π shape`).
pub(crate) fn unravel(mut i: i64, shape: &[i64]) -> Vec<i64> {
    let mut c = vec![0; shape.len()];
    for (x, &s) in c.iter_mut().zip(shape).rev() {
        *x = i % s;
        i /= s;
    }
    c
}

impl fmt::Display for View {
    /// `LAYOUT`, then `+OFFSET` when non-zero, then `with dD reading [a,b)` for
    /// each windowed dimension, then `if C && C` for the constraints over leaves
    /// `x0, x1, …` (row-major).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.layout())?;
        if self.offset != 0 {
            write!(f, "{:+}", self.offset)?;
        }
        for (d, dim) in self.dims.iter().enumerate() {
            if let Some(w) = dim.window {
                let (a, b) = (w.start, w.start + w.extent);
                write!(
                    f,
                    " with d{d} reading [{a},{b}) valid in [{},{})",
                    w.lo, w.hi
                )?;
            }
        }
        for (c, con) in self.constraints().iter().enumerate() {
            f.write_str(if c == 0 { " if " } else { " && " })?;
            write!(f, "{con}")?;
        }
        Ok(())
    }
}
