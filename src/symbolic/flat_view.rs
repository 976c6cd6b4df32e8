//! [`SymFlatView`]: tinygrad's flat `View` (shape, strides, offset, per-dimension
//! box mask) whose numbers are polynomials over the symbols.
//!
//! It is the symbolic counterpart of [`FlatView`]: the answer of
//! [`SymLayout::flatten`](super::SymLayout::flatten) and the operands and
//! answer of [`merge`](super::merge). Element `c` is at
//! `offset + Σ c_d·strides_d` and valid iff `begin_d <= c_d < end_d` for every
//! `d`. [`SymFlatView::bind`] substitutes values and gives the concrete view.
//! The text ([`SymFlatView::show`]) is tinygrad's `View(...)` form with the
//! protocol's polynomial text: `View(shape=(N, 4), strides=(4, 1), offset=0, mask=None)`.
//!
//! ```
//! use hlayout::symbolic::{SymFlatView, Symbols};
//! let mut s = Symbols::new();
//! let v = SymFlatView::parse(&["sp+1", "4"], &["4", "1"], "0", Some(&[("0", "sp"), ("0", "4")]), &mut s).unwrap();
//! assert_eq!(
//!     v.show(&s).to_string(),
//!     "View(shape=(sp+1, 4), strides=(4, 1), offset=0, mask=((0, sp), (0, 4)))"
//! );
//! let bound = v.bind(&[3]).unwrap();
//! assert_eq!(bound.eval(&[2, 1]).unwrap(), Some(9));
//! assert_eq!(bound.eval(&[3, 1]).unwrap(), None);
//! ```

use std::fmt;

use super::need::Needs;
use super::poly::Poly;
use super::prove::Fact;
use super::symbols::Symbols;
use crate::error::{Error, Result};
use crate::layout::FlatView;

/// A flat view with polynomial numbers (module docs).
///
/// ```
/// use hlayout::symbolic::{SymFlatView, Symbols};
/// let mut s = Symbols::new();
/// let v = SymFlatView::parse(&["N", "4"], &["4", "1"], "0", None, &mut s).unwrap();
/// assert_eq!(v.shape().len(), 2);
/// assert_eq!(v.bind(&[5]).unwrap().strides(), &[4, 1]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SymFlatView {
    shape: Vec<Poly>,
    strides: Vec<Poly>,
    offset: Poly,
    mask: Option<Vec<(Poly, Poly)>>,
}

/// A mask interval `[begin, end)` of one dimension.
pub type SymInterval = (Poly, Poly);

impl SymFlatView {
    /// A view from its parts, checked for every allowed binding: equal
    /// lengths, extents `>= 0`, mask intervals `0 <= begin <= end <= extent`,
    /// and every `|offset|`, `|stride|·(extent − 1)` and the size at most
    /// `2^56` (the concrete merge's bound, [`crate::merge::MAX_SPAN`]).
    ///
    /// # Errors
    /// [`Error::InvalidView`] when lengths differ; [`Error::NeedsFacts`] when a
    /// condition is not proved for every allowed binding (naming it);
    /// [`Error::LimitExceeded`] for a polynomial past the [`Symbols`] limits.
    ///
    /// ```
    /// use hlayout::symbolic::{Poly, SymFlatView, Symbols};
    /// let mut s = Symbols::new();
    /// let n = s.parse("N").unwrap();
    /// let m = s.parse("N-1").unwrap();
    /// assert!(SymFlatView::new(vec![n.clone()], vec![1.into()], 0.into(), None, &s).is_ok());
    /// let err = SymFlatView::new(vec![n], vec![1.into()], 0.into(), Some(vec![(m, 5.into())]), &s);
    /// assert!(err.unwrap_err().to_string().contains("needs"));
    /// ```
    pub fn new(
        shape: Vec<Poly>,
        strides: Vec<Poly>,
        offset: Poly,
        mask: Option<Vec<SymInterval>>,
        syms: &Symbols,
    ) -> Result<SymFlatView> {
        let v = SymFlatView {
            shape,
            strides,
            offset,
            mask,
        };
        v.validate(syms)?;
        Ok(v)
    }

    /// [`SymFlatView::new`] from polynomial text, adding new symbols to `syms`.
    ///
    /// # Errors
    /// As [`Symbols::parse`] and [`SymFlatView::new`].
    ///
    /// ```
    /// use hlayout::symbolic::{SymFlatView, Symbols};
    /// let mut s = Symbols::new();
    /// let v = SymFlatView::parse(&["2*N"], &["-1"], "2*N-1", None, &mut s).unwrap();
    /// assert_eq!(v.show(&s).to_string(), "View(shape=(2*N,), strides=(-1,), offset=2*N-1, mask=None)");
    /// ```
    pub fn parse(
        shape: &[&str],
        strides: &[&str],
        offset: &str,
        mask: Option<&[(&str, &str)]>,
        syms: &mut Symbols,
    ) -> Result<SymFlatView> {
        let mut all =
            |v: &[&str]| -> Result<Vec<Poly>> { v.iter().map(|t| syms.parse(t)).collect() };
        let shape = all(shape)?;
        let strides = all(strides)?;
        let offset = syms.parse(offset)?;
        let mask = match mask {
            None => None,
            Some(m) => Some(
                m.iter()
                    .map(|(b, e)| Ok((syms.parse(b)?, syms.parse(e)?)))
                    .collect::<Result<Vec<_>>>()?,
            ),
        };
        SymFlatView::new(shape, strides, offset, mask, syms)
    }

    /// A view whose parts the crate derived from checked data.
    pub(crate) fn from_parts(
        shape: Vec<Poly>,
        strides: Vec<Poly>,
        offset: Poly,
        mask: Option<Vec<SymInterval>>,
    ) -> SymFlatView {
        SymFlatView {
            shape,
            strides,
            offset,
            mask,
        }
    }

    /// The concrete view as a symbolic one (every number constant).
    ///
    /// ```
    /// use hlayout::{symbolic::SymFlatView, FlatView};
    /// let v = FlatView::contiguous(vec![2, 3]).unwrap();
    /// assert_eq!(SymFlatView::from_flat(&v).to_flat(), Some(v));
    /// ```
    pub fn from_flat(v: &FlatView) -> SymFlatView {
        let c = |x: &i64| Poly::constant(*x);
        SymFlatView {
            shape: v.shape().iter().map(c).collect(),
            strides: v.strides().iter().map(c).collect(),
            offset: Poly::constant(v.offset()),
            mask: v
                .mask()
                .map(|m| m.iter().map(|(b, e)| (c(b), c(e))).collect()),
        }
    }

    /// The concrete view when every number is a constant.
    ///
    /// ```
    /// use hlayout::symbolic::{SymFlatView, Symbols};
    /// let mut s = Symbols::new();
    /// let v = SymFlatView::parse(&["N"], &["1"], "0", None, &mut s).unwrap();
    /// assert_eq!(v.to_flat(), None);
    /// ```
    pub fn to_flat(&self) -> Option<FlatView> {
        self.bind(&[]).ok()
    }

    /// The extents.
    ///
    /// ```
    /// let v = hlayout::symbolic::SymFlatView::from_flat(&hlayout::FlatView::contiguous(vec![3]).unwrap());
    /// assert_eq!(v.shape()[0].as_const(), Some(3));
    /// ```
    pub fn shape(&self) -> &[Poly] {
        &self.shape
    }

    /// The strides.
    ///
    /// ```
    /// let v = hlayout::symbolic::SymFlatView::from_flat(&hlayout::FlatView::contiguous(vec![3, 2]).unwrap());
    /// assert_eq!(v.strides()[0].as_const(), Some(2));
    /// ```
    pub fn strides(&self) -> &[Poly] {
        &self.strides
    }

    /// The offset.
    ///
    /// ```
    /// let v = hlayout::symbolic::SymFlatView::from_flat(&hlayout::FlatView::contiguous(vec![3]).unwrap());
    /// assert!(v.offset().is_zero());
    /// ```
    pub fn offset(&self) -> &Poly {
        &self.offset
    }

    /// The per-dimension mask `[begin, end)`, or `None` when every element is valid.
    ///
    /// ```
    /// let v = hlayout::symbolic::SymFlatView::from_flat(&hlayout::FlatView::contiguous(vec![3]).unwrap());
    /// assert!(v.mask().is_none());
    /// ```
    pub fn mask(&self) -> Option<&[SymInterval]> {
        self.mask.as_deref()
    }

    /// The rank.
    ///
    /// ```
    /// let v = hlayout::symbolic::SymFlatView::from_flat(&hlayout::FlatView::contiguous(vec![3, 2]).unwrap());
    /// assert_eq!(v.rank(), 2);
    /// ```
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The concrete view at `values` (one per symbol id of the table).
    ///
    /// # Errors
    /// [`Error::Overflow`] when a number leaves `i64`; [`Error::InvalidView`]
    /// when the bound parts are no view (values outside the assumptions).
    ///
    /// ```
    /// use hlayout::symbolic::{SymFlatView, Symbols};
    /// let mut s = Symbols::new();
    /// let v = SymFlatView::parse(&["N", "4"], &["4", "1"], "N", None, &mut s).unwrap();
    /// assert_eq!(v.bind(&[2]).unwrap().offset(), 2);
    /// ```
    pub fn bind(&self, values: &[i64]) -> Result<FlatView> {
        let at = |p: &Poly| p.eval_i64(values);
        let shape = self.shape.iter().map(at).collect::<Result<_>>()?;
        let strides = self.strides.iter().map(at).collect::<Result<_>>()?;
        let mask = match &self.mask {
            None => None,
            Some(m) => Some(
                m.iter()
                    .map(|(b, e)| Ok((at(b)?, at(e)?)))
                    .collect::<Result<Vec<_>>>()?,
            ),
        };
        FlatView::new(shape, strides, at(&self.offset)?, mask)
    }

    /// A `Display` in tinygrad's `View(...)` form with polynomial text.
    ///
    /// ```
    /// let v = hlayout::symbolic::SymFlatView::from_flat(&hlayout::FlatView::contiguous(vec![]).unwrap());
    /// let s = hlayout::symbolic::Symbols::new();
    /// assert_eq!(v.show(&s).to_string(), "View(shape=(), strides=(), offset=0, mask=None)");
    /// ```
    pub fn show<'a>(&'a self, syms: &'a Symbols) -> ShowFlatView<'a> {
        ShowFlatView { v: self, syms }
    }

    /// The checks of [`SymFlatView::new`]: O(rank) prover calls.
    pub(crate) fn validate(&self, syms: &Symbols) -> Result<()> {
        let r = self.shape.len();
        let lens = [self.strides.len(), self.mask.as_ref().map_or(r, Vec::len)];
        if lens.iter().any(|&l| l != r) {
            return Err(Error::InvalidView {
                what: format!(
                    "shape has {r} dims but strides {} and mask {}",
                    lens[0], lens[1]
                ),
            });
        }
        syms.limits().check_rank(r)?;
        for p in self.polys() {
            syms.check(p)?;
        }
        let mut needs = Needs::new(syms, "view");
        let span = Poly::constant(crate::merge::MAX_SPAN);
        let within = |needs: &mut Needs, p: &Poly| -> Result<()> {
            needs.require(Fact::le(p, &span)?)?;
            needs.require(Fact::ge(p, &span.neg()?)?)
        };
        within(&mut needs, &self.offset)?;
        let mut size = Poly::constant(1);
        for (d, (n, s)) in self.shape.iter().zip(&self.strides).enumerate() {
            needs.require(Fact::NonNeg(n.clone()))?;
            within(&mut needs, &n.sub(&Poly::constant(1))?.mul(s)?)?;
            size = size.mul(n)?;
            syms.check(&size)?;
            if let Some(m) = &self.mask {
                let (b, e) = &m[d];
                needs.require(Fact::NonNeg(b.clone()))?;
                needs.require(Fact::le(b, e)?)?;
                needs.require(Fact::le(e, n)?)?;
            }
        }
        needs.require(Fact::le(&size, &span)?)?;
        needs.finish("the view's extents, mask and span")
    }

    /// Every number of the view.
    fn polys(&self) -> impl Iterator<Item = &Poly> {
        let mask = self.mask.iter().flatten().flat_map(|(b, e)| [b, e]);
        self.shape
            .iter()
            .chain(&self.strides)
            .chain(std::iter::once(&self.offset))
            .chain(mask)
    }

    /// `true` when no number uses a symbol.
    pub(crate) fn is_constant(&self) -> bool {
        self.polys().all(|p| p.as_const().is_some())
    }

    /// The view with every fixed symbol replaced by its value.
    pub(crate) fn fixed(&self, syms: &Symbols) -> SymFlatView {
        let fix = |p: &Poly| syms.fix(p);
        SymFlatView {
            shape: self.shape.iter().map(fix).collect(),
            strides: self.strides.iter().map(fix).collect(),
            offset: fix(&self.offset),
            mask: self
                .mask
                .as_ref()
                .map(|m| m.iter().map(|(b, e)| (fix(b), fix(e))).collect()),
        }
    }
}

/// A [`SymFlatView`] with its symbol names (see [`SymFlatView::show`]).
#[derive(Clone, Copy, Debug)]
pub struct ShowFlatView<'a> {
    v: &'a SymFlatView,
    syms: &'a Symbols,
}

impl ShowFlatView<'_> {
    fn tuple(&self, f: &mut fmt::Formatter<'_>, items: &[Poly]) -> fmt::Result {
        f.write_str("(")?;
        for (k, p) in items.iter().enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}", self.syms.show(p))?;
        }
        f.write_str(if items.len() == 1 { ",)" } else { ")" })
    }
}

impl fmt::Display for ShowFlatView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("View(shape=")?;
        self.tuple(f, &self.v.shape)?;
        f.write_str(", strides=")?;
        self.tuple(f, &self.v.strides)?;
        write!(f, ", offset={}, mask=", self.syms.show(&self.v.offset))?;
        match &self.v.mask {
            None => f.write_str("None")?,
            Some(m) => {
                f.write_str("(")?;
                for (k, (b, e)) in m.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "({}, {})", self.syms.show(b), self.syms.show(e))?;
                }
                f.write_str(if m.len() == 1 { ",)" } else { ")" })?;
            }
        }
        f.write_str(")")
    }
}
