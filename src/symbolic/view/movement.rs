//! [`SymMovement`]: a movement op whose sizes and amounts are polynomials,
//! parsed from the batch protocol's JSON form, where a symbolic number is a
//! string (`["shrink",[[0,"sp+1"],[0,64]]]`, `["pad",[["j",0],[0,0]]]`).

use std::fmt;

use super::super::poly::Poly;
use super::super::symbols::Symbols;
use super::SymViewStack;
use crate::error::{Error, Result};
use crate::view::movement_text::{movement_from, parse, Cursor, Parsed};
use crate::view::{Movement, MovementKind};

/// One movement op over symbols; the counterpart of [`Movement`].
///
/// ```
/// use hlayout::symbolic::{SymMovement, Symbols};
/// let mut s = Symbols::new();
/// let m = SymMovement::parse(r#"["pad", [["j", 0], [0, 0]]]"#, &mut s)?;
/// assert_eq!(m.show(&s).to_string(), r#"["pad",[["j",0],[0,0]]]"#);
/// assert_eq!(m.kind(), hlayout::MovementKind::Pad);
/// # Ok::<(), hlayout::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SymMovement {
    /// The new shape (same number of elements).
    Reshape(Vec<Poly>),
    /// New dimension `k` is old dimension `perm[k]`.
    Permute(Vec<usize>),
    /// The new shape: extent-1 dimensions broadcast (stride 0).
    Expand(Vec<Poly>),
    /// `(before, after)` invalid elements per dimension.
    Pad(Vec<(Poly, Poly)>),
    /// `[begin, end)` kept per dimension.
    Shrink(Vec<(Poly, Poly)>),
    /// Whether each dimension is reversed.
    Flip(Vec<bool>),
}

impl From<&Movement> for SymMovement {
    /// The op with every number a constant polynomial.
    fn from(m: &Movement) -> SymMovement {
        let polys = |v: &[i64]| v.iter().map(|&x| Poly::constant(x)).collect();
        let pairs = |v: &[(i64, i64)]| {
            v.iter()
                .map(|&(a, b)| (Poly::constant(a), Poly::constant(b)))
                .collect()
        };
        match m {
            Movement::Reshape(v) => SymMovement::Reshape(polys(v)),
            Movement::Permute(p) => SymMovement::Permute(p.clone()),
            Movement::Expand(v) => SymMovement::Expand(polys(v)),
            Movement::Pad(v) => SymMovement::Pad(pairs(v)),
            Movement::Shrink(v) => SymMovement::Shrink(pairs(v)),
            Movement::Flip(f) => SymMovement::Flip(f.clone()),
        }
    }
}

impl SymMovement {
    /// Which op this is.
    ///
    /// ```
    /// use hlayout::symbolic::SymMovement;
    /// assert_eq!(SymMovement::Flip(vec![true]).kind(), hlayout::MovementKind::Flip);
    /// ```
    pub fn kind(&self) -> MovementKind {
        match self {
            SymMovement::Reshape(_) => MovementKind::Reshape,
            SymMovement::Permute(_) => MovementKind::Permute,
            SymMovement::Expand(_) => MovementKind::Expand,
            SymMovement::Pad(_) => MovementKind::Pad,
            SymMovement::Shrink(_) => MovementKind::Shrink,
            SymMovement::Flip(_) => MovementKind::Flip,
        }
    }

    /// Parses the protocol's JSON form: a number is a JSON integer or a
    /// string of polynomial text (new symbols join `syms` with the default
    /// assumptions). O(length).
    ///
    /// # Errors
    /// [`Error::Parse`] with the byte position; [`Error::UnknownName`] for
    /// an unknown op; those of [`Symbols::parse`].
    ///
    /// ```
    /// use hlayout::symbolic::{SymMovement, Symbols};
    /// let mut s = Symbols::new();
    /// let m = SymMovement::parse(r#"["shrink",[[0,"sp+1"],[0,64]]]"#, &mut s)?;
    /// assert!(matches!(m, SymMovement::Shrink(ref v) if v.len() == 2));
    /// assert!(SymMovement::parse(r#"["shrink",[[0,"sp+"]]]"#, &mut s).is_err());
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn parse(text: &str, syms: &mut Symbols) -> Result<SymMovement> {
        let parsed = parse(text, NUMBER, |c| poly(c, syms))?;
        Ok(movement_from!(SymMovement, parsed))
    }

    /// The concrete op at a binding: every polynomial evaluated at `values`
    /// (one per symbol, in the table's order). O(size of the argument).
    ///
    /// # Errors
    /// [`Error::Overflow`] when a polynomial's value at the binding is not an
    /// `i64` (or a value is missing).
    ///
    /// ```
    /// use hlayout::symbolic::{SymMovement, Symbols};
    /// use hlayout::Movement;
    /// let mut s = Symbols::new();
    /// let m = SymMovement::parse(r#"["pad",[[0,"N-1"],[1,1]]]"#, &mut s)?;
    /// assert_eq!(m.bind(&[3])?, Movement::Pad(vec![(0, 2), (1, 1)]));
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn bind(&self, values: &[i64]) -> Result<Movement> {
        let at = |p: &Poly| p.eval_i64(values);
        let all = |v: &[Poly]| v.iter().map(at).collect::<Result<Vec<_>>>();
        let pairs = |v: &[(Poly, Poly)]| {
            v.iter()
                .map(|(a, b)| Ok((at(a)?, at(b)?)))
                .collect::<Result<Vec<_>>>()
        };
        Ok(match self {
            SymMovement::Reshape(v) => Movement::Reshape(all(v)?),
            SymMovement::Permute(p) => Movement::Permute(p.clone()),
            SymMovement::Expand(v) => Movement::Expand(all(v)?),
            SymMovement::Pad(v) => Movement::Pad(pairs(v)?),
            SymMovement::Shrink(v) => Movement::Shrink(pairs(v)?),
            SymMovement::Flip(f) => Movement::Flip(f.clone()),
        })
    }

    /// A `Display` in the protocol's JSON form: constants as integers,
    /// other polynomials as strings.
    ///
    /// See [`SymMovement`] for an example.
    pub fn show<'a>(&'a self, syms: &'a Symbols) -> ShowMovement<'a> {
        ShowMovement { m: self, syms }
    }
}

/// A [`SymMovement`] with its symbol names (see [`SymMovement::show`]).
#[derive(Clone, Copy, Debug)]
pub struct ShowMovement<'a> {
    m: &'a SymMovement,
    syms: &'a Symbols,
}

impl fmt::Display for ShowMovement<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let num = |f: &mut fmt::Formatter<'_>, p: &Poly| match p.as_const() {
            Some(c) => write!(f, "{c}"),
            None => write!(f, "\"{}\"", self.syms.show(p)),
        };
        let list =
            |f: &mut fmt::Formatter<'_>,
             n: usize,
             item: &dyn Fn(&mut fmt::Formatter<'_>, usize) -> fmt::Result| {
                f.write_str("[")?;
                for k in 0..n {
                    if k > 0 {
                        f.write_str(",")?;
                    }
                    item(f, k)?;
                }
                f.write_str("]")
            };
        write!(f, "[\"{}\",", self.m.kind())?;
        match self.m {
            SymMovement::Reshape(v) | SymMovement::Expand(v) => {
                list(f, v.len(), &|f, k| num(f, &v[k]))
            }
            SymMovement::Permute(v) => list(f, v.len(), &|f, k| write!(f, "{}", v[k])),
            SymMovement::Pad(v) | SymMovement::Shrink(v) => list(f, v.len(), &|f, k| {
                f.write_str("[")?;
                num(f, &v[k].0)?;
                f.write_str(",")?;
                num(f, &v[k].1)?;
                f.write_str("]")
            }),
            SymMovement::Flip(v) => list(f, v.len(), &|f, k| write!(f, "{}", v[k])),
        }?;
        f.write_str("]")
    }
}

impl SymViewStack {
    /// Applies one movement op (the method of the same name with the op's
    /// argument); a chain is a fold:
    /// `ops.iter().try_fold(stack, |t, op| t.apply(op, &syms))`.
    ///
    /// # Errors
    /// Those of the op.
    ///
    /// ```
    /// use hlayout::symbolic::{SymMovement, SymViewStack, Symbols};
    /// let mut s = Symbols::new();
    /// let ops = [r#"["reshape",[2,"N"]]"#, r#"["permute",[1,0]]"#]
    ///     .iter()
    ///     .map(|t| SymMovement::parse(t, &mut s))
    ///     .collect::<Result<Vec<_>, _>>()?;
    /// let t = SymViewStack::new(&[s.parse("2*N")?], &s)?;
    /// let t = ops.iter().try_fold(t, |t, op| t.apply(op, &s))?;
    /// assert_eq!(t.show(&s).to_string(), "(N,2):(1,N)");
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn apply(self, op: &SymMovement, syms: &Symbols) -> Result<SymViewStack> {
        match op {
            SymMovement::Reshape(s) => self.reshape(s, syms),
            SymMovement::Permute(p) => self.permute(p, syms),
            SymMovement::Expand(s) => self.expand(s, syms),
            SymMovement::Pad(a) => self.pad(a, syms),
            SymMovement::Shrink(a) => self.shrink(a, syms),
            SymMovement::Flip(f) => self.flip(f, syms),
        }
    }
}

/// What a number of a symbolic movement op is, for a parse error.
const NUMBER: &str = "an integer or polynomial text in a string";

/// An integer, or polynomial text in a string.
fn poly(c: &mut Cursor, syms: &mut Symbols) -> Result<Poly> {
    c.skip_space();
    if c.peek() != Some('"') {
        return Ok(Poly::constant(c.int(NUMBER)?));
    }
    let start = c.pos() + 1;
    let text = c.string()?;
    let p = syms.parse(text).map_err(|e| match e {
        Error::Parse {
            pos,
            expected,
            found,
        } => Error::Parse {
            pos: start + pos,
            expected,
            found,
        },
        e => e,
    })?;
    syms.check(&p)?;
    Ok(p)
}
