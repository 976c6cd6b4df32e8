//! Predicated divides over symbols: a tile that need not divide the extent.
//!
//! The concrete [`Layout::predicated_divide`](crate::Layout::predicated_divide)
//! reads A through `D = (complement(B, N), B)` over the rounded-up tile
//! count `⌈N/c⌉` (`c` the span B's leaves cover, `N = size(A)`), valid where
//! `0 <= D(x) < N`. Over symbols the same view exists when `⌈N/c⌉` is a
//! polynomial: `N/c` exact, or `c` a constant and `N = c·q + r` with `q` a
//! polynomial and `0 < r < c` a constant (`64*K+10` by 64: `K+1` tiles, the
//! last one valid up to 10). The complement is then taken with the cotarget
//! `c·⌈N/c⌉`, whose last leaf is the tile count exactly, and composed as the
//! logical divide; the constraint's coefficients are D's strides spread over
//! the result's leaves, as in the concrete case. `N` by 64 without
//! `N % 64 == 0` has the tile count `⌈N/64⌉`, which is no polynomial (the
//! protocol's text has no division): refused, with `needs: []` and the
//! advice to write `N` as `64*Nt + r`.
//!
//! Cost: that of the complement and the composition, plus O(leaves × modes).

use std::fmt;

use super::by_mode::{gathered, per_mode};
use super::complement::pair;
use super::layout::SymLayout;
use super::need::Needs;
use super::poly::Poly;
use super::products::tuple;
use super::prove::{Fact, Truth};
use super::symbols::Symbols;
use crate::algebra::DivideForm;
use crate::error::{Error, Result};
use crate::view::{Builder, View};

/// A divide over symbols with its validity: `layout`, valid where every
/// constraint `0 <= Σ coeffs[k]·x_k < hi` holds over its leaf coordinates
/// (row-major), as the concrete [`View`] of
/// [`Layout::predicated_divide`](crate::Layout::predicated_divide) is.
///
/// ```
/// use hlayout::{algebra::DivideForm, symbolic::{SymLayout, Symbols}};
/// let mut s = Symbols::new();
/// let row = SymLayout::parse("64*K+10:1", &mut s).unwrap();
/// let p = row.predicated_divide(&SymLayout::parse("64:1", &mut s).unwrap(), DivideForm::Logical, &s).unwrap();
/// assert_eq!(p.show(&s).to_string(), "(K+1,64):(64,1) if 0<=64*x0+x1<64*K+10");
/// let v = p.bind(&s, &[2]).unwrap(); // K = 2: 138 elements in 3 tiles
/// assert_eq!((v.eval(&[2, 9]).unwrap(), v.eval(&[2, 10]).unwrap()), (Some(137), None));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymPredicated {
    layout: SymLayout,
    constraints: Vec<(Vec<Poly>, Poly)>,
}

/// One divided mode: its size, the constraint's coefficients over its rest
/// and tile leaves, and the divided layout `(Rest, Tile)`.
struct Piece {
    size: Poly,
    rest: Vec<Poly>,
    tile: Vec<Poly>,
    divided: SymLayout,
}

impl SymLayout {
    /// The predicated divide by one layout (module docs), gathered as
    /// `form` says: logical and zipped `(Rest, Tile)`, tiled `(Rest's
    /// modes…, Tile)`, flat `(Rest's modes…, Tile's modes…)`.
    ///
    /// # Errors
    /// [`Error::NeedsFacts`]: the tile count is no polynomial (`needs: []`),
    /// or those of [`SymLayout::complement`] and [`SymLayout::compose`].
    ///
    /// ```
    /// use hlayout::{algebra::DivideForm, symbolic::{Assume, SymLayout, Symbols}};
    /// let mut s = Symbols::new();
    /// let tile = SymLayout::parse("64:1", &mut s).unwrap();
    /// let n = SymLayout::parse("N:1", &mut s).unwrap();
    /// assert!(n.predicated_divide(&tile, DivideForm::Logical, &s).is_err()); // ⌈N/64⌉ is no polynomial
    /// s.assume("N", Assume { divisible_by: 64, max: 1 << 20, ..Assume::default() }).unwrap();
    /// assert!(n.predicated_divide(&tile, DivideForm::Logical, &s).is_err()); // N/64 is not either
    /// let p = SymLayout::parse("64*Nt:1", &mut s).unwrap().predicated_divide(&tile, DivideForm::Logical, &s).unwrap();
    /// assert_eq!(p.show(&s).to_string(), "(Nt,64):(64,1)"); // divides: always valid
    /// ```
    pub fn predicated_divide(
        &self,
        b: &SymLayout,
        form: DivideForm,
        syms: &Symbols,
    ) -> Result<SymPredicated> {
        let p = piece(self, b, syms)?;
        let rows = p.rest.iter().chain(&p.tile).cloned().collect();
        let mut halves = p.divided.modes().into_iter();
        let (rest, tile) = (halves.next(), halves.next());
        let (rest, tile) = (rest.unwrap_or_else(unit), tile.unwrap_or_else(unit));
        // The leaves stay in order (Rest's, then Tile's): only the nesting changes.
        let layout = match form {
            DivideForm::Logical | DivideForm::Zipped => p.divided,
            DivideForm::Tiled => tuple(&[rest.modes(), vec![tile]].concat()),
            DivideForm::Flat => tuple(&[rest.modes(), tile.modes()].concat()),
        };
        Ok(SymPredicated::new(layout, vec![(rows, p.size)], syms))
    }

    /// The predicated divide by mode: each trailing mode divided by its
    /// tiler layout, gathered as `form` says ([`DivideForm`]), one
    /// constraint per mode whose tile does not divide it.
    ///
    /// # Errors
    /// [`Error::ProfileTooLong`]; those of [`SymLayout::predicated_divide`].
    ///
    /// ```
    /// use hlayout::{algebra::DivideForm, symbolic::{Assume, SymLayout, Symbols}};
    /// let mut s = Symbols::new();
    /// s.assume("M", Assume { max: 1 << 20, ..Assume::default() }).unwrap();
    /// let a = SymLayout::parse("(4*M+2,6):(6,1)", &mut s).unwrap();
    /// let t = [SymLayout::parse("4:1", &mut s).unwrap(), SymLayout::parse("4:1", &mut s).unwrap()];
    /// let p = a.predicated_divide_by(&t, DivideForm::Zipped, &s).unwrap();
    /// assert_eq!(
    ///     p.show(&s).to_string(),
    ///     "((M+1,2),(4,4)):((24,4),(6,1)) if 0<=4*x0+x2<4*M+2 && 0<=4*x1+x3<6"
    /// );
    /// ```
    pub fn predicated_divide_by(
        &self,
        tiler: &[SymLayout],
        form: DivideForm,
        syms: &Symbols,
    ) -> Result<SymPredicated> {
        let (kept, pieces) = per_mode(self, tiler, |m, t| piece(m, t, syms))?;
        let n = pieces.len();
        let zero = || vec![Poly::zero(); n];
        let one = |i: usize, c: &Poly| {
            let mut r = zero();
            r[i] = c.clone();
            r
        };
        let mut rows: Vec<Vec<Poly>> = kept
            .iter()
            .flat_map(|m| m.shape_leaves().iter().map(|_| zero()))
            .collect();
        let halves: Vec<(SymLayout, SymLayout)> = pieces
            .iter()
            .map(|p| {
                let mut m = p.divided.modes().into_iter();
                (m.next(), m.next())
            })
            .map(|(x, y)| (x.unwrap_or_else(unit), y.unwrap_or_else(unit)))
            .collect();
        let layout = if form == DivideForm::Logical {
            for (i, p) in pieces.iter().enumerate() {
                rows.extend(p.rest.iter().chain(&p.tile).map(|c| one(i, c)));
            }
            let divided = pieces.iter().map(|p| p.divided.clone());
            tuple(&kept.iter().cloned().chain(divided).collect::<Vec<_>>())
        } else {
            for (i, p) in pieces.iter().enumerate() {
                rows.extend(p.rest.iter().map(|c| one(i, c)));
            }
            for (i, p) in pieces.iter().enumerate() {
                rows.extend(p.tile.iter().map(|c| one(i, c)));
            }
            let mut firsts: Vec<SymLayout> = kept.to_vec();
            firsts.extend(halves.iter().map(|h| h.0.clone()));
            let seconds: Vec<SymLayout> = halves.iter().map(|h| h.1.clone()).collect();
            gathered(firsts, seconds, form)
        };
        // Constraint i over all leaves: column i of the rows.
        let constraints = pieces
            .into_iter()
            .enumerate()
            .map(|(i, p)| (rows.iter().map(|r| r[i].clone()).collect(), p.size))
            .collect();
        Ok(SymPredicated::new(layout, constraints, syms))
    }
}

impl SymPredicated {
    /// Drops the constraints that hold at every element and binding (a
    /// tile count that divides).
    fn new(
        layout: SymLayout,
        constraints: Vec<(Vec<Poly>, Poly)>,
        syms: &Symbols,
    ) -> SymPredicated {
        let constraints = constraints
            .into_iter()
            .filter(|(c, hi)| !always_valid(&layout, c, hi, syms))
            .collect();
        SymPredicated {
            layout,
            constraints,
        }
    }

    /// The divided layout (also at the invalid elements: A read on ℤ).
    ///
    /// ```
    /// use hlayout::{algebra::DivideForm, symbolic::{SymLayout, Symbols}};
    /// let mut s = Symbols::new();
    /// let p = SymLayout::parse("4*K+1:1", &mut s).unwrap()
    ///     .predicated_divide(&SymLayout::parse("4:1", &mut s).unwrap(), DivideForm::Logical, &s).unwrap();
    /// assert_eq!(p.layout().show(&s).to_string(), "(K+1,4):(4,1)");
    /// ```
    pub fn layout(&self) -> &SymLayout {
        &self.layout
    }

    /// The constraints `0 <= Σ coeffs[k]·x_k < hi`, as `(coeffs, hi)`, one
    /// coefficient per leaf of [`SymPredicated::layout`].
    ///
    /// ```
    /// use hlayout::{algebra::DivideForm, symbolic::{SymLayout, Symbols}};
    /// let mut s = Symbols::new();
    /// let p = SymLayout::parse("4*K+1:1", &mut s).unwrap()
    ///     .predicated_divide(&SymLayout::parse("4:1", &mut s).unwrap(), DivideForm::Logical, &s).unwrap();
    /// let (coeffs, hi) = &p.constraints()[0];
    /// assert_eq!((coeffs.len(), s.show(hi).to_string()), (2, "4*K+1".to_string()));
    /// ```
    pub fn constraints(&self) -> &[(Vec<Poly>, Poly)] {
        &self.constraints
    }

    /// The concrete view at a binding (`values[id]` per symbol): the
    /// layout's top-level modes as dimensions, the constraints bound.
    ///
    /// # Errors
    /// [`Error::Overflow`] when a polynomial leaves `i64` there; those of
    /// [`SymLayout::bind`].
    ///
    /// ```
    /// use hlayout::{algebra::DivideForm, symbolic::{SymLayout, Symbols}};
    /// let mut s = Symbols::new();
    /// let p = SymLayout::parse("4*K+1:1", &mut s).unwrap()
    ///     .predicated_divide(&SymLayout::parse("4:1", &mut s).unwrap(), DivideForm::Logical, &s).unwrap();
    /// assert_eq!(p.bind(&s, &[2]).unwrap().to_string(), "(3,4):(4,1) if 0<=4*x0+x1<9");
    /// ```
    pub fn bind(&self, syms: &Symbols, values: &[i64]) -> Result<View> {
        let at = |p: &Poly| p.eval_i64(values);
        let l = self.layout.bind(syms, values)?;
        let bounds = self
            .constraints
            .iter()
            .map(|(_, hi)| Ok((0, at(hi)?)))
            .collect::<Result<_>>()?;
        let mut b = Builder::new(bounds, 0);
        let mut k = 0;
        for m in l.modes() {
            for (&e, &s) in m.shape_leaves().iter().zip(m.stride_leaves()) {
                let coeffs = self
                    .constraints
                    .iter()
                    .map(|(c, _)| at(&c[k]))
                    .collect::<Result<Vec<_>>>()?;
                b.leaf(e, s, coeffs);
                k += 1;
            }
            b.end_dim(None);
        }
        let mut v = b.finish();
        v.normalize()?;
        Ok(v)
    }

    /// A `Display`: the layout, then ` if C && C` over leaves `x0, x1, …`.
    ///
    /// ```
    /// use hlayout::{algebra::DivideForm, symbolic::{SymLayout, Symbols}};
    /// let mut s = Symbols::new();
    /// let p = SymLayout::parse("8*K+3:1", &mut s).unwrap()
    ///     .predicated_divide(&SymLayout::parse("8:1", &mut s).unwrap(), DivideForm::Logical, &s).unwrap();
    /// assert_eq!(p.show(&s).to_string(), "(K+1,8):(8,1) if 0<=8*x0+x1<8*K+3");
    /// ```
    pub fn show<'a>(&'a self, syms: &'a Symbols) -> ShowPredicated<'a> {
        ShowPredicated { p: self, syms }
    }
}

/// A [`SymPredicated`] with its symbol names.
#[derive(Clone, Copy, Debug)]
pub struct ShowPredicated<'a> {
    p: &'a SymPredicated,
    syms: &'a Symbols,
}

impl fmt::Display for ShowPredicated<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.p.layout.show(self.syms))?;
        for (i, (coeffs, hi)) in self.p.constraints.iter().enumerate() {
            f.write_str(if i == 0 { " if 0<=" } else { " && 0<=" })?;
            let mut first = true;
            for (k, c) in coeffs.iter().enumerate() {
                if c.is_zero() {
                    continue;
                }
                let text = self.syms.show(c).to_string();
                let sep = if first { "" } else { "+" };
                first = false;
                match text.as_str() {
                    "1" => write!(f, "{sep}x{k}")?,
                    t if t.contains(['+', '-']) => write!(f, "{sep}({t})*x{k}")?,
                    t => write!(f, "{sep}{t}*x{k}")?,
                }
            }
            if first {
                f.write_str("0")?;
            }
            write!(f, "<{}", self.syms.show(hi))?;
        }
        Ok(())
    }
}

/// `1:0`.
fn unit() -> SymLayout {
    SymLayout::flat(vec![Poly::constant(1)], vec![Poly::zero()])
}

/// Whether `0 <= Σ c·x < hi` holds on the whole box of `l`'s leaves at
/// every binding: every coefficient proved `≥ 0` and the largest sum
/// `Σ c·(extent − 1)` proved `< hi` (a tile count that divides).
fn always_valid(l: &SymLayout, c: &[Poly], hi: &Poly, syms: &Symbols) -> bool {
    let mut reach = Poly::zero();
    for (e, k) in l.shape_leaves().iter().zip(c) {
        if k.is_zero() {
            continue;
        }
        let nonneg = Fact::ge(k, &Poly::zero()).map(|f| syms.prove(&f));
        let Ok(Truth::Proved) = nonneg else {
            return false;
        };
        let Ok(r) = e
            .sub(&Poly::constant(1))
            .and_then(|d| d.mul(k))
            .and_then(|d| reach.add(&d))
        else {
            return false;
        };
        reach = r;
    }
    Fact::lt(&reach, hi).is_ok_and(|f| syms.prove(&f) == Truth::Proved)
}

/// One mode divided by one tile with its constraint (module docs).
fn piece(a: &SymLayout, b: &SymLayout, syms: &Symbols) -> Result<Piece> {
    let n = a.size()?;
    let covered = span(b, syms)?;
    let count = ceil_div(&n, &covered, syms)?;
    let c = b.complement(&count.mul(&covered)?, syms)?;
    let divided = a.compose(&pair(&c, b), syms)?;
    let mut m = divided.modes().into_iter();
    let (Some(rest), Some(tile)) = (m.next(), m.next()) else {
        return Err(Error::Precondition {
            op: "predicated_divide",
            layout: divided.show(syms).to_string(),
            rule: "a divide has two modes".into(),
        });
    };
    Ok(Piece {
        size: n,
        rest: refine(&rest, &c, syms)?,
        tile: refine(&tile, b, syms)?,
        divided,
    })
}

/// The span B's leaves cover, `c` of the complement's last leaf: the size
/// of `complement(B, 1)` times the extents of B's leaves with a non-zero
/// stride (the complement's gaps chain exactly over symbols).
fn span(b: &SymLayout, syms: &Symbols) -> Result<Poly> {
    let mut c = b.complement(&Poly::constant(1), syms)?.size()?;
    for (s, d) in b.shape_leaves().iter().zip(b.stride_leaves()) {
        if !d.is_zero() {
            c = c.mul(s)?;
        }
    }
    Ok(c)
}

/// `⌈n/c⌉` as a polynomial at every binding (module docs), or the refusal.
fn ceil_div(n: &Poly, c: &Poly, syms: &Symbols) -> Result<Poly> {
    if let Some(q) = n.div_exact(c) {
        return Ok(q);
    }
    let needs = Needs::new(syms, "predicated_divide");
    let refuse = || {
        needs.refuse(format!(
            "the tile count ⌈({})/({})⌉ is not a polynomial with integer coefficients \
             (write the extent as a multiple of the tile plus a constant, e.g. {}*K+r)",
            syms.show(n),
            syms.show(c),
            syms.show(c)
        ))
    };
    let Some(k) = c.as_const().filter(|&k| k > 1) else {
        return Err(refuse());
    };
    let r = n.constant_term().rem_euclid(k);
    let q = n.sub(&Poly::constant(r))?.div_exact(c).ok_or_else(refuse)?;
    q.add(&Poly::constant(1))
}

/// The coefficient of each leaf of `r` in `d`'s index, `r`'s leaves refining
/// `d`'s (as composition builds them): within each run, `d`'s stride times
/// the run's row-major place value. O(leaves).
fn refine(r: &SymLayout, d: &SymLayout, syms: &Symbols) -> Result<Vec<Poly>> {
    let re = r.shape_leaves();
    let mut out = vec![Poly::zero(); re.len()];
    let mut k = 0;
    let broken = || Error::Precondition {
        op: "predicated_divide",
        layout: r.show(syms).to_string(),
        rule: format!("its leaves do not refine those of {}", d.show(syms)),
    };
    for (b, beta) in d.shape_leaves().iter().zip(d.stride_leaves()) {
        let start = k;
        let mut prod = Poly::constant(1);
        while &prod != b {
            prod = prod.mul(re.get(k).ok_or_else(broken)?)?;
            k += 1;
        }
        let mut place = beta.clone();
        for j in (start..k).rev() {
            out[j] = place.clone();
            if j > start {
                place = place.mul(&re[j])?;
            }
        }
    }
    if re[k..].iter().any(|e| e.as_const() != Some(1)) {
        return Err(broken());
    }
    Ok(out)
}
