//! The movement ops of a [`SymViewStack`] other than reshape: permute,
//! expand, flip, shrink and pad, with tinygrad 0.10.3's preconditions
//! proved for every allowed binding.
//!
//! Each op works on the top view's leaves, as the concrete ops do:
//! permute moves each dimension's block of leaves; expand turns an
//! extent-1 dimension into one stride-0 leaf; flip reverses every leaf of a
//! dimension (`x ↦ e−1−x`: the offset gains `(e−1)·s`, the stride and the
//! constraint coefficients change sign, the bounds shift); shrink and pad
//! of a one-leaf dimension shift the leaf (the offset by `b·s`, the bounds
//! by `a·b`), and pad adds the constraint `b <= x < b+e`. A shrink or pad
//! that is not the identity on a dimension of several leaves pushes a
//! contiguous view first (no leaf-wise form exists for every binding): a
//! box, folded back into the view below when it can be (module `fold`).
//! Every op is O(leaves · constraints · t).

use smallvec::SmallVec;

use super::super::need::Needs;
use super::super::poly::Poly;
use super::super::prove::{Fact, Truth};
use super::super::symbols::Symbols;
use super::{equal, require_extents, Polys, SymConstraint, SymView, SymViewStack};
use crate::error::{Error, Result};
use crate::view::ops::{bad, check_rank, is_identity_permutation};

/// The shrink `[b, e)` of a constant extent `s`: tinygrad's precondition,
/// and a non-empty range (extents over symbols stay `>= 1`).
fn shrink_consts(b: i64, e: i64, s: i64) -> Result<()> {
    if !(0 <= b && b <= e && e <= s) {
        return Err(bad(
            "shrink",
            format!("[{b}, {e}) of extent {s} breaks 0 <= begin <= end <= extent"),
        ));
    }
    if b == e {
        return Err(Error::NeedsFacts {
            op: "shrink",
            why: format!("[{b}, {e}) is empty (extents over symbols are >= 1)"),
            needs: Vec::new(),
        });
    }
    Ok(())
}

impl SymViewStack {
    /// tinygrad's `permute`: new dimension `d` is old dimension `perm[d]`.
    /// O(leaves · constraints).
    ///
    /// # Errors
    /// [`Error::BadMovement`] when `perm` is not a permutation of `0..rank`.
    ///
    /// ```
    /// use hlayout::symbolic::{SymViewStack, Symbols};
    /// let mut s = Symbols::new();
    /// let t = SymViewStack::new(&[s.parse("N").unwrap(), 4.into()], &s)?.permute(&[1, 0], &s)?;
    /// assert_eq!(t.show(&s).to_string(), "(4,N):(1,4)");
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn permute(mut self, perm: &[usize], _syms: &Symbols) -> Result<SymViewStack> {
        self.untrack_top();
        let v = self.top_mut();
        check_rank("permute", perm.len(), v.rank())?;
        if is_identity_permutation(perm)? {
            return Ok(self);
        }
        let ranges: SmallVec<[std::ops::Range<usize>; 8]> = v.dim_ranges().collect();
        let order: SmallVec<[usize; 8]> = perm.iter().flat_map(|&p| ranges[p].clone()).collect();
        v.ext = order.iter().map(|&k| v.ext[k].clone()).collect();
        v.stride = order.iter().map(|&k| v.stride[k].clone()).collect();
        for c in &mut v.cons {
            c.coeffs = order.iter().map(|&k| c.coeffs[k]).collect();
        }
        v.dim_len = perm.iter().map(|&p| ranges[p].len() as u32).collect();
        Ok(self)
    }

    /// tinygrad's `expand`: each dimension keeps its extent or, when it is
    /// 1, broadcasts to the new one (stride 0). O(leaves · constraints · t).
    ///
    /// # Errors
    /// [`Error::BadMovement`] when an extent that is never 1 is never the
    /// new one; [`Error::NeedsFacts`] naming `extent == new` when neither
    /// is proved, and the new extents `>= 1` and the size within `i64`.
    ///
    /// ```
    /// use hlayout::symbolic::{SymViewStack, Symbols};
    /// let mut s = Symbols::new();
    /// let t = SymViewStack::new(&[1.into(), 4.into()], &s)?;
    /// let t = t.expand(&[s.parse("B").unwrap(), 4.into()], &s)?;
    /// assert_eq!(t.show(&s).to_string(), "(B,4):(0,1)");
    /// let err = t.expand(&[s.parse("C").unwrap(), 4.into()], &s).unwrap_err();
    /// assert!(err.to_string().ends_with("needs B-C == 0"), "{err}");
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn expand(mut self, shape: &[Poly], syms: &Symbols) -> Result<SymViewStack> {
        self.untrack_top();
        let v = self.top_mut();
        check_rank("expand", shape.len(), v.rank())?;
        let old = v.shape()?;
        let mut needs = Needs::new(syms, "expand");
        require_extents(&mut needs, shape)?;
        let mut broadcast: SmallVec<[bool; 8]> = SmallVec::with_capacity(shape.len());
        for (n, s) in shape.iter().zip(&old) {
            let same = equal(syms, s, n)?;
            let one = equal(syms, s, &Poly::constant(1))?;
            broadcast.push(match (same, one) {
                (Truth::Proved, _) => false,
                (_, Truth::Proved) => true,
                (Truth::Refuted, Truth::Refuted) => {
                    return Err(bad(
                        "expand",
                        format!(
                            "cannot expand extent {} to {} (only extent 1 expands)",
                            syms.show(s),
                            syms.show(n)
                        ),
                    ))
                }
                (Truth::Refuted, _) => {
                    needs.require(Fact::eq(s, &Poly::constant(1))?)?;
                    true
                }
                _ => {
                    needs.require(Fact::eq(s, n)?)?;
                    false
                }
            });
        }
        if broadcast.iter().any(|&b| b) {
            let mut size = Poly::constant(1);
            for (d, n) in shape.iter().enumerate() {
                size = size.mul(if broadcast[d] { n } else { &old[d] })?;
            }
            needs.require(Fact::at_most(&size, i64::MAX))?;
        }
        needs.finish("the expand's precondition (each extent kept or 1)")?;
        if !broadcast.iter().any(|&b| b) {
            return Ok(self);
        }
        let ranges: SmallVec<[std::ops::Range<usize>; 8]> = v.dim_ranges().collect();
        let mut out = SymView {
            ext: Polys::new(),
            stride: Polys::new(),
            dim_len: SmallVec::new(),
            cons: v
                .cons
                .iter()
                .map(|c| SymConstraint {
                    coeffs: SmallVec::new(),
                    lo: c.lo.clone(),
                    hi: c.hi.clone(),
                })
                .collect(),
            offset: std::mem::take(&mut v.offset),
        };
        for (d, r) in ranges.into_iter().enumerate() {
            if broadcast[d] {
                // Every leaf has extent 1 (their product is): its coordinate is 0.
                out.push_leaf(shape[d].clone(), Poly::zero(), |_| 0);
                out.dim_len.push(1);
            } else {
                out.dim_len.push(r.len() as u32);
                for k in r {
                    let (e, s) = (
                        std::mem::take(&mut v.ext[k]),
                        std::mem::take(&mut v.stride[k]),
                    );
                    out.push_leaf(e, s, |j| v.cons[j].coeffs[k]);
                }
            }
        }
        *v = out;
        Ok(self)
    }

    /// tinygrad's `flip`: reverses the dimensions marked `true` (flags past
    /// the rank are ignored, as tinygrad 0.10.3 zips them with the shape).
    /// O(leaves · constraints · t).
    ///
    /// # Errors
    /// [`Error::BadMovement`] for fewer flags than the rank;
    /// [`Error::Overflow`].
    ///
    /// ```
    /// use hlayout::symbolic::{SymViewStack, Symbols};
    /// let mut s = Symbols::new();
    /// let t = SymViewStack::new(&[s.parse("N").unwrap()], &s)?.flip(&[true], &s)?;
    /// assert_eq!(t.show(&s).to_string(), "N:-1+N-1");
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn flip(mut self, flags: &[bool], _syms: &Symbols) -> Result<SymViewStack> {
        let v = self.top_mut();
        if flags.len() < v.rank() {
            return Err(bad(
                "flip",
                format!(
                    "argument has {} entries but the view has rank {}",
                    flags.len(),
                    v.rank()
                ),
            ));
        }
        let ranges: SmallVec<[std::ops::Range<usize>; 8]> = v.dim_ranges().collect();
        for (d, (r, _)) in ranges
            .into_iter()
            .zip(flags)
            .enumerate()
            .filter(|(_, (_, &f))| f)
        {
            let e = self.top().dim_extent(d)?;
            self.flip_box(d, &e);
            let v = self.top_mut();
            for k in r {
                v.flip_leaf(k)?;
            }
        }
        Ok(self)
    }

    /// tinygrad's `shrink`: keeps `[begin, end)` of each dimension, with
    /// `0 <= begin < end <= extent` (an empty range is refused: extents stay
    /// `>= 1`). O(leaves · constraints · t).
    ///
    /// # Errors
    /// [`Error::BadMovement`] for a wrong rank or a range outside the
    /// extent for every binding; [`Error::NeedsFacts`] naming the bounds
    /// not proved, with no need for a range empty for every binding.
    ///
    /// ```
    /// use hlayout::symbolic::{SymMovement, SymViewStack, Symbols};
    /// let mut s = Symbols::new();
    /// let (sp, n) = (s.parse("sp+1").unwrap(), s.parse("N").unwrap());
    /// let t = SymViewStack::new(&[n.clone(), 64.into()], &s)?;
    /// let err = t.clone().shrink(&[(0.into(), sp.clone()), (0.into(), 64.into())], &s).unwrap_err();
    /// assert!(err.to_string().ends_with("needs -sp+N >= 1"), "{err}");
    /// let t = SymViewStack::new(&[s.parse("sp+1").unwrap(), 64.into()], &s)?;
    /// let t = t.shrink(&[(0.into(), sp), (8.into(), 16.into())], &s)?;
    /// assert_eq!(t.show(&s).to_string(), "(sp+1,8):(64,1)+8");
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn shrink(mut self, arg: &[(Poly, Poly)], syms: &Symbols) -> Result<SymViewStack> {
        let shape = self.top().shape()?;
        check_rank("shrink", arg.len(), shape.len())?;
        let mut needs = Needs::new(syms, "shrink");
        let mut change: SmallVec<[bool; 8]> = SmallVec::with_capacity(arg.len());
        for ((b, e), s) in arg.iter().zip(&shape) {
            if let (Some(cb), Some(ce), Some(cs)) = (b.as_const(), e.as_const(), s.as_const()) {
                // All constant: tinygrad's check, no prover.
                shrink_consts(cb, ce, cs)?;
                change.push(!(cb == 0 && ce == cs));
                continue;
            }
            syms.check(b)?;
            syms.check(e)?;
            let zero = Poly::zero();
            for (fact, rule) in [
                (Fact::ge(b, &zero)?, "0 <= begin"),
                (Fact::le(b, e)?, "begin <= end"),
                (Fact::le(e, s)?, "end <= extent"),
            ] {
                if syms.prove(&fact) == Truth::Refuted {
                    return Err(bad(
                        "shrink",
                        format!(
                            "[{}, {}) of extent {} breaks {rule} for every allowed value",
                            syms.show(b),
                            syms.show(e),
                            syms.show(s)
                        ),
                    ));
                }
                needs.require(fact)?;
            }
            // tinygrad allows begin == end (extent 0); over symbols
            // extents stay >= 1, refused without a fact when never so.
            let nonempty = Fact::lt(b, e)?;
            if syms.prove(&nonempty) == Truth::Refuted {
                return Err(needs.refuse(format!(
                    "[{}, {}) is empty for every allowed value (extents over symbols are >= 1)",
                    syms.show(b),
                    syms.show(e)
                )));
            }
            needs.require(nonempty)?;
            change.push(!(b.is_zero() && e == s));
        }
        needs.finish("the shrink's precondition (0 <= begin < end <= extent)")?;
        if !change.iter().any(|&c| c) {
            return Ok(self);
        }
        self.ensure_single_leaves(&change)?;
        for (d, (b, e)) in arg.iter().enumerate().filter(|&(d, _)| change[d]) {
            let v = self.top_mut();
            let k = v.dim_leaves(d).start;
            v.shift_leaf(k, b, e.sub(b)?)?;
            self.shift_box(d, b);
        }
        self.top_mut().drop_true_constraints(syms)?;
        self.fold_box(syms);
        Ok(self)
    }

    /// tinygrad's `pad`: `(before, after)` invalid elements around each
    /// dimension, both `>= 0`. O(leaves · constraints · t).
    ///
    /// # Errors
    /// [`Error::BadMovement`] for a wrong rank or a negative amount for
    /// every binding; [`Error::NeedsFacts`] naming the facts not proved
    /// (the amounts `>= 0`, the size within `i64`).
    ///
    /// ```
    /// use hlayout::symbolic::{SymMovement, SymViewStack, Symbols};
    /// let mut s = Symbols::new();
    /// let t = SymViewStack::new(&[s.parse("N").unwrap(), 4.into()], &s)?;
    /// let t = t.pad(&[(s.parse("j").unwrap(), 0.into()), (0.into(), 0.into())], &s)?;
    /// assert_eq!(t.show(&s).to_string(), "(N+j,4):(4,1)-4*j if j<=x0<N+j");
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn pad(mut self, arg: &[(Poly, Poly)], syms: &Symbols) -> Result<SymViewStack> {
        let shape = self.top().shape()?;
        check_rank("pad", arg.len(), shape.len())?;
        let mut needs = Needs::new(syms, "pad");
        let mut change: SmallVec<[bool; 8]> = SmallVec::with_capacity(arg.len());
        let mut size = Poly::constant(1);
        for ((b, a), s) in arg.iter().zip(&shape) {
            if let (Some(cb), Some(ca)) = (b.as_const(), a.as_const()) {
                if cb < 0 || ca < 0 {
                    return Err(bad("pad", format!("pad amounts ({cb}, {ca}) must be >= 0")));
                }
                change.push(cb != 0 || ca != 0);
                size = size.mul(&s.add(b)?.add(a)?)?;
                continue;
            }
            for p in [b, a] {
                syms.check(p)?;
                let fact = Fact::ge(p, &Poly::zero())?;
                if syms.prove(&fact) == Truth::Refuted {
                    return Err(bad(
                        "pad",
                        format!(
                            "pad amount {} is negative for every allowed value",
                            syms.show(p)
                        ),
                    ));
                }
                needs.require(fact)?;
            }
            change.push(!(b.is_zero() && a.is_zero()));
            size = size.mul(&s.add(b)?.add(a)?)?;
        }
        // A constant size was computed with checked arithmetic: it fits.
        if size.as_const().is_none() {
            needs.require(Fact::at_most(&size, i64::MAX))?;
        }
        needs.finish("the pad's precondition (amounts >= 0, size within i64)")?;
        if !change.iter().any(|&c| c) {
            return Ok(self);
        }
        self.ensure_single_leaves(&change)?;
        for (d, (b, a)) in arg.iter().enumerate().filter(|&(d, _)| change[d]) {
            let nb = b.neg()?;
            self.shift_box(d, &nb);
            let v = self.top_mut();
            let k = v.dim_leaves(d).start;
            let e = v.ext[k].clone();
            v.shift_leaf(k, &nb, e.add(b)?.add(a)?)?;
            let mut coeffs: SmallVec<[i64; 8]> = SmallVec::from_elem(0, v.ext.len());
            coeffs[k] = 1;
            v.cons.push(SymConstraint {
                coeffs,
                lo: b.clone(),
                hi: b.add(&e)?,
            });
        }
        self.top_mut().drop_true_constraints(syms)?;
        self.fold_box(syms);
        Ok(self)
    }

    /// Pushes a contiguous view when a dimension marked in `change` has
    /// several leaves in the top view.
    fn ensure_single_leaves(&mut self, change: &[bool]) -> Result<()> {
        let v = self.top();
        if (0..v.rank()).any(|d| change[d] && v.dim_len[d] != 1) {
            self.push_contiguous()?;
            self.start_box();
        }
        Ok(())
    }
}

impl SymConstraint {
    /// The same constraint with its first non-zero coefficient positive, as
    /// the concrete views write theirs: `lo <= -y < hi` is `1-hi <= y < 1-lo`.
    fn positive_first(&mut self) -> Result<()> {
        if self
            .coeffs
            .iter()
            .find(|&&a| a != 0)
            .is_some_and(|&a| a < 0)
        {
            for a in &mut self.coeffs {
                *a = a.checked_neg().ok_or(Error::Overflow {
                    what: "constraint coefficient",
                })?;
            }
            let one = Poly::constant(1);
            let (lo, hi) = (one.sub(&self.hi)?, one.sub(&self.lo)?);
            (self.lo, self.hi) = (lo, hi);
        }
        Ok(())
    }
}

impl SymView {
    /// Appends a leaf to the last dimension's storage (the caller keeps
    /// `dim_len`); `coeff(j)` is its coefficient in constraint `j`.
    pub(crate) fn push_leaf(&mut self, e: Poly, s: Poly, coeff: impl Fn(usize) -> i64) {
        self.ext.push(e);
        self.stride.push(s);
        for (j, c) in self.cons.iter_mut().enumerate() {
            c.coeffs.push(coeff(j));
        }
    }

    /// Leaf `k` reversed: `x ↦ e−1−x`.
    pub(super) fn flip_leaf(&mut self, k: usize) -> Result<()> {
        let last = self.ext[k].sub(&Poly::constant(1))?;
        if last.is_zero() {
            return Ok(());
        }
        self.offset = self.offset.add(&last.mul(&self.stride[k])?)?;
        self.stride[k] = self.stride[k].neg()?;
        for c in &mut self.cons {
            let a = c.coeffs[k];
            if a != 0 {
                let shift = last.scale(a)?;
                c.lo = c.lo.sub(&shift)?;
                c.hi = c.hi.sub(&shift)?;
                c.coeffs[k] = a.checked_neg().ok_or(Error::Overflow {
                    what: "constraint coefficient",
                })?;
                c.positive_first()?;
            }
        }
        Ok(())
    }

    /// Leaf `k` reads from `begin` on (`x ↦ x + begin`), with extent `e`.
    pub(super) fn shift_leaf(&mut self, k: usize, begin: &Poly, e: Poly) -> Result<()> {
        if !begin.is_zero() {
            self.offset = self.offset.add(&begin.mul(&self.stride[k])?)?;
            for c in &mut self.cons {
                let a = c.coeffs[k];
                if a != 0 {
                    let shift = begin.scale(a)?;
                    c.lo = c.lo.sub(&shift)?;
                    c.hi = c.hi.sub(&shift)?;
                }
            }
        }
        self.ext[k] = e;
        Ok(())
    }

    /// Drops each constraint proved to hold at every element (its least
    /// value `>= lo` and its greatest `< hi`), and merges two constraints on
    /// the same sum (the same coefficients) into their intersection when
    /// the prover orders both their lower and their upper bounds.
    /// O(constraints² · t + constraints · leaves · t).
    pub(crate) fn drop_true_constraints(&mut self, syms: &Symbols) -> Result<()> {
        let mut kept: SmallVec<[SymConstraint; 2]> = SmallVec::new();
        for c in std::mem::take(&mut self.cons) {
            let (mut min, mut max) = (Poly::zero(), Poly::zero());
            for (k, &a) in c.coeffs.iter().enumerate().filter(|(_, a)| **a != 0) {
                let reach = self.ext[k].sub(&Poly::constant(1))?.scale(a)?;
                if a < 0 {
                    min = min.add(&reach)?;
                } else {
                    max = max.add(&reach)?;
                }
            }
            let always = syms.prove(&Fact::le(&c.lo, &min)?) == Truth::Proved
                && syms.prove(&Fact::lt(&max, &c.hi)?) == Truth::Proved;
            if !always && !intersect(&mut kept, &c, syms)? {
                kept.push(c);
            }
        }
        self.cons = kept;
        Ok(())
    }
}

/// Merges `c` into a constraint of `kept` on the same sum when the prover
/// orders both pairs of bounds (the intersection keeps the greater `lo` and
/// the lesser `hi`); `true` when merged.
fn intersect(kept: &mut [SymConstraint], c: &SymConstraint, syms: &Symbols) -> Result<bool> {
    let order = |a: &Poly, b: &Poly| -> Result<Option<bool>> {
        // Some(true): a <= b at every binding; Some(false): a >= b.
        if a == b || syms.prove(&Fact::le(a, b)?) == Truth::Proved {
            return Ok(Some(true));
        }
        Ok((syms.prove(&Fact::ge(a, b)?) == Truth::Proved).then_some(false))
    };
    for k in kept.iter_mut().filter(|k| k.coeffs == c.coeffs) {
        let (Some(lo), Some(hi)) = (order(&k.lo, &c.lo)?, order(&k.hi, &c.hi)?) else {
            continue;
        };
        if lo {
            k.lo = c.lo.clone();
        }
        if !hi {
            k.hi = c.hi.clone();
        }
        return Ok(true);
    }
    Ok(false)
}
