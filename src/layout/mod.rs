//! [`Layout`]: a nested shape and a congruent stride, `SHAPE:STRIDE`, and
//! what reads a layout as a function: fast repeated evaluation
//! ([`Evaluator`]), division-free offset streams ([`Offsets`]), CuTe text
//! interop ([`Layout::from_cute`]), and flattening to tinygrad's plain view
//! ([`FlatView`], [`Layout::flatten`] with its [`FlattenReport`]).
//!
//! A layout is a function from indices to offsets. Index `i` is unravelled
//! row-major over the shape's leaves, digits taken by floor division from the
//! last leaf towards the first, and the first leaf keeps the whole remaining
//! quotient, negative or not (CuTe's rule, mirrored), so a layout is defined on
//! every integer (the integer extension):
//!
//! ```text
//! L(i) = Σ_k  digit_k(i) · stride_k
//! ```
//!
//! The same function can be evaluated at a natural coordinate or at any coarser
//! coordinate of the shape's family ([`Layout::eval_crd`]); see [`crate::tuple::coord`].
//!
//! Construction validates once (congruence, extents >= 1, nesting depth, and
//! that the size and the span of offsets fit `i64`), so in-domain evaluation
//! needs no overflow checks.
//!
//! ```
//! use hlayout::Layout;
//! let l: Layout = "(2,(2,2)):(2,(1,4))".parse().unwrap();
//! let offsets: Vec<i64> = (0..8).map(|i| l.eval(i).unwrap()).collect();
//! assert_eq!(offsets, [0, 4, 1, 5, 2, 6, 3, 7]);
//! assert_eq!(l.eval_crd(&"(1,(1,0))".parse().unwrap()).unwrap(), 3);
//! assert_eq!(l.eval_crd(&"(1,2)".parse().unwrap()).unwrap(), 3);
//! ```

use std::fmt;
use std::str::FromStr;

use smallvec::SmallVec;

mod cute;
mod evaluator;
pub mod flat_view;
pub mod flatten;
mod notation;
pub mod offsets;

use crate::error::{self, Error, Result};
use crate::tuple::coord;
use crate::tuple::{check_depth, mode_spans, write_nested, IntTuple, Profile, TupleRef};
pub use evaluator::Evaluator;
pub use flat_view::FlatView;
pub use flatten::{FlattenReport, ModeObstruction};
pub use offsets::Offsets;

use crate::num::Ints;

/// A hierarchical layout: nested shape and congruent nested stride.
///
/// See the [module documentation](self) for the function it denotes.
///
/// ```
/// use hlayout::Layout;
/// let l: Layout = "(3,4):(-4,1)".parse().unwrap();
/// assert_eq!((l.size(), l.cosize(), l.rank()), (12, 12, 2));
/// assert_eq!(l.eval(0).unwrap(), 0);
/// assert_eq!(l.eval(4).unwrap(), -4);
/// ```
#[derive(PartialEq, Eq, Hash, Debug)]
pub struct Layout {
    profile: Profile,
    shape: Ints,
    stride: Ints,
    size: i64,
}

impl Clone for Layout {
    /// Slice copies of the profile and leaves (SmallVec's own clone goes element
    /// by element, which dominated the algebra's benchmarks).
    fn clone(&self) -> Layout {
        Layout {
            profile: self.profile.clone(),
            shape: SmallVec::from_slice(&self.shape),
            stride: SmallVec::from_slice(&self.stride),
            size: self.size,
        }
    }
}

impl Layout {
    /// A layout from a shape and a congruent stride.
    ///
    /// # Errors
    /// [`Error::NotCongruent`], [`Error::NonPositiveExtent`], [`Error::TooDeep`],
    /// or [`Error::Overflow`] when the size or the span of offsets leaves `i64`.
    ///
    /// ```
    /// use hlayout::{IntTuple, Layout};
    /// let l = Layout::new("(2,3)".parse().unwrap(), "(3,1)".parse().unwrap()).unwrap();
    /// assert_eq!(l.to_string(), "(2,3):(3,1)");
    /// assert!(Layout::new(IntTuple::int(2), IntTuple::from_flat(&[1])).is_err());
    /// ```
    pub fn new(shape: IntTuple, stride: IntTuple) -> Result<Layout> {
        if !shape.congruent(&stride) {
            return Err(Error::NotCongruent {
                what: "shape and stride",
                left: format!("shape {shape} (profile {})", shape.profile()),
                right: format!("stride {stride} (profile {})", stride.profile()),
            });
        }
        check_depth(shape.depth())?;
        Layout::from_leaves(
            shape.profile().clone(),
            shape.leaves().into(),
            stride.leaves().into(),
        )
    }

    /// A flat layout `(s0,..,sn):(d0,..,dn)`; with one leaf it is the integer layout `s0:d0`.
    ///
    /// # Errors
    /// As [`Layout::new`]; also [`Error::NotCongruent`] when the lengths differ.
    ///
    /// ```
    /// use hlayout::Layout;
    /// assert_eq!(Layout::flat(&[4, 5], &[5, 1]).unwrap().to_string(), "(4,5):(5,1)");
    /// assert_eq!(Layout::flat(&[8], &[1]).unwrap().to_string(), "8:1");
    /// ```
    pub fn flat(shape: &[i64], stride: &[i64]) -> Result<Layout> {
        if let ([s], [d]) = (shape, stride) {
            return Layout::new(IntTuple::int(*s), IntTuple::int(*d));
        }
        Layout::new(IntTuple::from_flat(shape), IntTuple::from_flat(stride))
    }

    /// The contiguous row-major layout of `shape` (strides are suffix products).
    ///
    /// # Errors
    /// As [`Layout::new`].
    ///
    /// ```
    /// use hlayout::Layout;
    /// let l = Layout::row_major("(2,(3,4))".parse().unwrap()).unwrap();
    /// assert_eq!(l.to_string(), "(2,(3,4)):(12,(4,1))");
    /// ```
    pub fn row_major(shape: IntTuple) -> Result<Layout> {
        let stride = shape.suffix_product()?;
        Layout::new(shape, stride)
    }

    /// Validating constructor over raw leaves.
    pub(crate) fn from_leaves(profile: Profile, shape: Ints, stride: Ints) -> Result<Layout> {
        let mut size = 1i64;
        let mut span = 0i64;
        for (k, (&s, &d)) in shape.iter().zip(&stride).enumerate() {
            if s < 1 {
                return Err(Error::NonPositiveExtent { leaf: k, extent: s });
            }
            size = error::mul(size, s, "size of layout")?;
            let reach = error::mul(
                d.checked_abs().ok_or(Error::Overflow {
                    what: "absolute stride",
                })?,
                s - 1,
                "span of layout offsets",
            )?;
            span = error::add(span, reach, "span of layout offsets")?;
        }
        // cosize = span + 1 must fit too.
        error::add(span, 1, "cosize of layout")?;
        Ok(Layout {
            profile,
            shape,
            stride,
            size,
        })
    }

    /// Trusted constructor for layouts the algebra derived from valid ones
    /// (and for a zero view's layout, whose extents may be 0: see
    /// [`View::layout`](crate::View::layout)).
    pub(crate) fn from_trusted(profile: Profile, shape: Ints, stride: Ints) -> Layout {
        // A zero view's other extents may multiply past i64: its size is 0.
        let size = if shape.contains(&0) {
            0
        } else {
            shape.iter().product()
        };
        debug_assert!(
            shape.contains(&0)
                || Layout::from_leaves(profile.clone(), shape.clone(), stride.clone()).is_ok()
        );
        Layout {
            profile,
            shape,
            stride,
            size,
        }
    }

    /// [`Layout::from_trusted`] when the size is already known (no product).
    #[inline]
    pub(crate) fn from_trusted_sized(
        profile: Profile,
        shape: Ints,
        stride: Ints,
        size: i64,
    ) -> Layout {
        debug_assert_eq!(shape.iter().product::<i64>(), size);
        debug_assert!(Layout::from_leaves(profile.clone(), shape.clone(), stride.clone()).is_ok());
        Layout {
            profile,
            shape,
            stride,
            size,
        }
    }

    /// The shape, borrowed.
    ///
    /// ```
    /// let l: hlayout::Layout = "(2,(2,2)):(2,(1,4))".parse().unwrap();
    /// assert_eq!(l.shape().to_string(), "(2,(2,2))");
    /// ```
    pub fn shape(&self) -> TupleRef<'_> {
        TupleRef::new(self.profile.toks(), &self.shape)
    }

    /// The stride, borrowed.
    ///
    /// ```
    /// let l: hlayout::Layout = "(2,(2,2)):(2,(1,4))".parse().unwrap();
    /// assert_eq!(l.stride().to_string(), "(2,(1,4))");
    /// ```
    pub fn stride(&self) -> TupleRef<'_> {
        TupleRef::new(self.profile.toks(), &self.stride)
    }

    /// The nesting shared by shape and stride.
    ///
    /// ```
    /// let l: hlayout::Layout = "(2,(2,2)):(2,(1,4))".parse().unwrap();
    /// assert_eq!(l.profile().to_string(), "(_,(_,_))");
    /// ```
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// Shape leaves, row-major.
    ///
    /// ```
    /// let l: hlayout::Layout = "(2,(2,2)):(2,(1,4))".parse().unwrap();
    /// assert_eq!(l.shape_leaves(), &[2, 2, 2]);
    /// ```
    pub fn shape_leaves(&self) -> &[i64] {
        &self.shape
    }

    /// Stride leaves, row-major.
    ///
    /// ```
    /// let l: hlayout::Layout = "(2,(2,2)):(2,(1,4))".parse().unwrap();
    /// assert_eq!(l.stride_leaves(), &[2, 1, 4]);
    /// ```
    pub fn stride_leaves(&self) -> &[i64] {
        &self.stride
    }

    /// Number of elements in the domain: the product of the extents.
    ///
    /// ```
    /// let l: hlayout::Layout = "(2,(2,2)):(2,(1,4))".parse().unwrap();
    /// assert_eq!(l.size(), 8);
    /// ```
    pub fn size(&self) -> i64 {
        self.size
    }

    /// Smallest and largest offset over the domain.
    ///
    /// ```
    /// let l: hlayout::Layout = "(3,4):(-4,1)".parse().unwrap();
    /// assert_eq!(l.offset_range(), (-8, 3));
    /// ```
    pub fn offset_range(&self) -> (i64, i64) {
        // Sums of terms bounded by the validated span: no overflow.
        self.shape
            .iter()
            .zip(&self.stride)
            .fold((0, 0), |(lo, hi), (&s, &d)| {
                let reach = d * (s - 1);
                if d < 0 {
                    (lo + reach, hi)
                } else {
                    (lo, hi + reach)
                }
            })
    }

    /// Length of the smallest interval holding every offset: `max − min + 1`.
    ///
    /// For non-negative strides this is CuTe's `cosize` (`L(size−1) + 1`);
    /// negative strides count towards it too.
    ///
    /// ```
    /// let l: hlayout::Layout = "(3,4):(-4,1)".parse().unwrap();
    /// assert_eq!(l.cosize(), 12);
    /// let g: hlayout::Layout = "(2,2):(10,1)".parse().unwrap();
    /// assert_eq!(g.cosize(), 12);
    /// ```
    pub fn cosize(&self) -> i64 {
        let (lo, hi) = self.offset_range();
        hi - lo + 1
    }

    /// Number of top-level modes (an integer layout has rank 1).
    ///
    /// ```
    /// let l: hlayout::Layout = "(2,(2,2)):(2,(1,4))".parse().unwrap();
    /// assert_eq!(l.rank(), 2);
    /// ```
    pub fn rank(&self) -> usize {
        self.shape().rank()
    }

    /// Nesting depth (0 for an integer layout).
    ///
    /// ```
    /// let l: hlayout::Layout = "(2,(2,2)):(2,(1,4))".parse().unwrap();
    /// assert_eq!(l.depth(), 2);
    /// ```
    pub fn depth(&self) -> usize {
        self.shape().depth()
    }

    /// The top-level modes as layouts; an integer layout yields itself.
    ///
    /// ```
    /// let l: hlayout::Layout = "(2,(2,2)):(2,(1,4))".parse().unwrap();
    /// let modes: Vec<String> = l.modes().map(|m| m.to_string()).collect();
    /// assert_eq!(modes, ["2:2", "(2,2):(1,4)"]);
    /// ```
    pub fn modes(&self) -> impl Iterator<Item = Layout> + '_ {
        mode_spans(self.profile.toks()).map(move |(t, l)| {
            Layout::from_trusted(
                Profile::from_toks(&self.profile.toks()[t]),
                SmallVec::from_slice(&self.shape[l.clone()]),
                SmallVec::from_slice(&self.stride[l]),
            )
        })
    }

    /// Mode `k` as a layout.
    ///
    /// # Errors
    /// [`Error::ModeOutOfRange`] when `k >= rank`.
    ///
    /// ```
    /// let l: hlayout::Layout = "(2,(2,2)):(2,(1,4))".parse().unwrap();
    /// assert_eq!(l.mode(1).unwrap().to_string(), "(2,2):(1,4)");
    /// assert!(l.mode(2).is_err());
    /// ```
    pub fn mode(&self, k: usize) -> Result<Layout> {
        self.modes().nth(k).ok_or(Error::ModeOutOfRange {
            mode: k,
            rank: self.rank(),
        })
    }

    /// The same function with all nesting removed: a flat tuple of leaves
    /// (CuTe's `flatten`; [`Layout::flatten`] is the view-producing step).
    ///
    /// ```
    /// let l: hlayout::Layout = "(2,(2,2)):(2,(1,4))".parse().unwrap();
    /// assert_eq!(l.unnest().to_string(), "(2,2,2):(2,1,4)");
    /// ```
    pub fn unnest(&self) -> Layout {
        if self.profile.toks().len() == 1 {
            return self.clone();
        }
        Layout::from_trusted(
            Profile::flat(self.shape.len()),
            self.shape.clone(),
            self.stride.clone(),
        )
    }

    /// `L(i)`, defined for every integer `i` (the integer extension).
    ///
    /// In the domain (`0 <= i < size`) this is the inner product of the natural
    /// coordinate with the stride. Outside it the digits are taken by floor
    /// division, fastest leaf first, and the first (outermost) leaf keeps the
    /// whole remaining quotient, negative or not (`docs/algebra.md`, section 1).
    /// O(leaves), one division per leaf after the first.
    ///
    /// # Errors
    /// [`Error::Overflow`] when an index outside the domain drives the offset
    /// out of `i64`; [`Error::OutOfDomain`] for `i != 0` on a rank-0 layout.
    ///
    /// ```
    /// let l: hlayout::Layout = "(2,3):(10,1)".parse().unwrap();
    /// assert_eq!(l.eval(4).unwrap(), 11);
    /// assert_eq!(l.eval(7).unwrap(), 21); // past the domain: first leaf takes the quotient
    /// assert_eq!(l.eval(-1).unwrap(), -8); // -1 = -1·3 + 2: digits (-1, 2)
    /// let m: hlayout::Layout = "((4,2),1):((512,-1),0)".parse().unwrap();
    /// assert_eq!(m.eval(-1).unwrap(), -513);
    /// ```
    #[inline]
    pub fn eval(&self, i: i64) -> Result<i64> {
        if (0..self.size).contains(&i) {
            Ok(self.eval_in_domain(i))
        } else {
            self.eval_outside(i)
        }
    }

    /// `L(i)` for `0 <= i < size`; no checks needed (the span fits `i64`).
    #[inline]
    pub(crate) fn eval_in_domain(&self, i: i64) -> i64 {
        debug_assert!((0..self.size).contains(&i));
        let (shape, stride) = (&self.shape[..], &self.stride[..]);
        let Some((&d0, rest_d)) = stride.split_first() else {
            return 0;
        };
        let mut rest = i;
        let mut acc = 0i64;
        for (&s, &d) in shape[1..].iter().zip(rest_d).rev() {
            acc += (rest % s) * d;
            rest /= s;
        }
        acc + rest * d0
    }

    fn eval_outside(&self, i: i64) -> Result<i64> {
        let Some((&d0, rest_d)) = self.stride.split_first() else {
            return Err(Error::OutOfDomain {
                what: format!("index {i} of a rank-0 layout (its only index is 0)"),
            });
        };
        let mut rest = i;
        let mut acc = 0i64;
        for (&s, &d) in self.shape[1..].iter().zip(rest_d).rev() {
            acc += rest.rem_euclid(s) * d; // bounded by the validated span
            rest = rest.div_euclid(s);
        }
        let head = error::mul(rest, d0, "layout offset past the domain")?;
        error::add(acc, head, "layout offset past the domain")
    }

    /// `L` at a coordinate of any member of the shape's family (see [`crate::tuple::coord`]).
    ///
    /// # Errors
    /// The errors of [`coord::crd2idx`]: the coordinate must be compatible and in range.
    ///
    /// ```
    /// let l: hlayout::Layout = "(2,(2,2)):(2,(1,4))".parse().unwrap();
    /// assert_eq!(l.eval_crd(&"(1,(0,1))".parse().unwrap()).unwrap(), 6);
    /// assert_eq!(l.eval_crd(&"(1,1)".parse().unwrap()).unwrap(), 6);
    /// assert_eq!(l.eval_crd(&"5".parse().unwrap()).unwrap(), 6);
    /// ```
    pub fn eval_crd(&self, crd: &IntTuple) -> Result<i64> {
        let shape = self.shape().to_owned();
        Ok(self.eval_in_domain(coord::crd2idx(crd, &shape)?))
    }

    /// Every offset in row-major order, incrementally: no division per element.
    ///
    /// ```
    /// let l: hlayout::Layout = "(2,(2,2)):(2,(1,4))".parse().unwrap();
    /// assert_eq!(l.offsets().collect::<Vec<_>>(), [0, 4, 1, 5, 2, 6, 3, 7]);
    /// ```
    pub fn offsets(&self) -> Offsets {
        let c = self.coalesce();
        Offsets::new(&c.shape, &c.stride, 0)
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let toks = self.profile.toks();
        write_nested(f, toks, self.shape.len(), |f, i| {
            write!(f, "{}", self.shape[i])
        })?;
        f.write_str(":")?;
        write_nested(f, toks, self.stride.len(), |f, i| {
            write!(f, "{}", self.stride[i])
        })
    }
}

impl FromStr for Layout {
    type Err = Error;

    /// Parses `SHAPE:STRIDE` (grammar in [`crate::tuple`]).
    fn from_str(text: &str) -> Result<Layout> {
        notation::parse_layout(text)
    }
}
