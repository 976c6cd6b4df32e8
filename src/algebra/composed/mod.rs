//! `ComposedLayout`: a swizzle after an offset after a layout, `Sw ∘ O ∘ L`.
//!
//! This is CuTe's `ComposedLayout<Swizzle<B,M,S>, O, Layout>`, the form of
//! every swizzled shared-memory tile: index `i` goes to `Sw(O + L(i))`. The
//! text form is the batch protocol's `Sw<B,M,S> o O o L` (L row-major).
//! Mirroring leaves the swizzle and the offset alone and reverses L.
//!
//! The operations are CuTe's for composed layouts. Everything that acts on a
//! layout's *domain* acts on the inner layout and keeps the swizzle and the
//! offset (`C ∘ B = Sw ∘ O ∘ (L ∘ B)`, divides, products, coalesce), and the
//! complement is the inner layout's: this file. What puts a layout *after*
//! the swizzle (`A ∘ C`, `C₁ ∘ C₂`, a product with a swizzled tiler, the
//! inverses `L⁻¹ ∘ Sw`) needs CuTe's rule `A ∘ Sw = Sw' ∘ A` to bring the
//! swizzle back outside: `left.rs`, where every such result is proved (a
//! shift, the identity) or checked at every index, and refused with the
//! failing index otherwise.

use std::fmt;
use std::str::FromStr;

use crate::algebra::swizzle::{parse_int, parse_swizzle, Swizzle};
use crate::algebra::Tiler;
use crate::error::{self, Error, Result};
use crate::layout::{Layout, Offsets};

mod flat;
mod left;

pub use flat::NotPlain;
pub use left::COMPOSED_CHECK_BUDGET;

/// `i ↦ Sw(O + L(i))`: CuTe's `ComposedLayout<Swizzle<B,M,S>, O, Layout>`.
///
/// ```
/// use hlayout::algebra::ComposedLayout;
/// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse().unwrap();
/// assert_eq!(c.size(), 16);
/// assert_eq!(c.offsets().take(6).collect::<Vec<_>>(), [0, 1, 2, 3, 5, 4]);
/// assert_eq!(c.to_string(), "Sw<1,0,2> o 0 o (4,4):(4,1)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComposedLayout {
    swizzle: Swizzle,
    offset: i64,
    layout: Layout,
}

impl ComposedLayout {
    /// `Sw ∘ O ∘ L`.
    ///
    /// # Errors
    /// [`Error::Overflow`] when `O + L(i)` leaves `i64` for some `i < size(L)`.
    ///
    /// ```
    /// use hlayout::{algebra::{ComposedLayout, Swizzle}, Layout};
    /// let l: Layout = "(8,8):(8,1)".parse().unwrap();
    /// let c = ComposedLayout::new(Swizzle::new(3, 0, 3).unwrap(), 0, l).unwrap();
    /// assert_eq!(c.eval(9).unwrap(), 9 ^ 1);
    /// ```
    pub fn new(swizzle: Swizzle, offset: i64, layout: Layout) -> Result<ComposedLayout> {
        let (lo, hi) = span(&layout);
        let what = "offset of a composed layout";
        error::add(offset, lo, what)?;
        error::add(offset, hi, what)?;
        Ok(ComposedLayout {
            swizzle,
            offset,
            layout,
        })
    }

    /// The swizzle `Sw`.
    ///
    /// ```
    /// let c: hlayout::algebra::ComposedLayout = "Sw<2,1,3> o 0 o 8:1".parse().unwrap();
    /// assert_eq!(c.swizzle().to_string(), "Sw<2,1,3>");
    /// ```
    pub fn swizzle(&self) -> Swizzle {
        self.swizzle
    }

    /// The offset `O`.
    ///
    /// ```
    /// let c: hlayout::algebra::ComposedLayout = "Sw<2,1,3> o 16 o 8:1".parse().unwrap();
    /// assert_eq!(c.offset(), 16);
    /// ```
    pub fn offset(&self) -> i64 {
        self.offset
    }

    /// The inner layout `L`.
    ///
    /// ```
    /// let c: hlayout::algebra::ComposedLayout = "Sw<2,1,3> o 0 o 8:1".parse().unwrap();
    /// assert_eq!(c.layout().to_string(), "8:1");
    /// ```
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The number of indices, `size(L)`.
    ///
    /// ```
    /// let c: hlayout::algebra::ComposedLayout = "Sw<2,1,3> o 0 o (4,8):(8,1)".parse().unwrap();
    /// assert_eq!(c.size(), 32);
    /// ```
    pub fn size(&self) -> i64 {
        self.layout.size()
    }

    /// `Sw(O + L(i))`, for every integer i (L's integer extension outside
    /// its domain). O(leaves).
    ///
    /// # Errors
    /// [`Error::Overflow`] when `O + L(i)` leaves `i64` (outside the domain).
    ///
    /// ```
    /// let c: hlayout::algebra::ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse().unwrap();
    /// assert_eq!(c.eval(4).unwrap(), 5); // L(4) = 4, bit 2 into bit 0
    /// ```
    pub fn eval(&self, i: i64) -> Result<i64> {
        let x = error::add(
            self.offset,
            self.layout.eval(i)?,
            "offset of a composed layout",
        )?;
        Ok(self.swizzle.apply(x))
    }

    /// Every offset in row-major order, incrementally (no division per
    /// element): the inner layout's offset stream, shifted and swizzled.
    ///
    /// ```
    /// let c: hlayout::algebra::ComposedLayout = "Sw<1,1,1> o 0 o 8:1".parse().unwrap();
    /// assert_eq!(c.offsets().collect::<Vec<_>>(), [0, 1, 2, 3, 6, 7, 4, 5]);
    /// ```
    pub fn offsets(&self) -> ComposedOffsets {
        let c = self.layout.coalesce();
        ComposedOffsets {
            inner: Offsets::new(c.shape_leaves(), c.stride_leaves(), self.offset),
            swizzle: self.swizzle,
        }
    }

    /// `C ∘ B = Sw ∘ O ∘ (L ∘ B)`: exists exactly when `L ∘ B` does.
    ///
    /// # Errors
    /// Those of [`Layout::compose`].
    ///
    /// ```
    /// use hlayout::{algebra::ComposedLayout, Layout};
    /// let c: ComposedLayout = "Sw<3,4,3> o 0 o (8,64):(64,1)".parse().unwrap();
    /// let row: Layout = "(2,64):(64,1)".parse().unwrap();
    /// assert_eq!(c.compose(&row).unwrap().to_string(), "Sw<3,4,3> o 0 o (2,64):(64,1)");
    /// ```
    pub fn compose(&self, b: &Layout) -> Result<ComposedLayout> {
        self.map_layout(|l| l.compose(b))
    }

    /// The composed layout with `op` applied to the inner layout: CuTe's rule
    /// for every operation on a composed layout's domain (divides, products,
    /// coalesce, composition with a layout on the right).
    ///
    /// # Errors
    /// Those of `op`; [`Error::Overflow`] as in [`ComposedLayout::new`].
    ///
    /// ```
    /// use hlayout::algebra::{ComposedLayout, Tiler};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse().unwrap();
    /// let t = Tiler::Layout("2:1".parse().unwrap());
    /// let d = c.map_layout(|l| l.flat_divide(&t)).unwrap();
    /// assert_eq!(d.layout().to_string(), "(8,2):(2,1)");
    /// ```
    pub fn map_layout(&self, op: impl FnOnce(&Layout) -> Result<Layout>) -> Result<ComposedLayout> {
        ComposedLayout::new(self.swizzle, self.offset, op(&self.layout)?)
    }

    /// `Sw ∘ O ∘ coalesce(L)`: the same function, fewest inner modes.
    ///
    /// ```
    /// let c: hlayout::algebra::ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse().unwrap();
    /// assert_eq!(c.coalesce().to_string(), "Sw<1,0,2> o 0 o 16:1");
    /// ```
    pub fn coalesce(&self) -> ComposedLayout {
        ComposedLayout {
            swizzle: self.swizzle,
            offset: self.offset,
            layout: self.layout.coalesce(),
        }
    }

    /// The complement of the inner layout (CuTe's rule for composed layouts).
    ///
    /// # Errors
    /// Those of [`Layout::complement`].
    ///
    /// ```
    /// let c: hlayout::algebra::ComposedLayout = "Sw<1,0,2> o 0 o 4:2".parse().unwrap();
    /// assert_eq!(c.complement(16).unwrap().to_string(), "(2,2):(8,1)");
    /// ```
    pub fn complement(&self, cotarget: i64) -> Result<Layout> {
        self.layout.complement(cotarget)
    }

    /// `Sw ∘ O ∘ logical_divide(L, B)`.
    ///
    /// # Errors
    /// Those of [`Layout::logical_divide`].
    ///
    /// ```
    /// let c: hlayout::algebra::ComposedLayout = "Sw<1,0,2> o 0 o 16:1".parse().unwrap();
    /// let d = c.logical_divide(&"4:1".parse().unwrap()).unwrap();
    /// assert_eq!(d.to_string(), "Sw<1,0,2> o 0 o (4,4):(4,1)");
    /// ```
    pub fn logical_divide(&self, b: &Layout) -> Result<ComposedLayout> {
        self.map_layout(|l| l.logical_divide(b))
    }

    /// `Sw ∘ O ∘ zipped_divide(L, tiler)`.
    ///
    /// # Errors
    /// Those of [`Layout::zipped_divide`].
    ///
    /// ```
    /// use hlayout::algebra::{ComposedLayout, Tiler};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse().unwrap();
    /// let t = Tiler::Modes(vec!["2:1".parse().unwrap(), "2:1".parse().unwrap()]);
    /// assert_eq!(c.zipped_divide(&t).unwrap().size(), 16);
    /// ```
    pub fn zipped_divide(&self, tiler: &Tiler) -> Result<ComposedLayout> {
        self.map_layout(|l| l.zipped_divide(tiler))
    }

    /// `Sw ∘ O ∘ logical_product(L, B)`: the swizzled tile repeated over B.
    ///
    /// # Errors
    /// Those of [`Layout::logical_product`].
    ///
    /// ```
    /// let c: hlayout::algebra::ComposedLayout = "Sw<1,0,2> o 0 o 8:1".parse().unwrap();
    /// let p = c.logical_product(&"2:1".parse().unwrap()).unwrap();
    /// assert_eq!(p.to_string(), "Sw<1,0,2> o 0 o (2,8):(8,1)");
    /// ```
    pub fn logical_product(&self, b: &Layout) -> Result<ComposedLayout> {
        self.map_layout(|l| l.logical_product(b))
    }

    /// `Sw ∘ O ∘ blocked_product(L, B)`.
    ///
    /// # Errors
    /// Those of [`Layout::blocked_product`].
    ///
    /// ```
    /// let c: hlayout::algebra::ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse().unwrap();
    /// let p = c.blocked_product(&"(2,1):(1,0)".parse().unwrap()).unwrap();
    /// assert_eq!(p.size(), 32);
    /// ```
    pub fn blocked_product(&self, b: &Layout) -> Result<ComposedLayout> {
        self.map_layout(|l| l.blocked_product(b))
    }

    /// `Sw ∘ O ∘ raked_product(L, B)`.
    ///
    /// # Errors
    /// Those of [`Layout::raked_product`].
    ///
    /// ```
    /// let c: hlayout::algebra::ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse().unwrap();
    /// let p = c.raked_product(&"(2,1):(1,0)".parse().unwrap()).unwrap();
    /// assert_eq!(p.size(), 32);
    /// ```
    pub fn raked_product(&self, b: &Layout) -> Result<ComposedLayout> {
        self.map_layout(|l| l.raked_product(b))
    }

    /// Parses CuTe's form `Sw<B,M,S> o O o L` with L in CuTe's
    /// (colexicographic) text, mirrored to row-major.
    ///
    /// # Errors
    /// Those of [`str::parse`] on a composed layout and [`Layout::from_cute`].
    ///
    /// ```
    /// use hlayout::algebra::ComposedLayout;
    /// let c = ComposedLayout::from_cute("Sw<3,4,3> o 0 o (8,64):(64,1)").unwrap();
    /// assert_eq!(c.to_string(), "Sw<3,4,3> o 0 o (64,8):(1,64)");
    /// ```
    pub fn from_cute(text: &str) -> Result<ComposedLayout> {
        let (swizzle, offset, rest, at) = parse_head(text)?;
        let layout = Layout::from_cute(rest).map_err(|e| shift_pos(e, at))?;
        ComposedLayout::new(swizzle, offset, layout)
    }

    /// CuTe's text of the same function: `Sw<B,M,S> o O o L` with L in
    /// CuTe's (colexicographic) order; [`ComposedLayout::from_cute`] reads it
    /// back.
    ///
    /// ```
    /// use hlayout::algebra::ComposedLayout;
    /// let c: ComposedLayout = "Sw<3,4,3> o 0 o (64,8):(1,64)".parse().unwrap();
    /// assert_eq!(c.to_cute(), "Sw<3,4,3> o 0 o (8,64):(64,1)");
    /// assert_eq!(ComposedLayout::from_cute(&c.to_cute()).unwrap(), c);
    /// ```
    pub fn to_cute(&self) -> String {
        format!(
            "{} o {} o {}",
            self.swizzle,
            self.offset,
            self.layout.to_cute()
        )
    }
}

/// The smallest and largest `L(i)`, `i < size(L)` (the validated span fits).
fn span(l: &Layout) -> (i64, i64) {
    let (mut lo, mut hi) = (0i64, 0i64);
    for (&s, &d) in l.shape_leaves().iter().zip(l.stride_leaves()) {
        let reach = d * (s - 1);
        if reach < 0 {
            lo += reach;
        } else {
            hi += reach;
        }
    }
    (lo, hi)
}

/// The offsets of a [`ComposedLayout`] in row-major order.
///
/// ```
/// let c: hlayout::algebra::ComposedLayout = "Sw<1,0,1> o 0 o 4:1".parse().unwrap();
/// assert_eq!(c.offsets().collect::<Vec<_>>(), [0, 1, 3, 2]);
/// ```
#[derive(Clone, Debug)]
pub struct ComposedOffsets {
    inner: Offsets,
    swizzle: Swizzle,
}

impl Iterator for ComposedOffsets {
    type Item = i64;

    #[inline]
    fn next(&mut self) -> Option<i64> {
        self.inner.next().map(|x| self.swizzle.apply(x))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl fmt::Display for ComposedLayout {
    /// `Sw<B,M,S> o O o L`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} o {} o {}", self.swizzle, self.offset, self.layout)
    }
}

impl FromStr for ComposedLayout {
    type Err = Error;

    /// Parses `Sw<B,M,S> o O o L` (L row-major layout text).
    fn from_str(text: &str) -> Result<ComposedLayout> {
        let (swizzle, offset, rest, at) = parse_head(text)?;
        let layout: Layout = rest.parse().map_err(|e| shift_pos(e, at))?;
        ComposedLayout::new(swizzle, offset, layout)
    }
}

/// `Sw<B,M,S> o O o` at the start of `text`: the swizzle, the offset, the
/// layout text that follows and its byte position.
fn parse_head(text: &str) -> Result<(Swizzle, i64, &str, usize)> {
    let (swizzle, mut rest) = parse_swizzle(text, 0)?;
    let err = |rest: &str, expected: &'static str| Error::Parse {
        pos: text.len() - rest.len(),
        expected,
        found: rest.chars().next(),
    };
    rest = rest.trim_start();
    rest = rest
        .strip_prefix('o')
        .ok_or_else(|| err(rest, "'o' after the swizzle"))?;
    let (offset, r) = parse_int(rest).ok_or_else(|| err(rest.trim_start(), "an integer offset"))?;
    rest = r.trim_start();
    rest = rest
        .strip_prefix('o')
        .ok_or_else(|| err(rest, "'o' after the offset"))?;
    let rest = rest.trim_start();
    Ok((swizzle, offset, rest, text.len() - rest.len()))
}

/// A parse error of the layout text, positioned in the whole input.
fn shift_pos(e: Error, at: usize) -> Error {
    match e {
        Error::Parse {
            pos,
            expected,
            found,
        } => Error::Parse {
            pos: pos + at,
            expected,
            found,
        },
        other => other,
    }
}
