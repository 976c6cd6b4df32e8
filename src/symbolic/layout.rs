//! [`SymLayout`]: a layout whose extents and strides are polynomials.
//!
//! The same nesting as [`Layout`] (a [`Profile`] and flat leaves, row-major:
//! the last leaf fastest), each leaf a [`Poly`] over the symbols of a
//! [`Symbols`] table. Text: `(N,(4,8)):(32,(8,1))`, a leaf being polynomial
//! text without spaces or parentheses. Binding every symbol to a value
//! ([`SymLayout::bind`]) gives the concrete [`Layout`]; every operation here
//! answers a layout that, bound to any allowed values, equals the concrete
//! operation's answer as a function (or refuses, naming the missing facts).

use std::fmt;

use super::need::Needs;
use super::poly::Poly;
use super::prove::Fact;
use super::symbols::Symbols;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::tuple::{check_depth, write_nested, Profile, Tok};

/// A layout with polynomial leaves (module docs).
///
/// ```
/// use hlayout::symbolic::{SymLayout, Symbols};
/// let mut s = Symbols::new();
/// let l = SymLayout::parse("(N,(4,8)):(32,(8,1))", &mut s).unwrap();
/// assert_eq!(l.show(&s).to_string(), "(N,(4,8)):(32,(8,1))");
/// let bound = l.bind(&s, &[3]).unwrap();
/// assert_eq!(bound.to_string(), "(3,(4,8)):(32,(8,1))");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymLayout {
    profile: Profile,
    shape: Vec<Poly>,
    stride: Vec<Poly>,
}

impl SymLayout {
    /// Parses `SHAPE:STRIDE` with polynomial leaves, adding new symbols to
    /// `syms` with the default assumptions, and validates the layout
    /// ([`SymLayout::validate`]).
    ///
    /// # Errors
    /// [`Error::Parse`] with the byte position; [`Error::NotCongruent`];
    /// [`Error::TooDeep`]; [`Error::LimitExceeded`]; [`Error::NeedsFacts`]
    /// when an extent is not proved positive or the size or span may leave
    /// `i64`.
    ///
    /// ```
    /// use hlayout::symbolic::{Assume, SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// // B and S up to 2^31 - 1 (the default): 128*B*S may leave i64.
    /// assert!(SymLayout::parse("(B,S,128):(128*S,128,1)", &mut s).is_err());
    /// s.assume("S", Assume { max: 1 << 20, ..Assume::default() }).unwrap();
    /// assert!(SymLayout::parse("(B,S,128):(128*S,128,1)", &mut s).is_ok());
    /// assert!(SymLayout::parse("N-1:1", &mut s).is_err()); // N = 1 gives extent 0
    /// assert!(SymLayout::parse("(N,4):(1)", &mut s).is_err());
    /// ```
    pub fn parse(text: &str, syms: &mut Symbols) -> Result<SymLayout> {
        let colon = text.find(':').ok_or(Error::Parse {
            pos: text.len(),
            expected: "':' between shape and stride",
            found: None,
        })?;
        let (toks, shape) = parse_tuple(&text[..colon], 0, syms)?;
        let (stoks, stride) = parse_tuple(&text[colon + 1..], colon + 1, syms)?;
        if toks != stoks {
            return Err(Error::NotCongruent {
                what: "shape and stride",
                left: text[..colon].trim().to_string(),
                right: text[colon + 1..].trim().to_string(),
            });
        }
        syms.limits().check_rank(shape.len())?;
        let l = SymLayout {
            profile: Profile::from_toks(&toks),
            shape,
            stride,
        };
        l.validate(syms)?;
        Ok(l)
    }

    /// A layout from a profile and leaves, unvalidated.
    pub(crate) fn from_parts(profile: Profile, shape: Vec<Poly>, stride: Vec<Poly>) -> SymLayout {
        debug_assert_eq!(shape.len(), stride.len());
        SymLayout {
            profile,
            shape,
            stride,
        }
    }

    /// A flat layout (an integer layout for one leaf), unvalidated.
    pub(crate) fn flat(shape: Vec<Poly>, stride: Vec<Poly>) -> SymLayout {
        let profile = if shape.len() == 1 {
            Profile::leaf()
        } else {
            Profile::flat(shape.len())
        };
        SymLayout::from_parts(profile, shape, stride)
    }

    /// The layout with every fixed symbol (`min = max` after rounding to its
    /// divisor) replaced by its value.
    pub(crate) fn fixed(&self, syms: &Symbols) -> std::borrow::Cow<'_, SymLayout> {
        if !syms.has_fixed() {
            return std::borrow::Cow::Borrowed(self);
        }
        std::borrow::Cow::Owned(SymLayout {
            profile: self.profile.clone(),
            shape: self.shape.iter().map(|p| syms.fix(p)).collect(),
            stride: self.stride.iter().map(|p| syms.fix(p)).collect(),
        })
    }

    /// The concrete layout as a symbolic one (constant leaves).
    ///
    /// ```
    /// use hlayout::{symbolic::{SymLayout, Symbols}, Layout};
    /// let l: Layout = "(2,3):(3,1)".parse().unwrap();
    /// let s = SymLayout::from_layout(&l);
    /// assert_eq!(s.to_layout(), Some(l));
    /// ```
    pub fn from_layout(l: &Layout) -> SymLayout {
        SymLayout {
            profile: l.profile().clone(),
            shape: l
                .shape_leaves()
                .iter()
                .map(|&v| Poly::constant(v))
                .collect(),
            stride: l
                .stride_leaves()
                .iter()
                .map(|&v| Poly::constant(v))
                .collect(),
        }
    }

    /// The concrete layout when every leaf is a constant.
    ///
    /// ```
    /// let mut s = hlayout::symbolic::Symbols::new();
    /// let l = hlayout::symbolic::SymLayout::parse("N:1", &mut s).unwrap();
    /// assert_eq!(l.to_layout(), None);
    /// ```
    pub fn to_layout(&self) -> Option<Layout> {
        // Checked first: a symbolic leaf anywhere costs no allocation.
        if !self
            .shape
            .iter()
            .chain(&self.stride)
            .all(|p| p.as_const().is_some())
        {
            return None;
        }
        let shape = self
            .shape
            .iter()
            .map(Poly::as_const)
            .collect::<Option<_>>()?;
        let stride = self
            .stride
            .iter()
            .map(Poly::as_const)
            .collect::<Option<_>>()?;
        Layout::from_leaves(self.profile.clone(), shape, stride).ok()
    }

    /// The row-major layout of a shape: strides are the suffix products.
    ///
    /// # Errors
    /// [`Error::Overflow`]; [`Error::LimitExceeded`] (`max_degree`).
    ///
    /// ```
    /// use hlayout::symbolic::{Assume, SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// s.assume("H", Assume { max: 128, ..Assume::default() }).unwrap();
    /// s.assume("S", Assume { max: 1 << 20, ..Assume::default() }).unwrap();
    /// let l = SymLayout::parse("(B,(S,H)):(0,(0,0))", &mut s).unwrap();
    /// let r = SymLayout::row_major(&l).unwrap();
    /// assert_eq!(r.show(&s).to_string(), "(B,(S,H)):(H*S,(H,1))");
    /// ```
    pub fn row_major(shape_of: &SymLayout) -> Result<SymLayout> {
        let mut stride = vec![Poly::zero(); shape_of.shape.len()];
        let mut acc = Poly::constant(1);
        for (k, s) in shape_of.shape.iter().enumerate().rev() {
            stride[k] = acc.clone();
            acc = acc.mul(s)?;
        }
        Ok(SymLayout {
            profile: shape_of.profile.clone(),
            shape: shape_of.shape.clone(),
            stride,
        })
    }

    /// The nesting.
    ///
    /// ```
    /// let mut s = hlayout::symbolic::Symbols::new();
    /// let l = hlayout::symbolic::SymLayout::parse("(N,(4,8)):(32,(8,1))", &mut s).unwrap();
    /// assert_eq!(l.profile().to_string(), "(_,(_,_))");
    /// ```
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// The extents, row-major.
    ///
    /// ```
    /// let mut s = hlayout::symbolic::Symbols::new();
    /// let l = hlayout::symbolic::SymLayout::parse("(N,4):(4,1)", &mut s).unwrap();
    /// assert_eq!(l.shape_leaves().len(), 2);
    /// ```
    pub fn shape_leaves(&self) -> &[Poly] {
        &self.shape
    }

    /// The strides, row-major.
    ///
    /// ```
    /// let mut s = hlayout::symbolic::Symbols::new();
    /// let l = hlayout::symbolic::SymLayout::parse("(N,4):(4,1)", &mut s).unwrap();
    /// assert_eq!(l.stride_leaves()[0].as_const(), Some(4));
    /// ```
    pub fn stride_leaves(&self) -> &[Poly] {
        &self.stride
    }

    /// The size, the product of the extents.
    ///
    /// # Errors
    /// [`Error::Overflow`]; [`Error::LimitExceeded`] (`max_degree`).
    ///
    /// ```
    /// let mut s = hlayout::symbolic::Symbols::new();
    /// let l = hlayout::symbolic::SymLayout::parse("(N,4):(4,1)", &mut s).unwrap();
    /// assert_eq!(s.show(&l.size().unwrap()).to_string(), "4*N");
    /// ```
    pub fn size(&self) -> Result<Poly> {
        self.shape
            .iter()
            .try_fold(Poly::constant(1), |acc, s| acc.mul(s))
    }

    /// Checks what [`Layout::new`] checks, for every allowed binding: each
    /// extent `≥ 1`, the size and the span `Σ |d|·(s−1)` at most `i64::MAX`,
    /// and each polynomial against the limits. A stride whose sign is not
    /// proved needs `d >= 0` (or the proof that it is `≤ 0`).
    ///
    /// # Errors
    /// [`Error::NeedsFacts`] naming the facts; [`Error::LimitExceeded`].
    ///
    /// ```
    /// use hlayout::symbolic::{Assume, SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// let err = SymLayout::parse("(N,M,K):(1,1,1)", &mut s).unwrap_err();
    /// assert!(err.to_string().contains("needs N*M*K <= 9223372036854775807"), "{err}");
    /// s.assume("K", Assume { max: 64, ..Assume::default() }).unwrap();
    /// s.assume("M", Assume { max: 1 << 20, ..Assume::default() }).unwrap();
    /// assert!(SymLayout::parse("(N,M,K):(1,1,1)", &mut s).is_ok());
    /// ```
    pub fn validate(&self, syms: &Symbols) -> Result<()> {
        self.validate_parts(syms, true)
    }

    /// [`SymLayout::validate`]; `extents: false` skips the extents, for
    /// results whose extents are positive by construction.
    pub(crate) fn validate_parts(&self, syms: &Symbols, extents: bool) -> Result<()> {
        for p in self.shape.iter().chain(&self.stride) {
            syms.check(p)?;
        }
        if self.valid_by_intervals(syms) {
            return Ok(());
        }
        let mut needs = Needs::new(syms, "layout");
        let mut span = Poly::zero();
        for (s, d) in self.shape.iter().zip(&self.stride) {
            if extents {
                needs.require(Fact::ge(s, &Poly::constant(1))?)?;
            }
            let reach = s.add_const(-1)?.mul(d)?;
            let nonneg = needs.branch_nonneg(d.clone())?;
            span = if nonneg {
                span.add(&reach)?
            } else {
                span.sub(&reach)?
            };
        }
        needs.require(Fact::at_most(&self.size()?, i64::MAX))?;
        needs.require(Fact::at_most(&span, i64::MAX))?;
        needs.finish("a valid layout (extents >= 1, size and span within i64)")
    }

    /// A sufficient check of [`SymLayout::validate`] by intervals alone,
    /// building no polynomial: every extent's lower end `≥ 1`, every
    /// stride's sign decided, and the upper ends of the size (`Π max s`)
    /// and of the span (`Σ (max s − 1)·max |d|`) within `i64`. `false`
    /// means "not shown this way" (the full check then runs). O(leaves·t).
    fn valid_by_intervals(&self, syms: &Symbols) -> bool {
        // Both sums only grow, so `i64` arithmetic suffices: an overflow
        // means the bound is past `i64::MAX` already.
        let (mut size, mut span) = (1i64, 0i64);
        for (s, d) in self.shape.iter().zip(&self.stride) {
            let (Some(slo), Some(shi)) = syms.bounds(s) else {
                return false;
            };
            let dabs = match syms.bounds(d) {
                (Some(l), Some(h)) if l >= 0 => h,
                (Some(l), Some(h)) if h < 0 => -l,
                _ => return false,
            };
            let (Ok(shi), Ok(dabs)) = (i64::try_from(shi), i64::try_from(dabs)) else {
                return false;
            };
            let reach = (shi - 1).checked_mul(dabs);
            match (
                size.checked_mul(shi),
                reach.and_then(|r| span.checked_add(r)),
            ) {
                (Some(a), Some(b)) if slo >= 1 => (size, span) = (a, b),
                _ => return false,
            }
        }
        true
    }

    /// The concrete layout at a binding (`values[id]` for each symbol).
    ///
    /// # Errors
    /// [`Error::Overflow`] when a leaf leaves `i64`; those of [`Layout::new`].
    ///
    /// ```
    /// use hlayout::symbolic::{Assume, SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// s.assume("N", Assume { max: 1 << 20, ..Assume::default() }).unwrap();
    /// let l = SymLayout::parse("(N,4):(4*N,1)", &mut s).unwrap();
    /// assert_eq!(l.bind(&s, &[2]).unwrap().to_string(), "(2,4):(8,1)");
    /// ```
    pub fn bind(&self, _syms: &Symbols, values: &[i64]) -> Result<Layout> {
        let at = |p: &Poly| p.eval_i64(values);
        let shape = self.shape.iter().map(at).collect::<Result<_>>()?;
        let stride = self.stride.iter().map(at).collect::<Result<_>>()?;
        Layout::from_leaves(self.profile.clone(), shape, stride)
    }

    /// A `Display` in the layout text.
    ///
    /// ```
    /// let mut s = hlayout::symbolic::Symbols::new();
    /// let l = hlayout::symbolic::SymLayout::parse("N:2*N+1", &mut s).unwrap();
    /// assert_eq!(l.show(&s).to_string(), "N:2*N+1");
    /// ```
    pub fn show<'a>(&'a self, syms: &'a Symbols) -> ShowLayout<'a> {
        ShowLayout { l: self, syms }
    }
}

/// A [`SymLayout`] with its symbol names, printed as layout text.
#[derive(Clone, Copy, Debug)]
pub struct ShowLayout<'a> {
    l: &'a SymLayout,
    syms: &'a Symbols,
}

impl fmt::Display for ShowLayout<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let toks = self.l.profile.toks();
        let n = self.l.shape.len();
        write_nested(f, toks, n, |f, i| {
            write!(f, "{}", self.syms.show(&self.l.shape[i]))
        })?;
        f.write_str(":")?;
        write_nested(f, toks, n, |f, i| {
            write!(f, "{}", self.syms.show(&self.l.stride[i]))
        })
    }
}

/// Parses a nested tuple of polynomial leaves; `base` is the text's byte
/// offset in the whole input (for error positions).
fn parse_tuple(text: &str, base: usize, syms: &mut Symbols) -> Result<(Vec<Tok>, Vec<Poly>)> {
    let bytes = text.as_bytes();
    let (mut toks, mut leaves) = (Vec::new(), Vec::new());
    let (mut depth, mut max_depth, mut pos) = (0usize, 0usize, 0usize);
    let fail = |pos: usize, expected| Error::Parse {
        pos: base + pos,
        expected,
        found: text[pos..].chars().next(),
    };
    let skip = |pos: &mut usize| {
        while bytes.get(*pos).is_some_and(u8::is_ascii_whitespace) {
            *pos += 1;
        }
    };
    loop {
        skip(&mut pos);
        // An element: '(' opens, anything else is a leaf.
        if bytes.get(pos) == Some(&b'(') {
            toks.push(Tok::Open);
            (depth, pos) = (depth + 1, pos + 1);
            max_depth = max_depth.max(depth);
            check_depth(max_depth)?;
            skip(&mut pos);
            if bytes.get(pos) != Some(&b')') {
                continue;
            }
        } else {
            let start = pos;
            while bytes.get(pos).is_some_and(|b| {
                !matches!(b, b'(' | b')' | b',' | b':') && !b.is_ascii_whitespace()
            }) {
                pos += 1;
            }
            if start == pos {
                return Err(fail(pos, "a polynomial or '('"));
            }
            let p = syms.parse(&text[start..pos]).map_err(|e| match e {
                Error::Parse {
                    pos: p,
                    expected,
                    found,
                } => Error::Parse {
                    pos: base + start + p,
                    expected,
                    found,
                },
                e => e,
            })?;
            toks.push(Tok::Leaf);
            leaves.push(p);
        }
        // After an element: ',' continues, ')' closes, the end finishes.
        loop {
            skip(&mut pos);
            match bytes.get(pos) {
                Some(b')') if depth > 0 => {
                    toks.push(Tok::Close);
                    (depth, pos) = (depth - 1, pos + 1);
                }
                Some(b',') if depth > 0 => {
                    pos += 1;
                    break;
                }
                None if depth == 0 => return Ok((toks, leaves)),
                _ if depth == 0 => return Err(fail(pos, "the end of the tuple")),
                _ => return Err(fail(pos, "',' or ')'")),
            }
        }
    }
}
