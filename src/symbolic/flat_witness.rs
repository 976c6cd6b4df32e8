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
//! carries. O(r·(k + 5)) candidate lines of three points, each O(k) prover
//! calls; tried only when the merge was not proved.

use super::flat_merge::{digits, place_values};
use super::flat_view::SymFlatView;
use super::poly::Poly;
use super::prove::{Fact, Truth};
use super::symbols::Symbols;
use crate::error::Result;

/// `true` when three collinear valid elements with non-affine offsets are
/// proved for every allowed binding (module docs).
pub(crate) fn no_view_exists(
    first: &SymFlatView,
    second: &SymFlatView,
    syms: &Symbols,
) -> Result<bool> {
    if first.rank() == 0 {
        return Ok(false);
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
    for j in 0..second.rank() {
        let end = &ends[j];
        // The line's other coordinates sit at the box's corner: the box must
        // be non-empty along every other dimension at every binding, else
        // the points are invalid where it is empty.
        if !other_dims_nonempty(&corner, &ends, j, syms)? {
            continue;
        }
        for start in starts(&reader, second, &corner, j)? {
            let s0 = corner[j].add(&start)?;
            // The three points must lie in the box: start >= 0, s0 + 2 < end.
            if syms.prove(&Fact::NonNeg(start.clone())) != Truth::Proved
                || syms.prove(&Fact::lt(&s0.add(&Poly::constant(2))?, end)?) != Truth::Proved
            {
                continue;
            }
            let mut values = Vec::with_capacity(3);
            for step in 0..3 {
                let mut u = corner.clone();
                u[j] = s0.add(&Poly::constant(step))?;
                match reader.value(&flat_index(second, &u)?, syms)? {
                    Some(v) => values.push(v),
                    None => break,
                }
            }
            if let [a, b, c] = &values[..] {
                let second_difference = a.sub(&b.scale(2)?)?.add(c)?;
                if syms.prove(&Fact::Zero(second_difference)) == Truth::Refuted {
                    return Ok(true);
                }
            }
        }
    }
    Ok(false)
}

/// `true` when `corner[k] < ends[k]` is proved for every `k != j`.
fn other_dims_nonempty(corner: &[Poly], ends: &[Poly], j: usize, syms: &Symbols) -> Result<bool> {
    for (k, (c, e)) in corner.iter().zip(ends).enumerate() {
        if k != j && syms.prove(&Fact::lt(c, e)?) != Truth::Proved {
            return Ok(false);
        }
    }
    Ok(true)
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
