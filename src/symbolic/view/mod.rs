//! Views and movement ops over symbols: [`SymView`], [`SymViewStack`],
//! [`SymMovement`], the symbolic counterparts of [`View`](crate::View),
//! [`ViewStack`](crate::ViewStack) and [`Movement`](crate::Movement).
//!
//! A [`SymView`] is a hierarchical view whose leaf extents, strides, offset
//! and constraint bounds are polynomials ([`Poly`]) over the symbols of a
//! [`Symbols`] table: each tensor dimension is a tuple of leaves (row-major),
//! the offset of an element is `offset + Σ x_k·stride_k` over its leaf
//! coordinates `x_k`, and it is valid when every [`SymConstraint`]
//! `lo <= Σ a_k·x_k < hi` holds (integer coefficients `a_k`, polynomial
//! bounds). A [`SymViewStack`] is a sequence of such views, each above the
//! bottom one producing row-major indices into the shape of the view below,
//! as [`ViewStack`](crate::ViewStack) does.
//!
//! The movement ops are tinygrad 0.10.3's six (module `ops`, and `reshape`),
//! with symbolic shapes and arguments. Every structural decision is proved
//! for every binding the assumptions allow (polynomial identities, or the
//! three-valued prover); a precondition that is not proved refuses with
//! [`Error::NeedsFacts`] naming the facts, one that is refuted refuses with
//! the concrete op's [`Error::BadMovement`]. When the top view cannot express
//! an op for every binding, a contiguous view is pushed and the op applies to
//! it, which is always right; pushed for a pad or a shrink, it is a *box*
//! over the view below and folds back into it when a later pad or shrink
//! leaves it the identity on the dimensions with several leaves (module
//! `fold`). Every extent is kept `>= 1` (an op that could
//! make an extent 0 at some allowed binding is refused, naming the fact).
//!
//! [`SymViewStack::bind`] turns the stack into the concrete
//! [`ViewStack`](crate::ViewStack) at a binding: the contract checked by the
//! tests is that it equals, as a function (offset at every valid element,
//! validity everywhere), the concrete chain run at that binding.
//!
//! Storage: leaf extents and strides inline up to 8 leaves, constraints
//! inline up to 2; each op is O(leaves · constraints · t) polynomial work
//! (t terms per polynomial) and allocates nothing for small ranks except
//! where a polynomial product of more than two terms needs the heap.
//!
//! ```
//! use hlayout::symbolic::{SymMovement, SymViewStack, Symbols};
//! let mut s = Symbols::new();
//! let shape = [s.parse("N").unwrap(), s.parse("4").unwrap()];
//! let t = SymViewStack::new(&shape, &s)?
//!     .apply(&SymMovement::parse(r#"["permute",[1,0]]"#, &mut s)?, &s)?
//!     .apply(&SymMovement::parse(r#"["reshape",["4*N"]]"#, &mut s)?, &s)?;
//! assert_eq!(t.show(&s).to_string(), "((4,N)):((1,4))");
//! let n = s.id("N").unwrap();
//! let mut values = vec![0; s.len()];
//! values[n as usize] = 3;
//! let c = t.bind(&s, &values)?;
//! assert_eq!(c.eval(&[1])?, Some(4));
//! # Ok::<(), hlayout::Error>(())
//! ```

mod fold;
mod movement;
mod ops;
mod reshape;

use std::fmt;
use std::ops::Range;

use smallvec::SmallVec;

use super::need::Needs;
use super::poly::Poly;
use super::prove::{Fact, Truth};
use super::symbols::Symbols;
use crate::error::{Error, Result};
use crate::view::{Builder, View, ViewStack};

pub(crate) use fold::BoxMap;
pub use movement::{ShowMovement, SymMovement};

/// Inline polynomials: one per leaf, no allocation up to 8 leaves.
pub(crate) type Polys = SmallVec<[Poly; 8]>;

/// A validity constraint `lo <= Σ coeffs[k]·x_k < hi` over the leaf
/// coordinates `x_k` of a [`SymView`] (one coefficient per leaf, in the
/// order of [`SymView::leaf_extents`]).
///
/// ```
/// use hlayout::symbolic::{SymMovement, SymViewStack, Symbols};
/// let mut s = Symbols::new();
/// let t = SymViewStack::new(&[s.parse("N").unwrap()], &s)?
///     .apply(&SymMovement::parse(r#"["pad",[["j",0]]]"#, &mut s)?, &s)?;
/// let c = &t.views()[0].constraints()[0];
/// assert_eq!(c.coeffs(), [1]);
/// assert_eq!((s.show(c.lo()).to_string(), s.show(c.hi()).to_string()), ("j".into(), "N+j".into()));
/// # Ok::<(), hlayout::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SymConstraint {
    coeffs: SmallVec<[i64; 8]>,
    lo: Poly,
    hi: Poly,
}

impl SymConstraint {
    /// `true` for the marker of a view with no valid element: no
    /// coefficient and constant bounds `lo >= hi` (written `never`).
    fn is_never(&self) -> bool {
        self.coeffs.iter().all(|&a| a == 0)
            && matches!((self.lo.as_const(), self.hi.as_const()), (Some(l), Some(h)) if l >= h)
    }

    /// The coefficient of each leaf.
    ///
    /// See [`SymConstraint`] for an example.
    pub fn coeffs(&self) -> &[i64] {
        &self.coeffs
    }

    /// The lower bound (inclusive).
    ///
    /// See [`SymConstraint`] for an example.
    pub fn lo(&self) -> &Poly {
        &self.lo
    }

    /// The upper bound (exclusive).
    ///
    /// See [`SymConstraint`] for an example.
    pub fn hi(&self) -> &Poly {
        &self.hi
    }
}

/// One hierarchical view over symbols (see [`SymViewStack`] and `docs/symbolic.md` §9).
///
/// ```
/// use hlayout::symbolic::{Assume, SymViewStack, Symbols};
/// let mut s = Symbols::new();
/// s.assume("S", Assume { max: 1 << 20, ..Assume::default() })?;
/// let t = SymViewStack::new(&[s.parse("B").unwrap(), s.parse("S").unwrap(), 64.into()], &s)?;
/// let v = &t.views()[0];
/// assert_eq!(v.rank(), 3);
/// assert_eq!(s.show(&v.leaf_strides()[0]).to_string(), "64*S");
/// assert_eq!(v.dim_leaves(2), 2..3);
/// assert!(v.offset().is_zero() && v.constraints().is_empty());
/// # Ok::<(), hlayout::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SymView {
    /// Leaf extents, row-major (dimension by dimension, slowest leaf first).
    ext: Polys,
    /// Leaf strides.
    stride: Polys,
    /// Number of leaves of each dimension (at least 1).
    dim_len: SmallVec<[u32; 8]>,
    /// The validity constraints (none: every element is valid).
    cons: SmallVec<[SymConstraint; 2]>,
    offset: Poly,
}

impl SymView {
    /// The contiguous row-major view of `shape` (strides the suffix
    /// products, offset 0, always valid); no check of the extents. O(rank·t²).
    ///
    /// # Errors
    /// [`Error::Overflow`]; [`Error::LimitExceeded`] (`max_degree`).
    pub(crate) fn contiguous(shape: &[Poly]) -> Result<SymView> {
        let mut stride: Polys = SmallVec::from_elem(Poly::zero(), shape.len());
        let mut acc = Poly::constant(1);
        for (st, e) in stride.iter_mut().zip(shape).rev() {
            if *e != Poly::constant(1) {
                *st = acc.clone();
                acc = acc.mul(e)?;
            }
        }
        Ok(SymView {
            ext: shape.iter().cloned().collect(),
            stride,
            dim_len: SmallVec::from_elem(1, shape.len()),
            cons: SmallVec::new(),
            offset: Poly::zero(),
        })
    }

    /// Number of dimensions.
    ///
    /// See [`SymView`] for an example.
    pub fn rank(&self) -> usize {
        self.dim_len.len()
    }

    /// The extents of all leaves, dimension by dimension, slowest first.
    ///
    /// See [`SymView`] for an example.
    pub fn leaf_extents(&self) -> &[Poly] {
        &self.ext
    }

    /// The strides of all leaves, in the order of [`SymView::leaf_extents`].
    ///
    /// See [`SymView`] for an example.
    pub fn leaf_strides(&self) -> &[Poly] {
        &self.stride
    }

    /// The indices (into [`SymView::leaf_extents`]) of dimension `d`'s
    /// leaves; the dimension's coordinate is the row-major index over them.
    ///
    /// # Panics
    /// When `d >= self.rank()`.
    ///
    /// See [`SymView`] for an example.
    pub fn dim_leaves(&self, d: usize) -> Range<usize> {
        let start: usize = self.dim_len[..d].iter().map(|&n| n as usize).sum();
        start..start + self.dim_len[d] as usize
    }

    /// The leaf ranges of every dimension, in order.
    pub(crate) fn dim_ranges(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        self.dim_len.iter().scan(0usize, |start, &n| {
            let r = *start..*start + n as usize;
            *start = r.end;
            Some(r)
        })
    }

    /// The offset of coordinate zero (before validity).
    ///
    /// See [`SymView`] for an example.
    pub fn offset(&self) -> &Poly {
        &self.offset
    }

    /// The validity constraints (empty when every element is valid).
    ///
    /// See [`SymConstraint`] for an example.
    pub fn constraints(&self) -> &[SymConstraint] {
        &self.cons
    }

    /// The extent of dimension `d`: the product of its leaf extents.
    ///
    /// # Errors
    /// [`Error::Overflow`]; [`Error::LimitExceeded`] (`max_degree`).
    ///
    /// ```
    /// use hlayout::symbolic::{SymViewStack, Symbols};
    /// let mut s = Symbols::new();
    /// let t = SymViewStack::new(&[s.parse("N").unwrap(), 4.into()], &s)?;
    /// assert_eq!(s.show(&t.views()[0].dim_extent(0)?).to_string(), "N");
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn dim_extent(&self, d: usize) -> Result<Poly> {
        let r = self.dim_leaves(d);
        if r.len() == 1 {
            return Ok(self.ext[r.start].clone());
        }
        self.ext[r]
            .iter()
            .try_fold(Poly::constant(1), |acc, e| acc.mul(e))
    }

    /// The tensor shape: one extent per dimension.
    ///
    /// # Errors
    /// As [`SymView::dim_extent`].
    ///
    /// ```
    /// use hlayout::symbolic::{SymViewStack, Symbols};
    /// let mut s = Symbols::new();
    /// let t = SymViewStack::new(&[s.parse("N").unwrap(), 4.into()], &s)?;
    /// assert_eq!(t.views()[0].shape()?.len(), 2);
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn shape(&self) -> Result<Polys> {
        (0..self.rank()).map(|d| self.dim_extent(d)).collect()
    }

    /// The number of elements, the product of the leaf extents.
    ///
    /// # Errors
    /// As [`SymView::dim_extent`].
    pub(crate) fn size(&self) -> Result<Poly> {
        self.ext
            .iter()
            .try_fold(Poly::constant(1), |acc, e| acc.mul(e))
    }

    /// `true` when this is the contiguous row-major view of its shape:
    /// offset 0, no constraint, each stride the product of the extents of
    /// the leaves after it (extent-1 leaves excepted). A polynomial identity,
    /// no prover. O(leaves·t²).
    ///
    /// ```
    /// use hlayout::symbolic::{SymViewStack, Symbols};
    /// let mut s = Symbols::new();
    /// let t = SymViewStack::new(&[s.parse("N").unwrap(), 4.into()], &s)?;
    /// assert!(t.views()[0].is_contiguous());
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn is_contiguous(&self) -> bool {
        if !self.offset.is_zero() || !self.cons.is_empty() {
            return false;
        }
        let mut acc = Poly::constant(1);
        for (e, s) in self.ext.iter().zip(&self.stride).rev() {
            if *e == Poly::constant(1) {
                continue;
            }
            if *s != acc {
                return false;
            }
            match acc.mul(e) {
                Ok(a) => acc = a,
                Err(_) => return false,
            }
        }
        true
    }

    /// The concrete view at a binding (`values[id]` for each symbol).
    ///
    /// # Errors
    /// [`Error::Overflow`] when a polynomial leaves `i64` at the binding or
    /// the concrete view's offsets do; [`Error::BadMovement`] for an extent
    /// below 1 (only reachable with values outside the assumptions).
    ///
    /// ```
    /// use hlayout::symbolic::{SymViewStack, Symbols};
    /// let mut s = Symbols::new();
    /// let t = SymViewStack::new(&[s.parse("N").unwrap(), 4.into()], &s)?;
    /// let v = t.views()[0].bind(&[3])?;
    /// assert_eq!(v.to_string(), "(3,4):(4,1)");
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn bind(&self, values: &[i64]) -> Result<View> {
        let bounds = self
            .cons
            .iter()
            .map(|c| Ok((at(&c.lo, values)?, at(&c.hi, values)?)))
            .collect::<Result<SmallVec<[(i64, i64); 2]>>>()?;
        let mut b = Builder::new(bounds, at(&self.offset, values)?);
        for r in self.dim_ranges() {
            for k in r {
                let e = at(&self.ext[k], values)?;
                if e < 1 {
                    return Err(Error::BadMovement {
                        op: "bind",
                        why: format!("leaf extent {e} at the binding (extents are >= 1)"),
                    });
                }
                let s = if e == 1 {
                    0
                } else {
                    at(&self.stride[k], values)?
                };
                b.leaf(e, s, self.cons.iter().map(|c| c.coeffs[k]));
            }
            b.end_dim(None);
        }
        let mut v = b.finish();
        v.tidy()?;
        Ok(v)
    }

    /// A `Display` in the text of [`View`](crate::View)'s: the layout, then
    /// `+OFFSET` when not zero, then `if lo<=Σa·xk<hi && …`.
    ///
    /// ```
    /// use hlayout::symbolic::{SymMovement, SymViewStack, Symbols};
    /// let mut s = Symbols::new();
    /// let t = SymViewStack::new(&[s.parse("N").unwrap()], &s)?
    ///     .apply(&SymMovement::parse(r#"["pad",[[1,"j"]]]"#, &mut s)?, &s)?;
    /// assert_eq!(t.views()[0].show(&s).to_string(), "N+j+1:1-1 if 1<=x0<N+1");
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn show<'a>(&'a self, syms: &'a Symbols) -> ShowView<'a> {
        ShowView { v: self, syms }
    }
}

/// The value of `p` at the binding, in `i64`.
pub(crate) fn at(p: &Poly, values: &[i64]) -> Result<i64> {
    p.eval_i64(values)
}

/// A [`SymView`] with its symbol names (see [`SymView::show`]).
#[derive(Clone, Copy, Debug)]
pub struct ShowView<'a> {
    v: &'a SymView,
    syms: &'a Symbols,
}

impl fmt::Display for ShowView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (v, syms) = (self.v, self.syms);
        let single = v.rank() == 1 && v.ext.len() == 1;
        let tuple = |f: &mut fmt::Formatter<'_>, leaves: &[Poly]| -> fmt::Result {
            if single {
                return write!(f, "{}", syms.show(&leaves[0]));
            }
            f.write_str("(")?;
            for (d, r) in v.dim_ranges().enumerate() {
                if d > 0 {
                    f.write_str(",")?;
                }
                if r.len() > 1 {
                    f.write_str("(")?;
                }
                for (i, k) in r.clone().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}", syms.show(&leaves[k]))?;
                }
                if r.len() > 1 {
                    f.write_str(")")?;
                }
            }
            f.write_str(")")
        };
        tuple(f, &v.ext)?;
        f.write_str(":")?;
        tuple(f, &v.stride)?;
        if !v.offset.is_zero() {
            signed(f, syms, &v.offset)?;
        }
        for (j, c) in v.cons.iter().enumerate() {
            f.write_str(if j == 0 { " if " } else { " && " })?;
            if c.is_never() {
                f.write_str("never")?;
                continue;
            }
            write!(f, "{}<=", syms.show(&c.lo))?;
            let mut first = true;
            for (k, &a) in c.coeffs.iter().enumerate().filter(|(_, a)| **a != 0) {
                let sign = if a < 0 {
                    "-"
                } else if first {
                    ""
                } else {
                    "+"
                };
                match a.unsigned_abs() {
                    1 => write!(f, "{sign}x{k}")?,
                    m => write!(f, "{sign}{m}*x{k}")?,
                }
                first = false;
            }
            if first {
                f.write_str("0")?;
            }
            write!(f, "<{}", syms.show(&c.hi))?;
        }
        Ok(())
    }
}

/// `p` with a leading `+` unless its text starts with `-`.
fn signed(f: &mut fmt::Formatter<'_>, syms: &Symbols, p: &Poly) -> fmt::Result {
    let text = syms.show(p).to_string();
    if !text.starts_with('-') {
        f.write_str("+")?;
    }
    f.write_str(&text)
}

/// A stack of [`SymView`]s, bottom (reading the buffer) first; never
/// empty. Movement ops take the stack by value and edit its top view.
///
/// ```
/// use hlayout::symbolic::{Assume, SymMovement, SymViewStack, Symbols};
/// let mut s = Symbols::new();
/// s.assume("x", Assume { max: 1 << 20, ..Assume::default() })?;
/// let x = s.parse("x")?;
/// let t = SymViewStack::new(&[x.clone(), 4.into()], &s)?;
/// // tinygrad 0.10.3 accepts this unchecked; 4*x != 5*x for every x >= 1.
/// let bad = t.clone().reshape(&[x.clone(), 5.into()], &s).unwrap_err();
/// assert!(bad.to_string().starts_with("reshape:"), "{bad}");
/// let ok = t.reshape(&[s.parse("4*x")?], &s)?;
/// assert_eq!(ok.show(&s).to_string(), "4*x:1");
/// # Ok::<(), hlayout::Error>(())
/// ```
///
/// Two stacks are equal when their views are (the box bookkeeping below
/// is not compared).
#[derive(Clone, Debug)]
pub struct SymViewStack {
    views: Vec<SymView>,
    /// `(i, map)` for each view `i` that is a *box* over view `i − 1`
    /// (pushed for a pad or shrink of a dimension with several leaves and
    /// edited only by pads, shrinks and flips while on top, or the windows
    /// of a concrete view): how each dimension reads view `i − 1`. Module
    /// `fold`; the kernels lower a box dimension by dimension. Empty (no
    /// allocation, nothing to clone) for most stacks.
    boxes: Vec<(usize, BoxMap)>,
}

impl PartialEq for SymViewStack {
    fn eq(&self, other: &SymViewStack) -> bool {
        self.views == other.views
    }
}

impl Eq for SymViewStack {}

impl std::hash::Hash for SymViewStack {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.views.hash(state);
    }
}

impl SymViewStack {
    /// The contiguous tensor of `shape`. Each extent must be `>= 1` and the
    /// size at most `i64::MAX` for every allowed binding. O(rank·t²).
    ///
    /// # Errors
    /// [`Error::NeedsFacts`] naming the facts (`N >= 1`, `N*M <= …`);
    /// [`Error::LimitExceeded`] for a polynomial past the limits;
    /// [`Error::Overflow`].
    ///
    /// ```
    /// use hlayout::symbolic::{SymViewStack, Symbols};
    /// let mut s = Symbols::new();
    /// let err = SymViewStack::new(&[s.parse("N-1").unwrap()], &s).unwrap_err();
    /// assert!(err.to_string().ends_with("needs N >= 2"), "{err}");
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn new(shape: &[Poly], syms: &Symbols) -> Result<SymViewStack> {
        let mut needs = Needs::new(syms, "view");
        require_extents(&mut needs, shape)?;
        let v = SymView::contiguous(shape)?;
        needs.require(Fact::at_most(&v.size()?, i64::MAX))?;
        needs.finish("a valid shape (extents >= 1, size within i64)")?;
        Ok(SymViewStack {
            views: vec![v],
            boxes: Vec::new(),
        })
    }

    /// The stack of a concrete [`ViewStack`] (every polynomial a constant).
    /// A view with windows (a shrink or pad that cuts a nested dimension)
    /// becomes two: the view of its leaves, and above it the view that
    /// reads the windows. O(leaves · constraints).
    ///
    /// # Errors
    /// [`Error::Overflow`] when a window's shifted offset leaves `i64`.
    ///
    /// ```
    /// use hlayout::symbolic::{SymViewStack, Symbols};
    /// let c = hlayout::ViewStack::new(&[4, 6])?.pad(&[(1, 0), (0, 0)])?;
    /// let s = SymViewStack::from_concrete(&c)?;
    /// assert_eq!(s.show(&Symbols::new()).to_string(), c.to_string());
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn from_concrete(stack: &ViewStack) -> Result<SymViewStack> {
        let mut views = Vec::with_capacity(stack.views().len());
        let mut boxes = Vec::new();
        for v in stack.views() {
            views.push(SymView::of_concrete(v));
            if let Some((top, shifts)) = SymView::windows_of(v)? {
                let flip = SmallVec::from_elem(false, shifts.len());
                boxes.push((
                    views.len(),
                    BoxMap {
                        shift: shifts,
                        flip,
                    },
                ));
                views.push(top);
            }
        }
        Ok(SymViewStack { views, boxes })
    }

    /// The views, bottom (reading the buffer) first.
    ///
    /// See [`SymViewStack::new`] for an example.
    pub fn views(&self) -> &[SymView] {
        &self.views
    }

    /// How view `i` reads view `i − 1` when it is a box over it (module
    /// `fold`).
    pub(crate) fn box_map(&self, i: usize) -> Option<&BoxMap> {
        self.boxes.iter().find(|(k, _)| *k == i).map(|(_, m)| m)
    }

    /// Records view `i` as a box read through `map`, or as no box.
    pub(crate) fn set_box(&mut self, i: usize, map: Option<BoxMap>) {
        self.boxes.retain(|(k, _)| *k != i);
        if let Some(m) = map {
            self.boxes.push((i, m));
        }
    }

    /// Pops the top view.
    pub(crate) fn pop_view(&mut self) {
        self.views.pop();
        let n = self.views.len();
        self.boxes.retain(|(k, _)| *k < n);
    }

    /// Marks the top view as no box (an op other than a pad, a shrink or a
    /// flip is about to edit it).
    pub(crate) fn untrack_top(&mut self) {
        if !self.boxes.is_empty() {
            self.set_box(self.views.len() - 1, None);
        }
    }

    /// The top view (the one ops edit).
    pub(crate) fn top(&self) -> &SymView {
        self.views.last().expect("a stack is never empty")
    }

    /// The top view, mutably.
    pub(crate) fn top_mut(&mut self) -> &mut SymView {
        self.views.last_mut().expect("a stack is never empty")
    }

    /// The tensor shape (the top view's).
    ///
    /// # Errors
    /// As [`SymView::dim_extent`].
    ///
    /// ```
    /// use hlayout::symbolic::{SymViewStack, Symbols};
    /// let mut s = Symbols::new();
    /// let t = SymViewStack::new(&[s.parse("N").unwrap()], &s)?;
    /// assert_eq!(t.shape()?.len(), 1);
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn shape(&self) -> Result<Vec<Poly>> {
        Ok(self.top().shape()?.into_vec())
    }

    /// Pushes the contiguous view of the current shape (ops that the top
    /// view cannot express apply to it).
    pub(crate) fn push_contiguous(&mut self) -> Result<()> {
        let shape = self.top().shape()?;
        self.views.push(SymView::contiguous(&shape)?);
        Ok(())
    }

    /// The concrete stack at a binding (`values[id]` for each symbol of
    /// `syms`, each allowed by its assumptions), its adjacent views merged
    /// where they merge exactly. O(views · leaves · t) plus the merges.
    ///
    /// # Errors
    /// [`Error::OutOfDomain`] for a value outside its assumptions or a
    /// binding of the wrong length; [`Error::Overflow`] as in
    /// [`SymView::bind`].
    ///
    /// ```
    /// use hlayout::symbolic::{SymMovement, SymViewStack, Symbols};
    /// let mut s = Symbols::new();
    /// let t = SymViewStack::new(&[s.parse("N").unwrap(), 6.into()], &s)?
    ///     .apply(&SymMovement::parse(r#"["shrink",[[0,"N"],[1,5]]]"#, &mut s)?, &s)?;
    /// let c = t.bind(&s, &[2])?;
    /// assert_eq!(c.shape(), vec![2, 4]);
    /// assert_eq!(c.eval(&[1, 0])?, Some(7));
    /// assert!(t.bind(&s, &[0]).is_err());
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn bind(&self, syms: &Symbols, values: &[i64]) -> Result<ViewStack> {
        if values.len() != syms.len() {
            return Err(Error::OutOfDomain {
                what: format!(
                    "a binding of {} values for {} symbols",
                    values.len(),
                    syms.len()
                ),
            });
        }
        for (id, &v) in values.iter().enumerate() {
            let a = syms.assumption(id as u8);
            if !a.allows(v) {
                let name = syms.name(id as u8);
                return Err(Error::OutOfDomain {
                    what: format!(
                        "{name} = {v} breaks its assumptions ({} <= {name} <= {}, {name} % {} == 0)",
                        a.min, a.max, a.divisible_by
                    ),
                });
            }
        }
        let views = self
            .views
            .iter()
            .map(|v| v.bind(values))
            .collect::<Result<Vec<View>>>()?;
        ViewStack::from_views(views)
    }

    /// A `Display` in the text of [`ViewStack`]'s: the views bottom first,
    /// separated by ` | `.
    ///
    /// See [`SymViewStack`] for an example.
    pub fn show<'a>(&'a self, syms: &'a Symbols) -> ShowStack<'a> {
        ShowStack { s: self, syms }
    }
}

impl SymView {
    /// The leaves, offset and constraints of a concrete view (its windows
    /// apart: see [`SymView::windows_of`]). O(leaves · constraints).
    fn of_concrete(v: &View) -> SymView {
        let cons = v
            .constraints()
            .iter()
            .map(|c| SymConstraint {
                coeffs: c.coeffs().iter().copied().collect(),
                lo: c.lo().into(),
                hi: c.hi().into(),
            })
            .collect();
        SymView {
            ext: v.leaf_extents().iter().map(|&e| e.into()).collect(),
            stride: v.leaf_strides().iter().map(|&e| e.into()).collect(),
            dim_len: (0..v.rank())
                .map(|d| v.dim_leaves(d).len() as u32)
                .collect(),
            cons,
            offset: v.offset().into(),
        }
    }

    /// The view that reads a concrete view's windows from the view of its
    /// leaves: one leaf per dimension over the row-major index of the
    /// leaves' shape, windowed dimension `d` shifted by its start and
    /// valid in `[lo, hi)` of the leaves' index; `None` without windows.
    fn windows_of(v: &View) -> Result<Option<(SymView, Polys)>> {
        if (0..v.rank()).all(|d| v.window(d).is_none()) {
            return Ok(None);
        }
        let radix: SmallVec<[i64; 8]> = (0..v.rank())
            .map(|d| v.leaf_extents()[v.dim_leaves(d)].iter().product())
            .collect();
        let (mut offset, mut acc) = (0i64, 1i64);
        let mut stride: SmallVec<[i64; 8]> = SmallVec::from_elem(0, v.rank());
        for d in (0..v.rank()).rev() {
            stride[d] = acc;
            acc *= radix[d];
        }
        let mut out = SymView {
            ext: SmallVec::new(),
            stride: stride.iter().map(|&s| s.into()).collect(),
            dim_len: SmallVec::from_elem(1, v.rank()),
            cons: SmallVec::new(),
            offset: Poly::zero(),
        };
        let mut shifts: Polys = SmallVec::from_elem(Poly::zero(), v.rank());
        for d in 0..v.rank() {
            match v.window(d) {
                None => out.ext.push(radix[d].into()),
                Some(w) => {
                    out.ext.push(w.extent().into());
                    shifts[d] = w.start().into();
                    let shift = w.start().checked_mul(stride[d]);
                    offset = shift
                        .and_then(|x| x.checked_add(offset))
                        .ok_or(Error::Overflow {
                            what: "offset of a window",
                        })?;
                    let mut coeffs: SmallVec<[i64; 8]> = SmallVec::from_elem(0, v.rank());
                    coeffs[d] = 1;
                    out.cons.push(SymConstraint {
                        coeffs,
                        lo: (w.lo() - w.start()).into(),
                        hi: (w.hi() - w.start()).into(),
                    });
                }
            }
        }
        out.offset = offset.into();
        Ok(Some((out, shifts)))
    }
}

/// A [`SymViewStack`] with its symbol names (see [`SymViewStack::show`]).
#[derive(Clone, Copy, Debug)]
pub struct ShowStack<'a> {
    s: &'a SymViewStack,
    syms: &'a Symbols,
}

impl fmt::Display for ShowStack<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, v) in self.s.views.iter().enumerate() {
            if k > 0 {
                f.write_str(" | ")?;
            }
            write!(f, "{}", v.show(self.syms))?;
        }
        Ok(())
    }
}

/// Requires every extent `>= 1`.
pub(crate) fn require_extents(needs: &mut Needs<'_>, shape: &[Poly]) -> Result<()> {
    for e in shape {
        needs.syms.check(e)?;
        if e.as_const().is_some_and(|c| c >= 1) {
            continue;
        }
        needs.require(Fact::ge(e, &Poly::constant(1))?)?;
    }
    Ok(())
}

/// `a == b` for every allowed binding: `Proved`, `Refuted`, or `Unknown`.
/// Identical polynomials answer without the prover.
pub(crate) fn equal(syms: &Symbols, a: &Poly, b: &Poly) -> Result<Truth> {
    if a == b {
        return Ok(Truth::Proved);
    }
    Ok(syms.prove(&Fact::eq(a, b)?))
}
