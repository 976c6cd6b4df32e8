//! `compose`: functional composition `R = A ∘ B`, exact; and `reshape`.
//!
//! Contract: `A.compose(&B)` is `Ok(R)` **iff** some layout `R` has B's shape as a
//! coarsening of its own and `R(i) = A(B(i))` for every `i < size(B)` (A is
//! evaluated on all of ℕ, its first leaf keeping the whole quotient). The
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
//!    leaf); across leaves, for each boundary `p`, the sum over leaves of the
//!    largest residue `t·βₖ mod p` must stay below `p` (then no carry can occur).
//!    O(leaves(A) · leaves(B)), no evaluation of A, no allocation for ≤ 8 leaves.
//! 2. *Witness*: when some boundary can carry, the coordinate maximising every
//!    residue at it is built in O(leaves) and evaluated; a mismatch refutes every R.
//! 3. *Values*: a leaf failing divisibility is rebuilt greedily from its values
//!    (≤ 2·bₖ evaluations; the coalesced form of a layout function is unique, so
//!    the greedy choice is forced); a carry that the witness could not refute is
//!    settled by checking `A(B(c)) = Σ gₖ(cₖ)` at every coordinate (size(B)
//!    evaluations). At most [`COMPOSE_FALLBACK_BUDGET`] evaluations; beyond it
//!    the answer is [`Error::BudgetExceeded`] (undecided), never a guess.

use num_integer::Integer;
use smallvec::SmallVec;

use crate::algebra::coalesce::LayoutBuilder;
use crate::error::{self, Error, Result};
use crate::layout::Layout;
use crate::num::Ints;
use crate::tuple::{check_depth, IntTuple, Profile, Tok};

/// Ints as `(extent, stride)` pairs, fastest first.
pub(crate) type Pairs = SmallVec<[(i64, i64); 8]>;

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
    /// strides are allowed in both; B must map its domain into ℕ (A's domain).
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
        compose_stack(self, b)
            .unwrap_or_else(|| compose_impl(self, b, &mut ComposePath::Structural))
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
        if let Some(r) = compose_stack(self, b) {
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
    /// exists (the design card's headline), else an error.
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

/// A as a function on all of ℕ: coalesced finite leaves (fastest first, extents
/// ≥ 2) below an unbounded head, and their place values `P₀ = 1, Pⱼ₊₁ = Pⱼ·aⱼ`.
struct Radix {
    leaves: Pairs,
    head: i64,
    place: SmallVec<[i64; 9]>,
}

impl Radix {
    /// `None` for a layout without leaves (defined at 0 only). O(leaves).
    fn new(a: &Layout) -> Option<Radix> {
        let (s, d) = (a.shape_leaves(), a.stride_leaves());
        if s.is_empty() {
            return None;
        }
        let mut leaves: Pairs = SmallVec::from_elem((0, 0), s.len());
        let (n, head) = normalize_into(s, d, &mut leaves);
        leaves.truncate(n);
        let mut place: SmallVec<[i64; 9]> = SmallVec::from_elem(1, n + 1);
        place_values(&leaves, &mut place);
        Some(Radix {
            leaves,
            head,
            place,
        })
    }

    /// The boundaries `Pⱼ₊₁` (place value where leaf j carries into the next), ascending.
    fn boundaries(&self) -> impl Iterator<Item = i64> + '_ {
        self.place[1..].iter().copied()
    }

    fn view(&self) -> RadixView<'_> {
        RadixView {
            leaves: &self.leaves,
            place: &self.place,
            head: self.head,
        }
    }
}

/// A (flat leaves `s:d`, nonempty) on ℕ: its coalesced finite leaves, fastest
/// first, written to `out` (room for `s.len()`), and the head's stride.
/// Extent-1 leaves drop out except the first, whose stride matters past the
/// domain; a leaf merges into the next faster one when its stride continues it.
#[inline(always)]
fn normalize_into(s: &[i64], d: &[i64], out: &mut [(i64, i64)]) -> (usize, i64) {
    let mut n = 0usize;
    for k in (1..s.len()).rev() {
        let (e, st) = (s[k], d[k]);
        if e == 1 {
            continue;
        }
        if n > 0 && out[n - 1].0.checked_mul(out[n - 1].1) == Some(st) {
            out[n - 1].0 *= e; // ≤ size(A)
        } else {
            out[n] = (e, st);
            n += 1;
        }
    }
    let mut head = d[0];
    if n > 0 && out[n - 1].0.checked_mul(out[n - 1].1) == Some(head) {
        n -= 1;
        head = out[n].1;
    }
    (n, head)
}

/// Place values `P₀ = 1, Pⱼ₊₁ = Pⱼ·aⱼ` into `place` (room for `leaves + 1`).
#[inline]
fn place_values(leaves: &[(i64, i64)], place: &mut [i64]) {
    place[0] = 1;
    for (j, &(e, _)) in leaves.iter().enumerate() {
        place[j + 1] = place[j] * e; // ≤ size(A)
    }
}

/// A borrowed [`Radix`] (also built on the stack by [`compose_fast`]).
#[derive(Clone, Copy)]
struct RadixView<'a> {
    leaves: &'a [(i64, i64)],
    place: &'a [i64],
    head: i64,
}

/// One nontrivial leaf of B (extent ≥ 2, stride > 0) and where its image lies.
struct Part {
    leaf: usize,
    extent: i64,
    stride: i64,
    /// Whether the divisibility walk built it (its residues are then exact and cheap).
    structural: bool,
    /// `t ↦ A(t·stride)` on `[0, extent)` as a coalesced layout: `images[image]`, fastest first.
    image: std::ops::Range<usize>,
}

/// The images of all parts, one buffer.
type Images = SmallVec<[(i64, i64); 16]>;

fn compose_impl(a: &Layout, b: &Layout, path: &mut ComposePath) -> Result<Layout> {
    let (bs, bd) = (b.shape_leaves(), b.stride_leaves());
    if let Some(k) = (0..bs.len()).find(|&k| bs[k] > 1 && bd[k] < 0) {
        let rule = "B maps an index to a negative offset, outside A's domain";
        return Err(refusal(a, b, rule, k, None, unit_index(bs, k, 1)));
    }
    let Some(radix) = Radix::new(a) else {
        return compose_into_point(a, b);
    };
    let mut budget = Budget::new(COMPOSE_FALLBACK_BUDGET);
    let mut parts: SmallVec<[Part; 8]> = SmallVec::new();
    let mut images = Images::new();
    for (k, (&e, &st)) in bs.iter().zip(bd).enumerate() {
        if e == 1 || st == 0 {
            continue;
        }
        let start = images.len();
        images.resize(start + radix.leaves.len() + 1, (0, 0));
        let walked = leaf_structural(radix.view(), e, st, &mut images[start..])?;
        images.truncate(start + walked.unwrap_or(0));
        let structural = walked.is_some();
        if !structural {
            leaf_by_values(a, b, k, &mut images, &mut budget, path)?;
        }
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
        check_everywhere(a, b, &parts, &images, &radix, &mut budget)?;
    }
    let mut span: SmallVec<[(usize, usize); 8]> = SmallVec::from_elem((0, 0), bs.len());
    for q in &parts {
        span[q.leaf] = (q.image.start, q.image.end);
    }
    assemble(b, &images, &span)
}

/// Appends the image of B's leaf `k` when divisibility failed: `2:A(β)` for
/// two points, else the layout rebuilt from its values, or the refutation.
fn leaf_by_values(
    a: &Layout,
    b: &Layout,
    k: usize,
    images: &mut Images,
    budget: &mut Budget,
    path: &mut ComposePath,
) -> Result<()> {
    let (e, st) = (b.shape_leaves()[k], b.stride_leaves()[k]);
    if e == 2 {
        images.push((2, a.eval(st)?));
        return Ok(());
    }
    match leaf_from_values(a, e, st, budget)? {
        Ok(image) => {
            *path = ComposePath::Values;
            images.extend_from_slice(&image);
            Ok(())
        }
        Err((t, early)) => {
            *path = if early {
                ComposePath::Witness
            } else {
                ComposePath::Values
            };
            let rule = "A composed with this leaf alone is not a layout function";
            Err(refusal(
                a,
                b,
                rule,
                k,
                None,
                unit_index(b.shape_leaves(), k, t),
            ))
        }
    }
}

/// Most leaves of A, and of B, that the stack-only structural path takes.
const FAST_LEAVES: usize = 8;

/// [`compose_fast`] and its finished layout; `None` to hand over to the
/// general procedure.
#[inline(always)]
fn compose_stack(a: &Layout, b: &Layout) -> Option<Result<Layout>> {
    let mut out = Inline::default();
    match compose_fast(a, b, &mut out)? {
        Ok(()) => out.finish(b.size()),
        Err(e) => Some(Err(e)),
    }
}

/// The structural stage on stack arrays, for A and B of at most
/// [`FAST_LEAVES`] leaves and R of at most 8 leaves and 24 brackets: `Some`
/// when divisibility and the carry bound prove R, written to `out` (or R's
/// strides overflow), `None` to hand over to the general procedure, which
/// applies the same tests first. One pass over B's brackets writes R's
/// brackets and leaves directly. No heap allocation. O(leaves(A) · leaves(B)).
#[inline(always)]
fn compose_fast(a: &Layout, b: &Layout, out: &mut Inline) -> Option<Result<()>> {
    let (sa, da) = (a.shape_leaves(), a.stride_leaves());
    let (sb, db, toks) = (b.shape_leaves(), b.stride_leaves(), b.profile().toks());
    if sa.is_empty() || sa.len() > FAST_LEAVES || sb.len() > FAST_LEAVES {
        return None;
    }
    let mut leaves = [(0i64, 0i64); FAST_LEAVES];
    let (n, head) = normalize_into(sa, da, &mut leaves);
    let mut place = [1i64; FAST_LEAVES + 1];
    place_values(&leaves[..n], &mut place);
    let r = RadixView {
        leaves: &leaves[..n],
        place: &place[..=n],
        head,
    };
    // The nontrivial leaves' strides and largest offsets, for the carry test.
    let (mut beta, mut last) = ([0i64; FAST_LEAVES], [0i64; FAST_LEAVES]);
    let (mut m, mut leaf, mut reach) = (0usize, 0usize, 0i64);
    let mut img = [(0i64, 0i64); FAST_LEAVES + 1];
    for &tok in toks {
        if tok != Tok::Leaf {
            out.tok(tok)?;
            continue;
        }
        let (e, st) = (sb[leaf], db[leaf]);
        leaf += 1;
        if e == 1 || st == 0 {
            out.leaf(e, 0)?;
            continue;
        }
        if st < 0 {
            return None;
        }
        match leaf_structural(r, e, st, &mut img[..=n]) {
            Ok(Some(count)) => out.image(&img[..count])?,
            Ok(None) => return None,
            Err(err) => return Some(Err(err)),
        }
        (beta[m], last[m]) = (st, (e - 1) * st); // within B's validated span
        reach += last[m];
        m += 1;
    }
    carry_free(&place[1..=n], &beta[..m], &last[..m], reach).then_some(Ok(()))
}

/// R under construction on the stack: at most 8 leaves and 24 brackets, so
/// its depth is at most 12, below [`crate::tuple::MAX_DEPTH`].
struct Inline {
    /// Starts as all leaves: only the brackets are written.
    toks: [Tok; 24],
    shape: [i64; FAST_LEAVES],
    stride: [i64; FAST_LEAVES],
    nt: usize,
    nl: usize,
    /// R's span, `Σ |d|·(e−1)`: exact in `i128` for ≤ 8 leaves.
    reach: i128,
}

impl Default for Inline {
    fn default() -> Inline {
        Inline {
            toks: [Tok::Leaf; 24],
            shape: [0; FAST_LEAVES],
            stride: [0; FAST_LEAVES],
            nt: 0,
            nl: 0,
            reach: 0,
        }
    }
}

impl Inline {
    /// Appends one bracket; `None` when the buffer is full.
    #[inline(always)]
    fn tok(&mut self, tok: Tok) -> Option<()> {
        *self.toks.get_mut(self.nt)? = tok;
        self.nt += 1;
        Some(())
    }

    /// Appends the leaf `e:d`; `None` when the buffer is full.
    #[inline(always)]
    fn leaf(&mut self, e: i64, d: i64) -> Option<()> {
        let nl = self.nl;
        (*self.shape.get_mut(nl)?, *self.stride.get_mut(nl)?) = (e, d);
        (self.nl, self.nt) = (nl + 1, self.nt + 1);
        self.reach += i128::from(d.unsigned_abs()) * i128::from(e - 1);
        Some(())
    }

    /// Appends an image (fastest first, nonempty) slowest first, as a leaf or
    /// a nested tuple; `None` when the buffers are full.
    #[inline(always)]
    fn image(&mut self, img: &[(i64, i64)]) -> Option<()> {
        if let [(e, d)] = *img {
            return self.leaf(e, d);
        }
        self.tok(Tok::Open)?;
        for &(e, d) in img.iter().rev() {
            self.leaf(e, d)?;
        }
        self.tok(Tok::Close)
    }

    /// The layout of `size` elements (B's: each image has its leaf's extent
    /// as size), after the span check of [`assemble`]; `None` when the
    /// brackets overflowed the buffer.
    #[inline(always)]
    fn finish(self, size: i64) -> Option<Result<Layout>> {
        if self.nt > self.toks.len() {
            return None;
        }
        if self.reach > i128::from(i64::MAX) {
            return Some(Err(Error::Overflow {
                what: "span of a composition",
            }));
        }
        Some(Ok(Layout::from_trusted_sized(
            Profile::from_vec(SmallVec::from_buf_and_len(self.toks, self.nt)),
            SmallVec::from_buf_and_len(self.shape, self.nl),
            SmallVec::from_buf_and_len(self.stride, self.nl),
            size,
        )))
    }
}

/// The structural carry test for divisibility-built leaves `t·βₖ`, `t·βₖ ≤ lastₖ`:
/// at each boundary `p`, the largest residues (exact, see [`residue_bound`])
/// must sum below `p`. Boundaries above `reach = Σ lastₖ` cannot be crossed.
/// O(boundaries · leaves), no division.
fn carry_free(bounds: &[i64], beta: &[i64], last: &[i64], reach: i64) -> bool {
    for &p in bounds {
        if p > reach {
            return true;
        }
        let mut sum = 0i64;
        for (&st, &hi) in beta.iter().zip(last) {
            // 0 when p ≤ β, hi when p > hi, else p − β: a select, not a branch.
            // Each term is ≤ hi, so the sum stays ≤ reach (B's validated span).
            sum += if p > hi { hi } else { (p - st).max(0) };
        }
        if sum >= p {
            return false;
        }
    }
    true
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

/// `A ∘ (b:β)` by divisibility, written to `out` (room for `leaves(A) + 1`)
/// fastest leaf first; `Some(count)`, or `None` when a test fails. With
/// `Pⱼ ≤ β < Pⱼ₊₁`, `Pⱼ | β` is required; then either every value stays below
/// the next boundary (`(b−1)·β < Pⱼ₊₁`: one leaf), or `β | Pⱼ₊₁` and
/// `end = b·β`, lying in leaf `j'` (`Pⱼ' < end ≤ Pⱼ'₊₁`), is a multiple of
/// `Pⱼ'` (the head has no upper bound). This is CuTe's shape-division walk,
/// mirrored and relaxed where no carry can occur (CuTe also asks `end | Pⱼ'₊₁`).
/// O(leaves(A)) comparisons and at most four divisions.
#[inline(always)]
fn leaf_structural(
    r: RadixView<'_>,
    b: i64,
    beta: i64,
    out: &mut [(i64, i64)],
) -> Result<Option<usize>> {
    let (l, place) = (r.leaves.len(), r.place);
    let j = place[1..].iter().take_while(|&&p| p <= beta).count();
    // Divisions are the cost here; skip them where the quotient is known.
    let rr = if j == 0 {
        beta
    } else if beta == place[j] {
        1
    } else {
        beta / place[j]
    };
    if rr * place[j] != beta {
        return Ok(None);
    }
    if j == l {
        out[0] = (b, error::mul(r.head, rr, "stride of a composition")?);
        return Ok(Some(1));
    }
    // rr < aⱼ here, so |αⱼ·rr| fits A's validated span.
    let (top, st) = (place[j + 1], r.leaves[j].1 * rr);
    let last = (b - 1) * beta; // B's validated span
    if last < top {
        out[0] = (b, st);
        return Ok(Some(1));
    }
    let avail = if rr == 1 { r.leaves[j].0 } else { top / beta };
    let Some(end) = beta.checked_mul(b) else {
        return Ok(None);
    };
    if avail * beta != top {
        return Ok(None);
    }
    out[0] = (avail, st);
    for m in j + 1..=l {
        let n = m - j;
        if m == l {
            let q = end / place[l];
            out[n] = (q, r.head);
            return Ok((q * place[l] == end).then_some(n + 1));
        }
        let (a_m, st_m) = r.leaves[m];
        // Leaf m is whole below `end`, or holds its top digit, which stays
        // below aₘ because end ≤ Pₘ₊₁: no carry leaves the image.
        if place[m + 1] < end {
            out[n] = (a_m, st_m);
            continue;
        }
        let q = if end == place[m + 1] {
            a_m
        } else {
            end / place[m]
        };
        out[n] = (q, st_m);
        return Ok((q * place[m] == end).then_some(n + 1));
    }
    Ok(None)
}

/// Rebuilds `g(t) = A(t·β)`, `t < b`, as a coalesced layout from its values, or
/// returns the first `t` where no layout fits, and whether that was found before
/// the final sweep (refuted by the first `m + 1` values alone). Greedy is exact:
/// in a coalesced layout the fastest extent is the first `m` with
/// `g(m) ≠ m·g(1)`, so it must divide the extent. ≤ 2b evaluations, each
/// charged to `budget`.
fn leaf_from_values(
    a: &Layout,
    b: i64,
    beta: i64,
    budget: &mut Budget,
) -> Result<std::result::Result<Pairs, (i64, bool)>> {
    // Charged per evaluation, so an early refutation never waits on the budget.
    let mut g = |t: i64| {
        spend(budget, 1)?;
        a.eval(t * beta) // t·β ≤ B's validated span
    };
    let mut out = Pairs::new();
    let (mut unit, mut remaining) = (1i64, b);
    while remaining > 1 {
        let delta = g(unit)?;
        let mut m = 2;
        while m < remaining && Some(g(m * unit)?) == m.checked_mul(delta) {
            m += 1;
        }
        if m == remaining {
            out.push((remaining, delta));
            break;
        }
        if remaining % m != 0 {
            return Ok(Err((m * unit, unit == 1)));
        }
        out.push((m, delta));
        unit *= m;
        remaining /= m;
    }
    for t in 0..b {
        if Some(g(t)?) != eval_pairs(&out, t) {
            return Ok(Err((t, false)));
        }
    }
    Ok(Ok(out))
}

/// `Σ` digit·stride of `t` over fastest-first leaves; `None` on overflow.
fn eval_pairs(p: &[(i64, i64)], t: i64) -> Option<i64> {
    let (mut rest, mut acc) = (t, 0i64);
    for (k, &(e, d)) in p.iter().enumerate() {
        let digit = if k + 1 == p.len() { rest } else { rest % e };
        acc = acc.checked_add(digit.checked_mul(d)?)?;
        rest /= e;
    }
    Some(acc)
}

/// Upper bound of `Σₖ max_t (t·βₖ mod p)`; below `p` means no carry at `p`.
fn residue_bound_sum(parts: &[Part], p: i64) -> i64 {
    parts.iter().fold(0i64, |acc, q| {
        acc.saturating_add(residue_bound(q.extent, q.stride, q.structural, p))
    })
}

/// Upper bound of `max_{t<b} (t·β mod p)`, exact for structural leaves.
fn residue_bound(b: i64, beta: i64, structural: bool, p: i64) -> i64 {
    if structural {
        // The leaf's values are multiples of β; no boundary lies in (Pⱼ, β],
        // and past (b−1)·β they cover every multiple of β below p, which
        // β divides: exact maxima without division.
        if p <= beta {
            0
        } else if p > (b - 1) * beta {
            (b - 1) * beta
        } else {
            p - beta
        }
    } else {
        let m = beta % p;
        if m == 0 {
            0
        } else if (b - 1).checked_mul(m).is_some_and(|v| v < p) {
            (b - 1) * m
        } else {
            p - m.gcd(&p)
        }
    }
}

/// The `t < b` maximising `t·β mod p`, when it is cheap to find exactly.
fn argmax_residue(beta: i64, b: i64, p: i64) -> Option<i64> {
    let m = beta % p;
    if m == 0 {
        return Some(0);
    }
    if (b - 1).checked_mul(m).is_some_and(|v| v < p) {
        return Some(b - 1);
    }
    let g = m.gcd(&p);
    let n = p / g;
    if b < n {
        return None;
    }
    // t·(m/g) ≡ n−1 (mod n): t = (n−1)·(m/g)⁻¹ mod n.
    let inv = (m / g).extended_gcd(&n).x.rem_euclid(n);
    Some(((i128::from(n - 1) * i128::from(inv)) % i128::from(n)) as i64)
}

/// Evaluates the coordinate that maximises every residue at boundary `p`;
/// `Some(error)` when the values there contradict every R.
fn witness(
    a: &Layout,
    b: &Layout,
    parts: &[Part],
    images: &Images,
    p: i64,
    path: &mut ComposePath,
) -> Result<Option<Error>> {
    let mut ts: SmallVec<[i64; 8]> = SmallVec::new();
    for q in parts {
        match argmax_residue(q.stride, q.extent, p) {
            Some(t) => ts.push(t),
            None => return Ok(None),
        }
    }
    if *path == ComposePath::Structural {
        *path = ComposePath::Witness;
    }
    Ok(mismatch(a, b, parts, images, &ts)?.map(|index| carry_error(a, b, parts, &ts, p, index)))
}

/// `Some(index)` when `A(B(c)) ≠ Σ gₖ(cₖ)` at the coordinate `ts` (one entry per part).
fn mismatch(
    a: &Layout,
    b: &Layout,
    parts: &[Part],
    images: &Images,
    ts: &[i64],
) -> Result<Option<i64>> {
    let (mut x, mut sum, mut index) = (0i64, Some(0i64), 0i64);
    let suffix = flat_suffix(b.shape_leaves());
    for (q, &t) in parts.iter().zip(ts) {
        x += t * q.stride; // within B's validated span
        sum = sum.and_then(|s| s.checked_add(eval_pairs(&images[q.image.clone()], t)?));
        index += t * suffix[q.leaf];
    }
    Ok((Some(a.eval(x)?) != sum).then_some(index))
}

/// The leaf whose residue at boundary `p` (added fastest leaf first) makes the
/// coordinate `ts` carry there.
fn carry_error(a: &Layout, b: &Layout, parts: &[Part], ts: &[i64], p: i64, index: i64) -> Error {
    let mut acc = 0i64;
    let mut culprit = parts.last().map_or(0, |q| q.leaf);
    for (q, &t) in parts.iter().zip(ts).rev() {
        acc = acc.saturating_add((t * q.stride) % p);
        if acc >= p {
            culprit = q.leaf;
            break;
        }
    }
    let rule = "the leaves of B carry across a mode boundary of A";
    refusal(a, b, rule, culprit, Some(p), index)
}

fn carries_at(parts: &[Part], ts: &[i64], p: i64) -> bool {
    let sum = parts
        .iter()
        .zip(ts)
        .fold(0i64, |acc, (q, &t)| acc.saturating_add((t * q.stride) % p));
    sum >= p
}

/// Checks `A(B(c)) = Σ gₖ(cₖ)` at every coordinate of B's nontrivial leaves.
fn check_everywhere(
    a: &Layout,
    b: &Layout,
    parts: &[Part],
    images: &Images,
    radix: &Radix,
    budget: &mut Budget,
) -> Result<()> {
    let points = parts
        .iter()
        .try_fold(1i64, |acc, q| acc.checked_mul(q.extent))
        .unwrap_or(i64::MAX);
    spend(budget, points)?;
    let mut ts: SmallVec<[i64; 8]> = SmallVec::from_elem(0, parts.len());
    loop {
        if let Some(index) = mismatch(a, b, parts, images, &ts)? {
            let p = radix
                .boundaries()
                .find(|&p| carries_at(parts, &ts, p))
                .unwrap_or(1);
            return Err(carry_error(a, b, parts, &ts, p, index));
        }
        // Odometer over the parts, last (fastest) first.
        let mut k = parts.len();
        loop {
            if k == 0 {
                return Ok(());
            }
            k -= 1;
            ts[k] += 1;
            if ts[k] < parts[k].extent {
                break;
            }
            ts[k] = 0;
        }
    }
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
fn flat_suffix(shape: &[i64]) -> SmallVec<[i64; 8]> {
    let mut out: SmallVec<[i64; 8]> = SmallVec::from_elem(1, shape.len());
    for k in (0..shape.len().saturating_sub(1)).rev() {
        out[k] = out[k + 1] * shape[k + 1]; // ≤ size(B)
    }
    out
}

/// Index of the coordinate that is `t` on leaf `k` and 0 elsewhere.
fn unit_index(shape: &[i64], k: usize, t: i64) -> i64 {
    t * flat_suffix(shape)[k]
}

/// Evaluations of A the value-based stages may still spend.
struct Budget {
    limit: i64,
    spent: i64,
}

impl Budget {
    fn new(limit: i64) -> Budget {
        Budget { limit, spent: 0 }
    }
}

/// Charges `n` evaluations to the fallback budget; past it, the error reports
/// the total the computation would need so far against the whole budget.
fn spend(budget: &mut Budget, n: i64) -> Result<()> {
    let total = budget.spent.saturating_add(n);
    if total > budget.limit {
        return Err(Error::BudgetExceeded {
            what: "compose's value-based fallback",
            needed: total,
            budget: budget.limit,
        });
    }
    budget.spent = total;
    Ok(())
}

fn refusal(
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_refuses_past_its_limit() {
        // Invariant: the value stages never exceed COMPOSE_FALLBACK_BUDGET / Witness: a charge of budget + 1.
        let mut budget = Budget::new(5);
        assert!(spend(&mut budget, 5).is_ok());
        assert!(matches!(
            spend(&mut budget, 1),
            Err(Error::BudgetExceeded {
                needed: 6,
                budget: 5,
                ..
            })
        ));
    }

    #[test]
    fn greedy_rebuild_is_forced() {
        // Invariant: a layout function's coalesced form is found from its values / Witness: A(t·1) on (3,4):(1,3).
        let a: Layout = "(3,4):(1,3)".parse().expect("valid");
        let mut budget = Budget::new(100);
        let image = leaf_from_values(&a, 12, 1, &mut budget).expect("evaluates");
        assert_eq!(image, Ok(smallvec::smallvec![(4, 3), (3, 1)]));
        let bad: Layout = "(10,10):(1,10)".parse().expect("valid");
        assert_eq!(
            leaf_from_values(&bad, 25, 1, &mut budget).expect("evaluates"),
            Err((10, true))
        );
    }
}
