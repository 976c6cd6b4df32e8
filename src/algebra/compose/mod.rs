//! `compose`: functional composition `R = A ∘ B`, exact; and `reshape`.
//!
//! Contract: `A.compose(&B)` is `Ok(R)` **iff** some layout `R` has B's shape as a
//! coarsening of its own and `R(i) = A(B(i))` for every `i < size(B)` (A is
//! evaluated on every integer: floor digits, its first leaf keeping the whole
//! quotient, negative or not). The
//! criterion and its proof are in `docs/algebra.md`; in short, with A coalesced
//! into finite leaves `aⱼ:αⱼ` (fastest first) and an unbounded head,
//!
//! ```text
//! A(x) = α₀·x + Σⱼ Dⱼ·⌊x / Pⱼ₊₁⌋,   Pⱼ₊₁ = a₀···aⱼ,   Dⱼ = αⱼ₊₁ − aⱼ·αⱼ ≠ 0,
//! ```
//!
//! so `A(Σ xₖ) = Σ A(xₖ)` fails exactly through carries across the boundaries
//! `Pⱼ₊₁`. R exists iff (1) each leaf `bₖ:βₖ` of B gives a layout function
//! `t ↦ A(t·βₖ)` on `[0, bₖ)` and (2) the leaves add without a value-changing
//! carry. Three stages, cheapest first ([`ComposePath`] says which decided):
//!
//! 1. *Structural*: per leaf, CuTe's divisibility walk (mirrored: from A's fastest
//!    leaf; a negative stride by reflection, `A(t·β) = −A(t·|β|)` when the
//!    lowest offset `(b−1)·β` is a multiple of the place value above its span);
//!    across leaves, for each boundary `p`, the sum over leaves of the largest
//!    residue `t·βₖ mod p` (floor) must stay below `p` (then no carry can occur).
//!    O(leaves(A) · leaves(B)), no evaluation of A, no allocation for ≤ 8 leaves.
//! 2. *Witness*: when some boundary can carry, the coordinate maximising every
//!    residue at it is built in O(leaves) and evaluated; a mismatch refutes every R.
//! 3. *Values*: a leaf failing divisibility is rebuilt greedily from its values
//!    (≤ 2·bₖ evaluations; the coalesced form of a layout function is unique, so
//!    the greedy choice is forced); a carry that the witness could not refute is
//!    settled by checking `A(B(c)) = Σ gₖ(cₖ)` at every coordinate (size(B)
//!    evaluations). At most [`COMPOSE_FALLBACK_BUDGET`] evaluations; beyond it
//!    the answer is [`Error::BudgetExceeded`] (undecided), never a guess.
//!
//! The stages live in submodules: [`radix`] (A as a mixed-radix function on
//! ℤ), [`structural`] (the divisibility walk per leaf), [`fast`] (the
//! structural stage on the stack for operands of ≤ 8 leaves, tried first),
//! [`witness`] (carry bounds and the carry witness), [`values`] (the
//! value-based fallback and its budget). This file holds the public API, the
//! dispatcher that runs the stages in order, and the assembly of R.

mod fast;
mod radix;
mod structural;
mod values;
mod witness;

use smallvec::SmallVec;

use crate::algebra::coalesce::LayoutBuilder;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::num::Ints;
use crate::tuple::{check_depth, IntTuple, Profile, Tok};

use fast::compose_fast;
use radix::Radix;
use structural::{leaf_reflected, leaf_structural};
use values::{check_everywhere, leaf_by_values, Budget};
use witness::{residue_bound_sum, witness};

/// Most evaluations of A the value-based fallback of [`Layout::compose`] spends.
pub const COMPOSE_FALLBACK_BUDGET: i64 = 1 << 24;

/// Which stage of [`Layout::compose_explained`] decided the answer.
///
/// `Structural` also covers two-point leaves (`2:A(β)`, one evaluation);
/// `Witness` covers refutations certified by a handful of values: the carry
/// witness, or a leaf whose first values already force a fastest extent that
/// does not divide its extent.
///
/// ```
/// use hlayout::{algebra::ComposePath, Layout};
/// let a: Layout = "(4,6):(6,1)".parse().unwrap();
/// let (r, path) = a.compose_explained(&"(2,3):(6,1)".parse().unwrap());
/// assert_eq!((r.unwrap().to_string(), path), ("(2,3):(6,1)".into(), ComposePath::Structural));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComposePath {
    /// Divisibility per leaf and the carry bound across leaves; A never evaluated.
    Structural,
    /// Refuted by a handful of values: a carry coordinate, or a leaf's first values.
    Witness,
    /// Value-based: a leaf rebuilt from its values or the sum checked everywhere.
    Values,
}

impl Layout {
    /// `A ∘ B`: the layout `R` with B's shape as a coarsening and `R(i) = A(B(i))`
    /// for every `i < size(B)`, whenever one exists (the criterion and its proof: `docs/algebra.md`).
    ///
    /// Each leaf of B becomes a leaf or a nested tuple of R. Negative and zero
    /// strides are allowed in both: A is evaluated on every integer by the
    /// integer extension (floor digits, the outermost leaf keeps the quotient).
    /// Cost: O(leaves(A)·leaves(B)) on the structural path; see
    /// [`COMPOSE_FALLBACK_BUDGET`] for the rest.
    ///
    /// # Errors
    /// [`Error::NoComposition`] naming the first obstruction (the leaf of B, its
    /// stride, the boundary of A a carry crosses, a witness index);
    /// [`Error::BudgetExceeded`]; [`Error::Overflow`] when R's strides leave `i64`.
    ///
    /// ```
    /// use hlayout::Layout;
    /// let a: Layout = "(4,3,2):(6,48,1)".parse().unwrap();
    /// let r = a.compose(&"(2,6,2):(12,2,1)".parse().unwrap()).unwrap();
    /// assert_eq!(r.to_string(), "(2,(2,3),2):(12,(6,48),1)");
    /// // B's leaves carry across A's boundary at 6 (cutlass issue 2955, mirrored):
    /// let a: Layout = "(2,6):(7,1)".parse().unwrap();
    /// assert!(a.compose(&"(2,3):(3,2)".parse().unwrap()).is_err());
    /// ```
    pub fn compose(&self, b: &Layout) -> Result<Layout> {
        compose_fast(self, b).unwrap_or_else(|| compose_impl(self, b, &mut ComposePath::Structural))
    }

    /// [`Layout::compose`], also saying which stage decided.
    ///
    /// ```
    /// use hlayout::{algebra::ComposePath, Layout};
    /// let a: Layout = "(10,10):(1,10)".parse().unwrap();
    /// let (r, path) = a.compose_explained(&"(4,25):(25,1)".parse().unwrap());
    /// assert!(r.is_err()); // A(t) for t < 25 first deviates from 10·t at t = 10, and 10 ∤ 25
    /// assert_eq!(path, ComposePath::Witness);
    /// ```
    pub fn compose_explained(&self, b: &Layout) -> (Result<Layout>, ComposePath) {
        if let Some(r) = compose_fast(self, b) {
            return (r, ComposePath::Structural);
        }
        let mut path = ComposePath::Structural;
        let r = compose_impl(self, b, &mut path);
        (r, path)
    }

    /// Composition by mode with a tuple tiler: mode `m` of A is composed with its
    /// tiler entry; a tiler shorter than the rank applies to the trailing modes
    /// (the leading ones are kept), as NumPy broadcasting aligns shapes.
    ///
    /// # Errors
    /// [`Error::ProfileTooLong`] when the tiler has more entries than A has modes;
    /// otherwise those of [`Layout::compose`].
    ///
    /// ```
    /// use hlayout::Layout;
    /// let a: Layout = "(8,(4,6)):(100,(6,1))".parse().unwrap();
    /// let t: Layout = "(2,3):(6,1)".parse().unwrap();
    /// assert_eq!(a.compose_by(&[t]).unwrap().to_string(), "(8,(2,3)):(100,(6,1))");
    /// ```
    pub fn compose_by(&self, tiler: &[Layout]) -> Result<Layout> {
        let rank = self.rank();
        if tiler.len() > rank {
            return Err(Error::ProfileTooLong {
                profile_rank: tiler.len(),
                layout_rank: rank,
            });
        }
        if self.profile().toks() == [Tok::Leaf] {
            return match tiler {
                [t] => self.compose(t),
                _ => Ok(self.clone()),
            };
        }
        let mut out = LayoutBuilder::default();
        out.b.open();
        let skip = rank - tiler.len();
        for (m, mode) in self.modes().enumerate() {
            match m.checked_sub(skip) {
                Some(k) => out.push(&mode.compose(&tiler[k])?),
                None => out.push(&mode),
            }
        }
        out.b.close();
        out.finish()
    }

    /// Reshape: the view of the same elements under a new row-major shape, i.e.
    /// `self ∘ row_major(new_shape)`. It is one hierarchical layout whenever any
    /// exists (the crate's headline guarantee), else an error.
    ///
    /// # Errors
    /// [`Error::SizeMismatch`] when the sizes differ; those of [`Layout::compose`].
    ///
    /// ```
    /// use hlayout::Layout;
    /// let t: Layout = "(10,10):(1,10)".parse().unwrap();
    /// assert_eq!(t.reshape(&"(100)".parse().unwrap()).unwrap().to_string(), "((10,10)):((1,10))");
    /// assert_eq!(t.reshape(&"(5,2,5,2)".parse().unwrap()).unwrap().to_string(), "(5,2,5,2):(2,1,20,10)");
    /// assert!(t.reshape(&"(4,25)".parse().unwrap()).is_err());
    /// ```
    pub fn reshape(&self, new_shape: &IntTuple) -> Result<Layout> {
        let target = Layout::row_major(new_shape.clone())?;
        if target.size() != self.size() {
            return Err(Error::SizeMismatch {
                what: "reshape",
                left: self.size(),
                right: target.size(),
            });
        }
        self.compose(&target)
    }
}

/// One nontrivial leaf of B (extent ≥ 2, stride ≠ 0) and where its image lies.
pub(super) struct Part {
    pub(super) leaf: usize,
    pub(super) extent: i64,
    pub(super) stride: i64,
    /// Whether the divisibility walk built it from a positive stride (its
    /// residues are then exact and cheap).
    pub(super) structural: bool,
    /// `t ↦ A(t·stride)` on `[0, extent)` as a coalesced layout: `images[image]`, fastest first.
    pub(super) image: std::ops::Range<usize>,
}

/// The images of all parts, one buffer.
pub(super) type Images = SmallVec<[(i64, i64); 16]>;

fn compose_impl(a: &Layout, b: &Layout, path: &mut ComposePath) -> Result<Layout> {
    compose_budgeted(a, b, path, &mut Budget::new(COMPOSE_FALLBACK_BUDGET))
}

/// `A ∘ B` with the value stages bounded by `limit` evaluations of A instead
/// of [`COMPOSE_FALLBACK_BUDGET`], and the evaluations spent (for callers
/// that charge a composition to a budget of their own, such as the left
/// inverse's symbolic check). Same answers; `BudgetExceeded` past `limit`.
pub(crate) fn compose_within(a: &Layout, b: &Layout, limit: i64) -> (Result<Layout>, i64) {
    if let Some(r) = compose_fast(a, b) {
        return (r, 0);
    }
    let mut budget = Budget::new(limit);
    let r = compose_budgeted(a, b, &mut ComposePath::Structural, &mut budget);
    (r, budget.spent())
}

fn compose_budgeted(
    a: &Layout,
    b: &Layout,
    path: &mut ComposePath,
    budget: &mut Budget,
) -> Result<Layout> {
    let (bs, bd) = (b.shape_leaves(), b.stride_leaves());
    let Some(radix) = Radix::new(a) else {
        return compose_into_point(a, b);
    };
    let mut parts: SmallVec<[Part; 8]> = SmallVec::new();
    let mut images = Images::new();
    for (k, (&e, &st)) in bs.iter().zip(bd).enumerate() {
        if e == 1 || st == 0 {
            continue;
        }
        let start = images.len();
        let walked = if st > 0 {
            let image = leaf_structural(radix.view(), e, st)?;
            image.inspect(|image| image.write(radix.view(), &mut images));
            image.is_some()
        } else {
            leaf_reflected(radix.view(), e, st, &mut images)?
        };
        if !walked {
            leaf_by_values(a, b, k, &mut images, budget, path)?;
        }
        // The exact residue bound of the walk holds for positive strides only.
        let structural = walked && st > 0;
        parts.push(Part {
            leaf: k,
            extent: e,
            stride: st,
            structural,
            image: start..images.len(),
        });
    }
    let mut undecided = false;
    for p in radix
        .boundaries()
        .filter(|&p| residue_bound_sum(&parts, p) >= p)
    {
        if let Some(err) = witness(a, b, &parts, &images, p, path)? {
            return Err(err);
        }
        undecided = true;
    }
    if undecided {
        *path = ComposePath::Values;
        check_everywhere(a, b, &parts, &images, &radix, budget)?;
    }
    let mut span: SmallVec<[(usize, usize); 8]> = SmallVec::from_elem((0, 0), bs.len());
    for q in &parts {
        span[q.leaf] = (q.image.start, q.image.end);
    }
    assemble(b, &images, &span)
}

/// A without leaves is defined at 0 only: B must map everything to 0.
fn compose_into_point(a: &Layout, b: &Layout) -> Result<Layout> {
    let (bs, bd) = (b.shape_leaves(), b.stride_leaves());
    if let Some(k) = (0..bs.len()).find(|&k| bs[k] > 1 && bd[k] != 0) {
        return Err(refusal(
            a,
            b,
            "A has no leaves and is defined at offset 0 only",
            k,
            None,
            unit_index(bs, k, 1),
        ));
    }
    let span: SmallVec<[(usize, usize); 8]> = SmallVec::from_elem((0, 0), b.shape_leaves().len());
    assemble(b, &[], &span)
}

/// R: B's profile with leaf k replaced by its image `images[span[k]]` (fastest
/// first; an empty span is the leaf itself with stride 0), as a leaf or a nested
/// tuple. Buffers are sized first and filled by index; R's span is checked.
/// O(leaves(R)).
fn assemble(b: &Layout, images: &[(i64, i64)], span: &[(usize, usize)]) -> Result<Layout> {
    let (bs, toks) = (b.shape_leaves(), b.profile().toks());
    let nested = span.iter().filter(|&&(lo, hi)| hi - lo > 1).count();
    let n_leaves: usize = span.iter().map(|&(lo, hi)| (hi - lo).max(1)).sum();
    if nested > 0 {
        check_depth(b.depth() + 1)?;
    }
    let mut out_toks: SmallVec<[Tok; 24]> =
        SmallVec::from_elem(Tok::Leaf, toks.len() + (n_leaves - bs.len()) + 2 * nested);
    let (mut shape, mut stride): (Ints, Ints) = (
        SmallVec::from_elem(0, n_leaves),
        SmallVec::from_elem(0, n_leaves),
    );
    let (ot, sh, st) = (&mut out_toks[..], &mut shape[..], &mut stride[..]);
    let (mut nt, mut nl, mut leaf, mut reach) = (0usize, 0usize, 0usize, 0i64);
    for &tok in toks {
        if tok != Tok::Leaf {
            ot[nt] = tok;
            nt += 1;
            continue;
        }
        let (lo, hi) = span[leaf];
        if hi == lo {
            (sh[nl], st[nl]) = (bs[leaf], 0);
            (nt, nl) = (nt + 1, nl + 1);
        } else {
            if hi - lo > 1 {
                ot[nt] = Tok::Open;
                nt += 1;
            }
            for &(e, d) in images[lo..hi].iter().rev() {
                (sh[nl], st[nl]) = (e, d);
                (nt, nl) = (nt + 1, nl + 1);
                let piece = d.checked_abs().and_then(|v| v.checked_mul(e - 1));
                reach = piece
                    .and_then(|v| reach.checked_add(v))
                    .ok_or(Error::Overflow {
                        what: "span of a composition",
                    })?;
            }
            if hi - lo > 1 {
                ot[nt] = Tok::Close;
                nt += 1;
            }
        }
        leaf += 1;
    }
    Ok(Layout::from_trusted(
        Profile::from_vec(out_toks),
        shape,
        stride,
    ))
}

/// Row-major suffix products of flat leaves (index stride of each leaf).
pub(super) fn flat_suffix(shape: &[i64]) -> SmallVec<[i64; 8]> {
    let mut out: SmallVec<[i64; 8]> = SmallVec::from_elem(1, shape.len());
    for k in (0..shape.len().saturating_sub(1)).rev() {
        out[k] = out[k + 1] * shape[k + 1]; // ≤ size(B)
    }
    out
}

/// Index of the coordinate that is `t` on leaf `k` and 0 elsewhere.
pub(super) fn unit_index(shape: &[i64], k: usize, t: i64) -> i64 {
    t * flat_suffix(shape)[k]
}

pub(super) fn refusal(
    a: &Layout,
    b: &Layout,
    rule: &'static str,
    leaf: usize,
    boundary: Option<i64>,
    index: i64,
) -> Error {
    Error::NoComposition {
        a: a.to_string(),
        b: b.to_string(),
        rule,
        leaf,
        stride: b.stride_leaves()[leaf],
        boundary,
        index,
    }
}
