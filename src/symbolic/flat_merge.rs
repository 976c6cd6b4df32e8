//! [`merge`]: the merge of two flat views over symbols (`docs/symbolic.md`,
//! "Merging flat views").
//!
//! The concrete [`crate::merge()`] decides every pair of views exactly, with
//! number-theoretic steps (carry patterns, Stern–Brocot, residues) that have
//! no polynomial form. Over symbols the merge is built from the one structure
//! that holds for every binding at once: **digits without carries**. With
//! `second`'s valid box `u ∈ [c, d)` written as `u = c + w` (a dimension of
//! negative stride read backwards, so every step `p_j ≥ 0`), the flat index is
//! `x = X₀ + Σ p_j·w_j`. Each `p_j` and `X₀` is written in `first`'s mixed
//! radix (row-major place values `R_i`) as polynomial digits, so that
//! `x = Σ_i R_i·D_i(w)` with `D_i(w) = G_i + Σ_j a_ij·w_j`. When every inner
//! digit (`i ≥ 1`) stays in `[0, f_i)` on the whole box (proved), the unravel of
//! `x` *is* `D(w)` at every binding, so `first` reads `o₁ + Σ σ_i·D_i(w)`: one
//! view, stride `Σ_i σ_i·a_ij` per dimension. Validity (`x < N`, i.e. the top
//! digit in `[0, f_0)`, and `first`'s mask on every digit) is then a box when
//! each digit's constraint either holds on the whole box (proved) or reads
//! one dimension with a constant coefficient: that dimension's interval is
//! cut with exact floor/ceiling divisions of polynomials.
//!
//! Every decision asks the prover. A requirement that is unknown is a need;
//! a choice between two answers (`max`/`min` of interval ends) takes the side
//! true at the probe binding and needs it; at the end any need refuses with
//! [`Error::NeedsFacts`](crate::Error::NeedsFacts). The rules are sufficient,
//! not necessary: a merge that concretely exists only through cancelling
//! carries is refused (naming the no-carry facts, or `[]`), never answered
//! wrongly. `Ok(None)` ("no view exists") is answered when the operands are
//! constant (after fixing single-valued symbols), by the exact concrete
//! merge, or when three collinear elements valid at every binding have
//! offsets that are never affine (`flat_witness.rs`). A refusal names only
//! needs that decide the request: added to the assumptions, the merge
//! answers (checked by one more run), or no view exists (a witness valid
//! where the named facts hold, e.g. `M >= 2` when `M = 1` empties the box). Cost: O(k·r) polynomial operations and prover calls for ranks `k`
//! and `r`; nothing grows with the symbols' values.

use super::flat_view::{SymFlatView, SymInterval};
use super::flat_witness::Witness;
use super::need::Needs;
use super::poly::Poly;
use super::prove::{Fact, Truth};
use super::symbols::Symbols;
use crate::error::{Error, Result};

/// `second` read through `first` as one flat view, right at every allowed
/// binding; `Ok(None)` when no such view exists at any (constant operands).
///
/// Semantics as [`crate::merge()`]: element `u` of `second` has flat index
/// `x = offset₂ + Σ u_j·strides₂_j`, unravelled row-major into `first`'s shape
/// and read through `first`; it is valid when `second`'s mask admits `u`,
/// `0 <= x < size(first)` and `first`'s mask admits the unravelled coordinate.
///
/// # Errors
/// [`Error::NeedsFacts`](crate::Error::NeedsFacts) when no answer was proved
/// for every allowed binding (the facts that would give one, or `[]`);
/// [`Error::Overflow`](crate::Error::Overflow) and the concrete merge's errors.
///
/// ```
/// use hlayout::symbolic::{merge, Assume, SymFlatView, Symbols};
/// let mut s = Symbols::new();
/// s.assume("sp", Assume { max: 127, ..Assume::default() }).unwrap();
/// // tinygrad's test_variable_divmod as a merge: (idx0*(sp+1) + idx1) unravelled by sp+1.
/// let first = SymFlatView::parse(&["3", "sp+1"], &["64", "1"], "0", None, &mut s).unwrap();
/// let second = SymFlatView::parse(&["3", "sp+1"], &["sp+1", "1"], "0", None, &mut s).unwrap();
/// let v = merge(&first, &second, &s).unwrap().unwrap();
/// assert_eq!(v.show(&s).to_string(), "View(shape=(3, sp+1), strides=(64, 1), offset=0, mask=None)");
/// // A window that may run past the end of a row: refused, naming the fact.
/// let second = SymFlatView::parse(&["2", "4"], &["sp+1", "1"], "0", None, &mut s).unwrap();
/// let err = merge(&first, &second, &s).unwrap_err();
/// assert!(err.to_string().ends_with("needs sp >= 3"), "{err}");
/// ```
pub fn merge(
    first: &SymFlatView,
    second: &SymFlatView,
    syms: &Symbols,
) -> Result<Option<SymFlatView>> {
    merge_checked(first, second, syms, true)
}

/// [`merge`]; with `check`, a refusal's needs are tried (added to the
/// assumptions, the merge must answer) and replaced when they do not decide.
fn merge_checked(
    first: &SymFlatView,
    second: &SymFlatView,
    syms: &Symbols,
    check: bool,
) -> Result<Option<SymFlatView>> {
    let (first, second) = (first.fixed(syms), second.fixed(syms));
    if first.is_constant() && second.is_constant() {
        let (a, b) = (first.bind(&[])?, second.bind(&[])?);
        return Ok(crate::merge::merge(&a, &b)?.map(|v| SymFlatView::from_flat(&v)));
    }
    let (direct, asked) = attempt(&Merge::new(&first, &second), syms);
    if direct.is_ok() {
        return direct;
    }
    // A dimension of `second` may run across digits of `first` that
    // `first` reads with one stride: merge them and try again.
    if let Some(c) = coalesced(&first, syms)? {
        let (retried, _) = attempt(&Merge::new(&c, &second), syms);
        if retried.is_ok() {
            return retried;
        }
    }
    // No view was proved: three valid elements whose offsets are not affine
    // prove that none exists at any binding, or at every binding where some
    // facts hold.
    // (A witness search that overflows found nothing: the refusal stands.)
    let witness = super::flat_witness::no_view_exists(&first, &second, syms);
    if matches!(witness, Ok(Witness::NoView)) {
        return Ok(None);
    }
    if !asked.is_empty() && (!check || decides(&first, &second, syms, &asked)) {
        return direct;
    }
    match witness {
        Ok(Witness::NoViewIf(facts)) => Err(no_view_if(&facts, syms)),
        _ if asked.is_empty() => direct,
        _ => Err(Error::NeedsFacts {
            op: "merge",
            why: format!(
                "the merge is not proved for every allowed value, and {} would not decide it",
                shown(&asked, syms)
            ),
            needs: Vec::new(),
        }),
    }
}

/// `true` when the merge answers once `facts` are added to the assumptions
/// (or when they cannot all be written as assumptions: then the caller
/// keeps them, unchecked).
fn decides(first: &SymFlatView, second: &SymFlatView, syms: &Symbols, facts: &[Fact]) -> bool {
    let mut more = syms.clone();
    for f in facts {
        match more.add_fact(f) {
            Ok(true) => {}
            Ok(false) => return true,
            Err(_) => return false,
        }
    }
    merge_checked(first, second, &more, false).is_ok()
}

/// The facts joined with "and".
fn shown(facts: &[Fact], syms: &Symbols) -> String {
    let words: Vec<String> = facts.iter().map(|f| f.show(syms)).collect();
    words.join(" and ")
}

/// The refusal naming the facts under which no view exists: added, they
/// decide the merge (`None`), where no view was proved without them.
fn no_view_if(facts: &[Fact], syms: &Symbols) -> Error {
    Error::NeedsFacts {
        op: "merge",
        why: format!(
            "no view is proved for every allowed value, and none exists at any value where {}",
            shown(facts, syms)
        ),
        needs: facts.iter().map(|f| f.show(syms)).collect(),
    }
}

/// One structural attempt: its answer, or the refusal naming its needs
/// (also returned as facts).
fn attempt(m: &Merge, syms: &Symbols) -> (Result<Option<SymFlatView>>, Vec<Fact>) {
    let mut needs = Needs::new(syms, "merge");
    let out = match m.run(&mut needs) {
        Ok(out) => out,
        Err(e) => return (Err(e), Vec::new()),
    };
    let asked = needs.needed();
    if let Err(e) = needs.finish("the merge") {
        return (Err(e), asked);
    }
    if let Some(v) = &out {
        if let Err(e) = v.validate(syms) {
            return (Err(e), Vec::new());
        }
    }
    (Ok(out), Vec::new())
}

/// `first` with adjacent dimensions `i, i+1` merged wherever
/// `σ_i = f_{i+1}·σ_{i+1}` is proved and the inner dimension's mask is
/// proved full (the merged mask is `[b_i·f_{i+1}, e_i·f_{i+1})`): the same
/// function and validity on every flat index. `None` when nothing merges.
fn coalesced(first: &SymFlatView, syms: &Symbols) -> Result<Option<SymFlatView>> {
    let full = |i: usize| match first.mask() {
        None => true,
        Some(m) => m[i].0.is_zero() && m[i].1 == first.shape()[i],
    };
    let (mut shape, mut strides): (Vec<Poly>, Vec<Poly>) = (Vec::new(), Vec::new());
    let mut mask: Vec<SymInterval> = Vec::new();
    let mut merged = false;
    for (i, (n, s)) in first.shape().iter().zip(first.strides()).enumerate() {
        let (b, e) = match first.mask() {
            Some(m) => m[i].clone(),
            None => (Poly::zero(), n.clone()),
        };
        if let (Some(ln), Some(ls), Some((lb, le))) =
            (shape.last_mut(), strides.last_mut(), mask.last_mut())
        {
            let joins = proved(syms, &Fact::eq(ls, &n.mul(s)?)?);
            if joins && full(i) {
                *lb = lb.mul(n)?;
                *le = le.mul(n)?;
                *ln = ln.mul(n)?;
                *ls = s.clone();
                merged = true;
                continue;
            }
        }
        shape.push(n.clone());
        strides.push(s.clone());
        mask.push((b, e));
    }
    let mask = first.mask().map(|_| mask);
    let offset = first.offset().clone();
    Ok(merged.then(|| SymFlatView::from_parts(shape, strides, offset, mask)))
}

/// The operands, with `first` of rank >= 1 (a rank-0 `first` is `(1):(0)`).
struct Merge<'a> {
    shape: Vec<Poly>,
    strides: Vec<Poly>,
    offset: &'a Poly,
    mask: Vec<SymInterval>,
    second: &'a SymFlatView,
}

/// One dimension of `second`: its valid interval `[c, d)`, `e = d − c`, the
/// step `p ≥ 0` of the flat index along `w` (reversed when `flipped`), and
/// the interval `[lo, hi)` of `w` left valid.
struct Dim {
    c: Poly,
    d: Poly,
    e: Poly,
    p: Poly,
    flipped: bool,
    lo: Poly,
    hi: Poly,
}

impl<'a> Merge<'a> {
    fn new(first: &'a SymFlatView, second: &'a SymFlatView) -> Merge<'a> {
        let (mut shape, mut strides) = (first.shape().to_vec(), first.strides().to_vec());
        if shape.is_empty() {
            shape.push(Poly::constant(1));
            strides.push(Poly::zero());
        }
        let mask = match first.mask() {
            Some(m) if !m.is_empty() => m.to_vec(),
            _ => shape.iter().map(|n| (Poly::zero(), n.clone())).collect(),
        };
        Merge {
            shape,
            strides,
            offset: first.offset(),
            mask,
            second,
        }
    }

    fn run(&self, needs: &mut Needs) -> Result<Option<SymFlatView>> {
        let syms = needs.syms;
        let t = self.second.shape();
        if t.iter().any(|n| proved(syms, &Fact::Zero(n.clone()))) {
            let zeros = vec![Poly::zero(); t.len()];
            return Ok(Some(SymFlatView::from_parts(
                t.to_vec(),
                zeros,
                Poly::zero(),
                None,
            )));
        }
        for n in &self.shape {
            if proved(syms, &Fact::Zero(n.clone())) {
                return Ok(nothing_valid(t));
            }
            needs.require(Fact::ge(n, &Poly::constant(1))?)?;
        }
        let Some((base, mut dims)) = self.box_of_second(needs)? else {
            return Ok(nothing_valid(t));
        };
        let radix = place_values(&self.shape)?;
        let g = digits(&base, &radix)?;
        let a = dims
            .iter()
            .map(|d| digits(&d.p, &radix))
            .collect::<Result<Vec<_>>>()?;
        // Every digit's range first: the digits are the unravel only when no
        // inner digit carries, and every validity decision below reads them.
        let ranges = (0..self.shape.len())
            .map(|i| self.range(i, &g[i], &a, &dims, needs))
            .collect::<Result<Vec<_>>>()?;
        for (i, range) in ranges.iter().enumerate() {
            if !self.digit(i, &g[i], range, &a, &mut dims, needs)? {
                return Ok(nothing_valid(t));
            }
        }
        for d in &dims {
            if !needs.branch_nonneg(d.hi.sub(&d.lo)?)? {
                return Ok(nothing_valid(t));
            }
        }
        self.assemble(&g, &a, &dims).map(Some)
    }

    /// `second`'s valid box as `w`-intervals, the flat index at `w = 0`,
    /// and each dimension's step; `None` when the box is empty everywhere.
    fn box_of_second(&self, needs: &mut Needs) -> Result<Option<(Poly, Vec<Dim>)>> {
        let s = self.second;
        let mut base = s.offset().clone();
        let mut dims = Vec::with_capacity(s.rank());
        for (j, (n, tau)) in s.shape().iter().zip(s.strides()).enumerate() {
            let (c, d) = match s.mask() {
                Some(m) => m[j].clone(),
                None => (Poly::zero(), n.clone()),
            };
            let e = d.sub(&c)?;
            if proved(needs.syms, &Fact::ge(&Poly::zero(), &e)?) {
                return Ok(None);
            }
            // `e` may be 0 at some bindings: no element there, so any view
            // is right, and the intervals below stay within `[0, e]`.
            base = base.add(&tau.mul(&c)?)?;
            let last = e.sub(&Poly::constant(1))?;
            let inert = tau.is_zero() || proved(needs.syms, &Fact::Zero(last.clone()));
            let (p, flipped) = if inert {
                (Poly::zero(), false)
            } else if needs.branch_nonneg(tau.clone())? {
                (tau.clone(), false)
            } else {
                base = base.add(&tau.mul(&last)?)?;
                (tau.neg()?, true)
            };
            dims.push(Dim {
                c,
                d,
                lo: Poly::zero(),
                hi: e.clone(),
                e,
                p,
                flipped,
            });
        }
        Ok(Some((base, dims)))
    }

    /// Digit `i`'s least and greatest value on the box, and (inner digits)
    /// the requirement that it stays in `[0, f_i)`: no carry.
    fn range(
        &self,
        i: usize,
        g: &Poly,
        a: &[Vec<Poly>],
        dims: &[Dim],
        needs: &mut Needs,
    ) -> Result<(Poly, Poly)> {
        let (mut lo, mut hi) = (g.clone(), g.clone());
        for (j, dim) in dims.iter().enumerate() {
            let aij = &a[j][i];
            if aij.is_zero() {
                continue;
            }
            let reach = aij.mul(&dim.e.sub(&Poly::constant(1))?)?;
            if needs.branch_nonneg(aij.clone())? {
                hi = hi.add(&reach)?;
            } else {
                lo = lo.add(&reach)?;
            }
        }
        if i > 0 {
            needs.require(Fact::NonNeg(lo.clone()))?;
            needs.require(Fact::lt(&hi, &self.shape[i])?)?;
        }
        Ok((lo, hi))
    }

    /// Digit `i`'s validity constraint (the top digit in `[0, f_0)`, the
    /// mask), cut into a dimension's interval; `false` when no element is
    /// valid.
    fn digit(
        &self,
        i: usize,
        g: &Poly,
        (lo, hi): &(Poly, Poly),
        a: &[Vec<Poly>],
        dims: &mut [Dim],
        needs: &mut Needs,
    ) -> Result<bool> {
        let deps: Vec<usize> = (0..dims.len()).filter(|&j| !a[j][i].is_zero()).collect();
        let (mb, me) = &self.mask[i];
        let syms = needs.syms;
        if proved(syms, &Fact::ge(lo, mb)?) && proved(syms, &Fact::lt(hi, me)?) {
            return Ok(true);
        }
        match deps[..] {
            [] => Ok(needs.branch_nonneg(g.sub(mb)?)? && needs.branch_lt(g, me)?),
            [j] if cut(&mut dims[j], g, &a[j][i], mb, me, needs)? => Ok(true),
            _ => {
                needs.require(Fact::ge(lo, mb)?)?;
                needs.require(Fact::lt(hi, me)?)?;
                Ok(true)
            }
        }
    }

    /// The merged view from the digits and the valid intervals.
    fn assemble(&self, g: &[Poly], a: &[Vec<Poly>], dims: &[Dim]) -> Result<SymFlatView> {
        let mut offset = self.offset.clone();
        for (s, gi) in self.strides.iter().zip(g) {
            offset = offset.add(&s.mul(gi)?)?;
        }
        let t = self.second.shape();
        let (mut strides, mut mask) = (Vec::with_capacity(t.len()), Vec::with_capacity(t.len()));
        for (dim, aj) in dims.iter().zip(a) {
            let mut mu = Poly::zero();
            for (s, aij) in self.strides.iter().zip(aj) {
                mu = mu.add(&s.mul(aij)?)?;
            }
            if dim.flipped {
                offset = offset.add(&mu.mul(&dim.d.sub(&Poly::constant(1))?)?)?;
                strides.push(mu.neg()?);
                mask.push((dim.d.sub(&dim.hi)?, dim.d.sub(&dim.lo)?));
            } else {
                offset = offset.sub(&mu.mul(&dim.c)?)?;
                strides.push(mu);
                mask.push((dim.c.add(&dim.lo)?, dim.c.add(&dim.hi)?));
            }
        }
        let full = mask.iter().zip(t).all(|((b, e), n)| b.is_zero() && e == n);
        let mask = (!full).then_some(mask);
        Ok(SymFlatView::from_parts(t.to_vec(), strides, offset, mask))
    }
}

/// Cuts `dim`'s interval by `mb <= g + k·w < me` for a constant `k ≠ 0`;
/// `false` when `k` is not a constant or a bound is no polynomial (the
/// caller then asks for the constraint to hold on the whole box).
fn cut(dim: &mut Dim, g: &Poly, k: &Poly, mb: &Poly, me: &Poly, needs: &mut Needs) -> Result<bool> {
    let Some(k) = k.as_const() else {
        return Ok(false);
    };
    let one = Poly::constant(1);
    // w >= ceil(lo_num / |k|), w <= floor(hi_num / |k|).
    let (lo_num, hi_num) = if k > 0 {
        (mb.sub(g)?, me.sub(&one)?.sub(g)?)
    } else {
        (g.sub(me)?.add(&one)?, g.sub(mb)?)
    };
    let Some(k) = k.checked_abs() else {
        return Ok(false);
    };
    let (Some(l), Some(h)) = (ceil_div(&lo_num, k)?, floor_div(&hi_num, k)?) else {
        return Ok(false);
    };
    let h = h.add(&one)?;
    dim.lo = larger(needs, &dim.lo, &l)?;
    dim.hi = smaller(needs, &dim.hi, &h)?;
    Ok(true)
}

/// `⌊p / k⌋` (`k >= 1`) when the non-constant part of `p` is a multiple of `k`.
fn floor_div(p: &Poly, k: i64) -> Result<Option<Poly>> {
    let c0 = p.constant_term();
    let rest = p.sub(&Poly::constant(c0))?;
    let Some(q) = rest.div_exact(&Poly::constant(k)) else {
        return Ok(None);
    };
    q.add(&Poly::constant(c0.div_euclid(k))).map(Some)
}

/// `⌈p / k⌉ = −⌊−p / k⌋`.
fn ceil_div(p: &Poly, k: i64) -> Result<Option<Poly>> {
    match floor_div(&p.neg()?, k)? {
        Some(q) => q.neg().map(Some),
        None => Ok(None),
    }
}

/// `max(a, b)`, proved or (unknown) the side larger at the probe, needed.
fn larger(needs: &mut Needs, a: &Poly, b: &Poly) -> Result<Poly> {
    choose(needs, a, b, true)
}

/// `min(a, b)`, as [`larger`].
fn smaller(needs: &mut Needs, a: &Poly, b: &Poly) -> Result<Poly> {
    choose(needs, a, b, false)
}

fn choose(needs: &mut Needs, a: &Poly, b: &Poly, max: bool) -> Result<Poly> {
    let (big, small) = if max { (a, b) } else { (b, a) };
    // Keep `a` when it is already the answer: a >= b for max, a <= b for min.
    let keep = Fact::ge(big, small)?;
    match needs.syms.prove(&keep) {
        Truth::Proved => return Ok(a.clone()),
        Truth::Refuted => return Ok(b.clone()),
        Truth::Unknown => {}
    }
    let probe = needs.syms.probe();
    let at = |p: &Poly| p.eval(&probe);
    let keeps = match (at(big), at(small)) {
        (Some(x), Some(y)) => x >= y,
        _ => true,
    };
    if keeps {
        needs.require(keep)?;
        Ok(a.clone())
    } else {
        needs.require(Fact::ge(small, big)?)?;
        Ok(b.clone())
    }
}

/// Row-major place values `R_i = Π_{l > i} f_l`.
pub(crate) fn place_values(shape: &[Poly]) -> Result<Vec<Poly>> {
    let mut radix = vec![Poly::zero(); shape.len()];
    let mut acc = Poly::constant(1);
    for (i, n) in shape.iter().enumerate().rev() {
        radix[i] = acc.clone();
        acc = acc.mul(n)?;
    }
    Ok(radix)
}

/// Polynomial digits `a` with `p = Σ a_i·R_i`, outermost first: each digit
/// takes the exact quotient of the rest when there is one, else the floored
/// quotient of every term a monomial place value divides; the last digit
/// (`R = 1`) takes what is left. Any split is exact as a sum; whether the
/// digits stay in range is the caller's proof. O(k·t) polynomial steps.
pub(crate) fn digits(p: &Poly, radix: &[Poly]) -> Result<Vec<Poly>> {
    let k = radix.len();
    let mut out = vec![Poly::zero(); k];
    let mut rest = p.clone();
    for (i, r) in radix.iter().enumerate() {
        if rest.is_zero() {
            break;
        }
        if i + 1 == k {
            out[i] = rest;
            break;
        }
        if let Some(q) = rest.div_exact(r) {
            out[i] = q;
            break;
        }
        if let [(_, rc)] = r.terms() {
            let mut q = Poly::zero();
            for &(m, c) in rest.terms() {
                let Some(fl) = c.checked_div_euclid(*rc) else {
                    continue;
                };
                let Some(scaled) = fl.checked_mul(*rc) else {
                    continue;
                };
                if fl != 0 {
                    if let Some(t) = Poly::term(m, scaled).div_exact(r) {
                        q = q.add(&t)?;
                    }
                }
            }
            rest = rest.sub(&q.mul(r)?)?;
            out[i] = q;
        }
    }
    Ok(out)
}

/// `true` when `fact` is proved.
fn proved(syms: &Symbols, fact: &Fact) -> bool {
    syms.prove(fact) == Truth::Proved
}

/// Every element masked out: strides 0, offset 0, empty intervals (none at
/// rank 0, where no mask can exclude the single element: no view exists).
fn nothing_valid(shape: &[Poly]) -> Option<SymFlatView> {
    (!shape.is_empty()).then(|| {
        let zeros = vec![Poly::zero(); shape.len()];
        let mask = vec![(Poly::zero(), Poly::zero()); shape.len()];
        SymFlatView::from_parts(shape.to_vec(), zeros, Poly::zero(), Some(mask))
    })
}
