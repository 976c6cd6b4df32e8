//! Complement, logical divide and logical product over symbols.
//!
//! `complement(L, M)` follows the concrete construction (`docs/algebra.md`
//! §6): the leaves of `|L|` with a stride that is not proved zero, sorted by
//! stride (each comparison proved, or asked for), give the gap leaves
//! `(d/c) : c` with `c` the span covered so far (`c₀ = 1`, then `c = s·d`),
//! and a last leaf `⌈M/c⌉ : c`. Over symbols every quotient must be exact:
//! `c | d` is required (where the concrete construction's floor leaves
//! holes, the symbolic one refuses), and `⌈M/c⌉` is the exact quotient, or 1
//! when `M ≤ c` is proved. Whether a leaf takes part (extent ≥ 2, stride
//! ≠ 0) is decided like every structural choice: proved, or asked for. The divide and the product are built from
//! complement and composition exactly as the concrete ones.
//!
//! Cost: O(n²) prover calls for the sort (n ≤ the leaves), O(n) after.

use super::coalesce::coalesce_leaves;
use super::compose::concrete;
use super::layout::SymLayout;
use super::need::Needs;
use super::poly::Poly;
use super::prove::{Fact, Truth};
use super::symbols::Symbols;
use crate::error::Result;
use crate::tuple::{Profile, Tok};

use smallvec::SmallVec;

impl SymLayout {
    /// The complement up to `cotarget` over symbols (module docs); the
    /// concrete [`Layout::complement`](crate::Layout::complement) when every
    /// leaf and the cotarget are constant.
    ///
    /// # Errors
    /// [`Error::NeedsFacts`](crate::Error::NeedsFacts).
    ///
    /// ```
    /// use hlayout::symbolic::{SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// let tile = SymLayout::parse("(4,8):(8*K,1)", &mut s).unwrap();
    /// let m = s.parse("32*K").unwrap();
    /// let c = tile.complement(&m, &s).unwrap();
    /// assert_eq!(c.show(&s).to_string(), "K:8"); // the other tile origins: K of them, 8 apart
    /// ```
    pub fn complement(&self, cotarget: &Poly, syms: &Symbols) -> Result<SymLayout> {
        let l = &*self.fixed(syms);
        let cotarget = syms.fix(cotarget);
        if let Some((m, c)) = cotarget.as_const().and_then(|m| Some((m, l.to_layout()?))) {
            return c
                .complement(m)
                .map(|r| SymLayout::from_layout(&r))
                .map_err(|e| concrete("complement", e));
        }
        let mut needs = Needs::new(syms, "complement");
        let mut leaves: SmallVec<[(Poly, Poly); 8]> = SmallVec::new(); // (|stride|, extent)
        for (s, d) in l.shape_leaves().iter().zip(l.stride_leaves()) {
            if d.is_zero() || !needs.branch_nonneg(s.add_const(-2)?)? {
                continue; // extent 1 (the branch asks for the extent >= 2 when unknown)
            }
            let abs = if needs.branch_nonneg(d.clone())? {
                d.clone()
            } else {
                d.neg()?
            };
            needs.require(Fact::ge(&abs, &Poly::constant(1))?)?;
            // Insertion sort by stride (then extent), each comparison proved.
            let mut at = leaves.len();
            while at > 0 && needs.branch_lt(&abs, &leaves[at - 1].0)? {
                at -= 1;
            }
            leaves.insert(at, (abs, s.clone()));
        }
        let mut gaps: SmallVec<[(Poly, Poly); 8]> = SmallVec::new(); // (extent, stride), fastest first
        let mut covered = Poly::constant(1);
        for (d, s) in &leaves {
            needs.require(Fact::ge(d, &covered)?)?;
            gaps.push((exact(d, &covered, &needs)?, covered.clone()));
            covered = s.mul(d)?;
        }
        let last = match cotarget.div_exact(&covered) {
            Some(q) => q,
            None => {
                if syms.prove(&Fact::le(&cotarget, &covered)?) != Truth::Proved {
                    exact(&cotarget, &covered, &needs)?;
                }
                Poly::constant(1)
            }
        };
        needs.require(Fact::ge(&last, &Poly::constant(1))?)?;
        gaps.push((last, covered));
        needs.finish("the complement's structure")?;
        let (mut shape, mut stride): (SmallVec<[Poly; 8]>, SmallVec<[Poly; 8]>) =
            Default::default();
        for (e, d) in gaps.into_iter().rev() {
            shape.push(e);
            stride.push(d);
        }
        let r = coalesced(syms, &shape, &stride)?;
        r.validate(syms)?;
        Ok(r)
    }

    /// `(Rest, Tile) = A ∘ (complement(B, size(A)), B)`, as
    /// [`Layout::logical_divide`](crate::Layout::logical_divide).
    ///
    /// # Errors
    /// [`Error::NeedsFacts`](crate::Error::NeedsFacts).
    ///
    /// ```
    /// use hlayout::symbolic::{SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// let row = SymLayout::parse("64*T:1", &mut s).unwrap();
    /// let tile = SymLayout::parse("64:1", &mut s).unwrap();
    /// let d = row.logical_divide(&tile, &s).unwrap();
    /// assert_eq!(d.show(&s).to_string(), "(T,64):(64,1)");
    /// ```
    pub fn logical_divide(&self, b: &SymLayout, syms: &Symbols) -> Result<SymLayout> {
        let c = b.complement(&self.size()?, syms)?;
        self.compose(&pair(&c, b), syms)
    }

    /// `(complement(A, size(A)·cosize(B)) ∘ B, A)`, as
    /// [`Layout::logical_product`](crate::Layout::logical_product); B's
    /// strides must be proved non-negative (its cosize is then
    /// `Σ (s−1)·d + 1`).
    ///
    /// # Errors
    /// [`Error::NeedsFacts`](crate::Error::NeedsFacts).
    ///
    /// ```
    /// use hlayout::symbolic::{Assume, SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// s.assume("N", Assume { min: 2, ..Assume::default() }).unwrap();
    /// let a = SymLayout::parse("N:1", &mut s).unwrap();
    /// let p = a.logical_product(&SymLayout::parse("3:2", &mut s).unwrap(), &s).unwrap();
    /// assert_eq!(p.show(&s).to_string(), "(3,N):(2*N,1)");
    /// ```
    pub fn logical_product(&self, b: &SymLayout, syms: &Symbols) -> Result<SymLayout> {
        let mut needs = Needs::new(syms, "logical_product");
        let mut cosize = Poly::constant(1);
        for (s, d) in b.shape_leaves().iter().zip(b.stride_leaves()) {
            needs.require(Fact::ge(d, &Poly::zero())?)?;
            cosize = cosize.add(&s.add_const(-1)?.mul(d)?)?;
        }
        needs.finish("B's strides >= 0")?;
        let target = self.size()?.mul(&cosize)?;
        let placed = self.complement(&target, syms)?.compose(b, syms)?;
        Ok(pair(&placed, self))
    }
}

/// The coalesced flat layout of the leaves (slowest first), as
/// [`SymLayout::coalesce`] gives it (the concrete coalesce when every leaf
/// is constant), without building the uncoalesced layout.
fn coalesced(syms: &Symbols, shape: &[Poly], stride: &[Poly]) -> Result<SymLayout> {
    let constant = |p: &Poly| p.as_const().is_some();
    if shape.iter().chain(stride).all(constant) {
        return SymLayout::flat(shape.to_vec(), stride.to_vec()).coalesce(syms);
    }
    let (shape, stride) = coalesce_leaves(syms, shape, stride)?;
    Ok(SymLayout::flat(shape, stride))
}

/// `n / d` when exact in `ℤ[symbols]`, else the refusal (see `compose`).
pub(crate) fn exact(n: &Poly, d: &Poly, needs: &Needs<'_>) -> Result<Poly> {
    if let Some(q) = n.div_exact(d) {
        return Ok(q);
    }
    let fact = Fact::divides(d, n);
    let syms = needs.syms;
    if syms.prove(&fact) == Truth::Refuted {
        return Err(needs.refuse(format!(
            "{} is false for every allowed value",
            fact.show(syms)
        )));
    }
    Err(needs.refuse(format!(
        "the quotient ({})/({}) is not a polynomial with integer coefficients \
         (write a symbol that {} divides as a multiple of it, e.g. {}*K)",
        syms.show(n),
        syms.show(d),
        syms.show(d),
        syms.show(d)
    )))
}

/// The rank-2 layout `(x, y)`.
pub(crate) fn pair(x: &SymLayout, y: &SymLayout) -> SymLayout {
    let mut toks = vec![Tok::Open];
    toks.extend_from_slice(x.profile().toks());
    toks.extend_from_slice(y.profile().toks());
    toks.push(Tok::Close);
    let shape = x
        .shape_leaves()
        .iter()
        .chain(y.shape_leaves())
        .cloned()
        .collect();
    let stride = x
        .stride_leaves()
        .iter()
        .chain(y.stride_leaves())
        .cloned()
        .collect();
    SymLayout::from_parts(Profile::from_toks(&toks), shape, stride)
}
