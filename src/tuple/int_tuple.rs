//! Nested integer tuples: the one recursive carrier type.
//!
//! An [`IntTuple`] is an integer or a tuple of `IntTuple`s, e.g. `(2,(3,4))`.
//! Shapes, strides and coordinates are all `IntTuple`s. It is stored flat: the
//! leaves in row-major (left-to-right) order in one small vector, and the nesting
//! as a [`Profile`], a bracket string in another. Tuples of up to 8 leaves and
//! 24 brackets live inline, so the hot paths never touch the heap.
//!
//! Algorithms recurse over a borrowed [`TupleRef`]: [`TupleRef::as_int`] for the
//! base case and [`TupleRef::modes`] for the tuple case.
//!
//! ```
//! use hlayout::IntTuple;
//! let t: IntTuple = "(2,(3,4))".parse().unwrap();
//! assert_eq!(t.rank(), 2);
//! assert_eq!(t.depth(), 2);
//! assert_eq!(t.size().unwrap(), 24);
//! assert_eq!(t.leaves(), &[2, 3, 4]);
//! assert_eq!(t.to_string(), "(2,(3,4))");
//! assert_eq!(t.flatten().to_string(), "(2,3,4)");
//! assert_eq!(t.profile().to_string(), "(_,(_,_))");
//! ```

use std::fmt;
use std::str::FromStr;

use smallvec::SmallVec;

use super::profile::{check_depth, mode_spans, write_nested, Profile, Tok};
use crate::error::{self, Error, Result};

/// A nested tuple of integers, e.g. `(2,(3,4))`, or a single integer.
///
/// See the [module documentation](crate::tuple) for the representation.
///
/// ```
/// use hlayout::IntTuple;
/// let t = IntTuple::tuple([IntTuple::int(2), IntTuple::from_flat(&[3, 4])]).unwrap();
/// assert_eq!(t.to_string(), "(2,(3,4))");
/// assert_eq!(t.mode(1).unwrap().to_string(), "(3,4)");
/// ```
#[derive(PartialEq, Eq, Hash, Debug)]
pub struct IntTuple {
    profile: Profile,
    leaves: SmallVec<[i64; 8]>,
}

/// A borrowed [`IntTuple`] or sub-tuple: what the recursive algorithms walk.
///
/// ```
/// let t: hlayout::IntTuple = "(2,(3,4))".parse().unwrap();
/// let inner = t.as_ref().modes().nth(1).unwrap();
/// assert_eq!(inner.as_int(), None);
/// assert_eq!(inner.modes().map(|m| m.as_int().unwrap()).collect::<Vec<_>>(), [3, 4]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TupleRef<'a> {
    toks: &'a [Tok],
    leaves: &'a [i64],
}

impl Clone for IntTuple {
    /// Slice copies of the bracket string and the leaves.
    fn clone(&self) -> IntTuple {
        IntTuple {
            profile: self.profile.clone(),
            leaves: SmallVec::from_slice(&self.leaves),
        }
    }
}

impl IntTuple {
    /// A single integer.
    ///
    /// ```
    /// let t = hlayout::IntTuple::int(5);
    /// assert_eq!((t.rank(), t.depth(), t.as_int()), (1, 0, Some(5)));
    /// ```
    pub fn int(value: i64) -> IntTuple {
        IntTuple {
            profile: Profile::leaf(),
            leaves: smallvec::smallvec![value],
        }
    }

    /// A flat tuple of the given integers; `from_flat(&[])` is the empty tuple `()`.
    ///
    /// ```
    /// assert_eq!(hlayout::IntTuple::from_flat(&[2, 3]).to_string(), "(2,3)");
    /// assert_eq!(hlayout::IntTuple::from_flat(&[]).to_string(), "()");
    /// ```
    pub fn from_flat(values: &[i64]) -> IntTuple {
        let mut b = Builder::default();
        b.open();
        for &v in values {
            b.leaf(v);
        }
        b.close();
        b.finish()
    }

    /// A tuple of the given children.
    ///
    /// # Errors
    /// [`Error::TooDeep`] when the result would nest deeper than [`MAX_DEPTH`](super::MAX_DEPTH).
    ///
    /// ```
    /// use hlayout::IntTuple;
    /// let t = IntTuple::tuple([IntTuple::int(1), IntTuple::int(2)]).unwrap();
    /// assert_eq!(t.to_string(), "(1,2)");
    /// ```
    pub fn tuple(children: impl IntoIterator<Item = IntTuple>) -> Result<IntTuple> {
        let mut b = Builder::default();
        b.open();
        for c in children {
            b.push(c.as_ref());
        }
        b.close();
        let t = b.finish();
        check_depth(t.depth())?;
        Ok(t)
    }

    pub(crate) fn from_parts(profile: Profile, leaves: SmallVec<[i64; 8]>) -> IntTuple {
        debug_assert_eq!(profile.leaf_count(), leaves.len());
        IntTuple { profile, leaves }
    }

    /// The borrowed form, for recursion.
    ///
    /// ```
    /// let t = hlayout::IntTuple::from_flat(&[4, 5]);
    /// assert_eq!(t.as_ref().rank(), 2);
    /// ```
    pub fn as_ref(&self) -> TupleRef<'_> {
        TupleRef {
            toks: &self.profile.toks,
            leaves: &self.leaves,
        }
    }

    /// The nesting structure.
    ///
    /// ```
    /// let t: hlayout::IntTuple = "((2,3),4)".parse().unwrap();
    /// assert_eq!(t.profile().to_string(), "((_,_),_)");
    /// ```
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// The leaves in row-major order.
    ///
    /// ```
    /// let t: hlayout::IntTuple = "((2,3),4)".parse().unwrap();
    /// assert_eq!(t.leaves(), &[2, 3, 4]);
    /// ```
    pub fn leaves(&self) -> &[i64] {
        &self.leaves
    }

    /// `Some(v)` when this is a single integer.
    ///
    /// ```
    /// assert_eq!(hlayout::IntTuple::int(3).as_int(), Some(3));
    /// assert_eq!(hlayout::IntTuple::from_flat(&[3]).as_int(), None);
    /// ```
    pub fn as_int(&self) -> Option<i64> {
        self.as_ref().as_int()
    }

    /// Number of top-level modes; an integer has rank 1.
    ///
    /// ```
    /// let t: hlayout::IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert_eq!(t.rank(), 2);
    /// ```
    pub fn rank(&self) -> usize {
        self.as_ref().rank()
    }

    /// Nesting depth: 0 for an integer, 1 for a flat tuple (also the empty one).
    ///
    /// ```
    /// let t: hlayout::IntTuple = "(2,(3,(4,5)))".parse().unwrap();
    /// assert_eq!(t.depth(), 3);
    /// ```
    pub fn depth(&self) -> usize {
        self.as_ref().depth()
    }

    /// Product of all leaves (1 for the empty tuple).
    ///
    /// # Errors
    /// [`Error::Overflow`] when the product leaves `i64`.
    ///
    /// ```
    /// let t: hlayout::IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert_eq!(t.size().unwrap(), 24);
    /// ```
    pub fn size(&self) -> Result<i64> {
        self.as_ref().size()
    }

    /// Mode `k` of a tuple (an integer has one mode: itself).
    ///
    /// # Errors
    /// [`Error::ModeOutOfRange`] when `k >= rank`.
    ///
    /// ```
    /// let t: hlayout::IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert_eq!(t.mode(1).unwrap().to_string(), "(3,4)");
    /// ```
    pub fn mode(&self, k: usize) -> Result<IntTuple> {
        self.as_ref().mode(k).map(TupleRef::to_owned)
    }

    /// The flat tuple of all leaves; an integer stays an integer.
    ///
    /// ```
    /// let t: hlayout::IntTuple = "((2,3),(4,(5,6)))".parse().unwrap();
    /// assert_eq!(t.flatten().to_string(), "(2,3,4,5,6)");
    /// ```
    pub fn flatten(&self) -> IntTuple {
        match self.as_int() {
            Some(v) => IntTuple::int(v),
            None => IntTuple::from_flat(&self.leaves),
        }
    }

    /// Same nesting as `other` (values may differ).
    ///
    /// ```
    /// use hlayout::IntTuple;
    /// let a: IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert!(a.congruent(&"(1,(1,1))".parse().unwrap()));
    /// assert!(!a.congruent(&"(1,1,1)".parse().unwrap()));
    /// ```
    pub fn congruent(&self, other: &IntTuple) -> bool {
        self.profile == other.profile
    }

    /// Row-major compact strides: the exclusive suffix products, recursively.
    ///
    /// For `(a,(b,c))` that is `(b·c,(c,1))`; the leaf-wise result has the same profile.
    ///
    /// # Errors
    /// [`Error::Overflow`] when a product leaves `i64`.
    ///
    /// ```
    /// let t: hlayout::IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert_eq!(t.suffix_product().unwrap().to_string(), "(12,(4,1))");
    /// ```
    pub fn suffix_product(&self) -> Result<IntTuple> {
        let mut out: SmallVec<[i64; 8]> = SmallVec::from_elem(0, self.leaves.len());
        let mut acc = 1i64;
        for (o, &v) in out.iter_mut().zip(&self.leaves).rev() {
            *o = acc;
            acc = error::mul(acc, v, "suffix product")?;
        }
        Ok(IntTuple::from_parts(self.profile.clone(), out))
    }

    /// Exclusive prefix products, recursively (CuTe's column-major compact strides).
    ///
    /// # Errors
    /// [`Error::Overflow`] when a product leaves `i64`.
    ///
    /// ```
    /// let t: hlayout::IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert_eq!(t.prefix_product().unwrap().to_string(), "(1,(2,6))");
    /// ```
    pub fn prefix_product(&self) -> Result<IntTuple> {
        let mut out: SmallVec<[i64; 8]> = SmallVec::with_capacity(self.leaves.len());
        let mut acc = 1i64;
        for &v in &self.leaves {
            out.push(acc);
            acc = error::mul(acc, v, "prefix product")?;
        }
        Ok(IntTuple::from_parts(self.profile.clone(), out))
    }

    /// Shape division, row-major: divide `self` by `d` starting at the last leaf.
    ///
    /// Each leaf `s` takes what it can of the remaining divisor `r`: it becomes
    /// `s / r` when `r` divides `s`, else `1` when `s` divides `r` (and `r` becomes
    /// `r / s`). This is CuTe's `shape_div` mirrored into row-major order.
    ///
    /// # Errors
    /// [`Error::OutOfDomain`] when neither of `s`, `r` divides the other.
    ///
    /// ```
    /// let t: hlayout::IntTuple = "(3,(4,2))".parse().unwrap();
    /// assert_eq!(t.shape_div(4).unwrap().to_string(), "(3,(2,1))");
    /// assert!(t.shape_div(3).is_err());
    /// ```
    pub fn shape_div(&self, d: i64) -> Result<IntTuple> {
        let mut out = self.leaves.clone();
        let mut rest = d;
        for s in out.iter_mut().rev() {
            let (q, r) = div_step(*s, rest)?;
            *s = q;
            rest = r;
        }
        Ok(IntTuple::from_parts(self.profile.clone(), out))
    }
}

/// One leaf of [`IntTuple::shape_div`]: `(s / r, 1)` or `(1, r / s)`.
fn div_step(s: i64, r: i64) -> Result<(i64, i64)> {
    if r != 0 && s % r == 0 {
        Ok((s / r, 1))
    } else if s != 0 && r % s == 0 {
        Ok((1, r / s))
    } else {
        Err(Error::OutOfDomain {
            what: format!("shape_div: neither of {s} and {r} divides the other"),
        })
    }
}

impl<'a> TupleRef<'a> {
    pub(crate) fn new(toks: &'a [Tok], leaves: &'a [i64]) -> TupleRef<'a> {
        debug_assert_eq!(
            toks.iter().filter(|t| **t == Tok::Leaf).count(),
            leaves.len()
        );
        TupleRef { toks, leaves }
    }

    /// `Some(v)` when this is a single integer.
    ///
    /// ```
    /// assert_eq!(hlayout::IntTuple::int(3).as_ref().as_int(), Some(3));
    /// ```
    pub fn as_int(&self) -> Option<i64> {
        match self.toks {
            [Tok::Leaf] => Some(self.leaves[0]),
            _ => None,
        }
    }

    /// The leaves in row-major order.
    ///
    /// ```
    /// let t: hlayout::IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert_eq!(t.as_ref().leaves(), &[2, 3, 4]);
    /// ```
    pub fn leaves(&self) -> &'a [i64] {
        self.leaves
    }

    /// The top-level modes; an integer yields itself once.
    ///
    /// ```
    /// let t: hlayout::IntTuple = "(2,(3,4))".parse().unwrap();
    /// let texts: Vec<String> = t.as_ref().modes().map(|m| m.to_string()).collect();
    /// assert_eq!(texts, ["2", "(3,4)"]);
    /// ```
    pub fn modes(&self) -> impl Iterator<Item = TupleRef<'a>> + 'a {
        let (toks, leaves) = (self.toks, self.leaves);
        mode_spans(toks).map(move |(t, l)| TupleRef {
            toks: &toks[t],
            leaves: &leaves[l],
        })
    }

    /// Number of top-level modes; an integer has rank 1.
    ///
    /// ```
    /// assert_eq!(hlayout::IntTuple::from_flat(&[]).as_ref().rank(), 0);
    /// ```
    pub fn rank(&self) -> usize {
        mode_spans(self.toks).count()
    }

    /// Mode `k`.
    ///
    /// # Errors
    /// [`Error::ModeOutOfRange`] when `k >= rank`.
    ///
    /// ```
    /// let t: hlayout::IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert_eq!(t.as_ref().mode(0).unwrap().as_int(), Some(2));
    /// ```
    pub fn mode(&self, k: usize) -> Result<TupleRef<'a>> {
        self.modes().nth(k).ok_or(Error::ModeOutOfRange {
            mode: k,
            rank: self.rank(),
        })
    }

    /// Nesting depth: 0 for an integer.
    ///
    /// ```
    /// let t: hlayout::IntTuple = "((2,3),4)".parse().unwrap();
    /// assert_eq!(t.as_ref().depth(), 2);
    /// ```
    pub fn depth(&self) -> usize {
        let (mut d, mut max) = (0usize, 0usize);
        for t in self.toks {
            match t {
                Tok::Open => {
                    d += 1;
                    max = max.max(d);
                }
                Tok::Close => d -= 1,
                Tok::Leaf => {}
            }
        }
        max
    }

    /// Product of the leaves.
    ///
    /// # Errors
    /// [`Error::Overflow`] when the product leaves `i64`.
    ///
    /// ```
    /// let t: hlayout::IntTuple = "((2,3),4)".parse().unwrap();
    /// assert_eq!(t.as_ref().size().unwrap(), 24);
    /// ```
    pub fn size(&self) -> Result<i64> {
        self.leaves
            .iter()
            .try_fold(1i64, |acc, &v| error::mul(acc, v, "size of tuple"))
    }

    /// An owned copy.
    ///
    /// ```
    /// let t: hlayout::IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert_eq!(t.as_ref().to_owned(), t);
    /// ```
    pub fn to_owned(self) -> IntTuple {
        IntTuple {
            profile: Profile {
                toks: SmallVec::from_slice(self.toks),
            },
            leaves: SmallVec::from_slice(self.leaves),
        }
    }
}

impl fmt::Display for TupleRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_nested(f, self.toks, self.leaves.len(), |f, i| {
            write!(f, "{}", self.leaves[i])
        })
    }
}

impl fmt::Display for IntTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_ref().fmt(f)
    }
}

impl FromStr for IntTuple {
    type Err = Error;

    /// Parses `7`, `()`, `(2,3)`, `(2,(3,4))`; spaces are allowed between items.
    fn from_str(text: &str) -> Result<IntTuple> {
        super::notation::parse_tuple(text)
    }
}

/// Builds a profile and its leaves bracket by bracket.
#[derive(Default, Debug)]
pub(crate) struct Builder {
    toks: SmallVec<[Tok; 24]>,
    leaves: SmallVec<[i64; 8]>,
}

impl Builder {
    pub(crate) fn open(&mut self) {
        self.toks.push(Tok::Open);
    }

    pub(crate) fn close(&mut self) {
        self.toks.push(Tok::Close);
    }

    pub(crate) fn leaf(&mut self, v: i64) {
        self.toks.push(Tok::Leaf);
        self.leaves.push(v);
    }

    pub(crate) fn push(&mut self, t: TupleRef<'_>) {
        self.toks.extend_from_slice(t.toks);
        self.leaves.extend_from_slice(t.leaves);
    }

    pub(crate) fn finish(self) -> IntTuple {
        IntTuple {
            profile: Profile { toks: self.toks },
            leaves: self.leaves,
        }
    }
}
