//! Coalescing over symbols: the concrete rule (`docs/model.md` §5) with
//! each structural decision proved for every allowed binding.
//!
//! A leaf is dropped when its extent is proved to be 1; adjacent leaves
//! `s0:d0` (slower) and `s1:d1` merge into `s0·s1 : d1` when `d0 = s1·d1` is
//! proved. An unproved merge is not made, which keeps the function (two
//! leaves are the same function as their merge whenever they merge), so
//! coalesce never refuses; the result is minimal at every binding where the
//! unproved equalities are false. All-constant layouts take the concrete
//! path. O(leaves) prover calls.

use super::layout::SymLayout;
use super::poly::Poly;
use super::prove::{Fact, Truth};
use super::symbols::Symbols;
use crate::error::Result;

impl SymLayout {
    /// The same function with the fewest leaves the assumptions prove.
    ///
    /// # Errors
    /// [`Error::Overflow`](crate::Error::Overflow) and
    /// [`Error::LimitExceeded`](crate::Error::LimitExceeded) from polynomial products.
    ///
    /// ```
    /// use hlayout::symbolic::{SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// let l = SymLayout::parse("(N,(4,8)):(32,(8,1))", &mut s).unwrap();
    /// assert_eq!(l.coalesce(&s).unwrap().show(&s).to_string(), "32*N:1");
    /// let t = SymLayout::parse("(N,4):(1,N)", &mut s).unwrap();
    /// assert_eq!(t.coalesce(&s).unwrap().show(&s).to_string(), "(N,4):(1,N)");
    /// ```
    pub fn coalesce(&self, syms: &Symbols) -> Result<SymLayout> {
        let fixed = self.fixed(syms);
        if let Some(l) = fixed.to_layout() {
            return Ok(SymLayout::from_layout(&l.coalesce()));
        }
        let (shape, stride) = coalesce_leaves(syms, fixed.shape_leaves(), fixed.stride_leaves())?;
        Ok(SymLayout::flat(shape, stride))
    }
}

/// `true` when `p = 1` is proved.
pub(crate) fn is_one(syms: &Symbols, p: &Poly) -> bool {
    if let Some(c) = p.as_const() {
        return c == 1;
    }
    // Without fixed symbols the prover proves `p = 1` only when `p − 1` is
    // the zero polynomial, i.e. `p` is the constant 1 (handled above).
    if !syms.has_fixed() {
        return false;
    }
    syms.prove(&Fact::Zero(p.add_const(-1).unwrap_or_default())) == Truth::Proved
}

/// `true` when `a = b` is proved.
pub(crate) fn proved_eq(syms: &Symbols, a: &Poly, b: &Poly) -> Result<bool> {
    if a == b {
        return Ok(true);
    }
    if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
        return Ok(x == y);
    }
    if !syms.has_fixed() {
        // The prover proves `a − b = 0` only for the zero polynomial.
        return Ok(false);
    }
    Ok(syms.prove(&Fact::eq(a, b)?) == Truth::Proved)
}

/// Coalesced flat leaves, slowest first; `1:0` when none is left.
pub(crate) fn coalesce_leaves(
    syms: &Symbols,
    shape: &[Poly],
    stride: &[Poly],
) -> Result<(Vec<Poly>, Vec<Poly>)> {
    let (mut out_s, mut out_d): (Vec<Poly>, Vec<Poly>) = (
        Vec::with_capacity(shape.len()),
        Vec::with_capacity(shape.len()),
    );
    for (s, d) in shape.iter().zip(stride) {
        if is_one(syms, s) {
            continue;
        }
        if let (Some(cs), Some(cd)) = (out_s.last_mut(), out_d.last_mut()) {
            if proved_eq(syms, cd, &s.mul(d)?)? {
                *cs = cs.mul(s)?;
                *cd = d.clone();
                continue;
            }
        }
        out_s.push(s.clone());
        out_d.push(d.clone());
    }
    if out_s.is_empty() {
        return Ok((vec![Poly::constant(1)], vec![Poly::zero()]));
    }
    Ok((out_s, out_d))
}
