//! The prover: is a [`Fact`] about polynomials true for every binding the
//! [`Symbols`]' assumptions allow? Three answers ([`Truth`]): proved (true at
//! every allowed binding), refuted (false at every one), unknown. Unknown is
//! never turned into an answer by a default: the algebra above either asks
//! for the fact (a *need*) or refuses.
//!
//! The rules, each sound on its own (proofs in `docs/symbolic.md`):
//!
//! - **Fixed symbols** (`min = max` after rounding to the divisor) are
//!   substituted first.
//! - **Sign** (`p ≥ 0`): an interval for `p`, the tighter of two: (1) term by
//!   term, each monomial's interval the product of its factors' intervals
//!   `[lowest, highest]`; (2) the same after the shift `x = lowest + y`,
//!   `y ∈ [0, highest − lowest]`, which proves e.g. `N·M − N ≥ 0` (it reads
//!   `y_N·y_M + y_M + … ≥ 0`). Proved when the lower end is `≥ 0`, refuted
//!   when the upper end is `< 0`. Infinite ends (an overflow of `i128`) prove
//!   nothing.
//! - **Equality** (`p = 0`): the canonical form is zero (proved), or the
//!   interval excludes 0 or a residue rule shows `p ≢ 0` (refuted).
//! - **Divisibility by a constant** (`d | p`): each term `c·m` is a multiple
//!   of `g_t = gcd(c·Π divisible_by(s), d)`; with `g = gcd` of those over the
//!   non-constant terms, `p ≡ c₀ (mod g)`: proved when `g = d` and `d | c₀`,
//!   refuted when `g ∤ c₀`.
//! - **Divisibility by a polynomial** (`q | p`): proved by exact division in
//!   `ℤ[symbols]`; refuted when `0 < |p| < q` on the whole range.
//!
//! Cost: O(t·degree) per interval, O(t·2^degree) for the shifted one (only
//! when the first is inconclusive), O(t²) per division step.

use super::mono::Mono;
use super::poly::Poly;
use super::symbols::Symbols;
use crate::error::{Error, Result};

/// The answer of the prover.
///
/// ```
/// use hlayout::symbolic::{Fact, Symbols, Truth};
/// let mut s = Symbols::new();
/// let n = s.parse("N").unwrap();
/// assert_eq!(s.prove(&Fact::ge(&n, &1.into()).unwrap()), Truth::Proved);
/// assert_eq!(s.prove(&Fact::ge(&n, &2.into()).unwrap()), Truth::Unknown);
/// assert_eq!(s.prove(&Fact::ge(&0.into(), &n).unwrap()), Truth::Refuted);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Truth {
    /// True at every allowed binding.
    Proved,
    /// False at every allowed binding.
    Refuted,
    /// Neither could be shown.
    Unknown,
}

/// A fact about polynomials, in a normal form.
///
/// ```
/// use hlayout::symbolic::{Fact, Symbols};
/// let mut s = Symbols::new();
/// let n = s.parse("N").unwrap();
/// let m = s.parse("2*N").unwrap();
/// assert_eq!(Fact::ge(&n, &8.into()).unwrap().show(&s), "N >= 8");
/// assert_eq!(Fact::le(&n, &64.into()).unwrap().show(&s), "N <= 64");
/// assert_eq!(Fact::divides(&4.into(), &m).show(&s), "N % 2 == 0");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fact {
    /// `p ≥ 0`.
    NonNeg(Poly),
    /// `p = 0`.
    Zero(Poly),
    /// `p ≤ bound` (kept apart from `NonNeg` so that `bound − p` need not
    /// fit `i64`: the bound is `i64::MAX` when a size must fit).
    AtMost {
        /// The polynomial.
        p: Poly,
        /// The bound.
        bound: i64,
    },
    /// `p % d == 0` (`d` positive at every allowed binding).
    Divides {
        /// The divisor.
        d: Poly,
        /// The dividend.
        p: Poly,
    },
}

impl Fact {
    /// `a ≥ b`.
    ///
    /// # Errors
    /// [`Error::Overflow`].
    ///
    /// ```
    /// let f = hlayout::symbolic::Fact::ge(&3.into(), &2.into()).unwrap();
    /// assert_eq!(hlayout::symbolic::Symbols::new().prove(&f), hlayout::symbolic::Truth::Proved);
    /// ```
    pub fn ge(a: &Poly, b: &Poly) -> Result<Fact> {
        Ok(Fact::NonNeg(diff(a, b, 0)?))
    }

    /// `a ≤ b`.
    ///
    /// # Errors
    /// [`Error::Overflow`].
    ///
    /// ```
    /// assert!(hlayout::symbolic::Fact::le(&3.into(), &2.into()).is_ok());
    /// ```
    pub fn le(a: &Poly, b: &Poly) -> Result<Fact> {
        Fact::ge(b, a)
    }

    /// `a < b`, i.e. `b − a − 1 ≥ 0`.
    ///
    /// # Errors
    /// [`Error::Overflow`].
    ///
    /// ```
    /// assert!(hlayout::symbolic::Fact::lt(&3.into(), &2.into()).is_ok());
    /// ```
    pub fn lt(a: &Poly, b: &Poly) -> Result<Fact> {
        Ok(Fact::NonNeg(diff(b, a, -1)?))
    }

    /// `p ≤ bound`.
    ///
    /// ```
    /// let mut s = hlayout::symbolic::Symbols::new();
    /// let p = s.parse("N*M").unwrap();
    /// let f = hlayout::symbolic::Fact::at_most(&p, i64::MAX);
    /// assert_eq!(f.show(&s), "N*M <= 9223372036854775807");
    /// assert_eq!(s.prove(&f), hlayout::symbolic::Truth::Proved);
    /// ```
    pub fn at_most(p: &Poly, bound: i64) -> Fact {
        Fact::AtMost {
            p: p.clone(),
            bound,
        }
    }

    /// `a = b`.
    ///
    /// # Errors
    /// [`Error::Overflow`].
    ///
    /// ```
    /// let s = hlayout::symbolic::Symbols::new();
    /// let f = hlayout::symbolic::Fact::eq(&3.into(), &2.into()).unwrap();
    /// assert_eq!(s.prove(&f), hlayout::symbolic::Truth::Refuted);
    /// ```
    pub fn eq(a: &Poly, b: &Poly) -> Result<Fact> {
        Ok(Fact::Zero(a.sub(b)?))
    }

    /// `p % d == 0`, normalised: a constant divisor and the content of `p`
    /// are reduced by their gcd.
    ///
    /// ```
    /// let f = hlayout::symbolic::Fact::divides(&4.into(), &8.into());
    /// assert_eq!(hlayout::symbolic::Symbols::new().prove(&f), hlayout::symbolic::Truth::Proved);
    /// ```
    pub fn divides(d: &Poly, p: &Poly) -> Fact {
        if let Some(k) = d.as_const() {
            let g = num_integer::Integer::gcd(&p.content(), &k);
            if g > 1 {
                if let (Some(p), Some(d)) = (p.div_exact(&g.into()), d.div_exact(&g.into())) {
                    return Fact::Divides { d, p };
                }
            }
        }
        Fact::Divides {
            d: d.clone(),
            p: p.clone(),
        }
    }

    /// The fact in C syntax over the symbols' names: `N >= 8`, `N <= 64`,
    /// `N % 4 == 0`, `N*M-N >= 3`, `(N+1) % 4 == 0`, `N == 4`.
    ///
    /// ```
    /// use hlayout::symbolic::{Fact, Symbols};
    /// let mut s = Symbols::new();
    /// let p = s.parse("N+1").unwrap();
    /// assert_eq!(Fact::divides(&4.into(), &p).show(&s), "(N+1) % 4 == 0");
    /// assert_eq!(Fact::eq(&p, &5.into()).unwrap().show(&s), "N == 4");
    /// ```
    pub fn show(&self, syms: &Symbols) -> String {
        match self {
            Fact::NonNeg(p) => match p.as_linear() {
                Some((s, a, b)) if a > 0 => {
                    let v = num_integer::Integer::div_ceil(&-(b as i128), &(a as i128));
                    format!("{} >= {v}", syms.name(s))
                }
                Some((s, a, b)) => {
                    let v = num_integer::Integer::div_floor(&(b as i128), &-(a as i128));
                    format!("{} <= {v}", syms.name(s))
                }
                None => split(syms, p, ">="),
            },
            Fact::Zero(p) => match p.as_linear() {
                Some((s, a, b)) if b % a == 0 => format!("{} == {}", syms.name(s), -b / a),
                _ => split(syms, p, "=="),
            },
            Fact::AtMost { p, bound } => format!("{} <= {bound}", syms.show(p)),
            Fact::Divides { d, p } => {
                format!("{} % {} == 0", paren(syms, p), paren(syms, d))
            }
        }
    }
}

/// `a − b + k`, with one pass over `a` when `b` is a constant (the common
/// case of a bound).
fn diff(a: &Poly, b: &Poly, k: i64) -> Result<Poly> {
    match b.as_const().map(|c| k.checked_sub(c)) {
        Some(Some(shift)) => a.add_const(shift),
        Some(None) => Err(Error::Overflow {
            what: "polynomial coefficient",
        }),
        None => a.sub(b)?.add_const(k),
    }
}

/// `lhs OP rhs` with the constant moved to the right.
fn split(syms: &Symbols, p: &Poly, op: &str) -> String {
    let c = p.constant_term();
    let rest = p.sub(&c.into()).unwrap_or_else(|_| p.clone());
    let rhs = (c as i128).checked_neg().unwrap_or(0);
    format!("{} {op} {rhs}", syms.show(&rest))
}

fn paren(syms: &Symbols, p: &Poly) -> String {
    if p.terms().len() > 1 {
        format!("({})", syms.show(p))
    } else {
        syms.show(p).to_string()
    }
}

/// The truth of a decided comparison: proved when `yes`, refuted when `no`.
fn truth(yes: bool, no: bool) -> Truth {
    if yes {
        Truth::Proved
    } else if no {
        Truth::Refuted
    } else {
        Truth::Unknown
    }
}

/// An interval; `None` is an infinite end.
#[derive(Clone, Copy, Debug)]
struct Iv {
    lo: Option<i128>,
    hi: Option<i128>,
}

const WHOLE: Iv = Iv { lo: None, hi: None };

impl Iv {
    fn mul(self, o: Iv) -> Iv {
        let (Some(a), Some(b), Some(c), Some(d)) = (self.lo, self.hi, o.lo, o.hi) else {
            return WHOLE;
        };
        if a >= 0 && c >= 0 {
            // Both non-negative (every symbol of a size): the ends multiply.
            return match (a.checked_mul(c), b.checked_mul(d)) {
                (Some(lo), hi) => Iv { lo: Some(lo), hi },
                _ => WHOLE,
            };
        }
        let ps = [
            a.checked_mul(c),
            a.checked_mul(d),
            b.checked_mul(c),
            b.checked_mul(d),
        ];
        if ps.iter().any(Option::is_none) {
            return WHOLE;
        }
        let ps = ps.map(|p| p.unwrap_or(0));
        Iv {
            lo: ps.iter().min().copied(),
            hi: ps.iter().max().copied(),
        }
    }

    fn tighten(self, o: Iv) -> Iv {
        let lo = match (self.lo, o.lo) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        let hi = match (self.hi, o.hi) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Iv { lo, hi }
    }
}

impl Symbols {
    /// Whether `fact` holds at every allowed binding (module docs).
    ///
    /// ```
    /// use hlayout::symbolic::{Assume, Fact, Symbols, Truth};
    /// let mut s = Symbols::new();
    /// s.assume("N", Assume { divisible_by: 4, ..Assume::default() }).unwrap();
    /// let n = s.parse("N").unwrap();
    /// let n1 = s.parse("N+2").unwrap();
    /// assert_eq!(s.prove(&Fact::divides(&2.into(), &n1)), Truth::Proved);
    /// assert_eq!(s.prove(&Fact::divides(&4.into(), &n1)), Truth::Refuted);
    /// assert_eq!(s.prove(&Fact::divides(&8.into(), &n)), Truth::Unknown);
    /// let nm = s.parse("N*M-N").unwrap();
    /// assert_eq!(s.prove(&Fact::ge(&nm, &0.into()).unwrap()), Truth::Proved);
    /// ```
    pub fn prove(&self, fact: &Fact) -> Truth {
        match fact {
            Fact::NonNeg(p) => self.prove_nonneg(p),
            Fact::Zero(p) => {
                let p = self.fix_cow(p);
                if p.is_zero() {
                    return Truth::Proved;
                }
                if p.as_const().is_some() {
                    return Truth::Refuted;
                }
                let iv = self.interval(&p);
                if iv.lo.is_some_and(|l| l > 0) || iv.hi.is_some_and(|h| h < 0) {
                    return Truth::Refuted;
                }
                let (g, c0) = self.residue(&p, 0);
                if g > 0 && c0 % g != 0 {
                    Truth::Refuted
                } else {
                    Truth::Unknown
                }
            }
            Fact::AtMost { p, bound } => {
                if let Some(c) = p.as_const() {
                    return truth(c <= *bound, c > *bound);
                }
                let b = *bound as i128;
                let iv = self.interval_until(&self.fix_cow(p), |iv| {
                    iv.hi.is_some_and(|h| h <= b) || iv.lo.is_some_and(|l| l > b)
                });
                if iv.hi.is_some_and(|h| h <= b) {
                    Truth::Proved
                } else if iv.lo.is_some_and(|l| l > b) {
                    Truth::Refuted
                } else {
                    Truth::Unknown
                }
            }
            Fact::Divides { d, p } => self.prove_divides(d, p),
        }
    }

    /// `p ≥ 0` ([`Fact::NonNeg`]) without building the fact: a constant is
    /// decided at once, else by the interval of `p`.
    pub(crate) fn prove_nonneg(&self, p: &Poly) -> Truth {
        if let Some(c) = p.as_const() {
            return truth(c >= 0, c < 0);
        }
        let p = self.fix_cow(p);
        let iv = self.interval(&p);
        truth(iv.lo.is_some_and(|l| l >= 0), iv.hi.is_some_and(|h| h < 0))
    }

    /// The direct interval of `p` (no fixed symbols substituted), each end
    /// `None` when unbounded. O(t·degree).
    pub(crate) fn bounds(&self, p: &Poly) -> (Option<i128>, Option<i128>) {
        if let Some(c) = p.as_const() {
            return (Some(c as i128), Some(c as i128));
        }
        let iv = self.direct(p);
        (iv.lo, iv.hi)
    }

    /// The interval of `p` (the tighter of the direct and the shifted one).
    fn interval(&self, p: &Poly) -> Iv {
        self.interval_until(p, |iv| {
            iv.lo.is_some_and(|l| l >= 0) || iv.hi.is_some_and(|h| h < 0)
        })
    }

    /// The direct interval of `p` when it already answers the question
    /// (`decided`), else the tighter of it and the shifted one.
    fn interval_until(&self, p: &Poly, decided: impl Fn(Iv) -> bool) -> Iv {
        let direct = self.direct(p);
        if decided(direct) || p.degree() < 2 {
            return direct;
        }
        match self.shifted(p) {
            Some(s) => direct.tighten(s),
            None => direct,
        }
    }

    fn symbol_iv(&self, id: u8) -> Iv {
        let (lo, hi) = self.range(id);
        Iv {
            lo: Some(lo as i128),
            hi: Some(hi as i128),
        }
    }

    /// Term by term: each monomial the product of its factors' intervals,
    /// scaled by its coefficient. Constant and one-symbol terms (the common
    /// ones) cost two products of `i64`s, which cannot overflow `i128`.
    /// O(t·degree).
    fn direct(&self, p: &Poly) -> Iv {
        let (mut lo, mut hi) = (Some(0i128), Some(0i128));
        for &(m, c) in p.terms() {
            let c = c as i128;
            let (tl, th) = match m.degree() {
                0 => (Some(c), Some(c)),
                1 => {
                    let (l, h) = self.range(m.first_factor());
                    let (l, h) = (l as i128 * c, h as i128 * c);
                    (Some(l.min(h)), Some(l.max(h)))
                }
                _ => {
                    let iv = self.mono_iv(m);
                    let (a, b) = if c > 0 {
                        (iv.lo, iv.hi)
                    } else {
                        (iv.hi, iv.lo)
                    };
                    (
                        a.and_then(|t| t.checked_mul(c)),
                        b.and_then(|t| t.checked_mul(c)),
                    )
                }
            };
            lo = lo.zip(tl).and_then(|(a, t)| a.checked_add(t));
            hi = hi.zip(th).and_then(|(a, t)| a.checked_add(t));
        }
        Iv { lo, hi }
    }

    /// The interval of a monomial: the product of its factors' intervals,
    /// the ends multiplied directly while both are non-negative.
    fn mono_iv(&self, m: Mono) -> Iv {
        let (mut lo, mut hi) = (Some(1i128), Some(1i128));
        for f in m.factors() {
            let (l, h) = self.range(f);
            match lo {
                Some(a) if a >= 0 && l >= 0 => {
                    // Both non-negative: an overflowing lower end is still
                    // >= 0 (so 0 is a sound lower end), the upper one infinite.
                    lo = Some(a.checked_mul(l as i128).unwrap_or(0));
                    hi = hi.and_then(|b| b.checked_mul(h as i128));
                }
                _ => {
                    let iv = Iv { lo, hi }.mul(self.symbol_iv(f));
                    (lo, hi) = (iv.lo, iv.hi);
                }
            }
        }
        Iv { lo, hi }
    }

    /// After `x = lowest + y`: every monomial in `y` lies in `[0, Π widths]`.
    fn shifted(&self, p: &Poly) -> Option<Iv> {
        let mut expanded: Vec<(Mono, i128)> = Vec::new();
        for &(m, c) in p.terms() {
            // Π (lo_f + y_f), expanded over the subsets of the factors.
            let fs: Vec<u8> = m.factors().collect();
            for mask in 0u32..(1 << fs.len()) {
                let (mut mono, mut coef) = (Mono::ONE, c as i128);
                for (k, &f) in fs.iter().enumerate() {
                    if mask & (1 << k) != 0 {
                        mono = mono.product(Mono::symbol(f))?;
                    } else {
                        coef = coef.checked_mul(self.range(f).0 as i128)?;
                    }
                }
                expanded.push((mono, coef));
            }
        }
        expanded.sort_unstable_by_key(|t| t.0);
        let (mut lo, mut hi) = (0i128, 0i128);
        let mut k = 0;
        while k < expanded.len() {
            let m = expanded[k].0;
            let mut c = 0i128;
            while k < expanded.len() && expanded[k].0 == m {
                c = c.checked_add(expanded[k].1)?;
                k += 1;
            }
            let mut width = 1i128;
            for f in m.factors() {
                let (l, h) = self.range(f);
                width = width.checked_mul(h as i128 - l as i128)?;
            }
            let v = c.checked_mul(width)?;
            if m == Mono::ONE {
                (lo, hi) = (lo.checked_add(c)?, hi.checked_add(c)?);
            } else if v < 0 {
                lo = lo.checked_add(v)?;
            } else {
                hi = hi.checked_add(v)?;
            }
        }
        Some(Iv {
            lo: Some(lo),
            hi: Some(hi),
        })
    }

    /// `p` with every fixed symbol (`lowest = highest`) replaced by its value.
    pub(crate) fn fix(&self, p: &Poly) -> Poly {
        match self.fix_cow(p) {
            std::borrow::Cow::Borrowed(p) => p.clone(),
            std::borrow::Cow::Owned(p) => p,
        }
    }

    /// [`Symbols::fix`] without a copy when no symbol of `p` is fixed.
    pub(crate) fn fix_cow<'p>(&self, p: &'p Poly) -> std::borrow::Cow<'p, Poly> {
        if !self.has_fixed()
            || !p
                .terms()
                .iter()
                .any(|t| t.0.factors().any(|f| self.fixed(f).is_some()))
        {
            return std::borrow::Cow::Borrowed(p);
        }
        std::borrow::Cow::Owned(self.substitute_fixed(p))
    }

    fn fixed(&self, f: u8) -> Option<i64> {
        let (l, h) = self.range(f);
        (l == h).then_some(l)
    }

    /// `true` when some symbol has a single allowed value.
    #[inline]
    pub(crate) fn has_fixed(&self) -> bool {
        self.ranges_have_fixed()
    }

    fn substitute_fixed(&self, p: &Poly) -> Poly {
        let fixed = |f: u8| self.fixed(f);
        let mut terms = Vec::with_capacity(p.terms().len());
        for &(m, c) in p.terms() {
            let (mut mono, mut coef) = (Mono::ONE, Some(c));
            for f in m.factors() {
                match fixed(f) {
                    Some(v) => coef = coef.and_then(|c| c.checked_mul(v)),
                    None => mono = mono.product(Mono::symbol(f)).unwrap_or(mono),
                }
            }
            match coef {
                Some(c) => terms.push((mono, c)),
                None => return p.clone(), // an overflow: keep p, which is still true
            }
        }
        Poly::from_terms(terms).unwrap_or_else(|_| p.clone())
    }

    /// `(g, c₀)`: every non-constant term is a multiple of `g` (a divisor of
    /// `d`, or of nothing when `d = 0`), and `p ≡ c₀ (mod g)`.
    fn residue(&self, p: &Poly, d: i64) -> (i128, i128) {
        let mut g = d as i128;
        for &(m, c) in p.terms() {
            if m == Mono::ONE {
                continue;
            }
            let mut t = c as i128;
            for f in m.factors() {
                let div = self.assumption(f).divisible_by as i128;
                t = if g == 0 {
                    t.checked_mul(div).unwrap_or(1)
                } else {
                    num_integer::Integer::gcd(&(num_integer::Integer::gcd(&t, &g) * div), &g)
                };
            }
            g = num_integer::Integer::gcd(&g, &t);
        }
        (g, p.constant_term() as i128)
    }

    fn prove_divides(&self, d: &Poly, p: &Poly) -> Truth {
        let (d, p) = (self.fix(d), self.fix(p));
        if p.is_zero() {
            return Truth::Proved;
        }
        if let Some(k) = d.as_const() {
            if k == 0 {
                return Truth::Unknown;
            }
            let k = k.unsigned_abs().min(i64::MAX as u64) as i64;
            let (g, c0) = self.residue(&p, k);
            return if c0 % g != 0 {
                Truth::Refuted
            } else if g == k as i128 {
                Truth::Proved
            } else {
                Truth::Unknown
            };
        }
        if p.div_exact(&d).is_some() {
            return Truth::Proved;
        }
        // 0 < |p| < d everywhere: never a multiple.
        let (ip, gap) = (self.interval(&p), d.sub(&p).ok().map(|g| self.interval(&g)));
        let pos = ip.lo.is_some_and(|l| l > 0);
        let below = gap.is_some_and(|g| g.lo.is_some_and(|l| l > 0));
        if pos && below {
            Truth::Refuted
        } else {
            Truth::Unknown
        }
    }

    /// A binding inside the assumptions used to pick a branch when a fact
    /// is unknown: each symbol at the allowed value nearest 4096.
    pub(crate) fn probe(&self) -> Vec<i64> {
        (0..self.len() as u8)
            .map(|id| {
                let (lo, hi) = self.range(id);
                let d = self.assumption(id).divisible_by;
                let t = 4096i64.clamp(lo, hi);
                let down = t - t.rem_euclid(d);
                if down >= lo {
                    down
                } else {
                    (down + d).min(hi)
                }
            })
            .collect()
    }

    /// Adds `fact` to the assumptions when it is about one symbol (`N >= c`,
    /// `N <= c`, `N % k == 0`, `N == c`); `false` when it cannot be written
    /// as an assumption.
    ///
    /// # Errors
    /// [`Error::OutOfDomain`] when no value is left.
    ///
    /// ```
    /// use hlayout::symbolic::{Fact, Symbols, Truth};
    /// let mut s = Symbols::new();
    /// let n = s.parse("N").unwrap();
    /// let f = Fact::divides(&4.into(), &n);
    /// assert!(s.add_fact(&f).unwrap());
    /// assert_eq!(s.prove(&f), Truth::Proved);
    /// ```
    pub fn add_fact(&mut self, fact: &Fact) -> Result<bool> {
        let (id, mut a) = match fact {
            Fact::NonNeg(p) | Fact::Zero(p) => match p.as_linear() {
                Some((s, _, _)) => (s, self.assumption(s)),
                None => return Ok(false),
            },
            Fact::AtMost { p, bound } => {
                let Ok(f) = Fact::le(p, &Poly::constant(*bound)) else {
                    return Ok(false);
                };
                return self.add_fact(&f);
            }
            Fact::Divides { d, p } => match (d.as_const(), p.terms()) {
                (Some(k), [(m, 1)]) if m.degree() == 1 && k > 0 => {
                    let s = m.factors().next().unwrap_or(0);
                    let mut a = self.assumption(s);
                    a.divisible_by = num_integer::Integer::lcm(&a.divisible_by, &k);
                    let name = self.name(s).to_string();
                    self.assume(&name, a)?;
                    return Ok(true);
                }
                _ => return Ok(false),
            },
        };
        let (s, c, b) = match fact {
            Fact::NonNeg(p) | Fact::Zero(p) => p.as_linear().unwrap_or((id, 1, 0)),
            Fact::Divides { .. } | Fact::AtMost { .. } => return Ok(false),
        };
        let clamp = |v: i128| v.clamp(i64::MIN as i128, i64::MAX as i128) as i64;
        let lower = clamp(num_integer::Integer::div_ceil(&-(b as i128), &(c as i128)));
        let upper = clamp(num_integer::Integer::div_floor(&-(b as i128), &(c as i128)));
        match fact {
            Fact::NonNeg(_) if c > 0 => a.min = a.min.max(lower),
            Fact::NonNeg(_) => a.max = a.max.min(upper),
            _ if b % c == 0 => (a.min, a.max) = (a.min.max(-b / c), a.max.min(-b / c)),
            _ => {
                return Err(Error::OutOfDomain {
                    what: "no integer value satisfies the fact".into(),
                })
            }
        }
        let name = self.name(s).to_string();
        self.assume(&name, a)?;
        Ok(true)
    }
}
