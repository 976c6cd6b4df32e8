//! Composition over symbols: `A ∘ B` by the structural criterion of
//! `docs/algebra.md` §4–5 (CuTe's divisibility walk in pycute's strong form,
//! mirrored, plus the carry bound across B's leaves), every decision proved.
//!
//! A is read on all of ℤ: its first leaf is an unbounded *head*, the other
//! leaves are coalesced (proved merges only) into finite leaves `aⱼ:αⱼ`
//! listed fastest first, with place values `P₀ = 1`, `Pⱼ₊₁ = Pⱼ·aⱼ`. Each
//! leaf `b:β` of B (`β ≥ 0`) starts in the leaf `j` with `Pⱼ ≤ β < Pⱼ₊₁`,
//! needs `Pⱼ | β` (`r = β/Pⱼ`), and either (a) stays there,
//! `(b−1)·β < Pⱼ₊₁`, giving `b : αⱼ·r`, or (b) needs `β | Pⱼ₊₁` and walks on,
//! each further leaf `a_m` either holding the rest (`rest ≤ a_m`) or dividing
//! it. Across B's leaves, at every boundary `p = Pᵢ₊₁` the largest residues
//! must add up to less than `p` (no carry). These conditions are sufficient
//! for every binding at which they hold, so a proved set of them proves the
//! answer; an unknown one becomes a need. Quotients must be polynomials with
//! integer coefficients (`4*K / 4 = K`); `N / 4` under `N % 4 == 0` is not
//! written, and the refusal says so.
//!
//! Two shortcuts, each exact: an A with no finite leaf is `x ↦ head·x` on
//! ℤ, so R is B with its strides times the head's, whatever their sign; a
//! leaf of B with a negative stride β is answered when the product `P` of
//! A's finite leaves divides β (it then lies in the head: `b : head·β/P`,
//! no carry), and refused by rule otherwise (`docs/symbolic.md` §4).
//! R is assembled in place while B's leaves are walked.
//!
//! Cost: O(leaves(A)·leaves(B)) polynomial operations and prover calls;
//! O(leaves(B)) for a linear A.

use super::coalesce::{coalesce_leaves, is_one};
use super::complement::exact;
use super::layout::SymLayout;
use super::need::Needs;
use super::poly::Poly;
use super::prove::{Fact, Truth};
use super::symbols::Symbols;
use crate::error::Result;
use crate::tuple::{Profile, Tok};

use smallvec::{smallvec, SmallVec};

/// The sub-leaves of one leaf of B (one or two in the common cases).
type Sub = SmallVec<[(Poly, Poly); 2]>;

/// A on ℤ: finite leaves fastest first, the head's stride, place values.
struct Radix {
    a: Vec<Poly>,
    alpha: Vec<Poly>,
    head: Poly,
    place: Vec<Poly>,
}

impl Radix {
    fn of(l: &SymLayout, syms: &Symbols) -> Result<Radix> {
        let (s, d) = (l.shape_leaves(), l.stride_leaves());
        let head = d[0].clone();
        let (mut fs, mut fd) = if s.len() > 1 {
            coalesce_leaves(syms, &s[1..], &d[1..])?
        } else {
            (Vec::new(), Vec::new())
        };
        if fs.len() == 1 && is_one(syms, &fs[0]) {
            (fs, fd) = (Vec::new(), Vec::new());
        }
        let mut head = head;
        // The slowest finite leaf merges into the head when the head continues it.
        if let (Some(s0), Some(d0)) = (fs.first(), fd.first()) {
            if super::coalesce::proved_eq(syms, &head, &s0.mul(d0)?)? {
                head = d0.clone();
                fs.remove(0);
                fd.remove(0);
            }
        }
        fs.reverse();
        fd.reverse();
        let mut place = Vec::with_capacity(fs.len() + 1);
        place.push(Poly::constant(1));
        for a in &fs {
            let next = place[place.len() - 1].mul(a)?;
            place.push(next);
        }
        Ok(Radix {
            a: fs,
            alpha: fd,
            head,
            place,
        })
    }

    fn len(&self) -> usize {
        self.a.len()
    }
}

/// Where a leaf of B lies in A: from finite leaf `start` to `end` (`len` = the head).
struct Span<'p> {
    start: usize,
    end: usize,
    b: &'p Poly,
    beta: &'p Poly,
}

impl SymLayout {
    /// `A ∘ B` over symbols: a layout with B's shape as a coarsening that,
    /// bound to any allowed values, is `A ∘ B` of the bound layouts (module
    /// docs of `symbolic::compose`). Both all-constant: the concrete
    /// [`Layout::compose`](crate::Layout::compose), exact.
    ///
    /// # Errors
    /// [`Error::NeedsFacts`](crate::Error::NeedsFacts) naming the facts the
    /// structure needs; [`Error::Overflow`](crate::Error::Overflow).
    ///
    /// ```
    /// use hlayout::symbolic::{Assume, SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// s.assume("M", Assume { divisible_by: 128, ..Assume::default() }).unwrap();
    /// // A 128-row tile of an M x K row-major matrix: rows t·K.
    /// let a = SymLayout::parse("(M,K):(K,1)", &mut s).unwrap();
    /// let tile = SymLayout::parse("(128,K):(K,1)", &mut s).unwrap();
    /// assert_eq!(a.compose(&tile, &s).unwrap().show(&s).to_string(), "(128,K):(K,1)");
    /// // Every 4th element of a length-N row: needs N % 4 == 0 ... and more.
    /// let row = SymLayout::parse("(M,N):(N,1)", &mut s).unwrap();
    /// let cols = SymLayout::parse("(8,2):(1,8*N)", &mut s).unwrap();
    /// assert!(row.compose(&cols, &s).is_ok());
    /// ```
    pub fn compose(&self, b: &SymLayout, syms: &Symbols) -> Result<SymLayout> {
        let (a, b) = (&*self.fixed(syms), &*b.fixed(syms));
        if let Some((a, bl)) = a.to_layout().and_then(|a| Some((a, b.to_layout()?))) {
            return a
                .compose(&bl)
                .map(|r| SymLayout::from_layout(&r))
                .map_err(|e| concrete("compose", e));
        }
        let radix = Radix::of(a, syms)?;
        if radix.len() == 0 {
            return linear(&radix.head, b, syms);
        }
        let mut needs = Needs::new(syms, "compose");
        let mut spans: SmallVec<[Span<'_>; 8]> = SmallVec::new();
        let mut out = Assembly::with_capacity(b);
        let mut leaves = b.shape_leaves().iter().zip(b.stride_leaves());
        for &t in b.profile().toks() {
            // The profile has one `Leaf` token per leaf, in order.
            if t != Tok::Leaf {
                out.toks.push(t);
            } else if let Some((bk, beta)) = leaves.next() {
                out.push(leaf(&radix, bk, beta, &mut needs, &mut spans)?);
            }
        }
        carries(&radix, &spans, &mut needs)?;
        needs.finish("the composition's structure")?;
        let r = SymLayout::from_parts(Profile::from_vec(out.toks), out.shape, out.stride);
        // R's extents are B's split by exact quotients (each ≥ 1 by the
        // walk's conditions); its size (B's, which a pair built by a
        // divide has not had checked) and its span are.
        r.validate_parts(syms, false)?;
        Ok(r)
    }

    /// Reshape: `self ∘ row_major(shape)`, where `shape` is a layout whose
    /// extents are the new shape (its strides are ignored). The sizes must
    /// be proved equal.
    ///
    /// # Errors
    /// [`Error::NeedsFacts`](crate::Error::NeedsFacts) (sizes, or the
    /// composition's facts).
    ///
    /// ```
    /// use hlayout::symbolic::{SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// let t = SymLayout::parse("(N,8):(1,N)", &mut s).unwrap(); // a transpose
    /// let flat = SymLayout::parse("8*N:0", &mut s).unwrap();
    /// assert_eq!(t.reshape(&flat, &s).unwrap().show(&s).to_string(), "(N,8):(1,N)");
    /// ```
    pub fn reshape(&self, shape: &SymLayout, syms: &Symbols) -> Result<SymLayout> {
        let mut needs = Needs::new(syms, "reshape");
        needs.require(Fact::eq(&self.size()?, &shape.size()?)?)?;
        needs.finish("equal sizes")?;
        self.compose(&SymLayout::row_major(shape)?, syms)
    }
}

/// `A ∘ B` when A coalesces into its head alone: A is `x ↦ head·x` on all
/// of ℤ, so every leaf `b:β` of B, whatever the sign of β, becomes
/// `b : head·β` (`1:0` for an extent proved 1, as the concrete algebra
/// writes it), with no structural decision and no carry. Only R's validity
/// (its span within `i64`) is checked. O(leaves(B)).
fn linear(head: &Poly, b: &SymLayout, syms: &Symbols) -> Result<SymLayout> {
    let n = b.shape_leaves().len();
    let (mut shape, mut stride) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for (e, beta) in b.shape_leaves().iter().zip(b.stride_leaves()) {
        if is_one(syms, e) {
            shape.push(Poly::constant(1));
            stride.push(Poly::zero());
        } else {
            shape.push(e.clone());
            stride.push(head.mul(beta)?);
        }
    }
    let r = SymLayout::from_parts(b.profile().clone(), shape, stride);
    r.validate_parts(syms, false)?;
    Ok(r)
}

/// A refusal of the concrete algebra (on leaves that are all constant, or
/// fixed by the assumptions) as a refusal no added fact helps; an undecided
/// answer ([`Error::BudgetExceeded`](crate::Error::BudgetExceeded)) stays undecided.
pub(crate) fn concrete(op: &'static str, e: crate::Error) -> crate::Error {
    match e {
        crate::Error::BudgetExceeded { .. } => e,
        e => crate::Error::NeedsFacts {
            op,
            why: e.to_string(),
            needs: Vec::new(),
        },
    }
}

/// The sub-leaves (slowest first) replacing B's leaf `b:β`.
fn leaf<'p>(
    radix: &Radix,
    b: &'p Poly,
    beta: &'p Poly,
    needs: &mut Needs<'_>,
    spans: &mut SmallVec<[Span<'p>; 8]>,
) -> Result<Sub> {
    let syms = needs.syms;
    if is_one(syms, b) {
        return Ok(smallvec![(Poly::constant(1), Poly::zero())]);
    }
    if beta.is_zero() {
        return Ok(smallvec![(b.clone(), Poly::zero())]);
    }
    if !needs.branch_nonneg(beta.clone())? {
        return reflected(radix, b, beta, needs);
    }
    let n = radix.len();
    let mut j = 0;
    while j < n && !needs.branch_lt(beta, &radix.place[j + 1])? {
        j += 1;
    }
    let r = exact(beta, &radix.place[j], needs)?;
    if j == n {
        spans.push(Span {
            start: n,
            end: n,
            b,
            beta,
        });
        return Ok(smallvec![(b.clone(), radix.head.mul(&r)?)]);
    }
    let top = b.add_const(-1)?.mul(beta)?;
    let fits = syms.prove(&Fact::lt(&top, &radix.place[j + 1])?);
    if fits != Truth::Proved {
        // The walk's own conditions suffice where they hold, whether the
        // leaf fits in digit j or not: when they are proved, no need.
        let (mut trial, mut span) = (Needs::new(syms, "compose"), SmallVec::new());
        if let Ok(out) = walk(radix, j, b, beta, &r, &mut trial, &mut span) {
            if trial.is_clean() {
                spans.append(&mut span);
                return Ok(out);
            }
        }
    }
    if fits == Truth::Proved
        || (fits == Truth::Unknown && needs.branch_lt(&top, &radix.place[j + 1])?)
    {
        spans.push(Span {
            start: j,
            end: j,
            b,
            beta,
        });
        return Ok(smallvec![(b.clone(), radix.alpha[j].mul(&r)?)]);
    }
    walk(radix, j, b, beta, &r, needs, spans)
}

/// A leaf `b:β` with `β < 0`. When `P = P_n` (the product of A's finite
/// leaves) divides β, every `t·β` is a multiple of P: its digits in A's
/// finite leaves are 0 and its head digit is `t·β/P` (A is read on ℤ, so a
/// negative head digit is fine), hence `A(t·β) = t·head·(β/P)` and the leaf
/// is `b : head·(β/P)`. Its residue at every boundary is 0, so it adds
/// nothing to the carry bound (no span). This is exactly the concrete
/// reflection's structural case (`docs/algebra.md` §4: `P | (b−1)·|β|`
/// with the walk of `|β|` reaching the head forces `P | β`). Otherwise the
/// refusal names the rule: no added fact gives a polynomial quotient.
fn reflected(radix: &Radix, b: &Poly, beta: &Poly, needs: &mut Needs<'_>) -> Result<Sub> {
    let p = &radix.place[radix.len()];
    if let Some(r) = beta.div_exact(p) {
        return Ok(smallvec![(b.clone(), radix.head.mul(&r)?)]);
    }
    let syms = needs.syms;
    let fact = Fact::divides(p, &beta.neg()?);
    let truth = match syms.prove(&fact) {
        Truth::Refuted => "is false for every allowed value",
        Truth::Proved => "holds, but the quotient is not a polynomial with integer coefficients",
        Truth::Unknown => "is not proved (nor is the quotient a polynomial)",
    };
    Err(needs.refuse(format!(
        "B's stride {} is negative: composition over symbols answers it when it \
         lies in A's first leaf, i.e. when {} (the product of A's other leaves) \
         divides it; {} {truth}",
        syms.show(beta),
        syms.show(p),
        fact.show(syms)
    )))
}

/// Case (b): the leaf starts in digit `j` and walks on through A's leaves.
fn walk<'p>(
    radix: &Radix,
    j: usize,
    b: &'p Poly,
    beta: &'p Poly,
    r: &Poly,
    needs: &mut Needs<'_>,
    spans: &mut SmallVec<[Span<'p>; 8]>,
) -> Result<Sub> {
    let (syms, n) = (needs.syms, radix.len());
    let e0 = exact(&radix.place[j + 1], beta, needs)?;
    let mut out: Sub = smallvec![(e0.clone(), radix.alpha[j].mul(r)?)];
    let mut rest = exact(b, &e0, needs)?;
    let mut m = j + 1;
    loop {
        if m == n {
            out.push((rest, radix.head.clone()));
            break;
        }
        if needs.branch_nonneg(radix.a[m].sub(&rest)?)? {
            out.push((rest, radix.alpha[m].clone()));
            break;
        }
        out.push((radix.a[m].clone(), radix.alpha[m].clone()));
        rest = exact(&rest, &radix.a[m], needs)?;
        m += 1;
    }
    spans.push(Span {
        start: j,
        end: m,
        b,
        beta,
    });
    out.retain(|(e, _)| !is_one(syms, e));
    if out.is_empty() {
        out.push((Poly::constant(1), Poly::zero()));
    }
    out.reverse();
    Ok(out)
}

/// At every boundary `p = Pᵢ₊₁`, the largest residues of B's leaves add up
/// to less than `p`.
fn carries(radix: &Radix, spans: &[Span<'_>], needs: &mut Needs<'_>) -> Result<()> {
    for i in 0..radix.len() {
        let p = &radix.place[i + 1];
        let mut sum = Poly::zero();
        let mut count = 0;
        for s in spans.iter().filter(|s| s.start <= i) {
            let top = if i >= s.end {
                s.b.add_const(-1)?.mul(s.beta)?
            } else {
                p.sub(s.beta)?
            };
            sum = sum.add(&top)?;
            count += 1;
        }
        if count > 1 {
            needs.require(Fact::lt(&sum, p)?)?;
        }
    }
    Ok(())
}

/// R, assembled in place while B's leaves are walked: B's profile with each
/// leaf replaced by its sub-leaves (a nested tuple when there are several).
struct Assembly {
    toks: SmallVec<[Tok; 24]>,
    shape: Vec<Poly>,
    stride: Vec<Poly>,
}

impl Assembly {
    fn with_capacity(b: &SymLayout) -> Assembly {
        let n = b.shape_leaves().len();
        Assembly {
            toks: SmallVec::with_capacity(b.profile().toks().len() + 2 * n),
            shape: Vec::with_capacity(2 * n),
            stride: Vec::with_capacity(2 * n),
        }
    }

    fn push(&mut self, sub: Sub) {
        let nested = sub.len() > 1;
        if nested {
            self.toks.push(Tok::Open);
        }
        for (e, d) in sub {
            self.toks.push(Tok::Leaf);
            self.shape.push(e);
            self.stride.push(d);
        }
        if nested {
            self.toks.push(Tok::Close);
        }
    }
}
