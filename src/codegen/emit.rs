//! From linear forms to the IR: the index expression and the validity
//! conjunction, with the last two simplifications that need the whole kernel.
//!
//! - *Quotient basis* (rule E1): a modulo `m mod c` whose quotient `⌊m/c⌋` the
//!   kernel computes anyway is written `m - c·⌊m/c⌋`, so the modulo costs
//!   nothing. A dimension's digits `⌊t/P_k⌋ mod e_k` then all come from the
//!   quotients `⌊t/P_k⌋`: `m` leaves cost `m - 1` divisions, not `2(m - 1)`.
//! - *Fewest comparisons* (rules C1–C4): every constraint `lo <= Σ a·x + b < hi`
//!   is moved to `lo - b <= Σ a·x < hi - b`, divided by the gcd of its
//!   coefficients (bounds rounded up), given a positive leading coefficient,
//!   intersected with every other constraint on the same form, and each bound
//!   the form's range already satisfies is dropped; an interval of one value
//!   becomes one `==`.
//!
//! Cost: O(atoms · terms) for the basis, O(constraints²) for the merge.

use super::ir::{Kernel, Node, NodeId};
use super::linear::{Atom, AtomId, Builder, Lin};
use crate::error::Result;

/// A constraint `lo <= lin < hi` (bounds in `i128`, possibly infinite).
pub(crate) type Cond = (Lin, i128, i128);

/// Emits `index` and the conjunction of `conds` into `kernel`.
pub(crate) fn emit(
    b: &mut Builder,
    index: &Lin,
    conds: &[Cond],
    kernel: &mut Kernel,
) -> Result<()> {
    let ids = emit_forms(b, std::slice::from_ref(index), conds, kernel)?;
    kernel.set_index(ids[0]);
    Ok(())
}

/// Emits every form of `forms` (simplified under the constraints) and sets
/// the kernel's validity to the conjunction of `conds`; returns the forms'
/// nodes, in order.
pub(crate) fn emit_forms(
    b: &mut Builder,
    forms: &[Lin],
    conds: &[Cond],
    kernel: &mut Kernel,
) -> Result<Vec<NodeId>> {
    b.raw = false;
    let (forms, conds) = simplify(b, forms, conds)?;
    let conds = match conds {
        None => None,
        Some(conds) => needed(b, &conds)?,
    };
    let mut roots: Vec<&Lin> = forms.iter().collect();
    if let Some(cs) = &conds {
        roots.extend(cs.iter().map(|c| &c.0));
    }
    let basis = quotient_basis(b, &roots)?;
    let mut e = Emitter {
        b,
        basis,
        kernel,
        memo: Vec::new(),
    };
    let mut ids = Vec::with_capacity(forms.len());
    for f in &forms {
        if conds.is_none() {
            // Never valid, so never read: the index emits nothing (rule V2).
            ids.push(e.kernel.push(Node::Const(0)));
            continue;
        }
        let hint = e.b.range(f);
        ids.push(e.lin(f, Some(hint))?);
    }
    let valid = match conds {
        None => e.kernel.push(Node::Bool(false)),
        Some(cs) => {
            let mut acc: Option<NodeId> = None;
            for (l, lo, hi) in cs {
                for cmp in e.compare(&l, lo, hi)? {
                    acc = Some(match acc {
                        None => cmp,
                        Some(a) => e.kernel.push(Node::And(a, cmp)),
                    });
                }
            }
            acc.unwrap_or_else(|| e.kernel.push(Node::Bool(true)))
        }
    };
    e.kernel.set_valid(valid);
    Ok(ids)
}

/// Simplifies the raw `forms` and `conds` (rule V1): each constraint under
/// the constraints before it (the simplest first), the forms under all of
/// them. The conjunction is unchanged: wherever the earlier constraints hold,
/// each rewritten one is equivalent to its original, so by induction the
/// conjunctions agree; and wherever they all hold, each rewritten form equals
/// its original. `None` for the constraints when one can never hold.
fn simplify(
    b: &mut Builder,
    forms: &[Lin],
    conds: &[Cond],
) -> Result<(Vec<Lin>, Option<Vec<Cond>>)> {
    b.clear_facts();
    b.forget();
    let all = |b: &mut Builder| -> Result<Vec<Lin>> {
        b.forget();
        forms.iter().map(|f| b.resimplify_memo(f)).collect()
    };
    let mut facts = Vec::with_capacity(conds.len());
    for (k, (l, lo, hi)) in conds.iter().enumerate() {
        // Without facts, shared atoms are simplified once for all constraints.
        let simple = (b.resimplify_memo(l)?, *lo, *hi);
        match forms_of(b, &[simple])? {
            None => return Ok((all(b)?, None)),
            Some(f) => facts.extend(f.into_iter().map(|f| (k, f))),
        }
    }
    // Constraints on plain variables first: they simplify the others most.
    facts.sort_by_key(|(_, f)| {
        let derived = f.0.terms.iter();
        let derived = derived.filter(|t| !matches!(b.atoms[t.0 as usize].atom, Atom::Var(_)));
        (derived.count(), f.0.terms.len())
    });
    let mut out = Vec::with_capacity(facts.len());
    for (k, f) in facts {
        let (l, lo, hi) = &conds[k];
        out.push((b.resimplify(l)?, *lo, *hi));
        b.push_fact(f);
    }
    let forms = all(b);
    b.clear_facts();
    Ok((forms?, Some(out)))
}

/// Rules C1–C3: each constraint over its normal form, constraints on the same
/// form intersected; `None` when some constraint can never hold.
fn forms_of(b: &Builder, conds: &[Cond]) -> Result<Option<Vec<Cond>>> {
    let mut out: Vec<Cond> = Vec::new();
    for (l, lo, hi) in conds {
        let (mut form, mut lo, mut hi) = (l.clone(), *lo, *hi);
        loop {
            let k = i128::from(form.konst);
            (lo, hi) = (sub(lo, k), sub(hi, k));
            form = form.plus(-form.konst)?;
            let g = i128::from(form.coeff_gcd());
            if g == 0 {
                break;
            }
            // C2: a·g >= lo ⇔ a >= ⌈lo/g⌉; a·g < hi ⇔ a < ⌈hi/g⌉.
            lo = ceil(lo, g);
            hi = ceil(hi, g);
            for t in form.terms.iter_mut() {
                t.1 = (i128::from(t.1) / g) as i64;
            }
            if form.terms[0].1 < 0 {
                form = form.scaled(-1)?;
                (lo, hi) = (sub(1, hi), sub(1, lo));
            }
            // C3: lo <= ⌊m/c⌋ + B < hi ⇔ c·lo <= m + c·B < c·hi.
            let div = form
                .terms
                .iter()
                .find_map(|&(id, a)| match &b.atoms[id as usize].atom {
                    Atom::Div(m, c) if a == 1 => Some((id, m, *c)),
                    _ => None,
                });
            let Some((id, m, c)) = div else { break };
            let mut rest = form.clone();
            rest.terms.retain(|t| t.0 != id);
            form = m.add_scaled(&rest, c)?;
            let c = i128::from(c);
            (lo, hi) = (mul(lo, c), mul(hi, c));
        }
        if form.terms.is_empty() {
            if lo > 0 || hi <= 0 {
                return Ok(None);
            }
            continue;
        }
        match out.iter_mut().find(|c| c.0 == form) {
            Some(c) => {
                c.1 = c.1.max(lo);
                c.2 = c.2.min(hi);
            }
            None => out.push((form, lo, hi)),
        }
    }
    Ok(Some(out))
}

/// Rule C4: the bounds each form's range does not already satisfy (C1–C3
/// first); `None` when some constraint can never hold.
fn needed(b: &Builder, conds: &[Cond]) -> Result<Option<Vec<Cond>>> {
    let Some(out) = forms_of(b, conds)? else {
        return Ok(None);
    };
    let mut kept = Vec::with_capacity(out.len());
    for (form, lo, hi) in out {
        let (min, max) = b.range(&form);
        if lo > max || hi <= min || lo >= hi {
            return Ok(None);
        }
        let lo = if lo <= min { i128::MIN } else { lo };
        let hi = if hi > max { i128::MAX } else { hi };
        if lo != i128::MIN || hi != i128::MAX {
            kept.push((form, lo, hi));
        }
    }
    Ok(Some(kept))
}

/// `a - k`, leaving the infinities alone.
fn sub(a: i128, k: i128) -> i128 {
    if a == i128::MIN || a == i128::MAX {
        a
    } else {
        a - k
    }
}

/// `a·c` for `c > 0`, leaving the infinities alone.
fn mul(a: i128, c: i128) -> i128 {
    if a == i128::MIN || a == i128::MAX {
        a
    } else {
        a * c
    }
}

/// `⌈a/g⌉` for `g > 0`, leaving the infinities alone.
fn ceil(a: i128, g: i128) -> i128 {
    if a == i128::MIN || a == i128::MAX {
        a
    } else {
        -(-a).div_euclid(g)
    }
}

/// Rule E1: for each modulo atom reachable from `roots`, its quotient when
/// that quotient uses only atoms the kernel computes anyway.
fn quotient_basis(b: &mut Builder, roots: &[&Lin]) -> Result<Vec<Option<Lin>>> {
    let n = b.atoms.len();
    let mut used = vec![false; n];
    for l in roots {
        l.terms.iter().for_each(|&(id, _)| used[id as usize] = true);
    }
    for id in (0..n).rev() {
        if used[id] {
            if let Atom::Div(l, _) | Atom::Mod(l, _) = &b.atoms[id].atom {
                for &(c, _) in &l.terms {
                    used[c as usize] = true;
                }
            }
        }
    }
    let mut basis = vec![None; n];
    for id in 0..n {
        if let (true, Atom::Mod(l, c)) = (used[id], b.atoms[id].atom.clone()) {
            let q = b.div(&l, c)?;
            let free = q
                .terms
                .iter()
                .all(|&(a, _)| used.get(a as usize) == Some(&true))
                && q.terms.iter().all(|&(a, _)| a as usize != id);
            if free {
                basis[id] = Some(q);
            }
        }
    }
    Ok(basis)
}

struct Emitter<'a> {
    b: &'a mut Builder,
    basis: Vec<Option<Lin>>,
    kernel: &'a mut Kernel,
    memo: Vec<Option<NodeId>>,
}

impl Emitter<'_> {
    /// `l` with every modulo that has a basis quotient rewritten (rule E1).
    fn expand(&self, l: &Lin) -> Result<Lin> {
        let mut out = Lin::constant(l.konst);
        for &(id, a) in &l.terms {
            match (self.basis.get(id as usize), &self.b.atoms[id as usize].atom) {
                (Some(Some(q)), Atom::Mod(m, c)) => {
                    let m = self.expand(m)?;
                    let q = self.expand(q)?;
                    out = out.add_scaled(&m, a)?;
                    let f = i64::try_from(-i128::from(a) * i128::from(*c))
                        .map_err(|_| crate::error::overflow("kernel expression"))?;
                    out = out.add_scaled(&q, f)?;
                }
                _ => {
                    let mut t = Lin::default();
                    t.terms.push((id, a));
                    out = out.add_scaled(&t, 1)?;
                }
            }
        }
        Ok(out)
    }

    /// The node of atom `id`.
    fn atom(&mut self, id: AtomId) -> Result<NodeId> {
        if let Some(Some(n)) = self.memo.get(id as usize) {
            return Ok(*n);
        }
        let info = self.b.atoms[id as usize].clone();
        let hint = Some((i128::from(info.lo), i128::from(info.hi)));
        let node = match &info.atom {
            Atom::Var(k) => self.kernel.push_hint(Node::Var(*k), hint),
            Atom::Div(l, c) | Atom::Mod(l, c) => {
                let r = self.b.range(l);
                let x = self.lin(l, Some(r))?;
                let n = if matches!(info.atom, Atom::Div(..)) {
                    Node::Div(x, *c)
                } else {
                    Node::Mod(x, *c)
                };
                self.kernel.push_hint(n, hint)
            }
        };
        if self.memo.len() <= id as usize {
            self.memo.resize(id as usize + 1, None);
        }
        self.memo[id as usize] = Some(node);
        Ok(node)
    }

    /// The node of `l` (expanded by rule E1): positive terms first, then the
    /// negative ones subtracted, the constant last; `hint` is `l`'s range.
    fn lin(&mut self, l: &Lin, hint: Option<(i128, i128)>) -> Result<NodeId> {
        let l = self.expand(l)?;
        // A coefficient or constant is subtracted when it is negative and
        // its negation fits (`i64::MIN` is added as it is).
        let minus = |a: i64| a < 0 && a != i64::MIN;
        let mut acc: Option<NodeId> = None;
        let pos = l.terms.iter().filter(|t| !minus(t.1));
        let neg = l.terms.iter().filter(|t| minus(t.1));
        for &(id, a) in pos.chain(neg) {
            let x = self.atom(id)?;
            acc = Some(match acc {
                None if minus(a) && l.konst > 0 => {
                    let k = self.kernel.push(Node::Const(l.konst));
                    let t = self.term(x, -a);
                    self.kernel.push(Node::Sub(k, t))
                }
                None => self.term(x, a),
                Some(s) if minus(a) => {
                    let t = self.term(x, -a);
                    self.kernel.push(Node::Sub(s, t))
                }
                Some(s) => {
                    let t = self.term(x, a);
                    self.kernel.push(Node::Add(s, t))
                }
            });
        }
        let konst_done = l.terms.iter().all(|t| minus(t.1)) && l.konst > 0;
        let node = match acc {
            None => self.kernel.push(Node::Const(l.konst)),
            Some(s) if l.konst == 0 || konst_done => s,
            Some(s) if minus(l.konst) => {
                let k = self.kernel.push(Node::Const(-l.konst));
                self.kernel.push(Node::Sub(s, k))
            }
            Some(s) => {
                let k = self.kernel.push(Node::Const(l.konst));
                self.kernel.push(Node::Add(s, k))
            }
        };
        if let Some(h) = hint {
            // The whole sum's value is `l`'s: narrow its interval.
            let n = self.kernel.nodes()[node as usize];
            return Ok(self.kernel.push_hint(n, Some(h)));
        }
        Ok(node)
    }

    /// `x·a`, or `x` when `a == 1`.
    fn term(&mut self, x: NodeId, a: i64) -> NodeId {
        if a == 1 {
            return x;
        }
        let k = self.kernel.push(Node::Const(a));
        self.kernel.push(Node::Mul(x, k))
    }

    /// The comparisons of `lo <= l < hi` (infinite bounds omitted).
    fn compare(&mut self, l: &Lin, lo: i128, hi: i128) -> Result<Vec<NodeId>> {
        let r = self.b.range(l);
        let x = self.lin(l, Some(r))?;
        let mut out = Vec::with_capacity(2);
        let konst =
            |k: i128| i64::try_from(k).map_err(|_| crate::error::overflow("comparison bound"));
        if lo != i128::MIN && hi != i128::MAX && hi - lo == 1 {
            let k = self.kernel.push(Node::Const(konst(lo)?));
            out.push(self.kernel.push(Node::Eq(x, k)));
            return Ok(out);
        }
        if lo != i128::MIN {
            let k = self.kernel.push(Node::Const(konst(lo)?));
            out.push(self.kernel.push(Node::Ge(x, k)));
        }
        if hi != i128::MAX {
            let k = self.kernel.push(Node::Const(konst(hi)?));
            out.push(self.kernel.push(Node::Lt(x, k)));
        }
        Ok(out)
    }
}
