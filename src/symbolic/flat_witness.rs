//! A proof that no single view is the merge, at every allowed binding: three
//! collinear elements of `second` that are valid at every binding and whose
//! offsets through `first` are not affine (their second difference is proved
//! non-zero). A flat view's offset is affine in the element, and every valid
//! element must be valid in the view, so no view (with any mask) gives those
//! three offsets: the merge is `None` at every binding.
//!
//! Each point is evaluated symbolically: its flat index is split into
//! `first`'s digits (`flat_merge::digits`) and the split is kept only when
//! every digit is proved within its extent and its mask (so it is the
//! unravel, and the point is valid, at every binding). The candidate lines
//! run along one dimension of `second` from the corner of its valid box: the
//! first few steps, and the steps around each place where a digit of `first`
//! carries. A line that lies in the valid box only under some unknown facts
//! (the box non-empty along the other dimensions, the points inside it) is
//! checked with those facts assumed: a witness there proves no view exists
//! wherever they hold, and the facts are what the merge's refusal names.
//! O(r·(k + 5)) candidate lines of three points, each O(k) prover
//! calls; tried only when the merge was not proved.

use super::flat_merge::{digits, place_values};
use super::flat_view::SymFlatView;
use super::poly::Poly;
use super::prove::{Fact, Truth};
use super::symbols::Symbols;
use crate::error::Result;

/// What the witness search found (module docs).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Witness {
    /// Three collinear valid elements with non-affine offsets at every
    /// allowed binding: no view exists at any.
    NoView,
    /// Such three elements exist once these facts are added (each unknown
    /// now, e.g. `M >= 2` for a box that is empty at `M = 1`): naming them
    /// decides the request (at the other bindings a view is proved or
    /// every view is right).
    NoViewIf(Vec<Fact>),
    /// Nothing was found.
    Unknown,
}

/// Searches three collinear valid elements with non-affine offsets, proved
/// for every allowed binding ([`Witness::NoView`]) or for every binding
/// where some unknown facts about the line's box hold
/// ([`Witness::NoViewIf`], the first such line; a proved witness wins).
pub(crate) fn no_view_exists(
    first: &SymFlatView,
    second: &SymFlatView,
    syms: &Symbols,
) -> Result<Witness> {
    if first.rank() == 0 {
        return Ok(Witness::Unknown);
    }
    let reader = Reader::new(first)?;
    let corner: Vec<Poly> = match second.mask() {
        Some(m) => m.iter().map(|(b, _)| b.clone()).collect(),
        None => vec![Poly::zero(); second.rank()],
    };
    let ends: Vec<Poly> = match second.mask() {
        Some(m) => m.iter().map(|(_, e)| e.clone()).collect(),
        None => second.shape().to_vec(),
    };
    let mut conditional = None;
    for j in 0..second.rank() {
        for start in starts(&reader, second, &corner, j)? {
            let s0 = corner[j].add(&start)?;
            // The line's other coordinates sit at the box's corner: the box
            // must be non-empty along every other dimension, and the three
            // points must lie in it (start >= 0, s0 + 2 < end), else the
            // points are invalid where it is empty. Unknown ones are facts
            // the witness needs.
            let mut box_facts = other_dims_nonempty(&corner, &ends, j)?;
            box_facts.push(Fact::NonNeg(start.clone()));
            box_facts.push(Fact::lt(&s0.add(&Poly::constant(2))?, &ends[j])?);
            let Some((facts, within)) = assumed(syms, box_facts)? else {
                continue;
            };
            if !facts.is_empty() && conditional.is_some() {
                continue;
            }
            if non_affine(&reader, second, &corner, j, &s0, &within)? {
                if facts.is_empty() {
                    return Ok(Witness::NoView);
                }
                conditional = Some(facts);
            }
        }
    }
    Ok(conditional.map_or(Witness::Unknown, Witness::NoViewIf))
}

/// The facts of `wanted` that are unknown, and `syms` with them added;
/// `None` when one is refuted or cannot be written as an assumption.
fn assumed(syms: &Symbols, wanted: Vec<Fact>) -> Result<Option<(Vec<Fact>, Symbols)>> {
    let mut unknown: Vec<Fact> = Vec::new();
    for f in wanted {
        match syms.prove(&f) {
            Truth::Proved => {}
            Truth::Refuted => return Ok(None),
            Truth::Unknown => {
                if !unknown.contains(&f) {
                    unknown.push(f);
                }
            }
        }
    }
    let mut within = syms.clone();
    for f in &unknown {
        // Facts that together leave no value decide nothing.
        if !matches!(within.add_fact(f), Ok(true)) {
            return Ok(None);
        }
    }
    if unknown.iter().any(|f| within.prove(f) != Truth::Proved) {
        return Ok(None);
    }
    Ok(Some((unknown, within)))
}

/// `true` when the three points `s0, s0 + 1, s0 + 2` along dimension `j`
/// (the others at `corner`) are valid with a second difference of their
/// offsets proved non-zero under `syms`.
fn non_affine(
    reader: &Reader,
    second: &SymFlatView,
    corner: &[Poly],
    j: usize,
    s0: &Poly,
    syms: &Symbols,
) -> Result<bool> {
    let mut values = Vec::with_capacity(3);
    for step in 0..3 {
        let mut u = corner.to_vec();
        u[j] = s0.add(&Poly::constant(step))?;
        match reader.value(&flat_index(second, &u)?, syms)? {
            Some(v) => values.push(v),
            None => return Ok(false),
        }
    }
    let [a, b, c] = &values[..] else {
        return Ok(false);
    };
    let second_difference = a.sub(&b.scale(2)?)?.add(c)?;
    Ok(syms.prove(&Fact::Zero(second_difference)) == Truth::Refuted)
}

/// The facts `corner[k] < ends[k]` for every `k != j`: the box is
/// non-empty along the line's other dimensions.
fn other_dims_nonempty(corner: &[Poly], ends: &[Poly], j: usize) -> Result<Vec<Fact>> {
    let mut out = Vec::with_capacity(corner.len());
    for (k, (c, e)) in corner.iter().zip(ends).enumerate() {
        if k != j {
            out.push(Fact::lt(c, e)?);
        }
    }
    Ok(out)
}

/// `first`'s shape, place values, strides and mask, to read single points.
struct Reader<'a> {
    first: &'a SymFlatView,
    radix: Vec<Poly>,
}

impl<'a> Reader<'a> {
    fn new(first: &'a SymFlatView) -> Result<Reader<'a>> {
        Ok(Reader {
            first,
            radix: place_values(first.shape())?,
        })
    }

    /// The offset `first` reads at flat index `x`, when `x`'s digit split is
    /// proved to be its unravel and valid at every binding; else `None`.
    fn value(&self, x: &Poly, syms: &Symbols) -> Result<Option<Poly>> {
        if let Some(v) = self.read(&digits(x, &self.radix)?, syms)? {
            return Ok(Some(v));
        }
        self.read(&leading_digits(x, &self.radix)?, syms)
    }

    /// The offset at digits `ds` when each is proved within its extent and
    /// its mask; else `None`.
    fn read(&self, ds: &[Poly], syms: &Symbols) -> Result<Option<Poly>> {
        let mut v = self.first.offset().clone();
        for (i, d) in ds.iter().enumerate() {
            let n = &self.first.shape()[i];
            let (b, e) = match self.first.mask() {
                Some(m) => m[i].clone(),
                None => (Poly::zero(), n.clone()),
            };
            let within = [
                Fact::NonNeg(d.clone()),
                Fact::lt(d, n)?,
                Fact::ge(d, &b)?,
                Fact::lt(d, &e)?,
            ];
            if within.iter().any(|f| syms.prove(f) != Truth::Proved) {
                return Ok(None);
            }
            v = v.add(&self.first.strides()[i].mul(d)?)?;
        }
        Ok(Some(v))
    }
}

/// Another split of `p` into digits, for place values of several terms
/// (`N+1`): each place takes the quotient of repeated leading-term division
/// (`(N+2)/(N+1)` gives 1, rest 1). Exact as a sum, like
/// [`digits`]; whether it is the unravel is the caller's proof. O(k·t)
/// polynomial steps.
fn leading_digits(p: &Poly, radix: &[Poly]) -> Result<Vec<Poly>> {
    let k = radix.len();
    let mut out = vec![Poly::zero(); k];
    let mut rest = p.clone();
    for (i, r) in radix.iter().enumerate() {
        if i + 1 == k {
            out[i] = rest;
            break;
        }
        let Some(&(lm, lc)) = r.terms().first() else {
            continue;
        };
        let mut q = Poly::zero();
        for _ in 0..64 {
            let next = rest.terms().iter().find_map(|&(m, c)| {
                let qm = m.quotient(lm)?;
                let fl = c.checked_div_euclid(lc)?;
                (fl != 0).then_some((qm, fl))
            });
            let Some((qm, fl)) = next else {
                break;
            };
            let t = Poly::term(qm, fl);
            rest = rest.sub(&t.mul(r)?)?;
            q = q.add(&t)?;
        }
        out[i] = q;
    }
    Ok(out)
}

/// `second`'s flat index at element `u`.
fn flat_index(second: &SymFlatView, u: &[Poly]) -> Result<Poly> {
    let mut x = second.offset().clone();
    for (s, c) in second.strides().iter().zip(u) {
        x = x.add(&s.mul(c)?)?;
    }
    Ok(x)
}

/// Where the candidate lines along dimension `j` start (steps from the
/// corner): 0 to 4, and one step before each carry of an inner digit of
/// `first` that dimension `j` moves by a constant `a > 0` (`⌈(f_i − G_i)/a⌉ − 1`
/// when that is a polynomial).
fn starts(r: &Reader, second: &SymFlatView, corner: &[Poly], j: usize) -> Result<Vec<Poly>> {
    let mut out: Vec<Poly> = (0..=4).map(Poly::constant).collect();
    let g = digits(&flat_index(second, corner)?, &r.radix)?;
    let a = digits(&second.strides()[j], &r.radix)?;
    for i in 1..r.radix.len() {
        let Some(k) = a[i].as_const().filter(|&k| k > 0) else {
            continue;
        };
        let room = r.first.shape()[i].sub(&g[i])?;
        let rest = room.sub(&Poly::constant(room.constant_term()))?;
        if let Some(q) = rest.div_exact(&Poly::constant(k)) {
            let c0 = room.constant_term();
            let carry = q.add(&Poly::constant(-((-c0).div_euclid(k))))?;
            out.push(carry.sub(&Poly::constant(1))?);
        }
    }
    Ok(out)
}
