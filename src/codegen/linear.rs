//! The simplifier's working form: integer expressions as *linear forms*
//! `Σ a_k·atom_k + b` over *atoms* — variables with known ranges and floor
//! divisions and modulos of linear forms by positive constants.
//!
//! Every atom is non-negative: variables range over `[0, n)`, and a division
//! or modulo is only ever built over a linear form whose minimum is at least 0
//! (its constant is shifted first, see [`Builder::div`]). That invariant makes C's
//! truncating `/` and `%` equal to floor division and modulo on every atom.
//!
//! Atoms are interned: building the same division twice yields the same atom,
//! so common sub-expressions are shared by construction. Each atom carries its
//! range, an interval `[lo, hi]` computed exactly from its operand's interval;
//! the range of a linear form is the interval sum of its terms. The rules each
//! constructor applies are listed in `docs/codegen.md`; every one is an
//! identity of floor division on the integers, exact at every point, and uses
//! the ranges only to decide *whether* it applies.
//!
//! Cost: a linear form holds few terms (one per leaf at most); interning is a
//! linear scan over the atoms built so far (a kernel has tens), so building a
//! kernel is O(atoms²) with tiny constants.

use std::cell::RefCell;
use std::collections::HashMap;

use num_integer::Integer;
use smallvec::SmallVec;

use crate::error::Result;

pub(crate) use super::form::{checked, AtomId, Lin};

/// What an atom is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Atom {
    /// Input variable `index`.
    Var(usize),
    /// `⌊lin / c⌋`, `lin >= 0`, `c >= 2`.
    Div(Lin, i64),
    /// `lin mod c`, `lin >= 0`, `c >= 2`.
    Mod(Lin, i64),
}

/// An atom with its range `[lo, hi]` (inclusive, `lo >= 0`).
#[derive(Clone, Debug)]
pub(crate) struct AtomInfo {
    pub(crate) atom: Atom,
    pub(crate) lo: i64,
    pub(crate) hi: i64,
}

/// Interns atoms and builds simplified linear forms.
#[derive(Clone, Debug, Default)]
pub(crate) struct Builder {
    pub(crate) atoms: Vec<AtomInfo>,
    /// Facts `lo <= form < hi` that hold wherever the kernel is valid (forms
    /// normalised: no constant, coprime coefficients, the first positive).
    /// Rules D1, M1 and A1 may use them: what they build is then right
    /// wherever the facts hold, and still defined everywhere.
    pub(crate) facts: Vec<(Lin, i128, i128)>,
    /// While set, [`Builder::div`] and [`Builder::modulo`] intern their
    /// operation as written (lowering records the raw expression, which
    /// [`Builder::resimplify`] then simplifies, once without facts and once
    /// with them).
    pub(crate) raw: bool,
    /// [`Builder::resimplify`]'s results by atom, for one call.
    memo: Vec<Option<Lin>>,
    /// [`Builder::valid_range`]'s results under the current facts (cleared
    /// whenever they change): forms share sub-forms, and without the memo
    /// the recursion revisits them exponentially often in the nesting depth.
    ranges: RefCell<HashMap<Lin, (i128, i128)>>,
}

impl Builder {
    /// A builder that records raw operations (see [`Builder::raw`]).
    pub(crate) fn recording() -> Builder {
        Builder {
            raw: true,
            atoms: Vec::with_capacity(32),
            ..Builder::default()
        }
    }

    /// Interns `atom` with range `[lo, hi]`.
    fn intern(&mut self, atom: Atom, lo: i64, hi: i64) -> AtomId {
        if let Some(k) = self.atoms.iter().position(|a| a.atom == atom) {
            return k as AtomId;
        }
        self.atoms.push(AtomInfo { atom, lo, hi });
        (self.atoms.len() - 1) as AtomId
    }

    /// Variable `index` over `[0, extent)` (`extent >= 1`); the constant 0 when
    /// the extent is 1.
    pub(crate) fn var(&mut self, index: usize, extent: i64) -> Lin {
        if extent <= 1 {
            return Lin::constant(0);
        }
        Lin::atom(self.intern(Atom::Var(index), 0, extent - 1))
    }

    /// The interval `[min, max]` of `l` over the variables' ranges, in `i128`.
    /// O(terms).
    pub(crate) fn range(&self, l: &Lin) -> (i128, i128) {
        let (mut lo, mut hi) = (i128::from(l.konst), i128::from(l.konst));
        for &(id, a) in &l.terms {
            let info = &self.atoms[id as usize];
            let (x, y) = (
                i128::from(a) * i128::from(info.lo),
                i128::from(a) * i128::from(info.hi),
            );
            lo = lo.saturating_add(x.min(y));
            hi = hi.saturating_add(x.max(y));
        }
        (lo, hi)
    }

    /// Drops every fact (and the ranges computed under them).
    pub(crate) fn clear_facts(&mut self) {
        self.facts.clear();
        self.ranges.get_mut().clear();
    }

    /// Adds the fact `lo <= form < hi` (and drops the ranges computed without it).
    pub(crate) fn push_fact(&mut self, fact: (Lin, i128, i128)) {
        self.facts.push(fact);
        self.ranges.get_mut().clear();
    }

    /// The interval of `l` wherever the [facts](Builder::facts) hold: the
    /// interval sum of the atoms' such intervals, narrowed by a fact on `l`'s
    /// own form. Without facts, [`Builder::range`]. Each form is computed once
    /// per set of facts: O(forms reached · terms · facts).
    pub(crate) fn valid_range(&self, l: &Lin) -> (i128, i128) {
        if self.facts.is_empty() {
            return self.range(l);
        }
        if let Some(&r) = self.ranges.borrow().get(l) {
            return r;
        }
        let r = self.valid_range_of(l);
        self.ranges.borrow_mut().insert(l.clone(), r);
        r
    }

    /// [`Builder::valid_range`], computed (the sub-forms through the memo).
    fn valid_range_of(&self, l: &Lin) -> (i128, i128) {
        let (mut lo, mut hi) = (i128::from(l.konst), i128::from(l.konst));
        for &(id, a) in &l.terms {
            let (x, y) = self.atom_valid_range(id);
            let (x, y) = (
                i128::from(a).saturating_mul(x),
                i128::from(a).saturating_mul(y),
            );
            lo = lo.saturating_add(x.min(y));
            hi = hi.saturating_add(x.max(y));
        }
        // ⌊m/c⌋ + B = ⌊(m + c·B)/c⌋: a fact on m + c·B bounds l too.
        for &(id, a) in &l.terms {
            if let (1, Atom::Div(m, c)) = (a, &self.atoms[id as usize].atom) {
                let mut rest = l.clone();
                rest.terms.retain(|t| t.0 != id);
                if let Ok(whole) = m.add_scaled(&rest, *c) {
                    let (x, y) = self.valid_range(&whole);
                    lo = lo.max(x.div_euclid(i128::from(*c)));
                    hi = hi.min(y.div_euclid(i128::from(*c)));
                }
            }
        }
        let g = l.coeff_gcd();
        if g == 0 {
            return (lo, hi);
        }
        let sign = if l.terms[0].1 < 0 { -1 } else { 1 };
        let k = i128::from(l.konst);
        for (form, flo, fhi) in &self.facts {
            let same = form.terms.len() == l.terms.len()
                && form.terms.iter().zip(&l.terms).all(|(f, t)| {
                    f.0 == t.0 && i128::from(f.1) * i128::from(g * sign) == i128::from(t.1)
                });
            if same {
                // l = g·sign·form + k, form ∈ [flo, fhi - 1].
                let m = i128::from(g * sign);
                let (a, b) = (
                    m.saturating_mul(*flo).saturating_add(k),
                    m.saturating_mul(fhi.saturating_sub(1)).saturating_add(k),
                );
                lo = lo.max(a.min(b));
                hi = hi.min(a.max(b));
            }
        }
        (lo, hi)
    }

    /// Atom `id`'s interval wherever the facts hold.
    fn atom_valid_range(&self, id: AtomId) -> (i128, i128) {
        let info = &self.atoms[id as usize];
        let (mut lo, mut hi) = (i128::from(info.lo), i128::from(info.hi));
        let (x, y) = match &info.atom {
            Atom::Var(_) => (lo, hi),
            Atom::Div(m, c) => {
                let (a, b) = self.valid_range(m);
                (a.div_euclid(i128::from(*c)), b.div_euclid(i128::from(*c)))
            }
            Atom::Mod(m, c) => {
                let c = i128::from(*c);
                let (a, b) = self.valid_range(m);
                if a.div_euclid(c) == b.div_euclid(c) {
                    (a.rem_euclid(c), b.rem_euclid(c))
                } else {
                    (lo, hi)
                }
            }
        };
        lo = lo.max(x);
        hi = hi.min(y);
        let unit = Lin::atom(id);
        for (form, flo, fhi) in &self.facts {
            if *form == unit {
                lo = lo.max(*flo);
                hi = hi.min(fhi - 1);
            }
        }
        (lo, hi)
    }

    /// `l` rebuilt through the simplifier, atom by atom, so that the current
    /// facts apply everywhere inside it. O(size of `l`'s expression tree).
    pub(crate) fn resimplify(&mut self, l: &Lin) -> Result<Lin> {
        self.forget();
        self.resimplify_memo(l)
    }

    /// Forgets [`Builder::resimplify_memo`]'s results (after the facts change).
    pub(crate) fn forget(&mut self) {
        self.memo.clear();
    }

    /// [`Builder::resimplify`], reusing the results since the last
    /// [`Builder::forget`].
    pub(crate) fn resimplify_memo(&mut self, l: &Lin) -> Result<Lin> {
        let mut out = Lin::constant(l.konst);
        for &(id, a) in &l.terms {
            if let Some(Some(t)) = self.memo.get(id as usize) {
                out = out.add_scaled(&t.clone(), a)?;
                continue;
            }
            let t = match self.atoms[id as usize].atom.clone() {
                Atom::Var(_) => {
                    let (lo, hi) = self.atom_valid_range(id);
                    if lo == hi {
                        Lin::constant(checked(lo)?)
                    } else {
                        Lin::atom(id)
                    }
                }
                Atom::Div(m, c) => {
                    let m = self.resimplify_memo(&m)?;
                    self.div(&m, c)?
                }
                Atom::Mod(m, c) => {
                    let m = self.resimplify_memo(&m)?;
                    self.modulo(&m, c)?
                }
            };
            if self.memo.len() <= id as usize {
                self.memo.resize(id as usize + 1, None);
            }
            self.memo[id as usize] = Some(t.clone());
            out = out.add_scaled(&t, a)?;
        }
        Ok(out)
    }

    /// Rule A1: `⌊(a·x + b)/c⌋` (or `mod c`) when it is an affine function
    /// `p + s·x` of the single atom `x` over its (valid) interval of at most
    /// 16 points, checked at every point.
    fn affine(&self, l: &Lin, c: i64, div: bool) -> Option<Lin> {
        let [(id, a)] = l.terms[..] else { return None };
        let (lo, hi) = self.atom_valid_range(id);
        if hi - lo > 15 || hi <= lo {
            return None;
        }
        let (a, b, c) = (i128::from(a), i128::from(l.konst), i128::from(c));
        let f = |x: i128| {
            let v = a * x + b;
            if div {
                v.div_euclid(c)
            } else {
                v.rem_euclid(c)
            }
        };
        let slope = f(lo + 1) - f(lo);
        if (lo..=hi).any(|x| f(x) != f(lo) + slope * (x - lo)) {
            return None;
        }
        let p = i64::try_from(f(lo) - slope * lo).ok()?;
        let slope = i64::try_from(slope).ok()?;
        Lin::constant(p).add_scaled(&Lin::atom(id), slope).ok()
    }

    /// `⌊l / c⌋` for `c >= 1`, simplified (rules D1–D7 and A1 of
    /// `docs/codegen.md`). Under facts, the quotient's interval wherever they
    /// hold is recorded as a fact too (rule F1), so that it survives the
    /// quotient's rewriting into terms.
    pub(crate) fn div(&mut self, l: &Lin, c: i64) -> Result<Lin> {
        if self.raw && c > 1 {
            let (lo, hi) = self.range(l);
            let c = i128::from(c);
            let (lo, hi) = (checked(lo.div_euclid(c))?, checked(hi.div_euclid(c))?);
            return Ok(Lin::atom(self.intern(
                Atom::Div(l.clone(), c as i64),
                lo,
                hi,
            )));
        }
        let q = self.div_rules(l, c)?;
        if !self.facts.is_empty() && !q.terms.is_empty() {
            let (lo, hi) = self.valid_range(l);
            let c = i128::from(c);
            self.add_fact(&q, lo.div_euclid(c), hi.div_euclid(c));
        }
        Ok(q)
    }

    /// Records the fact `lo <= l <= hi` (normalised) when it narrows `l`'s
    /// interval.
    fn add_fact(&mut self, l: &Lin, lo: i128, hi: i128) {
        let (vlo, vhi) = self.valid_range(l);
        if lo <= vlo && hi >= vhi {
            return;
        }
        let g = i128::from(l.coeff_gcd());
        let k = i128::from(l.konst);
        let (mut lo, mut hi) = ((lo - k + g - 1).div_euclid(g), (hi - k).div_euclid(g));
        let mut form = Lin::default();
        form.terms.extend(
            l.terms
                .iter()
                .map(|&(id, a)| (id, (i128::from(a) / g) as i64)),
        );
        if form.terms[0].1 < 0 {
            if form.terms.iter().any(|t| t.1 == i64::MIN) {
                return; // a fact is an optimisation only
            }
            form.terms.iter_mut().for_each(|t| t.1 = -t.1);
            (lo, hi) = (-hi, -lo);
        }
        self.push_fact((form, lo, hi + 1));
    }

    /// [`Builder::div`] without recording facts.
    fn div_rules(&mut self, l: &Lin, c: i64) -> Result<Lin> {
        debug_assert!(c >= 1);
        if c == 1 {
            return Ok(l.clone());
        }
        let c128 = i128::from(c);
        if !self.facts.is_empty() {
            // D1 on the whole operand (its facts may be lost by D2).
            let (vlo, vhi) = self.valid_range(l);
            if vlo.div_euclid(c128) == vhi.div_euclid(c128) {
                return Ok(Lin::constant(checked(vlo.div_euclid(c128))?));
            }
        }
        // D2: terms whose coefficient is a multiple of c leave the division.
        let mut out = Lin::default();
        let mut rest = Lin::constant(l.konst);
        for &(id, a) in &l.terms {
            if a % c == 0 {
                out.terms.push((id, a / c));
            } else {
                rest.terms.push((id, a));
            }
        }
        // D1: a constant quotient wherever the kernel is valid.
        let (vlo, vhi) = self.valid_range(&rest);
        if vlo.div_euclid(c128) == vhi.div_euclid(c128) {
            return out.plus(checked(vlo.div_euclid(c128))?);
        }
        if let Some(f) = self.affine(&rest, c, true) {
            return out.add_scaled(&f, 1);
        }
        // D3: the constant normalised so that the minimum (everywhere) is in [0, c).
        let q_lo = self.range(&rest).0.div_euclid(c128);
        let out = out.plus(checked(q_lo)?)?;
        let rest = rest.plus(checked(-q_lo * c128)?)?;
        let inner = self.div_core(&rest, c)?;
        out.add_scaled(&inner, 1)
    }

    /// `⌊l / c⌋` for `l` with minimum in `[0, c)` and maximum `>= c`, every
    /// coefficient not a multiple of `c`.
    fn div_core(&mut self, l: &Lin, c: i64) -> Result<Lin> {
        // D4: a common factor of the coefficients and c.
        let g = l.coeff_gcd().gcd(&c);
        if g > 1 {
            let mut reduced = Lin::constant(l.konst.div_euclid(g));
            reduced
                .terms
                .extend(l.terms.iter().map(|&(id, a)| (id, a / g)));
            return self.div(&reduced, c / g);
        }
        if let Some((g, big, q)) = self.small_rest(l, c) {
            return self.div(&big.plus(q)?, c / g);
        }
        // D5: ⌊(⌊m/a⌋ + B)/c⌋ = ⌊(m + a·B)/(a·c)⌋ for the first term with
        // coefficient 1 that is a division.
        let inner = l
            .terms
            .iter()
            .find_map(|&(id, k)| match &self.atoms[id as usize].atom {
                Atom::Div(m, a) if k == 1 => Some((id, m.clone(), *a)),
                _ => None,
            });
        if let Some((id, m, a)) = inner {
            let mut rest = l.clone();
            rest.terms.retain(|t| t.0 != id);
            let ac = checked(i128::from(a) * i128::from(c))?;
            return self.div(&m.add_scaled(&rest, a)?, ac);
        }
        // D6: ⌊(m mod (c·n))/c⌋ = ⌊m/c⌋ mod n.
        if let [(id, 1)] = l.terms[..] {
            if let Atom::Mod(m, n) = self.atoms[id as usize].atom.clone() {
                if l.konst == 0 && n % c == 0 {
                    let q = self.div(&m, c)?;
                    return self.modulo(&q, n / c);
                }
            }
        }
        let (lo, hi) = self.range(l);
        let (lo, hi) = (checked(lo / i128::from(c))?, checked(hi / i128::from(c))?);
        Ok(Lin::atom(self.intern(Atom::Div(l.clone(), c), lo, hi)))
    }

    /// Rule D7: for `l = g·A + r` with `g > 1` dividing `c` and every
    /// coefficient of `A`, and `r` (the other terms and the constant) within
    /// one block `[q·g, q·g + g)` wherever the facts hold: `(g, A, q)`, so that
    /// `⌊l/c⌋ = ⌊(A + q)/(c/g)⌋` and `l mod c = g·((A + q) mod (c/g)) + r − q·g`.
    /// The largest such `g` among `gcd(c, a)` for the coefficients `a`.
    fn small_rest(&self, l: &Lin, c: i64) -> Option<(i64, Lin, i64)> {
        let mut gs: SmallVec<[i64; 6]> = l
            .terms
            .iter()
            .map(|t| t.1.gcd(&c))
            .filter(|&g| g > 1)
            .collect();
        gs.sort_unstable_by(|a, b| b.cmp(a));
        gs.dedup();
        for g in gs {
            let mut big = Lin::default();
            let mut r = Lin::constant(l.konst);
            for &(id, a) in &l.terms {
                if a % g == 0 {
                    big.terms.push((id, a / g));
                } else {
                    r.terms.push((id, a));
                }
            }
            if r.terms.is_empty() {
                continue;
            }
            let (lo, hi) = self.valid_range(&r);
            let g128 = i128::from(g);
            if lo.div_euclid(g128) == hi.div_euclid(g128) {
                let q = i64::try_from(lo.div_euclid(g128)).ok()?;
                return Some((g, big, q));
            }
        }
        None
    }

    /// `l mod c` for `c >= 1`, simplified (rules M1–M5, D7 and A1 of `docs/codegen.md`).
    pub(crate) fn modulo(&mut self, l: &Lin, c: i64) -> Result<Lin> {
        debug_assert!(c >= 1);
        if c == 1 {
            return Ok(Lin::constant(0));
        }
        if self.raw {
            return Ok(Lin::atom(self.intern(Atom::Mod(l.clone(), c), 0, c - 1)));
        }
        let c128 = i128::from(c);
        if !self.facts.is_empty() {
            // M1 on the whole operand (its facts may be lost by M2).
            let (vlo, vhi) = self.valid_range(l);
            if vlo.div_euclid(c128) == vhi.div_euclid(c128) {
                return l.plus(checked(-vlo.div_euclid(c128) * c128)?);
            }
        }
        // M2: terms whose coefficient is a multiple of c vanish. (The other
        // coefficients stay as they are, so that the operand equals the one
        // of the matching division and rule E1 can share its quotient.)
        let mut rest = Lin::constant(l.konst);
        rest.terms
            .extend(l.terms.iter().copied().filter(|&(_, a)| a % c != 0));
        // M1: in one block wherever the kernel is valid, an affine function.
        let (vlo, vhi) = self.valid_range(&rest);
        if vlo.div_euclid(c128) == vhi.div_euclid(c128) {
            return rest.plus(checked(-vlo.div_euclid(c128) * c128)?);
        }
        if let Some(f) = self.affine(&rest, c, false) {
            return Ok(f);
        }
        // M3: the constant normalised so that the minimum is in [0, c).
        let q_lo = self.range(&rest).0.div_euclid(c128);
        let rest = rest.plus(checked(-q_lo * c128)?)?;
        // M4: a common factor g: (g·A + b) mod (g·c') = g·((A + ⌊b/g⌋) mod c') + b mod g.
        let g = rest.coeff_gcd().gcd(&c);
        if g > 1 {
            let mut reduced = Lin::constant(rest.konst.div_euclid(g));
            reduced
                .terms
                .extend(rest.terms.iter().map(|&(id, a)| (id, a / g)));
            let inner = self.modulo(&reduced, c / g)?;
            return inner.scaled(g)?.plus(rest.konst.rem_euclid(g));
        }
        if let Some((g, big, q)) = self.small_rest(&rest, c) {
            let mut r = rest.clone();
            r.terms.retain(|t| t.1 % g != 0);
            let inner = self.modulo(&big.plus(q)?, c / g)?;
            return inner
                .scaled(g)?
                .add_scaled(&r.plus(checked(-i128::from(q) * i128::from(g))?)?, 1);
        }
        // M5: (m mod (c·n)) mod c = m mod c.
        if let [(id, 1)] = rest.terms[..] {
            if let Atom::Mod(m, n) = self.atoms[id as usize].atom.clone() {
                if n % c == 0 {
                    return self.modulo(&m.plus(rest.konst)?, c);
                }
            }
        }
        Ok(Lin::atom(self.intern(Atom::Mod(rest, c), 0, c - 1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_share_quotients() -> Result<()> {
        let mut b = Builder::default();
        let t = b.var(0, 24);
        let hi = b.div(&t, 6)?;
        let lo = b.modulo(&t, 6)?;
        assert_eq!(b.range(&hi), (0, 3));
        assert_eq!(b.range(&lo), (0, 5));
        // 6·⌊t/6⌋ + t mod 6 is not rebuilt here (the emitter does), but
        // ⌊(t mod 6)/6⌋ is 0 and ⌊⌊t/2⌋/3⌋ is ⌊t/6⌋.
        assert_eq!(b.div(&lo, 6)?, Lin::constant(0));
        let h2 = b.div(&t, 2)?;
        assert_eq!(b.div(&h2, 3)?, hi);
        Ok(())
    }
}
