//! The structural stage: CuTe's divisibility walk per leaf of B (mirrored) and
//! the carry bound across leaves, with no evaluation of A. [`compose_stack`]
//! runs the whole stage on stack arrays for small layouts (no allocation);
//! [`leaf_structural`] is the per-leaf walk the general procedure also uses.

use smallvec::SmallVec;

use crate::error::{self, Error, Result};
use crate::layout::Layout;
use crate::tuple::{Profile, Tok};

use super::radix::{normalize_into, place_values, RadixView};

/// Most leaves of A, and of B, that the stack-only structural path takes.
const FAST_LEAVES: usize = 8;

/// [`compose_fast`] and its finished layout; `None` to hand over to the
/// general procedure.
#[inline(always)]
pub(super) fn compose_stack(a: &Layout, b: &Layout) -> Option<Result<Layout>> {
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

/// `A ∘ (b:β)` by divisibility, written to `out` (room for `leaves(A) + 1`)
/// fastest leaf first; `Some(count)`, or `None` when a test fails. With
/// `Pⱼ ≤ β < Pⱼ₊₁`, `Pⱼ | β` is required; then either every value stays below
/// the next boundary (`(b−1)·β < Pⱼ₊₁`: one leaf), or `β | Pⱼ₊₁` and
/// `end = b·β`, lying in leaf `j'` (`Pⱼ' < end ≤ Pⱼ'₊₁`), is a multiple of
/// `Pⱼ'` (the head has no upper bound). This is CuTe's shape-division walk,
/// mirrored and relaxed where no carry can occur (CuTe also asks `end | Pⱼ'₊₁`).
/// O(leaves(A)) comparisons and at most four divisions.
#[inline(always)]
pub(super) fn leaf_structural(
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

/// `A ∘ (b:β)` for `β < 0`, by reflection, written to `out` like
/// [`leaf_structural`]; `None` when the test below fails (the value stage
/// decides then). With `γ = −β`, `last = (b−1)·γ` and `x₀ = −last`: when `x₀`
/// is a multiple of the place value `Pₘ` of the first boundary above `last`
/// (or of the head's place value when none is), no digit of `x₀ + y`,
/// `0 ≤ y ≤ last`, carries, so `A(x₀ + y) = A(x₀) + A(y)`. Then
/// `A(t·β) = A(x₀) + h(b−1−t)` with `h(s) = A(s·γ)`, and when h is a layout
/// its digits complement (`h(b−1−t) = h(b−1) − h(t)`); `A(0) = 0` fixes the
/// constant, so `A(t·β) = −h(t)`: h's leaves with their strides negated.
/// O(leaves(A)), as [`leaf_structural`].
pub(super) fn leaf_reflected(
    r: RadixView<'_>,
    b: i64,
    beta: i64,
    out: &mut [(i64, i64)],
) -> Result<Option<usize>> {
    let Some(gamma) = beta.checked_neg() else {
        return Ok(None);
    };
    let last = (b - 1) * gamma; // B's validated span
    let l = r.leaves.len();
    let m = r.place[1..]
        .iter()
        .position(|&p| p > last)
        .map_or(l, |j| j + 1);
    if last % r.place[m] != 0 {
        return Ok(None);
    }
    let Some(n) = leaf_structural(r, b, gamma, out)? else {
        return Ok(None);
    };
    for leaf in &mut out[..n] {
        leaf.1 = leaf.1.checked_neg().ok_or(Error::Overflow {
            what: "stride of a composition",
        })?;
    }
    Ok(Some(n))
}
