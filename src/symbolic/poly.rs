//! [`Poly`]: a polynomial over symbols with `i64` coefficients, canonical.
//!
//! Canonical form: terms sorted by monomial, highest first (the graded order
//! of [`Mono`]), at most one term per monomial, no zero coefficient. Zero is
//! the empty polynomial; a constant `c ≠ 0` is one term on [`Mono::ONE`].
//! Two polynomials are equal as functions of integer symbols iff they are
//! equal as values (`==`), so equality needs no prover. There is no in-band
//! sentinel: every `Poly` is a polynomial.
//!
//! Arithmetic is checked: a coefficient that leaves `i64` or a monomial past
//! [`MAX_DEGREE`](super::MAX_DEGREE) is an error, never a wrapped value.
//! Costs: add O(t₁ + t₂), multiply O(t₁·t₂·log), exact division O(t²)
//! per quotient term; up to 2 terms are stored inline.

use smallvec::SmallVec;

use super::mono::Mono;
use crate::error::{Error, Result};

/// One term: a coefficient (never 0) times a monomial.
pub type Term = (Mono, i64);

/// A polynomial in canonical form (see the module docs).
///
/// ```
/// use hlayout::symbolic::{Mono, Poly};
/// let n = Poly::symbol(0);
/// let p = n.mul(&Poly::constant(32)).unwrap().add(&Poly::constant(1)).unwrap();
/// assert_eq!(p.terms(), [(Mono::symbol(0), 32), (Mono::ONE, 1)]);
/// assert_eq!(p.sub(&p).unwrap(), Poly::zero());
/// assert_eq!(Poly::constant(7).as_const(), Some(7));
/// ```
#[derive(Debug, PartialEq, Eq, Hash, Default)]
pub struct Poly {
    terms: SmallVec<[Term; 2]>,
}

impl Clone for Poly {
    /// A copy of the terms (`Copy` values: one block copy, no per-term clone).
    fn clone(&self) -> Poly {
        Poly {
            terms: SmallVec::from_slice(&self.terms),
        }
    }
}

fn ovf() -> Error {
    Error::Overflow {
        what: "polynomial coefficient",
    }
}

impl Poly {
    /// The zero polynomial.
    ///
    /// ```
    /// assert!(hlayout::symbolic::Poly::zero().is_zero());
    /// ```
    pub fn zero() -> Poly {
        Poly::default()
    }

    /// The constant `c`.
    ///
    /// ```
    /// assert_eq!(hlayout::symbolic::Poly::constant(0), hlayout::symbolic::Poly::zero());
    /// ```
    pub fn constant(c: i64) -> Poly {
        let mut terms = SmallVec::new();
        if c != 0 {
            terms.push((Mono::ONE, c));
        }
        Poly { terms }
    }

    /// The symbol with id `id`.
    ///
    /// ```
    /// assert_eq!(hlayout::symbolic::Poly::symbol(0).as_const(), None);
    /// ```
    pub fn symbol(id: u8) -> Poly {
        Poly {
            terms: smallvec::smallvec![(Mono::symbol(id), 1)],
        }
    }

    /// `c·m` (zero when `c = 0`).
    ///
    /// ```
    /// use hlayout::symbolic::{Mono, Poly};
    /// assert_eq!(Poly::term(Mono::symbol(0), 1), Poly::symbol(0));
    /// ```
    pub fn term(m: Mono, c: i64) -> Poly {
        let mut terms = SmallVec::new();
        if c != 0 {
            terms.push((m, c));
        }
        Poly { terms }
    }

    /// The terms, highest monomial first.
    ///
    /// ```
    /// assert!(hlayout::symbolic::Poly::zero().terms().is_empty());
    /// ```
    pub fn terms(&self) -> &[Term] {
        &self.terms
    }

    /// `true` for the zero polynomial.
    ///
    /// ```
    /// assert!(!hlayout::symbolic::Poly::constant(1).is_zero());
    /// ```
    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    /// The value when the polynomial has no symbol.
    ///
    /// ```
    /// assert_eq!(hlayout::symbolic::Poly::zero().as_const(), Some(0));
    /// ```
    pub fn as_const(&self) -> Option<i64> {
        match self.terms.as_slice() {
            [] => Some(0),
            [(m, c)] if *m == Mono::ONE => Some(*c),
            _ => None,
        }
    }

    /// The constant term.
    ///
    /// ```
    /// let p = hlayout::symbolic::Poly::symbol(0).add(&7.into()).unwrap();
    /// assert_eq!(p.constant_term(), 7);
    /// ```
    pub fn constant_term(&self) -> i64 {
        match self.terms.last() {
            Some((m, c)) if *m == Mono::ONE => *c,
            _ => 0,
        }
    }

    /// The highest degree of a term (0 for constants and zero).
    ///
    /// ```
    /// assert_eq!(hlayout::symbolic::Poly::symbol(1).degree(), 1);
    /// ```
    pub fn degree(&self) -> usize {
        self.terms.first().map_or(0, |(m, _)| m.degree())
    }

    /// The sum. O(t₁ + t₂).
    ///
    /// # Errors
    /// [`Error::Overflow`] when a coefficient leaves `i64`.
    ///
    /// ```
    /// use hlayout::symbolic::Poly;
    /// let n = Poly::symbol(0);
    /// assert_eq!(n.add(&n.neg().unwrap()).unwrap(), Poly::zero());
    /// ```
    pub fn add(&self, other: &Poly) -> Result<Poly> {
        self.merge(other, 1)
    }

    /// `self + sign·other` (`sign` is `1` or `-1`) in one merge of the two
    /// sorted term lists, without forming `sign·other`. O(t₁ + t₂).
    fn merge(&self, other: &Poly, sign: i64) -> Result<Poly> {
        let (a, b) = (&self.terms, &other.terms);
        if b.is_empty() {
            return Ok(self.clone());
        }
        let mut out: SmallVec<[Term; 2]> = SmallVec::new();
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            let (x, y) = (a[i], b[j]);
            if x.0 == y.0 {
                (i, j) = (i + 1, j + 1);
                let c = y.1.checked_mul(sign).and_then(|c| x.1.checked_add(c));
                let c = c.ok_or_else(ovf)?;
                if c != 0 {
                    out.push((x.0, c));
                }
            } else if x.0 > y.0 {
                i += 1;
                out.push(x);
            } else {
                j += 1;
                out.push((y.0, y.1.checked_mul(sign).ok_or_else(ovf)?));
            }
        }
        out.extend_from_slice(&a[i..]);
        for &(m, c) in &b[j..] {
            out.push((m, c.checked_mul(sign).ok_or_else(ovf)?));
        }
        Ok(Poly { terms: out })
    }

    /// `self + k` for a constant `k`, without building the constant. O(t).
    ///
    /// # Errors
    /// [`Error::Overflow`].
    pub(crate) fn add_const(&self, k: i64) -> Result<Poly> {
        if k == 0 {
            return Ok(self.clone());
        }
        let mut terms: SmallVec<[Term; 2]> = SmallVec::from_slice(&self.terms);
        match terms.last_mut() {
            Some((m, c)) if *m == Mono::ONE => {
                *c = c.checked_add(k).ok_or_else(ovf)?;
                if *c == 0 {
                    terms.pop();
                }
            }
            _ => terms.push((Mono::ONE, k)),
        }
        Ok(Poly { terms })
    }

    /// The negation.
    ///
    /// # Errors
    /// [`Error::Overflow`] for a coefficient `i64::MIN`.
    ///
    /// ```
    /// assert_eq!(hlayout::symbolic::Poly::constant(3).neg().unwrap().as_const(), Some(-3));
    /// ```
    pub fn neg(&self) -> Result<Poly> {
        self.scale(-1)
    }

    /// The difference.
    ///
    /// # Errors
    /// [`Error::Overflow`].
    ///
    /// ```
    /// use hlayout::symbolic::Poly;
    /// assert_eq!(Poly::constant(3).sub(&Poly::constant(5)).unwrap().as_const(), Some(-2));
    /// ```
    pub fn sub(&self, other: &Poly) -> Result<Poly> {
        self.merge(other, -1)
    }

    /// Every coefficient times `k`. O(t).
    ///
    /// # Errors
    /// [`Error::Overflow`].
    ///
    /// ```
    /// assert_eq!(hlayout::symbolic::Poly::constant(3).scale(4).unwrap().as_const(), Some(12));
    /// ```
    pub fn scale(&self, k: i64) -> Result<Poly> {
        if k == 0 {
            return Ok(Poly::zero());
        }
        let mut out = self.clone();
        if k != 1 {
            for t in &mut out.terms {
                t.1 = t.1.checked_mul(k).ok_or_else(ovf)?;
            }
        }
        Ok(out)
    }

    /// The product. O(t₁·t₂·log(t₁·t₂)).
    ///
    /// # Errors
    /// [`Error::Overflow`] for a coefficient past `i64`;
    /// [`Error::LimitExceeded`] (`max_degree`) for a monomial of more than
    /// [`MAX_DEGREE`](super::MAX_DEGREE) factors.
    ///
    /// ```
    /// use hlayout::symbolic::Poly;
    /// let n = Poly::symbol(0);
    /// let sq = n.add(&1.into()).unwrap().mul(&n.sub(&1.into()).unwrap()).unwrap(); // N² - 1
    /// assert_eq!(sq.terms().len(), 2);
    /// ```
    pub fn mul(&self, other: &Poly) -> Result<Poly> {
        if let Some(k) = other.as_const() {
            return self.scale(k);
        }
        if let Some(k) = self.as_const() {
            return other.scale(k);
        }
        let mut all: Vec<Term> = Vec::with_capacity(self.terms.len() * other.terms.len());
        for &(ma, ca) in &self.terms {
            for &(mb, cb) in &other.terms {
                let m = ma.product(mb).ok_or_else(|| Error::LimitExceeded {
                    limit: "max_degree",
                    value: (ma.degree() + mb.degree()) as u64,
                    max: super::mono::MAX_DEGREE as u64,
                })?;
                all.push((m, ca.checked_mul(cb).ok_or_else(ovf)?));
            }
        }
        Poly::from_terms(all)
    }

    /// The canonical polynomial of arbitrary terms (any order, repeats, zeros).
    ///
    /// # Errors
    /// [`Error::Overflow`] when a sum of coefficients leaves `i64`.
    ///
    /// ```
    /// use hlayout::symbolic::{Mono, Poly};
    /// let p = Poly::from_terms(vec![(Mono::ONE, 2), (Mono::symbol(0), 1), (Mono::ONE, -2)]).unwrap();
    /// assert_eq!(p, Poly::symbol(0));
    /// ```
    pub fn from_terms(mut all: Vec<Term>) -> Result<Poly> {
        all.sort_unstable_by_key(|t| std::cmp::Reverse(t.0));
        let mut terms: SmallVec<[Term; 2]> = SmallVec::new();
        for (m, c) in all {
            match terms.last_mut() {
                Some(last) if last.0 == m => last.1 = last.1.checked_add(c).ok_or_else(ovf)?,
                _ => {
                    if terms.last().is_some_and(|t| t.1 == 0) {
                        terms.pop();
                    }
                    terms.push((m, c));
                }
            }
        }
        if terms.last().is_some_and(|t| t.1 == 0) {
            terms.pop();
        }
        Ok(Poly { terms })
    }

    /// The greatest common divisor of the coefficients (0 for zero).
    ///
    /// ```
    /// let p: hlayout::symbolic::Poly = hlayout::symbolic::Poly::symbol(0).scale(6).unwrap().add(&4.into()).unwrap();
    /// assert_eq!(p.content(), 2);
    /// ```
    pub fn content(&self) -> i64 {
        self.terms
            .iter()
            .fold(0i64, |g, &(_, c)| num_integer::Integer::gcd(&g, &c))
    }

    /// `self / d` when the quotient is a polynomial with integer
    /// coefficients (`None` otherwise, also for `d = 0`). Long division by
    /// the leading term, checked by multiplying back. O(t_q·t_d·t).
    ///
    /// ```
    /// use hlayout::symbolic::Poly;
    /// let n = Poly::symbol(0);
    /// let m = Poly::symbol(1);
    /// let nm4 = n.mul(&m).unwrap().scale(4).unwrap();
    /// assert_eq!(nm4.div_exact(&m.scale(2).unwrap()), Some(n.scale(2).unwrap()));
    /// assert_eq!(n.div_exact(&Poly::constant(4)), None);
    /// let n2m1 = n.mul(&n).unwrap().sub(&1.into()).unwrap(); // (N-1)(N+1)
    /// assert_eq!(n2m1.div_exact(&n.add(&1.into()).unwrap()), Some(n.sub(&1.into()).unwrap()));
    /// ```
    pub fn div_exact(&self, d: &Poly) -> Option<Poly> {
        let &(dm, dc) = d.terms.first()?;
        if let Some(k) = d.as_const() {
            let mut out = self.clone();
            if k != 1 {
                for t in &mut out.terms {
                    // Checked: `i64::MIN / -1` does not fit.
                    match (t.1.checked_rem(k), t.1.checked_div(k)) {
                        (Some(0), Some(q)) => t.1 = q,
                        _ => return None,
                    }
                }
            }
            return Some(out);
        }
        let mut rest = self.clone();
        let mut quotient: Vec<Term> = Vec::new();
        // Each step removes rest's leading term; the leading monomial
        // decreases strictly, so at most as many steps as monomials below it.
        for _ in 0..4096 {
            let Some(&(m, c)) = rest.terms.first() else {
                let q = Poly::from_terms(quotient).ok()?;
                return (q.mul(d).ok()? == *self).then_some(q);
            };
            let qm = m.quotient(dm)?;
            let q = match (c.checked_rem(dc), c.checked_div(dc)) {
                (Some(0), Some(q)) => q,
                _ => return None,
            };
            let t = Poly::term(qm, q);
            rest = rest.sub(&t.mul(d).ok()?).ok()?;
            quotient.push((qm, q));
        }
        None
    }

    /// The value at `values[id]` for each symbol, in `i128`, or `None` on
    /// overflow. O(t·degree).
    ///
    /// ```
    /// use hlayout::symbolic::Poly;
    /// let p = Poly::symbol(0).scale(3).unwrap().add(&1.into()).unwrap();
    /// assert_eq!(p.eval(&[5]), Some(16));
    /// ```
    pub fn eval(&self, values: &[i64]) -> Option<i128> {
        let mut sum = 0i128;
        for &(m, c) in &self.terms {
            let mut v = c as i128;
            for f in m.factors() {
                v = v.checked_mul(*values.get(f as usize)? as i128)?;
            }
            sum = sum.checked_add(v)?;
        }
        Some(sum)
    }

    /// The value at a binding as an `i64`, for building a concrete layout
    /// or view from a symbolic one. O(t·degree).
    ///
    /// # Errors
    /// [`Error::Overflow`] when the value (or a product on the way) is not an
    /// `i64`, or a symbol has no value.
    ///
    /// ```
    /// use hlayout::symbolic::Poly;
    /// let p = Poly::symbol(0).scale(3).unwrap();
    /// assert_eq!(p.eval_i64(&[5]).unwrap(), 15);
    /// assert!(p.eval_i64(&[i64::MAX]).is_err());
    /// ```
    pub fn eval_i64(&self, values: &[i64]) -> Result<i64> {
        self.eval(values)
            .and_then(|v| i64::try_from(v).ok())
            .ok_or(Error::Overflow {
                what: "a polynomial at the binding",
            })
    }

    /// The symbol ids that occur, each once, ascending.
    ///
    /// ```
    /// use hlayout::symbolic::Poly;
    /// let p = Poly::symbol(2).mul(&Poly::symbol(0)).unwrap();
    /// assert_eq!(p.symbols(), [0, 2]);
    /// ```
    pub fn symbols(&self) -> Vec<u8> {
        let mut ids: Vec<u8> = self.terms.iter().flat_map(|t| t.0.factors()).collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// The single symbol and its coefficient and constant when the
    /// polynomial is `a·s + b` with `a ≠ 0`.
    ///
    /// ```
    /// use hlayout::symbolic::Poly;
    /// let p = Poly::symbol(1).scale(2).unwrap().add(&(-3).into()).unwrap();
    /// assert_eq!(p.as_linear(), Some((1, 2, -3)));
    /// ```
    pub fn as_linear(&self) -> Option<(u8, i64, i64)> {
        let (m, a) = *self.terms.first()?;
        if m.degree() != 1 {
            return None;
        }
        let s = m.factors().next()?;
        match self.terms.as_slice() {
            [_] => Some((s, a, 0)),
            [_, (one, b)] if *one == Mono::ONE => Some((s, a, *b)),
            _ => None,
        }
    }
}

impl From<i64> for Poly {
    fn from(c: i64) -> Poly {
        Poly::constant(c)
    }
}
