//! Right and left inverses over symbols.
//!
//! `right_inverse` is CuTe's construction ([`Layout::right_inverse`]) with
//! every comparison asked of the prover: the leaves whose extent is not
//! proved 1 form a chain from `next = 1`, each link the leaf whose stride equals
//! `next` (the first in CuTe's order `(stride, extent, index)` when several
//! do), then `next = extent·stride`. Equality is decided three-way: equal as
//! polynomials, or `next < d`, or `d < next`, or (both refused) equal under
//! the recorded needs. A leaf proved below `next` is off the chain for good
//! (strides only grow along it). R reads each link's coordinate: extent
//! `s`, stride the leaf's row-major index stride in L.
//!
//! `left_inverse` answers where the concrete one takes its mixed-radix form:
//! `right_inverse((complement(L, 1), L))`, L's strides proved `≥ 0` and the
//! complement over symbols proving that L's leaves tile a mixed radix (each
//! stride a multiple of the span below it) at every binding. Other layouts (holes, a divisible chain
//! with gaps, the search) are refused with the complement's needs.
//!
//! Cost: O(n²) prover calls for n leaves.
//!
//! [`Layout::right_inverse`]: crate::Layout::right_inverse

use super::complement::pair;
use super::layout::SymLayout;
use super::need::Needs;
use super::poly::Poly;
use super::prove::{Fact, Truth};
use super::symbols::Symbols;
use crate::error::Result;

/// A leaf that may join the chain: extent, stride, row-major index stride.
struct Link {
    ext: Poly,
    stride: Poly,
    index: Poly,
    /// Proved (or needed) below the chain's `next`: off the chain.
    dead: bool,
}

impl SymLayout {
    /// CuTe's right inverse over symbols (module docs): `L(R(i)) = i` for
    /// every `i < size(R)` at every allowed binding, and R is the concrete
    /// [`Layout::right_inverse`](crate::Layout::right_inverse) there.
    ///
    /// # Errors
    /// [`Error::NeedsFacts`](crate::Error::NeedsFacts) naming the
    /// comparisons the chain depends on; [`Error::Overflow`](crate::Error::Overflow).
    ///
    /// ```
    /// use hlayout::symbolic::{Assume, SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// s.assume("N", Assume { min: 2, max: 1 << 20, ..Assume::default() }).unwrap();
    /// let t = SymLayout::parse("(N,4):(1,N)", &mut s).unwrap(); // a transpose
    /// assert_eq!(t.right_inverse(&s).unwrap().show(&s).to_string(), "(4,N):(1,4)");
    /// // Whether the chain goes on past 4:1 depends on K.
    /// let u = SymLayout::parse("(2,4):(K,1)", &mut s).unwrap();
    /// let err = u.right_inverse(&s).unwrap_err();
    /// assert!(err.to_string().ends_with("needs K >= 5"), "{err}");
    /// s.assume("K", Assume { min: 4, max: 4, ..Assume::default() }).unwrap();
    /// assert_eq!(u.right_inverse(&s).unwrap().show(&s).to_string(), "8:1"); // K = 4: contiguous
    /// ```
    pub fn right_inverse(&self, syms: &Symbols) -> Result<SymLayout> {
        let l = &*self.fixed(syms);
        if let Some(c) = l.to_layout() {
            return Ok(SymLayout::from_layout(&c.right_inverse()));
        }
        let mut needs = Needs::new(syms, "right_inverse");
        let mut links = candidates(l, &mut needs)?;
        let (mut shape, mut stride) = (Vec::new(), Vec::new());
        let mut next = Poly::constant(1);
        while let Some(k) = pick(&mut links, &next, &mut needs)? {
            let link = &mut links[k];
            link.dead = true;
            next = link.ext.mul(&link.stride)?;
            shape.push(link.ext.clone());
            stride.push(link.index.clone());
        }
        needs.finish("the right inverse's chain")?;
        if shape.is_empty() {
            return Ok(SymLayout::flat(vec![Poly::constant(1)], vec![Poly::zero()]));
        }
        shape.reverse();
        stride.reverse();
        let r = SymLayout::flat(shape, stride).coalesce(syms)?;
        r.validate_parts(syms, false)?;
        Ok(r)
    }

    /// A left inverse over symbols: `R(L(i)) = i₀` (i with its stride-0
    /// coordinates set to 0) for every `i < size(L)` at every allowed
    /// binding, where L's strides are proved `≥ 0` and its leaves tile a
    /// mixed radix (module docs); the concrete
    /// [`Layout::left_inverse`](crate::Layout::left_inverse) there.
    ///
    /// # Errors
    /// [`Error::NeedsFacts`](crate::Error::NeedsFacts): those of
    /// [`SymLayout::complement`] and [`SymLayout::right_inverse`].
    ///
    /// ```
    /// use hlayout::symbolic::{Assume, SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// s.assume("N", Assume { min: 2, max: 1 << 20, ..Assume::default() }).unwrap();
    /// let l = SymLayout::parse("(N,4):(1,2*N)", &mut s).unwrap(); // every other column
    /// let r = l.left_inverse(&s).unwrap();
    /// assert_eq!(r.show(&s).to_string(), "(4,2*N):(1,4)");
    /// ```
    pub fn left_inverse(&self, syms: &Symbols) -> Result<SymLayout> {
        let l = &*self.fixed(syms);
        if let Some(c) = l.to_layout() {
            return c
                .left_inverse()
                .map(|r| SymLayout::from_layout(&r))
                .map_err(|e| super::compose::concrete("left_inverse", e));
        }
        // The concrete mixed-radix form reads strides as they are: a
        // negative one (whose complement is that of |L|) takes other paths.
        let mut needs = Needs::new(syms, "left_inverse");
        for (e, d) in l.shape_leaves().iter().zip(l.stride_leaves()) {
            if syms.prove(&Fact::le(e, &Poly::constant(1))?) != Truth::Proved {
                needs.require(Fact::ge(d, &Poly::zero())?)?;
            }
        }
        needs.finish("the strides' signs (>= 0)")?;
        let c = l.complement(&Poly::constant(1), syms)?;
        let both = pair(&c, l);
        let flat = SymLayout::flat(both.shape_leaves().to_vec(), both.stride_leaves().to_vec());
        flat.right_inverse(syms)
    }
}

/// L's leaves whose extent is not proved 1, with their index strides.
fn candidates(l: &SymLayout, needs: &mut Needs<'_>) -> Result<Vec<Link>> {
    let (s, d) = (l.shape_leaves(), l.stride_leaves());
    let mut index = vec![Poly::constant(1); s.len()];
    for k in (0..s.len().saturating_sub(1)).rev() {
        index[k] = index[k + 1].mul(&s[k + 1])?;
    }
    let mut out = Vec::with_capacity(s.len());
    for ((e, st), ix) in s.iter().zip(d).zip(index) {
        // An extent proved 1 is dropped, as the concrete chain drops it. One
        // that may be 1 stays: taken as a link it leaves `next` as it is and
        // adds an extent-1 leaf to R, the same function as skipping it.
        if needs.syms.prove(&Fact::le(e, &Poly::constant(1))?) != Truth::Proved {
            out.push(Link {
                ext: e.clone(),
                stride: st.clone(),
                index: ix,
                dead: false,
            });
        }
    }
    Ok(out)
}

/// The next link: among the live leaves whose stride equals `next`, the
/// first in CuTe's order; leaves proved below `next` die.
fn pick(links: &mut [Link], next: &Poly, needs: &mut Needs<'_>) -> Result<Option<usize>> {
    let mut best: Option<usize> = None;
    for k in 0..links.len() {
        if links[k].dead || !equal(&links[k].stride, next, needs, &mut links[k].dead)? {
            continue;
        }
        best = match best {
            Some(b) if !before(&links[k], &links[b], needs)? => Some(b),
            _ => Some(k),
        };
    }
    Ok(best)
}

/// `d == next`, decided three-way (module docs); marks `dead` when `d < next`.
fn equal(d: &Poly, next: &Poly, needs: &mut Needs<'_>, dead: &mut bool) -> Result<bool> {
    if d == next {
        return Ok(true);
    }
    if needs.branch_lt(next, d)? {
        return Ok(false);
    }
    if needs.branch_lt(d, next)? {
        *dead = true;
        return Ok(false);
    }
    Ok(true)
}

/// Whether `a` comes before `b` in CuTe's order among equal strides:
/// smaller extent, then smaller index stride; each strict comparison
/// decided, equal leaves in either order (the same function).
fn before(a: &Link, b: &Link, needs: &mut Needs<'_>) -> Result<bool> {
    for (x, y) in [(&a.ext, &b.ext), (&a.index, &b.index)] {
        if x == y {
            continue;
        }
        if needs.branch_lt(x, y)? {
            return Ok(true);
        }
        if needs.branch_lt(y, x)? {
            return Ok(false);
        }
    }
    Ok(false)
}
