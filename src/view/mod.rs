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
//! Movement ops (`reshape`, `permute`, `expand`, `pad`, `shrink`, `flip`:
//! tinygrad 0.10.3's set, as values the [`Movement`] enum, applied by
//! [`ViewStack::apply`]) follow tinygrad 0.10.3's semantics and
//! preconditions; [`ViewStack::stride`] is a Rust shortcut for a chain of
//! them. Each one is
//! the composition of the current view with an elementary view, computed
//! exactly on leaves: permute reorders dimensions, expand turns an extent-1 leaf
//! into a stride-0 leaf, flip reverses every leaf of a dimension, shrink/pad
//! shift a leaf and add a constraint, and reshape regroups the (coalesced)
//! leaves and splits them where the new shape cuts them. When an op cannot be
//! expressed on the current view, the stack grows by one contiguous view and
//! the op applies to it; afterwards every adjacent pair that merges is merged
//! ([`ViewStack`] documents the rules). `docs/views.md` has the mathematics.
//!
//! Storage is flat: leaf extents and strides in two inline vectors, the
//! number of leaves of each dimension in a third, constraint coefficients
//! leaf-major in a fourth. Every element is `Copy`, so an op copies a few
//! hundred bytes and allocates nothing for ≤ 8 leaves and 2 constraints.
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

mod builder;
mod canonical;
pub mod constraint;
mod eval;
mod flatten;
mod index;
mod movement;
pub(crate) mod movement_text;
pub(crate) mod ops;
mod pair;
mod reshape;
mod stack;
mod stream;
mod witness;
mod zero;

use std::fmt;
use std::ops::Range;

use smallvec::SmallVec;

use crate::error::{self, Error, Result};
use crate::layout::FlatView;
use crate::layout::Layout;
use crate::num::Ints;
use crate::tuple::Profile;
pub(crate) use builder::Builder;
pub use constraint::Constraint;
pub use flatten::{ViewFlattenReport, ViewObstruction};
pub use movement::{Movement, MovementKind};
pub use stack::ViewStack;
pub use stream::ViewOffsets;

/// A dimension reading `[start, start + extent)` of its leaves' row-major
/// index, valid where that index lies in `[lo, hi)`.
///
/// Without a window, a dimension's index `t` *is* the row-major index over its
/// leaves. With one, index `t ∈ [0, extent)` reads `x = t + start`, invalid
/// unless `lo <= x < hi` (`[lo, hi) ⊆ [0, R)`, `R` the product of the leaf
/// extents). Windows express shrinks and pads of a nested dimension at bounds
/// that cut its leaves (the flattened transpose sliced to `[3, 57)`, or padded
/// by one), which no leaf-wise substitution can.
///
/// ```
/// use hlayout::ViewStack;
/// // A flattened transpose sliced to [3, 57): dimension 0 reads [3, 57) of its
/// // leaves, every index of which is valid.
/// let s = ViewStack::new(&[10, 10])?.permute(&[1, 0])?.reshape(&[100])?.shrink(&[(3, 57)])?;
/// let w = s.views()[0].window(0).expect("a windowed dimension");
/// assert_eq!((w.extent(), w.start(), w.lo(), w.hi()), (54, 3, 0, 100));
/// # Ok::<(), hlayout::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Window {
    extent: i64,
    start: i64,
    lo: i64,
    hi: i64,
}

impl Window {
    /// The dimension's extent: its index `t` runs over `[0, extent)`.
    ///
    /// See [`Window`] for an example.
    pub fn extent(&self) -> i64 {
        self.extent
    }

    /// The shift: index `t` reads the leaves' row-major index `x = t + start`.
    ///
    /// See [`Window`] for an example.
    pub fn start(&self) -> i64 {
        self.start
    }

    /// Lower bound of validity: `x` is valid when `lo <= x < hi`.
    ///
    /// See [`Window`] for an example.
    pub fn lo(&self) -> i64 {
        self.lo
    }

    /// Upper bound (exclusive) of validity.
    ///
    /// See [`Window`] for an example.
    pub fn hi(&self) -> i64 {
        self.hi
    }

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
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct View {
    /// Leaf extents, row-major (dimension by dimension, slowest leaf first).
    ext: Ints,
    /// Leaf strides.
    stride: Ints,
    /// Number of leaves of each dimension (at least 1).
    dim_len: SmallVec<[u32; 8]>,
    /// The windowed dimensions, by index, ascending.
    windows: SmallVec<[(usize, Window); 1]>,
    /// Constraint coefficients, leaf-major.
    coeffs: Ints,
    /// `[lo, hi)` of each constraint.
    bounds: SmallVec<[(i64, i64); 2]>,
    offset: i64,
}

impl Clone for View {
    /// Slice copies (SmallVec's own clone goes element by element).
    fn clone(&self) -> View {
        View {
            ext: SmallVec::from_slice(&self.ext),
            stride: SmallVec::from_slice(&self.stride),
            dim_len: SmallVec::from_slice(&self.dim_len),
            windows: SmallVec::from_slice(&self.windows),
            coeffs: SmallVec::from_slice(&self.coeffs),
            bounds: SmallVec::from_slice(&self.bounds),
            offset: self.offset,
        }
    }
}

impl View {
    /// The contiguous row-major view of `shape` (extents >= 0; a shape
    /// holding 0 gets the canonical zero view, see [`View::is_zero`]).
    ///
    /// # Errors
    /// [`Error::BadMovement`] for a negative extent; [`Error::Overflow`] when the
    /// size leaves `i64`.
    ///
    /// ```
    /// let v = hlayout::View::contiguous(&[2, 3])?;
    /// assert_eq!(v.layout().to_string(), "(2,3):(3,1)");
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn contiguous(shape: &[i64]) -> Result<View> {
        if let Some(&s) = shape.iter().find(|&&s| s < 0) {
            return Err(Error::BadMovement {
                op: "view",
                why: format!("extent {s} in shape {shape:?} (views need extents >= 0)"),
            });
        }
        if shape.contains(&0) {
            return Ok(View::zero(shape));
        }
        let mut stride: Ints = SmallVec::from_elem(0, shape.len());
        let mut acc = 1i64;
        for (st, &s) in stride.iter_mut().zip(shape).rev() {
            *st = if s == 1 { 0 } else { acc };
            acc = error::mul(acc, s, "size of view")?;
        }
        Ok(View {
            ext: SmallVec::from_slice(shape),
            stride,
            dim_len: SmallVec::from_elem(1, shape.len()),
            windows: SmallVec::new(),
            coeffs: Ints::new(),
            bounds: SmallVec::new(),
            offset: 0,
        })
    }

    /// A view of a layout plus `offset`: each top-level mode is a dimension,
    /// its leaves the mode's leaves; always valid. O(leaves).
    ///
    /// # Errors
    /// [`Error::Overflow`] when `offset` plus some offset of the layout leaves
    /// `i64` (a view's offsets all fit `i64`, so its streams never wrap).
    ///
    /// ```
    /// let l: hlayout::Layout = "(2,(2,2)):(2,(1,4))".parse().unwrap();
    /// let v = hlayout::View::from_layout(&l, 5).unwrap();
    /// assert_eq!(v.eval(&[1, 3]).unwrap(), Some(12));
    /// assert!(hlayout::View::from_layout(&l, i64::MAX).is_err());
    /// ```
    pub fn from_layout(layout: &Layout, offset: i64) -> Result<View> {
        let (lo, hi) = layout.offset_range();
        error::add(offset, lo, "offset of view")?;
        error::add(offset, hi, "offset of view")?;
        Ok(View::of_layout(layout, offset))
    }

    /// [`View::from_layout`] for an offset known to keep every offset in `i64`.
    pub(crate) fn of_layout(layout: &Layout, offset: i64) -> View {
        let mut b = Builder::new(SmallVec::new(), offset);
        for m in layout.modes() {
            for (&e, &s) in m.shape_leaves().iter().zip(m.stride_leaves()) {
                b.leaf(e, s, []);
            }
            b.end_dim(None);
        }
        b.finish()
    }

    /// A tinygrad-form view: one leaf per dimension, its mask as unit box
    /// constraints.
    ///
    /// # Errors
    /// [`Error::BadMovement`] for a negative extent; [`Error::Overflow`] when
    /// offsets leave `i64`. A shape holding 0 gives the canonical zero view.
    ///
    /// ```
    /// use hlayout::{FlatView, View};
    /// let f = FlatView::new(vec![4, 3], vec![3, 1], -3, Some(vec![(1, 4), (0, 3)])).unwrap();
    /// let v = View::from_flat(&f).unwrap();
    /// assert_eq!(v.eval(&[0, 2]).unwrap(), None);
    /// assert_eq!(v.eval(&[1, 2]).unwrap(), Some(2));
    /// assert_eq!(v.flatten().unwrap(), f);
    /// ```
    pub fn from_flat(flat: &FlatView) -> Result<View> {
        let mut v = View::contiguous(flat.shape())?;
        if v.is_zero() {
            return Ok(v);
        }
        v.stride = SmallVec::from_slice(flat.strides());
        v.offset = flat.offset();
        if let Some(mask) = flat.mask() {
            let n = mask.len();
            v.bounds = mask.iter().copied().collect();
            v.coeffs = (0..n)
                .flat_map(|k| (0..n).map(move |c| i64::from(c == k)))
                .collect();
        }
        v.normalize()?;
        Ok(v)
    }

    /// Number of dimensions.
    ///
    /// ```
    /// assert_eq!(hlayout::View::contiguous(&[2, 3]).unwrap().rank(), 2);
    /// ```
    pub fn rank(&self) -> usize {
        self.dim_len.len()
    }

    /// Extents of all leaves, dimension by dimension, slowest leaf first.
    /// Leaf coordinates `x_k` range over `[0, leaf_extents()[k])`; the
    /// constraints' coefficients index the same leaves.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[10, 10])?.permute(&[1, 0])?.reshape(&[100])?;
    /// let v = &s.views()[0];
    /// assert_eq!((v.leaf_extents(), v.leaf_strides()), (&[10, 10][..], &[1, 10][..]));
    /// assert_eq!(v.dim_leaves(0), 0..2);
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn leaf_extents(&self) -> &[i64] {
        &self.ext
    }

    /// Strides of all leaves, in the order of [`View::leaf_extents`].
    ///
    /// See [`View::leaf_extents`] for an example.
    pub fn leaf_strides(&self) -> &[i64] {
        &self.stride
    }

    /// The indices (into [`View::leaf_extents`]) of dimension `d`'s leaves.
    /// Without a window, the dimension's coordinate is the row-major index
    /// over these leaves; with one, see [`Window`].
    ///
    /// # Panics
    /// When `d >= self.rank()`.
    ///
    /// See [`View::leaf_extents`] for an example.
    pub fn dim_leaves(&self, d: usize) -> Range<usize> {
        self.dim_range(d)
    }

    /// Number of constraints.
    pub(crate) fn cons(&self) -> usize {
        self.bounds.len()
    }

    /// The leaf indices of each dimension, in order.
    pub(crate) fn dim_ranges(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        self.dim_len.iter().scan(0usize, |start, &n| {
            let r = *start..*start + n as usize;
            *start = r.end;
            Some(r)
        })
    }

    /// The leaf indices of dimension `d`.
    pub(crate) fn dim_range(&self, d: usize) -> Range<usize> {
        let start: usize = self.dim_len[..d].iter().map(|&n| n as usize).sum();
        start..start + self.dim_len[d] as usize
    }

    /// Leaf `k`'s coefficient in each constraint.
    pub(crate) fn leaf_coeffs(&self, k: usize) -> &[i64] {
        let c = self.cons();
        &self.coeffs[k * c..(k + 1) * c]
    }

    /// Dimension `d`'s window, if any (see [`Window`]).
    ///
    /// ```
    /// assert!(hlayout::View::contiguous(&[4]).unwrap().window(0).is_none());
    /// ```
    pub fn window(&self, d: usize) -> Option<Window> {
        self.windows.iter().find(|(w, _)| *w == d).map(|&(_, w)| w)
    }

    /// Replaces dimension `d`'s window.
    pub(crate) fn set_window(&mut self, d: usize, window: Option<Window>) {
        self.windows.retain(|(w, _)| *w != d);
        if let Some(w) = window {
            let at = self
                .windows
                .iter()
                .position(|(x, _)| *x > d)
                .unwrap_or(self.windows.len());
            self.windows.insert(at, (d, w));
        }
    }

    /// Product of dimension `d`'s leaf extents, `None` past `i64`.
    fn radix_checked(&self, d: usize) -> Option<i64> {
        self.ext[self.dim_range(d)]
            .iter()
            .try_fold(1i64, |a, &e| a.checked_mul(e))
    }

    /// Product of dimension `d`'s leaf extents.
    pub(crate) fn radix(&self, d: usize) -> i64 {
        self.ext[self.dim_range(d)].iter().product()
    }

    /// Dimension `d`'s extent.
    pub(crate) fn dim_extent(&self, d: usize) -> i64 {
        self.window(d).map_or_else(|| self.radix(d), |w| w.extent)
    }

    /// The tensor shape: one extent per dimension.
    ///
    /// ```
    /// assert_eq!(hlayout::View::contiguous(&[2, 3]).unwrap().shape(), vec![2, 3]);
    /// ```
    pub fn shape(&self) -> Vec<i64> {
        self.extents().to_vec()
    }

    /// The shape, inline (no allocation for rank ≤ 8).
    pub(crate) fn extents(&self) -> Ints {
        let mut out: Ints = SmallVec::from_elem(1, self.rank());
        let ext = &self.ext[..];
        let mut at = 0usize;
        for (x, &n) in out.iter_mut().zip(&self.dim_len) {
            let end = at + n as usize;
            *x = ext[at..end].iter().product();
            at = end;
        }
        for &(d, w) in &self.windows {
            out[d] = w.extent;
        }
        out
    }

    /// Number of elements: 0 for a zero view, whose other extents may be
    /// any size (their product need not fit i64). O(leaves).
    ///
    /// ```
    /// assert_eq!(hlayout::View::contiguous(&[2, 3]).unwrap().size(), 6);
    /// assert_eq!(hlayout::View::contiguous(&[1 << 40, 1 << 40, 0]).unwrap().size(), 0);
    /// ```
    pub fn size(&self) -> i64 {
        if self.is_zero() {
            return 0;
        }
        if self.windows.is_empty() {
            return self.ext.iter().product();
        }
        (0..self.rank()).map(|d| self.dim_extent(d)).product()
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
    /// A zero view ([`View::is_zero`]) gives a layout of size 0 whose leaves
    /// are the view's extents (some 0) with stride 0: it prints and reports
    /// its shape, but the algebra and [`Layout::eval`] are defined only on
    /// layouts with extents `>= 1`, which text and the algebra always build.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[10, 10]).unwrap().permute(&[1, 0]).unwrap();
    /// assert_eq!(s.views()[0].layout().to_string(), "(10,10):(1,10)");
    /// ```
    pub fn layout(&self) -> Layout {
        if self.rank() == 1 && self.ext.len() == 1 {
            return Layout::from_trusted(Profile::leaf(), self.ext.clone(), self.stride.clone());
        }
        let mut toks = crate::tuple::Builder::default();
        toks.open();
        for r in self.dim_ranges() {
            if r.len() > 1 {
                toks.open();
            }
            self.ext[r.clone()].iter().for_each(|&e| toks.leaf(e));
            if r.len() > 1 {
                toks.close();
            }
        }
        toks.close();
        let shape = toks.finish();
        Layout::from_trusted(
            shape.profile().clone(),
            self.ext.clone(),
            self.stride.clone(),
        )
    }

    /// The validity constraints, canonical (empty when every element is valid).
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[4]).unwrap().pad(&[(1, 0)]).unwrap();
    /// let c = &s.views()[0].constraints()[0];
    /// assert_eq!((c.coeffs(), c.lo(), c.hi()), (&[1][..], 1, 5));
    /// ```
    pub fn constraints(&self) -> Vec<Constraint> {
        (0..self.cons()).map(|c| self.constraint(c)).collect()
    }

    pub(crate) fn constraint(&self, c: usize) -> Constraint {
        let (lo, hi) = self.bounds[c];
        Constraint {
            coeffs: (0..self.ext.len())
                .map(|k| self.leaf_coeffs(k)[c])
                .collect(),
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
        for (&e, &s) in self.ext.iter().zip(&self.stride).rev() {
            if e != 1 && s != acc {
                return false;
            }
            acc *= e;
        }
        true
    }

    pub(crate) fn has_windows(&self) -> bool {
        !self.windows.is_empty()
    }

    /// Whether no element is valid.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[4]).unwrap().pad(&[(0, 3)]).unwrap().shrink(&[(5, 7)]).unwrap();
    /// assert!(s.views()[0].is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.cons() == 1 && self.coeffs.iter().all(|&a| a == 0) && {
            let (lo, hi) = self.bounds[0];
            lo >= hi
        }
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
        for &(d, w) in &self.windows {
            let (a, b) = (w.start, w.start + w.extent);
            write!(
                f,
                " with d{d} reading [{a},{b}) valid in [{},{})",
                w.lo, w.hi
            )?;
        }
        for (c, con) in self.constraints().iter().enumerate() {
            f.write_str(if c == 0 { " if " } else { " && " })?;
            write!(f, "{con}")?;
        }
        Ok(())
    }
}
